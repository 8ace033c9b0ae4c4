/* fields_scalar.c — the portable number kernels (fields.h): the SWAR
 * parsers of fast.h in a loop; the kernel of SIMDSV_KERNEL=scalar and of
 * every CPU without a SIMD one (aarch64 included), and the table of which
 * kernels go with which scan kernel. */
#include "fields.h"
#include "fast.h"

size_t simdsv__int64_fields_scalar(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                   size_t readable, int no_leading_zero, int64_t *out, uint64_t *nulls)
{
    (void)readable; /* the SWAR parser reads no byte past the field */
    uint64_t empty = 0;
    size_t i = 0;
    for (; i < count; i++, pos += stride) {
        const char *s = origin + pos[0];
        const size_t n = pos[1] - 1 - pos[0];
        int64_t v = 0;
        if (n) {
            const size_t sign = s[0] == '-' || s[0] == '+';
            if (!simdsv__int64_inline(s, n, &v) || (no_leading_zero && n > sign + 1 && s[sign] == '0'))
                break;
        }
        out[i] = v;
        empty += n == 0;
    }
    *nulls += empty;
    return i;
}

size_t simdsv__float64_fields_scalar(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                     size_t readable, unsigned char sep, double *out, uint64_t *nulls)
{
    uint64_t empty = 0;
    size_t i = 0;
    for (; i < count; i++, pos += stride) {
        const char *s = origin + pos[0];
        const size_t n = pos[1] - 1 - pos[0];
        double v = 0;
        if (n) {
            const size_t sign = s[0] == '-' || s[0] == '+';
            if ((size_t)pos[0] + 17 > readable || !simdsv__double_plain_wide(s, n, sep, &v) ||
                (n - sign == 16 && (v > 9007199254740992.0 || v < -9007199254740992.0)))
                break;
        }
        out[i] = v;
        empty += n == 0;
    }
    *nulls += empty;
    return i;
}

size_t simdsv__date_fields_scalar(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                  size_t readable, int32_t *out, uint64_t *nulls)
{
    (void)readable;
    uint64_t empty = 0;
    size_t i = 0;
    for (; i < count; i++, pos += stride) {
        const size_t n = pos[1] - 1 - pos[0];
        int32_t v = 0;
        if (n && !simdsv__date_plain(origin + pos[0], n, &v))
            break;
        out[i] = v;
        empty += n == 0;
    }
    *nulls += empty;
    return i;
}

size_t simdsv__timestamp_fields_scalar(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                       size_t readable, int64_t *out, uint64_t *nulls)
{
    (void)readable;
    uint64_t empty = 0;
    size_t i = 0;
    for (; i < count; i++, pos += stride) {
        const size_t n = pos[1] - 1 - pos[0];
        int64_t v = 0;
        if (n && !simdsv__timestamp_plain(origin + pos[0], n, &v))
            break;
        out[i] = v;
        empty += n == 0;
    }
    *nulls += empty;
    return i;
}

#if defined(__x86_64__) || defined(_M_X64)
static const value_kernel sse42 = {simdsv__int64_fields_sse42, simdsv__float64_fields_sse42, simdsv__date_fields_sse42,
                                    simdsv__timestamp_fields_sse42, simdsv__string_fields_sse42,
                                    simdsv__unescape_sse42};
static const value_kernel avx2 = {simdsv__int64_fields_avx2, simdsv__float64_fields_avx2, simdsv__date_fields_avx2,
                                    simdsv__timestamp_fields_avx2, simdsv__string_fields_avx2,
                                    simdsv__unescape_avx2};
static const value_kernel avx512 = {simdsv__int64_fields_avx512, simdsv__float64_fields_avx512, simdsv__date_fields_avx512,
                                    simdsv__timestamp_fields_avx512, simdsv__string_fields_avx512,
                                    simdsv__unescape_avx512};
#endif
static const value_kernel scalar = {simdsv__int64_fields_scalar, simdsv__float64_fields_scalar, simdsv__date_fields_scalar,
                                    simdsv__timestamp_fields_scalar, NULL, NULL};

const value_kernel *simdsv__value_kernel(simdsv_kernel id)
{
    switch (id) {
#if defined(__x86_64__) || defined(_M_X64)
    case SIMDSV_KERNEL_SSE42:
        return &sse42;
    case SIMDSV_KERNEL_AVX2:
        return &avx2;
    case SIMDSV_KERNEL_AVX512:
        return &avx512;
#endif
    default:
        return &scalar;
    }
}
