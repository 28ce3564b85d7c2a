/* The parser: what IR comes out of each construct. */
#include <stdlib.h>
#include "unit.h"

static Stmt *nth(Stmt *s, int n)
{
	while (n-- > 0 && s)
		s = s->next;
	ck_assert_ptr_nonnull(s);
	return s;
}

START_TEST(header_items)
{
	Module *m = parse_ok(".version 8.5\n.target sm_90a, debug, texmode_independent\n.address_size 64\n");
	Stmt *s = m->items.head;
	ck_assert_int_eq(s->kind, S_VERSION);
	ck_assert_str_eq(s->strs.strs[0], "8.5");
	s = s->next;
	ck_assert_int_eq(s->kind, S_TARGET);
	ck_assert_int_eq(s->list.nitems, 3);
	ck_assert_str_eq(s->list.items[2]->str, "texmode_independent");
	ck_assert_int_eq(s->next->kind, S_ADDRSIZE);
	mod_free(m);
}
END_TEST

START_TEST(function_signature)
{
	Module *m = parse_ok(HEADER
		".visible .func (.param .align 16 .b8 r[16]) f(.param .b64 f_p0, "
		".param .u64 .ptr .global .align 8 f_p1, .reg .b32 f_p2)\n.noreturn\n;\n"
		".visible .entry k(.param .u32 a)\n.maxntid 256, 1, 1\n.minnctapersm 2\n{\nret;\n}\n");
	Stmt *s = nth(m->items.head, 3);
	ck_assert_int_eq(s->kind, S_FUNC);
	Func *f = s->func;
	ck_assert_str_eq(f->name, "f");
	ck_assert(!f->is_entry && !f->has_body);
	ck_assert_int_eq(f->nrets, 1);
	ck_assert_int_eq(f->rets[0].align, 16);
	ck_assert_str_eq(f->rets[0].ds[0].dims[0]->str, "16");
	ck_assert_int_eq(f->nparams, 3);
	const Decl *p1 = &f->params[1];   /* the .global and .align 8 are the pointee's */
	ck_assert(p1->specs[2].kind == SW_SPEC && p1->specs[2].id == SPEC_ptr);
	ck_assert(p1->space == SPACE_PARAM && p1->type == TY_U64 && p1->align == 0);
	ck_assert_int_eq(f->linkage, LINK_VISIBLE);
	ck_assert_int_eq(decl_space(&f->params[2]), SPACE_REG);
	ck_assert_int_eq(f->nattrs, 1);
	ck_assert_str_eq(f->attrs[0].word, ".noreturn");
	ck_assert_int_eq(f->attrs[0].id, FA_noreturn);
	Func *k = s->next->func;
	ck_assert(k->is_entry && k->has_body);
	ck_assert_int_eq(k->nattrs, 2);
	ck_assert_int_eq(k->attrs[0].nnums, 3);
	ck_assert_str_eq(k->attrs[1].nums[0], "2");
	mod_free(m);
}
END_TEST

START_TEST(instruction_parts)
{
	Module *m = parse_ok(HEADER ".entry k()\n{\n"
		"@!%p1 ld.global.nc.v2.f32 {%f1, _}, [%rd1+-8];\n"
		"setp.lt.s32 %p1|%p2, %r1, 0x10;\n"
		"}\n");
	Stmt *s = first_body_stmt(m);
	ck_assert_int_eq(s->kind, S_INS);
	ck_assert_str_eq(s->ins.guard, "%p1");
	ck_assert(s->ins.guard_neg);
	ck_assert_str_eq(s->ins.sp->base, "ld");
	ck_assert_int_eq(s->ins.sp->nmods, 4);
	ck_assert_str_eq(s->ins.sp->mods[0], ".global");
	ck_assert(spelling_has(s->ins.sp, MOD_nc));
	ck_assert(s->ins.sp->op->flags & OF_LOAD);
	ck_assert_int_eq(s->ins.nops, 2);
	Expr *v = s->ins.ops[0];
	ck_assert_int_eq(v->kind, E_BRACE);
	ck_assert_str_eq(v->kids[1]->str, "_");
	Expr *a = s->ins.ops[1];
	ck_assert_int_eq(a->kind, E_ADDR);
	ck_assert_int_eq(a->kids[0]->kind, E_BINARY);
	ck_assert_int_eq(a->kids[0]->op, '+');
	ck_assert_int_eq(a->kids[0]->kids[1]->kind, E_UNARY);
	Stmt *t = s->next;
	ck_assert_int_eq(t->ins.ops[0]->kind, E_BINARY);
	ck_assert_int_eq(t->ins.ops[0]->op, '|');
	ck_assert_str_eq(t->ins.ops[2]->str, "0x10");
	mod_free(m);
}
END_TEST

