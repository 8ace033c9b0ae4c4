/*
 * test_input.c — simdsv_input: "detect, then read exactly as if the options
 * were given".  One table written in every dialect × encoding ×
 * compression, opened by path, descriptor and buffer, detected with nothing
 * given, must give exactly its records; options the caller gives win over
 * detection; a stream longer than the sample loses nothing; errors carry
 * the reason (path, decoder).  The test links zlib and libzstd itself to
 * make compressed data; the library only loads them.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "simdsv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef TEST_HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef TEST_HAVE_ZSTD
#include <zstd.h>
#endif

/* ------------------------------------------------------------ the table */

#define ROWS 24
#define COLS 4

/* Row r, column k, as UTF-8; the text of row 3 holds the delimiter, row 5 a
 * quote, so that the quote must be detected and used. */
static void cell(int r, int k, int delimiter, char *out, size_t cap)
{
    static const char *const names[COLS] = {"name", "city", "qty", "note"};
    static const char *const cities[] = {"Z\xc3\xbcrich", "Paris", "Mal\xc3\xa9", "Oslo"};
    if (r == 0) {
        snprintf(out, cap, "%s", names[k]);
        return;
    }
    switch (k) {
    case 0:
        snprintf(out, cap, "Jos\xc3\xa9 %d", r);
        break;
    case 1:
        snprintf(out, cap, "%s", cities[r % 4]);
        break;
    case 2:
        snprintf(out, cap, "%d", r * 7);
        break;
    default:
        if (r == 3)
            snprintf(out, cap, "a%cb", delimiter);
        else if (r == 5)
            snprintf(out, cap, "say \"hi\"");
        else
            snprintf(out, cap, "n%d", r);
    }
}

typedef struct buf {
    unsigned char *p;
    size_t n, cap;
} buf;

static void put(buf *b, const void *s, size_t n)
{
    if (!n)
        return; /* (an empty field: memcpy wants a buffer even for no byte) */
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        if (!b->p)
            abort();
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
}

/* The table as UTF-8 CSV: fields holding the delimiter or the quote are quoted. */
static void write_csv(buf *b, int delimiter, int quote, const char *eol)
{
    char text[64];
    for (int r = 0; r <= ROWS; r++) {
        for (int k = 0; k < COLS; k++) {
            if (k) {
                const char d = (char)delimiter;
                put(b, &d, 1);
            }
            cell(r, k, delimiter, text, sizeof text);
            if (strchr(text, delimiter) || strchr(text, quote)) {
                const char q = (char)quote;
                put(b, &q, 1);
                for (const char *c = text; *c; c++) {
                    put(b, c, 1);
                    if (*c == quote)
                        put(b, c, 1);
                }
                put(b, &q, 1);
            } else {
                put(b, text, strlen(text));
            }
        }
        put(b, eol, strlen(eol));
    }
}

typedef enum { ENC_UTF8, ENC_UTF8_BOM, ENC_UTF16LE, ENC_UTF16BE, ENC_LATIN1 } encoding;
static const char *const encoding_names[] = {"utf-8", "utf-8 BOM", "utf-16le", "utf-16be", "latin-1"};

/* UTF-8 (only code points below U+0100 here) to the encoding. */
static void encode(const buf *in, encoding e, buf *out)
{
    if (e == ENC_UTF8 || e == ENC_UTF8_BOM) {
        if (e == ENC_UTF8_BOM)
            put(out, "\xef\xbb\xbf", 3);
        put(out, in->p, in->n);
        return;
    }
    if (e == ENC_UTF16LE)
        put(out, "\xff\xfe", 2);
    if (e == ENC_UTF16BE)
        put(out, "\xfe\xff", 2);
    for (size_t i = 0; i < in->n; i++) {
        unsigned cp = in->p[i];
        if (cp >= 0xC0) { /* a two-byte sequence of U+0080..U+00FF */
            cp = ((cp & 0x1F) << 6) | (in->p[i + 1] & 0x3F);
            i++;
        }
        const unsigned char c = (unsigned char)cp;
        const unsigned char zero = 0;
        if (e == ENC_LATIN1) {
            put(out, &c, 1);
        } else if (e == ENC_UTF16LE) {
            put(out, &c, 1);
            put(out, &zero, 1);
        } else {
            put(out, &zero, 1);
            put(out, &c, 1);
        }
    }
}

