/* Reaching definitions and def-use chains for the registers of one
 * function.  A definition is an (instruction, register) pair; each
 * register also has an "entry" definition standing for the value it has
 * on entry (a parameter, or undefined).  Guarded and may-define writes
 * reach without killing what was there.
 *
 * Sparse, one register at a time: a register's reaching set is kept only
 * at the start of the blocks where it is live-in (ir/live.c), solved over
 * those blocks alone, so memory follows the live ranges rather than
 * blocks times definitions.  Within a block the register's own
 * definitions, sorted by instruction, are found by binary search.  A
 * question about a register that is dead where it is asked (will it still
 * hold what it held?) walks back from there instead. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"
#include "ptrhash.h"

typedef struct Def {
	uint32_t ins;   /* DEF_ENTRY for the value on entry */
	uint32_t reg : 31;
	uint32_t may : 1;   /* may write it, or write a part (%r1.b0): kills nothing */
} Def;

/* A sorted set of definition ids. */
typedef struct IdSet {
	uint32_t *v;
	uint32_t n, cap;
} IdSet;

/* The distinct reaching sets, each stored once: along a long live range
 * most blocks see the set the block before them saw.  Set 0 is empty. */
typedef struct SetPool {
	uint32_t *ids, nids, cids;      /* the sets' members, one set after another */
	uint32_t *first, nsets, csets;  /* set i: ids[first[i] .. first[i+1]) */
	uint32_t *table, tsize;         /* open addressing by content: set index + 1 */
} SetPool;

/* defs_writers' table: a register's writes, in instruction order. */
typedef struct Writes {
	UT_hash_handle hh;
	const char *reg;
	uint32_t *ins, n, cap;
} Writes;

struct Defs {
	Writes *writes;           /* defs_writers: all there is */
	const Cfg *cfg;
	const Live *live;
	Def *defs;                /* entry definitions first (id = register), then by instruction */
	uint32_t ndefs, cap;
	uint32_t nregs;
	uint32_t *reg_first;      /* register r's ids: reg_ids[reg_first[r] .. reg_first[r+1]) */
	uint32_t *reg_ids;
	uint32_t *last_kill;      /* per place in reg_ids: the last killing one up to it, or NONE */
	uint32_t *in_first;       /* per register: where its live-in blocks' sets start in in */
	uint32_t *in;             /* per (register, live-in block), in live_in_blocks order:
	                             its reaching set, an index into pool */
	SetPool pool;
	uint32_t *use_first;      /* definition id's uses: use_ins[use_first[id] .. use_first[id+1]), */
	uint32_t *use_ins;        /* made by the first defs_uses */
};

typedef struct DefScan {
	Defs *d;
	uint32_t ins;
} DefScan;

static void add_def(Defs *d, uint32_t ins, uint32_t reg, int may)
{
	d->defs = array_grow(d->defs, d->ndefs, &d->cap, sizeof *d->defs);
	d->defs[d->ndefs++] = (Def){ins, reg, may != 0};
}

static void note_def(void *ctx, const char *name, OpRole role)
{
	DefScan *s = ctx;
	int r = live_reg(s->d->live, name);
	if (r >= 0 && role != ROLE_USE)
		add_def(s->d, s->ins, (uint32_t)r, role == ROLE_MAYDEF);
}

/* Numbers every definition: entry ones first, then in instruction order,
 * and lists each register's (a counting sort keeps that order). */
static void number_defs(Defs *d)
{
	const Cfg *g = d->cfg;
	for (uint32_t r = 0; r < d->nregs; r++)
		add_def(d, DEF_ENTRY, r, 0);
	DefScan s = {d, 0};
	for (uint32_t i = 0; i < g->nins; i++) {
		s.ins = i;
		ins_names(&g->ins[i]->ins, note_def, &s);
	}
	d->reg_first = xcalloc(d->nregs + 2, sizeof *d->reg_first);
	d->reg_ids = xmalloc((d->ndefs + 1) * sizeof *d->reg_ids);
	for (uint32_t id = 0; id < d->ndefs; id++)
		d->reg_first[d->defs[id].reg + 2]++;
	for (uint32_t r = 0; r < d->nregs; r++)
		d->reg_first[r + 2] += d->reg_first[r + 1];
	for (uint32_t id = 0; id < d->ndefs; id++)
		d->reg_ids[d->reg_first[d->defs[id].reg + 1]++] = id;
}

