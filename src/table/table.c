/*
 * table.c — the typed reader's public functions: simdsv_table_read (the
 * whole input into typed columns), simdsv_table_infer (the schema alone),
 * and the table's accessors; the steps are in schema.c, infer.c,
 * convert.c and parallel.c (see typed.h).
 */
#include "typed.h"

#include <errno.h>
#include <string.h>

static atomic_ullong streamed_reads, streamed_again;

void simdsv_table_free(simdsv_table *t)
{
    if (!t)
        return;
    const simdsv_allocator a = t->alloc;
    for (size_t j = 0; j < t->ncols; j++) {
        simdsv__column_free_data(&a, &t->cols[j]);
        simdsv__free(&a, t->cols[j].name, t->cols[j].name_size);
        simdsv__spec_free(&a, &t->cols[j].nulls);
    }
    simdsv__free(&a, t->cols, t->cols_cap * sizeof *t->cols);
    for (size_t i = 0; i < t->nrejects; i++) {
        simdsv__free(&a, (void *)(uintptr_t)t->rejects[i].pub.value, t->rejects[i].value_size);
        simdsv__free(&a, (void *)(uintptr_t)t->rejects[i].pub.reason, t->rejects[i].reason_size);
    }
    simdsv__free(&a, t->rejects, t->rejects_cap * sizeof *t->rejects);
    simdsv__shared_input_release(t->vin.shared);
    simdsv__free(&a, t, sizeof *t);
}

uint64_t simdsv_table_rows(const simdsv_table *t)
{
    return t ? t->rows : 0;
}

size_t simdsv_table_columns(const simdsv_table *t)
{
    return t ? t->ncols : 0;
}

simdsv_status simdsv_table_column(const simdsv_table *t, size_t index, simdsv_column_info *info)
{
    if (!t || !info || index >= t->ncols)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    const column *c = &t->cols[index];
    info->name = c->name;
    info->type = c->type;
    info->reason = c->reason;
    info->null_count = c->null_count;
    info->user_type = c->user_type;
    return SIMDSV_OK;
}

size_t simdsv_table_reject_count(const simdsv_table *t)
{
    return t ? t->nrejects : 0;
}

const simdsv_reject *simdsv_table_reject(const simdsv_table *t, size_t index)
{
    return t && index < t->nrejects ? &t->rejects[index].pub : NULL;
}

/* ------------------------------------------------------- borrowed schemas */

simdsv_status simdsv__borrow_schema(const simdsv_table *t, simdsv_table *own)
{
    memset(own, 0, sizeof *own);
    own->alloc = t->alloc;
    own->cols_cap = t->ncols ? t->ncols : 1;
    own->cols = simdsv__alloc(&t->alloc, own->cols_cap * sizeof *own->cols);
    if (!own->cols) {
        own->cols_cap = 0;
        return SIMDSV_ERR_NOMEM;
    }
    own->ncols = t->ncols;
    for (size_t j = 0; j < t->ncols; j++) {
        own->cols[j] = t->cols[j];
        simdsv__column_forget_data(&own->cols[j]); /* t's buffers stay t's */
    }
    return SIMDSV_OK;
}

void simdsv__free_borrowed(simdsv_table *own)
{
    const simdsv_allocator *a = &own->alloc;
    for (size_t j = 0; j < own->ncols; j++)
        simdsv__column_free_data(a, &own->cols[j]);
    simdsv__free(a, own->cols, own->cols_cap * sizeof *own->cols);
    for (size_t e = 0; e < own->nrejects; e++) {
        simdsv__free(a, (void *)(uintptr_t)own->rejects[e].pub.value, own->rejects[e].value_size);
        simdsv__free(a, (void *)(uintptr_t)own->rejects[e].pub.reason, own->rejects[e].reason_size);
    }
    simdsv__free(a, own->rejects, own->rejects_cap * sizeof *own->rejects);
    memset(own, 0, sizeof *own);
}

