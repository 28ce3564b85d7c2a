/* inline-cost.c: what decides whether the inline stage copies a call in
 * (issue 24): what a copy folds, or computes once, of constant and shared
 * arguments, the cost model, and devirtualization's question
 * (inline_ask).  inline.c holds the stage: its driver, its contract and
 * the rewriting a call that goes in gets; inline.h what the two share. */
#include <stdlib.h>
#include <string.h>
#include "inline.h"

/* ---- constant and shared arguments ----------------------------------------- */

/* NVVM folds stencil_weight(-1, 0) to an immediate; after a link the
 * call's copy folds in ptxas just as well (ir/fold.c), and a call that
 * stays keeps all of it.  Likewise copies whose calls pass the same
 * values: grid_at(g, x - 1, y), grid_at(g, x, y), grid_at(g, x + 1, y)
 * compute g.nx - 1 and the clamp of y once, and smooth3x3's nine calls
 * each clamp of x - 1, x, x + 1 once for three calls (measured in the
 * SASS: 6 IMNMX for 9 copies).  What a copy folds, or computes that an
 * earlier copy computed, weighs against inlining no more. */

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
	if (in->sp->code != O_ld || in->sp->space != SPACE_PARAM || in->nops != 2 ||
	    !addr_name_off(in->ops[1], &name, &off) || !formal(k->callee, name))
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
	k->v = array_grow(k->v, k->n, &k->cap, sizeof *k->v);
	k->v[k->n++] = (FoldFrom){from, 1, shared};
}

static const Folds *folds_of(In *in, const CgFunc *c)
{
	Folds **k = &in->folds[cg_index(in, c)];
	if (!*k) {
		*k = xcalloc(1, sizeof **k);
		(*k)->callee = c->def;
		fold_given(c->def, param_read, *k, fold_count);
	}
	return *k;
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
	int made;
} Vals;