enum { NONE = UINT32_MAX };

static int kills(const Defs *d, uint32_t id);

/* A question at instruction k starts from the last definition before k
 * that kills, not from the block's start: with N definitions of one
 * register in a block, N questions would be N^2. */
static void find_kills(Defs *d)
{
	d->last_kill = xmalloc((d->ndefs + 1) * sizeof *d->last_kill);
	for (uint32_t r = 0; r < d->nregs; r++)
		for (uint32_t i = d->reg_first[r]; i < d->reg_first[r + 1]; i++)
			d->last_kill[i] = kills(d, d->reg_ids[i]) ? i :
				i > d->reg_first[r] ? d->last_kill[i - 1] : NONE;
}

static int kills(const Defs *d, uint32_t id)
{
	const Def *df = &d->defs[id];
	if (df->ins == DEF_ENTRY || df->may)
		return 0;
	return !d->cfg->ins[df->ins]->ins.guard;
}

static void set_add(IdSet *s, uint32_t id)
{
	uint32_t i = s->n;
	while (i > 0 && s->v[i - 1] > id)
		i--;
	if (i > 0 && s->v[i - 1] == id)
		return;
	s->v = array_grow(s->v, s->n, &s->cap, sizeof *s->v);
	memmove(s->v + i + 1, s->v + i, (s->n - i) * sizeof *s->v);
	s->v[i] = id;
	s->n++;
}

static int set_union(IdSet *to, const IdSet *from)
{
	uint32_t before = to->n;
	for (uint32_t i = 0; i < from->n; i++)
		set_add(to, from->v[i]);
	return to->n != before;
}

static uint32_t hash_ids(const uint32_t *v, uint32_t n)
{
	uint32_t h = 2166136261u;
	for (uint32_t i = 0; i < n; i++)
		h = (h ^ v[i]) * 16777619u;
	return h;
}

static uint32_t pool_size(const SetPool *p, uint32_t set)
{
	return p->first[set + 1] - p->first[set];
}

static const uint32_t *pool_ids(const SetPool *p, uint32_t set)
{
	return p->ids + p->first[set];
}

static void pool_rehash(SetPool *p)
{
	free(p->table);
	p->tsize = p->tsize ? 2 * p->tsize : 1024;
	p->table = xcalloc(p->tsize, sizeof *p->table);
	for (uint32_t set = 0; set < p->nsets; set++) {
		uint32_t i = hash_ids(pool_ids(p, set), pool_size(p, set)) & (p->tsize - 1);
		while (p->table[i])
			i = (i + 1) & (p->tsize - 1);
		p->table[i] = set + 1;
	}
}

/* The index of the set holding exactly s's members. */
static uint32_t pool_intern(SetPool *p, const IdSet *s)
{
	if (2 * (p->nsets + 1) > p->tsize)
		pool_rehash(p);
	uint32_t i = hash_ids(s->v, s->n) & (p->tsize - 1);
	for (; p->table[i]; i = (i + 1) & (p->tsize - 1)) {
		uint32_t set = p->table[i] - 1;
		if (pool_size(p, set) == s->n && (!s->n || !memcmp(pool_ids(p, set), s->v, s->n * sizeof *s->v)))
			return set;
	}
	for (uint32_t k = 0; k < s->n; k++) {
		p->ids = array_grow(p->ids, p->nids, &p->cids, sizeof *p->ids);
		p->ids[p->nids++] = s->v[k];
	}
	p->first = array_grow(p->first, p->nsets + 1, &p->csets, sizeof *p->first);
	if (!p->nsets)
		p->first[0] = 0;
	p->first[++p->nsets] = p->nids;
	p->table[i] = p->nsets;
	return p->nsets - 1;
}

static void pool_union(const SetPool *p, uint32_t set, IdSet *to)
{
	const uint32_t *v = pool_ids(p, set);
	for (uint32_t i = 0; i < pool_size(p, set); i++)
		set_add(to, v[i]);
}

