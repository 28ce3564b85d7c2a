// Asynchronous copies with libcu++: cuda::memcpy_async + cuda::pipeline
// (multi-stage double buffering), cooperative_groups::memcpy_async, and
// cuda::barrier arrive/wait (sm_80+).
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
namespace cg = cooperative_groups;
#pragma nv_diag_suppress static_var_with_dynamic_init

template <int STAGES>
__global__ void pipelined_sum(const float *in, float *out, int tiles)
{
    constexpr int TILE = 256;
    __shared__ alignas(16) float buf[STAGES][TILE];
    auto block = cg::this_thread_block();
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    auto pipe = cuda::make_pipeline(block, &state);
    float acc = 0;
    for (int fetch = 0, comp = 0; comp < tiles; comp++) {
        for (; fetch < tiles && fetch < comp + STAGES; fetch++) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[fetch % STAGES], in + (size_t)fetch * TILE,
                               sizeof(float) * TILE, pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        acc += buf[comp % STAGES][threadIdx.x];
        pipe.consumer_release();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
template __global__ void pipelined_sum<2>(const float *, float *, int);
template __global__ void pipelined_sum<4>(const float *, float *, int);

__global__ void cg_memcpy(const int4 *in, int4 *out, int n)
{
    extern __shared__ int4 sm[];
    auto block = cg::this_thread_block();
    cg::memcpy_async(block, sm, in + blockIdx.x * n, sizeof(int4) * n);
    cg::wait(block);
    out[blockIdx.x * n + threadIdx.x] = sm[n - 1 - threadIdx.x];
}

__global__ void barrier_kernel(float *data)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ float s[512];
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    cuda::memcpy_async(&s[threadIdx.x], &data[threadIdx.x], sizeof(float), bar);
    bar.arrive_and_wait();
    data[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x] * 2;
    auto tok = bar.arrive();
    bar.wait(std::move(tok));
}
