/*
 * parallel.c — the typed reader on several threads: the input cut into
 * chunks at record starts, each converted into columns of its own on a
 * thread of the one pool (src/common/threads.c), then merged into the table.
 */
#define _POSIX_C_SOURCE 200809L /* sched_yield */
#include "typed.h"
#include "concat.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

/* At least this many bytes of data rows per chunk, else fewer threads. */
#define MIN_CHUNK ((uint64_t)1 << 20)

static atomic_ullong parallel_reads, line_cut_reads, overlapped_reads, lent_reads;

void simdsv__table_parallel_stats(uint64_t *reads, uint64_t *line_cuts)
{
    *reads = atomic_load_explicit(&parallel_reads, memory_order_relaxed);
    *line_cuts = atomic_load_explicit(&line_cut_reads, memory_order_relaxed);
}

void simdsv__table_overlap_stats(uint64_t *overlapped, uint64_t *lent)
{
    *overlapped = atomic_load_explicit(&overlapped_reads, memory_order_relaxed);
    *lent = atomic_load_explicit(&lent_reads, memory_order_relaxed);
}

/* No record: the input ends first. */
#define NO_RECORD UINT64_MAX

typedef struct worker_job {
    chunk k;
    simdsv_table own;   /* the chunk's columns (names and null lists borrowed) */
    uint64_t rows;      /* records in the chunk (counted first) */
    uint64_t row_base;  /* rows of the chunks before it */
    simdsv_table *table; /* the table being read */
    /* The last chunk of an overlapped read: its rows are not counted; it
     * converts into the rows lent to it (k.limit) and, when they fill up
     * first, keeps its reader for the caller to lend it more. */
    int open_end;
    size_t chars_base[]; /* per column: string bytes of the chunks before it */
} worker_job;

/* Whether the record k's reader gives after the chunk's rows starts at data
 * offset `expected` (NO_RECORD: the input ends there instead). */
static int next_record_at(chunk *k, uint64_t expected)
{
    simdsv_record rec;
    const simdsv_status st = simdsv_reader_next(k->source, &rec);
    if (st == SIMDSV_END)
        return expected == NO_RECORD;
    return st == SIMDSV_OK && k->from + rec.byte_offset == expected;
}

static void fault_chunk(const simdsv_table *t, const worker_job *w, uint64_t rows);

