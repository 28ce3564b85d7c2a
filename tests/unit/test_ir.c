/* IR building blocks: arena, interning, spellings, lists, verifier. */
#include <stdlib.h>
#include "unit.h"

START_TEST(arena_allocates_zeroed_aligned_memory)
{
	Arena *a = arena_new();
	for (int i = 1; i < 5000; i += 37) {
		unsigned char *p = arena_alloc(a, (size_t)i);
		ck_assert_uint_eq((uintptr_t)p % sizeof(void *), 0);
		for (int j = 0; j < i; j++)
			ck_assert_uint_eq(p[j], 0);
		memset(p, 0xab, (size_t)i);
	}
	void *big = arena_alloc(a, 1 << 20);
	ck_assert_ptr_nonnull(big);
	ck_assert_uint_ge(arena_bytes(a), 1 << 20);
	ck_assert_str_eq(arena_strndup(a, "hello", 4), "hell");
	arena_free(a);
}
END_TEST

START_TEST(interning_gives_one_pointer_per_string)
{
	const char *a = intern("abc", 3), *b = intern_cstr("abc"), *c = intern("abcd", 3);
	ck_assert_ptr_eq(a, b);
	ck_assert_ptr_eq(a, c);
	ck_assert_ptr_ne(a, intern_cstr("abd"));
	ck_assert_ptr_eq(name_expr(a), name_expr(b));
	ck_assert_int_eq(name_expr(a)->kind, E_NAME);
	ck_assert_int_eq(num_expr(intern_cstr("1"))->kind, E_NUM);
}
END_TEST

START_TEST(interning_can_start_afresh)
{
	char *text = strdup(HEADER ".entry k()\n{\nret;\n}\n");
	Module *m = ptx_parse_string("a.ptx", text, strlen(text));
	mod_free(m);
	intern_reset();
	size_t count, bytes;
	intern_stats(&count, &bytes);
	ck_assert_uint_eq(count, 0);
	m = ptx_parse_string("a.ptx", text, strlen(text));
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(first_body_stmt(m)->ins.sp->base, "ret");
	ck_assert_str_eq(diag_filename(first_body_stmt(m)->loc.file), "a.ptx");
	mod_free(m);
	free(text);
}
END_TEST

START_TEST(opcode_table_is_sorted_and_found)
{
	ck_assert_ptr_nonnull(opcode_find("mad24", 5));
	ck_assert_ptr_nonnull(opcode_find("mad", 3));
	ck_assert_ptr_null(opcode_find("ma", 2));
	ck_assert_ptr_null(opcode_find("zzz", 3));
	ck_assert_str_eq(opcode_find("wgmma.x", 5)->name, "wgmma");
	const Opcode *prev = opcode_find("abs", 3);
	static const char *names[] = {"activemask", "add", "bar", "bra", "call", "cvt",
		"ld", "mov", "ret", "setp", "st", "tex", "vote", "xor"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		const Opcode *op = opcode_find(names[i], strlen(names[i]));
		ck_assert_msg(op != NULL, "%s missing", names[i]);
		ck_assert_int_lt(strcmp(prev->name, op->name), 0);
		prev = op;
	}
}
END_TEST

START_TEST(spellings_split_and_share)
{
	const Spelling *a = spelling_get("cp.async.bulk.shared::cluster.global", 36);
	ck_assert_str_eq(a->base, "cp");
	ck_assert_uint_eq(a->nmods, 4);
	ck_assert_str_eq(a->mods[2], ".shared::cluster");
	ck_assert_ptr_eq(a, spelling_get("cp.async.bulk.shared::cluster.global", 36));
	const Spelling *r = spelling_get("ret", 3);
	ck_assert_uint_eq(r->nmods, 0);
	ck_assert(r->op->flags & OF_TERM);
	ck_assert_ptr_null(spelling_get("frob.x", 6)->op);
}
END_TEST

START_TEST(list_surgery)
{
	Module *m = mod_new("l.ptx");
	List l = {0};
	Stmt *a = stmt_new(m, S_LABEL, (Loc){0}), *b = stmt_new(m, S_LABEL, (Loc){0});
	Stmt *c = stmt_new(m, S_LABEL, (Loc){0});
	list_append(&l, a);
	list_append(&l, c);
	list_insert_before(&l, c, b);
	ck_assert_ptr_eq(l.head, a);
	ck_assert_ptr_eq(a->next, b);
	ck_assert_ptr_eq(b->next, c);
	ck_assert_ptr_eq(c->prev, b);
	list_remove(&l, a);
	ck_assert_ptr_eq(l.head, b);
	ck_assert_ptr_null(b->prev);
	list_remove(&l, c);
	ck_assert_ptr_eq(l.tail, b);
	list_insert_before(&l, b, a);
	ck_assert_ptr_eq(l.head, a);
	mod_free(m);
}
END_TEST

START_TEST(verifier_catches_broken_ir)
{
	Module *m = parse_ok(HEADER ".entry k()\n{\nret;\nexit;\n}\n");
	ck_assert_int_eq(ir_verify(m), 0);
	Stmt *ret = first_body_stmt(m);
	Stmt *saved = ret->next->prev;
	ret->next->prev = NULL;  /* break a back link */
	diag_set_stream(fopen("/dev/null", "w"));
	ck_assert_int_gt(ir_verify(m), 0);
	ret->next->prev = saved;
	Expr *missing[1] = {NULL};
	ret->ins.ops = missing;
	ret->ins.nops = 1;       /* an operand that is not there */
	ck_assert_int_gt(ir_verify(m), 0);
	ret->ins.nops = 0;
	Stmt *top = stmt_new(m, S_VERSION, (Loc){0});
	list_append(&m->items.head->next->next->next->func->body, top);  /* header item in a body */
	ck_assert_int_gt(ir_verify(m), 0);
	diag_set_stream(NULL);
	mod_free(m);
}
END_TEST

Suite *ir_suite(void)
{
	Suite *s = suite_create("ir");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, arena_allocates_zeroed_aligned_memory);
	tcase_add_test(tc, interning_gives_one_pointer_per_string);
	tcase_add_test(tc, opcode_table_is_sorted_and_found);
	tcase_add_test(tc, interning_can_start_afresh);
	tcase_add_test(tc, spellings_split_and_share);
	tcase_add_test(tc, list_surgery);
	tcase_add_test(tc, verifier_catches_broken_ir);
	suite_add_tcase(s, tc);
	return s;
}
