/* One answer per question (ir/): the walk over a body, its calls, a
 * function's depot, the call graph's components, declaration order,
 * .param accesses, the sink operand and register names. */
#include <stdlib.h>
#include "unit.h"

static Func *func_named(Module *m, const char *name)
{
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body && !strcmp(s->func->name, name))
			return s->func;
	ck_abort_msg("no function %s", name);
	return NULL;
}

/* What a statement is, in a word: its opcode, label or kind. */
static const char *word(const Stmt *s)
{
	switch (s->kind) {
	case S_INS: return s->ins.sp->base;
	case S_LABEL: return s->label;
	case S_SCOPE: return "{";
	case S_VAR: return s->var.ds[0].name;
	case S_LOC: return ".loc";
	default: return "?";
	}
}

static void put(char *out, size_t size, const char *fmt, const char *w, unsigned d)
{
	size_t n = strlen(out);
	snprintf(out + n, size - n, fmt, n ? " " : "", w, d);
}

static const char nested[] = HEADER
	".func g(.param .b32 a)\n{\nret;\n}\n"
	".entry k()\n{\n"
	".reg .b32 %r<4>;\n"
	"A: mov.b32 %r1, 1;\n"
	"{\n  add.s32 %r1, %r1, 1;\n  {\n    .param .b32 p;\n    call g, (p);\n  }\n  B: sub.s32 %r1, %r1, 1;\n}\n"
	"{\n}\n"
	"ret;\n}\n";

START_TEST(body_walk_in_text_order)
{
	Module *m = parse_ok(nested);
	Func *f = func_named(m, "k");
	char got[512] = "";
	BodyIt it;
	for (Stmt *s = body_first(&f->body, &it); s; s = body_next(&it)) {
		put(got, sizeof got, "%s%s/%u", word(s), it.depth);
		ck_assert_ptr_eq(it.block ? &it.block->scope : &f->body, it.in);
	}
	ck_assert_str_eq(got, "%r/0 A/0 mov/0 {/0 add/1 {/1 p/2 call/2 B/1 sub/1 {/0 ret/0");
	mod_free(m);
}
END_TEST

/* The lists out from a statement, innermost first, as printf's lowering
 * asks; a scope skipped; the statement given removed as the walk goes. */
START_TEST(body_walk_outer_skip_remove)
{
	Module *m = parse_ok(nested);
	Func *f = func_named(m, "k");
	BodyIt it;
	Stmt *s = body_first(&f->body, &it);
	while (s && !stmt_is_call(s))
		s = body_next(&it);
	ck_assert_uint_eq(it.depth, 2);
	List *mid = body_outer(&it, 0);
	ck_assert_ptr_eq(body_outer(&it, 1), &f->body);
	ck_assert_ptr_null(body_outer(&it, 2));
	ck_assert_str_eq(word(mid->head), "add");
	ck_assert_ptr_eq(body_var(&it, intern_cstr("p")), it.in->head);
	ck_assert_ptr_eq(body_var(&it, intern_cstr("%r")), f->body.head);
	ck_assert_ptr_null(body_var(&it, intern_cstr("q")));
	body_end(&it);

	char got[256] = "";
	for (s = body_first(&f->body, &it); s; s = body_next(&it)) {
		if (s->kind == S_SCOPE && it.depth == 0 && s->scope.head)
			body_skip(&it);
		else if (s->kind == S_INS && s->ins.sp->code == O_mov)
			list_remove(it.in, s);
		put(got, sizeof got, "%s%s/%u", word(s), it.depth);
	}
	ck_assert_str_eq(got, "%r/0 A/0 mov/0 {/0 {/0 ret/0");
	ck_assert_str_eq(word(f->body.head->next->next), "{");
	mod_free(m);
}
END_TEST

/* From one statement to another of a list, into the scopes between. */
START_TEST(body_walk_range)
{
	Module *m = parse_ok(nested);
	Func *f = func_named(m, "k");
	Stmt *from = f->body.head->next->next, *to = from->next;   /* mov, the first { } */
	char got[256] = "";
	BodyIt it;
	for (Stmt *s = body_from(&it, &f->body, from, to); s; s = body_next(&it))
		put(got, sizeof got, "%s%s/%u", word(s), it.depth);
	ck_assert_str_eq(got, "mov/0 {/0 add/1 {/1 p/2 call/2 B/1 sub/1");
	mod_free(m);
}
END_TEST

