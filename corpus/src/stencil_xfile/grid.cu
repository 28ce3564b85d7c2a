// Accessors of the cross-file stencil program: clamped reads and derivatives.
#include "grid.h"

__device__ int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

// The value at (x, y), the border repeated outside the grid.
__device__ float grid_at(Grid g, int x, int y)
{
    x = clampi(x, 0, g.nx - 1);
    y = clampi(y, 0, g.ny - 1);
    return g.data[y * g.nx + x];
}

__device__ float grid_lap5(Grid g, int x, int y)
{
    return grid_at(g, x - 1, y) + grid_at(g, x + 1, y) + grid_at(g, x, y - 1) +
           grid_at(g, x, y + 1) - 4.0f * grid_at(g, x, y);
}

__device__ float grid_grad_x(Grid g, int x, int y)
{
    return 0.5f * (grid_at(g, x + 1, y) - grid_at(g, x - 1, y));
}
