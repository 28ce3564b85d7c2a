#!/usr/bin/env python3
"""Write a random but valid CUDA device program for differential testing.

    tests/difftest/gen-programs.py --seed S --out DIR [--max-files N]
                          [--max-subclasses N] [--max-kernels N]

The program is the shapes ptxlink's stages rewrite: class hierarchies of 1
to 40 subclasses built on the device with `new` and destroyed through a
virtual destructor by `delete`; virtual calls in loops, under branches and
in out-of-line helpers; methods that every class implements with the same
constant (uniform-return folding), or all but one; `__device__` tables of
function pointers indexed with data at run time (some uniform, some written
by the kernel before use); printf with int, unsigned, long, float, double,
char and string arguments.  Which of 1-4 files defines each class's
methods, its factory, each table and each kernel is drawn too, so vtables,
factories and call sites land in different translation units.

DIR gets prog.h, f0.cu .. f<n-1>.cu (compile each with
`nvcc -arch=sm_80 -rdc=true --ptx`, or clang -fgpu-rdc with
-DPTXLINK_CLANG and corpus/src on the include path) and `manifest`:

    # comment lines: the seed and what was drawn
    file f0.cu
    kernel k0 --grid 2 --block 32 --arg buf:1024:zero --arg ...

one `kernel` line per kernel, with the ptxlink-run options that launch it.
Kernels are deterministic: every thread writes only its own slots of the
output buffer (and its own objects' destructor logs), tables are written
with the same value by every thread at the kernel's start, before a barrier, and
nothing depends on the order of threads but printf, which CUDA does not
order either.  The same seed and knobs always give the same files.
"""
import argparse
import os
import random

U = "unsigned"


class Cls:
    def __init__(self, name, parent, idx):
        self.name, self.parent, self.idx = name, parent, idx
        self.methods = {}       # method name -> body (str), only overrides
        self.dtor = None        # destructor body, or None for the implicit one
        self.extra = idx % 3 == 0   # an extra field
        self.inline = False     # methods in the class body (header)
        self.file = 0           # else the file with the out-of-line definitions


class Hier:
    pass


class Table:
    pass


