/* test_dialect.c — the dialect chosen must read its own input (issue 21):
 * a quote that does not parse the sample is no candidate (a JSON column, a
 * first stray quote past the rows scored), and what the detection proposes
 * is read by the reader, every record of it, with no error.  Each case is
 * also detected for a reader of records (dialect_only), which must agree,
 * and ordinary quoted files are the negative cases: they keep their quote. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include "check.h"
#include "simdsv.h"
#include "sniff_dialect.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static simdsv_sniff *sniff_n(const char *data, size_t n)
{
    simdsv_sniff *s = NULL;
    CHECK_STATUS(simdsv_sniff_memory(data, n, NULL, &s), SIMDSV_OK);
    simdsv_sniff_params records;
    memset(&records, 0, sizeof records);
    records.dialect_only = 1;
    simdsv_sniff *d = NULL;
    CHECK_STATUS(simdsv_sniff_memory(data, n, &records, &d), SIMDSV_OK);
    if (s && d) {
        const char *differs = sniff_dialect_differs(s, d);
        CHECK_MSG(!differs, "dialect only: another %s", differs ? differs : "");
    }
    simdsv_sniff_free(d);
    return s;
}

/* Reads data with the options s proposes (strict, the default): the status
 * of the read and the records in *records. */
static simdsv_status read_as_detected(const simdsv_sniff *s, const char *data, size_t n, uint64_t *records)
{
    simdsv_options *opt = simdsv_options_new(NULL);
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv_sniff_apply(s, opt);
    if (st == SIMDSV_OK)
        st = simdsv_reader_new(&r, opt);
    if (st == SIMDSV_OK)
        st = simdsv_reader_open_memory(r, data, n);
    *records = 0;
    simdsv_record rec;
    while (st == SIMDSV_OK && (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK)
        ++*records;
    simdsv_reader_free(r);
    simdsv_options_free(opt);
    return st == SIMDSV_END ? SIMDSV_OK : st;
}

/* "id|name|payload" and rows; row i's payload a JSON object from row
 * json_from on, a plain word before. */
static char *json_column(int rows, int json_from)
{
    char *buf = malloc(32 + (size_t)rows * 80);
    size_t n = (size_t)sprintf(buf, "id|name|payload\n");
    for (int i = 1; i <= rows; i++) {
        if (i >= json_from)
            n += (size_t)sprintf(buf + n, "%d|item%d|{\"datetime\": \"2020-01-%02d 10:00:00\", \"value\": %d}\n", i, i,
                                 i % 28 + 1, i * 3);
        else
            n += (size_t)sprintf(buf + n, "%d|item%d|v%d\n", i, i, i);
    }
    return buf;
}

static void test_json_column(void)
{
    /* From the first row (the quote opens a field after ": "), and from row
     * 300, past the rows each candidate is scored on. */
    static const int json_from[] = {1, 7, 300};
    for (size_t c = 0; c < sizeof json_from / sizeof json_from[0]; c++) {
        h_context("JSON column from row %d", json_from[c]);
        char *data = json_column(399, json_from[c]);
        simdsv_sniff *s = sniff_n(data, strlen(data));
        CHECK_STR(s->delimiter, "|");
        CHECK_EQ_INT(s->quote, -1);
        CHECK_EQ_INT(s->escape, -1);
        CHECK_EQ_U64(s->header, 1);
        CHECK_EQ_U64(s->skip_lines, 0);
        CHECK(strstr(s->decisions[SIMDSV_SNIFF_QUOTE].reason, "rejects") != NULL);
        uint64_t records = 0;
        CHECK_STATUS(read_as_detected(s, data, strlen(data), &records), SIMDSV_OK);
        CHECK_EQ_U64(records, 399);
        simdsv_sniff_free(s);
        free(data);
    }
    h_context(NULL);
}

static void test_quote_that_does_not_parse(void)
{
    /* A stray quote in row 350 of a file whose quoted fields hold no
     * delimiter: read without quoting, every row is as regular. */
    char *data = malloc(400 * 40);
    size_t n = (size_t)sprintf(data, "id|name|note\n");
    for (int i = 1; i <= 399; i++)
        n += (size_t)sprintf(data + n, "%d|\"item, %d\"|%s\n", i, i, i == 350 ? "5'11\" tall" : "x");
    simdsv_sniff *s = sniff_n(data, n);
    CHECK_EQ_INT(s->quote, -1);
    CHECK_STR(s->decisions[SIMDSV_SNIFF_QUOTE].reason,
              "none: quoting with '\"' rejects 1 sampled row, which read as regularly without it");
    uint64_t records = 0;
    CHECK_STATUS(read_as_detected(s, data, n, &records), SIMDSV_OK);
    CHECK_EQ_U64(records, 399);
    simdsv_sniff_free(s);
    free(data);

    /* A stray quote in the last row of an input sampled at its start,
     * middle and end: past every row kept for the decisions. */
    const size_t big_rows = 30000;
    char *big = malloc(big_rows * 80 + 64);
    n = (size_t)sprintf(big, "n,s\n");
    for (size_t i = 1; i <= big_rows; i++)
        n += (size_t)sprintf(big + n, "%zu,%060zu\n", i, i % 5);
    n += (size_t)sprintf(big + n, "1,bad\"quote\n");
    s = sniff_n(big, n);
    CHECK_EQ_INT(s->quote, -1);
    CHECK_STATUS(read_as_detected(s, big, n, &records), SIMDSV_OK);
    CHECK_EQ_U64(records, big_rows + 1);
    simdsv_sniff_free(s);
    free(big);

    /* The input ending inside quotes counts as a row that does not parse. */
    const char open_end[] = "name,comment\nann,\"fine\"\nbob,x\ncid,\"open\n";
    s = sniff_n(open_end, sizeof open_end - 1);
    CHECK_EQ_INT(s->quote, -1);
    CHECK_STATUS(read_as_detected(s, open_end, sizeof open_end - 1, &records), SIMDSV_OK);
    CHECK_EQ_U64(records, 3);
    simdsv_sniff_free(s);

    /* No dialect parses: the quoted fields hold the delimiter, so reading
     * without quoting splits them; the quote stays, "not sure"-ish, and the
     * reason names the options that read the file. */
    const char none[] = "id,name,note\n1,\"a, b\",x\n2,\"c, d\",5'11\" tall\n3,\"e, f\",y\n";
    s = sniff_n(none, sizeof none - 1);
    CHECK_EQ_INT(s->quote, '"');
    CHECK_EQ_U64(s->header, 1);
    CHECK_EQ_U64(s->skip_lines, 0);
    CHECK(s->decisions[SIMDSV_SNIFF_QUOTE].confidence < 0.7);
    CHECK(strstr(s->decisions[SIMDSV_SNIFF_QUOTE].reason, "--lenient or --no-quote") != NULL);
    CHECK_STATUS(read_as_detected(s, none, sizeof none - 1, &records), SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD);
    simdsv_sniff_free(s);
}

/* Negative cases: quoting that parses keeps its quote. */
static void test_quotes_kept(void)
{
    static const char *const cases[] = {
        "id,name,city\n1,\"Smith, Ann\",Paris\n2,\"Doe, Bob\",Rome\n3,Cid,\"Oslo\"\n",
        "id|text\n1|\"say \"\"hi\"\"\"\n2|\"two\nlines\"\n3|plain\n",
        "a;b\n\"1\";\"x\"\n\"2\";\"y\"\n",
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        h_context("quoted case %zu", c);
        simdsv_sniff *s = sniff_n(cases[c], strlen(cases[c]));
        CHECK_EQ_INT(s->quote, '"');
        CHECK(s->decisions[SIMDSV_SNIFF_QUOTE].confidence == 1);
        uint64_t records = 0;
        CHECK_STATUS(read_as_detected(s, cases[c], strlen(cases[c]), &records), SIMDSV_OK);
        CHECK_EQ_U64(records, c == 2 ? 2 : 3);
        simdsv_sniff_free(s);
    }
    /* Quoted texts of many lines, with doubled quotes ending lines: the
     * middle and the end of the sample start inside quotes, where neither
     * quote parity parses; those regions are no evidence against '"'. */
    const size_t rows = 800;
    char *big = malloc(rows * 1400 + 64);
    size_t n = (size_t)sprintf(big, "id,text,score\r\n");
    for (size_t i = 0; i < rows; i++) {
        n += (size_t)sprintf(big + n, "%zu,\"", i);
        for (int k = 0; k < 60; k++)
            n += (size_t)(k % 2 ? sprintf(big + n, "line %zu.%d \xC3\xA9, \"\"q\"\"\r\n", i, k) : sprintf(big + n, "l%d\n", k));
        n += (size_t)sprintf(big + n, "\",%zu.25\r\n", i);
    }
    h_context("quoted texts of many lines, %zu bytes", n);
    simdsv_sniff *s = sniff_n(big, n);
    CHECK_EQ_INT(s->quote, '"');
    uint64_t records = 0;
    CHECK_STATUS(read_as_detected(s, big, n, &records), SIMDSV_OK);
    CHECK_EQ_U64(records, rows);
    simdsv_sniff_free(s);
    free(big);
    h_context(NULL);
}

/* "col1|col2|col3" and 39 rows, a NUL byte in the value of each row listed
 * (0-terminated list). */
static size_t nul_table(char *buf, const int *nul_rows)
{
    size_t n = (size_t)sprintf(buf, "col1|col2|col3\n");
    for (int i = 1; i <= 39; i++) {
        int nul = 0;
        for (const int *k = nul_rows; *k; k++)
            nul |= *k == i;
        n += (size_t)sprintf(buf + n, "%d|name%d|x", i, i);
        if (nul)
            buf[n++] = '\0';
        n += (size_t)sprintf(buf + n, "%d\n", i);
    }
    return n;
}

static void test_nul_bytes(void)
{
    /* NUL bytes on fewer than half the lines are data: the detection goes
     * on, and the reader reads every record as detected. */
    char buf[2048];
    static const int one[] = {5, 0}, some[] = {2, 9, 17, 30, 0};
    const int *const cases[] = {one, some};
    for (size_t c = 0; c < 2; c++) {
        h_context("NUL bytes, case %zu", c);
        const size_t n = nul_table(buf, cases[c]);
        simdsv_sniff *s = sniff_n(buf, n);
        CHECK_EQ_INT(s->binary, 0);
        CHECK_STR(s->delimiter, "|");
        CHECK_EQ_U64(s->header, 1);
        CHECK_EQ_U64(s->column_count, 3);
        if (s->column_count == 3)
            CHECK_STR(s->columns[2].name, "col3");
        CHECK_STR(s->decisions[SIMDSV_SNIFF_ENCODING].reason,
                  c ? "ASCII only (valid UTF-8); NUL bytes on 4 of 40 lines, read as data"
                    : "ASCII only (valid UTF-8); NUL bytes on 1 of 40 lines, read as data");
        uint64_t records = 0;
        CHECK_STATUS(read_as_detected(s, buf, n, &records), SIMDSV_OK);
        CHECK_EQ_U64(records, 39);
        simdsv_sniff_free(s);
    }
    h_context(NULL);
    /* NULs on most lines and control bytes are still a value's bytes (the
     * fuzzers' files of DuckDB's test data read as DuckDB reads them): only
     * a binary format's signature or a NUL-dense sample says "not text". */
    static const int most[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14,
                               15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 0};
    const size_t n = nul_table(buf, most);
    simdsv_sniff *s = sniff_n(buf, n);
    CHECK_EQ_INT(s->binary, 0);
    CHECK_STR(s->delimiter, "|");
    uint64_t records = 0;
    CHECK_STATUS(read_as_detected(s, buf, n, &records), SIMDSV_OK);
    CHECK_EQ_U64(records, 39);
    simdsv_sniff_free(s);
    static const char controls[] = "a,b\n\x01\x1f\x1b,\x08\x02\n\x05x,\x7f\n\x10y,z\x0b\n";
    s = sniff_n(controls, sizeof controls - 1);
    CHECK_EQ_INT(s->binary, 0);
    simdsv_sniff_free(s);
    s = sniff_n("alpha,beta\0gamma", 16);
    CHECK_EQ_INT(s->binary, 0);
    simdsv_sniff_free(s);
    static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0\x1f\xf3\xff"
                              "a\0\0\0\x04sBIT";
    s = sniff_n(png, sizeof png - 1);
    CHECK_EQ_INT(s->binary, 1);
    CHECK_STR(s->decisions[SIMDSV_SNIFF_ENCODING].reason, "not text: a PNG image");
    simdsv_sniff_free(s);
    /* A text that starts like a signature's first bytes is text. */
    static const char par_text[] = "PAR1,PAR2\n1,2\n3,4\n";
    s = sniff_n(par_text, sizeof par_text - 1);
    CHECK_EQ_INT(s->binary, 0);
    CHECK_EQ_U64(s->column_count, 2);
    simdsv_sniff_free(s);
    /* A quarter of a 4 KiB sample NUL, with no UTF-16 pattern: not text. */
    char *dense = malloc(4096);
    CHECK(dense != NULL);
    if (dense) {
        for (size_t i = 0; i < 4096; i++)
            dense[i] = i % 3 == 0 ? 0 : (char)('a' + i % 7);
        s = sniff_n(dense, 4096);
        CHECK_EQ_INT(s->binary, 1);
        CHECK_STR(s->decisions[SIMDSV_SNIFF_ENCODING].reason,
                  "not text: 1366 NUL bytes in 4096, the first at offset 0 (and no UTF-16 pattern)");
        simdsv_sniff_free(s);
        free(dense);
    }
}

/* UTF-8 text as UTF-16LE with a byte order mark (every character here is
 * below U+0800): *n bytes, malloc'ed. */
static char *utf16le(const char *text, size_t *n)
{
    const size_t len = strlen(text);
    char *out = malloc(2 * len + 2);
    size_t o = 0;
    out[o++] = (char)0xFF;
    out[o++] = (char)0xFE;
    for (size_t i = 0; i < len;) {
        unsigned cp = (unsigned char)text[i];
        if (cp >= 0xC0) {
            cp = ((cp & 0x1F) << 6) | ((unsigned char)text[i + 1] & 0x3F);
            i += 2;
        } else {
            i++;
        }
        out[o++] = (char)(cp & 0xFF);
        out[o++] = (char)(cp >> 8);
    }
    *n = o;
    return out;
}

static char *write_temp(const char *data, size_t n)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/simdsv_test_dialect_XXXXXX");
    const int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "wb");
    const int ok = f && fwrite(data, 1, n, f) == n;
    if (f)
        fclose(f);
    return ok ? path : NULL;
}

