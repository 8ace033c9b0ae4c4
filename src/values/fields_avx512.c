/* fields_avx512.c — the number kernels (fields_simd.h) compiled for avx512. */
#if defined(__x86_64__) || defined(_M_X64)
#define FIELDS_ISA avx512
#include "fields_simd.h"
#endif
