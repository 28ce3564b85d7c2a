#!/usr/bin/env python3
"""Write a random multi-file CUDA program whose kernels call device functions.

    tests/difftest/gen-calls.py SEED -o DIR

For differential testing of inlining (stages/inline.c): 2 to 4 files of
`__device__` functions in layers (a function of layer L calls ones of
lower layers, one of layer L-1 among them, so calls nest 1 to 5 deep
from a kernel) and 1 to 3 kernels over them, defined in whichever file
the draw says, so most calls cross files.  The shapes the stage must get
right: float3, float4 and user structs of 1 to 40 bytes (narrow fields,
padding, an array member indexed at run time, an 8-byte-aligned one)
passed and returned by value, passed by const reference and by reference
(written by the callee), `unsigned *` to a caller's local or to the
output; several return statements (early ones, and out of loops); calls
in loops and under branches that diverge on threadIdx.x; callees with
local arrays indexed at run time (they stay in the depot, and a kernel's
own arrays beside them); `__noinline__` and `static` functions; now and
then a recursive function and a mutually recursive pair in two files
(which the stage must leave alone).

Every value is exact to compare: integer math is unsigned (wrapping is
defined) or int kept far from overflow, and float values are multiples
of 0.25 below 256 combined by at most one product and one sum, exact
whatever the compiler contracts into an fma.  Every local array is
written whole before it is read, indices are reduced modulo the size,
and nothing depends on the order of threads.

Each kernel is `extern "C" __global__ void kN(unsigned *out, const
unsigned *in, unsigned n)`: `in` holds 1024 words, n is a small loop
count (0 to 8), and every thread writes W words at out[gid * W]
(gid counts threads over 3-D blocks and 2-D grids of up to 256 threads).
DIR gets prog.h, f0.cu .. f<n-1>.cu and `manifest`:

    # comment lines: the seed and what was drawn
    file f0.cu
    kernel k0 W

Compile each file with `nvcc -arch=sm_80 -rdc=true --ptx` (or all at once
through one file that includes them, for a whole-program compile), or
with clang -fgpu-rdc, -DPTXLINK_CLANG and corpus/src on the include path.
The same seed always gives the same files.
"""
import argparse
import os
import random

U = "unsigned"

# user structs: name -> (definition, fields as (C access, kind)); a kind
# says how to set and fold the field (SET, FOLD below)
STRUCTS = {
    "C1": ("struct C1 { unsigned char c; };", [(".c", "b")]),
    "P2": ("struct P2 { unsigned a; unsigned b; };", [(".a", "u"), (".b", "u")]),
    "Q3": ("struct Q3 { int a; unsigned short s; unsigned char c; };",
           [(".a", "i"), (".s", "h"), (".c", "b")]),
    "R4": ("struct R4 { unsigned v[4]; };", [(".v[%d]" % i, "u") for i in range(4)]),
    "M6": ("struct M6 { unsigned long long x; float f; unsigned y; };",
           [(".x", "l"), (".f", "f"), (".y", "u")]),
    "B10": ("struct B10 { unsigned w[10]; };", [(".w[%d]" % i, "u") for i in range(10)]),
    "float3": (None, [(".x", "f"), (".y", "f"), (".z", "f")]),
    "float4": (None, [(".x", "f"), (".y", "f"), (".z", "f"), (".w", "f")]),
}
# the struct with an array member that may be indexed at run time, and its length
ARRAY_MEMBER = {"R4": (".v", 4), "B10": (".w", 10)}
SET = {
    "u": "%s",
    "i": "(int)((%s) & 0xffffu) - 300",
    "f": "(float)((%s) & 1023u) * 0.25f",
    "h": "(unsigned short)(%s)",
    "b": "(unsigned char)(%s)",
    "l": "(unsigned long long)(%s) * 0x10001ull",
}
FOLD = {
    "u": "%s", "i": "(unsigned)%s", "h": "(unsigned)%s", "b": "(unsigned)%s",
    "f": "__float_as_uint(%s)", "l": "(unsigned)(%s ^ (%s >> 29))",
}
SCALARS = [U, "int", "float"]

# dynamic cost caps, in rough instructions a call runs: they keep the
# interpreter's runs short however deep and loopy the draw
FN_BUDGET = 900
KERNEL_BUDGET = 6000


def fold(kind, e):
    return FOLD[kind].replace("%s", e)


