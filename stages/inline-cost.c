/* inline-cost.c: the facts that decide whether the inline stage copies a
 * call in (issue 24): what a copy folds, or computes once, of constant
 * and shared arguments, what it does with the caller's local arrays, and
 * the rest the cost model (cost.c) weighs.  inline.c holds the stage: its
 * driver, its contract, the rewriting a call that goes in gets, and the
 * question devirtualization asks; it asks this file, never the other way
 * round.  inline.h holds what the two share. */
#include <stdlib.h>
#include <string.h>
#include "inline.h"
#include "cost.h"

/* ---- constant and shared arguments ----------------------------------------- */

/* What a copy computes from constant arguments alone folds in ptxas
 * (ir/fold.c), and what copies in one block compute from the same
 * values ptxas computes once: neither weighs against inlining. */

/* The callee's parameter elements its folding instructions come from,
 * one bit each; the rest share INPUT_OTHER, which no call fills. */
enum { MAX_INPUTS = 31 };
#define INPUT_OTHER (1u << MAX_INPUTS)

typedef struct Input {
	const char *param;           /* the callee's formal */
	int64_t off;
	int bytes;
} Input;

/* Folding instructions of the callee that come from the same inputs
 * and are computed once by copies sharing them (ir/fold.c) or not. */
typedef struct FoldFrom {
	uint32_t from, n;
	int shared;
} FoldFrom;

/* Once per callee (its body is final: callees are inlined into first). */
typedef struct Folds {
	Arena *arena;                /* the module's (In.arena) */
	const Func *callee;
	Input in[MAX_INPUTS];
	uint32_t nin;
	FoldFrom *v;
	uint32_t n, cap;
} Folds;

/* The bit of an element of the callee's parameters, 0 when none has it. */
static uint32_t input_find(const Folds *k, const char *param, int64_t off, int bytes)
{
	for (uint32_t i = 0; i < k->nin; i++)
		if (k->in[i].param == param && k->in[i].off == off && k->in[i].bytes == bytes)
			return 1u << i;
	return 0;
}

static uint32_t input_bit(Folds *k, const char *param, int64_t off, int bytes)
{
	uint32_t bit = input_find(k, param, off, bytes);
	if (bit || k->nin == MAX_INPUTS)
		return bit ? bit : INPUT_OTHER;
	k->in[k->nin] = (Input){param, off, bytes};
	return 1u << k->nin++;
}

static const char *formal(const Func *f, const char *name)
{
	for (uint32_t i = 0; i < f->nparams; i++)
		if (f->params[i].ds[0].name == name)
			return name;
	return NULL;
}

/* A read of the callee's parameters: the bits of its elements. */
static uint32_t param_read(void *ctx, const Ins *in)
{
	Folds *k = ctx;
	const char *name;
	int64_t off;
	if (param_at(in, &name, &off) != 1 || !formal(k->callee, name))
		return 0;
	uint32_t from = 0, n = in->sp->vec ? in->sp->vec : 1;
	for (uint32_t j = 0; j < n; j++)
		from |= input_bit(k, name, off + (int64_t)j * in->sp->type_bytes, in->sp->type_bytes);
	return from;
}

static void fold_count(void *ctx, uint32_t from, int shared)
{
	Folds *k = ctx;
	for (uint32_t i = 0; i < k->n; i++)
		if (k->v[i].from == from && k->v[i].shared == shared) {
			k->v[i].n++;
			return;
		}
	k->v = arena_grow(k->arena, k->v, k->n, &k->cap, sizeof *k->v);
	k->v[k->n++] = (FoldFrom){from, 1, shared};
}

static const Folds *folds_of(In *in, const CgFunc *c)
{
	Inlinee *e = &in->callee[cg_index_of(in->cg, c)];
	if (!(e->known & KNOWN_FOLDS)) {
		e->known |= KNOWN_FOLDS;
		e->folds = arena_alloc(in->arena, sizeof *e->folds);
		*e->folds = (Folds){.arena = in->arena, .callee = c->def};
		fold_given(c->def, param_read, e->folds, fold_count);
	}
	return e->folds;
}

/* The caller's registers as range.c and defs.c see them before any copy
 * goes in, made on the first argument asked about; at (by statement)
 * gives an instruction's index. */
typedef struct At {
	UT_hash_handle hh;
	const Stmt *s;
	uint32_t ins;
} At;

typedef struct Vals {
	Cfg *cfg;
	Live *live;
	Defs *defs;
	Ranges *rs;
	At *at, *ats;
	unsigned known;
} Vals;

static uint32_t vals_ins(Caller *fn, Vals *vs, const Stmt *s)
{
	if (!(vs->known & KNOWN_VALS)) {
		vs->known |= KNOWN_VALS;
		if ((vs->cfg = cfg_build(fn->f))) {
			vs->live = live_compute(vs->cfg);
			vs->defs = defs_compute(vs->cfg, vs->live);
			vs->rs = ranges_compute(fn->f, vs->cfg, vs->defs, &fn->names);
			vs->ats = xcalloc(vs->cfg->nins + 1, sizeof *vs->ats);
			for (uint32_t i = 0; i < vs->cfg->nins; i++) {
				At *a = &vs->ats[i];
				*a = (At){.s = vs->cfg->ins[i], .ins = i};
				HASH_ADD_PTR(vs->at, s, a);
			}
		}
	}
	At *a = NULL;
	if (vs->cfg)
		HASH_FIND_PTR(vs->at, &s, a);
	return a ? a->ins : UINT32_MAX;
}

