/* dce.c: code whose values nothing that matters reads goes, calls of
 * functions free of effects among it, and branches nothing that stays
 * depends on jump straight to where their ways meet (issue 33).
 *
 * NVVM deletes a call whose results are dead when it can see the callee
 * has no effect (-dlto sees every callee); compiled file by file, a call
 * across files stays, and ptxas removes no call.  A generated program's
 * `h = h * 91u + fold_float3(fn1(...))` at the end of fn2, h read no
 * more, keeps a call of fn1 in every copy of fn2; so does the test before
 * it, `if ((h & 7u) == 1u) return;`, whose two ways now do the same.
 *
 * Aggressive dead-code elimination (Cytron, Ferrante, Rosen, Wegman and
 * Zadeck; LLVM's ADCE), per function:
 *   - roots: what has an effect: stores (but a call's st.param, and
 *     those into the function's own frame, below), calls but those of
 *     functions free of effects (ir/effects.c), ret, exit, trap,
 *     barriers, ordered or volatile loads, reads of its own parameters,
 *     unknown instructions, the guarded branches of blocks on a cycle (a
 *     loop is kept: it may not end) and every instruction of unreachable
 *     code (left alone);
 *   - a live instruction makes live every instruction writing a register
 *     it reads (by name: the same as reaching definitions in code that
 *     writes a register once, more elsewhere), the st.params of a call,
 *     the call an ld.param reads the result of, the stores into its
 *     frame whose bytes it may read (a load, or a call lent them), and
 *     the guarded branches its block is control dependent on (the
 *     reverse dominance frontier, from ir/cfg.c's post-dominators);
 *   - the rest goes, but labels, unconditional branches (each goes to
 *     its block's one successor, a post-dominator) and guarded branches:
 *     a dead one becomes `bra.uni` to the nearest post-dominator holding
 *     live code, and so skips code that is all dead.  Where that block
 *     has no label in reach, the branch stays live.
 * Where a block reaches no end of the function, or the frontier grows
 * past a bound, every guarded branch is a root: what goes is then what no
 * root reads.  A module with -G DWARF is left alone (its variables live
 * in registers by name).  What goes can be the last call of a function or
 * the last use of a variable: globalopt's dead-code step runs after.
 *
 * requires: normalized IR / maintains: normalized IR, the module's
 * symbols but the uses removed / breaks: any CFG or analysis of the
 * functions it changes. */
#include <stdlib.h>
#include "stages.h"
#include "ir/ptrhash.h"

enum { NONE = UINT32_MAX };
/* pairs of the reverse dominance frontier per block, before every guarded
 * branch is taken for a root instead (a chain of nested tests is the
 * frontier's worst case) */
enum { RDF_PER_BLOCK = 16, RDF_MIN = 4096 };
/* bytes of local objects whose stores are followed, times the blocks,
 * per function (a bit each) */
enum { MEM_BITS = 1 << 26 };

/* --stats, summed over the module: counted, never read to decide */
typedef struct Stats {
	unsigned funcs, ins, calls, branches;
} Stats;

/* A register whose writers are marked already. */
typedef struct Seen {
	UT_hash_handle hh;
	const char *name;
} Seen;

typedef struct Mem {
	MemObjs *mo;
	uint32_t *acc_of;        /* instruction -> its first access, NONE */
	uint32_t *first;         /* object -> its first byte's number, NONE: not followed */
	uint64_t *seen;          /* (byte number, block): searched back from the block's end */
	uint32_t *all;           /* object -> its stores, chained through next */
	uint32_t *next;          /* instruction -> the next store of its object */
	uint32_t *stack;         /* the blocks a search has yet to walk */
	MemEnds *ends;           /* object -> where its variables end, when asked */
	uint8_t *ends_known;
} Mem;

