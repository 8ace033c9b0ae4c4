"""tests/cli/json_check.py — `simdsv convert --to jsonl` and `--to json`
read back by Python's json module, every value checked against the field's
text as `convert --to csv` gives it (same records, decoded), numbers to full
precision.

    python3 tests/cli/json_check.py PATH/TO/simdsv DIR...

Every .csv/.tsv/.txt file under the DIRs (the conformance corpus, the real
datasets) that the typed reader accepts is checked:
- every jsonl line is one JSON object with the same keys in the same order,
  and --to json is exactly the array of those objects;
- an integer equals int(text); a float equals float(text) (decimal comma
  allowed) bit for bit, so the shortest form lost nothing, and a value that
  is not finite is the string "NaN", "Infinity" or "-Infinity";
- null is an empty (or missing) field; true/false are the bool spellings;
- a string is the field's text, or an ISO 8601 date or timestamp.
Then the misfit rule on a generated file: an int64 column that meets `x`
after the stream's 8 MiB inference window writes it as the string "x" and
goes on (and with --schema that column is an error unless --on-error null);
and `schema` reading only its sample: a regular file's middle read apart,
a pipe's first window.
"""
import csv
import io
import json
import math
import os
import re
import subprocess
import sys
import tempfile

ISO = re.compile(r"^-?\d{4,}-\d\d-\d\d(T\d\d:\d\d:\d\d(\.\d{6})?Z?)?$")
BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
failures = []


def fail(where, why):
    failures.append(where + ": " + why)


def run(simdsv, args):
    p = subprocess.run([simdsv] + args, capture_output=True)
    return p.returncode, p.stdout


# A number's text as Python reads it, for each way the typed reader may have
# read it: as written, with a decimal comma, or with digit-group separators
# (1,234.5 or 1.234,5: the sniffer detects them per column).
GROUPED = re.compile(r"^[+-]?\d{1,3}([,.' ])\d{3}(?:\1\d{3})*(?:[,.]\d+)?$")


def number_texts(text):
    t = text.strip()
    texts = [t]
    if "," in t and "." not in t:
        texts.append(t.replace(",", "."))
    m = GROUPED.match(t)
    if m:
        ungrouped = t.replace(m.group(1), "")
        texts += [ungrouped, ungrouped.replace(",", ".")]
    return texts


def parses(kind, text, value):
    for t in number_texts(text):
        try:
            if kind(t) == value:
                return True
        except (ValueError, TypeError):
            pass
    return False


def check_value(where, value, text):
    if value is None:
        if text not in ("", None):
            fail(where, "null for %r" % text)
    elif isinstance(value, bool):
        if text not in BOOLS or BOOLS[text] != value:
            fail(where, "%r for %r" % (value, text))
    elif isinstance(value, (int, float)):
        # An int64 is int(text); a float (an integral one is written as an
        # integer) is float(text), the same double to the last bit.
        if not (isinstance(value, int) and parses(int, text, value) or parses(float, text, value)):
            fail(where, "%r for %r (not the same number)" % (value, text))
    elif isinstance(value, str):
        if value in ("NaN", "Infinity", "-Infinity"):
            try:
                x = float(number_text(text))
                ok = value == "NaN" and math.isnan(x) or value != "NaN" and math.isinf(x) and (x > 0) == (value[0] != "-")
            except ValueError:
                ok = value == text
            if not ok:
                fail(where, "%r for %r" % (value, text))
        elif value != text and not ISO.match(value):
            fail(where, "string %r for %r" % (value, text))
    else:
        fail(where, "not a scalar: %r" % (value,))


def check_file(simdsv, path):
    rc, out = run(simdsv, ["convert", "--to", "jsonl", path])
    if rc != 0:
        return False
    rows = []
    for n, line in enumerate(out.split(b"\n")[:-1]):
        try:
            rows.append(json.loads(line, object_pairs_hook=lambda pairs: pairs))
        except ValueError as e:
            fail("%s line %d" % (path, n + 1), "not JSON: %s" % e)
            return True
    if out and not out.endswith(b"\n"):
        fail(path, "output does not end with a line end")
    rc2, whole = run(simdsv, ["convert", "--to", "json", path])
    try:
        array = json.loads(whole, object_pairs_hook=lambda pairs: pairs)
    except ValueError as e:
        fail(path, "--to json is not JSON: %s" % e)
        return True
    if rc2 != 0 or array != rows:
        fail(path, "--to json is not the array of the jsonl objects")
    rc3, text = run(simdsv, ["convert", "--to", "csv", path])
    if rc3 != 0:
        fail(path, "convert --to csv failed where jsonl did not")
        return True
    records = list(csv.reader(io.StringIO(text.decode("utf-8"), newline="")))
    records = records[len(records) - len(rows):] if rows else []
    if len(records) != len(rows):
        fail(path, "%d CSV records for %d JSON rows" % (len(records), len(rows)))
        return True
    keys = [k for k, _ in rows[0]] if rows else []
    for i, (row, rec) in enumerate(zip(rows, records)):
        if [k for k, _ in row] != keys:
            fail("%s row %d" % (path, i + 1), "keys differ from the first row's")
            continue
        for j, (key, value) in enumerate(row):
            check_value("%s row %d column %d" % (path, i + 1, j + 1), value, rec[j] if j < len(rec) else None)
    return True


