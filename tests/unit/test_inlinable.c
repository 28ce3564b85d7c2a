/* stages/inlinable.c: what inlining a callee depends on, each answer
 * worked out by hand from the callee's text. */
#include <stdlib.h>
#include "unit.h"
#include "stages/inlinable.h"

static const char *const text = HEADER
	".visible .func (.param .b32 r) leaf(.param .b32 a)\n{\n.reg .b32 %r<3>;\n"
	"ld.param.b32 %r1, [a];\nadd.s32 %r2, %r1, 1;\nst.param.b32 [r], %r2;\nret;\n}\n"
	".func rec()\n{\ncall.uni rec, ();\nret;\n}\n"
	".weak .func wk()\n{\nret;\n}\n"
	".extern .func ext();\n"
	".func data()\n{\n.shared .align 4 .b8 buf[4];\nret;\n}\n"
	".func prag()\n{\n.pragma \"nounroll\";\n{\n.pragma \"maxnreg 32\";\n}\nret;\n}\n"
	".func loop()\n{\n.reg .pred %p;\n.reg .b32 %r<2>;\nmov.u32 %r1, 0;\n$L:\n"
	"add.s32 %r1, %r1, 1;\nsetp.lt.s32 %p, %r1, 10;\n@%p bra $L;\nret;\n}\n"
	".func held(.param .b64 p, .param .b64 q, .param .b32 n)\n{\n.reg .b64 %rd<5>;\n.reg .b32 %r<3>;\n"
	"ld.param.u64 %rd1, [p];\nld.u32 %r1, [%rd1+4];\n"
	"ld.param.u64 %rd2, [q];\nld.param.u32 %r2, [n];\nmul.wide.s32 %rd3, %r2, 4;\n"
	"add.s64 %rd4, %rd2, %rd3;\nld.u32 %r1, [%rd4];\nret;\n}\n"
	".visible .entry k()\n{\ncall.uni leaf, ();\ncall.uni rec, ();\ncall.uni wk, ();\n"
	"call.uni ext, ();\ncall.uni data, ();\ncall.uni prag, ();\ncall.uni loop, ();\n"
	"call.uni held, ();\nret;\n}\n";

typedef struct Fixture {
	Module *m;
	SymTab *syms;
	CallGraph *cg;
	StageOptions o;
	Inlinable *in;
} Fixture;

static void fixture_open(Fixture *x, int closed)
{
	x->m = parse_ok(text);
	x->syms = symtab_build(x->m);
	x->cg = callgraph_build(x->m, x->syms);
	x->o = (StageOptions){.world = {.closed = closed}};
	x->in = inlinable_open(x->m, &x->o, x->cg);
}

static void fixture_close(Fixture *x)
{
	inlinable_close(x->in);
	callgraph_free(x->cg);
	symtab_free(x->syms);
	mod_free(x->m);
}

static int why(Fixture *x, const char *name, int shadowed)
{
	return inlinable_why(x->in, cg_find(x->cg, intern_cstr(name)), shadowed);
}

START_TEST(legality_in_order)
{
	Fixture x;
	fixture_open(&x, 0);
	ck_assert_int_eq(why(&x, "leaf", 0), -1);
	ck_assert_int_eq(why(&x, "leaf", 1), INL_SHADOW);     /* the caller's, after the callee's own */
	ck_assert_int_eq(why(&x, "rec", 1), INL_RECURSIVE);   /* before the caller's shadowing */
	ck_assert_int_eq(why(&x, "wk", 0), INL_WEAK);         /* an open world */
	ck_assert_int_eq(why(&x, "ext", 0), INL_UNDEFINED);
	ck_assert_int_eq(why(&x, "k", 0), INL_ENTRY);
	ck_assert_int_eq(why(&x, "data", 0), INL_DECL);
	ck_assert_int_eq(why(&x, "prag", 0), INL_PRAGMA);     /* nounroll is kept, maxnreg not */
	fixture_close(&x);
	fixture_open(&x, 1);
	ck_assert_int_eq(why(&x, "wk", 0), -1);               /* a closed world: no other definition */
	fixture_close(&x);
}
END_TEST

