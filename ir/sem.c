/* What an instruction does with its operands: which names it defines and
 * uses, where it touches memory.  The opcode table gives the class; the
 * forms the table cannot express are decided here, and what is not
 * modelled (OF_OPAQUE) is assumed to do anything. */
#include <ctype.h>
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
		if (sp->code == O_bar || sp->code == O_barrier)
			return spelling_has(sp, MOD_red) ? ROLE_DEF : ROLE_USE;
		/* mbarrier.init [a], n and wmma.store [a], ... store; the others
		 * (mbarrier.arrive, try_wait, wgmma.mma_async, wmma.load) define */
		return is_reglike(e) ? ROLE_DEF : ROLE_USE;
	}
	return e->kind == E_ADDR ? ROLE_USE : ROLE_DEF;
}

typedef struct Uses {
	NameFn *fn;
	void *ctx;
} Uses;

static int use_leaf(void *ctx, Expr **slot)
{
	Uses *u = ctx;
	if ((*slot)->kind == E_NAME && strcmp((*slot)->str, "_") != 0)
		u->fn(u->ctx, (*slot)->str, ROLE_USE);
	return 0;
}

/* Everything under a read is read: no recursion there, however deep. */
static void visit(const Expr *e, OpRole role, NameFn *fn, void *ctx)
{
	if (role == ROLE_USE && e->kind != E_NAME) {
		Uses u = {fn, ctx};
		expr_leaves((Expr **)&e, use_leaf, &u);
		return;
	}
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
			/* a longer chain p|q|r|...: down its left side by a loop */
			for (; e->kind == E_BINARY && e->op == '|' && e->kids[0]->kind == E_BINARY;
			     e = e->kids[0])
				visit(e->kids[1], role, fn, ctx);
			visit(e->kids[0], role, fn, ctx);
			if (e->kind == E_BINARY)
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

Space ins_space(const Ins *in)
{
	return (Space)in->sp->space;
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

/* PTX's special registers (ISA chapter 10), with .x/.y/.z on the vector
 * ones and the numbered families %envreg0-31, %pm0-7, %pm0_64-%pm7_64. */
int is_special_reg(const char *name)
{
	static const char *const vec[] = {"%tid", "%ntid", "%ctaid", "%nctaid", "%clusterid",
		"%nclusterid", "%cluster_ctaid", "%cluster_nctaid", NULL};
	static const char *const plain[] = {"%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid",
		"%gridid", "%clock", "%clock_hi", "%clock64", "%globaltimer", "%globaltimer_lo",
		"%globaltimer_hi", "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge",
		"%lanemask_gt", "%dynamic_smem_size", "%total_smem_size", "%aggr_smem_size",
		"%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster",
		"%reserved_smem_offset_begin", "%reserved_smem_offset_end",
		"%reserved_smem_offset_cap", "%current_graph_exec", NULL};
	const char *dot = strchr(name, '.');
	if (dot) {
		char base[32];
		size_t n = (size_t)(dot - name);
		if (n >= sizeof base || dot[2] || !strchr("xyz", dot[1]) || !dot[1])
			return 0;
		memcpy(base, name, n);
		base[n] = 0;
		return str_in(base, vec);
	}
	if (str_in(name, vec) || str_in(name, plain))
		return 1;  /* a vector register as a whole: mov.v4 {..}, %tid */
	if (!strncmp(name, "%reserved_smem_offset_", 22))
		return isdigit((unsigned char)name[22]);
	const char *p = !strncmp(name, "%envreg", 7) ? name + 7 : !strncmp(name, "%pm", 3) ? name + 3 : NULL;
	if (!p || !isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return !*p || (!strcmp(p, "_64") && name[1] == 'p');
}
