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
 * passed, returned or compared) makes the object escape; a chain of
 * definitions deeper than the walk follows makes the whole answer partial
 * (MemObjs.partial), for a stage to move nothing.  A register whose
 * reaching definitions (or a selp's two values) are each an exact place
 * in one object, formed through an anchor, is one of those places (a
 * few: MAX_CANDS), which an access through it lists (MemAccess.cand).  With
 * memobjs_build_lent, an address stored only into .params that calls of
 * the toolchain's reading functions take (vprintf's format and buffer,
 * ir/runtime.c), or of the module's functions that only load and store
 * through it (borrowers_args), does not escape: each such call reads
 * (and may write) the object (a lent access), and nothing holds the
 * address after it.
 *
 * Along the way each address remembers its anchor (where a constant was
 * first added to the object's start), whether it went through cvta.local
 * (generic), and its base (the constant offset when a run-time amount was
 * first added); ir.h says what stages do with them.
 *
 * The same walk answers what a callee does with a pointer parameter
 * (param_offsets_constant, param_stored_indexed): what the pointer points
 * to is followed as an object whose start is each value ld.param reads
 * from the parameter.  Only the inliner asks today; they stay here, beside
 * the walk they share, for the second stage to ask (devirtualization's
 * cost of a funnel). */
#include <stdlib.h>
#include <string.h>
#include "ir.h"
#include "ptrhash.h"

/* What an operand's value is.  A_CYCLE: the definition being evaluated,
 * reached again around a loop; neutral where definitions merge, so that a
 * pointer stepped through an array stays that array's (an inexact offset).
 * A value found to be A_CYCLE holds only while that definition (cyc) is
 * being evaluated: asked again after, it is found again (value_of_def). */
enum { A_NONE, A_OBJ, A_UNKNOWN, A_CYCLE };

typedef struct Addr {
	int kind;
	int obj;
	int64_t off;
	int var;        /* plus a run-time amount */
	int root;       /* the object's start, before any anchor */
	int generic;    /* went through cvta.local */
	int base_known;
	int64_t base;   /* with var: the offset when the run-time amount came */
	int anchor;     /* MemObjs.anchors index, ANCHOR_NONE, ANCHOR_MANY */
	int data;       /* with var: the amount comes from data (see MemAccess) */
	int indexed;    /* with var: a value not constant was added (a[j]), not
	                 * only constants stepped around a loop */
	int bounded;    /* with var: the run-time amount is 0 .. spread, proven
	                 * (a pointer stepped around a counted loop: stepped()) */
	int64_t spread;
	uint32_t cyc;   /* A_CYCLE: the definition reached again */
	uint32_t cand, ncand;   /* ncand > 0: one of several exact places (a phi or
	                         * selp of them), MemObjs.cands[cand ..], each plus off */
	int far;        /* no address: one of the function's own parameters plus amounts
	                 * that are no address, the caller's memory (far()) */
} Addr;

/* Past this many places an address merged from several is not followed. */
enum { MAX_CANDS = 8 };

/* Offsets wrap as the machine's addresses do; C's signed overflow would not. */
static int64_t wrap_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t wrap_neg(int64_t a)
{
	return (int64_t)(0 - (uint64_t)a);
}

static Addr none(int64_t k, int var)
{
	return (Addr){.kind = A_NONE, .obj = -1, .off = k, .var = var, .anchor = ANCHOR_NONE};
}

/* A run-time value that no unrolling makes a constant: loaded, a
 * parameter, a special register, or computed from one. */
static Addr data(void)
{
	Addr a = none(0, 1);
	a.data = 1;
	return a;
}

static Addr unknown(void)
{
	return (Addr){.kind = A_UNKNOWN, .obj = -1, .anchor = ANCHOR_NONE};
}

static Addr cycle(uint32_t at)
{
	return (Addr){.kind = A_CYCLE, .obj = -1, .var = 1, .anchor = ANCHOR_NONE, .cyc = at};
}

/* Object obj's start. */
static Addr root(int obj)
{
	return (Addr){.kind = A_OBJ, .obj = obj, .root = 1, .base_known = 1, .anchor = ANCHOR_NONE};
}

/* A store into a .param and a call that reads through what it stored
 * (runtime_reads_only): one per such pair, so a call taking two .params
 * has two, and so has a .param stored in two places. */
typedef struct Lend {
	const Stmt *store, *call;
	uint32_t store_ins, call_ins;
	int reach;          /* the callee touches lo .. hi from the address, no more */
	int64_t lo, hi;
	unsigned how;       /* USE_READ, and USE_WRITE if it may store; 0: the toolchain's */
	int widest;         /* without reach: the callee's widest access through it, and
	                     * lo .. hi the bytes it surely touches (none: lo == hi) */
} Lend;

/* The lends of a function, by call_ins once placed. */
typedef struct Lends {
	Lend *v;
	uint32_t n, cap;
	uint8_t *lent;   /* per instruction: a store of theirs (its value goes nowhere else) */
} Lends;

typedef struct Walker {
	MemObjs *mo;
	const Cfg *cfg;
	const Defs *defs;
	const Live *live;
	Addr *memo;      /* per instruction: the value it defines (first def) */
	uint8_t *state;  /* 0 not yet, 1 in progress, 2 done */
	uint64_t evals;  /* value_of_def's work, bounded (EVALS_PER_INS) */
	const char *param;   /* a pointer parameter whose ld.params give object 0's start */
	const Lends *lends;  /* memobjs_build_lent's, or NULL */
	const Func *f;       /* whose own depot: its parameters are far(); NULL in param mode */
	int deep;            /* a chain went past the depth followed: some values unknown */
	int diffs;           /* memobjs_build_reads: a difference of two addresses is a number */
} Walker;

static int find_obj(const MemObjs *mo, const char *name)
{
	for (uint32_t i = 0; i < mo->nobjs; i++)
		if (mo->objs[i].name == name)
			return (int)i;
	return -1;
}

static int base_known(Addr a)
{
	return a.root || !a.var || a.base_known;
}

/* Where only C's promise (an address stays inside its array) places a
 * stepped pointer, forget where it started: as before stepped(). */
static Addr unbound(Addr a)
{
	if (a.bounded)
		a.bounded = 0, a.base_known = 0;
	return a;
}

static int64_t base_of(Addr a)
{
	return a.root ? 0 : a.var ? a.base : a.off;
}

static void escape_at(MemObjs *mo, int obj, int known, int64_t base, int anchor)
{
	mo->objs[obj].escapes = 1;
	mo->esc = array_grow(mo->esc, mo->nesc, &mo->cesc, sizeof *mo->esc);
	mo->esc[mo->nesc++] = (MemEscape){.obj = obj, .base_known = known, .base = base, .anchor = anchor};
}

/* One of several places escapes: each of them does. */
static void escape(Walker *w, Addr a)
{
	if (a.kind != A_OBJ)
		return;
	a = unbound(a);
	for (uint32_t i = 0; i < a.ncand; i++) {
		const MemCand *c = &w->mo->cands[a.cand + i];
		escape_at(w->mo, a.obj, 1, wrap_add(c->off, a.off), c->anchor);
	}
	if (!a.ncand)
		escape_at(w->mo, a.obj, base_known(a), base_of(a), a.anchor);
}

static int new_anchor(Walker *w, uint32_t ins, uint32_t op, int64_t off, int fixed)
{
	MemObjs *mo = w->mo;
	mo->anchors = array_grow(mo->anchors, mo->nanchors, &mo->canchors, sizeof *mo->anchors);
	mo->anchors[mo->nanchors] = (MemAnchor){.at = w->cfg->ins[ins], .op = op, .off = off, .fixed = fixed};
	return (int)mo->nanchors++;
}

/* The register in loads from [param+C] (ld.param), or NULL. */
static const char *param_load(const Ins *in, const char *param)
{
	const char *name;
	int64_t off;
	if (in->nops == 2 && ins_space(in) == SPACE_PARAM && ins_reads_memory(in) &&
	    addr_name_off(in->ops[1], &name, &off) && name == param && in->ops[0]->kind == E_NAME)
		return in->ops[0]->str;
	return NULL;
}

static Addr value_of_def(Walker *w, uint32_t ins, int depth);

/* Does in load one of the function's own parameters?  Such a value was
 * the caller's before this call's frame existed: a .local address in it
 * is the caller's memory (with an index added, still inside the caller's
 * object, as C promises), never this frame's depot.  Trusted only of PTX
 * NVVM or LLVM wrote (Func.layout_kept): a hand-written caller may hand
 * on an address below its own frame, where the callee's will be. */
static int far(const Walker *w, const Ins *in)
{
	const char *name;
	int64_t off;
	if (!w->f || !w->f->layout_kept || in->nops != 2 || ins_space(in) != SPACE_PARAM ||
	    !ins_reads_memory(in) || !addr_name_off(in->ops[1], &name, &off))
		return 0;
	for (uint32_t i = 0; i < w->f->nparams; i++)
		for (uint32_t k = 0; k < w->f->params[i].nds; k++)
			if (w->f->params[i].ds[k].name == name)
				return 1;
	return 0;
}

static int add_cand(MemObjs *mo, uint32_t first, int anchor, int64_t off)
{
	for (uint32_t i = first; i < mo->ncands; i++)
		if (mo->cands[i].anchor == anchor && mo->cands[i].off == off)
			return 1;
	if (mo->ncands - first == MAX_CANDS)
		return 0;
	mo->cands = array_grow(mo->cands, mo->ncands, &mo->ccands, sizeof *mo->cands);
	mo->cands[mo->ncands++] = (MemCand){anchor, off};
	return 1;
}

/* Addresses of one object, each at an exact offset through an anchor
 * (or one of several such), merged: one of those places, as long as
 * there are a few.  *r gets them; 0 when some is not such a place. */
static int places(Walker *w, const Addr *a, uint32_t n, Addr *r)
{
	MemObjs *mo = w->mo;
	uint32_t first = mo->ncands, generic = 0, dat = 0;
	for (uint32_t i = 0; i < n; i++) {
		int ok = a[i].kind == A_OBJ;
		for (uint32_t k = 0; ok && k < a[i].ncand; k++) {
			const MemCand c = mo->cands[a[i].cand + k];
			ok = add_cand(mo, first, c.anchor, wrap_add(c.off, a[i].off));
		}
		if (ok && !a[i].ncand)
			ok = !a[i].var && !a[i].root && a[i].anchor >= 0 &&
				add_cand(mo, first, a[i].anchor, a[i].off);
		if (!ok || a[i].obj != a[0].obj) {
			mo->ncands = first;
			return 0;
		}
		generic |= (uint32_t)a[i].generic;
		dat |= (uint32_t)a[i].data;
	}
	*r = (Addr){.kind = A_OBJ, .obj = a[0].obj, .var = 1, .generic = (int)generic,
		.anchor = ANCHOR_MANY, .data = (int)dat, .cand = first, .ncand = mo->ncands - first};
	return 1;
}

/* Several definitions reach: one object's address if every one is that
 * object's or the loop's own, no address if none is; else not followed.
 * The merged address keeps what all agree on: an exact offset, a base (not
 * around a loop, where a pointer steps), an anchor; or, each an exact place
 * through an anchor, one of those places (places()). */
static Addr merge(Walker *w, const Addr *a, uint32_t n)
{
	int obj = -1, none_seen = 0, other = 0, cyc = 0, dat = 0;
	for (uint32_t i = 0; i < n; i++)
		dat |= a[i].data;
	for (uint32_t i = 0; i < n; i++)
		if (a[i].kind == A_OBJ && (obj < 0 || obj == a[i].obj))
			obj = a[i].obj;
		else if (a[i].kind == A_NONE)
			none_seen = 1;
		else if (a[i].kind == A_CYCLE)
			cyc = 1;
		else
			other = 1;
	if (obj < 0 && !other)
		return dat ? data() : none(0, 1);
	if (obj < 0 || none_seen || other) {
		for (uint32_t i = 0; i < n; i++)
			escape(w, a[i]);
		return unknown();
	}
	Addr several = {0};
	if (!cyc && places(w, a, n, &several) && several.ncand > 1)
		return several;
	if (!cyc && several.ncand == 1)
		w->mo->ncands = several.cand;   /* one place: as before */
	const Addr *f = NULL;
	int same_exact = !cyc, same_base = !cyc, all_root = !cyc, anchor = 0, generic = 0, indexed = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (a[i].kind != A_OBJ)
			continue;
		if (!f)
			f = &a[i], anchor = f->anchor;
		same_exact &= !a[i].var && !a[i].root && !f->var && !f->root && a[i].off == f->off;
		same_base &= base_known(unbound(a[i])) && base_known(unbound(*f)) && base_of(a[i]) == base_of(*f);
		all_root &= a[i].root;
		if (a[i].anchor != anchor)
			anchor = ANCHOR_MANY;
		generic |= a[i].generic;
		indexed |= a[i].indexed;
	}
	Addr r = {.kind = A_OBJ, .obj = obj, .var = 1, .generic = generic, .base_known = same_base,
		.base = same_base ? base_of(*f) : 0, .anchor = anchor, .data = dat, .indexed = indexed};
	if (all_root)
		r.root = 1, r.var = 0, r.anchor = ANCHOR_NONE;
	else if (same_exact)
		r.off = f->off, r.var = 0;
	else if (same_base)
		r.off = r.base;
	return r;
}

