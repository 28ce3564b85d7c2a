// The interpreter loop and the kernels that run programs on it.
#include "vm.h"

// sum of in[i]*i for i < 8, then its maximum with 2, then divided by 3
__constant__ Insn c_poly[] = {
    {OP_PUSH, 0}, {OP_STORE, 0},      // i = 0
    {OP_PUSH, 64}, {OP_STORE, 1},     // n = 8
    {OP_PUSH, 0}, {OP_STORE, 2},      // acc = 0
    {OP_LOAD, 2}, {OP_INPUT, 3}, {OP_LOAD, 0}, {OP_MUL, 0}, {OP_ADD, 0}, {OP_STORE, 2},  // 6
    {OP_LOAD, 0}, {OP_PUSH, 8}, {OP_ADD, 0}, {OP_STORE, 0},
    {OP_JLT, 6},
    {OP_LOAD, 2}, {OP_PUSH, 16}, {OP_MAX, 0}, {OP_PUSH, 24}, {OP_DIV, 0},
    {OP_EMIT, -1},
};

// Runs the program from pc 0 for at most limit steps: the step count.
__device__ int run(Vm *vm, const Insn *code, int limit)
{
    int pc = 0, steps = 0;
    while (pc >= 0 && steps < limit) {
        Insn in = code[pc];
        pc = g_ops[in.op](vm, in.arg, pc);
        steps++;
    }
    return steps;
}

__global__ void vm_poly(float *out, const float *in, int limit)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    Vm vm;
    vm.sp = 0;
    for (int i = 0; i < 4; i++)
        vm.locals[i] = 0.0f;
    vm.in = in + (t & 31);
    vm.out = out + 64 * t;
    int steps = run(&vm, c_poly, limit < 1 ? 200 : limit * 50);
    out[64 * t + 63] = (float)steps;
}

// A program read from memory: opcodes taken modulo the table, so that any
// bytes are a program; at most limit steps.
__global__ void vm_any(float *out, const Insn *code, const float *in, int limit)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ Insn prog[32];
    if (threadIdx.x < 32) {
        Insn i = code[threadIdx.x];
        prog[threadIdx.x] = Insn{(int)((unsigned)i.op % OP_COUNT), i.arg & 31};
        if (threadIdx.x == 31)
            prog[31] = Insn{OP_EMIT, -1};
    }
    __syncthreads();
    Vm vm;
    vm.sp = 0;
    for (int i = 0; i < 4; i++)
        vm.locals[i] = (float)i;
    vm.in = in + (t & 31);
    vm.out = out + 64 * t;
    int steps = run(&vm, prog, limit < 1 ? 64 : limit * 8);
    out[64 * t + 63] = (float)steps;
}
