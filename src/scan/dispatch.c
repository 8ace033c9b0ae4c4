/*
 * dispatch.c — the only file that lists the kernels.  The table is in
 * priority order; AUTO takes the first entry the CPU supports.  The choice is
 * returned to the caller and stored per reader, never in a global.
 */
#include "cpu.h"
#include "scan.h"
#include "../utf8/utf8.h"

#include <stdlib.h>
#include <string.h>

static const scan_kernel kernels[] = {
#if defined(__x86_64__) || defined(_M_X64)
    {SIMDSV_KERNEL_AVX512, "avx512", simdsv__scan_index_avx512, simdsv__scan_count_avx512, simdsv__utf8_validate_avx512,
     simdsv__count_lines_avx512, simdsv__scan_skip_avx512,
     simdsv__cut_records_avx512, simdsv__cut_rows_avx512},
    {SIMDSV_KERNEL_AVX2, "avx2", simdsv__scan_index_avx2, simdsv__scan_count_avx2, simdsv__utf8_validate_avx2,
     simdsv__count_lines_avx2, simdsv__scan_skip_avx2,
     simdsv__cut_records_avx2, simdsv__cut_rows_avx2},
    {SIMDSV_KERNEL_SSE42, "sse42", simdsv__scan_index_sse42, simdsv__scan_count_sse42, simdsv__utf8_validate_sse42,
     simdsv__count_lines_sse42, simdsv__scan_skip_sse42,
     simdsv__cut_records_sse42, simdsv__cut_rows_sse42},
#endif
#if defined(__aarch64__)
    {SIMDSV_KERNEL_NEON, "neon", simdsv__scan_index_neon, simdsv__scan_count_neon, simdsv__utf8_validate_neon,
     simdsv__count_lines_neon, simdsv__scan_skip_neon,
     simdsv__cut_records_neon, simdsv__cut_rows_neon},
#endif
    {SIMDSV_KERNEL_SCALAR, "scalar", simdsv__scan_index_scalar, simdsv__scan_count_scalar, simdsv__utf8_validate_scalar,
     simdsv__count_lines_scalar, simdsv__scan_skip_scalar,
     simdsv__cut_records_scalar, simdsv__cut_rows_scalar},
};

static const char *const kernel_names[SIMDSV_KERNEL_COUNT] = {"auto", "scalar", "sse42", "avx2", "avx512", "neon"};

const char *simdsv_kernel_name(simdsv_kernel kernel)
{
    if ((unsigned)kernel >= SIMDSV_KERNEL_COUNT)
        return NULL;
    return kernel_names[kernel];
}

int simdsv_kernel_from_name(const char *name)
{
    if (!name)
        return -1;
    for (int k = 0; k < SIMDSV_KERNEL_COUNT; k++)
        if (strcmp(name, kernel_names[k]) == 0)
            return k;
    return -1;
}

const scan_kernel *simdsv__kernel_get(simdsv_kernel id)
{
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
        if (kernels[i].id == id)
            return simdsv__cpu_supports(id) ? &kernels[i] : NULL;
    return NULL;
}

int simdsv_kernel_supported(simdsv_kernel kernel)
{
    return kernel == SIMDSV_KERNEL_AUTO || simdsv__kernel_get(kernel) != NULL;
}

simdsv_status simdsv__kernel_resolve(simdsv_kernel requested, const scan_kernel **out)
{
    if ((unsigned)requested >= SIMDSV_KERNEL_COUNT)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    if (requested == SIMDSV_KERNEL_AUTO) {
        const char *env = getenv("SIMDSV_KERNEL");
        if (env && *env && strcmp(env, "auto") != 0) {
            const int k = simdsv_kernel_from_name(env);
            if (k < 0)
                return SIMDSV_ERR_INVALID_ARGUMENT;
            requested = (simdsv_kernel)k;
        }
    }
    if (requested != SIMDSV_KERNEL_AUTO) {
        *out = simdsv__kernel_get(requested);
        return *out ? SIMDSV_OK : SIMDSV_ERR_KERNEL_UNSUPPORTED;
    }
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        if (simdsv__cpu_supports(kernels[i].id)) {
            *out = &kernels[i];
            return SIMDSV_OK;
        }
    }
    *out = &kernels[sizeof kernels / sizeof kernels[0] - 1];
    return SIMDSV_OK;
}

simdsv_status simdsv_kernel_best(simdsv_kernel *out)
{
    const scan_kernel *k = NULL;
    const simdsv_status st = simdsv__kernel_resolve(SIMDSV_KERNEL_AUTO, &k);
    if (st == SIMDSV_OK && out)
        *out = k->id;
    return st;
}