/* Past these a pointer's steps are not followed: no depot is that large. */
enum { TRIPS_MAX = 4096, MAX_SPREAD = 1 << 24 };

/* Instruction s is "add p, p, C" (or sub: loop_step_of), in a block it
 * alone writes p in: C (negated for sub) in *c. */
static int loop_step(const Cfg *g, uint32_t s, const char *p, int64_t *c)
{
	if (!loop_step_of(&g->ins[s]->ins, p, c))
		return 0;
	const Block *b = &g->blocks[g->block_of[s]];
	for (uint32_t k = b->first; k < b->end; k++) {
		RegAccess a = ins_reg_access(&g->ins[k]->ins, p);
		if (k != s && (a.writes || a.may_write))
			return 0;
	}
	return 1;
}

/* Is def the last write of p on every way into block b from outside? */
static int sole_way_in(const Walker *w, uint32_t b, const char *p, uint32_t def)
{
	uint32_t d[2];
	return loop_entry_defs(w->cfg, w->defs, b, p, d, 2) == 1 && d[0] == def;
}

/* Register p read at `at`, reached by defs d[0], d[1]: one "add p, p, C"
 * in a one-block loop that a counted test closes (loop_trips: at most T
 * trips an entry), the other an object's exact address, the last write of
 * p on every way into the loop.  Each entry starts p there, and the add
 * runs once a trip: p is that address plus C times 0 .. T (0 .. T-1 read
 * in the loop up to the add), which *r gets as a bounded amount.  What
 * the PTX says, nothing C promises: the pointer may step out of the
 * object, and the stage that uses the bounds (depot.c) sees where. */
static int stepped(Walker *w, uint32_t at, const char *p, const uint32_t *d, Addr *r, int depth)
{
	const Cfg *g = w->cfg;
	int64_t c;
	for (int k = 0; k < 2; k++) {
		uint32_t s = d[k], i = d[1 - k];
		if (s == DEF_ENTRY || i == DEF_ENTRY || !loop_step(g, s, p, &c))
			continue;
		uint32_t b = g->block_of[s];
		if (g->block_of[i] == b || !sole_way_in(w, b, p, i))
			return 0;
		uint32_t trips = loop_trips(g, w->defs, b, TRIPS_MAX);
		if (!trips || c > (1 << 20) || c < -(1 << 20) || (c < 0 ? -c : c) * (int64_t)trips > MAX_SPREAD)
			return 0;
		Addr a = value_of_def(w, i, depth + 1);
		if (a.kind != A_OBJ || a.var || a.root)
			return 0;
		int64_t most = c * (int64_t)(g->block_of[at] == b && at <= s ? trips - 1 : trips);
		a.var = a.bounded = a.base_known = 1;
		a.base = a.off = wrap_add(a.off, most < 0 ? most : 0);
		a.spread = most < 0 ? -most : most;
		*r = a;
		return 1;
	}
	return 0;
}

