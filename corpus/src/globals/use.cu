// Uses the extern globals defined in defs.cu; has its own static `helper`
// and its own string literals.
#include "globals.h"
#include <cstdio>

static __device__ int s_private_state = 100;  // same name as in defs.cu, internal

static __device__ __noinline__ int helper(int x)
{
    s_private_state ^= x;
    return x - s_private_state;
}

namespace {
__device__ int anon_scale = 3;
__device__ __noinline__ float anon_fn(float v) { return v * anon_scale; }
}  // namespace

__global__ void use_globals(float *out, const int *keys, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;
    int k = keys[tid];
    atomicAdd(&g_counter, 1);
    atomicAdd(&g_histogram[k & 63], 1ull);
    float acc = 0;
    for (int i = 0; i < c_params.iters; i++)
        acc += c_params.coeffs[i & 7] * c_lut[(k + i) & 255];
    acc += g_matrix[k & 3][(k >> 2) & 3];
    out[tid] = anon_fn(acc) + helper(k) + defs_helper_public(k);
}

__global__ void walk_list()
{
    int sum = 0;
    for (node_t *p = g_head; p; p = p->next)
        sum += p->value;
    printf("use: list sum %d, first name %s, counter %d\n", sum, g_names[threadIdx.x % 3],
           g_counter);
    printf("use: helper says %d\n", helper(sum));
}
