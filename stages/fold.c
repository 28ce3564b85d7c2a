/* fold.c: branches whose predicate value ranges decide, folded, and the
 * code they leave unreachable removed (issue 33).
 *
 * NVVM inlines libdevice's sinf, cosf, sincosf and tanf with a fast path
 * and, behind `setp.ltu.f32 %p, |x|, 0f47CE4780` (105615), a Payne-Hanek
 * reduction that fills a 28-byte local array.  Where x is known to be
 * small (`(float)(h & 255u) * 0.25f`) the slow path never runs, yet its
 * array costs the function a stack frame: NVVM has no float value ranges
 * to see that, and ptxas keeps local memory it cannot prove dead.  Here:
 *
 *   - an unguarded two-operand setp (no second predicate, no boolean
 *     operation) whose operands' ranges (ir/frange.c for floats, range.c
 *     for integers) give one answer for every value they can hold is a
 *     constant.  NaN is minded: an ordered comparison is false on NaN, an
 *     unordered one true, so a compare is decided only where the NaN case
 *     agrees with every other;
 *   - `@%p bra L` (or `@!%p`) where every definition of %p reaching it is
 *     such a setp with one answer becomes `bra L` or goes;
 *   - the blocks no longer reachable from the entry go, with their labels
 *     and .loc lines, unless something other than code names a label in
 *     them (a .branchtargets list, section data such as -G's DWARF): then
 *     the function keeps its code and only its branches change.
 * Registers, declarations and the depot are the later stages' (depot
 * drops a depot nothing accesses any more).  A function is done again
 * while a round removes code: a join the dead side no longer reaches may
 * narrow a range.
 *
 * requires: normalized IR / maintains: the module's symbols / breaks:
 * any CFG or analysis of the functions it changes. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include "stages.h"

enum { MAX_REACHING = 8, MAX_ROUNDS = 4 };

/* --stats, summed over the module: counted, never read to decide */
typedef struct Stats {
	unsigned funcs, taken, never, removed;
} Stats;

typedef struct Fd {
	const StageOptions *o;
	Func *f;
	Names names;      /* the registers' types, for range.c */
	Cfg *g;
	Live *live;
	Defs *defs;
	Ranges *rs;
	int shadowed;     /* names_shadowed(f), once asked: -1 not yet */
	char why[200];    /* the last decided compare, for its remark */
} Fd;

/* ---- deciding a compare ---------------------------------------------------- */

/* An operand and its range, as a remark says it: a float literal by its
 * value (0f47CE4780 is 105615), an integer one as written. */
static int say(char *out, size_t n, const Expr *e, double lo, double hi, int nan)
{
	int neg = e->kind == E_UNARY && e->op == '-';
	const Expr *num = neg ? e->kids[0] : e;
	int64_t v;
	if (num->kind == E_NUM && int_operand(e, &v))
		return snprintf(out, n, "%lld", (long long)v);
	if (e->kind != E_NAME)
		return snprintf(out, n, "%.9g", lo);
	return snprintf(out, n, "%s in [%.9g, %.9g]%s", e->str, lo, hi, nan ? " or NaN" : "");
}

static void explain(Fd *d, const Ins *in, FRange a, FRange b)
{
	char x[80], y[80];
	say(x, sizeof x, in->ops[1], a.lo, a.hi, a.nan);
	say(y, sizeof y, in->ops[2], b.lo, b.hi, b.nan);
	snprintf(d->why, sizeof d->why, "%s compares %s with %s", in->sp->text, x, y);
}

/* a cmp b for every pair of non-NaN values of a and b: 1, 0, or -1 when
 * the values disagree.  cmp is the ordered form (lt for ltu). */
static int every_pair(double alo, double ahi, double blo, double bhi, int cmp)
{
	switch (cmp) {
	case CMP_EQ:
		return alo == ahi && blo == bhi && alo == blo ? 1 : ahi < blo || bhi < alo ? 0 : -1;
	case CMP_NE:
		return alo == ahi && blo == bhi && alo == blo ? 0 : ahi < blo || bhi < alo ? 1 : -1;
	case CMP_LT:
		return ahi < blo ? 1 : alo >= bhi ? 0 : -1;
	case CMP_LE:
		return ahi <= blo ? 1 : alo > bhi ? 0 : -1;
	case CMP_GT:
		return alo > bhi ? 1 : ahi <= blo ? 0 : -1;
	case CMP_GE:
		return alo >= bhi ? 1 : ahi < blo ? 0 : -1;
	}
	return -1;
}

static int ordered_of(int cmp)
{
	switch (cmp) {
	case CMP_EQU: return CMP_EQ;
	case CMP_NEU: return CMP_NE;
	case CMP_LTU: return CMP_LT;
	case CMP_LEU: return CMP_LE;
	case CMP_GTU: return CMP_GT;
	case CMP_GEU: return CMP_GE;
	}
	return cmp;
}

