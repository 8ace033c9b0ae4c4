#!/usr/bin/env python3
"""tests/sniff/conformance_sniff.py — the negative corpus of the detection
over the public conformance cases: every case of tests/conformance read with
its dialect given (delimiter, quote, escape, comment; NAME.dialect.json, the
defaults otherwise) gives the same records, or the same error, with
detection on and off.  With the dialect given, what is left to detect (the
encoding, padding, comment lines where none is given, preamble, footer,
tables, header rows) must find nothing in these files: they are ordinary
CSV, every line of them data.

    python3 tests/sniff/conformance_sniff.py SIMDSV CONFORMANCE_DIR

Both reads are `simdsv convert --to csv` (the header, when there is one, is
the first record, so the header decision alone changes nothing); an error is
compared by its exit status and message.  KNOWN_DIFFERENT lists the cases
that differ today because of a known defect: each of them must still differ
(so that a fix empties the list, and the list cannot hide a case that now
passes).  Prints one line per failure and "N cases: N identical, N known
different".
"""
import concurrent.futures
import json
import os
import subprocess
import sys

# Cases that differ today, with what makes them differ; remove a case when
# its fix lands (the test then requires it to pass).
KNOWN_DIFFERENT = {}
DEFAULT_DIALECT = {"delimiter": ",", "quote": '"', "escape": None, "comment": None}


def option_value(char):
    """A character as the CLI's option takes it (a backslash is an escape there)."""
    return "\\\\" if char == "\\" else char


def dialect_options(dialect):
    opts = ["--delimiter", option_value(dialect["delimiter"])]
    opts += ["--no-quote"] if dialect["quote"] is None else ["--quote", option_value(dialect["quote"])]
    # An empty value gives "none" (no escape: doubled quotes; no comment
    # lines), so that the whole dialect is given and nothing of it detected.
    opts += ["--escape", option_value(dialect["escape"] or "")]
    opts += ["--comment", option_value(dialect["comment"] or "")]
    return opts


def cases(root):
    for suite in sorted(os.listdir(root)):
        folder = os.path.join(root, suite)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".csv"):
                continue
            case = os.path.join(folder, name[:-4])
            dialect = dict(DEFAULT_DIALECT)
            if os.path.exists(case + ".dialect.json"):
                with open(case + ".dialect.json", encoding="utf-8") as f:
                    dialect.update(json.load(f))
            yield "%s/%s" % (suite, name[:-4]), case + ".csv", dialect


def read(bin_path, args):
    env = dict(os.environ, LC_ALL="C")
    env.pop("CI", None)
    p = subprocess.run([bin_path, "convert", "--to", "csv", "--no-progress"] + args, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=60)
    # The message of an error, not the detection's notes (a table cut, a footer) that precede it.
    message = p.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] if p.returncode else []
    return p.returncode, p.stdout, message


def compare(bin_path, case):
    name, path, dialect = case
    opts = dialect_options(dialect)
    detected = read(bin_path, opts + ["--", path])
    plain = read(bin_path, ["--no-sniff"] + opts + ["--", path])
    if detected == plain:
        return name, ""
    what = []
    if detected[0] != plain[0]:
        what.append("exit status %d with detection, %d without" % (detected[0], plain[0]))
    if detected[1] != plain[1]:
        what.append("%d output lines with detection, %d without" %
                    (detected[1].count(b"\n"), plain[1].count(b"\n")))
    if detected[2] != plain[2]:
        what.append("messages %r and %r" % (detected[2], plain[2]))
    return name, "; ".join(what)


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    bin_path, root = os.path.abspath(argv[1]), argv[2]
    all_cases = list(cases(root))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        results = list(pool.map(lambda c: compare(bin_path, c), all_cases))
    failures = 0
    names = {name for name, _ in results}
    for name in sorted(set(KNOWN_DIFFERENT) - names):
        print("FAIL: %s: listed in KNOWN_DIFFERENT but not in the corpus" % name)
        failures += 1
    for name, difference in results:
        if difference and name not in KNOWN_DIFFERENT:
            print("FAIL: %s: detection changes the read: %s" % (name, difference))
            failures += 1
        elif not difference and name in KNOWN_DIFFERENT:
            print("FAIL: %s: now identical with detection on and off (fixed? remove it from KNOWN_DIFFERENT: %s)"
                  % (name, KNOWN_DIFFERENT[name]))
            failures += 1
    identical = sum(1 for _, d in results if not d)
    print("%d cases: %d identical with detection on and off, %d known different" %
          (len(results), identical, sum(1 for n, d in results if d and n in KNOWN_DIFFERENT)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
