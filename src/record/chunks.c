/*
 * chunks.c — the one chunk planner: an input cut at record starts of the
 * serial read, for every threaded part of the library (simdsv_reader_count
 * on several threads, the typed reader's chunks through
 * simdsv__count_chunks, the byte ranges' summaries through
 * simdsv__range_summary, and so stats and the Dask reader), in every
 * dialect.  Two ways to cut, one proof each:
 *
 * - Where the quote state is the parity of the quote bytes before
 *   (parity_dialect: no escape, no comment, no dialect only the slow path
 *   reads), one scan of the count kernel guesses and checks the quote
 *   state at each raw boundary (below).
 * - Every other dialect (an escape byte, comment lines, several-byte
 *   delimiters, trimmed spaces) and lenient inputs with a special byte: cuts
 *   just after line ends, proven by readers of the chunks with the full
 *   policy (count_by_lines).
 *
 * Nothing here decides policy or reports an error: a cut that cannot be
 * proven sends the caller back to one thread, which reads as it always did.
 *
 * The rest of the input, [base, end), is cut at raw boundaries b_0 = base <
 * b_1 < ... < b_n = end.  Chunk i is counted from the first record start
 * after b_i (base itself for chunk 0) to the first record start after
 * b_{i+1}, with the count-mode kernel and a scan_state of its own.  A record
 * start is the byte after a line end outside quotes, where the serial
 * kernel's state is exactly the reset state (not in quotes, after a record
 * end and a separator, not after a closing quote; there is no escape byte
 * here), so the chunks see the bytes the serial scan sees, in the same
 * state, and their counts add up to the serial count.  base is r->rec_start,
 * which is such a point too: records the reader has already indexed are
 * simply counted again by the kernel.
 *
 * (The parity scan.)  Which raw boundaries are inside quotes is not known before the bytes in
 * front of them are scanned.  Without an escape byte the kernel's "inside
 * quotes" is the parity of the quote bytes before, so it follows from each
 * chunk's quote parity by a prefix XOR.  Counting the quotes in a pass of
 * their own would read the input twice (memory bandwidth is the limit on two
 * cores), so each worker guesses instead: outside quotes first, and if the
 * kernel then stops at a special byte (a wrong guess puts quotes in the wrong
 * places, which RFC 4180 rejects within a few records), or no record start
 * follows, inside quotes.  Its raw range's quote parity costs nothing: it is
 * the parity of the bytes walked to the first record start, XOR the kernel's
 * own quote state at the raw end (the kernel started outside quotes).  The
 * caller then checks every guess against the prefix XOR and scans again,
 * with the right state, the chunks guessed wrong (possible only for data
 * that reads as valid CSV in both states, such as `a,"\n",b`).
 *
 * Anything unusual sends the whole count back to the serial path in
 * reader.c, which is the policy and is left to report errors exactly as it
 * always did: a special byte in any chunk (irregular quoting, decided by the
 * slow path), the input ending inside quotes, a chunk with no record start
 * in its range (a record longer than a chunk), a failed allocation or read,
 * a file that changed size, and on a stream a gap between line ends that the
 * serial path's record-size limit (SIMDSV_OPT_MAX_RECORD_SIZE) might catch.
 *
 * Sources: whole inputs in memory (memory buffers, mapped files, or a
 * stream already read to its end) are scanned in place.  A regular file read
 * with read() (a path, or a file descriptor) is read by each worker with
 * pread() into its own 1 MiB window, so memory stays bounded and nothing is
 * mapped; the file offset is moved to the end afterwards, where reading it
 * would have left it; a chunk cut at line ends is read by its reader as a
 * stream that pread() fills.  Pipes, FILE* and callbacks stay serial.
 */
#define _POSIX_C_SOURCE 200809L
#include "chunks.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* At least this many bytes per chunk, else fewer threads (or none). */
#define MIN_CHUNK ((uint64_t)4 << 20)
/* pread() window of a worker (a multiple of 64). */
#define WINDOW ((size_t)1 << 20)
/* Bytes per kernel call; gaps between line ends are bounded to this
 * precision (see the record-size check). */
#define PIECE ((size_t)64 << 10)

static atomic_ullong parallel_counts, rescanned_chunks, line_cut_counts;

void simdsv__count_line_cut_stats(uint64_t *counts)
{
    *counts = atomic_load_explicit(&line_cut_counts, memory_order_relaxed);
}

void simdsv__count_parallel_stats(uint64_t *counts, uint64_t *rescans)
{
    *counts = atomic_load_explicit(&parallel_counts, memory_order_relaxed);
    *rescans = atomic_load_explicit(&rescanned_chunks, memory_order_relaxed);
}

typedef struct count_plan {
    const simdsv_reader *reader; /* its options and dialect: the cuts at line ends read with them */
    const scan_kernel *kernel;
    scan_dialect dialect;
    int quote;            /* the quote byte, 256 (no byte) without quoting */
    const uint8_t *buf;   /* in memory: position p is buf[p - origin] */
    uint64_t origin;
    const source *mapped; /* buf is this mapped file's: each job hands its pages back when done */
    int fd;               /* else a file: position p is at file offset p + delta */
    uint64_t delta;
    size_t window;
    const uint64_t *bounds; /* n + 1 raw boundaries, bounds[n] == end */
    size_t n;
    atomic_int stop;      /* a chunk failed for good: the others give up too */
} count_plan;

typedef struct count_job {
    count_plan *plan;
    size_t i;
    int forced;           /* -1: guess the quote state at bounds[i]; 0 or 1: it is known */
    uint8_t *win;         /* the pread() window (file): its allocation, and */
    uint8_t *page;        /* its first page-aligned byte */
    /* results */
    int ok;
    int hyp;              /* the quote state at bounds[i] the chunk was counted with */
    uint64_t start, end;  /* the records counted are those in [start, end) */
    uint64_t records;
    int parity;           /* of the quote bytes in [bounds[i], bounds[i + 1]) */
    uint64_t max_gap;     /* bound on the longest run of bytes without a line end */
    int open_tail;        /* last chunk: the input ends with a record without a line end */
} count_job;

/* Occurrences of byte (256: none) in p[0..n): the quote parity of a whole
 * range is counted at memory speed (the range summaries need nothing else of
 * most bytes).  Written for the compiler to vectorize at the baseline ISA:
 * 64 one-byte lanes count matches, summed before any can reach 256. */
static uint64_t count_byte(const uint8_t *p, size_t n, int byte)
{
    if (byte > 255)
        return 0;
    const uint8_t b = (uint8_t)byte;
    uint64_t count = 0;
    size_t i = 0;
    while (n - i >= 64) {
        uint8_t lanes[64] = {0};
        for (size_t round = 0; round < 255 && n - i >= 64; round++, i += 64)
            for (size_t l = 0; l < 64; l++)
                lanes[l] = (uint8_t)(lanes[l] + (p[i + l] == b));
        for (size_t l = 0; l < 64; l++)
            count += lanes[l];
    }
    for (; i < n; i++)
        count += p[i] == b;
    return count;
}

static int stopped(const count_plan *p)
{
    return atomic_load_explicit(&p->stop, memory_order_relaxed);
}

/* Bytes a window allocation has besides the window: a read starts at a page
 * boundary of the file, into a page-aligned buffer (the kernel copies from
 * the page cache at several times the speed of a misaligned copy). */
#define WINDOW_EXTRA ((size_t)8192)

/* The bytes [pos, pos + n) of the input (n <= the window for a file), or
 * NULL when they cannot be read (an error, or the file got shorter). */
