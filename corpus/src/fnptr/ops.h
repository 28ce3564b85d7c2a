#pragma once
typedef float (*binop_t)(float, float);
typedef float (*unop_t)(float);

struct op_entry {
    const char *name;
    binop_t fn;
    int flops;
};

__device__ float op_add(float a, float b);
__device__ float op_sub(float a, float b);
__device__ float op_mul(float a, float b);
__device__ float op_div(float a, float b);
__device__ float op_hypot(float a, float b);
__device__ float op_pow(float a, float b);
__device__ float apply_twice(binop_t f, float a, float b);

extern __device__ binop_t g_binops[6];
extern __device__ op_entry g_op_entries[];
extern __device__ unop_t g_unops[4];
extern __device__ int g_num_ops;