static void vals_free(Vals *vs)
{
	HASH_CLEAR(hh, vs->at);
	free(vs->ats);
	ranges_free(vs->rs);
	defs_free(vs->defs);
	live_free(vs->live);
	cfg_free(vs->cfg);
}

/* An argument element as the copies see it: a constant (an immediate,
 * or a register whose value range.c knows there), a register and its
 * one reaching definition (the same at two calls of one block: no
 * redefinition between them), or not known (VAL_NONE, which no other
 * call shares). */
enum { VAL_NONE, VAL_INT, VAL_LIT, VAL_REG };
typedef struct Val {
	uint64_t kind, p, n;
} Val;

static Val arg_val(Caller *fn, Vals *vs, const Stmt *s, const Expr *e)
{
	int64_t c;
	if (int_operand(e, &c))
		return (Val){VAL_INT, 0, (uint64_t)c};
	if (e->kind == E_NUM)
		return (Val){VAL_LIT, (uintptr_t)e->str, 0};
	uint32_t at = vals_ins(fn, vs, s), d;
	int bits = names_bits(&fn->names, e);
	if (e->kind != E_NAME || at == UINT32_MAX || !bits)
		return (Val){VAL_NONE, 0, 0};
	Range r = range_of(vs->rs, at, e, bits);
	if (r.lo == r.hi)
		return (Val){VAL_INT, 0, r.lo};
	if (defs_reaching(vs->defs, at, e->str, &d, 1) == 1)
		return (Val){VAL_REG, (uintptr_t)e->str, d};
	return (Val){VAL_NONE, 0, 0};
}

/* What the site passes in each input of k (the st.params beside the
 * call); its block in the caller, UINT32_MAX when not known. */
static uint32_t site_vals(Caller *fn, Vals *vs, const CallSite *st, const Folds *k, Val *v)
{
	CallParts cp;
	memset(v, 0, (k->nin + 1) * sizeof *v);
	if (!ins_call_parts(&st->call->ins, &cp) || !cp.args)
		return UINT32_MAX;
	int64_t off;
	for (const Stmt *s = st->list->head; s && s != st->call; s = s->next)
		for (uint32_t i = 0; s->kind == S_INS && !s->ins.guard && i < cp.args->n && i < k->callee->nparams; i++) {
			if (cp.args->kids[i]->kind != E_NAME || param_moves_of(&s->ins, cp.args->kids[i]->str, &off) != 0)
				continue;
			const Expr *e = s->ins.ops[s->ins.nops - 1];
			uint32_t n = s->ins.sp->vec ? s->ins.sp->vec : 1;
			int bytes = s->ins.sp->type_bytes;
			for (uint32_t j = 0; j < n; j++) {
				uint32_t bit = input_find(k, k->callee->params[i].ds[0].name, off + (int64_t)j * bytes, bytes);
				if (bit)
					v[__builtin_ctz(bit)] = arg_val(fn, vs, s, n > 1 ? e->kids[j] : e);
			}
		}
	uint32_t at = vals_ins(fn, vs, st->call);
	return at == UINT32_MAX ? at : vs->cfg->block_of[at];
}

static int all_const(const Val *v, uint32_t from)
{
	if (from & INPUT_OTHER)
		return 0;
	for (uint32_t b = from; b; b &= b - 1)
		if (v[__builtin_ctz(b)].kind != VAL_INT && v[__builtin_ctz(b)].kind != VAL_LIT)
			return 0;
	return 1;
}

/* The inputs a group comes from at one call, as a key: copies in one
 * block with the same key compute the group once (the first one's
 * instance dominates the others'). */
typedef struct Seen {
	UT_hash_handle hh;
	uint64_t *key;               /* a hash of the rest first (the file hashes a key's first word) */
} Seen;

static int seen_before(Seen **table, Arena *a, uint32_t group, uint32_t block, const Val *v, uint32_t from)
{
	uint64_t key[3 * MAX_INPUTS + 3];
	uint32_t n = 1;
	key[n++] = (uint64_t)group << 32 | block;
	for (uint32_t b = from; b; b &= b - 1) {
		const Val *x = &v[__builtin_ctz(b)];
		key[n++] = x->kind, key[n++] = x->p, key[n++] = x->n;
	}
	key[0] = 0;
	for (uint32_t i = 1; i < n; i++)
		key[0] = (key[0] ^ key[i]) * 0x100000001b3u;
	Seen *e;
	HASH_FIND(hh, *table, key, n * sizeof *key, e);
	if (e)
		return 1;
	e = arena_alloc(a, sizeof *e);
	e->key = arena_dup(a, key, n * sizeof *key);
	HASH_ADD_KEYPTR(hh, *table, e->key, n * sizeof *key, e);
	return 0;
}

