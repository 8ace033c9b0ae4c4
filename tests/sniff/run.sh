#!/bin/sh
# tests/sniff/run.sh SIMDSV — the detection corpus (gen.py) written to a
# temporary folder and checked (check.py: every file right), then the
# adversarial inputs: a 10 MB line, binary bytes, empty and header-only files
# give an answer or a clear error, never a crash.
set -eu
BIN=$1
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/simdsv-sniff-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
# The real files of the shared datasets join the corpus when they are there.
python3 "$HERE/gen.py" "$TMP/corpus" "$HERE/../../../shared/datasets/real"
python3 "$HERE/check.py" "$BIN" "$TMP/corpus"
# The synthetic benchmark shapes (../shared/datasets/gen.py, when there): plain
# CSV detected as such, and every count the same as with the defaults.
GEN=$HERE/../../../shared/datasets/gen.py
if [ -f "$GEN" ]; then
    python3 "$GEN" all 1 -o "$TMP/gen" >/dev/null
    for f in "$TMP"/gen/*.csv; do
        opts=$("$BIN" sniff --json "$f" | python3 -c 'import json,sys; print(json.load(sys.stdin)["options"])')
        [ "$opts" = "--delimiter ',' --quote '\"'" ] || { echo "FAIL: $f detected as $opts"; exit 1; }
        [ "$("$BIN" count "$f")" = "$("$BIN" count --no-sniff "$f")" ] || { echo "FAIL: count $f"; exit 1; }
    done
fi
head -c 10485760 /dev/zero | tr '\0' 'x' >"$TMP/long.csv"
"$BIN" sniff "$TMP/long.csv" | grep -q "not sure: no complete row" || { echo "FAIL: 10 MB line"; exit 1; }
head -c 4096 "$BIN" >"$TMP/binary.bin"
if "$BIN" sniff "$TMP/binary.bin" >/dev/null 2>"$TMP/err"; then echo "FAIL: binary accepted"; exit 1; fi
grep -q "not a delimited text file" "$TMP/err" || { echo "FAIL: binary message"; cat "$TMP/err"; exit 1; }
: >"$TMP/empty.csv"
"$BIN" sniff "$TMP/empty.csv" | grep -q "not sure" || { echo "FAIL: empty"; exit 1; }
printf 'name;age;city\n' >"$TMP/header_only.csv"
"$BIN" sniff --json "$TMP/header_only.csv" | grep -q '"delimiter":";"' || { echo "FAIL: header only"; exit 1; }
# Automatic reading: a ';' Latin-1 file needs no option; an option given wins.
printf 'nom;prix\n\351t\351;3,5\nna\357ve;4,25\n' >"$TMP/latin1.csv"
[ "$("$BIN" convert --to json "$TMP/latin1.csv")" = "$(printf '[\n{"nom":"été","prix":3.5},\n{"nom":"naïve","prix":4.25}\n]')" ] ||
    { echo "FAIL: latin1 auto"; "$BIN" convert --to json "$TMP/latin1.csv"; exit 1; }
[ "$("$BIN" count --delimiter , --encoding latin1 "$TMP/latin1.csv")" = 2 ] || { echo "FAIL: given wins"; exit 1; }
"$BIN" count -v "$TMP/latin1.csv" 2>"$TMP/err" >/dev/null
grep -q "latin1.csv: detected --delimiter ';' --quote '\"' --encoding iso-8859-1 --decimal-comma" "$TMP/err" ||
    { echo "FAIL: -v"; cat "$TMP/err"; exit 1; }
# Without detection the Latin-1 bytes are invalid UTF-8 for check; with it, the file is fine.
if "$BIN" check --no-sniff "$TMP/latin1.csv" >/dev/null 2>&1; then echo "FAIL: --no-sniff"; exit 1; fi
"$BIN" check "$TMP/latin1.csv" >/dev/null || { echo "FAIL: check latin1"; exit 1; }
# The fast paths (select, tail's seek) read converted and cut inputs through the reader.
[ "$("$BIN" select 1 "$TMP/latin1.csv")" = "$(printf 'nom\nété\nnaïve')" ] || { echo "FAIL: select latin1"; exit 1; }
[ "$("$BIN" tail -n 1 "$TMP/latin1.csv")" = "$(printf 'nom,prix\nnaïve,"4,25"')" ] || { echo "FAIL: tail latin1"; exit 1; }
[ "$("$BIN" count "$TMP/corpus/footer.csv")" = 24 ] || { echo "FAIL: footer cut"; exit 1; }
[ "$("$BIN" count "$TMP/corpus/preamble.csv")" = 24 ] || { echo "FAIL: preamble skipped"; exit 1; }
[ "$("$BIN" count --table 2 "$TMP/corpus/tables2.csv" 2>/dev/null)" = 8 ] || { echo "FAIL: table 2"; exit 1; }
[ "$("$BIN" headers --just-names "$TMP/corpus/header_rows2.csv")" = "$(printf 'id\nname\nprice EUR\nday\nok')" ] ||
    { echo "FAIL: header rows"; "$BIN" headers --just-names "$TMP/corpus/header_rows2.csv"; exit 1; }
# Standard input is sniffed from its first bytes, which the command then reads again.
"$BIN" sniff - <"$TMP/latin1.csv" | grep -q "options: --delimiter ';' --quote '\"' --encoding iso-8859-1" ||
    { echo "FAIL: sniff -"; exit 1; }
[ "$(cat "$TMP/latin1.csv" | "$BIN" convert --to json -)" = "$("$BIN" convert --to json "$TMP/latin1.csv")" ] ||
    { echo "FAIL: a pipe read with detection"; exit 1; }
if command -v gzip >/dev/null 2>&1; then
    gzip -c "$TMP/corpus/delim_tab.csv" >"$TMP/tab.csv.gz"
    [ "$("$BIN" select 2 "$TMP/tab.csv.gz" | head -2)" = "$(printf 'name\nZoë A')" ] || { echo "FAIL: gzip sniffed"; exit 1; }
    [ "$(gzip -dc "$TMP/tab.csv.gz" | "$BIN" select 2 - | head -2)" = "$(printf 'name\nZoë A')" ] ||
        { echo "FAIL: a pipe sniffed"; exit 1; }
fi
# A stream longer than the sample: its first 256 KiB are read again, nothing lost.
awk 'BEGIN { print "a;b"; for (i = 0; i < 60000; i++) print i ";x" i }' >"$TMP/long_semi.csv"
[ "$(cat "$TMP/long_semi.csv" | "$BIN" count -)" = 60000 ] || { echo "FAIL: long pipe"; exit 1; }
[ "$(cat "$TMP/long_semi.csv" | "$BIN" select 2 - | tail -1)" = x59999 ] || { echo "FAIL: long pipe select"; exit 1; }
# UTF-16 on the streaming typed path (convert): the same output as the UTF-8
# text, for a file past the reader's first buffer whose third column is empty
# in its first rows, and the messy set's file when it is there.
awk 'BEGIN { print "name,age,score"; for (i = 0; i < 120000; i++)
    printf "Jos\303\251 %d,%d,%s\n", i, i % 90, (i < 50 ? "" : sprintf("%.2f", i / 8)) }' >"$TMP/gen_utf8.csv"
MESSY16=$HERE/../../../shared/datasets/messy/encodings_utf16.csv
for f in "$TMP/gen_utf8.csv" "$MESSY16"; do
    [ -f "$f" ] || continue
    case $f in
    *utf16.csv) u16=$f; u8=$TMP/messy_utf8.csv
        python3 -c 'import sys; open(sys.argv[2], "wb").write(open(sys.argv[1], "rb").read().decode("utf-16").encode())' "$u16" "$u8" ;;
    *) u8=$f; u16=$TMP/gen_utf16.csv
        python3 -c 'import sys; open(sys.argv[2], "wb").write(open(sys.argv[1], "rb").read().decode().encode("utf-16"))' "$u8" "$u16" ;;
    esac
    for to in json parquet; do
        "$BIN" convert --to "$to" -o "$TMP/from16.$to" "$u16" && "$BIN" convert --to "$to" -o "$TMP/from8.$to" "$u8" &&
            cmp -s "$TMP/from16.$to" "$TMP/from8.$to" || { echo "FAIL: UTF-16 convert --to $to $u16"; exit 1; }
    done
done
# A file of long quoted values with line breaks: its middle and end samples
# start inside quotes, and the quote is kept (it read no quoting, 48,800 rows).
awk 'BEGIN { print "id,text,n"; for (i = 0; i < 800; i++) { printf "%d,\"", i;
    for (j = 0; j < 61; j++) printf "%sline %d of record %d, with a comma", (j ? "\n" : ""), j, i;
    printf "\",%d\n", 2 * i } }' >"$TMP/long_quoted.csv"
[ "$("$BIN" count "$TMP/long_quoted.csv")" = 800 ] || { echo "FAIL: long quoted values"; exit 1; }
[ "$(cat "$TMP/long_quoted.csv" | "$BIN" count -)" = 800 ] || { echo "FAIL: long quoted values, pipe"; exit 1; }
# Every FILE of a command is sniffed: a ';' file then a tab file, each read right.
[ "$("$BIN" cat rows "$TMP/corpus/delim_semicolon.csv" "$TMP/corpus/delim_tab.csv" | grep -c '^1000,Zoë A,1.00,')" = 2 ] ||
    { echo "FAIL: every FILE sniffed"; exit 1; }
"$BIN" count -v "$TMP/corpus/delim_semicolon.csv" "$TMP/corpus/delim_tab.csv" 2>"$TMP/err" >/dev/null
[ "$(grep -c 'detected --delimiter' "$TMP/err")" = 2 ] || { echo "FAIL: -v per FILE"; cat "$TMP/err"; exit 1; }
# A delimiter of two bytes and padding after the delimiter are read as detected.
[ "$("$BIN" select 3 "$TMP/corpus/delim_double_pipe.csv" | sed -n 2p)" = 1.00 ] || { echo "FAIL: '||' read"; exit 1; }
[ "$("$BIN" select 2 "$TMP/corpus/padding.csv" | sed -n 2p)" = "Zoë A" ] || { echo "FAIL: padding trimmed"; exit 1; }
"$BIN" sniff "$TMP/corpus/padding.csv" | grep -q "options: --delimiter ',' --trim-spaces" || { echo "FAIL: --trim-spaces"; exit 1; }
"$BIN" sniff "$TMP/corpus/delim_double_pipe.csv" | grep -q "options: --delimiter '||' " || { echo "FAIL: '||' option"; exit 1; }
[ "$("$BIN" count --delimiter '||' "$TMP/corpus/delim_double_pipe.csv")" = 24 ] || { echo "FAIL: --delimiter '||'"; exit 1; }
# UTF-16: the footer and the tables after the one read are cut at input offsets.
[ "$("$BIN" count "$TMP/corpus/footer_utf16.csv")" = 24 ] || { echo "FAIL: UTF-16 footer cut"; exit 1; }
[ "$("$BIN" count "$TMP/corpus/tables2_utf16.csv" 2>/dev/null)" = 24 ] || { echo "FAIL: UTF-16 table 1"; exit 1; }
[ "$("$BIN" count --table 2 "$TMP/corpus/tables2_utf16.csv" 2>/dev/null)" = 8 ] || { echo "FAIL: UTF-16 table 2"; exit 1; }
# A NUL delimiter given: the zero bytes are no UTF-16 pattern.
printf 'a\0b\0c\n1\0x\0y\n2\0z\0w\n3\0q\0r\n' >"$TMP/nul.csv"
[ "$("$BIN" select 2 --delimiter '\0' "$TMP/nul.csv" | tr '\n' ' ')" = "b x z q " ] || { echo "FAIL: NUL delimiter"; exit 1; }
"$BIN" sniff --delimiter '\0' "$TMP/nul.csv" | grep -q "ASCII only" || { echo "FAIL: NUL delimiter encoding"; exit 1; }
# --table all: tables with the same columns read one after another (a file, UTF-16, a pipe);
# tables whose columns differ are an error naming both.
printf 'Report\n\nid;name;v\n1;a;1,5\n2;b;2,5\n3;c;3,5\n\nid;name;v\n4;d;4,5\n5;e;5,5\n6;f;6,5\n\nTotal;6\n' >"$TMP/two.csv"
python3 -c 'import sys; d = open(sys.argv[1]).read(); open(sys.argv[2], "wb").write(b"\xff\xfe" + d.encode("utf-16-le"))' \
    "$TMP/two.csv" "$TMP/two16.csv"
want=$(printf 'id,name,v\n1,a,"1,5"\n2,b,"2,5"\n3,c,"3,5"\n4,d,"4,5"\n5,e,"5,5"\n6,f,"6,5"')
[ "$("$BIN" cat rows --table all "$TMP/two.csv")" = "$want" ] || { echo "FAIL: --table all"; exit 1; }
[ "$("$BIN" cat rows --table all "$TMP/two16.csv")" = "$want" ] || { echo "FAIL: --table all UTF-16"; exit 1; }
[ "$("$BIN" cat rows --table all - <"$TMP/two.csv")" = "$want" ] || { echo "FAIL: --table all stdin"; exit 1; }
# Issue 21: every line is data unless there is positive evidence (the defects' one-line repros).
printf 'yes\nyes\nno\nyes\nyes\n' >"$TMP/yn.csv"
[ "$("$BIN" count "$TMP/yn.csv" 2>&1)" = 5 ] || { echo "FAIL: defect 1: repeated first row"; exit 1; }
printf 'id,name,score,city,note\n1,ann,3,Paris\n2,bob,4,Rome\n3,cid,5,Oslo,late\n4,dan,6,Kyiv,ok\n5,eve,7,Bern,ok\n6,fay,8,Riga,ok\n' >"$TMP/ragged.csv"
[ "$("$BIN" count "$TMP/ragged.csv" 2>&1)" = 6 ] || { echo "FAIL: defect 2: ragged rows"; exit 1; }
printf 'a,b\n1,2,\n3,4,\n5,6,\n' >"$TMP/trailing.csv"
[ "$("$BIN" headers "$TMP/trailing.csv" 2>&1 | tr -s ' \n' ' ')" = "1 a 2 b " ] || { echo "FAIL: defect 2: header lost"; exit 1; }
printf '# comment\n# comment\n# comment\n# comment\n# comment\n# comment\nid;name\n1;a\n2;b\n3;c\n' >"$TMP/comments.csv"
[ "$("$BIN" count "$TMP/comments.csv" 2>/dev/null)" = 3 ] || { echo "FAIL: defect 3: comment block"; exit 1; }
printf '1,2,3\n' >"$TMP/one.csv"
[ "$("$BIN" count "$TMP/one.csv" 2>&1)" = 1 ] || { echo "FAIL: defect 9: one line of numbers"; exit 1; }
# Two files concatenated: the second copy of the header (line 13) is left out, and said so.
[ "$("$BIN" count "$TMP/corpus/tables_repeated_header.csv" 2>"$TMP/err")" = 35 ] || { echo "FAIL: repeated header"; exit 1; }
grep -q "tables_repeated_header.csv: left out: line 13 (repeats the header)" "$TMP/err" ||
    { echo "FAIL: repeated header message"; cat "$TMP/err"; exit 1; }
[ "$("$BIN" cat rows "$TMP/corpus/tables_repeated_header.csv" 2>/dev/null | grep -c '^id,')" = 1 ] ||
    { echo "FAIL: repeated header in the rows"; exit 1; }
[ "$("$BIN" count --table all "$TMP/corpus/tables_repeated_header.csv")" = 35 ] || { echo "FAIL: --table all repeated"; exit 1; }
if "$BIN" count --table all "$TMP/corpus/tables2.csv" >/dev/null 2>"$TMP/err"; then echo "FAIL: --table all differ"; exit 1; fi
grep -q "columns of table 2 (line 27: 3, code, label, n) differ from table 1's (line 1: 5, id, name, price, day, ok)" "$TMP/err" ||
    { echo "FAIL: --table all message"; cat "$TMP/err"; exit 1; }
# Thousands separators, detected and read: '.' with a decimal comma, ',' in quoted fields.
printf 'id;amount;n\n1;1.234,56;1.000\n2;7,5;12.000\n3;12.000,00;3.000.000\n' >"$TMP/th_dot.csv"
[ "$("$BIN" convert --to jsonl "$TMP/th_dot.csv" | tr '\n' ' ')" = \
  '{"id":1,"amount":1234.56,"n":1000} {"id":2,"amount":7.5,"n":12000} {"id":3,"amount":12000,"n":3000000} ' ] ||
    { echo "FAIL: thousands '.'"; "$BIN" convert --to jsonl "$TMP/th_dot.csv"; exit 1; }
printf 'id,amount,n\n1,"1,234.50","1,000"\n2,"12,000,000.25","2,000"\n3,7.5,"3,000"\n' >"$TMP/th_comma.csv"
[ "$("$BIN" convert --to jsonl "$TMP/th_comma.csv" | tr '\n' ' ')" = \
  '{"id":1,"amount":1234.5,"n":1000} {"id":2,"amount":12000000.25,"n":2000} {"id":3,"amount":7.5,"n":3000} ' ] ||
    { echo "FAIL: thousands ','"; exit 1; }
[ "$("$BIN" convert --to jsonl --thousands , --no-sniff "$TMP/th_comma.csv" | head -1)" = '{"id":1,"amount":1234.5,"n":1000}' ] ||
    { echo "FAIL: --thousands"; exit 1; }
echo "sniff: all passed"
