// Definitions of __device__/__constant__ globals declared extern in globals.h,
// plus a file-local `helper` and printf strings (=> $str collides with use.cu).
#include "globals.h"
#include <cstdio>

__constant__ params_t c_params = {1.5f, 10, {1, 2, 3, 4, 5, 6, 7, 8}, "defaults"};
__constant__ float c_lut[256] = {0.0f, 0.5f, 1.0f, 1.5f};
__device__ int g_counter = 42;
__device__ unsigned long long g_histogram[64];
static __device__ node_t s_n4 = {40, nullptr};
static __device__ node_t s_n3 = {30, &s_n4};
__device__ node_t g_nodes[4] = {{1, &s_n3}, {2, &s_n3}, {3, &s_n4}, {4, nullptr}};
__device__ node_t *g_head = &g_nodes[0];
__device__ float g_matrix[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
__device__ const char *g_names[3] = {"alpha", "beta", "gamma"};

static __device__ int s_private_state = 7;

// same name as the static helper in use.cu
static __device__ __noinline__ int helper(int x)
{
    s_private_state += x;
    return x * 3 + s_private_state;
}

__device__ int defs_helper_public(int x)
{
    printf("defs: helper(%d)\n", x);
    return helper(x) + c_params.iters;
}

__global__ void init_lut(float *out)
{
    int i = threadIdx.x;
    out[i] = c_lut[i] * c_params.scale;
    if (i == 0)
        printf("init_lut: %s %d\n", c_params.label, helper(i));
}
