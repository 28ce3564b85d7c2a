#!/usr/bin/env python3
"""Write the input of one scaling row at size N (tests/scaling/scaling.sh).

    tests/scaling/gen.py ROW N DIR

writes the row's PTX files (and libraries) into DIR, and DIR/args: the
ptxlink arguments that link them, one a line, relative to DIR.  Each row is
an input that once took more than n log n time or memory in N:

  counted-cycles    N/2 functions each calling itself and one cycle of N/2,
                    every one counting a parameter down to 0, each called
                    once from one kernel with a counter of at most 3
                    (--inline=never: unrecurse's proofs and 4 clones each)
  archive-chain     an archive of N members, member i calling member i+1,
                    stored last-first (one member came in per pass)
  inline-MODE       the archive chain with --inline=MODE (always, auto, never;
                    huge: --inline-threshold=100000), without ipo
  open-MODE         one input, a chain of N .visible functions, f<i> calling
                    f<i+1>, not linked with anything: an open world, so
                    every function stays and keeps its own expansion (MODE
                    as for inline-MODE)
  archive-empty     an archive of N members that define nothing
  dwarf-abbrev      two -G inputs, each N abbreviations (codes 1..127 over
                    and over) and N units that all use them
  globals           one kernel reading N distinct globals
  never-written     one kernel reading N never-written tables (--internalize)
                    through registers: at constant offsets, at one it
                    computes from another load, at a run-time index
  calls             one kernel calling N distinct functions, declared only
  vtables           N vtables, any of which a factory stores into an
                    object, and N virtual call sites
  indirect-sites    N indirect call sites in one kernel, each through a table
  indirect-kernels  N kernels with one indirect call each
  sections          N modules with 100 distinct sections each
  inputs            N input files, module i's kernel calling module i-1
  same-shape        N internal functions of one shape, each adding its own
                    constant, one kernel calling each (ipo compared every
                    pair: its hash covered opcodes only)
  same-code         N internal functions of one code, one kernel calling
                    each (ipo merges N-1 of them)
  merge-chains      two chains of N internal functions, a<i> calling a<i+1>
                    and b<i> calling b<i+1>, the last of each the same code:
                    each merge makes the next callers the same (ipo hashed
                    every function again per merge round, N rounds)
  param-chain       a kernel passing its local array to two functions that
                    store through N registers made from the pointer, each
                    the last plus 4, the second at a run-time index at the
                    end (ir/memobj.c rescanned the body per register found)
  locals            a kernel storing N words to its depot, then N if/else
                    diamonds in a row, each loading a word before it and
                    again in both arms (blocks only the one before precedes),
                    one arm storing it over another word (--opt-locals: what
                    a block knows is copied into each arm, every store asks
                    what reads its bytes)
  lend-chain        a chain of N internal functions, g<i> storing through
                    its pointer at a run-time index and passing it on to
                    g<i+1>, each with a local word of its own, and a kernel
                    lending its array to g0 (--inline=never: each function's
                    depot asks what the next does with the pointer, which
                    follows it down the chain, once per function)
  byvalue-calls     a kernel of N objects of 8 bytes in NVVM's one depot, each
                    lent by its generic address to one of three callees, one
                    that reads it, one that also writes it, one that reads
                    it at a run-time index (--inline=never: ipo passes each
                    by value, and back, or whole; its lends are found by
                    their st.param in a table, not by a walk of every access
                    per call, and where each variable ends by a search of
                    the depot's anchors sorted once)
  labels            a kernel of N labels $L__BB0_<i> in one block, nvcc's
                    names sharing one stem, each branched to from the one
                    before (every label resolves through one group of N)
  debug-depots      N functions, each with a depot of two words that -G's
                    DWARF names (DW_OP_addr __local_depotI, DW_OP_plus_uconst
                    4) in one .debug_info section, and a kernel calling
                    them (--inline=never: each function's depot looks up
                    the section's elements that name it, not all of them)
  move-chain        a chain of N internal functions of 450 instructions each,
                    f<i> calling f<i+1> once (--inline=auto: each body goes
                    with its last call, bottom-up; moved free past 400 only
                    within the growth budget, else each level moves all
                    below it)
  join-chain        a kernel of N blocks in a row, each branching to one
                    join at its end, the whole default pipeline (the
                    iterative dominators walked each branch up the chain)
  reroll            a kernel of N/4 runs of 4 copies of s = f(s, c), c
                    stepping evenly in every other run and as squares in
                    the rest (--reroll --inline=never --no-addrprep: each
                    run tried at every place its copies may start, half of
                    them rolled)
  reroll-any        the same with --reroll-any: every instruction's
                    spelling marks a run
  loop-chain        a kernel of N counted loops one after another, each of
                    two blocks (a test inside) and its own counter: the
                    fold stage asks each counter's range, and ir/range.c
                    walked from each loop's exit to the end of the function
  reroll-branches   the reroll kernel with an if/else in each copy, both
                    sides reading the previous copy's sum (each such read
                    a walk over the copy's items to see that no write of
                    the copy reaches it)
  reroll-steps      a kernel of N/4 runs of 4 copies of h += j, a = f(h),
                    b = f(a), h = a + b, the first copy of each without its
                    step (each run tried with a first copy given its step
                    back, f's calls two a copy)
  addrprep-calls    the reroll kernel with --no-reroll and address
                    preparation on (its sink walked the rest of the block
                    from each computation's use to see what it reads there)
  fold-chain        a kernel of N float steps f' = f * 0.5 + 1, each
                    followed by a branch on f' > 100 that the fold stage
                    decides (never) and a block it removes: the float
                    ranges' walk, the decided branches and the dead code
                    (the block stores: a register it wrote would have N
                    definitions reaching every block, ir/defs.c's sets)

The same ROW and N always give the same bytes.
"""
import os
import sys

