/* Which window an address a register holds is in: the .local window
 * (what %SPL, `mov %r, local_var` and cvta.to.local give) or the generic
 * one (what %SP and cvta.local give).  The PTX ISA leaves a .local window
 * address used by a generic ld/st, or a generic one by ld.local, undefined;
 * the verifier asks this to catch a stage that mixes them up:
 *
 *     mov.u64 %SPL, __local_depot0;     %SPL: local
 *     cvta.local.u64 %SP, %SPL;         %SP: generic
 *     add.u64 %rd2, %SPL, 16;           %rd2: local
 *     st.u32 [%rd2], %r1;               a .local address used generically
 *
 * Over reaching definitions (defs.c): what an instruction writes has a
 * class, and a register read has the join of the classes of the
 * definitions that reach the read.  Pessimistic: a value gets a window
 * only when every definition reaching it gives that window (mov, add,
 * sub and selp carry one; two addresses added, or anything else computed
 * from an address, carry none), so a claim is never a guess.  A worklist
 * over each definition's readers (defs_uses) reaches the fixed point: each
 * instruction's class only rises, at most three times. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"
#include "ptrhash.h"

/* The classes rise: NOTHING (no definition seen yet) below the three
 * answers, MIXED above them. */
enum { NOTHING, LOCAL, GENERIC, OTHER, MIXED };

typedef struct Local {
	UT_hash_handle hh;
	const char *name;
} Local;

struct AddrSpaces {
	Arena *arena;
	Local *locals;          /* the function's .local variables' names */
	const Names *mlocals;   /* the module's, which the caller found once */
	const Cfg *g;
	const Defs *defs;
	uint8_t *cls;           /* per instruction: the class of what it writes */
	uint32_t *work, nwork;
	uint8_t *queued;
	uint32_t *reads, nreads; /* one definition's readers, reused */
};

enum { MAX_REACHING = 16 };  /* more definitions reaching one read: no claim */

static int own_local(const AddrSpaces *a, const char *name)
{
	Local *l;
	HASH_FIND_PTR(a->locals, &name, l);
	return l != NULL;
}

/* The function's own first: its names hide the module's (scope.c). */
static int is_local(const AddrSpaces *a, const char *name)
{
	return own_local(a, name) || names_exact(a->mlocals, name);
}

static void add_local(AddrSpaces *a, const char *name)
{
	if (own_local(a, name))
		return;
	Local *l = arena_alloc(a->arena, sizeof *l);
	l->name = name;
	HASH_ADD_PTR(a->locals, name, l);
}

static void locals_of(AddrSpaces *a, const List *l)
{
	BodyIt it;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it))
		if (s->kind == S_VAR && decl_space(&s->var) == SPACE_LOCAL)
			for (uint32_t i = 0; i < s->var.nds; i++)
				add_local(a, s->var.ds[i].name);
}

static int join(int x, int y)
{
	return x == NOTHING ? y : y == NOTHING || x == y ? x : MIXED;
}

/* A name's class as instruction i reads it: a .local variable's address,
 * another symbol's, or the join over the register's reaching definitions
 * (the value on entry claims nothing). */
static int cls_of_name(const AddrSpaces *a, uint32_t i, const char *name)
{
	if (is_local(a, name))
		return LOCAL;
	if (name[0] != '%')
		return OTHER;
	uint32_t def[MAX_REACHING];
	uint32_t n = defs_reaching(a->defs, i, name, def, MAX_REACHING);
	if (n > MAX_REACHING)
		return MIXED;
	int c = NOTHING;
	for (uint32_t k = 0; k < n; k++)
		c = join(c, def[k] == DEF_ENTRY ? OTHER : a->cls[def[k]]);
	return c;
}

/* An operand's class: a name, name+C, or a number. */
static int cls_of(const AddrSpaces *a, uint32_t i, const Expr *e)
{
	int64_t k;
	if (e->kind == E_NAME)
		return cls_of_name(a, i, e->str);
	if (e->kind == E_BINARY && (e->op == '+' || e->op == '-') && e->kids[0]->kind == E_NAME &&
	    int_operand(e->kids[1], &k))
		return cls_of_name(a, i, e->kids[0]->str);
	return e->kind == E_NUM || int_operand(e, &k) ? OTHER : MIXED;
}

static int is_addr(int c)
{
	return c == LOCAL || c == GENERIC;
}

/* add: an address plus what is not one stays in its window; two
 * addresses, or one that may be either, are no address we can name. */
static int add_cls(int x, int y)
{
	if (x == MIXED || y == MIXED || (is_addr(x) && is_addr(y)))
		return MIXED;
	if (is_addr(x) || is_addr(y))
		return is_addr(x) ? x : y;
	return x == NOTHING || y == NOTHING ? NOTHING : OTHER;
}

