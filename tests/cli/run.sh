#!/bin/sh
# tests/cli/run.sh — golden tests of the simdsv command.
#
#   sh tests/cli/run.sh PATH/TO/simdsv          run every test
#   UPDATE=1 sh tests/cli/run.sh PATH/TO/simdsv  (re)write missing expectations
#
# A golden case runs `simdsv ARGS...` in tests/cli/data/ (so file names in
# messages are stable) and compares stdout, stderr and the exit status with
# tests/cli/expected/NAME.out, NAME.err and NAME.rc, byte for byte.  Other
# checks (compressed input, -o on failure, the progress line) are written out
# below.  The last line is "N passed, N failed"; the exit status is 1 if any
# test failed.
set -u

BIN=${1:?usage: run.sh PATH/TO/simdsv}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=$HERE/data
EXP=$HERE/expected
TMP=$(mktemp -d "${TMPDIR:-/tmp}/simdsv-cli-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
# Deterministic environment: no progress line, no color, C locale.
# SIMDSV_KERNEL is kept (outputs are the same with every kernel); one this
# CPU lacks skips the whole run (exit status 77).
unset CI NO_COLOR
export LC_ALL=C
if ! "$BIN" count "$DATA/fruit.csv" >/dev/null 2>"$TMP/err"; then
    if grep -q "not supported" "$TMP/err"; then
        echo "skip: kernel ${SIMDSV_KERNEL:-?} not supported here"
        exit 77
    fi
fi
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
}

# compare NAME KIND ACTUAL: compares ACTUAL with expected/NAME.KIND
compare() {
    if [ -f "$EXP/$1.$2" ]; then
        cmp -s "$EXP/$1.$2" "$3" && return 0
        echo "--- $1.$2: expected vs actual"
        diff "$EXP/$1.$2" "$3" | head -20
        return 1
    fi
    if [ "${UPDATE:-}" = 1 ]; then
        cp "$3" "$EXP/$1.$2"
        echo "wrote $EXP/$1.$2"
        return 0
    fi
    echo "--- $1.$2: no expectation"
    return 1
}

# run NAME STDIN ARGS...: one golden case (STDIN is a file under data/ or /dev/null)
run() {
    name=$1
    input=$2
    shift 2
    (cd "${RUN_DIR:-$DATA}" && "$BIN" "$@" <"$input" >"$TMP/out" 2>"$TMP/err")
    echo $? >"$TMP/rc"
    r=0
    compare "$name" out "$TMP/out" || r=1
    compare "$name" err "$TMP/err" || r=1
    compare "$name" rc "$TMP/rc" || r=1
    if [ $r = 0 ]; then ok; else bad "$name: simdsv $*"; fi
}
t() { # t NAME ARGS...
    n=$1
    shift
    run "$n" /dev/null "$@"
}

# same_output DESCRIPTION CMD1 CMD2: both shell commands give the same stdout,
# stderr and status (run in data/)
same_output() {
    d=$1
    (cd "$DATA" && eval "$2" >"$TMP/a.out" 2>"$TMP/a.err"; echo $? >"$TMP/a.rc")
    (cd "$DATA" && eval "$3" >"$TMP/b.out" 2>"$TMP/b.err"; echo $? >"$TMP/b.rc")
    if cmp -s "$TMP/a.out" "$TMP/b.out" && cmp -s "$TMP/a.err" "$TMP/b.err" && cmp -s "$TMP/a.rc" "$TMP/b.rc"; then
        ok
    else
        bad "$d: '$2' and '$3' differ"
        diff "$TMP/a.out" "$TMP/b.out" | head -5
        diff "$TMP/a.err" "$TMP/b.err" | head -5
    fi
}

S=$BIN

# ------------------------------------------------------------------ general
t main_help --help
t main_none
t main_unknown frobnicate x.csv

# -------------------------------------------------------------- count, check, convert
t count_cities count cities.csv
t count_stdin_dash count -
run count_stdin cities.csv count -
t count_no_header count --no-header cities.csv
# broken.csv reads as regularly without quoting, which detection therefore
# chooses (a quote that does not parse its sample is no candidate): the tests
# of quoting errors give the quote.  dialect_* below test the detection.
t count_broken count --quote '"' broken.csv
t count_lenient count --lenient broken.csv
t count_missing count nope.csv
t count_dir count ds
t count_nofile count
t count_badopt count --bogus cities.csv
t count_badvalue count --delimiter abcde cities.csv
t count_empty count empty.csv
t count_crlf count crlf.csv
t count_many count cities.csv fruit.csv crlf.csv
t count_many_error count --quote '"' cities.csv broken.csv nope.csv fruit.csv
t count_stdin_twice count - -
t count_help count --help
t count_threads_bad count --threads many cities.csv
# --threads: the same output whatever the threads.  SIMDSV_TEST_COUNT_CHUNK
# (tests only) makes the library split even these small files; the command
# then hands a plain file to it by its path, to be counted on several threads.
for f in cities.csv crlf.csv broken.csv bom_semicolon.csv notes.csv unicode.csv empty.csv header_only.csv; do
    for n in 2 3 8; do
        same_output "count --threads $n $f" "'$S' count --threads 1 $f" \
            "SIMDSV_TEST_COUNT_CHUNK=3 '$S' count --threads $n $f"
        same_output "count --threads $n --no-header --lenient $f" "'$S' count --threads 1 --no-header --lenient $f" \
            "SIMDSV_TEST_COUNT_CHUNK=5 '$S' count --no-header --lenient --threads $n $f"
    done
done
same_output "count --threads 0, several files" "'$S' count --threads 1 cities.csv broken.csv crlf.csv" \
    "SIMDSV_TEST_COUNT_CHUNK=2 '$S' count --threads 0 cities.csv broken.csv crlf.csv"