class Fn:
    def __init__(self, name, layer, file):
        self.name, self.layer, self.file = name, layer, file
        self.ret = U
        self.params = []        # (mode, type): mode val, cref, ref, ptr
        self.noinline = False
        self.static = False
        self.rec = None         # None, "self" or the partner of a mutual pair
        self.cost = 0
        self.body = []

    def sig(self):
        ps = []
        for i, (mode, ty) in enumerate(self.params):
            ps.append({"val": "%s p%d", "cref": "const %s &p%d", "ref": "%s &p%d",
                       "ptr": "%s *p%d"}[mode] % (ty, i))
        pre = "static " if self.static else ""
        pre += "__device__ " + ("__noinline__ " if self.noinline else "")
        return "%s%s %s(%s)" % (pre, self.ret, self.name, ", ".join(ps))


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.nfiles = self.r.randint(2, 4)
        self.files = [[] for _ in range(self.nfiles)]
        self.header = []
        self.notes = []
        self.fns = []
        self.nvar = 0

    def k(self, lo=1, hi=97):
        return self.r.randint(lo, hi)

    def var(self, p):
        self.nvar += 1
        return "%s%d" % (p, self.nvar)

    def mix(self, h):
        """An unsigned expression over h."""
        return self.r.choice(["%s + %du" % (h, self.k()), "%s ^ %du" % (h, self.k(1, 9999)),
                              "%s >> %d" % (h, self.k(1, 9)), "%s * %du" % (h, self.k(3, 99) | 1),
                              h])

    # ---- structs: made and folded by functions of their own ----
    def structs(self):
        r = self.r
        users = [s for s in STRUCTS if STRUCTS[s][0]]
        self.types = ["float3", "float4"] + r.sample(users, r.randint(2, len(users)))
        self.fold_by_ref = r.random() < 0.5
        self.notes.append("structs %s; fold_T takes %s" % (
            " ".join(self.types), "a const reference" if self.fold_by_ref else "a value"))
        for t in self.types:
            if STRUCTS[t][0]:
                self.header.append(STRUCTS[t][0])
        for t in self.types:
            fs = STRUCTS[t][1]
            sets = ["v%s = %s;" % (acc, SET[kind] % ("u * %du + %du" % (2 * i + 1, self.k())))
                    for i, (acc, kind) in enumerate(fs)]
            folds = " ^ ".join("(%s) * %du" % (fold(kind, "v" + acc), 2 * i + 3)
                               for i, (acc, kind) in enumerate(fs))
            arg = ("const %s &v" if self.fold_by_ref else "%s v") % t
            self.header.append("__device__ %s mk_%s(%s u);" % (t, t, U))
            self.header.append("__device__ %s fold_%s(%s);" % (U, t, arg))
            f = self.files[r.randrange(self.nfiles)]
            f.append("__device__ %s mk_%s(%s u)\n{\n    %s v;\n    %s\n    return v;\n}"
                     % (t, t, U, t, "\n    ".join(sets)))
            f = self.files[r.randrange(self.nfiles)]
            f.append("__device__ %s fold_%s(%s)\n{\n    return %s;\n}" % (U, t, arg, folds))

    def val_of(self, ty, h):
        """A value of type ty made from the unsigned expression h."""
        if ty == U:
            return h
        if ty == "int":
            return SET["i"] % h
        if ty == "float":
            return SET["f"] % h
        return "mk_%s(%s)" % (ty, h)

    def fold_of(self, ty, e):
        """An unsigned expression folding the value e of type ty."""
        if ty == U:
            return e
        if ty == "int":
            return "(unsigned)(%s)" % e
        if ty == "float":
            return "__float_as_uint(%s)" % e
        return "fold_%s(%s)" % (ty, e)

    # ---- signatures ----
    def signature(self, F):
        r = self.r
        F.ret = r.choice([U, U, "int", "float", "void"] + self.types * 2)
        for _ in range(r.randint(1, 4)):
            ty = r.choice(SCALARS + self.types)
            if ty in STRUCTS:
                mode = r.choice(["val", "val", "cref", "ref"])
            else:
                mode = "ptr" if ty == U and r.random() < 0.2 else "val"
            F.params.append((mode, ty))
        if F.ret == "void" and not any(m in ("ref", "ptr") for m, _ in F.params):
            F.params.append(("ref", r.choice(self.types)) if r.random() < 0.6 else ("ptr", U))

    # ---- calls ----
    def call(self, G, h, in_kernel=False):
        """(statements before, an unsigned expression or None, statements
        after) for one call of G with arguments made from h."""
        pre, args, post = [], [], []
        for mode, ty in G.params:
            a = self.mix(h)
            if mode == "val":
                args.append(self.val_of(ty, a))
            elif mode == "ptr":
                w = self.var("w")
                pre.append("%s %s = %s;" % (U, w, a))
                args.append("&" + w)
                post.append("%s = %s * 5u + %s;" % (h, h, w))
            else:
                t = self.var("t")
                pre.append("%s %s = %s;" % (ty, t, self.val_of(ty, a)))
                args.append(t)
                if mode == "ref":
                    post.append("%s = %s * 9u + %s;" % (h, h, self.fold_of(ty, t)))
        e = "%s(%s)" % (G.name, ", ".join(args))
        if G.rec:
            e = "%s(%s)" % (G.name, ", ".join(args[:-1] + ["%s & 3u" % h]))
        if G.ret == "void":
            pre.append(e + ";")
            return pre, None, post
        return pre, self.fold_of(G.ret, e), post

    def call_stmt(self, G, h, ind=""):
        pre, e, post = self.call(G, h)
        lines = pre[:]
        if e is not None:
            lines.append("%s = %s * %du + %s;" % (h, h, self.k(3, 99) | 1, e))
        lines += post
        return [ind + l for l in lines]

    # ---- bodies: statements over one unsigned h ----
    def stmt(self, F, cands, loopn, budget, kernel):
        """Lines of one statement and its cost; cands are the callees."""
        r = self.r
        ret = None if kernel else F
        affordable = [G for G in cands if G.cost <= budget]
        kinds = ["arith", "array", "ret", "ret"]
        if affordable:
            kinds += ["call", "call", "call", "loop", "loop", "branch", "diverge", "diverge"]
            if any(4 * G.cost <= budget for G in affordable):
                kinds += ["arraycall"]
        if kernel:
            kinds.remove("ret")
        kind = r.choice(kinds)
        pick = lambda m=1: r.choice([G for G in affordable if m * G.cost <= budget] or affordable)
        if kind == "arith":
            return ["h = (h ^ (h >> %d)) * %du + %du;" % (self.k(3, 16), self.k(3, 999) | 1, self.k())], 3
        if kind == "ret":
            if ret is None:
                return [], 0
            return ["if ((h & %du) == %du)" % (7, self.k(0, 7)),
                    "    return %s;" % self.ret_val(F, "h ^ %du" % self.k())], 3
        if kind == "call":
            G = pick()
            return self.call_stmt(G, "h"), G.cost + 6
        if kind == "loop":
            n = loopn or "(h & 3u) + 1u"
            mult = 8 if loopn else 4
            G = pick(mult)
            if mult * G.cost > budget:
                return self.call_stmt(G, "h"), G.cost + 6
            i = self.var("i")
            lines = ["for (%s %s = 0; %s < %s; %s++) {" % (U, i, i, n, i),
                     "    h += %s;" % i]
            lines += self.call_stmt(G, "h", "    ")
            if ret is not None and r.random() < 0.4:
                lines += ["    if ((h & 15u) == %du)" % self.k(0, 15),
                          "        return %s;" % self.ret_val(F, "h + %s" % i)]
            elif r.random() < 0.3:
                lines += ["    if ((h & 31u) == %du)" % self.k(0, 31), "        break;"]
            lines.append("}")
            return lines, mult * (G.cost + 8)
        if kind in ("branch", "diverge"):
            cond = ("h & %du" % (1 << self.k(0, 5)) if kind == "branch" else
                    r.choice(["threadIdx.x %% %du == %du" % (3, self.k(0, 2)),
                              "threadIdx.x & %du" % (1 << self.k(0, 4)),
                              "threadIdx.x < %du" % self.k(1, 40)]))
            G, G2 = pick(), pick()
            lines = ["if (%s) {" % cond] + self.call_stmt(G, "h", "    ")
            if r.random() < 0.7:
                lines += ["} else {"] + self.call_stmt(G2, "h", "    ")
            if ret is not None and r.random() < 0.3:
                lines += ["    if (h & 1u)", "        return %s;" % self.ret_val(F, "h")]
            lines.append("}")
            return lines, max(G.cost, G2.cost) + 10
        # a local array indexed at run time: filled whole, then read
        N = r.choice([2, 3, 4, 5, 8, 13, 16, 32])
        a, i = self.var("a"), self.var("i")
        if kind == "arraycall":
            G = pick(4)
            N = max([n for n in (2, 3, 4, 5, 8, 13) if n * (G.cost + 10) <= budget] or [2])
            pre, e, post = self.call(G, "h")
            fill = ["    " + l for l in pre] + \
                   ["    %s[%s] = %s;" % (a, i, e if e is not None else "h + %s" % i)] + \
                   ["    " + l for l in post] + ["    h += %s;" % i]
            cost = N * (G.cost + 10)
        else:
            fill = ["    %s[%s] = h * %du + %s * %du;" % (a, i, self.k(3, 99) | 1, i, self.k())]
            cost = N * 4
        return (["%s %s[%d];" % (U, a, N), "for (%s %s = 0; %s < %du; %s++) {" % (U, i, i, N, i)]
                + fill + ["}",
                          "h = h * %du + %s[(h >> %d) %% %du] + %s[(h + %du) %% %du];"
                          % (self.k(3, 99) | 1, a, self.k(0, 12), N, a, self.k(), N)]), cost + 6

    def ret_val(self, F, e):
        if F.ret == "void":
            return ""
        return self.val_of(F.ret, "(%s)" % e)

    def seed_h(self, F):
        """h made from every parameter; a ref's and ptr's pointee written."""
        terms, writes = [], []
        for i, (mode, ty) in enumerate(F.params):
            p = "p%d" % i
            if mode == "ptr":
                terms.append("*" + p)
                writes.append("*%s = *%s * 3u + h;" % (p, p))
                continue
            if mode == "ref":
                writes.append("%s = %s;" % (p, self.val_of(ty, "h ^ %du" % self.k())))
            if ty == "float":
                terms.append(fold("f", "(%s * 0.5f + 1.25f)" % p))
            elif ty in ("float3", "float4") and self.r.random() < 0.6:
                # one product and one sum of exact values stays exact
                terms.append(fold("f", "(%s.x * %s.y + %s.z)" % (p, p, p)))
            elif ty in ARRAY_MEMBER and self.r.random() < 0.5:
                m, n = ARRAY_MEMBER[ty]
                terms.append("%s%s[(%s) %% %du]" % (p, m, " + ".join(terms) or "%du" % self.k(), n))
            else:
                terms.append(self.fold_of(ty, p))
        h = " ^ ".join("(%s) * %du" % (t, 2 * j + 1) for j, t in enumerate(terms))
        return ["%s h = %s;" % (U, h or "%du" % self.k())] + writes

    def body(self, F, cands, budget, stmts, loopn=None, kernel=False):
        lines, cost = [], 0
        for _ in range(stmts):
            s, c = self.stmt(F, cands, loopn, budget - cost, kernel)
            lines += s
            cost += c
            if kernel and self.r.random() < 0.8:
                lines.append("out[gid * W + %du] = h;" % self.slot())
        return lines, cost

    def slot(self):
        self.slots += 1
        return self.slots - 1

    # ---- functions ----
    def function(self, F, lower):
        r = self.r
        self.signature(F)
        # at least one call to the layer just below, so calls nest deep
        below = [G for G in lower if G.layer == F.layer - 1 and self.visible(G, F)]
        cands = [G for G in lower if self.visible(G, F)]
        head = self.seed_h(F)
        lines, cost = [], 10 + 3 * len(F.params)
        if below:
            G = r.choice(below)
            lines += self.call_stmt(G, "h")
            cost += G.cost + 6
        more, c = self.body(F, cands, FN_BUDGET - cost, r.randint(1, 4))
        lines += more
        cost += c
        if F.ret != "void":
            lines.append("return %s;" % self.ret_val(F, "h"))
        F.body = head + lines
        F.cost = cost

    def visible(self, G, F):
        return not G.static or G.file == F.file

    def recursion(self, leaves):
        """A function calling itself and, now and then, a mutually
        recursive pair in two files: the stage must leave their calls."""
        r = self.r
        out = []
        if r.random() < 0.5:
            F = Fn("rec%d" % len(self.fns), 1, r.randrange(self.nfiles))
            F.rec = "self"
            out.append(F)
        if r.random() < 0.3:
            a = Fn("even%d" % len(self.fns), 1, r.randrange(self.nfiles))
            b = Fn("odd%d" % len(self.fns), 1, (a.file + 1) % self.nfiles)
            a.rec, b.rec = b, a
            out += [a, b]
        # a leaf every file sees; when all are static, no recursion (checked
        # after the draws, so that other seeds keep their programs)
        public = [G for G in leaves if not G.static]
        if not public:
            out = []
        for F in out:
            leaf = r.choice(public)
            partner = F if F.rec == "self" else F.rec
            F.params = [("val", U), ("val", U)]
            F.ret = U
            pre, e, post = self.call(leaf, "h")
            F.body = ["%s h = p0 * %du + p1;" % (U, self.k(3, 99) | 1),
                      "if (p1 == 0u)", "    return h ^ %du;" % self.k()] + pre + \
                     ["h = h * 3u + %s;" % (e or "h")] + post + \
                     ["return %s(h >> 1, p1 - 1u) * %du + h;" % (partner.name, self.k(3, 99) | 1)]
            F.cost = 4 * (leaf.cost + 20)
        if out:
            self.notes.append("recursive: %s" % " ".join(F.name for F in out))
        return out

    def emit(self, F):
        if not F.static:
            self.header.append(F.sig().replace("static ", "") + ";")
        self.files[F.file].append(
            "%s\n{\n%s\n}" % (F.sig(), "\n".join("    " + l for l in F.body)))

    # ---- kernels ----
    def kernel(self, kn, fns, top):
        r = self.r
        self.slots = 0
        F = Fn("k%d" % kn, 99, r.randrange(self.nfiles))
        cands = [G for G in fns if self.visible(G, F)]
        tops = [G for G in cands if G.layer == top] or cands
        lines = ["%s h = in[(gid * %du + %du) & 1023u];" % (U, self.k(1, 9), self.k(0, 1023))]
        G = r.choice(tops)
        lines += self.call_stmt(G, "h")
        lines.append("out[gid * W + %du] = h;" % self.slot())
        more, _ = self.body(F, cands, KERNEL_BUDGET - G.cost, r.randint(2, 5), "n", True)
        lines += more
        lines.append("out[gid * W + %du] = h;" % self.slot())
        W = self.slots
        code = ("extern \"C\" __global__ void k%d(%s *out, const %s *in, %s n)\n{\n"
                "    const %s W = %du;\n"
                "    %s tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);\n"
                "    %s gid = (blockIdx.x + gridDim.x * blockIdx.y) *\n"
                "        (blockDim.x * blockDim.y * blockDim.z) + tid;\n%s\n}"
                % (kn, U, U, U, U, W, U, U, "\n".join("    " + l for l in lines)))
        self.files[F.file].append(code)
        return "kernel k%d %d" % (kn, W)

    def run(self):
        r = self.r
        self.structs()
        top = r.randint(0, 4)
        layers = []
        for L in range(top + 1):
            fs = []
            for _ in range(r.randint(2, 4)):
                F = Fn("fn%d" % len(self.fns), L, r.randrange(self.nfiles))
                F.noinline = r.random() < 0.3
                F.static = L < top and r.random() < 0.15
                self.function(F, [G for G in self.fns])
                self.fns.append(F)
                fs.append(F)
            layers.append(fs)
            if L == 0:
                # recursion sits above the leaves, below everything else
                for F in self.recursion(fs):
                    self.fns.append(F)
        for F in self.fns:
            if F.static:
                self.files[F.file].insert(0, F.sig() + ";")
        for F in self.fns:
            self.emit(F)
        self.notes.append("%d functions in layers 0-%d (%s), %d __noinline__, %d static" % (
            len(self.fns), top, " ".join(str(len(l)) for l in layers),
            sum(F.noinline for F in self.fns), sum(F.static for F in self.fns)))
        return [self.kernel(k, self.fns, top) for k in range(r.randint(1, 3))]


