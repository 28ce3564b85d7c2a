/* Address preparation, after cicc's CodeGenPrepare and its SCEV-based
 * preparation: nvcc and clang compute addresses in 64 bits, and every
 * 64-bit value costs two registers in SASS.  Three rewrites, each only
 * where it is exact:
 *
 *   narrow  64-bit adds, shifts and multiplies of values that fit in 32
 *           bits (ir/range.c proves it, from thread-id bounds, constants
 *           and masks) become 32-bit ones with one widening at the end:
 *           cvt.u64.u32 a, x; cvt.u64.u32 b, y; add.s64 c, a, b;
 *           shl.b64 d, c, 2  becomes  add.u32 n, x, y; mul.wide.u32 d, n, 4;
 *   fold    add.s64 a, b, C whose every use is an address [a+K] becomes
 *           [b+C+K] there, and goes;
 *   sink    an address computed in one block and used only in another it
 *           dominates (and that does not run more often: not into a
 *           loop) is recomputed there, next to its use, when it was live
 *           across a loop or a call and its operands are live there
 *           anyway.
 *
 * Each rewrite is planned on analyses of the unchanged function and then
 * applied; the next one starts from fresh analyses.  A register's value is
 * "the same" at two points when no definition of it lies between them in
 * one block, or when its one reaching definition runs at most once per
 * call (no cycle through it).
 *
 * requires: normalized module / maintains: everything (new registers are
 * declared) / breaks: nothing */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "stages.h"

enum { MAX_USES = 64 };

typedef struct Stats {
	unsigned funcs, narrowed, widened, folded, sunk, removed;
} Stats;

typedef struct Ap {
	Module *m;
	const StageOptions *o;
	Func *f;
	Names names;
	Cfg *g;
	Live *live;
	Defs *defs;
	Ranges *rs;
	Places places;      /* where the body's statements are */
	RegUses *uses;
	Stmt *first;        /* the body's first statement before the stage */
	SrcLines *src;      /* its source lines, for remarks */
	unsigned rewrites;  /* ADDRPREP_* */
	Stats st;
} Ap;