simdsv_status simdsv__move_rejects(simdsv_table *dst, simdsv_table *src, uint64_t row_base)
{
    for (size_t e = 0; e < src->nrejects; e++) {
        void *p = dst->rejects;
        if (simdsv__grow(&dst->alloc, &p, &dst->rejects_cap, dst->nrejects + 1, sizeof *dst->rejects) != SIMDSV_OK)
            return SIMDSV_ERR_NOMEM;
        dst->rejects = p;
        dst->rejects[dst->nrejects] = src->rejects[e]; /* the strings move over */
        dst->rejects[dst->nrejects].pub.row += row_base;
        dst->nrejects++;
        src->rejects[e].pub.value = src->rejects[e].pub.reason = NULL;
        src->rejects[e].value_size = src->rejects[e].reason_size = 0;
    }
    return SIMDSV_OK;
}

simdsv_status simdsv_table_infer(simdsv_reader *r, simdsv_table **out)
{
    /* Only the sample is read: an input not in memory is held as far as its
     * first window; a regular file's middle and end are read apart. */
    const bool bounded = r && simdsv__reader_has_input(r) && !simdsv__reader_in_memory(r) &&
                         simdsv__reader_options(r)->infer_rows >= 0;
    simdsv__file_view file;
    const size_t window = !bounded                        ? SIZE_MAX
                          : simdsv__reader_file(r, &file) ? SIMDSV__FILE_START_WINDOW
                                                          : SIMDSV__SAMPLE_WINDOW;
    typed_ctx x;
    simdsv_status st = simdsv__typed_start(r, out, &x, window, true, false, true);
    if (x.t)
        simdsv__typed_finish(&x);
    if (st != SIMDSV_OK) {
        simdsv_table_free(*out);
        *out = NULL;
    }
    return st;
}

/* ------------------------------------------------ a file streamed, not held
 *
 * A regular file read with read() is not held whole: a fresh buffer of its
 * size costs more to fault in than the map and the conversion together on
 * a VM whose freed memory goes back to the host.  The types come from the
 * start window and from the middle and end read apart (pread), sampled
 * exactly as the whole input's would be; the rows are then converted as the
 * reader's buffer streams through (as a batch stream's are, rejects and
 * errors located on the way).  A value that does not fit an inferred type
 * stops it: the file is read again from its start by a second reader over
 * pread() that holds it whole, and that read, which widens, is the result. */

/* The second reader's bytes: the file from input offset 0 on. */
typedef struct file_again {
    simdsv__file_view file;
    uint64_t at;
} file_again;

static long long read_again(void *ctx, void *buf, size_t size, int *os_errno)
{
    file_again *f = ctx;
    size_t got = 0;
    if (simdsv__file_read_at(&f->file, f->at, buf, size, &got) != SIMDSV_OK) {
        *os_errno = errno;
        return -1;
    }
    f->at += got;
    return (long long)got;
}

static simdsv_status read_whole_again(simdsv_reader *r, const simdsv__file_view *file, simdsv_table **out)
{
    file_again again = {*file, 0};
    simdsv_reader *r2 = NULL;
    simdsv_status st = simdsv_reader_new(&r2, simdsv__reader_options(r));
    if (st == SIMDSV_OK)
        st = simdsv_reader_open_callback(r2, read_again, &again);
    if (st == SIMDSV_OK) {
        st = simdsv_table_read(r2, out);
        if (st != SIMDSV_OK)
            simdsv__reader_take_error(r, r2);
    }
    simdsv_reader_free(r2);
    if (st == SIMDSV_OK)
        simdsv__reader_consume_all(r);
    return st;
}

/* Whether r's typed read streams the file (one thread: the threaded read
 * cuts a held input). */
static bool streamable(const simdsv_reader *r)
{
    simdsv__file_view file;
    const struct simdsv_options *opt = simdsv__reader_options(r);
    return simdsv__reader_has_input(r) && !simdsv__reader_in_memory(r) && opt->infer_rows >= 0 &&
           simdsv__thread_count(opt->threads) == 1 && simdsv__reader_fresh(r) && simdsv__reader_file(r, &file);
}