START_TEST(body_calls)
{
	Module *m = parse_ok(HEADER
		".func g(.param .b32 a)\n{\nret;\n}\n"
		".entry k(.param .u64 fp)\n{\n"
		".reg .b64 %rd<2>;\n"
		".loc 1 10 0\n"
		"call g, (a);\n"
		"ld.param.u64 %rd1, [fp];\n"
		"{\n.loc 1 12 0\n"
		"p: .callprototype _ (.param .b32 _);\n"
		"call %rd1, (a), p;\n}\n"
		"call g, 1;\n"
		"ret;\n}\n");
	Func *f = func_named(m, "k");
	char got[256] = "";
	BodyIt it;
	CallParts c;
	for (Stmt *s = body_first_call(&f->body, &it, &c); s; s = body_next_call(&it, &c)) {
		char one[64];
		snprintf(one, sizeof one, "%s:%u:%s:%u", c.callee ? c.callee->str : "-", it.depth,
			c.whole ? "whole" : "part", it.at ? it.at->line : 0);
		put(got, sizeof got, "%s%s%.0u", one, 0);
	}
	ck_assert_str_eq(got, "g:0:whole:10 %rd1:1:whole:12 g:0:part:12");
	mod_free(m);
}
END_TEST

START_TEST(depot_of_a_function)
{
	Module *m = parse_ok(HEADER
		".func f()\n{\n"
		".local .align 8 .b8 __local_depot0[16];\n"
		".reg .b64 %SP;\n.reg .b64 %SPL;\n.reg .b64 %rd<3>;\n"
		"mov.u64 %rd1, 0;\n"
		"mov.u64 %SPL, __local_depot0;\n"
		"mov.u64 %rd2, __local_depot0;\n"
		"cvta.global.u64 %rd1, %SPL;\n"
		"cvta.local.u64 %SP, %SPL;\n"
		"ret;\n}\n"
		".func h()\n{\n"
		".reg .b64 %rd<3>;\n"
		"@%p1 mov.u64 %rd1, __local_depot9;\n"
		"ret;\n}\n");
	Depot d = func_depot(&func_named(m, "f")->body);
	ck_assert_str_eq(d.decl->var.ds[0].name, "__local_depot0");
	ck_assert_str_eq(d.spl, "%SPL");
	ck_assert_str_eq(d.sp, "%SP");
	ck_assert_str_eq(word(d.spl_def->next), "mov");   /* the first mov, not %rd2's */
	ck_assert_str_eq(d.spl_def->next->ins.ops[0]->str, "%rd2");
	ck_assert_ptr_eq(d.sp_def->prev->prev->prev, d.spl_def);
	d = func_depot(&func_named(m, "h")->body);
	ck_assert_ptr_null(d.decl);
	ck_assert_ptr_null(d.spl);
	ck_assert(depot_named("__local_depot12"));
	ck_assert(!depot_named("__local_dep"));
	mod_free(m);
}
END_TEST

/* 0 -> 1 -> 2 -> 0, 2 -> 3, 3 -> 3, 4 -> 3, 5 alone: components complete
 * deepest first, as recursion would find them from node 0. */
START_TEST(strongly_connected_components)
{
	uint32_t first[] = {0, 1, 2, 4, 5, 6, 6};
	uint32_t to[] = {1, 2, 0, 3, 3, 3};
	uint32_t comp[6], order[6];
	uint8_t cyclic[6];
	ck_assert_uint_eq(scc_find(6, first, to, comp, order, cyclic), 4);
	ck_assert_uint_eq(comp[3], 0);
	ck_assert_uint_eq(comp[0], 1);
	ck_assert_uint_eq(comp[1], 1);
	ck_assert_uint_eq(comp[2], 1);
	ck_assert_uint_eq(comp[4], 2);
	ck_assert_uint_eq(comp[5], 3);
	uint32_t want[] = {3, 2, 1, 0, 4, 5};
	for (int i = 0; i < 6; i++)
		ck_assert_uint_eq(order[i], want[i]);
	uint8_t cyc[] = {1, 1, 1, 1, 0, 0};
	for (int i = 0; i < 6; i++)
		ck_assert_uint_eq(cyclic[i], cyc[i]);
}
END_TEST

