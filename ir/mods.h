/* The modifier words of instruction spellings: one row each, in the manner
 * of opcodes.h.  A spelling's words are decoded by these rows once, when it
 * is interned (opcode.c), so code reads fields and never compares words.
 * A user defines the row kinds it wants; the others expand to nothing.
 *
 *   TYPE(NAME, word, bits, flags)  a type: TY_NAME (TF_* flags, ir.h); the
 *                                  declaration words (decls.h) take these too
 *   RND(NAME, word)                a rounding mode: RND_NAME
 *   CMP(NAME, word)                a comparison: CMP_NAME
 *   MOD(name, word, group)         any other word, one bit: MOD_name (MG_*)
 *
 * A MOD word ending in "::" stands for every word it begins (.L1::evict_last).
 * State spaces (.global, .shared::cluster ...) and matrix shapes
 * (.m16n8k16, .m8n8) are decoded by opcode.c itself, .v2/.v4/.v8 by the
 * VEC rows of decls.h; a space's qualifier also sets its MG_SPACE bit.  Types, rounding modes and
 * comparisons keep the interpreter's numbering: it switches on them. */
#ifndef TYPE
#define TYPE(name, word, bits, flags)
#endif
#ifndef RND
#define RND(name, word)
#endif
#ifndef CMP
#define CMP(name, word)
#endif
#ifndef MOD
#define MOD(name, word, group)
#endif

TYPE(PRED, ".pred", 1, 0)
TYPE(B8, ".b8", 8, TF_SIZED | TF_BITS)
TYPE(B16, ".b16", 16, TF_SIZED | TF_BITS)
TYPE(B32, ".b32", 32, TF_SIZED | TF_BITS)
TYPE(B64, ".b64", 64, TF_SIZED | TF_BITS)
TYPE(B128, ".b128", 128, TF_SIZED | TF_BITS)
TYPE(U8, ".u8", 8, TF_SIZED)
TYPE(U16, ".u16", 16, TF_SIZED)
TYPE(U32, ".u32", 32, TF_SIZED)
TYPE(U64, ".u64", 64, TF_SIZED)
TYPE(S8, ".s8", 8, TF_SIZED | TF_SIGNED)
TYPE(S16, ".s16", 16, TF_SIZED | TF_SIGNED)
TYPE(S32, ".s32", 32, TF_SIZED | TF_SIGNED)
TYPE(S64, ".s64", 64, TF_SIZED | TF_SIGNED)
TYPE(F16, ".f16", 16, TF_SIZED | TF_FLOAT)
TYPE(F16X2, ".f16x2", 32, TF_SIZED | TF_PAIR)
TYPE(BF16, ".bf16", 16, TF_SIZED | TF_FLOAT | TF_INSN)
TYPE(BF16X2, ".bf16x2", 32, TF_SIZED | TF_PAIR | TF_INSN)
TYPE(TF32, ".tf32", 32, TF_FLOAT | TF_INSN)
TYPE(F32, ".f32", 32, TF_SIZED | TF_FLOAT)
TYPE(F64, ".f64", 64, TF_SIZED | TF_FLOAT)
TYPE(E4M3, ".e4m3", 8, TF_INSN)
TYPE(E5M2, ".e5m2", 8, TF_INSN)
TYPE(E4M3X2, ".e4m3x2", 16, TF_INSN)
TYPE(E5M2X2, ".e5m2x2", 16, TF_INSN)
TYPE(U16X2, ".u16x2", 32, TF_INSN)
TYPE(S16X2, ".s16x2", 32, TF_INSN | TF_SIGNED)
/* opaque handles: declarations only (decls.h) */
TYPE(TEXREF, ".texref", 64, TF_HANDLE)
TYPE(SAMPLERREF, ".samplerref", 64, TF_HANDLE)
TYPE(SURFREF, ".surfref", 64, TF_HANDLE)

RND(RN, ".rn")
RND(RZ, ".rz")
RND(RM, ".rm")
RND(RP, ".rp")
RND(RNA, ".rna")
RND(RNI, ".rni")
RND(RZI, ".rzi")
RND(RMI, ".rmi")
RND(RPI, ".rpi")
RND(RS, ".rs")

/* In setp and set .lo and .hi compare; elsewhere they are MOD_lo, MOD_hi. */
CMP(EQ, ".eq")
CMP(NE, ".ne")
CMP(LT, ".lt")
CMP(LE, ".le")
CMP(GT, ".gt")
CMP(GE, ".ge")
CMP(LO, ".lo")
CMP(LS, ".ls")
CMP(HI, ".hi")
CMP(HS, ".hs")
CMP(EQU, ".equ")
CMP(NEU, ".neu")
CMP(LTU, ".ltu")
CMP(LEU, ".leu")
CMP(GTU, ".gtu")
CMP(GEU, ".geu")
CMP(NUM, ".num")
CMP(NAN, ".nan")