typedef struct Dce {
	const StageOptions *o;
	const Effects *fx;
	Borrowers *rd;           /* for memobj: calls lent an object read it */
	Func *f;
	Cfg *g;
	Arena *a;                /* this function's */
	Defs *writers;           /* every write of each register (ir/defs.c's stand-in) */
	Seen *seen;
	uint32_t *buf, nbuf;     /* a register's writers, asked */
	uint32_t *call_of;       /* instruction -> the call whose .param it accesses */
	uint32_t *next_arg;      /* st.params of one call, chained from arg_head */
	uint32_t *arg_head;
	uint8_t *call_root;      /* a call sharing a .param with another */
	uint8_t *live, *blk_live;
	uint32_t *work, nwork;
	uint32_t *ipdom;
	uint32_t *rdf_first, *rdf;   /* block -> the blocks it is control dependent on */
	int all_branches;
	Mem mem;
	const Stmt **label_of;   /* block -> the label it starts with, NULL */
	Places pl;               /* each statement's list */
	struct Outer *outer;     /* a { } block's list -> the list around it */
	struct ParamOf *params;  /* the .params { } blocks declare */
} Dce;

/* ---- the body: lists, labels, calls and their .params ------------------- */

/* A { } block's list and the list around it; a .param the body declares
 * (a call's: scope.c renames none, each call block declares its param0
 * again) by the list declaring it, and the call naming it. */
typedef struct Outer {
	UT_hash_handle hh;
	const List *in, *outer;
} Outer;

typedef struct ParamKey {
	uintptr_t mix;      /* first: ptrhash.h hashes a key's first word (each call
	                     * block declares its pa: by name alone, one chain) */
	const char *name;
	const List *in;
} ParamKey;

static ParamKey param_key(const char *name, const List *in)
{
	return (ParamKey){(uintptr_t)name ^ (uintptr_t)in * 0x9e3779b97f4a7c15u, name, in};
}

typedef struct ParamOf {
	UT_hash_handle hh;
	ParamKey key;
	uint32_t call;
} ParamOf;

static void add_param_decl(Dce *d, const List *in, const char *name)
{
	ParamOf *p = arena_alloc(d->a, sizeof *p);
	*p = (ParamOf){.key = param_key(name, in), .call = NONE};
	HASH_ADD(hh, d->params, key, sizeof p->key, p);
}

/* One walk: each block's label, the lists around { } blocks, the .params
 * blocks declare. */
static void scan_body(Dce *d)
{
	BodyIt it;
	uint32_t j = 0;
	const Stmt *last = NULL;
	d->label_of = arena_alloc(d->a, (d->g->nblocks + 1) * sizeof *d->label_of);
	for (const Stmt *s = body_first(&d->f->body, &it); s; s = body_next(&it))
		if (s->kind == S_LABEL)
			last = s;
		else if (s->kind == S_SCOPE) {
			Outer *o = arena_alloc(d->a, sizeof *o);
			*o = (Outer){.in = &s->scope, .outer = it.in};
			HASH_ADD_PTR(d->outer, in, o);
		} else if (s->kind == S_VAR && decl_space(&s->var) == SPACE_PARAM)
			add_param_decl(d, it.in, s->var.ds[0].name);
		else if (s->kind == S_INS) {
			uint32_t b = d->g->block_of[j];
			if (d->g->blocks[b].first == j++ && last)
				d->label_of[b] = last;
			last = NULL;
		}
}

static const List *in_of(const Dce *d, const Stmt *s)
{
	return place_of(&d->pl, s)->in;
}

static const List *outer_of(const Dce *d, const List *in)
{
	Outer *o;
	HASH_FIND_PTR(d->outer, &in, o);
	return o ? o->outer : NULL;
}

/* A label declared in list decl is seen from list from and those inside. */
static int sees(const Dce *d, const List *from, const List *decl)
{
	while (from && from != decl)
		from = outer_of(d, from);
	return from != NULL;
}

