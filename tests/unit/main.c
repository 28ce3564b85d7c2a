/* Check unit tests for the scanner, parser, IR and printer. */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"

Module *parse_ok(const char *text)
{
	Module *m = ptx_parse_string("t.ptx", text, strlen(text));
	ck_assert_msg(m != NULL, "parse failed for:\n%s", text);
	ck_assert_int_eq(ir_verify_shape(m), 0);  /* a snippet need not be a whole program */
	return m;
}

char *parse_errors(const char *text)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	diag_set_stream(f);
	Module *m = ptx_parse_string("t.ptx", text, strlen(text));
	diag_set_stream(NULL);
	fclose(f);
	ck_assert_msg(m == NULL, "expected a parse error for:\n%s", text);
	return buf;
}

char *print_str(const Module *m)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	print_module(f, m);
	fclose(f);
	return buf;
}

char *verify_msgs(const Module *m)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	diag_set_stream(f);
	int bad = ir_verify(m);
	diag_set_stream(NULL);
	fclose(f);
	if (!bad) {
		free(buf);
		return NULL;
	}
	return buf;
}

Stmt *first_body_stmt(Module *m)
{
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body)
			return s->func->body.head;
	ck_abort_msg("no function");
	return NULL;
}

int main(void)
{
	ctx_enter(ctx_new());   /* every case works in it (a forked case in its copy) */
	SRunner *sr = srunner_create(lexer_suite());
	srunner_add_suite(sr, parser_suite());
	srunner_add_suite(sr, ir_suite());
	srunner_add_suite(sr, print_suite());
	srunner_add_suite(sr, analysis_suite());
	srunner_add_suite(sr, values_suite());
	srunner_add_suite(sr, demangle_suite());
	srunner_add_suite(sr, leb128_suite());
	srunner_add_suite(sr, scope_suite());
	srunner_add_suite(sr, cost_suite());
	srunner_add_suite(sr, inlinable_suite());
	srunner_add_suite(sr, body_suite());
	srunner_add_suite(sr, obj_suite());
	srunner_add_suite(sr, nvtools_suite());
	srunner_add_suite(sr, link_suite());
	srunner_add_suite(sr, device_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
