// clang CUDA mode compiled with -nocudalib: libdevice is not linked, so the
// __nv_* math functions remain as .extern .func declarations in the PTX.
#include "clang_cuda_min.h"

__global__ void math_kernel(const float *x, float *y, const double *dx, double *dy, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i];
    y[i] = sinf(v) + cosf(v) * expf(v) - logf(fabsf(v) + 1) + powf(fabsf(v), 0.5f) + tanhf(v) +
           erff(v) + atan2f(v, 1.0f);
    double d = dx[i];
    dy[i] = sin(d) + exp(d) + log1p(fabs(d)) + cbrt(d) + hypot(d, 2.0);
}