/* Whether offset `at` of data[0..n) lies inside a quoted field (quotes
 * counted from the start; no doubled quote in the data it is used on). */
static int inside_quotes(const char *data, size_t at)
{
    int inside = 0;
    for (size_t i = 0; i < at; i++)
        inside ^= data[i] == '"';
    return inside;
}

/* A regular file is sampled at its start, middle and end (simdsv_sniff_path
 * reads them with pread, simdsv_sniff_memory points at them); the middle and
 * the end start at a line start, which in a file of long quoted values with
 * line breaks is inside quotes.  Read from there as if outside quotes, every
 * closing quote is "a quote inside an unquoted field": the quote was
 * rejected and the file read with no quoting, 48,800 rows instead of 800. */
static void test_sampled_inside_quotes(void)
{
    const int records = 800, lines_per_value = 61;
    char *data = malloc((size_t)records * (size_t)lines_per_value * 48 + 64);
    size_t n = (size_t)sprintf(data, "id,text,n\n");
    for (int i = 0; i < records; i++) {
        n += (size_t)sprintf(data + n, "%d,\"", i);
        for (int line = 0; line < lines_per_value; line++)
            n += (size_t)sprintf(data + n, "%sline %d of record %d, with a comma", line ? "\n" : "", line, i);
        n += (size_t)sprintf(data + n, "\",%d\n", i * 2);
    }
    /* The middle and the end samples (64 KiB) start in a quoted value, at
     * their first line end: otherwise this test tests nothing. */
    const size_t part = (size_t)64 << 10, starts[] = {(n / 2) & ~(size_t)1, n - part};
    for (size_t k = 0; k < 2; k++) {
        const char *line_end = memchr(data + starts[k], '\n', n - starts[k]);
        CHECK(line_end && inside_quotes(data, (size_t)(line_end - data) + 1));
    }
    const char *path = write_temp(data, n);
    CHECK(path != NULL);
    for (int by_path = 0; by_path < 2 && path; by_path++) {
        h_context(by_path ? "sniffed by path" : "sniffed in memory");
        simdsv_sniff *s = NULL;
        if (by_path) {
            int err = 0;
            CHECK_STATUS(simdsv_sniff_path(path, NULL, &s, &err), SIMDSV_OK);
        } else {
            s = sniff_n(data, n);
        }
        if (!s)
            continue;
        CHECK_STR(s->delimiter, ",");
        CHECK_EQ_INT(s->quote, '"');
        CHECK_EQ_U64(s->header, 1);
        CHECK(s->decisions[SIMDSV_SNIFF_QUOTE].confidence == 1);
        uint64_t got = 0;
        CHECK_STATUS(read_as_detected(s, data, n, &got), SIMDSV_OK);
        CHECK_EQ_U64(got, (uint64_t)records);
        simdsv_sniff_free(s);
    }
    h_context(NULL);
    if (path)
        remove(path);
    free(data);

    /* Defect 4 still holds where the quoting breaks only in the middle and
     * the end: a JSON column from row 14000 (past the 256 KiB start) breaks
     * '"' with either quote parity there, so no quote is chosen. */
    char *json = json_column(20000, 14000);
    const size_t jn = strlen(json);
    CHECK((size_t)(strchr(json, '"') - json) > ((size_t)256 << 10));
    simdsv_sniff *s = sniff_n(json, jn);
    CHECK_EQ_INT(s->quote, -1);
    CHECK(strstr(s->decisions[SIMDSV_SNIFF_QUOTE].reason, "rejects") != NULL);
    uint64_t got = 0;
    CHECK_STATUS(read_as_detected(s, json, jn, &got), SIMDSV_OK);
    CHECK_EQ_U64(got, 20000);
    simdsv_sniff_free(s);
    free(json);
}

