/* fuzz_dataset.c — many inputs as one table: any inputs, any file name
 * column's name, matched by position or by name, with or without hive
 * folders, read whole, in chunks and streamed.  Each is a success or an
 * error about the options or the data, never a crash; a name refused is
 * refused with a reason; the chunks succeed where the read does, with its
 * columns and rows; when both succeed, the stream gives the read's rows and
 * columns.
 * Input: byte 0 the settings (bit 0 by name, bits 1-2 hive, bit 3 nothing
 * detected), then NUL-separated parts: the file name column's name, then up
 * to four inputs, named in hive folders (year=2024/, year=x/, none...). */
#include "simdsv.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[4] = {"d/year=2024/a.csv", "d/year=x/b.csv.gz", "d/year=/c.csv", "d/e.csv"};
    if (size == 0)
        return 0;
    const unsigned flags = data[0];
    char *copy = malloc(size);
    if (!copy)
        return 0;
    memcpy(copy, data + 1, size - 1);
    copy[size - 1] = '\0';
    const char *parts[5] = {NULL};
    size_t lens[5] = {0}, nparts = 0;
    for (size_t at = 0; nparts < 5 && at <= size - 1;) {
        const char *end = memchr(copy + at, '\0', size - 1 - at);
        const size_t n = end ? (size_t)(end - (copy + at)) : size - 1 - at;
        parts[nparts] = copy + at;
        lens[nparts++] = n;
        at += n + 1;
    }
    simdsv_options *o = simdsv_options_new(NULL);
    simdsv_options_set(o, SIMDSV_OPT_UNION_BY_NAME, flags & 1);
    simdsv_options_set(o, SIMDSV_OPT_HIVE, (flags >> 1 & 3) % 3);
    simdsv_options_set(o, SIMDSV_OPT_THREADS, 1);
    simdsv_options_set(o, SIMDSV_OPT_BATCH_ROWS, 3);
    const simdsv_status named = simdsv_options_set_string(o, SIMDSV_OPT_FILENAME_COLUMN, parts[0]);
    if (named != SIMDSV_OK && named != SIMDSV_ERR_INVALID_ARGUMENT)
        abort();
    if ((named == SIMDSV_OK) != (simdsv_options_error(o)[0] == '\0'))
        abort(); /* a refusal always says why; an acceptance never does */
    const simdsv_sniff_params nothing = {NULL, SIMDSV_SNIFF_GIVEN_ALL, 0, 0, 0, 0};
    simdsv_dataset *ds = NULL;
    if (simdsv_dataset_new(&ds, o, flags & 8 ? &nothing : NULL) != SIMDSV_OK)
        abort();
    for (size_t i = 1; i < nparts; i++)
        if (simdsv_dataset_add_memory(ds, names[i - 1], parts[i], lens[i]) != SIMDSV_OK)
            abort();
    simdsv_table *t = NULL;
    const simdsv_status st = simdsv_dataset_read(ds, &t);
    if (st != SIMDSV_OK && st != SIMDSV_ERR_INVALID_ARGUMENT && st != SIMDSV_ERR_VALUE && st != SIMDSV_ERR_NOMEM &&
        st != SIMDSV_ERR_IO && (st < SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD || st > SIMDSV_ERR_RAGGED_ROW))
        abort();
    if ((st == SIMDSV_OK) != (t != NULL) || (st != SIMDSV_OK && simdsv_dataset_error(ds)->code == SIMDSV_OK))
        abort(); /* a failure always says why */
    size_t nchunks = 0;
    const simdsv_status chunked = simdsv_dataset_read_chunks(ds, &nchunks);
    if (chunked != st || (st == SIMDSV_OK) != (nchunks > 0))
        abort();
    uint64_t chunk_rows = 0;
    for (size_t k = 0; k < nchunks; k++) {
        simdsv_table *c = simdsv_dataset_take_chunk(ds, k);
        if (!c || simdsv_table_columns(c) != simdsv_table_columns(t))
            abort();
        chunk_rows += simdsv_table_rows(c);
        simdsv_table_free(c);
    }
    if (t && chunk_rows != simdsv_table_rows(t))
        abort();
    struct ArrowArrayStream stream;
    if (simdsv_dataset_stream(ds, &stream) == SIMDSV_OK) {
        struct ArrowSchema schema;
        uint64_t rows = 0;
        int failed = stream.get_schema(&stream, &schema);
        if (!failed) {
            if (t && (size_t)schema.n_children != simdsv_table_columns(t))
                abort();
            schema.release(&schema);
        }
        for (;;) {
            struct ArrowArray batch;
            if (failed || (failed = stream.get_next(&stream, &batch)) != 0 || !batch.release)
                break;
            rows += (uint64_t)batch.length;
            batch.release(&batch);
        }
        /* The stream's types come from samples: it may stop where the read
         * widened, never give other rows. */
        if (t && !failed && rows != simdsv_table_rows(t))
            abort();
        stream.release(&stream);
    }
    simdsv_table_free(t);
    simdsv_dataset_free(ds);
    simdsv_options_free(o);
    free(copy);
    return 0;
}
