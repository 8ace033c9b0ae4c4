/* fuzz_reader.c — the streaming reader on arbitrary bytes and options: must
 * never crash, hang, leak or read out of bounds (the sanitizers check),
 * batches must hold what next() yields, count must agree with it, and a
 * skip before each record must leave out only records, counted. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_config c = fuzz_decode(data, size);
    const uint8_t *csv = data + (size < FUZZ_HEADER_BYTES ? size : FUZZ_HEADER_BYTES);
    const size_t n = size - (size_t)(csv - data);
    /* Batches hold exactly the records, flags and errors of next(). */
    transcript t = {0}, batched = {0};
    fuzz_transcribe(&c, SIMDSV_KERNEL_AUTO, csv, n, 1, 0, &t);
    fuzz_transcribe(&c, SIMDSV_KERNEL_AUTO, csv, n, 1, 1, &batched);
    FUZZ_ASSERT(t.len == batched.len && memcmp(t.data, batched.data, t.len) == 0);
    free(t.data);
    free(batched.data);

    /* count == number of OK records from next(), when no error occurs. */
    simdsv_options *o = fuzz_options(&c, SIMDSV_KERNEL_AUTO);
    simdsv_reader *a = NULL, *b = NULL;
    if (simdsv_reader_new(&a, o) == SIMDSV_OK && simdsv_reader_new(&b, o) == SIMDSV_OK) {
        simdsv_reader_open_memory(a, csv, n);
        simdsv_reader_open_memory(b, csv, n);
        uint64_t counted = 0, records = 0;
        const simdsv_status cs = simdsv_reader_count(a, &counted);
        simdsv_record rec;
        simdsv_status st;
        while ((st = simdsv_reader_next(b, &rec)) == SIMDSV_OK)
            records++;
        if (cs == SIMDSV_OK && st == SIMDSV_END)
            FUZZ_ASSERT(counted == records);
        if (st == SIMDSV_END && (c.utf8 == SIMDSV_UTF8_NONE || c.utf8 == SIMDSV_UTF8_LOSSY))
            FUZZ_ASSERT(cs == SIMDSV_OK); /* count does not check UTF-8; nothing else can fail it */
    }
    simdsv_reader_free(a);
    simdsv_reader_free(b);

    /* A skip before every record leaves out only records next() gives, and
     * counts them: indexes go on, and kept + skipped == next()'s records. */
    simdsv_reader *s = NULL;
    if (n && simdsv_reader_new(&s, o) == SIMDSV_OK && simdsv_reader_open_memory(s, csv, n) == SIMDSV_OK) {
        const size_t at = n / 2, len = 1 + n % 3 < n - at ? 1 + n % 3 : n - at;
        uint64_t skipped = 0, kept = 0, all = 0;
        simdsv_status ss = SIMDSV_OK;
        for (size_t guard = 0; guard <= n + 1 && (ss == SIMDSV_OK || fuzz_is_data_error(ss)); guard++) {
            if (simdsv_reader_skip(s, csv + at, len, (n & 1) ? SIMDSV_SKIP_ICASE : 0, &skipped) != SIMDSV_OK)
                break;
            simdsv_record rec;
            if ((ss = simdsv_reader_next(s, &rec)) == SIMDSV_OK) {
                FUZZ_ASSERT(rec.index == kept + skipped);
                kept++;
            }
        }
        simdsv_reader *r = NULL;
        if (ss == SIMDSV_END && simdsv_reader_new(&r, o) == SIMDSV_OK &&
            simdsv_reader_open_memory(r, csv, n) == SIMDSV_OK) {
            simdsv_record rec;
            simdsv_status st = SIMDSV_OK;
            for (size_t guard = 0; guard <= n + 1 && (st == SIMDSV_OK || fuzz_is_data_error(st)); guard++)
                all += (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK;
            if (st == SIMDSV_END)
                FUZZ_ASSERT(kept + skipped == all);
        }
        simdsv_reader_free(r);
    }
    simdsv_reader_free(s);
    simdsv_options_free(o);
    return 0;
}
