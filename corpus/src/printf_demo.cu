// Device-side printf with many argument kinds (vprintf + local arg buffers).
#include <cstdio>

struct pt {
    int x, y;
};

__device__ __noinline__ void print_point(pt p, const char *tag)
{
    printf("[%s] point (%d, %d)\n", tag, p.x, p.y);
}

__global__ void hello(int n, float f, double d, const char *s, long long ll)
{
    printf("Hello from block %d thread %d of %d\n", blockIdx.x, threadIdx.x, blockDim.x);
    if (threadIdx.x == 0) {
        printf("n=%d f=%f d=%.10e ll=%lld ptr=%p\n", n, f, d, ll, s);
        printf("string arg: %s, char: %c, hex: %#x\n", s, 'Z', n);
        printf("no args at all\n");
        print_point(pt{n, -n}, "kernel");
    }
    if (n < 0)
        printf("negative n=%d (%u unsigned)\n", n, (unsigned)n);
}
