#!/usr/bin/env python3
"""tests/sniff/sweep_messy.py — the negative corpus of the detection over real
files: every file of a folder (../shared/datasets/messy) read with no options
must keep every record of the plain read, except the files listed in
tests/sniff/negative/dropped.tsv, each with the records it drops and why.

    python3 tests/sniff/sweep_messy.py SIMDSV MESSY_DIR [--update] [--table FILE]

For each regular file, `simdsv sniff --json` gives the dialect detected; the
plain read is `simdsv convert --to csv --no-sniff` with the options that only
say how to cut fields (encoding, delimiter, quote, escape, trimmed spaces) —
no preamble, footer, table, comment or header rows — so it keeps every line;
the default read is `simdsv convert --to csv` with no option.  Both outputs
are records (the header, when there is one, is the first: the header decision
drops nothing); the default read's records are matched in order against the
plain read's, and the plain records left unmatched are the dropped ones.

The test fails when
  - a file drops records and is not in the table, or drops other records than
    the table says (a table entry that no longer drops anything is stale: the
    table must shrink as the detection improves);
  - a file reads 0 records where the plain read has 2 or more, unless its
    table entry names the known defect (a `defect N` in its reason);
  - the default read fails where the plain read succeeds (it is an entry too);
  - a record of the default read is none of the plain read's while none is
    dropped (with drops, as a header of several rows joined into one, the
    file is an entry like the others).
Files that the default read refuses as binary (one message naming
--no-sniff: not lost silently) and files with no plain read are counted in
the summary, not compared.

--update rewrites the table from this run: an entry whose dropped records are
unchanged keeps its reason; a new one gets the reasons of the detection's
decisions that drop lines, marked "UNREVIEWED" until someone states the
evidence.  Prints a summary: files, read without error by the default read,
plain reads that fail, records of the plain reads and records kept.
"""
import bisect
import concurrent.futures
import csv
import io
import json
import os
import subprocess
import sys

csv.field_size_limit(1 << 30)  # a field of the plain read may be a whole file
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TABLE = os.path.join(HERE, "negative", "dropped.tsv")
TIMEOUT = 60
# dropped_records: 1-based numbers of the plain read's records (a record is a
# line, unless a quoted field spans lines; blank lines are no records).
TABLE_HEADER = ["file", "plain_records", "kept_records", "dropped_records", "why"]
# The decisions of `simdsv sniff` that can drop lines; their reasons are the evidence.
DROPPING_DECISIONS = ("comment", "preamble", "footer", "tables", "header_rows")


