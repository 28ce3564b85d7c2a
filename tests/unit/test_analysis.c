/* Analyses: operand roles, CFG and dominators, liveness. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"

static Func *first_func(Module *m)
{
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body)
			return s->func;
	ck_abort_msg("no function");
	return NULL;
}

typedef struct Seen {
	char text[512];
} Seen;

static void record(void *ctx, const char *name, OpRole role)
{
	Seen *s = ctx;
	static const char *roles[] = {"use", "def", "maydef"};
	size_t n = strlen(s->text);
	snprintf(s->text + n, sizeof s->text - n, "%s%s:%s", n ? " " : "", roles[role], name);
}

static const char *roles_of(const char *ins)
{
	static Seen seen;
	char src[1024];
	snprintf(src, sizeof src, HEADER ".entry k()\n{\n%s\n}\n", ins);
	Module *m = parse_ok(src);
	seen.text[0] = 0;
	ins_names(&first_body_stmt(m)->ins, record, &seen);
	mod_free(m);
	return seen.text;
}

START_TEST(operand_roles)
{
	ck_assert_str_eq(roles_of("add.s32 %r1, %r2, 4;"), "def:%r1 use:%r2");
	ck_assert_str_eq(roles_of("@!%p1 st.global.v2.u32 [%rd1+8], {%r1, %r2};"),
		"use:%p1 use:%rd1 use:%r1 use:%r2");
	ck_assert_str_eq(roles_of("ld.global.v2.u32 {%r1, _}, [%rd1];"), "def:%r1 use:%rd1");
	ck_assert_str_eq(roles_of("setp.lt.and.s32 %p1|%p2, %r1, %r2, %p3;"),
		"def:%p1 def:%p2 use:%r1 use:%r2 use:%p3");
	ck_assert_str_eq(roles_of("call.uni (r0), f, (a0, a1);"), "def:r0 use:f use:a0 use:a1");
	ck_assert_str_eq(roles_of("call f, (a0);"), "use:f use:a0");
	ck_assert_str_eq(roles_of("bar.sync %r1;"), "use:%r1");
	ck_assert_str_eq(roles_of("bar.red.popc.u32 %r1, 0, %p1;"), "def:%r1 use:%p1");
	ck_assert_str_eq(roles_of("atom.global.add.u32 %r1, [%rd1], 1;"), "def:%r1 use:%rd1");
	ck_assert_str_eq(roles_of("mbarrier.init.shared.b64 [%rd1], 32;"), "use:%rd1");
	ck_assert_str_eq(roles_of("mbarrier.arrive.shared.b64 %rd2, [%rd1];"), "def:%rd2 use:%rd1");
	ck_assert_str_eq(roles_of("tensormap.replace.tile.global_address.global.b1024.b64 [%rd1], %rd2;"),
		"use:%rd1 use:%rd2");
	ck_assert_str_eq(roles_of("multimem.ld_reduce.relaxed.sys.global.add.u32 %r1, [%rd1];"),
		"maydef:%r1 use:%rd1");
}
END_TEST

/* Each operand's role, from the opcode row or the form: "d u r" for
 * ld d, [a], c (d defined, u read, r/w/x an address read, written, both;
 * p an address not accessed). */
static const char *operands_of(const char *ins)
{
	static char text[64];
	static const char letters[] = {
		[OPND_USE] = 'u', [OPND_DEF] = 'd', [OPND_MAYDEF] = 'm', [OPND_LOAD] = 'r',
		[OPND_STORE] = 'w', [OPND_UPDATE] = 'x', [OPND_NAMED] = 'p',
	};
	char src[1024];
	snprintf(src, sizeof src, HEADER ".entry k()\n{\n%s\n}\n", ins);
	Module *m = parse_ok(src);
	const Ins *in = &first_body_stmt(m)->ins;
	size_t n = 0;
	for (uint32_t k = 0; k < in->nops && n + 1 < sizeof text; k++)
		text[n++] = letters[ins_operand(in, k)];
	text[n] = 0;
	mod_free(m);
	return text;
}

START_TEST(operand_kinds)
{
	ck_assert_str_eq(operands_of("ld.global.u32 %r1, [%rd1];"), "dr");
	ck_assert_str_eq(operands_of("ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd2;"), "dru");
	ck_assert_str_eq(operands_of("st.local.v2.u32 [%rd1+8], {%r1, %r2};"), "wu");
	ck_assert_str_eq(operands_of("atom.global.cas.b32 %r1, [%rd1], %r2, %r3;"), "dxuu");
	ck_assert_str_eq(operands_of("red.global.add.u32 [%rd1], 1;"), "xu");
	ck_assert_str_eq(operands_of("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 "
		"[%rd1], %r1, [%rd2];"), "wux");
	ck_assert_str_eq(operands_of("cvta.local.u64 %rd1, %rd2;"), "du");
	ck_assert_str_eq(operands_of("prefetch.global.L2 [%rd1];"), "p");
	ck_assert_str_eq(operands_of("txq.width.b32 %r1, [%rd1];"), "dp");
	ck_assert_str_eq(operands_of("call.uni (r0), f, (a0);"), "duu");
	ck_assert_str_eq(operands_of("bar.red.popc.u32 %r1, 0, %p1;"), "duu");
	ck_assert_str_eq(operands_of("bar.sync 0;"), "u");
	ck_assert_str_eq(operands_of("wmma.load.a.sync.aligned.row.m16n16k16.f16 "
		"{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], 16;"), "dru");
	ck_assert_str_eq(operands_of("wmma.store.d.sync.aligned.row.m16n16k16.f32 [%rd1], "
		"{%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, 16;"), "wuu");
	ck_assert_str_eq(operands_of("mbarrier.arrive.shared.b64 %rd2, [%rd1];"), "dx");
	ck_assert_str_eq(operands_of("cp.async.ca.shared.global [%rd1], [%rd2], 16;"), "xxu");
	ck_assert_str_eq(operands_of("cp.async.wait_group 0;"), "u");
	ck_assert_str_eq(operands_of("multimem.ld_reduce.relaxed.sys.global.add.u32 %r1, [%rd1];"),
		"mx");
}
END_TEST

/* What a spelling's modifiers say is decoded once, when it is interned. */
START_TEST(spellings_are_decoded)
{
	const Spelling *sp = spelling_get("ld.global.nc.L1::evict_last.v4.f32", 34);
	ck_assert_int_eq(sp->code, O_ld);
	ck_assert_int_eq(sp->space, SPACE_GLOBAL);
	ck_assert_int_eq(sp->vec, 4);
	ck_assert_str_eq(sp->type, ".f32");
	ck_assert_int_eq(sp->type_bytes, 4);
	sp = spelling_get("cvt.rn.f16.f32", 14);
	ck_assert_int_eq(sp->code, O_cvt);
	ck_assert_int_eq(sp->space, SPACE_NONE);
	ck_assert_str_eq(sp->type, ".f32");  /* the last: cvt's source */
	sp = spelling_get("st.shared::cluster.b64", 22);
	ck_assert_int_eq(sp->space, SPACE_SHARED);
	ck_assert_int_eq(sp->vec, 1);
	sp = spelling_get("frobnicate.u32", 14);
	ck_assert_int_eq(sp->code, O_UNKNOWN);
	ck_assert_ptr_null(sp->op);
	ck_assert_int_eq(space_of(".const"), SPACE_CONST);
	ck_assert_int_eq(space_of(".u32"), SPACE_NONE);
}
END_TEST

static uint32_t slowpath(const char *text)
{
	return spelling_get(text, strlen(text))->slowpath;
}

/* Which instructions ptxas compiles to a subroutine of its own, and
 * which share one (opcode.c's list, measured with ptxas 13). */
START_TEST(spellings_slow_paths)
{
	const char *calls[] = {"div.rn.f32", "div.rn.ftz.f32", "div.rz.f64", "rcp.rn.f64",
		"rcp.rm.f32", "sqrt.rn.f32", "sqrt.rp.f64", "rsqrt.approx.f64", "div.s64",
		"rem.u64", "div.u16", "rem.s16"};
	const char *inline_[] = {"div.full.f32", "div.approx.ftz.f32", "rcp.approx.ftz.f64",
		"sqrt.approx.f32", "rsqrt.approx.ftz.f64", "rsqrt.approx.f32", "div.s32",
		"rem.u32", "mul.lo.s64", "cvt.rn.f32.f64", "add.rn.f64", "fma.rn.f32"};
	for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
		ck_assert_msg(slowpath(calls[i]) != 0, "%s", calls[i]);
	for (size_t i = 0; i < sizeof inline_ / sizeof *inline_; i++)
		ck_assert_msg(slowpath(inline_[i]) == 0, "%s", inline_[i]);
	ck_assert_uint_ne(slowpath("div.rn.f32"), slowpath("div.rn.ftz.f32"));
	ck_assert_uint_ne(slowpath("div.s64"), slowpath("rem.s64"));
	ck_assert_uint_ne(slowpath("div.s64"), slowpath("div.u64"));
	ck_assert_uint_ne(slowpath("div.rn.f64"), slowpath("rcp.rn.f64"));
	ck_assert_uint_eq(slowpath("div.rn.f32"), slowpath("div.f32.rn"));
}
END_TEST

/* Every symbol once, its linkage, space, size and alignment, and how
 * the module uses it, by statement. */
START_TEST(symbol_table)
{
	Module *m = parse_ok(HEADER
		".extern .func (.param .b32 r) g(.param .b32 x);\n"
		".func (.param .b32 r) g(.param .b32 x)\n{\nret;\n}\n"
		".func h()\n{\nret;\n}\n"
		".visible .global .align 8 .u64 tbl[2] = {h, g};\n"
		".const .v4 .f32 c[2];\n"
		".extern .global .b8 ext[];\n"
		".global .u32 counter;\n"
		".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n"
		".local .u32 counter2;\n"
		"ld.const.f32 %r1, [c+4];\nst.global.u32 [counter], %r1;\n"
		"atom.global.add.u32 %r2, [counter], 1;\nmov.u64 %rd1, ext;\n"
		"{\n.param .b32 a;\n.param .b32 r;\nst.param.b32 [a], %r1;\n"
		"call (r), g, (a);\n}\nret;\n}\n");
	SymTab *t = symtab_build(m);
	ck_assert_uint_eq(symtab_count(t), 7);
	ck_assert_str_eq(symtab_at(t, 0)->name, "g");
	Symbol *g = symtab_find(t, intern_cstr("g"));
	ck_assert_int_eq(g->kind, SYM_FUNC);
	ck_assert_ptr_nonnull(g->def);
	ck_assert_ptr_ne(g->def, g->decl);   /* declared first, defined after */
	ck_assert_int_eq(g->linkage, LINK_INTERNAL);
	ck_assert_uint_eq(g->how, USE_CALL | USE_ADDR);  /* called by k, in tbl's initializer */
	ck_assert_uint_eq(g->nuses, 2);
	Symbol *h = symtab_find(t, intern_cstr("h"));
	ck_assert_uint_eq(h->how, USE_ADDR);
	ck_assert_ptr_null(h->uses[0].in);   /* from a module-scope initializer */
	Symbol *tbl = symtab_find(t, intern_cstr("tbl"));
	ck_assert_int_eq(tbl->linkage, LINK_VISIBLE);
	ck_assert_int_eq(tbl->space, SPACE_GLOBAL);
	ck_assert_int_eq(tbl->size, 16);
	ck_assert_int_eq(tbl->align, 8);
	ck_assert_uint_eq(tbl->nuses, 0);
	Symbol *c = symtab_find(t, intern_cstr("c"));
	ck_assert_int_eq(c->size, 32);
	ck_assert_int_eq(c->align, 16);      /* a .v4 .f32 element */
	ck_assert_uint_eq(c->how, USE_READ);
	Symbol *ctr = symtab_find(t, intern_cstr("counter"));
	ck_assert_uint_eq(ctr->how, USE_READ | USE_WRITE);
	ck_assert_uint_eq(ctr->nuses, 2);
	Symbol *ext = symtab_find(t, intern_cstr("ext"));
	ck_assert_int_eq(ext->linkage, LINK_EXTERN);
	ck_assert_ptr_null(ext->def);
	ck_assert_int_eq(ext->size, -1);
	ck_assert_uint_eq(ext->how, USE_ADDR);
	ck_assert_ptr_null(symtab_find(t, intern_cstr("counter2")));  /* function scope */
	ck_assert_int_eq(symtab_find(t, intern_cstr("k"))->linkage, LINK_VISIBLE);
	symtab_free(t);
	mod_free(m);
}
END_TEST

static const char *depot_src = HEADER
	".func use(.param .b64 p)\n{\nret;\n}\n"
	".entry k(.param .u64 out, .param .u32 n)\n{\n"
	".local .align 16 .b8 __local_depot0[64];\n.reg .b64 %SP;\n.reg .b64 %SPL;\n"
	".reg .b32 %r<9>;\n.reg .b64 %rd<12>;\n"
	"mov.u64 %SPL, __local_depot0;\ncvta.local.u64 %SP, %SPL;\n"
	"ld.param.u32 %r1, [n];\nld.param.u64 %rd9, [out];\n"
	"add.u64 %rd1, %SPL, 0;\nst.local.v4.u32 [%rd1], {%r1, %r1, %r1, %r1};\n"  /* 1: 16 bytes at 0 */
	"add.u64 %rd2, %SPL, 16;\nst.local.u32 [%rd2+4], %r1;\n"                  /* 2: 4 at 20 */
	"mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.local.u32 %r2, [%rd4];\n"  /* 3: 16 + index */
	"add.u64 %rd5, %SP, 32;\nst.u32 [%rd5], %r2;\n"                            /* 4: generic at 32 */
	"ld.local.u32 %r3, [%rd9];\n"                                                /* 5: unknown .local */
	"{\n.local .align 8 .b8 named[8];\nmov.u64 %rd6, named;\nst.local.u64 [%rd6], %rd9;\n}\n" /* 6 */
	"add.u64 %rd7, %SP, 48;\n"
	"{\n.param .b64 param0;\nst.param.b64 [param0], %rd7;\ncall use, (param0);\n}\n"
	"ret;\n}\n";

/* Which .local object, offset and width each access touches; escapes. */
START_TEST(local_memory_objects)
{
	Module *m = parse_ok(depot_src);
	const Func *k = m->items.tail->func;
	MemObjs *mo = memobjs_build(k);
	ck_assert_uint_eq(mo->nobjs, 2);
	ck_assert_str_eq(mo->objs[0].name, "__local_depot0");
	ck_assert_int_eq(mo->objs[0].size, 64);
	ck_assert_int_eq(mo->objs[0].align, 16);
	ck_assert_int_eq(mo->objs[0].escapes, 1);   /* %SP+48 passed to use() */
	ck_assert_str_eq(mo->objs[1].name, "named");
	ck_assert_int_eq(mo->objs[1].escapes, 0);
	ck_assert_uint_eq(mo->nacc, 7);
	const MemAccess *a = mo->acc;
	ck_assert(a[0].obj == 0 && a[0].how == USE_ADDR);     /* cvta.local */
	ck_assert(a[1].obj == 0 && a[1].off == 0 && a[1].exact && a[1].width == 16 && a[1].how == USE_WRITE);
	ck_assert(a[2].obj == 0 && a[2].off == 20 && a[2].exact && a[2].width == 4);
	ck_assert(a[3].obj == 0 && a[3].off == 16 && !a[3].exact && a[3].how == USE_READ);
	ck_assert(a[4].obj == 0 && a[4].off == 32 && a[4].exact && a[4].width == 4);  /* generic st */
	ck_assert(a[5].obj == -1 && !a[5].exact);            /* ld.local [%rd9]: unknown */
	ck_assert(a[6].obj == 1 && a[6].off == 0 && a[6].width == 8);
	memobjs_free(mo);
	mod_free(m);
}
END_TEST