START_TEST(operand_leaves_are_shared)
{
	Module *m = parse_ok(HEADER ".entry k()\n{\nadd.s32 %r1, %r1, 1;\n}\n");
	Stmt *s = first_body_stmt(m);
	ck_assert_ptr_eq(s->ins.ops[0], s->ins.ops[1]);
	ck_assert_ptr_eq(s->ins.ops[0], name_expr(intern_cstr("%r1")));
	mod_free(m);
}
END_TEST

START_TEST(call_forms)
{
	Module *m = parse_ok(HEADER ".func (.param .b32 r) f(.param .b32 a);\n"
		".entry k()\n{\n.reg .b64 %rd<2>;\n"
		"{\n.param .b32 p0;\n.param .b32 rv;\n"
		"proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
		"call.uni (rv), f, (p0);\n"
		"call (rv), %rd1, (p0), proto;\n"
		"}\n"
		"tgts: .calltargets f;\n"
		"}\n");
	Stmt *s = first_body_stmt(m);
	ck_assert_int_eq(s->kind, S_VAR);
	ck_assert_str_eq(s->var.ds[0].count, "2");
	Stmt *scope = s->next;
	ck_assert_int_eq(scope->kind, S_SCOPE);
	Stmt *p = nth(scope->scope.head, 2);
	ck_assert_int_eq(p->kind, S_PROTO);
	ck_assert_str_eq(p->proto->label, "proto");
	ck_assert_int_eq(p->proto->nparams, 1);
	Stmt *c = p->next;
	ck_assert(c->ins.sp->op->flags & OF_CALL);
	ck_assert_int_eq(c->ins.nops, 3);
	ck_assert_int_eq(c->ins.ops[0]->kind, E_PAREN);
	ck_assert_int_eq(c->next->ins.nops, 4);
	Stmt *t = scope->next;
	ck_assert_int_eq(t->kind, S_TARGETS);
	ck_assert_str_eq(t->list.word, ".calltargets");
	mod_free(m);
}
END_TEST

START_TEST(variables_and_initializers)
{
	Module *m = parse_ok(HEADER
		".global .align 8 .u64 tab[2][3] = {{1, 2, 3}, {4, 5, generic(g)}};\n"
		".extern .shared .align 16 .b8 dyn[];\n"
		".visible .global .attribute(.managed) .align 4 .u32 man;\n"
		".global .samplerref s = { addr_mode_0 = clamp_to_edge, filter_mode = linear };\n"
		".const .u64 p = g+8;\n");
	Stmt *s = nth(m->items.head, 3);
	Declarator *d = &s->var.ds[0];
	ck_assert_int_eq(d->ndims, 2);
	ck_assert_int_eq(d->init->kind, E_BRACE);
	ck_assert_int_eq(d->init->kids[1]->kids[2]->kind, E_CALL);
	ck_assert_str_eq(expr_fname(d->init->kids[1]->kids[2]), "generic");
	Declarator *dyn = &s->next->var.ds[0];
	ck_assert_int_eq(dyn->ndims, 1);
	ck_assert_ptr_null(dyn->dims[0]);
	ck_assert_int_eq(decl_space(&s->next->var), SPACE_SHARED);
	const Spec *attr = &nth(s, 2)->var.specs[2];
	ck_assert(attr->kind == SW_SPEC && attr->id == SPEC_attribute);
	ck_assert_int_eq(attr->nargs, 1);
	ck_assert_str_eq(attr->args[0]->str, ".managed");
	ck_assert_str_eq(decl_type(&nth(s, 3)->var), ".samplerref");
	ck_assert_int_eq(nth(s, 3)->var.ds[0].init->kids[0]->op, '=');
	ck_assert_int_eq(nth(s, 4)->var.ds[0].init->kind, E_BINARY);
	mod_free(m);
}
END_TEST