/* The block .param a name read or written in list in resolves to. */
static ParamOf *param_of(const Dce *d, const List *in, const char *name)
{
	for (; in; in = outer_of(d, in)) {
		ParamOf *p;
		ParamKey k = param_key(name, in);
		HASH_FIND(hh, d->params, &k, sizeof k, p);
		if (p)
			return p;
	}
	return NULL;
}

/* A .param two calls name (devirtualization's funnels share theirs)
 * ties neither: both calls are roots, its st.params too. */
enum { SHARED = NONE - 1 };

static void claim_params(Dce *d, const Expr *list, uint32_t call)
{
	for (uint32_t k = 0; list && k < list->n; k++) {
		ParamOf *p = list->kids[k]->kind == E_NAME ? param_of(d, in_of(d, d->g->ins[call]), list->kids[k]->str) : NULL;
		if (p && p->call == NONE)
			p->call = call;
		else if (p && p->call != call) {
			if (p->call != SHARED)
				d->call_root[p->call] = 1;
			p->call = SHARED;
			d->call_root[call] = 1;
		}
	}
}

/* Each st.param into, and ld.param from, a call's .params belongs to it. */
static void find_calls(Dce *d)
{
	uint32_t n = d->g->nins;
	CallParts cp;
	d->call_of = arena_alloc(d->a, (n + 1) * sizeof *d->call_of);
	d->next_arg = arena_alloc(d->a, (n + 1) * sizeof *d->next_arg);
	d->arg_head = arena_alloc(d->a, (n + 1) * sizeof *d->arg_head);
	d->call_root = arena_alloc(d->a, n + 1);
	for (uint32_t j = 0; j < n; j++) {
		d->call_of[j] = d->arg_head[j] = NONE;
		const Ins *in = &d->g->ins[j]->ins;
		if ((in->sp->op->flags & OF_CALL) && ins_call_parts(in, &cp)) {
			claim_params(d, cp.args, j);
			claim_params(d, cp.rets, j);
		}
	}
	for (uint32_t j = 0; j < n && d->params; j++) {
		const char *name;
		int64_t off;
		int k = param_at(&d->g->ins[j]->ins, &name, &off);
		ParamOf *p = k >= 0 ? param_of(d, in_of(d, d->g->ins[j]), name) : NULL;
		if (!p || p->call >= SHARED)
			continue;
		d->call_of[j] = p->call;
		if (k == 0) {   /* st.param: read when its call runs */
			d->next_arg[j] = d->arg_head[p->call];
			d->arg_head[p->call] = j;
		}
	}
}

/* ---- control dependence ------------------------------------------------------ */

typedef struct Pair {
	uint32_t blk, on;
} Pair;

static int by_blk(const void *x, const void *y)
{
	const Pair *a = x, *b = y;
	return a->blk != b->blk ? (a->blk > b->blk) - (a->blk < b->blk) : (a->on > b->on) - (a->on < b->on);
}

/* The frontier walk up the post-dominator tree from each way out of a
 * branching block; 0 when a block reaches no end or the pairs pass the
 * bound. */
static int control_deps(Dce *d)
{
	const Cfg *g = d->g;
	uint32_t nb = g->nblocks, max = RDF_PER_BLOCK * nb + RDF_MIN, n = 0, cap = 0;
	Pair *v = NULL;
	d->ipdom = cfg_postdoms(g);
	for (uint32_t b = 0; b < nb; b++)
		if (g->blocks[b].rpo != NONE && d->ipdom[b] == NONE)
			return 0;
	for (uint32_t b = 0; b < nb; b++) {
		const Block *bl = &g->blocks[b];
		if (bl->rpo == NONE || bl->nsucc + cfg_ends_function(g, b) < 2)
			continue;
		for (uint32_t e = 0; e < bl->nsucc; e++)
			for (uint32_t r = bl->succ[e]; r != d->ipdom[b] && r < nb; r = d->ipdom[r]) {
				if (n == max) {
					free(v);
					return 0;
				}
				v = array_grow(v, n, &cap, sizeof *v);
				v[n++] = (Pair){r, b};
			}
	}
	if (n)   /* qsort is given no NULL */
		qsort(v, n, sizeof *v, by_blk);
	d->rdf_first = arena_alloc(d->a, (nb + 2) * sizeof *d->rdf_first);
	d->rdf = arena_alloc(d->a, (n + 1) * sizeof *d->rdf);
	for (uint32_t i = 0; i < n; i++)
		d->rdf_first[v[i].blk + 1]++, d->rdf[i] = v[i].on;
	for (uint32_t b = 0; b < nb; b++)
		d->rdf_first[b + 1] += d->rdf_first[b];
	free(v);
	return 1;
}

