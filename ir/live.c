/* Register liveness over a Cfg: which registers a block may read before
 * writing (live-in) and which its successors may read (live-out).  The
 * registers are the names the function's code mentions that its .reg
 * declarations (or .reg parameters) declare, %r<N> standing for %r0 ..
 * %r(N-1): a register nothing mentions costs nothing, however many a
 * range declares.  A guarded or may-define write does not kill a value.
 *
 * Sparse, one register at a time: the blocks that read a register before
 * writing it are live-in; from each, liveness walks up to predecessors
 * until a block that writes the register first.  Memory is the size of
 * the answer (each register's live-in blocks, sorted), not blocks times
 * registers. */
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "ir.h"

typedef struct RegEntry {
	UT_hash_handle hh;
	const char *name;
	uint32_t index;     /* NOT_REG: a name the function does not declare */
} RegEntry;

enum { NOT_REG = UINT32_MAX };

/* (register, block) pairs: an upward-exposed read or a kill */
typedef struct Event {
	uint32_t reg, block;
} Event;

struct Live {
	Arena *arena;
	const Cfg *cfg;
	RegEntry *index;
	const char **regs;
	uint32_t nregs, cap;
	uint32_t *first;   /* register r's live-in blocks: blocks[first[r] .. first[r+1]) */
	uint32_t *blocks;
};

typedef struct Scan {
	Live *l;
	const Names *declared;   /* the function's .reg names */
	Event *reads, *kills;
	uint32_t nreads, creads, nkills, ckills;
	uint32_t *killed_in;     /* per register: 1 + the block that last killed it */
	uint32_t block;
	int guarded;
	int defs_now;            /* second pass over an instruction: its writes */
} Scan;

int live_reg(const Live *l, const char *name)
{
	RegEntry *e;
	HASH_FIND_PTR(l->index, &name, e);
	return e && e->index != NOT_REG ? (int)e->index : -1;
}

/* name's index, or NOT_REG.  Whether the function declares a name is
 * asked once per name, not at each mention: it was most of liveness. */
static uint32_t add_reg(Scan *s, const char *name)
{
	Live *l = s->l;
	RegEntry *e;
	HASH_FIND_PTR(l->index, &name, e);
	if (e)
		return e->index;
	e = arena_alloc(l->arena, sizeof *e);
	e->name = name;
	if (!names_declared(s->declared, name)) {
		e->index = NOT_REG;
		HASH_ADD_PTR(l->index, name, e);
		return NOT_REG;
	}
	uint32_t cap = l->cap;
	l->regs = array_grow(l->regs, l->nregs, &l->cap, sizeof *l->regs);
	if (l->cap != cap) {  /* grown with regs: a realloc per register was quadratic */
		s->killed_in = xreallocarray(s->killed_in, l->cap, sizeof *s->killed_in);
	}
	s->killed_in[l->nregs] = 0;
	e->index = l->nregs;
	l->regs[l->nregs++] = name;
	HASH_ADD_PTR(l->index, name, e);
	return e->index;
}

static void add_event(Event **v, uint32_t *n, uint32_t *cap, uint32_t reg, uint32_t block)
{
	*v = array_grow(*v, *n, cap, sizeof **v);
	(*v)[(*n)++] = (Event){reg, block};
}

static void scan_name(void *ctx, const char *name, OpRole role)
{
	Scan *s = ctx;
	uint32_t r = add_reg(s, name);
	if (r == NOT_REG)
		return;
	int killed = s->killed_in[r] == s->block + 1;
	if (!s->defs_now && role == ROLE_USE && !killed)
		add_event(&s->reads, &s->nreads, &s->creads, r, s->block);
	if (s->defs_now && role == ROLE_DEF && !s->guarded && !killed) {
		add_event(&s->kills, &s->nkills, &s->ckills, r, s->block);
		s->killed_in[r] = s->block + 1;
	}
}

static void reg_decls(Names *n, const Decl *d, uint32_t nd)
{
	for (uint32_t i = 0; i < nd; i++)
		if (decl_space(&d[i]) == SPACE_REG)
			names_add_decls(n, &d[i], 1);
}

static void reg_decls_of_body(Names *n, const List *body)
{
	BodyIt it;
	for (const Stmt *s = body_first(body, &it); s; s = body_next(&it))
		if (s->kind == S_VAR)
			reg_decls(n, &s->var, 1);
}

/* Reads before any write, and the first unguarded write, per block. */
static void scan_blocks(Scan *s)
{
	const Cfg *g = s->l->cfg;
	for (uint32_t k = 0; k < g->nblocks; k++) {
		s->block = k;
		for (uint32_t i = g->blocks[k].first; i < g->blocks[k].end; i++) {
			const Ins *in = &g->ins[i]->ins;
			s->guarded = in->guard != NULL;
			s->defs_now = 0;
			ins_names(in, scan_name, s);
			s->defs_now = 1;
			ins_names(in, scan_name, s);
		}
	}
}

