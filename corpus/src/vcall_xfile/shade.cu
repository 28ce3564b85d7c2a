// Kernels: every call to a light is virtual, through Light *; no class of the
// hierarchy is constructed or defined in this file.
#include "lights.h"

#define MAX_LIGHTS 8

__device__ static float clampf(float v, float lo, float hi) { return fminf(fmaxf(v, lo), hi); }

// Direct lighting of n points (xyz triples) on a floor facing up, by a scene of up to
// MAX_LIGHTS lights that each block builds in shared memory.
__global__ void shade(const float *points, float *radiance, int *info, int n, int nlights)
{
    __shared__ Light *lights[MAX_LIGHTS];
    __shared__ int count;
    if (threadIdx.x == 0)
        count = make_scene(lights, nlights < MAX_LIGHTS ? nlights : MAX_LIGHTS, 1234u + blockIdx.x);
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        V3 p(clampf(points[3 * i], -2.0f, 2.0f), 0.0f, clampf(points[3 * i + 2], -2.0f, 2.0f));
        V3 nrm(0.0f, 1.0f, 0.0f);
        V3 sum;
        float total_power = 0.0f;
        int channels = 0, version = 0;
        for (int j = 0; j < count; j++) {
            const Light *l = lights[j];
            V3 L = l->illuminate(p, nrm);
            if (!l->is_delta())
                L = L * (1.0f / static_cast<const AreaLight *>(l)->area());
            sum = sum + L;
            total_power += l->power();
            channels += l->channels();
            version |= l->version();
        }
        radiance[3 * i] = sum.x;
        radiance[3 * i + 1] = sum.y;
        radiance[3 * i + 2] = sum.z;
        info[2 * i] = channels * 16 + version;
        info[2 * i + 1] = __float_as_int(total_power);
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int j = 0; j < count; j++)
            delete lights[j];
}

// One light per thread (kinds interleaved across the lanes of a warp): its power,
// layout, and the irradiance it gives at the origin.
__global__ void probe(float *out, int *meta, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Light *l = make_light(i % LIGHT_KINDS, V3(0.25f * (i & 7) - 1.0f, 1.5f, 0.5f), 1.0f + 0.125f * i);
    if (l == nullptr)
        return;
    V3 e = l->illuminate(V3(0.0f, 0.0f, 0.0f), V3(0.0f, 1.0f, 0.0f));
    float a = l->is_delta() ? 0.0f : static_cast<const AreaLight *>(l)->area();
    out[4 * i] = e.x + e.y + e.z;
    out[4 * i + 1] = l->power();
    out[4 * i + 2] = a;
    out[4 * i + 3] = 0.0f;
    meta[i] = l->version() * 100 + l->channels();
    delete l;
}
