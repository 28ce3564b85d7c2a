/* Scheduling: blocks one after another; in a block, warps take turns
 * (a slice of steps each); in a warp, the lanes run in lockstep.
 *
 * Lockstep without reconvergence points: each step runs the lanes whose
 * position (the call stack of (function, pc) pairs) is the least, so
 * lanes that branched ahead wait until the others catch up and the warp
 * reconverges at the join.  Because a lane spinning on a lock held by a
 * lane of its own warp would then never let the holder run (the pre-Volta
 * deadlock), a warp that stays divergent for long alternates to running
 * its most advanced lanes, as independent thread scheduling allows.
 *
 * Barriers: a thread at bar.sync waits until the expected number of
 * threads (all live threads of the block, or the count operand) arrived.
 * Warp collectives (shfl, vote, match, redux, bar.warp.sync) wait until
 * every live lane of their member mask has arrived at one, then run once
 * for all of them.
 */
#include <stdlib.h>
#include <string.h>
#include "run.h"

#define SLICE 512           /* warp steps before the next warp's turn */
#define FAIRNESS 4096       /* divergent steps before the order flips */

static inline Frame *top(Thread *t)
{
	return &t->fr[t->depth - 1];
}

/* Position order: (function, pc) from the outermost frame; a lane still
 * inside a call comes before one that has returned from it. */
static int keycmp(const Thread *a, const Thread *b)
{
	int n = a->depth < b->depth ? a->depth : b->depth;
	for (int i = 0; i < n; i++) {
		const Frame *x = &a->fr[i], *y = &b->fr[i];
		if (x->fn != y->fn)
			return x->fn->idx < y->fn->idx ? -1 : 1;
		if (x->pc != y->pc)
			return x->pc < y->pc ? -1 : 1;
	}
	return a->depth > b->depth ? -1 : a->depth < b->depth;
}

static uint32_t runnable(Warp *w)
{
	uint32_t m = 0;
	for (int i = 0; i < 32; i++)
		if ((w->exists >> i & 1) && w->lane[i]->state == TS_RUN)
			m |= 1u << i;
	return m;
}

static uint32_t live(Warp *w)
{
	uint32_t m = 0;
	for (int i = 0; i < 32; i++)
		if ((w->exists >> i & 1) && w->lane[i]->state != TS_DONE)
			m |= 1u << i;
	return m;
}

/* The lanes at the least (or, flipped, the greatest) position. */
static uint32_t pick(Warp *w, uint32_t run)
{
	Thread *best = NULL;
	uint32_t group = 0;
	for (int i = 0; i < 32; i++) {
		if (!(run >> i & 1))
			continue;
		Thread *t = w->lane[i];
		int c = best ? keycmp(t, best) : -1;
		if (w->flip)
			c = -c;
		if (!best || c < 0) {
			best = t;
			group = 1u << i;
		} else if (c == 0)
			group |= 1u << i;
	}
	return group;
}

static int guard_ok(Thread *t, const DIns *d)
{
	if (d->guard < 0)
		return 1;
	return (int)(t->r[d->guard] & 1) != d->gneg;
}

static void count_steps(uint32_t n, const DIns *d)
{
	M->steps += n;
	if (M->steps > M->max_steps)
		rt_fail(d, RUN_FAULT, "step limit of %llu instructions exceeded",
			(unsigned long long)M->max_steps);
}

/* ---- collectives ---- */

static uint32_t member_mask(Thread *t, const DIns *d)
{
	if (d->wfn == wx_wmma)
		return 0xFFFFFFFFu;  /* .aligned: the whole warp, no mask operand */
	if (!(d->mods & M(sync)) && d->wfn != wx_warpsync)
		return 0;  /* activemask and legacy forms: the lanes here now */
	const Opnd *m = &d->ops[d->nops - 1];
	if (d->wfn == wx_warpsync)
		m = &d->ops[0];
	return (uint32_t)rd(t, m);
}

