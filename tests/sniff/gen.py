#!/usr/bin/env python3
"""tests/sniff/gen.py — the detection corpus: one small table written in many
dialects, with what a sniffer should find written down next to each file.

    python3 tests/sniff/gen.py OUTDIR [REAL_DIR]   writes OUTDIR/*.csv and OUTDIR/expected.json

With REAL_DIR (../shared/datasets/real), the first 60 rows of each real file
are also rewritten in three dialects each (';' in Latin-1 or UTF-8, tab with
CRLF, '|' in UTF-16 with a BOM after a two-line preamble).

Deterministic (no randomness): every run writes the same bytes.  Each case
names its category (delimiter, quote, escape, line ending, encoding, header,
preamble, footer, comment, multi-row header, tables, dates, decimal comma,
padding, thousands)
and the settings that must be detected for the file to count as right."""
import csv
import io
import json
import os
import sys

NAMES = ["Zoë", "Émile", "Ann", "Bob", "Chloé", "Dan", "Eve", "François", "Gus", "Hé"]


def rows(n=24):
    out = []
    for i in range(n):
        out.append([str(1000 + i), NAMES[i % len(NAMES)] + " " + chr(65 + i % 26),
                    "%d.%02d" % (i * 7 % 90 + 1, i * 13 % 100), "2023-%02d-%02d" % (i % 12 + 1, i % 27 + 1),
                    "true" if i % 3 else "false"])
    return out


HEADER = ["id", "name", "price", "day", "ok"]


