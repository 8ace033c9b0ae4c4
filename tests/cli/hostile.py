#!/usr/bin/env python3
"""tests/cli/hostile.py — every command that prints names or values, on
hostile headers and fields generated here (never committed): a 700-byte, a
70,000-byte and a 10 MiB column name, in each column position and in all of
them at once; the same lengths as a data value; names with control bytes and
invalid UTF-8; and error messages that quote such names.  Each output is
compared byte for byte with what a simple model of the command gives.

    python3 tests/cli/hostile.py PATH/TO/simdsv

Prints "N passed, N failed"; the exit status is 1 if any case failed.  Under
a sanitizer build any report on stderr fails the case too.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1])
SIZES = [700, 70000, 10 << 20]
# The window the typed stream infers its types from (simdsv_table_stream).
STREAM_WINDOW = 8 << 20
ARG_MAX_ONE = 100000  # a longer single argument does not fit execve (MAX_ARG_STRLEN)
passed = failed = 0
PRINTABLE = re.compile(rb"[\x20-\x7e]*")
PLAIN_JSON = re.compile(rb'[^"\\\x00-\x1f]*')


def run(args, cwd, timeout=300):
    env = dict(os.environ, LC_ALL="C")
    env.pop("CI", None)
    env.pop("NO_COLOR", None)
    p = subprocess.run([BIN] + args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def check(what, args, cwd, rc=0, out=None, err=b""):
    """Runs simdsv ARGS and compares status, stdout and stderr (None: not compared)."""
    global passed, failed
    args = [a.decode("utf-8", "surrogateescape") if isinstance(a, bytes) else a for a in args]
    got_rc, got_out, got_err = run(args, cwd)
    problems = []
    if b"Sanitizer" in got_err or b"runtime error:" in got_err:
        problems.append("sanitizer report: " + got_err[:2000].decode("utf-8", "replace"))
    if got_rc != rc:
        problems.append("exit status %d, expected %d" % (got_rc, rc))
    if out is not None and got_out != out:
        problems.append("stdout differs: %d bytes, expected %d; first difference at %s" %
                        (len(got_out), len(out), first_difference(got_out, out)))
    if err is not None and got_err != err:
        problems.append("stderr differs:\n  got      %r\n  expected %r" % (got_err[:300], err[:300]))
    if problems:
        failed += 1
        print("FAIL: %s (simdsv %s)" % (what, " ".join(a if len(a) < 40 else a[:20] + "..." for a in args)))
        for p in problems:
            print("  " + p)
    else:
        passed += 1


def first_difference(a, b):
    for i in range(min(len(a), len(b))):
        if a[i] != b[i]:
            return "byte %d: %r vs %r" % (i, a[max(0, i - 20):i + 20], b[max(0, i - 20):i + 20])
    return "byte %d (one is a prefix of the other)" % min(len(a), len(b))


# ------------------------------------------------------- the display model

def display(s, limit=None):
    """(shown bytes, width) of text as table/schema/stats show it: line ends as
    '↵', tab as a space, control characters and invalid UTF-8 as U+FFFD (one
    per byte of an invalid sequence, for the isolated bytes used here), cut to
    limit columns with '…'.  Only single-width characters are used here."""
    if PRINTABLE.fullmatch(s):
        if limit is not None and len(s) > limit:
            return s[:limit - 1] + "\u2026".encode(), limit
        return s, len(s)
    pieces = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == 0x0D and s[i + 1:i + 2] == b"\n":
            pieces.append("\u21b5".encode())
            i += 2
            continue
        if c in (0x0A, 0x0D):
            pieces.append("\u21b5".encode())
        elif c == 0x09:
            pieces.append(b" ")
        elif c < 0x20 or c == 0x7F:
            pieces.append("\ufffd".encode())
        elif c < 0x80:
            pieces.append(bytes([c]))
        else:
            n = 2 if 0xC2 <= c <= 0xDF else 3 if 0xE0 <= c <= 0xEF else 0
            try:
                cp = s[i:i + n].decode("utf-8") if n else None
            except UnicodeDecodeError:
                cp = None
            if cp is None:
                pieces.append("\ufffd".encode())
            elif 0x80 <= ord(cp) < 0xA0:
                pieces.append("\ufffd".encode())
                i += n
                continue
            else:
                pieces.append(s[i:i + n])
                i += n
                continue
        i += 1
    if limit is not None and len(pieces) > limit:
        pieces = pieces[:limit - 1] + ["\u2026".encode()]
    return b"".join(pieces), len(pieces)


def table_model(rows, max_width=40):
    cols = max(len(r) for r in rows)
    widths = [0] * cols
    for r in rows:
        for j, v in enumerate(r):
            widths[j] = max(widths[j], min(display(v)[1], max_width))
    out = b""
    for r in rows:
        last = len(r)
        while last and display(r[last - 1])[1] == 0:
            last -= 1
        line = []
        for j in range(last):
            shown, w = display(r[j], widths[j])
            line.append(shown + (b" " * (widths[j] - w) if j + 1 < last else b""))
        out += b"  ".join(line) + b"\n"
    return out


PAD_MAX = 64


def schema_model(names, types, reasons):
    name_width = min(max([4] + [display(n)[1] for n in names]), PAD_MAX)
    type_width = max([4] + [len(t) for t in types])
    out = b"  #  name" + b" " * (name_width - 4) + b"  type" + b" " * (type_width - 4) + b"  reason\n"
    for i, (n, t, r) in enumerate(zip(names, types, reasons)):
        shown, w = display(n)
        out += b"%3d  " % (i + 1) + shown + b" " * max(0, name_width - w) + b"  " + t + \
            b" " * (type_width - len(t)) + b"  " + r + b"\n"
    return out


def stats_model(nrows, names, cells):
    """cells: per column (type, count, nulls, distinct, min, p25, median, p75,
    max, mean, sd, sum, min_len, max_len) as bytes."""
    heads = [b"column", b"type", b"count", b"nulls", b"distinct", b"min", b"p25", b"median", b"p75", b"max",
             b"mean", b"sd", b"sum", b"min_len", b"max_len"]
    table = [[n] + list(c) for n, c in zip(names, cells)]
    widths = [max([len(h)] + [display(r[k])[1] for r in table]) for k, h in enumerate(heads)]
    widths[0] = min(widths[0], PAD_MAX)
    out = b"%d rows, %d columns\n" % (nrows, len(names))
    for r in [heads] + table:
        line = []
        for k, v in enumerate(r):
            shown, w = display(v)
            pad = b" " * max(0, widths[k] - w)
            line.append(pad + shown if 2 <= k <= 4 else shown + pad)
        out += b"  ".join(line) + b"\n"
    return out


def csv_field(v):
    if any(c in v for c in b',"\r\n'):
        return b'"' + v.replace(b'"', b'""') + b'"'
    return v


def csv_model(rows):
    return b"".join(b",".join(csv_field(v) for v in r) + b"\n" for r in rows)


def json_string(v):
    if PLAIN_JSON.fullmatch(v):
        return b'"' + v + b'"'
    out = b'"'
    for c in v:
        if c == 0x22:
            out += b'\\"'
        elif c == 0x5C:
            out += b"\\\\"
        elif c == 0x0A:
            out += b"\\n"
        elif c == 0x0D:
            out += b"\\r"
        elif c == 0x09:
            out += b"\\t"
        elif c < 0x20:
            out += b"\\u%04x" % c
        else:
            out += bytes([c])
    return out + b'"'


def json_model(objects):
    """convert --to json: the objects of --to jsonl as one array."""
    return b"[" + b",".join(b"\n" + o for o in objects) + b"\n]\n" if objects else b"[]\n"


def frequency_model(rows):
    out = b"field,value,count\n"
    for j, name in enumerate(rows[0]):
        counts = {}
        for r in rows[1:]:
            counts[r[j]] = counts.get(r[j], 0) + 1
        for v, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:10]:
            out += csv_field(name) + b"," + csv_field(v) + b",%d\n" % n
    return out


def headers_model(names):
    digits = len(str(len(names)))
    return b"".join(b"%*d  " % (digits, i + 1) + n + b"\n" for i, n in enumerate(names))


# ------------------------------------------------------------------ cases

def every_command(tag, d, rows, int_columns, json_ints=None):
    """Every command over f.csv = rows (all fields plain: no quoting needed);
    int_columns: the columns whose values are all integers (else strings);
    json_ints: those the typed JSON's stream sees as such (int_columns)."""
    json_ints = int_columns if json_ints is None else json_ints
    names = rows[0]
    data = rows[1:]
    f = "f.csv"
    with open(os.path.join(d, f), "wb") as fh:
        fh.write(csv_model(rows))
    ncols = len(names)
    check(tag + ": headers", ["headers", f], d, out=headers_model(names))
    check(tag + ": headers --just-names", ["headers", "--just-names", f], d, out=b"".join(n + b"\n" for n in names))
    check(tag + ": check", ["check", f], d, out=b"f.csv: ok, %d records\n" % len(data))
    check(tag + ": count", ["count", f], d, out=b"%d\n" % len(data))
    check(tag + ": convert --to csv", ["convert", "--to", "csv", f], d, out=csv_model(rows))
    objects = [b"{" + b",".join(json_string(n) + b":" + (v if j in json_ints else json_string(v))
                                for j, (n, v) in enumerate(zip(names, r))) + b"}" for r in data]
    check(tag + ": convert --to json", ["convert", "--to", "json", f], d, out=json_model(objects))
    check(tag + ": convert --to jsonl", ["convert", "--to", "jsonl", f], d, out=b"".join(o + b"\n" for o in objects))
    check(tag + ": head", ["head", f], d, out=csv_model(rows))
    check(tag + ": tail -n 1", ["tail", "-n", "1", f], d, out=csv_model([names, data[-1]]))
    check(tag + ": slice", ["slice", "--start", "1", f], d, out=csv_model([names] + data[1:]))
    check(tag + ": select", ["select", "%d-1" % ncols, f], d, out=csv_model([r[::-1] for r in rows]))
    if len(names[-1]) < ARG_MAX_ONE:
        check(tag + ": select by name", ["select", names[-1], f], d, out=csv_model([[r[-1]] for r in rows]))
    check(tag + ": search", ["search", data[-1][0].decode(), f], d,
          out=csv_model([names] + [r for r in data if any(data[-1][0] in v for v in r)]))
    check(tag + ": frequency", ["frequency", f], d, out=frequency_model(rows))
    check(tag + ": table", ["table", f], d, out=table_model(rows))
    check(tag + ": cat rows", ["cat", "rows", f, f], d, out=csv_model(rows + data))
    check(tag + ": cat columns", ["cat", "columns", f, f], d, out=csv_model([r + r for r in rows]))
    types, reasons = [], []
    for j in range(ncols):
        if j in int_columns:
            types.append(b"int64")
            reasons.append(b"int64: every non-null sampled value (%d)" % len(data))
        else:
            first = data[0][j]
            types.append(b"string")
            reasons.append(b"string: not a number, bool, date or timestamp in `%s` at line 2" % first[:39])
    check(tag + ": schema", ["schema", f], d, out=schema_model(names, types, reasons))
    cells = []
    for j in range(ncols):
        values = [r[j] for r in data]
        if j in int_columns:
            # stats: mean, sample deviation and sum with 7 digits; quartiles at
            # position floor(q (n - 1)) of the sorted values
            ints = sorted(int(v) for v in values)
            n = len(ints)
            mean = sum(ints) / n
            sd = b"%.7g" % math.sqrt(sum((x - mean) ** 2 for x in ints) / (n - 1)) if n > 1 else b""
            quart = [b"%d" % ints[int(q * (n - 1))] for q in (0.25, 0.5, 0.75)]
            cells.append((b"int64", b"%d" % n, b"0", b"%d" % len(set(ints)), b"%d" % ints[0], *quart,
                          b"%d" % ints[-1], b"%.7g" % mean, sd, b"%d" % sum(ints), b"", b""))
        else:
            def short(v):
                return v if len(v) <= 40 else v[:40] + b"..."
            cells.append((b"string", b"%d" % len(values), b"0", b"%d" % len(set(values)), short(min(values)), b"",
                          b"", b"", short(max(values)), b"", b"", b"", b"%d" % min(len(v) for v in values),
                          b"%d" % max(len(v) for v in values)))
    check(tag + ": stats", ["stats", f], d, out=stats_model(len(data), names, cells))