/* Runs the collective if every live lane its waiters name has arrived. */
static int coll_try(Warp *w)
{
	uint32_t waiting = 0, need = 0, alive = live(w);
	for (int i = 0; i < 32; i++)
		if ((w->exists >> i & 1) && w->lane[i]->state == TS_COLL) {
			waiting |= 1u << i;
			need |= member_mask(w->lane[i], w->lane[i]->coll);
		}
	if (!waiting || (need & alive & ~waiting))
		return 0;
	int lo = __builtin_ctz(waiting);
	const DIns *d = w->lane[lo]->coll;
	d->wfn(w, d, waiting);
	for (int i = 0; i < 32; i++)
		if (waiting >> i & 1)
			w->lane[i]->state = TS_RUN;
	return 1;
}

static void coll_arrive(Warp *w, const DIns *d, uint32_t lanes)
{
	uint32_t need = 0;
	for (int i = 0; i < 32; i++)
		if (lanes >> i & 1) {
			Thread *t = w->lane[i];
			t->coll = d;
			t->state = TS_COLL;
			need |= member_mask(t, d);
		}
	if (!need) {  /* no member mask: exactly the lanes that came together */
		d->wfn(w, d, lanes);
		for (int i = 0; i < 32; i++)
			if (lanes >> i & 1)
				w->lane[i]->state = TS_RUN;
		return;
	}
	coll_try(w);
}

/* ---- stepping ---- */

static void step(Warp *w, uint32_t group)
{
	Thread *t0 = w->lane[__builtin_ctz(group)];
	Frame *f = top(t0);
	const DIns *d = &f->fn->ins[f->pc];
	uint32_t active = 0;
	M->cur = d;
	count_steps((uint32_t)__builtin_popcount(group), d);
	if (M->trace)
		fprintf(stderr, "trace: block %u warp %u lanes %08x line %u: %s\n", t0->b->ctaid[0] +
			M->grid[0] * (t0->b->ctaid[1] + M->grid[1] * t0->b->ctaid[2]), w->id, group,
			d->st ? d->st->loc.line : 0, ins_text(d));
	for (int i = 0; i < 32; i++) {
		if (!(group >> i & 1))
			continue;
		Thread *t = w->lane[i];
		top(t)->pc++;
		if (guard_ok(t, d))
			active |= 1u << i;
	}
	if (d->wfn) {
		if (active)
			coll_arrive(w, d, active);
		return;
	}
	for (int i = 0; i < 32; i++)
		if (active >> i & 1)
			d->fn(w->lane[i], d);
}

/* Runs a warp for up to n steps; returns the steps taken. */
static int warp_run(Warp *w, int n)
{
	int k = 0;
	for (; k < n; k++) {
		uint32_t run = runnable(w);
		if (!run)
			break;
		uint32_t g = pick(w, run);
		if (g != run && ++w->divsteps % FAIRNESS == 0)
			w->flip ^= 1;
		if (g == run)
			w->flip = 0;
		step(w, g);
	}
	return k;
}

/* ---- barriers ---- */

static uint32_t live_threads(Thread *from, uint32_t n)
{
	uint32_t live = 0;
	for (uint32_t i = 0; i < n; i++)
		live += from[i].state != TS_DONE;
	return live;
}

static int bar_id_of(Thread *t, const DIns *d)
{
	if (d->nops == 0)
		return 0;
	uint32_t id = (uint32_t)rd(t, &d->ops[0]);
	if (id > 15)
		rt_fail(d, RUN_FAULT, "barrier %u out of range", id);
	return (int)id;
}

static void bar_release(Cta *b, int id)
{
	int popc = 0, all = 1, any = 0;
	for (uint32_t i = 0; i < M->bthreads; i++) {
		Thread *t = &b->threads[i];
		if (t->state == TS_BAR && t->bar_id == id) {
			popc += t->bar_pred;
			all &= t->bar_pred;
			any |= t->bar_pred;
		}
	}
	for (uint32_t i = 0; i < M->bthreads; i++) {
		Thread *t = &b->threads[i];
		if (t->state != TS_BAR || t->bar_id != id)
			continue;
		const DIns *d = t->bar_ins;
		if (d->mods & M(red)) {
			uint64_t v = d->mods & M(popc) ? (uint64_t)popc : d->mods & M(and) ? (uint64_t)all
				: (uint64_t)any;
			wr(t, &d->ops[0], v);
		}
		t->state = TS_RUN;
	}
	b->bar_waiting[id] = 0;
	b->bar_expect[id] = 0;
}

