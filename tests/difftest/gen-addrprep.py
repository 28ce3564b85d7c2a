#!/usr/bin/env python3
"""Write a random CUDA source whose kernels compute addresses and indices.

    tests/difftest/gen-addrprep.py SEED [-o FILE]       (default: standard output)

For differential testing of address preparation (stages/addrprep.c): every
kernel computes index expressions in size_t, unsigned, int and long long
from threadIdx.{x,y,z}, blockIdx.{x,y,z}, blockDim, gridDim, the int
arguments, loop counters and loaded words, with small and large constants,
masks, % and / by constants, shifts, sums, differences and products (some
fitting in 32 bits, some not: blockIdx.x * blockDim.x * a large constant in
size_t, or unsigned products that wrap), signed values that may be
negative and are then widened (sign extension), and the shapes the three
rewrites look for: 64-bit arithmetic of zero-extended 32-bit values
(narrow), one value read twice (x * x), a base plus a masked index plus constant offsets used only as
addresses, also in other blocks (fold), and addresses computed before a
loop or a __noinline__ call and used after it (sink), and 128-bit sums and
products (add.cc and addc) whose high half a call reads and whose low half
is read after it.  Some kernels carry
__launch_bounds__, so .maxntid bounds the thread ids.

Every kernel is `extern "C" __global__ void kN(const unsigned *in,
unsigned long long *out, int k, int m)`: `in` holds at least 2048 words,
`out` 4 words per thread of the grid (the grid is at most 3x2 blocks of at
most 128 threads), k and m are integers in -3..12.  Each thread writes its
values as 64-bit words into out[4 * its linear id + 0..2] and a hash of
all of them into out[4 * id + 3], so a wrong narrowing changes the output.
The lines `// kernels: k0 k1 ...` and `// maxthreads: N0 N1 ...` (1024 for
a kernel without __launch_bounds__) name the kernels and the largest block
each may be launched with.

No undefined behaviour for launches of at most 64x8x2 threads (product at
most 128) in a grid of at most 3x2x1 blocks: every memory index is masked
or reduced below the buffer's size, signed arithmetic is done only where
the generator's interval bounds prove it cannot overflow (else in 64 bits
or unsigned), shifts are by less than the width and never of negative
values to the left.  The same seed always gives the same source.  Compile
with `nvcc -arch=sm_80 --ptx`, or with `clang -x cuda --cuda-device-only
-nocudainc -DPTXLINK_CLANG -I corpus/src`.
"""
import argparse
import random
import sys

U32 = (1 << 32) - 1
U64 = (1 << 64) - 1
I32 = (-(1 << 31), (1 << 31) - 1)
I64 = (-(1 << 63), (1 << 63) - 1)
# C type -> (spelling, bits, signed)
TYPES = {
    "u32": ("unsigned", 32, False),
    "i32": ("int", 32, True),
    "u64": ("size_t", 64, False),
    "i64": ("long long", 64, True),
}


def trange(ty):
    _, bits, sign = TYPES[ty]
    if sign:
        return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    return (0, (1 << bits) - 1)


def tdiv(a, c):
    """C's division (toward zero) by a positive c."""
    return abs(a) // c if a >= 0 else -(abs(a) // c)


def fits(ty, lo, hi):
    a, b = trange(ty)
    return a <= lo and hi <= b


class E:
    """An expression: C text, its type and the bounds of its value over
    every launch the difftest makes."""

    def __init__(self, s, ty, lo, hi):
        self.s, self.ty, self.lo, self.hi = s, ty, lo, hi


def conv(e, ty):
    """e converted to ty (the C conversion, with its bounds)."""
    if e.ty == ty:
        return e
    lo, hi = e.lo, e.hi
    a, b = trange(ty)
    if not (a <= lo and hi <= b):
        # a wrap-around conversion: unsigned of a negative, a truncation
        if not TYPES[ty][2] and lo < 0 and hi < 0 and hi - lo < (1 << TYPES[ty][1]):
            m = 1 << TYPES[ty][1]
            lo, hi = lo + m, hi + m
        else:
            lo, hi = a, b
    return E("(%s)(%s)" % (TYPES[ty][0], e.s), ty, lo, hi)


