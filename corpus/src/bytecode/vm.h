// A stack-machine bytecode interpreter: the instructions are functions in
// ops.cu, dispatched through the __device__ table g_ops indexed by opcode
// (vm.cu's loop).
#pragma once

struct Vm {
    float stack[16];
    float locals[4];
    int sp;
    const float *in;
    float *out;
};

struct Insn {
    int op, arg;
};

// Each instruction returns the next pc; a negative one halts.
typedef int (*OpFn)(Vm *vm, int arg, int pc);

enum {
    OP_PUSH, OP_LOAD, OP_STORE, OP_INPUT, OP_ADD, OP_MUL, OP_DIV, OP_MAX,
    OP_JLT, OP_EMIT, OP_COUNT
};

extern __device__ OpFn g_ops[OP_COUNT];