static uint32_t vals_ins(Fn *fn, Vals *vs, const Stmt *s)
{
	if (!vs->made) {
		vs->made = 1;
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

static Val arg_val(Fn *fn, Vals *vs, const Stmt *s, const Expr *e)
{
	int64_t c;
	if (int_operand(e, &c))
		return (Val){VAL_INT, 0, (uint64_t)c};
	if (e->kind == E_NUM)
		return (Val){VAL_LIT, (uintptr_t)e->str, 0};
	uint32_t at = vals_ins(fn, vs, s), d;
	int bits = reg_bits(&fn->names, e);
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
static uint32_t site_vals(Fn *fn, Vals *vs, const Site *st, const Folds *k, Val *v)
{
	CallParts cp;
	memset(v, 0, (k->nin + 1) * sizeof *v);
	if (!ins_call_parts(&st->call->ins, &cp) || !cp.args)
		return UINT32_MAX;
	int64_t off;
	for (const Stmt *s = st->list->head; s && s != st->call; s = s->next)
		for (uint32_t i = 0; s->kind == S_INS && !s->ins.guard && i < cp.args->n && i < k->callee->nparams; i++) {
			if (cp.args->kids[i]->kind != E_NAME || param_access(&s->ins, cp.args->kids[i]->str, &off) != 0)
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
 * one callee chained through next, each chain walked once (linear: no
 * call compared with every other). */
void fold_sites(Fn *fn)
{
	In *in = fn->in;
	uint32_t n = fn->nsites, none = UINT32_MAX, *head = in->fold_head;
	uint32_t *next = xmalloc((n + 1) * sizeof *next), *block = xmalloc((n + 1) * sizeof *block);
	Val **vals = xcalloc(n + 1, sizeof *vals);
	Vals vs = {0};
	for (uint32_t i = n; i-- > 0;) {
		uint32_t *h = &head[cg_index(in, fn->sites[i].callee)];
		next[i] = *h ? *h - 1 : none;
		*h = i + 1;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t *h = &head[cg_index(in, fn->sites[i].callee)];
		if (*h != i + 1)
			continue;
		*h = 0;
		const CgFunc *c = fn->sites[i].callee;
		const Folds *k = c->def && c->def->has_body ? folds_of(in, c) : NULL;
		if (!k || !k->n)
			continue;
		uint32_t m = 0, folds;
		for (uint32_t j = i; j != none; j = next[j], m++) {
			vals[m] = xmalloc((k->nin + 1) * sizeof **vals);
			block[m] = site_vals(fn, &vs, &fn->sites[j], k, vals[m]);
		}
		folds = callee_folds(k, m, vals, block);
		for (uint32_t j = i; j != none; j = next[j])
			fn->sites[j].folds = folds;
		for (uint32_t j = 0; j < m; j++)
			free(vals[j]);
	}
	vals_free(&vs);
	free(vals);
	free(block);
	free(next);
}

/* What folds_of() made, for in_close(). */
void folds_free(In *in)
{
	for (uint32_t i = 0; i < cg_count(in->cg); i++)
		if (in->folds[i])
			free(in->folds[i]->v), free(in->folds[i]);
}

/* ---- the cost model ----------------------------------------------------------- */

/* Measured on tools/bench/lto-bench.sh (docs/lto-benchmark.md): what
 * grows SASS when calls go is not the callee's size alone.
 *  - NVVM unrolls a loop around a call before any link (-rdc cannot see
 *    the callee): vecmath's rotate_chain calls q_mul and three more in a
 *    loop unrolled 4 times plus a remainder, so each callee goes in 5
 *    times.  The cost is every copy the caller gets (Site.copies).
 *  - ptxas turns the ABI's moves into the registers it computes anyway:
 *    a parameter element costs about one instruction, not two.
 *  - Weighing calls on a loop up (threshold doubled) inlined exactly those
 *    unrolled copies; runtime is not measured, size is: loops weigh nothing.
 *  - An address in the caller's depot passed to the callee: once inlined,
 *    ptxas may keep the array in registers, each run-time index a chain
 *    of selects over its elements (depot_lifetimes' escapes: 128 B of
 *    stack gone, SASS 6,272 -> 14,720 B), and a loop bound passed as a
 *    constant has it unroll the callee's loops.  Such a call gets no
 *    discount for a body that goes, and the callee's loops count 3 more
 *    times (ptxas unrolls by 4).  Not where the callee stores into the
 *    array at a run-time index (filters' median9 sorts its window in
 *    place, hist16_add counts into bins[px >> 4]): ptxas keeps it in
 *    memory either way (-dlto's median3x3 keeps its 40 B), and the call
 *    is like any other (filters 14,080 -> 13,312).
 *    But where the callee reaches the array at constant offsets only
 *    (filters' gather3x3 fills win[0..8], convolve9 reads it), the copy
 *    lets the array leave the stack: stack is what the yardstick weighs
 *    first, so such a call weighs HELD_BONUS instructions less
 *    (convolve3x3: 72 B of stack gone, -dlto's 104 B reached).
 *  - Arguments that are constants at the call: what the copy computes
 *    from them alone folds in ptxas (fold_sites, ir/fold.c), so those
 *    instructions weigh nothing (stencil_xfile's 9 calls of
 *    stencil_weight(dx, dy) on immediates: 43 - 63 = -20; smooth3x3
 *    3,200 -> 2,432 SASS bytes, the callee's 176 gone).
 *  - Arguments that several calls in one block pass alike (one register,
 *    one reaching definition): what the copies compute from them alone
 *    ptxas computes once, so it weighs for the first copy only
 *    (stencil_xfile's grid_at(g, x +- 1, y): advect_x 40 -> 19,
 *    smooth3x3 90 -> 20 with the body going; 6,400 -> 5,376 SASS bytes,
 *    -dlto's 5,248).
 *  - The front end's unrolled loops unrolled again in the copy:
 *    inline.c's keep_unrolled().
 *  - Register pressure does not enter.  Weighed as the caller's
 *    registers live across the call (ir/live.c's sets; a 64-bit value 2,
 *    a predicate 0) plus the callee's peak live, the call refused above
 *    a limit: at 64, 96, 128 and 255 nothing moves on the yardstick or on
 *    gen-calls.py seeds 11-16 (the highest call inlined is local_arrays'
 *    mat_mul into transform, 26 + 37 = 63; PTX counts run below ptxas's:
 *    raytrace's render is at most 51 + 4 = 55 where ptxas gives 79); at
 *    48 raytrace goes 79 -> 102 registers (+2,688 B) and local_arrays
 *    32 -> 47, at 32 vcall_xfile's stack 112 -> 176 too.  A call that
 *    stays holds its caller's live values across it in callee-saved
 *    registers or the stack, so the copy costs ptxas fewer registers,
 *    not more (raytrace: 102 registers without inlining). */
enum { HELD_BONUS = 60 };
/* A body that goes with its last call is free to inline only up to this
 * size: a chain of functions each calling the next once would otherwise
 * collapse into one, each level copying all below it (quadratic; 2,000
 * levels took minutes), and so large a body is no cheaper inlined. */
enum { BODY_GOES_MAX = 400 };
/* CALLER_MAX, which decide() asks too, is in inline.h. */

/* What a call costs beyond the callee's own instructions: the call, the
 * return, a move per parameter element. */
static int call_overhead(const Plan *p)
{
	int n = 2;
	for (uint32_t i = 0; i < p->ngroups; i++)
		n += (int)p->b->params[p->groups[i].param].nslots;
	return n;
}

/* A body that goes once every call is inlined: no one else can call it
 * or take its address. */
int removable(const In *in, const CgFunc *c)
{
	return !c->address_taken && (in->o->world.closed || c->def->linkage == LINK_INTERNAL);
}

/* The caller's objects as it stands, the copies put in so far with it. */
static const MemObjs *caller_objs(Fn *fn)
{
	if (!fn->mo || fn->mo_put != fn->put) {
		memobjs_free(fn->mo);
		fn->mo = memobjs_build(fn->f);
		fn->mo_put = fn->put;
	}
	return fn->mo;
}

/* The registers holding an address in the caller's .local objects,
 * read once per caller (ir/memobj.c follows them). */
static const Names *local_addrs(Fn *fn)
{
	if (fn->locals_read)
		return &fn->locals;
	fn->locals_read = 1;
	const MemObjs *mo = caller_objs(fn);
	for (uint32_t i = 0; i < mo->ndefs; i++) {
		const Stmt *d = mo->defs[i].at;
		if (d->kind == S_INS && d->ins.nops && d->ins.ops[0]->kind == E_NAME)
			names_add(&fn->locals, d->ins.ops[0]->str, NULL);
	}
	return &fn->locals;
}

/* Does the call pass such an address (an st.param of one to an
 * argument, beside the call)?  LOCAL_HELD when every such argument's
 * parameter is accessed in the callee at constant offsets only
 * (ir/memobj.c): once inlined the object stays in registers (the depot
 * stage's scalar replacement), no run-time index becomes a chain of
 * selects.  0 where the callee stores through each of the others at a
 * run-time index (filters' median9 sorts its window in place,
 * hist16_add counts into bins[px >> 4]): the array stays in memory as
 * it was, the copy is like any other; 0 too where the caller itself
 * stores into it at a data index (stored_data).  Else LOCAL_PASSED: the callee
 * only reads it at run-time indices (depot_lifetimes' sum_through),
 * ptxas may hold it in registers once inlined. */
enum { LOCAL_PASSED = 1, LOCAL_HELD = 2 };

/* How the callee's parameter i treats an address passed there, once per
 * callee (its body is final: callees are inlined into first). */
enum { PARAM_HELD = 1, PARAM_STAYS = 2 };

static int param_held(In *in, const CgFunc *c, uint32_t i)
{
	int8_t **v = &in->held[cg_index(in, c)];
	if (!*v) {
		*v = xmalloc(c->def->nparams);
		memset(*v, -1, c->def->nparams);
	}
	const char *p = c->def->params[i].ds[0].name;
	if ((*v)[i] < 0)
		(*v)[i] = param_offsets_constant(c->def, p) ? PARAM_HELD :
			param_stored_indexed(c->def, p) ? PARAM_STAYS : 0;
	return (*v)[i];
}

/* Does the caller as it stands (the copies put in so far with it)
 * store into the object whose address reg holds at an index that comes
 * from data (ir/memobj.c: memobjs_stored_data)?  Then ptxas keeps that
 * object in memory, inlined or not: tile_modes counts into
 * bins[px >> 4] once hist16_add is in, so hist16_mode's reads of bins
 * stay loads.  A fill loop's counter is no such index (ptxas unrolls a
 * loop of constant trip count and holds the array in registers:
 * clang_depot_lifetimes' escapes fills seen[] so before sum_through). */
static int stored_data(Fn *fn, const char *reg)
{
	const MemObjs *mo = caller_objs(fn);
	int found = 0;
	for (uint32_t i = 0; i < mo->ndefs; i++) {
		const Stmt *d = mo->defs[i].at;
		if (d->kind != S_INS || !d->ins.nops || d->ins.ops[0]->kind != E_NAME || d->ins.ops[0]->str != reg)
			continue;
		if (!memobjs_stored_data(mo, mo->defs[i].obj))
			return 0;
		found = 1;
	}
	return found;
}

static int passes_local(Fn *fn, const Site *st)
{
	const Names *l = local_addrs(fn);
	const Func *callee = st->callee->def;
	CallParts cp;
	if (!ins_call_parts(&st->call->ins, &cp) || !cp.args)
		return 0;
	int64_t off;
	int passed = 0, held = 1, read = 0;
	for (const Stmt *s = st->list->head; s && s != st->call; s = s->next)
		for (uint32_t i = 0; s->kind == S_INS && i < cp.args->n; i++)
			if (cp.args->kids[i]->kind == E_NAME && param_access(&s->ins, cp.args->kids[i]->str, &off) == 0 &&
			    s->ins.ops[1]->kind == E_NAME && names_exact(l, s->ins.ops[1]->str)) {
				int how = i < callee->nparams ? param_held(fn->in, st->callee, i) : 0;
				passed = 1;
				held &= how == PARAM_HELD;
				read |= how == 0 && !stored_data(fn, s->ins.ops[1]->str);
			}
	return !passed ? 0 : held ? LOCAL_HELD : read ? LOCAL_PASSED : 0;
}

/* The callee's instructions on a loop, once per callee. */
static int loop_size(In *in, const CgFunc *c)
{
	uint32_t i = cg_index(in, c);
	if (in->loop_ins[i] < 0) {
		Cfg *cfg = cfg_build(c->def);
		in->loop_ins[i] = cfg ? (int)loops_size(cfg) : 0;
		cfg_free(cfg);
	}
	return in->loop_ins[i];
}

/* What inlining the callee into this caller adds, over all of the
 * caller's calls to it: each copy less the call it replaces, less the
 * body when those were its last calls and it goes. */
int cost(Fn *fn, const Site *st, const Plan *p)
{
	In *in = fn->in;
	const CgFunc *c = st->callee;
	int body = (int)body_size(&c->def->body), k = (int)st->copies;
	int total = k * (body - call_overhead(p)) - (int)st->folds;
	int local = passes_local(fn, st);
	if (local == LOCAL_PASSED)
		total += 3 * k * loop_size(in, c);
	else if (removable(in, c) && in->ncalls[cg_index(in, c)] == st->copies && body <= BODY_GOES_MAX)
		total -= body;
	if (local == LOCAL_HELD)
		total -= HELD_BONUS;
	return total;
}

/* ---- devirtualization's question ---------------------------------------------- */

/* devirt asks, before it makes an indirect call a funnel, whether this
 * stage would then inline every arm: decide()'s answer on the call as
 * it stands, each candidate in turn its callee, so that the cost model
 * is asked, never copied.  The callees' bodies are as they are before
 * any inlining (this stage inlines into them first). */
struct InlineAsk {
	In in;
	Fn fn;                       /* the last caller asked about */
};

InlineAsk *inline_ask_new(Module *m, const StageOptions *o)
{
	int mode = o->inlining.mode ? o->inlining.mode : INLINE_MODE_DEFAULT;
	if (mode == INLINE_NEVER)
		return NULL;
	InlineAsk *a = xcalloc(1, sizeof *a);
	in_open(&a->in, m, o, mode);
	return a;
}

/* The caller's work as inline_into() begins it, kept while devirt asks
 * about its calls. */
static Fn *ask_caller(InlineAsk *a, Stmt *fs)
{
	if (a->fn.fs != fs) {
		fn_close(&a->fn);
		fn_open(&a->fn, &a->in, fs, 1);
	}
	return &a->fn;
}

static uint32_t direct_calls(const Fn *fn, const CgFunc *c)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < fn->nsites; i++)
		n += fn->sites[i].callee == c;
	return n;
}

/* The figures devirt weighs a whole funnel by, where every callee goes
 * in: each one's copy at this one call less the call, as cost() weighs
 * a single call, and that call's own sequence (call_overhead). */
static void weigh_arms(Fn *fn, Bundle *b, uint32_t n, InlineCost *ic)
{
	ic->weighed = fn->in->mode != INLINE_ALWAYS;
	ic->threshold = fn->in->o->inlining.threshold;
	ic->call = call_overhead(&b->plans[0]);
	for (uint32_t i = 0; ic->weighed && i < n; i++) {
		Site one = *b->plans[i].site;
		one.copies = 1;
		ic->arm[i] = cost(fn, &one, &b->plans[i]);
	}
}

int inline_ask(InlineAsk *a, Stmt *caller, Stmt *call, List *l, const char *const *callees,
	const uint32_t *more, uint32_t n, int kept, InlineCost *ic, char *why, size_t nwhy)
{
	Fn *fn = ask_caller(a, caller);
	uint32_t m = n + (kept != 0);
	Site sites[m + 1], *v[m + 1];
	int w[m + 1], c[m + 1], t[m + 1];
	for (uint32_t i = 0; i < m; i++) {
		const CgFunc *g = cg_find(a->in.cg, callees[i < n ? i : 0]);
		if (!g)
			die("inline: asked about %s, which the call graph does not hold", callees[i < n ? i : 0]);
		/* the kept call is a site too, one no copy can replace */
		sites[i] = (Site){.call = call, .list = l, .callee = g,
			.copies = direct_calls(fn, g) + (i < n ? more[i] : 0), .asked = i < n};
		v[i] = &sites[i];
	}
	Bundle b = {.list = l, .sites = v, .n = m};
	b.plans = xcalloc(m + 1, sizeof *b.plans);
	decide(fn, &b, w, c, t);
	/* the first callee refused for its own reason, else for another's */
	uint32_t k = 0;
	while (k < n && (w[k] < 0 || w[k] == WHY_BUNDLE))
		k++;
	if (k == n)
		for (k = 0; k < n && w[k] < 0; k++)
			;
	if (k == n && ic)
		weigh_arms(fn, &b, n, ic);
	bundle_free(&b);
	if (k == n)
		return -1;
	if (w[k] == WHY_COST)
		snprintf(why, nwhy, "cost %d over threshold %d", c[k], t[k]);
	else
		snprintf(why, nwhy, "%s", why_text[w[k]]);
	return (int)k;
}

void inline_ask_free(InlineAsk *a)
{
	if (!a)
		return;
	fn_close(&a->fn);
	in_close(&a->in);
	free(a);
}
