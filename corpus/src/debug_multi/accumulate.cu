#include "shared.h"

__device__ void accumulate(Stats *s, const float *v, int n)
{
	float sum = 0.0f;
	int count = 0;
	for (int j = 0; j < n; j++) {
		float x = v[j];
		if (x != 0.0f) {
			sum += x;
			count++;
		}
	}
	s->sum = sum;
	s->count = count;
}
