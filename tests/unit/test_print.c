/* The printer: canonical text, faithful spellings, safe parentheses. */
#include <stdlib.h>
#include "unit.h"

static char *roundtrip(const char *text)
{
	Module *m = parse_ok(text);
	char *out = print_str(m);
	mod_free(m);
	return out;
}

START_TEST(canonical_layout)
{
	char *out = roundtrip(HEADER "// a comment\n.visible .entry k(.param .u64 a)\n.maxntid 128\n{\n"
		".reg .b32 %r<4>;\n@%p1 bra $L1;\n$L1:\n\tadd.s32  %r1,%r2,0fBF800000;\nret;\n}\n");
	ck_assert_str_eq(out, ".version 8.5\n.target sm_80\n.address_size 64\n\n"
		".visible .entry k(\n\t.param .u64\ta\n)\n.maxntid 128\n{\n"
		"\t.reg .b32\t%r<4>;\n\t@%p1 bra \t$L1;\n$L1:\n\tadd.s32 \t%r1, %r2, 0fBF800000;\n\tret;\n}\n");
	free(out);
}
END_TEST

START_TEST(spellings_survive)
{
	char *out = roundtrip(HEADER ".global .u32 x[4] = {0x10, 017, 0b11U, -1};\n"
		".entry k()\n{\nmov.f64 %fd1, 0d3FF0000000000000;\nmov.u64 %rd1, x+(4*2);\n}\n");
	ck_assert_ptr_nonnull(strstr(out, "x[4] = {0x10, 017, 0b11U, -1};"));
	ck_assert_ptr_nonnull(strstr(out, "0d3FF0000000000000;"));
	ck_assert_ptr_nonnull(strstr(out, "x+(4*2);"));
	free(out);
	/* forms ptxas accepts: a float without its integer part, a .file
	 * with a timestamp but no size */
	out = roundtrip(HEADER ".file 1 \"a.cu\", 1700000000\n"
		".entry k()\n{\nmov.f32 %f1, .5;\nmov.f32 %f2, -.5e3;\n}\n");
	ck_assert_ptr_nonnull(strstr(out, "\"a.cu\", 1700000000\n"));
	ck_assert_ptr_nonnull(strstr(out, "%f1, .5;"));
	ck_assert_ptr_nonnull(strstr(out, "%f2, -.5e3;"));
	free(out);
}
END_TEST

START_TEST(built_trees_get_parentheses)
{
	Module *m = mod_new("p.ptx");
	Expr *a = name_expr(intern_cstr("a")), *b = name_expr(intern_cstr("b"));
	Expr *c = num_expr(intern_cstr("4"));
	/* (a+b)*4 and a-(b-4) built without E_PAREN must still print right */
	Expr *mul = expr_binary(m, '*', expr_binary(m, '+', a, b), c);
	Expr *sub = expr_binary(m, '-', a, expr_binary(m, '-', b, c));
	Expr *neg = expr_unary(m, '-', expr_binary(m, '+', a, c));
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	print_expr(f, mul);
	fputc(' ', f);
	print_expr(f, sub);
	fputc(' ', f);
	print_expr(f, neg);
	fclose(f);
	ck_assert_str_eq(buf, "(a+b)*4 a-(b-4) -(a+4)");
	free(buf);
	mod_free(m);
}
END_TEST

START_TEST(printing_is_idempotent)
{
	const char *src = HEADER ".extern .func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);\n"
		".global .texref t;\n.entry k()\n.reqntid 32, 1, 1\n{\n.loc 1 2 3\n"
		"{\n.reg .pred p;\nsetp.ne.and.s32 p|_, %r1, 0, %p2;\n}\n"
		"tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, {%f5, %f6}];\n"
		"jt: .branchtargets L0, L1;\nbrx.idx %r1, jt;\nL0:\nL1:\nret;\n}\n"
		".section .debug_abbrev\n{\n.b8 1,17\n}\n";
	char *once = roundtrip(src);
	char *twice = roundtrip(once);
	ck_assert_str_eq(once, twice);
	free(once);
	free(twice);
}
END_TEST

Suite *print_suite(void)
{
	Suite *s = suite_create("print");
	TCase *tc = tcase_create("printer");
	tcase_add_test(tc, canonical_layout);
	tcase_add_test(tc, spellings_survive);
	tcase_add_test(tc, built_trees_get_parentheses);
	tcase_add_test(tc, printing_is_idempotent);
	suite_add_tcase(s, tc);
	return s;
}
