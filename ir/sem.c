/* What an instruction does with its operands: which names it defines and
 * uses, where it touches memory.  The opcode table gives the class; the
 * forms the table cannot express are decided here, and what is not
 * modelled (OF_OPAQUE) is assumed to do anything. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "ir.h"

static int is_reglike(const Expr *e)
{
	return e->kind == E_NAME || e->kind == E_BRACE ||
		(e->kind == E_BINARY && e->op == '|');
}

/* An opcode row's letter as an Operand; anything else is a read.  A
 * table, as ins_operand runs for every operand of every walk. */
static const uint8_t letter_role[128] = {
	['d'] = OPND_DEF, ['r'] = OPND_LOAD, ['w'] = OPND_STORE,
	['x'] = OPND_UPDATE, ['p'] = OPND_NAMED,
};

static Operand letter(char c)
{
	return (unsigned char)c < 128 ? (Operand)letter_role[(unsigned char)c] : OPND_USE;
}

/* The "?" rows, whose roles depend on the form. */
static Operand by_form(const Ins *in, uint32_t k)
{
	const Spelling *sp = in->sp;
	const Expr *e = in->ops[k];
	int first_reg = k == 0 && is_reglike(e);
	if (sp->op->flags & OF_OPAQUE)
		return first_reg ? OPND_MAYDEF : e->kind == E_ADDR ? OPND_UPDATE : OPND_USE;
	switch (sp->code) {
	case O_call:  /* call (rets), callee, (args): the return list is written */
		return k == 0 && e->kind == E_PAREN ? OPND_DEF : OPND_USE;
	case O_bar:  /* bar.sync 0 names a barrier; bar.red.popc.u32 d, ... defines d */
	case O_barrier:
		return k == 0 && spelling_has(sp, MOD_red) ? OPND_DEF : OPND_USE;
	case O_wmma:  /* wmma.load d, [a], s reads; wmma.store [a], r, s writes */
		if (e->kind == E_ADDR)
			return is_reglike(in->ops[0]) ? OPND_LOAD : OPND_STORE;
		return first_reg ? OPND_DEF : OPND_USE;
	default:
		/* mbarrier.arrive, try_wait and wgmma.mma_async define their first
		 * operand; mbarrier's and cp's addresses may be read and written */
		if (e->kind == E_ADDR)
			return OPND_UPDATE;
		return first_reg && sp->code != O_cp ? OPND_DEF : OPND_USE;
	}
}

/* Where the row and the brackets disagree (input the verifier reports),
 * the brackets decide, and an unexpected address counts as read and
 * written. */
Operand ins_operand(const Ins *in, uint32_t k)
{
	const char *roles = in->sp->op->roles;
	Operand r;
	if (roles[0] == '?')
		r = by_form(in, k);
	else {  /* the k-th letter, or the last one for the rest */
		const char *c = roles;
		for (uint32_t j = 0; j < k && c[0] && c[1]; j++)
			c++;
		r = letter(*c);
	}
	if (OPND_IS_ADDRESS(r) != (in->ops[k]->kind == E_ADDR))
		r = in->ops[k]->kind == E_ADDR ? OPND_UPDATE : OPND_USE;
	return r;
}

static OpRole name_role(Operand r)
{
	return r == OPND_DEF ? ROLE_DEF : r == OPND_MAYDEF ? ROLE_MAYDEF : ROLE_USE;
}

/* Does the first operand receive the result? */
OpRole ins_first_role(const Ins *in)
{
	return in->nops ? name_role(ins_operand(in, 0)) : ROLE_USE;
}

typedef struct Uses {
	NameFn *fn;
	void *ctx;
} Uses;

int is_sink(const Expr *e)
{
	return e->kind == E_NAME && e->str[0] == '_' && !e->str[1];
}

/* digits from '0' to top, one to max of them, and nothing after */
static int selector_digits(const char *p, char top, int max)
{
	int n = 0;
	for (; *p; p++, n++)
		if (*p < '0' || *p > top || n == max)
			return 0;
	return n > 0;
}

/* A register name cannot hold a dot, so a '%' name with one is a special
 * register (%tid.x) or a part of a register: a byte or a half of a video
 * instruction's operand (%r1.b0, %r1.h1; a destination's mask %r1.b3210,
 * %r1.h10) or an element of a vector register (%v.x, %v.a). */
const char *reg_of_part(const char *name)
{
	if (name[0] != '%')
		return NULL;
	const char *dot = strchr(name + 1, '.'), *p = dot ? dot + 1 : NULL;
	if (!p || dot == name + 1)
		return NULL;
	int part = (p[0] == 'b' && selector_digits(p + 1, '7', 4)) ||
		(p[0] == 'h' && selector_digits(p + 1, '1', 2)) ||
		(p[0] && !p[1] && strchr("xyzwrgba", p[0]) && !is_special_reg(name));
	return part ? intern(name, (size_t)(dot - name)) : NULL;
}

