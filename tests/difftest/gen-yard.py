#!/usr/bin/env python3
"""Write a random multi-file call-heavy CUDA program that looks like real code.

    tests/difftest/gen-yard.py SEED -o DIR

The programs of the yardstick tools/bench/yard-bench.sh: gen-calls.py's
program (layers of __device__ functions across 2 to 4 files, structs by
value and by reference, recursion, __noinline__, calls in loops and
divergent branches) with, drawn per program, at least two of the shapes
that decide what a link-time optimizer is worth:

  unroll  a call in a loop of constant trip count 2 to 16, or in a 3x3
          neighbour loop: NVVM unrolls them around the call before any link
  vec     float3/float4 helpers of a device library file (the last file,
          which several kernels use) passed and returned by value
  big     a large function with one caller (a kernel), its local objects
          (a struct with an array, an array of float4) passed by address
          to library functions
  virt    classes with virtual methods defined in several files, objects
          built on the device, dispatched through a library function
  fptr    a table of function pointers, called directly and through a
          library function
  math    sqrtf, expf, sinf, cosf, logf, fabsf, fminf, floorf

Values are exact the way gen-calls.py's are (float values multiples of
0.25 below 256, combined by at most one product and one sum between
re-quantizations); the transcendental ones are truncated to a few bits
of an argument far from where an ulp would change them.  Nothing depends
on the order of threads.  The kernels, the manifest and the files are
as gen-calls.py writes them; the same seed always gives the same files.
"""
import importlib.util
import os

_spec = importlib.util.spec_from_file_location(
    "gen_calls", os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen-calls.py"))
gc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gc)
U = gc.U
FEATURES = ["unroll", "vec", "big", "virt", "fptr", "math"]
# the shapes a function body may use: the others call back into the
# layers (a virtual method, an operator) or have one caller by design
IN_FUNCTIONS = ("unroll", "vec", "math")

LIBRARY_DECLS = """\
struct YObj { unsigned v[8]; float3 p; unsigned n; };
__device__ float3 yv3_add(float3 a, float3 b);
__device__ float3 yv3_sub(float3 a, float3 b);
__device__ float3 yv3_lerp(float3 a, float3 b, float t);
__device__ float3 yv3_cross(float3 a, float3 b);
__device__ float yv3_dot(float3 a, float3 b);
__device__ float yv3_len(float3 a);
__device__ float4 yv4_mad(float4 a, float4 b, float4 c);
__device__ float4 yv4_max(float4 a, float4 b);
__device__ void yobj_init(YObj *o, unsigned h);
__device__ void yobj_step(YObj *o, unsigned k);
__device__ unsigned yobj_sum(const YObj *o);
__device__ void yacc4(float4 *acc, unsigned n, unsigned k);
__device__ unsigned ymath(float x);
struct YShape {
    unsigned k;
    __device__ YShape(unsigned k) : k(k) {}
    __device__ virtual unsigned eval(unsigned h) const;
};
struct YShA : YShape { __device__ YShA(unsigned k) : YShape(k) {} __device__ unsigned eval(unsigned h) const; };
struct YShB : YShape { __device__ YShB(unsigned k) : YShape(k) {} __device__ unsigned eval(unsigned h) const; };
struct YShC : YShB { __device__ YShC(unsigned k) : YShB(k) {} __device__ unsigned eval(unsigned h) const; };
__device__ unsigned yshape_eval(const YShape *s, unsigned h);
typedef unsigned (*YOp)(unsigned, unsigned);
__device__ unsigned yop0(unsigned a, unsigned b);
__device__ unsigned yop1(unsigned a, unsigned b);
__device__ unsigned yop2(unsigned a, unsigned b);
__device__ unsigned yop3(unsigned a, unsigned b);
extern __device__ YOp yops[4];
__device__ unsigned yapply(YOp f, unsigned h);"""

