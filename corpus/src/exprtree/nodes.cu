// The node classes: each method recurses into the children through Node.
#include "expr.h"

__device__ float Const::eval(const float *) const { return v; }
__device__ float Const::deriv(const float *, int) const { return 0.0f; }
__device__ int Const::size() const { return 1; }
__device__ int Const::depth() const { return 1; }

__device__ float Var::eval(const float *vars) const { return vars[i]; }
__device__ float Var::deriv(const float *, int wrt) const { return i == wrt ? 1.0f : 0.0f; }
__device__ int Var::size() const { return 1; }
__device__ int Var::depth() const { return 1; }

__device__ int Unary::size() const { return 1 + a->size(); }
__device__ int Unary::depth() const { return 1 + a->depth(); }

__device__ int Binary::size() const { return 1 + a->size() + b->size(); }
__device__ int Binary::depth() const
{
    int x = a->depth(), y = b->depth();
    return 1 + (x > y ? x : y);
}

__device__ float Neg::eval(const float *vars) const { return -a->eval(vars); }
__device__ float Neg::deriv(const float *vars, int wrt) const { return -a->deriv(vars, wrt); }

__device__ float Sin::eval(const float *vars) const { return sinf(a->eval(vars)); }
__device__ float Sin::deriv(const float *vars, int wrt) const
{
    return cosf(a->eval(vars)) * a->deriv(vars, wrt);
}

__device__ float Exp::eval(const float *vars) const { return expf(fminf(a->eval(vars), 20.0f)); }
__device__ float Exp::deriv(const float *vars, int wrt) const
{
    return expf(fminf(a->eval(vars), 20.0f)) * a->deriv(vars, wrt);
}

__device__ float Add::eval(const float *vars) const { return a->eval(vars) + b->eval(vars); }
__device__ float Add::deriv(const float *vars, int wrt) const
{
    return a->deriv(vars, wrt) + b->deriv(vars, wrt);
}

__device__ float Sub::eval(const float *vars) const { return a->eval(vars) - b->eval(vars); }
__device__ float Sub::deriv(const float *vars, int wrt) const
{
    return a->deriv(vars, wrt) - b->deriv(vars, wrt);
}

__device__ float Mul::eval(const float *vars) const { return a->eval(vars) * b->eval(vars); }
__device__ float Mul::deriv(const float *vars, int wrt) const
{
    return a->deriv(vars, wrt) * b->eval(vars) + a->eval(vars) * b->deriv(vars, wrt);
}

__device__ float Div::eval(const float *vars) const
{
    float d = b->eval(vars);
    return a->eval(vars) / (fabsf(d) < 1e-3f ? 1e-3f : d);
}
__device__ float Div::deriv(const float *vars, int wrt) const
{
    float d = b->eval(vars);
    d = fabsf(d) < 1e-3f ? 1e-3f : d;
    return (a->deriv(vars, wrt) * d - a->eval(vars) * b->deriv(vars, wrt)) / (d * d);
}