def check_misfit(simdsv, tmp):
    """An int64 column meets `x` after the inference window."""
    path = os.path.join(tmp, "late.csv")
    rows = (9 << 20) // 12  # more than 9 MiB: past the 8 MiB window
    with open(path, "w") as f:
        f.write("n,s\n")
        for i in range(rows):
            f.write("%d,r%07d\n" % (i, i))
        f.write("x,last\n%d,end\n" % rows)
    rc, out = run(simdsv, ["convert", "--to", "jsonl", path])
    lines = out.split(b"\n")
    if rc != 0 or lines[rows] != b'{"n":"x","s":"last"}' or lines[rows + 1] != b'{"n":%d,"s":"end"}' % rows \
            or lines[0] != b'{"n":0,"s":"r0000000"}':
        fail("late misfit", "status %d, lines %r %r" % (rc, lines[rows:rows + 2], lines[0]))
    rc, out = run(simdsv, ["convert", "--to", "jsonl", "--schema", "n:int64", path])
    if rc != 1:
        fail("late misfit with --schema", "status %d, not 1" % rc)
    rc, out = run(simdsv, ["convert", "--to", "jsonl", "--schema", "n:int64", "--on-error", "null", path])
    lines = out.split(b"\n")
    if rc != 0 or lines[rows] != b'{"n":null,"s":"last"}':
        fail("late misfit with --schema --on-error null", "status %d, line %r" % (rc, lines[rows]))


def check_schema_sample(simdsv, tmp):
    """schema reads a regular file's start, and its middle and end apart
    (pread), so a value there names its row's byte; a pipe gives its first
    window only; --infer-rows all reads everything (and knows the line)."""
    path = os.path.join(tmp, "sample.csv")
    rows = ["%d,r%d\n" % (i, i) for i in range(1600000)]  # about 24 MB: past what the start window holds
    header = "n,s\n"
    total = sum(len(r) for r in rows)
    starts, at = [], len(header)
    for r in rows:
        starts.append(at)
        at += len(r)
    # The 10th row after the middle window's start gets a text of the same length.
    middle = len(header) + total // 2
    k = next(i for i, o in enumerate(starts) if o >= middle) + 10
    text = "x" * len(str(k))
    rows[k] = "%s,r%d\n" % (text, k)
    with open(path, "w") as f:
        f.write(header + "".join(rows))
    want = "string: not a number, bool, date or timestamp in `%s` in the row at byte %d" % (text, starts[k])
    rc, out = run(simdsv, ["schema", path])
    if rc != 0 or want.encode() not in out:
        fail("schema of a file: the middle window", "status %d, %r (wanted %r)" % (rc, out[:300], want))
    with open(path, "rb") as f:
        p = subprocess.run([simdsv, "schema", "-"], stdin=f, capture_output=True)
    if p.returncode != 0 or b"  n     int64" not in p.stdout:
        fail("schema of a pipe: its first window", "status %d, %r" % (p.returncode, p.stdout[:300]))
    rc, out = run(simdsv, ["schema", "--infer-rows", "all", path])
    if rc != 0 or (b"in `%s` at line %d" % (text.encode(), k + 2)) not in out:
        fail("schema --infer-rows all", "status %d, %r" % (rc, out[:300]))


def main():
    simdsv = sys.argv[1]
    checked = 0
    for top in sys.argv[2:]:
        for root, _, files in sorted(os.walk(top)):
            for name in sorted(files):
                if name.endswith((".csv", ".tsv", ".txt")):
                    checked += check_file(simdsv, os.path.join(root, name))
    with tempfile.TemporaryDirectory(prefix="simdsv-json.") as tmp:
        # A column with no value at all (type null, no buffers) past one
        # byte of rows: every row of it is null (the sanitizer tier reads it).
        nulls = os.path.join(tmp, "nulls.csv")
        with open(nulls, "w") as f:
            f.write("a,b\n" + "".join("%d,\n" % i for i in range(1000)))
        if not check_file(simdsv, nulls):
            fail(nulls, "convert --to jsonl failed")
        check_misfit(simdsv, tmp)
        check_schema_sample(simdsv, tmp)
    for f in failures[:30]:
        print("FAIL:", f)
    print("%d files checked, %d failures" % (checked, len(failures)))
    if checked < 100:
        print("FAIL: too few files were read (%d)" % checked)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
