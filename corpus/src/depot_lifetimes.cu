// Local arrays whose lifetimes do not overlap, for depot repacking (issue
// 13).  Every array is indexed by run-time values, so it stays in local
// memory; nvcc lays them out end to end, LLVM's stack colouring (clang)
// lets disjoint ones share bytes.

#define N0 40   // 160 bytes of int
#define N1 56   // 224
#define N2 48   // 192
#define N3 50   // 200

// Four block-scoped arrays used one after another.
extern "C" __global__ void scoped_blocks(const int *in, int *out, int k)
{
    int t = threadIdx.x, acc = 0;
    {
        int a[N0];
        for (int i = 0; i < N0; i++) a[i] = in[(i + t) % 64] + i;
        acc += a[(k + t) % N0];
    }
    {
        int b[N1];
        for (int i = 0; i < N1; i++) b[i] = in[(i * 3 + t) % 64] ^ i;
        acc += b[(k * 5 + t) % N1];
    }
    {
        int c[N2];
        for (int i = 0; i < N2; i++) c[i] = in[(i * 7 + t) % 64] - i;
        acc += c[(k * 3 + t) % N2];
    }
    {
        int d[N3];
        for (int i = 0; i < N3; i++) d[i] = in[(i + 2 * t) % 64] * (i + 1);
        acc += d[(k + 7 * t) % N3];
    }
    out[t] = acc;
}

// Sequential phases in one scope: the first array is dead once the second
// is filled from it.
extern "C" __global__ void phases(const float *in, float *out, int k)
{
    int t = threadIdx.x;
    float x[32], y[32];
    for (int i = 0; i < 32; i++) x[i] = in[(i + t) % 64] * 0.5f;
    float s = x[(k + t) % 32];
    for (int i = 0; i < 32; i++) y[i] = s + in[(i * 5 + t) % 64];
    out[t] = y[(2 * k + t) % 32];
}

__device__ __noinline__ int mix(int v, int w)
{
    return v * 31 + (w ^ (v >> 3));
}

// An array live across a call, and one that is not.
extern "C" __global__ void across_call(const int *in, int *out, int k)
{
    int t = threadIdx.x;
    int keep[24];
    for (int i = 0; i < 24; i++) keep[i] = in[(i + t) % 64];
    int m = mix(keep[(k + t) % 24], t);
    int tmp[24];
    for (int i = 0; i < 24; i++) tmp[i] = in[(i * 3 + t) % 64] + m;
    out[t] = keep[(k * 3 + t) % 24] + tmp[(k + 5 * t) % 24];
}

__device__ __noinline__ int sum_through(const int *p, int n, int k)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += p[(i + k) % n];
    return s;
}

// An array whose address escapes into a callee beside one that does not.
extern "C" __global__ void escapes(const int *in, int *out, int k)
{
    int t = threadIdx.x;
    int seen[16];
    for (int i = 0; i < 16; i++) seen[i] = in[(i + t) % 64];
    int s = sum_through(seen, 16, k);
    int own[16];
    for (int i = 0; i < 16; i++) own[i] = in[(i * 11 + t) % 64] + s;
    out[t] = own[(k + t) % 16];
}

// A loop that fills and reads one array per iteration.
extern "C" __global__ void per_iteration(const int *in, int *out, int k)
{
    int t = threadIdx.x, acc = 0;
    for (int r = 0; r < 4; r++) {
        int w[20];
        for (int i = 0; i < 20; i++) w[i] = in[(i + r + t) % 64] * r;
        acc += w[(k + r + t) % 20];
    }
    out[t] = acc;
}