START_TEST(facts_of_a_callee)
{
	Fixture x;
	fixture_open(&x, 0);
	const CgFunc *leaf = cg_find(x.cg, intern_cstr("leaf")), *loop = cg_find(x.cg, intern_cstr("loop")),
		*held = cg_find(x.cg, intern_cstr("held"));
	ck_assert_uint_eq(body_size(&leaf->def->body), 4);
	ck_assert_uint_eq(body_size(&loop->def->body), 5);
	ck_assert_int_eq(inlinable_loops(x.in, loop), 3);     /* add, setp, bra */
	ck_assert_int_eq(inlinable_loops(x.in, leaf), 0);
	ck_assert_int_eq(inlinable_removable(x.in, leaf), 0); /* .visible in an open world */
	ck_assert_int_eq(inlinable_held(x.in, held, 0), PARAM_HELD);   /* [%rd1+4] only */
	ck_assert_int_eq(inlinable_held(x.in, held, 1), 0);            /* read at a run-time index */
	ck_assert_int_eq(inlinable_held_bytes(x.in, held, 0), 4);      /* bytes 4 .. 8 */
	ck_assert_int_eq(inlinable_held_bytes(x.in, held, 1), 0);
	fixture_close(&x);
	fixture_open(&x, 1);
	ck_assert_int_eq(inlinable_removable(x.in, cg_find(x.cg, intern_cstr("leaf"))), 1);
	fixture_close(&x);
}
END_TEST

/* The bits of name at the n-th instruction of m's function (text order). */
static int bits_at(const Module *m, int n, const char *name)
{
	const Func *f = NULL;
	for (const Stmt *s = m->items.head; s && !f; s = s->next)
		f = s->kind == S_FUNC ? s->func : NULL;
	BodyIt it;
	for (const Stmt *s = body_first(&f->body, &it); s; s = body_next(&it))
		if (s->kind == S_INS && n-- == 0) {
			int b = inlinable_bits(&it, it.in, name_expr(intern_cstr(name)));
			body_end(&it);
			return b;
		}
	return -1;
}

START_TEST(register_bits_by_scope)
{
	Module *m = parse_ok(HEADER ".func f()\n{\n.reg .b64 %rd<3>;\n.reg .b16 %h;\nmov.b64 %rd1, 0;\n"
		"{\n.reg .b32 %rd<2>;\nmov.b32 %rd1, 0;\nmov.b64 %rd2, 0;\n}\nret;\n}\n");
	ck_assert_int_eq(bits_at(m, 0, "%rd1"), 64);
	ck_assert_int_eq(bits_at(m, 0, "%h"), 16);
	ck_assert_int_eq(bits_at(m, 0, "%q"), 0);      /* nothing declares it */
	ck_assert_int_eq(bits_at(m, 0, "%rd3"), 0);    /* past the range */
	ck_assert_int_eq(bits_at(m, 1, "%rd1"), 32);   /* the inner block's range */
	ck_assert_int_eq(bits_at(m, 2, "%rd2"), 64);   /* past the inner range: the outer one's */
	ck_assert_int_eq(bits_at(m, 2, "%h"), 16);
	mod_free(m);
}
END_TEST

static const Func *func_named(const Module *m, const char *name)
{
	for (const Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && !strcmp(s->func->name, name))
			return s->func;
	return NULL;
}

/* The callee's side of parameter name of f, checked in place. */
static int slots_of(const Module *m, const char *f, const char *name, int ret, Param *g)
{
	*g = (Param){.ret = ret};
	SlotWalk w = {.g = g, .name = intern_cstr(name)};
	return slots_walk(&w, &func_named(m, f)->body);
}

START_TEST(slots_in_place)
{
	Module *m = parse_ok(HEADER
		".func (.param .b32 r) f(.param .align 8 .b8 a[8])\n{\n.reg .b32 %r<3>;\n.reg .b16 %h;\n"
		"ld.param.b32 %r1, [a];\nld.param.v2.b16 {%h, %h}, [a+4];\nst.param.b32 [r], %r1;\nret;\n}\n"
		".func g(.param .b32 a)\n{\n.reg .b32 %r1;\n.reg .b16 %h;\n"
		"ld.param.b32 %r1, [a];\nld.param.b16 %h, [a+2];\nret;\n}\n"
		".func h(.param .b32 a)\n{\n.reg .b16 %h;\nld.param.b32 %h, [a];\nret;\n}\n"
		".func w(.param .b32 a)\n{\nst.param.b32 [a], 1;\nret;\n}\n");
	Param g;
	ck_assert_int_eq(slots_of(m, "f", "a", 0, &g), -1);
	ck_assert_uint_eq(g.nslots, 3);                  /* [0,4), [4,6), [6,8) */
	ck_assert(g.slots[0].read && !g.slots[0].written);
	ck_assert(g.slots[2].off == 6 && g.slots[2].size == 2);
	free(g.slots);
	ck_assert_int_eq(slots_of(m, "f", "r", 1, &g), -1);   /* a result the callee writes */
	ck_assert(g.nslots == 1 && g.slots[0].written);
	free(g.slots);
	ck_assert_int_eq(slots_of(m, "g", "a", 0, &g), INL_OVERLAP);   /* [0,4) and [2,4) */
	free(g.slots);
	ck_assert_int_eq(slots_of(m, "h", "a", 0, &g), INL_PARAM);     /* 32 bits into a 16-bit register */
	free(g.slots);
	ck_assert_int_eq(slots_of(m, "w", "a", 0, &g), INL_PARAM);     /* an argument written */
	free(g.slots);
	mod_free(m);
}
END_TEST

