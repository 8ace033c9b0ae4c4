#!/usr/bin/env python3
"""bench/sniff_accuracy.py — detection accuracy per category, simdsv against
DuckDB's sniff_csv, on the corpus of tests/sniff/gen.py.

    python3 tests/sniff/gen.py /tmp/corpus ../shared/datasets/real
    NODE_PATH=../shared/peers/node/node_modules python3 bench/sniff_accuracy.py build/simdsv /tmp/corpus

A file counts as right when every setting gen.py wrote down is right.  DuckDB
is judged on what sniff_csv says: Delimiter, Quote, Escape, NewLineDelimiter,
Comment, SkipRows, HasHeader, DateFormat/TimestampFormat (comment lines that
are all on top count as right when SkipRows skips exactly them).  What it has no
answer for counts as wrong: an encoding other than UTF-8 (it stops with
"not utf-8 encoded"), a header of several rows, several tables, a footer, a
decimal comma.  Prints a Markdown table."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "sniff"))
from check import judge  # noqa: E402

NEWLINES = {"\\n": "LF", "\\r\\n": "CRLF", "\\r": "CR"}


def duckdb_view(d, exp):
    """DuckDB's answer in the shape check.judge reads."""
    if "error" in d:
        return None
    q = d.get("Quote")
    e = d.get("Escape")
    quote = None if q in (None, "(empty)") else q
    escape = None if e in (None, "(empty)", q) else e
    comment = d.get("Comment")
    if comment in (None, "(empty)") and "comment" in exp and int(d.get("SkipRows") or 0) == exp.get("leading_comments"):
        comment = exp["comment"]  # the comment lines are all on top and skipped: read the same
    fmt = d.get("TimestampFormat") or d.get("DateFormat")
    cols = []
    if "column_format" in exp:
        cols = [{"format": ""}] * exp["column_format"][0] + [{"format": fmt or ""}]
    return {
        "delimiter": d.get("Delimiter"), "quote": quote, "escape": escape,
        "line_ending": NEWLINES.get(d.get("NewLineDelimiter"), d.get("NewLineDelimiter")),
        "comment": None if comment in (None, "(empty)") else comment,
        "skip_lines": int(d.get("SkipRows") or 0), "header": d.get("HasHeader") == "true",
        "header_rows": 1 if d.get("HasHeader") == "true" else 0,
        "encoding": "utf-8", "bom": True, "tables": [{}], "footer_lines": 0, "end_offset": 0,
        "decimal_comma": False, "columns": cols, "padding": False, "thousands": None,
    }


def main():
    binary, corpus = os.path.abspath(sys.argv[1]), sys.argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    cases = json.load(open(os.path.join(corpus, "expected.json"), encoding="utf-8"))
    files = [c["file"] for c in cases]
    # node runs in the corpus folder: a relative NODE_PATH is made absolute first.
    env = dict(os.environ, NODE_PATH=os.pathsep.join(os.path.abspath(p) for p in
                                                     os.environ.get("NODE_PATH", "").split(os.pathsep) if p))
    res = subprocess.run(["node", os.path.join(here, "duckdb_sniff.js")] + files, cwd=corpus,
                         capture_output=True, text=True, check=True, env=env)
    duck = {}
    for line in res.stdout.splitlines():
        d = json.loads(line)
        duck[d["file"]] = d
    per = {}
    for c in cases:
        exp = c["expect"]
        ours = json.loads(subprocess.run([binary, "sniff", "--json", c["file"]], cwd=corpus,
                                         capture_output=True).stdout.decode("utf-8", "replace"))
        theirs = duckdb_view(duck.get(c["file"], {"error": "missing"}), exp)
        a = not judge(exp, ours)
        b = theirs is not None and not judge(exp, theirs)
        row = per.setdefault(c["category"], [0, 0, 0])
        row[0] += 1
        row[1] += a
        row[2] += b
        if not b or not a:
            print("<!-- %s: simdsv %s, duckdb %s%s -->" % (c["file"], "right" if a else "WRONG",
                                                          "right" if b else "wrong",
                                                          "" if theirs else " (" + duck[c["file"]].get("error", "")[:60].replace("\n", " ") + ")"))
    print("| category | files | simdsv | DuckDB sniff_csv |")
    print("|---|---|---|---|")
    tot = [0, 0, 0]
    for cat in sorted(per):
        n, a, b = per[cat]
        tot = [tot[0] + n, tot[1] + a, tot[2] + b]
        print("| %s | %d | %d (%.0f%%) | %d (%.0f%%) |" % (cat, n, a, 100.0 * a / n, b, 100.0 * b / n))
    print("| all | %d | %d (%.0f%%) | %d (%.0f%%) |" % (tot[0], tot[1], 100.0 * tot[1] / tot[0], tot[2],
                                                     100.0 * tot[2] / tot[0]))


if __name__ == "__main__":
    main()
