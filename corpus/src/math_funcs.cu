// Math library coverage (libdevice-backed in NVVM): transcendental, special
// functions, fast intrinsics, double precision, integer helpers, rounding.
__global__ void float_math(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i];
    float r = sinf(v) + cosf(v) + tanf(v) + expf(v) + logf(fabsf(v) + 1) + powf(fabsf(v), 1.7f);
    r += erff(v) + erfcinvf(0.5f + 0.1f * v) + lgammaf(fabsf(v) + 1) + tgammaf(v * 0.1f + 2);
    r += cbrtf(v) + hypotf(v, r) + atan2f(v, r) + asinhf(v) + j0f(v) + y1f(fabsf(v) + 1);
    r += __sinf(v) + __expf(v) + __fdividef(v, r + 1) + __frsqrt_rn(fabsf(v) + 1);
    r += normcdff(v) + rnormf(3, &y[0]) + fmodf(v, 3.f) + remainderf(v, 2.f) + ldexpf(v, 3);
    float s, c;
    sincosf(v, &s, &c);
    int e;
    r += frexpf(v, &e) + e + s * c + rintf(v) + truncf(v) + nearbyintf(v) + copysignf(r, v);
    r += __fadd_rz(v, 1.f) + __fmul_ru(v, 2.f) + __fsqrt_rd(fabsf(v)) + __saturatef(v);
    y[i] = r;
}

__global__ void double_math(const double *x, double *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double v = x[i];
    double r = sin(v) + cos(v) + exp(v) + log1p(fabs(v)) + pow(fabs(v), 2.5) + sqrt(fabs(v));
    r += erfc(v) + lgamma(fabs(v) + 1) + cyl_bessel_i0(v) + atan(v) + acosh(fabs(v) + 1);
    r += fma(v, r, 1.0) + rsqrt(fabs(v) + 1) + __dadd_rn(v, 1) + __ddiv_ru(v, 3) + expm1(v);
    r += sinpi(v) + cospi(v) + norm3d(v, r, 1) + nextafter(v, 0.0) + scalbn(v, 4);
    y[i] = r;
}

__global__ void int_math(const unsigned *a, unsigned long long *b, int *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = a[i];
    unsigned long long w = b[i];
    int r = __popc(v) + __clz(v) + __ffs(v) + __popcll(w) + __clzll(w) + __ffsll(w);
    r += __brev(v) + (int)__brevll(w) + __byte_perm(v, v >> 3, 0x5140) + __funnelshift_l(v, v, 7);
    r += __mulhi((int)v, 12345) + (int)__umul64hi(w, w) + __sad(v, 17, 3) + __vadd2(v, 0x10001);
    r += __vabsss4(v) + __dp4a((int)v, 0x01020304, 5) + __hadd((int)v, 3) + __usad(v, 9, 1);
    r += umin(v, 77u) + llmax((long long)w, -5) + abs((int)v) + __viaddmax_s32((int)v, 3, 9);
    c[i] = r;
    b[i] = w * 0x9E3779B97F4A7C15ull + (w >> 7) / (v | 1);
}
