// Names as nvcc writes them in .nvHR*: patterns with '*' for a mangled
// name's parameters and for each instantiation of a template; namespaces,
// extern "C", a kernel only named (cudaFuncGetAttributes), anonymous
// namespaces (internal).  ID stands for the object's module id.
// host: kernel external _Z2tkIfEvPT_
// host: kernel external _Z2tkIiEvPT_
// host: kernel external _Z9addr_onlyPi
// host: kernel external _ZN2ns2nkEPf
// host: kernel external ck
// host: kernel internal __nv_static_29__ID__ZN40_GLOBAL__N__ID4anonEPi
// host: data external _ZN1S6memberE
// host: data external _ZN2ns5nsvarE
// host: data external readback
// host: data internal __nv_static_29__ID__ZN38_INTERNAL_ID40_GLOBAL__N__ID7anonvarE
// host: constant external c1
// host: constant external c2
namespace ns { __device__ float nsvar[4]; __global__ void nk(float *p) { p[0] = nsvar[0]; } }
template <typename T> __global__ void tk(T *p) { p[0] = T(1); }
extern "C" __global__ void ck(int *p) { p[0] = 2; }
__global__ void addr_only(int *p) { p[0] = 5; }
namespace S { extern __device__ int member; }
__device__ int S::member;
__device__ int readback;
__device__ int unread;
__constant__ int c1[2], c2[2], c3[2];
namespace { __global__ void anon(int *p) { p[0] = 9 + unread + c3[0]; } __device__ int anonvar; }
void host(int *d, float *f)
{
	ns::nk<<<1, 1>>>(f);
	tk<float><<<1, 1>>>(f);
	tk<int><<<1, 1>>>(d);
	ck<<<1, 1>>>(d);
	cudaFuncAttributes a;
	cudaFuncGetAttributes(&a, addr_only);
	int v;
	cudaMemcpyFromSymbol(&v, readback, sizeof v);
	cudaMemcpyToSymbol(S::member, &v, sizeof v);
	cudaMemcpyToSymbol(c1, &v, sizeof v);
	cudaMemcpyToSymbol(c2, &v, sizeof v);
	cudaMemcpyToSymbol(ns::nsvar, &v, sizeof v);
	anon<<<1, 1>>>(d);
	void *p;
	cudaGetSymbolAddress(&p, anonvar);
}
