#!/usr/bin/env python3
"""Generates a PTX kernel in the shape clang -O0 and nvcc -G (after
--strip-debug) give pointer variables: int variables and pointer variables
in one %SP depot, the pointers holding generic addresses of the ints
(formed by add from %SP, copied through movs, stored by st.local, a generic
st or a vector st), loaded back and written, read and passed to a call
through.  Scalar replacement holds the pointer variables in registers
(stages/depot.c); the stored addresses must keep their definitions and stay
generic (issue 31).  Every variable is written before it is read.

    gen-pointers.py SEED    (PTX on stdout; kernel kern(u32 *out, int v))
"""
import random
import sys


def gen(seed):
    R = random.Random(seed)
    nx = R.randint(1, 4); npt = R.randint(1, 3)
    # layout: pointer slots first (8 bytes each), then int slots (4 bytes each)
    poff = [8*j for j in range(npt)]
    base = 8*npt + (8 if R.random() < 0.5 else 0)
    xoff = [base + 4*i for i in range(nx)]
    size = xoff[-1] + 4
    size = (size + 7) // 8 * 8
    L = []; rd = [1]; r = [1]
    def nrd():
        rd[0] += 1; return "%%rd%d" % rd[0]
    def nr():
        r[0] += 1; return "%%r%d" % r[0]
    L.append("mov.u64 %SPL, __local_depot0;")
    L.append("cvta.local.u64 %SP, %SPL;")
    L.append("ld.param.u64 %rd1, [kern_param_0];")
    L.append("ld.param.u32 %r1, [kern_param_1];")
    for i in range(nx):
        L.append("st.local.u32 [%%SPL+%d], %d;" % (xoff[i], i + 1))
    addrs = []
    def addr_of(i):
        a = nrd(); L.append("add.u64 %s, %%SP, %d;" % (a, xoff[i]))
        for _ in range(R.randint(0, 2)):
            b = nrd(); L.append("mov.b64 %s, %s;" % (b, a)); a = b
        return a
    for j in range(npt):
        a = addr_of(R.randrange(nx))
        L.append("st.local.u64 [%%SPL+%d], %s;" % (poff[j], a))
    acc = "%r1"
    helper = False
    for _ in range(R.randint(2, 8)):
        k = R.randrange(6)
        if k == 0:
            i = R.randrange(nx); v = nr()
            L.append("add.s32 %s, %s, %d;" % (v, acc, R.randint(1, 9)))
            L.append("st.local.u32 [%%SPL+%d], %s;" % (xoff[i], v))
        elif k == 1:
            j = R.randrange(npt); a = addr_of(R.randrange(nx))
            if R.random() < 0.3:
                L.append("st.u64 [%%SP+%d], %s;" % (poff[j], a))
            else:
                L.append("st.local.u64 [%%SPL+%d], %s;" % (poff[j], a))
        elif k == 2 and npt >= 2 and poff[1] == 8:
            a = addr_of(R.randrange(nx)); b = addr_of(R.randrange(nx))
            L.append("st.local.v2.u64 [%%SPL+0], {%s, %s};" % (a, b))
        elif k == 3:
            j = R.randrange(npt); p = nrd(); v = nr()
            L.append("ld.local.u64 %s, [%%SPL+%d];" % (p, poff[j]))
            L.append("add.s32 %s, %s, %d;" % (v, acc, R.randint(1, 9)))
            L.append("st.u32 [%s], %s;" % (p, v))
        elif k == 4:
            j = R.randrange(npt); p = nrd(); v = nr(); w = nr()
            L.append("ld.local.u64 %s, [%%SPL+%d];" % (p, poff[j]))
            L.append("ld.u32 %s, [%s];" % (v, p))
            L.append("add.s32 %s, %s, %s;" % (w, acc, v)); acc = w
        else:
            j = R.randrange(npt); p = nrd(); helper = True
            L.append("ld.local.u64 %s, [%%SPL+%d];" % (p, poff[j]))
            L.append("{\n.param .b64 param0;\nst.param.b64 [param0+0], %s;\n.param .b32 param1;\n"
                     "st.param.b32 [param1+0], %d;\ncall.uni add_to, (param0, param1);\n}" % (p, R.randint(1, 9)))
    for i in range(nx):
        v = nr(); L.append("ld.local.u32 %s, [%%SPL+%d];" % (v, xoff[i]))
        L.append("st.u32 [%%rd1+%d], %s;" % (4 * i, v))
    L.append("st.u32 [%%rd1+%d], %s;" % (4 * nx, acc))
    L.append("ret;")
    out = [".version 7.0", ".target sm_80", ".address_size 64", ""]
    if helper:
        out += [".func add_to(.param .b64 add_to_param_0, .param .b32 add_to_param_1)", "{",
                ".reg .b32 %r<4>;", ".reg .b64 %rd<2>;",
                "ld.param.u64 %rd1, [add_to_param_0];", "ld.param.u32 %r1, [add_to_param_1];",
                "ld.u32 %r2, [%rd1];", "add.s32 %r3, %r2, %r1;", "st.u32 [%rd1], %r3;", "ret;", "}", ""]
    out += [".visible .entry kern(.param .u64 kern_param_0, .param .u32 kern_param_1)", "{",
            ".local .align 16 .b8 __local_depot0[%d];" % size, ".reg .b64 %SP;", ".reg .b64 %SPL;",
            ".reg .b32 %%r<%d>;" % (r[0] + 1), ".reg .b64 %%rd<%d>;" % (rd[0] + 1)]
    out += L + ["}"]
    return "\n".join(out) + "\n"
if __name__ == "__main__":
    print(gen(int(sys.argv[1])), end="")
