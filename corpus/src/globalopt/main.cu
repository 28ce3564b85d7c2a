// Global optimization (issue 14), with tables.cu.
#include <cstdio>
#include "globalopt.h"

extern __device__ Coeffs g_coeffs;
extern __constant__ int c_lut[64];
extern __device__ int g_counter;
__device__ float poly(float x);
__device__ void report(int v);

// The same literal as in tables.cu.
__device__ __noinline__ void report_again(int v)
{
    printf("value %d\n", v);
}

__device__ __noinline__ int dead_in_main(int x)   // nothing calls it
{
    return x * c_lut[x & 63] + g_counter;
}

__global__ void kernel(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    float y = g_coeffs.a * poly(x) + g_coeffs.b * x + g_coeffs.c;
    y += g_coeffs.d * c_lut[(i * 7 + g_coeffs.n) & 63];
    out[i] = y;
    atomicAdd(&g_counter, 1);
    if (i == 0) {
        report(g_coeffs.n);
        report_again((int)y);
    }
}