/* The value of a register or symbol or constant where instruction at reads it. */
static Addr leaf(Walker *w, uint32_t at, const Expr *e, int depth)
{
	int64_t k;
	if (e->kind == E_NUM)  /* a constant: var only for a float's bits */
		return int_literal(e->str, &k) ? none(k, 0) : none(0, 1);
	if (e->kind != E_NAME)
		return unknown();
	int o = find_obj(w->mo, e->str);
	if (o >= 0)
		return root(o);
	if (live_reg(w->live, e->str) < 0)
		return data();   /* a parameter, special register, other symbol */
	uint32_t defs[8];
	uint32_t n = defs_reaching(w->defs, at, e->str, defs, 8);
	if (n == 0 || n > 8)
		return unknown();
	Addr a[8];
	if (n == 2 && stepped(w, at, e->str, defs, &a[0], depth))
		return a[0];
	for (uint32_t i = 0; i < n; i++)
		a[i] = defs[i] == DEF_ENTRY ? data() : value_of_def(w, defs[i], depth + 1);
	return n == 1 ? a[0] : merge(w, a, n);
}

static Addr expr_value(Walker *w, uint32_t at, uint32_t op, const Expr *e, int depth);

/* a + b (a - b): an object's address plus what is no address.  Added to
 * a root, the amount makes an anchor at (at, op). */
static Addr sum(Walker *w, Addr a, Addr b, int negate_b, uint32_t at, uint32_t op)
{
	/* the loop's own plus what is no address, or plus the loop's own
	 * (two addresses are never added: i + j, an index from two counters) */
	if ((a.kind == A_CYCLE && b.kind == A_NONE) ||
	    (b.kind == A_CYCLE && (a.kind == A_NONE || a.kind == A_CYCLE) && !negate_b)) {
		Addr c = cycle(a.kind == A_CYCLE ? a.cyc : b.cyc);
		c.data = a.data | b.data;
		return c;
	}
	if (a.kind == A_CYCLE || b.kind == A_CYCLE) {
		escape(w, a);
		escape(w, b);
		return unknown();
	}
	if (w->diffs && negate_b && a.kind == A_OBJ && b.kind == A_OBJ && a.obj == b.obj) {
		Addr d = none(0, 1);   /* the depot stage's selects: sub %dpo, %rd9, %SPL */
		d.data = a.data | b.data;
		return d;
	}
	if (a.kind == A_UNKNOWN || b.kind == A_UNKNOWN || (a.kind == A_OBJ && b.kind == A_OBJ) ||
	    (negate_b && b.kind == A_OBJ)) {
		escape(w, a);
		escape(w, b);
		return a.kind == A_NONE && b.kind == A_NONE ? none(0, 1) : unknown();
	}
	Addr r = a.kind == A_OBJ ? a : b;
	const Addr *other = a.kind == A_OBJ ? &b : &a;
	if (r.kind == A_NONE) {   /* the caller's pointer plus an amount stays the caller's */
		Addr v = a.data || b.data ? data() : none(0, 1);
		v.far = negate_b ? a.far && !b.far : a.far != b.far;
		return v;
	}
	int64_t k = other->var ? 0 : negate_b ? wrap_neg(other->off) : other->off;
	if (r.root) {
		r.anchor = new_anchor(w, at, op, k, other->var);
		r.root = 0;
	}
	if (other->var) {
		r = unbound(r);
		r.ncand = 0;   /* one of several places, indexed: as one merged from several offsets */
		if (!r.var)
			r.base = r.off, r.base_known = 1;
		r.var = 1;
		r.data |= other->data;
		r.indexed = 1;
	} else {
		r.off = wrap_add(r.off, k);
	}
	return r;
}

static Addr expr_value(Walker *w, uint32_t at, uint32_t op, const Expr *e, int depth);

/* r, a value computed from the operands seen so far, and one more whose
 * value is a: no address unless one is (which escapes), the loop's own
 * when one is that (neutral, as in sum()). */
static Addr computed_from(Walker *w, Addr r, Addr a)
{
	if (a.kind == A_CYCLE && r.kind != A_UNKNOWN) {
		int dat = r.data;
		r = cycle(a.cyc);
		r.data = dat;
	} else if (a.kind != A_NONE) {
		escape(w, a);
		r = unknown();
	}
	r.data |= a.data;
	return r;
}

/* A vector's elements, stored or packed into one register: each that is
 * an object's address escapes; the whole is no address when none is (a
 * 64-bit value packed from two 32-bit ones: the inliner's .param pieces),
 * the loop's own when one is that. */
static Addr elements(Walker *w, uint32_t at, uint32_t op, const Expr *e, int depth)
{
	Addr r = none(0, 1);
	for (uint32_t i = 0; i < e->n; i++)
		r = computed_from(w, r, expr_value(w, at, op, e->kids[i], depth + 1));
	return r;
}

/* The value of operand e of instruction at (operand op, MEM_ARITH when e
 * is part of an add or sub's own operands). */
static Addr expr_value(Walker *w, uint32_t at, uint32_t op, const Expr *e, int depth)
{
	if (depth > 64) {
		w->deep = 1;
		return unknown();
	}
	if (e->kind == E_BINARY && (e->op == '+' || e->op == '-'))
		return sum(w, expr_value(w, at, op, e->kids[0], depth + 1),
			expr_value(w, at, op, e->kids[1], depth + 1), e->op == '-', at, op);
	if (e->kind == E_ADDR && e->n == 1)
		return expr_value(w, at, op, e->kids[0], depth + 1);
	if (e->kind == E_UNARY && e->op == '-') {  /* add.s64 %rd9, %rd1, -120 */
		Addr a = expr_value(w, at, op, e->kids[0], depth + 1);
		if (a.kind == A_NONE) {
			a.off = wrap_neg(a.off);
			return a;
		}
		escape(w, a);
		return unknown();
	}
	if (e->kind == E_NAME || e->kind == E_NUM)
		return leaf(w, at, e, depth);
	if (e->kind == E_BRACE || e->kind == E_PAREN)  /* st.v2 [p], {%rd7, %rd4}; mov.b64 %rd3, {%r1, %r2} */
		return elements(w, at, op, e, depth);
	return unknown();
}

/* Re-finding values found around a loop before its definition was (an
 * A_CYCLE whose definition is done) costs at most this much a walk's
 * instruction; past it the walk is partial. */
enum { EVALS_PER_INS = 16 };

/* What instruction ins writes into its first operand.  A value found as
 * the loop's own (A_CYCLE) while its definition was being evaluated is
 * found again once that is done: else a[i], i computed in a loop from
 * its own last value, would stay unknown wherever asked after it. */
static Addr value_of_def(Walker *w, uint32_t ins, int depth)
{
	const Addr *m = &w->memo[ins];
	if (w->state[ins] == 2 && (m->kind != A_CYCLE || w->state[m->cyc] == 1))
		return *m;
	if (w->state[ins] == 1)
		return cycle(ins);
	if (++w->evals > (uint64_t)EVALS_PER_INS * w->cfg->nins + 1024)
		depth = INT32_MAX;   /* partial, as a chain too deep is */
	if (depth > 64) {
		w->deep = 1;
		return unknown();
	}
	w->state[ins] = 1;
	const Ins *in = &w->cfg->ins[ins]->ins;
	Addr r = none(0, 1);
	int op = in->sp->code;
	if (w->param && param_load(in, w->param)) {
		r = root(0);
	} else if (in->guard) {  /* may or may not write: not followed */
		for (uint32_t i = 0; i < in->nops; i++)
			if (ins_operand(in, i) == OPND_USE)
				escape(w, expr_value(w, ins, i, in->ops[i], depth));
		r = unknown();
	} else if ((op == O_mov || op == O_cvta) && in->nops == 2 && in->ops[1]->kind != E_BRACE) {
		r = expr_value(w, ins, 1, in->ops[1], depth);
		if (op == O_cvta && r.kind == A_OBJ && ins_space(in) == SPACE_LOCAL)
			r.generic = !spelling_has(in->sp, MOD_to);
	} else if (op == O_selp && in->nops == 4) {   /* one of two values: as where two defs reach */
		Addr v[2] = {expr_value(w, ins, 1, in->ops[1], depth), expr_value(w, ins, 2, in->ops[2], depth)};
		r = merge(w, v, 2);
	} else if ((op == O_add || op == O_sub) && in->nops == 3) {
		r = sum(w, expr_value(w, ins, MEM_ARITH, in->ops[1], depth),
			expr_value(w, ins, MEM_ARITH, in->ops[2], depth), op == O_sub, ins, MEM_ARITH);
	} else {
		/* any other result: no address, unless computed from one */
		r.data = ins_reads_memory(in);
		for (uint32_t i = 0; i < in->nops; i++) {
			Operand role = ins_operand(in, i);
			if (role != OPND_USE)
				continue;  /* a load's value is no object's address */
			r = computed_from(w, r, expr_value(w, ins, i, in->ops[i], depth));
		}
		r.far = r.kind == A_NONE && far(w, in);
	}
	w->memo[ins] = r;
	w->state[ins] = 2;
	return r;
}

