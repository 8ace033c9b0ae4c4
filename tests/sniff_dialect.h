/*
 * sniff_dialect.h — what a reader of records takes from a detection: the
 * dialect of simdsv_sniff_params.dialect_only must be the full detection's
 * (test_sniff.c runs every case both ways, fuzz_sniff.c every input).
 */
#ifndef SIMDSV_TEST_SNIFF_DIALECT_H
#define SIMDSV_TEST_SNIFF_DIALECT_H

#include "simdsv.h"

#include <string.h>

/* The first setting in which a and b differ, or NULL: every answer but the
 * value formats (decimal comma, thousands, date order), the column types,
 * and the confidences and reasons. */
static const char *sniff_dialect_differs(const simdsv_sniff *a, const simdsv_sniff *b)
{
    if (strcmp(a->encoding, b->encoding) || a->bom != b->bom || a->binary != b->binary)
        return "encoding";
    if (strcmp(a->delimiter, b->delimiter))
        return "delimiter";
    if (a->quote != b->quote || a->escape != b->escape)
        return "quote";
    if (strcmp(a->line_ending, b->line_ending))
        return "line ending";
    if (a->comment != b->comment || strcmp(a->comment_marker, b->comment_marker))
        return "comment";
    if (a->skip_lines != b->skip_lines || a->footer_lines != b->footer_lines || a->end_offset != b->end_offset)
        return "preamble or footer";
    if (a->header != b->header || a->header_rows != b->header_rows)
        return "header";
    if (a->padding != b->padding)
        return "padding";
    if (a->table_count != b->table_count || a->table != b->table)
        return "tables";
    for (size_t i = 0; i < a->table_count; i++) {
        const simdsv_sniff_table *x = &a->tables[i], *y = &b->tables[i];
        if (x->first_line != y->first_line || x->last_line != y->last_line || x->header_rows != y->header_rows ||
            x->columns != y->columns || x->byte_start != y->byte_start || x->byte_end != y->byte_end ||
            x->data_start != y->data_start)
            return "table ranges";
    }
    if (a->column_count != b->column_count)
        return "columns";
    for (size_t i = 0; i < a->column_count; i++)
        if (strcmp(a->columns[i].name, b->columns[i].name))
            return "column names";
    if (a->sampled_rows != b->sampled_rows || a->sampled_bytes != b->sampled_bytes || a->input_size != b->input_size)
        return "sample";
    for (int k = 0; k < SIMDSV_SNIFF_SETTING_COUNT; k++)
        if (a->decisions[k].given != b->decisions[k].given)
            return "given";
    return NULL;
}

#endif
