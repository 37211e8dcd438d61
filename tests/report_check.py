#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""report_check: is an `rdmabench report` page valid, whole and self-contained?

Usage: report_check.py PAGE.html [--figures N] [--tables N] [--regressions N]
                       [--flags N] [--max-bytes N] [--contains TEXT]...

Parses the page with the standard library's html.parser and fails (exit 1,
each problem on stderr) on: no <!DOCTYPE html>; an end tag that closes
anything but the element open last, or an element left open; an id used
twice; an <svg> outside a <figure class="plot">, a figure without exactly
one <svg>, an <svg> without a viewBox of positive size or a title; any
reference that would fetch something (src, href, xlink:href, data, action,
poster, srcset other than '#anchor' or 'data:'; <link>, <base>, <iframe>,
<object>, <embed>; url() or @import in CSS other than url(#id)); and counts
other than those asked for: figures (figure.plot), tables (table.data),
regressions (td.regression), flagged cells (td.flag).
"""

import re
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
FETCHING = {"src", "href", "xlink:href", "data", "action", "poster", "srcset", "formaction",
            "background"}
FORBIDDEN = {"link", "base", "iframe", "object", "embed", "frame"}
CSS_FETCH = re.compile(r"@import|url\(\s*['\"]?(?!#)", re.I)


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.errors = []
        self.stack = []
        self.ids = set()
        self.doctype = False
        self.count = {"figures": 0, "tables": 0, "regressions": 0, "flags": 0}
        self.fig_svgs = None  # svgs in the open figure.plot
        self.in_style = False
        self.text = []

    def err(self, msg):
        self.errors.append("line %d: %s" % (self.getpos()[0], msg))

    def handle_decl(self, decl):
        if decl.lower() == "doctype html" and not self.stack:
            self.doctype = True

    def check_attrs(self, tag, attrs):
        for k, v in attrs:
            v = v or ""
            if k == "id":
                if v in self.ids:
                    self.err("id %r used twice" % v)
                self.ids.add(v)
            if k in FETCHING and not (v.startswith("#") or v.startswith("data:")):
                self.err("<%s %s=%r> would fetch something" % (tag, k, v))
            if k == "style" and CSS_FETCH.search(v):
                self.err("<%s style=%r> would fetch something" % (tag, v))
            if k.startswith("on") and tag != "svg":
                self.err("<%s %s=...>: a script in an attribute" % (tag, k))

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.check_attrs(tag, attrs)
        if tag in FORBIDDEN:
            self.err("<%s> would fetch or embed something" % tag)
        if tag == "script":
            self.err("<script>: the page needs none")
        cls = (a.get("class") or "").split()
        if tag == "figure" and "plot" in cls:
            self.count["figures"] += 1
            self.fig_svgs = 0
        if tag == "table" and "data" in cls:
            self.count["tables"] += 1
        if tag == "td" and "regression" in cls:
            self.count["regressions"] += 1
        if tag == "td" and "flag" in cls:
            self.count["flags"] += 1
        if tag == "svg":
            self.check_svg(a)
        self.in_style = tag == "style"
        if tag not in VOID:
            self.stack.append(tag)

    def check_svg(self, a):
        if self.fig_svgs is None or "figure" not in self.stack:
            self.err("<svg> outside a figure.plot")
        else:
            self.fig_svgs += 1
        vb = (a.get("viewbox") or "").split()
        if len(vb) != 4 or float(vb[2]) <= 0 or float(vb[3]) <= 0:
            self.err("<svg> without a viewBox of positive size: %r" % a.get("viewbox"))

    def handle_startendtag(self, tag, attrs):
        self.check_attrs(tag, attrs)
        if tag in FORBIDDEN or tag == "script":
            self.err("<%s/> would fetch or run something" % tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.err("</%s> closes %s" % (tag, ("<%s>" % self.stack[-1]) if self.stack
                                          else "nothing"))
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        if tag == "figure" and self.fig_svgs is not None and "figure" not in self.stack:
            if self.fig_svgs != 1:
                self.err("a figure.plot with %d <svg>, not 1" % self.fig_svgs)
            self.fig_svgs = None
        self.in_style = False

    def handle_data(self, data):
        if self.in_style and CSS_FETCH.search(data):
            self.err("CSS that fetches: %r" % CSS_FETCH.search(data).group(0))
        self.text.append(data)


def main(argv):
    want = {}
    contains = []
    args = argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    path = args.pop(0)
    while args:
        opt = args.pop(0)
        if opt == "--contains":
            contains.append(args.pop(0))
        elif opt.startswith("--"):
            want[opt[2:].replace("-", "_")] = int(args.pop(0))
        else:
            print("report_check: unknown argument %r" % opt, file=sys.stderr)
            return 2
    with open(path, encoding="utf-8") as f:
        html = f.read()
    p = Page()
    p.feed(html)
    p.close()
    if not p.doctype:
        p.errors.append("no <!DOCTYPE html> first")
    if p.stack:
        p.errors.append("left open at the end: %s" % " ".join(p.stack))
    size = len(html.encode("utf-8"))
    if "max_bytes" in want and size > want.pop("max_bytes"):
        p.errors.append("%d bytes, over the limit" % size)
    for k, n in want.items():
        if p.count.get(k) != n:
            p.errors.append("%s: %s, not %d" % (k, p.count.get(k), n))
    text = "".join(p.text)
    for c in contains:
        if c not in text:
            p.errors.append("no text %r" % c)
    for e in p.errors:
        print("%s: %s" % (path, e), file=sys.stderr)
    return 1 if p.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