/* ---- local memory: stores only dead loads read --------------------------- */

/* A store into an object of the function's own frame whose address goes
 * nowhere (memobj.c) is live only when a live load may read a byte of it
 * that it wrote: each byte a live load reads is searched for backwards,
 * through predecessors, up to the stores that surely write it (each
 * (byte, block end) searched once for the whole function: what reaches a
 * block's end does not depend on the load that asked).  NVVM gives
 * variables whose lives do not overlap the same bytes (fn4's three
 * temporaries of fn2's calls at one offset), so a byte read somewhere
 * says nothing of a store elsewhere.  A store at a run-time offset may
 * write any byte (it is marked where a search passes it, and the search
 * goes on); a load at one reads every store of the object.  A .local
 * load of an unknown object, or an answer memobj found partial, makes
 * every store a root. */

/* Whether the function's local stores are followed at all. */
static int mem_followed(const Dce *d, const MemObjs *mo)
{
	if (mo->partial)
		return 0;
	for (uint32_t i = 0; i < mo->nacc; i++)
		if (mo->acc[i].obj < 0 && (mo->acc[i].how & USE_READ) && !mo->acc[i].generic)
			return 0;
	for (uint32_t j = 0; j < d->g->nins; j++) {
		const Ins *in = &d->g->ins[j]->ins;
		if ((in->sp->op->flags & OF_LOAD) && in->sp->space == SPACE_LOCAL && d->mem.acc_of[j] == NONE)
			return 0;
	}
	return 1;
}

static int exact_range(const MemAccess *a, const MemObj *o, int64_t *lo, int64_t *hi)
{
	if ((!a->exact && !a->bounded) || a->ncand || a->width <= 0)
		return 0;
	*lo = a->off, *hi = a->off + (a->bounded ? a->spread : 0) + a->width;
	return *lo >= 0 && *hi <= o->size;
}

static void mem_place(Dce *d, uint32_t j);

static void mem_build(Dce *d)
{
	Mem *k = &d->mem;
	uint32_t n = d->g->nins, nb = d->g->nblocks;
	uint64_t bytes = 0;
	k->acc_of = arena_alloc(d->a, (n + 1) * sizeof *k->acc_of);
	k->next = arena_alloc(d->a, (n + 1) * sizeof *k->next);
	for (uint32_t j = 0; j < n; j++)
		k->acc_of[j] = k->next[j] = NONE;
	k->mo = memobjs_build_reads(d->f, d->rd);
	for (uint32_t i = 0; i < k->mo->nacc; i++)
		if (k->mo->acc[i].ins < n && k->acc_of[k->mo->acc[i].ins] == NONE)
			k->acc_of[k->mo->acc[i].ins] = i;
	uint32_t no = k->mo->nobjs;
	k->first = arena_alloc(d->a, (no + 1) * sizeof *k->first);
	k->all = arena_alloc(d->a, (no + 1) * sizeof *k->all);
	int on = mem_followed(d, k->mo);
	for (uint32_t o = 0; o < no; o++) {
		const MemObj *ob = &k->mo->objs[o];
		int fits = ob->size > 0 && (bytes + (uint64_t)ob->size) * (nb + 1) <= MEM_BITS;
		k->all[o] = NONE;
		k->first[o] = on && !ob->escapes && fits ? (uint32_t)bytes : NONE;
		bytes += k->first[o] != NONE ? (uint64_t)ob->size : 0;
	}
	k->seen = xcalloc((bytes * (nb + 1) + 63) / 64 + 1, sizeof *k->seen);
	k->stack = arena_alloc(d->a, (nb + 1) * sizeof *k->stack);
	k->ends = arena_alloc(d->a, (no + 1) * sizeof *k->ends);
	k->ends_known = arena_alloc(d->a, no + 1);
	for (uint32_t j = 0; j < n; j++)
		mem_place(d, j);
}

