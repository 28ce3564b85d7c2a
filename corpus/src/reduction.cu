// Classic templated parallel reduction (Harris-style) with warp-unrolled tail,
// volatile shared memory, several block sizes and element types.
template <typename T>
struct SharedMem;
template <>
struct SharedMem<float> {
    __device__ float *get()
    {
        extern __shared__ float s_f[];
        return s_f;
    }
};
template <>
struct SharedMem<double> {
    __device__ double *get()
    {
        extern __shared__ double s_d[];
        return s_d;
    }
};
template <>
struct SharedMem<int> {
    __device__ int *get()
    {
        extern __shared__ int s_i[];
        return s_i;
    }
};

template <typename T, unsigned BS>
__device__ void warp_reduce(volatile T *s, unsigned tid)
{
    if (BS >= 64) s[tid] += s[tid + 32];
    if (BS >= 32) s[tid] += s[tid + 16];
    if (BS >= 16) s[tid] += s[tid + 8];
    if (BS >= 8) s[tid] += s[tid + 4];
    if (BS >= 4) s[tid] += s[tid + 2];
    if (BS >= 2) s[tid] += s[tid + 1];
}

template <typename T, unsigned BS, bool POW2>
__global__ void reduce6(const T *g_in, T *g_out, unsigned n)
{
    T *s = SharedMem<T>().get();
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * BS * 2 + threadIdx.x;
    unsigned grid = BS * 2 * gridDim.x;
    T sum = 0;
    while (i < n) {
        sum += g_in[i];
        if (POW2 || i + BS < n)
            sum += g_in[i + BS];
        i += grid;
    }
    s[tid] = sum;
    __syncthreads();
    if (BS >= 512) { if (tid < 256) s[tid] = sum = sum + s[tid + 256]; __syncthreads(); }
    if (BS >= 256) { if (tid < 128) s[tid] = sum = sum + s[tid + 128]; __syncthreads(); }
    if (BS >= 128) { if (tid < 64) s[tid] = sum = sum + s[tid + 64]; __syncthreads(); }
    if (tid < 32)
        warp_reduce<T, BS>(s, tid);
    if (tid == 0)
        g_out[blockIdx.x] = s[0];
}

#define INST(T, BS)                                                                       \
    template __global__ void reduce6<T, BS, true>(const T *, T *, unsigned);              \
    template __global__ void reduce6<T, BS, false>(const T *, T *, unsigned);
INST(float, 512)
INST(float, 128)
INST(double, 256)
INST(int, 64)
