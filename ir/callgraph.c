/* Call graph of a module: who calls whom directly, which calls are
 * indirect, and which functions have their address taken (named by a
 * non-call instruction, such as mov %rd, f, or in a variable initializer)
 * and so may be reached by an indirect call. */
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "ir.h"

typedef struct FnEntry {
	UT_hash_handle hh;
	const char *name;
	CgFunc *fn;
} FnEntry;

struct CallGraph {
	CgFunc *funcs;
	uint32_t nfuncs;
	FnEntry *index;
};

CgFunc *cg_find(const CallGraph *cg, const char *name)
{
	FnEntry *e;
	HASH_FIND_PTR(cg->index, &name, e);
	return e ? e->fn : NULL;
}

static void push(const char ***list, uint32_t *n, const char *name)
{
	for (uint32_t i = 0; i < *n; i++)
		if ((*list)[i] == name)
			return;
	*list = realloc(*list, (*n + 1) * sizeof **list);
	if (!*list)
		die("out of memory");
	(*list)[(*n)++] = name;
}

/* The first kid by a loop: a chain a+b+c+... is as deep as it is long. */
static void take_addresses(CallGraph *cg, const Expr *e)
{
	for (; e->kind != E_NAME; e = e->kids[0]) {
		if (e->kind == E_NUM || !e->n)
			return;
		for (uint32_t i = 1; i < e->n; i++)
			take_addresses(cg, e->kids[i]);
	}
	CgFunc *f = cg_find(cg, e->str);
	if (f)
		f->address_taken = 1;
}

static void scan_calls(CallGraph *cg, CgFunc *f, const List *body)
{
	for (const Stmt *s = body->head; s; s = s->next) {
		if (s->kind == S_SCOPE) {
			scan_calls(cg, f, &s->scope);
			continue;
		}
		if (s->kind != S_INS)
			continue;
		const Ins *in = &s->ins;
		if (!(in->sp->op->flags & OF_CALL)) {
			for (uint32_t i = 0; i < in->nops; i++)
				take_addresses(cg, in->ops[i]);
			continue;
		}
		CallParts c;
		if (ins_call_parts(in, &c) && cg_find(cg, c.callee->str))
			push(&f->callees, &f->ncallees, c.callee->str);
		else
			f->nindirect++;
	}
}

CallGraph *callgraph_build(const Module *m)
{
	CallGraph *cg = calloc(1, sizeof *cg);
	if (!cg)
		die("out of memory");
	for (const Stmt *s = m->items.head; s; s = s->next) {
		FnEntry *e = NULL;
		if (s->kind == S_FUNC)
			HASH_FIND_PTR(cg->index, &s->func->name, e);
		if (s->kind == S_FUNC && !e) {  /* a prototype and its definition: one node */
			cg->nfuncs++;
			e = calloc(1, sizeof *e);
			if (!e)
				die("out of memory");
			e->name = s->func->name;
			HASH_ADD_PTR(cg->index, name, e);
		}
	}
	cg->funcs = calloc(cg->nfuncs + 1, sizeof *cg->funcs);
	uint32_t k = 0;
	for (FnEntry *e = cg->index; e; e = e->hh.next) {
		e->fn = &cg->funcs[k++];
		e->fn->name = e->name;
	}
	for (const Stmt *s = m->items.head; s; s = s->next) {
		if (s->kind == S_FUNC && !cg_find(cg, s->func->name)->decl)
			cg_find(cg, s->func->name)->decl = s->func;
		if (s->kind == S_FUNC && s->func->has_body) {
			CgFunc *f = cg_find(cg, s->func->name);
			f->def = f->decl = s->func;
			scan_calls(cg, f, &s->func->body);
		} else if (s->kind == S_VAR) {
			for (uint32_t i = 0; i < s->var.nds; i++)
				if (s->var.ds[i].init)
					take_addresses(cg, s->var.ds[i].init);
		}
	}
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
	FnEntry *e, *tmp;
	HASH_ITER(hh, cg->index, e, tmp) {
		HASH_DEL(cg->index, e);
		free(e);
	}
	free(cg->funcs);
	free(cg);
}
