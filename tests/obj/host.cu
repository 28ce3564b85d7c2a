// What host code refers to, as nvcc records it in .nvHR* (tests/obj/objects.sh):
// each "host:" line is one PTX symbol the host references name, kind and
// linkage first; ID stands for the object's module id.
// host: kernel external _Z8launchedPi
// host: kernel internal __nv_static_28__ID__Z6hiddenPi
// host: data external dev_used
// host: data internal __nv_static_28__ID_dev_static
// host: constant external ctable
// host: constant internal __nv_static_28__ID_cstatic
__device__ int dev_used;            // filled with cudaMemcpyToSymbol
__device__ int dev_unused;          // never named by host code
static __device__ int dev_static;   // internal, filled by host code
__constant__ float ctable[16];      // a table the host fills
static __constant__ float cstatic[4];
__constant__ float cunused[4];
extern __device__ int helper(int);
__global__ void launched(int *p) { p[0] = helper(dev_used) + dev_static + (int)ctable[1] + (int)cstatic[0]; }
__global__ void never(int *p) { p[0] = dev_unused + (int)cunused[2]; }
static __global__ void hidden(int *p) { p[0] = 3; }
void host(int *d)
{
	int v = 1;
	float t[16] = {0};
	cudaMemcpyToSymbol(dev_used, &v, sizeof v);
	cudaMemcpyToSymbol(dev_static, &v, sizeof v);
	cudaMemcpyToSymbol(ctable, t, sizeof t);
	cudaMemcpyToSymbol(cstatic, t, 4 * sizeof *t);
	launched<<<1, 1>>>(d);
	hidden<<<1, 1>>>(d);
}
