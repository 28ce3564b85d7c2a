/* Whether two functions have the same code: the same signature,
 * directives and statements, registers, labels and parameters renamed by
 * their place among the declarations, .loc aside.  Then a call of one
 * does what a call of the other does, and one may stand for the other:
 * ipo merges such internal functions, devirtualization gives a funnel
 * one arm for them.
 *
 * A function naming itself matches the other naming itself only as the
 * callee of a call (each recursing into its own code, the same code),
 * and a call of itself matches no call of another function (f calling g
 * is not g calling itself): so the relation is one a hash can follow.
 * Taken as an address, its own name is a different value in each (f
 * storing f is not g storing g), so that is no match: devirtualization
 * compares functions whose address is taken.  A function whose nested
 * scope declares a name again (names_shadowed) matches none: names are
 * compared by their place, and one name would have two.
 *
 * A .shared, .global or .const variable declared inside a function is a
 * static: one object for every call, not one per call as a register or
 * a .local (on the stack under the ABI) is.  Two declarations are two
 * objects, each function counting in its own counter, so a function
 * declaring one matches none.
 *
 * func_code_hash hashes what the comparison compares (names by their
 * place, numbers and other names by their interned spelling), so that
 * only functions of one code share a hash: ipo compares within a hash's
 * group, and a thousand functions of one shape that differ in a constant
 * are a thousand groups, not a million comparisons. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"
#include "ptrhash.h"

/* A name a function declares, by its place among its declarations. */
typedef struct Local {
	UT_hash_handle hh;
	const char *name;            /* a range's base */
	uint32_t index;
	unsigned long long count;    /* %r<N>: N; 0 for one name */
} Local;

typedef struct Shape {
	const Func *f;
	Local *exact, *ranges;
	Arena *a;
	uint32_t n;
	int statics;         /* declares a static */
} Shape;

static void shape_put(Shape *sh, const char *name, const char *count)
{
	Local *l = arena_alloc(sh->a, sizeof *l), **set = count ? &sh->ranges : &sh->exact, *old;
	HASH_FIND_PTR(*set, &name, old);
	if (old)
		return;
	*l = (Local){.name = name, .index = sh->n++, .count = count ? strtoull(count, NULL, 0) : 0};
	HASH_ADD_PTR(*set, name, l);
}

static int is_static(const Decl *d)
{
	Space s = decl_space(d);
	return s == SPACE_SHARED || s == SPACE_GLOBAL || s == SPACE_CONST || s == SPACE_TEX;
}

static void shape_decls(Shape *sh, const Decl *d, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		sh->statics |= is_static(&d[i]);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < d[i].nds; j++)
			shape_put(sh, d[i].ds[j].name, d[i].ds[j].count);
}

static void shape_body(Shape *sh, const List *l)
{
	BodyIt it;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it))
		if (s->kind == S_VAR)
			shape_decls(sh, &s->var, 1);
		else if (s->kind == S_LABEL)
			shape_put(sh, s->label, NULL);
}

static void shape_of(Shape *sh, const Func *f)
{
	*sh = (Shape){.f = f, .a = arena_new()};
	shape_decls(sh, f->rets, f->nrets);
	shape_decls(sh, f->params, f->nparams);
	shape_body(sh, &f->body);
}

static void shape_free(Shape *sh)
{
	HASH_CLEAR(hh, sh->exact);
	HASH_CLEAR(hh, sh->ranges);
	arena_free(sh->a);
}

/* name's place among sh's declarations, and its number in a range (-1
 * for a name declared as itself); 0 when sh does not declare it. */
static int local_of(const Shape *sh, const char *name, uint32_t *index, long long *num)
{
	Local *l;
	HASH_FIND_PTR(sh->exact, &name, l);
	if (l) {
		*index = l->index, *num = -1;
		return 1;
	}
	size_t b;
	unsigned long long k;
	if (!sh->ranges || !reg_split(name, &b, &k))
		return 0;
	const char *base = intern(name, b);
	HASH_FIND_PTR(sh->ranges, &base, l);
	if (!l || k >= l->count)
		return 0;
	*index = l->index, *num = (long long)k;
	return 1;
}

