/* Call graph of a module: who calls whom directly, which calls are
 * indirect, and which functions have their address taken and so may be
 * reached by an indirect call.  The functions, their definitions and what
 * is done with their addresses are the symbol table's; this file adds
 * only the call edges, in the order the calls are written. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"

struct CallGraph {
	const SymTab *syms;
	CgFunc *funcs;
	uint32_t nfuncs;
	CgFunc **by_id;   /* per symbol id: its node, NULL for a variable */
	uint32_t *comp, *order;   /* scc_find's, per node */
	uint8_t *cyclic;
};

CgFunc *cg_find(const CallGraph *cg, const char *name)
{
	const Symbol *s = symtab_find(cg->syms, name);
	return s ? cg->by_id[s->id] : NULL;
}

/* Scanning f's body: whose callees hold a function is marked per symbol
 * id (me: f's mark), so that each is added once without a search. */
typedef struct Scan {
	CallGraph *cg;
	CgFunc *f;
	uint32_t *in;
	uint32_t me, cap;
} Scan;

static void push(Scan *sc, const CgFunc *g)
{
	CgFunc *f = sc->f;
	if (sc->in[g->sym->id] == sc->me)
		return;
	sc->in[g->sym->id] = sc->me;
	f->callees = array_grow(f->callees, f->ncallees, &sc->cap, sizeof *f->callees);
	f->callees[f->ncallees++] = g->name;
}

static void scan_calls(Scan *sc, const List *body)
{
	BodyIt it;
	CallParts c;
	const CgFunc *g;
	for (Stmt *s = body_first_call(body, &it, &c); s; s = body_next_call(&it, &c))
		if (c.whole && (g = cg_find(sc->cg, c.callee->str)))
			push(sc, g);
		else
			sc->f->nindirect++;
}

/* A function defined twice adds to the callees of the first body. */
static void scan_func(CallGraph *cg, uint32_t *in, const Func *fn)
{
	CgFunc *f = cg_find(cg, fn->name);
	Scan sc = {cg, f, in, cg_index_of(cg, f) + 1, f->ncallees};
	for (uint32_t i = 0; i < f->ncallees; i++)
		in[cg_find(cg, f->callees[i])->sym->id] = sc.me;
	scan_calls(&sc, &fn->body);
}

/* ---- strongly connected components ---------------------------------------- */

typedef struct Tarjan {
	const uint32_t *first, *to;
	uint32_t *index, *low, *stack, sp, next;
	uint8_t *on;
	uint32_t *comp, *order, norder, ncomps;
	uint8_t *cyclic;
} Tarjan;

typedef struct Visit {   /* a node being visited, and its next edge */
	uint32_t v, e;
} Visit;

static void open_node(Tarjan *t, uint32_t v)
{
	t->index[v] = t->low[v] = ++t->next;
	t->stack[t->sp++] = v;
	t->on[v] = 1;
}

/* v's component, when v is its root: the nodes above it on the stack. */
static void close_node(Tarjan *t, uint32_t v)
{
	if (t->low[v] != t->index[v])
		return;
	uint32_t w, n = 0, self = 0;
	do {
		w = t->stack[--t->sp];
		t->on[w] = 0;
		t->comp[w] = t->ncomps;
		t->order[t->norder++] = w;
		n++;
	} while (w != v);
	for (uint32_t e = t->first[v]; e < t->first[v + 1]; e++)
		self |= t->to[e] == v;
	for (uint32_t k = t->norder - n; k < t->norder; k++)
		t->cyclic[t->order[k]] = n > 1 || (self && t->order[k] == v);
	t->ncomps++;
}

/* One depth-first search from root, its path kept in path[]: what
 * recursion would do, in the same order. */
