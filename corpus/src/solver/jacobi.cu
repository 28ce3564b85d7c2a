// Kernels of the sparse solver: sparse matrix-vector product, weighted Jacobi
// sweeps and the residual norm, all reading c_params.
#include "solver.h"

__global__ void ell_spmv(const int *cols, const float *vals, const float *x, float *y, int n)
{
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < n; r += gridDim.x * blockDim.x)
        y[r] = ell_row_dot(cols, vals, x, r, n, c_params);
}

// `sweeps` sweeps of weighted Jacobi, each thread owning its rows (a block-Jacobi
// smoother: other threads' rows are read as they are).
__global__ void jacobi_smooth(const int *cols, const float *vals, const float *b, float *x, int n,
                              int sweeps)
{
    for (int s = 0; s < sweeps; s++)
        for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < n; r += gridDim.x * blockDim.x) {
            float ax = ell_row_dot(cols, vals, x, r, n, c_params);
            float d = ell_diag(cols, vals, r, n, c_params);
            x[r] = relax(x[r], b[r], ax, d, c_params);
        }
}

__global__ void residual(const int *cols, const float *vals, const float *b, const float *x,
                         float *norm2, int *converged, int n)
{
    float acc = 0.0f;
    int ok = 0;
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < n; r += gridDim.x * blockDim.x) {
        float e = b[r] - ell_row_dot(cols, vals, x, r, n, c_params);
        acc += e * e;
        ok += fabsf(e) < c_params.tol;
    }
    atomicAdd(norm2, acc);
    atomicAdd(converged, ok);
}
