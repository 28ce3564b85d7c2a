#include "shared.h"

static __device__ float table[4] = {1.0f, 2.0f, 0.5f, -1.0f};

__device__ float scale(float x, int k)
{
	float f = table[k & 3];
	float y = x * f;
	if (y < 0.0f)
		y = -y;
	atomicAdd(&g_calls, 1);
	return y;
}