/* A float compare of a and b: what it gives for every value they hold. */
static int decide_float(int cmp, FRange a, FRange b)
{
	int nan = a.nan || b.nan;
	if (cmp == CMP_NUM || cmp == CMP_NAN)
		return nan ? -1 : cmp == CMP_NUM;
	int unordered = ordered_of(cmp) != cmp;
	int v = every_pair(a.lo, a.hi, b.lo, b.hi, ordered_of(cmp));
	if (nan && v != unordered)
		return -1;   /* NaN gives unordered: the others must agree */
	return v;
}

/* An integer range as an order-keeping unsigned one: a signed value
 * biased by its sign bit, or the whole width where it may have either
 * sign. */
static Range ordered_int(Range r, int bits, int sign)
{
	uint64_t top = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1, sb = UINT64_C(1) << (bits - 1);
	if (!sign)
		return r;
	if ((r.lo < sb) != (r.hi < sb))
		return (Range){0, top};
	return (Range){r.lo ^ sb, r.hi ^ sb};
}

static int decide_int(int cmp, Range a, Range b)
{
	switch (cmp) {
	case CMP_EQ:
	case CMP_NE: {
		int v = a.lo == a.hi && b.lo == b.hi && a.lo == b.lo ? 1 : a.hi < b.lo || b.hi < a.lo ? 0 : -1;
		return v < 0 ? v : cmp == CMP_EQ ? v : !v;
	}
	case CMP_LT: case CMP_LO: return a.hi < b.lo ? 1 : a.lo >= b.hi ? 0 : -1;
	case CMP_LE: case CMP_LS: return a.hi <= b.lo ? 1 : a.lo > b.hi ? 0 : -1;
	case CMP_GT: case CMP_HI: return a.lo > b.hi ? 1 : a.hi <= b.lo ? 0 : -1;
	case CMP_GE: case CMP_HS: return a.lo >= b.hi ? 1 : a.hi < b.lo ? 0 : -1;
	}
	return -1;
}

/* What setp i writes for every value its operands hold: 1, 0, or -1. */
static int decide(Fd *d, uint32_t i)
{
	const Ins *in = &d->g->ins[i]->ins;
	const Spelling *sp = in->sp;
	int ty = sp->ntypes == 1 ? sp->types[0] : TY_NONE, ftz = spelling_has(sp, MOD_ftz);
	if (sp->code != O_setp || in->guard || in->nops != 3 || in->ops[0]->kind != E_NAME ||
	    sp->unknown || sp->nmods != 2u + ftz || ty == TY_NONE)
		return -1;
	int bits = ty_bits(ty);
	if (ty == TY_F32 || ty == TY_F64) {
		FRange a = frange_of(d->rs, i, in->ops[1], bits), b = frange_of(d->rs, i, in->ops[2], bits);
		if (ftz)   /* a subnormal operand compares as zero */
			a.lo -= FLT_MIN, a.hi += FLT_MIN, b.lo -= FLT_MIN, b.hi += FLT_MIN;
		int v = decide_float(sp->cmp, a, b);
		if (v >= 0)
			explain(d, in, a, b);
		return v;
	}
	int flags = ty_flags(ty);
	if ((flags & (TF_FLOAT | TF_PAIR)) || bits < 16 || bits > 64 ||
	    ((flags & TF_BITS) && sp->cmp != CMP_EQ && sp->cmp != CMP_NE))
		return -1;
	int sign = ty_signed(ty);
	Range a = range_of(d->rs, i, in->ops[1], bits), b = range_of(d->rs, i, in->ops[2], bits);
	int v = decide_int(sp->cmp, ordered_int(a, bits, sign), ordered_int(b, bits, sign));
	if (v >= 0)
		explain(d, in, (FRange){(double)a.lo, (double)a.hi, 0}, (FRange){(double)b.lo, (double)b.hi, 0});
	return v;
}

/* The write of predicate p before branch j in its block, when there is
 * one and it is certain (unguarded): then it alone reaches j, whatever
 * else writes p (a predicate register used again for each test). */
static uint32_t setp_before(const Cfg *g, uint32_t j, const char *p, uint32_t *def)
{
	for (uint32_t k = j; k-- > g->blocks[g->block_of[j]].first;) {
		RegAccess a = ins_reg_access(&g->ins[k]->ins, p);
		if (a.writes || a.may_write) {
			*def = k;
			return a.writes && !a.may_write && !g->ins[k]->ins.guard;
		}
	}
	return 0;
}

/* Whether guarded branch j goes to its label: 1, 0, or -1 when not
 * decided (every definition of its predicate reaching it a setp that
 * gives one answer, the same). */
static int branch_decided(Fd *d, uint32_t j)
{
	const Ins *in = &d->g->ins[j]->ins;
	uint32_t defs[MAX_REACHING];
	uint32_t n = setp_before(d->g, j, in->guard, defs);
	if (!n)
		n = defs_reaching(d->defs, j, in->guard, defs, MAX_REACHING);
	int v = -1;
	if (n == 0 || n > MAX_REACHING)
		return -1;
	for (uint32_t k = 0; k < n; k++) {
		int w = defs[k] == DEF_ENTRY ? -1 : decide(d, defs[k]);
		if (w < 0 || (k && w != v))
			return -1;
		v = w;
	}
	return v ^ in->guard_neg;
}

