#!/usr/bin/env python3
"""tests/sniff/adversarial.py — the generated negative corpus of the
detection: ordinary files shaped to tempt a detector into dropping lines
(single columns, repeated and identical rows, ragged and short rows near the
top, JSON columns, totals rows, comment blocks of every share, NUL bytes in
values, one-line files).  Each case is written to a temporary folder with its
exact expected records: every line is data unless the case has positive
evidence otherwise (a comment prefix on each dropped line).

    python3 tests/sniff/adversarial.py SIMDSV

Each file is read with no option by `simdsv convert --to csv` (every record,
the header first when there is one: compared field by field with the
expected records) and by `simdsv count` (the data records: compared with the
expected records less the header, where the case says whether it has one).
KNOWN_FAILURES lists the cases that fail today, each with the defect of
issue #21 that makes it fail; each must still fail (a fix empties the list).
Prints one line per failure and "N cases: N right, N known failures".
"""
import csv
import io
import os
import subprocess
import sys
import tempfile

# Cases that fail today: remove one when the fix of its defect lands.
COLON = ("delimiter choice (found by this corpus, not in #21's list): ':' inside the values wins over %s, and the "
         "header line, of another shape under ':', is left out as a preamble")
KNOWN_FAILURES = {
    "single_timestamps_header": COLON % "one column",
    "single_times_header": COLON % "one column",
    "tab_with_colon_values": COLON % "tab (4 fields on every row; ':' gives 7 in 12 of 13)",
}


def rows_text(rows, delimiter=","):
    """Lines of plain fields (no quoting needed) joined by LF, LF at the end."""
    return "".join(delimiter.join(r) + "\n" for r in rows)