/* Which accesses registers could take the place of (memacc_why_memory),
 * and which values move through a register of the access's width
 * (memacc_value_fits), for depot_src's accesses and one more kernel. */
START_TEST(local_access_forms)
{
	Module *m = parse_ok(HEADER ".entry k(.param .u64 out)\n{\n"
		".local .align 8 .b8 __local_depot0[32];\n.reg .b64 %SP;\n.reg .b64 %SPL;\n"
		".reg .b16 %rs<2>;\n.reg .f32 %f<2>;\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n"
		"mov.u64 %SPL, __local_depot0;\ncvta.local.u64 %SP, %SPL;\n"
		"st.local.u32 [%SPL], %r1;\n"              /* 0: plain, 4 bytes */
		"ld.local.u16 %r2, [%SPL+4];\n"            /* 1: plain, into a wider register */
		"ld.local.u8 %rs1, [%SPL+6];\n"            /* 2: 1 byte, plain too */
		"ld.volatile.u32 %r2, [%SP+8];\n"          /* 3: volatile */
		"st.local.f32 [%SPL+12], 0f3F800000;\n"   /* 4: a constant */
		"atom.local.add.u32 %r2, [%SPL+16], 1;\n"  /* 5: no plain ld or st */
		"ld.local.u32 _, [%SPL+20];\n"              /* 6: a sink */
		"ret;\n}\n");
	const Func *k = m->items.tail->func;
	MemObjs *mo = memobjs_build(k);
	Names regs = {0};
	names_of_body(&regs, &k->body);
	ck_assert_uint_eq(mo->nacc, 8);   /* the cvta, then the seven */
	const MemAccess *a = mo->acc + 1;
	ck_assert_ptr_null(memacc_why_memory(&a[0]));
	ck_assert_ptr_null(memacc_why_memory(&a[1]));
	ck_assert_ptr_null(memacc_why_memory(&a[2]));   /* a byte: its register's low bits */
	ck_assert_str_eq(memacc_why_memory(&a[3]), "a volatile or ordered access");
	ck_assert_ptr_null(memacc_why_memory(&a[4]));
	ck_assert_str_eq(memacc_why_memory(&a[5]), "an access other than a plain load or store");
	ck_assert_ptr_null(memacc_why_memory(&a[6]));
	const Ins *st = &a[0].at->ins, *ld16 = &a[1].at->ins, *stk = &a[4].at->ins, *sink = &a[6].at->ins;
	ck_assert(memacc_value_fits(&regs, st->ops[1], 4, 1));     /* %r1: .b32 */
	ck_assert(!memacc_value_fits(&regs, st->ops[1], 2, 1));
	ck_assert(!memacc_value_fits(&regs, ld16->ops[0], 2, 0));  /* %r2 is 4 bytes, not 2 */
	ck_assert(memacc_value_fits(&regs, stk->ops[1], 4, 1));    /* a stored constant */
	ck_assert(!memacc_value_fits(&regs, stk->ops[1], 4, 0));   /* but no load's */
	ck_assert(memacc_value_fits(&regs, sink->ops[0], 4, 0));   /* '_' takes a load */
	ck_assert(!memacc_value_fits(&regs, sink->ops[0], 4, 1));
	names_free(&regs);
	memobjs_free(mo);
	mod_free(m);
}
END_TEST

/* Where each depot address is anchored (the add that offsets the depot's
 * start, or the access's own [root+C]), its base, whether it is generic,
 * and at which offset an address escapes. */
START_TEST(local_anchors_and_bases)
{
	Module *m = parse_ok(depot_src);
	MemObjs *mo = memobjs_build(m->items.tail->func);
	const MemAccess *a = mo->acc;
	ck_assert_int_eq(a[0].anchor, ANCHOR_NONE);          /* cvta.local of the root */
	ck_assert(a[0].generic);
	const MemAnchor *an = &mo->anchors[a[1].anchor];     /* add.u64 %rd1, %SPL, 0 */
	ck_assert(an->op == MEM_ARITH && an->off == 0 && !an->fixed);
	ck_assert_int_eq(an->at->ins.sp->code, O_add);
	an = &mo->anchors[a[2].anchor];                      /* add.u64 %rd2, %SPL, 16 */
	ck_assert(an->off == 16 && a[2].base == 20 && a[2].base_known);
	ck_assert_int_eq(a[3].anchor, a[2].anchor);          /* [%rd2 + index] */
	ck_assert(a[3].base == 16 && a[3].base_known && !a[3].generic);
	ck_assert(a[4].generic && mo->anchors[a[4].anchor].off == 32);
	int esc48 = 0;
	for (uint32_t i = 0; i < mo->nesc; i++)
		esc48 |= mo->esc[i].obj == 0 && mo->esc[i].base == 48 && mo->esc[i].base_known;
	ck_assert(esc48);
	int cvta_root = 0, spl_root = 0;
	for (uint32_t i = 0; i < mo->ndefs; i++) {
		const MemAddrDef *d = &mo->defs[i];
		cvta_root |= d->root && d->generic && d->at->ins.sp->code == O_cvta;
		spl_root |= d->root && !d->generic && d->at->ins.sp->code == O_mov;
	}
	ck_assert(cvta_root && spl_root);
	memobjs_free(mo);
	mod_free(m);
}
END_TEST

/* [root] and [root+C] anchor at the access itself; a run-time amount
 * added to the root is a fixed anchor; a pointer stepped around a loop, or
 * merged from two offsets, has no known base. */
START_TEST(local_anchor_forms)
{
	Module *m = parse_ok(HEADER ".entry k(.param .u32 n)\n{\n"
		".local .align 4 .b8 __local_depot0[64];\n.reg .b64 %SPL;\n"
		".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n"
		"mov.u64 %SPL, __local_depot0;\nld.param.u32 %r1, [n];\n"
		"st.local.u32 [%SPL+8], %r1;\n"                            /* 0: [root+8] */
		"mul.wide.u32 %rd1, %r1, 4;\nadd.s64 %rd2, %SPL, %rd1;\n"
		"ld.local.u32 %r2, [%rd2];\n"                             /* 1: fixed */
		"add.u64 %rd3, %SPL, 16;\nL:\nst.local.u32 [%rd3], %r1;\n"  /* 2: stepped */
		"add.s64 %rd3, %rd3, 4;\nsetp.lt.u32 %p1, %r2, %r1;\n@%p1 bra L;\n"
		"add.u64 %rd4, %SPL, 32;\n@%p1 add.u64 %rd4, %SPL, 40;\n"
		"add.u64 %rd5, %SPL, 32;\n@%p1 bra M;\nadd.u64 %rd5, %SPL, 48;\nM:\n"
		"ld.local.u32 %r3, [%rd5];\n"                             /* 3: merged */
		"ret;\n}\n");
	MemObjs *mo = memobjs_build(m->items.tail->func);
	ck_assert_uint_eq(mo->nacc, 4);
	const MemAccess *a = mo->acc;
	const MemAnchor *an = &mo->anchors[a[0].anchor];
	ck_assert(an->op == 0 && an->off == 8 && !an->fixed && a[0].exact && a[0].off == 8);
	an = &mo->anchors[a[1].anchor];
	ck_assert(an->fixed && an->op == MEM_ARITH && a[1].base == 0 && a[1].base_known);
	ck_assert(!a[2].exact && !a[2].base_known);
	ck_assert(!a[3].base_known && a[3].anchor == ANCHOR_MANY);
	memobjs_free(mo);
	mod_free(m);
}
END_TEST

/* A pointer stepped through an array in a loop stays that array's, at an
 * inexact offset; merged with another object's address, it escapes both. */
START_TEST(local_pointers_in_loops)
{
	Module *m = parse_ok(HEADER ".entry k(.param .u32 n)\n{\n"
		".local .align 4 .b8 a[64];\n.local .align 4 .b8 b[64];\n"
		".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<6>;\n"
		"ld.param.u32 %r1, [n];\nmov.u64 %rd1, a;\nadd.s64 %rd2, %rd1, -4;\nmov.u32 %r2, 0;\n"
		"L:\nst.local.u32 [%rd2+4], %r2;\nadd.s64 %rd2, %rd2, 4;\nadd.s32 %r2, %r2, 1;\n"
		"setp.lt.u32 %p1, %r2, %r1;\n@%p1 bra L;\n"
		"mov.u64 %rd3, b;\n@%p1 mov.u64 %rd3, a;\nld.local.u32 %r3, [%rd3];\nret;\n}\n");
	MemObjs *mo = memobjs_build(m->items.tail->func);
	ck_assert_uint_eq(mo->nobjs, 2);
	ck_assert_uint_eq(mo->nacc, 2);
	ck_assert(mo->acc[0].obj == 0 && !mo->acc[0].exact && mo->acc[0].how == USE_WRITE);
	ck_assert_int_eq(mo->acc[1].obj, -1);   /* a or b */
	ck_assert(mo->objs[0].escapes && mo->objs[1].escapes);
	memobjs_free(mo);
	mod_free(m);
}
END_TEST

/* A pointer stepped around a counted one-block loop (ir/memobj.c:
 * stepped) is bounded: from a[4] by 4 for 6 trips it stores at 16 .. 36
 * (off 16, spread 20) and the add's value, read after the loop, is
 * 20 .. 40; down from 64 by -8 for 3 trips, [p+-8] stores at 40 .. 56.
 * Not where the loop is entered again with the pointer where it left
 * off (an outer loop around it): no base, as before. */
START_TEST(local_stepped_bounds)
{
	Module *m = parse_ok(HEADER ".entry k(.param .u32 n)\n{\n"
		".local .align 4 .b8 a[64];\n"
		".reg .pred %p<3>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
		"ld.param.u32 %r1, [n];\nmov.u64 %rd1, a;\nadd.s64 %rd2, %rd1, 16;\nmov.u32 %r2, 0;\n"
		"L:\nst.local.u32 [%rd2], %r2;\nadd.s64 %rd2, %rd2, 4;\nadd.s32 %r2, %r2, 1;\n"
		"setp.ne.u32 %p1, %r2, 6;\n@%p1 bra L;\n"
		"ld.local.u32 %r3, [%rd2];\n"
		"add.s64 %rd3, %rd1, 64;\nmov.u32 %r4, 3;\n"
		"M:\nst.local.u32 [%rd3+-8], %r4;\nsub.s64 %rd3, %rd3, 8;\nadd.s32 %r4, %r4, -1;\n"
		"setp.ne.u32 %p1, %r4, 0;\n@%p1 bra M;\n"
		"add.s64 %rd4, %rd1, 0;\nmov.u32 %r6, 0;\n"
		"O:\nmov.u32 %r5, 0;\n"
		"I:\nst.local.u32 [%rd4], %r5;\nadd.s64 %rd4, %rd4, 4;\nadd.s32 %r5, %r5, 1;\n"
		"setp.ne.u32 %p1, %r5, 2;\n@%p1 bra I;\n"
		"add.s32 %r6, %r6, 1;\nsetp.ne.u32 %p2, %r6, 2;\n@%p2 bra O;\n"
		"ret;\n}\n");
	MemObjs *mo = memobjs_build(m->items.tail->func);
	ck_assert_uint_eq(mo->nacc, 4);
	const MemAccess *x = mo->acc;
	ck_assert(!x[0].exact && x[0].bounded && x[0].base_known && x[0].off == 16 && x[0].spread == 20);
	ck_assert(!x[1].exact && x[1].bounded && x[1].off == 20 && x[1].spread == 20);
	ck_assert(x[2].bounded && x[2].off == 40 && x[2].spread == 16 && x[2].width == 4);
	ck_assert(!x[3].bounded && !x[3].base_known);
	ck_assert(!mo->objs[0].escapes);
	memobjs_free(mo);
	mod_free(m);
}
END_TEST

/* A value carried around a loop and computed there by other arithmetic
 * than add (mad), reaching the loop's exit beside its value from before:
 * no address, so the index it makes is an index into a, not an unknown
 * pointer (the mad, evaluated while the add before it is, sees that
 * add's value as the loop's own, and stays neutral where they merge). */
START_TEST(local_index_carried_by_mad)
{
	Module *m = parse_ok(HEADER ".entry k(.param .u32 n)\n{\n"
		".local .align 4 .b8 a[64];\n"
		".reg .pred %p<3>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
		"ld.param.u32 %r1, [n];\nmov.u32 %r2, 0;\nmov.u32 %r3, 7;\n"
		"setp.eq.u32 %p2, %r1, 0;\n@%p2 bra E;\n"
		"L:\nadd.s32 %r4, %r2, %r3;\nmad.lo.s32 %r3, %r4, 23, %r1;\nadd.s32 %r2, %r2, 1;\n"
		"setp.lt.u32 %p1, %r2, %r1;\n@%p1 bra L;\n"
		"E:\nand.b32 %r5, %r3, 15;\nmul.wide.u32 %rd1, %r5, 4;\nmov.u64 %rd2, a;\n"
		"add.s64 %rd3, %rd2, %rd1;\nld.local.u32 %r6, [%rd3];\nret;\n}\n");
	MemObjs *mo = memobjs_build(m->items.tail->func);
	ck_assert_uint_eq(mo->nacc, 1);
	ck_assert(mo->acc[0].obj == 0 && !mo->acc[0].exact && mo->acc[0].base_known && mo->acc[0].base == 0);
	ck_assert(!mo->objs[0].escapes);
	memobjs_free(mo);
	mod_free(m);
}
END_TEST

/* Which run-time indices come from data (MemAccess.data): a loaded value
 * (bins[px >> 4]), a special register, a parameter, a counter that adds
 * one; not a loop's counter or a pointer stepped by constants, which
 * unrolling makes constants.  memobjs_stored_data: a store at such an
 * index, per object. */
