// ptxlink -dlink's program (tests/dlink/dlink.sh): host code that launches
// a kernel and fills __constant__ tables with cudaMemcpyToSymbol, one
// external, one static.  Their initializers are never what the kernel
// reads on a GPU: if the device link folded their loads, the program would
// be wrong.
#include <cstdio>
__constant__ float ctable[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static __constant__ int cstatic[4] = {1, 2, 3, 4};
extern __device__ float scaled(float);
__global__ void apply(float *p) { p[threadIdx.x] = scaled(p[threadIdx.x]) * ctable[3] + cstatic[1]; }
int main()
{
	float t[16] = {0}, *d;
	for (int i = 0; i < 16; i++)
		t[i] = 0.5f * i;
	int s[4] = {5, 6, 7, 8};
	cudaMemcpyToSymbol(ctable, t, sizeof t);
	cudaMemcpyToSymbol(cstatic, s, sizeof s);
	cudaMalloc(&d, sizeof t);
	apply<<<1, 16>>>(d);
	printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
	return 0;
}