def long_names(d):
    for size in SIZES:
        long = b"n" * size
        for pos in range(3):
            names = [b"a", b"b", b"c"]
            names[pos] = long
            every_command("name of %d bytes in column %d" % (size, pos + 1), d,
                          [names, [b"1", b"2", b"3"], [b"3", b"4", b"5"]], {0, 1, 2})
        if size < ARG_MAX_ONE:
            every_command("names of %d bytes in every column" % size, d,
                          [[b"x" + long, b"y" + long, b"z" + long], [b"1", b"2", b"3"], [b"3", b"4", b"5"]],
                          {0, 1, 2})


def long_values(d):
    for size in SIZES:
        value = b"v" * size
        for pos in range(3):
            row = [b"1", b"2", b"3"]
            row[pos] = value
            # The typed JSON's types come from the stream's first 8 MiB: past
            # a longer value no column after it has a value there (strings).
            ints = {0, 1, 2} - {pos}
            every_command("value of %d bytes in column %d" % (size, pos + 1), d,
                          [[b"a", b"b", b"c"], row, [b"7", b"8", b"9"]], ints,
                          ints if size < STREAM_WINDOW else set(range(pos)))


def control_names(d):
    # ESC sequences, C0 controls, DEL, isolated invalid bytes, a C1 control
    # (U+0085) and a valid accented letter.
    names = [b"a\x1b[31mred\x1b[0m", b"\x01\x7f", b"caf\xc3\xa9\xc2\x85"]
    rows = [names, [b"1", b"2", b"3"], [b"3", b"4", b"5"]]
    every_command("names with control characters", d, rows, {0, 1, 2})
    bad = [b"x\xff", b"\xfe\xfey", b"z"]
    with open(os.path.join(d, "bad.csv"), "wb") as fh:
        fh.write(csv_model([bad, [b"1", b"2", b"3"]]))
    # --encoding utf-8: without it, detection reads bytes invalid in UTF-8 as
    # Windows-1252 (docs/SNIFF.md); here the UTF-8 checks are under test.
    check("invalid UTF-8 name, strict: an error", ["schema", "--encoding", "utf-8", "bad.csv"], d, rc=1,
          err=b"bad.csv:1:2: error: invalid UTF-8 byte sequence (byte 1, record 1, field 1)\n")
    # Lossy: the library gives U+FFFD for each invalid byte; schema shows it.
    lossy = [b"x\xef\xbf\xbd", b"\xef\xbf\xbd\xef\xbf\xbdy", b"z"]
    reasons = [b"int64: every non-null sampled value (1)"] * 3
    check("invalid UTF-8 name, lossy: schema", ["schema", "--encoding", "utf-8", "--utf8", "lossy", "bad.csv"], d,
          out=schema_model([b"x\xff", b"\xfe\xfey", b"z"], [b"int64"] * 3, reasons))
    check("invalid UTF-8 name, lossy: headers", ["headers", "--encoding", "utf-8", "--utf8", "lossy", "bad.csv"], d,
          out=headers_model(lossy))
    check("invalid UTF-8 name, lossy: table", ["table", "--encoding", "utf-8", "--utf8", "lossy", "bad.csv"], d,
          out=table_model([lossy, [b"1", b"2", b"3"]]))