/* what the instruction computes or which form it takes */
MOD(ftz, ".ftz", MG_FORM)
MOD(sat, ".sat", MG_FORM)
MOD(approx, ".approx", MG_FORM)
MOD(full, ".full", MG_FORM)
MOD(hi, ".hi", MG_FORM)
MOD(lo, ".lo", MG_FORM)
MOD(wide, ".wide", MG_FORM)
MOD(cc, ".cc", MG_FORM)
MOD(uni, ".uni", MG_FORM)
MOD(sync, ".sync", MG_FORM)
MOD(and, ".and", MG_FORM)
MOD(or, ".or", MG_FORM)
MOD(xor, ".xor", MG_FORM)
MOD(add, ".add", MG_FORM)
MOD(min, ".min", MG_FORM)
MOD(max, ".max", MG_FORM)
MOD(inc, ".inc", MG_FORM)
MOD(dec, ".dec", MG_FORM)
MOD(exch, ".exch", MG_FORM)
MOD(cas, ".cas", MG_FORM)
MOD(popc, ".popc", MG_FORM)
MOD(up, ".up", MG_FORM)
MOD(down, ".down", MG_FORM)
MOD(bfly, ".bfly", MG_FORM)
MOD(idx, ".idx", MG_FORM)
MOD(all, ".all", MG_FORM)
MOD(any, ".any", MG_FORM)
MOD(ballot, ".ballot", MG_FORM)
MOD(shiftamt, ".shiftamt", MG_FORM)
MOD(clamp, ".clamp", MG_FORM)
MOD(wrap, ".wrap", MG_FORM)
MOD(l, ".l", MG_FORM)
MOD(r, ".r", MG_FORM)
MOD(NaN, ".NaN", MG_FORM)
MOD(xorsign, ".xorsign", MG_FORM)
MOD(abs, ".abs", MG_FORM)
MOD(arrive, ".arrive", MG_FORM)
MOD(red, ".red", MG_FORM)
MOD(warp, ".warp", MG_FORM)
MOD(f4e, ".f4e", MG_FORM)
MOD(b4e, ".b4e", MG_FORM)
MOD(rc8, ".rc8", MG_FORM)
MOD(ecl, ".ecl", MG_FORM)
MOD(ecr, ".ecr", MG_FORM)
MOD(rc16, ".rc16", MG_FORM)
MOD(to, ".to", MG_FORM)
MOD(relu, ".relu", MG_FORM)
MOD(satfinite, ".satfinite", MG_FORM)
MOD(noftz, ".noftz", MG_FORM)
MOD(cache_hint, ".L2::cache_hint", MG_FORM)  /* takes a policy operand */
MOD(async, ".async", MG_FORM)
MOD(wait_group, ".wait_group", MG_FORM)
MOD(wait_all, ".wait_all", MG_FORM)
MOD(commit_group, ".commit_group", MG_FORM)
MOD(aligned, ".aligned", MG_FORM)
MOD(finite, ".finite", MG_FORM)
MOD(infinite, ".infinite", MG_FORM)
MOD(number, ".number", MG_FORM)
MOD(notanumber, ".notanumber", MG_FORM)
MOD(normal, ".normal", MG_FORM)
MOD(subnormal, ".subnormal", MG_FORM)
MOD(mbarrier, ".mbarrier", MG_FORM)
MOD(noinc, ".noinc", MG_FORM)
MOD(init, ".init", MG_FORM)
MOD(inval, ".inval", MG_FORM)
MOD(arrive_drop, ".arrive_drop", MG_FORM)
MOD(expect_tx, ".expect_tx", MG_FORM)
MOD(test_wait, ".test_wait", MG_FORM)
MOD(try_wait, ".try_wait", MG_FORM)
MOD(parity, ".parity", MG_FORM)
MOD(wait, ".wait", MG_FORM)
MOD(load, ".load", MG_FORM)
MOD(store, ".store", MG_FORM)
MOD(mma, ".mma", MG_FORM)
MOD(a, ".a", MG_FORM)
MOD(b, ".b", MG_FORM)
MOD(c, ".c", MG_FORM)
MOD(d, ".d", MG_FORM)
MOD(row, ".row", MG_FORM)
MOD(col, ".col", MG_FORM)
MOD(x1, ".x1", MG_FORM)
MOD(x2, ".x2", MG_FORM)
MOD(x4, ".x4", MG_FORM)
MOD(trans, ".trans", MG_FORM)
MOD(po, ".po", MG_FORM)
MOD(shr7, ".shr7", MG_FORM)
MOD(shr15, ".shr15", MG_FORM)

/* memory order */
MOD(volatile, ".volatile", MG_ORDER)
MOD(relaxed, ".relaxed", MG_ORDER)
MOD(acquire, ".acquire", MG_ORDER)
MOD(release, ".release", MG_ORDER)
MOD(acq_rel, ".acq_rel", MG_ORDER)
MOD(sc, ".sc", MG_ORDER)
MOD(weak, ".weak", MG_ORDER)
MOD(mmio, ".mmio", MG_ORDER)

/* scope */
MOD(cta, ".cta", MG_SCOPE)
MOD(cluster, ".cluster", MG_SCOPE)
MOD(gpu, ".gpu", MG_SCOPE)
MOD(sys, ".sys", MG_SCOPE)
MOD(gl, ".gl", MG_SCOPE)

/* cache operators and eviction hints */
MOD(nc, ".nc", MG_CACHE)
MOD(ca, ".ca", MG_CACHE)
MOD(cg, ".cg", MG_CACHE)
MOD(cs, ".cs", MG_CACHE)
MOD(lu, ".lu", MG_CACHE)
MOD(cv, ".cv", MG_CACHE)
MOD(wb, ".wb", MG_CACHE)
MOD(wt, ".wt", MG_CACHE)
MOD(unified, ".unified", MG_CACHE)
MOD(level, ".level", MG_CACHE)
MOD(L1, ".L1::", MG_CACHE)
MOD(L2, ".L2::", MG_CACHE)

/* a state space's qualifier */
MOD(shared_cta, ".shared::cta", MG_SPACE)
MOD(shared_cluster, ".shared::cluster", MG_SPACE)
MOD(param_entry, ".param::entry", MG_SPACE)
MOD(param_func, ".param::func", MG_SPACE)

#undef TYPE
#undef RND
#undef CMP
#undef MOD
