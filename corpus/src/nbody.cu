// All-pairs N-body with shared-memory tiling, rsqrtf, float4 loads and a
// templated unroll factor; plus a double-precision energy reduction.
template <int UNROLL>
__device__ float3 tile_accel(float4 bi, float3 ai, const float4 *sh, int count, float eps2)
{
#pragma unroll UNROLL
    for (int j = 0; j < count; j++) {
        float4 bj = sh[j];
        float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
        float d2 = r.x * r.x + r.y * r.y + r.z * r.z + eps2;
        float inv = rsqrtf(d2);
        float s = bj.w * inv * inv * inv;
        ai.x += r.x * s;
        ai.y += r.y * s;
        ai.z += r.z * s;
    }
    return ai;
}

template <int BS, int UNROLL>
__global__ void nbody_step(const float4 *pos, float4 *vel, float4 *newpos, int n, float dt,
                           float eps2)
{
    __shared__ float4 sh[BS];
    int i = blockIdx.x * BS + threadIdx.x;
    float4 bi = i < n ? pos[i] : make_float4(0, 0, 0, 0);
    float3 acc = make_float3(0, 0, 0);
    for (int t = 0; t < n; t += BS) {
        int j = t + threadIdx.x;
        sh[threadIdx.x] = j < n ? pos[j] : make_float4(0, 0, 0, 0);
        __syncthreads();
        acc = tile_accel<UNROLL>(bi, acc, sh, min(BS, n - t), eps2);
        __syncthreads();
    }
    if (i < n) {
        float4 v = vel[i];
        v.x += acc.x * dt;
        v.y += acc.y * dt;
        v.z += acc.z * dt;
        vel[i] = v;
        newpos[i] = make_float4(bi.x + v.x * dt, bi.y + v.y * dt, bi.z + v.z * dt, bi.w);
    }
}

template __global__ void nbody_step<128, 4>(const float4 *, float4 *, float4 *, int, float, float);
template __global__ void nbody_step<256, 8>(const float4 *, float4 *, float4 *, int, float, float);

__global__ void kinetic_energy(const float4 *vel, double *out, int n)
{
    __shared__ double s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double e = 0;
    if (i < n) {
        float4 v = vel[i];
        e = 0.5 * v.w * ((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
    }
    s[threadIdx.x] = e;
    __syncthreads();
    for (int st = blockDim.x / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st)
            s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, s[0]);
}