static void bar_check(Cta *b, int id)
{
	int expect = b->bar_expect[id] ? b->bar_expect[id] : (int)live_threads(b->threads, M->bthreads);
	if (b->bar_waiting[id] && b->bar_waiting[id] >= expect)
		bar_release(b, id);
}

/* bar.sync a{, b} / barrier.sync / bar.arrive a, b / bar.red.op.pred d, a{, b}, {!}c */
int ex_bar(Thread *t, const DIns *d)
{
	int red = (d->mods & M(red)) != 0, arrive = (d->mods & M(arrive)) != 0;
	const Opnd *ops = d->ops + red;
	int n = d->nops - red - red;  /* bar.red has a destination and a predicate */
	if (n < 0 || n > 2 || (red && arrive))
		rt_fail(d, RUN_UNSUPPORTED, "unsupported instruction '%s'", ins_text(d));
	DIns tmp = *d;
	tmp.ops = (Opnd *)ops;
	tmp.nops = (uint8_t)n;
	int id = bar_id_of(t, &tmp);
	Cta *b = t->b;
	if (n == 2) {
		uint32_t cnt = (uint32_t)rd(t, &ops[1]);
		if (b->bar_expect[id] && b->bar_expect[id] != (int)cnt)
			rt_fail(d, RUN_FAULT, "barrier %d used with thread counts %d and %u", id,
				b->bar_expect[id], cnt);
		b->bar_expect[id] = (int)cnt;
	}
	b->bar_waiting[id]++;
	if (arrive) {
		bar_check(b, id);
		return X_NEXT;
	}
	t->state = TS_BAR;
	t->bar_id = id;
	t->bar_ins = d;
	t->bar_pred = red ? (int)(rd(t, &d->ops[d->nops - 1]) & 1) : 0;
	bar_check(b, id);
	return X_WAIT;
}

/* barrier.cluster: a phase ends when every live thread of the cluster
 * has arrived; wait returns once the phase the thread arrived in ended. */
static void cluster_check(void)
{
	if (!M->cl_count || M->cl_count < live_threads(M->threads, M->nthreads))
		return;
	M->cl_gen++;
	M->cl_count = 0;
	for (uint32_t i = 0; i < M->nthreads; i++)
		if (M->threads[i].state == TS_CLUSTER)
			M->threads[i].state = TS_RUN;
}

/* barrier.cluster.arrive[.release|.relaxed][.aligned] and
 * barrier.cluster.wait[.acquire][.aligned]; barrier.cluster.sync is not PTX. */
int ex_barcluster(Thread *t, const DIns *d)
{
	Mods ok = M(cluster) | M(arrive) | M(wait) | M(release) | M(relaxed) | M(acquire) | M(aligned);
	const Spelling *sp = d->st->ins.sp;
	int arrive = spelling_has(sp, MOD_arrive), wait = spelling_has(sp, MOD_wait), known = 0;
	for (uint32_t i = 0; i < sp->nmods; i++)
		known += sp->words[i].kind == MW_MOD && (ok & ((Mods)1 << sp->words[i].id));
	if (arrive == wait || d->nops || known != (int)sp->nmods)
		rt_fail(d, RUN_UNSUPPORTED, "unsupported instruction '%s'", ins_text(d));
	if (arrive) {
		if (t->cl_arrived)
			rt_fail(d, RUN_FAULT, "barrier.cluster.arrive twice without a wait");
		t->cl_arrived = 1;
		t->cl_gen = M->cl_gen;
		M->cl_count++;
		cluster_check();
		return X_NEXT;
	}
	if (!t->cl_arrived)
		rt_fail(d, RUN_FAULT, "barrier.cluster.wait without an arrive");
	t->cl_arrived = 0;
	if (t->cl_gen != M->cl_gen)
		return X_NEXT;
	t->state = TS_CLUSTER;
	t->bar_ins = d;
	return X_WAIT;
}