static const uint8_t *view(count_job *j, uint64_t pos, size_t n)
{
    const count_plan *p = j->plan;
    if (p->buf)
        return p->buf + (size_t)(pos - p->origin);
    const uint64_t at = pos + p->delta;
    const size_t lead = (size_t)(at & 4095);
    n += lead;
    size_t got = 0;
    while (got < n) {
        const ssize_t k = pread(p->fd, j->page + got, n - got, (off_t)(at - lead + got));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return NULL;
        got += (size_t)k;
    }
    return j->page + lead;
}

/* The first record start after `from`: just past the first LF or CR outside
 * quotes in [from, limit), given whether `from` is inside quotes.  The parity
 * of the quote bytes before it goes into *parity.  Returns 1 (found), 0
 * (none) or -1 (read error, or another chunk failed). */
static int find_record_start(count_job *j, uint64_t from, uint64_t limit, int in_quote, uint64_t *found,
                             int *parity)
{
    const count_plan *p = j->plan;
    const int quote = p->quote;
    size_t piece = 4096; /* usually a line end is near: read little first */
    uint64_t nq = 0;
    for (uint64_t pos = from; pos < limit;) {
        if (stopped(p))
            return -1;
        size_t n = limit - pos < piece ? (size_t)(limit - pos) : piece;
        if (n > p->window)
            n = p->window;
        const uint8_t *b = view(j, pos, n);
        if (!b)
            return -1;
        for (size_t k = 0; k < n; k++) {
            if (in_quote) {
                /* Inside quotes only the closing quote matters: in a
                 * range guessed inside quotes that has few quotes (most
                 * data), this is most of the range. */
                const uint8_t *q = quote < 256 ? memchr(b + k, quote, n - k) : NULL;
                if (!q)
                    break;
                k = (size_t)(q - b);
                in_quote = 0;
                nq++;
                continue;
            }
            const int c = b[k];
            if (c == quote) {
                in_quote = 1;
                nq++;
            } else if (c == '\n' || c == '\r') {
                *found = pos + k + 1;
                *parity = (int)(nq & 1);
                return 1;
            }
        }
        pos += n;
        if (piece < p->window)
            piece *= 2;
    }
    *parity = (int)(nq & 1);
    return 0;
}

/* Runs the count kernel over [from, to), continuing *s; the last call is
 * final when `final` (otherwise to - from is a multiple of 64).  Adds the
 * records.  *last_end: just past the last line end seen.  Returns 1, 0 (the
 * kernel stopped at a special byte) or -1 (read error, or another chunk
 * failed). */
static int scan_range(count_job *j, scan_state *s, uint64_t from, uint64_t to, int final, uint64_t *last_end)
{
    const count_plan *p = j->plan;
    for (uint64_t pos = from; pos < to;) {
        if (stopped(p))
            return -1;
        const size_t n = to - pos < p->window ? (size_t)(to - pos) : p->window;
        const uint8_t *b = view(j, pos, n);
        if (!b)
            return -1;
        for (size_t k = 0; k < n;) {
            const size_t m = n - k < PIECE ? n - k : PIECE;
            const int fin = final && pos + k + m == to;
            const scan_result res = p->kernel->scan_count(&p->dialect, s, b + k, m, fin, NULL);
            if (res.stopped || res.consumed != m)
                return 0;
            j->records += res.record_ends;
            if (res.last_term_end) {
                /* The gap before this piece's first line end is at most
                 * this; gaps inside the piece are shorter than the piece. */
                const uint64_t gap = pos + k + m - *last_end;
                if (gap > j->max_gap)
                    j->max_gap = gap;
                *last_end = pos + k + res.last_term_end;
            }
            k += m;
        }
        pos += n;
    }
    return 1;
}

/* How far a guessed quote state is followed to a line end before the other
 * guess is tried.  The wrong guess on data whose records each hold an even
 * number of quotes (quoted text fields) sees every line end inside quotes:
 * walked to the end, it cost a byte loop over the whole chunk. */
#define GUESS_WALK ((uint64_t)64 << 10)

/* Counts chunk j->i assuming quote state h at its raw start, looking for
 * its first record start at most `walk` bytes in.  Returns 1, 0 (this
 * assumption does not work) or -1 (give up). */
static int count_chunk(count_job *j, int h, uint64_t walk)
{
    const count_plan *p = j->plan;
    const size_t i = j->i;
    const uint64_t from = p->bounds[i], to = p->bounds[i + 1];
    j->records = j->max_gap = 0;
    j->parity = j->open_tail = 0;
    scan_state s;
    scan_state_reset(&s);
    uint64_t start = from;
    if (i > 0) {
        const uint64_t limit = to - from > walk ? from + walk : to;
        const int found = find_record_start(j, from, limit, h, &start, &j->parity);
        if (found <= 0)
            return found;
    }
    j->start = start;
    uint64_t last_end = start;
    int res;
    if (i + 1 == p->n) { /* the last chunk runs to the end of the input */
        if ((res = scan_range(j, &s, start, to, 1, &last_end)) <= 0)
            return res;
        if (s.in_quote)
            return 0; /* the input ends inside quotes (or h is wrong) */
        if (to - last_end > j->max_gap)
            j->max_gap = to - last_end;
        j->open_tail = !s.after_term;
        j->end = to;
        return 1;
    }
    /* Whole blocks up to the raw end, then the rest of the range up to the
     * first record start after it, found with the state the kernel reached.
     * The kernel started outside quotes at `start`, so its quote state is
     * the parity of the quotes it has seen (there is no escape byte). */
    const uint64_t mid = start + (to - start) / 64 * 64;
    if ((res = scan_range(j, &s, start, mid, 0, &last_end)) <= 0)
        return res;
    int in_quote = (int)(s.in_quote & 1);
    if (mid < to) {
        const uint8_t *b = view(j, mid, (size_t)(to - mid));
        if (!b)
            return -1;
        in_quote ^= (int)(count_byte(b, (size_t)(to - mid), p->quote) & 1);
    }
    j->parity ^= in_quote;
    uint64_t end = 0;
    int ignored = 0;
    const int found = find_record_start(j, to, p->bounds[i + 2], in_quote, &end, &ignored);
    if (found <= 0)
        return found;
    if ((res = scan_range(j, &s, mid, end, 1, &last_end)) <= 0)
        return res;
    if (s.in_quote || !s.after_term)
        return 0; /* not after a line end: cannot happen, but the serial count decides */
    j->end = end;
    return 1;
}

static void *run_job(void *arg)
{
    count_job *j = arg;
    count_plan *p = j->plan;
    j->ok = 0;
    /* Chunk 0 starts at a record start: outside quotes.  Guesses look for a
     * line end near the raw start first, then (a record longer than that
     * across the raw start) anywhere in the chunk. */
    const int tries = j->forced >= 0 || j->i == 0 ? 1 : 2;
    for (int round = tries == 2 ? 0 : 1; round < 2; round++) {
        for (int t = 0; t < tries; t++) {
            const int h = j->forced >= 0 ? j->forced : t;
            const int res = count_chunk(j, h, round == 0 ? GUESS_WALK : UINT64_MAX);
            if (res > 0) {
                j->ok = 1;
                j->hyp = h;
                if (p->mapped) { /* read again only after a wrong guess or for an error's line */
                    const uint8_t *from = p->buf + (size_t)(p->bounds[j->i] - p->origin);
                    const size_t size = (size_t)(p->bounds[j->i + 1] - p->bounds[j->i]);
                    simdsv__source_release_range(p->mapped, (size_t)(from - p->mapped->data),
                                                 (size_t)(from - p->mapped->data) + size);
                }
                return NULL;
            }
            if (res < 0) {
                round = 2;
                break;
            }
        }
    }
    atomic_store_explicit(&p->stop, 1, memory_order_relaxed);
    return NULL;
}

