// The bit-manipulation helpers.
#include "bits.h"

// 10 bits of v spread out to every third bit (for 30-bit Morton codes).
__device__ unsigned spread_bits10(unsigned v)
{
    v &= 0x3ffu;
    v = (v | (v << 16)) & 0x030000ffu;
    v = (v | (v << 8)) & 0x0300f00fu;
    v = (v | (v << 4)) & 0x030c30c3u;
    v = (v | (v << 2)) & 0x09249249u;
    return v;
}

__device__ unsigned morton3(unsigned x, unsigned y, unsigned z)
{
    return (spread_bits10(x) << 2) | (spread_bits10(y) << 1) | spread_bits10(z);
}

// v in [lo, hi] to 0..1023; NaN and values outside are clamped.
__device__ unsigned quantize10(float v, float lo, float hi)
{
    float t = (v - lo) / (hi - lo);
    t = fminf(fmaxf(t, 0.0f), 1.0f);
    return (unsigned)(t * 1023.0f);
}

__device__ unsigned rotl32(unsigned v, int r)
{
    r &= 31;
    return (v << r) | (v >> ((32 - r) & 31));
}

// murmur3's mixing of one word and its finalizer.
__device__ unsigned hash_u32(unsigned v, unsigned seed)
{
    unsigned h = seed ^ 4u;
    v *= 0xcc9e2d51u;
    v = rotl32(v, 15);
    v *= 0x1b873593u;
    h ^= v;
    h = rotl32(h, 13) * 5u + 0xe6546b64u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

__device__ unsigned reverse_bits(unsigned v)
{
    v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
    v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
    v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
    v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
    return (v >> 16) | (v << 16);
}

__device__ unsigned gray_encode(unsigned v) { return v ^ (v >> 1); }

__device__ unsigned gray_decode(unsigned g)
{
    g ^= g >> 16;
    g ^= g >> 8;
    g ^= g >> 4;
    g ^= g >> 2;
    g ^= g >> 1;
    return g;
}

__device__ int bit_test(const unsigned *words, unsigned bit)
{
    return (words[bit >> 5] >> (bit & 31)) & 1u;
}
