// Kernels over expression trees: every evaluation goes through Node's
// virtual methods, whose targets live in nodes.cu.
#include "expr.h"

// Evaluates a tree per thread at a few points and writes value, gradient
// and shape.
__global__ void eval_trees(float *out, const float *points, int depth)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned seed = 2463534242u + 977u * (unsigned)t;
    int d = depth < 1 ? 1 : depth > 6 ? 6 : depth;
    Node *root = build_tree(&seed, d, 3);
    float vars[3];
    float acc = 0.0f, grad = 0.0f;
    for (int p = 0; p < 4; p++) {
        for (int k = 0; k < 3; k++)
            vars[k] = points[(4 * t + p) * 3 % 1024 + k] * 0.001f + 0.1f * (float)k;
        acc += root->eval(vars);
        grad += root->deriv(vars, p % 3);
    }
    out[4 * t] = acc;
    out[4 * t + 1] = grad;
    out[4 * t + 2] = (float)root->size();
    out[4 * t + 3] = (float)root->depth();
}

// Newton steps on one variable of a per-thread tree.
__global__ void newton_trees(float *out, int steps)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned seed = 88172645u + 31u * (unsigned)t;
    Node *root = build_tree(&seed, 4, 1);
    float x[1] = {0.5f};
    int n = steps < 0 ? 0 : steps > 8 ? 8 : steps;
    for (int i = 0; i < n; i++) {
        float f = root->eval(x), df = root->deriv(x, 0);
        if (fabsf(df) < 1e-4f)
            break;
        x[0] -= f / df;
    }
    out[t] = x[0];
}
