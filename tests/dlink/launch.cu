// Dynamic parallelism in tests/dlink/dlink.sh: a kernel launching a
// kernel needs the device runtime (-lcudadevrt), which ptxlink -dlink
// links through nvlink after ptxas -c.
#include <cstdio>
__global__ void child(int *p) { p[threadIdx.x] = threadIdx.x; }
__global__ void parent(int *p) { child<<<1, 8>>>(p); }
int main()
{
	int *d;
	cudaMalloc(&d, 64);
	parent<<<1, 1>>>(d);
	printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
	return 0;
}
