// Device functions and __device__ tables of function pointers (definitions).
#include "ops.h"

__device__ __noinline__ float op_add(float a, float b) { return a + b; }
__device__ __noinline__ float op_sub(float a, float b) { return a - b; }
__device__ __noinline__ float op_mul(float a, float b) { return a * b; }
__device__ __noinline__ float op_div(float a, float b) { return b != 0.f ? a / b : 0.f; }
__device__ float op_hypot(float a, float b) { return hypotf(a, b); }
__device__ float op_pow(float a, float b) { return powf(fabsf(a), b); }

static __device__ float u_neg(float x) { return -x; }
static __device__ float u_sqrt(float x) { return sqrtf(fabsf(x)); }
static __device__ float u_exp(float x) { return __expf(x); }
static __device__ float u_id(float x) { return x; }

__device__ binop_t g_binops[6] = {op_add, op_sub, op_mul, op_div, op_hypot, op_pow};
__device__ unop_t g_unops[4] = {u_neg, u_sqrt, u_exp, u_id};
__device__ op_entry g_op_entries[] = {
    {"add", op_add, 1}, {"sub", op_sub, 1}, {"mul", op_mul, 1},
    {"div", op_div, 4}, {"hypot", op_hypot, 8}, {"pow", op_pow, 20},
};
__device__ int g_num_ops = sizeof(g_op_entries) / sizeof(g_op_entries[0]);

__device__ float apply_twice(binop_t f, float a, float b) { return f(f(a, b), b); }
