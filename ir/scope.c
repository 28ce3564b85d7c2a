/* PTX's scoping rule, and the normal form that lets every flat
 * per-function table follow it.
 *
 * The rule (PTX ISA, "Scope"): a name resolves to the innermost enclosing
 * { } block that declares it, labels included; a function's parameters
 * and its body's own list are its outermost block, the module's symbols
 * lie around it.  A declaration counts for its whole block, wherever in
 * the block it stands (a branch forward to a label).  So sibling blocks
 * may each declare $L1 (nvcc does for an inline-asm block with a label
 * used twice), and an inner block may hide an outer %r1 or a module's g.
 *
 * Every table in ir/ keys a function's names by their spelling alone
 * (cfg.c's labels, live.c, defs.c, reguses.c, range.c, memobj.c, the
 * symbol table's "does a local hide it").  Rather than teach each of them
 * the rule, scope_unshare renames, once when a module is normalized,
 * every declaration that would make a spelling mean two things in one
 * function: then the spelling is the declaration, and the flat tables
 * are right.  A declaration keeps its name when it is in the function's
 * outermost block and no module symbol has it; every other declaration
 * of a name declared more than once in the function (or declared by the
 * module too) gets a fresh one, and each use is renamed as the rule
 * resolves it.  Most modules declare nothing twice and are left alone,
 * byte for byte.  nvcc -G's DWARF names registers and labels of the
 * outermost block only, which keep their names; a renamed label that a
 * debug section names is refused (which of the blocks it means is not
 * known).
 *
 * scope_check is the verifier's side: the form holds, and every name an
 * instruction uses resolves to a block around it.  A %r<N> declaration
 * declares %r0 .. %r<N-1>; a declared name is a base and a span of
 * numbers, as in names.c. */
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "ir.h"

enum { NONE = UINT32_MAX };

typedef struct Rec {        /* one declaration in a function */
	const char *name;       /* as written: %r, %r5, $L1 */
	const char *count;      /* %r<N>: N; else NULL */
	uint32_t blen;          /* its base, name[0 .. blen): %r for %r<N> and %r5 */
	uint32_t lo, hi;        /* the numbers after the base it declares; NONE, NONE for none */
	uint32_t scope, depth;  /* its block (0: the outermost) and how deep */
	Stmt *s;                /* the declaring statement; NULL for a parameter */
	uint8_t label;          /* cfg.c's table holds every label, used or not */
	uint8_t used;           /* a use resolves to it */
	uint8_t clash;          /* 1: another block declares it too; 2: the module does */
	uint8_t call_param;     /* an inner block's .param: resolved, never clashes */
	const char *to;         /* its new name (a range's new base), or NULL */
} Rec;

typedef struct Group {      /* the records of one base */
	UT_hash_handle hh;
	const char *base;       /* not interned: a prefix of a record's name */
	uint32_t blen;
	uint32_t *v, n, cap;
	uint8_t maybe;          /* some records of it may clash */
} Group;

typedef struct Scan {
	Module *m;
	const Func *f;
	Rec *recs;
	uint32_t n, cap;
	Group *groups;
	uint32_t nscopes;
	uint32_t *stack, nstack, cstack;  /* the blocks around the statement at hand */
	Arena *arena;
	uint8_t *need;         /* per block: walk the uses in it and in its blocks (NULL: all) */
	ScopeReport *report;   /* scope_check's */
	void *rctx;
	int call_params;       /* scope_check: record inner blocks' .params too */
} Scan;

/* A name as a base (its length) and a number: %r15 is %r and 15; a name
 * without digits at its end (or with a leading 0, which no range covers)
 * is itself and NONE. */
static uint32_t split(const char *name, uint32_t *k)
{
	size_t len = intern_len(name), n;
	unsigned long long num;
	*k = NONE;
	if (!reg_split(name, &n, &num) || len - n > 9)
		return (uint32_t)len;
	*k = (uint32_t)num;
	return (uint32_t)n;
}

