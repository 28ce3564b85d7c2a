// clang -fgpu-rdc, file 1: uses the extern globals from lib.cu and has its
// own `static` helper() and `s_calls` (same names as in lib.cu).
#include "common.h"

static __device__ int s_calls = 100;

static __device__ __noinline__ int helper(int x)
{
    s_calls--;
    return x - s_calls;
}

__global__ void clang_multi_kernel(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = lib_transform(in[i], i) + helper(i) + lib_helper_public(i);
    atomicAdd(&g_counter.total, v);
    if (i == 0)
        printf("main: hits=%d first=%f\n", g_counter.hits, (double)v);
    out[i] = v * c_weights[(i + 1) & 7];
}