START_TEST(local_data_indices)
{
	Module *m = parse_ok(HEADER ".entry k(.param .u64 px, .param .u32 n)\n{\n"
		".local .align 4 .b8 a[64];\n.local .align 4 .b8 b[64];\n"
		".reg .pred %p<3>;\n.reg .b16 %rs<3>;\n.reg .b32 %r<9>;\n.reg .b64 %rd<16>;\n"
		"ld.param.u64 %rd1, [px];\nld.param.u32 %r1, [n];\nmov.u64 %rd2, a;\nmov.u64 %rd3, b;\n"
		"mov.u32 %r2, 0;\nmov.u64 %rd4, %rd3;\n"
		"L:\nmul.wide.u32 %rd5, %r2, 4;\nadd.s64 %rd6, %rd2, %rd5;\n"
		"st.local.u32 [%rd6], %r2;\n"                                 /* 0: a[i] */
		"st.local.u32 [%rd4], %r2;\nadd.s64 %rd4, %rd4, 4;\n"         /* 1: *q++ */
		"add.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 16;\n@%p1 bra L;\n"
		"ld.global.u8 %rs1, [%rd1];\nshr.u16 %rs2, %rs1, 4;\ncvt.u32.u16 %r3, %rs2;\n"
		"mul.wide.u32 %rd7, %r3, 4;\nadd.s64 %rd8, %rd3, %rd7;\n"
		"ld.local.u32 %r4, [%rd8];\n"                                 /* 2: b[px >> 4] read */
		"st.local.u32 [%rd8], %r4;\n"                                 /* 3: written */
		"mov.u32 %r5, %tid.x;\nmul.wide.u32 %rd9, %r5, 4;\nadd.s64 %rd10, %rd2, %rd9;\n"
		"ld.local.u32 %r6, [%rd10];\n"                                /* 4: a[tid] */
		"mul.wide.u32 %rd11, %r1, 4;\nadd.s64 %rd12, %rd2, %rd11;\n"
		"ld.local.u32 %r7, [%rd12];\n"                                /* 5: a[n] */
		"mov.u32 %r8, 0;\nM:\nmul.wide.u32 %rd13, %r8, 4;\nadd.s64 %rd14, %rd2, %rd13;\n"
		"ld.local.u32 %r6, [%rd14];\n"                                /* 6: a[j], j += a[j] */
		"add.s32 %r8, %r8, %r6;\nsetp.lt.u32 %p2, %r8, 16;\n@%p2 bra M;\n"
		"st.local.u32 [%rd2+4], %r7;\n"                               /* 7: a[1] */
		"ret;\n}\n");
	MemObjs *mo = memobjs_build(m->items.tail->func);
	ck_assert_uint_eq(mo->nacc, 8);
	const MemAccess *a = mo->acc;
	ck_assert(a[0].obj == 0 && !a[0].exact && !a[0].data);
	ck_assert(a[1].obj == 1 && !a[1].exact && !a[1].data);
	ck_assert(a[2].obj == 1 && a[2].data && a[2].how == USE_READ);
	ck_assert(a[3].obj == 1 && a[3].data && a[3].how == USE_WRITE);
	ck_assert(a[4].obj == 0 && a[4].data);
	ck_assert(a[5].obj == 0 && a[5].data);
	ck_assert(a[6].obj == 0 && a[6].data);
	ck_assert(a[7].obj == 0 && a[7].exact && !a[7].data);
	ck_assert(!memobjs_stored_data(mo, 0));   /* a: read at data indices, stored at i and 1 */
	ck_assert(memobjs_stored_data(mo, 1));
	memobjs_free(mo);
	mod_free(m);
}
END_TEST

/* An address that is one of several exact places (a selp, or a phi of
 * movs) is followed as those places: an access through it lists each
 * (MemAccess.cand), the offset it touches and the anchor that formed it;
 * neither object escapes.  Indexed, or stored, it is as before: no
 * places, and stored, each place escapes. */
START_TEST(local_addresses_of_several_places)
{
	Module *m = parse_ok(HEADER
		".global .align 8 .u64 g;\n"
		".entry k(.param .u32 n)\n{\n"
		".local .align 8 .b8 __local_depot0[32];\n"
		".reg .b64 %SPL;\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<10>;\n"
		"mov.u64 %SPL, __local_depot0;\nld.param.u32 %r1, [n];\n"
		"add.u64 %rd1, %SPL, 0;\nadd.u64 %rd2, %SPL, 16;\nsetp.lt.u32 %p1, %r1, 5;\n"
		"selp.b64 %rd3, %rd1, %rd2, %p1;\n"
		"ld.local.u32 %r2, [%rd3+4];\n"                              /* 0: 4 or 20 */
		"mov.u64 %rd4, %rd1;\n@%p1 bra L;\nadd.u64 %rd4, %rd2, 8;\nL:\n"
		"st.local.u32 [%rd4], %r2;\n"                                 /* 1: 0 or 24 */
		"mul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd3, %rd5;\n"
		"ld.local.u32 %r3, [%rd6];\n"                                 /* 2: indexed */
		"st.global.u64 [g], %rd4;\n"                                  /* both escape */
		"ret;\n}\n");
	MemObjs *mo = memobjs_build(m->items.tail->func);
	ck_assert_uint_eq(mo->nacc, 3);
	const MemAccess *a = mo->acc;
	ck_assert(a[0].obj == 0 && !a[0].exact && a[0].anchor == ANCHOR_MANY && a[0].ncand == 2);
	const MemCand *c = &mo->cands[a[0].cand];
	ck_assert(c[0].off == 4 && c[1].off == 20 && c[0].anchor != c[1].anchor);
	ck_assert(mo->anchors[c[0].anchor].off == 0 && mo->anchors[c[1].anchor].off == 16);
	ck_assert(a[1].ncand == 2 && a[1].how == USE_WRITE);
	c = &mo->cands[a[1].cand];
	ck_assert(c[0].off + c[1].off == 24 && (c[0].off == 0 || c[1].off == 0));
	ck_assert(a[2].obj == 0 && a[2].ncand == 0 && !a[2].base_known);
	ck_assert_int_eq(mo->objs[0].escapes, 1);
	uint32_t at0 = 0, at24 = 0;
	for (uint32_t i = 0; i < mo->nesc; i++)
		at0 += mo->esc[i].base_known && mo->esc[i].base == 0,
		at24 += mo->esc[i].base_known && mo->esc[i].base == 24;
	ck_assert(at0 >= 1 && at24 >= 1);
	memobjs_free(mo);
	mod_free(m);
}
END_TEST

/* An index computed in a loop from the loop's own values and read after
 * the loop is no address there, however the walk met it first (found
 * again once the loop's definitions are done): a[i & 3] in the loop and
 * after it is the depot at base 0 plus a run-time amount, not an unknown
 * pointer.  The loop's bodies: i = (x * 29 + 3) * 9 + 5, and i = 3x + 5x
 * (the sum of two of its own values: two addresses are never added),
 * x = j + i each time. */
static const char *const loop_bodies[] = {
	"mad.lo.s32 %r3, %r2, 29, 3;\nmad.lo.s32 %r5, %r3, 9, 5;\nand.b32 %r4, %r5, 3;\n",
	"mul.lo.s32 %r10, %r2, 3;\nmul.lo.s32 %r11, %r2, 5;\nadd.s32 %r5, %r10, %r11;\nand.b32 %r4, %r2, 3;\n",
};

START_TEST(local_addresses_loop_index_after)
{
	static char src[4096];
	snprintf(src, sizeof src, HEADER
		".entry k(.param .u32 n)\n{\n"
		".local .align 8 .b8 __local_depot0[16];\n"
		".reg .b64 %%SPL;\n.reg .pred %%p<2>;\n.reg .b32 %%r<12>;\n.reg .b64 %%rd<10>;\n"
		"mov.u64 %%SPL, __local_depot0;\nld.param.u32 %%r1, [n];\nadd.u64 %%rd1, %%SPL, 0;\n"
		"mov.u32 %%r5, 0;\nmov.u32 %%r7, 0;\n"
		"L:\nadd.s32 %%r2, %%r7, %%r5;\n%s"
		"mul.wide.u32 %%rd2, %%r4, 4;\nadd.s64 %%rd3, %%rd1, %%rd2;\n"
		"ld.local.u32 %%r6, [%%rd3];\n"                                 /* 0 */
		"add.u32 %%r7, %%r7, 1;\nsetp.lt.u32 %%p1, %%r7, 4;\n@%%p1 bra L;\n"
		"and.b32 %%r8, %%r5, 3;\nmul.wide.u32 %%rd4, %%r8, 4;\nadd.s64 %%rd5, %%rd1, %%rd4;\n"
		"ld.local.u32 %%r9, [%%rd5];\n"                                 /* 1 */
		"ret;\n}\n", loop_bodies[_i]);
	Module *m = parse_ok(src);
	MemObjs *mo = memobjs_build(m->items.tail->func);
	ck_assert_uint_eq(mo->nacc, 2);
	for (int i = 0; i < 2; i++)
		ck_assert(mo->acc[i].obj == 0 && !mo->acc[i].exact && mo->acc[i].base_known && mo->acc[i].base == 0);
	ck_assert_int_eq(mo->objs[0].escapes, 0);
	ck_assert(!mo->partial);
	memobjs_free(mo);
	mod_free(m);
}
END_TEST

/* An address stored only into .params of vprintf (both its arguments)
 * is, with memobjs_build_lent, a read of the object at the call, from the
 * offset passed on; passed to another function too, it escapes; plain
 * memobjs_build keeps every such address an escape. */
static const char lent_src[] = HEADER
	".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 b);\n"
	".extern .func use(.param .b64 p);\n"
	".entry k(.param .u32 n)\n{\n"
	".local .align 8 .b8 __local_depot0[32];\n.local .align 8 .b8 kept[8];\n"
	".reg .b64 %SP;\n.reg .b64 %SPL;\n.reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n"
	"mov.u64 %SPL, __local_depot0;\ncvta.local.u64 %SP, %SPL;\nld.param.u32 %r1, [n];\n"
	"add.u64 %rd1, %SP, 8;\nadd.u64 %rd2, %SPL, 8;\nst.local.u32 [%rd2], %r1;\n"  /* 0 */
	"add.u64 %rd3, %SP, 16;\n"
	"{\n.param .b64 param0;\nst.param.b64 [param0], %rd3;\n.param .b64 param1;\n"
	"st.param.b64 [param1], %rd1;\n.param .b32 retval0;\n"
	"call.uni (retval0), vprintf, (param0, param1);\n}\n"                          /* 1, 2 */
	"mov.u64 %rd4, kept;\ncvta.local.u64 %rd5, %rd4;\n"                            /* 3: cvta */
	"{\n.param .b64 param1;\nst.param.b64 [param1], %rd5;\n.param .b32 retval0;\n"
	"call.uni (retval0), vprintf, (param1, param1);\n}\n"
	"{\n.param .b64 param0;\nst.param.b64 [param0], %rd5;\ncall.uni use, (param0);\n}\n"
	"ret;\n}\n";

START_TEST(local_addresses_lent_to_vprintf)
{
	Module *m = parse_ok(lent_src);
	MemObjs *mo = memobjs_build_lent(m->items.tail->func, NULL);
	ck_assert_int_eq(mo->objs[0].escapes, 0);
	ck_assert_int_eq(mo->objs[1].escapes, 1);   /* kept: passed to use() too */
	ck_assert_uint_eq(mo->nacc, 6);
	const MemAccess *a = mo->acc;
	ck_assert(a[0].obj == 0 && a[0].how == USE_ADDR);    /* cvta.local of the root */
	ck_assert(a[1].obj == 0 && a[1].exact && a[1].off == 8 && !a[1].lent);
	for (int i = 2; i <= 3; i++) {   /* format at 16, buffer at 8 */
		ck_assert(a[i].lent && a[i].obj == 0 && a[i].how == USE_READ && !a[i].exact && a[i].width == 0);
		ck_assert(a[i].base_known && a[i].generic && a[i].at == a[2].at);
		ck_assert_int_eq(a[i].at->ins.sp->code, O_call);
	}
	ck_assert(a[2].base + a[3].base == 24 && a[2].base != a[3].base);
	ck_assert(a[4].obj == 1 && a[4].how == USE_ADDR);
	ck_assert(a[5].obj == 1 && a[5].lent);   /* read by vprintf too: it escapes all the same */
	memobjs_free(mo);
	mo = memobjs_build(m->items.tail->func);
	ck_assert_int_eq(mo->objs[0].escapes, 1);
	ck_assert_uint_eq(mo->nacc, 3);
	memobjs_free(mo);
	mod_free(m);
}
END_TEST

/* What borrowers_args says of each function named, against want. */
typedef struct Lends1 {
	const char *name;
	uint32_t args;
} Lends1;

static void borrowers_are(Borrowers *b, const Lends1 *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(borrowers_args(b, intern_cstr(want[i].name)) == want[i].args, "%s", want[i].name);
}

/* The lent accesses of mo, in order, up to max of them; how many. */
static uint32_t lent_accesses(const MemObjs *mo, const MemAccess **v, uint32_t max)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < mo->nacc && n < max; i++)
		if (mo->acc[i].lent)
			v[n++] = &mo->acc[i];
	return n;
}

/* borrowers_args: a module function's pointer arguments that it only
 * loads and stores through at constant offsets, keeping nothing (two: a
 * .param passed as both its arguments lends what both read): rd reads
 * p+4 .. p+12 (arg 1; arg 0 an integer it adds), wr stores p+0 and reads
 * p+4; keep stores the pointer, wk is .weak, ext has no body, vprintf is
 * the toolchain's; idx reads at a run-time offset, which lends the whole
 * object (local_addresses_lent_whole).  A call of rd with
 * the depot's address + 16 is a lent read of bytes 20 .. 28 (base 16), of
 * wr a read and write of 0 .. 8; keep's argument escapes. */
START_TEST(local_addresses_lent_to_module_functions)
{
	Module *m = parse_ok(HEADER
		".global .align 8 .u64 g;\n"
		".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 b);\n"
		".extern .func ext(.param .b64 p);\n"
		".func (.param .b32 r) rd(.param .b32 n, .param .b64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
		"ld.param.u64 %rd1, [p];\nld.param.u32 %r3, [n];\nld.u32 %r1, [%rd1+4];\nld.u32 %r2, [%rd1+8];\n"
		"add.u32 %r1, %r1, %r2;\nadd.u32 %r1, %r1, %r3;\nst.param.b32 [r], %r1;\nret;\n}\n"
		".func wr(.param .b64 p)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
		"ld.param.u64 %rd1, [p];\nld.u32 %r1, [%rd1+4];\nst.u32 [%rd1], %r1;\nret;\n}\n"
		".func keep(.param .b64 p)\n{\n.reg .b64 %rd<2>;\n"
		"ld.param.u64 %rd1, [p];\nst.global.u64 [g], %rd1;\nret;\n}\n"
		".func (.param .b32 r) idx(.param .b64 p, .param .b32 k)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<4>;\n"
		"ld.param.u64 %rd1, [p];\nld.param.u32 %r1, [k];\nmul.wide.u32 %rd2, %r1, 4;\n"
		"add.s64 %rd3, %rd1, %rd2;\nld.u32 %r2, [%rd3];\nst.param.b32 [r], %r2;\nret;\n}\n"
		".weak .func wk(.param .b64 p)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
		"ld.param.u64 %rd1, [p];\nld.u32 %r1, [%rd1];\nret;\n}\n"
		".func two(.param .b64 a, .param .b64 b)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n"
		"ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [b];\nld.u32 %r1, [%rd1];\n"
		"ld.v2.u32 {%r1, %r2}, [%rd2+8];\nret;\n}\n"
		".entry k(.param .u32 n)\n{\n"
		".local .align 8 .b8 __local_depot0[32];\n"
		".reg .b64 %SP;\n.reg .b64 %SPL;\n.reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n"
		"mov.u64 %SPL, __local_depot0;\ncvta.local.u64 %SP, %SPL;\nld.param.u32 %r1, [n];\n"
		"add.u64 %rd1, %SP, 16;\nadd.u64 %rd2, %SP, 0;\n"
		"{\n.param .b32 param0;\nst.param.b32 [param0], %r1;\n.param .b64 param1;\n"
		"st.param.b64 [param1], %rd1;\n.param .b32 retval0;\n"
		"call.uni (retval0), rd, (param0, param1);\n}\n"
		"{\n.param .b64 param0;\nst.param.b64 [param0], %rd2;\ncall.uni wr, (param0);\n}\n"
		"{\n.param .b64 param0;\nst.param.b64 [param0], %rd1;\ncall.uni two, (param0, param0);\n}\n"
		"ret;\n}\n");
	Borrowers *b = borrowers_build(m);
	static const Lends1 want[] = {{"rd", 2}, {"wr", 1}, {"keep", 0}, {"idx", 1}, {"wk", 0},
		{"ext", 0}, {"vprintf", 3}};
	borrowers_are(b, want, sizeof want / sizeof *want);
	MemObjs *mo = memobjs_build_lent(m->items.tail->func, b);
	ck_assert_int_eq(mo->objs[0].escapes, 0);
	const MemAccess *lent[3] = {0};
	ck_assert_uint_eq(lent_accesses(mo, lent, 3), 3);
	const MemAccess *a = lent[0], *w = lent[1], *t = lent[2];
	ck_assert(a->bounded && !a->exact && a->base == 16 && a->off == 20 && a->width == 8 && a->spread == 0);
	ck_assert_int_eq(a->how, USE_READ);
	ck_assert(w->bounded && w->base == 0 && w->off == 0 && w->width == 8 && w->how == (USE_READ | USE_WRITE));
	/* one .param as both of two's arguments: [a] and [b+8 .. 16], from 16 */
	ck_assert(t->bounded && t->base == 16 && t->off == 16 && t->width == 16 && t->how == USE_READ);
	memobjs_free(mo);
	borrowers_free(b);
	mod_free(m);
}
END_TEST