class Gen:
    def __init__(self, seed, max_files, max_sub, max_kernels):
        self.r = random.Random(seed)
        self.seed = seed
        self.nfiles = self.r.randint(1, max_files)
        self.max_sub = max_sub
        self.max_kernels = max_kernels
        self.files = [[] for _ in range(self.nfiles)]   # code per file
        self.header = []
        self.notes = []

    # ---- small pieces ----
    def file(self):
        return self.r.randrange(self.nfiles)

    def const(self, lo=1, hi=97):
        return self.r.randint(lo, hi)

    def uexpr(self, terms, depth=2):
        """An unsigned expression over the given terms."""
        r = self.r
        if depth == 0 or r.random() < 0.3:
            if r.random() < 0.7:
                return r.choice(terms)
            return "%du" % self.const()
        a = self.uexpr(terms, depth - 1)
        b = self.uexpr(terms, depth - 1)
        op = r.choice(["+", "-", "*", "^", "|", "&", ">>", "<<"])
        if op in (">>", "<<"):
            return "(%s %s %du)" % (a, op, r.randint(1, 7))
        return "(%s %s %s)" % (a, op, b)

    def nsub(self):
        r = self.r
        edges = [n for n in (1, 2, 3, 9, 10, 11, 12, 39, 40) if n <= self.max_sub]
        if edges and r.random() < 0.5:
            return r.choice(edges)
        return r.randint(1, self.max_sub)

    # ---- class hierarchies ----
    def hierarchy(self, h):
        r = self.r
        H = Hier()
        H.h = h
        H.base = "Base%d" % h
        H.abstract = r.random() < 0.5
        H.has_g = r.random() < 0.6
        H.has_name = r.random() < 0.5
        H.has_bump = r.random() < 0.5
        H.uconst = self.const(1, 1000)
        # all return H.uconst; or one class differs; or one prints as well
        H.ukind = r.choice(["uniform", "uniform", "uniform", "one-differs", "side-effect"])
        H.base_dtor_logs = r.random() < 0.6
        n = self.nsub()
        H.subs = []
        for i in range(n):
            parent = None
            if H.subs and r.random() < 0.25:
                parent = r.choice(H.subs)
            c = Cls("D%d_%d" % (h, i), parent, i)
            H.subs.append(c)
        H.factory_file = self.file()
        H.visit_file = self.file()
        H.base_file = self.file()
        terms = ["x", "a", "b"]
        for c in H.subs:
            c.inline = r.random() < 0.3
            c.file = self.file()
            t = terms + (["c"] if c.extra else [])
            if H.abstract and c.parent is None or r.random() < 0.8:
                body = "return %s;" % self.uexpr(t)
                if r.random() < 0.15:
                    body = ("if ((x & 63u) == %du) printf(\"%s::f %%u\\n\", x);\n        "
                            % (r.randrange(64), c.name)) + body
                if r.random() < 0.15:
                    body = "return %s + this->u();" % self.uexpr(t, 1)
                c.methods["f"] = body
            if H.has_g and (H.abstract and c.parent is None or r.random() < 0.6):
                c.methods["g"] = "return x * %d.5f + (float)(a & 255u) - %d.0f;" % (
                    r.randint(0, 9), r.randint(0, 99))
            if H.has_name and r.random() < 0.7:
                c.methods["name"] = "return \"%s\";" % c.name
            if H.has_bump and r.random() < 0.5:
                c.methods["bump"] = "a = %s;" % self.uexpr(["v", "a", "b"], 1)
            if H.abstract and c.parent is None or r.random() < 0.9:
                c.methods["u"] = "return %d;" % H.uconst
            if r.random() < 0.6:
                c.dtor = "if (log) *log = *log * 5u + %du;" % (c.idx + 1)
        # concrete classes: every subclass; the base too when it is concrete
        if H.ukind == "one-differs":
            victim = r.choice(H.subs)
            victim.methods["u"] = "return %d;" % (H.uconst + 1)
        elif H.ukind == "side-effect":
            victim = r.choice(H.subs)
            victim.methods["u"] = "if (log) *log += 1u;\n        return %d;" % H.uconst
        H.nclasses = len(H.subs) + (0 if H.abstract else 1)
        # distinct f bodies reachable from a Base* call site
        impls = set()
        for c in H.subs:
            k = c
            while k is not None and "f" not in k.methods:
                k = k.parent
            impls.add(k.name if k else H.base)
        if not H.abstract:
            impls.add(H.base)
        H.f_impls = len(impls)
        self.notes.append("%s: %d subclasses, %d concrete classes, %d implementations of f, "
                          "%s base, u() %s, factory in f%d" % (
                              H.base, len(H.subs), H.nclasses, H.f_impls,
                              "abstract" if H.abstract else "concrete", H.ukind,
                              H.factory_file))
        return H

    def method_decls(self, H):
        """(name, return type, params, const) of the virtual methods."""
        m = [("f", U, "%s x" % U, True), ("u", "int", "", True)]
        if H.has_g:
            m.append(("g", "float", "float x", True))
        if H.has_name:
            m.append(("name", "const char *", "", True))
        if H.has_bump:
            m.append(("bump", "void", "%s v" % U, False))
        return m

    def emit_hier(self, H):
        b = H.base
        hd = self.header
        ms = self.method_decls(H)
        hd.append("class %s {\n  public:" % b)
        hd.append("    %s a, b;\n    %s *log;" % (U, U))
        hd.append("    __device__ %s(%s s, %s *l);" % (b, U, U))
        hd.append("    __device__ virtual ~%s();" % b)
        base_bodies = {
            "f": "return x + a * %du;" % self.const(),
            "u": "return %d;" % H.uconst,
            "g": "return x + 1.0f;",
            "name": "return \"%s\";" % b,
            "bump": "a += v;",
        }
        for name, ret, params, const in ms:
            cq = " const" if const else ""
            if H.abstract and name in ("f", "u", "g"):
                hd.append("    __device__ virtual %s %s(%s)%s = 0;" % (ret, name, params, cq))
            else:
                hd.append("    __device__ virtual %s %s(%s)%s;" % (ret, name, params, cq))
        hd.append("};")
        code = self.files[H.base_file]
        code.append("__device__ %s::%s(%s s, %s *l) : a(s * %du + %du), b(s ^ %du), log(l) {}"
                    % (b, b, U, U, self.const(), self.const(), self.const()))
        if H.base_dtor_logs:
            code.append("__device__ %s::~%s() { if (log) *log = *log * 3u + 1u; }" % (b, b))
        else:
            code.append("__device__ %s::~%s() {}" % (b, b))
        for name, ret, params, const in ms:
            if H.abstract and name in ("f", "u", "g"):
                continue
            cq = " const" if const else ""
            code.append("__device__ %s %s::%s(%s)%s\n{\n    %s\n}"
                        % (ret, b, name, params, cq, base_bodies[name]))
        for c in H.subs:
            self.emit_class(H, c, ms)
        # the factory: every concrete class, chosen by kind
        hd.append("__device__ %s *make%d(%s kind, %s s, %s *log);" % (b, H.h, U, U, U))
        hd.append("__device__ %s visit%d(%s *p, %s x);" % (U, H.h, b, U))
        cases = []
        kinds = [c.name for c in H.subs] + ([] if H.abstract else [b])
        for k, cname in enumerate(kinds):
            cases.append("    case %du: return new %s(s, log);" % (k, cname))
        self.files[H.factory_file].append(
            "__device__ %s *make%d(%s kind, %s s, %s *log)\n{\n    switch (kind %% %du) {\n%s\n"
            "    }\n    return nullptr;\n}" % (b, H.h, U, U, U, len(kinds), "\n".join(cases)))
        loop = self.r.randint(2, 4)
        self.files[H.visit_file].append(
            "__device__ %s visit%d(%s *p, %s x)\n{\n    for (%s i = 0; i < %du; i++)\n"
            "        x = p->f(x + i) ^ (%s)p->u();\n    return x;\n}"
            % (U, H.h, b, U, U, loop, U))

    def emit_class(self, H, c, ms):
        parent = c.parent.name if c.parent else H.base
        hd = self.header
        hd.append("class %s : public %s {\n  public:" % (c.name, parent))
        if c.extra:
            hd.append("    %s c;" % U)
        init = " c = s + %du;" % self.const() if c.extra else ""
        ctor_body = "{ a += %du;%s }" % (c.idx + 1, init)
        sig = {n: (ret, params, " const" if const else "") for n, ret, params, const in ms}
        if c.inline:
            hd.append("    __device__ %s(%s s, %s *l) : %s(s, l) %s" % (c.name, U, U, parent, ctor_body))
            if c.dtor:
                hd.append("    __device__ ~%s() override { %s }" % (c.name, c.dtor))
            for n, body in c.methods.items():
                ret, params, cq = sig[n]
                hd.append("    __device__ %s %s(%s)%s override\n    {\n        %s\n    }"
                          % (ret, n, params, cq, body))
            hd.append("};")
            return
        hd.append("    __device__ %s(%s s, %s *l);" % (c.name, U, U))
        if c.dtor:
            hd.append("    __device__ ~%s() override;" % c.name)
        for n in c.methods:
            ret, params, cq = sig[n]
            hd.append("    __device__ %s %s(%s)%s override;" % (ret, n, params, cq))
        hd.append("};")
        code = self.files[c.file]
        code.append("__device__ %s::%s(%s s, %s *l) : %s(s, l) %s"
                    % (c.name, c.name, U, U, parent, ctor_body))
        if c.dtor:
            code.append("__device__ %s::~%s() { %s }" % (c.name, c.name, c.dtor))
        for n, body in c.methods.items():
            ret, params, cq = sig[n]
            body = body.replace("\n        ", "\n    ")
            code.append("__device__ %s %s::%s(%s)%s\n{\n    %s\n}"
                        % (ret, c.name, n, params, cq, body))

    # ---- function-pointer tables ----
    def table(self, t):
        r = self.r
        T = Table()
        T.t = t
        T.name = "tab%d" % t
        T.kind = r.choice(["uu", "uu", "ff"])   # unsigned(unsigned, unsigned) or float(float)
        T.n = self.nsub()
        T.nfuncs = r.randint(1, T.n)
        T.uniform = r.random() < 0.25
        T.written = r.random() < 0.2            # the kernel stores an extra function first
        T.file = self.file()
        T.uconst = self.const(1, 500)
        T.funcs = ["op%d_%d" % (t, j) for j in range(T.nfuncs + (1 if T.written else 0))]
        T.entries = [T.funcs[j % T.nfuncs] if j < T.nfuncs else r.choice(T.funcs[:T.nfuncs])
                     for j in range(T.n)]
        r.shuffle(T.entries)
        self.notes.append("%s: %d entries, %d functions%s%s, in f%d" % (
            T.name, T.n, T.nfuncs, ", uniform" if T.uniform else "",
            ", written by the kernels" if T.written else "", T.file))
        return T

    def tsig(self, T, name):
        if T.kind == "uu":
            return "%s %s(%s a, %s b)" % (U, name, U, U)
        return "float %s(float a)" % name

    def emit_table(self, T):
        r = self.r
        ptr = "%s (*%s[%d])(%s, %s)" % (U, T.name, T.n, U, U) if T.kind == "uu" \
            else "float (*%s[%d])(float)" % (T.name, T.n)
        for f in T.funcs:
            self.header.append("__device__ %s;" % self.tsig(T, f))
            if T.uniform and f != T.funcs[-1] or T.uniform and not T.written:
                body = "return %d;" % T.uconst if T.kind == "uu" else "return %d.0f;" % T.uconst
            elif T.kind == "uu":
                body = "return %s;" % self.uexpr(["a", "b"])
            else:
                body = "return a * %d.25f - %d.0f;" % (r.randint(0, 5), r.randint(0, 50))
            self.files[self.file()].append("__device__ %s\n{\n    %s\n}" % (self.tsig(T, f), body))
        self.header.append("extern __device__ %s;" % ptr)
        self.files[T.file].append("__device__ %s = {%s};" % (ptr, ", ".join(T.entries)))

    # ---- kernels ----
    def kernel(self, k, hiers, tables):
        r = self.r
        slots = [0]

        def slot():
            s = slots[0]
            slots[0] += 1
            return "out[gid * W + %d]" % s

        body = []
        pr = []         # values printf may show
        self.writes = []  # table stores, made before any call reads a table
        frags = r.randint(1, 4)
        for _ in range(frags):
            choices = []
            if hiers:
                choices += ["vloop", "vloop", "vbranch", "visit"]
            if tables:
                choices += ["tloop", "tbranch"]
            choices.append("fptr")
            what = r.choice(choices)
            if what in ("vloop", "vbranch", "visit"):
                H = r.choice(hiers)
                body.append(getattr(self, "frag_" + what)(H, slot, pr))
            elif what in ("tloop", "tbranch"):
                body.append(getattr(self, "frag_" + what)(r.choice(tables), tables, slot, pr))
            else:
                body.append(self.frag_fptr(slot, pr))
        if r.random() < 0.7:
            body.append(self.frag_printf(k, pr))
        W = max(slots[0], 1)
        if self.writes:
            # every thread stores the same values, then the block waits: no
            # thread reads an entry another may still be writing
            body.insert(0, "".join(self.writes) + "    __syncthreads();")
        code = "\n".join(body)
        nt = "    %s nt = gridDim.x * blockDim.x;\n" % U if "% nt]" in code else ""
        text = ("extern \"C\" __global__ void k%d(%s *out, const %s *in, %s n)\n{\n"
                "    const %s W = %du;\n"
                "    %s gid = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "%s%s\n}" % (k, U, U, U, U, W, U, nt, code))
        self.files[self.file()].append(text)
        grid = r.choice([1, 1, 2])
        block = r.choice([32, 32, 64])
        threads = grid * block
        n = r.randint(1, 6)
        args = "--grid %d --block %d --arg buf:%d:zero --arg buf:%d:pattern=%d --arg u32:%d" % (
            grid, block, threads * W * 4, threads * 4, r.randint(1, 999), n)
        return "kernel k%d %s" % (k, args)

    def frag_vloop(self, H, slot, pr):
        r = self.r
        K = r.randint(1, 4)
        res, log = slot(), slot()
        inner = ["        %s *p = objs[(acc + i) %% %du];" % (H.base, K),
                 "        acc = acc * 33u + p->f(acc);"]
        if r.random() < 0.5:
            inner.append("        if (acc & 1u)\n            acc += (%s)p->u();" % U)
        if H.has_bump and r.random() < 0.5:
            inner.append("        p->bump(i);")
        if H.has_g and r.random() < 0.3:
            inner.append("        acc ^= (%s)(int)p->g((float)(i & 7u));" % U)
        pr.append(("u", res))
        return ("    {\n        %s *objs[%d];\n"
                "        for (%s i = 0; i < %du; i++)\n"
                "            objs[i] = make%d(in[(gid + i) %% nt] + i * %du, gid + i, &%s);\n"
                "        %s acc = in[gid];\n"
                "        for (%s i = 0; i < n; i++) {\n%s\n        }\n"
                "        %s = acc;\n"
                "        for (%s i = 0; i < %du; i++)\n            delete objs[i];\n    }"
                % (H.base, K, U, K, H.h, self.const(), log, U, U,
                   "\n".join("    " + l for l in inner), res, U, K))

    def frag_vbranch(self, H, slot, pr):
        r = self.r
        res, log = slot(), slot()
        alts = ["r = p->f(gid);", "r = (%s)p->u() * 7u;" % U]
        if H.has_g:
            alts.append("r = (%s)(int)(p->g((float)(gid & 15u)) * 4.0f);" % U)
        if H.has_name:
            alts.append("r = (%s)p->name()[1];" % U)
        if H.has_bump:
            alts.append("p->bump(gid);\n        r = p->f(3u);")
        r.shuffle(alts)
        conds = ["in[gid] & 1u", "threadIdx.x %% %du == 0" % r.randint(2, 5),
                 "(in[gid] >> 4) & 1u"]
        code = "    {\n        %s *p = make%d(in[gid] >> 3, gid, &%s);\n        %s r;\n" % (
            H.base, H.h, log, U)
        for i, a in enumerate(alts):
            if i == 0:
                code += "        if (%s) {\n            %s\n" % (conds[0], a.replace("\n", "\n    "))
            elif i < len(alts) - 1 and i < len(conds):
                code += "        } else if (%s) {\n            %s\n" % (conds[i], a.replace("\n", "\n    "))
            else:
                code += "        } else {\n            %s\n" % a.replace("\n", "\n    ")
                break
        code += "        }\n"
        if H.has_name and r.random() < 0.5:
            code += ("        if (gid %% 16u == %du)\n            printf(\"%%s r=%%u\\n\", "
                     "p->name(), r);\n" % r.randrange(16))
        code += "        %s = r;\n        delete p;\n    }" % res
        pr.append(("u", res))
        return code

    def frag_visit(self, H, slot, pr):
        res, log = slot(), slot()
        pr.append(("u", res))
        return ("    {\n        %s *p = make%d(in[gid] * %du, gid, &%s);\n"
                "        %s = visit%d(p, in[gid]);\n        delete p;\n    }"
                % (H.base, H.h, self.const(), log, res, H.h))

    def write_first(self, T):
        """A store of the table's extra function, hoisted to the kernel's start."""
        if T.written:
            self.writes.append("    %s[%d] = %s;\n" % (T.name, self.r.randrange(T.n), T.funcs[-1]))
        return ""

    def call(self, T, idx, a, b):
        if T.kind == "uu":
            return "%s[%s](%s, %s)" % (T.name, idx, a, b)
        return "(%s)(int)%s[%s]((float)(%s & 255u))" % (U, T.name, idx, a)

    def frag_tloop(self, T, tables, slot, pr):
        res = slot()
        pr.append(("u", res))
        return ("    {\n%s        %s acc = in[gid];\n"
                "        for (%s i = 0; i < n; i++)\n            acc = acc * 7u + %s;\n"
                "        %s = acc;\n    }"
                % (self.write_first(T), U, U, self.call(T, "(acc ^ i) %% %du" % T.n, "acc", "i"),
                   res))

    def frag_tbranch(self, T, tables, slot, pr):
        r = self.r
        T2 = r.choice(tables)
        res = slot()
        pr.append(("u", res))
        w = self.write_first(T) + (self.write_first(T2) if T2 is not T else "")
        return ("    {\n%s        %s r;\n        if (in[gid] & 2u)\n            r = %s;\n"
                "        else\n            r = %s;\n        %s = r;\n    }"
                % (w, U, self.call(T, "in[gid] %% %du" % T.n, "gid", "3u"),
                   self.call(T2, "gid %% %du" % T2.n, "in[gid]", "gid"), res))

    def frag_fptr(self, slot, pr):
        """A local function pointer chosen by data: nvcc keeps it indirect or not."""
        r = self.r
        res = slot()
        pr.append(("u", res))
        self.nfptr = getattr(self, "nfptr", 0) + 1
        fa = "lf%d_%d" % (self.nfptr, self.const(0, 999))
        fb = fa + "b"
        f = self.file()
        self.files[f].append("static __device__ __noinline__ %s %s(%s x) { return %s; }"
                             % (U, fa, U, self.uexpr(["x"])))
        self.files[f].append("static __device__ __noinline__ %s %s(%s x) { return %s; }"
                             % (U, fb, U, self.uexpr(["x"])))
        self.header.append("__device__ %s (*pick_%s(%s v))(%s);" % (U, fa, U, U))
        self.files[f].append("__device__ %s (*pick_%s(%s v))(%s) { return (v & 4u) ? %s : %s; }"
                             % (U, fa, U, U, fa, fb))
        return ("    {\n        %s (*fp)(%s) = pick_%s(in[gid]);\n        %s = fp(gid) + fp(n);\n    }"
                % (U, U, fa, res))

    def frag_printf(self, k, pr):
        r = self.r
        v = pr[-1][1] if pr else "in[gid]"
        conv = [("%d", "(int)gid - %d" % self.const(0, 40)),
                ("%u", v),
                ("%ld", "(long)%s * -3L" % v),
                ("%f", "(float)(%s & 1023u) * 0.25f" % v),
                ("%.3f", "(double)%s / 7.0" % v),
                ("%c", "'A' + (int)(%s %% 26u)" % v),
                ("%s", "\"s%d\"" % r.randrange(100)),
                ("%x", v),
                ("%lu", "(unsigned long)%s << 3" % v),
                ("%e", "(double)in[gid] * 1.5e-3")]
        pick = r.sample(conv, r.randint(2, len(conv)))
        fmt = " ".join(c for c, _ in pick)
        every = r.choice([8, 16, 32])
        return ("    if (gid %% %du == %du)\n        printf(\"k%d %s\\n\", %s);"
                % (every, r.randrange(every), k, fmt, ", ".join(a for _, a in pick)))

    # ---- the whole program ----
    def run(self):
        r = self.r
        nh = r.choice([0, 1, 1, 1, 2])
        nt = r.choice([0, 1, 1, 2])
        if nh == 0 and nt == 0:
            nh = 1
        hiers = [self.hierarchy(h) for h in range(nh)]
        tables = [self.table(t) for t in range(nt)]
        for H in hiers:
            self.emit_hier(H)
        for T in tables:
            self.emit_table(T)
        nk = r.randint(1, self.max_kernels)
        kl = [self.kernel(k, hiers, tables) for k in range(nk)]
        return kl