/* A chain 100,000 calls deep: no recursion to overflow. */
START_TEST(components_of_a_deep_chain)
{
	enum { N = 100000 };
	uint32_t *first = malloc((N + 1) * sizeof *first), *to = malloc(N * sizeof *to);
	uint32_t *comp = malloc(N * sizeof *comp), *order = malloc(N * sizeof *order);
	uint8_t *cyclic = malloc(N);
	for (uint32_t i = 0; i < N; i++)
		first[i] = i, to[i] = (i + 1) % N;
	first[N] = N;
	ck_assert_uint_eq(scc_find(N, first, to, comp, order, cyclic), 1);
	ck_assert_uint_eq(order[0], N - 1);
	ck_assert(cyclic[0] && cyclic[N / 2]);
	to[N - 1] = N - 1;   /* the last calls itself only: N components */
	ck_assert_uint_eq(scc_find(N, first, to, comp, order, cyclic), N);
	ck_assert(!cyclic[0] && cyclic[N - 1]);
	ck_assert_uint_eq(comp[0], N - 1);
	free(first), free(to), free(comp), free(order), free(cyclic);
}
END_TEST

START_TEST(call_graph_components)
{
	Module *m = parse_ok(HEADER
		".func c();\n"
		".func a()\n{\ncall c;\nret;\n}\n"
		".func b()\n{\ncall b;\nret;\n}\n"
		".func c()\n{\ncall a;\nret;\n}\n"
		".entry k()\n{\ncall a;\ncall b;\nret;\n}\n");
	SymTab *syms = symtab_build(m);
	CallGraph *cg = callgraph_build(m, syms);
	ck_assert_uint_eq(cg_count(cg), 4);   /* c a b k, in module order */
	uint32_t c = cg_index_of(cg, cg_find(cg, intern_cstr("c")));
	uint32_t a = cg_index_of(cg, cg_find(cg, intern_cstr("a")));
	uint32_t b = cg_index_of(cg, cg_find(cg, intern_cstr("b")));
	uint32_t k = cg_index_of(cg, cg_find(cg, intern_cstr("k")));
	ck_assert_uint_eq(c, 0);
	ck_assert_uint_eq(a, 1);
	ck_assert_uint_eq(b, 2);
	ck_assert_uint_eq(k, 3);
	ck_assert(cg_on_cycle(cg, a) && cg_on_cycle(cg, c) && cg_on_cycle(cg, b) && !cg_on_cycle(cg, k));
	ck_assert_uint_eq(cg_component(cg, a), cg_component(cg, c));
	ck_assert_uint_ne(cg_component(cg, a), cg_component(cg, b));
	const uint32_t *up = cg_bottom_up(cg);   /* from c: a, then c closes {a, c}; b; k */
	ck_assert_uint_eq(up[0], a);
	ck_assert_uint_eq(up[1], c);
	ck_assert_uint_eq(up[2], b);
	ck_assert_uint_eq(up[3], k);
	callgraph_free(cg);
	symtab_free(syms);
	mod_free(m);
}
END_TEST

START_TEST(declaration_order)
{
	Module *m = parse_ok(HEADER
		".global .b32 v;\n"
		".func f();\n"
		".func g()\n{\nret;\n}\n"
		".func f()\n{\nret;\n}\n");
	DeclOrder *o = order_build(m);
	/* items: .version .target .address_size v f g f */
	ck_assert_int_eq(order_first(o, intern_cstr("v")), 3 * ORDER_STEP);
	ck_assert_int_eq(order_first(o, intern_cstr("f")), 4 * ORDER_STEP);
	ck_assert_int_eq(order_def(o, intern_cstr("f")), 6 * ORDER_STEP);
	ck_assert_int_eq(order_def(o, intern_cstr("g")), 5 * ORDER_STEP);
	ck_assert_int_eq(order_def(o, intern_cstr("v")), -1);
	ck_assert_int_eq(order_first(o, intern_cstr("nothing")), -1);
	order_put(o, intern_cstr("g"), 4 * ORDER_STEP - 1);
	ck_assert_int_eq(order_first(o, intern_cstr("g")), 4 * ORDER_STEP - 1);
	order_put(o, intern_cstr("g"), 5 * ORDER_STEP);   /* later: the earlier stays */
	ck_assert_int_eq(order_first(o, intern_cstr("g")), 4 * ORDER_STEP - 1);
	order_put(o, intern_cstr("new"), 7);
	ck_assert_int_eq(order_first(o, intern_cstr("new")), 7);
	ck_assert_int_eq(order_def(o, intern_cstr("new")), -1);
	order_free(o);
	mod_free(m);
}
END_TEST

static Ins *ins_of(Module *m, int k)
{
	Stmt *s = first_body_stmt(m);
	while (s->kind != S_INS || k--)
		s = s->next;
	return &s->ins;
}