typedef struct Pair {
	const Shape *a, *b;
	int callee;          /* comparing a call's callee operand */
} Pair;

static int same_name(const Pair *p, const char *x, const char *y)
{
	uint32_t ix, iy;
	long long nx, ny;
	int lx = local_of(p->a, x, &ix, &nx), ly = local_of(p->b, y, &iy, &ny);
	if (lx || ly)
		return lx && ly && ix == iy && nx == ny;
	if (p->callee && (x == p->a->f->name || y == p->b->f->name))
		return x == p->a->f->name && y == p->b->f->name;   /* each calls itself */
	return x == y;
}

static int same_exprs(const Pair *p, Expr *const *x, Expr *const *y, uint32_t n);

static int same_expr(const Pair *p, const Expr *x, const Expr *y)
{
	if (x->kind != y->kind || x->op != y->op || x->n != y->n)
		return 0;
	if (x->kind == E_NAME)
		return same_name(p, x->str, y->str);
	if (x->kind == E_NUM)
		return x->str == y->str;
	if (x->kind == E_CALL && expr_fname(x) != expr_fname(y))
		return 0;
	return same_exprs(p, x->kids, y->kids, x->n);
}

static int same_exprs(const Pair *p, Expr *const *x, Expr *const *y, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (!same_expr(p, x[i], y[i]))
			return 0;
	return 1;
}

static int same_opt_expr(const Pair *p, const Expr *x, const Expr *y)
{
	return x && y ? same_expr(p, x, y) : x == y;
}

/* Spellings kept as written (a count, a number): compared as text. */
static int same_opt_str(const char *x, const char *y)
{
	return x && y ? !strcmp(x, y) : x == y;
}

static int same_spec(const Pair *p, const Spec *x, const Spec *y)
{
	return x->word == y->word && same_opt_str(x->num, y->num) &&
	       x->nargs == y->nargs && same_exprs(p, x->args, y->args, x->nargs);
}

static int same_decl(const Pair *p, const Decl *x, const Decl *y)
{
	if (x->nspecs != y->nspecs || x->nds != y->nds)
		return 0;
	for (uint32_t i = 0; i < x->nspecs; i++)
		if (!same_spec(p, &x->specs[i], &y->specs[i]))
			return 0;
	for (uint32_t j = 0; j < x->nds; j++) {
		const Declarator *a = &x->ds[j], *b = &y->ds[j];
		/* the names themselves: each is its place, the same in both
		 * when everything before matched */
		if (!same_opt_str(a->count, b->count) || a->ndims != b->ndims ||
		    !same_opt_expr(p, a->init, b->init))
			return 0;
		for (uint32_t k = 0; k < a->ndims; k++)
			if (!same_opt_expr(p, a->dims[k], b->dims[k]))
				return 0;
	}
	return 1;
}

static const Stmt *skip_loc(const Stmt *s)
{
	while (s && s->kind == S_LOC)
		s = s->next;
	return s;
}

static int same_ops(const Pair *p, const Ins *a, const Ins *b)
{
	CallParts cp;
	uint32_t callee = ins_call_parts(a, &cp) && cp.callee ? cp.callee_index : UINT32_MAX;
	for (uint32_t i = 0; i < a->nops; i++) {
		Pair q = {p->a, p->b, i == callee};
		if (!same_expr(&q, a->ops[i], b->ops[i]))
			return 0;
	}
	return 1;
}

