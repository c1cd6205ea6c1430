// drive.js SVG [URLSUFFIX] [ACTION ...]: load a flame graph of
// sst-flame(1) in jsdom, run its script, and do each action, printing
// what the page shows after it:
//   search RE   what the Search button does after the prompt
//   click N     a click on the Nth frame (0: the root)
//   reset       a click on "Reset Zoom"
// After each: the "matched" text, then one line per frame shown (index,
// x, width, class, label, fill when highlighted) and how many are
// hidden.  jsdom comes from tests/pics/install.sh (NODE_PATH, or the
// cache directory it installs into).
"use strict";
const fs = require("fs");
const path = require("path");
const os = require("os");
let jsdom;
try {
	jsdom = require("jsdom");
} catch (e) {
	const dir = process.env.SST_JSDOM_DIR || path.join(
	    process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"),
	    "sst-jsdom");
	jsdom = require(path.join(dir, "node_modules", "jsdom"));
}
const args = process.argv.slice(2);
const file = path.resolve(args.shift());
let suffix = "";
if (args.length > 0 && /^[#?]/.test(args[0]))
	suffix = args.shift();
const dom = new jsdom.JSDOM(fs.readFileSync(file, "utf8"), {
	contentType: "image/svg+xml",
	url: "file://" + file + suffix,
	runScripts: "outside-only"
});
const win = dom.window, doc = win.document;
// jsdom runs no <script> of an SVG document: run the SVG's own script
// text in its window before the load event, as a browser would.
const scripts = doc.getElementsByTagName("script");
if (scripts.length !== 1) {
	console.error("drive.js: expected one script, found " + scripts.length);
	process.exit(1);
}
win.eval(scripts[0].textContent);
function show(what) {
	const gs = doc.getElementById("frames").getElementsByTagName("g");
	let hidden = 0;
	console.log("== " + what + ": " +
	    doc.getElementById("matched").textContent);
	for (let i = 0; i < gs.length; i++) {
		const cls = gs[i].getAttribute("class") || "";
		if (/\bhide\b/.test(cls)) {
			hidden++;
			continue;
		}
		const r = gs[i].getElementsByTagName("rect")[0];
		const t = gs[i].getElementsByTagName("text")[0];
		const fill = r.getAttribute("fill");
		console.log([i, r.getAttribute("x"), r.getAttribute("width"),
		    cls || "-", t ? t.textContent || "-" : "-"].join(" ") +
		    (fill === "#e600e6" ? " highlighted" : ""));
	}
	console.log("hidden " + hidden + ", reset " +
	    (/\bhide\b/.test(doc.getElementById("reset")
	    .getAttribute("class")) ? "hidden" : "shown"));
}
function click(el) {
	el.dispatchEvent(new win.MouseEvent("click", { bubbles: true }));
}
win.addEventListener("load", () => {
	show("load " + (suffix || "-"));
	while (args.length > 0) {
		const a = args.shift();
		if (a === "search") {
			const re = args.shift();
			win.prompt = () => re;
			click(doc.getElementById("search"));
			show("search " + re);
		} else if (a === "click") {
			const n = +args.shift();
			click(doc.getElementById("frames")
			    .getElementsByTagName("g")[n]);
			show("click " + n);
		} else if (a === "reset") {
			click(doc.getElementById("reset"));
			show("reset");
		} else {
			console.error("drive.js: unknown action " + a);
			process.exit(2);
		}
	}
});
