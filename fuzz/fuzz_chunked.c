/* fuzz_chunked.c — streaming the input in random chunk sizes through a small
 * buffer must give exactly what reading it from memory in one piece gives. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_config c = fuzz_decode(data, size);
    const uint8_t *csv = data + (size < FUZZ_HEADER_BYTES ? size : FUZZ_HEADER_BYTES);
    const size_t n = size - (size_t)(csv - data);
    transcript whole = {0}, streamed = {0};
    fuzz_transcribe(&c, SIMDSV_KERNEL_AUTO, csv, n, 0, 0, &whole);
    fuzz_transcribe(&c, SIMDSV_KERNEL_AUTO, csv, n, 1, 0, &streamed);
    /* A streaming buffer smaller than a record is grown, so the only allowed
     * difference is none at all. */
    FUZZ_ASSERT(whole.len == streamed.len && memcmp(whole.data, streamed.data, whole.len) == 0);
    free(whole.data);
    free(streamed.data);
    return 0;
}
