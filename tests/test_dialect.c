/* test_dialect.c — the dialect chosen must read its own input (issue 21):
 * a quote that does not parse the sample is no candidate (a JSON column, a
 * first stray quote past the rows scored), and what the detection proposes
 * is read by the reader, every record of it, with no error.  Each case is
 * also detected for a reader of records (dialect_only), which must agree,
 * and ordinary quoted files are the negative cases: they keep their quote. */
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
    /* NULs on half the lines or more, or many control bytes: not text. */
    static const int most[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14,
                               15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 0};
    const size_t n = nul_table(buf, most);
    simdsv_sniff *s = sniff_n(buf, n);
    CHECK_EQ_INT(s->binary, 1);
    CHECK_STR(s->decisions[SIMDSV_SNIFF_ENCODING].reason,
              "not text: NUL bytes on 24 of 40 lines, the first at offset 24 (and no UTF-16 pattern)");
    simdsv_sniff_free(s);
    static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0\x1f\xf3\xff"
                              "a\0\0\0\x04sBIT";
    s = sniff_n(png, sizeof png - 1);
    CHECK_EQ_INT(s->binary, 1);
    CHECK_STR(s->decisions[SIMDSV_SNIFF_ENCODING].reason, "not text: 22 control bytes in 41");
    simdsv_sniff_free(s);
    /* One line with a NUL is half the lines: a one-line value cannot tell. */
    s = sniff_n("alpha,beta\0gamma", 16);
    CHECK_EQ_INT(s->binary, 1);
    simdsv_sniff_free(s);
}

int main(void)
{
    test_json_column();
    test_quote_that_does_not_parse();
    test_quotes_kept();
    test_nul_bytes();
    return check_summary();
}
