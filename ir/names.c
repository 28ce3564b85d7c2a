/* Sets of declared names: what code in one function can see (its
 * registers, parameters and labels, the module's symbols), for the
 * verifier's "is it declared", the symbol table's "does a local hide it"
 * and the stages' fresh names.  Names declared as themselves are found by
 * their interned pointer; a %r<N> range by its base's spelling, since the
 * base of %r15 is not interned on its own. */
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "ir.h"

struct NameEntry {
	UT_hash_handle hh;
	const char *name;
	unsigned long long count;   /* ranges: the largest N of name<N> */
	const char *type;           /* its declaration's type word, or NULL */
};

static NameEntry *add_entry(Names *n, const char *name, const char *count)
{
	NameEntry *e;
	if (!count) {
		HASH_FIND_PTR(n->exact, &name, e);
		if (e)
			return e;
	} else {
		HASH_FIND(hh, n->ranges, name, strlen(name), e);
	}
	if (!e) {
		if (!n->arena)
			n->arena = arena_new();
		e = arena_alloc(n->arena, sizeof *e);
		e->name = name;
		if (count)
			HASH_ADD_KEYPTR(hh, n->ranges, name, strlen(name), e);
		else
			HASH_ADD_PTR(n->exact, name, e);
	}
	unsigned long long c = count ? strtoull(count, NULL, 0) : 0;
	if (c > e->count)
		e->count = c;
	return e;
}

/* An exact name ending in a number (%r5, $L__BB0_3): its base's entry
 * in numbered keeps the least such number, for names_range_free. */
static void add_numbered(Names *n, const char *name)
{
	size_t len = strlen(name), b = len;
	while (b > 0 && name[b - 1] >= '0' && name[b - 1] <= '9')
		b--;
	if (b == len || b == 0)
		return;
	unsigned long long k = strtoull(name + b, NULL, 10);
	NameEntry *e;
	HASH_FIND(hh, n->numbered, name, b, e);
	if (!e) {
		e = arena_alloc(n->arena, sizeof *e);
		*e = (NameEntry){.name = name, .count = k};
		HASH_ADD_KEYPTR(hh, n->numbered, name, b, e);
	} else if (k < e->count) {
		e->count = k;
	}
}

void names_add(Names *n, const char *name, const char *count)
{
	add_entry(n, name, count);
	if (!count)
		add_numbered(n, name);
}

void names_add_decls(Names *n, const Decl *d, uint32_t nd)
{
	for (uint32_t i = 0; i < nd; i++)
		for (uint32_t j = 0; j < d[i].nds; j++) {
			add_entry(n, d[i].ds[j].name, d[i].ds[j].count)->type = decl_type(&d[i]);
			if (!d[i].ds[j].count)
				add_numbered(n, d[i].ds[j].name);
		}
}

void names_of_body(Names *n, const List *l)
{
	BodyIt it;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it))
		switch (s->kind) {
		case S_VAR: names_add_decls(n, &s->var, 1); break;
		case S_LABEL: names_add(n, s->label, NULL); break;
		case S_PROTO: names_add(n, s->proto->label, NULL); break;
		case S_TARGETS: names_add(n, s->list.label, NULL); break;
		default: break;
		}
}

/* ---- shadowing ---------------------------------------------------------- */

/* What a declarator declares, for comparing: a base and the numbers
 * after it.  %r<16> is %r 0..15, %r15 is %r 15..15, and a name without
 * a number after it (or with a leading 0, which no range covers) is
 * itself with no number (NONE..NONE). */
enum { NONE = UINT32_MAX };

typedef struct Declared {
	const char *base;  /* interned */
	uint32_t lo, hi;
} Declared;

static Declared declared(const Declarator *d)
{
	if (d->count) {
		unsigned long long c = strtoull(d->count, NULL, 0);
		return (Declared){d->name, 0, c == 0 ? 0 : c > NONE ? NONE - 1 : (uint32_t)(c - 1)};
	}
	size_t n;
	unsigned long long k;
	if (!reg_split(d->name, &n, &k) || intern_len(d->name) - n > 9)
		return (Declared){d->name, NONE, NONE};
	return (Declared){intern(d->name, n), (uint32_t)k, (uint32_t)k};
}

static int collide(Declared a, Declared b)
{
	return a.base == b.base && a.lo <= b.hi && b.lo <= a.hi;
}

