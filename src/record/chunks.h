/*
 * chunks.h — the chunk planner (chunks.c): simdsv_reader_count on several
 * threads and the range summary (the typed reader's entry is in access.h).
 */
#ifndef SIMDSV_CHUNKS_H
#define SIMDSV_CHUNKS_H

#include "reader.h"

/* Counts the records from r->rec_start to the end of the input on
 * SIMDSV_OPT_THREADS threads, when the source, the dialect and the size allow
 * it and every chunk scans cleanly.  Returns 1 when it did: *count,
 * records_emitted and physical_records have grown by the records counted and
 * the reader is at the end of its input, as after the serial count.  Returns
 * 0 when the serial count must run (the reader is then untouched): one thread,
 * an input under two chunks, a stream other than a regular file, an error or
 * a cut that cannot be proven (a special byte where the quote parities cut,
 * the input ending inside quotes, a cut inside a quoted field), a failed
 * allocation or read.  Every dialect. */
int simdsv__count_parallel(simdsv_reader *r, uint64_t *count);

/* The summary of the range data[0..size) = input [begin, begin + size) (see
 * simdsv_range_summarize), with r's kernel and dialect: by the chunks' own
 * record-start search and quote count where the quote state is the quote
 * parity, else by the reader's record grammar followed from every state. */
void simdsv__range_summary(const simdsv_reader *r, const uint8_t *data, size_t size, uint64_t begin, int prev_byte,
                           simdsv_range_summary *out);

/* For the tests: how many counts ran in parallel, and how many chunks were
 * scanned a second time because their guessed starting quote state was
 * wrong, since the program started (relaxed atomic counters; they change
 * nothing else).  The environment variable SIMDSV_TEST_COUNT_CHUNK=BYTES
 * (tests only, simdsv__min_chunk) lowers the minimum chunk size from 4 MiB
 * so that small inputs are split too, and the read window of a file with
 * it; it lowers the typed reader's (1 MiB) too. */
void simdsv__count_parallel_stats(uint64_t *parallel_counts, uint64_t *rescanned_chunks);
/* For the tests: how many of those counts were cut at line ends (the
 * dialects whose quote state is not the quote parity, lenient inputs with
 * a special byte) rather than by the quote parities. */
void simdsv__count_line_cut_stats(uint64_t *line_cut_counts);

#endif
