// Single-TU virtual dispatch: an abstract Shape hierarchy built on the
// device with new/delete, virtual destructors, multiple levels, pure
// virtuals, and a virtual call inside a loop over a heterogeneous array.
#include <cstdio>

class Shape {
  public:
    __device__ virtual ~Shape() {}
    __device__ virtual float area() const = 0;
    __device__ virtual float perimeter() const = 0;
    __device__ virtual const char *name() const { return "shape"; }
    __device__ virtual void scale(float s) = 0;
};

class Circle : public Shape {
    float r;

  public:
    __device__ explicit Circle(float r_) : r(r_) {}
    __device__ float area() const override { return 3.14159265f * r * r; }
    __device__ float perimeter() const override { return 2 * 3.14159265f * r; }
    __device__ const char *name() const override { return "circle"; }
    __device__ void scale(float s) override { r *= s; }
};

class Rect : public Shape {
  protected:
    float w, h;

  public:
    __device__ Rect(float w_, float h_) : w(w_), h(h_) {}
    __device__ float area() const override { return w * h; }
    __device__ float perimeter() const override { return 2 * (w + h); }
    __device__ const char *name() const override { return "rect"; }
    __device__ void scale(float s) override
    {
        w *= s;
        h *= s;
    }
};

class Square final : public Rect {
  public:
    __device__ explicit Square(float a) : Rect(a, a) {}
    __device__ const char *name() const override { return "square"; }
};

class Triangle : public Shape {
    float a, b, c;

  public:
    __device__ Triangle(float a_, float b_, float c_) : a(a_), b(b_), c(c_) {}
    __device__ float area() const override
    {
        float s = 0.5f * (a + b + c);
        return sqrtf(fmaxf(s * (s - a) * (s - b) * (s - c), 0.f));
    }
    __device__ float perimeter() const override { return a + b + c; }
    __device__ void scale(float s) override
    {
        a *= s;
        b *= s;
        c *= s;
    }
};

__device__ Shape *make_shape(int kind, float p)
{
    switch (kind & 3) {
    case 0: return new Circle(p);
    case 1: return new Rect(p, 2 * p);
    case 2: return new Square(p);
    default: return new Triangle(p, p, p);
    }
}

__global__ void shapes_kernel(const int *kinds, const float *params, float *areas, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Shape *local[4];
    for (int k = 0; k < 4; k++)
        local[k] = make_shape(kinds[i] + k, params[i]);
    float tot = 0;
    for (int k = 0; k < 4; k++) {
        local[k]->scale(1.5f);
        tot += local[k]->area() / local[k]->perimeter();
    }
    if (i == 0)
        printf("%s %s\n", local[0]->name(), local[3]->name());
    for (int k = 0; k < 4; k++)
        delete local[k];
    areas[i] = tot;
}
