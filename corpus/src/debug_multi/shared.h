// debug_multi: a program of three -G modules, for linking DWARF.
#pragma once

struct Stats {
	float sum;
	int count;
};

extern __device__ int g_calls;
__device__ float scale(float x, int k);
__device__ void accumulate(Stats *s, const float *v, int n);
