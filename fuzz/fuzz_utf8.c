/* fuzz_utf8.c — every UTF-8 kernel returns the scalar validator's offset, and
 * lossy output is always valid UTF-8. */
#include "../src/utf8/utf8.h"
#include "simdsv.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const size_t reference = simdsv__utf8_validate_scalar(data, size);
#if defined(__x86_64__)
    if (simdsv_kernel_supported(SIMDSV_KERNEL_SSE42) && simdsv__utf8_validate_sse42(data, size) != reference)
        abort();
    if (simdsv_kernel_supported(SIMDSV_KERNEL_AVX2) && simdsv__utf8_validate_avx2(data, size) != reference)
        abort();
    if (simdsv_kernel_supported(SIMDSV_KERNEL_AVX512) && simdsv__utf8_validate_avx512(data, size) != reference)
        abort();
#endif
    size_t offset = 0;
    if (simdsv_utf8_valid(data, size, &offset) != (reference == size) || (reference != size && offset != reference))
        abort();
    uint8_t *out = malloc(size * 3 + 1);
    if (!out)
        return 0;
    const size_t written = simdsv__utf8_lossy(data, size, out);
    if (simdsv__utf8_validate_scalar(out, written) != written)
        abort();
    if (reference == size && (written != size || memcmp(out, data, size) != 0))
        abort();
    free(out);
    return 0;
}
