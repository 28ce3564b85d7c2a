// Material classes: vtables for lambertian / metal / dielectric / light live here.
#include "raytrace.h"

__device__ material::~material() {}
__device__ vec3 material::emitted() const { return vec3(0, 0, 0); }

__device__ vec3 random_in_unit_sphere(rng_state *rng)
{
    vec3 p;
    do {
        p = vec3(rng_uniform(rng), rng_uniform(rng), rng_uniform(rng)) * 2.0f -
            vec3(1, 1, 1);
    } while (p.dot(p) >= 1.0f);
    return p;
}

static __device__ vec3 reflect(const vec3 &v, const vec3 &n) { return v - n * (2.0f * v.dot(n)); }

class lambertian : public material {
  public:
    vec3 albedo;
    __device__ explicit lambertian(vec3 a) : albedo(a) {}
    __device__ bool scatter(const ray &in, const hit_record &rec, vec3 &att, ray &sc,
                            rng_state *rng) const override
    {
        vec3 target = rec.p + rec.normal + random_in_unit_sphere(rng);
        sc = ray(rec.p, target - rec.p);
        att = albedo;
        return true;
    }
};

class metal : public material {
  public:
    vec3 albedo;
    float fuzz;
    __device__ metal(vec3 a, float f) : albedo(a), fuzz(f < 1 ? f : 1) {}
    __device__ bool scatter(const ray &in, const hit_record &rec, vec3 &att, ray &sc,
                            rng_state *rng) const override
    {
        vec3 refl = reflect(in.dir.unit(), rec.normal);
        sc = ray(rec.p, refl + random_in_unit_sphere(rng) * fuzz);
        att = albedo;
        return sc.dir.dot(rec.normal) > 0;
    }
};

class dielectric : public material {
  public:
    float ior;
    __device__ explicit dielectric(float i) : ior(i) {}
    __device__ static float schlick(float cosine, float ref_idx)
    {
        float r0 = (1 - ref_idx) / (1 + ref_idx);
        r0 = r0 * r0;
        return r0 + (1 - r0) * powf(1 - cosine, 5);
    }
    __device__ bool scatter(const ray &in, const hit_record &rec, vec3 &att, ray &sc,
                            rng_state *rng) const override
    {
        att = vec3(1, 1, 1);
        float ratio = rec.front_face ? (1.0f / ior) : ior;
        vec3 u = in.dir.unit();
        float cos_t = fminf((-u).dot(rec.normal), 1.0f);
        float sin_t = sqrtf(1.0f - cos_t * cos_t);
        vec3 dir;
        if (ratio * sin_t > 1.0f || schlick(cos_t, ratio) > rng_uniform(rng)) {
            dir = reflect(u, rec.normal);
        } else {
            vec3 perp = (u + rec.normal * cos_t) * ratio;
            vec3 par = rec.normal * -sqrtf(fabsf(1.0f - perp.dot(perp)));
            dir = perp + par;
        }
        sc = ray(rec.p, dir);
        return true;
    }
};

class diffuse_light : public material {
  public:
    vec3 color;
    __device__ explicit diffuse_light(vec3 c) : color(c) {}
    __device__ bool scatter(const ray &, const hit_record &, vec3 &, ray &,
                            rng_state *) const override
    {
        return false;
    }
    __device__ vec3 emitted() const override { return color; }
};

__device__ material *make_lambertian(vec3 albedo) { return new lambertian(albedo); }
__device__ material *make_metal(vec3 albedo, float fuzz) { return new metal(albedo, fuzz); }
__device__ material *make_dielectric(float ior) { return new dielectric(ior); }
__device__ material *make_light(vec3 color) { return new diffuse_light(color); }