# the builtins, bounded by the launches the difftest makes
LEAVES = [
    ("threadIdx.x", 0, 63), ("threadIdx.y", 0, 7), ("threadIdx.z", 0, 1),
    ("blockIdx.x", 0, 2), ("blockIdx.y", 0, 1), ("blockIdx.z", 0, 0),
    ("blockDim.x", 1, 64), ("blockDim.y", 1, 8), ("blockDim.z", 1, 2),
    ("gridDim.x", 1, 3), ("gridDim.y", 1, 2),
]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.nvar = 0
        self.helpers = set()
        self.budget = 0

    def var(self, p):
        self.nvar += 1
        return "%s%d" % (p, self.nvar)

    # ---- expressions ----
    def leaf(self, loops, locals_):
        r = self.r
        x = r.random()
        if x < 0.45:
            name, lo, hi = r.choice(LEAVES[:6] if r.random() < 0.7 else LEAVES)
            return E(name, "u32", lo, hi)
        if x < 0.55:
            return E(r.choice(["k", "m"]), "i32", -3, 12)
        if x < 0.62 and loops:
            v, ty, lo, hi = r.choice(loops)
            return E(v, ty, lo, hi)
        if x < 0.7 and locals_:
            return r.choice(locals_)
        if x < 0.78:
            return E("in[%s]" % self.mem_index(2047, loops, locals_, 0), "u32", 0, U32)
        if x < 0.84:
            v = r.choice([0x9e3779b1, 3000000000, 0x7fffffff, 0x10001, 1 << 20, 65537, 0xffffff00,
                          0xffffffff, 0x80000000])
            return E("%du" % v, "u32", v, v)
        if x < 0.9:
            v = r.randint(-50, -1)
            return E("(%d)" % v, "i32", v, v)
        v = r.choice([1, 2, 3, 4, 5, 7, 8, 16, 17, 31, 32, 64, 100, 255, 256, 1000, 4096])
        return E("%du" % v, "u32", v, v)

    def const(self, ty, small=True):
        r = self.r
        if small or r.random() < 0.6:
            v = r.choice([1, 2, 3, 4, 5, 7, 8, 12, 16, 24, 32, 63, 64, 100, 128, 255, 256, 1024])
        else:
            v = r.choice([0x9e3779b1, 3000000000, 2654435761, 0x12345, 1 << 24, 99991])
        if TYPES[ty][2] and v > 0x7fffffff:
            v = 99991
        suffix = {"u32": "u", "i32": "", "u64": "ull", "i64": "ll"}[ty]
        return E("%d%s" % (v, suffix), ty, v, v)

    def expr(self, ty, depth, loops, locals_):
        """An expression of type ty."""
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return conv(self.leaf(loops, locals_), ty)
        x = r.random()
        if x < 0.12:                              # a conversion from another type
            other = r.choice([t for t in TYPES if t != ty])
            return conv(self.expr(other, depth - 1, loops, locals_), ty)
        if x < 0.5:
            op = r.choice(["+", "+", "-", "*", "*"])
            a = self.expr(ty, depth - 1, loops, locals_)
            x = r.random()
            if x < 0.08:      # one value twice: x * x, x + x
                b = a
            elif x < 0.45:
                b = self.const(ty, small=r.random() < 0.6)
            else:
                b = self.expr(ty, depth - 1, loops, locals_)
            return self.binop(op, a, b, ty)
        if x < 0.62:                              # a mask
            a = self.expr(ty, depth - 1, loops, locals_)
            m = r.choice([255, 1023, 0xffff, 0xfff0, 7, 0x7fffffff])
            if ty in ("u64", "i64") and r.random() < 0.3:
                m = 0xffffffff
            hi = min(m, a.hi) if a.lo >= 0 else m
            return E("(%s & %s)" % (a.s, self.lit(m, ty)), ty, 0, hi)
        if x < 0.72:                              # % or / by a constant
            a = self.expr(ty, depth - 1, loops, locals_)
            c = r.choice([3, 5, 7, 8, 10, 16, 100, 509, 1000])
            if r.random() < 0.5:
                if a.lo >= 0:
                    return E("(%s %% %s)" % (a.s, self.lit(c, ty)), ty, 0, min(a.hi, c - 1))
                return E("(%s %% %s)" % (a.s, self.lit(c, ty)), ty, max(a.lo, -(c - 1)),
                         min(max(a.hi, 0), c - 1))
            return E("(%s / %s)" % (a.s, self.lit(c, ty)), ty, tdiv(a.lo, c), tdiv(a.hi, c))
        if x < 0.82:                              # a shift right
            a = self.expr(ty, depth - 1, loops, locals_)
            s = r.choice([1, 2, 3, 4, 8, 12, 16, 24, 31] + ([32, 33, 40] if TYPES[ty][1] == 64 else []))
            return E("(%s >> %d)" % (a.s, s), ty, a.lo >> s, a.hi >> s)
        if x < 0.9:                               # a shift left
            a = self.expr(ty, depth - 1, loops, locals_)
            s = r.choice([1, 2, 3, 4, 5, 8, 10, 20, 28, 31] + ([32, 36] if TYPES[ty][1] == 64 else []))
            lo, hi = a.lo << s, a.hi << s
            if TYPES[ty][2] and (a.lo < 0 or not fits(ty, lo, hi)):
                return self.binop("*", a, self.const(ty), ty)
            if not fits(ty, lo, hi):
                lo, hi = trange(ty)
            return E("(%s << %d)" % (a.s, s), ty, lo, hi)
        # the classic: a linear index in a wider type
        a = conv(E("blockIdx.x", "u32", 0, 2), ty)
        b = conv(E(r.choice(["blockDim.x", "blockDim.y"]), "u32", 1, 64), ty)
        e = self.binop("*", a, b, ty)
        e = self.binop("+", e, conv(self.leaf(loops, locals_), ty), ty)
        if r.random() < 0.4:
            e = self.binop("*", e, self.const(ty, small=False), ty)
        return e

    def lit(self, v, ty):
        return "%d%s" % (v, {"u32": "u", "i32": "", "u64": "ull", "i64": "ll"}[ty])

    def binop(self, op, a, b, ty):
        """a op b in type ty; signed arithmetic that might overflow is done
        in the unsigned type of its width instead."""
        ops = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y}
        f = ops[op]
        vals = [f(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
        lo, hi = min(vals), max(vals)
        if fits(ty, lo, hi):
            return E("(%s %s %s)" % (a.s, op, b.s), ty, lo, hi)
        if TYPES[ty][2]:      # it might overflow: compute unsigned, convert back
            uty = "u32" if TYPES[ty][1] == 32 else "u64"
            ua, ub = conv(a, uty), conv(b, uty)
            e = E("(%s %s %s)" % (ua.s, op, ub.s), uty, *trange(uty))
            return conv(e, ty)
        return E("(%s %s %s)" % (a.s, op, b.s), ty, *trange(ty))

    def index(self, mask, loops, locals_, depth=2):
        """A masked index expression and its masked bound."""
        ty = self.r.choice(["u32", "u64", "i32", "u32"])
        e = self.expr(ty, depth, loops, locals_)
        return "(%s & %s)" % (e.s, self.lit(mask, ty))

    def mem_index(self, top, loops, locals_, depth=2):
        """An index in 0..top: a masked index plus a constant offset."""
        r = self.r
        mask = r.choice([m for m in (7, 63, 255, 511, 1023) if m <= top])
        e = self.index(mask, loops, locals_, depth)
        off = r.randint(0, top - mask)
        return "%s + %d" % (e, off) if off else e

    # ---- statements ----
    def value(self, loops, locals_):
        """A 64-bit value to store."""
        r = self.r
        ty = r.choice(["u64", "u64", "i64", "u32", "i32"])
        e = self.expr(ty, r.randint(1, 4), loops, locals_)
        return "(unsigned long long)(%s)" % e.s

    def s_store(self, loops, locals_):
        j = self.r.randint(0, 2)
        return ["out[o + %d] = %s;" % (j, self.value(loops, locals_)),
                "acc = (acc ^ out[o + %d]) * 0x100000001b3ull;" % j]

    def s_mix(self, loops, locals_):
        return ["acc = (acc ^ %s) * 0x100000001b3ull;" % self.value(loops, locals_)]

    def s_local(self, loops, locals_):
        r = self.r
        ty = r.choice(list(TYPES))
        e = self.expr(ty, r.randint(1, 3), loops, locals_)
        v = self.var("v")
        locals_.append(E(v, ty, e.lo, e.hi))
        return ["%s %s = %s;" % (TYPES[ty][0], v, e.s)]

    def s_load(self, loops, locals_):
        """Loads at base + masked index + constant offsets (fold)."""
        r = self.r
        if r.random() < 0.4:
            return ["acc = (acc ^ in[%s]) * 0x100000001b3ull;" % self.mem_index(2047, loops, locals_)]
        p = self.var("p")
        mask = r.choice([63, 255, 511, 1023])
        base = r.randint(0, 256)
        lines = ["const unsigned *%s = in + %s%s;" % (p, self.index(mask, loops, locals_),
                                                     " + %d" % base if base else "")]
        room = 2047 - mask - base
        for _ in range(r.randint(1, 4)):
            c = r.randint(0, min(room, 600))
            x = r.random()
            if x < 0.5:
                lines.append("acc = (acc ^ %s[%d]) * 0x100000001b3ull;" % (p, c))
            elif x < 0.8:      # in another block
                lines += ["if ((%s & %du) != 0u)" % (self.expr("u32", 1, loops, locals_).s,
                                                    r.choice([1, 2, 4, 8])),
                          "    acc += %s[%d];" % (p, c)]
            else:
                q = self.var("q")
                lines += ["{", "    const unsigned *%s = %s + %d;" % (q, p, c),
                          "    acc ^= (unsigned long long)%s[0] << %d;" % (q, r.randint(0, 31)),
                          "    acc += %s[%d];" % (q, r.randint(0, min(room - c, 64))), "}"]
        return lines

    def s_fold(self, loops, locals_):
        """A base plus an offset used as an address only, in other blocks."""
        r = self.r
        p = self.var("p")
        mask = r.choice([63, 255, 511])
        base = r.randint(1, 700)
        room = 2047 - mask - base
        lines = ["const unsigned *%s = in + %s + %d;" % (p, self.index(mask, loops, locals_), base)]
        c = lambda: r.randint(0, min(room, 400))
        lines += ["if ((%s & %du) == 0u) {" % (self.expr("u32", 1, loops, locals_).s, r.choice([1, 2, 4])),
                  "    acc = (acc ^ %s[%d]) * 0x100000001b3ull;" % (p, c()),
                  "    out[o + %d] = %s[%d] + acc;" % (r.randint(0, 2), p, c()),
                  "} else {",
                  "    acc += (unsigned long long)%s[%d] * %du;" % (p, c(), r.randint(3, 99)),
                  "}"]
        if r.random() < 0.5:
            lines.append("acc ^= %s[%d];" % (p, c()))
        return lines

    def s_sink(self, loops, locals_, depth):
        """An address and a value computed before a loop or a call, used after."""
        r = self.r
        p, v = self.var("p"), self.var("w")
        mask = r.choice([63, 255, 511])
        base = r.randint(0, 512)
        live = r.random() < 0.6
        if live:     # the index is read after the loop or call too: live there anyway
            j = self.var("j")
            ty = r.choice(["unsigned", "size_t", "int"])
            lines = ["%s %s = %s;" % (ty, j, self.index(mask, loops, locals_)),
                     "const unsigned *%s = in + %s%s;" % (p, j, " + %d" % base if base else "")]
        else:
            lines = ["const unsigned *%s = in + %s%s;" % (p, self.index(mask, loops, locals_),
                                                         " + %d" % base if base else "")]
        lines.append("unsigned long long %s = %s;" % (v, self.value(loops, locals_)))
        if r.random() < 0.5 or depth >= 2:
            h = r.choice(["h0", "h1", "h2"])
            self.helpers.add(h)
            lines.append("acc = %s(acc, %s);" % (h, self.expr("u32", 2, loops, locals_).s))
        else:
            lines += self.s_loop(loops, locals_, depth + 1)
        room = 2047 - mask - base
        c = r.randint(0, min(room, 300))
        lines.append("acc = (acc ^ (%s[%d] + %s)) * 0x100000001b3ull;" % (p, c, v))
        if live:
            # j * 4 in size_t is the address's scaled index (CSE makes them one)
            lines.append("acc += (size_t)%s * %du;" % (j, 4 if r.random() < 0.7 else r.randint(3, 99)))
        if r.random() < 0.4:
            lines += ["if ((acc & %du) == 0u)" % r.choice([1, 3]),
                      "    out[o + %d] = %s[%d];" % (r.randint(0, 2), p, r.randint(0, min(room, 300)))]
        return lines

    def s_wide(self, loops, locals_):
        """128-bit arithmetic (add.cc / addc, mad.lo.cc / madc), its low and high
        halves read after a __noinline__ call."""
        r = self.r
        w = self.var("x")
        h = r.choice(["h0", "h1", "h2"])
        self.helpers.add(h)
        a, b = self.value(loops, locals_), self.value(loops, locals_)
        c = self.value(loops, locals_)
        # ~b: the low halves carry about half the time
        op = r.choice(["(unsigned __int128)%s * %s + ~%s" % (a, b, c),
                       "(unsigned __int128)%s + ~%s" % (a, b),
                       "((unsigned __int128)%s << 64 | %s) - %s" % (a, b, c)])
        return ["unsigned __int128 %s = %s;" % (w, op),
                "acc = %s(acc, (unsigned)(%s >> %d) ^ %s);" % (h, w, r.choice([64, 96]),
                                                           self.expr("u32", 1, loops, locals_).s),
                "acc = (acc ^ (unsigned long long)%s) * 0x100000001b3ull;" % w,
                "acc ^= (unsigned long long)(%s >> %d);" % (w, r.choice([64, 64, 32, 100]))]

    def s_call(self, loops, locals_):
        r = self.r
        x = r.random()
        if x < 0.5:
            h = r.choice(["h0", "h1", "h2"])
            self.helpers.add(h)
            return ["acc = %s(acc, %s);" % (h, self.expr("u32", 2, loops, locals_).s)]
        self.helpers.add("hidx")
        return ["acc = (acc ^ hidx(in, %s)) * 0x100000001b3ull;" % self.expr("u32", 1, loops, locals_).s]

    def s_loop(self, loops, locals_, depth):
        r = self.r
        i = self.var("i")
        x = r.random()
        if x < 0.4:
            head = "for (int %s = 0; %s < k; %s++) {" % (i, i, i)
            lv = (i, "i32", 0, 11)
        elif x < 0.7:
            n = r.randint(1, 4)
            head = "for (unsigned %s = 0; %s < (unsigned)(m & 7) + %du; %s++) {" % (i, i, n, i)
            lv = (i, "u32", 0, 6 + n)
        else:
            head = "for (int %s = m; %s > 0; %s -= %d) {" % (i, i, i, r.randint(1, 3))
            lv = (i, "i32", 1, 12)
        body = self.stmts(loops + [lv], list(locals_), depth + 1)
        return [head] + ["    " + s for s in body] + ["}"]

    def s_stride(self, loops, locals_, depth):
        """A grid-stride loop in size_t, or a pointer stepped in a loop: values
        carried around a loop, which no range bounds."""
        r = self.r
        i = self.var("g")
        if r.random() < 0.5:
            head = ("for (size_t %s = threadIdx.x + (size_t)blockIdx.x * blockDim.x; %s < %du + (size_t)(m & 7); "
                    "%s += (size_t)blockDim.x * gridDim.x) {" % (i, i, r.randint(100, 600), i))
            body = ["acc = (acc ^ in[(%s * %du + %du) & 2047u]) * 0x100000001b3ull;" % (i, r.randint(1, 9), r.randint(0, 99)),
                    "acc += %s << %d;" % (i, r.randint(0, 40))]
            return [head] + ["    " + b for b in body] + ["}"]
        q = self.var("q")
        step = r.randint(1, 9)
        lines = ["{", "    const unsigned *%s = in + %s;" % (q, self.index(511, loops, locals_)),
                 "    for (int %s = 0; %s < k; %s++) {" % (i, i, i),
                 "        acc = (acc ^ %s[%d]) * 0x100000001b3ull;" % (q, r.randint(0, 1000)),
                 "        %s += %d;" % (q, step), "    }",
                 "    acc ^= %s[%d];" % (q, r.randint(0, 1000)), "}"]
        return lines

    def s_if(self, loops, locals_, depth):
        cond = "(%s & %du) == 0u" % (self.expr("u32", 1, loops, locals_).s, self.r.choice([1, 2, 3, 4]))
        a = self.stmts(loops, list(locals_), depth + 1)
        b = self.stmts(loops, list(locals_), depth + 1)
        return ["if (%s) {" % cond] + ["    " + s for s in a] + ["} else {"] + \
            ["    " + s for s in b] + ["}"]

    def stmts(self, loops, locals_, depth):
        r = self.r
        lines = []
        for _ in range(r.randint(3 if depth == 0 else 2, 5 if depth < 2 else 3)):
            self.budget -= 1
            if self.budget < 0:
                break
            kinds = [("store", 4), ("mix", 3), ("local", 2), ("load", 3), ("fold", 1.5), ("call", 1), ("wide", 0.5)]
            if depth < 3 and self.budget > 3:
                kinds += [("sink", 2), ("loop", 1.5), ("if", 1), ("stride", 0.7)]
            k = r.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
            if k in ("loop", "if", "sink", "stride"):
                lines += getattr(self, "s_" + k)(loops, locals_, depth)
            else:
                lines += getattr(self, "s_" + k)(loops, locals_)
        return lines

    def kernel(self, n):
        r = self.r
        self.budget = 14
        bound = r.choice([0, 0, 64, 128, 256, 1024, 32])
        body = self.stmts([], [], 0)
        lb = " __launch_bounds__(%d%s)" % (bound, ", %d" % r.randint(1, 4) if r.random() < 0.3 else "") \
            if bound else ""
        return bound or 1024, (
            ["extern \"C\" __global__ void%s k%d(const unsigned *in, unsigned long long *out, "
             "int k, int m)" % (lb, n),
             "{",
             "    unsigned id = ((blockIdx.y * gridDim.x + blockIdx.x) * blockDim.z + threadIdx.z) *",
             "        blockDim.y * blockDim.x + threadIdx.y * blockDim.x + threadIdx.x;",
             "    size_t o = (size_t)id * 4;",
             "    unsigned long long acc = %dull;" % r.randint(1, 1 << 40)] +
            ["    " + s for s in body] + ["    out[o + 3] = acc;", "}"])

    def helper_code(self):
        code = {
            "h0": ["static __device__ __noinline__ unsigned long long h0(unsigned long long a, unsigned b)",
                   "{", "    return a * 2654435761ull + (b ^ (unsigned)(a >> 7));", "}"],
            "h1": ["static __device__ __noinline__ unsigned long long h1(unsigned long long a, unsigned b)",
                   "{", "    for (unsigned i = 0; i < (b & 3u); i++)",
                   "        a = (a ^ i) * 0x100000001b3ull;", "    return a + b;", "}"],
            "h2": ["static __device__ __noinline__ unsigned long long h2(unsigned long long a, unsigned b)",
                   "{", "    return (a << 3) ^ ((size_t)threadIdx.x * b + blockIdx.x);", "}"],
            "hidx": ["static __device__ __noinline__ unsigned long long hidx(const unsigned *in, unsigned b)",
                     "{", "    size_t i = (size_t)threadIdx.y * blockDim.x + threadIdx.x;",
                     "    return in[(i + b) & 1023u] + (i << 33);", "}"],
        }
        out = []
        for h in sorted(self.helpers):
            out += code[h] + [""]
        return out

    def run(self):
        nk = self.r.randint(3, 5)
        ks = [self.kernel(i) for i in range(nk)]
        lines = ["// Generated by tests/difftest/gen-addrprep.py %d; do not edit." % self.seed,
                 "// kernels: %s" % " ".join("k%d" % i for i in range(nk)),
                 "// maxthreads: %s" % " ".join(str(b) for b, _ in ks),
                 PRELUDE]
        lines += self.helper_code()
        for _, k in ks:
            lines += k + [""]
        return "\n".join(lines)


PRELUDE = """#ifdef PTXLINK_CLANG
#include "clang_cuda_min.h"
#else
#include <stddef.h>
#endif
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