def empty_cells(d):
    # Nothing but empty fields: the table has no bytes to point into.
    with open(os.path.join(d, "empty_cells.csv"), "wb") as fh:
        fh.write(b",\n,\n")
    check("only empty cells: table", ["table", "empty_cells.csv"], d, out=b"\n\n")
    check("only empty cells: table --no-header", ["table", "--no-header", "empty_cells.csv"], d, out=b"\n\n")
    with open(os.path.join(d, "open_quote.csv"), "wb") as fh:
        fh.write(b'"')
    check("one open quote, lenient: table", ["table", "--lenient", "open_quote.csv"], d, out=b"\n")


def messages(d):
    # A message that quotes a column name shows its control bytes as \xHH.
    with open(os.path.join(d, "esc.csv"), "wb") as fh:
        fh.write(b"a,\x1b]0;owned\x07b\n1,2\n3,x\n")
    check("a message quoting a name with control bytes", ["stats", "--schema", "2:int64", "esc.csv"], d, rc=1,
          err=b"esc.csv:3: error: value `x` does not fit column `\\x1B]0;owned\\x07b` of type int64 (use --on-error "
              b"null to make it null) (row at byte 18)\n")
    for size in SIZES:
        long = b"n" * size
        # An unterminated quoted field of that size: the message gives the position.
        with open(os.path.join(d, "open.csv"), "wb") as fh:
            fh.write(b"a,b\n1,\"" + long)
        # (The quote is given: detection reads this file without quoting, which parses it.)
        check("unclosed quoted field of %d bytes: check" % size, ["check", "--quote", "\"", "open.csv"], d, rc=1,
              err=b"open.csv:2:3: error: quoted field opened here is not closed before the end of the input "
                  b"(--lenient reads stray quotes as text, --no-quote reads every quote as text) "
                  b"(byte 6, record 2, field 2)\nopen.csv: 1 error\n")
        # A value that does not fit the column's type quotes the column's name (cut).
        with open(os.path.join(d, "typed.csv"), "wb") as fh:
            fh.write(b"a," + long + b"\n1,2\n3,x\n")
        if size < ARG_MAX_ONE:
            spec = "2:int64"
            offset = len(b"a," + long + b"\n1,2\n")
            check("a value that does not fit column %d bytes long" % size, ["stats", "--schema", spec, "typed.csv"],
                  d, rc=1,
                  err=b"typed.csv:3: error: value `x` does not fit column `%s` of type int64 (use --on-error null to "
                      b"make it null) (row at byte %d)\n" % (long[:60], offset))
            check("select: no column named (%d bytes)" % size, ["select", "m" + long.decode(), "typed.csv"], d,
                  rc=2, err=b"simdsv select: no column named 'm" + long + b"'\n")


with tempfile.TemporaryDirectory(prefix="simdsv-hostile.") as tmp:
    empty_cells(tmp)
    control_names(tmp)
    messages(tmp)
    long_names(tmp)
    long_values(tmp)

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
