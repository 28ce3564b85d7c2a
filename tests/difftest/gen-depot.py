#!/usr/bin/env python3
"""Write a random CUDA source whose kernels exercise local-memory layout.

    tests/difftest/gen-depot.py SEED [-o FILE]          (default: standard output)

For differential testing of depot repacking (stages/depot.c): every kernel
keeps several local arrays (int, float, double, int2, float4 and struct
elements, 2 to 64 of them, one- and two-dimensional) in local memory by
indexing them with run-time values, and uses them in the shapes whose
lifetimes the stage must get right: block scopes one after another and
nested, sequential phases in one scope (fill, copy one array into another,
single stores, reads, reductions, in random order), arrays live across a
__noinline__ call, arrays whose address a __noinline__ function reads or
writes (escape, also from the middle), an array per loop iteration and
arrays carried from one iteration into the next, arrays written but never
read, arrays filled on either side of an if/else or in the cases of a switch,
arrays of structs read one field at a time, whole elements copied from
array to array, pointers stepped through arrays or to one past the end, a
pointer selected between two arrays (or an array and global memory, or
from an array of pointers), volatile arrays, a struct holding an array
copied whole and passed to and returned from a __noinline__ function by
value, breaks out of loops and early returns, and __noinline__ helpers
with arrays of their own.

Every kernel is `extern "C" __global__ void kN(const unsigned *in,
unsigned *out, int k, int m)`: `in` holds at least 256 words, `out` one
word per thread of the grid, k and m are small non-negative integers.
Each thread writes out[its global id], a hash of everything it read from
its arrays, so a wrong layout changes the output.  The line
`// kernels: k0 k1 ...` names the kernels.

No undefined behaviour: an array is read only once every element was
written on every path, indices are unsigned and reduced modulo the size,
int values stay in 0..0xffff so no signed arithmetic overflows, float and
double values are small multiples of a power of two.  The same seed always
gives the same source.  Compile with `nvcc -arch=sm_80 --ptx`, or with
`clang -x cuda --cuda-device-only -nocudainc -DPTXLINK_CLANG -I corpus/src`.
"""
import argparse
import random
import sys

# element type -> (fields, conversion of an unsigned v to a field's value)
SCALAR = {
    "int": "(int)((%s) & 0xffffu)",
    "float": "(float)((%s) & 0xfffu) * 0.5f",
    "double": "(double)((%s) & 0xfffffu) * 0.25",
    "short": "(short)((%s) & 0x7fffu)",
    "uchar": "(unsigned char)(%s)",
}
# element type -> its fields: (suffix, scalar type); () for a scalar
FIELDS = {
    "int": [("", "int")],
    "float": [("", "float")],
    "double": [("", "double")],
    "int2": [(".x", "int"), (".y", "int")],
    "float4": [(".x", "float"), (".y", "float"), (".z", "float"), (".w", "float")],
    "Rec": [(".a", "int"), (".b", "float"), (".c", "double")],
    "Pair": [(".tag", "uchar"), (".v", "int")],
    "Tri": [(".s", "short"), (".f", "float"), (".u", "int")],
}
TYPES = list(FIELDS)


def fold(scalar, e):
    """An unsigned hash of a scalar field's value."""
    if scalar == "float":
        return "__float_as_uint(%s)" % e
    if scalar == "double":
        return "(unsigned)(__double_as_longlong(%s) >> 11)" % e
    return "(unsigned)%s" % e


