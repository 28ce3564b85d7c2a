// Geometry classes: vtables for sphere / hitable_list are emitted here.
#include "raytrace.h"

__device__ int g_num_objects = 0;

__device__ hitable::~hitable() {}
__device__ int hitable::count() const { return 1; }

class sphere : public hitable {
  public:
    vec3 center;
    float radius;
    material *mat;
    __device__ sphere(vec3 c, float r, material *m) : center(c), radius(r), mat(m) {}
    __device__ ~sphere() override { delete mat; }
    __device__ bool hit(const ray &r, float tmin, float tmax, hit_record &rec) const override;
};

__device__ bool sphere::hit(const ray &r, float tmin, float tmax, hit_record &rec) const
{
    vec3 oc = r.orig - center;
    float a = r.dir.dot(r.dir);
    float hb = oc.dot(r.dir);
    float c = oc.dot(oc) - radius * radius;
    float disc = hb * hb - a * c;
    if (disc < 0)
        return false;
    float sq = sqrtf(disc);
    float root = (-hb - sq) / a;
    if (root <= tmin || root >= tmax) {
        root = (-hb + sq) / a;
        if (root <= tmin || root >= tmax)
            return false;
    }
    rec.t = root;
    rec.p = r.at(root);
    vec3 outward = (rec.p - center) * (1.0f / radius);
    rec.front_face = r.dir.dot(outward) < 0;
    rec.normal = rec.front_face ? outward : -outward;
    rec.mat = mat;
    return true;
}

class hitable_list : public hitable {
  public:
    hitable **list;
    int n;
    __device__ hitable_list(hitable **l, int k) : list(l), n(k) {}
    __device__ ~hitable_list() override
    {
        for (int i = 0; i < n; i++)
            delete list[i];
    }
    __device__ bool hit(const ray &r, float tmin, float tmax, hit_record &rec) const override
    {
        hit_record tmp;
        bool any = false;
        float closest = tmax;
        for (int i = 0; i < n; i++) {
            if (list[i]->hit(r, tmin, closest, tmp)) {
                any = true;
                closest = tmp.t;
                rec = tmp;
            }
        }
        return any;
    }
    __device__ int count() const override
    {
        int c = 0;
        for (int i = 0; i < n; i++)
            c += list[i]->count();
        return c;
    }
};

__device__ hitable *make_sphere(vec3 center, float radius, material *m)
{
    atomicAdd(&g_num_objects, 1);
    return new sphere(center, radius, m);
}

__device__ hitable *make_list(hitable **items, int n) { return new hitable_list(items, n); }

__device__ void destroy_hitable(hitable *h) { delete h; }
