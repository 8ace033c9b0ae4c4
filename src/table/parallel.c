/*
 * parallel.c — the typed reader on several threads: the input cut into
 * chunks at record starts, each converted into columns of its own on a
 * thread of the one pool (src/common/threads.c), then merged into the table.
 */
#include "typed.h"

#include <string.h>

typedef struct worker_job {
    chunk k;
    simdsv_table own;   /* the chunk's columns (names and null lists borrowed) */
    uint64_t rows;      /* records in the chunk (counted first) */
    uint64_t row_base;  /* rows of the chunks before it */
    simdsv_table *table; /* the table being read */
    int first;          /* chunk 0: its string buffers become the table's */
    size_t chars_base[]; /* per column: string bytes of the chunks before it */
} worker_job;

static void *run_convert(void *arg)
{
    worker_job *w = arg;
    chunk *k = &w->k;
    k->status = simdsv__reader_sub(k->x.r, k->x.data + k->from, k->to - k->from, true, &k->source);
    if (k->status == SIMDSV_OK)
        k->status = simdsv__reserve_rows(&w->own, w->rows);
    if (k->status == SIMDSV_OK && w->rows) /* (a limit of 0 would mean no limit) */
        k->status = simdsv__convert_chunk(k);
    if (k->status == SIMDSV_OK && k->code == SIMDSV_OK && !k->misfit) {
        /* The count and the conversion must agree to the record: else the
         * single-thread path redoes the input (and reports what differs). */
        simdsv_record rec;
        k->misfit = w->own.rows != w->rows || simdsv_reader_next(k->source, &rec) != SIMDSV_END;
    }
    simdsv_reader_free(k->source);
    k->source = NULL;
    return NULL;
}

/* Job i of a list of worker jobs, for simdsv__run_threads. */
static void run_convert_listed(void *jobs, size_t i)
{
    run_convert(((worker_job **)jobs)[i]);
}

/* Appends n bits of src to dst at bit `at` (dst's bits below `at` kept). */
static void bitmap_append(uint8_t *dst, uint64_t at, const uint8_t *src, uint64_t n)
{
    if (n == 0)
        return;
    const unsigned shift = (unsigned)(at % 8);
    uint8_t *d = dst + at / 8;
    const size_t bytes = (size_t)((n + 7) / 8);
    if (shift == 0) {
        memcpy(d, src, bytes);
        return;
    }
    d[0] = (uint8_t)((d[0] & ((1u << shift) - 1)) | (unsigned)(src[0] << shift));
    for (size_t i = 1; i < bytes; i++)
        d[i] = (uint8_t)((src[i - 1] >> (8 - shift)) | (unsigned)(src[i] << shift));
    if ((shift + n + 7) / 8 > bytes)
        d[bytes] = (uint8_t)(src[bytes - 1] >> (8 - shift));
}

static int in_place(simdsv_type type)
{
    return type == SIMDSV_TYPE_INT64 || type == SIMDSV_TYPE_FLOAT64 || type == SIMDSV_TYPE_DATE ||
           type == SIMDSV_TYPE_TIMESTAMP;
}

static size_t value_bytes(simdsv_type type)
{
    return type == SIMDSV_TYPE_DATE ? 4 : 8;
}

/* The table's fixed-width value buffers, sized for every chunk's rows; each
 * chunk's columns point into them at its first row. */
static simdsv_status place_values(simdsv_table *t, worker_job **jobs, size_t n, uint64_t rows)
{
    for (size_t j = 0; j < t->ncols; j++) {
        column *c = &t->cols[j];
        if (!in_place(c->type))
            continue;
        const simdsv_status st = simdsv__column_reserve(&t->alloc, c, rows);
        if (st != SIMDSV_OK)
            return st;
        for (size_t i = 0; i < n; i++) {
            column *own = &jobs[i]->own.cols[j];
            own->values = c->values + value_bytes(c->type) * jobs[i]->row_base;
            own->values_cap = value_bytes(c->type) * (size_t)jobs[i]->rows;
        }
    }
    return SIMDSV_OK;
}

/* Takes back the table's buffers lent to the chunks (before freeing them). */
static void unplace_values(simdsv_table *t, worker_job **jobs, size_t n)
{
    for (size_t j = 0; j < t->ncols; j++)
        for (size_t i = 0; i < n && in_place(t->cols[j].type); i++) {
            jobs[i]->own.cols[j].values = NULL;
            jobs[i]->own.cols[j].values_cap = 0;
        }
}

/* Chunk i > 0 copies its string bytes and offsets into the table's
 * buffers (chunk 0's, grown by merge), then frees its own. */