typedef enum { COMP_NONE, COMP_GZIP, COMP_ZSTD } compression;
static const char *const compression_names[] = {"none", "gzip", "zstd"};

/* 0 when this test cannot make that compression. */
static int compress_to(const buf *in, compression c, buf *out)
{
    if (c == COMP_NONE) {
        put(out, in->p, in->n);
        return 1;
    }
#ifdef TEST_HAVE_ZLIB
    if (c == COMP_GZIP) {
        z_stream z;
        memset(&z, 0, sizeof z);
        if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            return 0;
        const size_t bound = deflateBound(&z, (uLong)in->n) + 64;
        unsigned char *tmp = malloc(bound);
        z.next_in = in->p;
        z.avail_in = (uInt)in->n;
        z.next_out = tmp;
        z.avail_out = (uInt)bound;
        const int ok = tmp && deflate(&z, Z_FINISH) == Z_STREAM_END;
        if (ok)
            put(out, tmp, bound - z.avail_out);
        deflateEnd(&z);
        free(tmp);
        return ok;
    }
#endif
#ifdef TEST_HAVE_ZSTD
    if (c == COMP_ZSTD) {
        const size_t bound = ZSTD_compressBound(in->n);
        unsigned char *tmp = malloc(bound);
        const size_t n = tmp ? ZSTD_compress(tmp, bound, in->p, in->n, 3) : 0;
        const int ok = tmp && !ZSTD_isError(n);
        if (ok)
            put(out, tmp, n);
        free(tmp);
        return ok;
    }
#endif
    return 0;
}

/* ------------------------------------------------------------ reading */

static char tmp_path[64];

