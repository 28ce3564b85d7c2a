// Minimal vector add / saxpy kernels with grid-stride loops.
__global__ void vecadd(const float *__restrict__ a, const float *__restrict__ b,
                       float *__restrict__ c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void saxpy(float alpha, const float *x, float *y, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = alpha * x[i] + y[i];
}

__global__ void vecadd_double2(const double2 *a, const double2 *b, double2 *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double2 x = a[i], y = b[i];
        c[i] = make_double2(x.x + y.x, x.y * y.y);
    }
}