/* Lent whole: a module function that loads and stores through a pointer
 * argument at run-time offsets too, keeping nothing of it, borrows the
 * object from the address on: rk reads p[k] (4 bytes wide), wk2 stores
 * p[k] as a .v2 (8 bytes) and reads p[1], rd2 reads p[k] of its second
 * argument and p+4 .. p+12 of its first, at constant offsets, pass passes
 * it on to rk (whose accesses are then its own).  Not lent: keep stores
 * the pointer, ret returns p+4k, pask passes it on to keep, below reads
 * p[-1] beside p[k] (before the address the object starts at), wide reads
 * p[k] 32 bytes wide (past a lent object's alignment), wk is .weak.
 * In k (a 64-byte depot), each call lends twice: the bytes the callee
 * surely touches (bounded: constant offsets, an index's base and width),
 * then the object from the address on (neither exact nor bounded, as wide
 * as the callee's widest access).  rk's call with depot+16 reads 16 .. 20
 * and from 16 (width 4); wk2's with depot+0 reads and writes 0 .. 8 (p[1]
 * and the .v2 at p[k]'s base) and from 0 (width 8); rd2's with depot+32 in
 * both arguments reads 32 .. 44 (the first's 36 .. 44, the second's index
 * from 32) and from 32 (width 4, the second's; the first's accesses are
 * bytes of their own); keep's argument, depot+48, escapes. */
START_TEST(local_addresses_lent_whole)
{
	const char *idx = "ld.param.u32 %r1, [k];\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n";
	static char src[8192];
	snprintf(src, sizeof src, HEADER
		".global .align 8 .u64 g;\n"
		".func (.param .b32 r) rk(.param .b64 p, .param .b32 k)\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n"
		"ld.param.u64 %%rd1, [p];\n%sld.u32 %%r2, [%%rd3];\nst.param.b32 [r], %%r2;\nret;\n}\n"
		".func wk2(.param .b64 p, .param .b32 k)\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n"
		"ld.param.u64 %%rd1, [p];\n%sld.u32 %%r2, [%%rd1+4];\nst.v2.u32 [%%rd3], {%%r2, %%r2};\nret;\n}\n"
		".func rd2(.param .b64 q, .param .b64 p, .param .b32 k)\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<5>;\n"
		"ld.param.u64 %%rd1, [p];\nld.param.u64 %%rd4, [q];\n%sld.u32 %%r2, [%%rd3];\n"
		"ld.v2.u32 {%%r2, %%r3}, [%%rd4+4];\nret;\n}\n"
		".func keep(.param .b64 p, .param .b32 k)\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n"
		"ld.param.u64 %%rd1, [p];\n%sld.u32 %%r2, [%%rd3];\nst.global.u64 [g], %%rd1;\nret;\n}\n"
		".func (.param .b64 r) ret(.param .b64 p, .param .b32 k)\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n"
		"ld.param.u64 %%rd1, [p];\n%sld.u32 %%r2, [%%rd3];\nst.param.b64 [r], %%rd3;\nret;\n}\n"
		".func pass(.param .b64 p, .param .b32 k)\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n"
		"ld.param.u64 %%rd1, [p];\n%s{\n.param .b64 a0;\nst.param.b64 [a0], %%rd1;\n"
		".param .b32 a1;\nst.param.b32 [a1], %%r1;\n.param .b32 r0;\ncall.uni (r0), rk, (a0, a1);\n}\nret;\n}\n"
		".func pask(.param .b64 p, .param .b32 k)\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n"
		"ld.param.u64 %%rd1, [p];\n%s{\n.param .b64 a0;\nst.param.b64 [a0], %%rd1;\n"
		".param .b32 a1;\nst.param.b32 [a1], %%r1;\ncall.uni keep, (a0, a1);\n}\nret;\n}\n"
		".func below(.param .b64 p, .param .b32 k)\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n"
		"ld.param.u64 %%rd1, [p];\n%sld.u32 %%r2, [%%rd3];\nld.u32 %%r3, [%%rd1+-4];\nret;\n}\n"
		".func wide(.param .b64 p, .param .b32 k)\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n.reg .b64 %%x<5>;\n"
		"ld.param.u64 %%rd1, [p];\n%sld.v4.u64 {%%x1, %%x2, %%x3, %%x4}, [%%rd3];\nret;\n}\n"
		".weak .func wk(.param .b64 p, .param .b32 k)\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n"
		"ld.param.u64 %%rd1, [p];\n%sld.u32 %%r2, [%%rd3];\nret;\n}\n"
		".entry k(.param .u32 n)\n{\n"
		".local .align 16 .b8 __local_depot0[64];\n"
		".reg .b64 %%SP;\n.reg .b64 %%SPL;\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<8>;\n"
		"mov.u64 %%SPL, __local_depot0;\ncvta.local.u64 %%SP, %%SPL;\nld.param.u32 %%r1, [n];\n"
		"add.u64 %%rd1, %%SP, 16;\nadd.u64 %%rd2, %%SP, 0;\nadd.u64 %%rd3, %%SP, 32;\nadd.u64 %%rd4, %%SP, 48;\n"
		"{\n.param .b64 param0;\nst.param.b64 [param0], %%rd1;\n.param .b32 param1;\n"
		"st.param.b32 [param1], %%r1;\n.param .b32 retval0;\ncall.uni (retval0), rk, (param0, param1);\n}\n"
		"{\n.param .b64 param0;\nst.param.b64 [param0], %%rd2;\n.param .b32 param1;\n"
		"st.param.b32 [param1], %%r1;\ncall.uni wk2, (param0, param1);\n}\n"
		"{\n.param .b64 param0;\nst.param.b64 [param0], %%rd3;\n.param .b32 param1;\n"
		"st.param.b32 [param1], %%r1;\ncall.uni rd2, (param0, param0, param1);\n}\n"
		"{\n.param .b64 param0;\nst.param.b64 [param0], %%rd4;\n.param .b32 param1;\n"
		"st.param.b32 [param1], %%r1;\ncall.uni keep, (param0, param1);\n}\n"
		"ret;\n}\n", idx, idx, idx, idx, idx, idx, idx, idx, idx, idx);
	Module *m = parse_ok(src);
	Borrowers *b = borrowers_build(m);
	static const Lends1 want[] = {{"rk", 1}, {"wk2", 1}, {"rd2", 3}, {"pass", 1}, {"keep", 0},
		{"ret", 0}, {"pask", 0}, {"below", 0}, {"wide", 0}, {"wk", 0}};
	borrowers_are(b, want, sizeof want / sizeof *want);
	MemObjs *mo = memobjs_build_lent(m->items.tail->func, b);
	ck_assert_int_eq(mo->objs[0].escapes, 1);
	const MemAccess *lent[6] = {0};
	uint32_t n = lent_accesses(mo, lent, 6);
	ck_assert_uint_eq(n, 6);
	for (uint32_t i = 0; i < n; i++) {
		ck_assert(!lent[i]->exact && lent[i]->bounded == (i % 2 == 0));
		ck_assert(lent[i]->base_known && lent[i]->generic && lent[i]->spread == 0);
	}
	ck_assert(lent[0]->base == 16 && lent[0]->off == 16 && lent[0]->width == 4 && lent[0]->how == USE_READ);
	ck_assert(lent[1]->base == 16 && lent[1]->width == 4 && lent[1]->how == USE_READ);
	ck_assert(lent[2]->base == 0 && lent[2]->off == 0 && lent[2]->width == 8);
	ck_assert(lent[3]->base == 0 && lent[3]->width == 8);
	ck_assert(lent[2]->how == (USE_READ | USE_WRITE) && lent[3]->how == (USE_READ | USE_WRITE));
	ck_assert(lent[4]->base == 32 && lent[4]->off == 32 && lent[4]->width == 12 && lent[4]->how == USE_READ);
	ck_assert(lent[5]->base == 32 && lent[5]->width == 4 && lent[5]->how == USE_READ);
	ck_assert_uint_eq(mo->nesc, 1);
	ck_assert(mo->esc[0].base_known && mo->esc[0].base == 48);
	memobjs_free(mo);
	borrowers_free(b);
	mod_free(m);
}
END_TEST

START_TEST(memory_spaces)
{
	Module *m = parse_ok(HEADER ".entry k()\n{\nld.shared::cta.u32 %r1, [%rd1];\n"
		"st.u32 [%rd1], %r1;\nadd.s32 %r1, %r1, 1;\n}\n");
	Stmt *s = first_body_stmt(m);
	ck_assert_int_eq(ins_space(&s->ins), SPACE_SHARED);
	ck_assert_str_eq(space_spelling(ins_space(&s->ins)), ".shared");
	ck_assert(ins_reads_memory(&s->ins) && !ins_writes_memory(&s->ins));
	ck_assert_int_eq(ins_space(&s->next->ins), SPACE_NONE);
	ck_assert(ins_writes_memory(&s->next->ins));
	ck_assert(!ins_reads_memory(&s->next->next->ins) && !ins_writes_memory(&s->next->next->ins));
	mod_free(m);
}
END_TEST

/* What callee body does with pointer parameter p: 1 if every access
 * through it is at a constant offset (param_offsets_constant), plus 2 if
 * it stores through it at a run-time offset (param_stored_indexed). */
static int param_facts(const char *body)
{
	static char src[16384];
	snprintf(src, sizeof src, HEADER ".extern .func use(.param .b64 q);\n"
		".func f(.param .b64 p)\n{\n.reg .pred %%p<4>;\n.reg .b32 %%r<8>;\n"
		".reg .b64 %%rd<80>;\nld.param.u64 %%rd1, [p];\n%sret;\n}\n", body);
	Module *m = parse_ok(src);
	const Func *f = m->items.tail->func;
	const char *p = f->params[0].ds[0].name;
	int r = param_offsets_constant(f, p, NULL) + 2 * param_stored_indexed(f, p);
	mod_free(m);
	return r;
}

/* A pointer parameter's accesses, followed by memobj.c's walk: through a
 * chain of movs and adds of constants; a pointer stepped around a loop
 * (no constant offset, but no index either); an index a loop's counter
 * or a loaded value adds; a join of two offsets; the pointer going
 * elsewhere. */
START_TEST(pointer_parameter_offsets)
{
	ck_assert_int_eq(param_facts("mov.u32 %r1, 0;\n"), 1);   /* only loaded */
	ck_assert_int_eq(param_facts("add.s64 %rd2, %rd1, 4;\nmov.b64 %rd3, %rd2;\n"
		"cvta.to.global.u64 %rd4, %rd3;\nadd.s64 %rd5, %rd4, -8;\n"
		"ld.global.u32 %r1, [%rd5+12];\nst.u32 [%rd3], %r1;\n"), 1);
	ck_assert_int_eq(param_facts("mov.u32 %r1, 0;\nmov.b64 %rd2, %rd1;\n"
		"L:\nst.u32 [%rd2], %r1;\nadd.s64 %rd2, %rd2, 4;\nadd.s32 %r1, %r1, 1;\n"
		"setp.lt.u32 %p1, %r1, 8;\n@%p1 bra L;\n"), 0);
	ck_assert_int_eq(param_facts("mov.u32 %r1, 0;\n"
		"L:\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.u32 [%rd3+4], %r1;\n"
		"add.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 8;\n@%p1 bra L;\n"), 2);
	ck_assert_int_eq(param_facts("ld.u32 %r1, [%rd1];\nmul.wide.u32 %rd2, %r1, 4;\n"
		"add.s64 %rd3, %rd2, %rd1;\nld.u32 %r2, [%rd3];\n"), 0);   /* read at an index */
	ck_assert_int_eq(param_facts("mov.b64 %rd2, 8;\nadd.s64 %rd3, %rd1, %rd2;\n"
		"st.u32 [%rd3], %r1;\n"), 1);   /* a register holding a constant */
	ck_assert_int_eq(param_facts("ld.u32 %r1, [%rd1];\nsetp.eq.u32 %p1, %r1, 0;\n"
		"@%p1 bra A;\nadd.s64 %rd2, %rd1, 4;\nbra.uni J;\nA:\nadd.s64 %rd2, %rd1, 8;\n"
		"J:\nst.u32 [%rd2], %r1;\n"), 0);   /* two offsets join: neither an index */
	ck_assert_int_eq(param_facts("mov.u32 %r1, 0;\nmul.wide.u32 %rd2, %r1, 4;\n"
		"add.s64 %rd3, %rd1, %rd2;\nL:\nst.u32 [%rd3], %r1;\nadd.s64 %rd3, %rd3, 4;\n"
		"add.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 8;\n@%p1 bra L;\n"), 2);
	ck_assert_int_eq(param_facts("atom.add.u32 %r1, [%rd1+4], 1;\n"), 0);
	ck_assert_int_eq(param_facts("ld.param.u32 %r1, [p+4];\n"), 0);   /* a piece of it read */
	ck_assert_int_eq(param_facts("st.u64 [%rd1], %rd1;\n"), 0);        /* stored */
	ck_assert_int_eq(param_facts("setp.eq.u64 %p1, %rd1, 0;\n"), 0);   /* compared */
	ck_assert_int_eq(param_facts("add.s64 %rd2, %rd1, 4;\n"
		"{\n.param .b64 q0;\nst.param.b64 [q0], %rd2;\ncall use, (q0);\n}\n"), 0);
	ck_assert_int_eq(param_facts("@%p1 add.s64 %rd2, %rd1, 4;\nld.u32 %r1, [%rd2];\n"), 0);
}
END_TEST

/* Past 32 registers made from the pointer, the same answers: no register
 * count caps the walk. */
START_TEST(pointer_parameter_long_chains)
{
	static char body[8192];
	size_t n = 0;
	for (int i = 1; i < 70; i++)
		n += (size_t)snprintf(body + n, sizeof body - n,
			"add.s64 %%rd%d, %%rd%d, 4;\nst.u32 [%%rd%d], %%r1;\n", i + 1, i, i + 1);
	ck_assert_int_eq(param_facts(body), 1);
	snprintf(body + n, sizeof body - n, "mul.wide.u32 %%rd71, %%r1, 4;\n"
		"add.s64 %%rd72, %%rd70, %%rd71;\nst.u32 [%%rd72], %%r1;\n");
	ck_assert_int_eq(param_facts(body), 2);
}
END_TEST

/* A chain written last step first (each block jumping back to the one
 * before it in the text): followed 20 deep; past the walk's depth its
 * accesses are not known, so not all at constant offsets. */
