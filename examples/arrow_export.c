/*
 * arrow_export.c — read a CSV file into typed columns and hand them over
 * through the Arrow C Data Interface, the way an Arrow consumer (pyarrow's
 * _import_from_c, arrow-rs, nanoarrow, DuckDB) would receive them.  Here the
 * "consumer" prints each column's Arrow format, length and null count, then
 * calls the release callbacks exactly once.  Before that, the first values
 * of each column are read in C through the typed view
 * (simdsv_table_column_view), which needs no Arrow decoding.
 *
 *   arrow_export FILE [THREADS]
 *   cc -O2 arrow_export.c $(pkg-config --cflags --libs simdsv) -o arrow_export
 */
#include "simdsv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Row i of a column, read through the typed view (no Arrow decoding). */
static void print_value(const simdsv_column_view *v, uint64_t i)
{
    size_t size;
    const char *text;
    if (!simdsv_view_valid(v, i)) {
        printf("null");
        return;
    }
    switch (v->type) {
    case SIMDSV_TYPE_INT64:
    case SIMDSV_TYPE_TIMESTAMP: printf("%" PRId64, simdsv_view_int64(v, i)); break;
    case SIMDSV_TYPE_FLOAT64: printf("%.17g", simdsv_view_float64(v, i)); break;
    case SIMDSV_TYPE_DATE: printf("%" PRId32 " days", simdsv_view_date(v, i)); break;
    case SIMDSV_TYPE_BOOL: printf("%s", simdsv_view_bool(v, i) ? "true" : "false"); break;
    case SIMDSV_TYPE_STRING:
        text = simdsv_view_string(v, i, &size);
        printf("\"%.*s\"", (int)size, text);
        break;
    case SIMDSV_TYPE_NULL: break;
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
        simdsv_column_view view;
        simdsv_table_column_view(table, i, &view);
        printf("  first:");
        for (uint64_t row = 0; row < view.length && row < 3; row++) {
            putchar(' ');
            print_value(&view, row);
        }
        putchar('\n');
    }
    struct ArrowSchema schema;
    struct ArrowArray array;
    if (simdsv_table_move_to_arrow(table, &schema, &array) == SIMDSV_OK) {
        /* From here on the consumer owns schema and array. */
        printf("struct array: %" PRId64 " rows, %" PRId64 " columns\n", array.length, array.n_children);
        for (int64_t c = 0; c < array.n_children; c++) {
            const struct ArrowArray *col = array.children[c];
            const char *format = schema.children[c]->format;
            printf("  %-16s format %-8s length %-6" PRId64 " nulls %" PRId64 "\n", schema.children[c]->name, format,
                   col->length, col->null_count);
        }
        array.release(&array);
        schema.release(&schema);
    }
    simdsv_table_free(table);
    simdsv_reader_free(reader);
    simdsv_options_free(opt);
    return 0;
}
