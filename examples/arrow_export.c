/*
 * arrow_export.c — read a CSV file into typed columns and hand them over
 * through the Arrow C Data Interface, the way an Arrow consumer (pyarrow's
 * _import_from_c, arrow-rs, nanoarrow, DuckDB) would receive them.  Here the
 * "consumer" prints each column's Arrow format, length, null count and its
 * first values, then calls the release callbacks exactly once.
 *
 *   arrow_export FILE [THREADS]
 *   cc -O2 arrow_export.c $(pkg-config --cflags --libs simdsv) -o arrow_export
 */
#include "simdsv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_valid(const struct ArrowArray *a, int64_t i)
{
    return a->n_buffers > 0 && ((((const uint8_t *)a->buffers[0])[i / 8] >> (i % 8)) & 1);
}

static void print_value(const char *format, const struct ArrowArray *a, int64_t i)
{
    if (!is_valid(a, i)) {
        printf("null");
    } else if (strcmp(format, "l") == 0 || strcmp(format, "tsu:UTC") == 0) {
        printf("%" PRId64, ((const int64_t *)a->buffers[1])[i]);
    } else if (strcmp(format, "g") == 0) {
        printf("%.17g", ((const double *)a->buffers[1])[i]);
    } else if (strcmp(format, "tdD") == 0) {
        printf("%" PRId32 " days", ((const int32_t *)a->buffers[1])[i]);
    } else if (strcmp(format, "b") == 0) {
        printf("%s", (((const uint8_t *)a->buffers[1])[i / 8] >> (i % 8)) & 1 ? "true" : "false");
    } else if (strcmp(format, "u") == 0) {
        const int32_t *off = a->buffers[1];
        printf("\"%.*s\"", (int)(off[i + 1] - off[i]), (const char *)a->buffers[2] + off[i]);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: arrow_export FILE [THREADS]\n");
        return 2;
    }
    simdsv_options *opt = simdsv_options_new(NULL);
    if (argc > 2)
        simdsv_options_set(opt, SIMDSV_OPT_THREADS, atoi(argv[2]));
    simdsv_reader *reader = NULL;
    simdsv_table *table = NULL;
    simdsv_status st = simdsv_reader_new(&reader, opt);
    if (st == SIMDSV_OK)
        st = simdsv_reader_open_path(reader, argv[1]);
    if (st == SIMDSV_OK)
        st = simdsv_table_read(reader, &table);
    if (st != SIMDSV_OK) {
        const simdsv_error *e = simdsv_reader_error(reader);
        if (e->line) /* a position in the data */
            fprintf(stderr, "%s:%llu:%llu: error: %s\n", argv[1], (unsigned long long)e->line,
                    (unsigned long long)e->column, e->message[0] ? e->message : simdsv_status_message(st));
        else
            fprintf(stderr, "%s: error: %s\n", argv[1], e->message[0] ? e->message : simdsv_status_message(st));
        simdsv_reader_free(reader);
        simdsv_options_free(opt);
        return 1;
    }
    for (size_t i = 0; i < simdsv_table_columns(table); i++) {
        simdsv_column_info info;
        simdsv_table_column(table, i, &info);
        printf("%-16s %-9s %s\n", info.name, simdsv_type_name(info.type), info.reason);
    }
    struct ArrowSchema schema;
    struct ArrowArray array;
    if (simdsv_table_export(table, &schema, &array) == SIMDSV_OK) {
        /* From here on the consumer owns schema and array. */
        printf("struct array: %" PRId64 " rows, %" PRId64 " columns\n", array.length, array.n_children);
        for (int64_t c = 0; c < array.n_children; c++) {
            const struct ArrowArray *col = array.children[c];
            const char *format = schema.children[c]->format;
            printf("  %-16s format %-8s nulls %-6" PRId64 " first:", schema.children[c]->name, format,
                   col->null_count);
            for (int64_t i = 0; i < col->length && i < 3; i++) {
                putchar(' ');
                print_value(format, col, i);
            }
            putchar('\n');
        }
        array.release(&array);
        schema.release(&schema);
    }
    simdsv_table_free(table);
    simdsv_reader_free(reader);
    simdsv_options_free(opt);
    return 0;
}