static void search(Tarjan *t, Visit *path, uint32_t root)
{
	uint32_t depth = 0;
	open_node(t, root);
	path[depth++] = (Visit){root, t->first[root]};
	while (depth) {
		Visit *p = &path[depth - 1];
		uint32_t v = p->v;
		if (p->e < t->first[v + 1]) {
			uint32_t w = t->to[p->e++];
			if (!t->index[w]) {
				open_node(t, w);
				path[depth++] = (Visit){w, t->first[w]};
			} else if (t->on[w] && t->index[w] < t->low[v]) {
				t->low[v] = t->index[w];
			}
			continue;
		}
		close_node(t, v);
		if (--depth && t->low[v] < t->low[path[depth - 1].v])
			t->low[path[depth - 1].v] = t->low[v];
	}
}

uint32_t scc_find(uint32_t n, const uint32_t *first, const uint32_t *to, uint32_t *comp,
	uint32_t *order, uint8_t *cyclic)
{
	Tarjan t = {.first = first, .to = to, .comp = comp, .order = order, .cyclic = cyclic};
	t.index = xcalloc(n + 1, sizeof *t.index);
	t.low = xcalloc(n + 1, sizeof *t.low);
	t.stack = xcalloc(n + 1, sizeof *t.stack);
	t.on = xcalloc(n + 1, 1);
	Visit *path = xcalloc(n + 1, sizeof *path);
	for (uint32_t v = 0; v < n; v++)
		if (!t.index[v])
			search(&t, path, v);
	free(path);
	free(t.index);
	free(t.low);
	free(t.stack);
	free(t.on);
	return t.ncomps;
}

/* The callees' edges in call order, as scc_find reads them. */
static void components(CallGraph *cg)
{
	uint32_t n = cg->nfuncs, *first = xcalloc(n + 2, sizeof *first), m = 0;
	for (uint32_t i = 0; i < n; i++)
		m += cg->funcs[i].ncallees;
	uint32_t *to = xcalloc(m + 1, sizeof *to);
	for (uint32_t i = 0, e = 0; i < n; i++) {
		first[i] = e;
		for (uint32_t k = 0; k < cg->funcs[i].ncallees; k++)
			to[e++] = cg_index_of(cg, cg_find(cg, cg->funcs[i].callees[k]));
		first[i + 1] = e;
	}
	cg->comp = xcalloc(n + 1, sizeof *cg->comp);
	cg->order = xcalloc(n + 1, sizeof *cg->order);
	cg->cyclic = xcalloc(n + 1, 1);
	scc_find(n, first, to, cg->comp, cg->order, cg->cyclic);
	free(first);
	free(to);
}

/* A function's first statement is a prototype or its definition; an
 * .alias defines it without a body of its own. */
static void add_func(CgFunc *f, const Symbol *s)
{
	f->name = s->name;
	f->sym = s;
	f->def = s->def && s->def->kind == S_FUNC ? s->def->func : NULL;
	f->decl = f->def ? f->def : s->decl->func;
	f->address_taken = (s->how & USE_ADDR) != 0;
}

CallGraph *callgraph_build(const Module *m, const SymTab *syms)
{
	CallGraph *cg = xcalloc(1, sizeof *cg);
	uint32_t n = symtab_count(syms);
	cg->by_id = xcalloc(n + 1, sizeof *cg->by_id);
	cg->funcs = xcalloc(n + 1, sizeof *cg->funcs);
	cg->syms = syms;
	for (uint32_t i = 0; i < n; i++) {
		const Symbol *s = symtab_at(syms, i);
		if (s->kind == SYM_FUNC) {
			cg->by_id[i] = &cg->funcs[cg->nfuncs++];
			add_func(cg->by_id[i], s);
		}
	}
	uint32_t *in = xcalloc(n + 1, sizeof *in);
	for (const Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body)
			scan_func(cg, in, s->func);
	free(in);
	components(cg);
	return cg;
}

uint32_t cg_count(const CallGraph *cg)
{
	return cg->nfuncs;
}

CgFunc *cg_func(const CallGraph *cg, uint32_t i)
{
	return i < cg->nfuncs ? &cg->funcs[i] : NULL;
}