def case_list():
    """(name, file bytes, expected records, header): header True/False, or
    None where a header and none are both defensible (count not checked)."""
    cases = []

    def add(name, data, records, header):
        cases.append((name, data if isinstance(data, bytes) else data.encode(), records, header))

    # Single columns: a repeated value is evidence against a header (defect 9);
    # each line is a record, none a new table (defect 1).
    yn = ["yes", "yes", "no", "yes", "yes"]
    add("single_yes_no", rows_text([[v] for v in yn]), [[v] for v in yn], False)
    bools = [["true" if i % 3 else "false"] for i in range(300)]
    add("single_bool_300", rows_text(bools), bools, False)
    dates = [["2024-%02d-%02d" % (1 + i % 12, 1 + i % 28)] for i in range(200)]
    add("single_dates_no_header", rows_text(dates), dates, False)
    codes = [["code"]] + [["C%d" % (i % 7)] for i in range(120)]
    add("single_codes_header", rows_text(codes), codes, True)
    numbers = [["n"]] + [[str(i * 7)] for i in range(50)]
    add("single_numbers_header", rows_text(numbers), numbers, True)
    add("single_number_quoted_padded", '123\n"345"\n 567\n', [["123"], ["345"], [" 567"]], False)
    # A one-column file of punctuation, one character a line: '#' is a value here.
    symbols = [[c] for c in "!$%&()*+-./:<=>?@[]^_{}~#"] + [["x"]]
    add("single_symbols_with_hash", rows_text(symbols), symbols, None)

    stamps = [["col1"]] + [["2020-12-30 %02d:25:58.745232+01" % h] for h in range(1, 5)]
    add("single_timestamps_header", rows_text(stamps), stamps, True)
    times = [["t"]] + [["%02d:%02d:%02d" % (h, h * 7 % 60, h * 13 % 60)] for h in range(1, 9)]
    add("single_times_header", rows_text(times), times, True)
    # Tab-separated, ':' inside the values (a VCF sample column).
    vcf = [["chrom", "pos", "format", "sample1"]] + \
          [["chr%d" % (1 + i % 3), str(28736 + 997 * i), "GT:AD:DP:GQ", "0/1:525,%d:729:99" % (200 + i)]
           for i in range(12)]
    add("tab_with_colon_values", rows_text(vcf, "\t"), vcf, True)

    # Repeated and identical rows.
    same = [["1", "A"]] * 400
    add("identical_rows", rows_text(same), same, False)
    same3 = [["x", "y", "z"]] * 20
    add("identical_rows_3_columns", rows_text(same3, ";"), same3, False)
    repeated = [["id", "code"]] + [[str(1 + i % 2), "A" if i % 3 else "B"] for i in range(60)]
    add("repeated_rows_with_header", rows_text(repeated), repeated, True)
    first_again = [["10", "Paris"], ["10", "Paris"], ["11", "Rome"], ["10", "Paris"], ["12", "Oslo"]]
    add("repeated_first_row", rows_text(first_again), first_again, False)

    # Two files concatenated: the second header is the one line with evidence
    # (it repeats the header exactly); it is dropped and the rows go on.
    part = [["id", "city", "temp"]] + [[str(i), "c%d" % i, "%d.5" % i] for i in range(1, 7)]
    add("concatenated_repeated_header", rows_text(part + part), part + part[1:], True)

    # Ragged rows in the first 20 lines: data, under the header (defect 2).
    ragged = [["id", "name", "score", "city", "note"], ["1", "ann", "3", "Paris"], ["2", "bob", "4", "Rome"],
              ["3", "cid", "5", "Oslo", "late"], ["4", "dan", "6", "Kyiv", "ok"], ["5", "eve", "7", "Bern", "ok"],
              ["6", "fay", "8", "Riga", "ok"]]
    add("ragged_issue_repro", rows_text(ragged), ragged, True)
    trailing = [["a", "b"], ["1", "2", ""], ["3", "4", ""], ["5", "6", ""]]
    add("trailing_empty_fields", rows_text(trailing), trailing, True)
    mixed = [["id", "qty", "price", "label"]]
    for i in range(1, 60):
        row = [str(i), str(i % 9), "%d.%02d" % (i, i % 100), "item%d" % i]
        if i in (2, 5, 6, 11, 17):
            row = row[:2]  # short rows among the first 20 lines
        elif i in (3, 13):
            row = row + ["extra"]
        mixed.append(row)
    add("ragged_first_20_lines", rows_text(mixed), mixed, True)

    # Short first rows below the header.
    short_first = [["a", "b", "c"], ["1"], ["2"], ["3", "x", "1.5"], ["4", "y", "2.5"], ["5", "z", "3.5"],
                   ["6", "w", "4.5"], ["7", "v", "5.5"]]
    add("short_first_rows", rows_text(short_first), short_first, True)

    # JSON in a column: unquoted with '|' (the quotes are text), and quoted with ','.
    payloads = ['{"datetime": "2020-01-%02d 10:00:00", "v": %d}' % (1 + i, i) for i in range(8)]
    json_pipe = [["id", "payload", "n"]] + [[str(i), p, str(i * 3)] for i, p in enumerate(payloads)]
    add("json_column_pipe", rows_text(json_pipe, "|"), json_pipe, True)
    json_comma = 'id,payload,n\n' + "".join('%d,"%s",%d\n' % (i, p.replace('"', '""'), i * 3)
                                           for i, p in enumerate(payloads))
    add("json_column_quoted", json_comma, [["id", "payload", "n"]] + [[str(i), p, str(i * 3)]
                                                                      for i, p in enumerate(payloads)], True)

    # Totals rows at the end: rows of the table (no blank line sets them apart).
    totals = [["region", "q1", "q2"]] + [["r%d" % i, str(10 * i), str(11 * i)] for i in range(1, 9)] + \
             [["Total", "360", "396"]]
    add("totals_row_same_width", rows_text(totals), totals, True)
    totals_short = totals[:-1] + [["Total", "360"]]
    add("totals_row_narrower", rows_text(totals_short), totals_short, True)

    # Comment blocks of every share of the lines, on top of a ';' table: the
    # '#' lines (positive evidence: the prefix on each) are dropped, every other
    # line is read.
    for share in range(10, 100, 10):
        total = 20
        comments = total * share // 100
        table = [["id", "name"]] + [[str(i), "n%d" % i] for i in range(1, total - comments)]
        text = "".join("# comment %d\n" % k for k in range(comments)) + rows_text(table, ";")
        add("comments_%d_percent" % share, text, table, True)
    # Interleaved comment lines, a third of the file.
    inter = [["id", "name"]] + [[str(i), "n%d" % i] for i in range(1, 13)]
    text = "id;name\n" + "".join("# note %d\n%d;n%d\n" % (i, i, i) if i % 2 else "%d;n%d\n" % (i, i)
                                 for i in range(1, 13))
    add("comments_interleaved", text, inter, True)

    # NUL bytes in values of a '|' file.
    nul = [["a", "b", "c"]] + [[str(i), "x\0y" if i == 3 else "v%d" % i, "z%d" % i] for i in range(1, 10)]
    add("nul_in_value_pipe", rows_text(nul, "|"), nul, True)
    nul_comma = [["id", "blob"]] + [[str(i), "p\0q" if i % 4 == 0 else "w%d" % i] for i in range(1, 12)]
    add("nul_in_value_comma", rows_text(nul_comma), nul_comma, True)
    # A short file: one NUL is more than 5% of its bytes, still a value.
    short_nul = [["a", "b", "c"], ["d", "e", "f"], ["g", "h\0", "i"]]
    add("nul_in_value_short_file", rows_text(short_nul), short_nul, None)

    # One-line files.
    add("one_line_numbers", "1,2,3\n", [["1", "2", "3"]], False)
    add("one_line_no_newline", "7;8;9", [["7", "8", "9"]], False)
    add("one_line_text", "a,b,c\n", [["a", "b", "c"]], None)
    add("one_line_empty_quoted_last", 'a,b,""', [["a", "b", ""]], None)
    add("one_value", "x\n", [["x"]], None)
    return cases