t check_cities check cities.csv
t check_broken check --quote '"' broken.csv
t check_broken_max1 check --quote '"' --max-errors 1 broken.csv
t check_bad_utf8 check bad_utf8.csv
# table, a viewer, shows invalid UTF-8 as U+FFFD (as its help says) unless --utf8 is given.
t table_bad_utf8 table bad_utf8.csv
t table_bad_utf8_strict table --utf8 strict bad_utf8.csv
t check_many check --quote '"' cities.csv broken.csv fruit.csv
t check_help check --help
t convert_json convert --to json cities.csv
t convert_csv convert --to csv cities.csv
t convert_csv_tab convert --to csv --output-delimiter '\t' cities.csv
t convert_json_semicolon convert --to json --delimiter ';' bom_semicolon.csv
t convert_csv_tsv convert --to csv --delimiter '\t' tab.tsv
# quoting.csv: quoted fields that need their quotes, that do not, with doubled
# quotes, empty, with CR and LF, long; written from their raw bytes or content
t convert_csv_quoting convert --to csv quoting.csv
# --trim-spaces: the general path hands out quoted fields already decoded
t convert_csv_quoting_trim convert --to csv --trim-spaces --delimiter , --quote '"' quoting_trim.csv
t convert_crlf convert --to csv crlf.csv
t convert_no_to convert cities.csv
t convert_broken convert --quote '"' --to csv broken.csv
t convert_lossy convert --to csv --utf8 lossy bad_utf8.csv
t convert_bad_utf8 convert --to json bad_utf8.csv
t convert_empty convert --to json empty.csv
t convert_two_files convert --to csv cities.csv fruit.csv
# ------------------------------------------------------- several files as one table
t dataset_schema_by_position schema ds
t dataset_schema_by_name schema --union-by-name ds
t dataset_schema_glob schema 'ds/*/a.csv' --filename-column file
t dataset_schema_no_hive schema --union-by-name --no-hive ds
t dataset_schema_two schema cities.csv fruit.csv
t dataset_stats stats --union-by-name --filename-column file --format csv ds
t dataset_stats_rejects stats --union-by-name --schema name:int64 --on-error null ds
t dataset_check_glob check 'ds/**/*.csv'
t dataset_no_match schema 'ds/*/*.tsv'
t dataset_convert_csv convert --to csv 'ds/*/*'
t dataset_convert_jsonl convert --union-by-name --filename-column file --to jsonl ds
t dataset_convert_csv_by_name convert --union-by-name --filename-column file --to csv ds
t dataset_convert_csv_schema convert --union-by-name --no-hive --schema 'id:float64' --output-delimiter ';' --to csv 'ds/*/*'
# a type for a column one file lacks (score): null in that file, typed in the other
t dataset_convert_schema_lacking convert --union-by-name --no-hive --schema 'score:string' --to csv 'ds/*/*'
t dataset_schema_names_none schema --union-by-name --schema 'nowhere:int64' ds
t dataset_filename_column_bad schema --filename-column id ds/year=2024/a.csv
t convert_help convert --help
# Duplicate and empty names (issue #21): a, b, a_3, column_4, a_2 (the file's own), a_4
# in every typed output; --columns, --schema and --null-values name the unique names.
t convert_dup_names_json convert --to json dup_names.csv
t convert_dup_names_jsonl convert --to jsonl --columns a_3,a,a,column_4 --schema a_3:string dup_names.csv
t convert_dup_names_nulls convert --to jsonl --null-values a_4=8 dup_names.csv
t schema_dup_names schema dup_names.csv
t convert_dup_names_csv convert --to csv dup_names.csv

# ------------------------------------------------------------------ headers
t headers_staff headers staff.csv
t headers_just_names headers --just-names cities.csv
t headers_no_header headers --no-header fruit.csv
t headers_semicolon headers --delimiter ';' bom_semicolon.csv
t headers_empty headers empty.csv
t headers_help headers --help

# ---------------------------------------------------------- head, tail, slice
t head_default head fruit.csv
t head_n2 head -n 2 cities.csv
t head_n0 head -n 0 fruit.csv
t head_no_header head --no-header -n 2 fruit.csv
t head_tab head -n 3 --output-delimiter '\t' notes.csv
t head_broken head --quote '"' -n 5 broken.csv
t head_bad_n head -n x fruit.csv
t head_help head --help
t tail_default tail fruit.csv
t tail_n3 tail -n 3 cities.csv
t tail_n0 tail -n 0 fruit.csv
t tail_more tail -n 50 notes.csv
t tail_no_header tail --no-header -n 2 ragged.csv
run tail_stdin notes.csv tail -n 2 -
t tail_broken tail --quote '"' -n 1 broken.csv
t tail_help tail --help
t slice_1_3 slice --start 1 --end 3 fruit.csv
t slice_start slice --start 10 fruit.csv
t slice_end slice --end 2 notes.csv
t slice_empty slice --start 5 --end 5 fruit.csv
t slice_quoting slice --start 1 --end 6 quoting.csv
t slice_bad slice --start 5 --end 2 fruit.csv
t slice_help slice --help

# ------------------------------------------------------------------ select
t select_names select city,id cities.csv
t select_dup select 'name[2],name' staff.csv
t select_range select 2-4 cities.csv
t select_name_range select dept-name[2] staff.csv
t select_reverse select 3-1 staff.csv
t select_open select -- -2 staff.csv
t select_open_end select 4- staff.csv
t select_exclude select '!salary,!start' staff.csv
t select_mixed select '1-4,!2' staff.csv
t select_repeat select 2,2,1 fruit.csv
t select_quoted_name select '"word",id' fruit.csv
t select_unknown select nope staff.csv
t select_out_of_range select 9 staff.csv
t select_all_excluded select '!1-5' staff.csv
t select_bad_k select 'name[3]' staff.csv
t select_no_header select --no-header 2,1 fruit.csv
t select_no_header_name select --no-header word fruit.csv
t select_ragged select 3,1 ragged.csv
t select_single_empty select 3 ragged.csv
t select_outdelim select --output-delimiter ';' when,what notes.csv
t select_crlf select 2 crlf.csv
t select_bom select --delimiter ';' note,id bom_semicolon.csv
t select_quoting select 3,1,2 quoting.csv
t select_quoting_alone select 2 quoting.csv
# consecutive columns copied as one run: short records, quoted fields in the run
t select_run_ragged select 1-3,1-2 ragged.csv
# UTF-8 is checked in the columns written (after a header), not in those dropped
t select_bad_utf8_dropped select a bad_utf8.csv
t select_bad_utf8 select b,a bad_utf8.csv
t select_bad_utf8_no_header select --no-header 1 bad_utf8.csv
t select_run_quoting select 2-3,1-2 quoting.csv
t select_quoting_trim select 2,1 --trim-spaces --delimiter , --quote '"' quoting_trim.csv
t select_broken select --quote '"' 2 broken.csv
t select_missing_sel select
t select_help select --help

# ------------------------------------------------------------------ search
t search_literal search apple fruit.csv
t search_icase search -i apple fruit.csv
t search_invert search -v -i apple fruit.csv
t search_column search -c word e fruit.csv
t search_column_index search --column 1 1 fruit.csv
t search_regex search --regex '^[a-c]' fruit.csv
t search_regex_icase search -r -i '^b' fruit.csv
t search_regex_column search -r -c 2 'e$' fruit.csv
t search_bad_regex search -r '(' fruit.csv
t search_quote search '"D"' staff.csv
t search_newline search 'one
line' notes.csv
t search_delim search 'x,y' notes.csv
t search_none search zzz fruit.csv
t search_quoting search -c text i quoting.csv
t search_dash search -- -01-0 notes.csv
t search_unicode search 東 cities.csv
t search_outdelim search --output-delimiter '|' -c what o notes.csv
t search_no_header search --no-header -c 1 1 fruit.csv
t search_bad_column search -c nope x fruit.csv
t search_missing search
t search_help search --help
# Strict UTF-8 is checked in the records written: a bad record passed over is
# no error, a bad record written is the reader's error (the file read again);
# standard input is checked whole, as before.
t search_bad_utf8_unwritten search --encoding utf-8 -c a 2 bad_utf8_rows.csv
t search_bad_utf8_written search --encoding utf-8 -c a 3 bad_utf8_rows.csv
t search_bad_utf8_invert search --encoding utf-8 -v -c a 1 bad_utf8_rows.csv
run search_bad_utf8_stdin bad_utf8_rows.csv search --encoding utf-8 -c a 2 -