static void *run_strings(void *arg)
{
    worker_job *w = arg;
    const simdsv_table *t = w->table;
    for (size_t j = 0; j < t->ncols && !w->first; j++) {
        const column *c = &t->cols[j];
        column *own = &w->own.cols[j];
        if (c->type != SIMDSV_TYPE_STRING)
            continue;
        const size_t base = w->chars_base[j];
        if (own->chars_len)
            memcpy(c->chars + base, own->chars, own->chars_len);
        column *to = (column *)&t->cols[j]; /* rows of its own: no other worker writes them */
        for (uint64_t i = 0; i < own->length; i++)
            simdsv__offset_put(to, w->row_base + 1 + i, (int64_t)base + simdsv__offset_get(own, i + 1));
        simdsv__column_free_data(&t->alloc, own);
    }
    return NULL;
}

/* Job i of a list of worker jobs, for simdsv__run_threads. */
static void run_strings_listed(void *jobs, size_t i)
{
    run_strings(((worker_job **)jobs)[i]);
}

/* The chunks' rows into the table: values are in place already; bitmaps
 * are appended (a byte per 8 rows); strings take chunk 0's buffers, grown,
 * and the other chunks copy theirs after them, in parallel. */
static simdsv_status merge(simdsv_table *t, worker_job **jobs, size_t n, uint64_t rows)
{
    const simdsv_allocator *a = &t->alloc;
    const size_t bitmap_bytes = (size_t)((rows + 7) / 8) + 1;
    for (size_t j = 0; j < t->ncols; j++) {
        column *c = &t->cols[j];
        void *p = simdsv__realloc(a, c->validity, c->validity_cap, bitmap_bytes);
        if (!p)
            return SIMDSV_ERR_NOMEM;
        c->validity = p;
        c->validity_cap = bitmap_bytes;
        if (c->type == SIMDSV_TYPE_BOOL) {
            if (!(p = simdsv__realloc(a, c->values, c->values_cap, bitmap_bytes)))
                return SIMDSV_ERR_NOMEM;
            c->values = p;
            c->values_cap = bitmap_bytes;
        }
        c->length = c->null_count = 0;
        for (size_t i = 0; i < n; i++) {
            const column *own = &jobs[i]->own.cols[j];
            bitmap_append(c->validity, c->length, own->validity, own->length);
            if (c->type == SIMDSV_TYPE_BOOL)
                bitmap_append(c->values, c->length, own->values, own->length);
            c->length += own->length;
            c->null_count += own->null_count;
        }
        if (c->type != SIMDSV_TYPE_STRING)
            continue;
        size_t chars = 0;
        for (size_t i = 0; i < n; i++) {
            jobs[i]->chars_base[j] = chars;
            chars += jobs[i]->own.cols[j].chars_len;
        }
        column *first = &jobs[0]->own.cols[j];
        if (!first->offsets && simdsv__column_reserve(a, first, 0) != SIMDSV_OK)
            return SIMDSV_ERR_NOMEM; /* a chunk of no rows: offsets[0] still */
        if (chars > (size_t)INT32_MAX && simdsv__column_widen_offsets(a, first) != SIMDSV_OK)
            return SIMDSV_ERR_NOMEM;
        const size_t width = simdsv__offset_width(first);
        void *offsets = simdsv__realloc(a, first->offsets, first->offsets_cap * width, (size_t)(rows + 1) * width);
        if (!offsets)
            return SIMDSV_ERR_NOMEM;
        first->offsets = offsets;
        first->offsets_cap = (size_t)(rows + 1);
        void *bytes = simdsv__realloc(a, first->chars, first->chars_cap, chars ? chars : 1);
        if (!bytes)
            return SIMDSV_ERR_NOMEM;
        first->chars = bytes;
        first->chars_cap = chars ? chars : 1;
        simdsv__free(a, c->offsets, c->offsets_cap * simdsv__offset_width(c));
        simdsv__free(a, c->chars, c->chars_cap);
        c->offsets = first->offsets;
        c->offsets_cap = first->offsets_cap;
        c->wide_offsets = first->wide_offsets;
        c->chars = first->chars;
        c->chars_cap = first->chars_cap;
        c->chars_len = chars;
        first->offsets = NULL;
        first->chars = NULL;
        first->offsets_cap = first->chars_cap = first->chars_len = 0;
    }
    if (!simdsv__run_threads(a, n, run_strings_listed, jobs))
        return SIMDSV_ERR_NOMEM;
    t->rows = rows;
    for (size_t i = 0; i < n; i++) {
        const simdsv_status st = simdsv__move_rejects(t, &jobs[i]->own, jobs[i]->row_base);
        if (st != SIMDSV_OK)
            return st;
    }
    return SIMDSV_OK;
}

static void free_job(const simdsv_allocator *a, worker_job *w, size_t ncols)
{
    if (!w)
        return;
    simdsv__free_borrowed(&w->own);
    simdsv__free(a, w->k.x.text, w->k.x.text_cap);
    simdsv__free(a, w, sizeof *w + ncols * sizeof w->chars_base[0]);
}

