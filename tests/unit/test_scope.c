/* PTX's scoping rule (ir/scope.c): a name means what the innermost
 * enclosing block declaring it says, and normalization gives each
 * declaration that would share a spelling with another a name of its own,
 * so that every table keyed by name (the CFG's labels, liveness,
 * definitions) follows the rule. */
#include <stdlib.h>
#include "unit.h"

static Module *normalized(const char *text)
{
	Module *m = parse_ok(text);
	ir_normalize(m);
	return m;
}

static void ck_has(const char *out, const char *piece)
{
	ck_assert_msg(strstr(out, piece) != NULL, "no \"%s\" in:\n%s", piece, out);
}

static void ck_lacks(const char *out, const char *piece)
{
	ck_assert_msg(strstr(out, piece) == NULL, "\"%s\" in:\n%s", piece, out);
}

static const Func *func_named(const Module *m, const char *name)
{
	for (const Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body && !strcmp(s->func->name, name))
			return s->func;
	ck_abort_msg("no function %s", name);
	return NULL;
}

/* nvcc's shape: an inline-asm block with a label, used twice. */
#define ASM_TWICE HEADER ".entry k(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n" \
	"mov.u32 %r1, %tid.x;\n" \
	"{\n.reg .pred p;\nsetp.ne.u32 p, %r1, 0;\nmov.u32 %r2, 10;\n@p bra $L1;\nmov.u32 %r2, 20;\n$L1:\n}\n" \
	"{\n.reg .pred p;\nsetp.ne.u32 p, %r1, 1;\nmov.u32 %r3, 10;\n@p bra $L1;\nmov.u32 %r3, 20;\n$L1:\n}\n" \
	"ld.param.u64 %rd1, [out];\nst.global.u32 [%rd1], %r3;\nret;\n}\n"

/* Each copy's branch goes to its own label: in the CFG the second
 * copy's bra skips only its own mov, so both movs of %r3 reach the
 * store, and nothing loops (with one table for both, the second branch
 * went back into the first copy: a loop, and only `mov %r3, 20` reached
 * the store). */
START_TEST(sibling_blocks_keep_their_own_labels)
{
	Module *m = normalized(ASM_TWICE);
	char *out = print_str(m);
	ck_has(out, "@p_1 bra \t$L1_1;");
	ck_has(out, "@p_2 bra \t$L1_2;");
	ck_has(out, "$L1_1:\n");
	ck_has(out, "$L1_2:\n");
	ck_has(out, "setp.ne.u32 \tp_2, %r1, 1;");
	free(out);
	Cfg *g = cfg_build(func_named(m, "k"));
	ck_assert_ptr_nonnull(g);
	Live *l = live_compute(g);
	Defs *d = defs_compute(g, l);
	uint32_t st = g->nins - 2, defs[4];
	ck_assert_str_eq(g->ins[st]->ins.sp->base, "st");
	ck_assert_uint_eq(defs_reaching(d, st, intern_cstr("%r3"), defs, 4), 2);
	ck_assert_str_eq(g->ins[defs[0]]->ins.ops[1]->str, "10");
	ck_assert_str_eq(g->ins[defs[1]]->ins.ops[1]->str, "20");
	Loop *loops = NULL;   /* the one table made the second branch a back edge */
	ck_assert_uint_eq(loops_find(g, &loops), 0);
	free(loops);
	defs_free(d);
	live_free(l);
	cfg_free(g);
	char *msg = verify_msgs(m);
	ck_assert_msg(!msg, "%s", msg);
	mod_free(m);
}
END_TEST

/* An inner block's %r1 and %r<3> hide the function's: they and the uses
 * inside take new names, a range a new base that ends in '_' (so that
 * %r_1_1 is no other range's name); outside, %r1 is still the outer one.
 * A part of a register (%r1.x is none here, %p.x would be) follows it. */