static Group *group_of(Scan *sc, const char *base, uint32_t blen, int add)
{
	Group *g;
	HASH_FIND(hh, sc->groups, base, blen, g);
	if (!g && add) {
		g = arena_alloc(sc->arena, sizeof *g);
		*g = (Group){.base = base, .blen = blen};
		HASH_ADD_KEYPTR(hh, sc->groups, g->base, g->blen, g);
	}
	return g;
}

static void add_rec(Scan *sc, const char *name, const char *count, Stmt *s, int label,
	int call_param)
{
	Rec r = {.name = name, .count = count, .s = s, .label = (uint8_t)label,
		.call_param = (uint8_t)call_param, .scope = sc->stack[sc->nstack - 1],
		.depth = sc->nstack - 1};
	if (count) {
		unsigned long long c = strtoull(count, NULL, 0);
		r.blen = (uint32_t)intern_len(name), r.lo = 0;
		r.hi = c == 0 ? 0 : c >= NONE ? NONE - 1 : (uint32_t)(c - 1);
	} else {
		r.blen = split(name, &r.lo);
		r.hi = r.lo;
	}
	sc->recs = array_grow(sc->recs, sc->n, &sc->cap, sizeof *sc->recs);
	sc->recs[sc->n] = r;
	Group *g = group_of(sc, name, r.blen, 1);
	g->v = array_grow(g->v, g->n, &g->cap, sizeof *g->v);
	g->v[g->n++] = sc->n++;
}

/* An inner block's .param: a call's arguments, which nvcc and clang
 * declare again in the block of each call.  Stages find them beside their
 * call (list_var), never in a table, so they are never renamed; the check
 * still resolves them, since a call block's param0 means nothing in the
 * next block (ptxas: "Unknown symbol"). */
static int call_param(const Scan *sc, const Decl *d)
{
	return d->space == SPACE_PARAM && sc->nstack > 1;
}

/* What a block's variable statement declares of its own: not what an
 * .extern names (the module's symbol), nor an inner block's .param. */
static int own_decl(const Scan *sc, const Decl *d)
{
	return d->linkage != LINK_EXTERN && !call_param(sc, d);
}

static void add_decls(Scan *sc, Decl *d, uint32_t n, Stmt *s)
{
	for (uint32_t i = 0; i < n; i++) {
		int cp = sc->call_params && d[i].linkage != LINK_EXTERN && call_param(sc, &d[i]);
		for (uint32_t j = 0; j < d[i].nds && (cp || own_decl(sc, &d[i])); j++)
			add_rec(sc, d[i].ds[j].name, d[i].ds[j].count, s, 0, cp);
	}
}

static void push(Scan *sc)
{
	sc->stack = array_grow(sc->stack, sc->nstack, &sc->cstack, sizeof *sc->stack);
	sc->stack[sc->nstack++] = sc->nscopes++;
}

/* The walks below meet blocks in one order, which numbers them. */
static void restart(Scan *sc)
{
	sc->nscopes = sc->nstack = 0;
	push(sc);
}

static void collect(Scan *sc, List *l)
{
	for (Stmt *s = l->head; s; s = s->next)
		switch (s->kind) {
		case S_VAR: add_decls(sc, &s->var, 1, s); break;
		case S_LABEL: add_rec(sc, s->label, NULL, s, 1, 0); break;
		case S_PROTO: add_rec(sc, s->proto->label, NULL, s, 1, 0); break;
		case S_TARGETS: add_rec(sc, s->list.label, NULL, s, 1, 0); break;
		case S_SCOPE:   /* recursive: the stack of blocks is the nesting */
			push(sc);
			collect(sc, &s->scope);
			sc->nstack--;
			break;
		default: break;
		}
}

/* The declaration name resolves to from the blocks on the stack: the
 * deepest that declares it, or NULL (a module symbol, a special register
 * or nothing).  A part (%r1.x, %r1.b0) resolves as its register.  Each
 * block on the stack is looked for in the group (sorted by block, since
 * nvcc gives one function hundreds of copies of an asm block's p). */