/* Events grouped by register (a counting sort): v[at[r] .. at[r+1]). */
static uint32_t *group(Event *v, uint32_t n, uint32_t nregs)
{
	uint32_t *at = xcalloc(nregs + 2, sizeof *at);
	Event *sorted = xmalloc((n + 1) * sizeof *sorted);
	for (uint32_t i = 0; i < n; i++)
		at[v[i].reg + 2]++;
	for (uint32_t r = 0; r < nregs; r++)
		at[r + 2] += at[r + 1];
	for (uint32_t i = 0; i < n; i++)
		sorted[at[v[i].reg + 1]++] = v[i];
	if (n)
		memcpy(v, sorted, n * sizeof *v);
	free(sorted);
	return at;
}

static int by_number(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Each register's live-in blocks: its reading blocks, then upward through
 * predecessors that do not kill it.  mark and kill hold 1 + the register
 * being walked, so they are never cleared. */
static void solve(Live *l, Scan *s)
{
	const Cfg *g = l->cfg;
	uint32_t *rat = group(s->reads, s->nreads, l->nregs);
	uint32_t *kat = group(s->kills, s->nkills, l->nregs);
	uint32_t *mark = xcalloc(g->nblocks + 1, sizeof *mark);
	uint32_t *kill = xcalloc(g->nblocks + 1, sizeof *kill);
	uint32_t *stack = xmalloc((g->nblocks + 1) * sizeof *stack);
	uint32_t nblocks = 0, cblocks = 0;
	l->first = arena_alloc(l->arena, (l->nregs + 1) * sizeof *l->first);
	/* never NULL: an empty range is blocks + first[r], and NULL + 0 is undefined */
	l->blocks = array_grow(NULL, 0, &cblocks, sizeof *l->blocks);
	for (uint32_t r = 0; r < l->nregs; r++) {
		uint32_t n = 0, start = nblocks;
		for (uint32_t i = kat[r]; i < kat[r + 1]; i++)
			kill[s->kills[i].block] = r + 1;
		for (uint32_t i = rat[r]; i < rat[r + 1]; i++)
			if (mark[s->reads[i].block] != r + 1) {
				mark[s->reads[i].block] = r + 1;
				stack[n++] = s->reads[i].block;
			}
		l->first[r] = start;
		while (n) {
			uint32_t b = stack[--n];
			l->blocks = array_grow(l->blocks, nblocks, &cblocks, sizeof *l->blocks);
			l->blocks[nblocks++] = b;
			for (uint32_t p = 0; p < g->blocks[b].npred; p++) {
				uint32_t q = g->blocks[b].pred[p];
				if (mark[q] != r + 1 && kill[q] != r + 1) {
					mark[q] = r + 1;
					stack[n++] = q;
				}
			}
		}
		qsort(l->blocks + start, nblocks - start, sizeof *l->blocks, by_number);
	}
	l->first[l->nregs] = nblocks;
	free(rat);
	free(kat);
	free(mark);
	free(kill);
	free(stack);
}

Live *live_compute(const Cfg *g)
{
	Arena *a = arena_new();
	Live *l = arena_alloc(a, sizeof *l);
	l->arena = a;
	l->cfg = g;
	Names declared = {0};
	reg_decls(&declared, g->func->params, g->func->nparams);
	reg_decls(&declared, g->func->rets, g->func->nrets);
	reg_decls_of_body(&declared, &g->func->body);
	Scan s = {.l = l, .declared = &declared};
	scan_blocks(&s);
	solve(l, &s);
	free(s.reads);
	free(s.kills);
	free(s.killed_in);
	names_free(&declared);
	return l;
}

void live_free(Live *l)
{
	if (!l)
		return;
	HASH_CLEAR(hh, l->index);
	free(l->regs);
	free(l->blocks);
	arena_free(l->arena);
}

static int live_in_reg(const Live *l, uint32_t block, int r)
{
	if (r < 0)
		return 0;
	const uint32_t *v = l->blocks + l->first[r];
	size_t n = l->first[r + 1] - l->first[r];
	return bsearch(&block, v, n, sizeof *v, by_number) != NULL;
}

int live_in(const Live *l, uint32_t block, const char *name)
{
	return live_in_reg(l, block, live_reg(l, name));
}

int live_out(const Live *l, uint32_t block, const char *name)
{
	int r = live_reg(l, name);
	const Block *b = &l->cfg->blocks[block];
	for (uint32_t i = 0; i < b->nsucc; i++)
		if (live_in_reg(l, b->succ[i], r))
			return 1;
	return 0;
}

uint32_t live_in_blocks(const Live *l, uint32_t reg, const uint32_t **blocks)
{
	*blocks = l->blocks + l->first[reg];
	return l->first[reg + 1] - l->first[reg];
}

uint32_t live_nregs(const Live *l)
{
	return l->nregs;
}

const char *live_name(const Live *l, uint32_t reg)
{
	return l->regs[reg];
}
