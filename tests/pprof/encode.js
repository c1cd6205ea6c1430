// encode.js SPEC.json: write to standard output the profile.proto that
// pprof-format's encoder (not sst's) makes of a profile described in
// JSON, with names instead of string indices:
//   { "sampleType": [["samples", "count"], ["cpu", "nanoseconds"]],
//     "periodType": ["cpu", "nanoseconds"], "period": 10000000,
//     "defaultSampleType": "cpu",
//     "mapping": [{ "id": 1, "file": "/bin/x" }],
//     "function": [{ "id": 1, "name": "main", "file": "x.go" }],
//     "location": [{ "id": 1, "mapping": 1, "address": 4096,
//         "line": [[1, 12, 0]] }],
//     "sample": [{ "loc": [1], "value": [1, 10000000],
//         "label": { "thread": "t" }, "num": { "period": [5, "count"] } }] }
// With -z the output is gzip-compressed.
'use strict';
const fs = require('fs');
const zlib = require('zlib');
const pf = require('pprof-format');

let gz = false;
let args = process.argv.slice(2);
if (args[0] === '-z') {
	gz = true;
	args = args.slice(1);
}
const spec = JSON.parse(fs.readFileSync(args[0], 'utf8'));
const st = new pf.StringTable();
const s = x => st.dedup(x);
const vt = a => new pf.ValueType({ type: s(a[0]), unit: s(a[1]) });
const o = {
	sampleType: (spec.sampleType || []).map(vt),
	mapping: (spec.mapping || []).map(m => new pf.Mapping({ id: m.id,
	    filename: s(m.file || '') })),
	function: (spec.function || []).map(f => new pf.Function({ id: f.id,
	    name: s(f.name || ''), systemName: s(f.system || ''),
	    filename: s(f.file || '') })),
	location: (spec.location || []).map(l => new pf.Location({ id: l.id,
	    mappingId: l.mapping || 0, address: l.address || 0,
	    line: (l.line || []).map(x => new pf.Line({ functionId: x[0],
	    line: x[1] || 0, column: x[2] || 0 })) })),
	sample: (spec.sample || []).map(x => new pf.Sample({
	    locationId: x.loc, value: x.value,
	    label: Object.entries(x.label || {}).map(([k, v]) =>
	    new pf.Label({ key: s(k), str: s(v) })).concat(
	    Object.entries(x.num || {}).map(([k, v]) =>
	    new pf.Label({ key: s(k), num: v[0], numUnit: s(v[1]) }))) })),
	stringTable: st
};
if (spec.periodType)
	o.periodType = vt(spec.periodType);
if (spec.period)
	o.period = spec.period;
if (spec.defaultSampleType)
	o.defaultSampleType = s(spec.defaultSampleType);
let out = Buffer.from(new pf.Profile(o).encode());
if (gz)
	out = zlib.gzipSync(out);
process.stdout.write(out);