def run(bin_path, args):
    """(exit status, stdout bytes, stderr text) of one simdsv command."""
    env = dict(os.environ, LC_ALL="C")
    env.pop("CI", None)
    try:
        p = subprocess.run([bin_path] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return -1, b"", "timeout after %d s" % TIMEOUT
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def records(csv_bytes):
    """The records of `convert --to csv` output (RFC 4180, LF), as tuples."""
    text = csv_bytes.decode("utf-8", "surrogateescape")
    return [tuple(r) for r in csv.reader(io.StringIO(text, newline=""), strict=True)]


def plain_options(sniff):
    """The options of the detected dialect that cut fields and drop no line."""
    opts = ["--no-sniff", "--encoding", sniff["encoding"], "--delimiter", sniff["delimiter"]]
    opts += ["--no-quote"] if sniff["quote"] is None else ["--quote", sniff["quote"]]
    if sniff["escape"] is not None:
        opts += ["--escape", sniff["escape"]]
    if sniff["padding"]:
        opts.append("--trim-spaces")
    return opts


def dropped_records(plain, kept):
    """1-based indexes of the plain records that the default read does not
    keep, matching the kept records in order; and how many kept records match
    no plain record (a header of several rows joined into one)."""
    positions = {}
    for i, r in enumerate(plain):
        positions.setdefault(r, []).append(i)
    matched, at, altered = set(), 0, 0
    for r in kept:
        where = positions.get(r, [])
        k = bisect.bisect_left(where, at)
        if k == len(where):
            altered += 1
            continue
        matched.add(where[k])
        at = where[k] + 1
    return [i + 1 for i in range(len(plain)) if i not in matched], altered


def ranges(numbers):
    """[1, 2, 3, 7] -> "1-3,7"."""
    out, i = [], 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        out.append(str(numbers[i]) if i == j else "%d-%d" % (numbers[i], numbers[j]))
        i = j + 1
    return ",".join(out)


def evidence(sniff):
    """The reasons of the decisions that drop lines, where they drop any."""
    parts = []
    for key in DROPPING_DECISIONS:
        reason = sniff["decisions"][key]["reason"]
        quiet = (key == "comment" and sniff["comment"] is None) or \
                (key == "preamble" and sniff["skip_lines"] == 0) or \
                (key == "footer" and sniff["footer_lines"] == 0) or \
                (key == "tables" and len(sniff.get("tables", [])) <= 1) or \
                (key == "header_rows" and sniff["header_rows"] <= 1)
        if not quiet:
            parts.append("%s: %s" % (key, reason))
    return "; ".join(parts).replace("\t", " ").replace("\n", " ")


def examine(bin_path, path):
    """What the default read of one file keeps of its plain read.  A file
    that a strict read rejects (broken quoting, invalid UTF-8) is compared
    with --lenient --utf8 lossy given to both reads: the detection's part is
    the same."""
    name = os.path.basename(path)
    status, out, err = run(bin_path, ["sniff", "--json", "--", path])
    if status == 0:
        sniff = json.loads(out)
        plain_opts, why = plain_options(sniff), evidence(sniff)
    else:
        # Detection gave up (binary bytes): the default read uses the defaults.
        plain_opts, why = ["--no-sniff"], "sniff fails: " + last_line(err, status)
    status, default_out, default_err = run(bin_path, ["convert", "--to", "csv", "--no-progress", "--", path])
    result = {"file": name, "why": why, "lenient": False, "default_ok": status == 0}
    if status != 0 and "not a delimited text file" in default_err and "--no-sniff" in default_err:
        # Binary bytes: every command refuses the file with one message that
        # names the way to read it anyway; nothing is lost silently.
        result["refused"] = last_line(default_err, status)
        return result
    for recovery in ([], ["--lenient", "--utf8", "lossy"]):
        status, out, err = run(bin_path, ["convert", "--to", "csv", "--no-progress"] + recovery + plain_opts + ["--", path])
        if status == 0:
            break
        result["lenient"] = True
    if status != 0:
        result["plain_error"] = last_line(err, status)
        return result
    plain = records(out)
    if recovery:
        status, out, err = run(bin_path, ["convert", "--to", "csv", "--no-progress"] + recovery + ["--", path])
    else:
        status, out, err = (0 if result["default_ok"] else 1), default_out, default_err
    kept = records(out)
    result.update(plain=len(plain), kept=len(kept), error=None)
    if status != 0:
        result["error"] = last_line(err, status)
        result["why"] = "default read fails: %s; %s" % (result["error"], why)
    lost, altered = dropped_records(plain, kept)
    result.update(dropped=ranges(lost), lost=len(lost), altered=altered)
    return result


def last_line(err, status):
    return err.strip().splitlines()[-1] if err.strip() else "exit status %d" % status


def load_table(path):
    table = {}
    if not os.path.exists(path):
        return table
    with open(path, encoding="utf-8", newline="") as f:
        rows = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(rows, None)
        if header != TABLE_HEADER:
            sys.exit("%s: the first line must be %s" % (path, "\t".join(TABLE_HEADER)))
        for row in rows:
            if not row or row[0].startswith("#"):
                continue
            entry = dict(zip(TABLE_HEADER, row))
            table[entry["file"]] = entry
    return table


def write_table(path, results, old):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("\t".join(TABLE_HEADER) + "\n")
        for r in sorted(results, key=lambda r: r["file"]):
            if "plain_error" in r or "refused" in r or not r["lost"]:
                continue
            prev = old.get(r["file"])
            why = prev["why"] if prev and prev["dropped_records"] == r["dropped"] else "UNREVIEWED " + r["why"]
            f.write("\t".join([r["file"], str(r["plain"]), str(r["kept"]), r["dropped"], why]) + "\n")


def judge(r, table):
    """What is wrong with one file's result against the table ('' if nothing)."""
    if "plain_error" in r or "refused" in r:
        return ""
    entry = table.get(r["file"])
    if r["altered"] and not r["lost"]:
        return "%d records of the default read are none of the plain read's: %s" % (r["altered"], r["why"])
    if not r["lost"]:
        return "stale entry: now keeps all %d records (remove it)" % r["plain"] if entry else ""
    what = "drops %d of %d records (%s)%s: %s" % (r["lost"], r["plain"], r["dropped"],
                                                  " and reads %d others" % r["altered"] if r["altered"] else "",
                                                  r["why"])
    if not entry:
        return "not in the table: " + what
    if entry["dropped_records"] != r["dropped"] or entry["plain_records"] != str(r["plain"]):
        return "the table says records %s of %s dropped; now %s" % (entry["dropped_records"], entry["plain_records"],
                                                                   what)
    header_only = r["kept"] <= 1
    if header_only and r["plain"] >= 3 and "defect " not in entry["why"]:
        return "reads no data record of %d (allowed only as a known defect): %s" % (r["plain"] - 1, what)
    return ""


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    update = "--update" in argv
    table_path = DEFAULT_TABLE
    if "--table" in argv:
        table_path = argv[argv.index("--table") + 1]
        args.remove(table_path)
    if len(args) != 2:
        sys.exit(__doc__)
    bin_path, folder = os.path.abspath(args[0]), args[1]
    names = sorted(n for n in os.listdir(folder) if os.path.isfile(os.path.join(folder, n)))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        results = list(pool.map(lambda n: examine(bin_path, os.path.join(folder, n)), names))
    table = load_table(table_path)
    if update:
        write_table(table_path, results, table)
        table = load_table(table_path)
    problems = [(r["file"], judge(r, table)) for r in results]
    problems = [p for p in problems if p[1]]
    problems += [(name, "in the table but not a file of %s" % folder) for name in sorted(set(table) - set(names))]
    for name, problem in problems:
        print("FAIL: %s: %s" % (name, problem))
    compared = [r for r in results if "plain_error" not in r and "refused" not in r]
    print("%d files; the default read (no option) reads %d without error; %d refused as not text (a message naming "
          "--no-sniff); compared with the plain read: %d strict, %d with --lenient --utf8 lossy (a strict plain read "
          "fails), %d not (no plain read)"
          % (len(results), sum(1 for r in results if r["default_ok"]), sum(1 for r in results if "refused" in r),
             sum(1 for r in compared if not r["lenient"]), sum(1 for r in compared if r["lenient"]),
             sum(1 for r in results if "plain_error" in r)))
    print("records: %d plain, %d kept; %d files drop records (%d entries in the table), %d drop more than 2, "
          "%d read at most one record where the plain read has 3+, %d default reads fail where the plain read does not"
          % (sum(r["plain"] for r in compared), sum(r["plain"] - r["lost"] for r in compared),
             sum(1 for r in compared if r["lost"]), len(table), sum(1 for r in compared if r["lost"] > 2),
             sum(1 for r in compared if r["kept"] <= 1 and r["plain"] >= 3), sum(1 for r in compared if r["error"])))
    print("%d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
