/* threads.c — the one way the library runs work on several threads (the
 * parallel count, the typed reader's chunks, the writers' columns): n calls
 * of fn, the first on the caller's thread, the others on threads started
 * for them (or on the caller's thread when one cannot start), all joined
 * before it returns; and how many threads a request gets. */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <pthread.h>
#include <unistd.h>

typedef struct thread_call {
    void (*fn)(void *ctx, size_t i);
    void *ctx;
    size_t i;
} thread_call;

static void *run_call(void *arg)
{
    const thread_call *c = arg;
    c->fn(c->ctx, c->i);
    return NULL;
}

int simdsv__run_threads(const simdsv_allocator *a, size_t n, void (*fn)(void *ctx, size_t i), void *ctx)
{
    if (n == 0)
        return 1;
    pthread_t *ids = simdsv__alloc(a, n * sizeof *ids);
    thread_call *calls = simdsv__alloc(a, n * sizeof *calls);
    if (!ids || !calls) {
        simdsv__free(a, ids, n * sizeof *ids);
        simdsv__free(a, calls, n * sizeof *calls);
        return 0;
    }
    size_t started = 1;
    for (size_t i = 0; i < n; i++)
        calls[i] = (thread_call){fn, ctx, i};
    for (; started < n; started++)
        if (pthread_create(&ids[started], NULL, run_call, &calls[started]) != 0)
            break;
    fn(ctx, 0);
    for (size_t i = started; i < n; i++)
        fn(ctx, i);
    for (size_t i = 1; i < started; i++)
        pthread_join(ids[i], NULL);
    simdsv__free(a, ids, n * sizeof *ids);
    simdsv__free(a, calls, n * sizeof *calls);
    return 1;
}

/* Every parallel part stops here: more threads than this only add start-up
 * cost and buffers. */
#define MAX_THREADS 256

static int online_cores(void)
{
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)(online < MAX_THREADS ? online : MAX_THREADS) : 1;
}

int simdsv__thread_count(int requested)
{
    if (requested > 0)
        return requested < MAX_THREADS ? requested : MAX_THREADS;
    return online_cores();
}
