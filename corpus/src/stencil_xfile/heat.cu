// Kernels of the cross-file stencil program: explicit heat diffusion, upwind
// advection and a 3x3 smoothing pass, grid-stride over a 2-D field.
#include "grid.h"

__global__ void heat_step(const float *in, float *out, int nx, int ny, float alpha)
{
    Grid g = {in, nx, ny};
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nx * ny; i += gridDim.x * blockDim.x) {
        int x = i % nx, y = i / nx;
        out[i] = grid_at(g, x, y) + alpha * diffusivity(x, y, nx, ny) * grid_lap5(g, x, y);
    }
}

__global__ void advect_x(const float *in, const float *vel, float *out, int nx, int ny, float dt)
{
    Grid g = {in, nx, ny};
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nx * ny; i += gridDim.x * blockDim.x) {
        int x = i % nx, y = i / nx;
        float v = vel[i];
        float d = upwind(grid_at(g, x - 1, y), grid_at(g, x, y), grid_at(g, x + 1, y), v);
        out[i] = grid_at(g, x, y) - dt * d - 0.01f * dt * grid_grad_x(g, x, y);
    }
}

__global__ void smooth3x3(const float *in, float *out, int nx, int ny)
{
    Grid g = {in, nx, ny};
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nx * ny; i += gridDim.x * blockDim.x) {
        int x = i % nx, y = i / nx;
        float s = 0.0f;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                s += stencil_weight(dx, dy) * grid_at(g, x + dx, y + dy);
        out[i] = s;
    }
}
