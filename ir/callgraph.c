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
	for (const Stmt *s = body->head; s; s = s->next) {
		if (s->kind == S_SCOPE)
			scan_calls(sc, &s->scope);
		if (s->kind != S_INS || !(s->ins.sp->op->flags & OF_CALL))
			continue;
		CallParts c;
		const CgFunc *g;
		if (ins_call_parts(&s->ins, &c) && (g = cg_find(sc->cg, c.callee->str)))
			push(sc, g);
		else
			sc->f->nindirect++;
	}
}

/* A function defined twice adds to the callees of the first body. */
static void scan_func(CallGraph *cg, uint32_t *in, const Func *fn)
{
	CgFunc *f = cg_find(cg, fn->name);
	Scan sc = {cg, f, in, (uint32_t)(f - cg->funcs) + 1, f->ncallees};
	for (uint32_t i = 0; i < f->ncallees; i++)
		in[cg_find(cg, f->callees[i])->sym->id] = sc.me;
	scan_calls(&sc, &fn->body);
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

void callgraph_free(CallGraph *cg)
{
	if (!cg)
		return;
	for (uint32_t i = 0; i < cg->nfuncs; i++)
		free(cg->funcs[i].callees);
	free(cg->funcs);
	free(cg->by_id);
	free(cg);
}