/* Job i of a list of jobs, for simdsv__run_threads. */
static void run_listed(void *jobs, size_t i)
{
    run_job(((count_job **)jobs)[i]);
}

uint64_t simdsv__min_chunk(uint64_t normal)
{
    return simdsv__test_size("SIMDSV_TEST_COUNT_CHUNK", normal);
}

/* Checks the guesses and the seams of the first `counted` chunks of n;
 * returns 1 and their total when they make up the serial count. */
static int stitch(const count_job *jobs, size_t n, size_t counted, uint64_t *total, uint64_t *max_gap)
{
    int in_quote = 0; /* at bounds[0], a record start */
    *total = *max_gap = 0;
    for (size_t i = 0; i < counted; i++) {
        const count_job *j = &jobs[i];
        if (!j->ok || j->hyp != in_quote || (i > 0 && j->start != jobs[i - 1].end))
            return 0;
        in_quote ^= j->parity;
        *total += j->records;
        if (j->max_gap > *max_gap)
            *max_gap = j->max_gap;
    }
    if (counted == n)
        *total += (uint64_t)jobs[n - 1].open_tail;
    return 1;
}

typedef struct count_work {
    const simdsv_allocator *a;
    size_t window;
    count_job *jobs;
    count_job **list;
    uint64_t *bounds;
    size_t n;
    size_t counted; /* the first `counted` chunks are counted (n, or n - 1: see simdsv__count_chunks) */
} count_work;

static void work_free(count_work *w)
{
    if (w->jobs)
        for (size_t i = 0; i < w->n; i++)
            if (w->jobs[i].win)
                simdsv__free(w->a, w->jobs[i].win, w->window + WINDOW_EXTRA);
    simdsv__free(w->a, w->jobs, w->n * sizeof *w->jobs);
    simdsv__free(w->a, w->list, w->n * sizeof *w->list);
    simdsv__free(w->a, w->bounds, (w->n + 1) * sizeof *w->bounds);
}

/* Runs the chunks, rescans those guessed wrong; 1 with *total on success. */
static int count_all(count_plan *plan, count_work *w, uint64_t *total, uint64_t *max_gap)
{
    const size_t n = w->counted;
    for (size_t i = 0; i < n; i++)
        w->list[i] = &w->jobs[i];
    if (!simdsv__run_threads(w->a, n, run_listed, w->list) || atomic_load(&plan->stop))
        return 0;
    /* The quote state at each raw boundary, from the quote counts. */
    size_t again = 0;
    int in_quote = 0;
    for (size_t i = 0; i < n; i++) {
        count_job *j = &w->jobs[i];
        if (j->hyp != in_quote) {
            j->forced = in_quote;
            w->list[again++] = j;
        }
        in_quote ^= j->parity;
    }
    if (again) {
        atomic_fetch_add_explicit(&rescanned_chunks, again, memory_order_relaxed);
        if (!simdsv__run_threads(w->a, again, run_listed, w->list) || atomic_load(&plan->stop))
            return 0;
    }
    return stitch(w->jobs, w->n, n, total, max_gap);
}

/* A plan over r's kernel and dialect, windows of `window` bytes. */
static void plan_init(count_plan *plan, const simdsv_reader *r, size_t window)
{
    memset(plan, 0, sizeof *plan);
    plan->reader = r;
    plan->kernel = r->kernel;
    plan->dialect = r->dialect;
    plan->quote = r->dialect.has_quote ? r->dialect.quote : 256;
    plan->fd = -1;
    plan->window = window;
}

/* Jobs over n raw chunks of [base, end): equal ones, or those of raw (n +
 * 1 bounds, raw[0] == base, raw[n] == end) when it is not NULL; 0 when out
 * of memory (w is then freed by work_free as usual). */
static int work_start(count_work *w, count_plan *plan, uint64_t base, uint64_t end, const uint64_t *raw)
{
    const simdsv_allocator *a = w->a;
    const size_t n = w->n;
    w->jobs = simdsv__alloc(a, n * sizeof *w->jobs);
    w->list = simdsv__alloc(a, n * sizeof *w->list);
    w->bounds = simdsv__alloc(a, (n + 1) * sizeof *w->bounds);
    if (!w->jobs || !w->list || !w->bounds)
        return 0;
    memset(w->jobs, 0, n * sizeof *w->jobs);
    for (size_t i = 0; i < n; i++) {
        w->bounds[i] = raw ? raw[i] : base + (end - base) / n * i;
        w->jobs[i].plan = plan;
        w->jobs[i].i = i;
        w->jobs[i].forced = -1;
    }
    w->bounds[n] = end;
    plan->bounds = w->bounds;
    plan->n = n;
    atomic_init(&plan->stop, 0);
    return 1;
}

/* ------------------------------------------- cuts at line ends, proven by readers */

/* Whether the quote state at any byte is the parity of the quote bytes
 * before it, so that the one-scan guess-and-check above applies: no escape
 * byte (an escaped quote does not count), no comment (a comment line may
 * hold an unbalanced quote), no dialect only the slow path reads (several-
 * byte delimiters, trimmed spaces).  Lenient mode qualifies as long as no
 * chunk holds a special byte; when one does, the cuts at line ends below
 * take over. */
static int parity_dialect(const simdsv_reader *r)
{
    return !r->dialect.has_escape && !r->dialect.has_comment && !r->slow_only;
}

/* Past the first line end in [from, limit) (a CR LF pair is one), or 0 when
 * there is none or it cannot be read. */
static uint64_t after_line_end(count_job *j, uint64_t from, uint64_t limit)
{
    const count_plan *p = j->plan;
    size_t piece = 4096; /* usually a line end is near: read little first */
    for (uint64_t pos = from; pos < limit;) {
        size_t n = limit - pos < piece ? (size_t)(limit - pos) : piece;
        if (n > p->window)
            n = p->window;
        const uint8_t *b = view(j, pos, n);
        if (!b)
            return 0;
        for (size_t k = 0; k < n; k++) {
            if (b[k] != '\n' && b[k] != '\r')
                continue;
            const uint64_t past = pos + k + 1;
            if (b[k] == '\n' || past == limit)
                return past;
            const uint8_t *next = k + 1 < n ? b + k + 1 : view(j, past, 1);
            return next ? past + (*next == '\n') : 0;
        }
        pos += n;
        if (piece < p->window)
            piece *= 2;
    }
    return 0;
}

/* What the reader of a chunk checks first: its bytes [from, to) read with
 * the input's dialect and options, from memory in place or, from a file,
 * as a stream that pread() fills (as the serial count reads a file). */
typedef struct pread_feed {
    int fd;
    uint64_t at, end; /* file offsets */
} pread_feed;

static long long pread_feed_read(void *ctx, void *buf, size_t size, int *os_errno)
{
    pread_feed *f = ctx;
    if (f->at == f->end)
        return 0;
    if (size > f->end - f->at)
        size = (size_t)(f->end - f->at);
    for (;;) {
        const ssize_t k = pread(f->fd, buf, size, (off_t)f->at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) { /* an error, or the file got shorter: the serial count decides */
            *os_errno = k < 0 ? errno : EIO;
            return -1;
        }
        f->at += (uint64_t)k;
        return (long long)k;
    }
}