/* Chunks that start at record starts found without a serial rescan: the
 * count kernel finds them, and each chunk's record count, in one parallel
 * scan (simdsv__count_chunks: each boundary's quote state is guessed and
 * the guesses checked by a prefix XOR of the chunks' quote parities).
 * Valid for strict RFC 4180 without escape or comment bytes; anything
 * irregular is left to the one-thread read, which reports it.  With each
 * chunk's records known, fixed-width values are written in place and only
 * strings and bitmaps are merged.  A value that does not fit an inferred
 * type (or a count that disagrees with the conversion) sends the input back
 * to the single-thread path, which widens in place.  Returns 0 in *done
 * when it did not apply. */
simdsv_status simdsv__convert_parallel(typed_ctx *x, int threads, int *done)
{
    simdsv_reader *r = x->r;
    simdsv_table *t = x->t;
    const simdsv_allocator *a = &t->alloc;
    *done = 0;
    /* Polars' budget: at most ~500k column buffers over all chunks. */
    size_t n = (size_t)threads;
    const size_t by_width = 500000 / (t->ncols ? t->ncols : 1);
    if (n > by_width)
        n = by_width ? by_width : 1;
    const scan_dialect *d = simdsv__reader_dialect(r);
    if (n < 2 || x->size < ((size_t)1 << 20) * n || x->opt->lenient || d->has_escape || d->has_comment ||
        x->opt->row_limit)
        return SIMDSV_OK;
    worker_job **jobs = simdsv__alloc(a, n * sizeof *jobs);
    if (!jobs)
        return SIMDSV_ERR_NOMEM;
    memset(jobs, 0, n * sizeof *jobs);
    simdsv_status st = SIMDSV_OK;
    for (size_t i = 0; i < n && st == SIMDSV_OK; i++) {
        worker_job *w = jobs[i] = simdsv__alloc(a, sizeof *w + t->ncols * sizeof w->chars_base[0]);
        if (!w) {
            st = SIMDSV_ERR_NOMEM;
            break;
        }
        memset(w, 0, sizeof *w + t->ncols * sizeof w->chars_base[0]);
        w->table = t;
        w->first = i == 0;
        w->k.x = *x;
        w->k.x.text = NULL;
        w->k.x.text_cap = 0;
        w->k.x.t = &w->own;
        w->k.worker = 1;
        st = simdsv__borrow_schema(t, &w->own);
    }
    /* Chunk starts and record counts in one parallel scan (count_parallel.c). */
    uint64_t *starts = simdsv__alloc(a, (2 * n + 1) * sizeof *starts);
    if (st == SIMDSV_OK && !starts)
        st = SIMDSV_ERR_NOMEM;
    int fallback = 0;
    uint64_t rows = 0;
    if (st == SIMDSV_OK) {
        uint64_t *records = starts + n + 1;
        /* No: a quoting error or a record longer than a chunk; one thread reports or reads it. */
        fallback = !simdsv__count_chunks(r, x->data, x->size, n, starts, records);
        for (size_t i = 0; i < n && !fallback; i++) {
            chunk *k = &jobs[i]->k;
            k->from = (size_t)starts[i];
            k->to = (size_t)starts[i + 1];
            k->shift = (int64_t)x->data_pos + (int64_t)k->from;
            jobs[i]->rows = k->limit = records[i];
            jobs[i]->row_base = rows;
            rows += records[i];
        }
    }
    simdsv__free(a, starts, (2 * n + 1) * sizeof *starts);
    const int placed = st == SIMDSV_OK && !fallback;
    if (placed)
        st = place_values(t, jobs, n, rows);
    if (st == SIMDSV_OK && !fallback && !simdsv__run_threads(a, n, run_convert_listed, jobs))
        st = SIMDSV_ERR_NOMEM;
    for (size_t i = 0; i < n && st == SIMDSV_OK && !fallback; i++)
        fallback |= jobs[i]->k.misfit;
    for (size_t i = 0; i < n && st == SIMDSV_OK && !fallback; i++) {
        const chunk *k = &jobs[i]->k;
        if (k->code != SIMDSV_OK) {
            st = simdsv__report(r, k, jobs[i]->row_base); /* the first error in input order */
            *done = 1;
        } else if (k->status != SIMDSV_OK) {
            st = k->status;
        }
    }
    if (placed)
        unplace_values(t, jobs, n);
    if (st == SIMDSV_OK && !fallback) {
        st = merge(t, jobs, n, rows);
        *done = 1;
    }
    if (fallback) { /* the table's columns start again from nothing */
        for (size_t j = 0; j < t->ncols; j++)
            simdsv__column_free_data(a, &t->cols[j]);
    }
    for (size_t i = 0; i < n; i++)
        free_job(a, jobs[i], t->ncols);
    simdsv__free(a, jobs, n * sizeof *jobs);
    return st;
}