# the library: every value re-quantized to a multiple of 0.25 below 256
# (q) before it is multiplied again
LIBRARY = """\
__device__ float3 yv3_add(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
__device__ float3 yv3_sub(float3 a, float3 b) { return make_float3(a.x - b.x, a.y - b.y, a.z - b.z); }
__device__ float3 yv3_lerp(float3 a, float3 b, float t)
{
    return make_float3(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y), a.z + t * (b.z - a.z));
}
__device__ float3 yv3_cross(float3 a, float3 b)
{
    return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
__device__ float yv3_dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__device__ float yv3_len(float3 a) { return sqrtf(yv3_dot(a, a)); }
__device__ float4 yv4_mad(float4 a, float4 b, float4 c)
{
    return make_float4(a.x * b.x + c.x, a.y * b.y + c.y, a.z * b.z + c.z, a.w * b.w + c.w);
}
__device__ float4 yv4_max(float4 a, float4 b)
{
    return make_float4(fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z), fmaxf(a.w, b.w));
}
static __device__ float q(unsigned u) { return (float)(u & 1023u) * 0.25f; }
__device__ void yobj_init(YObj *o, unsigned h)
{
    for (unsigned i = 0; i < 8u; i++)
        o->v[i] = h * (2u * i + 1u) + i;
    o->p = make_float3(q(h), q(h >> 3), q(h >> 7));
    o->n = h & 7u;
}
__device__ void yobj_step(YObj *o, unsigned k)
{
    o->v[(k + o->n) % 8u] ^= k * 2654435761u;
    o->p = make_float3(q(__float_as_uint(o->p.y) ^ k), o->p.z, q(o->v[k % 8u]));
    o->n = (o->n + k) & 7u;
}
__device__ unsigned yobj_sum(const YObj *o)
{
    unsigned s = o->n;
    for (unsigned i = 0; i < 8u; i++)
        s = s * 31u + o->v[i];
    return s ^ __float_as_uint(o->p.x * o->p.y + o->p.z);
}
__device__ void yacc4(float4 *acc, unsigned n, unsigned k)
{
    float4 a = acc[k % n], b = acc[(k >> 2) % n];
    acc[k % n] = make_float4(q(__float_as_uint(b.y) + k), q(__float_as_uint(a.z) ^ k), b.w, a.x);
}
__device__ unsigned ymath(float x)
{
    // x is a multiple of 0.25 in [0, 64): each figure is far from a step
    return (unsigned)sqrtf(x * x) + 3u * (unsigned)(expf(-x) * 4.0f) +
           5u * (unsigned)(sinf(x) * 8.0f + 8.0f) + 7u * (unsigned)(logf(x + 1.0f) * 4.0f);
}
__device__ unsigned yshape_eval(const YShape *s, unsigned h) { return s->eval(h) * 3u + s->k; }
__device__ unsigned YShape::eval(unsigned h) const { return h * 5u + k; }
__device__ YOp yops[4] = { yop0, yop1, yop2, yop3 };
__device__ unsigned yapply(YOp f, unsigned h) { return f(h, h >> 3) * 7u ^ f(h + 1u, 5u); }"""


