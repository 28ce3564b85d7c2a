/* A function's .local memory objects (the __local_depot, named .local
 * variables in any scope) and, for every instruction that touches or
 * converts a .local address, which object, at which constant offset, how
 * wide, and whether a run-time amount is added; and which objects' address
 * escapes, so that a stage moving bytes knows what it may not move.
 *
 * An address is followed through the unique reaching definition of each
 * register: mov, cvta (to and from .local), add of a constant (or sub),
 * add of a value that is no address (a run-time index: `var`).  A value
 * is no address when it is a constant, a parameter, a special register, or
 * computed from such values; a value read from memory is no address of an
 * object whose address never escapes.  What the walk cannot follow (a
 * register with several reaching definitions mixing an object's address
 * with anything else, an object's address in other arithmetic, stored,
 * passed, returned or compared) makes the object escape. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"

/* What an operand's value is.  A_CYCLE: the definition being evaluated,
 * reached again around a loop; neutral where definitions merge, so that a
 * pointer stepped through an array stays that array's (an inexact offset). */
enum { A_NONE, A_OBJ, A_UNKNOWN, A_CYCLE };

typedef struct Addr {
	int kind;
	int obj;
	int64_t off;
	int var;        /* plus a run-time amount */
} Addr;

typedef struct Walker {
	MemObjs *mo;
	const Cfg *cfg;
	const Defs *defs;
	const Live *live;
	Addr *memo;      /* per instruction: the value it defines (first def) */
	uint8_t *state;  /* 0 not yet, 1 in progress, 2 done */
} Walker;

static int find_obj(const MemObjs *mo, const char *name)
{
	for (uint32_t i = 0; i < mo->nobjs; i++)
		if (mo->objs[i].name == name)
			return (int)i;
	return -1;
}

static void escape(Walker *w, Addr a)
{
	if (a.kind == A_OBJ)
		w->mo->objs[a.obj].escapes = 1;
}

static Addr value_of_def(Walker *w, uint32_t ins, int depth);

/* Several definitions reach: one object's address (at some offset) if
 * every one is that object's or the loop's own, no address if none is;
 * else not followed. */
static Addr merge(Walker *w, const Addr *a, uint32_t n)
{
	int obj = -1, none = 0, other = 0;
	for (uint32_t i = 0; i < n; i++)
		if (a[i].kind == A_OBJ && (obj < 0 || obj == a[i].obj))
			obj = a[i].obj;
		else if (a[i].kind == A_NONE)
			none = 1;
		else if (a[i].kind != A_CYCLE)
			other = 1;
	if (obj >= 0 && !none && !other)
		return (Addr){A_OBJ, obj, 0, 1};
	if (obj < 0 && !other)
		return (Addr){A_NONE, -1, 0, 1};
	for (uint32_t i = 0; i < n; i++)
		escape(w, a[i]);
	return (Addr){A_UNKNOWN, -1, 0, 0};
}

/* The value of a register or symbol or constant where instruction at reads it. */
static Addr leaf(Walker *w, uint32_t at, const Expr *e, int depth)
{
	int64_t k;
	if (e->kind == E_NUM)  /* a constant: var only for a float's bits */
		return int_literal(e->str, &k) ? (Addr){A_NONE, -1, k, 0} : (Addr){A_NONE, -1, 0, 1};
	if (e->kind != E_NAME)
		return (Addr){A_UNKNOWN, -1, 0, 0};
	int o = find_obj(w->mo, e->str);
	if (o >= 0)
		return (Addr){A_OBJ, o, 0, 0};
	if (live_reg(w->live, e->str) < 0)
		return (Addr){A_NONE, -1, 0, 1};   /* a parameter, special register, other symbol */
	uint32_t defs[8];
	uint32_t n = defs_reaching(w->defs, at, e->str, defs, 8);
	if (n == 0 || n > 8)
		return (Addr){A_UNKNOWN, -1, 0, 0};
	Addr a[8];
	for (uint32_t i = 0; i < n; i++)
		a[i] = defs[i] == DEF_ENTRY ? (Addr){A_NONE, -1, 0, 1} : value_of_def(w, defs[i], depth + 1);
	return n == 1 ? a[0] : merge(w, a, n);
}

