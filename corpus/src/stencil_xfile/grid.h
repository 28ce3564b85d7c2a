// Shared declarations for the cross-file stencil program (compiled with -rdc=true).
//
// A Grid is a small struct passed by value; its accessors (grid.cu) and the
// coefficient helpers (coeffs.cu) are called from the kernels' inner loops in
// heat.cu, once per neighbour.
#pragma once

struct Grid {
    const float *data;
    int nx, ny;
};

__device__ int clampi(int v, int lo, int hi);
__device__ float grid_at(Grid g, int x, int y);
__device__ float grid_lap5(Grid g, int x, int y);
__device__ float grid_grad_x(Grid g, int x, int y);
__device__ float diffusivity(int x, int y, int nx, int ny);
__device__ float upwind(float left, float mid, float right, float vel);
__device__ float stencil_weight(int dx, int dy);
