// Dynamic parallelism (CDP2, -rdc=true): recursive parallel quicksort-ish
// partitioning, child launches into named/fire-and-forget/tail streams.
#include <cstdio>

__device__ int g_launches;

__global__ void fill(int *a, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = v;
}

__device__ void selection_sort(int *data, int left, int right)
{
    for (int i = left; i <= right; ++i) {
        int min_val = data[i], min_idx = i;
        for (int j = i + 1; j <= right; ++j)
            if (data[j] < min_val) {
                min_idx = j;
                min_val = data[j];
            }
        if (i != min_idx) {
            data[min_idx] = data[i];
            data[i] = min_val;
        }
    }
}

__global__ void cdp_quicksort(int *data, int left, int right, int depth)
{
    atomicAdd(&g_launches, 1);
    if (depth >= 16 || right - left <= 32) {
        selection_sort(data, left, right);
        return;
    }
    int *lptr = data + left, *rptr = data + right;
    int pivot = data[(left + right) / 2];
    while (lptr <= rptr) {
        int lval = *lptr, rval = *rptr;
        while (lval < pivot) {
            lptr++;
            lval = *lptr;
        }
        while (rval > pivot) {
            rptr--;
            rval = *rptr;
        }
        if (lptr <= rptr) {
            *lptr++ = rval;
            *rptr-- = lval;
        }
    }
    int nright = rptr - data, nleft = lptr - data;
    if (left < nright) {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        cdp_quicksort<<<1, 1, 0, s>>>(data, left, nright, depth + 1);
        cudaStreamDestroy(s);
    }
    if (nleft < right) {
        cdp_quicksort<<<1, 1, 0, cudaStreamFireAndForget>>>(data, nleft, right, depth + 1);
    }
}

__global__ void launcher(int *a, int n)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        fill<<<(n + 255) / 256, 256>>>(a, n, 7);
        cdp_quicksort<<<1, 1, 0, cudaStreamTailLaunch>>>(a, 0, n - 1, 0);
        int dev;
        cudaGetDevice(&dev);
        cudaError_t e = cudaPeekAtLastError();
        printf("launched on device %d: %s\n", dev, cudaGetErrorString(e));
    }
}
