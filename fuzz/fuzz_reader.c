/* fuzz_reader.c — the streaming reader on arbitrary bytes and options: must
 * never crash, hang, leak or read out of bounds (the sanitizers check),
 * batches must hold what next() yields, and count must agree with it. */
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
    simdsv_options_free(o);
    return 0;
}