void thread_exit(Thread *t)
{
	t->state = TS_DONE;
	t->depth = 0;
	for (int id = 0; id < 16; id++)
		if (!t->b->bar_expect[id])
			bar_check(t->b, id);
	cluster_check();
	coll_try(t->w);
}

/* ---- warp collectives: mask is the lanes that take part ---- */

int wx_activemask(Warp *w, const DIns *d, uint32_t mask)
{
	for (int i = 0; i < 32; i++)
		if (mask >> i & 1)
			wr(w->lane[i], &d->ops[0], mask);
	return X_NEXT;
}

int wx_warpsync(Warp *w, const DIns *d, uint32_t mask)
{
	return X_NEXT;
}

static _Noreturn void coll_bad(const DIns *d)
{
	rt_fail(d, RUN_UNSUPPORTED, "unsupported instruction '%s'", ins_text(d));
}

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask */
int wx_shfl(Warp *w, const DIns *d0, uint32_t mask)
{
	uint64_t val[32];
	for (int i = 0; i < 32; i++)
		if (mask >> i & 1)
			val[i] = (uint32_t)rd(w->lane[i], &w->lane[i]->coll->ops[1]);
	for (int i = 0; i < 32; i++) {
		if (!(mask >> i & 1))
			continue;
		Thread *t = w->lane[i];
		const DIns *d = t->coll;
		if (d->nops != 5 || !(d->mods & M(sync)))
			coll_bad(d);
		uint32_t b = (uint32_t)rd(t, &d->ops[2]) & 31, c = (uint32_t)rd(t, &d->ops[3]);
		uint32_t clamp = c & 31, segmask = (c >> 8) & 31;
		int maxl = (int)((i & segmask) | (clamp & ~segmask));
		int minl = (int)(i & segmask);
		int j, ok;
		if (d->mods & M(up)) {
			j = i - (int)b;
			ok = j >= maxl;
		} else if (d->mods & M(down)) {
			j = i + (int)b;
			ok = j <= maxl;
		} else if (d->mods & M(bfly)) {
			j = i ^ (int)b;
			ok = j <= maxl;
		} else if (d->mods & M(idx)) {
			j = minl | ((int)b & ~(int)segmask);
			ok = j <= maxl;
		} else
			coll_bad(d);
		if (!ok || j < 0 || j > 31)
			j = i;
		/* a source lane outside the exchange yields its register as it is */
		uint64_t v = mask >> j & 1 ? val[j] : (w->exists >> j & 1)
			? (uint32_t)rd(w->lane[j], &d->ops[1]) : 0;
		const Opnd *dst = &d->ops[0];
		if (dst->kind == O_PAIR) {
			wr(t, &dst->kids[0], v);
			wr(t, &dst->kids[1], ok);
		} else
			wr(t, dst, v);
	}
	return X_NEXT;
}

/* vote.sync.mode d, {!}a, membermask */
int wx_vote(Warp *w, const DIns *d0, uint32_t mask)
{
	uint32_t ballot = 0;
	for (int i = 0; i < 32; i++)
		if (mask >> i & 1)
			ballot |= (uint32_t)(rd(w->lane[i], &w->lane[i]->coll->ops[1]) & 1) << i;
	for (int i = 0; i < 32; i++) {
		if (!(mask >> i & 1))
			continue;
		Thread *t = w->lane[i];
		const DIns *d = t->coll;
		uint64_t r;
		if (d->mods & M(ballot))
			r = ballot;
		else if (d->mods & M(all))
			r = ballot == mask;
		else if (d->mods & M(any))
			r = ballot != 0;
		else if (d->mods & M(uni))
			r = ballot == 0 || ballot == mask;
		else
			coll_bad(d);
		wr(t, &d->ops[0], r);
	}
	return X_NEXT;
}

