// Call sites: world construction on the device and the render loop performing
// virtual calls through hitable / material pointers whose classes are defined
// in other translation units.
#include "raytrace.h"
#include <cstdio>

#define MAX_DEPTH 8

__device__ vec3 color(const ray &r0, hitable *world, rng_state *rng)
{
    ray r = r0;
    vec3 throughput(1, 1, 1);
    vec3 acc(0, 0, 0);
    for (int depth = 0; depth < MAX_DEPTH; depth++) {
        hit_record rec;
        if (world->hit(r, 0.001f, 1.0e30f, rec)) {
            ray scattered;
            vec3 att;
            acc = acc + throughput * rec.mat->emitted();
            if (!rec.mat->scatter(r, rec, att, scattered, rng))
                return acc;
            throughput = throughput * att;
            r = scattered;
        } else {
            vec3 u = r.dir.unit();
            float t = 0.5f * (u.y + 1.0f);
            vec3 sky = vec3(1, 1, 1) * (1.0f - t) + vec3(0.5f, 0.7f, 1.0f) * t;
            return acc + throughput * sky;
        }
    }
    return acc;
}

__global__ void create_world(hitable **d_list, hitable **d_world, int nrand, rng_state *rs)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    rng_init(1984, rs);
    int i = 0;
    d_list[i++] = make_sphere(vec3(0, -1000, -1), 1000, make_lambertian(vec3(0.5f, 0.5f, 0.5f)));
    for (int a = -nrand; a < nrand; a++) {
        for (int b = -nrand; b < nrand; b++) {
            float choose = rng_uniform(rs);
            vec3 c(a + rng_uniform(rs), 0.2f, b + rng_uniform(rs));
            material *m;
            if (choose < 0.7f)
                m = make_lambertian(vec3(rng_uniform(rs), rng_uniform(rs), 0.3f));
            else if (choose < 0.9f)
                m = make_metal(vec3(0.7f, 0.6f, 0.5f), 0.5f * rng_uniform(rs));
            else
                m = make_dielectric(1.5f);
            d_list[i++] = make_sphere(c, 0.2f, m);
        }
    }
    d_list[i++] = make_sphere(vec3(0, 1, 0), 1.0f, make_dielectric(1.5f));
    d_list[i++] = make_sphere(vec3(4, 1, 0), 1.0f, make_metal(vec3(0.7f, 0.6f, 0.5f), 0.0f));
    d_list[i++] = make_sphere(vec3(0, 7, 0), 2.0f, make_light(vec3(4, 4, 4)));
    *d_world = make_list(d_list, i);
    printf("world: %d objects (counter %d)\n", (*d_world)->count(), g_num_objects);
}

__global__ void render_init(int w, int h, rng_state *states)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    if (i >= w || j >= h)
        return;
    int idx = j * w + i;
    rng_init(1984 + idx, &states[idx]);
}

__global__ void render(vec3 *fb, int w, int h, int spp, hitable **world, rng_state *states)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    if (i >= w || j >= h)
        return;
    int idx = j * w + i;
    rng_state local = states[idx];
    vec3 col(0, 0, 0);
    vec3 origin(13, 2, 3);
    for (int s = 0; s < spp; s++) {
        float u = (i + rng_uniform(&local)) / float(w);
        float v = (j + rng_uniform(&local)) / float(h);
        vec3 dir = vec3(-2.0f + 4.0f * u, -1.0f + 2.0f * v, -1.0f) - origin * 0.01f;
        col = col + color(ray(origin, dir), *world, &local);
    }
    states[idx] = local;
    col = col * (1.0f / spp);
    fb[idx] = vec3(sqrtf(col.x), sqrtf(col.y), sqrtf(col.z));
}

__global__ void free_world(hitable **d_world) { destroy_hitable(*d_world); }
