// printf whose format is not a string literal: read from a table at run
// time, passed to a __noinline__ function as a parameter, built in a local
// array.  nvcc packs the arguments by their types alone (char and short
// promoted to int, float to double, each at its natural alignment); clang
// with -fno-builtin-printf leaves the variadic calls (ptx-rejected/), which
// ptxlink's printf stage lowers the same way.
#ifdef __NVCC__
#include <cstdio>
#else
#include "clang_cuda_min.h"
#endif

__device__ const char *fmts[] = {
    "table %u: c=%d uc=%u s=%d f=%f ll=%lld\n",
    "table %x: c=%c uc=%x s=%hd f=%.2e ll=%llx\n",
    "table %o: c=%i uc=%#x s=%hu f=%g ll=%lli\n",
};

__device__ const char *plain[] = {"no arguments\n", "none at all (100%%)\n"};

__device__ __noinline__ void say(const char *fmt, int i, double d, const char *s)
{
    printf(fmt, i, d, s);
}

extern "C" __global__ void runtime_fmt(int k, float f, long long ll, short sh)
{
    unsigned t = threadIdx.x;
    char c = (char)('A' + t);
    unsigned char uc = (unsigned char)(250 + t);
    printf(fmts[(t + k) % 3], t, c, uc, sh, f, ll);
    say(t & 1 ? "odd %d %.3f [%s]\n" : "even %d %f [%s]\n", (int)t, f * 2.0, "str");
    char local[9] = {'l', '=', '%', "dxo"[t % 3], ' ', '%', 'c', '\n', 0};
    printf(local, k + (int)t, c);
    printf(plain[t & 1]);
}
