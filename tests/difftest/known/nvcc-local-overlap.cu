// nvcc 13.0 -O3 gives two live local arrays the same local memory.
//
// f's a[2] is inlined into k's loop, which fills b[4]; nvcc -O3 puts both
// at __local_depot+0 (a 16-byte depot), so each call's a[] overwrites
// b[0..1] stored by the iterations before it.  The source has no
// undefined behaviour: every element is written before it is read and
// every index is in bounds.  b[i] is (x + i) + (x + i) % 2, x = in[tid]
// after the even/odd calls; nvcc -G, nvcc -O3 -Xcicc -O1 and clang -O2
// compute that, nvcc -O3 (whole-program or -rdc=true) does not for
// threads whose h % 4 is 0 or 1.  The even/odd recursion, only partly
// inlined into k, and f's reference parameter are needed to show it.
// In nvcc-local-overlap.ptx (nvcc 13.0.88's output), after the loop is
// unrolled, "st.local.u32 [%rd1], %r16" stores b[0] and the next
// "st.local.v2.u32 [%rd1], {%r14, %r17}", the second call's a[], writes
// over b[0] and b[1]; nvcc -O3 -Xcicc -O1 gives k a 32-byte depot.
//
// Seen first as difftest-calls.sh's "nvcc-rdc and nvcc-whole disagree"
// (seeds 104, 106, 204, 303, 710, 715, 902), reduced from seed 902.
//
//   tests/difftest/known/nvcc-local-overlap.sh checks whether an nvcc
//   still does it.
__device__ unsigned f(const unsigned &p)
{
    unsigned a[2];
    for (unsigned i = 0; i < 2u; i++)
        a[i] = p + i;
    return a[p % 2u];
}

__device__ unsigned odd(unsigned x, unsigned n);

__device__ unsigned even(unsigned x, unsigned n)
{
    if (n == 0u)
        return x;
    unsigned t = x + 1u;
    return odd(f(t), n - 1u);
}

__device__ unsigned odd(unsigned x, unsigned n)
{
    if (n == 0u)
        return x;
    return even(x + 2u, n - 1u);
}

extern "C" __global__ void k(unsigned *out, const unsigned *in)
{
    unsigned h = in[threadIdx.x];
    if (threadIdx.x < 15u)
        h = even(h, h & 3u);
    unsigned b[4];
    for (unsigned i = 0; i < 4u; i++) {
        unsigned t = h + i;
        b[i] = f(t);
    }
    out[threadIdx.x] = b[h % 4u];
}
