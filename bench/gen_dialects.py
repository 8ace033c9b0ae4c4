#!/usr/bin/env python3
"""bench/gen_dialects.py — the files of bench/dialects.sh: one table in the
dialects the chunk planner cuts at line ends (src/record/chunks.c).

    gen_dialects.py DIR [MB] [SEED]

writes DIR/{escape,comment,lenient,pipes,plain}.csv of about MB megabytes
(default 100) each, the same records (id, name, a quoted text with line ends,
delimiters and quotes, a float, a date) in each dialect:

  escape.csv   quotes and backslashes inside quoted fields escaped with a
               backslash (--escape '\\')
  comment.csv  a '#' comment line (with an unbalanced quote) every ~20 records
  lenient.csv  now and then a stray quote inside an unquoted field
               (SIMDSV_OPT_LENIENT: the strict reader rejects it)
  pipes.csv    the two-byte delimiter "||" (a bar alone inside fields)
  plain.csv    RFC 4180, the reference the others are compared with

Deterministic for a seed.  Generated data stays out of git.
"""
import os
import random
import sys

WORDS = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda",
         "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega")


def text(rng: random.Random) -> str:
    """A text field's content: words, commas, bars, now and then a quote or a line end."""
    out = []
    for _ in range(rng.randrange(3, 14)):
        r = rng.random()
        if r < 0.05:
            out.append('say "hi"')
        elif r < 0.09:
            out.append("line\nbreak")
        elif r < 0.12:
            out.append("a|b")
        elif r < 0.2:
            out.append("x, y")
        else:
            out.append(rng.choice(WORDS))
    return " ".join(out)


def records(rng: random.Random, n: int):
    for i in range(n):
        yield (str(i), rng.choice(WORDS) + str(rng.randrange(1000)), text(rng),
               f"{rng.uniform(-1000, 1000):.3f}", f"20{rng.randrange(10, 25)}-{rng.randrange(1, 13):02d}-"
               f"{rng.randrange(1, 29):02d}")


def quoted(s: str, escape: bool) -> str:
    if escape:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return '"' + s.replace('"', '""') + '"'


def line(rec, dialect: str, rng: random.Random) -> str:
    i, name, txt, value, day = rec
    if dialect == "lenient" and rng.random() < 0.02:
        name = name + '"inch'  # a quote inside an unquoted field
    delimiter = "||" if dialect == "pipes" else ","
    return delimiter.join((i, name, quoted(txt, dialect == "escape"), value, day)) + "\n"


def main() -> None:
    out = sys.argv[1]
    mb = float(sys.argv[2]) if len(sys.argv) > 2 else 100.0
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    os.makedirs(out, exist_ok=True)
    target = int(mb * 1e6)
    for dialect in ("plain", "escape", "comment", "lenient", "pipes"):
        rng = random.Random(seed)
        path = os.path.join(out, dialect + ".csv")
        size = 0
        with open(path, "w", encoding="utf-8", newline="") as f:
            header = ("||" if dialect == "pipes" else ",").join(("id", "name", "text", "value", "day")) + "\n"
            f.write(header)
            size += len(header)
            batch = []
            for k, rec in enumerate(records(rng, 1 << 62)):
                if dialect == "comment" and k % 20 == 19:
                    batch.append('# a comment with an "unbalanced quote, and commas\n')
                batch.append(line(rec, dialect, rng))
                if len(batch) >= 4096:
                    chunk = "".join(batch)
                    f.write(chunk)
                    size += len(chunk)
                    batch = []
                    if size >= target:
                        break
        print(f"{path}: {size} bytes")


if __name__ == "__main__":
    main()
