/* Value tracking of addresses: is this register, at this instruction,
 * "symbol + offset" (or a plain constant)?  Follows the unique reaching
 * definition through mov, add/sub of constants, cvta / cvta.to, and loads
 * from constant data: a .const variable, or a .global one whose name is
 * only ever loaded from, with an initializer.  Anything else is unknown. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"

enum { MAX_DEPTH = 16 };

/* The variable's statement: its definition, else a declaration. */
static const Stmt *module_var(const Tracker *t, const char *name)
{
	const Symbol *s = t->syms ? symtab_find(t->syms, name) : NULL;
	if (!s || s->kind != SYM_VAR)
		return NULL;
	return s->def ? s->def : s->decl;
}

/* A plain load is the only use that keeps a .global variable constant:
 * no store, no address taken, nothing another module may write. */
static int var_is_constant(const Tracker *t, const Stmt *var)
{
	Space space = decl_space(&var->var);
	if (space == SPACE_CONST)
		return 1;
	const Symbol *s = symtab_find(t->syms, var->var.ds[0].name);
	return space == SPACE_GLOBAL && s && (s->how & ~USE_READ) == 0 &&
		(s->linkage == LINK_INTERNAL || s->linkage == LINK_VISIBLE);
}

static int value_of_expr(const Tracker *t, uint32_t ins, const Expr *e, Value *v, int depth);

static int value_of_reg(const Tracker *t, uint32_t ins, const char *reg, Value *v, int depth)
{
	uint32_t def;
	if (depth > MAX_DEPTH || defs_reaching(t->defs, ins, reg, &def, 1) != 1 || def == DEF_ENTRY)
		return 0;
	return value_at_def(t, def, v, depth + 1);
}

static int value_of_expr(const Tracker *t, uint32_t ins, const Expr *e, Value *v, int depth)
{
	Value a, b;
	switch (e->kind) {
	case E_NUM:
		v->sym = NULL;
		return int_literal(e->str, &v->off);
	case E_NAME:
		if (t && live_reg(t->live, e->str) >= 0)
			return value_of_reg(t, ins, e->str, v, depth);
		v->sym = e->str;  /* a module-scope symbol */
		v->off = 0;
		return 1;
	case E_UNARY:
		if (e->op != '-' || !value_of_expr(t, ins, e->kids[0], &a, depth) || a.sym)
			return 0;
		*v = (Value){NULL, -a.off};
		return 1;
	case E_BINARY: {
		/* a+b-c+...: the right operands by a loop down the chain, which
		 * is as deep as it is long; offsets wrap as the machine's do */
		uint64_t off = 0;
		for (; e->kind == E_BINARY; e = e->kids[0]) {
			if ((e->op != '+' && e->op != '-') ||
			    !value_of_expr(t, ins, e->kids[1], &b, depth) || b.sym)
				return 0;
			off += e->op == '+' ? (uint64_t)b.off : -(uint64_t)b.off;
		}
		if (!value_of_expr(t, ins, e, &a, depth))
			return 0;
		*v = (Value){a.sym, (int64_t)((uint64_t)a.off + off)};
		return 1;
	}
	case E_CALL:  /* generic(sym) is sym's address */
		return !strcmp(expr_fname(e), "generic") && e->n == 1 &&
			value_of_expr(t, ins, e->kids[0], v, depth);
	case E_PAREN:
		return e->n == 1 && value_of_expr(t, ins, e->kids[0], v, depth);
	default:
		return 0;
	}
}

static int load_constant(const Tracker *t, uint32_t ins, const Value *addr, Value *v, int depth)
{
	const Stmt *var = addr->sym ? module_var(t, addr->sym) : NULL;
	if (!var || !var->var.ds[0].init || !var_is_constant(t, var))
		return 0;
	int size = init_slot_size(&var->var);
	if (!size || addr->off < 0 || addr->off % size)
		return 0;
	int64_t i = addr->off / size;
	const Expr *e = init_elem(var->var.ds[0].init, &i);
	return e && value_of_expr(t, ins, e, v, depth);
}

int value_at_def(const Tracker *t, uint32_t ins, Value *v, int depth)
{
	const Ins *in = &t->cfg->ins[ins]->ins;
	int op = in->sp->code;
	Value a, b;
	if (in->guard || depth > MAX_DEPTH)
		return 0;
	if (op == O_mov || op == O_cvta)
		return in->nops == 2 && value_of_expr(t, ins, in->ops[1], v, depth);
	if (op == O_add || op == O_sub) {
		if (in->nops != 3 || !value_of_expr(t, ins, in->ops[1], &a, depth) ||
		    !value_of_expr(t, ins, in->ops[2], &b, depth))
			return 0;
		if (a.sym && b.sym)
			return 0;
		if (op == O_sub && b.sym)
			return 0;
		v->sym = a.sym ? a.sym : b.sym;
		v->off = op == O_add ? a.off + b.off : a.off - b.off;
		return 1;
	}
	if (op == O_ld && in->nops == 2 && in->ops[1]->kind == E_ADDR && in->ops[1]->n == 1) {
		Space space = ins_space(in);
		if (space != SPACE_NONE && space != SPACE_CONST && space != SPACE_GLOBAL)
			return 0;
		return value_of_expr(t, ins, in->ops[1]->kids[0], &a, depth) &&
			load_constant(t, ins, &a, v, depth);
	}
	return 0;
}

int value_of(const Tracker *t, uint32_t ins, const Expr *operand, Value *v)
{
	return value_of_expr(t, ins, operand, v, 0);
}

int value_of_const(const Expr *e, Value *v)
{
	return value_of_expr(NULL, 0, e, v, 0);
}
