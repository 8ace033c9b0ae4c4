/* fuzz_table.c — the typed reader and the Arrow export on arbitrary bytes
 * and options: it must never crash or leak, and every exported array must be
 * valid (lengths, buffers, offsets monotonic and inside the data, null counts
 * equal to the unset validity bits; a string view's bytes inside its buffer,
 * its prefix equal to them), with one thread and with two giving the same
 * rows, strings as utf8 or as views; and a stream of record batches must give the whole read's rows
 * (both with every column a string, so that inference windows agree), or
 * fail where the whole read fails. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int bit(const void *bitmap, int64_t i)
{
    return (((const uint8_t *)bitmap)[i / 8] >> (i % 8)) & 1;
}

/* Arrow string views: 16 bytes each, the length first; up to 12 bytes held
 * inline, a longer string's 4-byte prefix, then its data buffer's index and
 * its offset there.  The buffers: validity, views, the data buffers, then
 * their sizes (int64 each). */
static void validate_views(const struct ArrowArray *x)
{
    FUZZ_ASSERT(x->n_buffers >= 3);
    const int64_t data_buffers = x->n_buffers - 3;
    const int64_t *sizes = x->buffers[x->n_buffers - 1];
    const uint8_t *views = x->buffers[1];
    for (int64_t i = 0; i < x->length; i++) {
        if (!bit(x->buffers[0], i))
            continue;
        int32_t len, index, offset;
        memcpy(&len, views + 16 * i, 4);
        FUZZ_ASSERT(len >= 0);
        if (len <= 12)
            continue;
        memcpy(&index, views + 16 * i + 8, 4);
        memcpy(&offset, views + 16 * i + 12, 4);
        FUZZ_ASSERT(index >= 0 && index < data_buffers && offset >= 0 && offset + (int64_t)len <= sizes[index]);
        FUZZ_ASSERT(memcmp(views + 16 * i + 4, (const char *)x->buffers[2 + index] + offset, 4) == 0);
    }
}

static void validate(const struct ArrowSchema *s, const struct ArrowArray *a)
{
    FUZZ_ASSERT(strcmp(s->format, "+s") == 0 && s->n_children == a->n_children && a->null_count == 0);
    for (int64_t c = 0; c < a->n_children; c++) {
        const struct ArrowArray *x = a->children[c];
        const char *f = s->children[c]->format;
        FUZZ_ASSERT(x->length == a->length && x->offset == 0 && x->release);
        if (strcmp(f, "n") == 0) {
            FUZZ_ASSERT(x->n_buffers == 0 && x->null_count == x->length);
            continue;
        }
        int64_t nulls = 0;
        for (int64_t i = 0; i < x->length; i++)
            nulls += !bit(x->buffers[0], i);
        FUZZ_ASSERT(nulls == x->null_count);
        if (strcmp(f, "u") == 0) {
            const int32_t *off = x->buffers[1];
            FUZZ_ASSERT(off[0] == 0);
            for (int64_t i = 0; i < x->length; i++)
                FUZZ_ASSERT(off[i + 1] >= off[i]);
        }
        if (strcmp(f, "vu") == 0)
            validate_views(x);
    }
}

static int64_t read_rows(const fuzz_config *c, const uint8_t *csv, size_t n, int threads, int pick_types)
{
    simdsv_options *o = fuzz_options(c, SIMDSV_KERNEL_AUTO);
    simdsv_options_set(o, SIMDSV_OPT_THREADS, threads);
    simdsv_options_set(o, SIMDSV_OPT_INFER_ROWS, pick_types & 1 ? -1 : 3);
    if (pick_types & 2)
        simdsv_options_set_string(o, SIMDSV_OPT_SCHEMA, "#1:int64,#2:date");
    if (pick_types & 4)
        simdsv_options_set(o, SIMDSV_OPT_ON_ERROR, SIMDSV_ON_ERROR_NULL);
    if (pick_types & 8)
        simdsv_options_set_string(o, SIMDSV_OPT_NULL_VALUES, "NA,#2=-");
    if (pick_types & 16)
        simdsv_options_set(o, SIMDSV_OPT_STRINGS, SIMDSV_STRINGS_VIEW);
    simdsv_reader *r = NULL;
    int64_t rows = -1;
    if (simdsv_reader_new(&r, o) == SIMDSV_OK && simdsv_reader_open_memory(r, csv, n) == SIMDSV_OK) {
        simdsv_table *t = NULL;
        if (simdsv_table_read(r, &t) == SIMDSV_OK) {
            struct ArrowSchema s;
            struct ArrowArray a;
            if (simdsv_table_move_to_arrow(t, &s, &a) == SIMDSV_OK) {
                validate(&s, &a);
                rows = a.length;
                a.release(&a);
                s.release(&s);
                FUZZ_ASSERT(a.release == NULL && s.release == NULL);
            }
        }
        simdsv_table_free(t);
    }
    simdsv_reader_free(r);
    simdsv_options_free(o);
    return rows;
}

