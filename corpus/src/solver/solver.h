// Shared declarations for the cross-file sparse solver (compiled with -rdc=true).
//
// The matrix is in ELL form (width entries per row, column -1 for padding).  The
// solver's settings are a __constant__ struct defined in params.cu that the
// device code only reads, and helpers take them by const reference: never
// written, so once inlined their loads can be hoisted or folded.
#pragma once

struct SolverParams {
    float omega;      // Jacobi relaxation
    float diag_shift; // added to the diagonal
    float tol;        // residual threshold for counting converged rows
    int width;        // ELL entries per row
};

extern __constant__ SolverParams c_params;

__device__ float ell_row_dot(const int *cols, const float *vals, const float *x, int row, int n,
                             const SolverParams &p);
__device__ float ell_diag(const int *cols, const float *vals, int row, int n,
                          const SolverParams &p);
__device__ float relax(float x, float b, float ax, float diag, const SolverParams &p);
