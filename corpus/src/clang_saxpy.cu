// clang CUDA mode (-nocudainc + clang_cuda_min.h): saxpy, shared-memory
// reduction, math calls resolved against libdevice, device printf (vprintf).
#include "clang_cuda_min.h"

__device__ float g_bias = 0.25f;
__constant__ float c_scale[4] = {1.f, 2.f, 3.f, 4.f};

__global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i] + g_bias * c_scale[i & 3];
}

__global__ void __launch_bounds__(256, 2) block_sum(const float *in, float *out)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned st = 128; st > 0; st >>= 1) {
        if (t < st)
            s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = sqrtf(s[0]) + expf(-s[0]) + sinf(s[0]) * logf(fabsf(s[0]) + 1.f);
        printf("block %d sum %f\n", blockIdx.x, (double)s[0]);
    }
}

__device__ __noinline__ float4 lerp4(float4 a, float4 b, float t)
{
    return float4{a.x + t * (b.x - a.x), a.y + t * (b.y - a.y), a.z + t * (b.z - a.z),
                  a.w + t * (b.w - a.w)};
}

__global__ void blend(const float4 *a, const float4 *b, float4 *c, float t, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = lerp4(a[i], b[i], powf(t, 2.2f));
}