static void write_file(const buf *b)
{
    FILE *f = fopen(tmp_path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(!b->n || fwrite(b->p, 1, b->n, f) == b->n); /* (fwrite wants a buffer even for no byte) */
    fclose(f);
}

typedef enum { BY_PATH, BY_FD, BY_MEMORY } opened_by;
static const char *const opened_names[] = {"path", "descriptor", "buffer"};

/* Opens the input (bytes in b, also in tmp_path) the way asked. */
static simdsv_status open_input(simdsv_input **in, opened_by how, const buf *b, const simdsv_options *opt, int *fd)
{
    simdsv_error err;
    *fd = -1;
    if (how == BY_PATH)
        return simdsv_input_open_path(in, tmp_path, opt, &err);
    if (how == BY_MEMORY)
        return simdsv_input_open_memory(in, b->p, b->n, opt, &err);
    *fd = open(tmp_path, O_RDONLY);
    return simdsv_input_open_fd(in, *fd, opt, &err);
}

/* The records read as "f1|f2|...\n" (the header first when there is one). */
static simdsv_status read_all(simdsv_input *in, const simdsv_options *opt, buf *out)
{
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv_reader_new(&r, opt);
    if (st == SIMDSV_OK)
        st = simdsv_input_open_reader(in, r);
    int64_t header = 0;
    simdsv_options_get(opt, SIMDSV_OPT_HEADER, &header);
    simdsv_record rec;
    int first = 1;
    while (st == SIMDSV_OK) {
        st = first && header ? simdsv_reader_header(r, &rec) : simdsv_reader_next(r, &rec);
        first = 0;
        if (st != SIMDSV_OK)
            break;
        for (size_t k = 0; k < rec.field_count; k++) {
            if (k)
                put(out, "|", 1);
            const char *data = NULL;
            size_t size = 0;
            st = simdsv_reader_unescape(r, &rec.fields[k], &data, &size);
            if (st != SIMDSV_OK)
                break;
            put(out, data, size);
        }
        put(out, "\n", 1);
    }
    if (st != SIMDSV_END)
        h_context("read: %s", simdsv_reader_error(r)->message);
    simdsv_reader_free(r);
    return st == SIMDSV_END ? SIMDSV_OK : st;
}

/* The table as read_all gives it (every cell decoded, header included). */
static void expected_records(int delimiter, buf *out)
{
    char text[64];
    for (int r = 0; r <= ROWS; r++) {
        for (int k = 0; k < COLS; k++) {
            if (k)
                put(out, "|", 1);
            cell(r, k, delimiter, text, sizeof text);
            put(out, text, strlen(text));
        }
        put(out, "\n", 1);
    }
}

/* Every dialect × encoding × compression × way of opening, nothing given. */
static void test_matrix(void)
{
    static const struct {
        int delimiter, quote;
        const char *eol;
    } dialects[] = {{',', '"', "\n"}, {';', '"', "\r\n"}, {'\t', '"', "\n"}, {'|', '\'', "\n"}};
    for (size_t d = 0; d < sizeof dialects / sizeof *dialects; d++) {
        buf utf8 = {0}, want = {0};
        write_csv(&utf8, dialects[d].delimiter, dialects[d].quote, dialects[d].eol);
        expected_records(dialects[d].delimiter, &want);
        for (int e = ENC_UTF8; e <= ENC_LATIN1; e++) {
            buf encoded = {0};
            encode(&utf8, (encoding)e, &encoded);
            for (int c = COMP_NONE; c <= COMP_ZSTD; c++) {
                buf bytes = {0};
                if (!compress_to(&encoded, (compression)c, &bytes)) {
                    free(bytes.p);
                    continue;
                }
                write_file(&bytes);
                for (int how = BY_PATH; how <= BY_MEMORY; how++) {
                    h_context("delimiter 0x%02x, %s, %s, by %s", dialects[d].delimiter, encoding_names[e],
                              compression_names[c], opened_names[how]);
                    simdsv_options *opt = simdsv_options_new(NULL);
                    simdsv_input *in = NULL;
                    int fd;
                    CHECK_STATUS(open_input(&in, (opened_by)how, &bytes, opt, &fd), SIMDSV_OK);
                    CHECK_EQ_INT(simdsv_input_compression(in), c == COMP_NONE   ? SIMDSV_COMPRESSION_NONE
                                                               : c == COMP_GZIP ? SIMDSV_COMPRESSION_GZIP
                                                                                : SIMDSV_COMPRESSION_ZSTD);
                    simdsv_sniff_params p = {opt, 0, 0, 0, 0, 0};
                    simdsv_sniff *s = NULL;
                    CHECK_STATUS(simdsv_input_detect(in, &p, opt, &s, NULL), SIMDSV_OK);
                    if (s) {
                        CHECK_EQ_INT(s->delimiter[0], dialects[d].delimiter);
                        CHECK_EQ_INT(s->quote, dialects[d].quote);
                        CHECK_EQ_INT(s->header, 1);
                    }
                    buf got = {0};
                    CHECK_STATUS(read_all(in, opt, &got), SIMDSV_OK);
                    CHECK_MEM(got.p, got.n, want.p, want.n);
                    free(got.p);
                    simdsv_sniff_free(s);
                    simdsv_input_free(in);
                    if (fd >= 0)
                        close(fd);
                    simdsv_options_free(opt);
                }
                free(bytes.p);
            }
            free(encoded.p);
        }
        free(utf8.p);
        free(want.p);
    }
    h_context(NULL);
}

/* What the caller gives is read as given; the rest is still detected. */
static void test_given_wins(void)
{
    buf csv = {0};
    write_csv(&csv, ';', '"', "\n");
    write_file(&csv);
    simdsv_options *opt = simdsv_options_new(NULL);
    simdsv_options_set(opt, SIMDSV_OPT_HEADER, 0);
    simdsv_input *in = NULL;
    CHECK_STATUS(simdsv_input_open_path(&in, tmp_path, opt, NULL), SIMDSV_OK);
    simdsv_sniff_params p = {opt, 1u << SIMDSV_SNIFF_HEADER, 0, 0, 0, 0};
    CHECK_STATUS(simdsv_input_detect(in, &p, opt, NULL, NULL), SIMDSV_OK);
    int64_t v = -2;
    simdsv_options_get(opt, SIMDSV_OPT_DELIMITER, &v);
    CHECK_EQ_INT(v, ';'); /* detected */
    simdsv_options_get(opt, SIMDSV_OPT_HEADER, &v);
    CHECK_EQ_INT(v, 0); /* given: the header line is a record */
    simdsv_reader *r = NULL;
    CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK);
    CHECK_STATUS(simdsv_input_open_reader(in, r), SIMDSV_OK);
    uint64_t n = 0;
    CHECK_STATUS(simdsv_reader_count(r, &n), SIMDSV_OK);
    CHECK_EQ_U64(n, ROWS + 1);
    /* An input opens one reader. */
    simdsv_reader *again = NULL;
    CHECK_STATUS(simdsv_reader_new(&again, opt), SIMDSV_OK);
    CHECK_STATUS(simdsv_input_open_reader(in, again), SIMDSV_ERR_INVALID_ARGUMENT);
    simdsv_reader_free(again);
    simdsv_reader_free(r);
    simdsv_input_free(in);

    /* A given delimiter: ',' in a ';' file reads one field a line. */
    simdsv_options_set(opt, SIMDSV_OPT_DELIMITER, ',');
    CHECK_STATUS(simdsv_input_open_memory(&in, csv.p, csv.n, opt, NULL), SIMDSV_OK);
    p.given = 1u << SIMDSV_SNIFF_DELIMITER;
    CHECK_STATUS(simdsv_input_detect(in, &p, opt, NULL, NULL), SIMDSV_OK);
    simdsv_options_get(opt, SIMDSV_OPT_DELIMITER, &v);
    CHECK_EQ_INT(v, ',');
    simdsv_options_get(opt, SIMDSV_OPT_HEADER, &v);
    CHECK_EQ_INT(v, 1); /* detected again: the header was not given this time */
    CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK);
    CHECK_STATUS(simdsv_input_open_reader(in, r), SIMDSV_OK);
    simdsv_record rec;
    CHECK_STATUS(simdsv_reader_header(r, &rec), SIMDSV_OK);
    CHECK_EQ_U64(rec.field_count, 1);
    CHECK_MEM(rec.fields[0].data, rec.fields[0].size, "name;city;qty;note", 18);
    simdsv_reader_free(r);
    simdsv_input_free(in);

    /* SIMDSV_OPT_COMPRESSION=NONE reads gzip bytes as they are. */
    simdsv_options_set(opt, SIMDSV_OPT_COMPRESSION, SIMDSV_COMPRESSION_NONE);
    CHECK_STATUS(simdsv_input_open_memory(&in, "\x1f\x8b\x08", 3, opt, NULL), SIMDSV_OK);
    CHECK_EQ_INT(simdsv_input_compression(in), SIMDSV_COMPRESSION_NONE);
    simdsv_input_free(in);
    /* Setting the encoding back to UTF-8 ("") leaves the compression alone. */
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_ENCODING, ""), SIMDSV_OK);
    simdsv_options_get(opt, SIMDSV_OPT_COMPRESSION, &v);
    CHECK_EQ_INT(v, SIMDSV_COMPRESSION_NONE);
    CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_COMPRESSION, 4), SIMDSV_ERR_INVALID_ARGUMENT);
    simdsv_options_free(opt);
    free(csv.p);
}