/* The last access is through one of several places: each, as the
 * offset it touches. */
static void access_places(MemObjs *mo, Addr a)
{
	MemAccess *acc = &mo->acc[mo->nacc - 1];
	acc->cand = mo->ncands;
	for (uint32_t i = 0; i < a.ncand; i++) {
		MemCand c = mo->cands[a.cand + i];
		mo->cands = array_grow(mo->cands, mo->ncands, &mo->ccands, sizeof *mo->cands);
		mo->cands[mo->ncands++] = (MemCand){c.anchor, wrap_add(c.off, a.off)};
	}
	acc->ncand = a.ncand;
}

static void add_access(Walker *w, uint32_t ins, Addr a, int width, unsigned how)
{
	MemObjs *mo = w->mo;
	int obj = a.kind == A_OBJ;
	mo->acc = array_grow(mo->acc, mo->nacc, &mo->cacc, sizeof *mo->acc);
	mo->acc[mo->nacc++] = (MemAccess){.at = w->cfg->ins[ins], .ins = ins, .obj = obj ? a.obj : -1,
		.off = obj ? a.off : 0, .exact = obj && !a.var, .width = width, .how = (uint8_t)how,
		.generic = (uint8_t)(obj && a.generic), .base_known = (uint8_t)(obj && base_known(a)),
		.base = obj ? base_of(a) : 0, .anchor = obj ? a.anchor : ANCHOR_NONE,
		.data = (uint8_t)(obj && a.var && a.data), .bounded = (uint8_t)(obj && a.bounded),
		.spread = obj && a.bounded ? a.spread : 0};
}

/* The first of call ins's lends (ls->n if none). */
static uint32_t lends_at(const Lends *ls, uint32_t ins)
{
	uint32_t lo = 0, hi = ls->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (ls->v[mid].call_ins < ins)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The bytes lo .. hi from address a, exact, that a module function's call
 * lends: all it touches, or, where it indexes the pointer too, those it
 * is known to reach at least, which then belong to the object lent even
 * where another object's start lies before them. */
static void lend_bytes(Walker *w, uint32_t ins, Addr a, const Lend *l)
{
	a.var = a.bounded = a.base_known = 1, a.spread = 0;
	a.base = a.off, a.off = wrap_add(a.off, l->lo);
	add_access(w, ins, a, (int)(l->hi - l->lo), l->how);
	w->mo->acc[w->mo->nacc - 1].lent = 1;
	w->mo->acc[w->mo->nacc - 1].via = l->store;
}

/* Call ins reads what the stores of its lends put into its .params: an
 * object's address there is a read of the object from that address on
 * (and a write, if a module callee that indexes it may store), of no
 * width the call tells (the base is where it was passed: an index added
 * to it stays inside, as for an escape); the access's width is then the
 * callee's widest, which the object's alignment keeps. */
static void lend_reads(Walker *w, uint32_t ins)
{
	const Lends *ls = w->lends;
	for (uint32_t lo = lends_at(ls, ins); lo < ls->n && ls->v[lo].call_ins == ins; lo++) {
		const Lend *l = &ls->v[lo];
		if (l->store_ins >= w->cfg->nins)
			continue;
		Addr a = expr_value(w, l->store_ins, 1, l->store->ins.ops[1], 0);
		if (a.kind != A_OBJ)
			continue;
		if (l->reach && a.ncand > 1 && !(l->how & USE_WRITE) && l->hi > l->lo) {
			/* one of several exact places, only read: each place's bytes
			 * may be read (a write would have to be a may-write) */
			for (uint32_t k = 0; k < a.ncand; k++) {
				const MemCand c = w->mo->cands[a.cand + k];
				Addr p = a;
				p.ncand = 0, p.var = 0, p.anchor = c.anchor, p.off = wrap_add(c.off, a.off);
				lend_bytes(w, ins, p, l);
			}
			continue;
		}
		if (l->reach && (a.var || a.root)) {
			escape(w, a);   /* those bytes exactly, or an escape as before */
			continue;
		}
		if (l->hi > l->lo && !a.var)
			lend_bytes(w, ins, a, l);
		if (l->reach)
			continue;
		a = unbound(a);
		a.base = base_of(a), a.base_known = base_known(a), a.var = 1;
		add_access(w, ins, a, l->widest, l->how ? l->how : USE_READ);
		w->mo->acc[w->mo->nacc - 1].lent = 1;
		w->mo->acc[w->mo->nacc - 1].via = l->store;
	}
}

static unsigned access_how(Operand r)
{
	return r == OPND_LOAD ? USE_READ : r == OPND_STORE ? USE_WRITE : USE_READ | USE_WRITE;
}

/* Loads, stores and atomics of .local or generic memory: the address
 * operand says what they touch, the type how many bytes.  Every other
 * operand that carries an object's address (an address given to an
 * instruction not modelled here, too) lets it escape.  Address arithmetic
 * is followed from its uses, and evaluated here too so that every
 * definition of an address is known. */
static void scan_ins(Walker *w, uint32_t i)
{
	const Ins *in = &w->cfg->ins[i]->ins;
	int op = in->sp->code;
	Space sp = ins_space(in);
	int sized = (op == O_ld || op == O_st || op == O_atom || op == O_red || op == O_ldu) &&
		(sp == SPACE_LOCAL || sp == SPACE_NONE);
	if (op == O_cvta && in->nops == 2 && sp == SPACE_LOCAL && !spelling_has(in->sp, MOD_to)) {
		add_access(w, i, value_of_def(w, i, 0), 0, USE_ADDR);
		return;
	}
	if (op == O_mov || op == O_cvta || op == O_add || op == O_sub || (op == O_selp && in->nops == 4)) {
		value_of_def(w, i, 0);
		return;
	}
	if (w->lends && w->lends->lent[i])
		return;  /* the value it stores, lend_reads reads at the calls */
	if (w->lends && stmt_is_call(w->cfg->ins[i]))
		lend_reads(w, i);
	for (uint32_t k = 0; k < in->nops; k++) {
		const Expr *e = in->ops[k];
		Operand role = ins_operand(in, k);
		if (sized && OPND_IS_ADDRESS(role)) {
			Addr a = expr_value(w, i, k, e, 0);
			unsigned how = access_how(role);
			if (a.kind == A_OBJ && a.root) {  /* [root]: the access anchors it */
				a.anchor = new_anchor(w, i, k, 0, 0);
				a.root = 0;
			}
			if (a.kind == A_OBJ) {
				add_access(w, i, a, in->sp->type_bytes * in->sp->vec, how);
				access_places(w->mo, a);
			}
			else if (a.kind == A_UNKNOWN || (sp == SPACE_LOCAL && !a.far))
				add_access(w, i, unknown(), 0, how);
			continue;  /* generic through no address of ours, or the caller's: not ours */
		}
		if (role != OPND_DEF && role != OPND_MAYDEF)
			escape(w, expr_value(w, i, k, e, 0));
	}
}

static void record_defs(Walker *w)
{
	MemObjs *mo = w->mo;
	for (uint32_t i = 0; i < w->cfg->nins; i++) {
		Addr a = w->memo[i];
		if (w->state[i] != 2 || a.kind != A_OBJ)
			continue;
		mo->defs = array_grow(mo->defs, mo->ndefs, &mo->cdefs, sizeof *mo->defs);
		mo->defs[mo->ndefs++] = (MemAddrDef){.at = w->cfg->ins[i], .ins = i, .obj = a.obj,
			.generic = (uint8_t)a.generic, .root = (uint8_t)a.root, .anchor = a.anchor};
	}
}

static void collect_objs(MemObjs *mo, const List *body)
{
	BodyIt it;
	for (Stmt *s = body_first(body, &it); s; s = body_next(&it))
		if (s->kind == S_VAR && decl_space(&s->var) == SPACE_LOCAL)
			for (uint32_t i = 0; i < s->var.nds; i++) {
				mo->objs = array_grow(mo->objs, mo->nobjs, &mo->cobjs, sizeof *mo->objs);
				mo->objs[mo->nobjs++] = (MemObj){.name = s->var.ds[i].name, .decl = s,
					.size = decl_bytes(&s->var, &s->var.ds[i]), .align = var_align(&s->var)};
			}
}

/* ---- addresses lent to calls that keep nothing -------------------------- */

typedef struct Stmts {
	const Stmt **v;
	uint32_t n, cap;
} Stmts;

static void stmts_push(Stmts *l, const Stmt *s)
{
	l->v = array_grow(l->v, l->n, &l->cap, sizeof *l->v);
	l->v[l->n++] = s;
}

enum { MAX_TARGETS = 16 };

/* .calltargets lists by their (interned) labels: looked up per call. */
static int by_label(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)(*(const Stmt *const *)a)->list.label;
	uintptr_t y = (uintptr_t)(*(const Stmt *const *)b)->list.label;
	return (x > y) - (x < y);
}

