// Kernels: the integrator is built on the device, as a local object or as one
// heap object per block, and handed to advance() (driver.cu) by base pointer.
#include "integrator.h"

__device__ static Particle load_particle(const float4 &v)
{
    // clamp into the box (fmaxf/fminf also turn a NaN into a bound)
    Particle p;
    p.x = fminf(fmaxf(v.x, -1.0f), 1.0f);
    p.y = fminf(fmaxf(v.y, -1.0f), 1.0f);
    p.vx = fminf(fmaxf(v.z, -4.0f), 4.0f);
    p.vy = fminf(fmaxf(v.w, -4.0f), 4.0f);
    return p;
}

__global__ void simulate_local(const float4 *init, float4 *out, float *energy, int *hits, int n,
                               int steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Leapfrog lf(4.0f, 0.05f, 1.0f, 0.02f, 4);
    Particle p = load_particle(init[i]);
    int h = 0;
    energy[i] = advance(&lf, p, steps, &h);
    out[i] = make_float4(p.x, p.y, p.vx, p.vy);
    atomicAdd(hits, h);
}

__global__ void simulate_shared(const float4 *init, float4 *out, float *energy, int *hits, int n,
                                int steps)
{
    __shared__ Integrator *integ;
    if (threadIdx.x == 0)
        integ = new_integrator(9.0f, 0.1f, 0.75f, 0.01f, 3 + (blockIdx.x & 1));
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (integ != nullptr && i < n) {
        Particle p = load_particle(init[i]);
        int h = 0;
        energy[i] = advance(integ, p, steps, &h);
        out[i] = make_float4(p.x, p.y, p.vx, p.vy);
        hits[i] = h;
    }
    __syncthreads();
    if (threadIdx.x == 0)
        delete integ;
}
