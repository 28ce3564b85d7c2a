// Half / bfloat16 arithmetic: __half2 SIMD math, conversions, hfma2, h2exp,
// __hmax2_nan, bf16x2 fma, packed rounding conversions, fp8 conversions.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

__global__ void half2_axpy(const __half2 *x, __half2 *y, __half2 a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half2 v = __hfma2(a, x[i], y[i]);
        v = __hmax2_nan(v, __float2half2_rn(0.f));
        v = __hadd2_sat(v, h2exp(__hmul2(v, __float2half2_rn(-0.5f))));
        y[i] = v;
    }
}

__global__ void bf16_gelu(const __nv_bfloat162 *in, __nv_bfloat162 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float2 f = __bfloat1622float2(in[i]);
    f.x = 0.5f * f.x * (1.f + tanhf(0.79788456f * (f.x + 0.044715f * f.x * f.x * f.x)));
    f.y = 0.5f * f.y * (1.f + tanhf(0.79788456f * (f.y + 0.044715f * f.y * f.y * f.y)));
    __nv_bfloat162 r = __float22bfloat162_rn(f);
    out[i] = __hfma2(r, in[i], __float2bfloat162_rn(1.0f));
}

__global__ void conversions(const float *f, __half *h, __nv_bfloat16 *b, __nv_fp8_e4m3 *e4,
                            __nv_fp8_e5m2 *e5, int *iout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = f[i];
    h[i] = __float2half_rz(v);
    b[i] = __float2bfloat16_rd(v);
    e4[i] = __nv_fp8_e4m3(v);
    e5[i] = __nv_fp8_e5m2(v * 2);
    iout[i] = __half2int_rn(h[i]) + __bfloat162int_rz(b[i]) + (int)float(e4[i]) + __hisnan(h[i]);
}

__global__ void half_dot(const __half *a, const __half *b, float *out, int n)
{
    __half acc = __float2half(0.f);
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc = __hfma(a[i], b[i], acc);
    atomicAdd(out, __half2float(acc));
    __half2 *o2 = reinterpret_cast<__half2 *>(out + 1);
    atomicAdd(o2, __halves2half2(acc, acc));
}
