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

/* Toolchain functions that read through some pointer arguments (a bit per
 * argument) only while the call runs, writing nothing through them and
 * keeping nothing: a .local object whose address goes there alone is free
 * again once the call returns.  vprintf copies its format and its packed
 * arguments into the printf FIFO as it runs; the host formats them after
 * the kernel, when a thread's .local bytes are gone (so a format built in
 * a local array, as corpus/src/printf_runtime.cu's, is read in the call),
 * and nvcc's printf lowering reuses one buffer for every call. */
static const struct {
	const char *name;
	uint32_t args;
} reads_only[] = {
	{"vprintf", 1u << 0 | 1u << 1},
};

uint32_t runtime_reads_only(const char *name)
{
	for (size_t i = 0; i < sizeof reads_only / sizeof *reads_only; i++)
		if (!strcmp(name, reads_only[i].name))
			return reads_only[i].args;
	return 0;
}

/* A module that gives a body to a name the toolchain supplies (ptxas takes
 * a .func vprintf of the user's) calls its own function by that name. */
int defines_runtime(const Module *m)
{
	for (const Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body && is_runtime_symbol(s->func->name))
			return 1;
	return 0;
}