/* What instruction i writes into its first operand, for the forms that
 * carry a window; -1 for any other. */
static int carried(const AddrSpaces *a, uint32_t i, const Ins *in)
{
	const Spelling *sp = in->sp;
	switch (sp->code) {
	case O_mov:   /* not a vector's unpacking: half an address is none */
		if (sp->vec > 1 || in->nops != 2 || in->ops[0]->kind != E_NAME)
			return -1;
		return cls_of(a, i, in->ops[1]);
	case O_add:
		return add_cls(cls_of(a, i, in->ops[1]), cls_of(a, i, in->ops[2]));
	case O_sub: {
		int x = cls_of(a, i, in->ops[1]), y = cls_of(a, i, in->ops[2]);
		return is_addr(y) || y == MIXED ? MIXED : add_cls(x, y);
	}
	case O_selp:
		return join(cls_of(a, i, in->ops[1]), cls_of(a, i, in->ops[2]));
	case O_cvta:
		if (sp->space != SPACE_LOCAL)
			return OTHER;
		return spelling_has(sp, MOD_to) ? LOCAL : GENERIC;
	default:
		return -1;
	}
}

/* Anything else computed from an address is no address we can name;
 * anything else claims nothing (a loaded pointer may be anywhere). */
static int computed(const AddrSpaces *a, uint32_t i, const Ins *in)
{
	if (in->sp->code == O_ld || in->sp->code == O_atom || in->sp->code == O_alloca)
		return OTHER;
	int c = OTHER;
	for (uint32_t k = 1; k < in->nops; k++) {
		int x = in->ops[k]->kind == E_NAME ? cls_of_name(a, i, in->ops[k]->str) : OTHER;
		if (is_addr(x) || x == MIXED)
			c = MIXED;
	}
	return c;
}

static void push(AddrSpaces *a, uint32_t i)
{
	if (!a->queued[i])
		a->queued[i] = 1, a->work[a->nwork++] = i;
}

typedef struct Raised {
	AddrSpaces *a;
	uint32_t i;
} Raised;

/* i's class rose: whatever reads what i writes may rise too.  Only the
 * readers i's definition reaches (defs_uses), not every reader of the
 * register: a register written n times and read n times would be n^2. */
static void push_readers(void *ctx, const char *name, OpRole role)
{
	Raised *r = ctx;
	AddrSpaces *a = r->a;
	if (role == ROLE_USE || name[0] != '%')
		return;
	uint32_t n = defs_uses(a->defs, r->i, name, a->reads, a->nreads);
	if (n > a->nreads) {
		a->nreads = n;
		a->reads = arena_alloc(a->arena, n * sizeof *a->reads);
		defs_uses(a->defs, r->i, name, a->reads, n);
	}
	for (uint32_t k = 0; k < n; k++)
		push(a, a->reads[k]);
}

static void visit(AddrSpaces *a, uint32_t i)
{
	const Ins *in = &a->g->ins[i]->ins;
	if (!in->sp || !in->nops || ins_first_role(in) == ROLE_USE)
		return;
	int c = carried(a, i, in);
	c = join(a->cls[i], c >= 0 ? c : computed(a, i, in));
	if (c == a->cls[i])
		return;
	a->cls[i] = (uint8_t)c;
	ins_names(in, push_readers, &(Raised){a, i});
}

AddrSpaces *addrspace_compute(const Names *mlocals, const Func *f, const Cfg *g, const Defs *d)
{
	Arena *arena = arena_new();
	AddrSpaces *a = arena_alloc(arena, sizeof *a);
	*a = (AddrSpaces){.arena = arena, .mlocals = mlocals, .g = g, .defs = d};
	locals_of(a, &f->body);
	a->cls = arena_alloc(arena, g->nins + 1);
	a->queued = arena_alloc(arena, g->nins + 1);
	a->work = arena_alloc(arena, (g->nins + 1) * sizeof *a->work);
	memset(a->cls, NOTHING, g->nins + 1);
	memset(a->queued, 0, g->nins + 1);
	for (uint32_t i = g->nins; i-- > 0;)
		push(a, i);
	while (a->nwork) {
		uint32_t i = a->work[--a->nwork];
		a->queued[i] = 0;
		visit(a, i);
	}
	return a;
}

Window addrspace_at(const AddrSpaces *a, uint32_t ins, const char *reg)
{
	int c = cls_of_name(a, ins, reg);
	return c == LOCAL ? WINDOW_LOCAL : c == GENERIC ? WINDOW_GENERIC : WINDOW_UNKNOWN;
}

void addrspace_free(AddrSpaces *a)
{
	if (!a)
		return;
	HASH_CLEAR(hh, a->locals);   /* uthash's tables are its own, not the arena's */
	arena_free(a->arena);
}