# --------------------------------------------------------------- frequency
t freq_staff frequency staff.csv
t freq_limit frequency --limit 1 --select dept,salary staff.csv
t freq_all frequency --limit 0 --select 2 staff.csv
t freq_no_header frequency --no-header --select 2 --limit 2 ragged.csv
t freq_bad_utf8_dropped frequency --select a bad_utf8.csv
t freq_bad_utf8 frequency --select b bad_utf8.csv
t freq_empty frequency empty.csv
t freq_quoting frequency quoting.csv
# 300 values of 1 to 7 rows each, some longer than a slot holds: the table
# grows, the first --limit are picked apart from the rest, ties in byte order
t freq_many frequency --limit 4 freq_many.csv
t freq_many_all frequency --limit 0 --select value freq_many.csv
t freq_help frequency --help

# ------------------------------------------------------------------- table
t table_unicode table unicode.csv
t table_width table --width 8 cities.csv
t table_narrow table --width 1 fruit.csv
t table_no_header table --no-header ragged.csv
t table_empty table empty.csv
t table_bad_width table --width 0 fruit.csv
t table_help table --help

# --------------------------------------------------------------------- cat
t cat_rows cat rows rows_a.csv rows_b.csv rows_a.csv
t cat_rows_mismatch cat rows rows_a.csv rows_b.csv rows_other.csv
t cat_rows_empty cat rows empty.csv rows_a.csv rows_header_only.csv rows_b.csv
t cat_rows_no_header cat rows --no-header rows_a.csv rows_other.csv
run cat_rows_stdin rows_b.csv cat rows rows_a.csv -
run cat_rows_stdin_mismatch rows_other.csv cat rows rows_a.csv -
t cat_columns cat columns cols_left.csv cols_right.csv rows_b.csv
t cat_columns_no_header cat columns --no-header cols_right.csv cols_left.csv
t cat_columns_outdelim cat columns --output-delimiter ';' notes.csv cols_right.csv
t cat_bad_mode cat sideways a.csv
t cat_no_mode cat
t cat_help cat --help

# ------------------------------------------- basics: dialects, errors, typed
# (dialect options, every error of a file, usage errors, the typed commands)
t basic_count count ok.csv
t basic_count_no_header count --no-header ok.csv
run basic_count_stdin ok.csv count -
t basic_count_empty count empty.csv
t basic_count_kernel_scalar count --kernel scalar --no-header ok.csv
t basic_count_bad count bad.csv
t basic_count_lenient count --lenient bad.csv
t basic_count_missing count /nonexistent/simdsv.csv
t basic_check_ok check ok.csv
t basic_check_bad check bad.csv
t basic_check_max1 check --max-errors 1 bad.csv
t basic_check_max2 check --max-errors=2 bad.csv
t basic_check_max0 check --max-errors 0 --no-header bad.csv
run basic_check_stdin bad.csv check --max-errors 1 -
t basic_check_utf8 check --no-header utf8.csv
t basic_check_utf8_none check --no-header --utf8 none utf8.csv
t basic_check_lenient check --lenient bad.csv
t basic_convert_json convert --to json ok.csv
t basic_convert_csv convert --to csv ok.csv
run basic_convert_stdin ok.csv convert --to json --no-header -
t basic_convert_json_empty convert --to json empty.csv
# ctrl.csv is control bytes more than text: detection refuses it, --no-sniff reads it.
t basic_convert_json_escapes convert --to json --no-header --no-sniff ctrl.csv
t basic_convert_output_delimiter convert --to csv --no-header --output-delimiter ';' semi.csv
t basic_convert_lone_empty convert --to csv --no-header lone.csv
t basic_convert_tab_quote_comment convert --to json --no-header --delimiter '\t' --quote "'" --comment '#' tab.csv
t basic_convert_no_quote convert --to json --no-header --no-quote --delimiter=, ok.csv
t basic_convert_escape convert --to json --no-header --escape '\\' esc.csv
t basic_convert_skip_lines convert --to json --skip-lines 1 skip.csv
t basic_convert_comment_theta convert --to json --no-header --comment 'θ' theta.csv
t basic_convert_lossy convert --to json --no-header --utf8 lossy utf8.csv
t basic_convert_lenient convert --to json --no-header --lenient lenient.csv
t basic_convert_stops convert --to csv bad.csv
t basic_help_h -h
t basic_help_command help
t basic_help_count_h count -h
t basic_help_check_h check -h
t basic_help_convert_h convert -h
t basic_help_after_option count --no-header --help
t basic_help_convert_to convert --to json --help
t basic_unknown_command frobnicate
t basic_unknown_command_file frobnicate ok.csv
t basic_missing_file count
t basic_unknown_option count --bogus ok.csv
t basic_convert_without_to convert ok.csv
t basic_convert_to_xml convert --to xml ok.csv
t basic_missing_to_value convert ok.csv --to
t basic_missing_delimiter_value count ok.csv --delimiter
t basic_two_char_delimiter count --delimiter abcde ok.csv
t basic_bad_max_errors check --max-errors x ok.csv
t basic_negative_max_errors check --max-errors -1 ok.csv
t basic_bad_utf8_mode count --utf8 bogus ok.csv
t basic_bad_kernel count --kernel bogus ok.csv
t basic_bad_skip_lines count --skip-lines -1 ok.csv
t basic_max_errors_on_count count --max-errors 1 ok.csv
t basic_bad_output_delimiter convert --to csv --output-delimiter '"' ok.csv
t basic_schema schema typed.csv
t basic_stats_rejects stats --schema n:int64 --on-error null --columns n,price typed.csv
t basic_stats_misfit stats --schema n:int64 typed.csv
t basic_jsonl convert --to jsonl --null-values x typed.csv
# An escaped backslash before a comma: two schema items, the first without a
# type (this crashed when the option was split twice).
t basic_schema_escaped_backslash schema --schema 'a\\,b:int' typed.csv
t basic_schema_escaped_comma schema --schema 'a\,b:string' comma.csv
t basic_schema_unknown_type schema --schema price:money typed.csv
t basic_schema_decimal_type schema --schema n:decimal typed.csv
t basic_stats_bad_on_error stats --on-error maybe typed.csv
t basic_stats_capped_rejects stats --schema n:int64 --on-error null rejects.csv
t basic_stats_csv stats --format csv typed.csv
t basic_stats_json stats --format json typed.csv
t basic_stats_timestamps stats --format csv times.csv
t basic_stats_bad_format stats --format xml typed.csv
# The version names the kernel this machine runs: a pattern, not a golden.
if "$S" --version 2>"$TMP/err" | grep -q '^simdsv 0\.1\.0 (kernel: [a-z0-9]*)$' && [ ! -s "$TMP/err" ]; then ok; else
    bad "simdsv --version"