/* match.any.sync.b32 d, a, membermask / match.all.sync.b32 d[|p], a, membermask */
int wx_match(Warp *w, const DIns *d0, uint32_t mask)
{
	uint64_t val[32];
	for (int i = 0; i < 32; i++)
		if (mask >> i & 1) {
			const DIns *d = w->lane[i]->coll;
			val[i] = rd(w->lane[i], &d->ops[1]) & (ty_bits(d->ty[0]) == 64 ? ~0ull : 0xFFFFFFFFull);
		}
	for (int i = 0; i < 32; i++) {
		if (!(mask >> i & 1))
			continue;
		Thread *t = w->lane[i];
		const DIns *d = t->coll;
		uint32_t same = 0;
		for (int j = 0; j < 32; j++)
			if ((mask >> j & 1) && val[j] == val[i])
				same |= 1u << j;
		const Opnd *dst = &d->ops[0];
		if (d->mods & M(any))
			wr(t, dst, same);
		else if (d->mods & M(all)) {
			int all = same == mask;
			wr(t, dst->kind == O_PAIR ? &dst->kids[0] : dst, all ? mask : 0);
			if (dst->kind == O_PAIR)
				wr(t, &dst->kids[1], all);
		} else
			coll_bad(d);
	}
	return X_NEXT;
}

/* redux.sync.op.type d, a, membermask */
int wx_redux(Warp *w, const DIns *d0, uint32_t mask)
{
	const DIns *d = d0;
	int ty = d->nty ? d->ty[0] : TY_NONE, s = ty_signed(ty);
	if (ty_bits(ty) != 32 || ty_float(ty))
		coll_bad(d);
	Mods m = d->mods & (M(add) | M(min) | M(max) | M(and) | M(or) | M(xor));
	uint32_t acc = m == M(and) ? ~0u : m == M(min) ? (s ? 0x7FFFFFFFu : ~0u) : m == M(max) ? (s ? 0x80000000u : 0) : 0;
	for (int i = 0; i < 32; i++) {
		if (!(mask >> i & 1))
			continue;
		uint32_t v = (uint32_t)rd(w->lane[i], &w->lane[i]->coll->ops[1]);
		switch (m) {
		case M(add): acc += v; break;
		case M(and): acc &= v; break;
		case M(or): acc |= v; break;
		case M(xor): acc ^= v; break;
		case M(min): acc = s ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
		case M(max): acc = s ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
		default: coll_bad(d);
		}
	}
	for (int i = 0; i < 32; i++)
		if (mask >> i & 1)
			wr(w->lane[i], &w->lane[i]->coll->ops[0], acc);
	return X_NEXT;
}

/* ---- blocks and the grid ---- */

static void thread_init(Thread *t, DFunc *k, Cta *b, uint32_t lin)
{
	uint32_t bx = M->block[0], by = M->block[1];
	t->lin = lin;
	t->gid = b->rank * M->bthreads + lin;
	t->b = b;
	t->tid[0] = lin % bx;
	t->tid[1] = lin / bx % by;
	t->tid[2] = lin / (bx * by);
	t->lane = lin % 32;
	t->state = TS_RUN;
	t->depth = 0;
	t->lsp = 0;
	t->psp = 0;
	t->carry = 0;
	t->cl_arrived = 0;
	/* local address 0 is never an object's, so a null local pointer faults */
	if (stack_push(&t->lmem, &t->lsp, &t->lcap, M->lstatic > 16 ? M->lstatic : 16, 16,
	    M->stack_limit) == UINT32_MAX)
		rt_fail(NULL, RUN_FAULT, "module .local variables too large");
	push_frame(t, k, NULL);
}

static int cluster_done(void)
{
	for (uint32_t i = 0; i < M->nthreads; i++)
		if (M->threads[i].state != TS_DONE)
			return 0;
	return 1;
}

