// Parent kernel launches kernels defined in another TU (child.cu) and itself
// recursively (dynamic parallelism, -rdc=true).
#include <cstdio>

__global__ void child_scale(float *data, int n, float s);
__global__ void child_report(int depth);

__global__ void parent(float *data, int n, int depth)
{
    if (threadIdx.x == 0) {
        int chunk = (n + gridDim.x - 1) / gridDim.x;
        float *p = data + blockIdx.x * chunk;
        int m = min(chunk, n - (int)blockIdx.x * chunk);
        if (m > 0)
            child_scale<<<(m + 127) / 128, 128>>>(p, m, 0.5f);
        if (depth > 0 && blockIdx.x == 0)
            parent<<<1, 32, 0, cudaStreamFireAndForget>>>(data, n / 2, depth - 1);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            printf("launch failed: %d\n", (int)e);
        child_report<<<1, 1, 0, cudaStreamTailLaunch>>>(depth);
    }
}