/* What the blocks around one and the parameters declare of one base, in
 * the order declared, each with the depth of its block (0: the
 * parameters, 1: the body). */
typedef struct Outer {
	const char *base;
	Declared *v;
	uint32_t *depth;
	uint32_t n, cap, dcap;
	UT_hash_handle hh;
} Outer;

typedef struct Scopes {
	Outer *by_base;
	Outer **pushed;   /* each declaration's base, to forget them as their block ends */
	uint32_t n, cap;
} Scopes;

static void push_decls(Scopes *sc, const Decl *d, uint32_t nd, uint32_t depth)
{
	for (uint32_t i = 0; i < nd; i++)
		for (uint32_t j = 0; j < d[i].nds; j++) {
			Declared x = declared(&d[i].ds[j]);
			Outer *o;
			HASH_FIND_PTR(sc->by_base, &x.base, o);
			if (!o) {
				o = xcalloc(1, sizeof *o);
				o->base = x.base;
				HASH_ADD_PTR(sc->by_base, base, o);
			}
			o->v = array_grow(o->v, o->n, &o->cap, sizeof *o->v);
			o->depth = array_grow(o->depth, o->n, &o->dcap, sizeof *o->depth);
			o->v[o->n] = x, o->depth[o->n++] = depth;
			sc->pushed = array_grow(sc->pushed, sc->n, &sc->cap, sizeof *sc->pushed);
			sc->pushed[sc->n++] = o;
		}
}

/* Does d declare what a block around depth's declares (of the same base
 * only: a name is compared with those of its own base alone)? */
static int declared_outside(const Scopes *sc, uint32_t depth, const Decl *d)
{
	for (uint32_t j = 0; j < d->nds; j++) {
		Declared x = declared(&d->ds[j]);
		Outer *o;
		HASH_FIND_PTR(sc->by_base, &x.base, o);
		for (uint32_t k = 0; o && k < o->n && o->depth[k] < depth; k++)
			if (collide(o->v[k], x))
				return 1;
	}
	return 0;
}

/* Whether l (at depth) declares a name that a block around it, or the
 * function's parameters, declare, or a block nested in l does so. */
static int scope_shadows(Scopes *sc, const List *l, uint32_t depth)
{
	uint32_t mark = sc->n;
	int r = 0;
	for (const Stmt *s = l->head; s && !r; s = s->next)
		if (s->kind == S_VAR) {
			r = declared_outside(sc, depth, &s->var);
			push_decls(sc, &s->var, 1, depth);
		}
	for (const Stmt *s = l->head; s && !r; s = s->next)   /* recursive: what a block declares ends with it */
		if (s->kind == S_SCOPE)
			r = scope_shadows(sc, &s->scope, depth + 1);
	while (sc->n > mark)
		sc->pushed[--sc->n]->n--;
	return r;
}

int names_shadowed(const Func *f)
{
	Scopes sc = {0};
	push_decls(&sc, f->params, f->nparams, 0);
	push_decls(&sc, f->rets, f->nrets, 0);
	int r = scope_shadows(&sc, &f->body, 1);
	Outer *o, *tmp;
	HASH_ITER(hh, sc.by_base, o, tmp) {
		HASH_DEL(sc.by_base, o);
		free(o->v);
		free(o->depth);
		free(o);
	}
	free(sc.pushed);
	return r;
}

void names_of_module(Names *n, const Module *m)
{
	for (const Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_VAR)
			names_add_decls(n, &s->var, 1);
		else if (s->kind == S_FUNC)
			names_add(n, s->func->name, NULL);
}

static int add_leaf(void *ctx, Expr **slot)
{
	if ((*slot)->kind == E_NAME)
		names_add(ctx, (*slot)->str, NULL);
	return 0;
}

void names_of_sections(Names *n, const Module *m)
{
	for (const Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_SECTION)
			for (Stmt *x = s->section.items.head; x; x = x->next)
				for (uint32_t i = 0; x->kind == S_DATA && i < x->list.nitems; i++)
					expr_leaves(&x->list.items[i], add_leaf, n);
}

int names_label_in(const Names *n, const List *body)
{
	if (!n->exact && !n->outer)
		return 0;  /* most modules: no section names anything */
	BodyIt it;
	for (const Stmt *s = body_first(body, &it); s; s = body_next(&it))
		if (s->kind == S_LABEL && names_exact(n, s->label)) {
			body_end(&it);
			return 1;
		}
	return 0;
}

