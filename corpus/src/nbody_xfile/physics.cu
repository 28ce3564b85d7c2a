// Pair forces and the leapfrog update of the cross-file n-body program.
#include "body.h"

__device__ static float3 delta(float4 a, float4 b)
{
    return make_float3(b.x - a.x, b.y - a.y, b.z - a.z);
}

// Softened gravitational acceleration of body i towards body j, added to acc.
__device__ float3 body_accel(float4 bi, float4 bj, float eps2, float3 acc)
{
    float3 r = delta(bi, bj);
    float d2 = r.x * r.x + r.y * r.y + r.z * r.z + eps2;
    float inv = rsqrtf(d2);
    float s = bj.w * inv * inv * inv;
    acc.x += r.x * s;
    acc.y += r.y * s;
    acc.z += r.z * s;
    return acc;
}

__device__ float pair_potential(float4 bi, float4 bj, float eps2)
{
    float3 r = delta(bi, bj);
    return -bi.w * bj.w * rsqrtf(r.x * r.x + r.y * r.y + r.z * r.z + eps2);
}

// Kick (velocity from acceleration, damped), then drift; the mass in .w stays.
__device__ float4 kick_drift(float4 pos, float4 *vel, float3 acc, float dt, float damping)
{
    float4 v = *vel;
    v.x = (v.x + acc.x * dt) * damping;
    v.y = (v.y + acc.y * dt) * damping;
    v.z = (v.z + acc.z * dt) * damping;
    *vel = v;
    pos.x += v.x * dt;
    pos.y += v.y * dt;
    pos.z += v.z * dt;
    return pos;
}

__device__ float kinetic(float4 vel, float mass)
{
    return 0.5f * mass * (vel.x * vel.x + vel.y * vel.y + vel.z * vel.z);
}
