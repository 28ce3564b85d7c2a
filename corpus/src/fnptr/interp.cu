// A tiny bytecode interpreter: dispatches through the function-pointer tables
// defined in ops.cu, indexed by runtime values.
#include "ops.h"
#include <cstdio>

struct insn {
    unsigned char op;  // index into g_binops
    unsigned char un;  // index into g_unops
    short imm;
};

__device__ float run_program(const insn *prog, int len, float x)
{
    float acc = x;
    for (int pc = 0; pc < len; pc++) {
        insn i = prog[pc];
        binop_t f = g_binops[i.op % 6];
        acc = f(acc, (float)i.imm);
        acc = g_unops[i.un & 3](acc);
    }
    return acc;
}

__global__ void interp_kernel(const insn *prog, int len, const float *in, float *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n)
        out[tid] = run_program(prog, len, in[tid]);
}

__global__ void direct_calls(float *out, const float *a, const float *b, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;
    // direct calls to extern __device__ functions defined in ops.cu
    float r = op_add(a[tid], b[tid]);
    r = op_mul(r, op_sub(a[tid], b[tid]));
    r += op_hypot(a[tid], 2.0f);
    r += apply_twice(op_div, r, 3.0f);
    out[tid] = r;
}

__global__ void table_by_name(int which, float a, float b)
{
    int k = (which + threadIdx.x) % g_num_ops;
    op_entry e = g_op_entries[k];
    printf("thread %d: %s(%f, %f) = %f [%d flops]\n", threadIdx.x, e.name, a, b, e.fn(a, b),
           e.flops);
}
