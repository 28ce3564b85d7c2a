/* output.c: step 4 of a link, the output's items: each input item in
 * input order, after declarations (functions) or definitions (variables)
 * of what it uses; then the merged .file table and one section per name. */
#include <stdlib.h>
#include <string.h>
#include "linker.h"

/* ---- output order ---- */

typedef struct Refs {
	Global **v;
	uint32_t n, cap;
} Refs;

typedef struct Collect {
	Linker *l;
	Refs refs;
} Collect;

/* Each global once: a stamp says it is in already. */
static void refs_add(Refs *r, Global *g, uint32_t stamp)
{
	if (g->stamp == stamp)
		return;
	g->stamp = stamp;
	r->v = array_grow(r->v, r->n, &r->cap, sizeof *r->v);
	r->v[r->n++] = g;
}

static int ref_leaf(void *ctx, Expr **slot)
{
	Collect *c = ctx;
	const Expr *e = *slot;
	Global *g;
	if (e->kind != E_NAME || names_exact(&c->l->locals, e->str))
		return 0;
	HASH_FIND_PTR(c->l->globals, &e->str, g);
	if (g)
		refs_add(&c->refs, g, c->l->stamp);
	return 0;
}

static void refs_expr(Collect *c, const Expr *e)
{
	expr_leaves((Expr **)&e, ref_leaf, c);
}

static void refs_exprs(Collect *c, Expr *const *es, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (es[i])
			refs_expr(c, es[i]);
}

static void refs_body(Collect *c, const List *body)
{
	BodyIt it;
	for (const Stmt *s = body_first(body, &it); s; s = body_next(&it)) {
		if (s->kind == S_INS)
			refs_exprs(c, s->ins.ops, s->ins.nops);
		else if (s->kind == S_TARGETS)
			refs_exprs(c, s->list.items, s->list.nitems);
		else if (s->kind == S_VAR) {
			for (uint32_t i = 0; i < s->var.nds; i++)
				if (s->var.ds[i].init)
					refs_expr(c, s->var.ds[i].init);
		}
	}
}

/* The external names an item uses (not the one it defines). */
static Refs item_refs(Linker *l, const Stmt *s)
{
	Collect c = {l, {0}};
	l->stamp++;
	if (s->kind == S_FUNC && s->func->has_body) {
		const Func *f = s->func;
		enter_func(l, f);
		refs_body(&c, &f->body);
		names_free(&l->locals);
	} else if (s->kind == S_VAR && s->var.ds[0].init) {
		refs_expr(&c, s->var.ds[0].init);
	} else if (s->kind == S_ALIAS) {
		refs_exprs(&c, s->list.items, s->list.nitems);
	}
	return c.refs;
}

static void emit(Linker *l, Stmt *s)
{
	list_append(&l->out->items, s);
}

/* A bodiless copy of a function definition, linkage and all. */
static Stmt *prototype(Linker *l, const Stmt *def)
{
	Stmt *p = stmt_new(l->out, S_FUNC, def->loc);
	Func *f = arena_dup(l->out->arena, def->func, sizeof *f);
	f->has_body = 0;
	f->body = (List){0};
	p->func = f;
	return p;
}

/* An .extern declaration of a variable defined later (a cycle). */
static Stmt *extern_decl(Linker *l, const Stmt *def)
{
	Stmt *d = stmt_new(l->out, S_VAR, def->loc);
	d->var = def->var;
	decl_set_linkage(l->out, &d->var, LINK_EXTERN);
	Declarator *ds = arena_dup(l->out->arena, def->var.ds, sizeof *ds);
	ds->init = NULL;
	d->var.ds = ds;
	return d;
}

static void emit_def(Linker *l, Global *g);

/* Makes g usable from here on in the output. */
static void ensure(Linker *l, Global *g)
{
	if (g->state == G_DECLARED || g->state == G_DEFINED)
		return;
	if (!g->def) {
		if (g->decl_sym && g->state == G_NONE) {
			g->state = G_DECLARED;
			emit(l, g->decl);
		}
		return;
	}
	if (g->def->kind == K_FUNC) {
		g->state = G_DECLARED;
		emit(l, prototype(l, g->def->def));
	} else if (g->state == G_IN_PROGRESS) {
		g->state = G_DECLARED;
		emit(l, extern_decl(l, g->def->def));
	} else {
		emit_def(l, g);
	}
}