START_TEST(debug_directives)
{
	Module *m = parse_ok(HEADER ".entry k()\n{\n"
		".loc 1 12 7, function_name $L__info_string0, inlined_at 1 40 3\n"
		"ret;\n}\n"
		".file 1 \"/src/a.cu\", 1700000000, 1234\n"
		".section .debug_str\n{\n$L__info_string0:\n.b8 95,90,0\n}\n"
		".section .debug_info\n{\n.b32 .debug_abbrev\n.b64 $L__func_begin0\n}\n");
	Stmt *l = first_body_stmt(m);
	ck_assert_int_eq(l->kind, S_LOC);
	ck_assert_uint_eq(l->locinfo->line, 12);
	ck_assert_uint_eq(l->locinfo->col, 7);
	ck_assert_str_eq(l->locinfo->function_name, "$L__info_string0");
	ck_assert(l->locinfo->has_inlined);
	ck_assert_uint_eq(l->locinfo->in_line, 40);
	Stmt *f = nth(m->items.head, 4);
	ck_assert_int_eq(f->kind, S_FILE);
	ck_assert_str_eq(f->file.size, "1234");
	Stmt *sec = f->next;
	ck_assert_int_eq(sec->kind, S_SECTION);
	ck_assert_int_eq(sec->section.items.head->kind, S_LABEL);
	ck_assert_int_eq(sec->section.items.tail->list.nitems, 3);
	ck_assert_str_eq(sec->next->section.items.head->list.items[0]->str, ".debug_abbrev");
	mod_free(m);
}
END_TEST

START_TEST(locations_point_at_statements)
{
	Module *m = parse_ok(HEADER ".entry k()\n{\n\t\tret;\n}\n");
	Stmt *s = first_body_stmt(m);
	ck_assert_uint_eq(s->loc.line, 6);
	ck_assert_uint_eq(s->loc.col, 3);
	ck_assert_str_eq(diag_filename(s->loc.file), "t.ptx");
	mod_free(m);
}
END_TEST

START_TEST(several_errors_are_reported)
{
	char *e = parse_errors(HEADER ".entry k()\n{\nadd.s32 %r1, %r2;\nfoo.b32 %r1;\nmov.u32 %r1, %r2;\n}\n"
		".entry j()\n{\nmov.u32 %r1 %r2;\n}\n");
	ck_assert_ptr_nonnull(strstr(e, "t.ptx:6:1: error: 'add.s32' takes 3 operands, not 2"));
	ck_assert_ptr_nonnull(strstr(e, "t.ptx:7:1: error: unknown instruction 'foo'"));
	ck_assert_ptr_nonnull(strstr(e, "t.ptx:12:13: error: unexpected identifier '%r2'"));
	free(e);
	diag_reset();
}
END_TEST

START_TEST(unclosed_brace_is_named)
{
	char *e = parse_errors(HEADER ".entry k()\n{\nret;\n");
	ck_assert_ptr_nonnull(strstr(e, "(to close '{' at line 5)"));
	free(e);
	diag_reset();
}
END_TEST

START_TEST(header_is_required)
{
	char *e = parse_errors(".target sm_80\n.version 8.5\n");
	ck_assert_str_eq(e, "t.ptx:1:1: error: expected '.version' at the start of the module\n");
	free(e);
	e = parse_errors("");
	ck_assert_str_eq(e, "t.ptx:1:1: error: expected '.version' at the start of the module\n");
	free(e);
	diag_reset();
}
END_TEST

/* A string, like a file, stops at the 20th error with input left over:
 * the scanner drops what it holds rather than being asked per token. */
START_TEST(too_many_errors_stop_a_string)
{
	size_t n = strlen(HEADER ".entry k()\n{\n") + 100000 * 3;
	char *text = malloc(n + 1);
	strcpy(text, HEADER ".entry k()\n{\n");
	for (size_t i = strlen(text); i < n; i += 3)
		memcpy(text + i, "1;\n", 3);
	text[n] = 0;
	char *e = parse_errors(text);
	int lines = 0;
	for (const char *p = e; *p; p++)
		lines += *p == '\n';
	ck_assert_int_eq(lines, 21);
	ck_assert_ptr_nonnull(strstr(e, "t.ptx: error: too many errors, giving up\n"));
	ck_assert_int_eq(diag_errors(), 21);
	free(e);
	free(text);
	diag_reset();
}
END_TEST

Suite *parser_suite(void)
{
	Suite *s = suite_create("parser");
	TCase *tc = tcase_create("constructs");
	tcase_add_test(tc, header_items);
	tcase_add_test(tc, function_signature);
	tcase_add_test(tc, instruction_parts);
	tcase_add_test(tc, operand_leaves_are_shared);
	tcase_add_test(tc, call_forms);
	tcase_add_test(tc, variables_and_initializers);
	tcase_add_test(tc, debug_directives);
	tcase_add_test(tc, locations_point_at_statements);
	suite_add_tcase(s, tc);
	TCase *te = tcase_create("errors");
	tcase_add_test(te, several_errors_are_reported);
	tcase_add_test(te, unclosed_brace_is_named);
	tcase_add_test(te, header_is_required);
	tcase_add_test(te, too_many_errors_stop_a_string);
	suite_add_tcase(s, te);
	return s;
}