uint32_t cg_index_of(const CallGraph *cg, const CgFunc *f)
{
	return (uint32_t)(f - cg->funcs);
}

uint32_t cg_component(const CallGraph *cg, uint32_t i)
{
	return cg->comp[i];
}

int cg_on_cycle(const CallGraph *cg, uint32_t i)
{
	return cg->cyclic[i];
}

const uint32_t *cg_bottom_up(const CallGraph *cg)
{
	return cg->order;
}

/* The functions a kernel (or a root named) may run, through direct calls
 * and through indirect ones, whose .calltargets lists (devirtualization's)
 * name their possible callees. */
typedef struct Runs {
	const CallGraph *cg;
	uint8_t *runs;
	uint32_t *work, nw;
} Runs;

/* name runs, and what it is an .alias of: stages/alias.c resolves them
 * in a closed world but keeps a chain (an alias of an alias, which ptxas
 * 13 rejects, "alias to unknown symbol", but the interpreter runs). */
static void runs_add(Runs *r, const char *name)
{
	const CgFunc *c = cg_find(r->cg, name);
	uint32_t j = c ? cg_index_of(r->cg, c) : 0;
	if (!c || r->runs[j])
		return;
	r->runs[j] = 1, r->work[r->nw++] = j;
	const Stmt *a = c->sym->def;
	if (a && a->kind == S_ALIAS && a->list.nitems == 2 && a->list.items[1]->kind == E_NAME)
		runs_add(r, a->list.items[1]->str);
}

/* What f's .calltargets lists name runs; 0 when one of its indirect
 * calls has none (a prototype only: any address taken may be called). */
static int runs_targets(Runs *r, const Func *f)
{
	Names lists = {0};
	BodyIt it;
	CallParts cp;
	int listed = 1;
	const char *word = intern_cstr(".calltargets");
	for (const Stmt *s = body_first(&f->body, &it); s; s = body_next(&it))
		if (s->kind == S_TARGETS && s->list.word == word) {
			names_add(&lists, s->list.label, NULL);
			for (uint32_t k = 0; k < s->list.nitems; k++)
				if (s->list.items[k]->kind == E_NAME)
					runs_add(r, s->list.items[k]->str);
		}
	body_end(&it);
	for (const Stmt *s = body_first_call(&f->body, &it, &cp); s && listed; s = body_next_call(&it, &cp))
		if (!cp.whole || !cg_find(r->cg, cp.callee->str))
			listed = cp.proto && cp.proto->kind == E_NAME && names_exact(&lists, cp.proto->str);
	names_free(&lists);
	return listed;
}

uint8_t *cg_runs(const CallGraph *cg, const char *const *roots, uint32_t nroots)
{
	uint32_t n = cg_count(cg);
	Runs r = {cg, xcalloc(n + 1, 1), xmalloc((n + 1) * sizeof *r.work), 0};
	int listed = 1;
	for (uint32_t i = 0; i < n; i++) {
		const Stmt *d = cg_func(cg, i)->sym->def;
		if (d && d->kind == S_FUNC && d->func->is_entry)
			runs_add(&r, cg_func(cg, i)->name);
	}
	for (uint32_t i = 0; i < nroots; i++)
		runs_add(&r, roots[i]);
	while (r.nw && listed) {
		const CgFunc *c = cg_func(cg, r.work[--r.nw]);
		for (uint32_t k = 0; k < c->ncallees; k++)
			runs_add(&r, c->callees[k]);
		if (c->nindirect)
			listed = runs_targets(&r, c->def);
	}
	free(r.work);
	if (!listed)
		free(r.runs), r.runs = NULL;
	return r.runs;
}

void callgraph_free(CallGraph *cg)
{
	if (!cg)
		return;
	for (uint32_t i = 0; i < cg->nfuncs; i++)
		free(cg->funcs[i].callees);
	free(cg->funcs);
	free(cg->by_id);
	free(cg->comp);
	free(cg->order);
	free(cg->cyclic);
	free(cg);
}