static void remark(const Ap *a, const Stmt *s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void remark(const Ap *a, const Stmt *s, const char *fmt, ...)
{
	if (!a->o->addrprep.remarks)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *msg = diag_vformat(fmt, ap);
	va_end(ap);
	diag_remark(s->loc, "%s%s: %s", srclines_prefix(a->src, s->loc), plain_name(a->f->name), msg);
	free(msg);
}

/* ---- analyses ------------------------------------------------------------- */

static void forget(Ap *a)
{
	ranges_free(a->rs);
	defs_free(a->defs);
	live_free(a->live);
	cfg_free(a->g);
	places_free(&a->places);
	reguses_free(a->uses);
	names_free(&a->names);
	a->rs = NULL, a->defs = NULL, a->live = NULL, a->g = NULL, a->uses = NULL;
}

/* The analyses of the function as it is now: always its CFG, liveness
 * and every register's reads and writes; reaching definitions for narrow
 * and fold, the names it declares and value ranges for narrow (which
 * needs registers' types and makes registers).  Sink asks only for
 * registers written once, which need no reaching definitions, and for
 * nothing in a function with no loop or call.  0: nothing to do. */
enum { NEED_DEFS = 1, NEED_RANGES = 2 };

/* Liveness, computed when first asked for: most functions have no
 * computation worth sinking, and it is the costly part. */
static Live *liveness(Ap *a)
{
	if (!a->live)
		a->live = live_compute(a->g);
	return a->live;
}

/* Whether a function has anything a value can be live across at a cost:
 * a loop or a call.  Without one, sink has nothing to gain, and its
 * index of every register's reads (most of its time) is not made. */
static int has_call(const Ap *a, uint32_t from, uint32_t to);

static int has_loop_or_call(const Ap *a)
{
	for (uint32_t b = 0; b < a->g->nblocks; b++)
		if (a->g->blocks[b].cyclic)
			return 1;
	return has_call(a, 0, a->g->nins);
}

static int analyse(Ap *a, int need)
{
	a->g = cfg_build(a->f);
	if (!a->g || (!need && !has_loop_or_call(a)))
		return 0;
	if (need & (NEED_DEFS | NEED_RANGES))
		a->defs = defs_compute(a->g, liveness(a));
	if (need & NEED_RANGES) {
		names_of_func(&a->names, a->m, a->f);
		a->rs = ranges_compute(a->f, a->g, a->defs, &a->names);
	}
	places_of(&a->places, &a->f->body);
	a->uses = reguses_build(a->g);
	return 1;
}

static const Ins *ins_at(const Ap *a, uint32_t i)
{
	return &a->g->ins[i]->ins;
}

/* Where instruction i is: its statement NULL once a rewrite removed it. */
static Place *place_at(const Ap *a, uint32_t i)
{
	return place_of(&a->places, a->g->ins[i]);
}

/* The one definition of reg reaching ins, unguarded; else UINT32_MAX. */
static uint32_t unique_def(const Ap *a, uint32_t ins, const char *reg)
{
	uint32_t d;
	if (defs_reaching(a->defs, ins, reg, &d, 1) != 1 || d == DEF_ENTRY || ins_at(a, d)->guard)
		return UINT32_MAX;
	return d;
}

/* Instructions reading the register that def defines, where def is the
 * one definition reaching them; how many (MAX_USES + 1: more, or a read
 * that other definitions reach too). */
static uint32_t only_uses(const Ap *a, uint32_t def, const char *reg, uint32_t *out)
{
	uint32_t nreads, n = 0, reach[2];
	const uint32_t *reads = reguses_reads(a->uses, reg, &nreads);
	for (uint32_t i = 0; i < nreads; i++) {
		uint32_t k = defs_reaching(a->defs, reads[i], reg, reach, 2);
		if (k == 1 && reach[0] == def) {
			if (n == MAX_USES)
				return MAX_USES + 1;
			out[n++] = reads[i];
		} else if (k >= 1 && (reach[0] == def || (k > 1 && reach[1] == def)))
			return MAX_USES + 1;
		else if (k > 2)   /* def may be among the ones not returned */
			return MAX_USES + 1;
	}
	return n;
}

/* reg holds at b what it held at a (a before b, or a == b). */
static int same_value(const Ap *a, const char *reg, uint32_t from, uint32_t to)
{
	const Cfg *g = a->g;
	if (g->block_of[from] == g->block_of[to] && from <= to) {
		for (uint32_t i = from; i < to; i++) {
			RegAccess t = ins_reg_access(ins_at(a, i), reg);
			if (t.writes || t.may_write)
				return 0;
		}
		return 1;
	}
	uint32_t x = unique_def(a, from, reg);
	return x != UINT32_MAX && unique_def(a, to, reg) == x && !g->blocks[g->block_of[x]].cyclic;
}

static int reg_name(const Expr *e)
{
	return e->kind == E_NAME && e->str[0] == '%' && !is_special_reg(e->str);
}

static int is_int64(const Spelling *sp)
{
	int ty = sp->types[0];
	return sp->ntypes == 1 && (ty == TY_S64 || ty == TY_U64 || ty == TY_B64);
}

static int plain64(const Ins *in, int op, int extra_mod)
{
	const Spelling *sp = in->sp;
	return sp->code == op && !in->guard && is_int64(sp) && !sp->unknown &&
		sp->nmods == 1u + (extra_mod >= 0 && spelling_has(sp, extra_mod)) &&
		(extra_mod < 0 || spelling_has(sp, extra_mod));
}

/* A new register, declared before the body's first statement as it was
 * when the stage began (so the declarations keep their order). */
static const char *fresh_reg(Ap *a, const char *base, const char *type)
{
	return reg_new(a->m, &a->f->body, &a->names, a->first, base, type);
}

/* ---- narrow --------------------------------------------------------------- */

/* What each 64-bit candidate becomes: op (O_add, O_sub, O_mul, O_shr, O_and) on
 * 32-bit operands x and y; small when its value fits in 32 bits. */
typedef struct Plan {
	int op;
	Expr *x, *y;
	const char *narrow;   /* the 32-bit register that will hold its value */
	uint8_t candidate, small, narrow_users;
	uint8_t already_wide;  /* a mul.wide: rewritten only for 32-bit readers */
	uint32_t wide_users;  /* reads of its 64-bit result that stay */
} Plan;

typedef struct Narrow {
	Ap *a;
	Plan *plan;
	uint32_t *dropped;    /* per instruction: reads of its result no longer made */
} Narrow;

/* The 32-bit register that will hold candidate d's value, made when
 * first asked for. */
static const char *narrow_reg(Narrow *nw, uint32_t d)
{
	Plan *p = &nw->plan[d];
	if (!p->narrow)
		p->narrow = fresh_reg(nw->a, "%ap", ".reg .b32");
	return p->narrow;
}

static Expr planned;

/* The 32-bit value of a 64-bit operand at ins: a literal below 2^32, the
 * source of a zero-extending cvt (or a sign-extending one of a value
 * below 2^31), or a planned candidate's 32-bit register.  *def: the
 * definition replaced, or UINT32_MAX. */
static Expr *narrow_operand(Narrow *nw, uint32_t ins, Expr *e, uint32_t *def)
{
	Ap *a = nw->a;
	int64_t v;
	*def = UINT32_MAX;
	if (int_operand(e, &v))
		return v >= 0 && v <= (int64_t)UINT32_MAX ? int_expr(v) : NULL;
	if (!reg_name(e))
		return NULL;
	uint32_t d = unique_def(a, ins, e->str);
	if (d == UINT32_MAX)
		return NULL;
	*def = d;
	if (nw->plan[d].small)
		return &planned;   /* its register is made once the reader is planned too */
	const Ins *in = ins_at(a, d);
	const Spelling *sp = in->sp;
	if (sp->code != O_cvt || sp->ntypes != 2 || sp->nmods != 2 || ty_bits(sp->types[0]) != 64 ||
	    ty_bits(sp->types[1]) != 32 || (ty_flags(sp->types[1]) & TF_FLOAT) || !reg_name(in->ops[1]))
		return NULL;
	if (ty_signed(sp->types[1]) && range_of(a->rs, d, in->ops[1], 32).hi > INT32_MAX)
		return NULL;
	return same_value(a, in->ops[1]->str, d, ins) ? in->ops[1] : NULL;
}

/* The operation a 64-bit instruction performs, if a candidate. */
static int candidate_op(const Ins *in)
{
	if (in->nops != 3 || !reg_name(in->ops[0]))
		return 0;
	if (plain64(in, O_add, -1) || plain64(in, O_sub, -1))
		return in->sp->code;
	if (plain64(in, O_mul, MOD_lo))
		return O_mul;
	int64_t k;
	if (plain64(in, O_shl, -1) && int_operand(in->ops[2], &k) && k >= 0 && k <= 31)
		return O_shl;
	if (plain64(in, O_shr, -1) && in->sp->types[0] != TY_S64 && int_operand(in->ops[2], &k) &&
	    k >= 0 && k <= 31)
		return O_shr;
	if (plain64(in, O_and, -1))
		return O_and;
	return 0;
}

/* mul.wide.u32 d, x, y (or .s32 of non-negative values) whose product
 * fits in 32 bits: mul.lo.u32 gives it to a 32-bit reader. */
static void plan_wide(Narrow *nw, uint32_t i)
{
	Ap *a = nw->a;
	const Ins *in = ins_at(a, i);
	const Spelling *sp = in->sp;
	int ty = sp->types[0];
	if (sp->code != O_mul || !spelling_has(sp, MOD_wide) || in->guard || sp->nmods != 2 ||
	    (ty != TY_U32 && ty != TY_S32) || in->nops != 3 || !reg_name(in->ops[0]))
		return;
	if (ty == TY_S32 && (range_of(a->rs, i, in->ops[1], 32).hi > INT32_MAX ||
			     range_of(a->rs, i, in->ops[2], 32).hi > INT32_MAX))
		return;
	if (range_of_def(a->rs, i).hi > UINT32_MAX)
		return;
	Plan *p = &nw->plan[i];
	*p = (Plan){.op = O_mul, .x = in->ops[1], .y = in->ops[2], .small = 1, .already_wide = 1};
}

static void plan_one(Narrow *nw, uint32_t i)
{
	Ap *a = nw->a;
	const Ins *in = ins_at(a, i);
	int op = candidate_op(in);
	if (!op) {
		plan_wide(nw, i);
		return;
	}
	Plan *p = &nw->plan[i];
	uint32_t dx, dy = UINT32_MAX;
	p->x = narrow_operand(nw, i, in->ops[1], &dx);
	if (op == O_shl) {
		int64_t k;
		int_operand(in->ops[2], &k);
		p->y = int_expr(INT64_C(1) << k);   /* x << k is x * 2^k: mul.wide's form */
		op = O_mul;
	} else if (op == O_shr)
		p->y = in->ops[2];   /* a shift's amount is 32-bit already */
	else
		p->y = narrow_operand(nw, i, in->ops[2], &dy);
	if (!p->x || !p->y)
		return;
	p->op = op;
	p->candidate = 1;
	/* a 64-bit product of two 32-bit values is exact: mul.wide */
	p->small = (a->rewrites & ADDRPREP_NARROW) && range_of_def(a->rs, i).hi <= UINT32_MAX;
	if (!p->small && (op != O_mul || !(a->rewrites & ADDRPREP_WIDEN))) {
		p->candidate = 0;
		return;
	}
	if (p->x == &planned)
		p->x = name_expr(narrow_reg(nw, dx));
	if (p->y == &planned)
		p->y = name_expr(narrow_reg(nw, dy));
	/* dropped counts reading instructions, as only_uses does: x * x is one */
	if (dx != UINT32_MAX)
		nw->dropped[dx]++, nw->plan[dx].narrow_users++;
	if (dy != UINT32_MAX && dy != dx)
		nw->dropped[dy]++, nw->plan[dy].narrow_users++;
}

static const char *op32(int op)
{
	switch (op) {
	case O_add: return "add.u32";
	case O_sub: return "sub.u32";
	case O_shr: return "shr.u32";
	case O_and: return "and.b32";
	default: return "mul.lo.u32";
	}
}

/* Replaces candidate i: its 32-bit value into its register when a later
 * candidate reads it, and its 64-bit result when anything else does. */
static void emit_one(Narrow *nw, uint32_t i)
{
	Ap *a = nw->a;
	Plan *p = &nw->plan[i];
	Place *w = place_at(a, i);
	Expr *dst = w->s->ins.ops[0];
	int wide = p->wide_users > 0;
	if (p->already_wide) {
		if (!p->narrow_users)
			return;
		Expr *ops[3] = {name_expr(p->narrow), p->x, p->y};
		list_insert_before(w->in, w->s, ins_new(a->m, w->s->loc, op32(p->op), ops, 3));
		remark(a, w->s, "%s computed in 32 bits for its 32-bit readers", dst->str);
		if (!wide)
			place_remove(w);
		return;
	}
	if (p->narrow_users) {
		Expr *ops[3] = {name_expr(p->narrow), p->x, p->y};
		list_insert_before(w->in, w->s, ins_new(a->m, w->s->loc, op32(p->op), ops, 3));
		a->st.narrowed++;
		if (wide) {
			Expr *cv[2] = {dst, name_expr(p->narrow)};
			list_insert_before(w->in, w->s, ins_new(a->m, w->s->loc, "cvt.u64.u32", cv, 2));
		}
	} else if (p->op == O_mul) {
		Expr *ops[3] = {dst, p->x, p->y};
		list_insert_before(w->in, w->s, ins_new(a->m, w->s->loc, "mul.wide.u32", ops, 3));
		a->st.widened++;
	} else {
		const char *n = narrow_reg(nw, i);
		Expr *ops[3] = {name_expr(n), p->x, p->y}, *cv[2] = {dst, name_expr(n)};
		list_insert_before(w->in, w->s, ins_new(a->m, w->s->loc, op32(p->op), ops, 3));
		list_insert_before(w->in, w->s, ins_new(a->m, w->s->loc, "cvt.u64.u32", cv, 2));
		a->st.narrowed++;
	}
	remark(a, w->s, "%s %s", dst->str, p->narrow_users && !wide ? "computed in 32 bits" :
		p->narrow_users || p->op != O_mul ? "computed in 32 bits, widened once" :
		"is a product of 32-bit values: mul.wide");
	place_remove(w);
}

/* A zero-extension nothing reads any more goes. */
static void drop_unread(Narrow *nw, uint32_t i)
{
	Ap *a = nw->a;
	Place *w = place_at(a, i);
	if (!w->s || !nw->dropped[i] || w->s->ins.sp->code != O_cvt)
		return;
	uint32_t uses[MAX_USES];
	if (only_uses(a, i, w->s->ins.ops[0]->str, uses) != nw->dropped[i])
		return;
	place_remove(w);
	a->st.removed++;
}

static void narrow(Ap *a)
{
	uint32_t n = a->g->nins;
	Narrow nw = {a, xcalloc(n + 1, sizeof *nw.plan), xcalloc(n + 1, sizeof *nw.dropped)};
	for (uint32_t i = 0; i < n; i++)
		plan_one(&nw, i);
	uint32_t uses[MAX_USES];
	for (uint32_t i = 0; i < n; i++) {
		Plan *p = &nw.plan[i];
		if (!p->candidate && !p->already_wide)
			continue;
		uint32_t k = only_uses(a, i, ins_at(a, i)->ops[0]->str, uses);
		p->wide_users = k > MAX_USES || k < nw.dropped[i] ? 1 : k - nw.dropped[i];
	}
	for (uint32_t i = 0; i < n; i++)
		if (nw.plan[i].candidate || nw.plan[i].already_wide)
			emit_one(&nw, i);
	for (uint32_t i = 0; i < n; i++)
		drop_unread(&nw, i);
	free(nw.plan);
	free(nw.dropped);
}

/* ---- fold ----------------------------------------------------------------- */

/* add d, b, C (or C, b; or sub d, b, C): b and C, else 0. */
static int base_plus(const Ins *in, const char **b, int64_t *c)
{
	if ((!plain64(in, O_add, -1) && !plain64(in, O_sub, -1)) || in->nops != 3 || !reg_name(in->ops[0]))
		return 0;
	int k = int_operand(in->ops[2], c) ? 1 : in->sp->code == O_add && int_operand(in->ops[1], c) ? 2 : 0;
	if (!k || !reg_name(in->ops[k]))
		return 0;
	*b = in->ops[k]->str;
	if (in->sp->code == O_sub)
		*c = (int64_t)(0 - (uint64_t)*c);
	return 1;
}

/* Every operand of use that mentions d is an address [d] or [d+K] whose
 * K + c fits the instruction's signed 32-bit offset. */
static int folds_into(const Ins *use, const char *d, int64_t c)
{
	if (use->sp->unknown)   /* a spelling ptxlink does not read passes through as it is */
		return 0;
	for (uint32_t k = 0; k < use->nops; k++) {
		const char *name;
		int64_t off;
		if (!expr_mentions(use->ops[k], d))
			continue;
		if (!addr_name_off(use->ops[k], &name, &off) || name != d || off < INT32_MIN || off > INT32_MAX)
			return 0;
		if (off + c < INT32_MIN || off + c > INT32_MAX)
			return 0;
	}
	return 1;
}

static void fold_one(Ap *a, uint32_t i)
{
	const char *b;
	int64_t c;
	const Ins *in = ins_at(a, i);
	if (!base_plus(in, &b, &c) || c < INT32_MIN || c > INT32_MAX)
		return;
	const char *d = in->ops[0]->str;
	uint32_t uses[MAX_USES], n = only_uses(a, i, d, uses);
	if (n == 0 || n > MAX_USES)
		return;
	for (uint32_t u = 0; u < n; u++)
		if (!folds_into(ins_at(a, uses[u]), d, c) || !same_value(a, b, i, uses[u]))
			return;
	for (uint32_t u = 0; u < n; u++) {
		Ins *use = &place_at(a, uses[u])->s->ins;
		for (uint32_t k = 0; k < use->nops; k++) {
			const char *name;
			int64_t off;
			if (expr_mentions(use->ops[k], d) && addr_name_off(use->ops[k], &name, &off))
				use->ops[k] = expr_addr(a->m, name_expr(b), off + c);
		}
	}
	Place *w = place_at(a, i);
	remark(a, w->s, "%s+%lld folded into %u address%s", b, (long long)c, n, n == 1 ? "" : "es");
	place_remove(w);
	a->st.folded++;
}

static void fold(Ap *a)
{
	for (uint32_t i = 0; i < a->g->nins; i++)
		fold_one(a, i);
}

/* ---- sink ----------------------------------------------------------------- */

/* Integer arithmetic of an address, free of side effects, on literals,
 * symbols and registers (which must be written once: no special register,
 * whose value may differ elsewhere, like %clock's).  add.cc and the like
 * write the carry that the next addc reads: they stay. */
static int sinkable(const Ins *in)
{
	int op = in->sp->code;
	if (!(op == O_add || op == O_sub || op == O_mul || op == O_mad || op == O_shl || op == O_cvt ||
	      op == O_cvta) || in->guard || in->nops < 2 || in->sp->unknown || in->ops[0]->kind != E_NAME ||
	    spelling_has(in->sp, MOD_cc) ||
	    (in->sp->ntypes && (ty_flags(in->sp->types[0]) & (TF_FLOAT | TF_PAIR))))
		return 0;
	for (uint32_t k = 1; k < in->nops; k++) {
		int64_t v;
		const Expr *e = in->ops[k];
		if (!int_operand(e, &v) && e->kind != E_NAME)   /* registers: fixed_from says */
			return 0;
	}
	return 1;
}

static int has_call(const Ap *a, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++)
		if (ins_at(a, i)->sp->op && (ins_at(a, i)->sp->op->flags & OF_CALL))
			return 1;
	return 0;
}

