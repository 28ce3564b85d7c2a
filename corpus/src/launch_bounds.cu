// Kernel resource annotations: __launch_bounds__ (maxThreads, minBlocks[,
// maxBlocksPerCluster]), __maxnreg__ => .maxntid / .minnctapersm / .maxnreg.
__global__ void __launch_bounds__(256) lb_only_max(float *x)
{
    x[blockIdx.x * 256 + threadIdx.x] *= 2.f;
}

__global__ void __launch_bounds__(128, 4) lb_max_min(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0;
#pragma unroll 8
    for (int k = 0; k < n; k++)
        acc += a[(i + k) % n] * (k + 1);
    b[i] = acc;
}

__global__ void __maxnreg__(32) maxnreg_kernel(const double *a, double *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double r[8];
#pragma unroll
    for (int k = 0; k < 8; k++)
        r[k] = a[(i * 8 + k) % n];
    double s = 0;
#pragma unroll
    for (int k = 0; k < 8; k++)
        s += r[k] * r[(k + 3) & 7];
    b[i] = s;
}

__global__ void __launch_bounds__(1024, 1) big_block(int *out)
{
    __shared__ int s[1024];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[1023 - threadIdx.x];
}

__global__ void __launch_bounds__(64, 8) __noinline__ small_block(float4 *v)
{
    float4 x = v[threadIdx.x];
    v[threadIdx.x] = make_float4(x.w, x.z, x.y, x.x);
}
