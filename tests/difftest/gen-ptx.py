#!/usr/bin/env python3
"""Write a random well-formed multi-file PTX program, for differential runs.

    tests/difftest/gen-ptx.py SEED -o DIR [--features=all|F,F,...] [--no-F ...]
                              [--twin] [--list-features]

The generators of CUDA (gen-*.py) only reach the shapes nvcc and clang
happen to emit from what they are given; this one writes PTX itself, in
the shapes the scoping rule, the linker and the stages must get right
(issue 31).  Each feature (--list-features) can be turned off (--no-asm2)
or the set given whole (--features=loops,calls); a seed under another set
is another program (the draws shift), so a failure is reproduced with its
seed and its set.

--twin writes the same program with every name that a block declares
again (a register shadowing an outer one, a label a sibling or nested
block defines too, an asm block's locals) renamed to a name of its own:
the twin means exactly what the program means, so its plain link run on
the interpreter is the reference, and the program's own plain run
against it checks the interpreter's and the parser's reading of scopes.

Every kernel is `.visible .entry kN(.param .u64 out, .param .u64 in,
.param .u32 n)`, launched as 2 blocks of 32 threads: `in` holds 256
words, n is a loop count (0 to 8), and thread gid writes W words at
out[gid * W].  Integer arithmetic only (32-bit, wrapping), every value
defined before it is read, shared memory only at the thread's own slot,
no atomics: the results do not depend on the order of threads.  DIR gets
f0.ptx .. f<n-1>.ptx and `manifest`:

    # comment lines: the seed, the features and what was drawn
    file f0.ptx
    kernel k0 W
"""
import argparse
import os
import random

# feature -> what it adds (and the issue 31 finding it reaches, if any)
FEATURES = {
    "blocks": "nested and repeated { } blocks",
    "shadow": "registers declared again in an inner block (shadowing)",
    "labels": "labels defined again in a sibling or nested block",
    "asm2": "an inline-asm-style block used twice in one function, same labels (1)",
    "depot": "clang -O0 style: values stored to and reloaded from a generic %SP depot",
    "storedaddr": "a depot object's generic address stored in another depot slot (2)",
    "statics": "twin functions with function-scope .shared/.global statics (3)",
    "passon": "a call's result passed to the next call: call (r0), f..; call (r1), g, (r0) (4)",
    "capture": "a kernel declaring a name a callee uses for a module variable (5)",
    "alloca": "alloca in a callee called in a loop (6)",
    "constpass": "st.param [a0], 7; call (a0), f, (a0..); call g, (a0..) (7)",
    "splstep": "a function that steps its own %SPL (8)",
    "brx": "a callee with brx.idx and .branchtargets, called twice (9)",
    "list": "a callee walking a static linked list of 3 to 16 nodes (10)",
    "alias": ".alias of a function, called through the alias (11)",
    "pa": "call and function parameters named like registers: %pa (12)",
    "gstyle": "nvcc -G style: .loc, mov copies, a { } per call with a temp register",
    "loops": "loops bounded by data",
    "callloop": "calls inside loops",
    "calls": "direct calls between functions, across files",
    "indirect": "indirect calls through a selected pointer, .callprototype",
    "ftab": "indirect calls through a function-pointer table in .global",
    "calltargets": "indirect calls with .calltargets",
    "recursion": "a recursive function",
    "printf": "printf through vprintf",
    "byref": "a generic pointer to a caller's depot object passed to a callee",
    "localarr": "a depot array of 8 words filled at constant offsets, read at constant or run-time ones",
    "earlyret": "a return from the middle of a helper",
    "consttab": "the function-pointer table in .const",
    "fptrmem": "a function pointer stored to the depot and loaded back before the call",
    "datatab": "a never-written .global or .const table read at x % 8, its address in 32 or 64 bits, signed or not",
    "barrier": "threads swapping values through .shared around bar.sync, at a kernel's top level",
    "vec": "depot arrays written and read with v2/v4 accesses",
    "predcall": "predicated calls (@%p call), their result read then selected",
    "predret": "a predicated return (@%p ret) in the middle of a helper",
    "multifile": "2 to 3 files (else 1)",
    "unrolled": "NVVM's full unroll around a call: copies alike, an if/else in each, constants stepping",
    "localnames": "internal functions of the same name in several files",
}
# the features issue 31 lists as miscompiled or rejected today
KNOWN_BAD = ["labels", "asm2", "storedaddr", "statics", "passon", "capture", "alloca", "constpass",
             "splstep", "brx", "list", "alias", "pa"]

KERNEL_BUDGET = 60000   # rough thread instructions a kernel runs
LOOP_TRIPS = 12         # at most 3 + n(8) + 1 iterations
SIG = "(.param .b32 _) _ (.param .b32 _, .param .b32 _)"


class Blk:
    def __init__(self, parent):
        self.parent, self.decls, self.body = parent, [], []


class Fn:
    """One function being written: its blocks, registers, labels and depot."""

    def __init__(self, g, name, kind, file, vis=True):
        self.g, self.r, self.name, self.kind, self.file, self.vis = g, g.r, name, kind, file, vis
        self.top = self.blk = Blk(None)
        self.pro = []            # prologue lines, before the body
        self.n = {"r": 0, "rd": 0, "p": 0}
        self.uid = 0
        self.labels = set()
        self.depot = 0
        self.depot_align = 8     # 16 once a v4 access needs it
        self.splstep = False
        self.style = file.style
        self.mult = 1            # iterations of the enclosing loops
        self.cost = 0
        self.callees = set()
        self.line = 10
        self.capname = None
        self.odd = False         # may call what the interpreter cannot run yet
        self.params = ("%pa", "%pb", "%pr") if g.on("pa") and self.r.random() < 0.5 else \
            (name + "_param_0", name + "_param_1", "func_retval0")

    # ---- names ----
    def reg(self, t="r"):
        self.n[t] += 1
        return "%%%s%d" % (t, self.n[t])

    def again(self, spelling, decl):
        """Declare SPELLING again in the current block (DECL: '.reg .b32');
        the twin gives it a name of its own."""
        self.uid += 1
        sp = spelling + "_%d" % self.uid if self.g.twin else spelling
        self.blk.decls.append("%s %s;" % (decl, sp))
        return sp

    def label(self, base=None):
        if base is None:
            self.uid += 1
            base = "$L__%s_%d" % (self.name, self.uid)
        if base in self.labels:
            self.uid += 1
            return base + "_%d" % self.uid if self.g.twin else base
        self.labels.add(base)
        return base

    def e(self, s):
        self.blk.body.append(s)

    def put_label(self, lab):
        self.blk.body.append(lab + ":")

    def open(self):
        b = Blk(self.blk)
        self.blk.body.append(b)
        self.blk = b

    def close(self):
        self.blk = self.blk.parent

    def slot(self, size=4):
        off = (self.depot + size - 1) // size * size
        self.depot = off + size
        return off

    def loc(self):
        if self.style == "G":
            self.line += self.r.randint(1, 3)
            self.e(".loc 1 %d %d" % (self.line, self.r.randint(0, 30)))

    def spend(self, n):
        self.cost += n * self.mult


class File:
    def __init__(self, idx, style):
        self.idx, self.style = idx, style
        self.fns = []
        self.vars = []
        self.externs = set()
        self.strings = 0
        self.aliases = []
        self.vprintf = False