static const char *reverse_chain(int steps)
{
	static char body[8192];
	size_t n = (size_t)snprintf(body, sizeof body, "mov.u32 %%r1, 0;\nbra.uni B1;\n");
	for (int i = steps; i >= 1; i--)
		n += (size_t)snprintf(body + n, sizeof body - n,
			"B%d:\nadd.s64 %%rd%d, %%rd%d, 4;\nst.u32 [%%rd%d], %%r1;\nbra.uni B%d;\n",
			i, i + 1, i, i + 1, i + 1);
	snprintf(body + n, sizeof body - n, "B%d:\n", steps + 1);
	return body;
}

START_TEST(pointer_parameter_reverse_chains)
{
	ck_assert_int_eq(param_facts(reverse_chain(20)), 1);
	ck_assert_int_eq(param_facts(reverse_chain(75)), 0);
}
END_TEST

/* entry: r1 = 0; loop: if r1 >= r2 goto done; r1 += 1; goto loop; done: ret */
static const char *loop_src = HEADER ".entry k(.param .u32 n)\n{\n"
	".reg .b32 %r<4>;\n.reg .pred %p<2>;\n"
	"ld.param.u32 %r2, [n];\nmov.u32 %r1, 0;\n"
	"$L_loop:\nsetp.ge.u32 %p1, %r1, %r2;\n@%p1 bra $L_done;\n"
	"{\nadd.u32 %r1, %r1, 1;\n}\nbra.uni $L_loop;\n"
	"$L_done:\nst.param.u32 [n], %r1;\nret;\n}\n";

/* Dominators against their definition, on random control flow: a
 * dominates b when b cannot be reached from the entry without a. */
static uint32_t reach_avoiding(const Cfg *g, uint32_t avoid, uint8_t *seen, uint32_t *stack)
{
	uint32_t top = 0, n = 0, entry = g->order[0];
	memset(seen, 0, g->nblocks);
	if (entry == avoid)
		return 0;
	seen[entry] = 1;
	stack[top++] = entry;
	while (top) {
		const Block *b = &g->blocks[stack[--top]];
		n++;
		for (uint32_t e = 0; e < b->nsucc; e++)
			if (b->succ[e] != avoid && !seen[b->succ[e]]) {
				seen[b->succ[e]] = 1;
				stack[top++] = b->succ[e];
			}
	}
	return n;
}

static char *random_flow(unsigned *seed, uint32_t nlabels)
{
	size_t cap = 64 * nlabels + 256, len = 0;
	char *t = xmalloc(cap);
	len += (size_t)snprintf(t + len, cap - len, HEADER ".entry k(.param .u32 n)\n{\n"
		".reg .pred %%p;\n.reg .b32 %%r1;\nld.param.u32 %%r1, [n];\nsetp.eq.u32 %%p, %%r1, 0;\n");
	for (uint32_t i = 0; i < nlabels; i++) {
		uint32_t x = (uint32_t)rand_r(seed) % nlabels, y = (uint32_t)rand_r(seed) % nlabels;
		len += (size_t)snprintf(t + len, cap - len, "$L%u:\n", i);
		switch (rand_r(seed) % 4) {
		case 0: len += (size_t)snprintf(t + len, cap - len, "@%%p bra $L%u;\n", x); break;
		case 1: len += (size_t)snprintf(t + len, cap - len, "@%%p bra $L%u;\nbra $L%u;\n", x, y); break;
		case 2: len += (size_t)snprintf(t + len, cap - len, "bra $L%u;\n", x); break;
		default: len += (size_t)snprintf(t + len, cap - len, "@%%p ret;\n"); break;
		}
	}
	snprintf(t + len, cap - len, "ret;\n}\n");
	return t;
}

START_TEST(cfg_dominators_by_definition)
{
	unsigned seed = 7;
	for (int round = 0; round < 300; round++) {
		char *src = random_flow(&seed, 2 + (uint32_t)rand_r(&seed) % 30);
		Module *m = parse_ok(src);
		Cfg *g = cfg_build(first_func(m));
		ck_assert_ptr_nonnull(g);
		uint32_t n = g->nblocks;
		uint8_t *seen = xmalloc(n + 1), *dom = xcalloc((size_t)n * n + 1, 1);
		uint32_t *stack = xmalloc((n + 1) * sizeof *stack), *ndom = xcalloc(n + 1, sizeof *ndom);
		reach_avoiding(g, UINT32_MAX, seen, stack);
		uint8_t *live = xmalloc(n + 1);
		memcpy(live, seen, n);
		for (uint32_t a = 0; a < n; a++) {
			reach_avoiding(g, a, seen, stack);
			for (uint32_t b = 0; b < n; b++)
				if (live[a] && live[b] && (a == b || !seen[b])) {
					dom[(size_t)a * n + b] = 1;
					ndom[b]++;
				}
		}
		for (uint32_t b = 0; b < n; b++) {
			ck_assert_uint_eq(live[b], g->blocks[b].rpo != UINT32_MAX);
			if (!live[b]) {
				ck_assert_uint_eq(g->blocks[b].idom, UINT32_MAX);
				continue;
			}
			/* the immediate one: the strict dominator with most dominators */
			uint32_t want = b;
			for (uint32_t a = 0; a < n; a++)
				if (a != b && dom[(size_t)a * n + b] && (want == b || ndom[a] > ndom[want]))
					want = a;
			ck_assert_uint_eq(g->blocks[b].idom, want);
			for (uint32_t a = 0; a < n; a++)
				if (live[a])
					ck_assert_int_eq(cfg_dominates(g, a, b), dom[(size_t)a * n + b]);
		}
		free(seen); free(dom); free(stack); free(ndom); free(live);
		cfg_free(g);
		mod_free(m);
		free(src);
	}
}
END_TEST

/* Whether block b reaches an end of the function (a ret, or no successor)
 * without passing block avoid (UINT32_MAX: none). */
static int ends_avoiding(const Cfg *g, uint32_t b, uint32_t avoid, uint8_t *seen, uint32_t *stack)
{
	uint32_t top = 0;
	memset(seen, 0, g->nblocks + 1);
	if (b == avoid)
		return 0;
	stack[top++] = b, seen[b] = 1;
	while (top) {
		const Block *x = &g->blocks[stack[--top]];
		if (!x->nsucc || (g->ins[x->end - 1]->ins.sp->op->flags & OF_TERM))
			return 1;
		for (uint32_t e = 0; e < x->nsucc; e++)
			if (x->succ[e] != avoid && !seen[x->succ[e]])
				seen[x->succ[e]] = 1, stack[top++] = x->succ[e];
	}
	return 0;
}

/* a post-dominates b when every way from b to an end passes a: with a
 * taken away, b reaches none.  The immediate one is the strict
 * post-dominator with the most post-dominators; none: the node past the
 * blocks (nblocks). */
START_TEST(cfg_postdominators_by_definition)
{
	unsigned seed = 11;
	for (int round = 0; round < 300; round++) {
		char *src = random_flow(&seed, 2 + (uint32_t)rand_r(&seed) % 30);
		Module *m = parse_ok(src);
		Cfg *g = cfg_build(first_func(m));
		ck_assert_ptr_nonnull(g);
		uint32_t n = g->nblocks, *ipdom = cfg_postdoms(g);
		uint8_t *seen = xmalloc(n + 1), *pdom = xcalloc((size_t)n * n + 1, 1);
		uint32_t *stack = xmalloc((n + 1) * sizeof *stack), *npdom = xcalloc(n + 1, sizeof *npdom);
		uint8_t *ends = xmalloc(n + 1);
		for (uint32_t b = 0; b < n; b++)
			ends[b] = g->blocks[b].rpo != UINT32_MAX && ends_avoiding(g, b, UINT32_MAX, seen, stack);
		for (uint32_t b = 0; b < n; b++)
			for (uint32_t a = 0; a < n && ends[b]; a++)
				if (ends[a] && (a == b || !ends_avoiding(g, b, a, seen, stack))) {
					pdom[(size_t)a * n + b] = 1;
					npdom[b]++;
				}
		ck_assert_uint_eq(ipdom[n], n);
		for (uint32_t b = 0; b < n; b++) {
			if (!ends[b]) {
				ck_assert_uint_eq(ipdom[b], UINT32_MAX);
				continue;
			}
			uint32_t want = n;
			for (uint32_t a = 0; a < n; a++)
				if (a != b && pdom[(size_t)a * n + b] && (want == n || npdom[a] > npdom[want]))
					want = a;
			ck_assert_uint_eq(ipdom[b], want);
		}
		free(seen); free(pdom); free(stack); free(npdom); free(ends); free(ipdom);
		cfg_free(g);
		mod_free(m);
		free(src);
	}
}
END_TEST

START_TEST(cfg_of_a_loop)
{
	Module *m = parse_ok(loop_src);
	Cfg *g = cfg_build(first_func(m));
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(g->nins, 8);
	ck_assert_uint_eq(g->nblocks, 4);       /* entry, loop head, body, done */
	ck_assert_uint_eq(g->blocks[1].first, 2);
	ck_assert_uint_eq(g->blocks[1].nsucc, 2);
	ck_assert_uint_eq(g->blocks[2].nsucc, 1);
	ck_assert_uint_eq(g->blocks[2].succ[0], 1);  /* back edge */
	ck_assert_uint_eq(g->blocks[3].nsucc, 0);
	ck_assert_uint_eq(g->blocks[1].npred, 2);
	ck_assert_uint_eq(g->blocks[1].idom, 0);
	ck_assert_uint_eq(g->blocks[2].idom, 1);
	ck_assert_uint_eq(g->blocks[3].idom, 1);
	ck_assert(cfg_dominates(g, 1, 3));
	ck_assert(!cfg_dominates(g, 2, 3));
	ck_assert_uint_eq(g->norder, 4);
	ck_assert_uint_eq(g->order[0], 0);
	cfg_free(g);
	mod_free(m);
}
END_TEST

START_TEST(cfg_of_brx_and_unreachable_code)
{
	Module *m = parse_ok(HEADER ".entry k()\n{\n.reg .b32 %r<2>;\n"
		"ts: .branchtargets A, B;\nbrx.idx %r1, ts;\nexit;\n"
		"A:\nmov.u32 %r1, 1;\nret;\nB:\nmov.u32 %r1, 2;\n}\n");
	Cfg *g = cfg_build(first_func(m));
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(g->nblocks, 4);
	ck_assert_uint_eq(g->blocks[0].nsucc, 2);
	ck_assert_uint_eq(g->blocks[1].rpo, UINT32_MAX);  /* the exit after brx */
	ck_assert_uint_eq(g->blocks[1].idom, UINT32_MAX);
	ck_assert_uint_eq(g->blocks[2].idom, 0);
	ck_assert_uint_eq(g->blocks[3].idom, 0);
	cfg_free(g);
	mod_free(m);
}
END_TEST

START_TEST(cfg_rejects_unknown_label)
{
	Module *m = parse_ok(HEADER ".entry k()\n{\nbra.uni nowhere;\n}\n");
	FILE *null = fopen("/dev/null", "w");
	diag_set_stream(null);
	ck_assert_ptr_null(cfg_build(first_func(m)));
	diag_set_stream(NULL);
	fclose(null);
	diag_reset();
	mod_free(m);
}
END_TEST

START_TEST(liveness_of_a_loop)
{
	Module *m = parse_ok(loop_src);
	Cfg *g = cfg_build(first_func(m));
	Live *l = live_compute(g);
	const char *r1 = intern_cstr("%r1"), *r2 = intern_cstr("%r2"), *r3 = intern_cstr("%r3");
	const char *p1 = intern_cstr("%p1");
	ck_assert_uint_eq(live_nregs(l), 3);      /* those the code names: %r1, %r2, %p1 */
	ck_assert(!live_in(l, 0, r1) && !live_in(l, 0, r2));
	ck_assert(live_in(l, 1, r1) && live_in(l, 1, r2));
	ck_assert(live_out(l, 2, r1) && live_out(l, 2, r2));
	ck_assert(live_in(l, 3, r1) && !live_in(l, 3, r2));
	ck_assert(!live_in(l, 1, p1) && !live_out(l, 1, p1));
	ck_assert(!live_in(l, 1, r3));
	ck_assert_int_eq(live_reg(l, intern_cstr("%r4")), -1);
	live_free(l);
	cfg_free(g);
	mod_free(m);
}
END_TEST

START_TEST(guarded_write_does_not_kill)
{
	Module *m = parse_ok(HEADER ".entry k()\n{\n.reg .b32 %r<3>;\n.reg .pred %p1;\n"
		"@%p1 mov.u32 %r1, 5;\nst.global.u32 [%r2], %r1;\nret;\n}\n");
	Cfg *g = cfg_build(first_func(m));
	Live *l = live_compute(g);
	ck_assert(live_in(l, 0, intern_cstr("%r1")));
	ck_assert(live_in(l, 0, intern_cstr("%p1")));
	live_free(l);
	cfg_free(g);
	mod_free(m);
}
END_TEST

/* A register live nowhere (written, never read) has an empty range; when
 * no register before it was live either, no range is stored yet. */
START_TEST(liveness_of_registers_never_read)
{
	Module *m = parse_ok(HEADER ".entry k()\n{\n.reg .b32 %r<3>;\n"
		"mov.u32 %r1, 1;\nmov.u32 %r2, 2;\nret;\n}\n");
	Cfg *g = cfg_build(first_func(m));
	Live *l = live_compute(g);
	const uint32_t *blocks;
	ck_assert_uint_eq(live_nregs(l), 2);
	ck_assert_uint_eq(live_in_blocks(l, 0, &blocks), 0);
	ck_assert_uint_eq(live_in_blocks(l, 1, &blocks), 0);
	ck_assert(!live_in(l, 0, intern_cstr("%r1")) && !live_out(l, 0, intern_cstr("%r2")));
	live_free(l);
	cfg_free(g);
	mod_free(m);
}
END_TEST

/* The same code (samecode.c): registers and labels renamed by their
 * place; a function calling itself is another calling itself, but its
 * own address is not the other's; another opcode or a .loc's line.  A
 * function calling d is not d calling itself; one with a static (its
 * own object) is like no other.  The hash is equal for the same code
 * and tells apart what differs in a constant alone. */
static const char same_src[] = HEADER
	".func (.param .b32 r) a(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
	".loc 1 10 0\nld.param.u32 %r1, [x];\nadd.s32 %r2, %r1, 1;\n$La:\n"
	"st.param.b32 [r], %r2;\nret;\n}\n"
	".func (.param .b32 r) b(.param .b32 y)\n{\n.reg .b32 %q<3>;\n"
	".loc 1 20 0\nld.param.u32 %q1, [y];\nadd.s32 %q2, %q1, 1;\n$Lb:\n"
	"st.param.b32 [r], %q2;\nret;\n}\n"
	".func (.param .b32 r) c(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
	"ld.param.u32 %r1, [x];\nmul.lo.s32 %r2, %r1, 1;\n$Lc:\n"
	"st.param.b32 [r], %r2;\nret;\n}\n"
	".func d(.param .b64 p)\n{\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n"
	"{\n.param .b64 q;\nst.param.b64 [q], %rd1;\ncall.uni d, (q);\n}\nret;\n}\n"
	".func e(.param .b64 p)\n{\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n"
	"{\n.param .b64 q;\nst.param.b64 [q], %rd1;\ncall.uni e, (q);\n}\nret;\n}\n"
	".func f(.param .b64 p)\n{\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [p];\n"
	"mov.u64 %rd2, f;\nst.u64 [%rd1], %rd2;\nret;\n}\n"
	".func g(.param .b64 p)\n{\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [p];\n"
	"mov.u64 %rd2, g;\nst.u64 [%rd1], %rd2;\nret;\n}\n"
	".func (.param .b32 r) h(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
	"ld.param.u32 %r1, [x];\nadd.s32 %r2, %r1, 2;\n$Lh:\n"
	"st.param.b32 [r], %r2;\nret;\n}\n"
	".func calls_d(.param .b64 p)\n{\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n"
	"{\n.param .b64 q;\nst.param.b64 [q], %rd1;\ncall.uni d, (q);\n}\nret;\n}\n"
	".func s1()\n{\n.shared .u32 n;\nst.shared.u32 [n], 1;\nret;\n}\n"
	".func s2()\n{\n.shared .u32 n;\nst.shared.u32 [n], 1;\nret;\n}\n";