HEAD = ".version 7.0\n.target sm_80\n.address_size 64\n\n"


def write(d, name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


def archive(d, name, members):
    """An ar archive of (name, text) members, as GNU ar writes it."""
    out = [b"!<arch>\n"]
    for n, text in members:
        data = text.encode()
        hdr = "%-16s%-12d%-6d%-6d%-8s%-10d`\n" % (n + "/", 0, 0, 0, "644", len(data))
        out.append(hdr.encode() + data + (b"\n" if len(data) & 1 else b""))
    with open(os.path.join(d, name), "wb") as f:
        f.write(b"".join(out))


def func(name, body="\tadd.s32 %r2, %r1, 1;\n", linkage=".visible "):
    """(.param .b32 r) name(.param .b32 a): its argument through body."""
    return ("%s.func (.param .b32 r) %s(.param .b32 a)\n{\n\t.reg .b32 %%r<4>;\n"
            "\tld.param.b32 %%r1, [a];\n%s\tst.param.b32 [r], %%r2;\n\tret;\n}\n\n"
            % (linkage, name, body))


def call(callee, arg, res, site=0):
    """A direct call, or an indirect one (callee a register) with prototype
    p<site>."""
    proto = callee_ = ""
    if callee.startswith("%"):
        proto = ", p%d" % site
        callee_ = "\tp%d: .callprototype (.param .b32 _) _ (.param .b32 _);\n" % site
    return ("\t{\n\t.param .b32 pa;\n\t.param .b32 pr;\n\tst.param.b32 [pa], %s;\n%s"
            "\tcall (pr), %s, (pa)%s;\n\tld.param.b32 %s, [pr];\n\t}\n"
            % (arg, callee_, callee, proto, res))


def kernel(name, body, regs="\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"):
    """An entry taking one buffer; body leaves a word in %r1 to store."""
    return (".visible .entry %s(.param .u64 out)\n{\n%s\tld.param.u64 %%rd1, [out];\n"
            "\tmov.u32 %%r1, %%tid.x;\n%s\tst.global.u32 [%%rd1], %%r1;\n\tret;\n}\n\n"
            % (name, regs, body))


def archive_chain(d, n):
    write(d, "main.ptx", HEAD + ".extern .func (.param .b32 r) f0(.param .b32 a);\n\n" +
          kernel("k", call("f0", "%r1", "%r1")))
    members = []
    for i in reversed(range(n)):
        text = HEAD
        body = "\tadd.s32 %r2, %r1, 1;\n"
        if i + 1 < n:
            text += ".extern .func (.param .b32 r) f%d(.param .b32 a);\n\n" % (i + 1)
            body = call("f%d" % (i + 1), "%r1", "%r2")
        members.append(("m%d.ptx" % i, text + func("f%d" % i, body)))
    archive(d, "libchain.a", members)
    return ["-arch=sm_80", "main.ptx", "-L.", "-lchain"]


def inline_chain(mode):
    """The archive chain linked with --inline=MODE (or the threshold
    100000: every call), without ipo (its merge is a row of its own)."""
    opt = "--inline-threshold=100000" if mode == "huge" else "--inline=" + mode

    def row(d, n):
        return archive_chain(d, n) + ["--no-ipo", opt]
    return row


def open_chain(mode):
    """A chain of .visible functions in one input (an open world: each
    stays), the kernel calling the first, with --inline=MODE."""
    opt = "--inline-threshold=100000" if mode == "huge" else "--inline=" + mode

    def row(d, n):
        text = HEAD
        for i in reversed(range(n)):
            body = ("\tadd.s32 %r2, %r1, 1;\n" if i == n - 1 else
                    call("f%d" % (i + 1), "%r1", "%r2"))
            text += func("f%d" % i, body)
        write(d, "in.ptx", text + kernel("k", call("f0", "%r1", "%r1")))
        return [opt, "in.ptx"]   # no -arch: an unlinked input, open
    return row


def archive_empty(d, n):
    write(d, "main.ptx", HEAD + kernel("k", ""))
    archive(d, "libempty.a", [("e%d.ptx" % i, HEAD) for i in range(n)])
    return ["-arch=sm_80", "main.ptx", "-L.", "-lempty"]


def dwarf_abbrev(d, n):
    # every abbreviation: a compile unit with a name (DW_AT_name, string)
    abbrev = "".join(".b8 %d\n.b8 17\n.b8 0\n.b8 3\n.b8 8\n.b8 0\n.b8 0\n" % (i % 127 + 1)
                     for i in range(n)) + ".b8 0\n"
    # a unit: length, version 2, the table at 0, 8-byte addresses, one DIE
    unit = ".b32 10\n.b8 2\n.b8 0\n.b32 .debug_abbrev\n.b8 8\n.b8 %d\n.b8 97\n.b8 0\n"
    info = "".join(unit % (i % 127 + 1) for i in range(n))
    for name in "ab":
        write(d, name + ".ptx", HEAD.replace("sm_80", "sm_80, debug") +
              kernel("k" + name, "") +
              "\t.section .debug_abbrev\n\t{\n" + abbrev + "\t}\n" +
              "\t.section .debug_info\n\t{\n" + info + "\t}\n")
    return ["-arch=sm_80", "a.ptx", "b.ptx"]


def globals_(d, n):
    text = HEAD + "".join(".visible .global .align 4 .u32 g%d;\n" % i for i in range(n))
    body = "".join("\tld.global.u32 %%r2, [g%d];\n\tadd.s32 %%r1, %%r1, %%r2;\n" % i
                   for i in range(n))
    write(d, "in.ptx", text + "\n" + kernel("k", body))
    return ["-arch=sm_80", "in.ptx"]


def never_written(d, n):
    text = HEAD + "".join(".global .align 4 .u32 t%d[4] = {%d, 3, 2, 1};\n" % (i, i % 7)
                          for i in range(n))
    body = "\tand.b32 %r3, %r1, 3;\n\tmul.wide.u32 %rd3, %r3, 4;\n"
    body += "".join("\tmov.u64 %%rd2, t%d;\n\tld.global.u32 %%r2, [%%rd2+4];\n"
                    "\tmul.wide.u32 %%rd4, %%r2, 4;\n\tadd.s64 %%rd4, %%rd2, %%rd4;\n"
                    "\tld.global.u32 %%r2, [%%rd4];\n\tadd.s32 %%r1, %%r1, %%r2;\n"
                    "\tadd.s64 %%rd4, %%rd2, %%rd3;\n\tld.global.u32 %%r2, [%%rd4];\n"
                    "\tadd.s32 %%r1, %%r1, %%r2;\n" % i for i in range(n))
    regs = "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<5>;\n"
    write(d, "in.ptx", text + "\n" + kernel("k", body, regs))
    return ["-arch=sm_80", "--internalize", "in.ptx"]


def calls(d, n):
    text = HEAD + "".join(".extern .func (.param .b32 r) f%d(.param .b32 a);\n" % i
                          for i in range(n))
    write(d, "in.ptx", text + kernel("k", "".join(call("f%d" % i, "%r1", "%r1")
                                                 for i in range(n))))
    return ["in.ptx"]


def vtables(d, n):
    """Class i: vtable _ZTV1Ci (offset to top, RTTI, one method); a
    factory stores any one's address point into the object (one register
    may hold every vtable), and kernel use<i> calls the object's method."""
    text = HEAD
    for i in range(n):
        text += func("m%d" % i, "\tadd.s32 %%r2, %%r1, %d;\n" % i)
        text += ".global .align 8 .u64 _ZTV1C%d[3] = {0, 0, m%d};\n\n" % (i, i)
    text += (".visible .func make(.param .b64 obj, .param .b32 kind)\n{\n\t.reg .pred %p<2>;\n"
             "\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<4>;\n\tld.param.b64 %rd1, [obj];\n"
             "\tld.param.b32 %r1, [kind];\n\tmov.u64 %rd2, 0;\n")
    for i in range(n):
        text += "\tsetp.eq.s32 %%p1, %%r1, %d;\n\t@%%p1 mov.u64 %%rd2, _ZTV1C%d;\n" % (i, i)
    text += "\tadd.s64 %rd3, %rd2, 16;\n\tst.u64 [%rd1], %rd3;\n\tret;\n}\n\n"
    for i in range(n):
        body = "\tld.u64 %rd2, [%rd1];\n\tld.u64 %rd3, [%rd2];\n" + call("%rd3", "%r1", "%r1")
        text += kernel("use%d" % i, body)
    write(d, "in.ptx", text)
    return ["in.ptx"]


def indirect_sites(d, n):
    text = HEAD + func("fa", "\tadd.s32 %r2, %r1, 1;\n") + func("fb", "\tshl.b32 %r2, %r1, 1;\n")
    text += ".global .align 8 .u64 tbl[2] = {fa, fb};\n\n"
    body = "".join("\tld.global.u64 %%rd2, [tbl+%d];\n" % (8 * (i % 2)) + call("%rd2", "%r1", "%r1", i)
                   for i in range(n))
    write(d, "in.ptx", text + kernel("k", body))
    return ["in.ptx"]


def indirect_kernels(d, n):
    text = HEAD + func("fa", "\tadd.s32 %r2, %r1, 1;\n") + func("fb", "\tshl.b32 %r2, %r1, 1;\n")
    text += ".global .align 8 .u64 tbl[2] = {fa, fb};\n\n"
    for i in range(n):
        body = "\tld.global.u64 %%rd2, [tbl+%d];\n" % (8 * (i % 2)) + call("%rd2", "%r1", "%r1")
        text += kernel("k%d" % i, body)
    write(d, "in.ptx", text)
    return ["in.ptx"]


def sections(d, n):
    args = ["-arch=sm_80"]
    for m in range(n):
        text = HEAD + func("f%d" % m)
        text += "".join("\t.section .debug_m%d_%d\n\t{\n.b8 %d\n\t}\n" % (m, s, s) for s in range(100))
        write(d, "m%d.ptx" % m, text)
        args.append("m%d.ptx" % m)
    return args


def inputs(d, n):
    args = ["-arch=sm_80"]
    for m in range(n):
        text = HEAD + func("f%d" % m)
        body = call("f%d" % m, "%r1", "%r1")
        if m:
            text += ".extern .func (.param .b32 r) f%d(.param .b32 a);\n\n" % (m - 1)
            body += call("f%d" % (m - 1), "%r1", "%r1")
        write(d, "m%d.ptx" % m, text + kernel("k%d" % m, body))
        args.append("m%d.ptx" % m)
    return args


def same_functions(d, n, body):
    text = HEAD + "".join(func("f%d" % i, body(i), linkage="") for i in range(n))
    write(d, "in.ptx", text + kernel("k", "".join(call("f%d" % i, "%r1", "%r1")
                                                 for i in range(n))))
    return ["-arch=sm_80", "--inline=never", "in.ptx"]


def same_shape(d, n):
    return same_functions(d, n, lambda i: "\tadd.s32 %%r2, %%r1, %d;\n" % i)


def same_code(d, n):
    return same_functions(d, n, lambda i: "\tadd.s32 %r2, %r1, 1;\n")


def merge_chains(d, n):
    text = HEAD
    for side in "ab":
        for i in reversed(range(n)):
            body = ("\tadd.s32 %r2, %r1, 1;\n" if i == n - 1 else
                    call("%s%d" % (side, i + 1), "%r1", "%r2"))
            text += func("%s%d" % (side, i), body, linkage="")
    body = call("a0", "%r1", "%r1") + call("b0", "%r1", "%r1")
    write(d, "in.ptx", text + kernel("k", body))
    return ["-arch=sm_80", "--inline=never", "in.ptx"]


def param_chain(d, n):
    def callee(name, tail):
        body = "".join("\tadd.s64 %%rd%d, %%rd%d, 4;\n\tst.u32 [%%rd%d], %%r1;\n"
                       % (i + 1, i, i + 1) for i in range(1, n + 1))
        return (".func %s(.param .b64 w, .param .b32 k)\n{\n\t.reg .b32 %%r<2>;\n"
                "\t.reg .b64 %%rd<%d>;\n\tld.param.b64 %%rd1, [w];\n"
                "\tld.param.b32 %%r1, [k];\n%s%s\tret;\n}\n\n" % (name, n + 4, body, tail))
    indexed = ("\tmul.wide.u32 %%rd%d, %%r1, 4;\n\tadd.s64 %%rd%d, %%rd%d, %%rd%d;\n"
               "\tst.u32 [%%rd%d], %%r1;\n" % (n + 2, n + 3, n + 1, n + 2, n + 3))
    calls = "".join("\t{\n\t.param .b64 a;\n\t.param .b32 b;\n\tst.param.b64 [a], %%rd2;\n"
                    "\tst.param.b32 [b], %%r1;\n\tcall.uni %s, (a, b);\n\t}\n" % f
                    for f in ("constant", "indexed"))
    body = ("\tmov.u64 %%SPL, __local_depot0;\n\tcvta.local.u64 %%SP, %%SPL;\n"
            "\tadd.u64 %%rd2, %%SP, 0;\n%s\tld.u32 %%r1, [%%rd2];\n" % calls)
    regs = ("\t.local .align 4 .b8 __local_depot0[%d];\n\t.reg .b64 %%SP;\n"
            "\t.reg .b64 %%SPL;\n\t.reg .b32 %%r<4>;\n\t.reg .b64 %%rd<4>;\n" % (4 * n + 8))
    write(d, "in.ptx", HEAD + callee("constant", "") + callee("indexed", indexed) +
          kernel("k", body, regs))
    return ["-arch=sm_80", "--no-ipo", "in.ptx"]


def locals_(d, n):
    stores = "".join("\tst.local.u32 [%%SPL+%d], %%r1;\n" % (4 * i) for i in range(n))
    steps = "".join("\tld.local.u32 %%r2, [%%SPL+%d];\n\tadd.s32 %%r1, %%r1, %%r2;\n"
                    "\tsetp.eq.s32 %%p1, %%r2, %d;\n\t@%%p1 bra E%d;\n"
                    "\tld.local.u32 %%r3, [%%SPL+%d];\n\tst.local.u32 [%%SPL+%d], %%r3;\n"
                    "\tbra.uni J%d;\nE%d:\n\tld.local.u32 %%r3, [%%SPL+%d];\n"
                    "\tadd.s32 %%r1, %%r1, %%r3;\nJ%d:\n"
                    % (4 * i, i, i, 4 * i, 4 * (n - 1 - i), i, i, 4 * i, i) for i in range(n))
    body = "\tmov.u64 %%SPL, __local_depot0;\n%s%s" % (stores, steps)
    regs = ("\t.local .align 4 .b8 __local_depot0[%d];\n\t.reg .b64 %%SPL;\n"
            "\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<4>;\n\t.reg .b64 %%rd<4>;\n" % (4 * n))
    write(d, "in.ptx", HEAD + kernel("k", body, regs))
    # the stages alone: the verifier's and the output check's walks of
    # 4 * N blocks are other rows' business
    return ["-arch=sm_80", "--opt-locals", "--no-verify", "--no-check-output", "in.ptx"]


def lend_chain(d, n):
    text = HEAD
    for i in range(n):
        passon = ("\t{\n\t.param .b64 a;\n\t.param .b32 b;\n\tst.param.b64 [a], %%rd1;\n"
                  "\tst.param.b32 [b], %%r1;\n\tcall.uni g%d, (a, b);\n\t}\n" % (i + 1)
                  if i + 1 < n else "")
        text += (".func g%d(.param .b64 p, .param .b32 k)\n{\n"
                 "\t.local .align 4 .b8 __local_depot%d[4];\n\t.reg .b32 %%r<4>;\n"
                 "\t.reg .b64 %%rd<4>;\n\tld.param.b64 %%rd1, [p];\n\tld.param.b32 %%r1, [k];\n"
                 "\tst.local.u32 [__local_depot%d], %%r1;\n\tand.b32 %%r2, %%r1, 1;\n"
                 "\tmul.wide.u32 %%rd2, %%r2, 4;\n\tadd.s64 %%rd3, %%rd1, %%rd2;\n"
                 "\tld.local.u32 %%r3, [__local_depot%d];\n\tst.u32 [%%rd3], %%r3;\n%s\tret;\n}\n\n"
                 % (i, i + 1, i + 1, i + 1, passon))
    body = ("\tmov.u64 %SPL, __local_depot0;\n\tcvta.local.u64 %SP, %SPL;\n"
            "\tadd.u64 %rd2, %SP, 0;\n\tst.local.u32 [%SPL+4], %r1;\n"
            "\t{\n\t.param .b64 a;\n\t.param .b32 b;\n\tst.param.b64 [a], %rd2;\n"
            "\tst.param.b32 [b], %r1;\n\tcall.uni g0, (a, b);\n\t}\n\tld.u32 %r1, [%rd2+4];\n")
    regs = ("\t.local .align 4 .b8 __local_depot0[8];\n\t.reg .b64 %SP;\n"
            "\t.reg .b64 %SPL;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n")
    write(d, "in.ptx", HEAD + text.replace(HEAD, "") + kernel("k", body, regs))
    return ["-arch=sm_80", "--inline=never", "in.ptx"]


def byvalue_calls(d, n):
    calls = "".join("\tadd.u64 %%a%d, %%SP, %d;\n\tst.local.u32 [%%SPL+%d], %%r1;\n"
                    "\tst.local.u32 [%%SPL+%d], %%r1;\n"
                    "\t{\n\t.param .b64 a;\n\tst.param.b64 [a], %%a%d;\n\t.param .b32 r;\n"
                    "\tcall.uni (r), %s, (a);\n\tld.param.b32 %%r2, [r];\n\t}\n"
                    "\tadd.s32 %%r1, %%r1, %%r2;\n" % (i, 8 * i, 8 * i, 8 * i + 4, i, ("rd", "wr", "ix")[i % 3])
                    for i in range(n))
    body = "\tmov.u64 %%SPL, __local_depot0;\n\tcvta.local.u64 %%SP, %%SPL;\n%s" % calls
    regs = ("\t.local .align 8 .b8 __local_depot0[%d];\n\t.reg .b64 %%SP;\n\t.reg .b64 %%SPL;\n"
            "\t.reg .b32 %%r<4>;\n\t.reg .b64 %%rd<4>;\n\t.reg .b64 %%a<%d>;\n" % (8 * n, n))
    callee = (".func (.param .b32 r) rd(.param .b64 p)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n"
              "\tld.param.u64 %rd1, [p];\n\tld.u32 %r1, [%rd1];\n\tld.u32 %r2, [%rd1+4];\n"
              "\tadd.s32 %r3, %r1, %r2;\n\tst.param.b32 [r], %r3;\n\tret;\n}\n\n")
    ix = callee.replace("rd(", "ix(").replace("%rd<2>", "%rd<4>").replace(
        "\tld.u32 %r2, [%rd1+4];\n", "\tand.b32 %r2, %r1, 1;\n\tmul.wide.u32 %rd2, %r2, 4;\n"
        "\tadd.s64 %rd3, %rd1, %rd2;\n\tld.u32 %r2, [%rd3];\n")
    callee += callee.replace("rd(", "wr(").replace("\tst.param", "\tst.u32 [%rd1+4], %r3;\n\tst.param") + ix
    write(d, "in.ptx", "//\n// Generated by NVIDIA NVVM Compiler\n//\n" + HEAD + callee + kernel("k", body, regs))
    return ["-arch=sm_80", "--inline=never", "in.ptx"]


def labels(d, n):
    body = "".join("\tsetp.eq.s32 %%p1, %%r1, %d;\n\t@%%p1 bra $L__BB0_%d;\n"
                   "\tadd.s32 %%r1, %%r1, 1;\n$L__BB0_%d:\n" % (i, i, i) for i in range(n))
    write(d, "in.ptx", HEAD + kernel("k", body, "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
                                      "\t.reg .b64 %rd<4>;\n"))
    return ["-arch=sm_80", "in.ptx"]


def debug_depots(d, n):
    text, dwarf = HEAD, ""
    for i in range(n):
        body = ("\tmov.u64 %%SPL, __local_depot%d;\n\tst.local.u32 [%%SPL+4], %%r1;\n"
                "\tst.local.u32 [%%SPL], %%r1;\n\tld.local.u32 %%r2, [%%SPL];\n"
                "\tadd.s32 %%r2, %%r2, %d;\n" % (i, i))
        text += func("f%d" % i, "\t.local .align 4 .b8 __local_depot%d[8];\n"
                     "\t.reg .b64 %%SPL;\n" % i + body, linkage="")
        dwarf += ".b8 3\n.b64 __local_depot%d\n.b8 35\n.b8 4\n.b8 0\n" % i
    calls = "".join(call("f%d" % i, "%r1", "%r1") for i in range(n))
    write(d, "in.ptx", text + kernel("k", calls) + "\t.section\t.debug_info\n\t{\n" + dwarf + "\t}\n")
    return ["-arch=sm_80", "--inline=never", "--no-ipo", "in.ptx"]


def move_chain(d, n):
    text = HEAD
    for i in reversed(range(n)):
        body = "\tadd.s32 %r1, %r1, 3;\n" * 448
        body += ("\tmov.b32 %r2, %r1;\n" if i == n - 1 else call("f%d" % (i + 1), "%r1", "%r2"))
        text += func("f%d" % i, body, linkage="")
    write(d, "in.ptx", text + kernel("k", call("f0", "%r1", "%r1")))
    return ["-arch=sm_80", "--no-ipo", "--inline=auto", "in.ptx"]


def join_chain(d, n):
    steps = "".join("\tadd.s32 %%r1, %%r1, %d;\n\tsetp.eq.s32 %%p1, %%r1, %d;\n\t@%%p1 bra J;\n"
                    % (i + 1, 3 * i) for i in range(n))
    regs = "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
    write(d, "in.ptx", HEAD + kernel("k", steps + "J:\n", regs))
    return ["-arch=sm_80", "in.ptx"]


def letters(i):
    """i as a name of letters: labels D<digits> in one block would share
    a stem, whose members ir/scope.c looks through one by one."""
    s = ""
    while True:
        s = chr(ord("a") + i % 26) + s
        i //= 26
        if not i:
            return s


def fold_chain(d, n):
    steps = "\tand.b32 %r2, %r1, 1;\n\tcvt.rn.f32.u32 %f0, %r2;\n"
    for i in range(n):
        a = letters(i)
        steps += ("\tfma.rn.f32 %%f%d, %%f%d, 0f3F000000, 0f3F800000;\n"
                  "\tsetp.gt.f32 %%p1, %%f%d, 0f42C80000;\n\t@%%p1 bra D%s;\n\tbra.uni N%s;\n"
                  "D%s:\n\tst.global.u32 [%%rd1], %d;\nN%s:\n" % (i + 1, i, i + 1, a, a, a, i, a))
    regs = "\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<4>;\n\t.reg .f32 %%f<%d>;\n\t.reg .b64 %%rd<4>;\n" % (n + 2)
    write(d, "in.ptx", HEAD + kernel("k", steps, regs))
    return ["-arch=sm_80", "--no-verify", "--no-check-output", "in.ptx"]


def loop_chain(d, n):
    body = "\tmov.u32 %s0, %r1;\n"
    for i in range(n):
        a = letters(i)
        body += ("\tmov.u32 %%c%d, 0;\n\tmov.u32 %%s%d, %%s%d;\nL%s:\n\tand.b32 %%t%d, %%c%d, 1;\n"
                 "\tsetp.eq.u32 %%q%d, %%t%d, 0;\n\t@%%q%d bra S%s;\n\tadd.u32 %%s%d, %%s%d, %%c%d;\nS%s:\n"
                 "\tadd.u32 %%c%d, %%c%d, 1;\n\tsetp.lt.u32 %%p%d, %%c%d, 4;\n\t@%%p%d bra L%s;\n"
                 % (i, i + 1, i, a, i, i, i, i, i, a, i + 1, i + 1, i, a, i, i, i, i, i, a))
    body += "\tmov.u32 %%r1, %%s%d;\n" % n
    regs = ("\t.reg .pred %%p<%d>;\n\t.reg .pred %%q<%d>;\n\t.reg .b32 %%r<4>;\n\t.reg .b32 %%c<%d>;\n"
            "\t.reg .b32 %%t<%d>;\n\t.reg .b32 %%s<%d>;\n\t.reg .b64 %%rd<4>;\n"
            % (n + 1, n + 1, n + 1, n + 1, n + 2))
    write(d, "in.ptx", HEAD + kernel("k", body, regs))
    return ["-arch=sm_80", "--no-verify", "--no-check-output", "in.ptx"]


def counted_fn(name, callee, step=-1):
    """rec-like name(a, n): n == 0 ? a : callee(a + 1, n - 1) + a."""
    return (".func (.param .b32 r) %s(.param .b32 a, .param .b32 n)\n{\n\t.reg .pred %%p<2>;\n"
            "\t.reg .b32 %%r<8>;\n\tld.param.u32 %%r1, [a];\n\tld.param.u32 %%r2, [n];\n"
            "\tsetp.eq.s32 %%p1, %%r2, 0;\n\t@%%p1 bra $Ldone;\n\tadd.s32 %%r3, %%r1, 1;\n"
            "\tadd.s32 %%r4, %%r2, %d;\n\t{\n\t.param .b32 pa;\n\t.param .b32 pn;\n\t.param .b32 pr;\n"
            "\tst.param.b32 [pa], %%r3;\n\tst.param.b32 [pn], %%r4;\n\tcall (pr), %s, (pa, pn);\n"
            "\tld.param.b32 %%r5, [pr];\n\t}\n\tadd.s32 %%r1, %%r5, %%r1;\n$Ldone:\n"
            "\tst.param.b32 [r], %%r1;\n\tret;\n}\n\n" % (name, step, callee))


def counted_cycles(d, n):
    """N/2 functions each calling itself, one cycle of N/2, counting down."""
    half = max(n // 2, 1)
    protos = "".join(".func (.param .b32 r) c%d(.param .b32 a, .param .b32 n);\n" % i for i in range(half))
    fns = "".join(counted_fn("s%d" % i, "s%d" % i) for i in range(half))
    fns += "".join(counted_fn("c%d" % i, "c%d" % ((i + 1) % half)) for i in range(half))
    body = "\tand.b32 %r2, %r1, 3;\n"
    for i in range(half):
        body += ("\t{\n\t.param .b32 pa;\n\t.param .b32 pn;\n\t.param .b32 pr;\n\tst.param.b32 [pa], %%r1;\n"
                 "\tst.param.b32 [pn], %%r2;\n\tcall (pr), s%d, (pa, pn);\n\tld.param.b32 %%r1, [pr];\n\t}\n" % i)
    body += ("\t{\n\t.param .b32 pa;\n\t.param .b32 pn;\n\t.param .b32 pr;\n\tst.param.b32 [pa], %r1;\n"
             "\tst.param.b32 [pn], %r2;\n\tcall (pr), c0, (pa, pn);\n\tld.param.b32 %r1, [pr];\n\t}\n")
    write(d, "in.ptx", HEAD + protos + "\n" + fns + kernel("k", body))
    return ["-arch=sm_80", "--inline=never", "--no-verify", "--no-check-output", "in.ptx"]


def reroll_(any_, addrprep=False, branches=False):
    def gen(d, n):
        body, acc = "", "%r1"
        for g in range(n // 4):
            for j in range(4):
                t = 4 * g + j
                c = g + (j if g % 2 == 0 else j * j)
                body += call("f%d" % (g % 2), str(c), "%%r%d" % (2 * t + 2))
                if branches:
                    body += ("\tsetp.eq.s32 %%p%d, %%r%d, 0;\n\t@%%p%d bra $Le%d;\n"
                             "\tadd.s32 %%r%d, %%r%d, %s;\n\tbra.uni $Lj%d;\n$Le%d:\n"
                             "\txor.b32 %%r%d, %s, 3;\n$Lj%d:\n"
                             % (t, 2 * t + 2, t, t, 2 * t + 3, 2 * t + 2, acc, t, t,
                                2 * t + 3, acc, t))
                else:
                    body += "\tadd.s32 %%r%d, %%r%d, %s;\n" % (2 * t + 3, 2 * t + 2, acc)
                acc = "%%r%d" % (2 * t + 3)
        body += "\tmov.b32 %%r1, %s;\n" % acc
        regs = "\t.reg .b32 %%r<%d>;\n\t.reg .b64 %%rd<4>;\n\t.reg .pred %%p<%d>;\n" % (2 * n + 4, n + 1)
        write(d, "in.ptx", HEAD + func("f0") + func("f1") + kernel("k", body, regs))
        if addrprep:
            return ["-arch=sm_80", "--no-reroll", "--inline=never", "--no-verify", "--no-check-output", "in.ptx"]
        return (["-arch=sm_80", "--reroll", "--inline=never", "--no-addrprep"] + (["--reroll-any"] if any_ else []) +
                ["--no-verify", "--no-check-output", "in.ptx"])
    return gen


def reroll_steps(d, n):
    """N/4 runs of 4 copies, each h += j (none in the first) and two calls."""
    body, acc, r = "", "%r1", 2
    for g in range(n // 4):
        for j in range(4):
            src = acc
            if j:
                body += "\tadd.s32 %%r%d, %s, %d;\n" % (r, acc, j)
                src, r = "%%r%d" % r, r + 1
            a, b, acc, r = "%%r%d" % r, "%%r%d" % (r + 1), "%%r%d" % (r + 2), r + 3
            body += call("f0", src, a) + call("f0", a, b) + "\tadd.s32 %s, %s, %s;\n" % (acc, a, b)
    body += "\tmov.b32 %%r1, %s;\n" % acc
    regs = "\t.reg .b32 %%r<%d>;\n\t.reg .b64 %%rd<4>;\n" % (r + 1)
    write(d, "in.ptx", HEAD + func("f0") + kernel("k", body, regs))
    return ["-arch=sm_80", "--reroll", "--inline=never", "--no-addrprep", "--no-verify", "--no-check-output",
            "in.ptx"]


ROWS = {
    "archive-chain": archive_chain, "archive-empty": archive_empty,
    "inline-always": inline_chain("always"), "inline-auto": inline_chain("auto"),
    "inline-huge": inline_chain("huge"), "inline-never": inline_chain("never"),
    "open-always": open_chain("always"), "open-auto": open_chain("auto"),
    "open-huge": open_chain("huge"), "open-never": open_chain("never"),
    "dwarf-abbrev": dwarf_abbrev, "globals": globals_, "never-written": never_written,
    "calls": calls,
    "vtables": vtables, "indirect-sites": indirect_sites,
    "indirect-kernels": indirect_kernels, "sections": sections, "inputs": inputs,
    "same-shape": same_shape, "same-code": same_code, "merge-chains": merge_chains,
    "param-chain": param_chain, "locals": locals_, "join-chain": join_chain,
    "move-chain": move_chain, "lend-chain": lend_chain, "byvalue-calls": byvalue_calls, "debug-depots": debug_depots,
    "fold-chain": fold_chain, "labels": labels,
    "reroll": reroll_(0), "reroll-any": reroll_(1), "addrprep-calls": reroll_(0, True),
    "reroll-branches": reroll_(0, branches=True), "reroll-steps": reroll_steps, "loop-chain": loop_chain,
    "counted-cycles": counted_cycles,
}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ROWS or not sys.argv[2].isdigit():
        sys.stderr.write(__doc__)
        sys.exit(2)
    d = sys.argv[3]
    os.makedirs(d, exist_ok=True)
    args = ROWS[sys.argv[1]](d, int(sys.argv[2]))
    write(d, "args", "".join(a + "\n" for a in args))


if __name__ == "__main__":
    main()