static simdsv_reader *string_reader(const fuzz_config *c, const uint8_t *csv, size_t n, int64_t batch_rows)
{
    simdsv_options *o = fuzz_options(c, SIMDSV_KERNEL_AUTO);
    simdsv_options_set(o, SIMDSV_OPT_THREADS, 1);
    simdsv_options_set(o, SIMDSV_OPT_BATCH_ROWS, batch_rows);
    simdsv_options_set_string(o, SIMDSV_OPT_SCHEMA, "*:string");
    simdsv_reader *r = NULL;
    if (simdsv_reader_new(&r, o) != SIMDSV_OK || simdsv_reader_open_memory(r, csv, n) != SIMDSV_OK) {
        simdsv_reader_free(r);
        r = NULL;
    }
    simdsv_options_free(o);
    return r;
}

static int same_slot(const struct ArrowArray *x, int64_t i, const struct ArrowArray *y, int64_t j)
{
    if (bit(x->buffers[0], i) != bit(y->buffers[0], j))
        return 0;
    if (!bit(x->buffers[0], i))
        return 1;
    const int32_t *ox = x->buffers[1], *oy = y->buffers[1];
    const int32_t nx = ox[i + 1] - ox[i], ny = oy[j + 1] - oy[j];
    return nx == ny && memcmp((const char *)x->buffers[2] + ox[i], (const char *)y->buffers[2] + oy[j], (size_t)nx) == 0;
}

static void stream_matches_table(const fuzz_config *c, const uint8_t *csv, size_t n, int64_t batch_rows)
{
    simdsv_reader *r = string_reader(c, csv, n, batch_rows);
    if (!r)
        return;
    simdsv_table *t = NULL;
    struct ArrowSchema ts;
    struct ArrowArray ta;
    int whole_ok = simdsv_table_read(r, &t) == SIMDSV_OK && simdsv_table_move_to_arrow(t, &ts, &ta) == SIMDSV_OK;
    simdsv_table_free(t);
    simdsv_reader_free(r);
    r = string_reader(c, csv, n, batch_rows);
    struct ArrowArrayStream stream;
    const int have_stream = r && simdsv_table_stream(r, &stream) == SIMDSV_OK;
    if (r && !have_stream)
        simdsv_reader_free(r); /* the stream owns the reader only once made */
    int stream_ok = have_stream;
    int64_t seen = 0;
    while (stream_ok) {
        struct ArrowArray batch;
        if (stream.get_next(&stream, &batch) != 0) {
            stream_ok = 0;
            break;
        }
        if (!batch.release)
            break;
        FUZZ_ASSERT(batch.length > 0 && batch.length <= batch_rows);
        if (whole_ok) {
            FUZZ_ASSERT(batch.n_children == ta.n_children && seen + batch.length <= ta.length);
            for (int64_t col = 0; col < batch.n_children; col++)
                for (int64_t i = 0; i < batch.length; i++)
                    FUZZ_ASSERT(same_slot(ta.children[col], seen + i, batch.children[col], i));
        }
        seen += batch.length;
        batch.release(&batch);
    }
    if (have_stream)
        stream.release(&stream);
    FUZZ_ASSERT(whole_ok == stream_ok);
    if (whole_ok) {
        FUZZ_ASSERT(seen == ta.length);
        ta.release(&ta);
        ts.release(&ts);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_config c = fuzz_decode(data, size);
    const uint8_t *csv = data + (size < FUZZ_HEADER_BYTES ? size : FUZZ_HEADER_BYTES);
    const size_t n = size - (size_t)(csv - data);
    const int pick = (int)c.chunk_seed;
    const int64_t one = read_rows(&c, csv, n, 1, pick);
    const int64_t two = read_rows(&c, csv, n, 2, pick);
    FUZZ_ASSERT(one == two);
    stream_matches_table(&c, csv, n, 1 + (int64_t)(c.chunk_seed >> 4) % 5);
    return 0;
}