START_TEST(same_code)
{
	Module *m = parse_ok(same_src);
	const Func *f[11];
	uint32_t n = 0;
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body)
			f[n++] = s->func;
	ck_assert_uint_eq(n, 11);
	ck_assert(func_same_code(f[0], f[1]) && func_same_code(f[1], f[0]));
	ck_assert_uint_eq(func_code_hash(f[0]), func_code_hash(f[1]));
	ck_assert(!func_same_code(f[0], f[2]));          /* mul.lo, not add */
	ck_assert(func_same_code(f[3], f[4]));           /* each calls itself */
	ck_assert(!func_same_code(f[5], f[6]));          /* each stores its own address */
	ck_assert(func_same_code(f[5], f[5]));
	ck_assert(!func_same_code(f[0], f[7]));          /* adds 2, not 1 */
	ck_assert_uint_ne(func_code_hash(f[0]), func_code_hash(f[7]));
	ck_assert_uint_eq(func_code_hash(f[3]), func_code_hash(f[4]));
	ck_assert(!func_same_code(f[8], f[3]) && !func_same_code(f[3], f[8]));
	ck_assert(!func_same_code(f[9], f[10]));         /* each its own n */
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < n; j++)
			ck_assert(!func_same_code(f[i], f[j]) || func_code_hash(f[i]) == func_code_hash(f[j]));
	mod_free(m);
}
END_TEST

Suite *analysis_suite(void)
{
	Suite *s = suite_create("analysis");
	TCase *tc = tcase_create("sem-cfg-live");
	tcase_add_test(tc, operand_roles);
	tcase_add_test(tc, operand_kinds);
	tcase_add_test(tc, memory_spaces);
	tcase_add_test(tc, spellings_are_decoded);
	tcase_add_test(tc, spellings_slow_paths);
	tcase_add_test(tc, symbol_table);
	tcase_add_test(tc, local_memory_objects);
	tcase_add_test(tc, local_access_forms);
	tcase_add_test(tc, local_pointers_in_loops);
	tcase_add_test(tc, local_stepped_bounds);
	tcase_add_test(tc, local_index_carried_by_mad);
	tcase_add_test(tc, local_anchors_and_bases);
	tcase_add_test(tc, local_anchor_forms);
	tcase_add_test(tc, local_data_indices);
	tcase_add_test(tc, local_addresses_of_several_places);
	tcase_add_loop_test(tc, local_addresses_loop_index_after, 0, 2);
	tcase_add_test(tc, local_addresses_lent_to_vprintf);
	tcase_add_test(tc, local_addresses_lent_to_module_functions);
	tcase_add_test(tc, local_addresses_lent_whole);
	tcase_add_test(tc, pointer_parameter_offsets);
	tcase_add_test(tc, pointer_parameter_long_chains);
	tcase_add_test(tc, pointer_parameter_reverse_chains);
	tcase_add_test(tc, cfg_postdominators_by_definition);
	tcase_add_test(tc, cfg_of_a_loop);
	tcase_add_test(tc, cfg_dominators_by_definition);
	tcase_add_test(tc, cfg_of_brx_and_unreachable_code);
	tcase_add_test(tc, cfg_rejects_unknown_label);
	tcase_add_test(tc, liveness_of_a_loop);
	tcase_add_test(tc, guarded_write_does_not_kill);
	tcase_add_test(tc, liveness_of_registers_never_read);
	tcase_add_test(tc, same_code);
	suite_add_tcase(s, tc);
	return s;
}

/* ---- reaching definitions, value tracking, call graph ---- */

typedef struct Analysed {
	Module *m;
	Cfg *cfg;
	Live *live;
	Defs *defs;
	SymTab *syms;
	Tracker t;
} Analysed;

static Analysed analyse(const char *src)
{
	Analysed a = {0};
	a.m = parse_ok(src);
	Func *f = NULL;
	for (Stmt *s = a.m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body)
			f = s->func;  /* the last one */
	a.cfg = cfg_build(f);
	a.live = live_compute(a.cfg);
	a.defs = defs_compute(a.cfg, a.live);
	a.syms = symtab_build(a.m);
	a.t = (Tracker){a.syms, a.cfg, a.live, a.defs};
	return a;
}

static void release(Analysed *a)
{
	symtab_free(a->syms);
	defs_free(a->defs);
	live_free(a->live);
	cfg_free(a->cfg);
	mod_free(a->m);
}

START_TEST(reaching_definitions)
{
	Analysed a = analyse(loop_src);
	uint32_t d[4];
	const char *r1 = intern_cstr("%r1");
	/* at the setp (ins 2): mov (ins 1) and the add in the loop (ins 4) */
	ck_assert_uint_eq(defs_reaching(a.defs, 2, r1, d, 4), 2);
	ck_assert_uint_eq(d[0], 1);
	ck_assert_uint_eq(d[1], 4);
	/* at the add itself only those two as well; %r2 only from the ld */
	ck_assert_uint_eq(defs_reaching(a.defs, 4, intern_cstr("%r2"), d, 4), 1);
	ck_assert_uint_eq(d[0], 0);
	/* %r2 is dead at the st (ins 6): found by walking back, the ld */
	ck_assert_uint_eq(defs_reaching(a.defs, 6, intern_cstr("%r2"), d, 4), 1);
	ck_assert_uint_eq(d[0], 0);
	/* %r3 is declared, never named: no register of the code's */
	ck_assert_uint_eq(defs_reaching(a.defs, 6, intern_cstr("%r3"), d, 4), 0);
	/* the mov's value is used by the setp and the add (and the st) */
	ck_assert_uint_eq(defs_uses(a.defs, 1, r1, d, 4), 3);
	ck_assert_uint_eq(d[0], 2);
	ck_assert_uint_eq(d[1], 4);
	ck_assert_uint_eq(d[2], 6);
	release(&a);
	/* a guarded write joins the value on entry, and does not replace it */
	a = analyse(HEADER ".entry k(.param .u32 n)\n{\n.reg .b32 %r<3>;\n.reg .pred %p;\n"
		"setp.eq.u32 %p, %r1, 0;\n@%p mov.u32 %r1, 5;\nst.param.u32 [n], %r1;\nret;\n}\n");
	ck_assert_uint_eq(defs_reaching(a.defs, 2, intern_cstr("%r1"), d, 4), 2);
	ck_assert_uint_eq(d[0], DEF_ENTRY);
	ck_assert_uint_eq(d[1], 1);
	ck_assert_uint_eq(defs_reaching(a.defs, 0, intern_cstr("%r1"), d, 4), 1);
	ck_assert_uint_eq(d[0], DEF_ENTRY);
	release(&a);
	/* an unreachable block's write never arrives where it falls through */
	a = analyse(HEADER ".entry k(.param .u32 n)\n{\n.reg .b32 %r<3>;\n"
		"ld.param.u32 %r1, [n];\nbra.uni $L_join;\n$L_dead:\nmov.u32 %r1, 7;\n"
		"$L_join:\nst.param.u32 [n], %r1;\nret;\n}\n");
	ck_assert_uint_eq(defs_reaching(a.defs, 3, intern_cstr("%r1"), d, 4), 1);
	ck_assert_uint_eq(d[0], 0);
	release(&a);
}
END_TEST

static const char *vtable_src = HEADER
	".func (.param .b32 r) f(.param .b32 a);\n.func (.param .b32 r) g(.param .b32 a);\n"
	".weak .global .align 8 .u64 _ZTV1D[3] = {0, 0, f};\n"
	".const .align 8 .u64 tab[2] = {f, generic(g)+0};\n"
	".global .align 8 .u64 wtab[2] = {f, g};\n"
	".visible .entry k(.param .u64 obj, .param .u32 i)\n{\n"
	".reg .b32 %r<3>;\n.reg .b64 %rd<12>;\n"
	"mov.u64 %rd7, _ZTV1D;\n"               /* 0 */
	"cvta.global.u64 %rd8, %rd7;\n"          /* 1 */
	"add.s64 %rd9, %rd8, 16;\n"              /* 2 */
	"st.u64 [%rd6], %rd9;\n"                 /* 3 */
	"mov.u64 %rd1, tab;\n"                   /* 4 */
	"ld.const.u64 %rd2, [%rd1+8];\n"         /* 5 */
	"mov.u64 %rd3, wtab;\n"                  /* 6 */
	"ld.global.u64 %rd4, [%rd3];\n"          /* 7 */
	"ld.param.u32 %r1, [i];\n"               /* 8 */
	"st.global.u64 [wtab+8], %rd2;\n"        /* 9 */
	"sub.s64 %rd10, %rd9, 8;\n"              /* 10 */
	"ret;\n}\n";

START_TEST(value_tracking)
{
	Analysed a = analyse(vtable_src);
	Value v;
	ck_assert(value_of(&a.t, 3, name_expr(intern_cstr("%rd9")), &v));
	ck_assert_str_eq(v.sym, "_ZTV1D");
	ck_assert_int_eq(v.off, 16);
	ck_assert(value_of(&a.t, 11, name_expr(intern_cstr("%rd10")), &v));
	ck_assert_int_eq(v.off, 8);
	/* a function pointer loaded from constant data */
	ck_assert(value_of(&a.t, 6, name_expr(intern_cstr("%rd2")), &v));
	ck_assert_str_eq(v.sym, "g");
	ck_assert_int_eq(v.off, 0);
	/* wtab is stored to: its contents are not known */
	ck_assert(!value_of(&a.t, 8, name_expr(intern_cstr("%rd4")), &v));
	/* a kernel parameter is not a known value */
	ck_assert(!value_of(&a.t, 9, name_expr(intern_cstr("%r1")), &v));
	ck_assert(value_of(&a.t, 0, num_expr(intern_cstr("0x10")), &v));
	ck_assert_ptr_null(v.sym);
	ck_assert_int_eq(v.off, 16);
	release(&a);
}
END_TEST

/* Ranges: bounds of special registers, .maxntid's product and .reqntid,
 * masks and shifts; the whole width where a result may wrap, around a
 * loop and for loaded values. */
static Range range_at(Analysed *a, Ranges *rs, uint32_t ins, const char *reg, int bits)
{
	return range_of(rs, ins, name_expr(intern_cstr(reg)), bits);
}

typedef struct RangesOf {
	Names names;
	Ranges *rs;
} RangesOf;

/* r's ranges keep a pointer to r's names: r stays where it is. */
static Ranges *ranges_of(RangesOf *r, Analysed *a)
{
	Func *f = (Func *)a->cfg->func;
	*r = (RangesOf){0};
	names_of_func(&r->names, a->m, f);
	return r->rs = ranges_compute(f, a->cfg, a->defs, &r->names);
}

static void ranges_release(RangesOf *r)
{
	ranges_free(r->rs);
	names_free(&r->names);
}

START_TEST(value_ranges)
{
	Analysed a = analyse(HEADER
		".entry k(.param .u32 n)\n.maxntid 256, 1, 1\n{\n"
		".reg .b32 %r<12>;\n.reg .b64 %rd<6>;\n.reg .pred %p<2>;\n"
		"mov.u32 %r1, %tid.x;\n"            /* 0 */
		"mov.u32 %r2, %tid.y;\n"            /* 1 */
		"mov.u32 %r3, %ctaid.x;\n"          /* 2 */
		"ld.param.u32 %r4, [n];\n"          /* 3 */
		"and.b32 %r5, %r4, 255;\n"          /* 4 */
		"rem.u32 %r6, %r4, 10;\n"           /* 5 */
		"shr.u32 %r7, %r4, 28;\n"           /* 6 */
		"mad.lo.s32 %r8, %r3, 1024, %r1;\n" /* 7: may wrap */
		"cvt.u64.u32 %rd1, %r1;\n"          /* 8 */
		"mul.wide.u32 %rd2, %r3, 1024;\n"   /* 9 */
		"add.s64 %rd3, %rd2, %rd1;\n"       /* 10 */
		"cvt.s64.s32 %rd4, %r4;\n"          /* 11: may be negative */
		"mov.u32 %r9, 0;\n"                 /* 12 */
		"L:\nadd.s32 %r9, %r9, 1;\n"        /* 13 */
		"setp.lt.u32 %p1, %r9, 8;\n"        /* 14 */
		"@%p1 bra L;\n"                     /* 15 */
		"ret;\n}\n");
	RangesOf ro;
	Ranges *rs = ranges_of(&ro, &a);
	Range r = range_at(&a, rs, 7, "%r1", 32);
	ck_assert_uint_eq(r.lo, 0);
	ck_assert_uint_eq(r.hi, 255);      /* .maxntid 256, 1, 1: the product */
	ck_assert_uint_eq(range_at(&a, rs, 7, "%r2", 32).hi, 255);
	ck_assert_uint_eq(range_at(&a, rs, 7, "%r3", 32).hi, 0x7ffffffe);
	ck_assert_uint_eq(range_at(&a, rs, 7, "%r4", 32).hi, UINT32_MAX);
	ck_assert_uint_eq(range_at(&a, rs, 7, "%r5", 32).hi, 255);
	ck_assert_uint_eq(range_at(&a, rs, 7, "%r6", 32).hi, 9);
	ck_assert_uint_eq(range_at(&a, rs, 7, "%r7", 32).hi, 15);
	ck_assert_uint_eq(range_at(&a, rs, 8, "%r8", 32).hi, UINT32_MAX);
	ck_assert_uint_eq(range_of_def(rs, 8).hi, 255);
	ck_assert_uint_eq(range_of_def(rs, 9).hi, UINT64_C(0x7ffffffe) * 1024);
	ck_assert_uint_eq(range_of_def(rs, 10).hi, UINT64_C(0x7ffffffe) * 1024 + 255);
	ck_assert_uint_eq(range_of_def(rs, 11).hi, UINT64_MAX);
	Range c = range_at(&a, rs, 14, "%r9", 32);  /* a counter: below 8 round the loop */
	ck_assert_uint_eq(c.lo, 1);
	ck_assert_uint_eq(c.hi, 8);
	ck_assert(!a.cfg->blocks[0].cyclic);
	ck_assert(a.cfg->blocks[a.cfg->block_of[13]].cyclic);
	ranges_release(&ro);
	release(&a);
}
END_TEST

/* Loop counters whose bound does not hold: the exit path comes back
 * without resetting the counter, the bound is unknown, the step may be 0,
 * a signed test of a value that may wrap negative. */
