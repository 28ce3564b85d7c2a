// The instructions of the bytecode machine and their dispatch table.
#include "vm.h"

static __device__ float pop(Vm *vm) { return vm->stack[--vm->sp & 15]; }
static __device__ void push(Vm *vm, float v) { vm->stack[vm->sp++ & 15] = v; }

__device__ int op_push(Vm *vm, int arg, int pc)
{
    push(vm, (float)arg * 0.125f);
    return pc + 1;
}

__device__ int op_load(Vm *vm, int arg, int pc)
{
    push(vm, vm->locals[arg & 3]);
    return pc + 1;
}

__device__ int op_store(Vm *vm, int arg, int pc)
{
    vm->locals[arg & 3] = pop(vm);
    return pc + 1;
}

__device__ int op_input(Vm *vm, int arg, int pc)
{
    push(vm, vm->in[arg & 255] * 0.001f);
    return pc + 1;
}

__device__ int op_add(Vm *vm, int, int pc)
{
    float b = pop(vm), a = pop(vm);
    push(vm, a + b);
    return pc + 1;
}

__device__ int op_mul(Vm *vm, int, int pc)
{
    float b = pop(vm), a = pop(vm);
    push(vm, a * b);
    return pc + 1;
}

__device__ int op_div(Vm *vm, int, int pc)
{
    float b = pop(vm), a = pop(vm);
    push(vm, a / (fabsf(b) < 1e-3f ? 1e-3f : b));
    return pc + 1;
}

__device__ int op_max(Vm *vm, int, int pc)
{
    float b = pop(vm), a = pop(vm);
    push(vm, fmaxf(a, b));
    return pc + 1;
}

// Jumps to arg while local 0 is below local 1.
__device__ int op_jlt(Vm *vm, int arg, int pc)
{
    return vm->locals[0] < vm->locals[1] ? arg : pc + 1;
}

// Writes the top of the stack to out[arg] (arg < 63); arg < 0 halts after it.
__device__ int op_emit(Vm *vm, int arg, int pc)
{
    float v = pop(vm);
    vm->out[arg < 0 ? -arg - 1 : arg] = v;
    return arg < 0 ? -1 : pc + 1;
}

__device__ OpFn g_ops[OP_COUNT] = {
    op_push, op_load, op_store, op_input, op_add, op_mul, op_div, op_max, op_jlt, op_emit,
};