static simdsv_status read_streamed(simdsv_reader *r, simdsv_table **out)
{
    typed_ctx x;
    simdsv_status st = simdsv__typed_start(r, out, &x, SIMDSV__FILE_START_WINDOW, false, true, true);
    chunk k;
    memset(&k, 0, sizeof k);
    if (st == SIMDSV_OK && !x.apart) { /* held whole after all (a small file): the usual read */
        if (x.t->vin.views)
            simdsv__typed_share(&x);
        st = simdsv__convert_single(&x);
    } else if (st == SIMDSV_OK) {
        k.x = x;
        k.source = r;
        k.shift = -(int64_t)simdsv__reader_origin(r);
        k.limit = x.opt->row_limit;
        k.misfit_stops = 1;
        if (x.first_rows && x.first_bytes) { /* sized once from the sampled row size, as convert_single does */
            uint64_t estimate =
                (uint64_t)((double)x.data_total / ((double)x.first_bytes / (double)x.first_rows) * 1.05) + 16;
            if (x.opt->row_limit && estimate > x.opt->row_limit)
                estimate = x.opt->row_limit;
            st = simdsv__reserve_rows(x.t, estimate);
        }
        if (st == SIMDSV_OK)
            st = simdsv__convert_chunk(&k);
        x.text = k.x.text; /* the scratch may have grown */
        x.text_cap = k.x.text_cap;
        if (st == SIMDSV_OK && k.code != SIMDSV_OK)
            st = simdsv__report(r, &k, 0);
    }
    if (x.t)
        simdsv__typed_finish(&x);
    if (st == SIMDSV_OK && k.misfit) { /* a late value widens: the whole file again */
        const simdsv__file_view file = x.file;
        simdsv_table_free(*out);
        *out = NULL;
        atomic_fetch_add_explicit(&streamed_again, 1, memory_order_relaxed);
        return read_whole_again(r, &file, out);
    }
    for (size_t j = 0; st == SIMDSV_OK && j < (*out)->ncols; j++)
        st = simdsv__column_view_buffers(&(*out)->alloc, &(*out)->cols[j]);
    if (st == SIMDSV_OK) {
        atomic_fetch_add_explicit(&streamed_reads, 1, memory_order_relaxed);
        simdsv__finish_rejects(*out, r);
        simdsv__reader_consume_all(r);
    } else if (*out) {
        simdsv_table_free(*out);
        *out = NULL;
    }
    return st;
}

void simdsv__table_stream_stats(uint64_t *streamed, uint64_t *again)
{
    *streamed = atomic_load_explicit(&streamed_reads, memory_order_relaxed);
    *again = atomic_load_explicit(&streamed_again, memory_order_relaxed);
}

simdsv_status simdsv_table_read(simdsv_reader *r, simdsv_table **out)
{
    if (r && out && streamable(r))
        return read_streamed(r, out);
    typed_ctx x;
    /* The types are inferred by convert_parallel: on a thread of its own
     * while the others count, when it can. */
    simdsv_status st = simdsv__typed_start(r, out, &x, SIZE_MAX, false, false, false);
    int done = 0;
    if (st == SIMDSV_OK)
        st = simdsv__convert_parallel(&x, simdsv__thread_count(x.opt->threads), &done);
    if (st == SIMDSV_OK && !done)
        st = simdsv__convert_single(&x);
    if (x.t)
        simdsv__typed_finish(&x);
    for (size_t j = 0; st == SIMDSV_OK && j < (*out)->ncols; j++)
        st = simdsv__column_view_buffers(&(*out)->alloc, &(*out)->cols[j]);
    if (st == SIMDSV_OK) {
        simdsv__finish_rejects(*out, r);
        simdsv__reader_consume_all(r);
    } else if (*out) {
        simdsv_table_free(*out);
        *out = NULL;
    }
    return st;
}