/* A compressed stream far longer than the sample: every record, in order. */
static void test_long_stream(void)
{
    buf csv = {0}, z = {0};
    put(&csv, "id;text\n", 8);
    char line[64];
    const int rows = 60000;
    for (int i = 0; i < rows; i++)
        put(&csv, line, (size_t)snprintf(line, sizeof line, "%d;\"x;%d\"\n", i, i * 3));
    if (!compress_to(&csv, COMP_GZIP, &z)) {
        free(csv.p);
        return;
    }
    simdsv_options *opt = simdsv_options_new(NULL);
    simdsv_input *in = NULL;
    CHECK_STATUS(simdsv_input_open_memory(&in, z.p, z.n, opt, NULL), SIMDSV_OK);
    simdsv_sniff *s = NULL;
    CHECK_STATUS(simdsv_input_detect(in, NULL, opt, &s, NULL), SIMDSV_OK);
    CHECK(s && s->delimiter[0] == ';' && s->sampled_bytes <= ((size_t)256 << 10));
    /* A second detection (another table) uses the same sample. */
    simdsv_sniff *s2 = NULL;
    CHECK_STATUS(simdsv_input_detect(in, NULL, NULL, &s2, NULL), SIMDSV_OK);
    CHECK(s2 && s2->delimiter[0] == ';');
    buf got = {0};
    CHECK_STATUS(read_all(in, opt, &got), SIMDSV_OK);
    CHECK(got.n > 0);
    /* Every record back, the sample's and the rest's: line i+1 is "i|x;3i". */
    size_t lines = 0, at = 0;
    int ok = 1;
    for (size_t i = 0; i < got.n; i++) {
        if (got.p[i] != '\n')
            continue;
        if (lines > 0) {
            const int w = snprintf(line, sizeof line, "%zu|x;%zu", lines - 1, (lines - 1) * 3);
            ok &= (size_t)w == i - at && memcmp(got.p + at, line, (size_t)w) == 0;
        }
        lines++;
        at = i + 1;
    }
    CHECK(ok);
    CHECK_EQ_U64(lines, (uint64_t)rows + 1);
    free(got.p);
    simdsv_sniff_free(s);
    simdsv_sniff_free(s2);
    simdsv_input_free(in);
    simdsv_options_free(opt);
    free(csv.p);
    free(z.p);
}

