#!/bin/sh
# test_cli.sh — golden tests of the simdsv command.
#
# Usage: sh test_cli.sh PATH/TO/simdsv
#
# Each case runs the command once (files under a temporary directory), then
# compares its exit status, standard output and standard error with the
# expected ones exactly.  Prints "N passed, N failed"; exits 1 on a failure.

SIMDSV=${1:?usage: test_cli.sh PATH/TO/simdsv}
case $SIMDSV in
/*) ;;
*) SIMDSV=$(pwd)/$SIMDSV ;;
esac
if [ ! -x "$SIMDSV" ]; then
    echo "test_cli.sh: $SIMDSV is not an executable" >&2
    exit 1
fi

# SIMDSV_KERNEL is kept (ctest runs this once per kernel: the outputs are the
# same with every kernel); one this CPU lacks skips the run (exit status 77).
if printf 'a\n' | "$SIMDSV" count - 2>&1 | grep -q "not supported"; then
    echo "skip: kernel ${SIMDSV_KERNEL:-?} not supported here"
    exit 77
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/simdsv-cli.XXXXXX") || exit 1
trap 'rm -rf "$T"' 0
trap 'exit 1' INT TERM
cd "$T" || exit 1

passed=0
failed=0
problems=

# run CMD...: runs it; stdout in $T/out, stderr in $T/err, status in $st.
run() {
    problems=
    "$@" >"$T/out" 2>"$T/err"
    st=$?
}

# run_in FILE CMD...: the same with standard input from FILE.
run_in() {
    problems=
    input=$1
    shift
    "$@" <"$input" >"$T/out" 2>"$T/err"
    st=$?
}

note() {
    problems="$problems
    $*"
}

want_status() {
    [ "$st" = "$1" ] || note "exit status $st, expected $1"
}

# want_stdout / want_stderr: the expected text comes on standard input.
compare_stream() {
    cat >"$T/want"
    if ! cmp -s "$T/want" "$T/$1"; then
        note "$1 differs (expected, then got):"
        problems="$problems
$(sed 's/^/      | /' "$T/want")
      ---
$(sed 's/^/      | /' "$T/$1")"
    fi
}
want_stdout() { compare_stream out; }
want_stderr() { compare_stream err; }
want_no_stdout() { [ -s "$T/out" ] && note "unexpected stdout: $(head -c 200 "$T/out")"; :; }
want_no_stderr() { [ -s "$T/err" ] && note "unexpected stderr: $(head -c 200 "$T/err")"; :; }
want_stdout_prefix() {
    head -n 1 "$T/out" | grep -q "^$1" || note "stdout does not start with '$1'"
}
want_stderr_prefix() {
    head -n 1 "$T/err" | grep -q "^$1" || note "stderr does not start with '$1'"
}

done_case() {
    if [ -z "$problems" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAILED: $1$problems" >&2
    fi
}

# ------------------------------------------------------------------ inputs

printf 'h1,h2\na,"b ""q"""\n"x\ny",z\n' >ok.csv
printf 'a,b\nc,d"e\nf\n"g"h\n"unterminated\n' >bad.csv
: >empty.csv
printf 'a\n\303\251\377,x\n' >utf8.csv
printf 'a\001b\tc,"\r\n",\000\\/\n' >ctrl.csv
printf 'a;b,c\n"",x\n' >semi.csv
printf '# comment "\nh\tv\n'"'"'x\ty'"'"'\t"q"\n' >tab.csv
printf 'junk line "\na,b\n' >skip.csv
printf '\316\270 comment\nv\n' >theta.csv
printf '"a\\"b",c\n' >esc.csv
printf 'a"b,c\n"x"y,z\n"abc' >lenient.csv

# ------------------------------------------------------------------- count

run "$SIMDSV" count ok.csv
want_status 0
want_stdout <<'EOF'
2
EOF
want_no_stderr
done_case "count"

run "$SIMDSV" count --no-header ok.csv
want_status 0
want_stdout <<'EOF'
3
EOF
done_case "count --no-header"

run_in ok.csv "$SIMDSV" count -
want_status 0
want_stdout <<'EOF'
2
EOF
done_case "count from stdin"

run "$SIMDSV" count empty.csv
want_status 0
want_stdout <<'EOF'
0
EOF
done_case "count of an empty file"

run "$SIMDSV" count --kernel scalar --no-header ok.csv
want_status 0
want_stdout <<'EOF'
3
EOF
done_case "count --kernel scalar"

run "$SIMDSV" count bad.csv
want_status 1
want_no_stdout
want_stderr <<'EOF'
bad.csv:2:4: error: quote inside an unquoted field (a field containing quotes must be quoted, and its quotes doubled) (byte 7, record 2, field 2)
EOF
done_case "count of a bad file"

run "$SIMDSV" count --lenient bad.csv
want_status 0
want_stdout <<'EOF'
4
EOF
done_case "count --lenient"

run "$SIMDSV" count /nonexistent/simdsv.csv
want_status 1
want_no_stdout
want_stderr <<'EOF'
simdsv: /nonexistent/simdsv.csv: No such file or directory
EOF
done_case "count of a missing file"

# ------------------------------------------------------------------- check

run "$SIMDSV" check ok.csv
want_status 0
want_stdout <<'EOF'
ok.csv: ok, 2 records
EOF
want_no_stderr
done_case "check of a good file"

run "$SIMDSV" check bad.csv
want_status 1
want_no_stdout
want_stderr <<'EOF'
bad.csv:2:4: error: quote inside an unquoted field (a field containing quotes must be quoted, and its quotes doubled) (byte 7, record 2, field 2)
bad.csv:4:4: error: unexpected character after a closing quote (expected a delimiter or the end of the line) (byte 15, record 4, field 1)
bad.csv:5:1: error: quoted field opened here is not closed before the end of the input (byte 17, record 5, field 1)
bad.csv: 3 errors
EOF
done_case "check lists every error"

run "$SIMDSV" check --max-errors 1 bad.csv
want_status 1
want_stderr <<'EOF'
bad.csv:2:4: error: quote inside an unquoted field (a field containing quotes must be quoted, and its quotes doubled) (byte 7, record 2, field 2)
bad.csv: 1 error (stopped)
EOF
done_case "check --max-errors 1"

run "$SIMDSV" check --max-errors=2 bad.csv
want_status 1
want_stderr <<'EOF'
bad.csv:2:4: error: quote inside an unquoted field (a field containing quotes must be quoted, and its quotes doubled) (byte 7, record 2, field 2)
bad.csv:4:4: error: unexpected character after a closing quote (expected a delimiter or the end of the line) (byte 15, record 4, field 1)
bad.csv: 2 errors (stopped)
EOF
done_case "check --max-errors=2"

run "$SIMDSV" check --max-errors 0 --no-header bad.csv
want_status 1
want_stderr <<'EOF'
bad.csv:2:4: error: quote inside an unquoted field (a field containing quotes must be quoted, and its quotes doubled) (byte 7, record 2, field 2)
bad.csv:4:4: error: unexpected character after a closing quote (expected a delimiter or the end of the line) (byte 15, record 4, field 1)
bad.csv:5:1: error: quoted field opened here is not closed before the end of the input (byte 17, record 5, field 1)
bad.csv: 3 errors
EOF
done_case "check --max-errors 0 (no limit)"

run_in bad.csv "$SIMDSV" check --max-errors 1 -
want_status 1
want_stderr <<'EOF'
<stdin>:2:4: error: quote inside an unquoted field (a field containing quotes must be quoted, and its quotes doubled) (byte 7, record 2, field 2)
<stdin>: 1 error (stopped)
EOF
done_case "check from stdin"

run "$SIMDSV" check --no-header utf8.csv
want_status 1
want_stderr <<'EOF'
utf8.csv:2:2: error: invalid UTF-8 byte sequence (byte 4, record 2, field 1)
utf8.csv: 1 error
EOF
done_case "check reports invalid UTF-8"

run "$SIMDSV" check --no-header --utf8 none utf8.csv
want_status 0
want_stdout <<'EOF'
utf8.csv: ok, 2 records
EOF
done_case "check --utf8 none"

run "$SIMDSV" check --lenient bad.csv
want_status 0
want_stdout <<'EOF'
bad.csv: ok, 4 records
EOF
done_case "check --lenient"

# ----------------------------------------------------------------- convert

run "$SIMDSV" convert --to json ok.csv
want_status 0
want_no_stderr
want_stdout <<'EOF'
[
["h1","h2"],
["a","b \"q\""],
["x\ny","z"]
]
EOF
done_case "convert --to json"

run "$SIMDSV" convert --to csv ok.csv
want_status 0
want_stdout <<'EOF'
h1,h2
a,"b ""q"""
"x
y",z
EOF
done_case "convert --to csv"

run_in ok.csv "$SIMDSV" convert --to json --no-header -
want_status 0
want_stdout <<'EOF'
[
["h1","h2"],
["a","b \"q\""],
["x\ny","z"]
]
EOF
done_case "convert from stdin"

run "$SIMDSV" convert --to json empty.csv
want_status 0
want_stdout <<'EOF'
[]
EOF
done_case "convert an empty file to JSON"

run "$SIMDSV" convert --to json --no-header ctrl.csv
want_status 0
want_stdout <<'EOF'
[
["a\u0001b\tc","\r\n","\u0000\\/"]
]
EOF
done_case "convert: JSON escapes"

run "$SIMDSV" convert --to csv --no-header --output-delimiter ';' semi.csv
want_status 0
want_stdout <<'EOF'
"a;b";c
;x
EOF
done_case "convert --output-delimiter"

printf '""\n\n"",""\n' >lone.csv
run "$SIMDSV" convert --to csv --no-header lone.csv
want_status 0
want_stdout <<'EOF'
""
,
EOF
done_case "convert: a lone empty field stays a record"

run "$SIMDSV" convert --to json --no-header --delimiter '\t' --quote "'" --comment '#' tab.csv
want_status 0
want_stdout <<'EOF'
[
["h","v"],
["x\ty","\"q\""]
]
EOF
done_case "convert: tab, single quote, comment"

run "$SIMDSV" convert --to json --no-header --no-quote --delimiter=, ok.csv
want_status 0
want_stdout <<'EOF'
[
["h1","h2"],
["a","\"b \"\"q\"\"\""],
["\"x"],
["y\"","z"]
]
EOF
done_case "convert --no-quote"

# shellcheck disable=SC1003
run "$SIMDSV" convert --to json --no-header --escape '\\' esc.csv
want_status 0
want_stdout <<'EOF'
[
["a\"b","c"]
]
EOF
done_case "convert --escape"

run "$SIMDSV" convert --to json --skip-lines 1 skip.csv
want_status 0
want_stdout <<'EOF'
[
["a","b"]
]
EOF
done_case "convert --skip-lines"

run "$SIMDSV" convert --to json --no-header --comment 'θ' theta.csv
want_status 0
want_stdout <<'EOF'
[
["v"]
]
EOF
done_case "convert --comment with a non-ASCII character"

run "$SIMDSV" convert --to json --no-header --utf8 lossy utf8.csv
want_status 0
want_stdout <<'EOF'
[
["a"],
["é�","x"]
]
EOF
done_case "convert --utf8 lossy"

run "$SIMDSV" convert --to json --no-header --lenient lenient.csv
want_status 0
want_stdout <<'EOF'
[
["a\"b","c"],
["xy","z"],
["abc"]
]
EOF
done_case "convert --lenient"

run "$SIMDSV" convert --to csv bad.csv
want_status 1
want_stderr <<'EOF'
bad.csv:2:4: error: quote inside an unquoted field (a field containing quotes must be quoted, and its quotes doubled) (byte 7, record 2, field 2)
EOF
done_case "convert stops at the first error"

# A broken pipe ends the command quietly (status 0, nothing on stderr).
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "%d,\"quoted, %d\",x\n", i, i }' >big.csv
{
    "$SIMDSV" convert --to csv big.csv 2>"$T/pipe_err"
    echo $? >"$T/pipe_status"
} | head -n 1 >"$T/out"
problems=
st=$(cat "$T/pipe_status")
want_status 0
want_stdout <<'EOF'
0,"quoted, 0",x
EOF
[ -s "$T/pipe_err" ] && note "stderr: $(head -c 200 "$T/pipe_err")"
done_case "broken pipe"

{
    "$SIMDSV" convert --to json big.csv 2>"$T/pipe_err"
    echo $? >"$T/pipe_status"
} | head -c 10 >/dev/null
problems=
st=$(cat "$T/pipe_status")
want_status 0
[ -s "$T/pipe_err" ] && note "stderr: $(head -c 200 "$T/pipe_err")"
done_case "broken pipe (JSON)"

# -------------------------------------------------------------------- help

for cmd in "--help" "-h" "help" "count --help" "check --help" "convert --help" "count -h" \
    "check -h" "convert -h" "count --no-header --help" "convert --to json --help"; do
    # shellcheck disable=SC2086
    run "$SIMDSV" $cmd
    want_status 0
    want_stdout_prefix "usage: simdsv"
    want_no_stderr
    done_case "simdsv $cmd"
done

run "$SIMDSV" --version
want_status 0
want_stdout_prefix "simdsv 0\.1\.0 (kernel: [a-z0-9]*)$"
done_case "simdsv --version"

# ------------------------------------------------------------- usage errors

usage_error() {
    name=$1
    shift
    run "$SIMDSV" "$@"
    want_status 2
    want_no_stdout
    [ -s "$T/err" ] || note "no message on stderr"
    done_case "usage error: $name"
}
usage_error "no command"
usage_error "unknown command" frobnicate ok.csv
usage_error "missing FILE" count
usage_error "unknown option" count --bogus ok.csv
usage_error "convert without --to" convert ok.csv
usage_error "convert --to xml" convert --to xml ok.csv
usage_error "missing --to value" convert ok.csv --to
usage_error "missing --delimiter value" count ok.csv --delimiter
usage_error "two-character delimiter" count --delimiter ab ok.csv
usage_error "bad --max-errors" check --max-errors x ok.csv
usage_error "negative --max-errors" check --max-errors -1 ok.csv
usage_error "bad --utf8" count --utf8 bogus ok.csv
usage_error "bad --kernel" count --kernel bogus ok.csv
usage_error "bad --skip-lines" count --skip-lines -1 ok.csv
usage_error "--max-errors on count" count --max-errors 1 ok.csv
usage_error "bad --output-delimiter" convert --to csv --output-delimiter '"' ok.csv

run "$SIMDSV" frobnicate
want_stderr_prefix "simdsv: unknown command 'frobnicate'"
done_case "unknown command message"

run "$SIMDSV" count --bogus ok.csv
want_stderr <<'EOF'
simdsv count: unknown option '--bogus'
Try 'simdsv count --help'.
EOF
done_case "unknown option message"

# ------------------------------------------------------------ typed commands

printf 'zip,n,day,ok,price\n00501,1,2024-02-29,true,1.5\n12345,x,2024-03-01,false,\n' >typed.csv

run "$SIMDSV" schema typed.csv
want_status 0
want_stdout <<'EOF'
  #  name   type     reason
  1  zip    string   string: leading zero in `00501` at line 2
  2  n      string   string: not a number, bool, date or timestamp in `x` at line 3
  3  day    date     date: every non-null sampled value (2)
  4  ok     bool     bool: every non-null sampled value (2)
  5  price  float64  float64: every non-null sampled value (1)
EOF
want_no_stderr
done_case "schema"

run "$SIMDSV" stats --schema n:int64 --on-error null --columns n,price typed.csv
want_status 0
want_stdout <<'EOF'
2 rows, 2 columns
column  type     count  nulls  min  max  mean
n       int64        1      1  1    1    1   
price   float64      1      1  1.5  1.5  1.5 
rejected: line 3, column 1 (n): `x`: not a valid int64
EOF
done_case "stats with a schema, projection and rejects"

run "$SIMDSV" stats --schema n:int64 typed.csv
want_status 1
want_stderr <<'EOF'
typed.csv:3:7: error: value does not fit column `n` of type int64 (use --on-error null to make it null) (byte 53, record 3, field 2)
EOF
done_case "stats: a value that does not fit the schema"

run "$SIMDSV" convert --to jsonl --null-values x typed.csv
want_status 0
want_stdout <<'EOF'
{"zip":"00501","n":1,"day":"2024-02-29","ok":true,"price":1.5}
{"zip":"12345","n":null,"day":"2024-03-01","ok":false,"price":null}
EOF
done_case "convert --to jsonl"

usage_error "bad --on-error" stats --on-error maybe typed.csv
usage_error "bad --schema type" schema --schema n:decimal typed.csv

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
