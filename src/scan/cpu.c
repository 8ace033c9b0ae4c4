/*
 * cpu.c — run-time CPU feature detection.  x86: CPUID for the instruction
 * sets and XGETBV for whether the OS saves the wide registers (a CPU with
 * AVX-512 under an OS that does not enable it must not use it).  aarch64:
 * the kernel's hardware capability bits.  This is the one library file, with
 * the kernels, allowed compiler-specific headers.
 */
#include "cpu.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>
#include <stdatomic.h>
#include <stdint.h>

typedef struct x86_features {
    int sse42, pclmul, popcnt, avx2, bmi1, bmi2, avx512f, avx512bw, avx512vl, avx512vbmi, avx512vbmi2;
    int os_ymm, os_zmm;
} x86_features;

static uint64_t read_xcr0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static x86_features detect_x86(void)
{
    x86_features f = {0};
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return f;
    f.sse42 = (c >> 20) & 1;
    f.pclmul = (c >> 1) & 1;
    f.popcnt = (c >> 23) & 1;
    const int osxsave = (c >> 27) & 1;
    if (osxsave) {
        const uint64_t xcr0 = read_xcr0();
        f.os_ymm = (xcr0 & 0x6) == 0x6;          /* XMM and YMM state */
        f.os_zmm = f.os_ymm && (xcr0 & 0xe0) == 0xe0; /* opmask, ZMM_Hi256, Hi16_ZMM */
    }
    if (__get_cpuid_max(0, 0) >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        f.bmi1 = (b >> 3) & 1;
        f.avx2 = (b >> 5) & 1;
        f.bmi2 = (b >> 8) & 1;
        f.avx512f = (b >> 16) & 1;
        f.avx512bw = (b >> 30) & 1;
        f.avx512vl = (b >> 31) & 1;
        f.avx512vbmi = (c >> 1) & 1;
        f.avx512vbmi2 = (c >> 6) & 1;
    }
    return f;
}

static int supports(simdsv_kernel kernel)
{
    const x86_features f = detect_x86();
    const int sse42 = f.sse42 && f.pclmul && f.popcnt;
    const int avx2 = sse42 && f.avx2 && f.bmi1 && f.bmi2 && f.os_ymm;
    switch (kernel) {
    case SIMDSV_KERNEL_AUTO:
    case SIMDSV_KERNEL_SCALAR:
        return 1;
    case SIMDSV_KERNEL_SSE42:
        return sse42;
    case SIMDSV_KERNEL_AVX2:
        return avx2;
    case SIMDSV_KERNEL_AVX512:
        return avx2 && f.os_zmm && f.avx512f && f.avx512bw && f.avx512vl && f.avx512vbmi && f.avx512vbmi2;
    case SIMDSV_KERNEL_NEON:
        return 0;
    }
    return 0;
}

int simdsv__cpu_supports(simdsv_kernel kernel)
{
    /* CPUID traps to the hypervisor in a VM (some 15 us each here): each
     * kernel is asked about once, so that picking the best kernel per call
     * (simdsv_utf8_valid) stays cheap.  0: not asked yet, else answer + 1. */
    static _Atomic int known[SIMDSV_KERNEL_COUNT];
    if ((unsigned)kernel >= SIMDSV_KERNEL_COUNT)
        return 0;
    int k = atomic_load_explicit(&known[kernel], memory_order_relaxed);
    if (k == 0) {
        k = supports(kernel) + 1;
        atomic_store_explicit(&known[kernel], k, memory_order_relaxed);
    }
    return k - 1;
}

#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_PMULL
#define HWCAP_PMULL (1 << 4)
#endif

int simdsv__cpu_supports(simdsv_kernel kernel)
{
    switch (kernel) {
    case SIMDSV_KERNEL_AUTO:
    case SIMDSV_KERNEL_SCALAR:
        return 1;
    case SIMDSV_KERNEL_NEON:
        return (getauxval(AT_HWCAP) & HWCAP_PMULL) != 0;
    default:
        return 0;
    }
}

#else
int simdsv__cpu_supports(simdsv_kernel kernel)
{
    return kernel == SIMDSV_KERNEL_AUTO || kernel == SIMDSV_KERNEL_SCALAR;
}
#endif
