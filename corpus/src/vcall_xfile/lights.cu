// Constructors and virtual functions of the Light hierarchy: every vtable is here.
#include "lights.h"

__device__ Light::Light(const V3 &pos, const V3 &color) : pos_(pos), color_(color) {}
__device__ Light::~Light() {}
__device__ int Light::version() const { return 2; }

__device__ PointLight::PointLight(const V3 &pos, const V3 &color) : Light(pos, color) {}
__device__ PointLight::~PointLight() {}

__device__ V3 PointLight::illuminate(const V3 &p, const V3 &n) const
{
    V3 d = pos_ - p;
    float r2 = d.dot(d) + 1e-4f;
    float cosn = fmaxf(0.0f, n.dot(d) * rsqrtf(r2));
    return color_ * (cosn / r2);
}
__device__ float PointLight::power() const
{
    return 4.0f * 3.14159265f * (color_.x + color_.y + color_.z) * (1.0f / 3.0f);
}
__device__ bool PointLight::is_delta() const { return true; }
__device__ int PointLight::channels() const { return 3; }

__device__ SpotLight::SpotLight(const V3 &pos, const V3 &color, const V3 &dir, float cos_cutoff)
    : PointLight(pos, color), dir_(dir), cos_cutoff_(cos_cutoff)
{
}
__device__ V3 SpotLight::illuminate(const V3 &p, const V3 &n) const
{
    V3 d = p - pos_;
    float r2 = d.dot(d) + 1e-4f;
    float inv = rsqrtf(r2);
    float cosa = dir_.dot(d) * inv;
    if (cosa < cos_cutoff_)
        return V3();
    float falloff = (cosa - cos_cutoff_) / (1.0f - cos_cutoff_);
    float cosn = fmaxf(0.0f, -n.dot(d) * inv);
    return color_ * (falloff * falloff * cosn / r2);
}
__device__ float SpotLight::power() const
{
    return 2.0f * 3.14159265f * (1.0f - 0.5f * (1.0f + cos_cutoff_)) *
           (color_.x + color_.y + color_.z) * (1.0f / 3.0f);
}
__device__ int SpotLight::channels() const { return 3; }

__device__ AreaLight::AreaLight(const V3 &pos, const V3 &color) : Light(pos, color) {}
__device__ bool AreaLight::is_delta() const { return false; }

__device__ QuadLight::QuadLight(const V3 &corner, const V3 &color, const V3 &edge_u,
                                const V3 &edge_v)
    : AreaLight(corner, color), u_(edge_u), v_(edge_v)
{
}
__device__ V3 QuadLight::illuminate(const V3 &p, const V3 &n) const
{
    // one sample at the centre of the quad, times its area (the caller divides it out
    // again to get the radiance per unit area)
    V3 c = pos_ + (u_ + v_) * 0.5f;
    V3 d = c - p;
    float r2 = d.dot(d) + 1e-4f;
    float inv = rsqrtf(r2);
    V3 ln = u_.cross(v_);
    float cosl = fabsf(ln.dot(d)) * rsqrtf(ln.dot(ln) + 1e-12f) * inv;
    float cosn = fmaxf(0.0f, n.dot(d) * inv);
    return color_ * (area() * cosl * cosn / r2);
}
__device__ float QuadLight::power() const
{
    return 3.14159265f * area() * (color_.x + color_.y + color_.z) * (1.0f / 3.0f);
}
__device__ int QuadLight::channels() const { return 3; }
__device__ float QuadLight::area() const
{
    V3 c = u_.cross(v_);
    return sqrtf(c.dot(c));
}