PRELUDE = """\
// Generated by tests/difftest/gen-programs.py --seed %d; do not edit.
#pragma once
#ifdef PTXLINK_CLANG
#include "clang_cuda_min.h"
__device__ inline void *operator new(size_t n) { return malloc(n ? n : 1); }
__device__ inline void operator delete(void *p) noexcept { free(p); }
__device__ inline void operator delete(void *p, size_t) noexcept { free(p); }
// clang's vtables of abstract classes name it (nvcc's hold 0); each file may
// define it, so it is weak
extern "C" __device__ __attribute__((weak)) void __cxa_pure_virtual(void) { __builtin_trap(); }
#else
#include <cstdio>
#endif
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--max-files", type=int, default=4)
    ap.add_argument("--max-subclasses", type=int, default=40)
    ap.add_argument("--max-kernels", type=int, default=3)
    a = ap.parse_args()
    g = Gen(a.seed, max(1, min(a.max_files, 4)), max(1, a.max_subclasses), max(1, a.max_kernels))
    kernels = g.run()
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "prog.h"), "w") as f:
        f.write(PRELUDE % a.seed + "\n" + "\n".join(g.header) + "\n")
    names = []
    for i, code in enumerate(g.files):
        name = "f%d.cu" % i
        names.append(name)
        with open(os.path.join(a.out, name), "w") as f:
            f.write("// Generated by tests/difftest/gen-programs.py --seed %d; do not edit.\n"
                    "#include \"prog.h\"\n\n%s\n" % (a.seed, "\n\n".join(code)))
    with open(os.path.join(a.out, "manifest"), "w") as f:
        f.write("# tests/difftest/gen-programs.py --seed %d --max-files %d --max-subclasses %d "
                "--max-kernels %d\n" % (a.seed, a.max_files, a.max_subclasses, a.max_kernels))
        for n in g.notes:
            f.write("# %s\n" % n)
        for n in names:
            f.write("file %s\n" % n)
        for k in kernels:
            f.write(k + "\n")


if __name__ == "__main__":
    main()