START_TEST(depot_in_place)
{
	Module *m = parse_ok(HEADER
		".func one()\n{\n.local .align 4 .b8 __local_depot0[8];\n.reg .b64 %SPL;\n"
		"mov.u64 %SPL, __local_depot0;\nret;\n}\n"
		".func two()\n{\n.local .align 4 .b8 __local_depot1[8];\n.reg .b64 %SPL, %SP;\n"
		"mov.u64 %SPL, __local_depot1;\nmov.u64 %SP, __local_depot1;\nret;\n}\n"
		".func none()\n{\nret;\n}\n");
	Stmt *d, *mov;
	ck_assert_int_eq(inlinable_depot(&func_named(m, "one")->body, &d, &mov), -1);
	ck_assert(d && mov && mov->ins.ops[0]->str == intern_cstr("%SPL"));
	ck_assert_int_eq(inlinable_depot(&func_named(m, "two")->body, &d, &mov), INL_DEPOT);   /* two movs */
	ck_assert_int_eq(inlinable_depot(&func_named(m, "none")->body, &d, &mov), -1);
	ck_assert(!d && !mov);
	mod_free(m);
}
END_TEST

/* A caller's facts: c passes its depot's address to held's p (read at
 * [%rd1+4] only) and then to its q (read at a run-time index, nothing
 * stored into it); d steps its %SPL; e declares %r again in a block. */
static const char *const callers = HEADER
	".func held(.param .b64 p, .param .b64 q, .param .b32 n)\n{\n.reg .b64 %rd<5>;\n.reg .b32 %r<3>;\n"
	"ld.param.u64 %rd1, [p];\nld.u32 %r1, [%rd1+4];\n"
	"ld.param.u64 %rd2, [q];\nld.param.u32 %r2, [n];\nmul.wide.s32 %rd3, %r2, 4;\n"
	"add.s64 %rd4, %rd2, %rd3;\nld.u32 %r1, [%rd4];\nret;\n}\n"
	".func c()\n{\n.local .align 4 .b8 __local_depot0[16];\n.reg .b64 %SPL;\n.reg .b64 %rd<2>;\n"
	"mov.u64 %SPL, __local_depot0;\nadd.u64 %rd1, %SPL, 0;\n"
	"{\n.param .b64 a0;\nst.param.b64 [a0], %rd1;\n.param .b64 a1;\nst.param.b64 [a1], 0;\n"
	".param .b32 a2;\nst.param.b32 [a2], 0;\ncall.uni held, (a0, a1, a2);\n}\n"
	"{\n.param .b64 b0;\nst.param.b64 [b0], 0;\n.param .b64 b1;\nst.param.b64 [b1], %rd1;\n"
	".param .b32 b2;\nst.param.b32 [b2], 0;\ncall.uni held, (b0, b1, b2);\n}\nret;\n}\n"
	".func d()\n{\n.local .align 4 .b8 __local_depot1[8];\n.reg .b64 %SPL;\n"
	"mov.u64 %SPL, __local_depot1;\nadd.u64 %SPL, %SPL, 8;\nret;\n}\n"
	".func e()\n{\n.reg .b32 %r;\n{\n.reg .b32 %r;\nmov.u32 %r, 1;\n}\nret;\n}\n";

/* The n-th call of f (text order). */
static const Stmt *call_at(const Func *f, int n, const List **in)
{
	BodyIt it;
	for (const Stmt *s = body_first(&f->body, &it); s; s = body_next(&it))
		if (stmt_is_call(s) && n-- == 0) {
			*in = it.in;
			body_end(&it);
			return s;
		}
	return NULL;
}

static int skip_call(const void *call, const Stmt *s)
{
	return s == call;
}

