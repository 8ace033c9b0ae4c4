#!/usr/bin/env python3
"""tests/cli/sweep.py — every command of the CLI over a corpus of real and
hostile files, for the sanitizer tier (`make sanitize` registers it as
test_cli_sweep): no sanitizer report, no signal, no timeout, exit status 0,
1 or 2, and a message on stderr whenever the status is not 0.

    python3 tests/cli/sweep.py PATH/TO/simdsv [SHARED_DATASETS_DIR]

The corpus: the six files of datasets/real/, every conformance case
(tests/conformance), a fixed sample of datasets/messy/ (every 6th file in
name order: about 150 files, so the tier stays fast), and files generated
here (long and control-laden headers, lone quotes, NUL bytes, invalid UTF-8,
ragged rows, a wide header).  Without SHARED_DATASETS_DIR (../shared is not
beside the clone) the real and messy files are skipped with a note.
Runs over the conformance cases skip the leak check at exit (half their
time; fuzz_replay_cli runs the same files with it).  Prints "N passed, N
failed".
"""
import concurrent.futures
import os
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1])
SHARED = sys.argv[2] if len(sys.argv) > 2 else None
HERE = os.path.dirname(os.path.abspath(__file__))
CONFORMANCE = os.path.join(HERE, "..", "conformance")
MESSY_EVERY = 6
TIMEOUT = 60

# Every command, with the options that make it do its work.
COMMANDS = [
    ["count"], ["check"], ["convert", "--to", "json"], ["convert", "--to", "csv"], ["convert", "--to", "jsonl"],
    ["headers"], ["head"], ["tail"], ["slice", "--start", "1", "--end", "5"], ["select", "2,1"],
    ["search", "a"], ["search", "-r", "-i", "^[a-z]"], ["frequency"], ["table"], ["cat", "rows"],
    ["cat", "columns"], ["schema"], ["stats"],
]


def generated(d):
    """Hostile files: (name, bytes)."""
    files = {
        "long_name.csv": b"n" * 70000 + b",b\n1,2\n",
        "long_value_quoted.csv": b'a,b\n1,"' + b"v" * 70000 + b'"\n',
        "control_names.csv": b"\x1b[2J\x1b]0;title\x07,\x01\x7f,\xc2\x85\n1,2,3\n",
        "invalid_utf8.csv": b"\xff\xfe,b\n\xc3(,\xe2\x82\n",
        "only_quotes.csv": b'"' * 1001,
        "nul_bytes.csv": b"a\x00b,c\n\x00,\x00\x00\n",
        "open_quote_end.csv": b'a|||b\n1|||"x',
        "empty_cells.csv": b",,\n,,\n",
        "ragged.csv": b"a,b,c\n1\n1,2,3,4,5\n\n,\n",
        "wide_header.csv": b",".join(b"c%d" % i for i in range(20000)) + b"\n" + b"1," * 19999 + b"1\n",
        "crlf_mix.csv": b"a,b\r\n1,2\r3,4\n5,\"6\r\n7\"\r\n",
        "bom.csv": b"\xef\xbb\xbfa;b\n1;2\n",
        "empty.csv": b"",
        "header_only.csv": b"a,b,c",
    }
    paths = []
    for name, data in files.items():
        p = os.path.join(d, name)
        with open(p, "wb") as f:
            f.write(data)
        paths.append(p)
    return paths


def corpus(d):
    files = generated(d)
    files += sorted(os.path.join(CONFORMANCE, sub, f) for sub in os.listdir(CONFORMANCE)
                    if os.path.isdir(os.path.join(CONFORMANCE, sub))
                    for f in os.listdir(os.path.join(CONFORMANCE, sub)) if f.endswith(".csv"))
    if SHARED and os.path.isdir(SHARED):
        real = os.path.join(SHARED, "real")
        files += sorted(os.path.join(real, f) for f in os.listdir(real) if f.endswith((".csv", ".tsv")))
        messy = os.path.join(SHARED, "messy")
        names = sorted(f for f in os.listdir(messy) if os.path.isfile(os.path.join(messy, f)))
        files += [os.path.join(messy, f) for f in names[::MESSY_EVERY]]
    else:
        print("note: no datasets folder (../shared/datasets): the real and messy files are skipped")
    return files


def one(job, cwd):
    args, quick = job
    env = dict(os.environ, LC_ALL="C")
    env.pop("CI", None)
    if quick:
        # A leak check at every exit doubles the time of a run on a small
        # file; fuzz_replay_cli runs these files with the leak check.
        env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"), "detect_leaks=0"]))
    try:
        p = subprocess.run([BIN] + args, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, env=env, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "timeout after %d s" % TIMEOUT
    err = p.stderr
    if b"Sanitizer" in err or b"runtime error:" in err or b"LeakSanitizer" in err:
        return "sanitizer report:\n" + err[-3000:].decode("utf-8", "replace")
    if p.returncode < 0:
        return "killed by signal %d" % -p.returncode
    if p.returncode not in (0, 1, 2):
        return "exit status %d" % p.returncode
    if p.returncode != 0 and not err.strip():
        return "exit status %d without a message" % p.returncode
    return None


def main():
    with tempfile.TemporaryDirectory(prefix="simdsv-sweep.") as d:
        jobs = []
        for f in corpus(d):
            quick = f.startswith(CONFORMANCE)
            for cmd in COMMANDS:
                files = [f, f] if cmd[0] == "cat" else [f]
                jobs.append((cmd + ["--no-progress", "--"] + files, quick))
            if f.endswith(".tsv"):
                jobs.append((["schema", "--delimiter", "\\t", "--", f], quick))
                jobs.append((["table", "--delimiter", "\\t", "--", f], quick))
        # Also the lenient and lossy readings of each generated file.
        for f in generated(d):
            for cmd in (["table"], ["schema"], ["stats"], ["frequency"], ["check"]):
                jobs.append((cmd + ["--lenient", "--utf8", "lossy", "--no-progress", "--", f], False))
        passed = failed = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            for (args, _), problem in zip(jobs, pool.map(lambda job: one(job, d), jobs)):
                if problem:
                    failed += 1
                    print("FAIL: simdsv %s: %s" % (" ".join(args), problem))
                else:
                    passed += 1
        print("%d passed, %d failed" % (passed, failed))
        return 1 if failed else 0


sys.exit(main())
