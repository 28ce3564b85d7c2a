// The vector-math library: float3 vectors and float4 quaternions (x, y, z, w).
#include "vecmath.h"

__device__ float3 v3_add(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
__device__ float3 v3_sub(float3 a, float3 b) { return make_float3(a.x - b.x, a.y - b.y, a.z - b.z); }
__device__ float3 v3_scale(float3 a, float s) { return make_float3(a.x * s, a.y * s, a.z * s); }
__device__ float v3_dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

__device__ float3 v3_cross(float3 a, float3 b)
{
    return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

// A zero vector stays zero (no division by zero).
__device__ float3 v3_normalize(float3 a)
{
    float d = v3_dot(a, a);
    return d > 0.0f ? v3_scale(a, rsqrtf(d)) : a;
}

__device__ float3 v3_reflect(float3 d, float3 n)
{
    return v3_sub(d, v3_scale(n, 2.0f * v3_dot(d, n)));
}

__device__ float4 q_mul(float4 a, float4 b)
{
    return make_float4(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                       a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                       a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                       a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

__device__ float4 q_normalize(float4 q)
{
    float d = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (d <= 0.0f)
        return make_float4(0.0f, 0.0f, 0.0f, 1.0f);
    float s = rsqrtf(d);
    return make_float4(q.x * s, q.y * s, q.z * s, q.w * s);
}

// v rotated by the unit quaternion q: v + 2 u x (u x v + w v), u = q.xyz.
__device__ float3 q_rotate(float4 q, float3 v)
{
    float3 u = make_float3(q.x, q.y, q.z);
    float3 t = v3_add(v3_cross(u, v), v3_scale(v, q.w));
    return v3_add(v, v3_scale(v3_cross(u, t), 2.0f));
}

// Normalized linear interpolation along the shorter arc.
__device__ float4 q_nlerp(float4 a, float4 b, float t)
{
    float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    float s = d < 0.0f ? -t : t;
    return q_normalize(make_float4(a.x * (1.0f - t) + b.x * s, a.y * (1.0f - t) + b.y * s,
                                   a.z * (1.0f - t) + b.z * s, a.w * (1.0f - t) + b.w * s));
}
