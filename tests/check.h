/*
 * check.h — the few lines the stand-alone tests share (test_table,
 * test_hostile, test_alloc): a CHECK that counts and reports, and the
 * closing "N passed, N failed" line that ctest logs show.
 */
#ifndef SIMDSV_TEST_CHECK_H
#define SIMDSV_TEST_CHECK_H

#include <stdio.h>

static int passed, failed;

#define CHECK(cond)                                                                                              \
    do {                                                                                                         \
        if (cond) {                                                                                              \
            passed++;                                                                                            \
        } else {                                                                                                 \
            failed++;                                                                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                             \
        }                                                                                                        \
    } while (0)

/* Prints the summary; the exit status for main. */
static inline int check_summary(void)
{
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

#endif
