// Kernels of the cross-file n-body program: tiled all-pairs accelerations, the
// integration step and the total energy, each calling physics.cu in its loops.
#include "body.h"

#define MAX_TILE 256

__global__ void nbody_accel(const float4 *pos, float4 *acc_out, int n, float eps2)
{
    __shared__ float4 tile[MAX_TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = min((int)blockDim.x, MAX_TILE);
    float4 bi = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 acc = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += t) {
        if (threadIdx.x < t)
            tile[threadIdx.x] = base + threadIdx.x < n ? pos[base + threadIdx.x]
                                                       : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
        int m = min(t, n - base);
        for (int j = 0; j < m; j++)
            acc = body_accel(bi, tile[j], eps2, acc);
        __syncthreads();
    }
    if (i < n)
        acc_out[i] = make_float4(acc.x, acc.y, acc.z, 0.f);
}

// One step for all bodies: accelerations from every other body, then kick and drift.
__global__ void nbody_step(const float4 *pos, float4 *pos_out, float4 *vel, int n, float dt,
                           float eps2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 bi = pos[i];
    float3 acc = make_float3(0.f, 0.f, 0.f);
    for (int j = 0; j < n; j++)
        acc = body_accel(bi, pos[j], eps2, acc);
    float4 v = vel[i];
    pos_out[i] = kick_drift(bi, &v, acc, dt, 0.999f);
    vel[i] = v;
}

__global__ void nbody_energy(const float4 *pos, const float4 *vel, float *energy, int n,
                             float eps2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 bi = pos[i];
    float e = kinetic(vel[i], bi.w);
    for (int j = i + 1; j < n; j++)
        e += pair_potential(bi, pos[j], eps2);
    atomicAdd(energy, e);
}
