// A small device vector-math library (vecmath.cu) used by the kernels of two
// other files (transform.cu, lighting.cu), compiled with -rdc=true.  Every helper
// takes and returns float3/float4 by value, as such libraries do; across
// translation units nvcc -rdc calls each of them, -dlto inlines them.
#pragma once

__device__ float3 v3_add(float3 a, float3 b);
__device__ float3 v3_sub(float3 a, float3 b);
__device__ float3 v3_scale(float3 a, float s);
__device__ float v3_dot(float3 a, float3 b);
__device__ float3 v3_cross(float3 a, float3 b);
__device__ float3 v3_normalize(float3 a);
__device__ float3 v3_reflect(float3 d, float3 n);
__device__ float4 q_mul(float4 a, float4 b);
__device__ float4 q_normalize(float4 q);
__device__ float3 q_rotate(float4 q, float3 v);
__device__ float4 q_nlerp(float4 a, float4 b, float t);
