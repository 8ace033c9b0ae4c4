#!/usr/bin/env python3
"""tests/sniff/check.py — runs `simdsv sniff --json` on the corpus of gen.py
and compares each file's detection with what gen.py wrote down; then reads
each file with the record commands, which detect only the dialect (not the
value formats), and checks that they read it as the options `simdsv sniff`
printed say.

    python3 tests/sniff/check.py SIMDSV CORPUS_DIR [--min-rate R]

Prints one line per file that is wrong and the rate per category; exits 1
when the overall rate is below R (default 1.0: every file right)."""
import json
import os
import shlex
import subprocess
import sys

LINE_ENDINGS = {"LF", "CRLF", "CR"}


def judge(exp, got):
    """The names of the settings detected wrongly."""
    wrong = []
    for key, want in exp.items():
        if key == "leading_comments":
            continue  # for judging peers that skip comment lines as a preamble
        if key == "footer":
            ok = (got["footer_lines"] > 0 or got["end_offset"] > 0) == want
        elif key == "tables":
            ok = len(got["tables"]) == want
        elif key == "column_format":
            col, fmt = want
            ok = len(got["columns"]) > col and got["columns"][col]["format"] == fmt
        elif key == "comment":
            ok = got["comment"] == want
        else:
            ok = got.get(key) == want
        if not ok:
            wrong.append("%s: want %r" % (key, want))
    return wrong


# The commands that read records, never typed values: their detection leaves
# the value formats out (simdsv_sniff_params.dialect_only).
RECORD_COMMANDS = (["count"], ["headers"], ["head", "-n", "3"], ["tail", "-n", "2"], ["check"])
# The typed options of the options line, which the record commands do not take.
TYPED_OPTIONS = {"--decimal-comma": 0, "--thousands": 1, "--date-order": 1}


def record_options(options):
    """The options line of `simdsv sniff` without its typed options."""
    words, kept, i = shlex.split(options), [], 0
    while i < len(words):
        if words[i] in TYPED_OPTIONS:
            i += 1 + TYPED_OPTIONS[words[i]]
            continue
        kept.append(words[i])
        i += 1
    return kept


def read_as_sniffed(binary, corpus, name, options):
    """The record commands whose output (and exit status) on the file, as
    they detect it, differs from their output with the options given."""
    wrong = []
    for cmd in RECORD_COMMANDS:
        auto = subprocess.run([binary] + cmd + [name], cwd=corpus, capture_output=True)
        given = subprocess.run([binary] + cmd + record_options(options) + [name], cwd=corpus, capture_output=True)
        if (auto.returncode, auto.stdout) != (given.returncode, given.stdout):
            wrong.append("%s reads it otherwise than %s" % (" ".join(cmd), options))
    return wrong


def main():
    binary, corpus = os.path.abspath(sys.argv[1]), sys.argv[2]
    min_rate = float(sys.argv[sys.argv.index("--min-rate") + 1]) if "--min-rate" in sys.argv else 1.0
    cases = json.load(open(corpus + "/expected.json", encoding="utf-8"))
    per = {}
    right = 0
    for case in cases:
        res = subprocess.run([binary, "sniff", "--json", case["file"]], cwd=corpus, capture_output=True, text=True)
        got = json.loads(res.stdout)
        wrong = judge(case["expect"], got)
        # No option leaves out a repeated header: run.sh reads those files itself.
        if not got["repeated_headers"]:
            wrong += read_as_sniffed(binary, corpus, case["file"], got["options"])
        ok_, total = per.get(case["category"], (0, 0))
        per[case["category"]] = (ok_ + (not wrong), total + 1)
        right += not wrong
        if wrong:
            print("WRONG %s: %s" % (case["file"], "; ".join(wrong)))
    for cat, (ok_, total) in sorted(per.items()):
        print("%-18s %d/%d" % (cat, ok_, total))
    print("all %d/%d" % (right, len(cases)))
    sys.exit(0 if right >= min_rate * len(cases) else 1)


if __name__ == "__main__":
    main()
