// Expression trees evaluated through virtual methods that recurse into
// their children: the classes in nodes.cu, the builder in build.cu, the
// kernels in eval.cu.  Every method of a node calls the same method of its
// children through the base class, so each call site has all the node
// classes as targets and the calls are recursive.
#pragma once

struct Node {
    __device__ virtual float eval(const float *vars) const = 0;
    __device__ virtual float deriv(const float *vars, int wrt) const = 0;
    __device__ virtual int size() const = 0;
    __device__ virtual int depth() const = 0;
};

struct Const : Node {
    float v;
    __device__ Const(float v) : v(v) {}
    __device__ float eval(const float *vars) const override;
    __device__ float deriv(const float *vars, int wrt) const override;
    __device__ int size() const override;
    __device__ int depth() const override;
};

struct Var : Node {
    int i;
    __device__ Var(int i) : i(i) {}
    __device__ float eval(const float *vars) const override;
    __device__ float deriv(const float *vars, int wrt) const override;
    __device__ int size() const override;
    __device__ int depth() const override;
};

struct Unary : Node {
    const Node *a;
    __device__ Unary(const Node *a) : a(a) {}
    __device__ int size() const override;
    __device__ int depth() const override;
};

struct Binary : Node {
    const Node *a, *b;
    __device__ Binary(const Node *a, const Node *b) : a(a), b(b) {}
    __device__ int size() const override;
    __device__ int depth() const override;
};

#define UNARY(name)                                                      \
    struct name : Unary {                                                \
        __device__ name(const Node *a) : Unary(a) {}                     \
        __device__ float eval(const float *vars) const override;         \
        __device__ float deriv(const float *vars, int wrt) const override; \
    };
#define BINARY(name)                                                     \
    struct name : Binary {                                               \
        __device__ name(const Node *a, const Node *b) : Binary(a, b) {}  \
        __device__ float eval(const float *vars) const override;         \
        __device__ float deriv(const float *vars, int wrt) const override; \
    };
UNARY(Neg)
UNARY(Sin)
UNARY(Exp)
BINARY(Add)
BINARY(Sub)
BINARY(Mul)
BINARY(Div)
#undef UNARY
#undef BINARY

enum { NODE_KINDS = 9 };

// build.cu: a pseudo-random tree of at most `budget` nodes over nvars variables.
__device__ Node *build_tree(unsigned *seed, int depth, int nvars);