/* The table read from path with what detection proposes; schema_only: the
 * inference only; stream: read through a FILE* (a stream the reader's
 * buffer refills from, as the CLI's inputs are) rather than by path. */
static simdsv_table *typed_as_detected(const char *path, int schema_only, int stream, simdsv_sniff **detected)
{
    int err = 0;
    CHECK_STATUS(simdsv_sniff_path(path, NULL, detected, &err), SIMDSV_OK);
    simdsv_options *opt = simdsv_options_new(NULL);
    simdsv_reader *r = NULL;
    simdsv_table *t = NULL;
    simdsv_status st = *detected ? simdsv_sniff_apply(*detected, opt) : SIMDSV_ERR_INVALID_ARGUMENT;
    if (st == SIMDSV_OK)
        st = simdsv_reader_new(&r, opt);
    FILE *file = stream ? fopen(path, "rb") : NULL;
    if (st == SIMDSV_OK)
        st = stream ? simdsv_reader_open_stdio(r, file) : simdsv_reader_open_path(r, path);
    if (st == SIMDSV_OK)
        st = schema_only ? simdsv_table_infer(r, &t) : simdsv_table_read(r, &t);
    CHECK_STATUS(st, SIMDSV_OK);
    simdsv_reader_free(r);
    if (file)
        fclose(file);
    simdsv_options_free(opt);
    return t;
}

