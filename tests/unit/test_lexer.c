/* The scanner on its own: token kinds, spellings and locations. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "parse.h"
#include "parser.h"
#include "lexer.h"

typedef struct Tok {
	int kind;
	const char *str;
	int line, col;
} Tok;

/* Scans text into toks; returns the count (stops at end of input). */
static int scan(const char *text, Tok *toks, int max)
{
	struct ParseState ps = {0};
	ps.m = mod_new("lex.ptx");
	ps.file = diag_file("lex.ptx");
	ps.line = ps.col = 1;
	yyscan_t sc;
	ck_assert_int_eq(ptxlex_init_extra(&ps, &sc), 0);
	YY_BUFFER_STATE b = ptx_scan_string(text, sc);
	int n = 0;
	for (; n < max; n++) {
		PTXSTYPE v = {0};
		PTXLTYPE l = {0};
		int k = ptxlex(&v, &l, sc);
		if (k == 0)
			break;
		toks[n] = (Tok){k, (k == IDENT || k == DOTWORD || k == NUM || k == STRING) ? v.str : NULL,
			l.first_line, l.first_column};
	}
	ptx_delete_buffer(b, sc);
	ptxlex_destroy(sc);
	mod_free(ps.m);
	return n;
}

START_TEST(instruction_spelling_is_one_token)
{
	Tok t[16];
	int n = scan("ld.global.L1::evict_last.v4.u32 {%r1}, [%rd2+-8];", t, 16);
	ck_assert_int_eq(n, 12);
	ck_assert_int_eq(t[0].kind, IDENT);
	ck_assert_str_eq(t[0].str, "ld.global.L1::evict_last.v4.u32");
	ck_assert_int_eq(t[1].kind, '{');
	ck_assert_str_eq(t[2].str, "%r1");
	ck_assert_int_eq(t[5].kind, '[');
	ck_assert_str_eq(t[6].str, "%rd2");
	ck_assert_int_eq(t[7].kind, '+');
	ck_assert_int_eq(t[8].kind, '-');
	ck_assert_int_eq(t[9].kind, NUM);
	ck_assert_str_eq(t[9].str, "8");
}
END_TEST

START_TEST(directives_and_keywords)
{
	Tok t[16];
	int n = scan(".version 9.0\n.target sm_90a, debug\n.reg .b32 %r<3>;", t, 16);
	ck_assert_int_eq(n, 13);
	ck_assert_int_eq(t[0].kind, VERSION);
	ck_assert_int_eq(t[1].kind, NUM);
	ck_assert_str_eq(t[1].str, "9.0");
	ck_assert_int_eq(t[2].kind, TARGET);
	ck_assert_str_eq(t[3].str, "sm_90a");
	ck_assert_int_eq(t[6].kind, DOTWORD);
	ck_assert_str_eq(t[6].str, ".reg");
	ck_assert_int_eq(t[8].kind, IDENT);
	ck_assert_int_eq(t[9].kind, '<');
}
END_TEST

START_TEST(every_immediate_spelling)
{
	static const char *nums[] = {"0f3F800000", "0d3FF0000000000000", "0x1F", "0xffU",
		"017", "0b101", "0B11U", "42", "42U", "1.5", "2.5e-3", "7e10",
		".5", ".5e3", "5."};  /* ptxas reads .5 and 5. as 0.5 and 5.0 */
	for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) {
		Tok t[4];
		int n = scan(nums[i], t, 4);
		ck_assert_msg(n == 1 && t[0].kind == NUM, "'%s' is not one number", nums[i]);
		ck_assert_str_eq(t[0].str, nums[i]);
	}
}
END_TEST

START_TEST(locations_are_line_and_column)
{
	Tok t[8];
	int n = scan("// comment\n  /* multi\nline */ add.s32\n\tret;", t, 8);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(t[0].line, 3);
	ck_assert_int_eq(t[0].col, 9);
	ck_assert_int_eq(t[1].line, 4);
	ck_assert_int_eq(t[1].col, 2);
}
END_TEST

START_TEST(names_are_interned)
{
	Tok t[4];
	scan("%rd1 %rd1", t, 4);
	ck_assert_ptr_eq(t[0].str, t[1].str);
	ck_assert_ptr_eq(t[0].str, intern_cstr("%rd1"));
}
END_TEST

START_TEST(operators_and_strings)
{
	Tok t[16];
	int n = scan("<< >> && || == != <= >= \"a\\\"b\" _ %tid.x", t, 16);
	ck_assert_int_eq(n, 11);
	ck_assert_int_eq(t[0].kind, SHL);
	ck_assert_int_eq(t[7].kind, GE);
	ck_assert_int_eq(t[8].kind, STRING);
	ck_assert_str_eq(t[8].str, "\"a\\\"b\"");
	ck_assert_str_eq(t[9].str, "_");
	ck_assert_str_eq(t[10].str, "%tid.x");
}
END_TEST

/* ptxas takes Ctrl-Z (0x1a, a DOS end of file) for white space. */
START_TEST(ctrl_z_is_white_space)
{
	Tok t[4];
	int n = scan("ret\x1a;\x1a", t, 4);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(t[0].str, "ret");
	ck_assert_int_eq(t[1].kind, ';');
}
END_TEST

/* No length limit, as in ptxas; and linear time (flex would rescan a long
 * token after every 8 KB read). */
START_TEST(long_identifiers)
{
	size_t len = 1 << 20;
	char *text = malloc(len + 8);
	memset(text, 'a', len);
	strcpy(text + len, " b");
	Tok t[4];
	int n = scan(text, t, 4);
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(strlen(t[0].str), len);
	free(text);
}
END_TEST

Suite *lexer_suite(void)
{
	Suite *s = suite_create("lexer");
	TCase *tc = tcase_create("tokens");
	tcase_add_test(tc, instruction_spelling_is_one_token);
	tcase_add_test(tc, directives_and_keywords);
	tcase_add_test(tc, every_immediate_spelling);
	tcase_add_test(tc, locations_are_line_and_column);
	tcase_add_test(tc, names_are_interned);
	tcase_add_test(tc, operators_and_strings);
	tcase_add_test(tc, ctrl_z_is_white_space);
	tcase_add_test(tc, long_identifiers);
	suite_add_tcase(s, tc);
	return s;
}