/* The functions call c may go to: its callee, or each name of its
 * .calltargets list (one of lists, the function's, sorted by_label); 0
 * when neither is known (a prototype only, a list too long). */
static uint32_t callees_of(const CallParts *c, const Stmts *lists, const char **out)
{
	if (!c->proto) {
		out[0] = c->callee->kind == E_NAME ? c->callee->str : NULL;
		return out[0] != NULL;
	}
	Stmt key = {.kind = S_TARGETS};
	key.list.label = c->proto->kind == E_NAME ? c->proto->str : NULL;
	const Stmt *kp = &key, **found = key.list.label && lists->n ?
		bsearch(&kp, lists->v, lists->n, sizeof *lists->v, by_label) : NULL;
	const Stmt *t = found ? *found : NULL;
	if (!t || t->list.nitems > MAX_TARGETS)
		return 0;
	for (uint32_t k = 0; k < t->list.nitems; k++)
		if ((out[k] = t->list.items[k]->kind == E_NAME ? t->list.items[k]->str : NULL) == NULL)
			return 0;
	return t->list.nitems;
}

/* What in does with .param p: 1 stores one value into it, 2 passes it as
 * a whole argument that the callee only reads through (borrowers_args;
 * through a .calltargets list, every function it names), 0 anything else
 * (loads it, passes it elsewhere, takes its address). */
static int param_use(const Ins *in, const char *p, const Stmts *lists, Borrowers *rd)
{
	const char *name, *callee[MAX_TARGETS];
	int64_t off;
	CallParts c;
	if (in->sp->code == O_st && ins_space(in) == SPACE_PARAM && in->nops == 2 &&
	    addr_name_off(in->ops[0], &name, &off) && name == p && in->ops[1]->kind != E_BRACE &&
	    !expr_mentions(in->ops[1], p))
		return 1;
	if (!ins_call_parts(in, &c) || !c.args || (c.rets && expr_mentions(c.rets, p)))
		return 0;
	uint32_t n = callees_of(&c, lists, callee), reads = n ? UINT32_MAX : 0;
	for (uint32_t i = 0; i < n; i++)
		reads &= borrowers_args(rd, callee[i]);
	for (uint32_t k = 0; k < c.args->n; k++)
		if (expr_mentions(c.args->kids[k], p) &&
		    (k >= 32 || !(reads >> k & 1) || c.args->kids[k]->kind != E_NAME))
			return 0;
	return expr_mentions(c.args, p) ? 2 : 0;
}

static int declares(const List *l, const char *p)
{
	for (const Stmt *s = l->head; s; s = s->next)
		for (uint32_t i = 0; s->kind == S_VAR && i < s->var.nds; i++)
			if (s->var.ds[i].name == p)
				return 1;
	return 0;
}

/* The uses of the .param p that list l declares, in l and in the scopes
 * inside that do not declare a p of their own (nvcc names every call's
 * .params alike): 0 when one is neither a store nor such a call. */
static int param_uses(const List *l, const char *p, int own, Stmts *stores, Stmts *calls,
	const Stmts *lists, Borrowers *rd)
{
	if (!own && declares(l, p))
		return 1;
	for (const Stmt *s = l->head; s; s = s->next) {
		if (s->kind == S_SCOPE && !param_uses(&s->scope, p, 0, stores, calls, lists, rd))
			return 0;
		if (s->kind != S_INS || !ins_mentions(&s->ins, p))
			continue;
		int u = param_use(&s->ins, p, lists, rd);
		if (!u)
			return 0;
		stmts_push(u == 1 ? stores : calls, s);
	}
	return 1;
}

static int borrowers_reach(Borrowers *rd, const char *callee, uint32_t k, Lend *l);

/* The bytes the call of l touches through .param p, where its callee
 * says: for a .param passed as several arguments, every one's. */
static void lend_reach(Lend *l, const char *p, const Stmts *lists, Borrowers *rd)
{
	CallParts c;
	Lend one;
	const char *callee[MAX_TARGETS];
	if (!ins_call_parts(&l->call->ins, &c) || !c.args)
		return;
	uint32_t n = callees_of(&c, lists, callee);
	int first = 1, whole = 0;
	for (uint32_t k = 0; k < c.args->n; k++)
		for (uint32_t i = 0; i < n && c.args->kids[k]->kind == E_NAME && c.args->kids[k]->str == p; i++) {
			if (!borrowers_reach(rd, callee[i], k, &one)) {
				*l = (Lend){.store = l->store, .call = l->call, .store_ins = l->store_ins,
					.call_ins = l->call_ins};   /* the toolchain's: reads from the address on */
				return;
			}
			l->lo = first || one.lo < l->lo ? one.lo : l->lo;
			l->hi = first || one.hi > l->hi ? one.hi : l->hi;
			l->how |= one.how;
			l->widest = one.widest > l->widest ? one.widest : l->widest;
			whole |= !one.reach, first = 0;
		}
	l->reach = !first && !whole;
}

/* Every .param a scope declares whose stores go to such calls only. */
static void find_lends(const List *body, Lends *out, Borrowers *rd)
{
	BodyIt it;
	Stmts lists = {0};   /* the .calltargets lists calls name */
	const char *word = intern_cstr(".calltargets");
	for (const Stmt *s = body_first(body, &it); s; s = body_next(&it))
		if (s->kind == S_TARGETS && s->list.word == word)
			stmts_push(&lists, s);
	body_end(&it);
	if (lists.n)
		qsort(lists.v, lists.n, sizeof *lists.v, by_label);
	for (const Stmt *s = body_first(body, &it); s; s = body_next(&it)) {
		if (s->kind != S_VAR || decl_space(&s->var) != SPACE_PARAM)
			continue;
		for (uint32_t i = 0; i < s->var.nds; i++) {
			Stmts st = {0}, calls = {0};
			if (param_uses(it.in, s->var.ds[i].name, 1, &st, &calls, &lists, rd))
				for (uint32_t c = 0; c < calls.n; c++)
					for (uint32_t k = 0; k < st.n; k++) {
						out->v = array_grow(out->v, out->n, &out->cap, sizeof *out->v);
						Lend *l = &out->v[out->n++];
						*l = (Lend){.store = st.v[k], .call = calls.v[c],
							.store_ins = UINT32_MAX, .call_ins = UINT32_MAX};
						lend_reach(l, s->var.ds[i].name, &lists, rd);
					}
			free(st.v);
			free(calls.v);
		}
	}
	free(lists.v);
}

typedef struct StmtAt {
	const Stmt *s;
	uint32_t *ins;
} StmtAt;

static int cmp_stmt_at(const void *pa, const void *pb)
{
	uintptr_t a = (uintptr_t)((const StmtAt *)pa)->s, b = (uintptr_t)((const StmtAt *)pb)->s;
	return (a > b) - (a < b);
}

static int cmp_lend(const void *pa, const void *pb)
{
	const Lend *a = pa, *b = pb;
	return (a->call_ins > b->call_ins) - (a->call_ins < b->call_ins);
}

/* The lends' instruction numbers (cfg order), the lends by call, and the
 * stores marked. */
static void place_lends(Walker *w, Lends *l)
{
	StmtAt *at = xcalloc(2 * (size_t)l->n, sizeof *at);
	for (uint32_t i = 0; i < l->n; i++) {
		at[2 * i] = (StmtAt){.s = l->v[i].store, .ins = &l->v[i].store_ins};
		at[2 * i + 1] = (StmtAt){.s = l->v[i].call, .ins = &l->v[i].call_ins};
	}
	qsort(at, 2 * (size_t)l->n, sizeof *at, cmp_stmt_at);
	for (uint32_t i = 0; i < w->cfg->nins; i++) {
		StmtAt key = {.s = w->cfg->ins[i]};
		StmtAt *f = bsearch(&key, at, 2 * (size_t)l->n, sizeof *at, cmp_stmt_at);
		while (f && f > at && f[-1].s == key.s)
			f--;
		for (; f && f < at + 2 * l->n && f->s == key.s; f++)
			*f->ins = i;
	}
	free(at);
	qsort(l->v, l->n, sizeof *l->v, cmp_lend);
	l->lent = xcalloc(w->cfg->nins + 1, 1);
	for (uint32_t i = 0; i < l->n; i++)
		if (l->v[i].store_ins < w->cfg->nins)
			l->lent[l->v[i].store_ins] = 1;
	w->lends = l;
}