def write(rows_, delim=",", quote='"', escape=None, eol="\n", quote_all=False):
    lines = []
    for r in rows_:
        cells = []
        for c in r:
            need = delim in c or (quote and quote in c) or quote_all
            if quote and need:
                inner = c.replace(quote, (escape or quote) + quote)
                c = quote + inner + quote
            cells.append(c)
        lines.append(delim.join(cells))
    return eol.join(lines) + eol


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    cases = []

    def add(name, category, text, expect, encoding="utf-8"):
        data = text.encode(encoding) if isinstance(text, str) else text
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        cases.append({"file": name, "category": category, "expect": expect})

    body = [HEADER] + rows()
    for d, nm in [(",", "comma"), (";", "semicolon"), ("\t", "tab"), ("|", "pipe"), (":", "colon")]:
        add("delim_%s.csv" % nm, "delimiter", write(body, d), {"delimiter": d, "header": True})
    quoted = [HEADER] + [[r[0], r[1] + ", the " + r[0], r[2], r[3], r[4]] for r in rows()]
    add("quote_double.csv", "quote", write(quoted, ",", '"'), {"delimiter": ",", "quote": '"'})
    add("quote_single.csv", "quote", write(quoted, ",", "'"), {"delimiter": ",", "quote": "'"})
    esc = [HEADER] + [[r[0], 'say "hi", ' + r[1], r[2], r[3], r[4]] for r in rows()]
    add("escape_doubled.csv", "escape", write(esc, ",", '"'), {"quote": '"', "escape": None})
    add("escape_backslash.csv", "escape", write(esc, ",", '"', "\\"), {"quote": '"', "escape": "\\"})
    for eol, nm in [("\n", "LF"), ("\r\n", "CRLF"), ("\r", "CR")]:
        add("eol_%s.csv" % nm, "line ending", write(body, ",", eol=eol), {"line_ending": nm, "delimiter": ","})
    semi = write(body, ";")
    add("enc_utf8.csv", "encoding", semi, {"encoding": "utf-8", "delimiter": ";"})
    add("enc_utf8_bom.csv", "encoding", b"\xef\xbb\xbf" + semi.encode(), {"encoding": "utf-8", "bom": True})
    add("enc_utf16le_bom.csv", "encoding", b"\xff\xfe" + semi.encode("utf-16-le"), {"encoding": "utf-16le"})
    add("enc_utf16be_bom.csv", "encoding", b"\xfe\xff" + semi.encode("utf-16-be"), {"encoding": "utf-16be"})
    add("enc_utf16le.csv", "encoding", semi, {"encoding": "utf-16le", "delimiter": ";"}, "utf-16-le")
    add("enc_latin1.csv", "encoding", semi, {"encoding": "iso-8859-1", "delimiter": ";"}, "latin-1")
    cp = write([HEADER] + [[r[0], r[1] + " ’s", "€" + r[2], r[3], r[4]] for r in rows()], ";")
    add("enc_cp1252.csv", "encoding", cp, {"encoding": "windows-1252", "delimiter": ";"}, "cp1252")
    add("noheader.csv", "header", write(rows(), ","), {"header": False})
    add("header.csv", "header", write(body, ","), {"header": True, "header_rows": 1})
    add("preamble.csv", "preamble", "Sales report\nExported 2024-01-02\n\n" + write(body, ","),
        {"skip_lines": 3, "header": True, "delimiter": ","})
    add("footer.csv", "footer", write(body, ",") + "\nTotal: 24 rows\n", {"footer": True, "header": True})
    add("comment.csv", "comment", "# made by gen.py\n# columns: five\n" + write(body, ","), {"comment": "#", "leading_comments": 2})
    add("comment_pct.csv", "comment", "% exported\n" + write(body, ";"), {"comment": "%", "delimiter": ";", "leading_comments": 1})
    two = [["id", "name", "price", "day", "ok"], ["", "", "EUR", "", ""]] + rows()
    add("header_rows2.csv", "multi-row header", write(two, ","), {"header_rows": 2})
    three = [["id", "name", "price", "day", "ok"], ["key", "person", "gross", "date", "flag"],
             ["", "", "EUR", "", ""]] + rows()
    add("header_rows3.csv", "multi-row header", write(three, ";"), {"header_rows": 3, "delimiter": ";"})
    t2 = write(body, ",") + "\n" + write([["code", "label", "n"]] + [[str(i), "L%d" % i, str(i * 2)] for i in range(8)], ",")
    add("tables2.csv", "tables", t2, {"tables": 2})
    t3 = t2 + "\n" + write([["x", "y"]] + [[str(i), str(i * i)] for i in range(6)], ",")
    add("tables3.csv", "tables", t3, {"tables": 3})
    rep = write(body[:12], ",") + write(body, ",")
    # Two files concatenated: one table, the second copy of the header left out.
    add("tables_repeated_header.csv", "tables", rep, {"tables": 1, "repeated_headers": [13]})

    def dated(fmt):
        out_ = [["id", "when", "n"]]
        for i in range(24):
            day, month, year = i % 28 + 1, i % 12 + 1, 2019 + i % 5
            hour = i % 24
            s = fmt.replace("%d", "%02d" % day).replace("%m", "%02d" % month).replace("%Y", str(year)) \
                .replace("%y", "%02d" % (year % 100)).replace("%I", "%02d" % (hour % 12 or 12)) \
                .replace("%p", "AM" if hour < 12 else "PM").replace("%H", "%02d" % hour).replace("%M", "30")
            out_.append([str(i), s, str(i * 3)])
        return write(out_, ",")
    for fmt, nm in [("%d/%m/%Y", "dmy"), ("%m/%d/%Y", "mdy"), ("%d.%m.%Y", "dmy_dot"), ("%Y/%m/%d", "ymd"),
                    ("%m/%d/%y %I:%M %p", "mdy_ampm"), ("%d/%m/%y %H:%M", "dmy_2digit_time")]:
        add("date_%s.csv" % nm, "non-ISO dates", dated(fmt), {"column_format": [1, fmt]})
    dc = [["id", "amount", "rate"]] + [[str(i), "%d.%03d,%02d" % (i + 1, i * 37 % 1000, i), "0,%02d" % (i + 5)]
                                        for i in range(24)]
    add("decimal_comma.csv", "decimal comma", write(dc, ";"), {"delimiter": ";", "decimal_comma": True})
    # A footer and a second table in UTF-16: found, and cut at input offsets.
    add("footer_utf16.csv", "footer", b"\xff\xfe" + (write(body, ";") + "\nTotal: 24 rows\n").encode("utf-16-le"),
        {"encoding": "utf-16le", "footer": True})
    add("tables2_utf16.csv", "tables", b"\xfe\xff" + t2.encode("utf-16-be"), {"encoding": "utf-16be", "tables": 2})
    # Several bytes per delimiter, padding after it, thousands separators.
    add("delim_double_pipe.csv", "delimiter", write(body, "||"), {"delimiter": "||", "header": True})
    add("padding.csv", "padding", write(body, ", "), {"delimiter": ",", "padding": True, "header": True})
    th = [["id", "amount", "n"]] + [[str(i), "%d,%03d.%02d" % (i + 1, i * 37 % 1000, i), "%d,%03d" % (i + 2, i * 7)]
                                     for i in range(24)]
    add("thousands_comma.csv", "thousands", write(th, ","), {"delimiter": ",", "thousands": ",",
                                                              "column_format": [1, "1,234.56"]})
    add("thousands_dot.csv", "thousands", write(dc, ";"), {"delimiter": ";", "decimal_comma": True, "thousands": "."})
    real = sys.argv[2] if len(sys.argv) > 2 else None
    if real and os.path.isdir(real):
        for fn in sorted(os.listdir(real)):
            if not fn.endswith((".csv", ".tsv")):
                continue
            with open(os.path.join(real, fn), newline="", encoding="utf-8") as f:
                delim = "\t" if fn.endswith(".tsv") else ";" if fn.startswith("laposte") else ","
                table = list(csv.reader(f, delimiter=delim))[:61]
            stem = fn.rsplit(".", 1)[0][:24]

            def dump(d, eol):
                b = io.StringIO()
                csv.writer(b, delimiter=d, lineterminator=eol).writerows(table)
                return b.getvalue()
            semi = dump(";", "\n")
            try:
                semi.encode("latin-1")
                enc = "iso-8859-1" if not semi.isascii() else "utf-8"
            except UnicodeEncodeError:
                enc = "utf-8"
            add("real_%s_semicolon.csv" % stem, "real files", semi, {"delimiter": ";", "encoding": enc,
                                                                     "header": True}, enc)
            add("real_%s_tab_crlf.csv" % stem, "real files", dump("\t", "\r\n"),
                {"delimiter": "\t", "line_ending": "CRLF", "header": True})
            pre = "Export of %s\nsource: gen.py\n" % stem + dump("|", "\n")
            add("real_%s_pipe_utf16.csv" % stem, "real files", b"\xff\xfe" + pre.encode("utf-16-le"),
                {"delimiter": "|", "encoding": "utf-16le", "skip_lines": 2, "header": True})
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(cases, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