class Gen:
    def __init__(self, seed, feats, twin):
        self.r = random.Random(seed)
        self.seed, self.feats, self.twin = seed, feats, twin
        self.notes = []

    def on(self, f):
        return f in self.feats

    def chance(self, f, p):
        """Draw whether to use feature F here; the draw is made whatever the set."""
        x = self.r.random() < p
        return x and self.on(f)

    def k(self, lo=1, hi=97):
        return self.r.randint(lo, hi)

    # ---- the program ----
    def run(self):
        r = self.r
        nf = r.randint(2, 3) if self.on("multifile") else 1
        r.random()
        styles = ["O3", "O3"]
        if self.on("depot"):
            styles.append("O0")
        if self.on("gstyle"):
            styles.append("G")
        self.files = [File(i, r.choice(styles)) for i in range(nf)]
        self.notes.append("files: " + " ".join("f%d.ptx(%s)" % (f.idx, f.style) for f in self.files))
        self.specials()
        self.helpers = []
        nh = r.randint(2, 6)
        for i in reversed(range(nh)):     # callees first: their cost is known to callers
            f = r.choice(self.files)
            vis = not (self.chance("localnames", 0.4))
            name = ("h%d" % i) if vis else ("loc%d" % (len(f.fns) % 2))
            if not vis and any(x.name == name for x in f.fns):
                name, vis = "h%d" % i, True
            fn = Fn(self, name, "helper", f, vis)
            self.helper_body(fn, i)
            self.helpers.insert(0, fn)
        if self.on("alias") and r.random() < 0.8:
            vis = [h for h in self.helpers if h.vis]
            if vis:
                t = r.choice(vis)
                t.file.aliases.append((t.name + "_alias", t))
                self.aliased = t
        kernels = []
        for i in range(r.randint(1, 3)):
            f = r.choice(self.files)
            fn = Fn(self, "k%d" % i, "kernel", f)
            w = self.kernel_body(fn)
            kernels.append("kernel k%d %d" % (i, w))
        return kernels

    # ---- what a function may call ----
    def callable_from(self, fn, pool):
        """The functions of POOL that FN may call: defined already, visible
        or in FN's file, and cheap enough at FN's loop depth."""
        left = KERNEL_BUDGET - fn.cost
        return [h for h in pool if h is not fn and (h.vis or h.file is fn.file)
                and h.cost * fn.mult * 2 < left]

    def ref(self, fn, callee):
        """FN's file needs a declaration of CALLEE."""
        fn.callees.add(callee.name)
        if callee.file is not fn.file:
            fn.file.externs.add(callee)

    # ---- the specials: one each, in a random file ----
    def specials(self):
        r = self.r
        self.sp = {}
        self.aliased = None
        for kind in ["recursion", "brx", "statics", "list", "capture", "alloca", "byref"]:
            want = r.random() < 0.85
            if not (want and self.on(kind)):
                continue
            f = r.choice(self.files)
            if kind == "statics":
                fa, fb = Fn(self, "st_a", "special", f, r.random() < 0.5), None
                fb = Fn(self, "st_b", "special", f, fa.vis)
                fb.params = tuple(p.replace("st_a", "st_b") for p in fa.params)
                self.static_twin(fa, fb)
                self.sp[kind] = (fa, fb)
                continue
            fn = Fn(self, {"recursion": "rec", "brx": "sw", "list": "walk", "capture": "cap",
                           "alloca": "al", "byref": "upd"}[kind], "special", f, True)
            getattr(self, "sp_" + kind)(fn)
            self.sp[kind] = fn

    def finish(self, fn, x):
        if fn.kind != "kernel":
            x = self.settle(fn, x)
            fn.e("st.param.b32 [%s], %s;" % (fn.params[2], x))
        fn.e("ret;")
        fn.file.fns.append(fn)

    def load_params(self, fn, ptr=False):
        a, b = fn.reg(), fn.reg()
        if ptr:
            a = fn.reg("rd")
            fn.e("ld.param.u64 %s, [%s];" % (a, fn.params[0]))
        else:
            fn.e("ld.param.u32 %s, [%s];" % (a, fn.params[0]))
        fn.e("ld.param.u32 %s, [%s];" % (b, fn.params[1]))
        return a, b

    def sp_recursion(self, fn):
        # rec(a, b) = b == 0 ? a : rec(a * 3 + 1, b - 1) ^ b
        a, b = self.load_params(fn)
        p, done = fn.reg("p"), fn.label()
        fn.e("setp.eq.u32 %s, %s, 0;" % (p, b))
        fn.e("@%s bra %s;" % (p, done))
        a1, b1 = fn.reg(), fn.reg()
        fn.e("mad.lo.u32 %s, %s, 3, 1;" % (a1, a))
        fn.e("add.u32 %s, %s, -1;" % (b1, b))
        t = self.call_direct(fn, fn, a1, b1)
        fn.e("xor.b32 %s, %s, %s;" % (t, t, b))
        fn.e("st.param.b32 [%s], %s;" % (fn.params[2], t))
        fn.e("ret;")
        fn.put_label(done)
        fn.cost = 8 * 8
        self.finish(fn, a)

    def sp_brx(self, fn):
        a, b = self.load_params(fn)
        i, x, tbl, join = fn.reg(), fn.reg(), fn.label(), fn.label()
        cases = [fn.label() for _ in range(self.r.randint(2, 5))]
        fn.e("rem.u32 %s, %s, %d;" % (i, a, len(cases)))
        fn.put_label(tbl)
        fn.blk.body[-1] += " .branchtargets %s;" % ", ".join(cases)
        fn.e("brx.idx %s, %s;" % (i, tbl))
        for c in cases:
            fn.put_label(c)
            fn.e("%s %s, %s, %d;" % (self.r.choice(["add.u32", "xor.b32", "mul.lo.u32"]), x, b, self.k()))
            if c is not cases[-1]:
                fn.e("bra.uni %s;" % join)
        fn.put_label(join)
        fn.cost = 12
        self.finish(fn, x)

    def static_twin(self, fa, fb):
        """Two functions of the same code, each with its own statics: a
        thread's slot of .shared written when b == 0, and a .global table
        (of the same values, or not)."""
        vals = [[self.k(1, 999) for _ in range(4)] for _ in range(2)]
        if self.r.random() < 0.6:
            vals[1] = vals[0]    # the same code to the letter; only the objects differ
        for fn, v in ((fa, vals[0]), (fb, vals[1])):
            fn.top.decls.append(".shared .align 4 .u32 sh[64];")
            fn.top.decls.append(".global .align 4 .u32 tab[4] = {%s};" % ", ".join(map(str, v)))
            a, b = self.load_params(fn)
            t, p = fn.reg(), fn.reg("p")
            i, ad, ta = fn.reg("rd"), fn.reg("rd"), fn.reg("rd")
            fn.e("mov.u32 %s, %%tid.x;" % t)
            fn.e("and.b32 %s, %s, 63;" % (t, t))
            fn.e("mul.wide.u32 %s, %s, 4;" % (i, t))
            fn.e("mov.u64 %s, sh;" % ad)
            fn.e("add.u64 %s, %s, %s;" % (ad, ad, i))
            fn.e("setp.eq.u32 %s, %s, 0;" % (p, b))
            fn.e("@%s st.shared.u32 [%s], %s;" % (p, ad, a))
            v, w = fn.reg(), fn.reg()
            fn.e("ld.shared.u32 %s, [%s];" % (v, ad))
            fn.e("and.b32 %s, %s, 3;" % (w, a))
            fn.e("mul.wide.u32 %s, %s, 4;" % (i, w))
            fn.e("mov.u64 %s, tab;" % ta)
            fn.e("add.u64 %s, %s, %s;" % (ta, ta, i))
            fn.e("ld.global.u32 %s, [%s];" % (w, ta))
            fn.e("add.u32 %s, %s, %s;" % (v, v, w))
            fn.cost = 20
            self.finish(fn, v)

    def sp_list(self, fn):
        # nodes: {next (generic), value}; node 0 the head; internal to the file
        n = self.r.randint(3, 16)
        base = "lnode%d_" % fn.file.idx
        for i in reversed(range(n)):
            nxt = "generic(%s%d)" % (base, i + 1) if i + 1 < n else "0"
            fn.file.vars.append(".global .align 8 .u64 %s%d[2] = {%s, %d};" % (base, i, nxt, self.k(1, 9999)))
        a, b = self.load_params(fn)
        p, s, v = fn.reg("rd"), fn.reg(), fn.reg()
        q, top = fn.reg("p"), fn.label()
        fn.e("mov.u64 %s, %s0;" % (p, base))
        fn.e("cvta.global.u64 %s, %s;" % (p, p))
        fn.e("mov.u32 %s, %s;" % (s, b))
        fn.put_label(top)
        fn.e("ld.u32 %s, [%s+8];" % (v, p))
        fn.e("mad.lo.u32 %s, %s, %s, %s;" % (s, s, a, v))
        fn.e("ld.u64 %s, [%s];" % (p, p))
        fn.e("setp.ne.u64 %s, %s, 0;" % (q, p))
        fn.e("@%s bra %s;" % (q, top))
        fn.cost = 6 * n
        self.notes.append("list of %d nodes in f%d" % (n, fn.file.idx))
        self.finish(fn, s)

    def sp_capture(self, fn):
        # reads a module variable whose name a kernel also declares
        name = "gcap%d" % fn.file.idx
        vals = [self.k(1, 999) for _ in range(4)]
        fn.file.vars.append(".visible .global .align 4 .u32 %s[4] = {%s};" % (name, ", ".join(map(str, vals))))
        self.capname = name
        a, b = self.load_params(fn)
        i, ad = fn.reg("rd"), fn.reg("rd")
        w = fn.reg()
        fn.e("and.b32 %s, %s, 3;" % (w, a))
        fn.e("mul.wide.u32 %s, %s, 4;" % (i, w))
        fn.e("mov.u64 %s, %s;" % (ad, name))
        fn.e("add.u64 %s, %s, %s;" % (ad, ad, i))
        fn.e("ld.global.u32 %s, [%s];" % (w, ad))
        fn.e("xor.b32 %s, %s, %s;" % (w, w, b))
        fn.cost = 8
        self.finish(fn, w)

    def sp_alloca(self, fn):
        # al(a, b): b % 4 + 1 words on the stack, filled and summed
        a, b = self.load_params(fn)
        n, sz, p, q = fn.reg(), fn.reg("rd"), fn.reg("rd"), fn.reg("rd")
        i, s, v, c = fn.reg(), fn.reg(), fn.reg(), fn.reg("p")
        l1, l2 = fn.label(), fn.label()
        fn.e("and.b32 %s, %s, 3;" % (n, b))
        fn.e("add.u32 %s, %s, 1;" % (n, n))
        fn.e("mul.wide.u32 %s, %s, 4;" % (sz, n))
        fn.e("alloca.u64 %s, %s, 16;" % (p, sz))
        fn.e("cvta.local.u64 %s, %s;" % (p, p))
        for lab, body in ((l1, "st"), (l2, "ld")):
            fn.e("mov.u32 %s, 0;" % i)
            fn.e("mov.u64 %s, %s;" % (q, p))
            if body == "ld":
                fn.e("mov.u32 %s, 0;" % s)
            fn.put_label(lab)
            if body == "st":
                fn.e("add.u32 %s, %s, %s;" % (v, a, i))
                fn.e("st.u32 [%s], %s;" % (q, v))
            else:
                fn.e("ld.u32 %s, [%s];" % (v, q))
                fn.e("mad.lo.u32 %s, %s, 31, %s;" % (s, s, v))
            fn.e("add.u64 %s, %s, 4;" % (q, q))
            fn.e("add.u32 %s, %s, 1;" % (i, i))
            fn.e("setp.lt.u32 %s, %s, %s;" % (c, i, n))
            fn.e("@%s bra %s;" % (c, lab))
        fn.cost = 50
        self.finish(fn, s)

    def sp_byref(self, fn):
        # upd(p, b): *p = *p * 3 + b, returns the new value
        fn.ptr = True
        p, b = self.load_params(fn, ptr=True)
        v = fn.reg()
        fn.e("ld.u32 %s, [%s];" % (v, p))
        fn.e("mad.lo.u32 %s, %s, 3, %s;" % (v, v, b))
        fn.e("st.u32 [%s], %s;" % (p, v))
        fn.cost = 6
        self.finish(fn, v)

    # ---- helpers and kernels ----
    def prologue_tid(self, fn):
        fn.tid = fn.reg()
        fn.e("mov.u32 %s, %%tid.x;" % fn.tid)

    def helper_body(self, fn, i):
        a, b = self.load_params(fn)
        self.prologue_tid(fn)
        fn.nreg = fn.reg()
        fn.e("and.b32 %s, %s, 7;" % (fn.nreg, b))
        x = fn.reg()
        fn.e("mad.lo.u32 %s, %s, %d, %s;" % (x, b, self.k(3, 99) | 1, a))
        self.depot_setup(fn)
        for _ in range(self.r.randint(1, 4)):
            x = self.step(fn, x, 1)
        fn.spend(10)
        self.finish(fn, x)

    def kernel_body(self, fn):
        r = self.r
        nparam = "%s_param_2" % fn.name
        cap = self.sp.get("capture")
        capform = r.randint(0, 2)
        if cap and r.random() < 0.7:
            fn.capname = self.capname
            if capform == 0:
                nparam = self.capname
            elif capform == 1:
                fn.top.decls.append(".global .align 4 .u32 %s[4] = {%s};" % (
                    self.capname, ", ".join(str(self.k(1000, 1999)) for _ in range(4))))
            else:
                fn.top.decls.append(".local .align 4 .b8 %s[16];" % self.capname)
            fn.capform = capform
        # alias and alloca calls only from some kernels: the interpreter
        # cannot run them yet, and a kernel it stops in compares nothing
        fn.odd = r.random() < 0.35
        fn.kparams = ("%s_param_0" % fn.name, "%s_param_1" % fn.name, nparam)
        out, inp = fn.reg("rd"), fn.reg("rd")
        fn.e("ld.param.u64 %s, [%s];" % (out, fn.kparams[0]))
        fn.e("ld.param.u64 %s, [%s];" % (inp, fn.kparams[1]))
        fn.nreg = fn.reg()
        fn.e("ld.param.u32 %s, [%s];" % (fn.nreg, nparam))
        fn.e("cvta.to.global.u64 %s, %s;" % (out, out))
        fn.e("cvta.to.global.u64 %s, %s;" % (inp, inp))
        self.prologue_tid(fn)
        c, nt, gid = fn.reg(), fn.reg(), fn.reg()
        fn.e("mov.u32 %s, %%ctaid.x;" % c)
        fn.e("mov.u32 %s, %%ntid.x;" % nt)
        fn.e("mad.lo.u32 %s, %s, %s, %s;" % (gid, c, nt, fn.tid))
        w = r.randint(2, 6)
        t, o = fn.reg(), fn.reg("rd")
        fn.e("mul.lo.u32 %s, %s, %d;" % (t, gid, w * 4))
        fn.e("cvt.u64.u32 %s, %s;" % (o, t))
        fn.e("add.u64 %s, %s, %s;" % (out, out, o))
        fn.e("and.b32 %s, %s, 255;" % (t, gid))
        fn.e("mul.wide.u32 %s, %s, 4;" % (o, t))
        fn.e("add.u64 %s, %s, %s;" % (inp, inp, o))
        x = fn.reg()
        fn.e("ld.global.u32 %s, [%s];" % (x, inp))
        self.depot_setup(fn)
        if fn.capname:
            x = self.use_capture(fn, x)
        # each special called from most kernels, not only where a step draws it
        for kind in ["recursion", "brx", "statics", "list", "byref", "alloca"]:
            if r.random() < 0.5:
                y = self.use_special(fn, x, kind)
                x = y or x
        nsteps = r.randint(3, 9)
        slots = sorted(r.sample(range(nsteps), min(w - 1, nsteps)))
        wrote = 0
        for s in range(nsteps):
            x = self.step(fn, x, 0)
            if self.chance("barrier", 0.15):
                x = self.st_barrier(fn, x)
            if s in slots and wrote < w - 1:
                fn.e("st.global.u32 [%s+%d], %s;" % (out, 4 * wrote, x))
                wrote += 1
        fn.e("st.global.u32 [%s+%d], %s;" % (out, 4 * (w - 1), x))
        for i in range(wrote, w - 1):
            fn.e("st.global.u32 [%s+%d], %s;" % (out, 4 * i, fn.tid))
        self.finish(fn, x)
        return w

    def use_capture(self, fn, x):
        """The kernel's own use of the name it shares with cap()'s global."""
        y = fn.reg()
        name = self.capname
        if fn.capform == 0:
            fn.e("add.u32 %s, %s, %s;" % (y, x, fn.nreg))
        elif fn.capform == 1:
            ad = fn.reg("rd")
            fn.e("mov.u64 %s, %s;" % (ad, name))
            fn.e("ld.global.u32 %s, [%s+4];" % (y, ad))
            fn.e("add.u32 %s, %s, %s;" % (y, y, x))
        else:
            fn.e("st.local.u32 [%s+8], %s;" % (name, x))
            fn.e("ld.local.u32 %s, [%s+8];" % (y, name))
            fn.e("xor.b32 %s, %s, 5;" % (y, y))
        return self.call_direct(fn, self.sp["capture"], y, fn.tid)

    # ---- the depot: %SP and %SPL, -O0's way ----
    def depot_setup(self, fn):
        # the prologue is written when the function is printed, if it used the depot
        fn.splstep = fn.style == "O0" and self.chance("splstep", 0.3)
        if fn.splstep:
            fn.slot(16)          # the bytes below the stepped %SPL

    def settle(self, fn, x):
        """-O0: X goes to a depot slot through the generic %SP (or %SPL)
        and comes back; -G: a mov copy, now and then the depot too.
        Returns what the code goes on with."""
        r = self.r
        if fn.style == "G":
            y = fn.reg()
            fn.e("mov.b32 %s, %s;" % (y, x))
            if r.random() < 0.7:
                return y
            x = y                # -G keeps some variables in the depot too
        elif fn.style != "O0":
            return x
        stored = self.chance("storedaddr", 0.35)
        # the pointer's slot below the object's, as clang lays out `int x; int *p = &x;`
        pslot = fn.slot(8) if stored else None
        off = fn.slot(4)
        y = fn.reg()
        if stored:
            a, b = fn.reg("rd"), fn.reg("rd")
            fn.e("add.u64 %s, %%SP, %d;" % (a, off))
            if r.random() < 0.5:
                c = fn.reg("rd")
                fn.e("mov.b64 %s, %s;" % (c, a))
                a = c
            loc = r.random() < 0.5      # clang's st.local through %SPL, or generic
            fn.e(self.depot_access(fn, "st", "u64", pslot, a, loc))
            fn.e(self.depot_access(fn, "ld", "u64", pslot, b, loc))
            fn.e("st.u32 [%s], %s;" % (b, x))
            if r.random() < 0.5:
                fn.e(self.depot_access(fn, "ld", "u32", off, y, True))
                fn.spend(4)
                return y
        elif fn.splstep and r.random() < 0.5:
            fn.e("st.local.u32 [%%SPL+%d], %s;" % (off - 16, x))
        else:
            fn.e("st.u32 [%%SP+%d], %s;" % (off, x))
        fn.e("ld.u32 %s, [%%SP+%d];" % (y, off))
        fn.spend(4)
        return y

    def depot_access(self, fn, op, t, off, reg, loc):
        """ld/st of the depot at OFF: through the generic %SP or the local %SPL."""
        if loc:
            a = "[%%SPL+%d]" % (off - (16 if fn.splstep else 0))
            op += ".local"
        else:
            a = "[%%SP+%d]" % off
        return "%s.%s %s, %s;" % (op, t, a, reg) if op.startswith("st") else \
            "%s.%s %s, %s;" % (op, t, reg, a)

    # ---- steps: each takes the value X and gives the next ----
    def step(self, fn, x, depth):
        r = self.r
        kinds = [("arith", 4), ("block", 3), ("asm2", 2), ("loop", 2), ("call", 4),
                 ("indirect", 2), ("passon", 2), ("special", 3), ("printf", 1), ("branch", 2),
                 ("localarr", 2), ("earlyret", 1), ("datatab", 2), ("unrolled", 2)]
        tot = sum(w for _, w in kinds)
        pick = r.uniform(0, tot)
        for kind, w in kinds:
            pick -= w
            if pick <= 0:
                break
        if depth > 2:
            kind = "arith"
        fn.loc()
        y = getattr(self, "st_" + kind)(fn, x, depth)
        if y is None:
            y = self.st_arith(fn, x, depth)
        return self.settle(fn, y)

    def st_arith(self, fn, x, depth):
        r = self.r
        for _ in range(r.randint(1, 3)):
            y = fn.reg()
            op = r.randint(0, 6)
            if op == 0:
                fn.e("add.u32 %s, %s, %d;" % (y, x, self.k(1, 9999)))
            elif op == 1:
                fn.e("xor.b32 %s, %s, %d;" % (y, x, self.k(1, 99999)))
            elif op == 2:
                fn.e("mul.lo.u32 %s, %s, %d;" % (y, x, self.k(3, 999) | 1))
            elif op == 3:
                fn.e("shr.u32 %s, %s, %d;" % (y, x, self.k(1, 13)))
                fn.e("xor.b32 %s, %s, %s;" % (y, y, x))
            elif op == 4:
                fn.e("add.u32 %s, %s, %s;" % (y, x, r.choice([fn.tid, fn.nreg])))
            elif op == 5:
                p = fn.reg("p")
                fn.e("setp.gt.u32 %s, %s, %d;" % (p, x, self.k(1, 1 << 30)))
                fn.e("selp.b32 %s, %s, %d, %s;" % (y, x, self.k(), p))
            else:
                fn.e("min.u32 %s, %s, %d;" % (y, x, self.k(1 << 20, 1 << 31)))
            x = y
        fn.spend(4)
        return x

    def st_branch(self, fn, x, depth):
        # if (x & bit) x = f(x): a forward branch over a step
        p, skip, y = fn.reg("p"), fn.label(), fn.reg()
        fn.e("mov.b32 %s, %s;" % (y, x))
        fn.e("and.b32 %s, %s, %d;" % (y, y, 1 << self.r.randint(0, 8)))
        fn.e("setp.eq.u32 %s, %s, 0;" % (p, y))
        fn.e("mov.b32 %s, %s;" % (y, x))
        fn.e("@%s bra %s;" % (p, skip))
        z = self.step(fn, x, depth + 1)
        fn.e("mov.b32 %s, %s;" % (y, z))
        fn.put_label(skip)
        return y

    def st_unrolled(self, fn, x, depth):
        """A loop around a call as NVVM leaves it fully unrolled: 2 to 6
        copies alike but for their registers, labels and constants (a
        progression of first or second order), each copy's sum written on
        both sides of an if/else that both read the previous copy's; now
        and then a guarded add, any step after the call (drawn once,
        written again in each copy: the random draws start over), and a
        branch out of the copies, which the reroll stage must not roll."""
        r = self.r
        if not self.on("unrolled") or not self.on("calls") or depth > 1:
            r.random()
            return None
        k = r.randint(2, 6)
        cs = [h for h in self.callable_from(fn, self.helpers)
              if h.cost * fn.mult * 2 * k < KERNEL_BUDGET - fn.cost]
        if not cs:
            return None
        c = r.choice(cs)
        c0, d, e = self.k(0, 999), self.k(1, 99), r.choice([0, 0, self.k(1, 9)])
        diamond, guard, more = r.random() < 0.7, r.random() < 0.4, r.random() < 0.5
        leave = r.random() < 0.2
        bit, kx = 1 << r.randint(0, 8), self.k(1, 9999)
        res, out = fn.reg(), fn.label() if leave else None
        if leave:
            fn.e("mov.b32 %s, %s;" % (res, x))
        state = r.getstate()
        acc = x
        for j in range(k):
            r.setstate(state)
            a, s = fn.reg(), fn.reg()
            fn.e("add.u32 %s, %s, %d;" % (a, acc, c0 + j * d + e * j * (j - 1) // 2))
            v = self.call_direct(fn, c, a, acc)
            if more:
                v = self.step(fn, v, depth + 1)
            if diamond:
                t, p, other, join = fn.reg(), fn.reg("p"), fn.label(), fn.label()
                fn.e("and.b32 %s, %s, %d;" % (t, v, bit))
                fn.e("setp.eq.u32 %s, %s, 0;" % (p, t))
                fn.e("@%s bra %s;" % (p, other))
                fn.e("add.u32 %s, %s, %s;" % (s, v, acc))
                fn.e("bra.uni %s;" % join)
                fn.put_label(other)
                fn.e("xor.b32 %s, %s, %d;" % (s, acc, kx))
                fn.put_label(join)
            else:
                fn.e("add.u32 %s, %s, %s;" % (s, v, acc))
            if guard:
                p = fn.reg("p")
                fn.e("setp.lt.u32 %s, %s, %d;" % (p, v, 1 << 30))
                fn.e("@%s add.u32 %s, %s, 1;" % (p, s, s))
            if leave:
                q = fn.reg("p")
                fn.e("setp.gt.u32 %s, %s, %d;" % (q, s, 3 << 30))
                fn.e("@%s bra %s;" % (q, out))
            acc = s
        if not leave:
            return acc
        fn.e("mov.b32 %s, %s;" % (res, acc))
        fn.put_label(out)
        return res

    def st_localarr(self, fn, x, depth):
        """int a[8]: filled at constant offsets through %SPL, read back at a
        constant offset (scalar replacement may take it) or at x % 8."""
        if not self.on("localarr"):
            self.r.random()
            return None
        r = self.r
        off = fn.slot(32)
        base = fn.reg("rd")
        fn.e("add.u64 %s, %%SPL, %d;" % (base, off - (16 if fn.splstep else 0)))
        k = self.k(3, 999)
        vec = self.chance("vec", 0.5)
        vs = [fn.reg() for _ in range(4)] if vec else [fn.reg()]
        for i in range(0, 8, len(vs)):
            for j, v in enumerate(vs):
                fn.e("mad.lo.u32 %s, %s, %d, %d;" % (v, x, k, i + j))
            if vec:
                fn.depot_align = 16
                fn.e("st.local.v4.u32 [%s+%d], {%s};" % (base, 4 * i, ", ".join(vs)))
            else:
                fn.e("st.local.u32 [%s+%d], %s;" % (base, 4 * i, vs[0]))
        y = fn.reg()
        if vec and r.random() < 0.5:
            z = fn.reg()
            fn.e("ld.local.v2.u32 {%s, %s}, [%s+%d];" % (y, z, base, 8 * r.randint(0, 3)))
            fn.e("xor.b32 %s, %s, %s;" % (y, y, z))
        elif r.random() < 0.5:
            fn.e("ld.local.u32 %s, [%s+%d];" % (y, base, 4 * r.randint(0, 7)))
        else:
            i, o = fn.reg(), fn.reg("rd")
            fn.e("and.b32 %s, %s, 7;" % (i, x))
            fn.e("mul.wide.u32 %s, %s, 4;" % (o, i))
            fn.e("add.u64 %s, %s, %s;" % (o, base, o))
            fn.e("ld.local.u32 %s, [%s];" % (y, o))
        fn.spend(24)
        return y

    def st_datatab(self, fn, x, depth):
        """A never-written table (globalopt may fold its loads), its
        address formed in one of the ways compilers do (addrprep's input)."""
        if not self.on("datatab"):
            self.r.random()
            return None
        r, f = self.r, fn.file
        f.strings += 1
        tab = "dtab%d_%d" % (f.idx, f.strings)
        space = r.choice(["global", "const"])
        f.vars.append(".%s .align 4 .u32 %s[8] = {%s};" % (
            space, tab, ", ".join(str(self.k(0, 1 << 20)) for _ in range(8))))
        base, o, i = fn.reg("rd"), fn.reg("rd"), fn.reg()
        fn.e("mov.u64 %s, %s;" % (base, tab))
        form = r.randint(0, 3)
        if form == 0:                       # mul.wide.u32
            fn.e("and.b32 %s, %s, 7;" % (i, x))
            fn.e("mul.wide.u32 %s, %s, 4;" % (o, i))
        elif form == 1:                     # 64-bit index, shifted
            fn.e("and.b32 %s, %s, 7;" % (i, x))
            fn.e("cvt.u64.u32 %s, %s;" % (o, i))
            fn.e("shl.b64 %s, %s, 2;" % (o, o))
        elif form == 2:                     # signed index from the middle
            fn.e("and.b32 %s, %s, 7;" % (i, x))
            fn.e("add.s32 %s, %s, -4;" % (i, i))
            fn.e("mul.wide.s32 %s, %s, 4;" % (o, i))
            fn.e("add.s64 %s, %s, 16;" % (base, base))
        else:                               # a constant index
            fn.e("mov.u64 %s, %d;" % (o, 4 * r.randint(0, 7)))
        fn.e("add.s64 %s, %s, %s;" % (o, base, o))
        y = fn.reg()
        fn.e("ld.%s.u32 %s, [%s];" % (space, y, o))
        fn.e("add.u32 %s, %s, %s;" % (y, y, x))
        fn.spend(8)
        return y

    def st_barrier(self, fn, x):
        """Each thread gives its value to its neighbour (tid ^ 1) through
        .shared; only at a kernel's top level, where no thread diverged."""
        f = fn.file
        f.strings += 1
        xch = "xch%d_%d" % (f.idx, f.strings)
        f.vars.append(".shared .align 4 .u32 %s[64];" % xch)
        a, b, o, t, y = fn.reg("rd"), fn.reg("rd"), fn.reg("rd"), fn.reg(), fn.reg()
        fn.e("mov.u64 %s, %s;" % (a, xch))
        fn.e("mul.wide.u32 %s, %s, 4;" % (o, fn.tid))
        fn.e("add.u64 %s, %s, %s;" % (b, a, o))
        fn.e("st.shared.u32 [%s], %s;" % (b, x))
        fn.e("bar.sync 0;")
        fn.e("xor.b32 %s, %s, 1;" % (t, fn.tid))
        fn.e("mul.wide.u32 %s, %s, 4;" % (o, t))
        fn.e("add.u64 %s, %s, %s;" % (b, a, o))
        fn.e("ld.shared.u32 %s, [%s];" % (y, b))
        fn.e("bar.sync 0;")
        fn.e("mad.lo.u32 %s, %s, 3, %s;" % (y, y, x))
        fn.spend(12)
        return y

    def st_earlyret(self, fn, x, depth):
        """if (x & bit) return f(x): a helper's return from the middle."""
        if fn.kind != "helper" or not self.on("earlyret"):
            self.r.random()
            return None
        p, go, y = fn.reg("p"), fn.label(), fn.reg()
        fn.e("and.b32 %s, %s, %d;" % (y, x, 1 << self.r.randint(0, 8)))
        fn.e("setp.eq.u32 %s, %s, 0;" % (p, y))
        if self.chance("predret", 0.5):
            # the result stored either way; a later store overrides it
            fn.e("xor.b32 %s, %s, %d;" % (y, x, self.k(1, 9999)))
            fn.e("st.param.b32 [%s], %s;" % (fn.params[2], y))
            fn.e("@!%s ret;" % p)
            return self.st_arith(fn, x, depth)
        fn.e("@%s bra %s;" % (p, go))
        fn.e("xor.b32 %s, %s, %d;" % (y, x, self.k(1, 9999)))
        fn.e("st.param.b32 [%s], %s;" % (fn.params[2], y))
        fn.e("ret;")
        fn.put_label(go)
        return self.st_arith(fn, x, depth)

    def st_block(self, fn, x, depth):
        """{ } blocks, one after another or nested: inside, X's own name
        declared again (shadowing) and labels the sibling or the enclosing
        block also defines; X read again after the block."""
        if not self.on("blocks"):
            self.r.random()
            return None
        r = self.r
        y = fn.reg()
        fn.e("mov.b32 %s, %s;" % (y, x))
        lab = "$L__blk_%s" % fn.name if self.on("labels") else None
        for _ in range(r.choice([1, 1, 2, 3])):
            fn.open()
            s = fn.again(x, ".reg .b32") if self.chance("shadow", 0.8) else fn.reg()
            fn.e("add.u32 %s, %s, %d;" % (s, y, self.k()))
            if depth < 2 and r.random() < 0.4:
                z = self.step(fn, s, depth + 1)
                fn.e("xor.b32 %s, %s, %s;" % (s, s, z))
            if r.random() < 0.7:
                p = fn.reg("p")
                l = fn.label(lab)
                fn.e("setp.lt.u32 %s, %s, %d;" % (p, s, self.k(1, 1 << 31)))
                fn.e("@%s bra %s;" % (p, l))
                fn.e("mul.lo.u32 %s, %s, %d;" % (s, s, self.k(3, 99) | 1))
                if depth < 2 and r.random() < 0.4:
                    # a block nested here that defines the same label
                    fn.open()
                    p2 = fn.again(p, ".reg .pred") if self.on("shadow") else fn.reg("p")
                    l2 = fn.label(lab)
                    fn.e("setp.ne.u32 %s, %s, %d;" % (p2, s, self.k()))
                    fn.e("@%s bra %s;" % (p2, l2))
                    fn.e("add.u32 %s, %s, 1;" % (y, y))
                    fn.put_label(l2)
                    fn.close()
                fn.put_label(l)
            fn.e("xor.b32 %s, %s, %s;" % (y, y, s))
            fn.close()
        z = fn.reg()
        fn.e("add.u32 %s, %s, %s;" % (z, y, x))
        fn.spend(12)
        return z

    def st_asm2(self, fn, x, depth):
        """An inline-asm block used two or three times, each copy in its own
        { } with the same local names and labels: bit parity, or a pointer
        chosen for an indirect call."""
        if not self.on("asm2"):
            self.r.random()
            return None
        r = self.r
        ptr = r.random() < 0.4
        targets = self.callable_from(fn, self.helpers) if ptr else []
        ptr = ptr and len(targets) >= 1 and self.on("indirect")
        acc = fn.reg("rd") if ptr else fn.reg()
        if ptr:
            ta, tb = r.choice(targets), r.choice(targets)
            self.ref(fn, ta)
            self.ref(fn, tb)
        else:
            fn.e("mov.u32 %s, 0;" % acc)
        copies = r.randint(2, 3)
        out = fn.reg()
        fn.e("mov.u32 %s, %s;" % (out, x))
        for c in range(copies):
            t = fn.reg()
            fn.e("and.b32 %s, %s, %d;" % (t, x, 1 << r.randint(0, 9)))
            fn.e("// begin inline asm")
            fn.open()
            p = fn.again("%ap", ".reg .pred")
            v = fn.again("%av", ".reg .b32")
            l = fn.label("$L__asm_skip")
            fn.e("setp.eq.u32 %s, %s, 0;" % (p, t))
            if ptr:
                fn.e("mov.u64 %s, %s;" % (acc, ta.name))
                fn.e("@%s bra %s;" % (p, l))
                fn.e("mov.u64 %s, %s;" % (acc, tb.name))
            else:
                fn.e("mov.u32 %s, 1;" % v)
                fn.e("@%s bra %s;" % (p, l))
                fn.e("xor.b32 %s, %s, %s;" % (acc, acc, v))
            fn.put_label(l)
            fn.close()
            fn.e("// end inline asm")
            if ptr:
                y = self.call_indirect(fn, acc, out, t, [ta, tb])
                fn.e("add.u32 %s, %s, %s;" % (out, out, y))
        if not ptr:
            fn.e("mad.lo.u32 %s, %s, %d, %s;" % (out, acc, self.k(3, 999), out))
        fn.spend(10 * copies)
        return out

    def st_loop(self, fn, x, depth):
        if not self.on("loops"):
            self.r.random()
            return None
        r = self.r
        i, bd, acc, p = fn.reg(), fn.reg(), fn.reg(), fn.reg("p")
        head, end = fn.label(), fn.label()
        fn.e("mov.u32 %s, 0;" % i)
        fn.e("and.b32 %s, %s, 3;" % (bd, x))
        fn.e("add.u32 %s, %s, %s;" % (bd, bd, fn.nreg))
        fn.e("mov.b32 %s, %s;" % (acc, x))
        fn.put_label(head)
        fn.e("setp.ge.u32 %s, %s, %s;" % (p, i, bd))
        fn.e("@%s bra %s;" % (p, end))
        fn.mult *= LOOP_TRIPS
        saved = self.feats
        if not self.on("callloop"):
            self.feats = self.feats - {"calls", "indirect", "passon", "ftab", "calltargets", "printf"}
        if self.chance("alloca", 0.5) and fn.odd and "alloca" in self.sp and self.callable_from(fn, [self.sp["alloca"]]):
            y = self.call_direct(fn, self.sp["alloca"], acc, i)
        else:
            y = self.step(fn, acc, depth + 1)
        self.feats = saved
        fn.mult //= LOOP_TRIPS
        fn.e("add.u32 %s, %s, %s;" % (acc, y, i))
        fn.e("add.u32 %s, %s, 1;" % (i, i))
        fn.e("bra.uni %s;" % head)
        fn.put_label(end)
        return acc

    # ---- calls ----
    def call_block(self, fn, callee_name, args, ptr=None, targets=None, argtypes=None):
        """{ .param ...; st.param; call; ld.param }: returns the result register.
        A predicated call's result is read whether it ran or not (ptxas
        refuses a predicated ld.param of it) and selected."""
        r = self.r
        pred = None
        if self.chance("predcall", 0.25) and callee_name != "vprintf" and not argtypes:
            pred = fn.reg("p")
            fn.e("setp.lt.u32 %s, %s, %d;" % (pred, args[0], self.k(1, 1 << 31)))
        pa = self.on("pa") and r.random() < 0.5
        # not the caller's own parameter names: ptxas takes those for them
        q = "%q" if fn.kind != "kernel" and fn.params[0] == "%pa" else "%p"
        names = [q + "a", q + "b"] if pa else ["param0", "param1"]
        ret = q + "r" if pa else "retval0"
        fn.open()
        if fn.style == "G":
            fn.again("temp_param_reg", ".reg .b32")
        types = argtypes or ["b32"] * len(args)
        for nm, a, t in zip(names, args, types):
            fn.e(".param .%s %s;" % (t, nm))
            fn.e("st.param.%s [%s+0], %s;" % (t, nm, a))
        fn.e(".param .b32 %s;" % ret)
        alist = ", ".join(names[:len(args)])
        at = "@%s " % pred if pred else ""
        if ptr is None:
            fn.e("%scall%s (%s), %s, (%s);" % (at, "" if pred else ".uni", ret, callee_name, alist))
        elif targets and self.chance("calltargets", 0.4):
            ct = fn.label("$L__ct")
            fn.e("%s: .calltargets %s;" % (ct, ", ".join(sorted({t.name for t in targets}))))
            fn.e("%scall (%s), %s, (%s), %s;" % (at, ret, ptr, alist, ct))
        else:
            pr = fn.label("prototype_0")
            fn.e("%s: .callprototype %s;" % (pr, SIG))
            fn.e("%scall (%s), %s, (%s), %s;" % (at, ret, ptr, alist, pr))
        y = fn.reg()
        fn.e("ld.param.b32 %s, [%s+0];" % (y, ret))
        fn.close()
        if pred:
            z = fn.reg()
            fn.e("selp.b32 %s, %s, %s, %s;" % (z, y, args[0], pred))
            return z
        return y

    def call_direct(self, fn, callee, a, b, via=None):
        self.ref(fn, callee)
        fn.spend(callee.cost + 8)
        types = ["b64", "b32"] if getattr(callee, "ptr", False) else None
        return self.call_block(fn, via or callee.name, [a, b], argtypes=types)

    def call_indirect(self, fn, ptr, a, b, targets):
        for t in targets:
            self.ref(fn, t)
        fn.spend(max(t.cost for t in targets) + 10)
        return self.call_block(fn, None, [a, b], ptr=ptr, targets=targets)

    def st_call(self, fn, x, depth):
        if not self.on("calls"):
            self.r.random()
            return None
        cs = self.callable_from(fn, self.helpers)
        if not cs:
            return None
        c = self.r.choice(cs)
        b = self.r.choice([fn.tid, fn.nreg, x])
        via = None
        if self.r.random() < 0.6 and self.aliased is c and fn.odd:
            via = c.name + "_alias"
        return self.call_direct(fn, c, x, b, via)

    def st_indirect(self, fn, x, depth):
        r = self.r
        cs = self.callable_from(fn, self.helpers)
        use_tab = self.chance("ftab", 0.4)
        if not (self.on("indirect") or use_tab) or not cs:
            return None
        ts = [r.choice(cs) for _ in range(r.randint(2, 3))]
        ptr = fn.reg("rd")
        if use_tab:
            f = fn.file
            f.strings += 1
            tab = "ftab_%s_%d" % (fn.name, f.strings)
            space = "const" if self.chance("consttab", 0.4) else "global"
            f.vars.append(".%s .align 8 .u64 %s[%d] = {%s};" % (space, tab, len(ts), ", ".join(t.name for t in ts)))
            f.tabrefs = getattr(f, "tabrefs", set()) | set(ts)
            i, o = fn.reg(), fn.reg("rd")
            fn.e("rem.u32 %s, %s, %d;" % (i, x, len(ts)))
            fn.e("mul.wide.u32 %s, %s, 8;" % (o, i))
            fn.e("mov.u64 %s, %s;" % (ptr, tab))
            fn.e("add.u64 %s, %s, %s;" % (ptr, ptr, o))
            fn.e("ld.%s.u64 %s, [%s];" % (space, ptr, ptr))
        else:
            p, q = fn.reg("p"), fn.reg("rd")
            fn.e("mov.u64 %s, %s;" % (ptr, ts[0].name))
            fn.e("mov.u64 %s, %s;" % (q, ts[1].name))
            fn.e("setp.lt.u32 %s, %s, %d;" % (p, x, self.k(1, 1 << 31)))
            fn.e("selp.b64 %s, %s, %s, %s;" % (ptr, ptr, q, p))
        if self.chance("fptrmem", 0.4):
            off = fn.slot(8)
            loc = self.r.random() < 0.5
            fn.e(self.depot_access(fn, "st", "u64", off, ptr, loc))
            ptr = fn.reg("rd")
            fn.e(self.depot_access(fn, "ld", "u64", off, ptr, not loc))
        return self.call_indirect(fn, ptr, x, fn.tid, ts)

    def st_passon(self, fn, x, depth):
        """call (r0), f, (a0, a1); call (r1), g, (r0, a1): the first
        result is the second call's argument; with constpass the first
        argument is a constant and the result goes into the same .param."""
        r = self.r
        cs = self.callable_from(fn, self.helpers)
        if not self.on("passon") and not self.on("constpass") or len(cs) < 1:
            r.random()
            return None
        f, g = r.choice(cs), r.choice(cs)
        self.ref(fn, f)
        self.ref(fn, g)
        fn.spend(f.cost + g.cost + 16)
        const = self.on("constpass") and (not self.on("passon") or r.random() < 0.5)
        fn.open()
        for nm in ("param0", "param1", "retval0", "retval1"):
            fn.e(".param .b32 %s;" % nm)
        if const:
            fn.e("st.param.b32 [param0+0], %d;" % self.k(1, 99))
        else:
            fn.e("st.param.b32 [param0+0], %s;" % x)
        fn.e("st.param.b32 [param1+0], %s;" % fn.tid)
        if const:
            fn.e("call.uni (param0), %s, (param0, param1);" % f.name)
            fn.e("call.uni (retval1), %s, (param0, param1);" % g.name)
        else:
            fn.e("call.uni (retval0), %s, (param0, param1);" % f.name)
            fn.e("call.uni (retval1), %s, (retval0, param1);" % g.name)
        y = fn.reg()
        fn.e("ld.param.b32 %s, [retval1+0];" % y)
        fn.close()
        z = fn.reg()
        fn.e("xor.b32 %s, %s, %s;" % (z, y, x))
        return z

    def st_special(self, fn, x, depth):
        kind = self.r.choice(["recursion", "brx", "statics", "list", "byref", "alloca"])
        return self.use_special(fn, x, kind)

    def use_special(self, fn, x, kind):
        sp = self.sp.get(kind)
        if sp is None or kind == "alloca" and not fn.odd:
            return None
        if kind == "statics":
            fa, fb = sp
            if not self.callable_from(fn, [fa, fb]):
                return None
            x2 = fn.reg()
            fn.e("mul.lo.u32 %s, %s, 7;" % (x2, x))
            u1 = self.call_direct(fn, fa, x, "0")
            u2 = self.call_direct(fn, fb, x2, "0")
            u3 = self.call_direct(fn, fa, x2, "1")
            u4 = self.call_direct(fn, fb, x, "1")
            y = fn.reg()
            fn.e("xor.b32 %s, %s, %s;" % (y, u1, u2))
            fn.e("mad.lo.u32 %s, %s, 5, %s;" % (y, u3, y))
            fn.e("mad.lo.u32 %s, %s, 9, %s;" % (y, u4, y))
            return y
        if not self.callable_from(fn, [sp]):
            return None
        if kind == "recursion":
            b = fn.reg()
            # a counter of at most 3 where the register's number is odd,
            # which stages/unrecurse.c clones for (no draw: other seeds
            # keep their programs), else of at most 7
            fn.e("and.b32 %s, %s, %d;" % (b, x, 3 if int("0" + "".join(c for c in b if c.isdigit())) % 2 else 7))
            return self.call_direct(fn, sp, x, b)
        if kind == "brx":
            y = self.call_direct(fn, sp, x, fn.tid)
            return self.call_direct(fn, sp, y, x)
        if kind == "list":
            return self.call_direct(fn, sp, x, fn.nreg)
        if kind == "alloca":
            return self.call_direct(fn, sp, x, fn.nreg)
        # byref: a depot object of this function, by generic address
        off = fn.slot(4)
        a = fn.reg("rd")
        fn.e("st.u32 [%%SP+%d], %s;" % (off, x))
        fn.e("add.u64 %s, %%SP, %d;" % (a, off))
        y = self.call_direct(fn, sp, a, fn.tid)
        z = fn.reg()
        fn.e("ld.u32 %s, [%%SP+%d];" % (z, off))
        fn.e("xor.b32 %s, %s, %s;" % (z, z, y))
        return z

    def st_printf(self, fn, x, depth):
        if not self.on("printf"):
            self.r.random()
            return None
        f = fn.file
        f.vprintf = True
        fmt = self.r.choice(["%s: %%u %%u\n", "%s %%x, tid %%u\n", "[%s] %%08x/%%u\n"]) % fn.name
        data = fmt.encode() + b"\0"
        s = "$str$%d" % f.strings if f.strings else "$str"
        f.strings += 1
        f.vars.append(".global .align 1 .b8 %s[%d] = {%s};" % (s, len(data), ", ".join(map(str, data))))
        p, skip = fn.reg("p"), fn.label()
        fn.e("setp.ge.u32 %s, %s, 2;" % (p, fn.tid))
        fn.e("@%s bra %s;" % (p, skip))
        off = fn.slot(8)
        fn.slot(4)
        a, g, rd = fn.reg("rd"), fn.reg("rd"), fn.reg("rd")
        fn.e("add.u64 %s, %%SP, %d;" % (a, off))
        fn.e("add.u64 %s, %%SPL, %d;" % (rd, off - (16 if fn.splstep else 0)))
        fn.e("st.local.u32 [%s], %s;" % (rd, x))
        fn.e("st.local.u32 [%s+4], %s;" % (rd, fn.tid))
        fn.e("mov.u64 %s, %s;" % (g, s))
        fn.e("cvta.global.u64 %s, %s;" % (g, g))
        fn.spend(60)
        self.call_block(fn, "vprintf", [g, a], argtypes=["b64", "b64"])
        fn.put_label(skip)
        return self.st_arith(fn, x, depth)

    # ---- printing ----
    def render_blk(self, b, ind):
        out = ["%s%s" % (ind, d) for d in b.decls]
        for it in b.body:
            if isinstance(it, Blk):
                out.append(ind + "{")
                out += self.render_blk(it, ind + "\t")
                out.append(ind + "}")
            elif it.startswith("$") and it.endswith(":") or it.startswith("prototype_") and it.endswith(":"):
                out.append(it)
            elif ": .branchtargets" in it:
                out.append(it)
            else:
                out.append(ind + it)
        return out

    def header(self, fn, decl=False):
        if fn.kind == "kernel":
            ps = [".param .u64 %s" % fn.kparams[0], ".param .u64 %s" % fn.kparams[1],
                  ".param .u32 %s" % fn.kparams[2]]
            return ".visible .entry %s(\n\t%s\n)" % (fn.name, ",\n\t".join(ps))
        vis = ".visible " if fn.vis else ""
        if decl == "extern":
            vis = ".extern "
        t0 = ".b64" if getattr(fn, "ptr", False) else ".b32"
        return "%s.func (.param .b32 %s) %s(\n\t.param %s %s,\n\t.param .b32 %s\n)" % (
            vis, fn.params[2], fn.name, t0, fn.params[0], fn.params[1])

    def render_fn(self, fn):
        lines = [self.header(fn), "{"]
        depot = fn.depot > 0
        if depot:
            lines.append("\t.local .align %d .b8 \t__local_depot_%s[%d];" % (
                fn.depot_align, fn.name, (fn.depot + 7) // 8 * 8))
            lines.append("\t.reg .b64 \t%SP;")
            lines.append("\t.reg .b64 \t%SPL;")
        for t, ty in (("p", "pred"), ("r", "b32"), ("rd", "b64")):
            if fn.n[t]:
                lines.append("\t.reg .%s \t%%%s<%d>;" % (ty, t, fn.n[t] + 1))
        top = self.render_blk(fn.top, "\t")
        ndecl = len(fn.top.decls)
        lines += top[:ndecl]
        lines.append("")
        if depot:
            lines.append("\tmov.u64 \t%%SPL, __local_depot_%s;" % fn.name)
            lines.append("\tcvta.local.u64 \t%SP, %SPL;")
            if fn.splstep:
                lines.append("\tadd.u64 \t%SPL, %SPL, 16;")
        lines += top[ndecl:]
        lines.append("}")
        return "\n".join(lines)

    def render_file(self, f):
        out = ["//", "// Generated by tests/difftest/gen-ptx.py %d%s; do not edit." %
               (self.seed, " --twin" if self.twin else ""), "//", "",
               ".version 8.0", ".target sm_80", ".address_size 64", ""]
        if f.style == "G":
            out.append('.file 1 "/tmp/gen/f%d.cu"' % f.idx)
        if f.vprintf:
            out.append(".extern .func (.param .b32 func_retval0) vprintf(\n\t.param .b64 vprintf_param_0,"
                       "\n\t.param .b64 vprintf_param_1\n);")
        ext = set(f.externs) | {t for t in getattr(f, "tabrefs", set()) if t.file is not f}
        for e in sorted(ext, key=lambda h: h.name):
            out.append(self.header(e, "extern") + ";")
            if self.aliased is e and self.aliased.file is not f:
                out.append(self.alias_decl(e, "extern") + ";")
        for fn in f.fns:
            if fn.kind != "kernel":
                out.append(self.header(fn) + ";")
        for name, t in f.aliases:
            out.append(self.alias_decl(t, ".visible") + ";")
            out.append(".alias %s, %s;" % (name, t.name))
        out += f.vars
        for fn in f.fns:
            out.append("")
            out.append(self.render_fn(fn))
        return "\n".join(out) + "\n"

    def alias_decl(self, t, vis):
        h = self.header(t, "extern" if vis == "extern" else None)
        return h.replace(" %s(" % t.name, " %s_alias(" % t.name, 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seed", type=int, nargs="?")
    ap.add_argument("-o", dest="out", help="the directory to write")
    ap.add_argument("--features", default="all",
                    help="all, or a comma-separated list (see --list-features)")
    ap.add_argument("--twin", action="store_true",
                    help="every name declared again renamed: the same meaning")
    ap.add_argument("--list-features", action="store_true")
    for f in FEATURES:
        ap.add_argument("--no-" + f, action="append_const", dest="off", const=f,
                        help=argparse.SUPPRESS)
    ap.add_argument("--no-known-bad", action="store_true",
                    help="turn off the features issue 31 lists as miscompiled: " + ",".join(KNOWN_BAD))
    a = ap.parse_args()
    if a.list_features:
        for f, what in FEATURES.items():
            print("%-12s %s%s" % (f, what, "  [known bad]" if f in KNOWN_BAD else ""))
        return
    if a.seed is None or not a.out:
        ap.error("SEED and -o DIR are required")
    feats = set(FEATURES) if a.features == "all" else set(x for x in a.features.split(",") if x)
    bad = feats - set(FEATURES)
    if bad:
        ap.error("unknown feature: " + ", ".join(sorted(bad)))
    feats -= set(a.off or [])
    if a.no_known_bad:
        feats -= set(KNOWN_BAD)
    g = Gen(a.seed, frozenset(feats), a.twin)
    kernels = g.run()
    os.makedirs(a.out, exist_ok=True)
    names = []
    for f in g.files:
        names.append("f%d.ptx" % f.idx)
        with open(os.path.join(a.out, names[-1]), "w") as fh:
            fh.write(g.render_file(f))
    with open(os.path.join(a.out, "manifest"), "w") as fh:
        fh.write("# tests/difftest/gen-ptx.py %d%s\n" % (a.seed, " --twin" if a.twin else ""))
        fh.write("# features: %s\n" % ",".join(sorted(feats)))
        for n in g.notes:
            fh.write("# %s\n" % n)
        for n in names:
            fh.write("file %s\n" % n)
        for k in kernels:
            fh.write(k + "\n")


if __name__ == "__main__":
    main()