static void walker_init(Walker *w, MemObjs *mo, const Cfg *g, const char *param)
{
	Live *l = live_compute(g);
	*w = (Walker){.mo = mo, .cfg = g, .live = l, .defs = defs_compute(g, l), .param = param,
		.memo = xcalloc(g->nins + 1, sizeof *w->memo), .state = xcalloc(g->nins + 1, 1)};
}

static void walker_free(Walker *w)
{
	free(w->memo);
	free(w->state);
	defs_free((Defs *)w->defs);
	live_free((Live *)w->live);
}

static MemObjs *build(const Func *f, int lend, Borrowers *rd, int diffs)
{
	MemObjs *mo = xcalloc(1, sizeof *mo);
	collect_objs(mo, &f->body);
	if (!mo->nobjs)
		return mo;
	Cfg *g = cfg_build(f);
	if (!g) {
		for (uint32_t i = 0; i < mo->nobjs; i++)
			mo->objs[i].escapes = 1;
		return mo;
	}
	Walker w;
	walker_init(&w, mo, g, NULL);
	w.f = f;
	w.diffs = diffs;
	Lends lends = {0};
	if (lend)
		find_lends(&f->body, &lends, rd);
	if (lends.n)
		place_lends(&w, &lends);
	for (uint32_t i = 0; i < g->nins; i++)
		scan_ins(&w, i);
	record_defs(&w);
	mo->partial = w.deep;
	free(lends.v);
	free(lends.lent);
	walker_free(&w);
	cfg_free(g);
	return mo;
}

MemObjs *memobjs_build(const Func *f)
{
	return build(f, 0, NULL, 0);
}

MemObjs *memobjs_build_lent(const Func *f, Borrowers *rd)
{
	return build(f, 1, rd, 0);
}

MemObjs *memobjs_build_reads(const Func *f, Borrowers *rd)
{
	return build(f, 1, rd, 1);
}

void memobjs_free(MemObjs *mo)
{
	if (!mo)
		return;
	free(mo->objs);
	free(mo->acc);
	free(mo->anchors);
	free(mo->esc);
	free(mo->defs);
	free(mo->cands);
	free(mo);
}

int memobjs_depot(const MemObjs *mo)
{
	for (uint32_t i = 0; i < mo->nobjs; i++) {
		const MemObj *o = &mo->objs[i];
		if (depot_named(o->name) && o->size > 0 && o->decl->var.nds == 1 &&
		    o->decl->var.ds[0].ndims == 1 && !o->decl->var.ds[0].init)
			return (int)i;
	}
	return -1;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The n values v sorted, each once: how many. */
static uint32_t sorted_once(int64_t *v, uint32_t n)
{
	qsort(v, n, sizeof *v, cmp_i64);
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	return k;
}

uint32_t memobjs_starts(const MemObjs *mo, int obj, int64_t size, int64_t *out)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < mo->nacc; i++) {
		const MemAccess *a = &mo->acc[i];
		if (a->obj == obj && a->how != USE_ADDR && !a->exact && (!a->bounded || a->lent) &&
		    a->base_known && a->base >= 0 && a->base < size)
			out[n++] = a->base;   /* an array indexed, an address lent */
	}
	for (uint32_t i = 0; i < mo->nesc; i++) {
		const MemEscape *e = &mo->esc[i];
		if (e->obj == obj && e->base_known && e->base >= 0 && e->base < size)
			out[n++] = e->base;
	}
	return sorted_once(out, n);
}

uint32_t memobjs_anchor_offsets(const MemObjs *mo, int obj, int64_t *out)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < mo->ndefs; i++) {
		int an = mo->defs[i].anchor;
		if (mo->defs[i].obj != obj || an < 0 || (uint32_t)an >= mo->nanchors)
			continue;
		const MemAnchor *a = &mo->anchors[an];
		if (a->op == MEM_ARITH && !a->fixed)
			out[n++] = a->off;
	}
	return sorted_once(out, n);
}

