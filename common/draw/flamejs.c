/*
 * flamejs.c: the style sheet and script that sst-flame(1) writes into
 * each SVG, so that it needs nothing else: click a frame to zoom into
 * it (the frames below it across the width, its callers greyed), click
 * "Reset Zoom" to come back; "Search" asks for a regular expression,
 * paints the frames whose name matches and prints the share of the
 * total they hold, nested matches counted once.  "#s=RE" or "?s=RE" in
 * the address searches at load, "#z=N" zooms into the Nth frame.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "flame.h"
#include "svg.h"
#include "buf.h"
#include "fmt.h"

const char flame_css[] =
    "text { font-family: Verdana, sans-serif; font-size: 12px; "
    "fill: #000; }\n"
    "#title { font-size: 17px; }\n"
    ".btn { cursor: pointer; fill: #333; }\n"
    ".btn:hover { text-decoration: underline; }\n"
    "#frames g { cursor: pointer; }\n"
    "#frames g:hover rect { stroke: #000; stroke-width: 0.5; }\n"
    "#frames text { pointer-events: none; }\n"
    ".parent { opacity: 0.5; }\n"
    ".hide { display: none; }\n";

const char *const flame_js[] = {
	"\"use strict\";\n",
	"var svg = document.documentElement, frames = [], zoomed = null;\n",
	"var W = +svg.getAttribute(\"width\");\n",
	"var pad = +svg.getAttribute(\"data-pad\");\n",
	"var icicle = svg.getAttribute(\"data-icicle\") === \"1\";\n",
	"var searching = null;\n",
	"function $(id) { return document.getElementById(id); }\n",
	"function hide(e, h) {\n",
	"\tvar c = e.getAttribute(\"class\") || \"\";\n",
	"\tc = c.replace(/ ?\\bhide\\b/, \"\");\n",
	"\te.setAttribute(\"class\", (h ? c + \" hide\" : c).trim());\n",
	"}\n",
	"function rect(g) { return g.getElementsByTagName(\"rect\")[0]; }\n",
	"function name(g) {\n",
	"\tvar t = g.getElementsByTagName(\"title\")[0].textContent;\n",
	"\treturn t.split(\"\\n\")[0];\n",
	"}\n",
	"/* The frame's label, cut to fit its width as sst-flame cuts it. */\n",
	"function label(g, x, w) {\n",
	"\tvar t = g.getElementsByTagName(\"text\")[0], n = name(g);\n",
	"\tvar fit = Math.floor((w - 6) / 7.1);\n",
	"\tif (!t) {\n",
	"\t\tt = document.createElementNS(\"http://www.w3.org/2000/svg\",\n",
	"\t\t    \"text\");\n",
	"\t\tt.setAttribute(\"y\", +rect(g).getAttribute(\"y\") + 11);\n",
	"\t\tg.appendChild(t);\n",
	"\t}\n",
	"\tt.setAttribute(\"x\", (x + 3).toFixed(2));\n",
	"\tt.textContent = fit < 3 ? \"\" : n.length <= fit ? n :\n",
	"\t    n.substring(0, fit - 2) + \"..\";\n",
	"}\n",
	"function init() {\n",
	"\tvar gs = $(\"frames\").getElementsByTagName(\"g\"), i, r;\n",
	"\tfor (i = 0; i < gs.length; i++) {\n",
	"\t\tr = rect(gs[i]);\n",
	"\t\tframes.push({ g: gs[i], x: +r.getAttribute(\"x\"),\n",
	"\t\t    w: +r.getAttribute(\"width\"), y: +r.getAttribute(\"y\"),\n",
	"\t\t    fill: r.getAttribute(\"fill\") });\n",
	"\t\tgs[i].addEventListener(\"click\", click.bind(null, i));\n",
	"\t\tgs[i].addEventListener(\"mouseover\", details.bind(null, i));\n",
	"\t}\n",
	"\t$(\"reset\").addEventListener(\"click\", unzoom);\n",
	"\t$(\"search\").addEventListener(\"click\", function () {\n",
	"\t\tif (searching !== null)\n",
	"\t\t\treturn search(null);\n",
	"\t\tvar re = prompt(\"Search for (regular expression):\", \"\");\n",
	"\t\tif (re)\n",
	"\t\t\tsearch(re);\n",
	"\t});\n",
	"\tvar q = /[#?&]s=([^&]*)/.exec(location.hash + location.search);\n",
	"\tvar z = /[#?&]z=([0-9]+)/.exec(location.hash + location.search);\n",
	"\tif (z && frames[+z[1]])\n",
	"\t\tzoom(+z[1]);\n",
	"\tif (q)\n",
	"\t\tsearch(decodeURIComponent(q[1]));\n",
	"}\n",
	"function details(i) {\n",
	"\tvar g = frames[i].g;\n",
	"\tvar t = g.getElementsByTagName(\"title\")[0].textContent;\n",
	"\t$(\"details\").textContent = t.replace(/\\n/g, \"  \");\n",
	"}\n",
	"function click(i) {\n",
	"\tif (i === 0)\n",
	"\t\tunzoom();\n",
	"\telse\n",
	"\t\tzoom(i);\n",
	"}\n",
	"/* Show frame i and what it calls across the width. */\n",
	"function zoom(i) {\n",
	"\tvar f = frames[i], k, o, s = (W - 2 * pad) / f.w, under, r;\n",
	"\tzoomed = i;\n",
	"\thide($(\"reset\"), false);\n",
	"\tfor (k = 0; k < frames.length; k++) {\n",
	"\t\to = frames[k];\n",
	"\t\tr = rect(o.g);\n",
	"\t\tunder = icicle ? o.y < f.y : o.y > f.y;\n",
	"\t\tif (o.x + o.w <= f.x + 1e-6 || o.x >= f.x + f.w - 1e-6) {\n",
	"\t\t\thide(o.g, true);\n",
	"\t\t\tcontinue;\n",
	"\t\t}\n",
	"\t\thide(o.g, false);\n",
	"\t\tif (under) {\n",
	"\t\t\to.g.setAttribute(\"class\", \"parent\");\n",
	"\t\t\tr.setAttribute(\"x\", pad);\n",
	"\t\t\tr.setAttribute(\"width\", W - 2 * pad);\n",
	"\t\t\tlabel(o.g, pad, W - 2 * pad);\n",
	"\t\t} else {\n",
	"\t\t\to.g.removeAttribute(\"class\");\n",
	"\t\t\tr.setAttribute(\"x\", (pad + (o.x - f.x) * s).toFixed(2));\n",
	"\t\t\tr.setAttribute(\"width\", (o.w * s).toFixed(2));\n",
	"\t\t\tlabel(o.g, pad + (o.x - f.x) * s, o.w * s);\n",
	"\t\t}\n",
	"\t}\n",
	"}\n",
	"function unzoom() {\n",
	"\tvar k, o, r;\n",
	"\tzoomed = null;\n",
	"\thide($(\"reset\"), true);\n",
	"\tfor (k = 0; k < frames.length; k++) {\n",
	"\t\to = frames[k];\n",
	"\t\tr = rect(o.g);\n",
	"\t\to.g.removeAttribute(\"class\");\n",
	"\t\tr.setAttribute(\"x\", o.x);\n",
	"\t\tr.setAttribute(\"width\", o.w);\n",
	"\t\tlabel(o.g, o.x, o.w);\n",
	"\t}\n",
	"}\n",
	"/* Paint the frames whose name matches re; print their share. */\n",
	"function search(re) {\n",
	"\tvar k, o, m = [], sum = 0, end = 0, rx;\n",
	"\tsearching = re;\n",
	"\tfor (k = 0; k < frames.length; k++)\n",
	"\t\trect(frames[k].g).setAttribute(\"fill\", frames[k].fill);\n",
	"\tif (re === null) {\n",
	"\t\t$(\"matched\").textContent = \" \";\n",
	"\t\t$(\"search\").textContent = \"Search\";\n",
	"\t\treturn 0;\n",
	"\t}\n",
	"\ttry {\n",
	"\t\trx = new RegExp(re);\n",
	"\t} catch (e) {\n",
	"\t\t$(\"matched\").textContent = \"Bad regular expression\";\n",
	"\t\treturn -1;\n",
	"\t}\n",
	"\tfor (k = 0; k < frames.length; k++) {\n",
	"\t\to = frames[k];\n",
	"\t\tif (rx.test(name(o.g))) {\n",
	"\t\t\trect(o.g).setAttribute(\"fill\", \"#e600e6\");\n",
	"\t\t\tm.push([o.x, o.x + o.w]);\n",
	"\t\t}\n",
	"\t}\n",
	"\t/* Nested matches count once: sum the union of their spans. */\n",
	"\tm.sort(function (a, b) { return a[0] - b[0]; });\n",
	"\tfor (k = 0; k < m.length; k++) {\n",
	"\t\tif (m[k][1] <= end)\n",
	"\t\t\tcontinue;\n",
	"\t\tsum += m[k][1] - Math.max(m[k][0], end);\n",
	"\t\tend = m[k][1];\n",
	"\t}\n",
	"\tvar pct = 100 * sum / (W - 2 * pad);\n",
	"\t$(\"matched\").textContent = \"Matched: \" + pct.toFixed(2) +\n",
	"\t    \"%\";\n",
	"\t$(\"search\").textContent = \"Reset Search\";\n",
	"\treturn pct;\n",
	"}\n",
	"window.addEventListener(\"load\", init);\n",
	NULL
};