/* The first of ids[lo..n) at or after instruction at. */
static uint32_t first_at(const Defs *d, const uint32_t *ids, uint32_t lo, uint32_t n, uint32_t at)
{
	uint32_t hi = n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (d->defs[ids[mid]].ins < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Register r's definitions at instructions from..to-1, applied to *s:
 * a killing one empties it first.  1 if one killed. */
static int apply(const Defs *d, uint32_t r, uint32_t from, uint32_t to, IdSet *s)
{
	uint32_t base = d->reg_first[r] + 1;   /* past the entry one */
	const uint32_t *ids = d->reg_ids + base;
	uint32_t n = d->reg_first[r + 1] - base;
	uint32_t lo = first_at(d, ids, 0, n, from), end = first_at(d, ids, lo, n, to);
	uint32_t k = lo < end ? d->last_kill[base + end - 1] : NONE;
	int killed = k != NONE && k >= base + lo;
	if (killed) {
		lo = k - base;
		s->n = 0;
	}
	for (uint32_t i = lo; i < end; i++)
		set_add(s, ids[i]);
	return killed;
}

/* Where block b's set is kept for register r, or -1 (r is dead there). */
static int64_t slot(const Defs *d, uint32_t r, uint32_t b)
{
	const uint32_t *blocks;
	uint32_t n = live_in_blocks(d->live, r, &blocks), lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (blocks[mid] < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && blocks[lo] == b ? (int64_t)d->in_first[r] + lo : -1;
}

/* What reaches the end of block p: its own definitions after what
 * reaches its start (kept, since r is live-out and p does not kill it,
 * unless p's definitions kill it anyway). */
static void block_out(const Defs *d, uint32_t r, uint32_t p, IdSet *out)
{
	const Block *b = &d->cfg->blocks[p];
	int64_t at = slot(d, r, p);
	out->n = 0;
	if (at >= 0)
		pool_union(&d->pool, d->in[at], out);
	apply(d, r, b->first, b->end, out);
}

static void solve_reg(Defs *d, uint32_t r, IdSet *tmp, IdSet *cur)
{
	const uint32_t *blocks;
	uint32_t n = live_in_blocks(d->live, r, &blocks);
	uint32_t *in = d->in + d->in_first[r];
	IdSet entry = {&r, 1, 1};
	for (uint32_t j = 0; j < n; j++)  /* the entry definition reaches the entry block */
		in[j] = blocks[j] == 0 ? pool_intern(&d->pool, &entry) : 0;
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t j = 0; j < n; j++) {
			const Block *b = &d->cfg->blocks[blocks[j]];
			cur->n = 0;
			pool_union(&d->pool, in[j], cur);
			for (uint32_t p = 0; p < b->npred; p++) {
				if (d->cfg->blocks[b->pred[p]].rpo == UINT32_MAX)
					continue;  /* unreachable: nothing it defines arrives */
				block_out(d, r, b->pred[p], tmp);
				set_union(cur, tmp);
			}
			if (cur->n != pool_size(&d->pool, in[j])) {  /* sets only grow */
				in[j] = pool_intern(&d->pool, cur);
				changed = 1;
			}
		}
	}
}

Defs *defs_compute(const Cfg *g, const Live *l)
{
	Defs *d = xcalloc(1, sizeof *d);
	d->cfg = g;
	d->live = l;
	d->nregs = live_nregs(l);
	number_defs(d);
	find_kills(d);
	d->in_first = xmalloc((d->nregs + 1) * sizeof *d->in_first);
	uint32_t total = 0;
	for (uint32_t r = 0; r < d->nregs; r++) {
		const uint32_t *blocks;
		d->in_first[r] = total;
		total += live_in_blocks(l, r, &blocks);
	}
	d->in_first[d->nregs] = total;
	d->in = xcalloc(total + 1, sizeof *d->in);
	IdSet empty = {0}, tmp = {0}, cur = {0};
	/* never NULL: the empty set is ids + 0, and NULL + 0 is undefined */
	d->pool.ids = array_grow(NULL, 0, &d->pool.cids, sizeof *d->pool.ids);
	pool_intern(&d->pool, &empty);
	for (uint32_t r = 0; r < d->nregs; r++)
		solve_reg(d, r, &tmp, &cur);
	free(tmp.v);
	free(cur.v);
	return d;
}

static void note_write(void *ctx, const char *name, OpRole role)
{
	DefScan *s = ctx;
	Writes *w = NULL;
	if (role == ROLE_USE)   /* any name: .reg .pred p (inline asm's) is a register too */
		return;
	HASH_FIND_PTR(s->d->writes, &name, w);
	if (!w) {
		w = xcalloc(1, sizeof *w);
		w->reg = name;
		HASH_ADD_PTR(s->d->writes, reg, w);
	}
	if (!w->n || w->ins[w->n - 1] != s->ins) {
		w->ins = array_grow(w->ins, w->n, &w->cap, sizeof *w->ins);
		w->ins[w->n++] = s->ins;
	}
}

Defs *defs_writers(const Cfg *g)
{
	Defs *d = xcalloc(1, sizeof *d);
	DefScan s = {d, 0};
	d->cfg = g;
	for (uint32_t i = 0; i < g->nins; i++) {
		s.ins = i;
		if (!stmt_is_call(g->ins[i]))   /* a call writes .params, no register */
			ins_names(&g->ins[i]->ins, note_write, &s);
	}
	return d;
}

static uint32_t writers_of(const Defs *d, const char *reg, uint32_t *out, uint32_t max)
{
	Writes *w = NULL;
	HASH_FIND_PTR(d->writes, &reg, w);
	for (uint32_t i = 0; w && i < w->n && i < max; i++)
		out[i] = w->ins[i];
	return w ? w->n : 0;
}

void defs_free(Defs *d)
{
	if (!d)
		return;
	Writes *w, *tmp;
	HASH_ITER(hh, d->writes, w, tmp) {
		HASH_DEL(d->writes, w);
		free(w->ins);
		free(w);
	}
	free(d->in);
	free(d->pool.ids);
	free(d->pool.first);
	free(d->pool.table);
	free(d->in_first);
	free(d->reg_first);
	free(d->reg_ids);
	free(d->last_kill);
	free(d->use_first);
	free(d->use_ins);
	free(d->defs);
	free(d);
}

/* For a register dead at the start of block k (nothing reads it again):
 * what reaches there, by walking back through predecessors. */
static uint32_t push_preds(const Cfg *g, const Block *b, uint8_t *seen, uint32_t *stack,
	uint32_t n)
{
	for (uint32_t p = 0; p < b->npred; p++)
		if (!seen[b->pred[p]] && g->blocks[b->pred[p]].rpo != UINT32_MAX) {
			seen[b->pred[p]] = 1;
			stack[n++] = b->pred[p];
		}
	return n;
}

static void walk_back(const Defs *d, uint32_t r, uint32_t k, IdSet *out)
{
	const Cfg *g = d->cfg;
	uint8_t *seen = xcalloc(g->nblocks + 1, 1);
	uint32_t *stack = xmalloc((g->nblocks + 1) * sizeof *stack), n = 0;
	IdSet part = {0};
	if (k == 0)
		set_add(out, r);  /* the value on entry */
	n = push_preds(g, &g->blocks[k], seen, stack, n);
	while (n) {
		uint32_t b = stack[--n];
		part.n = 0;
		int killed = apply(d, r, g->blocks[b].first, g->blocks[b].end, &part);
		set_union(out, &part);
		if (killed)
			continue;
		if (b == 0)
			set_add(out, r);
		n = push_preds(g, &g->blocks[b], seen, stack, n);
	}
	free(part.v);
	free(seen);
	free(stack);
}

/* The ids of register r's definitions that reach instruction ins. */
static void reaching_ids(const Defs *d, uint32_t ins, uint32_t r, IdSet *set)
{
	uint32_t k = d->cfg->block_of[ins];
	set->n = 0;
	if (d->cfg->blocks[k].rpo == UINT32_MAX)
		return;
	IdSet here = {0};
	if (!apply(d, r, d->cfg->blocks[k].first, ins, &here)) {
		int64_t at = slot(d, r, k);
		if (at >= 0)
			pool_union(&d->pool, d->in[at], set);
		else
			walk_back(d, r, k, set);
	}
	set_union(set, &here);
	free(here.v);
}

uint32_t defs_reaching(const Defs *d, uint32_t ins, const char *reg, uint32_t *out, uint32_t max)
{
	if (!d->live)
		return writers_of(d, reg, out, max);
	int r = live_reg(d->live, reg);
	if (r < 0)
		return 0;
	IdSet set = {0};
	reaching_ids(d, ins, (uint32_t)r, &set);
	for (uint32_t i = 0; i < set.n && i < max; i++)
		out[i] = d->defs[set.v[i]].ins;
	uint32_t n = set.n;
	free(set.v);
	return n;
}

typedef struct UseScan {
	const Defs *d;
	uint32_t ins;
	IdSet set;
	uint32_t *last;       /* per definition: 1 + the instruction it was last read at */
	uint32_t (*pairs)[2]; /* (definition, instruction), by instruction */
	uint32_t n, cap;
} UseScan;

static void note_use(void *ctx, const char *name, OpRole role)
{
	UseScan *u = ctx;
	int r = role == ROLE_USE ? live_reg(u->d->live, name) : -1;
	if (r < 0)
		return;
	reaching_ids(u->d, u->ins, (uint32_t)r, &u->set);
	for (uint32_t i = 0; i < u->set.n; i++) {
		uint32_t id = u->set.v[i];
		if (u->last[id] == u->ins + 1)
			continue;   /* read twice by one instruction: one use */
		u->last[id] = u->ins + 1;
		u->pairs = array_grow(u->pairs, u->n, &u->cap, sizeof *u->pairs);
		u->pairs[u->n][0] = id;
		u->pairs[u->n++][1] = u->ins;
	}
}

/* Every definition's uses, each read's reaching definitions inverted in
 * one walk; a counting sort keeps each list in instruction order.  Once a
 * walk of the function per question, which made a stage asking about
 * many definitions quadratic. */
static void index_uses(Defs *d)
{
	UseScan u = {.d = d, .last = xcalloc(d->ndefs + 1, sizeof *u.last)};
	for (uint32_t i = 0; i < d->cfg->nins; i++) {
		u.ins = i;
		ins_names(&d->cfg->ins[i]->ins, note_use, &u);
	}
	d->use_first = xcalloc(d->ndefs + 2, sizeof *d->use_first);
	d->use_ins = xmalloc((u.n + 1) * sizeof *d->use_ins);
	for (uint32_t k = 0; k < u.n; k++)
		d->use_first[u.pairs[k][0] + 2]++;
	for (uint32_t id = 0; id < d->ndefs; id++)
		d->use_first[id + 2] += d->use_first[id + 1];
	for (uint32_t k = 0; k < u.n; k++)
		d->use_ins[d->use_first[u.pairs[k][0] + 1]++] = u.pairs[k][1];
	free(u.pairs);
	free(u.last);
	free(u.set.v);
}

uint32_t defs_uses(const Defs *d, uint32_t def_ins, const char *reg, uint32_t *out, uint32_t max)
{
	int r = d->live ? live_reg(d->live, reg) : -1;   /* defs_writers keeps no uses */
	if (r < 0)
		return 0;
	uint32_t id = (uint32_t)r;   /* the entry definition's id is its register */
	if (def_ins != DEF_ENTRY) {
		uint32_t base = d->reg_first[r] + 1, n = d->reg_first[r + 1] - base;
		uint32_t at = first_at(d, d->reg_ids + base, 0, n, def_ins);
		if (at == n || d->defs[d->reg_ids[base + at]].ins != def_ins)
			return 0;
		id = d->reg_ids[base + at];
	}
	if (!d->use_first)
		index_uses((Defs *)d);   /* a cache: the answers do not change */
	uint32_t first = d->use_first[id], n = d->use_first[id + 1] - first;
	for (uint32_t i = 0; i < n && i < max; i++)
		out[i] = d->use_ins[first + i];
	return n;
}