/* The bytes a load at a run-time offset may read: under NVVM's or LLVM's
 * layout, its variable's, from the anchor its address came from to the
 * next (ir/memobj.c's memends_anchored); not from its base, which may lie
 * past what it reads (clang's &a[2] + (j - 2) * 4, a[2] one past the
 * end).  0 when any byte of the object. */
static int indexed_range(Dce *d, const MemAccess *a, int64_t *lo, int64_t *hi)
{
	Mem *k = &d->mem;
	if (!d->f->layout_kept || a->anchor < 0 || a->ncand)
		return 0;
	const MemAnchor *an = &k->mo->anchors[a->anchor];
	if (an->op != MEM_ARITH || an->fixed || an->off < 0)
		return 0;
	if (!k->ends_known[a->obj]) {
		k->ends_known[a->obj] = 1;
		memends_of(k->mo, a->obj, 1, &k->ends[a->obj]);
	}
	memends_anchored(&k->ends[a->obj], an->off, lo, hi);
	return *hi > *lo && *hi <= k->mo->objs[a->obj].size;
}

/* Store j's access when it writes a followed object only (else NULL). */
static const MemAccess *followed_store(const Dce *d, uint32_t j)
{
	const Mem *k = &d->mem;
	uint32_t i = k->acc_of[j];
	if (i == NONE || d->g->ins[j]->ins.sp->code != O_st)
		return NULL;
	const MemAccess *a = &k->mo->acc[i];
	return a->how == USE_WRITE && a->obj >= 0 && k->first[a->obj] != NONE ? a : NULL;
}

/* Each followed store on its object's list. */
static void mem_place(Dce *d, uint32_t j)
{
	const MemAccess *a = followed_store(d, j);
	if (a) {
		d->mem.next[j] = d->mem.all[a->obj];
		d->mem.all[a->obj] = j;
	}
}

static void mark(Dce *d, uint32_t j);

/* Back from instruction end (exclusive) to block b's first: the stores
 * that may write byte at of object obj marked, 1 once one surely does. */
static int walk_back(Dce *d, int obj, int64_t at, uint32_t b, uint32_t end)
{
	const Mem *k = &d->mem;
	for (uint32_t j = end; j-- > d->g->blocks[b].first;) {
		const MemAccess *a = followed_store(d, j);
		int64_t lo, hi;
		if (!a || a->obj != obj)
			continue;
		if (!exact_range(a, &k->mo->objs[obj], &lo, &hi)) {
			mark(d, j);
		} else if (lo <= at && at < hi) {
			mark(d, j);
			if (a->exact && !d->g->ins[j]->ins.guard)   /* @%p st: may not */
				return 1;
		}
	}
	return 0;
}

static int seen_once(Mem *k, int obj, int64_t at, uint32_t nb, uint32_t b)
{
	uint64_t bit = ((uint64_t)k->first[obj] + (uint64_t)at) * (nb + 1) + b;
	if (k->seen[bit / 64] >> (bit % 64) & 1)
		return 1;
	k->seen[bit / 64] |= (uint64_t)1 << (bit % 64);
	return 0;
}

/* The stores that may have written byte at of obj when instruction j
 * reads it. */
