// A class hierarchy whose virtual functions are defined in other files
// than the kernel that calls them: only a link sees the whole program.
struct Shape {
	__device__ virtual float area() const = 0;
	__device__ virtual ~Shape() {}
};

struct Square : Shape {
	float side;
	__device__ explicit Square(float s);
	__device__ float area() const override;
};

struct Circle : Shape {
	float radius;
	__device__ explicit Circle(float r);
	__device__ float area() const override;
};

__device__ float scale(float x);