PRELUDE = """\
// Generated by tests/difftest/%s %d; do not edit.
#pragma once
#ifdef PTXLINK_CLANG
#include "clang_cuda_min.h"
struct float3 { float x, y, z; };
#endif
"""


def write_program(g, kernels, out, tool):
    """DIR/prog.h, f0.cu .. and the manifest of generator g (tool: its
    file name, for the headers)."""
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "prog.h"), "w") as f:
        f.write(PRELUDE % (tool, g.seed) + "\n" + "\n".join(g.header) + "\n")
    names = []
    for i, code in enumerate(g.files):
        names.append("f%d.cu" % i)
        with open(os.path.join(out, names[-1]), "w") as f:
            f.write("// Generated by tests/difftest/%s %d; do not edit.\n"
                    "#include \"prog.h\"\n\n%s\n" % (tool, g.seed, "\n\n".join(code)))
    with open(os.path.join(out, "manifest"), "w") as f:
        f.write("# tests/difftest/%s %d\n" % (tool, g.seed))
        for n in g.notes:
            f.write("# %s\n" % n)
        for n in names:
            f.write("file %s\n" % n)
        for k in kernels:
            f.write(k + "\n")


def main(gen=Gen, tool="gen-calls.py", doc=__doc__):
    """SEED -o DIR for generator class gen (gen-yard.py's too)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("-o", dest="out", required=True, help="the directory to write")
    a = ap.parse_args()
    g = gen(a.seed)
    write_program(g, g.run(), a.out, tool)


if __name__ == "__main__":
    main()