static void reach_byte(Dce *d, int obj, int64_t at, uint32_t j)
{
	Mem *k = &d->mem;
	const Cfg *g = d->g;
	uint32_t b = g->block_of[j], top = 0;
	if (walk_back(d, obj, at, b, j))
		return;
	for (;;) {
		for (uint32_t e = 0; e < g->blocks[b].npred; e++) {
			uint32_t p = g->blocks[b].pred[e];
			if (g->blocks[p].rpo != NONE && !seen_once(k, obj, at, g->nblocks, p))
				k->stack[top++] = p;
		}
		do {
			if (!top)
				return;
			b = k->stack[--top];
		} while (walk_back(d, obj, at, b, g->blocks[b].end));
	}
}

/* Live instruction j reading followed objects (a load, or a call lent
 * them): the stores it may read. */
static void mem_read(Dce *d, uint32_t j)
{
	Mem *k = &d->mem;
	int64_t lo, hi;
	for (uint32_t i = k->acc_of[j]; i < k->mo->nacc && k->mo->acc[i].ins == j; i++) {
		const MemAccess *a = &k->mo->acc[i];
		if (!(a->how & USE_READ) || a->obj < 0 || k->first[a->obj] == NONE)
			continue;
		if (exact_range(a, &k->mo->objs[a->obj], &lo, &hi) || indexed_range(d, a, &lo, &hi))
			for (int64_t at = lo; at < hi; at++)
				reach_byte(d, a->obj, at, j);
		else {   /* every store, once */
			for (uint32_t s = k->all[a->obj]; s != NONE; s = k->next[s])
				mark(d, s);
			k->all[a->obj] = NONE;
		}
	}
}

/* ---- liveness ------------------------------------------------------------------ */

static void mark(Dce *d, uint32_t j)
{
	if (j == NONE || d->live[j])
		return;
	d->live[j] = 1;
	d->work[d->nwork++] = j;
}

/* A register read by a live instruction: every write of it, once. */
static void mark_reg(void *ctx, const char *name, OpRole role)
{
	Dce *d = ctx;
	Seen *e;
	if (role != ROLE_USE)
		return;
	HASH_FIND_PTR(d->seen, &name, e);
	if (e)
		return;
	e = arena_alloc(d->a, sizeof *e);
	e->name = name;
	HASH_ADD_PTR(d->seen, name, e);
	uint32_t n = defs_reaching(d->writers, 0, name, d->buf, d->nbuf);
	if (n > d->nbuf) {
		d->buf = xreallocarray(d->buf, n, sizeof *d->buf);
		d->nbuf = n;
		defs_reaching(d->writers, 0, name, d->buf, n);
	}
	for (uint32_t k = 0; k < n; k++)
		mark(d, d->buf[k]);
}

static void mark_block(Dce *d, uint32_t b)
{
	if (d->blk_live[b])
		return;
	d->blk_live[b] = 1;
	if (d->all_branches || d->g->blocks[b].rpo == NONE)
		return;
	for (uint32_t k = d->rdf_first[b]; k < d->rdf_first[b + 1]; k++)
		mark(d, d->g->blocks[d->rdf[k]].end - 1);
}

static void propagate(Dce *d)
{
	while (d->nwork) {
		uint32_t j = d->work[--d->nwork];
		const Ins *in = &d->g->ins[j]->ins;
		mark_block(d, d->g->block_of[j]);
		ins_names(in, mark_reg, d);
		mem_read(d, j);
		if (d->call_of[j] != NONE)
			mark(d, d->call_of[j]);   /* an ld.param of its result (an st.param: already) */
		for (uint32_t k = d->arg_head[j]; k != NONE; k = d->next_arg[k])
			mark(d, k);
	}
}

