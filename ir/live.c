/* Register liveness over a Cfg: which registers a block may read before
 * writing (live-in) and which its successors may read (live-out).  The
 * registers are the function's .reg declarations (and .reg parameters),
 * %r<N> standing for %r0 .. %r(N-1).  A guarded or may-define write does
 * not kill a value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "ir.h"

typedef struct RegEntry {
	UT_hash_handle hh;
	const char *name;
	uint32_t index;
} RegEntry;

struct Live {
	Arena *arena;
	const Cfg *cfg;
	RegEntry *index;
	const char **regs;
	uint32_t nregs, cap, words;
	uint64_t *use, *def, *in, *out;  /* nblocks * words each */
};

static void add_reg(Live *l, const char *name)
{
	RegEntry *e;
	HASH_FIND_PTR(l->index, &name, e);
	if (e)
		return;
	l->regs = array_grow(l->regs, l->nregs, &l->cap, sizeof *l->regs);
	e = arena_alloc(l->arena, sizeof *e);
	e->name = name;
	e->index = l->nregs;
	l->regs[l->nregs++] = name;
	HASH_ADD_PTR(l->index, name, e);
}

static void add_decl(Live *l, const Decl *d)
{
	if (decl_space(d) != SPACE_REG)
		return;
	for (uint32_t i = 0; i < d->nds; i++) {
		const Declarator *dc = &d->ds[i];
		if (!dc->count) {
			add_reg(l, dc->name);
			continue;
		}
		unsigned long n = strtoul(dc->count, NULL, 0);
		size_t size = strlen(dc->name) + 24;  /* names have no length limit */
		char *buf = malloc(size);
		if (!buf)
			die("out of memory");
		for (unsigned long k = 0; k < n; k++) {
			snprintf(buf, size, "%s%lu", dc->name, k);
			add_reg(l, intern_cstr(buf));
		}
		free(buf);
	}
}

static void collect_regs(Live *l, const List *body)
{
	for (const Stmt *s = body->head; s; s = s->next) {
		if (s->kind == S_VAR)
			add_decl(l, &s->var);
		else if (s->kind == S_SCOPE)
			collect_regs(l, &s->scope);
	}
}

int live_reg(const Live *l, const char *name)
{
	RegEntry *e;
	HASH_FIND_PTR(l->index, &name, e);
	return e ? (int)e->index : -1;
}

static void set(uint64_t *bits, uint32_t i)
{
	bits[i / 64] |= 1ull << (i % 64);
}

static int has(const uint64_t *bits, uint32_t i)
{
	return (bits[i / 64] >> (i % 64)) & 1;
}

typedef struct Scan {
	Live *l;
	uint64_t *use, *def;
	int guarded;
	int defs_now;   /* second pass over an instruction: its writes */
} Scan;

static void scan_name(void *ctx, const char *name, OpRole role)
{
	Scan *s = ctx;
	int r = live_reg(s->l, name);
	if (r < 0)
		return;
	if (!s->defs_now && role == ROLE_USE && !has(s->def, (uint32_t)r))
		set(s->use, (uint32_t)r);
	if (s->defs_now && role == ROLE_DEF && !s->guarded)
		set(s->def, (uint32_t)r);
}

static void local_sets(Live *l, uint32_t k)
{
	const Block *b = &l->cfg->blocks[k];
	Scan s = {l, l->use + k * l->words, l->def + k * l->words, 0, 0};
	for (uint32_t i = b->first; i < b->end; i++) {
		const Ins *in = &l->cfg->ins[i]->ins;
		s.guarded = in->guard != NULL;
		s.defs_now = 0;
		ins_names(in, scan_name, &s);
		s.defs_now = 1;
		ins_names(in, scan_name, &s);
	}
}

static int update(Live *l, uint32_t k)
{
	uint64_t *in = l->in + k * l->words, *out = l->out + k * l->words;
	const Block *b = &l->cfg->blocks[k];
	int changed = 0;
	for (uint32_t w = 0; w < l->words; w++) {
		uint64_t o = 0;
		for (uint32_t i = 0; i < b->nsucc; i++)
			o |= l->in[b->succ[i] * l->words + w];
		uint64_t n = l->use[k * l->words + w] | (o & ~l->def[k * l->words + w]);
		changed |= o != out[w] || n != in[w];
		out[w] = o;
		in[w] = n;
	}
	return changed;
}

Live *live_compute(const Cfg *g)
{
	Arena *a = arena_new();
	Live *l = arena_alloc(a, sizeof *l);
	l->arena = a;
	l->cfg = g;
	for (uint32_t i = 0; i < g->func->nparams; i++)
		add_decl(l, &g->func->params[i]);
	for (uint32_t i = 0; i < g->func->nrets; i++)
		add_decl(l, &g->func->rets[i]);
	collect_regs(l, &g->func->body);
	l->words = (l->nregs + 63) / 64;
	size_t n = (size_t)(g->nblocks + 1) * (l->words + 1);
	l->use = arena_alloc(a, n * sizeof *l->use);
	l->def = arena_alloc(a, n * sizeof *l->def);
	l->in = arena_alloc(a, n * sizeof *l->in);
	l->out = arena_alloc(a, n * sizeof *l->out);
	for (uint32_t k = 0; k < g->nblocks; k++)
		local_sets(l, k);
	/* Postorder visits successors first, so few rounds are needed. */
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t i = g->nblocks; i-- > 0;)
			changed |= update(l, i);
	}
	return l;
}

void live_free(Live *l)
{
	if (!l)
		return;
	HASH_CLEAR(hh, l->index);
	free(l->regs);
	arena_free(l->arena);
}

static int query(const Live *l, const uint64_t *bits, uint32_t block, const char *name)
{
	int r = live_reg(l, name);
	return r >= 0 && has(bits + block * l->words, (uint32_t)r);
}

int live_in(const Live *l, uint32_t block, const char *name)
{
	return query(l, l->in, block, name);
}

int live_out(const Live *l, uint32_t block, const char *name)
{
	return query(l, l->out, block, name);
}

uint32_t live_nregs(const Live *l)
{
	return l->nregs;
}

const char *live_name(const Live *l, uint32_t reg)
{
	return l->regs[reg];
}