/* Over one callee's k calls (sites, by vals and block): each folding
 * instruction counts for every call passing its inputs as constants,
 * and a shared one for every call but the first passing the same values
 * in a block. */
static uint32_t callee_folds(const Folds *k, uint32_t n, Val *const *vals, const uint32_t *block)
{
	Seen *table = NULL;
	Arena *a = arena_new();
	uint32_t r = 0;
	for (uint32_t g = 0; g < k->n; g++) {
		const FoldFrom *f = &k->v[g];
		for (uint32_t i = 0; i < n; i++)
			if (all_const(vals[i], f->from) ||
			    (f->shared && !(f->from & INPUT_OTHER) && block[i] != UINT32_MAX &&
			    seen_before(&table, a, g, block[i], vals[i], f->from)))
				r += f->n;
	}
	HASH_CLEAR(hh, table);
	arena_free(a);
	return r;
}

/* Every site's folds over the caller's calls of its callee (the cost
 * model weighs them together), before any copy goes in: the calls of
 * one callee chained through CallSite.same (count_copies), each chain
 * walked once from its first call (linear: no call compared with every
 * other). */
void fold_sites(Caller *fn)
{
	uint32_t n = fn->nsites, none = UINT32_MAX;
	uint8_t *later = arena_alloc(fn->arena, n + 1);
	uint32_t *block = arena_alloc(fn->arena, (n + 1) * sizeof *block);
	Val **vals = arena_alloc(fn->arena, (n + 1) * sizeof *vals);
	Vals vs = {0};
	for (uint32_t i = 0; i < n; i++)
		if (fn->sites[i].same != none)
			later[fn->sites[i].same] = 1;
	for (uint32_t i = 0; i < n; i++) {
		const CgFunc *c = fn->sites[i].callee;
		const Folds *k = !later[i] && c->def && c->def->has_body ? folds_of(fn->in, c) : NULL;
		if (!k || !k->n)
			continue;
		uint32_t m = 0, folds;
		for (uint32_t j = i; j != none; j = fn->sites[j].same, m++) {
			vals[m] = arena_alloc(fn->arena, (k->nin + 1) * sizeof **vals);
			block[m] = site_vals(fn, &vs, &fn->sites[j], k, vals[m]);
		}
		folds = callee_folds(k, m, vals, block);
		for (uint32_t j = i; j != none; j = fn->sites[j].same)
			fn->sites[j].folds = folds;
	}
	vals_free(&vs);
}

/* ---- the cost model ----------------------------------------------------------- */

/* The facts the cost model weighs (cost.c) gathered for a call; why
 * each one matters, measured, is in docs/stages.md ("Inlining"). */

/* Whether c's body holds a call, a depot (final once asked: callees
 * are inlined into first). */
unsigned callee_frame(In *in, const CgFunc *c)
{
	Inlinee *e = &in->callee[cg_index_of(in->cg, c)];
	if (!(e->known & KNOWN_FRAME)) {
		e->known |= KNOWN_FRAME;
		e->frame = (body_calls(&c->def->body) ? FRAME_CALLS : 0) |
			(func_depot(&c->def->body).decl ? FRAME_DEPOT : 0);
	}
	return e->frame;
}

/* The thousandths of a caller's frame the copies of a call it kept out
 * end (its share of those calls), were they all to go in: none where
 * the callee has a frame of its own. */
int leaf_share(Caller *fn, const CallSite *st)
{
	return callee_frame(fn->in, st->callee) ? 0 : (int)(1000 * st->copies / fn->nleft);
}

/* The cost model's facts for the caller's calls of the site's callee
 * (cost.c): each copy less the call it replaces, less the body when
 * those were its last calls and it goes. */
CostFacts cost_facts(Caller *fn, const CallSite *st, const CopyPlan *p)
{
	In *in = fn->in;
	const CgFunc *c = st->callee;
	CostFacts f = caller_cost_facts(&fn->cf, in->inl, st->call, st->list, c, st->copies,
		in->callee[cg_index_of(in->cg, c)].ncalls);
	f.overhead = call_overhead(&p->b->ps, p->groups, p->ngroups);
	f.folds = (int)st->folds;
	uint64_t budget = inlinable_budget(in->inl), room = budget > in->moved ? budget - in->moved : 0;
	f.move_room = room < INT32_MAX ? (int)room : INT32_MAX;
	/* a callee's frame goes with its last call: each caller's share */
	uint32_t ncalls = in->callee[cg_index_of(in->cg, c)].ncalls;
	unsigned frame = callee_frame(in, c);
	if ((frame & FRAME_CALLS) && inlinable_removable(in->inl, c) && ncalls)
		f.frames = (int)(1000 * st->copies / (ncalls > st->copies ? ncalls : st->copies));
	if (fn->leaf)
		f.frames += leaf_share(fn, st);
	return f;
}
