#include "shared.h"

__device__ int g_calls;

// Each thread scales its element, then thread 0 sums the lot.
__global__ void run(float *out, const float *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = scale(in[i], i % 4);
	__syncthreads();
	if (i == 0) {
		Stats s = {0.0f, 0};
		accumulate(&s, out, n);
		out[n] = s.sum;
		out[n + 1] = (float)s.count;
	}
}
