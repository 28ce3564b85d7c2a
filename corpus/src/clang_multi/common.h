#pragma once
#include "../clang_cuda_min.h"

struct Counter {
    int hits;
    float total;
};

extern __device__ Counter g_counter;       // defined in lib.cu
extern __constant__ float c_weights[8];     // defined in lib.cu
__device__ float lib_transform(float x, int k);
__device__ int lib_helper_public(int x);