def run(bin_path, args):
    env = dict(os.environ, LC_ALL="C")
    env.pop("CI", None)
    p = subprocess.run([bin_path] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env, timeout=60)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace").strip()


def check(bin_path, folder, case):
    """What is wrong with one case ('' if nothing)."""
    name, data, expected, header = case
    path = os.path.join(folder, name + ".csv")
    with open(path, "wb") as f:
        f.write(data)
    status, out, err = run(bin_path, ["convert", "--to", "csv", "--no-progress", "--", path])
    if status != 0:
        return "convert fails: " + err.splitlines()[-1]
    got = [r for r in csv.reader(io.StringIO(out.decode("utf-8", "surrogateescape"), newline=""), strict=True)]
    if got != expected:
        return "records: got %d, want %d; first different: got %r, want %r" % (
            len(got), len(expected), next((g for g, e in zip(got, expected) if g != e), got[len(expected):][:1]),
            next((e for g, e in zip(got, expected) if g != e), expected[len(got):][:1]))
    if header is None:
        return ""
    status, out, err = run(bin_path, ["count", "--no-progress", "--", path])
    want = len(expected) - (1 if header else 0)
    if status != 0 or out.strip() != str(want).encode():
        return "count: got %r (status %d), want %d (%s header)" % (
            out.strip().decode(), status, want, "a" if header else "no")
    return ""


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    bin_path = os.path.abspath(argv[1])
    cases = case_list()
    failures = known = 0
    with tempfile.TemporaryDirectory(prefix="simdsv-adversarial.") as folder:
        for case in cases:
            name = case[0]
            problem = check(bin_path, folder, case)
            if problem and name in KNOWN_FAILURES:
                known += 1
            elif problem:
                print("FAIL: %s: %s" % (name, problem))
                failures += 1
            elif name in KNOWN_FAILURES:
                print("FAIL: %s: now right (fixed? remove it from KNOWN_FAILURES: %s)" % (name, KNOWN_FAILURES[name]))
                failures += 1
    for name in sorted(set(KNOWN_FAILURES) - {c[0] for c in cases}):
        print("FAIL: %s: listed in KNOWN_FAILURES but not a case" % name)
        failures += 1
    print("%d cases: %d right, %d known failures" % (len(cases), len(cases) - known - failures, known))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
