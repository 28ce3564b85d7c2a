// Shared declarations for the cross-file n-body program (compiled with -rdc=true).
//
// The force and integration helpers live in physics.cu; the kernels in step.cu call
// them once per body pair in the hot loop.  nvcc -rdc cannot inline across the two
// translation units, so every pair interaction is a call with float4/float3 passed
// and returned by value; -dlto inlines them.
#pragma once

__device__ float3 body_accel(float4 bi, float4 bj, float eps2, float3 acc);
__device__ float pair_potential(float4 bi, float4 bj, float eps2);
__device__ float4 kick_drift(float4 pos, float4 *vel, float3 acc, float dt, float damping);
__device__ float kinetic(float4 vel, float mass);