static void ensure_refs(Linker *l, const Stmt *s, const Global *self)
{
	Refs r = item_refs(l, s);
	for (uint32_t i = 0; i < r.n; i++)
		if (r.v[i] != self)
			ensure(l, r.v[i]);
	free(r.v);
}

static void emit_def(Linker *l, Global *g)
{
	g->state = G_IN_PROGRESS;
	ensure_refs(l, g->def->def, g);
	emit(l, g->def->def);
	g->state = G_DEFINED;
}

static Global *item_global(Linker *l, const Stmt *s)
{
	const char *name = s->kind == S_FUNC ? s->func->name : s->var.ds[0].name;
	Global *g;
	HASH_FIND_PTR(l->globals, &name, g);
	return g;
}

/* One input item, in order: drop what lost or was declared already. */
static void place(Linker *l, Stmt *s)
{
	Global *g = (s->kind == S_FUNC || s->kind == S_VAR) ? item_global(l, s) : NULL;
	if (!g) {
		ensure_refs(l, s, NULL);
		emit(l, s);
		return;
	}
	int is_def = s->kind == S_FUNC ? s->func->has_body
		: s->var.linkage != LINK_EXTERN;
	if (is_def) {
		if (g->def && g->def->def == s && g->state != G_DEFINED)
			emit_def(l, g);
		return;
	}
	if (g->state == G_DECLARED || g->state == G_DEFINED)
		return;
	if (g->def && g->def->kind == K_FUNC) {
		g->state = G_DECLARED;
		emit(l, prototype(l, g->def->def));
	} else if (!g->def && g->decl == s) {
		ensure(l, g);
	}
}

static void strip_locs(List *body)
{
	BodyIt it;
	for (Stmt *s = body_first(body, &it); s; s = body_next(&it))
		if (s->kind == S_LOC)
			list_remove(it.in, s);
}

/* Sections of one name from every input become one section, the inputs'
 * parts in input order (section_bases counted on it).  Any number of
 * names: an index keyed on the interned name. */
typedef struct Merged {
	UT_hash_handle hh;
	const char *name;
	Stmt *s;
} Merged;

static void emit_sections(Linker *l, Stmt **items, size_t n)
{
	Merged *index = NULL, *merged = xcalloc(n, sizeof *merged);
	size_t nmerged = 0;
	for (size_t k = 0; k < n; k++) {
		Stmt *s = items[k];
		if (s->kind != S_SECTION || l->o->strip_debug)
			continue;
		Merged *m;
		HASH_FIND_PTR(index, &s->section.name, m);
		if (m) {
			List *dst = &m->s->section.items;
			for (Stmt *i = s->section.items.head, *next; i; i = next) {
				next = i->next;
				list_append(dst, i);
			}
			continue;
		}
		Stmt *c = stmt_new(l->out, S_SECTION, s->loc);
		c->section.name = s->section.name;
		c->section.items = s->section.items;
		m = &merged[nmerged++];
		m->name = c->section.name;
		m->s = c;
		HASH_ADD_PTR(index, name, m);
	}
	HASH_CLEAR(hh, index);
	for (size_t j = 0; j < nmerged; j++)
		emit(l, merged[j].s);
	free(merged);
}

/* Items are placed from a snapshot of every input's list taken first:
 * placing one may hoist a later one, even from a later input, and that
 * relinks it into the output list. */
void build_output(Linker *l)
{
	size_t n = 0, k = 0;
	for (int m = 0; m < l->n; m++)
		for (Stmt *s = l->mods[m]->items.head; s; s = s->next)
			n++;
	Stmt **items = xcalloc(n, sizeof *items);
	for (int m = 0; m < l->n; m++)
		for (Stmt *s = l->mods[m]->items.head; s; s = s->next)
			items[k++] = s;
	for (k = 0; k < n; k++) {
		Stmt *s = items[k];
		if (s->kind == S_VERSION || s->kind == S_TARGET || s->kind == S_ADDRSIZE ||
		    s->kind == S_FILE || s->kind == S_SECTION)
			continue;
		if (l->o->strip_debug && s->kind == S_FUNC && s->func->has_body)
			strip_locs(&s->func->body);
		place(l, s);
	}
	for (k = 0; k < l->nfiles; k++) {
		Stmt *f = stmt_new(l->out, S_FILE, l->files[k]->loc);
		f->file = l->files[k]->file;
		char buf[16];
		snprintf(buf, sizeof buf, "%zu", k + 1);
		f->file.index = intern_cstr(buf);
		emit(l, f);
	}
	emit_sections(l, items, n);
	free(items);
}