static void count_bytes(void *ctx, uint64_t bytes)
{
    *(uint64_t *)ctx += bytes;
}

/* Inputs of fewer bytes than the compression check reads (4), read through
 * the input (a descriptor; a path with a read observer): every byte once,
 * none twice. */
static void test_tiny(void)
{
    static const char *const inputs[] = {"", "4", "42\n", "a,b\n", "x\ny\n"};
    static const char *const records[] = {"", "4\n", "42\n", "a|b\n", "x\ny\n"};
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        buf b = {0};
        put(&b, inputs[i], strlen(inputs[i]));
        write_file(&b);
        for (int how = BY_PATH; how <= BY_FD; how++) {
            h_context("tiny input %zu by %s", i, opened_names[how]);
            simdsv_options *opt = simdsv_options_new(NULL);
            simdsv_options_set(opt, SIMDSV_OPT_HEADER, 0);
            simdsv_input *in = NULL;
            int fd;
            CHECK_STATUS(open_input(&in, (opened_by)how, &b, opt, &fd), SIMDSV_OK);
            uint64_t seen = 0;
            if (how == BY_PATH)
                simdsv_input_observe(in, count_bytes, &seen);
            buf got = {0};
            CHECK_STATUS(read_all(in, opt, &got), SIMDSV_OK);
            CHECK_MEM(got.p, got.n, records[i], strlen(records[i]));
            if (how == BY_PATH)
                CHECK_EQ_U64(seen, strlen(inputs[i]));
            free(got.p);
            simdsv_input_free(in);
            if (fd >= 0)
                close(fd);
            simdsv_options_free(opt);
        }
        free(b.p);
    }
    h_context(NULL);
}

/* Errors say why: the system's reason, the decoder's. */
static void test_errors(void)
{
    simdsv_input *in = NULL;
    simdsv_error err;
    CHECK_STATUS(simdsv_input_open_path(&in, "/nonexistent/simdsv-input.csv", NULL, &err), SIMDSV_ERR_IO);
    CHECK(in == NULL);
    CHECK_EQ_INT(err.os_errno, ENOENT);
    CHECK_STR(err.message, "No such file or directory");
    CHECK_STATUS(simdsv_input_open_path(&in, "/", NULL, &err), SIMDSV_ERR_IO);
    CHECK_EQ_INT(err.os_errno, EISDIR);
    CHECK_STATUS(simdsv_input_open_path(&in, NULL, NULL, &err), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_input_open_fd(&in, -1, NULL, &err), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STR(simdsv_compression_name(SIMDSV_COMPRESSION_ZSTD), "zstd");
    CHECK(simdsv_compression_name((simdsv_compression)9) == NULL);

    buf csv = {0}, z = {0};
    write_csv(&csv, ',', '"', "\n");
    for (int c = COMP_GZIP; c <= COMP_ZSTD; c++) {
        z.n = 0;
        if (!compress_to(&csv, (compression)c, &z))
            continue;
        h_context("truncated %s", compression_names[c]);
        /* Cut in the middle: detection samples what decodes, and the
         * reader then meets the truncation, with the decoder's words. */
        simdsv_options *opt = simdsv_options_new(NULL);
        CHECK_STATUS(simdsv_input_open_memory(&in, z.p, z.n / 2, opt, NULL), SIMDSV_OK);
        const simdsv_status st = simdsv_input_detect(in, NULL, opt, NULL, &err);
        char want[64];
        snprintf(want, sizeof want, "the %s data is truncated", compression_names[c]);
        if (st == SIMDSV_ERR_IO) {
            CHECK_STR(err.message, want);
        } else {
            CHECK_STATUS(st, SIMDSV_OK);
        }
        simdsv_reader *r = NULL;
        CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK);
        CHECK_STATUS(simdsv_input_open_reader(in, r), SIMDSV_OK);
        uint64_t n = 0;
        CHECK_STATUS(simdsv_reader_count(r, &n), SIMDSV_ERR_IO);
        CHECK_STR(simdsv_reader_error(r)->message, want);
        CHECK_STR(simdsv_input_error(in), want);
        simdsv_reader_free(r);
        simdsv_input_free(in);
        simdsv_options_free(opt);
    }
    h_context(NULL);
    free(csv.p);
    free(z.p);
}

