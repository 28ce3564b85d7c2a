// Coefficients of the cross-file stencil program.
#include "grid.h"

// Lower diffusivity in a band through the middle of the domain.
__device__ float diffusivity(int x, int y, int nx, int ny)
{
    int band = ny / 4;
    return (y > ny / 2 - band && y < ny / 2 + band) ? 0.25f : 1.0f;
}

// First-order upwind difference for a velocity of either sign.
__device__ float upwind(float left, float mid, float right, float vel)
{
    return vel > 0.0f ? vel * (mid - left) : vel * (right - mid);
}

// A 3x3 smoothing kernel: 4 at the centre, 2 at the edges, 1 at the corners.
__device__ float stencil_weight(int dx, int dy)
{
    int w = (dx == 0 ? 2 : 1) * (dy == 0 ? 2 : 1);
    return w * (1.0f / 16.0f);
}
