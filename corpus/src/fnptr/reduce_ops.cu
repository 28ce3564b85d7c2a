// Third TU: a block reduction parameterised by a runtime-selected operator.
#include "ops.h"

__device__ __noinline__ float block_reduce(binop_t f, float v, float *smem)
{
    smem[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            smem[threadIdx.x] = f(smem[threadIdx.x], smem[threadIdx.x + s]);
        __syncthreads();
    }
    return smem[0];
}

__global__ void reduce_kernel(const float *in, float *out, int opsel)
{
    extern __shared__ float smem[];
    binop_t f = g_binops[opsel];
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    float r = block_reduce(f, v, smem);
    if (threadIdx.x == 0)
        out[blockIdx.x] = r;
}