fi

# ---------------------------------------------------- compressed input
# gzip and zstd input (files and standard input) give what the plain file gives.
compressed() { # compressed TOOL EXT
    tool=$1
    ext=$2
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "skip: $tool not installed (compressed $ext input not tested)"
        return
    fi
    # A build without the library says so, clearly, with status 1.
    "$tool" -c <"$DATA/fruit.csv" >"$TMP/probe.$ext"
    if ! "$S" count "$TMP/probe.$ext" >/dev/null 2>"$TMP/err"; then
        if grep -q "compressed, but .* cannot be loaded" "$TMP/err"; then
            ok
            echo "skip: this simdsv has no $ext support (compressed $ext input not tested)"
        else
            bad "$tool: $(cat "$TMP/err")"
        fi
        return
    fi
    # Compressed copies under the same names, so that messages match.
    z=$TMP/$ext
    mkdir -p "$z"
    for f in cities.csv notes.csv fruit.csv broken.csv; do
        "$tool" -c <"$DATA/$f" >"$z/$f"
    done
    for args in "count" "check" "headers" "head -n 2" "tail -n 2" "select 2,1" "search -i e" "frequency" \
        "table" "convert --to json"; do
        for f in cities.csv notes.csv broken.csv; do
            same_output "$tool: $args $f" "$S $args $f" "cd $z && $S $args $f"
            same_output "$tool: $args - <$f" "$S $args - <$f" "$S $args - <$z/$f"
        done
    done
    same_output "$tool: cat rows" "$S cat rows fruit.csv fruit.csv" "cd $z && $S cat rows fruit.csv $DATA/fruit.csv"
    same_output "$tool: count several" "$S count cities.csv notes.csv" "cd $z && $S count cities.csv notes.csv"
    # Two members / frames one after the other are one stream.
    cat "$z/fruit.csv" "$z/fruit.csv" >"$TMP/twice.$ext"
    same_output "$tool: concatenated" "cat fruit.csv fruit.csv | $S count -" "$S count - <$TMP/twice.$ext"
    # Truncated data is an input error.
    head -c 40 "$z/cities.csv" >"$TMP/short.$ext"
    (cd "$DATA" && "$S" count - <"$TMP/short.$ext" >"$TMP/out" 2>"$TMP/err")
    rc=$?
    if [ $rc = 1 ] && grep -q "^<stdin>: error: the $tool data is \(truncated\|corrupt\)" "$TMP/err"; then ok; else
        bad "$tool truncated: status $rc, stderr: $(cat "$TMP/err")"
    fi
}
compressed gzip gz
compressed zstd zst
if command -v gzip >/dev/null 2>&1 && gzip -c "$DATA/fruit.csv" | "$S" count - >/dev/null 2>&1; then
    (gzip -c "$DATA/fruit.csv"; printf 'junk') >"$TMP/junk.gz"
    RUN_DIR=$TMP run gzip_trailing_junk /dev/null count junk.gz
    printf '\037\213\010\000\000\000\000\000\000\003garbage-garbage' >"$TMP/corrupt.gz"
    (cd "$DATA" && "$S" count - <"$TMP/corrupt.gz" >"$TMP/out" 2>"$TMP/err")
    rc=$?
    if [ $rc = 1 ] && grep -q "^<stdin>: error: the gzip data is corrupt" "$TMP/err"; then ok; else
        bad "corrupt gzip: status $rc, stderr: $(cat "$TMP/err")"
    fi
fi

# ------------------------------------------------------------- -o FILE
out=$TMP/out.csv
(cd "$DATA" && "$S" select -o "$out" 2,1 fruit.csv >"$TMP/stdout" 2>"$TMP/err")
rc=$?
(cd "$DATA" && "$S" select 2,1 fruit.csv >"$TMP/expected")
if [ $rc = 0 ] && cmp -s "$out" "$TMP/expected" && [ ! -s "$TMP/stdout" ] && [ ! -s "$TMP/err" ]; then ok; else
    bad "-o: status $rc, or the file differs from standard output"
fi
[ "$(ls -a "$TMP" | grep -c simdsv-)" = 0 ] && ok || bad "-o left a temporary file"
# A failed run leaves neither the file nor a temporary file.
rm -f "$out"
(cd "$DATA" && "$S" convert --quote '"' --to csv -o "$out" broken.csv >/dev/null 2>"$TMP/err")
rc=$?
if [ $rc = 1 ] && [ ! -e "$out" ] && [ "$(ls -a "$TMP" | grep -c simdsv-)" = 0 ]; then ok; else
    bad "-o after a data error: status $rc, file or temporary file left"
fi
# ... and keeps an existing file as it was.
echo "precious" >"$out"
(cd "$DATA" && "$S" search --quote '"' -o "$out" x broken.csv >/dev/null 2>&1)
rc=$?
if [ $rc = 1 ] && [ "$(cat "$out")" = precious ] && [ "$(ls -a "$TMP" | grep -c simdsv-)" = 0 ]; then ok; else
    bad "-o after an error replaced the existing file (status $rc)"
