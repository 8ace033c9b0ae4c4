/*
 * check.h — the one assertion harness of the C tests, compiled once
 * (check.c, the simdsv_check library every test links).
 *
 *   CHECK(cond)                   a pass, or FILE:LINE and the expression
 *   CHECK_MSG(cond, fmt, ...)     the same with an explanation (printf format)
 *   CHECK_EQ_U64(a, b), CHECK_EQ_INT(a, b), CHECK_STR(a, b),
 *   CHECK_MEM(a, alen, b, blen), CHECK_STATUS(got, want)
 *                                 both values on a failure
 *   FAIL_MSG(fmt, ...), PASS()    a failure / a pass counted by hand
 *   h_context(fmt, ...)           what is being tested, printed with every
 *                                 failure until changed (NULL clears it)
 *   check_summary()               prints "N passed, N failed"; the exit status
 *
 * Failures past the first 200 are counted, not printed.
 */
#ifndef SIMDSV_TEST_CHECK_H
#define SIMDSV_TEST_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "simdsv.h"

#if defined(__GNUC__)
#define H_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define H_PRINTF(f, a)
#endif

extern int h_passed;
extern int h_failed;

void h_context(const char *fmt, ...) H_PRINTF(1, 2);
/* Counts a failure and prints its place; 1 when its details should follow. */
int h_fail(const char *file, int line);
int h_check(int ok, const char *file, int line, const char *expr);
int h_check_msg(int ok, const char *file, int line, const char *fmt, ...) H_PRINTF(4, 5);
int h_check_u64(uint64_t a, uint64_t b, const char *file, int line, const char *ea, const char *eb);
int h_check_int(int64_t a, int64_t b, const char *file, int line, const char *ea, const char *eb);
int h_check_str(const char *a, const char *b, const char *file, int line, const char *ea, const char *eb);
int h_check_mem(const void *a, size_t alen, const void *b, size_t blen, const char *file, int line, const char *ea,
                const char *eb);
int h_check_status(simdsv_status a, simdsv_status b, const char *file, int line, const char *ea, const char *eb);
/* Prints bytes as a C-like string literal. */
void h_print_bytes(FILE *f, const void *data, size_t size);
int check_summary(void);

#define CHECK(cond) h_check((cond) != 0, __FILE__, __LINE__, #cond)
#define CHECK_MSG(cond, ...) h_check_msg((cond) != 0, __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_EQ_U64(a, b) h_check_u64((uint64_t)(a), (uint64_t)(b), __FILE__, __LINE__, #a, #b)
#define CHECK_EQ_INT(a, b) h_check_int((int64_t)(a), (int64_t)(b), __FILE__, __LINE__, #a, #b)
#define CHECK_STR(a, b) h_check_str((a), (b), __FILE__, __LINE__, #a, #b)
#define CHECK_MEM(a, alen, b, blen) h_check_mem((a), (alen), (b), (blen), __FILE__, __LINE__, #a, #b)
#define CHECK_STATUS(a, b) h_check_status((a), (b), __FILE__, __LINE__, #a, #b)
#define FAIL_MSG(...) ((void)h_check_msg(0, __FILE__, __LINE__, __VA_ARGS__))
#define PASS() ((void)h_passed++)

#endif