/* The first of g's records in block scope, or in a later one, or g->n;
 * with k, the first whose first number is past k. */
static uint32_t first_of(const Scan *sc, const Group *g, uint32_t scope, uint32_t k)
{
	uint32_t lo = 0, hi = g->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const Rec *r = &sc->recs[g->v[mid]];
		if (r->scope < scope || (r->scope == scope && r->lo <= k && k != NONE))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* In block scope, the declaration of name (k its number): the last one
 * starting at or below k covers it, unless declarations of the base
 * overlap (declared twice: any of them will do), then one by one. */
static Rec *in_scope(Scan *sc, const Group *g, uint32_t scope, const char *name, uint32_t k)
{
	uint32_t at = k == NONE ? 0 : first_of(sc, g, scope, k);
	if (at > 0) {
		Rec *r = &sc->recs[g->v[at - 1]];
		if (r->scope == scope && r->lo <= k && k <= r->hi)
			return r;
	}
	for (uint32_t i = first_of(sc, g, scope, NONE); i < g->n && sc->recs[g->v[i]].scope == scope; i++) {
		Rec *r = &sc->recs[g->v[i]];
		if (k == NONE ? r->name == name : r->lo <= k && k <= r->hi)
			return r;
		if (k != NONE && r->lo > k)
			break;   /* sorted by first number: none further starts at or below k */
	}
	return NULL;
}

static Rec *resolve(Scan *sc, const char *name)
{
	uint32_t k, blen = split(name, &k);
	Group *g = group_of(sc, name, blen, 0);
	for (uint32_t d = sc->nstack; g && d-- > 0;) {
		Rec *r = in_scope(sc, g, sc->stack[d], name, k);
		if (r)
			return r;
	}
	const char *reg = !g && name[0] == '%' ? reg_of_part(name) : NULL;
	return reg ? resolve(sc, reg) : NULL;
}

/* Some block of the function declares name. */
static int declared_in_func(Scan *sc, const char *name)
{
	uint32_t k, blen = split(name, &k);
	Group *g = group_of(sc, name, blen, 0);
	for (uint32_t i = 0; g && i < g->n; i++) {
		Rec *r = &sc->recs[g->v[i]];
		if (k == NONE ? r->name == name : r->lo <= k && k <= r->hi)
			return 1;
	}
	const char *reg = !g && name[0] == '%' ? reg_of_part(name) : NULL;
	return reg && declared_in_func(sc, reg);
}

/* ---- which declarations clash ----------------------------------------- */

/* The outermost block's declarations count whether used or not: their
 * uses are anywhere, and not walked for. */
static int counts(const Rec *r, int used_only)
{
	return !r->call_param && (!used_only || r->label || r->used || r->depth == 0);
}

static int overlap(const Rec *a, const Rec *b)
{
	return a->lo <= b->hi && b->lo <= a->hi && (a->lo != NONE || a->name == b->name);
}

typedef struct Span {
	uint32_t lo, i;   /* the key sorted by, and the record */
} Span;

static int by_lo(const void *a, const void *b)
{
	const Span *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

typedef struct ScopeKey {
	uint32_t scope, lo, i;
} ScopeKey;

static int by_scope_key(const void *a, const void *b)
{
	const ScopeKey *x = a, *y = b;
	if (x->scope != y->scope)
		return x->scope < y->scope ? -1 : 1;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* A group's records by block, then by first number, for resolve. */
static void sort_by_scope(Scan *sc, Group *g)
{
	ScopeKey *v = xmalloc(g->n * sizeof *v);
	for (uint32_t i = 0; i < g->n; i++)
		v[i] = (ScopeKey){sc->recs[g->v[i]].scope, sc->recs[g->v[i]].lo, g->v[i]};
	qsort(v, g->n, sizeof *v, by_scope_key);
	for (uint32_t i = 0; i < g->n; i++)
		g->v[i] = v[i].i;
	free(v);
}

static void sort_groups(Scan *sc)
{
	for (Group *g = sc->groups; g; g = g->hh.next)
		if (g->n > 1)
			sort_by_scope(sc, g);
}

/* Two declarations of one name in different blocks clash; in one block
 * they are one name declared twice (ptxas's concern, not a second
 * meaning).  A group sorted by first number is swept keeping the spans
 * still open, so %r1 .. %r5000 each declared alone cost no square. */
static void mark_group(Scan *sc, Group *g, int used_only)
{
	Span *v = xmalloc(g->n * sizeof *v);
	uint32_t n = 0;
	for (uint32_t i = 0; i < g->n; i++)
		if (counts(&sc->recs[g->v[i]], used_only))
			v[n++] = (Span){sc->recs[g->v[i]].lo, g->v[i]};
	qsort(v, n, sizeof *v, by_lo);
	uint32_t *open = xmalloc((n + 1) * sizeof *open), nopen = 0;
	for (uint32_t i = 0; i < n; i++) {
		Rec *r = &sc->recs[v[i].i];
		uint32_t keep = 0;
		for (uint32_t j = 0; j < nopen; j++) {
			Rec *o = &sc->recs[open[j]];
			if (o->hi < r->lo)
				continue;
			open[keep++] = open[j];
			if (overlap(o, r) && o->scope != r->scope)
				o->clash = r->clash = 1, g->maybe = 1;
		}
		nopen = keep;
		open[nopen++] = v[i].i;
	}
	free(open);
	free(v);
}

static int module_has(const Names *module, const Rec *r)
{
	return r->count ? !names_range_free(module, r->name, strtoull(r->count, NULL, 0))
		: names_declared(module, r->name);
}

/* Marks every declaration that clashes, counting those of used_only's
 * (labels, and variables a use resolves to); how many do. */
static uint32_t mark(Scan *sc, const Names *module, int used_only)
{
	for (uint32_t i = 0; i < sc->n; i++)
		sc->recs[i].clash = 0;
	for (Group *g = sc->groups; g; g = g->hh.next)
		if (g->n > 1 && (!used_only || g->maybe))
			mark_group(sc, g, used_only);
	uint32_t n = 0;
	for (uint32_t i = 0; i < sc->n; i++) {
		Rec *r = &sc->recs[i];
		if (module && counts(r, used_only) && module_has(module, r)) {
			r->clash = 2;
			group_of(sc, r->name, r->blen, 0)->maybe = 1;
		}
		n += r->clash != 0;
	}
	return n;
}

/* Each name a statement uses, to fn, with the blocks around it on the
 * stack. */
typedef void UseFn(Scan *, const Stmt *, const char *name);

typedef struct Uses {
	Scan *sc;
	const Stmt *s;
	UseFn *fn;
} Uses;

static int use_leaf(void *ctx, Expr **slot)
{
	Uses *u = ctx;
	if ((*slot)->kind == E_NAME)
		u->fn(u->sc, u->s, (*slot)->str);
	return 0;
}

/* Whether the next block pushed, inside a walked one or not (on), is
 * walked. */
static int walked(const Scan *sc, int on)
{
	return on || !sc->need || sc->need[sc->nscopes];
}

static void uses(Scan *sc, List *l, UseFn *fn, int on)
{
	Uses u = {sc, NULL, fn};
	for (Stmt *s = l->head; s; s = s->next) {
		u.s = s;
		if (s->kind == S_SCOPE) {   /* recursive: the stack of blocks is the nesting */
			int in = walked(sc, on);
			push(sc);
			uses(sc, &s->scope, fn, in);
			sc->nstack--;
		} else if (!on) {
			continue;
		} else if (s->kind == S_INS) {
			if (s->ins.guard)
				fn(sc, s, s->ins.guard);
			for (uint32_t i = 0; i < s->ins.nops; i++)
				expr_leaves(&s->ins.ops[i], use_leaf, &u);
		} else if (s->kind == S_VAR) {
			for (uint32_t i = 0; i < s->var.nds; i++)
				if (s->var.ds[i].init)
					expr_leaves(&s->var.ds[i].init, use_leaf, &u);
		} else if (s->kind == S_TARGETS) {
			for (uint32_t i = 0; i < s->list.nitems; i++)
				expr_leaves(&s->list.items[i], use_leaf, &u);
		}
	}
}

/* Walk the blocks that declare what pick says, and the blocks in them:
 * a block's names are used nowhere else.  The outermost block's are used
 * anywhere: then all of them.  Every block when nothing is picked. */
static void need_blocks(Scan *sc, int (*pick)(const Rec *))
{
	free(sc->need);
	sc->need = xcalloc(sc->nscopes, 1);
	for (uint32_t i = 0; i < sc->n; i++)
		if (pick(&sc->recs[i]))
			sc->need[sc->recs[i].scope] = 1;
}

static int clashes_inside(const Rec *r)
{
	return r->clash && r->depth > 0;
}

static int renamed_rec(const Rec *r)
{
	return r->to != NULL;
}

static void note_use(Scan *sc, const Stmt *s, const char *name)
{
	(void)s;
	uint32_t k;
	Group *g = group_of(sc, name, split(name, &k), 0);
	Rec *r = !g || g->maybe ? resolve(sc, name) : NULL;
	if (r)
		r->used = 1;
}

static void scan_free(Scan *sc)
{
	for (Group *g = sc->groups; g; g = g->hh.next)
		free(g->v);
	HASH_CLEAR(hh, sc->groups);
	free(sc->recs);
	free(sc->stack);
	free(sc->need);
	arena_free(sc->arena);
}

/* The function's declarations, each marked where it clashes; how many
 * do.  Most functions declare nothing twice: one walk over their
 * declarations says so.  Otherwise a walk over their uses says which
 * declarations the tables keyed by name see: every label, and the
 * variables something uses (nvcc's temp_param_reg, declared and never
 * used in the block of each call, is in none). */
static uint32_t scan(Scan *sc, const Func *f, const Names *module)
{
	Func *w = (Func *)f;   /* the walks take writable statements; scanning only reads */
	sc->f = f;
	sc->arena = arena_new();
	restart(sc);
	add_decls(sc, w->params, w->nparams, NULL);
	add_decls(sc, w->rets, w->nrets, NULL);
	collect(sc, &w->body);
	if (!mark(sc, module, 0))
		return 0;
	sort_groups(sc);
	need_blocks(sc, clashes_inside);
	restart(sc);
	uses(sc, &w->body, note_use, sc->need[0]);
	return mark(sc, module, 1);
}

/* ---- the normal form: one meaning per spelling ------------------------ */

/* What name (a use, in the blocks on the stack) is called now. */
static const char *renamed(Scan *sc, const char *name)
{
	Rec *r = resolve(sc, name);
	if (!r || !r->to)
		return name;
	const char *reg = r->count || r->name == name ? NULL : reg_of_part(name);
	size_t from = r->count ? r->blen : reg ? intern_len(reg) : intern_len(name);
	if (!r->count && !reg)
		return r->to;
	char buf[256];
	snprintf(buf, sizeof buf, "%s%s", r->to, name + from);   /* %r_1_5, %p_1.x */
	return intern_cstr(buf);
}

typedef struct Pairs {
	const char **v;   /* from, to, from, to ... */
	uint32_t n, cap;
} Pairs;

static int note_leaf(void *ctx, Expr **slot)
{
	void **c = ctx;
	Scan *sc = c[0];
	Pairs *p = c[1];
	if ((*slot)->kind != E_NAME)
		return 0;
	const char *from = (*slot)->str, *to = renamed(sc, from);
	for (uint32_t i = 0; i < p->n && to != from; i += 2)
		if (p->v[i] == from)
			return 0;
	if (to != from) {
		p->v = array_grow(p->v, p->n + 1, &p->cap, sizeof *p->v);
		p->v[p->n++] = from;
		p->v[p->n++] = to;
	}
	return 0;
}

/* e with its names renamed: new nodes where one changes (Exprs are
 * shared), e itself where none does. */
static Expr *rename_expr(Scan *sc, Expr *e)
{
	Pairs p = {0};
	void *c[2] = {sc, &p};
	expr_leaves(&e, note_leaf, c);
	for (uint32_t i = 0; i < p.n; i += 2)
		e = expr_renamed(sc->m, e, p.v[i], p.v[i + 1]);
	free(p.v);
	return e;
}

/* The array v of n Exprs renamed: a copy where one changes. */
static Expr **rename_exprs(Scan *sc, Expr **v, uint32_t n)
{
	Expr **w = v;
	for (uint32_t i = 0; i < n; i++) {
		Expr *e = rename_expr(sc, v[i]);
		if (e != v[i] && w == v)
			w = arena_dup(sc->m->arena, v, n * sizeof *w);
		w[i] = e;
	}
	return w;
}

/* Records are in walk order, so the next one is the next declaration
 * met.  Declarators may be shared: a copy where one is renamed. */
static void rename_decls(Scan *sc, Decl *d, uint32_t n, uint32_t *next)
{
	for (uint32_t i = 0; i < n; i++) {
		Declarator *ds = d[i].ds;
		for (uint32_t j = 0; j < d[i].nds; j++) {
			Rec *r = own_decl(sc, &d[i]) ? &sc->recs[(*next)++] : NULL;
			Expr *init = ds[j].init ? rename_expr(sc, ds[j].init) : NULL;
			if ((!r || !r->to) && init == ds[j].init)
				continue;
			if (ds == d[i].ds)
				ds = arena_dup(sc->m->arena, d[i].ds, d[i].nds * sizeof *ds);
			if (r && r->to)
				ds[j].name = r->to;
			ds[j].init = init;
		}
		d[i].ds = ds;
	}
}

static const char *rename_label(Scan *sc, uint32_t *next)
{
	Rec *r = &sc->recs[(*next)++];
	return r->to ? r->to : r->name;
}

static void rename_list(Scan *sc, List *l, uint32_t *next, int on)
{
	for (Stmt *s = l->head; s; s = s->next)
		switch (s->kind) {
		case S_INS:
			if (!on)
				break;
			if (s->ins.guard)
				s->ins.guard = renamed(sc, s->ins.guard);
			s->ins.ops = rename_exprs(sc, s->ins.ops, s->ins.nops);
			break;
		case S_VAR: rename_decls(sc, &s->var, 1, next); break;
		case S_LABEL: s->label = rename_label(sc, next); break;
		case S_PROTO: {
			const char *to = rename_label(sc, next);
			if (to != s->proto->label) {
				s->proto = arena_dup(sc->m->arena, s->proto, sizeof *s->proto);
				s->proto->label = to;
			}
			break;
		}
		case S_TARGETS:
			s->list.label = rename_label(sc, next);
			if (on)
				s->list.items = rename_exprs(sc, s->list.items, s->list.nitems);
			break;
		case S_SCOPE: {   /* recursive: the stack of blocks is the nesting */
			int in = walked(sc, on);
			push(sc);
			rename_list(sc, &s->scope, next, in);
			sc->nstack--;
			break;
		}
		default: break;
		}
}

/* A range's new base ends in '_', so that its names (%r_1_5) are no
 * other range's (%r_1<8> would declare %r_15) nor a fresh name's. */
static const char *fresh_base(Names *n, const char *base, const char *count)
{
	unsigned long long c = strtoull(count, NULL, 0), *next = names_counter(n, base);
	char buf[256];
	for (;;) {
		snprintf(buf, sizeof buf, "%.200s_%llu_", base, (*next)++);
		const char *cand = intern_cstr(buf);
		if (names_range_free(n, cand, c)) {
			names_add(n, cand, count);
			return cand;
		}
	}
}

/* An earlier declaration of r's name in r's own block: the same name. */
static const Rec *twin(Scan *sc, const Rec *r)
{
	Group *g = group_of(sc, r->name, r->blen, 0);
	for (uint32_t i = 0; i < g->n; i++) {
		const Rec *t = &sc->recs[g->v[i]];
		if (t < r && t->to && t->scope == r->scope && t->name == r->name && !t->count == !r->count)
			return t;
	}
	return NULL;
}

/* Which declarations get a new name (see the top), and which.  A label a
 * debug section names is refused: which block's it means is not known. */
static int choose(Scan *sc, Names *n, const Names *sections, const Stmt *fs)
{
	int bad = 0;
	for (uint32_t i = 0; i < sc->n; i++) {
		Rec *r = &sc->recs[i];
		if (!r->clash || (r->depth == 0 && r->clash == 1))
			continue;
		if (!r->count && names_exact(sections, r->name)) {
			error(r->s ? r->s->loc : fs->loc, "'%s' is declared in more than one block of %s "
				"and a debug section names it: which one it means is not known",
				r->name, quoted_name(sc->f->name));
			bad = 1;
			continue;
		}
		const Rec *t = twin(sc, r);
		r->to = t ? t->to : r->count ? fresh_base(n, r->name, r->count) : names_fresh(n, r->name);
	}
	return bad ? -1 : 0;
}

static void unshare_func(Module *m, Stmt *fs, const Names *module, Names *sections, int *have)
{
	Func *f = fs->func;
	Scan sc = {.m = m};
	if (scan(&sc, f, module)) {
		if (!*have)
			names_of_sections(sections, m);
		*have = 1;
		Names n = {0};
		names_in_module(&n, module, f);
		if (choose(&sc, &n, sections, fs) == 0) {
			uint32_t next = 0;
			need_blocks(&sc, renamed_rec);
			restart(&sc);
			rename_decls(&sc, f->params, f->nparams, &next);
			rename_decls(&sc, f->rets, f->nrets, &next);
			rename_list(&sc, &f->body, &next, sc.need[0]);
		}
		names_free(&n);
	}
	scan_free(&sc);
}

void scope_unshare(Module *m)
{
	Names module = {0}, sections = {0};
	int have = 0;
	names_of_module(&module, m);
	for (Stmt *s = m->items.head; s; s = s->next)   /* .alias a, b: a is the module's too */
		for (uint32_t i = 0; s->kind == S_ALIAS && i < s->list.nitems; i++)
			if (s->list.items[i]->kind == E_NAME)
				names_add(&module, s->list.items[i]->str, NULL);
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body)
			unshare_func(m, s, &module, &sections, &have);
	names_free(&module);
	names_free(&sections);
}

/* ---- the check -------------------------------------------------------- */

static void check_use(Scan *sc, const Stmt *s, const char *name)
{
	if (resolve(sc, name) || !declared_in_func(sc, name))
		return;
	char what[200];
	snprintf(what, sizeof what, "'%.100s' is used where no block around it declares it", name);
	sc->report(sc->rctx, s->loc, what, 0);
}

void scope_check(const Module *m, const Stmt *fs, const Names *module, ScopeReport *report, void *ctx)
{
	Func *f = fs->func;
	Scan sc = {.m = (Module *)m, .report = report, .rctx = ctx, .call_params = 1};
	uint32_t clashes = scan(&sc, f, m->normalized ? module : NULL);
	if (!clashes)
		sort_groups(&sc);   /* scan did not need to */
	if (clashes && m->normalized)
		for (uint32_t i = 0; i < sc.n; i++) {
			const Rec *r = &sc.recs[i];
			char what[240];
			if (!r->clash)
				continue;
			snprintf(what, sizeof what, r->clash == 2 ?
				"'%.100s' is declared in a block of %.100s and by the module after normalization" :
				"'%.100s' is declared in two blocks of %.100s after normalization", r->name, f->name);
			report(ctx, r->s ? r->s->loc : fs->loc, what, 1);
		}
	free(sc.need);
	sc.need = NULL;   /* every use */
	restart(&sc);
	uses(&sc, &f->body, check_use, 1);
	scan_free(&sc);
}