static int is_root(Dce *d, uint32_t j)
{
	const Ins *in = &d->g->ins[j]->ins;
	const Block *b = &d->g->blocks[d->g->block_of[j]];
	CallParts cp;
	if (b->rpo == NONE || !in->sp->op || in->sp->code == O_UNKNOWN)
		return 1;
	unsigned flags = in->sp->op->flags;
	if (in->sp->code == O_bra)
		return in->guard && (b->cyclic || d->all_branches);
	if (flags & OF_CALL)
		return d->call_root[j] || !(ins_call_parts(in, &cp) && cp.callee && cp.callee->kind == E_NAME && !cp.proto &&
			effects_none(d->fx, cp.callee->str));
	if (d->call_of[j] != NONE || followed_store(d, j))
		return 0;
	/* a read of the function's own parameters stays: ptxas drops it as
	 * cheaply, and ipo, not this stage, removes a parameter nothing
	 * reads (else a second run would: what ipo saw read, went here) */
	if (in->sp->code == O_ld && in->sp->space == SPACE_PARAM)
		return 1;
	if (flags & (OF_BRANCH | OF_TERM | OF_STORE | OF_SIDE | OF_OPAQUE))
		return 1;
	return (flags & OF_LOAD) && spelling_ordered(in->sp);
}

/* ---- the rewrite ------------------------------------------------------------- */

/* Where dead branch j goes: the nearest post-dominator of its block with
 * live code, by a label it sees; NULL when there is none. */
static const char *skip_to(Dce *d, uint32_t j)
{
	uint32_t nb = d->g->nblocks, p = d->ipdom[d->g->block_of[j]];
	while (p < nb && !d->blk_live[p])
		p = d->ipdom[p];
	const Stmt *l = p < nb ? d->label_of[p] : NULL;
	return l && sees(d, in_of(d, d->g->ins[j]), in_of(d, l)) ? l->label : NULL;
}

/* Liveness to its fixpoint, each dead branch that could not skip made
 * live and the walk done again. */
static void solve(Dce *d)
{
	uint32_t n = d->g->nins;
	Depot dp = func_depot(&d->f->body);
	for (uint32_t j = 0; j < n; j++)
		if (is_root(d, j) || d->g->ins[j] == dp.spl_def || d->g->ins[j] == dp.sp_def)
			mark(d, j);
	for (uint32_t b = 0; b < d->g->nblocks; b++)
		if (!d->g->blocks[b].nsucc)
			mark_block(d, b);
	uint32_t *br = arena_alloc(d->a, (n + 1) * sizeof *br), nbr = 0;
	for (uint32_t j = 0; j < n; j++)
		if (d->g->ins[j]->ins.sp->code == O_bra && d->g->ins[j]->ins.guard)
			br[nbr++] = j;
	for (int again = 1; again;) {
		propagate(d);
		again = 0;
		for (uint32_t k = 0; k < nbr; k++)   /* the dead ones left, in place */
			if (!d->live[br[k]] && !skip_to(d, br[k])) {
				mark(d, br[k]);
				again = 1;
			}
		uint32_t kept = 0;
		for (uint32_t k = 0; k < nbr; k++)
			if (!d->live[br[k]])
				br[kept++] = br[k];
		nbr = kept;
	}
}

