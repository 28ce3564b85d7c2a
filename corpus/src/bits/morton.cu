// Kernels computing sort keys with the bit helpers: Morton codes of points in a
// box, and bit-reversed Gray-code ranks.
#include "bits.h"

__global__ void morton_keys(const float4 *pts, unsigned *keys, int n, float lo, float hi)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 p = pts[i];
    keys[i] = morton3(quantize10(p.x, lo, hi), quantize10(p.y, lo, hi), quantize10(p.z, lo, hi));
}

// For every key: its Gray code, bit-reversed, and the round trip back checked.
__global__ void gray_ranks(const unsigned *keys, unsigned *ranks, int *bad, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned k = keys[i];
    unsigned g = gray_encode(k);
    ranks[i] = reverse_bits(g);
    if (gray_decode(g) != k)
        atomicAdd(bad, 1);
}