static Addr expr_value(Walker *w, uint32_t at, const Expr *e, int depth);

static Addr sum(Walker *w, Addr a, Addr b, int negate_b)
{
	if ((a.kind == A_CYCLE && b.kind == A_NONE) || (b.kind == A_CYCLE && a.kind == A_NONE && !negate_b))
		return (Addr){A_CYCLE, -1, 0, 1};
	if (a.kind == A_CYCLE || b.kind == A_CYCLE) {
		escape(w, a);
		escape(w, b);
		return (Addr){A_UNKNOWN, -1, 0, 0};
	}
	if (a.kind == A_UNKNOWN || b.kind == A_UNKNOWN || (a.kind == A_OBJ && b.kind == A_OBJ) ||
	    (negate_b && b.kind == A_OBJ)) {
		escape(w, a);
		escape(w, b);
		return (Addr){a.kind == A_NONE && b.kind == A_NONE ? A_NONE : A_UNKNOWN, -1, 0, 1};
	}
	Addr r = a.kind == A_OBJ ? a : b;
	const Addr *other = a.kind == A_OBJ ? &b : &a;
	if (r.kind == A_NONE)
		return (Addr){A_NONE, -1, 0, 1};
	if (other->var)
		r.var = 1;
	else
		r.off += negate_b ? -other->off : other->off;
	return r;
}

static Addr expr_value(Walker *w, uint32_t at, const Expr *e, int depth)
{
	if (depth > 64)
		return (Addr){A_UNKNOWN, -1, 0, 0};
	if (e->kind == E_BINARY && (e->op == '+' || e->op == '-'))
		return sum(w, expr_value(w, at, e->kids[0], depth + 1),
			expr_value(w, at, e->kids[1], depth + 1), e->op == '-');
	if (e->kind == E_ADDR && e->n == 1)
		return expr_value(w, at, e->kids[0], depth + 1);
	if (e->kind == E_UNARY && e->op == '-') {  /* add.s64 %rd9, %rd1, -120 */
		Addr a = expr_value(w, at, e->kids[0], depth + 1);
		if (a.kind == A_NONE) {
			a.off = -a.off;
			return a;
		}
		escape(w, a);
		return (Addr){A_UNKNOWN, -1, 0, 0};
	}
	if (e->kind == E_NAME || e->kind == E_NUM)
		return leaf(w, at, e, depth);
	return (Addr){A_UNKNOWN, -1, 0, 0};
}

/* What instruction ins writes into its first operand. */
static Addr value_of_def(Walker *w, uint32_t ins, int depth)
{
	if (w->state[ins] == 2)
		return w->memo[ins];
	if (w->state[ins] == 1)
		return (Addr){A_CYCLE, -1, 0, 0};
	if (depth > 64)
		return (Addr){A_UNKNOWN, -1, 0, 0};
	w->state[ins] = 1;
	const Ins *in = &w->cfg->ins[ins]->ins;
	Addr r = {A_NONE, -1, 0, 1};
	int op = in->sp->code;
	if (in->guard) {  /* may or may not write: not followed */
		for (uint32_t i = 0; i < in->nops; i++)
			if (ins_operand(in, i) == OPND_USE)
				escape(w, expr_value(w, ins, in->ops[i], depth));
		r.kind = A_UNKNOWN;
	} else if ((op == O_mov || op == O_cvta) && in->nops == 2 && in->ops[1]->kind != E_BRACE) {
		r = expr_value(w, ins, in->ops[1], depth);
	} else if ((op == O_add || op == O_sub) && in->nops == 3) {
		r = sum(w, expr_value(w, ins, in->ops[1], depth), expr_value(w, ins, in->ops[2], depth),
			op == O_sub);
	} else {
		/* any other result: no address, unless computed from one */
		for (uint32_t i = 0; i < in->nops; i++) {
			Operand role = ins_operand(in, i);
			if (role != OPND_USE)
				continue;  /* a load's value is no object's address */
			Addr a = expr_value(w, ins, in->ops[i], depth);
			if (a.kind != A_NONE) {
				escape(w, a);
				r.kind = A_UNKNOWN;
			}
		}
	}
	w->memo[ins] = r;
	w->state[ins] = 2;
	return r;
}

