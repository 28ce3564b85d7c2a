// Builds pseudo-random expression trees on the device heap.
#include "expr.h"

static __device__ unsigned next(unsigned *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

__device__ Node *build_tree(unsigned *seed, int depth, int nvars)
{
    unsigned r = next(seed);
    int kind = depth <= 1 ? (int)(r & 1) : (int)(r % NODE_KINDS);
    Node *n = nullptr;
    switch (kind) {
    case 0: n = new Const(0.25f * (float)((r >> 8) & 15)); break;
    case 1: n = new Var((int)((r >> 8) % (unsigned)nvars)); break;
    case 2: n = new Neg(build_tree(seed, depth - 1, nvars)); break;
    case 3: n = new Sin(build_tree(seed, depth - 1, nvars)); break;
    case 4: n = new Exp(build_tree(seed, depth - 1, nvars)); break;
    case 5: n = new Add(build_tree(seed, depth - 1, nvars), build_tree(seed, depth - 1, nvars)); break;
    case 6: n = new Sub(build_tree(seed, depth - 1, nvars), build_tree(seed, depth - 1, nvars)); break;
    case 7: n = new Mul(build_tree(seed, depth - 1, nvars), build_tree(seed, depth - 1, nvars)); break;
    default: n = new Div(build_tree(seed, depth - 1, nvars), build_tree(seed, depth - 1, nvars)); break;
    }
    return n;
}