static _Noreturn void deadlock(void)
{
	for (uint32_t i = 0; i < M->nthreads; i++) {
		Thread *t = &M->threads[i];
		const uint32_t *c = t->b->ctaid;
		if (t->state == TS_BAR)
			rt_fail(t->bar_ins, RUN_FAULT, "deadlock: barrier %d waits for threads that "
				"never arrive (block %u,%u,%u)", t->bar_id, c[0], c[1], c[2]);
		if (t->state == TS_CLUSTER)
			rt_fail(t->bar_ins, RUN_FAULT, "deadlock: barrier.cluster waits for threads "
				"that never arrive (block %u,%u,%u)", c[0], c[1], c[2]);
		if (t->state == TS_COLL)
			rt_fail(t->coll, RUN_FAULT, "deadlock: warp collective waits for lanes that "
				"never arrive");
	}
	rt_fail(NULL, RUN_FAULT, "deadlock");
}

/* The blocks of one cluster run together, their warps taking turns. */
static void run_cluster(void)
{
	while (!cluster_done()) {
		int progress = 0;
		for (uint32_t i = 0; i < M->nwarps; i++)
			progress += warp_run(&M->warps[i], SLICE);
		if (!progress)
			deadlock();
	}
}

/* Block r of the cluster whose first block is at base. */
static void block_init(DFunc *k, uint32_t r, const uint32_t base[3])
{
	Cta *b = &M->blocks[r];
	uint32_t cx = M->cluster[0], cy = M->cluster[1];
	b->rank = r;
	b->ctaid[0] = base[0] + r % cx;
	b->ctaid[1] = base[1] + r / cx % cy;
	b->ctaid[2] = base[2] + r / (cx * cy);
	b->threads = M->threads + r * M->bthreads;
	memset(b->shared, 0, M->shared_size);
	memset(b->bar_waiting, 0, sizeof b->bar_waiting);
	memset(b->bar_expect, 0, sizeof b->bar_expect);
	for (uint32_t i = 0; i < M->bthreads; i++)
		thread_init(&b->threads[i], k, b, i);
}

/* Warps never span blocks: each block's threads start a new warp. */
static void make_warps(void)
{
	uint32_t wpb = (M->bthreads + 31) / 32;
	M->nwarps = wpb * M->nblocks;
	M->warps = xcalloc(M->nwarps, sizeof *M->warps);
	for (uint32_t r = 0; r < M->nblocks; r++)
		for (uint32_t i = 0; i < M->bthreads; i++) {
			Warp *w = &M->warps[r * wpb + i / 32];
			Thread *t = &M->threads[r * M->bthreads + i];
			w->lane[i % 32] = t;
			w->exists |= 1u << (i % 32);
			w->id = i / 32;
			t->w = w;
		}
}

int run_grid(DFunc *k)
{
	uint32_t n = M->block[0] * M->block[1] * M->block[2];
	M->nblocks = M->cluster[0] * M->cluster[1] * M->cluster[2];
	M->bthreads = n;
	M->nthreads = n * M->nblocks;
	M->threads = xcalloc(M->nthreads, sizeof *M->threads);
	M->blocks = xcalloc(M->nblocks, sizeof *M->blocks);
	M->shared_size = M->shared_static + M->dyn_shared;
	for (uint32_t r = 0; r < M->nblocks; r++)
		M->blocks[r].shared = xcalloc(M->shared_size + 1, 1);
	make_warps();
	uint32_t base[3];
	for (base[2] = 0; base[2] < M->grid[2]; base[2] += M->cluster[2])
		for (base[1] = 0; base[1] < M->grid[1]; base[1] += M->cluster[1])
			for (base[0] = 0; base[0] < M->grid[0]; base[0] += M->cluster[0]) {
				for (uint32_t i = 0; i < M->nwarps; i++) {
					M->warps[i].flip = 0;
					M->warps[i].divsteps = 0;
				}
				M->cl_gen = M->cl_count = 0;
				for (uint32_t r = 0; r < M->nblocks; r++)
					block_init(k, r, base);
				run_cluster();
				printf_flush();
			}
	return 0;
}
