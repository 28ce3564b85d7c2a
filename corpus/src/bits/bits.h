// Bit-manipulation helpers (bits.cu) used by the kernels of morton.cu and
// bloom.cu, compiled with -rdc=true: each a few instructions, called per element
// or per hash probe, so across translation units the call costs more than the body.
#pragma once

__device__ unsigned spread_bits10(unsigned v);
__device__ unsigned morton3(unsigned x, unsigned y, unsigned z);
__device__ unsigned quantize10(float v, float lo, float hi);
__device__ unsigned hash_u32(unsigned v, unsigned seed);
__device__ unsigned rotl32(unsigned v, int r);
__device__ unsigned reverse_bits(unsigned v);
__device__ unsigned gray_encode(unsigned v);
__device__ unsigned gray_decode(unsigned g);
__device__ int bit_test(const unsigned *words, unsigned bit);
