/* effects.c: which functions a call of does nothing but compute its
 * results, so that a call whose results nothing reads can go (issue 33:
 * NVVM knows this of every function -dlto sees and deletes such calls;
 * compiled file by file, a call across files stays, and ptxas never
 * removes a call).
 *
 * A function is free of effects when its body writes no memory but its
 * own frame (the .local variables it declares, memobj.c's objects: a
 * frame ends with the call) and the .params of its calls and its result;
 * has no atomic, volatile or ordered access, barrier, fence, trap or exit,
 * nor an instruction whose roles are not modelled; calls only functions
 * free of effects, directly; and surely returns: its blocks lie on no
 * cycle and it is on no cycle of calls (a loop that never ends is an
 * effect a removed call would lose).  Loads of any memory are allowed:
 * a load whose value nothing reads goes in ptxas too.  A .weak body may
 * give way to another at a later link, so it is not asked; a kernel is
 * called by no one, and its body (the largest) is not read. */
#include <stdlib.h>
#include "ir.h"
#include "ptrhash.h"

typedef struct Pure {
	UT_hash_handle hh;
	const char *name;
} Pure;

struct Effects {
	Pure *pure, *v;
};

static int is_pure(const Effects *e, const char *name)
{
	Pure *p;
	HASH_FIND_PTR(e->pure, &name, p);
	return p != NULL;
}

/* A call's callee is a module function found free of effects. */
static int call_pure(const Effects *e, const Ins *in)
{
	CallParts cp;
	return ins_call_parts(in, &cp) && cp.callee && cp.callee->kind == E_NAME &&
		cp.callee->str[0] != '%' && !cp.proto && is_pure(e, cp.callee->str);
}

/* The stores into f's own frame, by statement, marked in own (by
 * instruction index). */
static int own_stores(const Func *f, const Cfg *g, uint8_t *own)
{
	MemObjs *mo = memobjs_build(f);
	int ok = mo && !mo->partial;
	for (uint32_t i = 0; ok && i < mo->nacc; i++) {
		const MemAccess *a = &mo->acc[i];
		if ((a->how & USE_WRITE) && a->obj >= 0 && a->ins < g->nins && g->ins[a->ins] == a->at)
			own[a->ins] = 1;
	}
	memobjs_free(mo);
	return ok;
}

static int ins_pure(const Effects *e, const Ins *in, int own)
{
	const Spelling *sp = in->sp;
	if (!sp->op || sp->code == O_UNKNOWN)
		return 0;
	unsigned flags = sp->op->flags;
	if (flags & (OF_SIDE | OF_OPAQUE))
		return 0;
	if ((flags & OF_TERM) && sp->code != O_ret)
		return 0;
	if (flags & OF_CALL)
		return call_pure(e, in);
	if ((flags & (OF_LOAD | OF_STORE)) && spelling_ordered(sp))
		return 0;
	if (flags & OF_STORE)
		return own || (sp->code == O_st && sp->space == SPACE_PARAM);
	return 1;
}

static int body_pure(const Effects *e, const Func *f)
{
	Cfg *g = cfg_build(f);
	if (!g)
		return 0;
	int ok = 1;
	for (uint32_t k = 0; k < g->nblocks && ok; k++)
		ok = !g->blocks[k].cyclic;
	uint8_t *own = xcalloc(g->nins + 1, 1);
	ok = ok && own_stores(f, g, own);
	for (uint32_t i = 0; i < g->nins && ok; i++)
		ok = ins_pure(e, &g->ins[i]->ins, own[i]);
	free(own);
	cfg_free(g);
	return ok;
}

Effects *effects_build(const Module *m)
{
	Effects *e = xcalloc(1, sizeof *e);
	SymTab *t = symtab_build(m);
	CallGraph *cg = callgraph_build(m, t);
	uint32_t n = cg_count(cg);
	const uint32_t *order = cg_bottom_up(cg);
	e->v = xcalloc(n + 1, sizeof *e->v);
	for (uint32_t i = 0; i < n; i++) {
		const CgFunc *c = cg_func(cg, order[i]);
		if (!c->def || !c->def->has_body || c->def->is_entry || c->def->linkage == LINK_WEAK ||
		    cg_on_cycle(cg, order[i]) || !body_pure(e, c->def))
			continue;
		Pure *p = &e->v[i];
		p->name = c->name;
		HASH_ADD_PTR(e->pure, name, p);
	}
	callgraph_free(cg);
	symtab_free(t);
	return e;
}

int effects_none(const Effects *e, const char *callee)
{
	return e && is_pure(e, callee);
}

void effects_free(Effects *e)
{
	if (!e)
		return;
	HASH_CLEAR(hh, e->pure);
	free(e->v);
	free(e);
}
