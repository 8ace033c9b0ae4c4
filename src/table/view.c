/* view.c — typed columns as they are, for C callers (simdsv_column_view):
 * the builders' buffers, laid out as Arrow's, without an export. */
#include "table.h"

#include <string.h>

simdsv_status simdsv_table_column_view(const simdsv_table *t, size_t index, simdsv_column_view *view)
{
    if (!t || !view || index >= t->ncols)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    const column *c = &t->cols[index];
    memset(view, 0, sizeof *view);
    view->type = c->type;
    view->length = c->length;
    view->null_count = c->null_count;
    if (c->type == SIMDSV_TYPE_NULL || c->length == 0)
        return SIMDSV_OK;
    view->validity = c->validity;
    if (simdsv__column_views(c)) {
        view->views = c->values;
        view->view_buffers = c->view_buffers; /* built when the read ended (table.c) */
    } else if (c->type == SIMDSV_TYPE_STRING) {
        view->offsets = c->offsets;
        view->offset_width = simdsv__offset_width(c);
        view->bytes = c->chars ? c->chars : "";
    } else {
        view->values = c->values;
    }
    return SIMDSV_OK;
}

long simdsv_table_column_index(const simdsv_table *t, const char *name)
{
    for (size_t j = 0; t && name && j < t->ncols; j++)
        if (strcmp(t->cols[j].name, name) == 0)
            return (long)j;
    return -1;
}