/* The typed reader's samples and re-reads (sub-readers over the bytes the
 * reader holds, already UTF-8) converted them a second time: UTF-16 read as
 * mojibake with `age` null, Latin-1 reasons as RÃ©union.  And a converted
 * input ended where the reader's buffer had less room left than a character
 * takes (a read of nothing: "the end"), so typed reads of converted files
 * over 1 MiB lost their last rows with no error. */
static void test_encodings_typed(void)
{
    size_t n = 0;
    char *u16 = utf16le("name,age\nJos\xC3\xA9,30\nAnn,25\n", &n);
    char *path = write_temp(u16, n);
    CHECK(path != NULL);
    for (int schema_only = 0; path && schema_only < 2; schema_only++) {
        h_context("UTF-16, %s", schema_only ? "schema" : "read");
        simdsv_sniff *s = NULL;
        simdsv_table *t = typed_as_detected(path, schema_only, 0, &s);
        CHECK_STR(s ? s->encoding : "", "utf-16le");
        simdsv_column_info name, age;
        if (t && simdsv_table_columns(t) == 2 && simdsv_table_column(t, 0, &name) == SIMDSV_OK &&
            simdsv_table_column(t, 1, &age) == SIMDSV_OK) {
            CHECK_STR(name.name, "name");
            CHECK_STR(name.reason, "string: not a number, bool, date or timestamp in `Jos\xC3\xA9` at line 2");
            CHECK_STR(age.name, "age");
            CHECK_EQ_INT(age.type, SIMDSV_TYPE_INT64);
            if (!schema_only) {
                simdsv_column_view v;
                CHECK_EQ_U64(simdsv_table_rows(t), 2);
                if (simdsv_table_column_view(t, 1, &v) == SIMDSV_OK && v.length == 2) {
                    CHECK_EQ_INT(((const int64_t *)v.values)[0], 30);
                    CHECK_EQ_INT(((const int64_t *)v.values)[1], 25);
                }
            }
        } else {
            FAIL_MSG("no table of 2 columns");
        }
        simdsv_table_free(t);
        simdsv_sniff_free(s);
    }
    if (path)
        remove(path);
    free(u16);

    h_context("Latin-1 reason");
    static const char latin1[] = "city,n\nR\xE9union,1\nOrl\xE9" "ans,2\n";
    path = write_temp(latin1, sizeof latin1 - 1);
    simdsv_sniff *s = NULL;
    simdsv_table *t = path ? typed_as_detected(path, 1, 0, &s) : NULL;
    simdsv_column_info city;
    CHECK_STR(s ? s->encoding : "", "iso-8859-1");
    if (t && simdsv_table_column(t, 0, &city) == SIMDSV_OK)
        CHECK_STR(city.reason, "string: not a number, bool, date or timestamp in `R\xC3\xA9union` at line 2");
    simdsv_table_free(t);
    simdsv_sniff_free(s);
    if (path)
        remove(path);

    /* Over 1 MiB converted, in both directions (UTF-16 shrinks, Latin-1 grows). */
    const size_t rows = 150000;
    char *text = malloc(rows * 32 + 32);
    size_t tn = (size_t)sprintf(text, "name,age\n");
    for (size_t i = 0; i < rows; i++)
        tn += (size_t)sprintf(text + tn, "Jos\xC3\xA9%zu,%zu\n", i, i % 90);
    char *as_latin1 = malloc(tn);
    size_t ln = 0;
    for (size_t i = 0; i < tn; i++) {
        if ((unsigned char)text[i] == 0xC3) {
            as_latin1[ln++] = (char)(0xC0 | ((unsigned char)text[++i] & 0x3F));
            continue;
        }
        as_latin1[ln++] = text[i];
    }
    u16 = utf16le(text, &n);
    const char *const big[2] = {u16, as_latin1};
    const size_t big_n[2] = {n, ln};
    for (int e = 0; e < 4; e++) {
        h_context("%s, %zu rows, %s", e & 1 ? "Latin-1" : "UTF-16", rows, e & 2 ? "FILE*" : "path");
        path = write_temp(big[e & 1], big_n[e & 1]);
        t = path ? typed_as_detected(path, 0, e & 2, &s) : NULL;
        CHECK_EQ_U64(t ? simdsv_table_rows(t) : 0, rows);
        simdsv_column_view v;
        if (t && simdsv_table_column_view(t, 0, &v) == SIMDSV_OK && v.length == rows && v.offset_width == 4) {
            const int32_t *off = v.offsets;
            const char last[] = "Jos\xC3\xA9" "149999";
            CHECK_MEM(v.bytes + off[rows - 1], (size_t)(off[rows] - off[rows - 1]), last, sizeof last - 1);
        }
        simdsv_table_free(t);
        simdsv_sniff_free(s);
        if (path)
            remove(path);
    }
    h_context(NULL);
    free(u16);
    free(as_latin1);
    free(text);
}

int main(void)
{
    test_json_column();
    test_quote_that_does_not_parse();
    test_quotes_kept();
    test_sampled_inside_quotes();
    test_nul_bytes();
    test_encodings_typed();
    return check_summary();
}
