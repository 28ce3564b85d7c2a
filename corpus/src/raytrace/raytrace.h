// Shared declarations for the multi-file ray tracer (compiled with -rdc=true).
// Class *definitions* of the virtual functions live in hitable.cu / material.cu;
// the call sites (render kernel) live in raytrace_main.cu.
#pragma once

// Small xorshift RNG (curand_kernel.h would drag ~1 MB of precalc tables in).
struct rng_state {
    unsigned s;
};
__device__ inline void rng_init(unsigned seed, rng_state *st) { st->s = seed * 747796405u + 2891336453u; }
__device__ inline float rng_uniform(rng_state *st)
{
    unsigned x = st->s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    st->s = x;
    return (x >> 8) * (1.0f / 16777216.0f);
}

struct vec3 {
    float x, y, z;
    __device__ vec3() : x(0), y(0), z(0) {}
    __device__ vec3(float a, float b, float c) : x(a), y(b), z(c) {}
    __device__ vec3 operator+(const vec3 &o) const { return vec3(x + o.x, y + o.y, z + o.z); }
    __device__ vec3 operator-(const vec3 &o) const { return vec3(x - o.x, y - o.y, z - o.z); }
    __device__ vec3 operator*(float t) const { return vec3(x * t, y * t, z * t); }
    __device__ vec3 operator*(const vec3 &o) const { return vec3(x * o.x, y * o.y, z * o.z); }
    __device__ vec3 operator-() const { return vec3(-x, -y, -z); }
    __device__ float dot(const vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
    __device__ float length() const { return sqrtf(dot(*this)); }
    __device__ vec3 unit() const { return *this * (1.0f / length()); }
};

struct ray {
    vec3 orig, dir;
    __device__ ray() {}
    __device__ ray(const vec3 &o, const vec3 &d) : orig(o), dir(d) {}
    __device__ vec3 at(float t) const { return orig + dir * t; }
};

class material;

struct hit_record {
    float t;
    vec3 p;
    vec3 normal;
    bool front_face;
    material *mat;
};

class hitable {
  public:
    __device__ virtual ~hitable();
    __device__ virtual bool hit(const ray &r, float tmin, float tmax, hit_record &rec) const = 0;
    __device__ virtual int count() const;
};

class material {
  public:
    __device__ virtual ~material();
    __device__ virtual bool scatter(const ray &in, const hit_record &rec, vec3 &attenuation,
                                    ray &scattered, rng_state *rng) const = 0;
    __device__ virtual vec3 emitted() const;
};

// Factories (defined in material.cu / hitable.cu) so that object construction
// -- and hence the vtable references -- happen in other translation units.
__device__ material *make_lambertian(vec3 albedo);
__device__ material *make_metal(vec3 albedo, float fuzz);
__device__ material *make_dielectric(float ior);
__device__ material *make_light(vec3 color);
__device__ hitable *make_sphere(vec3 center, float radius, material *m);
__device__ hitable *make_list(hitable **items, int n);
__device__ void destroy_hitable(hitable *h);
__device__ vec3 random_in_unit_sphere(rng_state *rng);

extern __device__ int g_num_objects;