START_TEST(facts_of_a_caller)
{
	Module *m = parse_ok(callers);
	SymTab *syms = symtab_build(m);
	CallGraph *cg = callgraph_build(m, syms);
	StageOptions o = {0};
	Inlinable *inl = inlinable_open(m, &o, cg);
	const CgFunc *held = cg_find(cg, intern_cstr("held"));
	CallerFacts c = {.f = func_named(m, "c")}, d = {.f = func_named(m, "d")}, e = {.f = func_named(m, "e")};
	ck_assert_int_eq(caller_depot(&c), 1);
	ck_assert(c.spl == intern_cstr("%SPL") && !c.sp && c.own == 16);
	ck_assert_uint_eq(body_writes(&d.f->body, intern_cstr("%SPL")), 2);
	ck_assert_int_eq(caller_depot(&d), 0);                /* it steps its start */
	ck_assert_int_eq(caller_shadowed(&c), 0);
	ck_assert_int_eq(caller_shadowed(&e), 1);
	const List *l;
	const Stmt *call = call_at(c.f, 0, &l);
	int bytes = 0, loads = 0;
	ck_assert_int_eq(caller_passes_local(&c, inl, call, l, held, &bytes, &loads), COST_LOCAL_HELD);
	ck_assert_int_eq(bytes, 4);   /* the depot's address to p: held reads 4 of its bytes */
	call = call_at(c.f, 1, &l);
	bytes = 0;
	ck_assert_int_eq(caller_passes_local(&c, inl, call, l, held, &bytes, &loads), COST_LOCAL_PASSED);
	ck_assert_int_eq(bytes, 0);
	ck_assert_int_eq(loads, 1);   /* q's one load at a run-time index */
	caller_facts_free(&c);
	caller_facts_free(&d);
	caller_facts_free(&e);
	inlinable_close(inl);
	callgraph_free(cg);
	symtab_free(syms);
	mod_free(m);
}
END_TEST

/* c's first call of held: three .params, each one slot on either side
 * (8, 8 and 4 bytes); the module's 24 instructions (held 8, c 11, d 3,
 * e 2) and held's two calls. */
START_TEST(a_call_and_the_budget)
{
	Module *m = parse_ok(callers);
	SymTab *syms = symtab_build(m);
	CallGraph *cg = callgraph_build(m, syms);
	StageOptions o = {.inlining = {.growth = 10}};
	Inlinable *inl = inlinable_open(m, &o, cg);
	const CgFunc *held = cg_find(cg, intern_cstr("held"));
	ck_assert_uint_eq(inlinable_size(inl), 24);
	ck_assert_uint_eq(inlinable_budget(inl), 500);       /* 10% of CALLER_MAX, the module smaller */
	ck_assert_uint_eq(inlinable_calls(inl, held), 2);
	ck_assert_uint_eq(inlinable_charge(inl, held, 2), 8);
	ck_assert_uint_eq(inlinable_charge(inl, held, 1), 0); /* its last call, and it goes */
	ck_assert_int_eq(inlinable_oversize(CALLER_MAX, held), 0);
	ck_assert_int_eq(inlinable_oversize(CALLER_MAX + 1, held), 1);
	CallerFacts c = {.f = func_named(m, "c")};
	const List *l;
	const Stmt *call = call_at(c.f, 0, &l);
	CallParts cp;
	ck_assert(ins_call_parts(&call->ins, &cp));
	CallParams ps = {.list = (List *)l};
	Group *g = NULL;
	uint32_t ng = 0;
	ck_assert_int_eq(call_groups(&ps, &cp, held->def, &g, &ng), -1);
	ck_assert_uint_eq(ng, 3);
	ck_assert_uint_eq(ps.n, 3);
	ck_assert(g[1].param == 1 && g[1].inner == intern_cstr("q") && ps.v[1].outer == intern_cstr("a1"));
	ck_assert_int_eq(callee_slots(&ps, g, ng, held->def), -1);
	ck_assert(ps.v[0].nslots == 1 && ps.v[0].slots[0].size == 8 && ps.v[2].slots[0].size == 4);
	ck_assert_int_eq(call_overhead(&ps, g, ng), 5);      /* call, ret, a move per slot */
	Names types = {0};
	names_in_module(&types, inlinable_names(inl), c.f);
	SlotWalk w = {.ctx = call, .skip = skip_call, .types = &types};
	ck_assert_int_eq(caller_slots(&ps, &w), -1);
	ck_assert_uint_eq(ps.v[2].nslots, 1);                /* the st.param's bytes are the callee's */
	CostFacts f = caller_cost_facts(&c, inl, call, l, held, 2, 2);
	ck_assert(f.body == 8 && f.copies == 2 && f.local == COST_LOCAL_HELD && f.last == 1 && !f.overhead);
	names_free(&types);
	free(g);
	params_free(&ps);
	caller_facts_free(&c);
	inlinable_close(inl);
	callgraph_free(cg);
	symtab_free(syms);
	mod_free(m);
}
END_TEST

Suite *inlinable_suite(void)
{
	Suite *s = suite_create("inlinable");
	TCase *tc = tcase_create("callee");
	tcase_add_test(tc, legality_in_order);
	tcase_add_test(tc, facts_of_a_callee);
	tcase_add_test(tc, register_bits_by_scope);
	tcase_add_test(tc, slots_in_place);
	tcase_add_test(tc, depot_in_place);
	tcase_add_test(tc, facts_of_a_caller);
	tcase_add_test(tc, a_call_and_the_budget);
	suite_add_tcase(s, tc);
	return s;
}