/* Whether something lies between i and first that a value live from one
 * to the other is kept across at a cost: a call after i in its block or
 * before first in its own, or a block between them in reverse postorder
 * that is on a cycle or calls.  (Between in reverse postorder covers
 * every block on a path from one to the other in a reducible CFG, and
 * perhaps others: this is a question of profit only.) */
static int costly_between(const Ap *a, uint32_t i, uint32_t first)
{
	const Cfg *g = a->g;
	uint32_t from = g->block_of[i], to = g->block_of[first];
	if (has_call(a, i + 1, from == to ? first : g->blocks[from].end) ||
	    (from != to && has_call(a, g->blocks[to].first, first)))
		return 1;
	for (uint32_t r = g->blocks[from].rpo + 1; r < g->blocks[to].rpo; r++) {
		const Block *b = &g->blocks[g->order[r]];
		if (b->cyclic || has_call(a, b->first, b->end))
			return 1;
	}
	return 0;
}

/* The first of reads (ascending, n of them) at or after at; n if none. */
static uint32_t first_from(const uint32_t *reads, uint32_t n, uint32_t at)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (reads[mid] < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether reg is read at or after instruction at before it is written:
 * moving a computation of it there keeps it alive no longer.  The first
 * access in at's block is asked of the register's reads and its one write
 * (or none), not found by walking the block: a block of n calls would be
 * walked once for each of its n computations. */
static int live_at(Ap *a, const char *reg, uint32_t at)
{
	const Block *b = &a->g->blocks[a->g->block_of[at]];
	uint32_t n, def = UINT32_MAX;
	const uint32_t *reads = reguses_reads(a->uses, reg, &n);
	uint32_t nw = reguses_writes(a->uses, reg, &def);
	if (nw == 0)
		def = UINT32_MAX;
	if (nw > 1) {
		for (uint32_t i = at; i < b->end; i++) {
			RegAccess t = ins_reg_access(ins_at(a, i), reg);
			if (t.reads || t.writes || t.may_write)
				return t.reads;
		}
		return live_out(liveness(a), a->g->block_of[at], reg);
	}
	uint32_t k = first_from(reads, n, at), r = k < n ? reads[k] : UINT32_MAX;
	if (r < b->end && (def < at || r <= def))
		return 1;      /* read first (an instruction reading and writing it reads) */
	if (def >= at && def < b->end)
		return 0;      /* written first */
	return live_out(liveness(a), a->g->block_of[at], reg);
}

/* reg, written once (at X, which dominates i and runs at most once per
 * call), holds at first what it held at i. */
static int fixed_from(const Ap *a, const char *reg, uint32_t i)
{
	uint32_t def;
	if (reguses_writes(a->uses, reg, &def) != 1 || ins_at(a, def)->guard)
		return 0;
	const Cfg *g = a->g;
	uint32_t x = g->block_of[def], b = g->block_of[i];
	return !g->blocks[x].cyclic && (x == b ? def < i : cfg_dominates(g, x, b));
}

/* Where i goes: the first of its uses, all in one block it dominates (or
 * after a call in its own), where its operands are live anyway;
 * UINT32_MAX when it stays.  Only registers written once are moved or
 * read: i is then the one definition every use sees. */
static uint32_t sink_target(Ap *a, uint32_t i)
{
	const Ins *in = ins_at(a, i);
	if (!sinkable(in))
		return UINT32_MAX;
	const Cfg *g = a->g;
	uint32_t def, n;
	const uint32_t *reads = reguses_reads(a->uses, in->ops[0]->str, &n);
	if (reguses_writes(a->uses, in->ops[0]->str, &def) != 1 || n == 0)
		return UINT32_MAX;
	uint32_t to = g->block_of[reads[0]], first = reads[0];
	for (uint32_t k = 1; k < n; k++)
		if (g->block_of[reads[k]] != to)
			return UINT32_MAX;
	if (to == g->block_of[i] ? first < i || !has_call(a, i + 1, first) :
	    !cfg_dominates(g, g->block_of[i], to))
		return UINT32_MAX;
	/* into a loop it would run on every trip: ptxas hoists it back out,
	 * or keeps both values (measured: more spills) */
	if ((g->blocks[to].cyclic && to != g->block_of[i]) || !costly_between(a, i, first))
		return UINT32_MAX;
	for (uint32_t k = 1; k < in->nops; k++)
		if (in->ops[k]->kind == E_NAME && in->ops[k]->str[0] == '%' &&
		    (!fixed_from(a, in->ops[k]->str, i) || !live_at(a, in->ops[k]->str, first)))
			return UINT32_MAX;
	return first;
}

static int sink_once(Ap *a)
{
	uint32_t n = a->g->nins, *to = xmalloc((n + 1) * sizeof *to);
	uint32_t moved = 0;
	for (uint32_t i = 0; i < n; i++)
		to[i] = sink_target(a, i);
	for (uint32_t i = 0; i < n; i++) {
		if (to[i] == UINT32_MAX)
			continue;
		Place *w = place_at(a, i), *use = place_at(a, to[i]);
		remark(a, w->s, "%s sunk to line %u, next to its use", w->s->ins.ops[0]->str, use->s->loc.line);
		place_move_before(w, use);   /* a later move before w->s finds it in its new list */
		a->st.sunk++;
		moved++;
	}
	free(to);
	return moved;
}

/* A computation sunk lets what it read sink after it: again, until
 * nothing moves (a bounded number of times). */
static void sink(Ap *a)
{
	for (int round = 0; round < 8 && sink_once(a); round++) {
		forget(a);
		if (!analyse(a, 0))
			return;
	}
}

/* ---- the stage ------------------------------------------------------------ */

typedef void Rewrite(Ap *);

static void addrprep_func(Ap *a)
{
	static Rewrite *const rewrites[] = {narrow, fold, sink};
	static const unsigned bits[] = {ADDRPREP_NARROW | ADDRPREP_WIDEN, ADDRPREP_FOLD, ADDRPREP_SINK};
	static const int needs[] = {NEED_DEFS | NEED_RANGES, NEED_DEFS, 0};
	/* A register declared again in a nested scope is two registers with
	 * one name; every analysis here goes by name. */
	if (names_shadowed(a->f))
		return;
	a->st.funcs++;
	a->src = a->o->addrprep.remarks ? srclines_build(a->m, a->f) : NULL;
	for (size_t k = 0; k < sizeof rewrites / sizeof *rewrites; k++) {
		if (!(a->rewrites & bits[k]))
			continue;
		if (analyse(a, needs[k]))
			rewrites[k](a);
		forget(a);
	}
	srclines_free(a->src);
	a->src = NULL;
}

static void print_stats(const Stats *s, unsigned rewrites)
{
	static const char *const names[] = {"narrow", "widen", "fold", "sink"};
	char list[64] = "";
	for (unsigned k = 0; k < 4; k++)
		if (rewrites & (1u << k))
			strcat(strcat(list, " "), names[k]);
	diag_note("addrprep: %u functions, rewrites:%s", s->funcs, list);
	if (rewrites & (ADDRPREP_NARROW | ADDRPREP_WIDEN))
		diag_note("addrprep:   %u values computed in 32 bits, %u products made mul.wide, "
			"%u zero-extensions removed", s->narrowed, s->widened, s->removed);
	if (rewrites & ADDRPREP_FOLD)
		diag_note("addrprep:   %u offsets folded into addresses", s->folded);
	if (rewrites & ADDRPREP_SINK)
		diag_note("addrprep:   %u computations sunk", s->sunk);
}

void addrprep(Module *m, const StageOptions *o)
{
	if (o->addrprep.off)
		return;
	Ap a = {.m = m, .o = o, .rewrites = o->addrprep.rewrites ? o->addrprep.rewrites : ADDRPREP_DEFAULT};
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body && s->func->body.head) {
			a.f = s->func;
			a.first = s->func->body.head;
			addrprep_func(&a);
		}
	if (o->stats && a.st.funcs)
		print_stats(&a.st, a.rewrites);
}
