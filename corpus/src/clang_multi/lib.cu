// clang -fgpu-rdc, file 2: definitions of the globals and of a `static`
// helper() with the same name as the one in main.cu.  Under clang, static
// device functions keep their plain internal name (_ZL6helperi) in both
// files, so the two PTX files contain same-named internal .func symbols, and
// both have a `$str` printf string.
#include "common.h"

__device__ Counter g_counter = {0, 0.0f};
__constant__ float c_weights[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static __device__ int s_calls = 0;

static __device__ __noinline__ int helper(int x)
{
    s_calls++;
    return x * 7 + s_calls;
}

__device__ float lib_transform(float x, int k)
{
    atomicAdd(&g_counter.hits, 1);
    return x * c_weights[k & 7] + (float)helper(k);
}

__device__ int lib_helper_public(int x)
{
    printf("lib: helper(%d) calls=%d\n", x, s_calls);
    return helper(x);
}
