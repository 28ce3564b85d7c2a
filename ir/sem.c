/* What an instruction does with its operands: which names it defines and
 * uses, where it touches memory.  The opcode table gives the class; the
 * forms the table cannot express are decided here, and what is not
 * modelled (OF_OPAQUE) is assumed to do anything. */
#include <string.h>
#include "ir.h"

static int is_reglike(const Expr *e)
{
	return e->kind == E_NAME || e->kind == E_BRACE ||
		(e->kind == E_BINARY && e->op == '|');
}

/* Does the first operand receive the result? */
OpRole ins_first_role(const Ins *in)
{
	const Spelling *sp = in->sp;
	unsigned flags = sp->op->flags;
	if (in->nops == 0)
		return ROLE_USE;
	const Expr *e = in->ops[0];
	if (flags & OF_OPAQUE)
		return is_reglike(e) ? ROLE_MAYDEF : ROLE_USE;
	if (flags & OF_CALL)
		return e->kind == E_PAREN ? ROLE_DEF : ROLE_USE;
	if (flags & OF_NODEF)
		return ROLE_USE;
	if (flags & OF_IRREG) {
		/* bar.sync 0 names a barrier; bar.red.popc.u32 d, ... defines d */
		if (!strcmp(sp->base, "bar") || !strcmp(sp->base, "barrier"))
			return spelling_has(sp, ".red") ? ROLE_DEF : ROLE_USE;
		/* mbarrier.init [a], n and wmma.store [a], ... store; the others
		 * (mbarrier.arrive, try_wait, wgmma.mma_async, wmma.load) define */
		return is_reglike(e) ? ROLE_DEF : ROLE_USE;
	}
	return e->kind == E_ADDR ? ROLE_USE : ROLE_DEF;
}

static void visit(const Expr *e, OpRole role, NameFn *fn, void *ctx)
{
	switch (e->kind) {
	case E_NAME:
		if (strcmp(e->str, "_") != 0)
			fn(ctx, e->str, role);
		break;
	case E_NUM:
		break;
	case E_ADDR:  /* names inside an address are read, whatever the role */
		for (uint32_t i = 0; i < e->n; i++)
			visit(e->kids[i], ROLE_USE, fn, ctx);
		break;
	case E_BINARY:
		if (e->op == '|' && role != ROLE_USE) {  /* p|q: both written */
			visit(e->kids[0], role, fn, ctx);
			visit(e->kids[1], role, fn, ctx);
			break;
		}
		/* fall through */
	default:
		for (uint32_t i = 0; i < e->n; i++)
			visit(e->kids[i], e->kind == E_BRACE || e->kind == E_PAREN ? role : ROLE_USE, fn, ctx);
	}
}

void ins_names(const Ins *in, NameFn *fn, void *ctx)
{
	if (in->guard)
		fn(ctx, in->guard, ROLE_USE);
	for (uint32_t i = 0; i < in->nops; i++)
		visit(in->ops[i], i == 0 ? ins_first_role(in) : ROLE_USE, fn, ctx);
}

const char *ins_space(const Ins *in)
{
	static const char *const spaces[] = {".global", ".shared", ".local", ".param",
		".const", ".tex", NULL};
	const Spelling *sp = in->sp;
	for (uint32_t i = 0; i < sp->nmods; i++)
		for (int k = 0; spaces[k]; k++) {
			size_t n = strlen(spaces[k]);
			if (!strncmp(sp->mods[i], spaces[k], n) &&
			    (sp->mods[i][n] == 0 || sp->mods[i][n] == ':'))
				return spaces[k];
		}
	return NULL;
}

int ins_reads_memory(const Ins *in)
{
	return (in->sp->op->flags & (OF_LOAD | OF_OPAQUE | OF_CALL)) != 0;
}

int ins_writes_memory(const Ins *in)
{
	return (in->sp->op->flags & (OF_STORE | OF_OPAQUE | OF_CALL)) != 0;
}

int ins_call_parts(const Ins *in, CallParts *p)
{
	uint32_t i = 0;
	*p = (CallParts){0};
	if (!in->sp->op || !(in->sp->op->flags & OF_CALL))
		return 0;
	if (i < in->nops && in->ops[i]->kind == E_PAREN)
		p->rets = in->ops[i++];
	if (i >= in->nops || in->ops[i]->kind != E_NAME)
		return 0;
	p->callee = in->ops[i];
	p->callee_index = i++;
	if (i < in->nops && in->ops[i]->kind == E_PAREN)
		p->args = in->ops[i++];
	if (i < in->nops && in->ops[i]->kind == E_NAME)
		p->proto = in->ops[i++];
	return i == in->nops;
}
