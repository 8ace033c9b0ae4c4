/*
 * utf8.h — UTF-8 validation (RFC 3629), one algorithm compiled per ISA.
 *
 * Every validator returns the same value for the same input: the scalar
 * validator defines it, and the SIMD kernels only decide "valid or not" per
 * 64-byte block, handing the first failing block back to the scalar walk to
 * find the exact offset.  All kernels are declared on every platform; only
 * the ones matching the target are defined, and a dispatcher must pick one
 * the CPU supports (sse42: SSE4.2; avx2: AVX2; avx512: AVX-512 BW + VBMI;
 * neon: any aarch64).
 */
#ifndef SIMDSV_UTF8_H
#define SIMDSV_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Returns size if data[0..size) is entirely valid UTF-8; otherwise the offset of the
   first byte of the first invalid sequence (the "maximal subpart" rule: the offset
   where a strict scalar decoder, walking from the start, first fails).
   A sequence truncated by the end of the buffer is invalid (its lead byte's offset). */
size_t simdsv__utf8_validate_scalar(const uint8_t *data, size_t size);
size_t simdsv__utf8_validate_sse42(const uint8_t *data, size_t size);   /* x86-64 only */
size_t simdsv__utf8_validate_avx2(const uint8_t *data, size_t size);    /* x86-64 only */
size_t simdsv__utf8_validate_avx512(const uint8_t *data, size_t size);  /* x86-64 only */
size_t simdsv__utf8_validate_neon(const uint8_t *data, size_t size);    /* aarch64 only */

/* Number of trailing bytes of data[0..size) that form an incomplete but so-far-valid
   multibyte sequence (0..3): the streaming reader holds them back until more data comes. */
size_t simdsv__utf8_incomplete_tail(const uint8_t *data, size_t size);

/* Lossy copy: each maximal invalid subpart becomes U+FFFD (EF BF BD). dst holds 3*size bytes.
   Returns bytes written. Fast path: copy valid runs with memcpy. */
size_t simdsv__utf8_lossy(const uint8_t *src, size_t size, uint8_t *dst);

#endif