static int same_body(const Pair *p, const List *x, const List *y)
{
	const Stmt *a = skip_loc(x->head), *b = skip_loc(y->head);
	for (; a && b; a = skip_loc(a->next), b = skip_loc(b->next)) {
		if (a->kind != b->kind)
			return 0;
		switch (a->kind) {
		case S_INS:
			if (a->ins.sp != b->ins.sp || !a->ins.guard != !b->ins.guard ||
			    a->ins.guard_neg != b->ins.guard_neg || a->ins.nops != b->ins.nops ||
			    (a->ins.guard && !same_name(p, a->ins.guard, b->ins.guard)))
				return 0;
			if (!same_ops(p, &a->ins, &b->ins))
				return 0;
			break;
		case S_VAR:
			if (!same_decl(p, &a->var, &b->var))
				return 0;
			break;
		case S_LABEL:
			if (!same_name(p, a->label, b->label))
				return 0;
			break;
		case S_SCOPE:   /* recursive: two bodies side by side, scope with scope */
			if (!same_body(p, &a->scope, &b->scope))
				return 0;
			break;
		case S_PRAGMA:
			if (a->strs.nstrs != b->strs.nstrs)
				return 0;
			for (uint32_t i = 0; i < a->strs.nstrs; i++)
				if (strcmp(a->strs.strs[i], b->strs.strs[i]))
					return 0;
			break;
		default:
			return 0;   /* prototypes and .calltargets: not compared */
		}
	}
	return !a && !b;
}

static int same_decls(const Pair *p, const Decl *x, const Decl *y, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (!same_decl(p, &x[i], &y[i]))
			return 0;
	return 1;
}

int func_same_code(const Func *x, const Func *y)
{
	if (names_shadowed(x) || names_shadowed(y))
		return 0;
	if (x->nrets != y->nrets || x->nparams != y->nparams || x->has_rets != y->has_rets ||
	    x->has_params != y->has_params || x->nfspecs != y->nfspecs || x->nattrs != y->nattrs)
		return 0;
	for (uint32_t i = 0; i < x->nfspecs; i++)
		if (x->fspecs[i].word != y->fspecs[i].word)
			return 0;
	for (uint32_t i = 0; i < x->nattrs; i++) {
		if (x->attrs[i].word != y->attrs[i].word || x->attrs[i].nnums != y->attrs[i].nnums)
			return 0;
		for (uint32_t k = 0; k < x->attrs[i].nnums; k++)
			if (strcmp(x->attrs[i].nums[k], y->attrs[i].nums[k]))
				return 0;
	}
	Shape a, b;
	shape_of(&a, x);
	shape_of(&b, y);
	Pair p = {&a, &b, 0};
	int same = !a.statics && !b.statics && a.n == b.n && same_decls(&p, x->rets, y->rets, x->nrets) &&
		same_decls(&p, x->params, y->params, x->nparams) && same_body(&p, &x->body, &y->body);
	shape_free(&a);
	shape_free(&b);
	return same;
}

/* ---- the hash: what the comparison compares, so that only functions of
 * one code share it (and merging compares few pairs) ---------------------- */

static uint64_t str_hash(uint64_t h, const char *str)
{
	if (!str)
		return hash_mix(h, 1);
	for (; *str; str++)
		h = hash_mix(h, (unsigned char)*str);
	return hash_mix(h, 2);
}

static uint64_t name_hash(const Shape *sh, uint64_t h, const char *name, int callee)
{
	uint32_t index;
	long long num;
	if (local_of(sh, name, &index, &num))
		return hash_mix(hash_mix(hash_mix(h, 3), index), (uint64_t)num);
	if (callee && name == sh->f->name)
		return hash_mix(h, 4);
	return hash_mix(h, ptr_hash(name));
}

static uint64_t expr_hash(const Shape *sh, uint64_t h, const Expr *e, int callee)
{
	h = hash_mix(hash_mix(hash_mix(h, e->kind), e->op), e->n);
	if (e->kind == E_NAME)
		return name_hash(sh, h, e->str, callee);
	if (e->kind == E_NUM)
		return hash_mix(h, ptr_hash(e->str));
	if (e->kind == E_CALL)
		h = hash_mix(h, ptr_hash(expr_fname(e)));
	for (uint32_t i = 0; i < e->n; i++)
		h = expr_hash(sh, h, e->kids[i], 0);
	return h;
}