static simdsv_status open_chunk_reader(const count_plan *p, uint64_t from, uint64_t to, pread_feed *feed,
                                       simdsv_reader **out)
{
    if (p->buf)
        return simdsv__reader_sub(p->reader, p->buf + (size_t)(from - p->origin), (size_t)(to - from), true, out);
    feed->fd = p->fd;
    feed->at = from + p->delta;
    feed->end = to + p->delta;
    return simdsv__reader_sub_stream(p->reader, pread_feed_read, feed, out);
}

/* Records read from s before a cut is trusted, within this many bytes. */
#define PLAUSIBLE_RECORDS 4
#define PLAUSIBLE_WINDOW ((size_t)64 << 10)

/* Whether the records a reader of the dialect reads from s look like the
 * serial read's: the first few (those that end inside a window) read
 * without an error, each of *width fields (any width when *width is 0:
 * then it becomes the first one's).  A line end inside a quoted field
 * usually fails this (the rest of that field reads as a short or broken
 * record), and so does a line that starts with the comment byte (it may as
 * well be the rest of a quoted field).  Only a guess that saves a fallback:
 * the counts prove the cuts either way. */
static int plausible_start(count_job *j, uint64_t s, uint64_t end, size_t *width)
{
    const count_plan *p = j->plan;
    const scan_dialect *d = &p->dialect;
    size_t window = PLAUSIBLE_WINDOW < p->window || p->buf ? PLAUSIBLE_WINDOW : p->window;
    if (end - s < window)
        window = (size_t)(end - s);
    const uint8_t *b = window ? view(j, s, window) : NULL;
    if (!b || (d->has_comment && b[0] == d->comment))
        return 0;
    simdsv_reader *sub = NULL;
    int ok = simdsv__reader_sub(p->reader, b, window, false, &sub) == SIMDSV_OK;
    simdsv_record rec;
    for (int i = 0; ok && i < PLAUSIBLE_RECORDS; i++) {
        const simdsv_status st = simdsv_reader_next(sub, &rec);
        if (st == SIMDSV_END || (sub->ended_by_input_end && s + window < end))
            break; /* the window cut this record short: it says nothing */
        ok = st == SIMDSV_OK && (!*width || rec.field_count == *width);
        if (ok && !*width)
            *width = rec.field_count;
    }
    simdsv_reader_free(sub);
    return ok;
}

/* Line ends tried past a raw boundary before the first is taken anyway. */
#define CUT_TRIES 16

/* The width plausible records have: the first record's at base (0, any
 * width, when it cannot be read). */
static size_t first_width(count_job *probe, uint64_t base, uint64_t end)
{
    size_t width = 0;
    return plausible_start(probe, base, end, &width) ? width : 0;
}

/* Where a chunk cut at line ends starts for raw boundary `raw`: just past
 * the first line end at or after it, or the first of CUT_TRIES such places
 * that starts plausible records of `width` fields; 0 when there is no line
 * end or it cannot be read. */
static uint64_t cut_after(count_job *probe, uint64_t raw, uint64_t end, size_t width)
{
    const uint64_t first = after_line_end(probe, raw, end);
    uint64_t next = first;
    for (int tries = 1; next && next < end; tries++) {
        size_t want = width;
        if (plausible_start(probe, next, end, &want))
            return next;
        if (tries == CUT_TRIES)
            break;
        next = after_line_end(probe, next, end);
    }
    return first;
}

/* Chunk starts at line ends: chunk i of w's n runs from jobs[i].start to
 * jobs[i].end, jobs[0].start the plan's base and the others where
 * cut_after puts them for their raw boundary.  0 when two cuts meet (a
 * record longer than a chunk: fewer chunks would do, one thread does) or
 * the bytes cannot be read. */
static int cut_at_lines(count_plan *plan, count_work *w)
{
    count_job *probe = &w->jobs[0]; /* its window serves the reads of every cut */
    const uint64_t end = plan->bounds[w->n];
    const size_t width = first_width(probe, plan->bounds[0], end);
    uint64_t from = plan->bounds[0];
    for (size_t i = 0; i < w->n; i++) {
        const uint64_t to = i + 1 < w->n ? cut_after(probe, plan->bounds[i + 1], end, width) : end;
        if (to <= from || to > end)
            return 0;
        w->jobs[i].start = from;
        w->jobs[i].end = to;
        from = to;
    }
    return 1;
}

/* Counts one chunk cut at line ends with a reader of its own: ok when the
 * reader read it without an error and, but for the last, ended every
 * record and comment line at a line end (see count_by_lines). */
static void count_line_chunk(void *jobs, size_t i)
{
    count_job *j = ((count_job **)jobs)[i];
    count_plan *p = j->plan;
    j->records = 0;
    j->ok = 0;
    if (stopped(p))
        return;
    simdsv_reader *sub = NULL;
    pread_feed feed;
    /* Counted on the stack: the count grows record by record on the slow
     * path, and the jobs share cache lines. */
    uint64_t records = 0;
    simdsv_status st = open_chunk_reader(p, j->start, j->end, &feed, &sub);
    if (st == SIMDSV_OK)
        st = simdsv_reader_count(sub, &records);
    j->records = records;
    j->ok = st == SIMDSV_OK && (j->end == p->bounds[p->n] || !sub->ended_by_input_end);
    simdsv_reader_free(sub);
    if (!j->ok)
        atomic_store_explicit(&p->stop, 1, memory_order_relaxed);
}

/* The dialects whose quote state is not the parity of the quotes before
 * (parity_dialect), and lenient inputs with a special byte: the input is
 * cut just after line ends (cut_at_lines) and each of the first `counted`
 * chunks is counted by a reader of its own over exactly its bytes, with the
 * full policy (slow path, lenient recovery, comment lines, escapes).
 *
 * Why the counts add up to the serial count: the serial reader is at a
 * record start at the base, in the state a fresh reader starts in; a
 * reader started there on the same bytes reads what the serial reader
 * reads, up to where its bytes end.  When chunk i's reader ended every
 * record and comment line it read at a line end, none depended on what
 * follows its bytes, and the serial reader ended one at the chunk's end
 * too (a line end outside quotes ends a record, or a comment line, in
 * every dialect; the LF of a CR LF pair is an empty line, which holds no
 * record).  So the chunk's end is a record start of the serial read, and
 * by induction every cut is.  A cut inside a quoted field leaves the chunk
 * before it inside quotes at its end: its reader reports the unterminated
 * quote, or in lenient mode ends the record there (ended_by_input_end), and
 * the count falls back to the serial path; so does any error (the serial
 * path reports it, with its position). */
static int count_by_lines(count_plan *plan, count_work *w, uint64_t *total)
{
    if (!cut_at_lines(plan, w))
        return 0;
    atomic_store(&plan->stop, 0);
    for (size_t i = 0; i < w->counted; i++)
        w->list[i] = &w->jobs[i];
    if (!simdsv__run_threads(w->a, w->counted, count_line_chunk, w->list) || atomic_load(&plan->stop))
        return 0;
    *total = 0;
    for (size_t i = 0; i < w->counted; i++)
        *total += w->jobs[i].records;
    return 1;
}