START_TEST(shadowed_registers_take_new_names)
{
	Module *m = normalized(HEADER ".entry k()\n{\n.reg .b32 %r<4>;\nmov.u32 %r1, 1;\n"
		"mov.u32 %r3, 3;\n{\n.reg .b32 %r<3>;\nmov.u32 %r1, 5;\n{\n.reg .b32 %r2;\nadd.u32 %r2, %r1, %r3;\n}\n"
		"mov.u32 %r2, %r1;\n}\nadd.u32 %r2, %r1, 1;\nret;\n}\n");
	char *out = print_str(m);
	ck_has(out, ".reg .b32\t%r_1_<3>;");
	ck_has(out, "mov.u32 \t%r_1_1, 5;");
	ck_has(out, ".reg .b32\t%r2_1;");
	ck_has(out, "add.u32 \t%r2_1, %r_1_1, %r3;");  /* %r3: the outer %r<4>'s */
	ck_has(out, "mov.u32 \t%r_1_2, %r_1_1;");
	ck_has(out, "add.u32 \t%r2, %r1, 1;");
	ck_has(out, ".reg .b32\t%r<4>;");
	ck_assert_int_eq(names_shadowed(func_named(m, "k")), 0);
	free(out);
	char *msg = verify_msgs(m);
	ck_assert_msg(!msg, "%s", msg);
	mod_free(m);
}
END_TEST

/* A function-scope .shared hides the module's g in its block only; a
 * function's own .global static named like a module variable takes
 * another name in the whole function, so the symbol table's uses of the
 * module's h are the module's. */
START_TEST(statics_hiding_module_symbols_take_new_names)
{
	Module *m = normalized(HEADER ".global .u32 g;\n.global .u32 h;\n"
		".entry k()\n{\n.reg .b32 %r<3>;\n.global .u32 h;\nld.global.u32 %r1, [g];\n"
		"{\n.shared .u32 g;\nst.shared.u32 [g], %r1;\n}\nst.global.u32 [h], %r1;\nret;\n}\n"
		".entry j()\n{\n.reg .b32 %r<2>;\nld.global.u32 %r1, [h];\nret;\n}\n");
	char *out = print_str(m);
	ck_has(out, "ld.global.u32 \t%r1, [g];");
	ck_has(out, ".shared .u32\tg_1;");
	ck_has(out, "st.shared.u32 \t[g_1], %r1;");
	ck_has(out, ".global .u32\th_1;");
	ck_has(out, "st.global.u32 \t[h_1], %r1;");
	ck_has(out, "ld.global.u32 \t%r1, [h];");
	free(out);
	SymTab *t = symtab_build(m);
	const Symbol *h = symtab_find(t, intern_cstr("h"));
	ck_assert_uint_eq(h->nuses, 1);
	ck_assert_str_eq(h->uses[0].in->name, "j");
	symtab_free(t);
	char *msg = verify_msgs(m);
	ck_assert_msg(!msg, "%s", msg);
	mod_free(m);
}
END_TEST

/* A parameter named like a module variable hides it in the whole
 * function (so a callee's g inlined there would read the parameter): it
 * takes another name, as its declarations and uses do. */
START_TEST(parameters_hiding_module_symbols_take_new_names)
{
	Module *m = normalized(HEADER ".global .u64 g;\n"
		".entry k(.param .u64 g)\n{\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [g];\n"
		"ld.global.u64 %rd2, [%rd1];\nret;\n}\n");
	char *out = print_str(m);
	ck_has(out, ".param .u64\tg_1\n");
	ck_has(out, "ld.param.u64 \t%rd1, [g_1];");
	ck_has(out, ".global .u64\tg;");
	free(out);
	char *msg = verify_msgs(m);
	ck_assert_msg(!msg, "%s", msg);
	mod_free(m);
}
END_TEST

/* What declares nothing twice is left alone, byte for byte: nvcc's
 * blocks of a call each declare param0 and retval0 (a call's .params,
 * read beside it) and temp_param_reg (never used). */