START_TEST(value_ranges_of_counters)
{
	Analysed a = analyse(HEADER
		".entry k(.param .u32 n)\n{\n"
		".reg .b32 %r<12>;\n.reg .pred %p<4>;\n"
		"ld.param.u32 %r1, [n];\n"          /* 0 */
		"mov.u32 %r2, 0;\n"                 /* 1 */
		"L1:\nadd.s32 %r2, %r2, 1;\n"      /* 2: comes back past the exit */
		"setp.lt.u32 %p1, %r2, 8;\n"        /* 3 */
		"@%p1 bra L1;\n"                    /* 4 */
		"setp.eq.u32 %p2, %r1, 0;\n"        /* 5 */
		"@%p2 bra L1;\n"                    /* 6 */
		"mov.u32 %r3, 0;\n"                 /* 7 */
		"L2:\nadd.s32 %r3, %r3, 1;\n"      /* 8: unknown bound */
		"setp.lt.u32 %p3, %r3, %r1;\n"      /* 9 */
		"@%p3 bra L2;\n"                    /* 10 */
		"and.b32 %r4, %r1, 1;\n"            /* 11 */
		"mov.u32 %r5, 0;\n"                 /* 12 */
		"L3:\nadd.s32 %r5, %r5, %r4;\n"    /* 13: step may be 0 */
		"setp.lt.u32 %p3, %r5, 8;\n"        /* 14 */
		"@%p3 bra L3;\n"                    /* 15 */
		"mov.u32 %r6, 0;\n"                 /* 16 */
		"L4:\nadd.s32 %r6, %r6, 2;\n"      /* 17: a signed test near the top */
		"setp.lt.s32 %p3, %r6, 2147483647;\n" /* 18 */
		"@%p3 bra L4;\n"                    /* 19 */
		"mov.u32 %r7, 0;\n"                 /* 20 */
		"L5:\nadd.s32 %r7, %r7, 3;\n"      /* 21: le, and the bound on the left */
		"setp.ge.s32 %p3, 30, %r7;\n"       /* 22 */
		"@%p3 bra L5;\n"                    /* 23 */
		"ret;\n}\n");
	RangesOf ro;
	Ranges *rs = ranges_of(&ro, &a);
	ck_assert_uint_eq(range_of_def(rs, 2).hi, UINT32_MAX);
	ck_assert_uint_eq(range_of_def(rs, 8).hi, UINT32_MAX);
	ck_assert_uint_eq(range_of_def(rs, 13).hi, UINT32_MAX);
	ck_assert_uint_eq(range_of_def(rs, 17).hi, UINT32_MAX);
	ck_assert_uint_eq(range_of_def(rs, 21).lo, 3);
	ck_assert_uint_eq(range_of_def(rs, 21).hi, 33);
	ranges_release(&ro);
	release(&a);
}
END_TEST

/* loop_trips: one-block loops closed by a constant counter and test,
 * counted by hand: up to ne 6 (6); the test before the step (lt 9 read
 * before adding: 10); down from 4 while 0 < it (4); a negated guard
 * (@!p, eq 10 by 2: 5); a 16-bit counter that wraps (65534 + 1 ... until
 * 2: 65535, 0, 1, 2: 4); and 0 where it is no such loop: a bound that is
 * a parameter, a step that never meets the bound (over the limit), two
 * ways in with different starts, a body of two blocks, a saturating add
 * (wrapping, it would meet the bound on the second trip; it stays at the top), a float counter. */
START_TEST(loop_trip_counts)
{
	Analysed a = analyse(HEADER
		".entry k(.param .u32 n)\n{\n"
		".reg .b16 %rs<4>;\n.reg .b32 %r<12>;\n.reg .f32 %f<2>;\n.reg .pred %p<4>;\n"
		"ld.param.u32 %r1, [n];\n"                                 /* 0 */
		"mov.u32 %r2, 0;\n"                                        /* 1 */
		"L1:\nadd.s32 %r2, %r2, 1;\nsetp.ne.s32 %p1, %r2, 6;\n@%p1 bra L1;\n"   /* 2-4 */
		"mov.u32 %r3, 0;\n"                                        /* 5 */
		"L2:\nsetp.lt.u32 %p1, %r3, 9;\nadd.s32 %r3, %r3, 1;\n@%p1 bra L2;\n"   /* 6-8 */
		"mov.u32 %r4, 4;\n"                                        /* 9 */
		"L3:\nadd.s32 %r4, %r4, -1;\nsetp.lt.s32 %p1, 0, %r4;\n@%p1 bra L3;\n"  /* 10-12 */
		"mov.u32 %r5, 0;\n"                                        /* 13 */
		"L4:\nadd.s32 %r5, %r5, 2;\nsetp.eq.u32 %p1, %r5, 10;\n@!%p1 bra L4;\n" /* 14-16 */
		"mov.u16 %rs1, 65534;\n"                                   /* 17 */
		"L5:\nadd.u16 %rs1, %rs1, 1;\nsetp.ne.u16 %p1, %rs1, 2;\n@%p1 bra L5;\n" /* 18-20 */
		"mov.u32 %r6, 0;\n"                                        /* 21 */
		"L6:\nadd.s32 %r6, %r6, 1;\nsetp.lt.u32 %p1, %r6, %r1;\n@%p1 bra L6;\n" /* 22-24 */
		"mov.u32 %r7, 0;\n"                                        /* 25 */
		"L7:\nadd.s32 %r7, %r7, 2;\nsetp.ne.u32 %p1, %r7, 7;\n@%p1 bra L7;\n"   /* 26-28 */
		"mov.u32 %r8, 0;\n"                                        /* 29 */
		"setp.eq.u32 %p2, %r1, 0;\n@%p2 bra L8;\nmov.u32 %r8, 1;\n" /* 30-32 */
		"L8:\nadd.s32 %r8, %r8, 1;\nsetp.lt.u32 %p1, %r8, 4;\n@%p1 bra L8;\n"   /* 33-35 */
		"mov.u32 %r9, 0;\n"                                        /* 36 */
		"L9:\nadd.s32 %r9, %r9, 1;\n@%p2 bra L10;\n"               /* 37-38 */
		"L10:\nsetp.lt.u32 %p1, %r9, 4;\n@%p1 bra L9;\n"           /* 39-40 */
		"mov.u32 %r10, 2147483640;\n"                              /* 41 */
		"L11:\nadd.sat.s32 %r10, %r10, 4;\nsetp.ne.s32 %p1, %r10, -2147483648;\n@%p1 bra L11;\n" /* 42-44 */
		"mov.f32 %f1, 0f00000000;\n"                               /* 45 */
		"L12:\nadd.f32 %f1, %f1, 0f3F800000;\nsetp.lt.f32 %p1, %f1, 0f40C00000;\n@%p1 bra L12;\n" /* 46-48 */
		"ret;\n}\n");
	/* a loop's first instruction, the limit, its trips */
	static const uint32_t want[][3] = {{2, 4096, 6}, {6, 4096, 10}, {10, 4096, 4}, {14, 4096, 5},
		{18, 4096, 4}, {10, 3, 0}, {22, 4096, 0}, {26, 4096, 0}, {33, 4096, 0}, {37, 4096, 0},
		{39, 4096, 0}, {42, 4096, 0}, {46, 4096, 0}};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		ck_assert_uint_eq(loop_trips(a.cfg, a.defs, a.cfg->block_of[want[i][0]], want[i][1]), want[i][2]);
	uint32_t d[2];   /* %r8's ways into L8: mov 0 (29), mov 1 (32) */
	ck_assert_uint_eq(loop_entry_defs(a.cfg, a.defs, a.cfg->block_of[33], intern_cstr("%r8"), d, 2), 2);
	ck_assert(d[0] + d[1] == 29 + 32 && d[0] != d[1]);
	ck_assert_uint_eq(loop_entry_defs(a.cfg, a.defs, a.cfg->block_of[33], intern_cstr("%r8"), d, 1), 0);
	release(&a);
}
END_TEST

START_TEST(value_ranges_reqntid)
{
	Analysed a = analyse(HEADER
		".entry k()\n.reqntid 32, 4, 2\n{\n.reg .b32 %r<4>;\n"
		"mov.u32 %r1, %tid.y;\nmov.u32 %r2, %ntid.z;\nmov.u32 %r3, %laneid;\nret;\n}\n");
	RangesOf ro;
	Ranges *rs = ranges_of(&ro, &a);
	ck_assert_uint_eq(range_of_def(rs, 0).hi, 3);
	ck_assert_uint_eq(range_of_def(rs, 1).lo, 2);
	ck_assert_uint_eq(range_of_def(rs, 1).hi, 2);
	ck_assert_uint_eq(range_of_def(rs, 2).hi, 31);
	ranges_release(&ro);
	release(&a);
}
END_TEST

/* One value in, one value out: bitwise operations, add, sub and mul.lo of
 * two known values are exact, wrapped as the machine wraps; a known value
 * truncated keeps its low bits.  Not of one value known and one not. */
START_TEST(value_ranges_of_constants)
{
	Analysed a = analyse(HEADER
		".entry k(.param .u32 n)\n{\n.reg .b32 %r<12>;\n.reg .b64 %rd<4>;\n"
		"mov.u32 %r1, 3;\n"                  /* 0 */
		"and.b32 %r2, %r1, 6;\n"             /* 1: 2 */
		"or.b32 %r3, %r1, 8;\n"              /* 2: 11 */
		"xor.b32 %r4, %r1, 1;\n"             /* 3: 2 */
		"sub.s32 %r5, %r4, %r3;\n"           /* 4: -9, wrapped */
		"add.s32 %r6, %r5, 10;\n"            /* 5: 1, wrapped back */
		"mul.lo.s32 %r7, %r5, %r5;\n"        /* 6: 81 */
		"mov.u64 %rd1, -2;\n"                /* 7 */
		"cvt.u32.u64 %r8, %rd1;\n"           /* 8: 0xfffffffe */
		"ld.param.u32 %r9, [n];\n"           /* 9 */
		"and.b32 %r10, %r9, 6;\n"            /* 10: up to 6 */
		"ret;\n}\n");
	RangesOf ro;
	Ranges *rs = ranges_of(&ro, &a);
	static const uint64_t want[][2] = {{1, 2}, {2, 11}, {3, 2}, {4, 0xfffffff7}, {5, 1}, {6, 81},
		{8, 0xfffffffe}};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		Range r = range_of_def(rs, (uint32_t)want[i][0]);
		ck_assert_uint_eq(r.lo, want[i][1]);
		ck_assert_uint_eq(r.hi, want[i][1]);
	}
	ck_assert_uint_eq(range_of_def(rs, 10).lo, 0);
	ck_assert_uint_eq(range_of_def(rs, 10).hi, 6);
	ranges_release(&ro);
	release(&a);
}
END_TEST

/* defs_writers: every write of a register reaches each of its reads,
 * wherever it is, and no entry value; a part's write is a write. */
START_TEST(writers_reach_everywhere)
{
	Analysed a = analyse(HEADER
		".entry k(.param .u32 n)\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n"
		"ld.param.u32 %r1, [n];\n"          /* 0 */
		"setp.eq.u32 %p1, %r1, 0;\n"        /* 1 */
		"@%p1 bra L;\n"                     /* 2 */
		"mov.u32 %r2, 1;\n"                 /* 3 */
		"L:\nadd.s32 %r3, %r2, %r1;\n"      /* 4 */
		"mov.u32 %r2, 2;\n"                 /* 5: after the read, still counted */
		"mov.b32 %r1.b0, 7;\n"              /* 6: a part */
		"ret;\n}\n");
	Defs *w = defs_writers(a.cfg);
	uint32_t out[4];
	ck_assert_uint_eq(defs_reaching(w, 4, intern_cstr("%r2"), out, 4), 2);
	ck_assert_uint_eq(out[0], 3);
	ck_assert_uint_eq(out[1], 5);
	ck_assert_uint_eq(defs_reaching(w, 1, intern_cstr("%r1"), out, 4), 2);
	ck_assert_uint_eq(out[0], 0);
	ck_assert_uint_eq(out[1], 6);
	ck_assert_uint_eq(defs_reaching(w, 4, intern_cstr("%r0"), out, 4), 0);   /* never written */
	ck_assert_uint_eq(defs_uses(w, 3, intern_cstr("%r2"), out, 4), 0);
	/* the real analysis: only the write before the read, and the entry's */
	ck_assert_uint_eq(defs_reaching(a.defs, 4, intern_cstr("%r2"), out, 4), 2);
	ck_assert_uint_eq(out[0], DEF_ENTRY);
	ck_assert_uint_eq(out[1], 3);
	defs_free(w);
	release(&a);
}
END_TEST

/* Float ranges (ir/frange.c): each computed bound widened outward by at
 * most a relative 2^-20 plus the smallest normal, so [lo, hi] holds the
 * exact interval and is within a relative 2^-17 of it. */
static void ck_frange(FRange r, double lo, double hi, int nan)
{
	double slo = (lo < 0 ? -lo : lo) * 0x1p-17 + 1e-30, shi = (hi < 0 ? -hi : hi) * 0x1p-17 + 1e-30;
	ck_assert_msg(r.lo <= lo && r.lo >= lo - slo, "lo %.9g, want %.9g", r.lo, lo);
	ck_assert_msg(r.hi >= hi && r.hi <= hi + shi, "hi %.9g, want %.9g", r.hi, hi);
	ck_assert_int_eq(r.nan, nan);
}

START_TEST(float_ranges)
{
	Analysed a = analyse(HEADER
		".entry k(.param .u32 n, .param .f32 x)\n{\n.reg .b32 %r<4>;\n.reg .f32 %f<16>;\n"
		".reg .f64 %fd<4>;\n.reg .pred %p<2>;\n"
		"ld.param.u32 %r1, [n];\n"                     /* 0 */
		"and.b32 %r2, %r1, 255;\n"                     /* 1: [0, 255] */
		"cvt.rn.f32.u32 %f1, %r2;\n"                   /* 2: [0, 255] */
		"mul.f32 %f2, %f1, 0f3E800000;\n"              /* 3: * 0.25: [0, 63.75] */
		"sub.f32 %f3, 0f00000000, %f2;\n"              /* 4: [-63.75, 0] */
		"abs.f32 %f4, %f3;\n"                          /* 5: [0, 63.75] */
		"fma.rn.f32 %f5, %f2, %f2, 0fBF800000;\n"      /* 6: [-1, 63.75^2 - 1 = 4063.0625] */
		"ld.param.f32 %f6, [x];\n"                     /* 7: anything, NaN */
		"add.f32 %f7, %f6, 0f3F800000;\n"              /* 8: anything, NaN */
		"mul.f32 %f8, %f2, 0f7F800000;\n"              /* 9: * inf: [0, inf], 0 * inf NaN */
		"mul.f32 %f9, %f2, 0f7F7FFFFF;\n"              /* 10: * FLT_MAX: [0, inf] (overflow), no NaN */
		"sub.f32 %f10, %f9, %f9;\n"                    /* 11: inf - inf: NaN */
		"add.sat.f32 %f11, %f6, 0f3F800000;\n"         /* 12: [0, 1], NaN made 0 */
		"setp.lt.u32 %p1, %r1, 9;\n"                   /* 13 */
		"selp.f32 %f12, %f2, 0fBF800000, %p1;\n"       /* 14: [-1, 63.75] */
		"cvt.s32.f32 %r3, %f2;\n"                      /* 15 */
		"cvt.f64.f32 %fd1, %f2;\n"                     /* 16: [0, 63.75] */
		"add.f64 %fd2, %fd1, 0d3FF0000000000000;\n"    /* 17: [1, 64.75] */
		"max.f32 %f13, %f2, 0f40000000;\n"             /* 18: [2, 63.75] */
		"neg.f32 %f14, %f13;\n"                        /* 19: [-63.75, -2] */
		"min.f32 %f15, %f6, %f2;\n"                    /* 20: NaN only if both are */
		"mov.f32 %f1, 0f00000000;\n"                   /* 21 */
		"L:\nadd.f32 %f1, %f1, 0f3F800000;\n"          /* 22: round a loop: unbounded */
		"setp.lt.f32 %p1, %f1, 0f41200000;\n"          /* 23 */
		"@%p1 bra L;\n"                                /* 24 */
		"ret;\n}\n");
	RangesOf ro;
	Ranges *rs = ranges_of(&ro, &a);
	Ranges *fr = rs;   /* the float ranges are asked of the integer ones' */
	ck_frange(frange_of_def(fr, 2), 0, 255, 0);
	ck_frange(frange_of_def(fr, 3), 0, 63.75, 0);
	ck_frange(frange_of_def(fr, 4), -63.75, 0, 0);
	ck_frange(frange_of_def(fr, 5), 0, 63.75, 0);
	ck_frange(frange_of_def(fr, 6), -1, 4063.0625, 0);
	FRange any = frange_of_def(fr, 8);
	ck_assert(any.lo == -INFINITY && any.hi == INFINITY && any.nan);
	FRange r = frange_of_def(fr, 9);
	ck_assert(r.lo <= 0 && r.hi == INFINITY && r.nan);
	r = frange_of_def(fr, 10);
	ck_assert(r.lo <= 0 && r.lo > -1e-30 && r.hi == INFINITY && !r.nan);
	ck_assert(frange_of_def(fr, 11).nan);
	r = frange_of_def(fr, 12);
	ck_assert(r.lo == 0 && r.hi == 1 && !r.nan);
	ck_frange(frange_of_def(fr, 14), -1, 63.75, 0);
	ck_assert(frange_of_def(fr, 15).nan);   /* an integer result: not a float range */
	ck_frange(frange_of_def(fr, 16), 0, 63.75, 0);
	ck_frange(frange_of_def(fr, 17), 1, 64.75, 0);
	ck_frange(frange_of_def(fr, 18), 2, 63.75, 0);
	ck_frange(frange_of_def(fr, 19), -63.75, -2, 0);
	ck_assert(!frange_of_def(fr, 20).nan);
	ck_assert(frange_of(fr, 23, name_expr(intern_cstr("%f1")), 32).hi == INFINITY);
	ck_frange(frange_of(fr, 4, num_expr(intern_cstr("0f3E800000")), 32), 0.25, 0.25, 0);
	ranges_release(&ro);
	release(&a);
}
END_TEST

