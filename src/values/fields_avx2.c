/* fields_avx2.c — the number kernels (fields_simd.h) compiled for avx2. */
#if defined(__x86_64__) || defined(_M_X64)
#define FIELDS_ISA avx2
#include "fields_simd.h"
#endif
