/* Symbols the CUDA toolchain provides: calls to them may stay .extern. */
#include <string.h>
#include "ir.h"

/* Built into ptxas: whole-program compilation resolves them itself. */
static const char *const builtin[] = {
	"vprintf", "malloc", "free", "__assertfail", "__assert_fail", NULL,
};

/* The device runtime (libcudadevrt): resolved by nvlink after ptxas -c. */
static const char *const cudadevrt[] = {
	"cudaGetParameterBuffer", "cudaGetParameterBufferV2", "cudaLaunchDevice",
	"cudaLaunchDeviceV2", "cudaDeviceSynchronize", "cudaGetDevice",
	"cudaDeviceGetAttribute", "cudaDeviceGetLimit", "cudaDeviceGetCacheConfig",
	"cudaDeviceGetSharedMemConfig", "cudaStreamCreateWithFlags", "cudaStreamDestroy",
	"cudaEventCreateWithFlags", "cudaEventRecord", "cudaEventRecordWithFlags",
	"cudaEventDestroy", "cudaFuncGetAttributes", "cudaGetLastError",
	"cudaPeekAtLastError", "cudaGetErrorString", "cudaGetErrorName", "cudaMalloc",
	"cudaFree", "cudaMemcpyAsync", "cudaMemcpy2DAsync", "cudaMemcpy3DAsync",
	"cudaMemsetAsync", "cudaMemset2DAsync", "cudaMemset3DAsync",
	"cudaRuntimeGetVersion", "cudaStreamWaitEvent", "cudaGraphLaunch",
	"cudaOccupancyMaxActiveBlocksPerMultiprocessor",
	"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
	"cudaCGGetIntrinsicHandle", "cudaCGSynchronize", "cudaCGSynchronizeGrid",
	"cudaCGGetSize", "cudaCGGetRank", "cudaCGGetIntrinsicHandle_v2",
	"cudaGetDeviceCount", NULL,
};

/* CUDA 12+ spells the dynamic-parallelism entry points __cudaCDP2*. */
int needs_cudadevrt(const char *name)
{
	return str_in(name, cudadevrt) || strncmp(name, "__cudaCDP", 9) == 0;
}

/* libdevice's __nv_* math functions come as bitcode, never as PTX: a
 * producer that left them undefined (clang -nocudalib) is linked later. */
int is_runtime_symbol(const char *name)
{
	return str_in(name, builtin) || needs_cudadevrt(name) || strncmp(name, "__nv_", 5) == 0;
}
