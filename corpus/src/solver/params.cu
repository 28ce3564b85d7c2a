// The solver's settings and its per-row helpers.
#include "solver.h"

__constant__ SolverParams c_params = {0.8f, 0.5f, 1e-3f, 4};

// sum over the row's stored entries of vals * x[col]; padding (col < 0) and
// columns outside the matrix are skipped.
__device__ float ell_row_dot(const int *cols, const float *vals, const float *x, int row, int n,
                             const SolverParams &p)
{
    float s = 0.0f;
    for (int k = 0; k < p.width; k++) {
        int c = cols[row * p.width + k];
        if (c >= 0 && c < n)
            s += vals[row * p.width + k] * x[c];
    }
    return s;
}

__device__ float ell_diag(const int *cols, const float *vals, int row, int n,
                          const SolverParams &p)
{
    float d = p.diag_shift;
    for (int k = 0; k < p.width; k++)
        if (cols[row * p.width + k] == row)
            d += vals[row * p.width + k];
    return d;
}

// One weighted Jacobi update of x from its row: x + omega (b - Ax) / diag.
__device__ float relax(float x, float b, float ax, float diag, const SolverParams &p)
{
    return diag != 0.0f ? x + p.omega * (b - ax) / diag : x;
}