fi
(cd "$DATA" && "$S" head -o "$out" -n 1 fruit.csv)
[ "$(cat "$out")" = "id,word
1,apple" ] && ok || bad "-o did not replace the file on success"
# A symbolic link or a FIFO is written in place, never replaced by a renamed
# temporary file (as root, `-o /dev/null` once left a regular file there).
rm -f "$TMP/target.csv" "$TMP/link.csv"
ln -s "$TMP/target.csv" "$TMP/link.csv"
(cd "$DATA" && "$S" head -o "$TMP/link.csv" -n 1 fruit.csv)
if [ -L "$TMP/link.csv" ] && [ "$(cat "$TMP/target.csv")" = "id,word
1,apple" ]; then ok; else bad "-o through a symbolic link replaced the link or missed its target"; fi
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/fifo.out" &
(cd "$DATA" && "$S" head -o "$TMP/fifo" -n 1 fruit.csv)
wait
if [ -p "$TMP/fifo" ] && [ "$(cat "$TMP/fifo.out")" = "id,word
1,apple" ]; then ok; else bad "-o to a FIFO replaced it or lost the output"; fi
rm -f "$TMP/fifo" "$TMP/fifo.out" "$TMP/target.csv" "$TMP/link.csv"
# The output file may be the input file.
cp "$DATA/fruit.csv" "$TMP/self.csv"
"$S" select -o "$TMP/self.csv" word "$TMP/self.csv" && [ "$(head -n 2 "$TMP/self.csv")" = "word
apple" ] && ok || bad "-o onto the input file"
run output_bad_dir /dev/null select -o /nonexistent/dir/x.csv 1 fruit.csv
run output_empty_name /dev/null select -o '' 1 fruit.csv

# -------------------------------------------------------- progress line
(cd "$DATA" && "$S" count --progress fruit.csv >"$TMP/out" 2>"$TMP/err")
if grep -q "$(printf '\r')" "$TMP/err" && [ "$(cat "$TMP/out")" = 12 ]; then ok; else bad "--progress: no \\r on stderr"; fi
tr -d '\r' <"$TMP/err" | grep -q 'simdsv: .* of 119 B (' && ok || bad "--progress: no 'N of 119 B (P%)' in the line"
(cd "$DATA" && "$S" count fruit.csv 2>"$TMP/err" >/dev/null)
[ ! -s "$TMP/err" ] && ok || bad "progress on a pipe without --progress"
(cd "$DATA" && "$S" select --progress --no-progress 1 fruit.csv 2>"$TMP/err" >/dev/null)
[ ! -s "$TMP/err" ] && ok || bad "--no-progress (last wins) still shows a line"
if command -v script >/dev/null 2>&1 && script -qfec true /dev/null >/dev/null 2>&1; then
    # Under a pseudo-terminal, work lasting more than a second shows the
    # line; here the input arrives in two parts 1.3 s apart (each past the
    # 256 KiB that detection reads first from a stream).
    awk 'BEGIN { print "a,b"; for (i = 0; i < 30000; i++) print i "," i * 2 }' >"$TMP/slow.csv"
    cmd="(cat '$TMP/slow.csv'; sleep 1.3; cat '$TMP/slow.csv') | '$S' count -"
    env -u CI script -qfec "$cmd" /dev/null >"$TMP/tty" 2>&1
    if grep -q "simdsv: .* read" "$TMP/tty" && grep -q "$(printf '\r\033\\[K')" "$TMP/tty" && grep -q 60001 "$TMP/tty"; then
        ok
    else
        bad "no progress line on a terminal: $(od -c "$TMP/tty" | head -5)"
    fi
    CI=true script -qfec "$cmd" /dev/null >"$TMP/tty" 2>&1
    if ! grep -q "simdsv: .* read" "$TMP/tty" && grep -q 60001 "$TMP/tty"; then ok; else bad "progress line with CI set"; fi
    # Bold header on a terminal, none with NO_COLOR.
    env -u NO_COLOR script -qfec "'$S' table '$DATA/fruit.csv'" /dev/null >"$TMP/tty" 2>&1
    grep -q "$(printf '\033\\[1mid')" "$TMP/tty" && ok || bad "table: no bold header on a terminal"
    NO_COLOR=1 script -qfec "'$S' table '$DATA/fruit.csv'" /dev/null >"$TMP/tty" 2>&1
    if grep -q "$(printf '\033')" "$TMP/tty"; then bad "table: escape sequences with NO_COLOR"; else ok; fi
else
    echo "skip: util-linux script not available (terminal tests)"
fi

# ------------------------------------------------------------ broken pipe
# A broken pipe ends the command quietly (status 0, nothing on stderr), after
# writing what the reader of the pipe took.
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "%d,\"quoted, %d\",x\n", i, i }' >"$TMP/quoted.csv"
{ "$S" convert --to csv "$TMP/quoted.csv" 2>"$TMP/err"; echo $? >"$TMP/rc"; } | head -n 1 >"$TMP/out"
if [ "$(cat "$TMP/rc")" = 0 ] && [ ! -s "$TMP/err" ] && [ "$(cat "$TMP/out")" = '0,"quoted, 0",x' ]; then ok; else
    bad "broken pipe (convert --to csv, quoted): status $(cat "$TMP/rc"), stdout $(cat "$TMP/out"), stderr $(cat "$TMP/err")"
fi
{ "$S" convert --to json "$TMP/quoted.csv" 2>"$TMP/err"; echo $? >"$TMP/rc"; } | head -c 10 >/dev/null
if [ "$(cat "$TMP/rc")" = 0 ] && [ ! -s "$TMP/err" ]; then ok; else
    bad "broken pipe (convert --to json): status $(cat "$TMP/rc"), stderr $(cat "$TMP/err")"
fi
awk 'BEGIN { print "a,b"; for (i = 0; i < 300000; i++) print i "," i }' >"$TMP/big.csv"
for args in "select 2" "convert --to csv" "search 1" "head -n 200000" "cat rows $TMP/big.csv"; do
    { "$S" $args "$TMP/big.csv" 2>"$TMP/err"; echo $? >"$TMP/rc"; } | head -n 1 >/dev/null
    if [ "$(cat "$TMP/rc")" = 0 ] && [ ! -s "$TMP/err" ]; then ok; else
        bad "broken pipe ($args): status $(cat "$TMP/rc"), stderr $(cat "$TMP/err")"
    fi
done

# table in bounded memory: a file is measured whole (a second read), a pipe
# by its first 8 MiB; the wider value after them widens its column from its
# row on in the pipe, every row in the file.
awk 'BEGIN { print "a,b"; for (i = 0; i < 700000; i++) print "x," i; print "wide-value-at-the-end,z" }' >"$TMP/wide.csv"
"$S" table "$TMP/wide.csv" >"$TMP/file.out" 2>"$TMP/err"
"$S" table - <"$TMP/wide.csv" >"$TMP/pipe.out" 2>>"$TMP/err"
cat "$TMP/wide.csv" | "$S" table - >"$TMP/pipe2.out" 2>>"$TMP/err"
if [ "$(head -n 2 "$TMP/file.out")" = "$(printf 'a                      b\nx                      0')" ] &&
   [ "$(head -n 2 "$TMP/pipe.out")" = "$(printf 'a  b\nx  0')" ] && cmp -s "$TMP/pipe.out" "$TMP/pipe2.out" &&
   [ "$(tail -n 1 "$TMP/pipe.out")" = "wide-value-at-the-end  z" ] && [ "$(tail -n 1 "$TMP/file.out")" = "wide-value-at-the-end  z" ] &&
   [ "$(wc -l <"$TMP/pipe.out")" = 700002 ] && [ ! -s "$TMP/err" ]; then ok; else
    bad "table: file and pipe widths ($(head -n 2 "$TMP/file.out" | tr '\n' '|') / $(head -n 2 "$TMP/pipe.out" | tr '\n' '|') / $(tail -n 1 "$TMP/pipe.out"))"
fi

# ------------------------------------------- big inputs: batches and tail
# Batches from a mapped file, from standard input (the streaming buffer and
# its refills) and from the scalar kernel, and tail's seek, must all give the
# same output.
awk 'BEGIN { srand(7); print "id,name,note,n";
    for (i = 0; i < 60000; i++) {
        q = (i % 997 == 0) ? "\"multi\nline, \"\"quoted\"\"\"" : "w" i % 13;
        if (i % 4001 == 0) print "";
        print i ",name" i % 101 "," q "," int(rand() * 1000) } }' >"$TMP/gen.csv"
awk 'BEGIN { print "id,name,note,n"; for (i = 0; i < 60000; i++) print i ",name" i % 101 ",w" i % 13 "," i % 7 }' >"$TMP/plain.csv"
for f in gen.csv plain.csv; do
    for args in "select 2,1" "select 3" "select !1" "select 4,4,1" "select --output-delimiter=: 3,2" "search name7" \
        "search -c note w1" "search -v 5" "search -i NAME1" "search -r ^1.*5$" "count" "tail -n 7" "tail -n 1" \
        "slice --start 59990"; do
        same_output "scalar kernel: $args $f" "$S $args --kernel scalar $TMP/$f" "$S $args $TMP/$f"
        same_output "stdin: $args $f" "$S $args $TMP/$f" "$S $args - <$TMP/$f 2>&1 | sed 's|<stdin>|$TMP/$f|'"
    done
done
# tail: the end of the file is one quoted field with line ends and quotes in
# it (both readings of the first line end parse, or the part has no record
# boundary): tail reads more or everything, and must still be right.
awk 'BEGIN { print "a,b"; for (i = 0; i < 5000; i++) print i ",x"; printf "last,\"";
    for (i = 0; i < 30000; i++) printf "\"\",\n"; print "end\"" }' >"$TMP/tailq.csv"
same_output "tail: a long quoted field at the end" "$S tail -n 2 - <$TMP/tailq.csv" "$S tail -n 2 $TMP/tailq.csv"
awk 'BEGIN { print "a,b"; for (i = 0; i < 50000; i++) printf "%d,\"q\"\"%d\nsecond line\"\n", i, i }' >"$TMP/tailm.csv"
same_output "tail: quoted line ends" "$S tail -n 3 - <$TMP/tailm.csv" "$S tail -n 3 $TMP/tailm.csv"
same_output "tail: more records than the first part" "$S tail -n 3000 - <$TMP/tailm.csv" "$S tail -n 3000 $TMP/tailm.csv"
same_output "tail: lenient" "$S tail --lenient -n 3 - <$TMP/tailm.csv" "$S tail --lenient -n 3 $TMP/tailm.csv"
# Errors deep in a big file: same position as a full read.
{ cat "$TMP/plain.csv"; printf '1,2,bad"quote,4\n'; cat "$TMP/plain.csv"; } >"$TMP/bad.csv"
for args in "select 1" "search name" "search -v name" "tail -n 1"; do
    same_output "error position: $args" "$S $args - <$TMP/bad.csv 2>&1 | sed 's|<stdin>|$TMP/bad.csv|'" "$S $args $TMP/bad.csv 2>&1 | cat"
done
RUN_DIR=$TMP run error_position /dev/null search ZZZ bad.csv
# ------------------------------------------------- stats over a big input
# A column inferred int64 from the first 8 MiB meets `x` at its last line: no
# error, the value is counted apart as a string.  --exact makes every number
# exact, so the threaded ranges (a file, 2 threads), one thread and one stream
# (stdin) must print the same.  Wide rows: 9 MiB in few rows (this part runs
# under the sanitizers too).
awk 'BEGIN { pad = sprintf("%60s", ""); gsub(/ /, "w", pad);
    print "n,s"; for (i = 1; i <= 150000; i++) print i "," pad i % 5; print "x,last" }' >"$TMP/late.csv"