/* ir/fold.c: what folds once the parameter reads are seeds, from which
 * seeds (bit 1: a, bit 2: b), and whether copies sharing those inputs
 * compute it once: not a decided branch, nor what lies inside an if. */
static uint32_t seed_params(void *ctx, const Ins *in)
{
	const char *name;
	int64_t off;
	(void)ctx;
	if (in->sp->code != O_ld || in->sp->space != SPACE_PARAM || !addr_name_off(in->ops[1], &name, &off))
		return 0;
	return !strcmp(name, "a") ? 1 : 2;
}

static void record_fold(void *ctx, uint32_t from, int shared)
{
	Seen *s = ctx;
	size_t n = strlen(s->text);
	snprintf(s->text + n, sizeof s->text - n, "%s%u%c", n ? " " : "", from, shared ? 's' : 'n');
}

START_TEST(folds_and_their_inputs)
{
	Module *m = parse_ok(HEADER
		".func f(.param .b32 a, .param .b32 b)\n{\n.reg .b32 %r<8>;\n.reg .pred %p<2>;\n"
		"ld.param.u32 %r1, [a];\n"
		"ld.param.u32 %r2, [b];\n"
		"add.s32 %r3, %r1, 1;\n"             /* 1, shared */
		"mul.lo.s32 %r4, %r3, %r2;\n"        /* 1|2 */
		"mov.u32 %r5, %tid.x;\n"             /* not known */
		"add.s32 %r6, %r5, %r1;\n"           /* reads it: no */
		"setp.eq.s32 %p1, %r2, 0;\n"         /* 2 */
		"@%p1 bra DONE;\n"                   /* decided: each copy's own */
		"add.s32 %r7, %r4, 1;\n"             /* inside the if: each copy's own */
		"DONE:\nret;\n}\n");
	Seen seen = {{0}};
	ck_assert_uint_eq(fold_given(first_func(m), seed_params, &seen, record_fold), 5);
	ck_assert_str_eq(seen.text, "1s 3s 2s 2n 3n");
	mod_free(m);
}
END_TEST

START_TEST(register_uses)
{
	Analysed a = analyse(HEADER
		".entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n.reg .pred %p<2>;\n"
		"ld.param.u64 %rd1, [p];\n"        /* 0 */
		"mov.u32 %r1, %tid.x;\n"           /* 1 */
		"add.s32 %r2, %r1, %r1;\n"         /* 2: %r1 read twice, counted once */
		"setp.lt.u32 %p1, %r2, 8;\n"       /* 3 */
		"@%p1 add.s32 %r2, %r2, 1;\n"      /* 4: guarded, still a write */
		"st.global.u32 [%rd1+4], %r2;\n"   /* 5: a read inside an address */
		"ret;\n}\n");
	RegUses *u = reguses_build(a.cfg);
	uint32_t n, last = 0;
	const uint32_t *r = reguses_reads(u, intern_cstr("%r1"), &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(r[0], 2);
	r = reguses_reads(u, intern_cstr("%r2"), &n);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(r[0], 3);
	ck_assert_uint_eq(r[1], 4);
	ck_assert_uint_eq(r[2], 5);
	r = reguses_reads(u, intern_cstr("%rd1"), &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(r[0], 5);
	r = reguses_reads(u, intern_cstr("%p1"), &n);  /* a guard is read */
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(r[0], 4);
	ck_assert_uint_eq(reguses_writes(u, intern_cstr("%r2"), &last), 2);
	ck_assert_uint_eq(last, 4);
	ck_assert_uint_eq(reguses_writes(u, intern_cstr("%r1"), &last), 1);
	ck_assert_uint_eq(last, 1);
	ck_assert_uint_eq(reguses_writes(u, intern_cstr("%r3"), &last), 0);  /* never mentioned */
	reguses_reads(u, intern_cstr("%r3"), &n);
	ck_assert_uint_eq(n, 0);
	reguses_free(u);
	release(&a);
}
END_TEST

/* More registers than the table was first sized for: it grows, and every
 * register keeps its reads. */
START_TEST(register_uses_many)
{
	char *src = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&src, &len);
	fprintf(f, HEADER ".entry k()\n{\n.reg .b32 %%r<2001>;\nmov.u32 %%r0, 1;\n");
	for (int i = 1; i <= 2000; i++)  /* %ri = %r(i-1) + %r(i-1): one instruction, 2000 registers */
		fprintf(f, "add.s32 %%r%d, %%r%d, %%r%d;\n", i, i - 1, i - 1);
	fprintf(f, "ret;\n}\n");
	fclose(f);
	Analysed a = analyse(src);
	free(src);
	RegUses *u = reguses_build(a.cfg);
	for (int i = 0; i < 2000; i++) {
		char name[16];
		snprintf(name, sizeof name, "%%r%d", i);
		uint32_t n, last = 0;
		const uint32_t *r = reguses_reads(u, intern_cstr(name), &n);
		ck_assert_uint_eq(n, 1);
		ck_assert_uint_eq(r[0], (uint32_t)i + 1);
		ck_assert_uint_eq(reguses_writes(u, intern_cstr(name), &last), 1);
		ck_assert_uint_eq(last, (uint32_t)i);
	}
	reguses_free(u);
	release(&a);
}
END_TEST

START_TEST(call_graph)
{
	Module *m = parse_ok(HEADER
		".func (.param .b32 r) f(.param .b32 a)\n{\nret;\n}\n"
		".func (.param .b32 r) g(.param .b32 a)\n{\ncall.uni (r), f, (a);\nret;\n}\n"
		".func h()\n{\nret;\n}\n"
		".global .align 8 .u64 tab[1] = {g};\n"
		".entry k()\n{\n.reg .b64 %rd<3>;\nmov.u64 %rd1, h;\n"
		"call.uni g, (%rd1);\ncall (%rd2), %rd1, (%rd1), p;\ncall.uni f;\n}\n");
	SymTab *syms = symtab_build(m);
	CallGraph *cg = callgraph_build(m, syms);
	ck_assert_uint_eq(cg_count(cg), 4);
	ck_assert_str_eq(cg_func(cg, 0)->name, "f");
	CgFunc *k = cg_find(cg, intern_cstr("k"));
	ck_assert_uint_eq(k->ncallees, 2);
	ck_assert_str_eq(k->callees[0], "g");
	ck_assert_str_eq(k->callees[1], "f");
	ck_assert_uint_eq(k->nindirect, 1);
	ck_assert(!cg_find(cg, intern_cstr("f"))->address_taken);
	ck_assert(cg_find(cg, intern_cstr("g"))->address_taken);   /* initializer */
	ck_assert(cg_find(cg, intern_cstr("h"))->address_taken);   /* mov */
	ck_assert_uint_eq(cg_find(cg, intern_cstr("g"))->ncallees, 1);
	callgraph_free(cg);
	symtab_free(syms);
	mod_free(m);
	/* a prototype and its later definition are one function */
	m = parse_ok(HEADER ".func h();\n.entry k()\n{\ncall.uni h;\n}\n.func h()\n{\nret;\n}\n");
	syms = symtab_build(m);
	cg = callgraph_build(m, syms);
	ck_assert_uint_eq(cg_count(cg), 2);
	ck_assert_ptr_nonnull(cg_find(cg, intern_cstr("h"))->def);
	ck_assert_uint_eq(cg_find(cg, intern_cstr("k"))->ncallees, 1);
	callgraph_free(cg);
	symtab_free(syms);
	mod_free(m);
}
END_TEST

static const char *flow_src = HEADER
	".func (.param .b32 r) a1(.param .b32 x);\n.func (.param .b32 r) a2(.param .b32 x);\n"
	".func (.param .b32 r) b1(.param .b32 x);\n.func (.param .b32 r) b2(.param .b32 x);\n"
	".func (.param .b32 r) c1(.param .b32 x);\n.func (.param .b32 r) cb(.param .b32 x);\n"
	".global .align 8 .u64 _ZTV1A[4] = {0, 0, a1, a2};\n"
	".global .align 8 .u64 _ZTV1B[4] = {0, 0, b1, b2};\n"
	".global .align 8 .u64 _ZTV1C[4] = {0, 0, c1, c1};\n"   /* never stored */
	".global .align 8 .u64 ops[2] = {a1, b1};\n"
	".global .align 8 .u64 slot;\n"
	".entry k(.param .u64 obj, .param .u32 w)\n{\n"
	".reg .pred %p<2>;\n.reg .b32 %r<3>;\n.reg .b64 %rd<20>;\n"
	"ld.param.u64 %rd1, [obj];\n"
	"ld.param.u32 %r1, [w];\n"
	"setp.eq.u32 %p1, %r1, 0;\n"
	"mov.u64 %rd2, _ZTV1A;\ncvta.global.u64 %rd3, %rd2;\nadd.s64 %rd4, %rd3, 16;\n"
	"mov.u64 %rd5, _ZTV1B;\ncvta.global.u64 %rd6, %rd5;\nadd.s64 %rd7, %rd6, 16;\n"
	"selp.b64 %rd8, %rd4, %rd7, %p1;\n"
	"st.u64 [%rd1], %rd8;\n"                 /* address points A+16, B+16 */
	"ld.u64 %rd9, [%rd1];\n"                 /* a vptr */
	"ld.u64 %rd10, [%rd9+8];\n"              /* slot +8: a2 or b2 */
	"ld.u64 %rd11, [%rd9];\n"                /* slot 0: a1 or b1 */
	"mov.u64 %rd12, cb;\n"
	"st.global.u64 [slot], %rd12;\n"         /* cb reaches memory */
	"ld.global.u64 %rd13, [slot];\n"         /* memory: cb only */
	"mov.u64 %rd14, ops;\n"
	"ld.global.u64 %rd15, [%rd14+8];\n"      /* a constant table: b1 */
	"mul.wide.u32 %rd16, %r1, 8;\nadd.s64 %rd17, %rd14, %rd16;\n"
	"ld.global.u64 %rd18, [%rd17];\n"        /* any entry of ops */
	"ret;\n}\n";

static int callees(Flow *fl, Module *m, const char *reg, const char **out)
{
	const Func *k = NULL;
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body)
			k = s->func;
	return flow_callees(fl, k, intern_cstr(reg), out, 8);
}

START_TEST(address_flow)
{
	Module *m = parse_ok(flow_src);
	SymTab *syms = symtab_build(m);
	Flow *fl = flow_build(m, syms);
	const char *c[8];
	/* slot +8 of the stored vtables, and what may sit in memory: cb
	 * (stored) and ops' entries (the host can copy them out) */
	ck_assert_int_eq(callees(fl, m, "%rd10", c), 5);
	ck_assert_str_eq(c[0], "a1");
	ck_assert_str_eq(c[1], "a2");
	ck_assert_str_eq(c[2], "b1");
	ck_assert_str_eq(c[3], "b2");
	ck_assert_str_eq(c[4], "cb");
	ck_assert_int_eq(callees(fl, m, "%rd11", c), 3);
	ck_assert_str_eq(c[0], "a1");
	ck_assert_str_eq(c[1], "b1");
	ck_assert_str_eq(c[2], "cb");
	ck_assert_int_eq(callees(fl, m, "%rd13", c), 3);   /* memory: cb, a1, b1 */
	ck_assert_str_eq(c[2], "cb");
	ck_assert_int_eq(callees(fl, m, "%rd15", c), 1);
	ck_assert_str_eq(c[0], "b1");
	ck_assert_int_eq(callees(fl, m, "%rd18", c), 2);
	ck_assert_int_eq(callees(fl, m, "%rd12", c), 1);
	ck_assert_int_eq(callees(fl, m, "%r1", c), 0);
	/* the vptr funnel's view: A+16 and B+16 hold a2 and b2 at +8 */
	FlowPoint pts[4];
	const Func *k = NULL;
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body)
			k = s->func;
	ck_assert_int_eq(flow_slot_points(fl, k, intern_cstr("%rd10"), pts, 4), 2);
	ck_assert_str_eq(pts[0].table, "_ZTV1A");
	ck_assert_int_eq(pts[0].off, 16);
	ck_assert_str_eq(pts[0].entry, "a2");
	ck_assert_str_eq(pts[1].entry, "b2");
	ck_assert_int_eq(flow_slot_points(fl, k, intern_cstr("%rd15"), pts, 4), -1);
	flow_free(fl);
	symtab_free(syms);
	mod_free(m);
}
END_TEST

Suite *values_suite(void)
{
	Suite *s = suite_create("values");
	TCase *tc = tcase_create("defs-values-calls");
	tcase_add_test(tc, reaching_definitions);
	tcase_add_test(tc, value_tracking);
	tcase_add_test(tc, value_ranges);
	tcase_add_test(tc, value_ranges_reqntid);
	tcase_add_test(tc, value_ranges_of_counters);
	tcase_add_test(tc, loop_trip_counts);
	tcase_add_test(tc, value_ranges_of_constants);
	tcase_add_test(tc, float_ranges);
	tcase_add_test(tc, writers_reach_everywhere);
	tcase_add_test(tc, folds_and_their_inputs);
	tcase_add_test(tc, register_uses);
	tcase_add_test(tc, register_uses_many);
	tcase_add_test(tc, call_graph);
	tcase_add_test(tc, address_flow);
	suite_add_tcase(s, tc);
	return s;
}