static void names_own(Names *n, const Func *f)
{
	names_of_body(n, &f->body);
	names_add_decls(n, f->params, f->nparams);
	names_add_decls(n, f->rets, f->nrets);
}

void names_of_func(Names *n, const Module *m, const Func *f)
{
	names_of_module(n, m);
	names_own(n, f);
}

void names_in_module(Names *n, const Names *module, const Func *f)
{
	n->outer = module;
	names_own(n, f);
}

int names_exact(const Names *n, const char *name)
{
	NameEntry *e = NULL;
	for (; n && !e; n = n->outer)
		HASH_FIND_PTR(n->exact, &name, e);
	return e != NULL;
}

static const NameEntry *find_entry_in(const Names *n, const char *name);

/* The function's own declaration first, as its later one wins in a set
 * that holds both. */
static const NameEntry *find_entry(const Names *n, const char *name)
{
	const NameEntry *e = find_entry_in(n, name);
	return e || !n->outer ? e : find_entry_in(n->outer, name);
}

/* %r12 is declared by %r12 itself or by %r<N> with N > 12 (no leading 0). */
static const NameEntry *find_entry_in(const Names *n, const char *name)
{
	NameEntry *e;
	HASH_FIND_PTR(n->exact, &name, e);
	if (e || !n->ranges)
		return e;
	size_t base;
	unsigned long long k;
	if (!reg_split(name, &base, &k))
		return NULL;
	HASH_FIND(hh, n->ranges, name, base, e);
	return e && k < e->count ? e : NULL;
}

int names_declared(const Names *n, const char *name)
{
	return find_entry(n, name) != NULL;
}

static int range_free_in(const Names *n, const char *base, unsigned long long count)
{
	size_t len = strlen(base);
	NameEntry *e;
	HASH_FIND(hh, n->ranges, base, len, e);
	if (e && e->count > 0)
		return 0;
	HASH_FIND(hh, n->numbered, base, len, e);
	return !e || e->count >= count;
}

int names_range_free(const Names *n, const char *base, unsigned long long count)
{
	return !names_declared(n, base) && range_free_in(n, base, count) &&
		(!n->outer || range_free_in(n->outer, base, count));
}

const char *names_type(const Names *n, const char *name)
{
	const NameEntry *e = find_entry(n, name);
	return e ? e->type : NULL;
}

/* A counter of n's kept with key (interned), from 1: the next suffix a
 * fresh name from that base should try. */
unsigned long long *names_counter(Names *n, const char *key)
{
	NameEntry *f;
	HASH_FIND_PTR(n->fresh, &key, f);
	if (!f) {
		if (!n->arena)
			n->arena = arena_new();
		f = arena_alloc(n->arena, sizeof *f);
		*f = (NameEntry){.name = key, .count = 1};
		HASH_ADD_PTR(n->fresh, name, f);
	}
	return &f->count;
}

/* The next suffix to try for a base is kept (names are never removed),
 * so that the k-th fresh copy of one name costs one try, not k (an
 * inlined label in each of 20,000 copies). */
const char *names_fresh(Names *n, const char *base)
{
	const char *name = intern_cstr(base);
	if (names_declared(n, name)) {
		unsigned long long *next = names_counter(n, name);
		size_t len = strlen(base) + 24;
		char *buf = xmalloc(len);
		do {
			snprintf(buf, len, "%s_%llu", base, (*next)++);
			name = intern_cstr(buf);
		} while (names_declared(n, name));
		free(buf);
	}
	names_add(n, name, NULL);
	return name;
}

void names_free(Names *n)
{
	HASH_CLEAR(hh, n->exact);
	HASH_CLEAR(hh, n->ranges);
	HASH_CLEAR(hh, n->fresh);
	HASH_CLEAR(hh, n->numbered);
	arena_free(n->arena);
	*n = (Names){0};
}

int reg_split(const char *name, size_t *stem, unsigned long long *k)
{
	size_t len = strlen(name), b = len;
	while (b > 0 && name[b - 1] >= '0' && name[b - 1] <= '9')
		b--;
	if (b == len || b == 0 || (name[b] == '0' && b + 1 < len))
		return 0;
	*stem = b;
	*k = strtoull(name + b, NULL, 10);
	return 1;
}

int names_bits(const Names *n, const Expr *e)
{
	const char *t = e->kind == E_NAME ? names_type(n, e->str) : NULL;
	return t ? 8 * type_bytes(t) : 0;
}
