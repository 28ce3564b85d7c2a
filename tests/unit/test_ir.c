/* IR building blocks: arena, interning, spellings, lists, verifier. */
#include <signal.h>
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

/* Zero bytes still give memory (calloc(0, n) and realloc(p, 0) may give
 * NULL, the latter freeing p); a size past SIZE_MAX ends the process. */
START_TEST(heap_allocators_never_return_null)
{
	char *p = xmalloc(0), *q = xcalloc(0, 8);
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(q);
	p = xrealloc(p, 0);
	ck_assert_ptr_nonnull(p);
	q = xreallocarray(q, 4, sizeof(uint64_t));
	((uint64_t *)q)[3] = 1;
	char *s = xstrndup("abcdef", 3), *t = xstrdup("xy");
	ck_assert_str_eq(s, "abc");
	ck_assert_str_eq(t, "xy");
	free(p), free(q), free(s), free(t);
	uint32_t cap = 0, *v = array_grow(NULL, 0, &cap, sizeof *v);
	ck_assert_uint_eq(cap, 8);
	free(v);
}
END_TEST

START_TEST(heap_size_overflow_dies)
{
	xcalloc(SIZE_MAX / 2, 4);
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

static const Spelling *spell(const char *text)
{
	return spelling_get(text, strlen(text));
}

/* Only the named bits are set: each word is decoded, none twice. */
static int only_mods(const Spelling *sp, const int *mods, int n)
{
	ModSet want = {{0, 0}};
	for (int i = 0; i < n; i++)
		want.w[mods[i] / 64] |= 1ull << (mods[i] % 64);
	return sp->set.w[0] == want.w[0] && sp->set.w[1] == want.w[1];
}

START_TEST(spellings_decode_their_modifiers)
{
	const Spelling *cvt = spell("cvt.rn.f32.s32");
	ck_assert_int_eq(cvt->code, O_cvt);
	ck_assert_int_eq(cvt->rnd, RND_RN);
	ck_assert_int_eq(cvt->ntypes, 2);
	ck_assert_int_eq(cvt->types[0], TY_F32);
	ck_assert_int_eq(cvt->types[1], TY_S32);
	ck_assert_str_eq(cvt->type, ".s32");   /* the last sized one, as before */
	ck_assert_int_eq(cvt->cmp, CMP_NONE);
	ck_assert(only_mods(cvt, NULL, 0));
	ck_assert_int_eq(cvt->words[0].kind, MW_RND);
	ck_assert_int_eq(cvt->words[2].kind, MW_TYPE);

	/* .lo compares in setp, and is a plain word in mul */
	const Spelling *setp = spell("setp.lo.u32"), *mul = spell("mul.lo.s32");
	ck_assert_int_eq(setp->cmp, CMP_LO);
	ck_assert(!spelling_has(setp, MOD_lo));
	ck_assert_int_eq(mul->cmp, CMP_NONE);
	ck_assert(spelling_has(mul, MOD_lo));
	ck_assert(only_mods(mul, (int[]){MOD_lo}, 1));
	ck_assert_int_eq(spell("set.hi.u32.u32")->cmp, CMP_HI);
	ck_assert_int_eq(spell("setp.nan.f32")->cmp, CMP_NAN);
	ck_assert(spelling_has(spell("min.NaN.f32"), MOD_NaN));

	/* destination and source spaces */
	const Spelling *cp = spell("cp.async.ca.shared.global");
	ck_assert_int_eq(cp->space, SPACE_SHARED);
	ck_assert_int_eq(cp->space2, SPACE_GLOBAL);
	ck_assert(only_mods(cp, (int[]){MOD_async, MOD_ca}, 2));
	ck_assert_int_eq(mod_group(MOD_ca), MG_CACHE);
	ck_assert_int_eq(cp->ntypes, 0);
	ck_assert_ptr_null(cp->type);

	const Spelling *ld = spell("ld.global.v4.f32");
	ck_assert_int_eq(ld->code, O_ld);
	ck_assert_int_eq(ld->space, SPACE_GLOBAL);
	ck_assert_int_eq(ld->space2, SPACE_NONE);
	ck_assert_int_eq(ld->vec, 4);
	ck_assert_int_eq(ld->ntypes, 1);
	ck_assert_int_eq(ld->types[0], TY_F32);
	ck_assert_int_eq(ld->type_bytes, 4);
	ck_assert_ptr_null(ld->unknown);

	const Spelling *bar = spell("bar.red.popc.u32");
	ck_assert(only_mods(bar, (int[]){MOD_red, MOD_popc}, 2));
	ck_assert_int_eq(bar->types[0], TY_U32);

	/* a space's qualifier, a cache-hint family, a shape */
	const Spelling *mb = spell("mbarrier.try_wait.parity.shared::cta.b64");
	ck_assert_int_eq(mb->space, SPACE_SHARED);
	ck_assert(only_mods(mb, (int[]){MOD_try_wait, MOD_parity, MOD_shared_cta}, 3));
	ck_assert(spelling_has(spell("ld.global.L1::evict_last.L2::256B.u32"), MOD_L1));
	ck_assert(spelling_has(spell("ld.global.L2::cache_hint.u32"), MOD_cache_hint));
	ck_assert(!spelling_has(spell("ld.global.L2::cache_hint.u32"), MOD_L2));
	const Spelling *mma = spell("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
	ck_assert_int_eq(mma->ntypes, 4);
	ck_assert_int_eq(mma->types[3], TY_F32);
	ck_assert_uint_eq(mma->shape[0], 16);
	ck_assert_uint_eq(mma->shape[1], 8);
	ck_assert_uint_eq(mma->shape[2], 16);
	ck_assert_int_eq(mma->words[2].kind, MW_SHAPE);

	/* what no row covers is kept for whoever must refuse it */
	const Spelling *odd = spell("add.frob.s32");
	ck_assert_str_eq(odd->unknown, ".frob");
	ck_assert_int_eq(odd->words[0].kind, MW_UNKNOWN);
	ck_assert_int_eq(odd->types[0], TY_S32);
	ck_assert_str_eq(spell("ld.global::frob.u32")->unknown, ".global::frob");
	ck_assert_int_eq(spell("ld.global::frob.u32")->space, SPACE_GLOBAL);

	ck_assert_int_eq(type_of(".bf16x2"), TY_BF16X2);
	ck_assert_int_eq(type_of(".ftz"), TY_NONE);
	ck_assert_int_eq(type_bytes(".tf32"), 0);
	ck_assert_int_eq(type_bytes(".b128"), 16);
	ck_assert(ty_signed(TY_S8) && !ty_signed(TY_U8) && ty_floats(TY_F16X2) && !ty_float(TY_F16X2));
}
END_TEST

START_TEST(special_registers_are_one_table)
{
	int k;
	ck_assert_int_eq(sreg_find("%tid.y", &k), SR_TID);
	ck_assert_int_eq(k, 1);
	ck_assert_int_eq(sreg_find("%ctaid", &k), SR_CTAID);
	ck_assert_int_eq(k, -1);   /* the vector as a whole */
	ck_assert_int_eq(sreg_find("%laneid", &k), SR_LANEID);
	ck_assert_int_eq(sreg_find("%envreg7", &k), SR_ENVREG);
	ck_assert_int_eq(k, 7);
	ck_assert_int_eq(sreg_find("%pm3_64", &k), SR_PM64);
	ck_assert_int_eq(k, 3);
	ck_assert_int_eq(sreg_find("%reserved_smem_offset_begin", &k), SR_RSMEM_BEGIN);
	ck_assert_int_eq(sreg_find("%tid.w", &k), -1);
	ck_assert_int_eq(sreg_find("%laneid.x", &k), -1);
	ck_assert_int_eq(sreg_find("%envreg", &k), -1);
	ck_assert(is_special_reg("%cluster_nctaid.z"));
	ck_assert(!is_special_reg("%r1"));
	/* WARP_SZ is declared for every program, but is no register */
	ck_assert(is_predefined("WARP_SZ") && !is_special_reg("WARP_SZ"));
	ck_assert(is_predefined("%laneid") && !is_predefined("WARP_SZE") && !is_predefined("%r1"));
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

/* Every statement of a body, scopes flattened, with the list holding it;
 * removing and moving through the table keeps it right. */
START_TEST(places_find_the_list_of_each_statement)
{
	Module *m = parse_ok(HEADER ".func f()\n{\n.reg .b32 %r<4>;\nmov.u32 %r1, 1;\n"
		"{\nmov.u32 %r2, 2;\n{\n{\nmov.u32 %r3, 3;\n}\n}\nL:\n}\nret;\n}\n");
	Func *f = NULL;
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC)
			f = s->func;
	Places p = {0};
	places_of(&p, &f->body);
	ck_assert_uint_eq(p.n, 6);  /* .reg, mov, mov, mov, L:, ret */
	Stmt *outer = f->body.head->next->next;   /* the first { } */
	ck_assert_int_eq(outer->kind, S_SCOPE);
	Stmt *deep = outer->scope.head->next->scope.head->scope.head;
	ck_assert_ptr_eq(p.v[3].s, deep);
	ck_assert_ptr_eq(p.v[4].s, outer->scope.tail);
	ck_assert_int_eq(p.v[4].s->kind, S_LABEL);
	ck_assert_ptr_eq(p.v[5].s, f->body.tail);
	for (uint32_t i = 0; i < p.n; i++)
		ck_assert_ptr_eq(place_of(&p, p.v[i].s), &p.v[i]);
	ck_assert_ptr_eq(place_of(&p, outer), NULL);   /* a scope is not a place */
	ck_assert_ptr_eq(place_of(&p, f->body.head)->in, &f->body);
	Place *d = place_of(&p, deep);
	ck_assert_ptr_eq(d->in, &outer->scope.head->next->scope.head->scope);
	place_move_before(d, &p.v[5]);   /* the deep mov before ret */
	ck_assert_ptr_eq(d->in, &f->body);
	ck_assert_ptr_eq(f->body.tail->prev, deep);
	place_remove(d);
	ck_assert_ptr_null(d->s);
	ck_assert_ptr_eq(place_of(&p, deep), d);   /* still found, as removed */
	place_remove(d);   /* nothing the second time */
	ck_assert_ptr_eq(f->body.tail->prev, outer);
	places_free(&p);
	ck_assert_uint_eq(p.n, 0);
	ck_assert_ptr_null(place_of(&p, f->body.head));
	mod_free(m);
}
END_TEST

/* What a stage adds through place_insert is in the table as what it
 * found: depot's later steps count the readers of a register there
 * (issue 31: a stored address whose only reader was an inserted mov). */
START_TEST(places_hold_what_is_inserted)
{
	Module *m = parse_ok(HEADER ".func f()\n{\n.reg .b32 %r<4>;\n{\nmov.u32 %r1, 1;\n}\nret;\n}\n");
	Func *f = m->items.tail->func;
	Places p = {0};
	places_of(&p, &f->body);
	Stmt *inner = f->body.head->next->scope.head, *ret = f->body.tail;
	place_remove(place_of(&p, ret));
	Stmt *added[40];
	for (int i = 0; i < 40; i++) {   /* past the first table's 16 slots */
		added[i] = stmt_new(m, S_INS, (Loc){0});
		place_insert(&p, place_of(&p, inner)->in, i % 2 ? inner : NULL, added[i]);
	}
	ck_assert_uint_eq(p.n, 43);
	for (int i = 0; i < 40; i++) {
		Place *w = place_of(&p, added[i]);
		ck_assert_ptr_nonnull(w);
		ck_assert_ptr_eq(w->s, added[i]);
		ck_assert_ptr_eq(w->in, &f->body.head->next->scope);
	}
	ck_assert_ptr_eq(inner->prev, added[39]);
	ck_assert_ptr_eq(f->body.head->next->scope.tail, added[38]);
	ck_assert_ptr_null(place_of(&p, ret)->s);   /* still found, as removed */
	ck_assert_ptr_eq(place_of(&p, inner)->s, inner);
	places_free(&p);
	mod_free(m);
}
END_TEST

/* A %r<N> range declares %r0..%r<N-1>, without leading zeros; fresh names
 * avoid every name a body declares, prototype labels too. */
START_TEST(declared_names_and_fresh_ones)
{
	Module *m = parse_ok(HEADER ".global .u32 g;\n.func f(.param .b32 a)\n{\n"
		".reg .b32 %r<10>;\n.reg .pred %p;\n{\n.reg .b64 %x;\n}\n"
		"fresh: .callprototype ()_ ();\nfresh_1:\nret;\n}\n");
	const Func *f = NULL;
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC)
			f = s->func;
	Names n = {0};
	names_of_func(&n, m, f);
	ck_assert(names_declared(&n, intern_cstr("%r9")));
	ck_assert(names_declared(&n, intern_cstr("%r0")));
	ck_assert(!names_declared(&n, intern_cstr("%r10")));
	ck_assert(!names_declared(&n, intern_cstr("%r09")));
	ck_assert(!names_exact(&n, intern_cstr("%r9")));   /* only in the range */
	ck_assert(names_exact(&n, intern_cstr("%p")));
	ck_assert(names_exact(&n, intern_cstr("%x")));     /* an inner scope's */
	ck_assert(names_exact(&n, intern_cstr("a")));
	ck_assert(names_exact(&n, intern_cstr("g")));
	ck_assert(names_exact(&n, intern_cstr("f")));
	ck_assert_str_eq(names_fresh(&n, "fresh"), "fresh_2");
	ck_assert_str_eq(names_fresh(&n, "fresh"), "fresh_3");
	ck_assert_str_eq(names_fresh(&n, "%r"), "%r");
	names_free(&n);
	ck_assert(!names_exact(&n, intern_cstr("g")));
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

/* ir_verify reports a violation saying text. */
static void ck_violation(const Module *m, const char *text)
{
	char *msg = verify_msgs(m);
	ck_assert_msg(msg && strstr(msg, text), "ir_verify does not say \"%s\"", text);
	free(msg);
}

#define CALLER HEADER ".func (.param .b32 r) f(.param .b32 x)\n{\nret;\n}\n" \
	".global .u64 tbl[1] = {f};\n" \
	".entry k()\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n" \
	".param .b32 a;\n.param .b32 r;\nmov.u32 %r1, 1;\nst.param.b32 [a], %r1;\n" \
	"p: .callprototype (.param .b32 _) _ (.param .b32 _);\n"

/* The bug of issue 10: the slot read deleted, the call kept. */
START_TEST(verifier_rejects_call_through_undefined_register)
{
	Module *ok = parse_ok(CALLER "ld.global.u64 %rd1, [tbl];\ncall (r), %rd1, (a), p;\nret;\n}\n");
	ck_assert_ptr_null(verify_msgs(ok));
	mod_free(ok);
	Module *m = ptx_parse_string("t.ptx", CALLER "call (r), %rd1, (a), p;\nret;\n}\n",
		strlen(CALLER "call (r), %rd1, (a), p;\nret;\n}\n"));
	ck_assert_ptr_nonnull(m);
	ck_violation(m, "call through '%rd1', which no definition reaches");
	mod_free(m);
}
END_TEST

START_TEST(verifier_rejects_undeclared_names_and_bad_counts)
{
	const char *good = HEADER ".reg .b32 unused;\n.entry k()\n{\n.reg .b32 %r<3>;\n"
		".reg .v2 .b32 %v;\nmov.u32 %r2, %tid.x;\nmov.v2.b32 %v, {%r2, %r2};\nmov.u32 %r1, %v.y;\n"
		"mov.u32 %r0, %envreg3;\nbra L;\nL:\nret;\n}\n";
	Module *m = parse_ok(good);
	Stmt *mov = first_body_stmt(m);
	while (mov->kind != S_INS)
		mov = mov->next;
	Expr **ops = mov->ins.ops;
	Expr *undeclared[2] = {name_expr(intern_cstr("%r3")), ops[1]};  /* %r<3> ends at %r2 */
	mov->ins.ops = undeclared;
	ck_violation(m, "'%r3' is used but nothing declares it");
	Expr *label[2] = {ops[0], name_expr(intern_cstr("nowhere"))};
	mov->ins.ops = label;
	ck_violation(m, "'nowhere' is used but nothing declares it");
	mov->ins.ops = ops;
	mov->ins.nops = 1;  /* mov takes two */
	ck_violation(m, "with 1 operands (the table allows 2 to 2)");
	mov->ins.nops = 2;
	char *msg = verify_msgs(m);
	ck_assert_msg(!msg, "%s", msg);
	mod_free(m);
}
END_TEST

/* A vtable naming a function the stages removed: ptxas refuses "Invalid
 * initial value symbol" (ipo once merged such a function away). */
START_TEST(verifier_checks_initializer_names)
{
	const char *text = HEADER ".func f();\n.global .align 8 .u64 vt[2] = {0, f};\n"
		".func f()\n{\nret;\n}\n.entry k()\n{\nret;\n}\n";
	Module *m = parse_ok(text);
	ck_assert_ptr_null(verify_msgs(m));
	for (Stmt *s = m->items.head, *next; s; s = next) {
		next = s->next;
		if (s->kind == S_FUNC && !strcmp(s->func->name, "f"))
			list_remove(&m->items, s);
	}
	ck_violation(m, "'f' is used but nothing declares it");
	mod_free(m);
}
END_TEST

START_TEST(normalized_modules_declare_one_name_per_statement)
{
	const char *text = HEADER ".global .u32 a, b[2] = {1, 2}, c;\n"
		".entry k()\n{\n.reg .b32 %r<2>, %s;\n{\n.local .b8 x[4], y[8];\n}\nret;\n}\n";
	Module *m = parse_ok(text);
	ir_normalize(m);
	ck_assert_ptr_null(verify_msgs(m));
	char *out = print_str(m);
	ck_assert_ptr_nonnull(strstr(out, ".global .u32\ta;\n.global .u32\tb[2] = {1, 2};\n.global .u32\tc;"));
	ck_assert_ptr_nonnull(strstr(out, ".local .b8\ty[8];"));
	free(out);
	Stmt *a = m->items.head;
	while (a->kind != S_VAR)
		a = a->next;
	a->var.nds = 2;  /* a stage that wrote two names into one statement */
	ck_violation(m, "declares more than one name after normalization");
	mod_free(m);
}
END_TEST

/* A stage must not make a register read before written where the input
 * did not; what the input already read undefined is its own business. */
START_TEST(undefined_reads_are_checked_against_the_input)
{
	const char *text = HEADER ".entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd1;\n"
		"ld.param.u64 %rd1, [p];\nmov.u32 %r1, 5;\nadd.s32 %r2, %r1, %r3;\n"
		"st.global.u32 [%rd1], %r2;\nret;\n}\n";
	Module *m = parse_ok(text);
	ck_violation(m, "'%r3' is read on a path where no definition reaches it");
	Verified *before = ir_verified(m);
	ck_assert_int_eq(ir_verify_since(m, before, "test"), 0);  /* %r3 was undefined already */
	Stmt *mov = first_body_stmt(m);
	while (mov->kind != S_INS || strcmp(mov->ins.sp->base, "mov"))
		mov = mov->next;
	list_remove(&m->items.tail->func->body, mov);  /* as if a stage dropped %r1's write */
	diag_set_stream(fopen("/dev/null", "w"));
	ck_assert_int_eq(ir_verify_since(m, before, "test"), 1);
	diag_set_stream(NULL);
	ir_verified_free(before);
	mod_free(m);
}
END_TEST

/* A variable's initial bytes: integers little-endian, floats as written
 * or rounded, zeros past the initializer; none when an element is an
 * address. */
START_TEST(initializer_images)
{
	Module *m = parse_ok(HEADER ".global .align 4 .u32 a[3] = {1, -2};\n"
		".const .f32 f[2] = {0f3F800000, 1.5};\n.global .f64 d = -2.0;\n"
		".global .u32 z;\n.global .u64 p = generic(z);\n");
	uint8_t b[16];
	Stmt *s = m->items.head;
	while (s->kind != S_VAR)
		s = s->next;
	ck_assert(init_image(&s->var, &s->var.ds[0], b, 12));
	ck_assert(b[0] == 1 && b[4] == 0xfe && b[7] == 0xff && b[8] == 0 && b[11] == 0);
	s = s->next;
	ck_assert(init_image(&s->var, &s->var.ds[0], b, 8));
	ck_assert(b[3] == 0x3f && b[2] == 0x80 && b[7] == 0x3f && b[6] == 0xc0);
	s = s->next;
	ck_assert(init_image(&s->var, &s->var.ds[0], b, 8));
	ck_assert(b[7] == 0xc0 && b[6] == 0x00);
	s = s->next;
	ck_assert(init_image(&s->var, &s->var.ds[0], b, 4) && b[0] == 0);
	s = s->next;
	ck_assert(!init_image(&s->var, &s->var.ds[0], b, 8));
	mod_free(m);
}
END_TEST

/* A register's declared type, whether declared alone or in a %r<N> range. */
START_TEST(register_types)
{
	Module *m = parse_ok(HEADER ".entry k()\n{\n.reg .b32 %r<4>;\n.reg .f64 %fd1;\n"
		".reg .pred %p<2>;\nret;\n}\n");
	Names n = {0};
	names_of_func(&n, m, m->items.tail->func);
	ck_assert_str_eq(names_type(&n, intern_cstr("%r3")), ".b32");
	ck_assert_ptr_null(names_type(&n, intern_cstr("%r4")));
	ck_assert_str_eq(names_type(&n, intern_cstr("%fd1")), ".f64");
	ck_assert_str_eq(names_type(&n, intern_cstr("%p1")), ".pred");
	names_free(&n);
	mod_free(m);
}
END_TEST

static Stmt *nth(Stmt *s, int n)
{
	while (n-- > 0)
		s = s->next;
	return s;
}

/* Declaration words decoded once: each Spec's kind, each Decl's fields;
 * the setters keep them, and the verifier sees fields edited apart. */
START_TEST(declarations_decode_their_words)
{
	Module *m = parse_ok(HEADER ".visible .global .align 16 .v4 .f32 v[2];\n"
		".extern .shared .align 8 .b8 dyn[];\n.weak .const .v2 .u16 h;\n"
		".common .global .texref t;\n"
		".entry k(.param .u64 .ptr .global .align 16 p)\n.reqntid 32, 1, 1\n{\n"
		".reg .v2 .b64 %rd;\nret;\n}\n");
	Stmt *s = nth(m->items.head, 3);
	Decl *v = &s->var;
	ck_assert(v->linkage == LINK_VISIBLE && v->space == SPACE_GLOBAL && v->type == TY_F32);
	ck_assert(v->vec == 4 && v->align == 16);
	ck_assert_int_eq(decl_bytes(v, &v->ds[0]), 32);
	ck_assert(v->specs[0].kind == SW_LINK && v->specs[2].kind == SW_SPEC && v->specs[2].id == SPEC_align);
	ck_assert(v->specs[3].kind == SW_VEC && v->specs[3].id == 4 && v->specs[4].kind == SW_TYPE);
	Decl *dyn = &s->next->var, *h = &nth(s, 2)->var, *t = &nth(s, 3)->var;
	ck_assert(dyn->linkage == LINK_EXTERN && dyn->space == SPACE_SHARED && dyn->align == 8);
	ck_assert(h->linkage == LINK_WEAK && h->vec == 2 && var_align(h) == 4);
	ck_assert(t->linkage == LINK_COMMON && t->type == TY_TEXREF && decl_bytes(t, &t->ds[0]) == -1);
	ck_assert_str_eq(decl_type(t), ".texref");
	Func *k = nth(s, 4)->func;
	ck_assert(k->linkage == LINK_INTERNAL && k->params[0].align == 0);  /* .ptr's is the pointee's */
	ck_assert_ptr_eq(func_attr(k, FA_reqntid), &k->attrs[0]);
	ck_assert_ptr_null(func_attr(k, FA_maxntid));
	ck_assert_int_eq(first_body_stmt(m)->var.vec, 2);

	/* the setters: .align before the vector width, linkage words first */
	decl_set_align(m, h, 8);
	ck_assert(h->align == 8 && h->specs[2].kind == SW_SPEC && h->specs[3].kind == SW_VEC);
	decl_set_align(m, v, 32);
	ck_assert(v->align == 32 && v->nspecs == 5);
	decl_set_linkage(m, v, LINK_EXTERN);
	ck_assert(v->linkage == LINK_EXTERN && v->specs[0].kind == SW_LINK && v->nspecs == 5);
	decl_set_linkage(m, v, LINK_INTERNAL);
	ck_assert(v->linkage == LINK_INTERNAL && v->nspecs == 4);
	func_set_linkage(m, k, LINK_VISIBLE);
	ck_assert(k->linkage == LINK_VISIBLE && k->nspecs == 1);
	ck_assert_int_eq(ir_verify(m), 0);

	/* what ptxas refuses, and where */
	DeclProblem p;
	Decl d;
	Spec w[3] = {spec_make(intern_cstr(".global"), NULL, NULL, 0),
		spec_make(intern_cstr(".v8"), NULL, NULL, 0), spec_make(intern_cstr(".b32"), NULL, NULL, 0)};
	ck_assert(!decl_set(&d, w, 3, &p) && p.at == 1);
	w[1] = spec_make(intern_cstr(".v4"), NULL, NULL, 0);
	w[2] = spec_make(intern_cstr(".b64"), NULL, NULL, 0);
	ck_assert(!decl_set(&d, w, 3, &p) && p.at == 1 && strstr(p.why, "32 bytes"));
	w[2] = spec_make(intern_cstr(".u32"), NULL, NULL, 0);
	ck_assert(decl_set(&d, w, 3, &p) && d.vec == 4 && d.type == TY_U32);
	ck_assert(!spec_known(intern_cstr(".f32x2")) && spec_known(intern_cstr(".shared::cta")));
	w[2] = spec_make(intern_cstr(".e4m3"), NULL, NULL, 0);   /* instructions' only */
	ck_assert(!decl_set(&d, w, 3, &p) && p.at == 2 && strstr(p.why, "instruction type"));
	ck_assert_int_eq(fattr_of(".maxnreg"), FA_maxnreg);

	/* fields edited apart from the words */
	h->vec = 1;
	ck_violation(m, "fields disagree with its words");
	h->vec = 2;
	k->linkage = LINK_WEAK;
	ck_violation(m, "linkage is not its words'");
	mod_free(m);
}
END_TEST

/* A function's directives decoded once: numbers into fields, a missing
 * dimension 1, the last of a kind winning; what ptxas refuses, refused. */
START_TEST(function_directives_decode_their_numbers)
{
	Module *m = parse_ok(HEADER ".func f() .noreturn .abi_preserve 0\n{\nret;\n}\n"
		".entry k() .maxntid 64 .maxntid 0x80, 2 .minnctapersm 4 .maxnreg 32U\n{\nret;\n}\n"
		".entry c() .reqntid 32, 4 .reqnctapercluster 2 .explicitcluster\n{\nret;\n}\n");
	Func *f = nth(m->items.head, 3)->func, *k = nth(m->items.head, 4)->func;
	Func *c = nth(m->items.head, 5)->func;
	ck_assert(f->abi_preserve == 0 && func_attr(f, FA_abi_preserve) && !f->maxntid[0]);
	ck_assert(k->maxntid[0] == 128 && k->maxntid[1] == 2 && k->maxntid[2] == 1);
	ck_assert(k->minnctapersm == 4 && k->maxnreg == 32 && !k->reqntid[0] && !k->maxclusterrank);
	ck_assert(c->reqntid[0] == 32 && c->reqntid[1] == 4 && c->reqntid[2] == 1);
	ck_assert(c->reqnctapercluster[0] == 2 && c->reqnctapercluster[2] == 1 && !c->maxntid[0]);
	ck_assert_int_eq(ir_verify(m), 0);

	/* what ptxas refuses, reported at the directive that makes it so */
	static const struct {
		const char *attrs, *at, *why;
	} bad[] = {
		{".maxntid 0", ".maxntid", "'.maxntid 0': ptxas wants a positive number"},
		{".maxntid 1, 2, 3, 4", ".maxntid", "takes 1 to 3 numbers, not 4"},
		{".maxnreg 1, 2", ".maxnreg", "takes one number, not 2"},
		{".explicitcluster 1", ".explicitcluster", "takes no number"},
		{".maxntid 1.5", ".maxntid", "'.maxntid 1.5': not an integer"},
		{".reqntid 4294967296", ".reqntid", "does not fit in 32 bits"},
		{".reqntid 99999999999999999999", ".reqntid", "does not fit in 32 bits"},
		{".maxnreg 8 .reqntid 32 .maxntid 32", ".maxntid", "'.maxntid' and '.reqntid' together"},
		{".reqnctapercluster 2 .maxclusterrank 4", ".maxclusterrank", "together"},
		{".blocksareclusters .reqntid 32", ".blocks", "without '.reqntid' and '.reqnctapercluster'"},
		{".noreturn", ".noreturn", "on a kernel: ptxas takes it on a .func only"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char text[256], where[32];
		snprintf(text, sizeof text, HEADER ".entry g() %s;\n", bad[i].attrs);
		snprintf(where, sizeof where, ":4:%d: error: ",
			(int)(strstr(bad[i].attrs, bad[i].at) - bad[i].attrs) + 12);
		char *err = parse_errors(text);
		ck_assert_msg(strstr(err, where) && strstr(err, bad[i].why), "%s: %s", bad[i].attrs, err);
		free(err);
	}
	char *err = parse_errors(HEADER ".func g() .maxntid 32;\n");
	ck_assert_msg(strstr(err, "on a .func: ptxas takes it on a kernel (.entry) only"), "%s", err);
	free(err);

	/* fields edited apart from the words */
	k->maxntid[1] = 1;
	ck_violation(m, "directives disagree with its fields");
	k->maxntid[1] = 2;
	k->attrs[0].nums = (const char *[]){"0"};
	ck_violation(m, "directives disagree with its fields");
	mod_free(m);
}
END_TEST

/* %r1.b0 is part of %r1: ins_names reports the register, read, and a
 * part written as maybe written (the rest is kept). */
static void note_role(void *ctx, const char *name, OpRole role)
{
	char *buf = ctx;
	snprintf(buf + strlen(buf), 256 - strlen(buf), "%s:%c ", name, "udm"[role]);
}

/* What fn says to the diagnostics stream, and its count. */
static char *msgs_of(int (*fn)(const Module *, const Verified *), const Module *m,
	const Verified *base, int *bad)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	diag_set_stream(f);
	*bad = fn(m, base);
	diag_set_stream(NULL);
	fclose(f);
	return buf;
}

static int since_test(const Module *m, const Verified *base)
{
	return ir_verify_since(m, base, "test");
}

/* After a stage a finding is an error naming the stage, which fails the
 * run; the release check of the output says it is the output's. */
START_TEST(findings_after_a_stage_are_errors)
{
	const char *text = HEADER ".entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd1;\n"
		"ld.param.u64 %rd1, [p];\nmov.u32 %r1, 5;\nadd.s32 %r2, %r1, %r3;\n"
		"st.global.u32 [%rd1], %r2;\nret;\n}\n";
	Module *m = parse_ok(text);
	Verified *full = ir_verified(m), *cheap = ir_checked(m);
	int bad, errors = diag_errors();
	char *msg = msgs_of(ir_check_output, m, cheap, &bad);
	ck_assert_int_eq(bad, 0);   /* %r3 was undefined in the input already */
	free(msg);
	Stmt *mov = first_body_stmt(m);
	while (mov->kind != S_INS || strcmp(mov->ins.sp->base, "mov"))
		mov = mov->next;
	list_remove(&m->items.tail->func->body, mov);  /* as if a stage dropped %r1's write */
	msg = msgs_of(since_test, m, full, &bad);
	ck_assert_int_eq(bad, 1);
	ck_assert_msg(strstr(msg, "error: ir_verify: after stage 'test', in 'k': '%r1' is read on a path"),
		"%s", msg);
	free(msg);
	msg = msgs_of(ir_check_output, m, cheap, &bad);
	ck_assert_int_eq(bad, 1);
	ck_assert_msg(strstr(msg, "error: the output check: in 'k': '%r1' is read on a path"), "%s", msg);
	free(msg);
	ck_assert_int_eq(diag_errors(), errors + 2);
	diag_reset();
	ir_verified_free(full);
	ir_verified_free(cheap);
	mod_free(m);
}
END_TEST

/* The names of a .branchtargets or .calltargets list resolve as an
 * instruction's do: an inlined brx.idx's list once kept the callee's
 * labels (issue 31). */
START_TEST(verifier_resolves_target_lists)
{
	const char *text = HEADER ".func g()\n{\nret;\n}\n.entry k(.param .u32 v)\n{\n.reg .b32 %r1;\n"
		"ld.param.u32 %r1, [v];\nts: .branchtargets A, B;\nbrx.idx %r1, ts;\nA:\nret;\nB:\nret;\n"
		"ct: .calltargets g;\n}\n";
	Module *m = parse_ok(text);
	char *msg = verify_msgs(m);
	ck_assert_msg(!msg, "%s", msg);
	mod_free(m);
	const char *bad = HEADER ".entry k(.param .u32 v)\n{\n.reg .b32 %r1;\n"
		"ld.param.u32 %r1, [v];\nts: .branchtargets A, $L_old;\nbrx.idx %r1, ts;\nA:\nret;\n}\n";
	m = parse_ok(bad);
	ck_violation(m, "'$L_old' is used but nothing declares it");
	mod_free(m);
}
END_TEST

/* The output check skips the functions the stages left as they were, but
 * not once a module name one of them uses has gone. */
START_TEST(output_check_sees_a_module_name_gone)
{
	Module *m = parse_ok(HEADER ".global .u32 g;\n.global .u32 h;\n.entry k()\n{\n.reg .b32 %r1;\n"
		"ld.global.u32 %r1, [g];\nst.global.u32 [g], %r1;\nret;\n}\n");
	Verified *base = ir_checked(m);
	int bad;
	char *msg = msgs_of(ir_check_output, m, base, &bad);
	ck_assert_int_eq(bad, 0);
	free(msg);
	Stmt *h = m->items.head;
	while (h->kind != S_VAR || strcmp(h->var.ds[0].name, "h"))
		h = h->next;
	list_remove(&m->items, h);   /* a variable nothing uses goes: k stays unchecked */
	msg = msgs_of(ir_check_output, m, base, &bad);
	ck_assert_int_eq(bad, 0);
	free(msg);
	list_remove(&m->items, m->items.head->next->next->next);   /* g goes too */
	ck_assert_int_eq(m->items.head->next->next->next->kind, S_FUNC);
	msg = msgs_of(ir_check_output, m, base, &bad);
	ck_assert_int_eq(bad, 2);
	ck_assert_msg(strstr(msg, "error: the output check: in 'k': 'g' is used but nothing declares it"), "%s", msg);
	free(msg);
	diag_reset();
	ir_verified_free(base);
	mod_free(m);
}
END_TEST

/* A call's .param read where nothing writes it: ipo once removed the
 * result of f in `call (r0), f, (a0); call (r1), g, (r0)` (issue 31). */
START_TEST(verifier_checks_params_are_written)
{
#define PASSON HEADER ".func (.param .b32 r) f(.param .b32 a)\n{\nst.param.b32 [r], 1;\nret;\n}\n" \
	".entry k()\n{\n.reg .b32 %r1;\n{\n.param .b32 a0;\n.param .b32 r0;\n.param .b32 r1;\n" \
	"st.param.b32 [a0], 7;\n"
	Module *m = parse_ok(PASSON "call (r0), f, (a0);\ncall (r1), f, (r0);\nld.param.b32 %r1, [r1];\n}\n"
		"ret;\n}\n");
	char *msg = verify_msgs(m);
	ck_assert_msg(!msg, "%s", msg);
	mod_free(m);
	m = parse_ok(PASSON "call f, (a0);\ncall (r1), f, (r0);\nld.param.b32 %r1, [r1];\n}\nret;\n}\n");
	ck_violation(m, "'r0' (a .param) is read but nothing writes it");
	mod_free(m);
#undef PASSON
}
END_TEST

#define WINDOWS HEADER ".entry k(.param .u32 v)\n{\n.local .align 8 .b8 d[24];\n" \
	".reg .b64 %SP;\n.reg .b64 %SPL;\n.reg .b32 %r<3>;\n.reg .b64 %rd<6>;\n.reg .pred %p1;\n" \
	"mov.u64 %SPL, d;\ncvta.local.u64 %SP, %SPL;\nld.param.u32 %r1, [v];\n"

/* A .local window address used by a generic access, or a generic one by
 * ld.local: depot's generic-to-local rewrite of a pointer it had put in
 * a register (issue 31, the third repro) gave the first. */
START_TEST(verifier_checks_address_windows)
{
	const char *good = WINDOWS "add.u64 %rd2, %SP, 16;\nst.u32 [%rd2], %r1;\n"
		"add.u64 %rd3, %SPL, 16;\nld.local.u32 %r2, [%rd3+0];\nst.local.u32 [%SPL+4], %r2;\n"
		"cvta.to.local.u64 %rd4, %rd2;\nst.local.u32 [%rd4], %r2;\nld.u32 %r2, [%SP+8];\n"
		"setp.eq.s32 %p1, %r1, 0;\nselp.b64 %rd5, %SP, %SPL, %p1;\nst.u32 [%rd5], %r2;\n"
		"@%p1 bra L1;\nmov.u64 %rd1, %rd2;\nbra L2;\nL1:\nmov.u64 %rd1, %rd3;\nL2:\n"
		"st.u32 [%rd1], %r2;\nmov.b64 {%r1, %r2}, %SPL;\nst.u32 [%r1], %r2;\nret;\n}\n";
	Module *m = parse_ok(good);
	char *msg = verify_msgs(m);
	ck_assert_msg(!msg, "%s", msg);   /* %rd5 and %rd1 may be either: no claim */
	mod_free(m);
	m = parse_ok(WINDOWS "add.u64 %rd2, %SPL, 16;\nmov.b64 %rd3, %rd2;\nst.u32 [%rd3], %r1;\nret;\n}\n");
	ck_violation(m, "'%rd3' holds a .local window address, used by the generic 'st.u32'");
	mod_free(m);
	m = parse_ok(WINDOWS "mov.u64 %rd1, %SP;\nmov.u64 %rd1, %SPL;\nst.u32 [%rd1], %r1;\nret;\n}\n");
	ck_violation(m, "'%rd1' holds a .local window address");   /* the last write reaches */
	mod_free(m);
	m = parse_ok(WINDOWS "ld.local.u32 %r2, [%SP+16];\nret;\n}\n");
	ck_violation(m, "'%SP' holds a generic address, used by 'ld.local.u32'");
	mod_free(m);
	m = parse_ok(WINDOWS "cvta.to.local.u64 %rd2, %SP;\nadd.u64 %rd3, %rd2, %rd4;\n"
		"atom.add.u32 %r2, [%rd3], 1;\nret;\n}\n");
	ck_violation(m, "'%rd3' holds a .local window address, used by the generic 'atom.add.u32'");
	mod_free(m);
}
END_TEST

START_TEST(register_parts_name_their_register)
{
	ck_assert_ptr_eq(reg_of_part(intern_cstr("%r1.b0")), intern_cstr("%r1"));
	ck_assert_ptr_eq(reg_of_part(intern_cstr("%r12.h10")), intern_cstr("%r12"));
	ck_assert_ptr_eq(reg_of_part(intern_cstr("%r1.b3210")), intern_cstr("%r1"));
	ck_assert_ptr_eq(reg_of_part(intern_cstr("%v.x")), intern_cstr("%v"));
	ck_assert_ptr_eq(reg_of_part(intern_cstr("%v.a")), intern_cstr("%v"));
	const char *whole[] = {"%r1", "%tid.x", "%ctaid.y", "%r1.b8", "%r1.h2", "%r1.b01234",
		"%r1.q", "%.x", "g.x", "%r1.bx"};
	for (size_t i = 0; i < sizeof whole / sizeof *whole; i++)
		ck_assert_msg(!reg_of_part(intern_cstr(whole[i])), "%s", whole[i]);

	Module *m = parse_ok(HEADER ".entry k() {\n.reg .b32 %r<4>;\n"
		"vadd4.u32.u32.u32 %r1.b10, %r2.b0, %r3.h1, %r1;\n}\n");
	const Stmt *s = m->items.tail->func->body.tail;
	ck_assert_int_eq(s->kind, S_INS);
	char seen[256] = "";
	ins_names(&s->ins, note_role, seen);
	ck_assert_str_eq(seen, "%r1:m %r2:u %r3:u %r1:u ");
	mod_free(m);
}
END_TEST

Suite *ir_suite(void)
{
	Suite *s = suite_create("ir");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, arena_allocates_zeroed_aligned_memory);
	tcase_add_test(tc, heap_allocators_never_return_null);
	tcase_add_test_raise_signal(tc, heap_size_overflow_dies, SIGABRT);
	tcase_add_test(tc, interning_gives_one_pointer_per_string);
	tcase_add_test(tc, opcode_table_is_sorted_and_found);
	tcase_add_test(tc, interning_can_start_afresh);
	tcase_add_test(tc, spellings_split_and_share);
	tcase_add_test(tc, initializer_images);
	tcase_add_test(tc, register_types);
	tcase_add_test(tc, declarations_decode_their_words);
	tcase_add_test(tc, function_directives_decode_their_numbers);
	tcase_add_test(tc, spellings_decode_their_modifiers);
	tcase_add_test(tc, special_registers_are_one_table);
	tcase_add_test(tc, list_surgery);
	tcase_add_test(tc, places_find_the_list_of_each_statement);
	tcase_add_test(tc, places_hold_what_is_inserted);
	tcase_add_test(tc, verifier_catches_broken_ir);
	tcase_add_test(tc, verifier_rejects_call_through_undefined_register);
	tcase_add_test(tc, verifier_rejects_undeclared_names_and_bad_counts);
	tcase_add_test(tc, verifier_checks_initializer_names);
	tcase_add_test(tc, declared_names_and_fresh_ones);
	tcase_add_test(tc, normalized_modules_declare_one_name_per_statement);
	tcase_add_test(tc, undefined_reads_are_checked_against_the_input);
	tcase_add_test(tc, findings_after_a_stage_are_errors);
	tcase_add_test(tc, verifier_checks_address_windows);
	tcase_add_test(tc, verifier_resolves_target_lists);
	tcase_add_test(tc, output_check_sees_a_module_name_gone);
	tcase_add_test(tc, verifier_checks_params_are_written);
	tcase_add_test(tc, register_parts_name_their_register);
	suite_add_tcase(s, tc);
	return s;
}