void
flame_page(double width, size_t height, int pad, int icicle,
    const char *title, const char *sub)
{
	struct buf t, u;
	char w[FMTBUF], h[FMTBUF];
	size_t i;

	buf_init(&t);
	buf_init(&u);
	svg_text(&t, title, strlen(title), SVG_XML, 0);
	svg_text(&u, sub, strlen(sub), SVG_XML, 0);
	svg_num(w, sizeof(w), width);
	printf("<?xml version=\"1.0\" standalone=\"no\"?>\n"
	    "<svg version=\"1.1\" width=\"%s\" height=\"%zu\" "
	    "viewBox=\"0 0 %s %zu\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "data-pad=\"%d\" data-icicle=\"%d\">\n<style>\n%s</style>\n"
	    "<script><![CDATA[\n", w, height, w, height, pad, icicle,
	    flame_css);
	for (i = 0; flame_js[i] != NULL; i++)
		fputs(flame_js[i], stdout);
	printf("]]></script>\n<rect width=\"100%%\" height=\"100%%\" "
	    "fill=\"#f8f8f8\"/>\n<text id=\"title\" x=\"%s\" y=\"22\" "
	    "text-anchor=\"middle\">%s</text>\n", svg_num(h, sizeof(h),
	    width / 2), t.data);
	printf("<text id=\"sub\" x=\"%s\" y=\"38\" text-anchor=\"middle\">"
	    "%s</text>\n", h, u.data);
	printf("<text id=\"reset\" class=\"btn hide\" x=\"%d\" y=\"22\">"
	    "Reset Zoom</text>\n<text id=\"search\" class=\"btn\" x=\"%s\" "
	    "y=\"22\" text-anchor=\"end\">Search</text>\n", pad,
	    svg_num(h, sizeof(h), width - pad));
	printf("<text id=\"details\" x=\"%d\" y=\"%zu\"> </text>\n<text "
	    "id=\"matched\" x=\"%s\" y=\"%zu\" text-anchor=\"end\"> </text>\n"
	    "<g id=\"frames\">\n", pad, height - 10, h, height - 10);
	buf_free(&t);
	buf_free(&u);
}