START_TEST(call_blocks_and_unique_names_are_left_alone)
{
	const char *text = HEADER ".func (.param .b32 r) f(.param .b32 x)\n{\nret;\n}\n"
		".entry k()\n{\n.reg .b32 %r<3>;\nmov.u32 %r1, 1;\n"
		"{\n.reg .b32 temp_param_reg;\n.param .b32 param0;\nst.param.b32 [param0+0], %r1;\n"
		".param .b32 retval0;\ncall (retval0), f, (param0);\nld.param.b32 %r2, [retval0+0];\n}\n"
		"{\n.reg .b32 temp_param_reg;\n.param .b32 param0;\nst.param.b32 [param0+0], %r2;\n"
		".param .b32 retval0;\ncall (retval0), f, (param0);\nld.param.b32 %r1, [retval0+0];\n}\n"
		"{\n.reg .pred p;\nsetp.eq.u32 p, %r1, 0;\n@p bra $L1;\nmov.u32 %r1, 2;\n$L1:\n}\nret;\n}\n";
	Module *m = parse_ok(text);
	char *before = print_str(m);
	ir_normalize(m);
	char *after = print_str(m);
	ck_assert_str_eq(before, after);
	ck_lacks(after, "param0_");
	free(before);
	free(after);
	char *msg = verify_msgs(m);
	ck_assert_msg(!msg, "%s", msg);
	mod_free(m);
}
END_TEST

/* The verifier holds every stage to the rule: a declaration that makes
 * a spelling mean two things again breaks the normal form, and a name
 * used where only a block not around it declares it breaks the code. */
START_TEST(verifier_checks_the_rule)
{
	Module *m = normalized(ASM_TWICE);
	Stmt *s = first_body_stmt(m);
	while (s->kind != S_SCOPE)
		s = s->next;
	Stmt *label = s->scope.tail, *bra = label->prev->prev;
	ck_assert_int_eq(label->kind, S_LABEL);
	ck_assert_str_eq(bra->ins.sp->base, "bra");
	Expr **ops = bra->ins.ops, *other = name_expr(intern_cstr("$L1_2"));
	label->label = intern_cstr("$L1_2");   /* a stage that gave it the other copy's name */
	bra->ins.ops = &other;
	char *msg = verify_msgs(m);
	ck_assert_msg(msg && strstr(msg, "'$L1_2' is declared in two blocks of k after normalization"),
		"%s", msg ? msg : "(nothing)");
	free(msg);
	label->label = intern_cstr("$L1_1");   /* the branch into the other copy: no block around it has $L1_2 */
	msg = verify_msgs(m);
	ck_assert_msg(msg && strstr(msg, "'$L1_2' is used where no block around it declares it"),
		"%s", msg ? msg : "(nothing)");
	free(msg);
	bra->ins.ops = ops;
	msg = verify_msgs(m);
	ck_assert_msg(!msg, "%s", msg);
	mod_free(m);
}
END_TEST

/* names_shadowed, on the parsed function (before normalizing renames):
 * an inner block's %r<4> covers an outer %r2, a body's name a parameter's,
 * a grandchild block's %r1 its grandparent's; %r50 lies past %r<3>, and
 * sibling blocks each declaring %q and the body's many %t<i> hide
 * nothing. */
