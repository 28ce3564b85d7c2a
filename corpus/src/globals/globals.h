#pragma once
struct params_t {
    float scale;
    int iters;
    float coeffs[8];
    const char *label;
};

struct node_t {
    int value;
    node_t *next;
};

extern __constant__ params_t c_params;
extern __constant__ float c_lut[256];
extern __device__ int g_counter;
extern __device__ unsigned long long g_histogram[64];
extern __device__ node_t g_nodes[4];
extern __device__ node_t *g_head;
extern __device__ float g_matrix[4][4];
extern __device__ const char *g_names[3];

__device__ int defs_helper_public(int x);