/* Two files concatenated: the second copy of the header is left out by the
 * input itself (the Python package reads through it), with a footer cut at
 * the last range's end, opened every way and through gzip; a given footer
 * setting leaves every byte. */
static void test_repeated_header(void)
{
    buf csv = {0};
    const char text[] = "id,city,temp\n1,a,1.5\n2,b,2.5\n3,c,3.5\nid,city,temp\n4,d,4.5\n5,e,5.5\n6,f,6.5\n\nTotal: 6\n";
    put(&csv, text, strlen(text));
    const char want[] = "id|city|temp\n1|a|1.5\n2|b|2.5\n3|c|3.5\n4|d|4.5\n5|e|5.5\n6|f|6.5\n";
    for (int how = BY_PATH; how <= BY_MEMORY; how++) {
        for (int c = 0; c < 2; c++) {
            buf data = {0};
            if (c == 0)
                put(&data, csv.p, csv.n);
            else if (!compress_to(&csv, COMP_GZIP, &data))
                continue;
            write_file(&data);
            simdsv_options *opt = simdsv_options_new(NULL);
            simdsv_input *in = NULL;
            int fd = -1;
            CHECK_STATUS(open_input(&in, (opened_by)how, &data, opt, &fd), SIMDSV_OK);
            simdsv_sniff *s = NULL;
            CHECK_STATUS(simdsv_input_detect(in, NULL, opt, &s, NULL), SIMDSV_OK);
            CHECK(s && s->repeated_header_count == 1 && s->repeated_headers[0].line == 5);
            uint64_t ranges[4];
            CHECK_EQ_U64(simdsv_sniff_kept_ranges(s, ranges, 2), 2);
            const uint64_t copy = (uint64_t)(strstr(text, "\nid,") - text) + 1;
            CHECK(ranges[0] == 0 && ranges[1] == copy && ranges[2] == copy + 13);
            CHECK_EQ_U64(ranges[3], (uint64_t)(strstr(text, "\n\nTotal") - text) + 1);
            buf out = {0};
            CHECK_STATUS(read_all(in, opt, &out), SIMDSV_OK);
            CHECK_MEM(out.p, out.n, want, strlen(want));
            h_context("%s, %s", opened_names[how], c ? "gzip" : "plain");
            simdsv_sniff_free(s);
            simdsv_input_free(in);
            if (fd >= 0)
                close(fd);
            free(out.p);
            free(data.p);
            simdsv_options_free(opt);
        }
    }
    simdsv_options *opt = simdsv_options_new(NULL);
    simdsv_input *in = NULL;
    CHECK_STATUS(simdsv_input_open_memory(&in, csv.p, csv.n, opt, NULL), SIMDSV_OK);
    simdsv_sniff_params p = {opt, 1u << SIMDSV_SNIFF_FOOTER, 0, 0, 0, 0};
    CHECK_STATUS(simdsv_input_detect(in, &p, opt, NULL, NULL), SIMDSV_OK);
    buf out = {0};
    CHECK_STATUS(read_all(in, opt, &out), SIMDSV_OK);
    put(&out, "", 1);
    CHECK(strstr((const char *)out.p, "3|c|3.5\nid|city|temp\n4|d|4.5") != NULL);
    simdsv_input_free(in);
    simdsv_options_free(opt);
    free(out.p);
    free(csv.p);
}

int main(void)
{
    const char *kernel = getenv("SIMDSV_KERNEL");
    if (kernel && *kernel && !simdsv_kernel_supported((simdsv_kernel)simdsv_kernel_from_name(kernel)))
        return 77;
    snprintf(tmp_path, sizeof tmp_path, "/tmp/simdsv-test-input-%ld.csv", (long)getpid());
    CHECK(simdsv_compression_supported(SIMDSV_COMPRESSION_NONE));
#ifdef TEST_HAVE_ZLIB
    CHECK(simdsv_compression_supported(SIMDSV_COMPRESSION_GZIP));
#endif
#ifdef TEST_HAVE_ZSTD
    CHECK(simdsv_compression_supported(SIMDSV_COMPRESSION_ZSTD));
#endif
    test_matrix();
    test_given_wins();
    test_tiny();
    test_long_stream();
    test_errors();
    test_repeated_header();
    unlink(tmp_path);
    return check_summary();
}
