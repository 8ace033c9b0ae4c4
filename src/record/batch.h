/*
 * batch.h — many regular records at once from the kernel's index (batch.c).
 */
#ifndef SIMDSV_BATCH_H
#define SIMDSV_BATCH_H

#include "reader.h"

/*
 * Takes up to max_rows complete records of exactly `fields` fields that lie
 * in the current index, and returns how many it took (0: read the next record
 * with simdsv_reader_next).  For row k, pos[k * (fields + 1) + j] is the
 * buffer offset, relative to *origin, where field j starts; entry `fields` is
 * where the next record starts (after the line end).  So field j spans
 * [*origin + pos[j], *origin + pos[j + 1] - 1) in r->buf, opening quote and
 * closing quote included.  pos holds pos_cap entries.
 */
size_t simdsv__reader_batch(simdsv_reader *r, size_t fields, size_t max_rows, uint32_t *pos, size_t pos_cap,
                            size_t *origin);

#endif
