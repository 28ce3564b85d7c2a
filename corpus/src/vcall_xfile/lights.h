// Shared declarations for the cross-file virtual-call program (compiled with -rdc=true).
//
//   lights.cu   the classes' constructors and virtual functions, hence every vtable
//   factory.cu  device factories: `new` of each concrete class
//   shade.cu    the kernels, which call through `Light *` only
//
// nvcc emits a vtable where an object of the class is constructed; the constructors
// are out of line in lights.cu, so that is the only file with vtables.  The call sites:
//   illuminate, power, is_delta, ~Light   several implementations differ
//   AreaLight::area                       one implementation (QuadLight; AreaLight is abstract)
//   channels                              every class returns the same constant 3
//   version                               defined once, in Light, never overridden
#pragma once

struct V3 {
    float x, y, z;
    __device__ V3() : x(0), y(0), z(0) {}
    __device__ V3(float a, float b, float c) : x(a), y(b), z(c) {}
    __device__ V3 operator+(const V3 &o) const { return V3(x + o.x, y + o.y, z + o.z); }
    __device__ V3 operator-(const V3 &o) const { return V3(x - o.x, y - o.y, z - o.z); }
    __device__ V3 operator*(float t) const { return V3(x * t, y * t, z * t); }
    __device__ float dot(const V3 &o) const { return x * o.x + y * o.y + z * o.z; }
    __device__ V3 cross(const V3 &o) const
    {
        return V3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x);
    }
};

class Light {
  public:
    __device__ Light(const V3 &pos, const V3 &color);
    __device__ virtual ~Light();
    // Radiance reaching point p with normal n (unoccluded).
    __device__ virtual V3 illuminate(const V3 &p, const V3 &n) const = 0;
    __device__ virtual float power() const = 0;
    __device__ virtual bool is_delta() const = 0;
    __device__ virtual int channels() const = 0;
    // Version of the parameter layout; the same for every light.
    __device__ virtual int version() const;

  protected:
    V3 pos_, color_;
};

class PointLight : public Light {
  public:
    __device__ PointLight(const V3 &pos, const V3 &color);
    __device__ ~PointLight() override;
    __device__ V3 illuminate(const V3 &p, const V3 &n) const override;
    __device__ float power() const override;
    __device__ bool is_delta() const override;
    __device__ int channels() const override;
};

class SpotLight : public PointLight {
  public:
    __device__ SpotLight(const V3 &pos, const V3 &color, const V3 &dir, float cos_cutoff);
    __device__ V3 illuminate(const V3 &p, const V3 &n) const override;
    __device__ float power() const override;
    __device__ int channels() const override;

  private:
    V3 dir_;
    float cos_cutoff_;
};

// Lights with a surface.  Abstract: QuadLight is the only area light there is.
class AreaLight : public Light {
  public:
    __device__ AreaLight(const V3 &pos, const V3 &color);
    __device__ bool is_delta() const override;
    __device__ virtual float area() const = 0;
};

class QuadLight : public AreaLight {
  public:
    __device__ QuadLight(const V3 &corner, const V3 &color, const V3 &edge_u, const V3 &edge_v);
    __device__ V3 illuminate(const V3 &p, const V3 &n) const override;
    __device__ float power() const override;
    __device__ int channels() const override;
    __device__ float area() const override;

  private:
    V3 u_, v_;
};

// factory.cu
enum { LIGHT_POINT, LIGHT_SPOT, LIGHT_QUAD, LIGHT_KINDS };
__device__ Light *make_light(int kind, const V3 &pos, float intensity);
__device__ int make_scene(Light **lights, int n, unsigned seed);