int simdsv__count_parallel(simdsv_reader *r, uint64_t *count)
{
    /* From a record start (a byte the kernel stopped at after it, such as
     * a comment line's marker after the header, changes nothing: the count
     * starts afresh there). */
    if (r->skipping || r->fatal || r->field_start != r->rec_start)
        return 0;
    const int threads = simdsv__thread_count(r->opt.threads);
    if (threads < 2)
        return 0;
    count_plan plan;
    const uint64_t chunk_min = simdsv__min_chunk(MIN_CHUNK);
    size_t window = WINDOW;
    if (chunk_min < MIN_CHUNK) { /* tests: small windows too */
        const uint64_t w = chunk_min / 2 / 64 * 64;
        window = w < 64 ? 64 : w > WINDOW ? WINDOW : (size_t)w;
    }
    plan_init(&plan, r, window);
    const uint64_t base = r->buf_origin + r->rec_start;
    uint64_t end;
    int by_parity = parity_dialect(r);
    const bool in_memory = ((r->src.kind == SOURCE_MEMORY || r->src.kind == SOURCE_MAPPED) && !r->src.streamed) || r->eof;
    if (in_memory) {
        plan.buf = r->buf;
        plan.origin = r->buf_origin;
        end = r->buf_origin + r->len;
        /* The whole file, mapped by the reader (not converted): its pages
         * leave on the thread that counted them, not all at the unmap on one. */
        if (r->src.kind == SOURCE_MAPPED && !r->src.streamed && r->buf == r->src.data)
            plan.mapped = &r->src;
    } else if (r->src.kind == SOURCE_FD && simdsv__source_plain(&r->src)) {
        /* A regular file, read from its current offset up to now. */
        struct stat st;
        if (fstat(r->src.fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0)
            return 0;
        const off_t at = lseek(r->src.fd, 0, SEEK_CUR);
        const uint64_t read_end = r->buf_origin + r->len; /* input offset of that file offset */
        if (at < 0 || (uint64_t)at < read_end || (uint64_t)st.st_size < (uint64_t)at)
            return 0;
        plan.fd = r->src.fd;
        plan.delta = (uint64_t)at - read_end;
        end = (uint64_t)st.st_size - plan.delta;
        if (sizeof(off_t) < 8 && (uint64_t)st.st_size >= ((uint64_t)1 << 31) - 1)
            return 0;
        /* Gaps between line ends are only bounded to within a piece; the
         * readers of chunks cut at line ends check records as the serial
         * count does. */
        if (r->opt.max_record_size && r->opt.max_record_size < PIECE + 128)
            by_parity = 0;
    } else {
        return 0;
    }
    if (end <= base)
        return 0;
    size_t n = (size_t)threads;
    if ((end - base) / chunk_min < n)
        n = (size_t)((end - base) / chunk_min);
    if (n < 2)
        return 0;

    const simdsv_allocator *a = &r->opt.alloc;
    count_work w = {a, plan.window, NULL, NULL, NULL, n, n};
    int ok = work_start(&w, &plan, base, end, NULL);
    for (size_t i = 0; ok && !plan.buf && i < n; i++) {
        w.jobs[i].win = simdsv__alloc(a, plan.window + WINDOW_EXTRA);
        if (!w.jobs[i].win)
            ok = 0;
        else
            w.jobs[i].page = w.jobs[i].win + (4096 - (uintptr_t)w.jobs[i].win % 4096) % 4096;
    }
    uint64_t total = 0, max_gap = 0;
    /* The one scan of the quote parities where it applies; else, or for a
     * lenient input that holds a special byte, the cuts at line ends. */
    const int parity_counted = ok && by_parity && count_all(&plan, &w, &total, &max_gap);
    ok = parity_counted || (ok && (!by_parity || r->opt.lenient) && count_by_lines(&plan, &w, &total));
    if (ok && !plan.buf) {
        /* The serial path would have caught a record over the size limit
         * in its buffer (within a block of 64 bytes); and the file must not
         * have grown since its size was taken. */
        const uint64_t gap = max_gap > PIECE ? max_gap : PIECE;
        if (parity_counted && r->opt.max_record_size && gap + 64 >= r->opt.max_record_size)
            ok = 0;
        uint8_t probe;
        ssize_t k;
        do
            k = pread(plan.fd, &probe, 1, (off_t)(end + plan.delta));
        while (k < 0 && errno == EINTR);
        if (k != 0)
            ok = 0;
    }
    work_free(&w);
    if (!ok)
        return 0;

    /* The state a serial count ends in. */
    if (plan.buf) {
        r->scan_pos = r->rec_start = r->field_start = r->len;
    } else {
        /* The buffer is emptied at the end of the file; nothing can be
         * reported past the end, so the line checkpoint is moved there
         * without counting the lines in between. */
        r->buf_origin = end;
        r->len = r->scan_pos = r->rec_start = r->field_start = 0;
        r->utf8_pos = 0;
        r->eof = true;
        r->line_offset = end;
        r->line_after_cr = 0;
        (void)lseek(plan.fd, (off_t)(end + plan.delta), SEEK_SET);
    }
    r->index_i = r->index_n = 0;
    r->special_pending = false;
    r->scanned_all = true;
    scan_state_reset(&r->ss);
    r->nfields = 0;
    r->unescape_len = 0;
    *count += total;
    r->records_emitted += total;
    r->physical_records += total;
    atomic_fetch_add_explicit(&parallel_counts, 1, memory_order_relaxed);
    if (!parity_counted)
        atomic_fetch_add_explicit(&line_cut_counts, 1, memory_order_relaxed);
    return 1;
}

int simdsv__count_chunks(const simdsv_reader *r, const uint8_t *data, size_t size, size_t n, const uint64_t *raw,
                         uint64_t *starts, uint64_t *records)
{
    if (n < 2 || size < n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (raw[i] > raw[i + 1] || raw[i + 1] > size)
            return 0; /* (the chunks read [raw[i], raw[i + 1]) ) */
    count_plan plan;
    plan_init(&plan, r, WINDOW);
    plan.buf = data;
    plan.origin = 0;
    /* Without the last chunk, the one before it is still counted up to the
     * first record start after its raw end (it is not the last): that is
     * where the last chunk starts. */
    const size_t counted = n - 1;
    count_work w = {&r->opt.alloc, plan.window, NULL, NULL, NULL, n, counted};
    int ok = work_start(&w, &plan, 0, size, raw);
    uint64_t total = 0, max_gap = 0;
    const int by_parity = parity_dialect(r);
    const int parity_counted = ok && by_parity && count_all(&plan, &w, &total, &max_gap);
    if (!parity_counted)
        ok = ok && (!by_parity || r->opt.lenient) && count_by_lines(&plan, &w, &total);
    if (ok)
        ok = parity_counted ? SIMDSV__CUT_BY_PARITY : SIMDSV__CUT_AT_LINES;
    for (size_t i = 0; ok && i < counted; i++) {
        starts[i] = w.jobs[i].start;
        records[i] = w.jobs[i].records;
    }
    if (ok) {
        starts[n - 1] = w.jobs[n - 2].end;
        starts[n] = size;
        records[n - 1] = 0;
    }
    work_free(&w);
    return ok;
}

uint64_t simdsv__chunk_bound(const simdsv_reader *r, const uint8_t *data, size_t size, uint64_t raw)
{
    if (parity_dialect(r) && !r->opt.lenient)
        return raw;
    count_plan plan;
    plan_init(&plan, r, WINDOW);
    plan.buf = data;
    plan.origin = 0;
    count_job probe;
    memset(&probe, 0, sizeof probe);
    probe.plan = &plan;
    const uint64_t start = cut_after(&probe, raw, size, first_width(&probe, 0, size));
    return start ? start - 1 : raw;
}

/* The first record start in (from, limit] under quote state h at `from`,
 * found with the count kernel (64 bytes at a time) rather than a byte
 * loop; prev_byte (-1: none) sets the kernel's state before `from`.
 * Returns 1 with *found, or 0 when there is none: no line end outside
 * quotes, or the kernel stopped at a special byte.  The latter is safe: if
 * h is the wrong state nothing reads the answer, and if it is the true one
 * the bytes are irregular there, so the range is said to hold no record,
 * and the reader of the range before reads through it under the serial
 * policy (reporting the error, or the records, exactly as a whole read).
 * A wrong guess on real data stops within a record or two (misplaced
 * quotes), which is what makes this fast where the byte loop would walk
 * the whole range. */
static int find_record_start_kernel(count_job *j, uint64_t from, uint64_t limit, int h, int prev_byte,
                                    uint64_t *found)
{
    const count_plan *p = j->plan;
    const int line_end = prev_byte == '\n' || prev_byte == '\r';
    scan_state s;
    scan_state_reset(&s);
    s.in_quote = h ? ~(uint64_t)0 : 0;
    s.after_sep = !h && (line_end || prev_byte == p->dialect.delimiter);
    s.after_term = !h && line_end;
    s.after_close = !h && prev_byte == p->quote;
    size_t piece = 4096; /* usually a line end is near: scan little first */
    for (uint64_t pos = from; pos < limit;) {
        const size_t n = limit - pos <= piece ? (size_t)(limit - pos) : piece;
        const scan_state before = s;
        const uint8_t *b = view(j, pos, n);
        const scan_result res = p->kernel->scan_count(&p->dialect, &s, b, n, pos + n == limit, NULL);
        if (res.stopped || res.consumed != n)
            return 0;
        if (res.last_term_end || res.record_ends) {
            int parity = 0; /* (not needed) */
            return find_record_start(j, pos, pos + n, (int)(before.in_quote & 1), found, &parity) > 0;
        }
        pos += n;
        if (piece < p->window)
            piece *= 2;
    }
    return 0;
}

/* ------------------------------------------- byte ranges by the record grammar */

/* The states of the reader's record grammar (slow.c, parse and
 * parse_fields) as an automaton over bytes, for the byte ranges of the
 * dialects whose quote state is not the quote parity (parity_dialect,
 * lenient mode).  slow.c looks ahead for a delimiter or comment marker of
 * several bytes; here the bytes matched so far are a state of their own,
 * and a mismatch reads them again from where the lookahead would have
 * (they were text), so that every byte boundary has one state.  The
 * boundaries are those of strict mode too: it parses leniently and only
 * reports the first departure, and nothing after the first error is read. */
enum {
    G_START,       /* at the input's start, where a BOM may be */
    G_BOM,         /* + k - 1: k bytes of a BOM at the input's start (k < 3) */
    G_RECORD = G_BOM + 2, /* at a record start (after a line end outside quotes) */
    G_FIELD,       /* at a field's start */
    G_UNQUOTED,    /* in an unquoted field */
    G_QUOTED,      /* in a quoted field */
    G_ESCAPED,     /* after an escape byte in quotes */
    G_QUOTE,       /* after a quote in quotes (the closing one, or the first of two) */
    G_SPACES,      /* trimmed spaces after a closing quote */
    G_COMMENT,     /* in a comment line */
    G_MARKER,      /* + k - 1: k bytes of a comment marker of several bytes (k < 4) */
    G_DELIM = G_MARKER + 3, /* + k - 1: k bytes of a delimiter of several bytes */
    G_KINDS = G_DELIM + 3
};

_Static_assert(G_KINDS <= SIMDSV_RANGE_STATES, "a summary holds every state of the grammar");

/* Entries of each of the K-byte tables (below), at most. */
#define GROUP_TABLE 8192

typedef struct grammar {
    const simdsv_reader *r;
    uint8_t index[G_KINDS]; /* a kind's state number, 0xff while not reached */
    uint8_t kind[G_KINDS];
    size_t states;
    uint8_t next[G_KINDS][256];
    /* Bytes that act alike in every state past the input's start (most
     * bytes: all but the delimiter, line ends, quote, escape, ...) are one
     * class; `group` bytes at a time, as one index of classes, the state
     * whose row starts at s * span goes to the state whose row starts at
     * jump[s * span + index], and first[...] is 1 + the offset of the byte
     * after which it first enters the record start state in them (0: it
     * does not).  The chain of dependent loads is what limits a walk, so
     * `group` bytes per load (rows, not states: no multiply in the chain)
     * is several times the speed of one. */
    uint8_t cls[256];
    size_t classes, group, span; /* span = classes ^ group */
    uint16_t weighed[8][256];    /* byte c at offset i of a group: cls[c] * classes ^ (group - 1 - i) */
    uint16_t *jump;              /* NULL: byte by byte */
    uint8_t *first;
} grammar;

static int is_line_end(int c)
{
    return c == '\n' || c == '\r';
}

/* A delimiter's first byte, read where separator_at looks for one. */
static int g_delimiter(const simdsv_reader *r)
{
    return r->opt.delimiter_len == 1 ? G_FIELD : G_DELIM;
}

/* The state after byte c in state g: slow.c's transitions, in its order. */
static int g_step(const simdsv_reader *r, int g, int c)
{
    const scan_dialect *d = &r->dialect;
    const int quote = d->has_quote ? d->quote : 256;
    static const uint8_t bom[3] = {0xEF, 0xBB, 0xBF};
    switch (g) {
    case G_START:
        return c == bom[0] ? G_BOM : g_step(r, G_RECORD, c);
    case G_BOM:
    case G_BOM + 1:
        if (c == bom[g - G_BOM + 1])
            return g == G_BOM + 1 ? G_RECORD : g + 1;
        /* Not a BOM: those bytes are the first record's. */
        {
            int s = G_RECORD;
            for (int i = 0; i <= g - G_BOM; i++)
                s = g_step(r, s, bom[i]);
            return g_step(r, s, c);
        }
    case G_RECORD:
        if (is_line_end(c))
            return G_RECORD; /* empty lines hold no record */
        if (d->has_comment && c == r->opt.comment_seq[0])
            return r->opt.comment_len == 1 ? G_COMMENT : G_MARKER;
        return g_step(r, G_FIELD, c);
    case G_FIELD:
    case G_UNQUOTED:
        if (g == G_FIELD && c == ' ' && r->opt.trim_spaces)
            return G_FIELD;
        if (g == G_FIELD && c == quote)
            return G_QUOTED;
        if (c == d->delimiter)
            return g_delimiter(r);
        return is_line_end(c) ? G_RECORD : G_UNQUOTED;
    case G_QUOTED:
        if (d->has_escape && c == d->escape)
            return G_ESCAPED;
        return c == quote ? G_QUOTE : G_QUOTED;
    case G_ESCAPED:
        return G_QUOTED;
    case G_QUOTE:
    case G_SPACES:
        if (g == G_QUOTE && c == quote)
            return G_QUOTED; /* a doubled quote */
        if (c == ' ' && r->opt.trim_spaces)
            return G_SPACES;
        if (c == d->delimiter)
            return g_delimiter(r);
        return is_line_end(c) ? G_RECORD : G_UNQUOTED; /* text after the quote: the field goes on unquoted */
    case G_COMMENT:
        return is_line_end(c) ? G_RECORD : G_COMMENT;
    default:
        break;
    }
    if (g >= G_DELIM) {
        const int k = g - G_DELIM + 1;
        if (c == r->opt.delimiter_seq[k])
            return k + 1 == r->opt.delimiter_len ? G_FIELD : g + 1;
        /* Not a delimiter: its first byte was text of an unquoted field
         * (whatever state it was read in: slow.c reads quotes and trimmed
         * spaces before it looks for a delimiter). */
        int s = G_UNQUOTED;
        for (int i = 1; i < k; i++)
            s = g_step(r, s, r->opt.delimiter_seq[i]);
        return g_step(r, s, c);
    }
    const int k = g - G_MARKER + 1;
    if (c == r->opt.comment_seq[k])
        return k + 1 == r->opt.comment_len ? G_COMMENT : g + 1;
    /* Not the marker: an ordinary record from its first byte. */
    int s = g_step(r, G_FIELD, r->opt.comment_seq[0]);
    for (int i = 1; i < k; i++)
        s = g_step(r, s, r->opt.comment_seq[i]);
    return g_step(r, s, c);
}

/* The states reachable from the input's start, numbered in the order found
 * (G_START is 0, G_RECORD 1 or more), their table, the byte classes and
 * the group tables (left NULL when they cannot be allocated). */
static void grammar_build(grammar *gr, const simdsv_reader *r)
{
    memset(gr->index, 0xff, sizeof gr->index);
    gr->r = r;
    gr->kind[0] = G_START;
    gr->index[G_START] = 0;
    gr->states = 1;
    for (size_t i = 0; i < gr->states; i++)
        for (int c = 0; c < 256; c++) {
            const int to = g_step(r, gr->kind[i], c);
            if (gr->index[to] == 0xff && gr->states < G_KINDS) { /* (always: every kind is one state) */
                gr->index[to] = (uint8_t)gr->states;
                gr->kind[gr->states++] = (uint8_t)to;
            }
            gr->next[i][c] = gr->index[to];
        }
    /* Classes: bytes whose transitions agree in every state but the
     * input's start and the BOM's (a walk leaves those in its first three
     * bytes, byte by byte). */
    uint8_t first_of[256]; /* a byte of each class */
    gr->classes = 0;
    for (int c = 0; c < 256; c++) {
        size_t k = 0;
        for (; k < gr->classes; k++) {
            size_t s = 0;
            while (s < gr->states && (gr->kind[s] < G_RECORD || gr->next[s][c] == gr->next[s][first_of[k]]))
                s++;
            if (s == gr->states)
                break;
        }
        if (k == gr->classes)
            first_of[gr->classes++] = (uint8_t)c;
        gr->cls[c] = (uint8_t)k;
    }
    gr->group = 1;
    gr->span = gr->classes;
    while (gr->group < 8 && gr->span * gr->classes * gr->states <= GROUP_TABLE) {
        gr->group++;
        gr->span *= gr->classes;
    }
    for (size_t i = 0, weight = gr->span / gr->classes; i < gr->group; i++, weight /= gr->classes)
        for (int c = 0; c < 256; c++)
            gr->weighed[i][c] = (uint16_t)(gr->cls[c] * weight);
    gr->jump = NULL;
    const size_t size = gr->states * gr->span;
    if (gr->group < 2 || !(gr->jump = simdsv__alloc(&r->opt.alloc, 3 * size)))
        return;
    gr->first = (uint8_t *)(gr->jump + size);
    const uint8_t record = gr->index[G_RECORD];
    for (size_t s = 0; s < gr->states; s++)
        for (size_t idx = 0; idx < gr->span; idx++) {
            uint8_t g = (uint8_t)s, hit = 0;
            for (size_t i = 0, rest = idx, div = gr->span / gr->classes; i < gr->group; i++, div /= gr->classes) {
                g = gr->next[g][first_of[rest / div]];
                rest %= div;
                if (g == record && !hit)
                    hit = (uint8_t)(i + 1);
            }
            gr->jump[s * gr->span + idx] = (uint16_t)(g * gr->span);
            gr->first[s * gr->span + idx] = hit;
        }
}

static void grammar_free(grammar *gr)
{
    if (gr->jump)
        simdsv__free(&gr->r->opt.alloc, gr->jump, 3 * gr->states * gr->span);
}

/* Every state a range's begin can be in, followed through the range at
 * once: the states' walks join as soon as two reach the same state (on
 * real data within a record or two), so most of the range is walked once
 * or twice, `group` bytes per step.  A walk's first entry into the record
 * start state after begin is its record start. */
typedef struct grammar_walks {
    size_t n, walks;
    uint8_t walk_of[SIMDSV_RANGE_STATES]; /* the walk each begin state follows */
    uint8_t at[SIMDSV_RANGE_STATES];      /* walk w's state */
    uint8_t waiting[SIMDSV_RANGE_STATES]; /* walk w has a begin state without a record start */
} grammar_walks;

/* Walk w entered the record start state just before input offset `start`. */
static void walk_found(grammar_walks *gw, size_t w, uint64_t start, simdsv_range_summary *out)
{
    for (size_t h = 0; h < gw->n; h++)
        if (gw->walk_of[h] == w && out->record_start[h] == UINT64_MAX)
            out->record_start[h] = start;
    gw->waiting[w] = 0;
}

/* Walks in the same state go on as one. */
static void walks_join(grammar_walks *gw)
{
    for (size_t w = 1; w < gw->walks; w++) {
        size_t v = 0;
        while (v < w && gw->at[v] != gw->at[w])
            v++;
        if (v == w)
            continue;
        gw->waiting[v] |= gw->waiting[w];
        for (size_t h = 0; h < gw->n; h++)
            gw->walk_of[h] = gw->walk_of[h] == w  ? (uint8_t)v
                             : gw->walk_of[h] > w ? (uint8_t)(gw->walk_of[h] - 1)
                                                  : gw->walk_of[h];
        memmove(gw->at + w, gw->at + w + 1, gw->walks - w - 1);
        memmove(gw->waiting + w, gw->waiting + w + 1, gw->walks - w - 1);
        gw->walks--;
        w--;
    }
}

/* Every walk one byte further (data[k] is input offset begin + k). */
static void walks_byte(const grammar *gr, grammar_walks *gw, const uint8_t *data, size_t k, uint64_t begin,
                       simdsv_range_summary *out)
{
    const uint8_t record = gr->index[G_RECORD];
    for (size_t w = 0; w < gw->walks; w++) {
        gw->at[w] = gr->next[gw->at[w]][data[k]];
        if (gw->at[w] == record && gw->waiting[w])
            walk_found(gw, w, begin + k + 1, out);
    }
}

/* The classes of p[0..group) as one index. */
static inline size_t group_index(const grammar *gr, const uint8_t *p)
{
    size_t idx = 0;
    for (size_t i = 0; i < gr->group; i++)
        idx += gr->weighed[i][p[i]];
    return idx;
}

/* Walk a, and b when `two`, through the groups of data[pos..stop), G bytes
 * each (a constant: the loop unrolls). */
#define WALK_GROUPS(G)                                                                                           \
    if (two)                                                                                                     \
        for (; stop - pos >= (G); pos += (G)) {                                                                  \
            size_t idx = 0;                                                                                      \
            for (size_t i = 0; i < (G); i++)                                                                     \
                idx += gr->weighed[i][data[pos + i]];                                                            \
            a = jump[a + idx];                                                                                   \
            b = jump[b + idx];                                                                                   \
        }                                                                                                        \
    else                                                                                                         \
        for (; stop - pos >= (G); pos += (G)) {                                                                  \
            size_t idx = 0;                                                                                      \
            for (size_t i = 0; i < (G); i++)                                                                     \
                idx += gr->weighed[i][data[pos + i]];                                                            \
            a = jump[a + idx];                                                                                   \
        }

static void grammar_summary(const grammar *gr, const uint8_t *data, size_t size, uint64_t begin,
                            simdsv_range_summary *out)
{
    grammar_walks gw;
    gw.n = gw.walks = gr->states < G_KINDS ? gr->states : G_KINDS; /* (always the former) */
    for (size_t h = 0; h < gw.n; h++) {
        gw.walk_of[h] = gw.at[h] = (uint8_t)h;
        gw.waiting[h] = 1;
        out->record_start[h] = UINT64_MAX;
    }
    size_t pos = 0;
    /* The input's start and a BOM are left within three bytes, byte by byte. */
    for (; pos < size && pos < 3; pos++)
        walks_byte(gr, &gw, data, pos, begin, out);
    walks_join(&gw);
    const size_t group = gr->jump ? gr->group : 1;
    while (pos < size) {
        /* Joins are looked for every 64 bytes while there is more than one
         * walk (or a record start to find); one walk runs on. */
        int busy = gw.walks > 1;
        for (size_t w = 0; w < gw.walks; w++)
            busy |= gw.waiting[w];
        const size_t block = busy ? 64 : (size_t)64 << 10;
        const size_t stop = size - pos < block ? size : pos + block;
        if (!gr->jump) {
            for (; pos < stop; pos++)
                walks_byte(gr, &gw, data, pos, begin, out);
        } else {
            size_t row[SIMDSV_RANGE_STATES] = {0};
            int waiting = 0;
            for (size_t w = 0; w < gw.walks; w++) {
                row[w] = gw.at[w] * gr->span;
                waiting |= gw.waiting[w];
            }
            const uint16_t *jump = gr->jump;
            if (gw.walks <= 2 && !waiting) {
                /* The usual case: the walks have joined (two: inside
                 * quotes or not, in a file where they never meet).  The
                 * rows in locals: the chain is one load per group. */
                const int two = gw.walks == 2;
                size_t a = row[0], b = row[1];
                switch (group) {
                case 2: WALK_GROUPS(2) break;
                case 3: WALK_GROUPS(3) break;
                case 4: WALK_GROUPS(4) break;
                case 5: WALK_GROUPS(5) break;
                case 6: WALK_GROUPS(6) break;
                case 7: WALK_GROUPS(7) break;
                default: WALK_GROUPS(8) break;
                }
                row[0] = a;
                row[1] = b;
            } else {
                for (; stop - pos >= group; pos += group) {
                    const size_t idx = group_index(gr, data + pos);
                    for (size_t w = 0; w < gw.walks; w++) {
                        if (gw.waiting[w] && gr->first[row[w] + idx])
                            walk_found(&gw, w, begin + pos + gr->first[row[w] + idx], out);
                        row[w] = jump[row[w] + idx];
                    }
                }
            }
            for (size_t w = 0; w < gw.walks; w++)
                gw.at[w] = (uint8_t)(row[w] / gr->span);
            for (; pos < stop; pos++)
                walks_byte(gr, &gw, data, pos, begin, out);
        }
        walks_join(&gw);
    }
    for (size_t h = 0; h < gw.n; h++)
        out->end_state[h] = gw.at[gw.walk_of[h]];
}

/* Just past the header row's line end, read from the input's start: the
 * first record that is neither an empty line nor a comment line; 0 when it
 * does not end in data[0..size). */
static uint64_t grammar_header_end(const grammar *gr, const uint8_t *data, size_t size)
{
    const uint8_t record = gr->index[G_RECORD];
    uint8_t g = 0;
    for (size_t at = 0; at < size; at++) {
        const uint8_t was = g;
        g = gr->next[g][data[at]];
        if (g == record && was != record && gr->kind[was] != G_COMMENT && gr->kind[was] >= G_RECORD)
            return at + 1;
    }
    return 0;
}

/* --------------------------------------------------------------- byte ranges */

/* The summary where the quote state is the parity of the quotes before. */
static void parity_summary(const simdsv_reader *r, const uint8_t *data, size_t size, uint64_t begin, int prev_byte,
                           simdsv_range_summary *out)
{
    count_plan plan;
    plan_init(&plan, r, WINDOW);
    plan.buf = data;
    plan.origin = begin;
    atomic_init(&plan.stop, 0);
    count_job job;
    memset(&job, 0, sizeof job);
    job.plan = &plan;
    /* Lines and quotes piece by piece: the second pass reads from cache. */
    uint64_t after_cr = prev_byte == '\r', quotes = 0;
    for (size_t at = 0; at < size; at += PIECE) {
        const size_t n = size - at < PIECE ? size - at : PIECE;
        out->lines += r->kernel->count_lines(data + at, n, &after_cr);
        quotes += count_byte(data + at, n, plan.quote);
    }
    out->states = 2; /* outside quotes, inside */
    out->end_state[0] = (uint8_t)(quotes & 1);
    out->end_state[1] = (uint8_t)(~quotes & 1);
    for (int h = 0; h < 2; h++) {
        uint64_t found = UINT64_MAX;
        if (begin == 0) {
            found = h == 0 ? 0 : UINT64_MAX; /* the input starts outside quotes, at a record */
        } else if (h == 1 && quotes == 0) {
            found = UINT64_MAX; /* inside quotes with no quote ahead: no record starts here */
        } else if (!find_record_start_kernel(&job, begin, begin + size, h, prev_byte, &found)) {
            found = UINT64_MAX;
        }
        out->record_start[h] = found;
        if (found != UINT64_MAX) {
            uint64_t lines_cr = prev_byte == '\r';
            out->lines_to_start[h] = r->kernel->count_lines(data, (size_t)(found - begin), &lines_cr);
            out->after_cr[h] = found > begin && data[found - begin - 1] == '\r';
        }
    }
    if (begin == 0 && r->opt.header) {
        /* The header row is the first record: after the BOM and blank lines. */
        size_t at = size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
        while (at < size && (data[at] == '\n' || data[at] == '\r'))
            at++;
        int parity = 0;
        if (find_record_start(&job, at, size, 0, &out->header_end, &parity) <= 0)
            out->header_end = UINT64_MAX;
    }
}

void simdsv__range_summary(const simdsv_reader *r, const uint8_t *data, size_t size, uint64_t begin, int prev_byte,
                           simdsv_range_summary *out)
{
    memset(out, 0, sizeof *out);
    out->begin = begin;
    out->end = begin + size;
    if (parity_dialect(r) && !r->opt.lenient) {
        parity_summary(r, data, size, begin, prev_byte, out);
        return;
    }
    grammar gr;
    grammar_build(&gr, r);
    out->states = (uint8_t)gr.states;
    grammar_summary(&gr, data, size, begin, out);
    uint64_t after_cr = prev_byte == '\r';
    for (size_t at = 0; at < size; at += PIECE)
        out->lines += r->kernel->count_lines(data + at, size - at < PIECE ? size - at : PIECE, &after_cr);
    if (begin == 0)
        out->record_start[0] = 0; /* the input's start is a record start */
    for (size_t h = 0; h < gr.states; h++) {
        const uint64_t found = out->record_start[h];
        if (found == UINT64_MAX || found == begin)
            continue;
        uint64_t lines_cr = prev_byte == '\r';
        out->lines_to_start[h] = r->kernel->count_lines(data, (size_t)(found - begin), &lines_cr);
        out->after_cr[h] = data[found - begin - 1] == '\r';
    }
    if (begin == 0 && r->opt.header) {
        /* The header row is the first record: after the BOM, empty lines and comment lines. */
        const uint64_t end = grammar_header_end(&gr, data, size);
        out->header_end = end ? end : UINT64_MAX;
    }
    grammar_free(&gr);
}
