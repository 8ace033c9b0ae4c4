/* fields_sse42.c — the number kernels (fields_simd.h) compiled for sse42. */
#if defined(__x86_64__) || defined(_M_X64)
#define FIELDS_ISA sse42
#include "fields_simd.h"
#endif