RUN_DIR=$TMP run stats_late_misfit /dev/null stats --exact --format csv --threads 2 late.csv
RUN_DIR=$TMP run stats_late_misfit_table /dev/null stats --exact --threads 1 late.csv
# --strings view (string columns as Arrow string views, issue #22): every
# typed command prints and writes what the utf8 layout gives, on short,
# long (late.csv: 61 bytes), quoted, escaped, UTF-8, empty and null strings.
for f in cities.csv notes.csv typed.csv esc.csv "$TMP/late.csv"; do
    for cmd in "convert --to jsonl" "stats --exact --format csv"; do
        same_output "$cmd --strings view $f" "$S $cmd $f" "$S $cmd --strings view $f"
    done
    for fmt in parquet arrow arrows; do
        same_output "convert --to $fmt --strings view $f" "$S convert --to $fmt -o $TMP/u.$fmt $f && cat $TMP/u.$fmt" \
            "$S convert --to $fmt --strings view -o $TMP/v.$fmt $f && cat $TMP/v.$fmt"
    done
done
same_output "stats: stdin" "$S stats --exact --format csv $TMP/late.csv" "$S stats --exact --format csv - <$TMP/late.csv"
# The JSON parses (Python's json), with the numbers it says.
if command -v python3 >/dev/null 2>&1; then
    if "$S" stats --format json "$TMP/late.csv" | python3 -c 'import json, sys
d = json.load(sys.stdin)
n = d["columns"][0]
assert d["rows"] == 150001 and n["sum"] == 11250075000 and n["mean"] == 75000.5 and n["count"] == 150000, d
assert d["columns"][1]["type"] == "string" and d["columns"][1]["min"] == "x", d'; then ok; else bad "stats --format json"; fi
fi
# Every dialect is cut into ranges (issue 22: escaped quotes before line
# breaks, comment lines with an odd quote, stray quotes read leniently, a
# delimiter of two bytes in quoted line breaks; over 8 MiB, so two ranges whose
# boundary falls in them): the threaded ranges print what one stream does
# (the string column's and the integers' statistics, which merge exactly).
awk 'BEGIN { print "n,t,x"; for (i = 1; i <= 450000; i++) { printf "%d,\"a\\\"\n%d\\\\\",%d.5\n", i, i % 9, i % 7 } }' \
    >"$TMP/d_escape.csv"
awk 'BEGIN { print "n,t,x"; for (i = 1; i <= 500000; i++) { printf "%d,\"x\n#%d\",%d\n", i, i % 9, i % 7;
    if (i % 5 == 0) printf "#note \"%d\n", i } }' >"$TMP/d_comment.csv"