uint32_t sorted_above(const int64_t *v, uint32_t n, int64_t x)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (v[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void memends_of(const MemObjs *mo, int obj, int layout_kept, MemEnds *e)
{
	*e = (MemEnds){.size = mo->objs[obj].size};
	e->starts = xmalloc((mo->nacc + mo->nesc + 1) * sizeof *e->starts);
	e->nstarts = memobjs_starts(mo, obj, e->size, e->starts);
	if (layout_kept) {
		e->anchors = xmalloc((mo->ndefs + 1) * sizeof *e->anchors);
		e->nanchors = memobjs_anchor_offsets(mo, obj, e->anchors);
	}
}

int64_t memends_next_start(const MemEnds *e, int64_t base)
{
	uint32_t k = sorted_above(e->starts, e->nstarts, base);
	return k < e->nstarts ? e->starts[k] : INT64_MAX;
}

void memends_anchored(const MemEnds *e, int64_t at, int64_t *lo, int64_t *hi)
{
	uint32_t a = sorted_above(e->anchors, e->nanchors, at);
	*lo = a > 0 ? e->anchors[a - 1] : 0;
	*hi = a < e->nanchors && e->anchors[a] < e->size ? e->anchors[a] : e->size;
}

void memends_free(MemEnds *e)
{
	free(e->starts);
	free(e->anchors);
	e->starts = e->anchors = NULL;
}

const int64_t *func_depot_starts(Module *m, Func *f, Borrowers *rd, uint32_t *n)
{
	if (!f->starts_noted) {
		f->starts_noted = 1;
		MemObjs *mo = memobjs_build_lent(f, rd);
		int d = memobjs_depot(mo);
		if (d >= 0 && !mo->partial) {
			int64_t *v = xcalloc(mo->nacc + mo->nesc + 1, sizeof *v);
			f->nstarts = f->cstarts = memobjs_starts(mo, d, mo->objs[d].size, v);
			f->starts = arena_dup(m->arena, v, (f->nstarts + 1) * sizeof *v);
			free(v);
		}
		memobjs_free(mo);
	}
	*n = f->nstarts;
	return f->starts;
}

void func_depot_start(Module *m, Func *f, int64_t off)
{
	f->starts = arena_grow(m->arena, f->starts, f->nstarts, &f->cstarts, sizeof *f->starts);
	f->starts[f->nstarts++] = off;
}

/* Does f store into object obj at an index that comes from data
 * (MemAccess.data)?  ptxas cannot tell where such a store lands, so it
 * keeps the object in memory; a loop counter's index it may make
 * constant by unrolling, and hold the object in registers. */
int memobjs_stored_data(const MemObjs *mo, int obj)
{
	for (uint32_t i = 0; i < mo->nacc; i++)
		if (mo->acc[i].obj == obj && (mo->acc[i].how & USE_WRITE) && mo->acc[i].data)
			return 1;
	return 0;
}

/* ---- a pointer parameter's accesses -------------------------------------------- */

/* What a function does with what pointer parameter param points to
 * (object 0 of the walk). */
typedef struct ParamUse {
	uint32_t loads;     /* ld.param of it: each gives the object's start */
	int inexact;        /* an address of it at a run-time or merged offset */
	int not_ldst;       /* an access other than a load or a store (atom, prefetch) */
	int stored_indexed; /* a store (or atomic) at an offset a value not constant adds */
	int stored;         /* a store (or atomic) through it at all */
	int64_t lo, hi;     /* the bytes its constant-offset accesses touch (lo < hi: any) */
	int widest;         /* the widest access (bytes) */
	int64_t reach;      /* the end of the bytes it surely touches, from the pointer: a
	                     * constant offset's, a stepped pointer's, an index's base's */
	int below;          /* an access known to start before the pointer: an offset or
	                     * an index's base under 0 (p[-1], not p[i-1]) */
	int other;          /* param named otherwise (its address taken, a piece of it
	                     * read), or the pointer going where it is not followed */
	int converted;      /* an address of it through cvta (into another space's) */
	uint32_t indexed_loads;   /* loads at a run-time offset from it */
	ParamAccess *got;   /* with collect: each load and store through it */
	uint32_t ngot, cgot;
	int collect;
} ParamUse;

/* Does in name param other than in ld.param's [param]? */
static int param_named_otherwise(const Ins *in, const char *param)
{
	const char *name;
	int64_t off;
	if (ins_space(in) == SPACE_PARAM && ins_reads_memory(in) && in->nops == 2 &&
	    addr_name_off(in->ops[1], &name, &off) && name == param && off == 0)
		return 0;
	for (uint32_t k = 0; k < in->nops; k++)
		if (expr_mentions(in->ops[k], param))
			return 1;
	return 0;
}

/* An access through address a of `width` bytes, none wider than `wide`. */
static void use_bytes(ParamUse *u, Addr a, int64_t width, int wide, int store)
{
	u->inexact |= a.var;
	u->stored |= store;
	u->widest = wide > u->widest ? wide : u->widest;
	int64_t end = a.off + width;
	int64_t reach = !a.var ? end : a.bounded ? end + a.spread : base_known(a) ? base_of(a) + width : 0;
	u->reach = reach > u->reach ? reach : u->reach;
	u->below |= a.var ? base_known(a) && base_of(a) < 0 : a.off < 0;
	if (!a.var && (u->lo >= u->hi || a.off < u->lo))
		u->lo = a.off;
	if (!a.var && end > u->hi)
		u->hi = end;
}

/* The pointer passed on, at call ins, to module functions that lend it
 * (borrowers_args): their accesses are the caller's, at the address
 * passed; the toolchain's, or bytes of one lent at an inexact address,
 * are not followed. */
static void param_lends(Walker *w, uint32_t ins, ParamUse *u)
{
	const Lends *ls = w->lends;
	for (uint32_t i = lends_at(ls, ins); i < ls->n && ls->v[i].call_ins == ins; i++) {
		const Lend *l = &ls->v[i];
		Addr a = l->store_ins < w->cfg->nins ? expr_value(w, l->store_ins, 1, l->store->ins.ops[1], 0) : unknown();
		u->other |= a.kind != A_OBJ && a.kind != A_NONE;   /* a value not followed */
		if (a.kind != A_OBJ)
			continue;
		if (!l->how || (l->reach && a.var)) {
			u->other = 1;
			continue;
		}
		int64_t span = l->hi - l->lo;
		Addr b = a;
		b.off = wrap_add(a.off, l->lo);
		if (span > 0 && !a.var)   /* what it surely touches */
			use_bytes(u, b, span, span < 16 ? (int)span : 16, (l->how & USE_WRITE) != 0);
		if (!l->reach)   /* and the object from the address on */
			use_bytes(u, (Addr){.kind = A_OBJ, .var = 1, .base_known = base_known(a), .base = base_of(a)},
				l->widest, l->widest, (l->how & USE_WRITE) != 0);
	}
}

/* Instruction i's part in u: its address operands are accesses, any
 * other operand carrying the pointer lets it escape; address arithmetic is
 * evaluated so that an unused inexact address counts too. */
static void scan_param(Walker *w, uint32_t i, ParamUse *u)
{
	const Ins *in = &w->cfg->ins[i]->ins;
	int op = in->sp->code;
	u->loads += param_load(in, w->param) != NULL;
	u->other |= param_named_otherwise(in, w->param);
	if (w->lends && w->lends->lent[i])
		return;   /* the value it stores, param_lends follows at the call */
	if (w->lends && stmt_is_call(w->cfg->ins[i]))
		param_lends(w, i, u);
	if (op == O_mov || op == O_cvta || op == O_add || op == O_sub) {
		Addr a = value_of_def(w, i, 0);
		u->inexact |= a.kind == A_OBJ && a.var;
		u->converted |= a.kind == A_OBJ && op == O_cvta;
		return;
	}
	for (uint32_t k = 0; k < in->nops; k++) {
		Operand role = ins_operand(in, k);
		if (role == OPND_DEF || role == OPND_MAYDEF)
			continue;
		Addr a = expr_value(w, i, k, in->ops[k], 0);
		if (!OPND_IS_ADDRESS(role))
			escape(w, a);
		if (!OPND_IS_ADDRESS(role) || a.kind != A_OBJ)
			continue;
		u->not_ldst |= role != OPND_LOAD && role != OPND_STORE;
		u->stored_indexed |= (role == OPND_STORE || role == OPND_UPDATE) && a.indexed;
		u->indexed_loads += role == OPND_LOAD && a.var;
		int width = (int)in->sp->type_bytes * (int)in->sp->vec;
		use_bytes(u, a, width, width, role == OPND_STORE || role == OPND_UPDATE);
		if (u->collect && (role == OPND_LOAD || role == OPND_STORE)) {
			u->got = array_grow(u->got, u->ngot, &u->cgot, sizeof *u->got);
			u->got[u->ngot++] = (ParamAccess){w->cfg->ins[i], a.var ? 0 : a.off, role == OPND_STORE, a.var};
		}
	}
}

/* With rd, a pointer passed on to calls that lend it is followed there. */
static ParamUse param_walk(const Func *f, const char *param, Borrowers *rd, int collect)
{
	ParamUse u = {.collect = collect};
	Cfg *g = cfg_build(f);
	if (!g)
		return u;
	MemObjs *mo = xcalloc(1, sizeof *mo);
	mo->objs = xcalloc(1, sizeof *mo->objs);
	mo->objs[0] = (MemObj){.size = -1};   /* no name: only ld.param reaches it */
	mo->nobjs = mo->cobjs = 1;
	Walker w;
	walker_init(&w, mo, g, param);
	Lends lends = {0};
	if (rd)
		find_lends(&f->body, &lends, rd);
	if (lends.n)
		place_lends(&w, &lends);
	for (uint32_t i = 0; i < g->nins; i++)
		scan_param(&w, i, &u);
	u.other |= mo->objs[0].escapes || w.deep;   /* an access not followed may be anywhere */
	free(lends.v);
	free(lends.lent);
	walker_free(&w);
	memobjs_free(mo);
	cfg_free(g);
	return u;
}

/* Is every access through pointer parameter param (interned) at a
 * constant offset from it, and its value nowhere else (not stored,
 * passed, compared or indexed)?  Then an object of the caller's whose
 * address is passed there is, once the call is inlined, accessed at
 * constant offsets only, which the depot stage's scalar replacement
 * holds in registers: *bytes of it (those the accesses touch; bytes may
 * be NULL). */
int param_offsets_constant(const Func *f, const char *param, int64_t *bytes)
{
	ParamReads r = param_reads(f, param);
	if (bytes)
		*bytes = r.bytes;
	return r.constant;
}

ParamReads param_reads(const Func *f, const char *param)
{
	ParamUse u = param_walk(f, param, NULL, 0);
	ParamReads r = {.constant = u.loads > 0 && !u.inexact && !u.not_ldst && !u.other,
		.stored_indexed = u.stored_indexed, .indexed_loads = u.indexed_loads};
	r.bytes = r.constant && u.lo < u.hi ? u.hi - u.lo : 0;
	return r;
}

/* Does f only load and store through pointer parameter param, each
 * access at a constant offset from it, none below it, and keep nothing
 * of its value (not stored, passed on, compared, indexed)?  Then what it
 * touches is bytes 0 .. *hi of the object, and a call lending it an
 * object no other code can reach during the call could pass those bytes
 * in (and, where it stores, take them back): the accesses, in text order
 * (xmalloc'd), else NULL. */
ParamAccess *param_exact_accesses(const Func *f, const char *param, uint32_t *n, int64_t *hi)
{
	uint32_t indexed;
	ParamAccess *v = param_accesses_indexed(f, param, n, hi, &indexed);
	if (v && indexed)
		free(v), v = NULL;
	return v;
}

/* The same, but loads at run-time offsets too (a[j]: ParamAccess.indexed,
 * *indexed of them): each stays inside the object from the pointer on
 * (C's promise, which depot.c trusts), its address made from the
 * pointer's value by adding and moving only (no cvta into another
 * space's), none known to start before it, and nothing stored at a
 * run-time offset (nor through a pointer stepped around a loop).  *hi:
 * the end of the constant-offset accesses (0 if none). */
ParamAccess *param_accesses_indexed(const Func *f, const char *param, uint32_t *n, int64_t *hi,
	uint32_t *indexed)
{
	ParamUse u = param_walk(f, param, NULL, 1);
	uint32_t k = 0, stored = 0;
	for (uint32_t i = 0; i < u.ngot; i++)
		k += u.got[i].indexed, stored += u.got[i].indexed && u.got[i].store;
	int exact = u.lo < u.hi;
	if (!u.loads || !u.ngot || u.not_ldst || u.other || (exact && u.lo < 0) ||
	    (u.inexact && (!k || stored || u.below || u.converted))) {   /* (stored: u.stored_indexed too) */
		free(u.got);
		return NULL;
	}
	*n = u.ngot, *hi = exact ? u.hi : 0, *indexed = k;
	return u.got;
}

/* Does f store through pointer parameter param at a run-time offset:
 * through an address made from its value by adding one that is not a
 * constant (a[j] = x)?  ptxas holds a local array in registers only
 * where it can tell where every store lands, so an object of the
 * caller's passed there stays in memory once the call is inlined, as it
 * was.  A pointer stepped by constants around a loop is no such store:
 * ptxas unrolls the loop and places each. */
int param_stored_indexed(const Func *f, const char *param)
{
	return param_reads(f, param).stored_indexed;
}

/* ---- functions that only read through a pointer argument ---------------- */

/* A module function's arguments that borrowers_args says of, found the
 * first time a call of it is asked about. */
typedef struct Borrower {
	const char *name;
	const Func *f;
	int known;
	uint32_t args, writes;      /* writes: those args it may also store through */
	uint32_t whole;             /* those it reaches at run-time offsets too */
	int64_t lo[32], hi[32];   /* per argument in args: the bytes it touches (whole: at least) */
	int widest[32];           /* per whole argument: its widest access */
	UT_hash_handle hh;
} Borrower;

/* Callees passing a pointer on, each asked while the last is: past this
 * many the next is not asked (its pointer not followed), a bound on the
 * C stack the recursion takes. */
enum { BORROW_DEPTH = 32 };

struct Borrowers {
	Borrower *v, *by_name;
	uint32_t n;
	int runtime;   /* the toolchain's vprintf is the one the module calls */
	int depth;     /* borrowers_args asked inside another's walk */
};

/* Does f only load and store through what pointer parameter param
 * points to, keeping nothing of it (the pointer not stored, passed on,
 * returned, compared)?  Then a call lends it an object: reads (and may
 * write: *stored) it during the call, as vprintf reads its buffer, and
 * the object is the caller's alone again after it.  1: at constant
 * offsets only, the bytes in *lo .. *hi.  2: at run-time offsets too,
 * so the whole object from the address on (C's promise, which depot.c
 * trusts: an address computed from an array stays inside it), each
 * access at most *widest bytes, the object at least 0 .. *hi; not when
 * an access is known to start before the address, which the object
 * would not hold, nor wider than 16 bytes, past what a lent object's
 * alignment keeps. */
static int param_borrowed(const Func *f, const char *param, int64_t *lo, int64_t *hi, int *widest,
	int *stored, Borrowers *rd)
{
	ParamUse u = param_walk(f, param, rd, 0);
	*lo = u.lo, *hi = u.hi, *stored = u.stored, *widest = u.widest;
	if (!u.loads || u.not_ldst || u.other)
		return 0;
	if (!u.inexact)
		return u.lo < u.hi;
	*lo = 0, *hi = u.reach;
	return u.widest > 0 && u.widest <= 16 && !u.below ? 2 : 0;
}

Borrowers *borrowers_build(const Module *m)
{
	Borrowers *rd = xcalloc(1, sizeof *rd);
	rd->runtime = !defines_runtime(m);
	for (const Stmt *s = m->items.head; s; s = s->next)
		rd->n += s->kind == S_FUNC && s->func->has_body;
	rd->v = xcalloc(rd->n + 1, sizeof *rd->v);
	uint32_t i = 0;
	for (const Stmt *s = m->items.head; s; s = s->next) {
		Borrower *r, *old;
		/* a .weak body may give way to another at a later link */
		if (s->kind != S_FUNC || !s->func->has_body || s->func->linkage == LINK_WEAK)
			continue;
		r = &rd->v[i++];
		*r = (Borrower){.name = s->func->name, .f = s->func};
		HASH_FIND_PTR(rd->by_name, &r->name, old);
		if (!old)
			HASH_ADD_PTR(rd->by_name, name, r);
	}
	return rd;
}

/* The arguments (bit k: the k-th) whose pointer a call of callee only
 * reads (or writes) through and keeps nothing of: the toolchain's
 * (runtime_reads_only) where the module calls the toolchain's, a module
 * function's as its body says (param_borrowed), asked once per function.
 * NULL rd: the toolchain's only. */
uint32_t borrowers_args(Borrowers *rd, const char *callee)
{
	if (!rd)
		return runtime_reads_only(callee);
	Borrower *r;
	HASH_FIND_PTR(rd->by_name, &callee, r);
	if (!r)
		return rd->runtime ? runtime_reads_only(callee) : 0;
	if (!r->known) {
		if (rd->depth == BORROW_DEPTH)
			return 0;   /* not kept: asked again nearer the top, it is followed */
		r->known = 1;   /* asked again inside (recursion): the arguments known so far */
		rd->depth++;
		for (uint32_t k = 0; k < r->f->nparams && k < 32; k++) {
			int st, how = decl_space(&r->f->params[k]) != SPACE_PARAM ? 0 :
				param_borrowed(r->f, r->f->params[k].ds[0].name, &r->lo[k], &r->hi[k],
					&r->widest[k], &st, rd);
			if (how)
				r->args |= 1u << k, r->writes |= (uint32_t)st << k;
			r->whole |= (uint32_t)(how == 2) << k;
		}
		rd->depth--;
	}
	return r->args;
}

/* The bytes argument k of a call of callee reads from the address lent
 * there: 1 for a module function's (borrowers_args first), 0 for the
 * toolchain's, which may read any bytes of the object from it on.  A
 * module function that indexes it reaches the object from the address
 * on too: no reach, but how and its widest access. */
static int borrowers_reach(Borrowers *rd, const char *callee, uint32_t k, Lend *l)
{
	Borrower *r = NULL;
	if (rd)
		HASH_FIND_PTR(rd->by_name, &callee, r);
	if (!r || k >= 32 || !(borrowers_args(rd, callee) >> k & 1))
		return 0;
	l->lo = r->lo[k], l->hi = r->hi[k];
	l->how = USE_READ | (r->writes >> k & 1 ? USE_WRITE : 0);
	l->reach = !(r->whole >> k & 1);
	l->widest = l->reach ? 0 : r->widest[k];
	return 1;
}

void borrowers_free(Borrowers *rd)
{
	if (rd)
		HASH_CLEAR(hh, rd->by_name);
	free(rd ? rd->v : NULL);
	free(rd);
}

/* Why access a needs memory, as far as its form says: registers could
 * take its place only for a plain ld or st (no volatile or ordered one)
 * at a constant offset, 1 to 8 bytes an element (a byte is its register's
 * low bits: memacc_value_fits asks what holds it). */
const char *memacc_why_memory(const MemAccess *a)
{
	if (a->lent)
		return "its address is passed to a call";
	if (!a->exact)
		return "an access at a run-time offset";
	return memacc_why_form(a);
}

const char *memacc_why_form(const MemAccess *a)
{
	const Spelling *sp = a->at->ins.sp;
	if ((sp->code != O_ld && sp->code != O_st) || a->at->ins.nops != 2 || sp->unknown)
		return "an access other than a plain load or store";
	for (uint32_t i = 0; i < sp->nmods; i++) {
		const ModWord *w = &sp->words[i];
		if (w->kind == MW_MOD && (mod_group(w->id) == MG_ORDER || mod_group(w->id) == MG_SCOPE))
			return "a volatile or ordered access";
	}
	if (sp->type_bytes < 1 || sp->type_bytes > 8)
		return "an access wider than 8 bytes";
	return NULL;
}

/* Whether element e of an access can move to or from a register of
 * `bytes` bytes: a register declared that wide, a load's sink '_', a
 * stored constant. */
int memacc_value_fits(const Names *regs, const Expr *e, int bytes, int store)
{
	int64_t k;
	if (is_sink(e))
		return !store;
	if (e->kind == E_NUM || int_operand(e, &k))
		return store;
	if (e->kind != E_NAME || e->str[0] != '%' || is_special_reg(e->str))
		return 0;
	const char *t = names_type(regs, e->str);
	return t && type_bytes(t) == bytes;
}
