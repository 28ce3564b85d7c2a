// Atomics on global and shared memory: add/sub/min/max/and/or/xor/inc/dec,
// CAS loops (float max, double mul), exch, 64-bit, float/double add, scoped
// variants, libcu++ cuda::atomic_ref.
#include <cuda/atomic>

__device__ float atomicMaxFloat(float *addr, float val)
{
    int *ia = (int *)addr;
    int old = *ia, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= val)
            break;
        old = atomicCAS(ia, assumed, __float_as_int(val));
    } while (assumed != old);
    return __int_as_float(old);
}

__device__ double atomicMulDouble(double *addr, double val)
{
    unsigned long long *p = (unsigned long long *)addr;
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, __double_as_longlong(__longlong_as_double(assumed) * val));
    } while (assumed != old);
    return __longlong_as_double(old);
}

__global__ void global_atomics(int *ic, unsigned *uc, unsigned long long *ull, float *f,
                               double *d, long long *ll, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = in[i];
    atomicAdd(&ic[0], 1);
    atomicSub(&ic[1], 2);
    atomicMin(&ic[2], (int)x);
    atomicMax(&ic[3], (int)x);
    atomicAnd(&uc[0], ~(1u << (i & 31)));
    atomicOr(&uc[1], 1u << (i & 31));
    atomicXor(&uc[2], (unsigned)i);
    atomicInc(&uc[3], 100u);
    atomicDec(&uc[4], 100u);
    atomicExch(&uc[5], (unsigned)i);
    atomicAdd(&ull[0], (unsigned long long)i);
    atomicMin(&ull[1], (unsigned long long)i);
    atomicMax(&ll[0], (long long)-i);
    atomicExch(&ull[2], 0xdeadbeefcafeull);
    atomicCAS(&ull[3], 0ull, (unsigned long long)i);
    atomicAdd(&f[0], x);
    atomicExch(&f[1], x);
    atomicAdd(&d[0], (double)x);
    atomicMaxFloat(&f[2], x);
    atomicMulDouble(&d[1], 1.0001);
    atomicAdd_block(&ic[4], 1);
    atomicAdd_system(&ic[5], 1);
    atomicCAS_block(&uc[6], 0u, 1u);
    int prev = atomicCAS(&ic[6], i, i + 1);
    if (prev == i)
        __threadfence();
}

__global__ void shared_atomics(const int *keys, unsigned *hist_out, float *fsum_out, int n)
{
    __shared__ unsigned s_hist[256];
    __shared__ float s_fsum;
    __shared__ unsigned long long s_u64;
    __shared__ double s_d;
    __shared__ int s_lock;
    if (threadIdx.x == 0) {
        s_fsum = 0;
        s_u64 = 0;
        s_d = 0;
        s_lock = 0;
    }
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        s_hist[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int k = keys[i];
        atomicAdd(&s_hist[k & 255], 1u);
        atomicAdd(&s_fsum, (float)k * 0.5f);
        atomicAdd(&s_u64, (unsigned long long)k);
        atomicAdd(&s_d, (double)k);
        atomicMax(&s_hist[(k >> 8) & 255], (unsigned)k);
    }
    // spin lock via atomicCAS/atomicExch on shared memory
    if ((threadIdx.x & 31) == 0) {
        while (atomicCAS(&s_lock, 0, 1) != 0) {
        }
        s_fsum += 1.0f;
        __threadfence_block();
        atomicExch(&s_lock, 0);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        atomicAdd(&hist_out[i], s_hist[i]);
    if (threadIdx.x == 0) {
        atomicAdd(fsum_out, s_fsum + (float)s_u64 + (float)s_d);
    }
}

__global__ void libcudacxx_atomics(int *counter, float *acc, unsigned long long *flags)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> c(*counter);
    c.fetch_add(1, cuda::std::memory_order_relaxed);
    cuda::atomic_ref<float, cuda::thread_scope_block> a(*acc);
    a.fetch_add(1.5f, cuda::std::memory_order_acq_rel);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> fl(*flags);
    unsigned long long expected = 0;
    fl.compare_exchange_strong(expected, threadIdx.x + 1ull, cuda::std::memory_order_seq_cst);
    if (c.load(cuda::std::memory_order_acquire) > 1000)
        fl.store(0, cuda::std::memory_order_release);
}