awk 'BEGIN { print "n,t,x"; for (i = 1; i <= 750000; i++) printf "%d,x\"%d,%d\n", i, i % 9, i % 7 }' >"$TMP/d_lenient.csv"
awk 'BEGIN { print "n||t||x"; for (i = 1; i <= 500000; i++) printf "%d||\"p||%d\n\"||%d\n", i, i % 9, i % 7 }' \
    >"$TMP/d_pipes.csv"
for d in "escape --escape '\\'" "comment --comment '#'" "lenient --lenient" "pipes --delimiter '||'"; do
    f=${d%% *}
    o=${d#* }
    same_output "stats: ranges of $f" "$S stats --exact --format csv --columns n,t --no-sniff $o - <$TMP/d_$f.csv" \
        "$S stats --exact --format csv --columns n,t --threads 2 --no-sniff $o $TMP/d_$f.csv"
done
# A --schema type keeps --on-error: the late value is an error (fail) or a null listed after the table.
RUN_DIR=$TMP run stats_late_schema_fail /dev/null stats --schema n:int64 late.csv
RUN_DIR=$TMP run stats_late_schema_null /dev/null stats --exact --schema n:int64 --on-error null late.csv
# An error in the second range: the position a single stream gives.  (The
# quote is given: detection sees the stray quote in the file's last 64 KiB,
# not in a stream's first 256 KiB, and reads the file without quoting.)
{ cat "$TMP/late.csv"; printf '1,bad"quote\n'; } >"$TMP/late_bad.csv"
same_output "stats: error position" "$S stats --quote '\"' - <$TMP/late_bad.csv 2>&1 | sed 's|<stdin>|$TMP/late_bad.csv|'" \
    "$S stats --quote '\"' $TMP/late_bad.csv 2>&1 | cat"
# ------------------------------------------------------------- the dialect detected reads its file (issue 21)
# A JSON column: '"' does not parse it, so the file is read without quoting.
awk 'BEGIN { print "id|name|payload"
    for (i = 1; i <= 11; i++) printf "%d|item%d|{\"datetime\": \"2020-01-%02d 10:00:00\", \"value\": %d}\n", i, i, i, i * 3 }' \
    >"$TMP/json_column.csv"
RUN_DIR=$TMP run dialect_json_column /dev/null count json_column.csv
# A NUL byte in a value is data: detection goes on (col1..col3, not one column
# named col1|col2|col3), and sniff says so with status 0.
{
    echo 'col1|col2|col3'
    i=1
    while [ $i -le 39 ]; do
        if [ $i = 5 ]; then printf '5|na\000me|x\n'; else echo "$i|name$i|x"; fi
        i=$((i + 1))
    done
} >"$TMP/nul_value.csv"
RUN_DIR=$TMP run dialect_nul_count /dev/null count nul_value.csv
RUN_DIR=$TMP run dialect_nul_headers /dev/null headers nul_value.csv
"$S" sniff "$TMP/nul_value.csv" >/dev/null 2>&1 && ok || bad "sniff of a file with a NUL in a value: status $?"
# A binary file is refused by every command with the one message sniff gives
# (the next FILE is still read); --no-sniff reads it as text.
printf '\211PNG\r\n\032\n\000\000\000\rIHDR\000\000\000\020\000\000\000\020\010\006\000\000\000\037\363\377a\000\000\000\004sBIT' \
    >"$TMP/image.png"
RUN_DIR=$TMP run dialect_binary_count /dev/null count image.png nul_value.csv
RUN_DIR=$TMP run dialect_binary_stdin image.png count -
RUN_DIR=$TMP run dialect_binary_no_sniff /dev/null count --no-sniff image.png
for args in "check" "headers" "head" "table" "schema" "stats" "convert --to json" "cat rows" "frequency" "search x"; do
    (cd "$TMP" && "$S" $args image.png >"$TMP/out" 2>"$TMP/err")
    rc=$?
    if [ $rc = 1 ] && [ ! -s "$TMP/out" ] && cmp -s "$TMP/err" "$EXP/dialect_binary_message.err"; then ok; else
        bad "$args of a binary file: status $rc, stderr: $(cat "$TMP/err")"
    fi
done
RUN_DIR=$TMP run dialect_binary_message /dev/null head image.png
# UTF-16 on the typed path (schema, stats, convert) reads as on the record path;
# a Latin-1 reason prints as UTF-8.
printf '\377\376n\000a\000m\000e\000,\000a\000g\000e\000\012\000J\000o\000s\000\351\000,\0003\0000\000\012\000A\000n\000n\000,\0002\0005\000\012\000' \
    >"$TMP/utf16.csv"
RUN_DIR=$TMP run dialect_utf16_schema /dev/null schema utf16.csv
RUN_DIR=$TMP run dialect_utf16_json /dev/null convert --to json utf16.csv
(cd "$TMP" && "$S" convert -o utf16.parquet utf16.csv) && [ -s "$TMP/utf16.parquet" ] && ok ||
    bad "convert -o .parquet of a UTF-16 file"
printf 'city,n\nR\351union,1\nOrl\351ans,2\n' >"$TMP/latin1.csv"
RUN_DIR=$TMP run dialect_latin1_schema /dev/null schema latin1.csv

# 200,000 columns, half of them named `d` (read as d, d_2, ... d_100000): the
# schema, the names made unique and the statistics are linear in the columns
# (issue #21: quadratic, 200,000 did not finish in 60 s).  A 30 s CPU limit
# that a linear run meets with room to spare, even under the sanitizers.
awk 'BEGIN { n = 200000; for (i = 1; i <= n; i++) printf "%s%s", (i % 2 ? "c" i : "d"), (i < n ? "," : "\n");
    for (r = 1; r <= 2; r++) for (i = 1; i <= n; i++) printf "%d%s", i * r, (i < n ? "," : "\n") }' >"$TMP/wide_cols.csv"
if (ulimit -t 30 && "$S" stats --format csv "$TMP/wide_cols.csv" >"$TMP/wide_cols.out") &&
    [ "$(wc -l <"$TMP/wide_cols.out")" -eq 200001 ] &&
    grep -qx 'd,int64,2,0,2,0,2,2,2,2,4,0,3,1.4142135623730951,6,,,' "$TMP/wide_cols.out" &&
    grep -qx 'c199999,int64,2,0,2,0,199999,199999,199999,199999,399998,0,299998.5,141420.64913052833,599997,,,' "$TMP/wide_cols.out" &&
    [ "$(tail -n 1 "$TMP/wide_cols.out")" = 'd_100000,int64,2,0,2,0,200000,200000,200000,200000,400000,0,300000,141421.35623730952,600000,,,' ]; then
    ok
else
    bad "stats: 200,000 columns within 30 s of CPU"