static uint64_t opt_expr_hash(const Shape *sh, uint64_t h, const Expr *e)
{
	return e ? expr_hash(sh, hash_mix(h, 5), e, 0) : hash_mix(h, 6);
}

static uint64_t decl_hash(const Shape *sh, uint64_t h, const Decl *d)
{
	h = hash_mix(hash_mix(h, d->nspecs), d->nds);
	for (uint32_t i = 0; i < d->nspecs; i++) {
		const Spec *x = &d->specs[i];
		h = str_hash(hash_mix(hash_mix(h, ptr_hash(x->word)), x->nargs), x->num);
		for (uint32_t k = 0; k < x->nargs; k++)
			h = expr_hash(sh, h, x->args[k], 0);
	}
	for (uint32_t j = 0; j < d->nds; j++) {
		const Declarator *a = &d->ds[j];
		h = opt_expr_hash(sh, hash_mix(str_hash(h, a->count), a->ndims), a->init);
		for (uint32_t k = 0; k < a->ndims; k++)
			h = opt_expr_hash(sh, h, a->dims[k]);
	}
	return h;
}

static uint64_t ins_hash(const Shape *sh, uint64_t h, const Ins *in)
{
	CallParts cp;
	uint32_t callee = ins_call_parts(in, &cp) && cp.callee ? cp.callee_index : UINT32_MAX;
	h = hash_mix(hash_mix(hash_mix(h, ptr_hash(in->sp)), in->nops), (in->guard != NULL) * 2 + in->guard_neg);
	if (in->guard)
		h = name_hash(sh, h, in->guard, 0);
	for (uint32_t i = 0; i < in->nops; i++)
		h = expr_hash(sh, h, in->ops[i], i == callee);
	return h;
}

/* *never: a statement same_body never matches (a prototype, .calltargets). */
static uint64_t body_hash(const Shape *sh, uint64_t h, const List *l, int *never)
{
	for (const Stmt *s = l->head; s; s = s->next) {
		if (s->kind == S_LOC)
			continue;
		h = hash_mix(h, s->kind);
		if (s->kind == S_INS)
			h = ins_hash(sh, h, &s->ins);
		else if (s->kind == S_VAR)
			h = decl_hash(sh, h, &s->var);
		else if (s->kind == S_LABEL)
			h = name_hash(sh, h, s->label, 0);
		else if (s->kind == S_SCOPE)   /* recursive: the hash brackets a scope's statements */
			h = hash_mix(body_hash(sh, hash_mix(h, 7), &s->scope, never), 8);
		else if (s->kind == S_PRAGMA)
			for (uint32_t i = 0; i < s->strs.nstrs; i++)
				h = str_hash(h, s->strs.strs[i]);
		else
			*never = 1;
	}
	return h;
}

uint64_t func_code_hash(const Func *f)
{
	if (names_shadowed(f))
		return ptr_hash(f);   /* the same as none: why meet another */
	Shape sh;
	shape_of(&sh, f);
	uint64_t h = hash_mix(hash_mix(hash_mix(hash_mix(hash_mix(0, f->nrets), f->nparams), f->has_rets), f->has_params), sh.n);
	for (uint32_t i = 0; i < f->nfspecs; i++)
		h = hash_mix(h, ptr_hash(f->fspecs[i].word));
	for (uint32_t i = 0; i < f->nattrs; i++) {
		h = hash_mix(hash_mix(h, ptr_hash(f->attrs[i].word)), f->attrs[i].nnums);
		for (uint32_t k = 0; k < f->attrs[i].nnums; k++)
			h = str_hash(h, f->attrs[i].nums[k]);
	}
	for (uint32_t i = 0; i < f->nrets; i++)
		h = decl_hash(&sh, h, &f->rets[i]);
	for (uint32_t i = 0; i < f->nparams; i++)
		h = decl_hash(&sh, h, &f->params[i]);
	int never = sh.statics;
	h = body_hash(&sh, h, &f->body, &never);
	shape_free(&sh);
	return never ? ptr_hash(f) : h;
}
