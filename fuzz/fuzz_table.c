/* fuzz_table.c — the typed reader and the Arrow export on arbitrary bytes
 * and options: it must never crash or leak, and every exported array must be
 * valid (lengths, buffers, offsets monotonic and inside the data, null counts
 * equal to the unset validity bits), with one thread and with two giving the
 * same rows. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int bit(const void *bitmap, int64_t i)
{
    return (((const uint8_t *)bitmap)[i / 8] >> (i % 8)) & 1;
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
    simdsv_reader *r = NULL;
    int64_t rows = -1;
    if (simdsv_reader_new(&r, o) == SIMDSV_OK && simdsv_reader_open_memory(r, csv, n) == SIMDSV_OK) {
        simdsv_table *t = NULL;
        if (simdsv_table_read(r, &t) == SIMDSV_OK) {
            struct ArrowSchema s;
            struct ArrowArray a;
            if (simdsv_table_export(t, &s, &a) == SIMDSV_OK) {
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_config c = fuzz_decode(data, size);
    const uint8_t *csv = data + (size < FUZZ_HEADER_BYTES ? size : FUZZ_HEADER_BYTES);
    const size_t n = size - (size_t)(csv - data);
    const int pick = (int)c.chunk_seed;
    const int64_t one = read_rows(&c, csv, n, 1, pick);
    const int64_t two = read_rows(&c, csv, n, 2, pick);
    FUZZ_ASSERT(one == two);
    return 0;
}
