// Minimal CUDA "runtime" header for clang's CUDA mode with -nocudainc.
// clang 14 cannot parse the CUDA 13 headers, so this defines just enough:
// the attribute macros, the builtin variables, libdevice declarations, the
// device-function and math wrappers shipped with clang, and a few types.
#pragma once

#define CUDA_VERSION 11050
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))

typedef __SIZE_TYPE__ size_t;

#define INT_MAX __INT_MAX__
#define INT_MIN (-__INT_MAX__ - 1)
#define HUGE_VAL __builtin_huge_val()
#define HUGE_VALF __builtin_huge_valf()

struct dim3 {
    unsigned x, y, z;
    __host__ __device__ constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1)
        : x(x_), y(y_), z(z_) {}
};
struct uint3 {
    unsigned x, y, z;
};
struct float2 {
    float x, y;
};
struct __attribute__((aligned(16))) float4 {
    float x, y, z, w;
};

#include <__clang_cuda_builtin_vars.h>

#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>
#define CCM_DEVICE static __device__ __forceinline__

// Warp shuffles (clang's __clang_cuda_intrinsics.h needs CUDA's crt headers).
CCM_DEVICE int __shfl_down_sync(unsigned mask, int v, unsigned d)
{
    return __nvvm_shfl_sync_down_i32(mask, v, d, 0x1f);
}
CCM_DEVICE float __shfl_xor_sync(unsigned mask, float v, int lane)
{
    return __nvvm_shfl_sync_bfly_f32(mask, v, lane, 0x1f);
}

// A few atomics, written against the NVVM builtins that clang provides.
CCM_DEVICE int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
CCM_DEVICE unsigned atomicAdd(unsigned *p, unsigned v) { return __nvvm_atom_add_gen_i((int *)p, v); }
CCM_DEVICE unsigned long long atomicAdd(unsigned long long *p, unsigned long long v)
{
    return __nvvm_atom_add_gen_ll((long long *)p, v);
}
CCM_DEVICE float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
CCM_DEVICE double atomicAdd(double *p, double v) { return __nvvm_atom_add_gen_d(p, v); }
CCM_DEVICE int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
CCM_DEVICE int atomicCAS(int *p, int c, int v) { return __nvvm_atom_cas_gen_i(p, c, v); }
CCM_DEVICE int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
CCM_DEVICE unsigned __ballot_sync(unsigned mask, int pred) { return __nvvm_vote_ballot_sync(mask, pred); }
#undef CCM_DEVICE

extern "C" __device__ int printf(const char *, ...);
extern "C" __device__ int vprintf(const char *, const char *);
extern "C" __device__ void *malloc(size_t);
extern "C" __device__ void free(void *);
