// check.js IN.sst OUT.pb.gz: decode with pprof-format (not sst's
// decoder) the profile that sst2pprof wrote for the sst(5) stream IN,
// and compare it with what sst2pprof(1) says it writes, worked out here
// from IN: the sample types of its unit, the period when every record
// with samples has the same one, one Sample per record in order (its
// samples and weight as values, its thread as the label "thread", its
// own period as the label "period" when the profile has none), and
// its frames leaf first, each a Location of one Line of a Function of
// the frame's name and file, with the line and column of its location
// entry.  Prints the counts it checked, or each difference (status 1).
'use strict';
const fs = require('fs');
const zlib = require('zlib');
const { Profile } = require('pprof-format');

// Undo sst(5)'s escaping of a field.
function unesc(s) {
	if (s === '\\e')
		return '';
	return s.replace(/\\(x[0-9a-f]{2}|.)/g, (m, c) => {
		if (c[0] === 'x' && c.length === 3)
			return String.fromCharCode(parseInt(c.slice(1), 16));
		return { '\\': '\\', t: '\t', n: '\n', r: '\r', e: '' }[c];
	});
}
// A whole integer of a location entry, else 0.
function num(s) {
	return /^-?[0-9]+$/.test(s) ? Number(s) : 0;
}
const units = { seconds: ['cpu', 'nanoseconds', 1e9],
    none: ['weight', 'count', 1], bytes: ['space', 'bytes', 1] };

const text = fs.readFileSync(process.argv[2], 'latin1');
const recs = [];
let unit = null;
for (const line of text.split('\n')) {
	if (line === '')
		continue;
	const f = line.split('\t');
	const r = { thread: unesc(f[0]), n: Number(f[1]), w: Number(f[2]),
	    unit: f[3], per: f[4] === '-' ? null : Number(f[4]),
	    frames: [] };
	if (r.n > 0 && unit === null)
		unit = r.unit;
	const names = f[5] === '' ? [] : f[5].split(';');
	const locs = f[6] === '' ? [] : f[6].split(';');
	names.forEach((nm, i) => {
		let file = '', ln = 0, col = 0;
		if (locs.length > 0) {
			const p = locs[i].split(':');
			file = unesc(p.slice(0, p.length - 3).join(':'));
			ln = num(p[p.length - 3]);
			col = num(p[p.length - 2]);
		}
		r.frames.push({ name: unesc(nm), file, line: ln, col });
	});
	r.frames.reverse();
	recs.push(r);
}
const u = units[unit || 'seconds'];
for (const r of recs) {
	r.v = Math.round(r.w * u[2]);
	r.pv = null;
	if (r.per !== null && r.n > 0) {
		const p = Math.round(r.per * u[2]);
		if (u[2] !== 1 || p === r.per) {
			r.pv = p;
			r.v = r.n * p;
		}
	}
}
const withn = recs.filter(r => r.n > 0);
const period = withn.length > 0 && withn.every(r => r.pv !== null &&
    r.pv === withn[0].pv) ? withn[0].pv : null;

const buf = zlib.gunzipSync(fs.readFileSync(process.argv[3]));
const p = Profile.decode(buf);
const S = p.stringTable.strings;
const bad = [];
function want(what, got, exp) {
	if (String(got) !== String(exp) && bad.length < 20)
		bad.push(`${what}: got ${JSON.stringify(String(got))}, ` +
		    `expected ${JSON.stringify(String(exp))}`);
}
want('string_table[0]', S[0], '');
want('sample types', p.sampleType.map(t => S[t.type] + '/' + S[t.unit]),
    ['samples/count', u[0] + '/' + u[1]]);
if (period !== null) {
	want('period_type', p.periodType ? S[p.periodType.type] + '/' +
	    S[p.periodType.unit] : 'none', u[0] + '/' + u[1]);
	want('period', Number(p.period), period);
} else
	want('period_type', p.periodType ? 'some' : 'none', 'none');
const locs = new Map(p.location.map(l => [Number(l.id), l]));
const fns = new Map(p.function.map(f => [Number(f.id), f]));
want('samples', p.sample.length, recs.length);
let nframes = 0;
recs.forEach((r, i) => {
	const s = p.sample[i];
	if (s === undefined)
		return;
	const at = `sample ${i + 1}`;
	want(at + ' values', s.value.map(Number), [r.n, r.v]);
	const labs = s.label.map(l => S[l.key] + '=' + (l.num ?
	    Number(l.num) + ' ' + S[l.numUnit] : S[l.str]));
	const exp = ['thread=' + r.thread];
	if (period === null && r.pv !== null)
		exp.push('period=' + (r.pv ? r.pv + ' ' + u[1] : ''));
	want(at + ' labels', JSON.stringify(labs), JSON.stringify(exp));
	want(at + ' frames', s.locationId.length, r.frames.length);
	r.frames.forEach((fr, k) => {
		const l = locs.get(Number(s.locationId[k]));
		if (l === undefined || l.line.length !== 1) {
			want(`${at} frame ${k} lines`, l ? l.line.length :
			    'no location', 1);
			return;
		}
		const ln = l.line[0];
		const fn = fns.get(Number(ln.functionId));
		want(`${at} frame ${k}`, JSON.stringify([S[fn.name],
		    S[fn.systemName], S[fn.filename], Number(ln.line),
		    Number(ln.column)]), JSON.stringify([fr.name, fr.name,
		    fr.file, fr.line, fr.col]));
		nframes++;
	});
});
if (bad.length > 0) {
	console.log(bad.join('\n'));
	process.exit(1);
}
console.log(`${recs.length} samples, ${nframes} frames: as expected`);