static void *run_convert(void *arg)
{
    worker_job *w = arg;
    chunk *k = &w->k;
    k->status = simdsv__reader_sub(k->x.r, k->x.data + k->from, k->to - k->from, true, &k->source);
    fault_chunk(w->table, w, k->limit);
    if (k->status == SIMDSV_OK)
        k->status = simdsv__reserve_rows(&w->own, k->limit);
    if (k->status == SIMDSV_OK && k->limit) /* (a limit of 0 would mean no limit) */
        k->status = simdsv__convert_chunk(k);
    if (k->status == SIMDSV_OK && k->code == SIMDSV_OK && !k->misfit) {
        if (w->open_end && w->own.rows == k->limit)
            return NULL; /* its lent rows are full: the caller lends more (finish_open_end) */
        /* The count and the conversion must agree to the record, and the
         * chunk must end where the next begins: else the single-thread path
         * redoes the input (and reports what differs). */
        k->misfit = (!w->open_end && w->own.rows != w->rows) || !next_record_at(k, NO_RECORD);
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

/* Columns of fixed-width values, written in place by the chunks: numbers,
 * dates, timestamps and string views. */
static int in_place(const column *c)
{
    return c->type == SIMDSV_TYPE_INT64 || c->type == SIMDSV_TYPE_FLOAT64 || c->type == SIMDSV_TYPE_DATE ||
           c->type == SIMDSV_TYPE_TIMESTAMP || simdsv__column_views(c);
}

static size_t value_bytes(const column *c)
{
    return c->type == SIMDSV_TYPE_DATE ? 4 : simdsv__column_views(c) ? 16 : 8;
}

/* Chunk w's fixed-width values: the table's buffers from its first row on,
 * `rows` of them. */
static void place_chunk(simdsv_table *t, worker_job *w, uint64_t rows)
{
    for (size_t j = 0; j < t->ncols; j++) {
        const column *c = &t->cols[j];
        if (!in_place(c))
            continue;
        column *own = &w->own.cols[j];
        own->values = c->values + value_bytes(c) * w->row_base;
        own->values_cap = value_bytes(c) * (size_t)rows;
    }
}

/* The table's fixed-width value buffers, `rows` rows. */
static simdsv_status reserve_values(simdsv_table *t, uint64_t rows)
{
    for (size_t j = 0; j < t->ncols; j++) {
        if (!in_place(&t->cols[j]))
            continue;
        const simdsv_status st = simdsv__column_reserve_unfaulted(&t->alloc, &t->cols[j], rows);
        if (st != SIMDSV_OK)
            return st;
    }
    return SIMDSV_OK;
}

/* The first rows of chunk w's share of the table's value buffers faulted
 * in at once, on the thread that writes them (reserve_values leaves them to
 * it). */
static void fault_chunk(const simdsv_table *t, const worker_job *w, uint64_t rows)
{
    for (size_t j = 0; j < t->ncols; j++) {
        const column *c = &t->cols[j];
        if (!in_place(c))
            continue;
        const size_t bytes = value_bytes(c) * (size_t)rows;
        const column *own = &w->own.cols[j];
        simdsv__populate_pages(&t->alloc, own->values, bytes < own->values_cap ? bytes : own->values_cap);
    }
}

/* Takes back the table's buffers lent to the chunks (before freeing them). */
static void unplace_values(simdsv_table *t, worker_job **jobs, size_t n)
{
    for (size_t j = 0; j < t->ncols; j++)
        for (size_t i = 0; i < n && in_place(&t->cols[j]); i++) {
            jobs[i]->own.cols[j].values = NULL;
            jobs[i]->own.cols[j].values_cap = 0;
        }
}

/* The string bytes and offsets of string column j of the chunks after the
 * first, copied into the table's buffers (chunk 0's, grown by merge).  Copy
 * t of n takes the t-th n-th of every such chunk's bytes and rows: with two
 * chunks the one chunk to copy is still copied (and its new pages faulted
 * in) by every thread, not by one while the others wait.  A column at a
 * time, so that each column's chunk buffers are freed before the next is
 * copied (the peak stays one column's copy above the table). */
typedef struct string_copy {
    const simdsv_allocator *alloc;
    worker_job **jobs;
    size_t n, column;
} string_copy;

/* Copied a slice at a time: each slice's destination faulted in at once
 * (simdsv__populate_pages), and its source pages dropped as soon as it is
 * copied (simdsv__drop_pages), so that the next slice's fresh pages can be
 * the ones just dropped and the peak stays near the table's size. */
#define COPY_SLICE ((uintptr_t)2 << 20)

/* The end of the slice of [at, until) of the block at p that starts at at:
 * the next COPY_SLICE boundary of the addresses, or until. */
static size_t slice_end(const void *p, size_t at, size_t until)
{
    const uintptr_t next = (((uintptr_t)p + at) / COPY_SLICE + 1) * COPY_SLICE - (uintptr_t)p;
    return next < until ? (size_t)next : until;
}

static void copy_strings_listed(void *arg, size_t t)
{
    const string_copy *sc = arg;
    column *to = &sc->jobs[0]->table->cols[sc->column]; /* its own bytes and rows: no other copy writes them */
    for (size_t i = 1; i < sc->n; i++) {
        const worker_job *w = sc->jobs[i];
        const column *own = &w->own.cols[sc->column];
        const size_t base = w->chars_base[sc->column];
        const size_t from = (size_t)((uint64_t)own->chars_len * t / sc->n);
        const size_t until = (size_t)((uint64_t)own->chars_len * (t + 1) / sc->n);
        for (size_t at = from; at < until;) {
            const size_t end = slice_end(own->chars, at, until);
            simdsv__populate_pages(sc->alloc, to->chars + base + at, end - at);
            memcpy(to->chars + base + at, own->chars + at, end - at);
            simdsv__drop_pages(sc->alloc, own->chars + at, end - at);
            at = end;
        }
        const uint64_t first = own->length * t / sc->n, last = own->length * (t + 1) / sc->n;
        const size_t width = simdsv__offset_width(own);
        char *offsets = (char *)own->offsets + width; /* entry r + 1 for row r */
        for (size_t r = (size_t)first; r < last;) {
            size_t end = slice_end(offsets, r * width, (size_t)last * width) / width;
            end += end == r; /* (a boundary inside an entry) */
            const size_t to_width = simdsv__offset_width(to);
            simdsv__populate_pages(sc->alloc, (char *)to->offsets + (w->row_base + 1 + r) * to_width,
                                   (end - r) * to_width);
            for (size_t k = r; k < end; k++)
                simdsv__offset_put(to, w->row_base + 1 + k, (int64_t)base + simdsv__offset_get(own, k + 1));
            simdsv__drop_pages(sc->alloc, offsets + r * width, (end - r) * width);
            r = end;
        }
    }
}

/* View column j's side blocks of every chunk, in chunk order, become the
 * table's; the views of a chunk whose blocks are not the first name them
 * by their new buffer indexes (its views are in the table's buffer
 * already, in place). */
static simdsv_status merge_views(simdsv_table *t, worker_job **jobs, size_t n, size_t j)
{
    const simdsv_allocator *a = &t->alloc;
    column *c = &t->cols[j];
    const uint32_t windows = c->vin->windows;
    size_t before = 0;
    for (size_t i = 0; i < n; i++) {
        column *own = &jobs[i]->own.cols[j];
        c->input_refs |= own->input_refs;
        const size_t local = own->nblocks + (own->chars_len ? 1 : 0);
        if (before && local) { /* local side index windows + b is now windows + before + b */
            unsigned char *view = c->values + 16 * jobs[i]->row_base;
            for (uint64_t r = 0; r < own->length; r++, view += 16) {
                uint32_t length, index;
                memcpy(&length, view, 4);
                memcpy(&index, view + 8, 4);
                if (length > 12 && index >= windows) {
                    index += (uint32_t)before;
                    memcpy(view + 8, &index, 4);
                }
            }
        }
        if (!simdsv__column_close_side(a, own))
            return SIMDSV_ERR_NOMEM;
        for (size_t b = 0; b < own->nblocks; b++) {
            void *p = c->blocks;
            if (simdsv__grow(a, &p, &c->blocks_cap, c->nblocks + 1, sizeof *c->blocks) != SIMDSV_OK)
                return SIMDSV_ERR_NOMEM;
            c->blocks = p;
            c->blocks[c->nblocks++] = own->blocks[b];
            own->blocks[b].data = NULL; /* moved */
            own->blocks[b].cap = 0;
        }
        before += local;
    }
    return SIMDSV_OK;
}

/* Takes chunk 0's bitmap (*from, its bits already where the table's go)
 * as the table's, grown to `bytes`: the later chunks' bits are appended to
 * it by append_bitmaps. */
static simdsv_status take_bitmap(const simdsv_allocator *a, uint8_t **to, size_t *to_cap, uint8_t **from,
                                 size_t *from_cap, size_t bytes)
{
    void *p = simdsv__realloc(a, *from, *from_cap, bytes);
    if (!p)
        return SIMDSV_ERR_NOMEM;
    simdsv__free(a, *to, *to_cap);
    *to = p;
    *to_cap = bytes;
    *from = NULL;
    *from_cap = 0;
    return SIMDSV_OK;
}

/* The validity (and bool value) bits of the chunks after the first,
 * appended to the table's bitmaps: columns t, t + n, ... on thread t. */
typedef struct bitmap_appends {
    simdsv_table *t;
    worker_job **jobs;
    size_t n, threads;
} bitmap_appends;

static void append_bitmaps(void *arg, size_t thread)
{
    const bitmap_appends *b = arg;
    for (size_t j = thread; j < b->t->ncols; j += b->threads) {
        column *c = &b->t->cols[j];
        uint64_t at = b->jobs[0]->own.cols[j].length;
        for (size_t i = 1; i < b->n; i++) {
            const column *own = &b->jobs[i]->own.cols[j];
            simdsv__bitmap_append(c->validity, at, own->validity, own->length);
            if (c->type == SIMDSV_TYPE_BOOL)
                simdsv__bitmap_append(c->values, at, own->values, own->length);
            at += own->length;
        }
    }
}

/* The chunks' rows into the table: values are in place already; bitmaps
 * and strings take chunk 0's buffers, grown, and the other chunks' bits
 * are appended (a column per thread) and their strings copied after them
 * (each by every thread). */
static simdsv_status merge(simdsv_table *t, worker_job **jobs, size_t n, uint64_t rows)
{
    const simdsv_allocator *a = &t->alloc;
    const size_t bitmap_bytes = (size_t)((rows + 7) / 8) + 1;
    for (size_t j = 0; j < t->ncols; j++) {
        column *c = &t->cols[j];
        column *first = &jobs[0]->own.cols[j];
        if (take_bitmap(a, &c->validity, &c->validity_cap, &first->validity, &first->validity_cap, bitmap_bytes) !=
                SIMDSV_OK ||
            (c->type == SIMDSV_TYPE_BOOL && take_bitmap(a, &c->values, &c->values_cap, &first->values,
                                                        &first->values_cap, bitmap_bytes) != SIMDSV_OK))
            return SIMDSV_ERR_NOMEM;
        c->length = c->null_count = 0;
        for (size_t i = 0; i < n; i++) {
            c->length += jobs[i]->own.cols[j].length;
            c->null_count += jobs[i]->own.cols[j].null_count;
        }
        if (simdsv__column_views(c)) {
            if (merge_views(t, jobs, n, j) != SIMDSV_OK)
                return SIMDSV_ERR_NOMEM;
            continue;
        }
        if (c->type != SIMDSV_TYPE_STRING)
            continue;
        size_t chars = 0;
        for (size_t i = 0; i < n; i++) {
            jobs[i]->chars_base[j] = chars;
            chars += jobs[i]->own.cols[j].chars_len;
        }
        if (!first->offsets && simdsv__column_reserve(a, first, 0) != SIMDSV_OK)
            return SIMDSV_ERR_NOMEM; /* a chunk of no rows: offsets[0] still */
        if (chars > (size_t)INT32_MAX && simdsv__column_widen_offsets(a, first) != SIMDSV_OK)
            return SIMDSV_ERR_NOMEM;
        const size_t width = simdsv__offset_width(first);
        void *offsets = simdsv__realloc(a, first->offsets, first->offsets_cap * width, (size_t)(rows + 1) * width);
        if (!offsets)
            return SIMDSV_ERR_NOMEM;
        simdsv__column_pages(a, offsets, (size_t)(rows + 1) * width);
        first->offsets = offsets;
        first->offsets_cap = (size_t)(rows + 1);
        void *bytes = simdsv__realloc(a, first->chars, first->chars_cap, chars ? chars : 1);
        if (!bytes)
            return SIMDSV_ERR_NOMEM;
        simdsv__column_pages(a, bytes, chars ? chars : 1);
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
    bitmap_appends appends = {t, jobs, n, n < t->ncols ? n : t->ncols};
    if (!simdsv__run_threads(a, appends.threads, append_bitmaps, &appends))
        return SIMDSV_ERR_NOMEM;
    for (size_t j = 0; j < t->ncols; j++) {
        if (t->cols[j].type != SIMDSV_TYPE_STRING || simdsv__column_views(&t->cols[j]))
            continue;
        string_copy copies = {a, jobs, n, j};
        if (!simdsv__run_threads(a, n, copy_strings_listed, &copies))
            return SIMDSV_ERR_NOMEM;
        for (size_t i = 1; i < n; i++)
            simdsv__column_free_data(a, &jobs[i]->own.cols[j]);
    }
    t->rows = rows;
    for (size_t i = 0; i < n; i++) {
        const simdsv_status st = simdsv__move_rejects(t, &jobs[i]->own, jobs[i]->row_base);
        if (st != SIMDSV_OK)
            return st;
    }
    return SIMDSV_OK;
}

/* Each job's context: x's, converting into columns of its own (t's
 * schema borrowed). */
static simdsv_status start_jobs(const typed_ctx *x, worker_job **jobs, size_t n)
{
    simdsv_status st = SIMDSV_OK;
    for (size_t i = 0; i < n && st == SIMDSV_OK; i++) {
        worker_job *w = jobs[i];
        w->table = x->t;
        w->k.x = *x;
        w->k.x.text = NULL;
        w->k.x.text_cap = 0;
        w->k.x.t = &w->own;
        w->k.worker = 1;
        st = simdsv__borrow_schema(x->t, &w->own);
    }
    return st;
}

/* ------------------------------------------------------ the overlapped read
 *
 * The first chunk needs no count to start: its rows go to the table's
 * first rows, and its end is the first record that starts past its raw end
 * (which the planner makes the record start it cuts there,
 * simdsv__chunk_bound), and its own reader (the single read's, from the
 * first data row) meets it.  So it converts at once, while another
 * thread cuts and counts the chunks before the last (the count needs no
 * types and is ~1/12 of a conversion), places them, and converts them;
 * the last chunk is not counted either: it converts into the rows the
 * sample's size estimate leaves it, and when they fill up the caller lends
 * it more once every thread is done.  The first chunk is larger than the
 * others by the count its peers do first. */

/* A chunk's count, as a share of its conversion (the count kernel reads
 * ~1.5 instructions a byte, the conversion 15 to 27). */
#define COUNT_SHARE 0.08
/* Rows lent to the chunks: the sample's estimate with this to spare. */
#define ROWS_SPARE 1.10

typedef struct overlap {
    typed_ctx *x;
    worker_job **jobs;
    size_t n;
    uint64_t *raw, *starts, *records; /* n + 1, n + 1, n */
    uint64_t cap;                     /* rows of the table's value buffers */
    chunk_gate gate;                  /* chunk 0's */
    int cut;                          /* the chunks after the first were counted, placed and converted */
    int at_lines;                     /* the planner cut them at line ends (not by the quote parities) */
    /* The first thread infers the types and sets the chunks up while the
     * others count; `ready` (under the lock) says when, `setup` how. */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int ready;
    simdsv_status setup;
} overlap;

/* Chunk 0 done: when it stopped at its counted rows rather than at the
 * first record past its bound, that record must come next. */
static void first_ends(overlap *o)
{
    chunk *k = &o->jobs[0]->k;
    if (k->status == SIMDSV_OK && k->code == SIMDSV_OK && !k->misfit && !o->gate.passed &&
        !atomic_load_explicit(&o->gate.stop, memory_order_relaxed)) {
        simdsv_record rec;
        const simdsv_status next = simdsv_reader_next(k->source, &rec);
        k->misfit = !(next == SIMDSV_END || (next == SIMDSV_OK && rec.byte_offset > o->gate.bound));
    }
    simdsv_reader_free(k->source);
    k->source = NULL;
}

/* The types, then the chunks' contexts and the table's value buffers,
 * chunk 0 placed in them (the first thread, while the others count). */
static simdsv_status set_up(overlap *o)
{
    typed_ctx *x = o->x;
    simdsv_status st = simdsv__infer_types(x);
    if (st == SIMDSV_OK)
        st = start_jobs(x, o->jobs, o->n);
    /* Rows lent: the sample's estimate, or a few to grow from. */
    o->cap = x->first_rows && x->first_bytes
                 ? (uint64_t)((double)x->size / ((double)x->first_bytes / (double)x->first_rows) * ROWS_SPARE) + 16
                 : 1024;
    if (st == SIMDSV_OK)
        st = reserve_values(x->t, o->cap);
    if (st != SIMDSV_OK)
        return st;
    chunk *k = &o->jobs[0]->k;
    k->status = SIMDSV_OK;
    k->shift = (int64_t)x->data_pos;
    k->limit = o->cap;
    k->gate = &o->gate;
    place_chunk(x->t, o->jobs[0], o->cap);
    return SIMDSV_OK;
}

/* Chunk 0: from the first data row to the first record past its bound. */
static void run_first(overlap *o)
{
    const simdsv_status setup = set_up(o);
    pthread_mutex_lock(&o->lock);
    o->setup = setup;
    o->ready = 1;
    pthread_cond_broadcast(&o->changed);
    pthread_mutex_unlock(&o->lock);
    if (setup != SIMDSV_OK)
        return;
    worker_job *w = o->jobs[0];
    chunk *k = &w->k;
    k->status = simdsv__reader_sub(k->x.r, k->x.data, k->x.size, true, &k->source);
    /* its rows are counted later: its share of the rows lent, by its bytes */
    fault_chunk(w->table, w, (uint64_t)((double)o->cap * (double)o->gate.bound / (double)(k->x.size ? k->x.size : 1)));
    /* Its bitmaps and string offsets become the table's (merge): sized for
     * the table's rows at once, merge's realloc then moves nothing. */
    if (k->status == SIMDSV_OK)
        k->status = simdsv__reserve_rows(&w->own, o->cap);
    if (k->status == SIMDSV_OK)
        k->status = simdsv__convert_chunk(k);
    /* Its lent rows full before its bound: more are lent after the threads
     * (lend_more), when its count is known. */
    if (!(k->status == SIMDSV_OK && k->code == SIMDSV_OK && !k->misfit && !o->gate.passed &&
          w->own.rows == k->limit && !atomic_load_explicit(&o->gate.stop, memory_order_relaxed)))
        first_ends(o);
    atomic_store(&o->gate.claim, w->own.rows);
    atomic_store(&o->gate.done, 1);
}

/* Chunks 1..n-1: cut and counted (but the last), placed after the rows
 * before them where the value buffers reach, and converted. */
static void run_rest(overlap *o)
{
    const typed_ctx *x = o->x;
    const size_t n = o->n;
    const int planned = simdsv__count_chunks(x->r, x->data, x->size, n, o->raw, o->starts, o->records);
    o->at_lines = planned == SIMDSV__CUT_AT_LINES;
    if (!planned) {
        atomic_store(&o->gate.stop, 1);
        return;
    }
    pthread_mutex_lock(&o->lock);
    while (!o->ready)
        pthread_cond_wait(&o->changed, &o->lock);
    const simdsv_status setup = o->setup;
    pthread_mutex_unlock(&o->lock);
    if (setup != SIMDSV_OK)
        return;
    atomic_store(&o->gate.rows, o->records[0]);
    /* Chunk 0 claims no row past the count from its next batch on (one
     * batch's wait at most), unless it read more rows than were counted. */
    while (atomic_load(&o->gate.claim) > o->records[0] && !atomic_load(&o->gate.done))
        sched_yield();
    if (atomic_load(&o->gate.claim) > o->records[0]) {
        atomic_store(&o->gate.stop, 1); /* a disagreement: one thread decides */
        return;
    }
    uint64_t base = 0;
    for (size_t i = 0; i < n; i++) {
        worker_job *w = o->jobs[i];
        w->row_base = base;
        w->rows = i + 1 < n ? o->records[i] : SIMDSV__ROWS_UNKNOWN;
        if (i == 0) {
            base += w->rows;
            continue;
        }
        chunk *k = &w->k;
        k->from = (size_t)o->starts[i];
        k->to = (size_t)o->starts[i + 1];
        k->shift = (int64_t)x->data_pos + (int64_t)k->from;
        k->status = SIMDSV_OK;
        w->open_end = 1;
        const uint64_t room = o->cap > base ? o->cap - base : 0;
        k->limit = w->rows < room ? w->rows : room;
        if (k->limit) /* (no pointer past the buffers) */
            place_chunk(x->t, w, k->limit);
        if (i + 1 < n)
            base += w->rows;
    }
    o->cut = simdsv__run_threads(&x->t->alloc, n - 1, run_convert_listed, o->jobs + 1);
}

static void run_overlap(void *arg, size_t i)
{
    if (i == 0)
        run_first(arg);
    else
        run_rest(arg);
}

/* After the threads: the chunks whose lent rows filled up before their end
 * convert the rest, the value buffers grown (nothing else writes them now),
 * and are checked as run_convert checks the others. */
static simdsv_status lend_more(overlap *o)
{
    simdsv_table *t = o->x->t;
    simdsv_status st = SIMDSV_OK;
    for (size_t i = 0; i < o->n; i++) {
        worker_job *w = o->jobs[i];
        chunk *k = &w->k;
        int lent = 0;
        if (i == 0) { /* its gate still bounds it; the count is known */
            if (k->source && k->status == SIMDSV_OK && w->own.rows < w->rows) {
                if ((st = reserve_values(t, w->rows)) == SIMDSV_OK) {
                    o->cap = o->cap > w->rows ? o->cap : w->rows;
                    k->limit = w->rows;
                    place_chunk(t, w, k->limit);
                    k->status = simdsv__convert_chunk(k);
                    atomic_fetch_add_explicit(&lent_reads, 1, memory_order_relaxed);
                }
            }
            if (k->source)
                first_ends(o);
            continue;
        }
        while (st == SIMDSV_OK && k->source && k->status == SIMDSV_OK && k->code == SIMDSV_OK && !k->misfit &&
               w->own.rows == k->limit && k->limit != w->rows) {
            /* a counted chunk: its rows; the last: twice its rows so far */
            const uint64_t need =
                w->row_base + (w->rows != SIMDSV__ROWS_UNKNOWN ? w->rows : 2 * w->own.rows + 4096);
            if (need > o->cap) {
                if ((st = reserve_values(t, need)) != SIMDSV_OK)
                    break;
                o->cap = need;
            }
            k->limit = w->rows != SIMDSV__ROWS_UNKNOWN ? w->rows : o->cap - w->row_base;
            place_chunk(t, w, k->limit);
            lent = 1;
            k->status = simdsv__convert_chunk(k);
        }
        if (st == SIMDSV_OK && k->source && k->status == SIMDSV_OK && k->code == SIMDSV_OK && !k->misfit)
            k->misfit = (w->rows != SIMDSV__ROWS_UNKNOWN && w->own.rows != w->rows) || !next_record_at(k, NO_RECORD);
        simdsv_reader_free(k->source);
        k->source = NULL;
        if (lent)
            atomic_fetch_add_explicit(&lent_reads, 1, memory_order_relaxed);
    }
    return st;
}

/* The overlapped read of jobs[0..n) (their chunks' contexts set up);
 * *rows: the rows of them all.  A chunk's misfit (or a first chunk that
 * did not count as its peers counted it) makes the read fall back. */
static simdsv_status convert_overlapped(typed_ctx *x, worker_job **jobs, size_t n, uint64_t *bufs, uint64_t *rows,
                                        int *at_lines)
{
    simdsv_table *t = x->t;
    overlap o;
    memset(&o, 0, sizeof o);
    o.x = x;
    o.jobs = jobs;
    o.n = n;
    o.raw = bufs;
    o.starts = bufs + n + 1;
    o.records = bufs + 2 * n + 2;
    /* Raw bounds, so that the threads end together: chunk 0's thread first
     * infers (I, in bytes of conversion: a sampled row costs ~2.6
     * conversions of it, a row taken as ~9 bytes a field), the others
     * count chunk 0 (COUNT_SHARE of its conversion) meanwhile, then wait
     * for the types if the inference takes longer.  So chunk 0 is the
     * larger by the count beyond I, or all chunks are equal. */
    const double size = (double)x->size, others = (double)(n - 1);
    const double inference =
        x->opt->infer_rows >= 0 ? 2.6 * 9.0 * (double)x->opt->infer_rows * (double)x->row_fields : size;
    double first = (size - others * inference) / (others * (1.0 - COUNT_SHARE) + 1.0);
    if (first < size / (double)n)
        first = size / (double)n;
    const double other = (size - first) / others;
    o.raw[0] = 0;
    for (size_t i = 1; i < n; i++)
        o.raw[i] = (uint64_t)(first + other * (double)(i - 1));
    o.raw[n] = x->size;
    /* The first chunk ends at the first record past its bound: the cut the
     * planner makes there, unless that is past the next raw bound (then the
     * cuts disagree with the first chunk's end and one thread reads). */
    const uint64_t bound = simdsv__chunk_bound(x->r, x->data, x->size, o.raw[1]);
    if (bound < o.raw[2])
        o.raw[1] = bound;
    o.gate.bound = (size_t)o.raw[1];
    atomic_init(&o.gate.claim, 0);
    atomic_init(&o.gate.rows, SIMDSV__ROWS_UNKNOWN);
    atomic_init(&o.gate.stop, 0);
    atomic_init(&o.gate.done, 0);
    if (pthread_mutex_init(&o.lock, NULL) != 0)
        return SIMDSV_ERR_NOMEM;
    if (pthread_cond_init(&o.changed, NULL) != 0) {
        pthread_mutex_destroy(&o.lock);
        return SIMDSV_ERR_NOMEM;
    }
    const int ran = simdsv__run_threads(&t->alloc, 2, run_overlap, &o);
    pthread_cond_destroy(&o.changed);
    pthread_mutex_destroy(&o.lock);
    if (!ran) /* nothing ran: the types still to infer */
        return SIMDSV_ERR_NOMEM;
    simdsv_status st = o.setup;
    if (st != SIMDSV_OK)
        return st;
    chunk *k = &jobs[0]->k;
    if (!o.cut) { /* the count failed: chunk 0's error (the single read's first) stands, else one thread reads */
        simdsv_reader_free(k->source);
        k->source = NULL;
        k->gate = NULL;
        k->misfit = 1;
        return SIMDSV_OK;
    }
    st = lend_more(&o);
    k->gate = NULL;
    if (st != SIMDSV_OK)
        return st;
    if (!k->misfit)
        k->misfit = jobs[0]->own.rows != jobs[0]->rows;
    *at_lines = o.at_lines;
    jobs[n - 1]->rows = jobs[n - 1]->own.rows;
    *rows = 0;
    for (size_t i = 0; i < n; i++)
        *rows += jobs[i]->own.rows;
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

/* The input is cut into chunks at record starts of the single read by the
 * chunk planner (src/record/chunks.c, simdsv__count_chunks), for every
 * dialect: by one parallel scan of the quote parities where the quote state
 * is that parity, else just after line ends, proven by readers that count
 * the chunks with the full policy (lenient recovery, escapes, comment lines,
 * several-byte delimiters, trimmed spaces).  The cuts and the record counts
 * of the chunks before the last are known before the chunks after the first
 * are converted; the first converts (after the inference) during the
 * planning (the overlapped read above).  When the planner gives up (a
 * quoting error, a record longer than a chunk, a cut it cannot prove), one
 * thread reads.  A chunk's error is reported only when every chunk before
 * it was proven, so errors and rejects (rows, lines, offsets) are those of
 * the single read.
 *
 * With each chunk's records known, fixed-width values are written in place
 * and only strings and bitmaps are merged.  A value that does not fit an
 * inferred type (or a count that disagrees with the conversion) sends the
 * input back to the single-thread path, which widens in place.  Returns 0
 * in *done when it did not apply. */
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
    if (n < 2 || x->size < simdsv__min_chunk(MIN_CHUNK) * n || x->opt->row_limit)
        return simdsv__infer_types(x);
    /* The first chunk converts while the others are cut and counted, and
     * the types are inferred on its thread first. */
    simdsv_status st = SIMDSV_OK;
    worker_job **jobs = simdsv__alloc(a, n * sizeof *jobs);
    if (!jobs)
        return SIMDSV_ERR_NOMEM;
    memset(jobs, 0, n * sizeof *jobs);
    for (size_t i = 0; i < n && st == SIMDSV_OK; i++) {
        worker_job *w = jobs[i] = simdsv__alloc(a, sizeof *w + t->ncols * sizeof w->chars_base[0]);
        if (!w)
            st = SIMDSV_ERR_NOMEM;
        else
            memset(w, 0, sizeof *w + t->ncols * sizeof w->chars_base[0]);
    }
    /* Raw bounds, chunk starts and record counts (the planner's). */
    const size_t bufs_size = (3 * n + 2) * sizeof(uint64_t);
    uint64_t *bufs = simdsv__alloc(a, bufs_size);
    if (st == SIMDSV_OK && !bufs)
        st = SIMDSV_ERR_NOMEM;
    int fallback = 0, placed = 0, at_lines = 0;
    uint64_t rows = 0;
    if (st == SIMDSV_OK) {
        placed = 1;
        st = convert_overlapped(x, jobs, n, bufs, &rows, &at_lines);
    }
    simdsv__free(a, bufs, bufs_size);
    /* In input order: a chunk's error counts once the chunks before it
     * are proven (their counts and their ends); the first is reported. */
    for (size_t i = 0; i < n && st == SIMDSV_OK && !fallback; i++) {
        const chunk *k = &jobs[i]->k;
        if (k->code != SIMDSV_OK) {
            st = simdsv__report(r, k, jobs[i]->row_base); /* the first error in input order */
            *done = 1;
        } else if (k->status != SIMDSV_OK) {
            st = k->status;
        } else {
            fallback = k->misfit;
        }
    }
    if (placed)
        unplace_values(t, jobs, n);
    if (st == SIMDSV_OK && !fallback) {
        st = merge(t, jobs, n, rows);
        *done = 1;
        atomic_fetch_add_explicit(&parallel_reads, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&overlapped_reads, 1, memory_order_relaxed);
        if (at_lines)
            atomic_fetch_add_explicit(&line_cut_reads, 1, memory_order_relaxed);
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