static void add_access(MemObjs *mo, Stmt *at, Addr a, int width, unsigned how)
{
	mo->acc = array_grow(mo->acc, mo->nacc, &mo->cacc, sizeof *mo->acc);
	mo->acc[mo->nacc++] = (MemAccess){at, a.kind == A_OBJ ? a.obj : -1,
		a.kind == A_OBJ ? a.off : 0, a.kind == A_OBJ && !a.var, width, (uint8_t)how};
}

static unsigned access_how(Operand r)
{
	return r == OPND_LOAD ? USE_READ : r == OPND_STORE ? USE_WRITE : USE_READ | USE_WRITE;
}

/* Loads, stores and atomics of .local or generic memory: the address
 * operand says what they touch, the type how many bytes.  Every other
 * operand that carries an object's address (an address given to an
 * instruction not modelled here, too) lets it escape. */
static void scan_ins(Walker *w, uint32_t i)
{
	Stmt *s = w->cfg->ins[i];
	const Ins *in = &s->ins;
	int op = in->sp->code;
	Space sp = ins_space(in);
	int sized = (op == O_ld || op == O_st || op == O_atom || op == O_red || op == O_ldu) &&
		(sp == SPACE_LOCAL || sp == SPACE_NONE);
	if (op == O_cvta && in->nops == 2 && sp == SPACE_LOCAL && !spelling_has(in->sp, MOD_to)) {
		Addr a = expr_value(w, i, in->ops[1], 0);
		add_access(w->mo, s, a, 0, USE_ADDR);
		return;  /* the generic address is followed where it is used */
	}
	if (op == O_mov || op == O_cvta || op == O_add || op == O_sub)
		return;  /* followed from their uses (value_of_def) */
	for (uint32_t k = 0; k < in->nops; k++) {
		const Expr *e = in->ops[k];
		Operand role = ins_operand(in, k);
		if (sized && OPND_IS_ADDRESS(role)) {
			Addr a = expr_value(w, i, e, 0);
			unsigned how = access_how(role);
			if (a.kind == A_OBJ)
				add_access(w->mo, s, a, in->sp->type_bytes * in->sp->vec, how);
			else if (a.kind == A_UNKNOWN || sp == SPACE_LOCAL)
				add_access(w->mo, s, (Addr){A_UNKNOWN, -1, 0, 1}, 0, how);
			continue;  /* generic through no address of ours: not .local */
		}
		if (role != OPND_DEF && role != OPND_MAYDEF)
			escape(w, expr_value(w, i, e, 0));
	}
}

static void collect_objs(MemObjs *mo, const List *l)
{
	for (Stmt *s = l->head; s; s = s->next)
		if (s->kind == S_SCOPE)
			collect_objs(mo, &s->scope);
		else if (s->kind == S_VAR && decl_space(&s->var) == SPACE_LOCAL)
			for (uint32_t i = 0; i < s->var.nds; i++) {
				mo->objs = array_grow(mo->objs, mo->nobjs, &mo->cobjs, sizeof *mo->objs);
				mo->objs[mo->nobjs++] = (MemObj){s->var.ds[i].name, s,
					decl_bytes(&s->var, &s->var.ds[i]), var_align(&s->var), 0};
			}
}

MemObjs *memobjs_build(const Func *f)
{
	MemObjs *mo = calloc(1, sizeof *mo);
	if (!mo)
		die("out of memory");
	collect_objs(mo, &f->body);
	if (!mo->nobjs)
		return mo;
	Cfg *g = cfg_build(f);
	if (!g) {
		for (uint32_t i = 0; i < mo->nobjs; i++)
			mo->objs[i].escapes = 1;
		return mo;
	}
	Live *l = live_compute(g);
	Defs *d = defs_compute(g, l);
	Walker w = {mo, g, d, l, calloc(g->nins + 1, sizeof *w.memo), calloc(g->nins + 1, 1)};
	if (!w.memo || !w.state)
		die("out of memory");
	for (uint32_t i = 0; i < g->nins; i++)
		scan_ins(&w, i);
	free(w.memo);
	free(w.state);
	defs_free(d);
	live_free(l);
	cfg_free(g);
	return mo;
}

void memobjs_free(MemObjs *mo)
{
	if (!mo)
		return;
	free(mo->objs);
	free(mo->acc);
	free(mo);
}