static void rewrite(Dce *d, Module *m, Stats *st)
{
	unsigned before = st->ins + st->branches;
	for (uint32_t j = 0; j < d->g->nins; j++) {
		Stmt *s = d->g->ins[j];
		Ins *in = &s->ins;
		if (d->live[j] || (in->sp->code == O_bra && !in->guard))
			continue;
		if (in->sp->code == O_bra) {
			Expr **ops = arena_alloc(m->arena, sizeof *ops);
			ops[0] = name_expr(skip_to(d, j));
			if (d->o->dce.remarks && in->ops[0] == ops[0])
				diag_remark(s->loc, "%s: branch to %s always taken: what it skips is dead",
					quoted_name(d->f->name), ops[0]->str);
			else if (d->o->dce.remarks)
				diag_remark(s->loc, "%s: branch to %s goes to %s: what lies between is dead",
					quoted_name(d->f->name), in->ops[0]->kind == E_NAME ? in->ops[0]->str : "?",
					ops[0]->str);
			in->ops = ops;
			in->sp = spelling_of(intern_cstr("bra.uni"));
			in->guard = NULL;
			in->guard_neg = 0;
			st->branches++;
			continue;
		}
		CallParts cp;
		if ((in->sp->op->flags & OF_CALL) && d->o->dce.remarks && ins_call_parts(in, &cp))
			diag_remark(s->loc, "%s: call of %s removed: nothing reads its results, and it "
				"has no effect", quoted_name(d->f->name), quoted_name(cp.callee->str));
		st->calls += (in->sp->op->flags & OF_CALL) != 0;
		st->ins++;
		place_remove(place_of(&d->pl, s));
	}
	st->funcs += st->ins + st->branches != before;
}

static void release(Dce *d)
{
	HASH_CLEAR(hh, d->seen);
	places_free(&d->pl);
	defs_free(d->writers);
	free(d->buf);
	HASH_CLEAR(hh, d->outer);
	HASH_CLEAR(hh, d->params);
	free(d->ipdom);
	for (uint32_t o = 0; d->mem.ends_known && o < d->mem.mo->nobjs; o++)
		if (d->mem.ends_known[o])
			memends_free(&d->mem.ends[o]);
	memobjs_free(d->mem.mo);
	free(d->mem.seen);
	cfg_free(d->g);
	arena_free(d->a);
}

/* Whether f calls a function free of effects: else what could go is what
 * ptxas drops as well (registers nothing reads, branches around them) or
 * the locals and depot stages do (stores nothing reads), and the
 * function is left (on the CUB file, of a thousand functions, none calls). */
static int calls_pure(const Effects *fx, const Func *f)
{
	BodyIt it;
	CallParts cp;
	for (const Stmt *s = body_first_call(&f->body, &it, &cp); s; s = body_next_call(&it, &cp))
		if (cp.callee && cp.callee->kind == E_NAME && !cp.proto && effects_none(fx, cp.callee->str)) {
			body_end(&it);
			return 1;
		}
	return 0;
}

static void dce_func(const StageOptions *o, const Effects *fx, Borrowers *rd, Module *m, Func *f,
	Stats *st)
{
	Dce d = {.o = o, .fx = fx, .rd = rd, .f = f};
	if (!calls_pure(fx, f) || !(d.g = cfg_build(f)) || !d.g->nins) {
		cfg_free(d.g);
		return;
	}
	uint32_t n = d.g->nins;
	d.a = arena_new();
	d.live = arena_alloc(d.a, n + 1);
	d.work = arena_alloc(d.a, (n + 1) * sizeof *d.work);
	d.blk_live = arena_alloc(d.a, d.g->nblocks + 1);
	d.writers = defs_writers(d.g);
	places_of(&d.pl, &f->body);
	scan_body(&d);
	find_calls(&d);
	mem_build(&d);
	d.all_branches = !control_deps(&d);   /* post-dominators either way */
	solve(&d);
	rewrite(&d, m, st);
	release(&d);
}

void dce(Module *m, const StageOptions *o)
{
	if (o->dce.off || mod_has_dwarf(m))
		return;
	Stats st = {0};
	Effects *fx = effects_build(m);
	Borrowers *rd = borrowers_build(m);
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body)
			dce_func(o, fx, rd, m, s->func, &st);
	borrowers_free(rd);
	effects_free(fx);
	if (st.ins)   /* the last calls of a function, the last uses of a variable */
		globalopt_dead(m, o);
	if (o->stats && st.funcs)
		diag_note("dce: %u functions changed: %u instructions removed (%u calls), "
			"%u branches skip dead code", st.funcs, st.ins, st.calls, st.branches);
}