/* ---- the rewrite ----------------------------------------------------------- */

/* Each guarded branch decided: made unconditional or removed.  How many
 * changed. */
static unsigned fold_branches(Fd *d, Places *pl, Stats *st)
{
	unsigned changed = 0;
	for (uint32_t j = 0; j < d->g->nins; j++) {
		Stmt *s = d->g->ins[j];
		if (s->ins.sp->code != O_bra || !s->ins.guard)
			continue;
		int taken = branch_decided(d, j);
		if (taken < 0)
			continue;
		if (d->o->fold.remarks)
			diag_remark(s->loc, "%s: branch to %s %s: %s", quoted_name(d->f->name),
				s->ins.ops[0]->kind == E_NAME ? s->ins.ops[0]->str : "?",
				taken ? "always taken" : "never taken", d->why);
		if (taken) {
			s->ins.sp = spelling_of(intern_cstr("bra.uni"));
			s->ins.guard = NULL;
			s->ins.guard_neg = 0;
			st->taken++;
		} else {
			place_remove(place_of(pl, s));
			st->never++;
		}
		changed++;
	}
	return changed;
}

static void release(Fd *d)
{
	ranges_free(d->rs);
	defs_free(d->defs);
	live_free(d->live);
	cfg_free(d->g);
	d->rs = NULL, d->defs = NULL, d->live = NULL, d->g = NULL;
}

/* Whether f has a guarded branch at all: else nothing is analysed. */
static int has_guarded_branch(const Cfg *g)
{
	for (uint32_t j = 0; j < g->nins; j++)
		if (g->ins[j]->ins.sp->code == O_bra && g->ins[j]->ins.guard)
			return 1;
	return 0;
}

static void ranges_on(Fd *d, Defs *defs)
{
	d->defs = defs;
	d->rs = ranges_compute(d->f, d->g, d->defs, &d->names);
}

static void ranges_off(Fd *d)
{
	ranges_free(d->rs);
	defs_free(d->defs);
	d->rs = NULL, d->defs = NULL;
}

/* A first look with every write of a register taken to reach each read
 * (ir/defs.c:defs_writers): liveness and reaching definitions of every
 * function were most of the stage's time (on the CUB file 340 ms of
 * 440), and few functions have a branch to fold.  In code that writes
 * each register once, before its reads (NVVM's, but for a loop's
 * registers, whose counters range.c bounds either way), it decides what
 * the real analysis does; a function it finds nothing in is left. */
static int worth_analysing(Fd *d)
{
	int found = 0;
	ranges_on(d, defs_writers(d->g));
	for (uint32_t j = 0; j < d->g->nins && !found; j++)
		found = d->g->ins[j]->ins.sp->code == O_bra && d->g->ins[j]->ins.guard &&
			branch_decided(d, j) >= 0;
	ranges_off(d);
	return found;
}

/* One round over f: its decided branches folded, then its dead code
 * removed.  Whether code went (another round may find more). */
static int fold_round(Fd *d, const Names *sections, Stats *st, int *changed)
{
	if (!(d->g = cfg_build(d->f)) || !has_guarded_branch(d->g) || !worth_analysing(d)) {
		release(d);
		return 0;
	}
	if (d->shadowed < 0)   /* asked only here: its walk is not linear in scopes */
		d->shadowed = names_shadowed(d->f);
	if (d->shadowed) {   /* a register's width would be one scope's */
		release(d);
		return 0;
	}
	d->live = live_compute(d->g);
	ranges_on(d, defs_compute(d->g, d->live));
	Places pl = {0};
	places_of(&pl, &d->f->body);
	unsigned n = fold_branches(d, &pl, st);
	places_free(&pl);
	release(d);
	if (!n)
		return 0;
	*changed = 1;
	if (!(d->g = cfg_build(d->f)))
		return 0;
	uint32_t dead = cfg_dead_size(d->g, d->f, sections);
	if (dead)
		cfg_drop_dead(d->g, d->f);
	st->removed += dead;
	release(d);
	return dead != 0;
}

static void fold_func(const StageOptions *o, Func *f, const Names *module, const Names *sections,
	Stats *st)
{
	Fd d = {.o = o, .f = f, .shadowed = -1};
	names_in_module(&d.names, module, f);
	int changed = 0;
	for (int round = 0; round < MAX_ROUNDS && fold_round(&d, sections, st, &changed); round++)
		;
	st->funcs += changed;
	names_free(&d.names);
}

void fold_by_ranges(Module *m, const StageOptions *o)
{
	if (o->fold.off)
		return;
	Stats st = {0};
	Names module = {0}, sections = {0};
	names_of_module(&module, m);
	names_of_sections(&sections, m);
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body)
			fold_func(o, s->func, &module, &sections, &st);
	names_free(&module);
	names_free(&sections);
	if (o->stats && st.taken + st.never)   /* only where a branch folded: most modules have none */
		diag_note("fold: %u functions changed: %u branches always taken, %u never taken, "
			"%u unreachable instructions removed", st.funcs, st.taken, st.never, st.removed);
}
