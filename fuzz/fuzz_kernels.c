/* fuzz_kernels.c — differential: every kernel the CPU supports must produce
 * exactly the transcript of the scalar kernel.  Aborts on any difference. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_config c = fuzz_decode(data, size);
    const uint8_t *csv = data + (size < FUZZ_HEADER_BYTES ? size : FUZZ_HEADER_BYTES);
    const size_t n = size - (size_t)(csv - data);
    transcript reference = {0};
    fuzz_transcribe(&c, SIMDSV_KERNEL_SCALAR, csv, n, 0, 0, &reference);
    for (int k = SIMDSV_KERNEL_SSE42; k < SIMDSV_KERNEL_COUNT; k++) {
        if (!simdsv_kernel_supported((simdsv_kernel)k))
            continue;
        transcript t = {0};
        fuzz_transcribe(&c, (simdsv_kernel)k, csv, n, 0, 0, &t);
        FUZZ_ASSERT(t.len == reference.len && memcmp(t.data, reference.data, t.len) == 0);
        free(t.data);
    }
    free(reference.data);
    return 0;
}