class Arr:
    def __init__(self, name, ty, dims):
        self.name, self.ty, self.dims = name, ty, dims
        self.n = dims[0] * (dims[1] if len(dims) > 1 else 1)
        self.filled = False
        self.vol = False        # volatile: only plain indexed accesses

    def plain(self):
        """Whether its address may be taken as a plain pointer."""
        return len(self.dims) == 1 and not self.vol

    def at(self, i):
        """Element for a flat index expression i (in bounds)."""
        if len(self.dims) == 1:
            return "%s[%s]" % (self.name, i)
        return "%s[(%s) / %du][(%s) %% %du]" % (self.name, i, self.dims[1], i, self.dims[1])


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.narr = 0
        self.nvar = 0
        self.esc = set()        # (kind, type) of escape helpers used
        self.helpers = []       # code of __noinline__ helpers with arrays
        self.kernels = []
        self.in_helper = False
        self.returns = 0
        self.budget = 0
        self.breaks = []        # per enclosing loop: whether it has a break
        self.boxes = False

    # ---- small pieces ----
    def c(self, lo=1, hi=97):
        return self.r.randint(lo, hi)

    def var(self, p):
        self.nvar += 1
        return "%s%d" % (p, self.nvar)

    def idx(self, n, loops):
        """A run-time index in 0..n-1."""
        r = self.r
        forms = ["(uk + t * %du + %du) %% %du" % (self.c(1, 9), self.c(0, 63), n),
                 "((in[(t * %du + %du) & 255u] >> %d) %% %du)" % (self.c(1, 9), self.c(0, 255),
                                                               self.c(0, 20), n),
                 "((acc >> %d) %% %du)" % (self.c(0, 24), n),
                 "((um + t) * %du %% %du)" % (self.c(1, 13), n)]
        if loops:
            forms.append("((%s * %du + um + t) %% %du)" % (r.choice(loops), self.c(1, 7), n))
        return r.choice(forms)

    def uval(self, i, loops):
        """An unsigned value expression, i the element index."""
        r = self.r
        terms = ["in[(%s * %du + t + %du) & 255u]" % (i, self.c(1, 9), self.c(0, 255)),
                 "(%s * %du)" % (i, self.c(1, 999)), "t", "uk", "(acc >> %d)" % self.c(0, 9)]
        if loops:
            terms.append("%s * %du" % (r.choice(loops), self.c(1, 50)))
        e = r.choice(terms)
        for _ in range(r.randint(0, 2)):
            e = "(%s %s %s)" % (e, r.choice(["+", "^", "*"]), r.choice(terms))
        return e

    def store(self, a, i, v):
        """Statements writing element i of a from unsigned expression v."""
        fs = FIELDS[a.ty]
        return ["%s%s = %s;" % (a.at(i), suf, SCALAR[s] % ("(%s) + %du" % (v, j * 7)))
                for j, (suf, s) in enumerate(fs)]

    def load(self, a, i, all_fields=False):
        """An unsigned expression reading element i of a (one field or all)."""
        fs = FIELDS[a.ty]
        if not all_fields:
            fs = [self.r.choice(fs)]
        return " ^ ".join(fold(s, a.at(i) + suf) for suf, s in fs)

    def loop(self, n, body):
        i = self.var("i")
        return ["for (unsigned %s = 0; %s < %du; %s++) {" % (i, i, n, i)] + \
            ["    " + s for s in body(i)] + ["}"]

    # ---- statements: each returns lines; env is the visible arrays ----
    def s_decl(self, env, loops):
        r = self.r
        ty = r.choice(TYPES)
        if r.random() < 0.15:
            dims = (r.randint(2, 8), r.randint(2, 8))
        else:
            dims = (r.choice([2, 3, 4, 5, 8, 12, 16, 17, 24, 32, 40, 48, 64]),)
        self.narr += 1
        if ty in ("float4", "Rec", "Tri") and dims[0] > 32:
            dims = (dims[0] // 2,) + dims[1:]
        a = Arr("a%d" % self.narr, ty, dims)
        env.append(a)
        a.vol = ty in ("int", "float", "double") and r.random() < 0.08
        decl = "%s%s %s%s;" % ("volatile " if a.vol else "", ty, a.name,
                               "".join("[%d]" % d for d in dims))
        if r.random() < 0.75:
            return [decl] + self.s_fill(env, loops, a)
        return [decl]

    def s_fill(self, env, loops, a=None):
        r = self.r
        a = a or r.choice(env)
        src = [b for b in env if b.filled and b is not a]
        if src and r.random() < 0.4:      # copy from another array
            b = r.choice(src)
            lines = self.loop(a.n, lambda i: self.store(
                a, i, "%s * %du + %s" % (self.load(b, "(%s * %du + %du) %% %du" % (
                    i, self.c(1, 7), self.c(0, 9), b.n)), self.c(1, 9), i)))
        elif not a.plain():
            lines = self.loop(a.n, lambda i: self.store(a, i, self.uval(i, loops)))
        elif "step" in self.feat and r.random() < 0.3:  # a stepped pointer
            p = self.var("p")
            lines = ["{", "    %s *%s = &%s;" % (a.ty, p, a.at("0"))]
            lines += ["    " + s for s in self.loop(a.n, lambda i: [
                s.replace(a.at(i), "(*%s)" % p) for s in self.store(a, i, self.uval(i, loops))]
                + ["%s++;" % p])]
            lines += ["}"]
        elif "escape" in self.feat and r.random() < 0.2:  # a __noinline__ callee writes it
            self.esc.add(("fill", a.ty))
            lines = ["esc_fill_%s(&%s, %du, %s);" % (a.ty, a.at("0"), a.n, self.uval("t", loops))]
        else:
            lines = self.loop(a.n, lambda i: self.store(a, i, self.uval(i, loops)))
        a.filled = True
        return lines

    def s_read(self, env, loops):
        r = self.r
        a = r.choice([b for b in env if b.filled])
        x = r.random()
        if x < 0.5:
            return ["acc = acc * %du + (%s);" % (self.c(3, 99) | 1, self.load(a, self.idx(a.n, loops)))]
        if x < 0.6 and a.n > 2:          # a constant offset past a run-time index
            off = self.c(1, a.n - 1)
            return ["acc = acc * %du + (%s);" % (self.c(3, 99) | 1, self.load(
                a, "%du + %s" % (off, self.idx(a.n - off, loops))))]
        if x < 0.65 and a.plain():       # through its one-past-the-end pointer
            e = self.var("e")
            suf, sc = r.choice(FIELDS[a.ty])
            return ["{", "    const %s *%s = &%s[0] + %du;" % (a.ty, e, a.name, a.n),
                    "    acc = acc * 17u + %s;" % fold(sc, "%s[-1 - (int)(%s)]%s" % (
                        e, self.idx(a.n, loops), suf)), "}"]
        if x < 0.7:                       # a reduction
            s = self.var("s")
            return ["unsigned %s = %du;" % (s, self.c())] + self.loop(a.n, lambda i: [
                "%s = %s * 3u + (%s);" % (s, s, self.load(a, i, r.random() < 0.5))]) + \
                ["acc ^= %s;" % s]
        if x < 0.8 and a.plain() and "step" in self.feat:  # a pointer stepped backwards
            q = self.var("q")
            return ["{", "    const %s *%s = &%s + %du;" % (a.ty, q, a.at("0"), a.n),
                    "    while (%s != &%s) {" % (q, a.at("0")),
                    "        --%s;" % q,
                    "        acc = acc * 5u + (%s);" % self.load(a, "0").replace(a.at("0"), "(*%s)" % q),
                    "    }", "}"]
        if len(a.dims) == 2:              # one index constant, or both run-time
            rr, cc = a.dims
            x = r.random()
            if x < 0.4:
                e = "%s[%s][%du]" % (a.name, self.idx(rr, loops), self.c(0, cc - 1))
            elif x < 0.7:
                e = "%s[%s][%s]" % (a.name, self.idx(rr, loops), self.idx(cc, loops))
            else:
                e = "%s[%du][%s]" % (a.name, self.c(0, rr - 1), self.idx(cc, loops))
            suf, s = r.choice(FIELDS[a.ty])
            return ["acc = acc * 7u + %s;" % fold(s, e + suf)]
        if "escape" not in self.feat or a.vol:
            return ["acc = acc * 3u + (%s);" % self.load(a, self.idx(a.n, loops), True)]
        # a __noinline__ callee reads it, from its start or its middle
        self.esc.add(("sum", a.ty))
        off = self.c(0, a.n - 1) if r.random() < 0.3 else 0
        return ["acc += esc_sum_%s(&%s + %du, %du, %s);" % (a.ty, a.at("0"), off, a.n - off,
                                                           self.idx(a.n - off, loops))]

    def s_poke(self, env, loops):
        """One element rewritten at a run-time index."""
        a = self.r.choice([b for b in env if b.filled])
        j = self.var("j")
        v = "%s * 3u + (%s)" % (self.load(a, j), self.uval(j, loops))
        return ["{", "    unsigned %s = %s;" % (j, self.idx(a.n, loops))] + \
            ["    " + s for s in self.store(a, j, v)] + ["}"]

    def s_scope(self, env, loops, depth):
        inner = list(env)
        body = self.stmts(inner, loops, depth + 1)
        return ["{"] + ["    " + s for s in body] + ["}"]

    def s_loop(self, env, loops, depth):
        r = self.r
        rv = self.var("r")
        inner = list(env)
        pre = []
        carried = None
        if r.random() < 0.5:              # an array carried into the next iteration
            pre = self.s_decl(inner, loops)
            carried = inner[-1]
            if not carried.filled:
                pre += self.s_fill(inner, loops, carried)
        body = self.s_read([carried], loops + [rv]) if carried is not None else []
        before = [(a, a.filled) for a in inner]
        self.breaks.append(False)
        body += self.stmts(inner, loops + [rv], depth + 1)
        if self.breaks.pop():   # what the body fills after a break may not be
            for a, f in before:
                a.filled = f
        if carried is not None:     # what the next iteration reads first
            body += self.s_poke([carried], loops + [rv])
        n = r.randint(1, 5)
        lines = pre + ["for (unsigned %s = 0; %s < %du; %s++) {" % (rv, rv, n, rv)] + \
            ["    " + s for s in body] + ["}"]
        if carried is not None:
            lines = ["{"] + ["    " + s for s in lines + self.s_read([carried], loops)] + ["}"]
        return lines

    def s_if(self, env, loops, depth):
        cond = "(in[(t * %du + %du) & 255u] & %du) == 0u" % (self.c(1, 9), self.c(0, 255),
                                                           self.r.choice([1, 2, 3, 4, 7]))
        before = [(a, a.filled) for a in env]

        def reset():
            for a, f in before:
                a.filled = f
        # an array filled on both sides is filled after the if
        x = None
        unfilled = [a for a in env if not a.filled]
        if unfilled and self.r.random() < 0.6:
            x = self.r.choice(unfilled)
        sides = []
        for _ in range(2):
            inner = list(env)
            pre = self.s_fill(inner, loops, x) if x is not None else []
            sides.append(pre + self.stmts(inner, loops, depth + 1))
            reset()
        if x is not None:
            x.filled = True
        return ["if (%s) {" % cond] + ["    " + s for s in sides[0]] + ["} else {"] + \
            ["    " + s for s in sides[1]] + ["}"]

    def s_break(self, env, loops):
        self.breaks[-1] = True
        return ["if ((in[(t * %du + %s) & 255u] & %du) == 0u)" % (self.c(1, 9), loops[-1],
                                                              self.r.choice([3, 7, 15])),
                "    break;"]

    def s_switch(self, env, loops, depth):
        before = [(a, a.filled) for a in env]
        n = self.r.randint(2, 6)
        lines = ["switch ((in[(t * %du + %du) & 255u] + uk) %% %du) {" % (self.c(1, 9), self.c(0, 255),
                                                                         n + 1)]
        for c in list(range(n)) + ["default"]:
            body = self.stmts(list(env), loops, depth + 1) if self.budget > 0 else []
            for a, f in before:
                a.filled = f
            lines += ["case %s: {" % c if c != "default" else "default: {"] + \
                ["    " + s for s in body] + ["    break;", "}"]
        return lines + ["}"]

    def s_select(self, env, loops):
        """A pointer to one of two arrays, or to an array or global memory."""
        r = self.r
        a = r.choice([b for b in env if b.filled and b.plain()])
        cond = "(in[(t * %du + %du) & 255u] & %du) == 0u" % (self.c(1, 9), self.c(0, 255),
                                                           r.choice([1, 3]))
        p = self.var("p")
        others = [b for b in env if b.filled and b.plain() and b.ty == a.ty and b is not a]
        if a.ty == "int" and (not others or r.random() < 0.3):
            return ["{", "    const unsigned *%s = %s ? (const unsigned *)&%s[0] : in + %du;" % (
                p, cond, a.name, self.c(0, 128)),
                "    acc = acc * 9u + %s[%s];" % (p, self.idx(a.n, loops)), "}"]
        if not others:
            return self.s_read(env, loops)
        b = r.choice(others)
        n = min(a.n, b.n)
        x = r.random()
        if x < 0.4:
            head = ["    const %s *%s = %s ? &%s[0] : &%s[0];" % (a.ty, p, cond, a.name, b.name)]
        elif x < 0.7:
            head = ["    const %s *%s = &%s[0];" % (a.ty, p, a.name),
                    "    if (%s)" % cond, "        %s = &%s[0];" % (p, b.name)]
        else:                             # an array of pointers to them
            head = ["    const %s *%ss[2] = {&%s[0], &%s[0]};" % (a.ty, p, a.name, b.name),
                    "    const %s *%s = %ss[%s];" % (a.ty, p, p, self.idx(2, loops))]
        suf, sc = r.choice(FIELDS[a.ty])
        return ["{"] + head + ["    acc = acc * 11u + %s;" % fold(sc, "%s[%s]%s" % (
            p, self.idx(n, loops), suf)), "}"]

    def s_copy(self, env, loops):
        """One element assigned whole from another array's."""
        r = self.r
        a = r.choice([b for b in env if b.filled and not b.vol])
        srcs = [b for b in env if b.filled and not b.vol and b.ty == a.ty]
        b = r.choice(srcs)
        return ["%s = %s;" % (a.at(self.idx(a.n, loops)), b.at(self.idx(b.n, loops)))]

    def s_box(self, env, loops):
        """A struct holding an array: copied whole, passed and returned by value."""
        self.boxes = True
        x, y = self.var("x"), self.var("y")
        r = self.r
        lines = ["{", "    Box %s;" % x]
        lines += ["    " + s for s in self.loop(16, lambda i: [
            "%s.v[%s] = %s;" % (x, i, SCALAR["int"] % self.uval(i, loops))])]
        if r.random() < 0.5:
            lines += ["    Box %s = %s;" % (y, x)]
        else:
            lines += ["    Box %s = box_step(%s, %s);" % (y, x, self.idx(16, loops))]
        lines += ["    %s.v[%s] = (int)(acc & 0xffffu);" % (x, self.idx(16, loops))]
        if r.random() < 0.5:
            lines += ["    acc = box_sum(%s, %s) * 3u + (unsigned)%s.v[%s];" % (
                y, self.idx(16, loops), x, self.idx(16, loops))]
        else:
            lines += ["    acc = acc * 13u + (unsigned)%s.v[%s] + (unsigned)%s.v[%s];" % (
                y, self.idx(16, loops), x, self.idx(16, loops))]
        return lines + ["}"]

    def s_call(self, env, loops):
        return ["acc = mix(acc, t + %du);" % self.c()]

    def s_helper(self, env, loops, depth):
        if len(self.helpers) >= 3 or self.in_helper:
            return self.s_call(env, loops)
        name = "helper%d" % len(self.helpers)
        self.in_helper = True
        budget, self.budget = self.budget, 12
        body = self.stmts([], [], 2)
        self.in_helper = False
        self.budget = budget
        self.helpers.append(
            ["static __device__ __noinline__ unsigned %s(const unsigned *in, unsigned t, "
             "unsigned uk, unsigned um, unsigned acc)" % name, "{"] +
            ["    " + s for s in body] + ["    return acc;", "}"])
        if loops and self.r.random() < 0.5:
            return ["acc = %s(in, t, uk + %s, um, acc);" % (name, loops[-1])]
        return ["acc = %s(in, t, uk, um, acc);" % name]

    def s_return(self, env, loops):
        self.returns += 1
        cond = "(in[(t * %du + %du) & 255u] %% %du) == 0u" % (self.c(1, 9), self.c(0, 255),
                                                           self.c(5, 11))
        if self.in_helper:
            return ["if (%s)" % cond, "    return acc ^ %du;" % self.c()]
        return ["if (%s) {" % cond, "    out[gid] = acc ^ %du;" % self.c(), "    return;", "}"]

    def stmts(self, env, loops, depth):
        r = self.r
        n = r.randint(2, 6 if depth < 2 else 4)
        lines = []
        for _ in range(n):
            # a kernel's size is bounded (with its helpers') so the interpreter is quick
            self.budget -= 1
            if self.budget < 0:
                break
            filled = [a for a in env if a.filled]
            kinds = [("decl", 4)]
            if env:
                kinds.append(("fill", 3 if len(filled) < len(env) else 1))
            if filled:
                kinds += [("read", 5), ("poke", 1)]
            if [a for a in filled if not a.vol]:
                kinds.append(("copy", 1))
            if [a for a in filled if a.plain()]:
                kinds.append(("select", 1))
            kinds.append(("box", 0.4))
            if self.breaks and loops:
                kinds.append(("break", 0.5))
            if depth < 3 and self.budget > 4:
                kinds += [("scope", 2), ("loop", 2), ("if", 2), ("switch", 0.5)]
            if "call" in self.feat:
                kinds.append(("call", 1))
            if "helper" in self.feat and depth < 3:
                kinds.append(("helper", 1))
            if "return" in self.feat and self.returns < 2:
                kinds.append(("return", 1))
            k = r.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
            if k in ("scope", "loop", "if", "switch", "helper"):
                lines += getattr(self, "s_" + k)(env, loops, depth)
            else:
                lines += getattr(self, "s_" + k)(env, loops)
        # read what is still unread in this scope most of the time
        for a in env[-3:]:
            if a.filled and r.random() < 0.7:
                lines += self.s_read([a], loops)
        return lines

    def kernel(self, n):
        self.returns = 0
        self.budget = 30
        # what may pin objects or keep a whole depot is drawn per kernel, so
        # that some kernels are all movable arrays
        self.feat = {f for f in ("escape", "step", "helper", "return", "call")
                     if self.r.random() < 0.35}
        body = self.stmts([], [], 0)
        return (["extern \"C\" __global__ void k%d(const unsigned *in, unsigned *out, int k, int m)" % n,
                 "{",
                 "    unsigned t = threadIdx.x, gid = blockIdx.x * blockDim.x + t;",
                 "    unsigned uk = (unsigned)k, um = (unsigned)m, acc = %du;" % self.c(1, 1 << 30)] +
                ["    " + s for s in body] + ["    out[gid] = acc;", "}"])

    def escape_helpers(self):
        out = []
        for kind, ty in sorted(self.esc):
            fs = FIELDS[ty]
            if kind == "sum":
                out += ["static __device__ __noinline__ unsigned esc_sum_%s(const %s *p, unsigned n, "
                        "unsigned s)" % (ty, ty), "{", "    unsigned h = s;",
                        "    for (unsigned i = 0; i < n; i++)",
                        "        h = h * 33u + (%s);" % " ^ ".join(
                            fold(sc, "p[(i + s) % n]" + suf) for suf, sc in fs),
                        "    return h;", "}", ""]
            else:
                out += ["static __device__ __noinline__ void esc_fill_%s(%s *p, unsigned n, "
                        "unsigned s)" % (ty, ty), "{", "    for (unsigned i = 0; i < n; i++) {"]
                out += ["        p[i]%s = %s;" % (suf, SCALAR[sc] % ("s * 7u + i * %du" % (13 + j)))
                        for j, (suf, sc) in enumerate(fs)]
                out += ["    }", "}", ""]
        return out

    def box_helpers(self):
        if not self.boxes:
            return []
        return ["static __device__ __noinline__ unsigned box_sum(Box b, unsigned j)", "{",
                "    unsigned h = j;",
                "    for (unsigned i = 0; i < 16u; i++)",
                "        h = h * 5u + (unsigned)b.v[(i + j) % 16u];",
                "    return h;", "}", "",
                "static __device__ __noinline__ Box box_step(Box b, unsigned j)", "{",
                "    Box r;",
                "    for (unsigned i = 0; i < 16u; i++)",
                "        r.v[i] = (b.v[(i + j) % 16u] + (int)i) & 0xffff;",
                "    return r;", "}", ""]

    def run(self):
        nk = self.r.randint(3, 5)
        ks = [self.kernel(i) for i in range(nk)]
        lines = ["// Generated by tests/difftest/gen-depot.py %d; do not edit." % self.seed,
                 "// kernels: %s" % " ".join("k%d" % i for i in range(nk)),
                 PRELUDE]
        lines += self.escape_helpers() + self.box_helpers()
        for h in self.helpers:
            lines += h + [""]
        for k in ks:
            lines += k + [""]
        return "\n".join(lines)


PRELUDE = """#ifdef PTXLINK_CLANG
#include "clang_cuda_min.h"
struct __attribute__((aligned(8))) int2 {
    int x, y;
};
#endif
typedef unsigned char uchar;
struct Rec {
    int a;
    float b;
    double c;
};
struct Pair {
    uchar tag;
    int v;
};
struct Tri {
    short s;
    float f;
    int u;
};
struct Box {
    int v[16];
};

static __device__ __noinline__ unsigned mix(unsigned v, unsigned w)
{
    return v * 31u + (w ^ (v >> 3));
}
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("-o", "--out", default="-")
    a = ap.parse_args()
    src = Gen(a.seed).run()
    if a.out == "-":
        sys.stdout.write(src)
    else:
        with open(a.out, "w") as f:
            f.write(src)


if __name__ == "__main__":
    main()