START_TEST(names_shadowed_by_blocks)
{
	static const char *const cases[][2] = {
		{".reg .b32 %r2;\n{\n.reg .b32 %r<4>;\n}\n", "1"},
		{".reg .b32 %r<3>;\n{\n.reg .b32 %r50;\n}\n", "0"},
		{".reg .b32 %r1;\n{\n.reg .b32 %q;\n{\n.reg .b32 %r1;\n}\n}\n", "1"},
		{"{\n.reg .b32 %q;\n}\n{\n.reg .b32 %q;\n}\n.reg .b32 %t1;\n.reg .b32 %t2;\n", "0"},
		{".reg .b64 %a;\n", "1"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[512];
		snprintf(text, sizeof text, HEADER ".func f(.param .b64 %%a)\n{\n%sret;\n}\n", cases[i][0]);
		Module *m = parse_ok(text);
		ck_assert_msg(names_shadowed(func_named(m, "f")) == (cases[i][1][0] == '1'), "case %zu", i);
		mod_free(m);
	}
}
END_TEST

/* Names resolve by block, then by number: labels sharing nvcc's stem
 * ($L__BB0_1 ..) each find their own, a register range declared twice in
 * one block (%r<10>, %r<100>) still covers %r50, and an inner block's
 * %r<3> shadows %r2 but not %r50. */
START_TEST(names_resolve_by_number_in_their_block)
{
	Module *m = normalized(HEADER ".entry k(.param .u64 out)\n{\n"
		".reg .pred %p<2>;\n.reg .b32 %r<10>;\n.reg .b32 %r<100>;\n.reg .b64 %rd<2>;\n"
		"mov.u32 %r50, %tid.x;\nmov.u32 %r5, 1;\nsetp.eq.s32 %p1, %r50, 0;\n@%p1 bra $L__BB0_2;\n"
		"$L__BB0_1:\nadd.s32 %r50, %r50, %r5;\n$L__BB0_2:\n"
		"{\n.reg .b32 %r<3>;\nmov.u32 %r2, %r50;\nadd.s32 %r50, %r2, 1;\n}\n"
		"setp.lt.s32 %p1, %r50, 4;\n@%p1 bra $L__BB0_1;\n"
		"ld.param.u64 %rd1, [out];\nst.global.u32 [%rd1], %r50;\nret;\n}\n");
	char *msg = verify_msgs(m);
	ck_assert_msg(!msg, "%s", msg);
	char *out = print_str(m);
	ck_has(out, "add.s32 \t%r50, %r50, %r5;");
	ck_has(out, "@%p1 bra \t$L__BB0_1;");
	ck_has(out, "@%p1 bra \t$L__BB0_2;");
	ck_has(out, "mov.u32 \t%r_1_2, %r50;");   /* the inner %r2 renamed, %r50 the outer */
	ck_has(out, "add.s32 \t%r50, %r_1_2, 1;");
	free(out);
	mod_free(m);
}
END_TEST

/* A label a debug section names, declared in two blocks: which one the
 * section means is not known, and normalization says so. */
START_TEST(debug_section_naming_a_shared_label_is_refused)
{
	const char *text = HEADER ".entry k()\n{\n.reg .b32 %r<2>;\n"
		"{\n$L1:\nmov.u32 %r1, 1;\n}\n{\n$L1:\nmov.u32 %r1, 2;\n}\nret;\n}\n"
		".section .debug_info\n{\n.b64 $L1\n}\n";
	Module *m = parse_ok(text);
	char *buf = NULL;
	size_t size = 0;
	FILE *f = xmemstream(&buf, &size);
	diag_set_stream(f);
	int errors = diag_errors();
	ir_normalize(m);
	diag_set_stream(NULL);
	fclose(f);
	ck_assert_int_eq(diag_errors(), errors + 2);
	ck_has(buf, "t.ptx:8:1: error: '$L1' is declared in more than one block of 'k' and a debug "
		"section names it");
	free(buf);
	diag_reset();
	mod_free(m);
}
END_TEST

Suite *scope_suite(void)
{
	Suite *s = suite_create("scope");
	TCase *tc = tcase_create("scope");
	tcase_add_test(tc, sibling_blocks_keep_their_own_labels);
	tcase_add_test(tc, shadowed_registers_take_new_names);
	tcase_add_test(tc, names_shadowed_by_blocks);
	tcase_add_test(tc, statics_hiding_module_symbols_take_new_names);
	tcase_add_test(tc, parameters_hiding_module_symbols_take_new_names);
	tcase_add_test(tc, call_blocks_and_unique_names_are_left_alone);
	tcase_add_test(tc, verifier_checks_the_rule);
	tcase_add_test(tc, debug_section_naming_a_shared_label_is_refused);
	tcase_add_test(tc, names_resolve_by_number_in_their_block);
	suite_add_tcase(s, tc);
	return s;
}