/* A part read reads its register; a part written writes some of it and
 * keeps the rest: a may-write, which kills nothing, so what the register
 * held before stays live and reaching. */
static void name_seen(NameFn *fn, void *ctx, const char *name, OpRole role)
{
	const char *reg = reg_of_part(name);
	fn(ctx, reg ? reg : name, reg && role != ROLE_USE ? ROLE_MAYDEF : role);
}

static int use_leaf(void *ctx, Expr **slot)
{
	Uses *u = ctx;
	if ((*slot)->kind == E_NAME && !is_sink(*slot))
		name_seen(u->fn, u->ctx, (*slot)->str, ROLE_USE);
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
		if (!is_sink(e))
			name_seen(fn, ctx, e->str, role);
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
		if (in->ops[i]->kind != E_NUM)  /* a number names nothing: no role to look up */
			visit(in->ops[i], name_role(ins_operand(in, i)), fn, ctx);
}

typedef struct RegScan {
	const char *reg;
	RegAccess got;
} RegScan;

static void scan_reg(void *ctx, const char *name, OpRole role)
{
	RegScan *r = ctx;
	if (name != r->reg)
		return;
	if (role == ROLE_USE)
		r->got.reads = 1;
	else if (role == ROLE_DEF)
		r->got.writes = 1;
	else
		r->got.may_write = 1;
}

RegAccess ins_reg_access(const Ins *in, const char *reg)
{
	RegScan r = {reg, {0, 0, 0}};
	ins_names(in, scan_reg, &r);
	return r.got;
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

int stmt_is_call(const Stmt *s)
{
	return s->kind == S_INS && s->ins.sp->op && (s->ins.sp->op->flags & OF_CALL);
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

static const struct { const char *name; uint8_t form; } sregs[] = {
#define SREG(name, spelling, form) {spelling, form},
#include "sregs.h"
#undef SREG
};

/* What follows a family's name: a decimal number, then _64 for SRF_N64. */
static int sreg_number(const char *p, int form, int *index)
{
	char *end;
	if (!isdigit((unsigned char)*p))
		return 0;
	unsigned long v = strtoul(p, &end, 10);
	*index = v > INT_MAX ? INT_MAX : (int)v;
	return strcmp(end, form == SRF_N64 ? "_64" : "") == 0;
}

/* The row of sregs.h that names name: a vector with or without .x .y .z,
 * a scalar, or a family's member.  Linear: the verifier asks only for
 * names nothing declares. */
int sreg_find(const char *name, int *index)
{
	const char *dot = strchr(name, '.');
	size_t n = dot ? (size_t)(dot - name) : strlen(name);
	for (int i = 0; i < SR_COUNT; i++) {
		const char *w = sregs[i].name;
		size_t len = strlen(w);
		if (sregs[i].form == SRF_XYZ && n == len && !strncmp(name, w, n)) {
			*index = dot ? dot[1] - 'x' : -1;
			return !dot || (dot[1] && strchr("xyz", dot[1]) && !dot[2]) ? i : -1;
		}
		if (dot)
			continue;
		*index = 0;
		if (sregs[i].form == SRF_ONE && !strcmp(name, w))
			return i;
		if (sregs[i].form >= SRF_NUM && !strncmp(name, w, len) &&
		    sreg_number(name + len, sregs[i].form, index))
			return i;
	}
	return -1;
}

int is_special_reg(const char *name)
{
	int index;
	return sreg_find(name, &index) >= 0;
}

/* What PTX declares for every program (ISA, "Predefined Identifiers"):
 * the special registers and WARP_SZ, a warp's threads as a constant. */
int is_predefined(const char *name)
{
	return is_special_reg(name) || strcmp(name, "WARP_SZ") == 0;
}

int param_at(const Ins *in, const char **name, int64_t *off)
{
	int k = in->sp->code == O_ld ? 1 : in->sp->code == O_st ? 0 : -1;
	if (k < 0 || in->sp->space != SPACE_PARAM || in->nops != 2 || !addr_name_off(in->ops[k], name, off))
		return -1;
	return k;
}

/* Sized elements, as a .reg holds them, and braces as wide as the vector. */
int param_moves(const Ins *in, const char **name, int64_t *off)
{
	const Spelling *sp = in->sp;
	if (!sp->type || sp->type_bytes < 1 || sp->type_bytes > 8)
		return -1;
	int k = param_at(in, name, off);
	if (k < 0 || (sp->vec > 1 && (in->ops[1 - k]->kind != E_BRACE || in->ops[1 - k]->n != sp->vec)))
		return -1;
	return k;
}
