// Kernels that shade and reflect with the vecmath library.
#include "vecmath.h"

// Lambert plus Blinn-Phong for one light, per surface point.
__global__ void shade_points(const float3 *pos, const float3 *normal, float *out, int n,
                             float lx, float ly, float lz, float shininess)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float3 p = pos[i];
    float3 nrm = v3_normalize(normal[i]);
    float3 l = v3_normalize(v3_sub(make_float3(lx, ly, lz), p));
    float3 v = v3_normalize(v3_scale(p, -1.0f));
    float3 h = v3_normalize(v3_add(l, v));
    float diff = fmaxf(v3_dot(nrm, l), 0.0f);
    float spec = __powf(fmaxf(v3_dot(nrm, h), 0.0f), shininess);
    out[i] = diff + spec;
}

// A ray bounced `bounces` times between the planes given by the normals.
__global__ void bounce_rays(const float3 *dir, const float3 *normals, float3 *out, int n,
                            int bounces)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float3 d = v3_normalize(dir[i]);
    for (int b = 0; b < bounces; b++)
        d = v3_normalize(v3_reflect(d, v3_normalize(normals[b & 7])));
    out[i] = d;
}