START_TEST(param_accesses)
{
	Module *m = parse_ok(HEADER ".func f(.param .b32 a, .param .align 8 .b8 b[16])\n{\n"
		".reg .b32 %r<3>;\n.reg .b64 %rd1;\n"
		"ld.param.b32 %r1, [a];\n"
		"st.param.b32 [b+8], %r1;\n"
		"ld.param.v2.b32 {%r1, %r2}, [b+4];\n"
		"ld.param.v2.b32 %rd1, [b];\n"
		"ld.param.b32 %r1, [%rd1];\n"
		"ld.global.b32 %r1, [a];\n"
		"ld.param.b8 %r1, [b-1];\n"
		"ret;\n}\n");
	const char *name;
	int64_t off;
	ck_assert_int_eq(param_at(ins_of(m, 0), &name, &off), 1);
	ck_assert_str_eq(name, "a");
	ck_assert_int_eq(off, 0);
	ck_assert_int_eq(param_at(ins_of(m, 1), &name, &off), 0);
	ck_assert_str_eq(name, "b");
	ck_assert_int_eq(off, 8);
	ck_assert_int_eq(param_moves(ins_of(m, 1), &name, &off), 0);
	ck_assert_int_eq(param_moves(ins_of(m, 2), &name, &off), 1);
	ck_assert_int_eq(off, 4);
	ck_assert_int_eq(param_at(ins_of(m, 3), &name, &off), 1);    /* an access, */
	ck_assert_int_eq(param_moves(ins_of(m, 3), &name, &off), -1);  /* not of elements */
	ck_assert_int_eq(param_at(ins_of(m, 4), &name, &off), 1);     /* [%rd1]: a name too */
	ck_assert_str_eq(name, "%rd1");
	ck_assert_int_eq(param_at(ins_of(m, 5), &name, &off), -1);
	ck_assert_int_eq(param_at(ins_of(m, 6), &name, &off), 1);
	ck_assert_int_eq(off, -1);
	ck_assert_int_eq(param_at(ins_of(m, 7), &name, &off), -1);   /* ret */
	mod_free(m);
}
END_TEST

START_TEST(sinks_and_register_names)
{
	Module *m = parse_ok(HEADER ".entry k()\n{\n.reg .b32 %r<3>;\n.reg .f64 %fd1;\n.reg .pred %p1;\n"
		"ld.global.v2.u32 {%r1, _}, [%r2];\nret;\n}\n");
	Ins *in = ins_of(m, 0);
	ck_assert(!is_sink(in->ops[0]->kids[0]));
	ck_assert(is_sink(in->ops[0]->kids[1]));
	ck_assert(!is_sink(name_expr(intern_cstr("__"))));
	ck_assert(!is_sink(in->ops[1]));
	size_t stem;
	unsigned long long k;
	ck_assert(reg_split("%r15", &stem, &k));
	ck_assert_uint_eq(stem, 2);
	ck_assert_uint_eq(k, 15);
	ck_assert(reg_split("$L__BB0_3", &stem, &k) && stem == 8 && k == 3);
	ck_assert(reg_split("%r0", &stem, &k) && k == 0);
	ck_assert(!reg_split("%r05", &stem, &k));
	ck_assert(!reg_split("%SP", &stem, &k));
	ck_assert(!reg_split("123", &stem, &k));
	Names n = {0};
	names_of_body(&n, &func_named(m, "k")->body);
	ck_assert_int_eq(names_bits(&n, name_expr(intern_cstr("%r2"))), 32);
	ck_assert_int_eq(names_bits(&n, name_expr(intern_cstr("%fd1"))), 64);
	ck_assert_int_eq(names_bits(&n, name_expr(intern_cstr("%p1"))), 0);
	ck_assert_int_eq(names_bits(&n, name_expr(intern_cstr("%r9"))), 0);
	ck_assert_int_eq(names_bits(&n, num_expr(intern_cstr("4"))), 0);
	names_free(&n);
	mod_free(m);
}
END_TEST

Suite *body_suite(void)
{
	Suite *s = suite_create("body");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, body_walk_in_text_order);
	tcase_add_test(tc, body_walk_outer_skip_remove);
	tcase_add_test(tc, body_walk_range);
	tcase_add_test(tc, body_calls);
	tcase_add_test(tc, depot_of_a_function);
	tcase_add_test(tc, strongly_connected_components);
	tcase_add_test(tc, components_of_a_deep_chain);
	tcase_add_test(tc, call_graph_components);
	tcase_add_test(tc, declaration_order);
	tcase_add_test(tc, param_accesses);
	tcase_add_test(tc, sinks_and_register_names);
	suite_add_tcase(s, tc);
	return s;
}