class Yard(gc.Gen):
    def __init__(self, seed):
        super().__init__(seed)
        r = self.r
        self.features = [f for f in FEATURES if r.random() < 0.55]
        while len(self.features) < 2:
            f = r.choice(FEATURES)
            if f not in self.features:
                self.features.append(f)
        self.features.sort(key=FEATURES.index)
        self.lib = len(self.files)  # the library: a file no layer is put in
        self.files.append([])
        self.nbig = 0

    def structs(self):
        super().structs()
        self.header.append(LIBRARY_DECLS)
        self.files[self.lib].append(LIBRARY)
        self.notes.append("yard: %s; library f%d.cu" % (" ".join(self.features), self.lib))

    def stmt(self, F, cands, loopn, budget, kernel):
        r = self.r
        kinds = [k for k in self.features if kernel or k in IN_FUNCTIONS]
        if not kernel and F.layer == 98:  # a big function: not another one
            kinds = [k for k in self.features if k != "big"]
        if kinds and budget > 200 and r.random() < 0.45:
            kind = r.choice(kinds)
            return getattr(self, "y_" + kind)(F, cands, budget)
        return super().stmt(F, cands, loopn, budget, kernel)

    def fold_stmt(self, e):
        return ["h = h * %du + %s;" % (self.k(3, 99) | 1, e)]

    # ---- the shapes: (lines over h, a rough cost) ----
    def y_unroll(self, F, cands, budget):
        r = self.r
        if r.random() < 0.3:
            ok = [G for G in cands if 9 * (G.cost + 8) <= budget]
            if ok:
                G, dx, dy = r.choice(ok), self.var("dx"), self.var("dy")
                lines = ["for (int %s = -1; %s <= 1; %s++)" % (dx, dx, dx),
                         "    for (int %s = -1; %s <= 1; %s++) {" % (dy, dy, dy),
                         "        h += (unsigned)(%s * 3 + %s + 4);" % (dx, dy)]
                lines += self.call_stmt(G, "h", "        ") + ["    }"]
                return lines, 9 * (G.cost + 10)
        n = r.randint(2, 16)
        ok = [G for G in cands if n * (G.cost + 8) <= budget]
        if not ok:
            return self.y_math(F, cands, budget)
        G, i = r.choice(ok), self.var("i")
        lines = ["for (%s %s = 0; %s < %du; %s++) {" % (U, i, i, n, i), "    h += %s;" % i]
        return lines + self.call_stmt(G, "h", "    ") + ["}"], n * (G.cost + 8)

    def y_vec(self, F, cands, budget):
        r = self.r
        a, b = self.var("va"), self.var("vb")
        if r.random() < 0.35:
            c = self.var("vc")
            lines = ["float4 %s = mk_float4(%s), %s = mk_float4(%s), %s = mk_float4(%s);"
                     % (a, self.mix("h"), b, self.mix("h"), c, self.mix("h"))]
            e = r.choice(["yv4_mad(%s, %s, %s)" % (a, b, c), "yv4_max(%s, %s)" % (a, c)])
            return lines + self.fold_stmt("fold_float4(%s)" % e), 60
        lines = ["float3 %s = mk_float3(%s), %s = mk_float3(%s);"
                 % (a, self.mix("h"), b, self.mix("h"))]
        e = r.choice(["fold_float3(yv3_add(%s, %s))" % (a, b),
                      "fold_float3(yv3_lerp(%s, %s, %s))" % (a, b, r.choice(["0.25f", "0.5f", "0.75f"])),
                      "fold_float3(yv3_cross(%s, yv3_sub(%s, %s)))" % (a, b, a),
                      "__float_as_uint(yv3_dot(%s, %s))" % (a, b),
                      "__float_as_uint(yv3_len(%s))" % a])
        return lines + self.fold_stmt(e), 50

    def y_math(self, F, cands, budget):
        r = self.r
        x = self.var("x")
        terms = r.sample(["(unsigned)sqrtf(%s * %s)" % (x, x),
                          "__float_as_uint(fabsf(%s - 32.0f))" % x,
                          "__float_as_uint(fminf(%s, 20.0f))" % x,
                          "(unsigned)floorf(%s * 0.5f)" % x,
                          "(unsigned)(cosf(%s) * 8.0f + 8.0f)" % x,
                          "ymath(%s)" % x], 2)
        lines = ["float %s = (float)((%s) & 255u) * 0.25f;" % (x, self.mix("h"))]
        return lines + self.fold_stmt(" + ".join(terms)), 150

    def y_big(self, F, cands, budget):
        """A function only this statement calls, with local objects whose
        addresses go into library calls."""
        r = self.r
        B = gc.Fn("big%d" % self.nbig, 98, r.randrange(self.nfiles))
        self.nbig += 1
        B.params, B.ret = [("val", U), ("val", U)], U
        o, acc, i = self.var("o"), self.var("acc"), self.var("i")
        na = r.choice([2, 4, 6, 8])
        lines = ["YObj %s;" % o, "yobj_init(&%s, h);" % o, "float4 %s[%d];" % (acc, na),
                 "for (%s %s = 0; %s < %du; %s++)" % (U, i, i, na, i),
                 "    %s[%s] = mk_float4(h + %s);" % (acc, i, i)]
        left = min(budget - 100, 2 * gc.FN_BUDGET)
        for _ in range(r.randint(3, 6)):
            s, c = self.stmt(B, cands, "p1", left, False)
            left -= c
            lines += s + [r.choice(["yobj_step(&%s, h);" % o,
                                    "yacc4(%s, %du, h);" % (acc, na)])]
        lines += ["h ^= yobj_sum(&%s);" % o,
                  "h = h * 7u + fold_float4(%s[h %% %du]);" % (acc, na),
                  "return h;"]
        B.body = self.seed_h(B) + lines
        B.cost = 2 * gc.FN_BUDGET - left + 200
        self.emit(B)
        return self.fold_stmt("big%d(h, n)" % (self.nbig - 1)), B.cost + 10

    def y_virt(self, F, cands, budget):
        r = self.r
        a, b, s = self.var("sa"), self.var("sb"), self.var("sp")
        ta, tb = r.sample(["YShape", "YShA", "YShB", "YShC"], 2)
        lines = ["%s %s(h & 15u);" % (ta, a), "%s %s(h >> 4);" % (tb, b),
                 "const YShape *%s = (h & %du) ? (const YShape *)&%s : (const YShape *)&%s;"
                 % (s, 1 << self.k(0, 4), a, b)]
        e = r.choice(["yshape_eval(%s, h)" % s, "%s->eval(h + 1u)" % s])
        return lines + self.fold_stmt(e), 250

    def y_fptr(self, F, cands, budget):
        r = self.r
        e = r.choice(["yops[(h >> %d) & 3u](h, %du)" % (self.k(0, 9), self.k()),
                      "yapply(yops[h & 3u], h)"])
        return self.fold_stmt(e), 250

    # ---- what the shapes call, once the layers exist ----
    def methods(self):
        r = self.r
        leaves = [G for G in self.fns if G.layer == 0 and not G.static and not G.rec] or \
                 [G for G in self.fns if not G.static and not G.rec]
        defs = ["YShA::eval", "YShB::eval", "YShC::eval"] + ["yop%d" % i for i in range(4)]
        for d in defs:
            G = r.choice(leaves)
            sig = ("__device__ unsigned %s(unsigned h) const" % d if "::" in d else
                   "__device__ unsigned %s(unsigned h, unsigned k)" % d)
            own = "k" if "::" in d else "k * %du" % (self.k(3, 99) | 1)
            body = ["h = h * %du + %s;" % (self.k(3, 99) | 1, own)]
            if r.random() < 0.6:
                body += self.call_stmt(G, "h")
            body.append("return h ^ %du;" % self.k(1, 9999))
            self.files[r.randrange(self.nfiles)].append(
                "%s\n{\n%s\n}" % (sig, "\n".join("    " + l for l in body)))

    def run(self):
        kernels = super().run()
        self.methods()
        return kernels


if __name__ == "__main__":
    gc.main(Yard, "gen-yard.py", __doc__)