fi
# A value past the sample that does not fit its inferred type (issue #21): from
# a regular file with -o, convert reads again with the column widened and
# writes what one read gives (the jsonl of the same rows, typed the same way,
# holds the value as text); from a pipe the error names where and the fix.
awk 'BEGIN { print "id,n"; for (i = 1; i <= 30000; i++) print i "," (i == 25000 ? "99999999999999999999" : i) }' >"$TMP/late_big.csv"
for fmt in parquet arrow; do
    if "$S" convert --infer-rows 1000 "$TMP/late_big.csv" -o "$TMP/late_big.$fmt" 2>"$TMP/late_big.err" &&
        [ -s "$TMP/late_big.$fmt" ] && [ ! -s "$TMP/late_big.err" ]; then ok; else bad "convert -o .$fmt: a late misfit read again"; fi
done
RUN_DIR=$TMP run convert_late_misfit_pipe late_big.csv convert --infer-rows 1000 --to parquet -
# DELTA_BINARY_PACKED (int64 without a dictionary) on the specification's
# example 7 5 3 1 2 3 4 5: after the definition levels (length 2, a run of
# 8 ones) the header (128 values a block, 4 miniblocks, 8 values, the first
# value 7 zigzag-encoded), the block's minimum delta -2 (zigzag 3), the bit
# widths 2 0 0 0, and the deltas less the minimum (0 0 0 3 3 3 3, padded to
# 32) at 2 bits each.
printf 'x\n7\n5\n3\n1\n2\n3\n4\n5\n' >"$TMP/delta.csv"
if "$S" convert --no-dictionary --compression none "$TMP/delta.csv" -o "$TMP/delta.parquet" &&
    od -An -tx1 -v "$TMP/delta.parquet" | tr -d ' \n' |
    grep -q 020000001001800104080e0302000000c03f000000000000; then ok; else bad "convert: DELTA_BINARY_PACKED bytes"; fi
# Several files as one table: a gzip member, a file with an extra column, a
# late value wider than every sample (read again, widened), to Parquet and
# Arrow; the same rows as the files one by one.
mkdir -p "$TMP/many"
awk 'BEGIN { print "id,n"; for (i = 1; i <= 30000; i++) print i "," (i == 25000 ? "2.5" : i) }' >"$TMP/many/a.csv"
printf 'id,n,extra\n30001,7,x\n' >"$TMP/many/b.csv"
if command -v gzip >/dev/null 2>&1; then
    printf 'n;id\n8;30002\n' | gzip >"$TMP/many/c.csv.gz"
    many_rows=30002
else
    many_rows=30001
fi
for fmt in parquet arrow; do
    if "$S" convert --union-by-name --infer-rows 1000 "$TMP/many" -o "$TMP/many.$fmt" 2>"$TMP/many.err" &&
        [ -s "$TMP/many.$fmt" ] && [ ! -s "$TMP/many.err" ]; then ok; else bad "convert -o .$fmt: several files, a late misfit read again: $(cat "$TMP/many.err")"; fi
done
if "$S" stats --union-by-name --infer-rows 1000 --format csv "$TMP/many/*" >"$TMP/many.stats" 2>"$TMP/many.err" &&
    grep -qx "id,int64,$many_rows,0,.*" "$TMP/many.stats" && grep -q '^n,float64,' "$TMP/many.stats" &&
    grep -q '^extra,string,1,'"$((many_rows - 1))"',' "$TMP/many.stats"; then ok; else
    bad "stats of several files: $(cat "$TMP/many.stats" "$TMP/many.err")"
fi
# convert --to csv of several files: one header, each file's text as it is
# (quoted line breaks, quotes, a value like 007 or NA, a gzip member, another
# dialect), the same bytes as the files converted one by one and joined
# under the first one's header; a file with another column, matched by name.
mkdir -p "$TMP/csvs"
printf 'id,note,code\n1,"two\nlines",007\n2,"say ""hi""",NA\n' >"$TMP/csvs/a.csv"
printf 'id;note;code\n3;plain;-0\n4;"a;b";\n' >"$TMP/csvs/b.csv"
printf 'id,note,code\n5,x,1e5\n' >"$TMP/csvs/c.csv"
if command -v gzip >/dev/null 2>&1; then gzip "$TMP/csvs/c.csv"; fi
"$S" convert --to csv "$TMP/csvs/"a.csv >"$TMP/csvs.want" &&
    for f in "$TMP/csvs/"b.csv "$TMP/csvs/"c.csv*; do "$S" convert --to csv "$f" | tail -n +2; done >>"$TMP/csvs.want"
if "$S" convert --to csv "$TMP/csvs" -o "$TMP/csvs.got" 2>"$TMP/csvs.err" && cmp -s "$TMP/csvs.want" "$TMP/csvs.got" &&
    [ "$(wc -l <"$TMP/csvs.got")" = 7 ]; then ok; else bad "convert --to csv of several files: $(cat "$TMP/csvs.err"; diff "$TMP/csvs.want" "$TMP/csvs.got")"; fi
printf 'code,extra,id\n08,"e,1",6\n' >"$TMP/csvs/d.csv"
printf 'id,note,code,extra\n1,"two\nlines",007,\n2,"say ""hi""",NA,\n3,plain,-0,\n4,a;b,,\n5,x,1e5,\n6,,08,"e,1"\n' >"$TMP/csvs.want"
if "$S" convert --to csv --union-by-name "$TMP/csvs" >"$TMP/csvs.got" 2>"$TMP/csvs.err" && cmp -s "$TMP/csvs.want" "$TMP/csvs.got"; then
    ok; else bad "convert --to csv --union-by-name: $(cat "$TMP/csvs.err"; diff "$TMP/csvs.want" "$TMP/csvs.got")"; fi
# A conflict between files with long paths names both whole.
long="$TMP/$(printf 'a-folder-name-long-enough-to-matter-%s/' 1 2 3 4 5 6 7)"
mkdir -p "$long"
printf 'id,name\n1,x\n' >"$long/first.csv"
printf 'id,label\n2,y\n' >"$long/second.csv"
if ! "$S" convert --to jsonl "$long"first.csv "$long"second.csv >/dev/null 2>"$TMP/long.err" &&
    [ "$(cat "$TMP/long.err")" = "simdsv: column 2 is \`label\` in ${long}second.csv but \`name\` in ${long}first.csv (columns are matched by position; match them by name to read both)" ]; then
    ok; else bad "a conflict between long paths: $(cat "$TMP/long.err")"; fi
# ------------------------------------------------------------- man page
if command -v groff >/dev/null 2>&1; then
    warnings=$(groff -man -Tutf8 -ww -z "$HERE/../../docs/simdsv.1" 2>&1)
    [ -z "$warnings" ] && ok || bad "docs/simdsv.1: $warnings"
else
    echo "skip: groff not installed (man page not checked)"
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
