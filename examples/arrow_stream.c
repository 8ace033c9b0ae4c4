/*
 * arrow_stream.c — read a CSV file (or standard input) of any size as an
 * Arrow C stream of record batches, in bounded memory, the way a streaming
 * consumer (pyarrow.RecordBatchReader._import_from_c, DuckDB's
 * arrow_scan, arrow-rs's FFI_ArrowArrayStream) would.  The "consumer" here
 * sums every int64/float64 column and counts nulls, batch by batch,
 * releasing each batch before asking for the next.
 *
 *   arrow_stream FILE|- [BATCH_ROWS]
 *   cc -O2 arrow_stream.c $(pkg-config --cflags --libs simdsv) -o arrow_stream
 */
#include "simdsv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_valid(const struct ArrowArray *a, int64_t i)
{
    return (((const uint8_t *)a->buffers[0])[i / 8] >> (i % 8)) & 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: arrow_stream FILE|- [BATCH_ROWS]\n");
        return 2;
    }
    simdsv_options *opt = simdsv_options_new(NULL);
    if (argc > 2)
        simdsv_options_set(opt, SIMDSV_OPT_BATCH_ROWS, atoll(argv[2]));
    simdsv_reader *reader = NULL;
    struct ArrowArrayStream stream;
    simdsv_status st = simdsv_reader_new(&reader, opt);
    simdsv_options_free(opt);
    if (st == SIMDSV_OK)
        st = strcmp(argv[1], "-") == 0 ? simdsv_reader_open_stdio(reader, stdin)
                                       : simdsv_reader_open_path(reader, argv[1]);
    if (st == SIMDSV_OK)
        st = simdsv_table_stream(reader, &stream); /* from here the stream owns the reader */
    if (st != SIMDSV_OK) {
        const simdsv_error *e = simdsv_reader_error(reader);
        if (e->line) /* a position in the data */
            fprintf(stderr, "%s:%llu:%llu: error: %s\n", argv[1], (unsigned long long)e->line,
                    (unsigned long long)e->column, e->message[0] ? e->message : simdsv_status_message(st));
        else
            fprintf(stderr, "%s: error: %s\n", argv[1], e->message[0] ? e->message : simdsv_status_message(st));
        simdsv_reader_free(reader);
        return 1;
    }
    struct ArrowSchema schema;
    if (stream.get_schema(&stream, &schema) != 0) {
        fprintf(stderr, "%s: error: %s\n", argv[1], stream.get_last_error(&stream));
        stream.release(&stream);
        return 1;
    }
    const int64_t ncols = schema.n_children;
    double *sums = calloc((size_t)ncols + 1, sizeof *sums);
    int64_t *nulls = calloc((size_t)ncols + 1, sizeof *nulls);
    int64_t rows = 0, batches = 0;
    int rc;
    for (;;) {
        struct ArrowArray batch;
        if ((rc = stream.get_next(&stream, &batch)) != 0 || !batch.release)
            break; /* an error, or the end (release == NULL) */
        for (int64_t c = 0; c < ncols; c++) {
            const struct ArrowArray *col = batch.children[c];
            const char *format = schema.children[c]->format;
            nulls[c] += col->null_count;
            if (strcmp(format, "l") == 0) {
                for (int64_t i = 0; i < col->length; i++)
                    if (is_valid(col, i))
                        sums[c] += (double)((const int64_t *)col->buffers[1])[i];
            } else if (strcmp(format, "g") == 0) {
                for (int64_t i = 0; i < col->length; i++)
                    if (is_valid(col, i))
                        sums[c] += ((const double *)col->buffers[1])[i];
            }
        }
        rows += batch.length;
        batches++;
        batch.release(&batch); /* the consumer's duty, exactly once */
    }
    if (rc != 0)
        fprintf(stderr, "%s: error: %s\n", argv[1], stream.get_last_error(&stream));
    else
        printf("%" PRId64 " rows in %" PRId64 " batches\n", rows, batches);
    for (int64_t c = 0; rc == 0 && c < ncols; c++) {
        const char *format = schema.children[c]->format;
        printf("  %-16s format %-8s nulls %-8" PRId64, schema.children[c]->name, format, nulls[c]);
        if (strcmp(format, "l") == 0 || strcmp(format, "g") == 0)
            printf(" sum %.17g", sums[c]);
        printf("\n");
    }
    schema.release(&schema);
    stream.release(&stream); /* frees the reader too */
    free(sums);
    free(nulls);
    return rc == 0 ? 0 : 1;
}
