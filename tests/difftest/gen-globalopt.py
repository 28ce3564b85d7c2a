#!/usr/bin/env python3
"""Write a random CUDA source whose kernels read never-written data.

    tests/difftest/gen-globalopt.py SEED [-o FILE]      (default: standard output)

For differential testing of global optimization's folding (stages/globalopt.c):
a never-written struct with scalar, float, array and 64-bit fields, never-
written int tables and a __constant__ float table, one table the kernels
do write, and getters (inline and __noinline__) that take a table's
address.  Each kernel reads them in the shapes the stage must get right:
constant fields, fields indexing tables (weights[flags & 3], to be folded
round after round), a table chosen at run time between two, run-time
indexes (the variable stays), loops bounded by a field, a store into the
written table (never run: threads do not race), and reads through a getter the address goes to.

Every kernel is `extern "C" __global__ void kN(const unsigned *in,
unsigned *out, int k, int m)`: `in` holds at least 256 words, `out` one
word per thread of the grid, k and m are small non-negative integers.
Each thread writes out[its global id], a sum of what it read, so a wrong
fold changes the output.  The line `// kernels: k0 k1 ...` names the
kernels.
"""
import argparse
import random


def data(rnd):
    ri = rnd.randint
    w = ", ".join("%sf" % (ri(-20, 20) / 8.0) for _ in range(8))
    s = ", ".join(str(ri(-300, 300)) for _ in range(4))
    b = ", ".join(str(ri(0, 255)) for _ in range(4))
    idx = ", ".join(str(ri(0, 15)) for _ in range(4))
    tab = lambda: ", ".join(str(ri(-1000, 1000)) for _ in range(16))
    return [
        "struct P { int n; int flags; float a; float w[8]; short s[4];"
        " unsigned char b[4]; int idx[4]; long long big; };",
        "__device__ P prm = {%d, %d, %sf, {%s}, {%s}, {%s}, {%s}, %dLL};"
        % (ri(0, 100), ri(0, 15), ri(-8, 8) / 4.0, w, s, b, idx, ri(-(1 << 40), 1 << 40)),
        "__device__ int tab[16] = {%s};" % tab(),
        "__device__ int tab2[16] = {%s};" % tab(),
        "__constant__ float cw[8] = {%s};"
        % ", ".join("%sf" % (ri(-50, 50) / 4.0) for _ in range(8)),
        "__device__ int wr[4] = {%s};" % ", ".join(str(ri(0, 9)) for _ in range(4)),
        "__device__ int get(const int *p, int i) { return p[i]; }",
        "__device__ __noinline__ int getn(const int *p, int i) { return p[i & 15]; }",
    ]


def terms(rnd):
    ri = rnd.randint
    return [
        "prm.flags", "prm.n", "(int)(prm.a * 4)", "(int)(prm.w[prm.flags & 7] * 8)",
        "tab[prm.flags & 15]", "tab[prm.idx[prm.flags & 3]]", "tab[x & 15]", "prm.s[x & 3]",
        "prm.b[prm.flags & 3]", "prm.b[x & 3]", "get(tab, (prm.n + %d) & 15)" % ri(0, 15),
        "get(tab2, x & 15)", "(int)(cw[prm.flags & 7] * 4)", "(int)(cw[x & 7] * 4)",
        "((x & 1) ? tab : tab2)[prm.flags & 15]", "(int)(prm.big >> %d)" % ri(0, 40),
        "wr[prm.flags & 3]", "wr[x & 3]", "getn(tab, x + prm.flags)", "(int)prm.w[3]",
        "tab[(prm.flags * %d + %d) & 15]" % (ri(1, 5), ri(0, 7)), "prm.s[(prm.flags >> 1) & 3]",
        "prm.idx[(k + m) & 3]",
    ]


def kernel(rnd, name):
    lines = [
        'extern "C" __global__ void %s(const unsigned *in, unsigned *out, int k, int m)' % name,
        "{",
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;",
        "    int x = (int)in[i & 255] + k;",
        "    unsigned r = %d;" % rnd.randint(0, 9),
    ]
    for _ in range(rnd.randint(4, 10)):
        # unsigned: wrapping is defined, so the compilers agree
        lines.append("    r = r %s (unsigned)(%s);" % (rnd.choice("+-^*"), rnd.choice(terms(rnd))))
        if rnd.random() < 0.15:
            # a store that never runs (m is small): wr is written as far as
            # the stage can tell, and no thread races another
            lines.append("    if (m > 1000) wr[x & 3] = (int)r;")
        if rnd.random() < 0.2:
            lines.append("    for (int j = 0; j < (prm.flags & 3) + m; j++) r += tab[(j + x) & 15];")
    lines += ["    out[i] = r;", "}"]
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("-o", dest="out")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    nk = rnd.randint(2, 4)
    src = ["// gen-globalopt.py %d" % a.seed,
           "// kernels: %s" % " ".join("k%d" % i for i in range(nk))]
    src += ["#ifdef PTXLINK_CLANG", '#include "clang_cuda_min.h"', "#endif"]
    src += data(rnd)
    for i in range(nk):
        src += [""] + kernel(rnd, "k%d" % i)
    text = "\n".join(src) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
