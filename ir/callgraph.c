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

static void push(const char ***list, uint32_t *n, const char *name)
{
	for (uint32_t i = 0; i < *n; i++)
		if ((*list)[i] == name)
			return;
	*list = xreallocarray(*list, *n + 1, sizeof **list);
	(*list)[(*n)++] = name;
}

static void scan_calls(CallGraph *cg, CgFunc *f, const List *body)
{
	for (const Stmt *s = body->head; s; s = s->next) {
		if (s->kind == S_SCOPE)
			scan_calls(cg, f, &s->scope);
		if (s->kind != S_INS || !(s->ins.sp->op->flags & OF_CALL))
			continue;
		CallParts c;
		if (ins_call_parts(&s->ins, &c) && cg_find(cg, c.callee->str))
			push(&f->callees, &f->ncallees, c.callee->str);
		else
			f->nindirect++;
	}
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
	for (const Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body)
			scan_calls(cg, cg_find(cg, s->func->name), &s->func->body);
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
