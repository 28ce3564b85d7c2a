// clang CUDA mode: atomics via clang builtins and clang's device-function
// wrappers, warp shuffles/votes (__nvvm_* builtins), local arrays, recursion,
// function pointers, virtual calls.
#include "clang_cuda_min.h"

__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

typedef int (*iop)(int, int);
__device__ int i_add(int a, int b) { return a + b; }
__device__ int i_max(int a, int b) { return a > b ? a : b; }
__device__ iop g_iops[2] = {i_add, i_max};

struct Base {
    __device__ virtual int f(int x) const { return x; }
};
struct Derived : Base {
    __device__ int f(int x) const override { return 2 * x + 1; }
};

__global__ void atomics_warp(int *counters, float *fsum, unsigned long long *u64, int *out,
                             const int *idx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&counters[0], 1);
    atomicMax(&counters[1], i);
    atomicCAS(&counters[2], 0, i);
    atomicExch(&counters[3], i);
    atomicAdd(fsum, 1.0f);
    atomicAdd(u64, 1ull);
    int v = i;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    unsigned b = __ballot_sync(0xffffffffu, i & 1);
    int local[16];
    for (int k = 0; k < 16; k++)
        local[k] = k * i;
    int r = local[idx[i % n] & 15];
    r = g_iops[i & 1](r, fact(i & 7));
    Derived d;
    Base *bp = (i & 2) ? (Base *)&d : nullptr;
    if (bp)
        r += bp->f(r);
    out[i] = v + (int)b + r;
}
