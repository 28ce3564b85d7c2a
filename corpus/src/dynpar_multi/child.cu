// Child kernels, launched from parent.cu via dynamic parallelism.
#include <cstdio>

__device__ unsigned int g_child_runs;

__global__ void child_scale(float *data, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= s;
    if (i == 0)
        atomicAdd(&g_child_runs, 1u);
}

__global__ void child_report(int depth)
{
    printf("child_report depth=%d runs=%u\n", depth, g_child_runs);
}
