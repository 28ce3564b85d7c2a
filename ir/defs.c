/* Reaching definitions and def-use chains for the registers of one
 * function.  A definition is an (instruction, register) pair; each
 * register also has an "entry" definition standing for the value it has
 * on entry (a parameter, or undefined).  Guarded and may-define writes
 * reach without killing what was there. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"

typedef struct Def {
	uint32_t ins;   /* DEF_ENTRY for the value on entry */
	uint32_t reg;
} Def;

struct Defs {
	const Cfg *cfg;
	const Live *live;
	Def *defs;
	uint32_t ndefs, cap, words;
	uint32_t *first_of_ins;   /* ins -> first def id it makes (defs are in order) */
	uint32_t *count_of_ins;
	uint64_t *in;             /* per block: defs reaching its start */
	uint32_t nregs;
	uint32_t **by_reg;        /* register -> its definition ids */
	uint32_t *nby_reg;
};

typedef struct DefScan {
	Defs *d;
	uint32_t ins;
} DefScan;

static void set(uint64_t *b, uint32_t i) { b[i / 64] |= 1ull << (i % 64); }
static void clr(uint64_t *b, uint32_t i) { b[i / 64] &= ~(1ull << (i % 64)); }
static int has(const uint64_t *b, uint32_t i) { return (b[i / 64] >> (i % 64)) & 1; }

static void add_def(Defs *d, uint32_t ins, uint32_t reg)
{
	d->defs = array_grow(d->defs, d->ndefs, &d->cap, sizeof *d->defs);
	d->defs[d->ndefs++] = (Def){ins, reg};
}

static void note_def(void *ctx, const char *name, OpRole role)
{
	DefScan *s = ctx;
	int r = live_reg(s->d->live, name);
	if (r >= 0 && role != ROLE_USE)
		add_def(s->d, s->ins, (uint32_t)r);
}

/* Numbers every definition: entry ones first, then in instruction order. */
static void number_defs(Defs *d)
{
	const Cfg *g = d->cfg;
	for (uint32_t r = 0; r < d->nregs; r++)
		add_def(d, DEF_ENTRY, r);
	d->first_of_ins = calloc(g->nins + 1, sizeof *d->first_of_ins);
	d->count_of_ins = calloc(g->nins + 1, sizeof *d->count_of_ins);
	if (!d->first_of_ins || !d->count_of_ins)
		die("out of memory");
	DefScan s = {d, 0};
	for (uint32_t i = 0; i < g->nins; i++) {
		d->first_of_ins[i] = d->ndefs;
		s.ins = i;
		ins_names(&g->ins[i]->ins, note_def, &s);
		d->count_of_ins[i] = d->ndefs - d->first_of_ins[i];
	}
}

static int kills(const Defs *d, uint32_t id)
{
	const Def *df = &d->defs[id];
	if (df->ins == DEF_ENTRY)
		return 0;
	const Ins *in = &d->cfg->ins[df->ins]->ins;
	if (in->guard)
		return 0;
	/* a may-define (OF_OPAQUE) write does not replace the value for sure */
	return !(in->sp->op->flags & OF_OPAQUE);
}

/* Applies instruction i to a reaching set. */
static void step(const Defs *d, uint32_t i, uint64_t *bits, uint32_t *const *by_reg,
	const uint32_t *nby_reg)
{
	for (uint32_t k = 0; k < d->count_of_ins[i]; k++) {
		uint32_t id = d->first_of_ins[i] + k;
		if (kills(d, id)) {
			uint32_t r = d->defs[id].reg;
			for (uint32_t j = 0; j < nby_reg[r]; j++)
				clr(bits, by_reg[r][j]);
		}
	}
	for (uint32_t k = 0; k < d->count_of_ins[i]; k++)
		set(bits, d->first_of_ins[i] + k);
}

static void solve(Defs *d, uint32_t **by_reg, const uint32_t *nby_reg)
{
	const Cfg *g = d->cfg;
	size_t w = d->words;
	d->in = calloc((size_t)(g->nblocks + 1) * w, sizeof *d->in);
	uint64_t *out = calloc((size_t)(g->nblocks + 1) * w, sizeof *out);
	if (!d->in || !out)
		die("out of memory");
	for (uint32_t r = 0; r < d->nregs; r++)
		set(d->in, r);  /* entry definitions reach the entry block */
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t o = 0; o < g->norder; o++) {
			uint32_t k = g->order[o];
			const Block *b = &g->blocks[k];
			uint64_t *in = d->in + k * w;
			for (uint32_t p = 0; p < b->npred; p++)
				for (size_t x = 0; x < w; x++)
					in[x] |= out[b->pred[p] * w + x];
			uint64_t cur[w ? w : 1];
			memcpy(cur, in, w * sizeof *cur);
			for (uint32_t i = b->first; i < b->end; i++)
				step(d, i, cur, by_reg, nby_reg);
			if (memcmp(cur, out + k * w, w * sizeof *cur)) {
				memcpy(out + k * w, cur, w * sizeof *cur);
				changed = 1;
			}
		}
	}
	free(out);
}

Defs *defs_compute(const Cfg *g, const Live *l)
{
	Defs *d = calloc(1, sizeof *d);
	if (!d)
		die("out of memory");
	d->cfg = g;
	d->live = l;
	d->nregs = live_nregs(l);
	number_defs(d);
	d->words = (d->ndefs + 63) / 64;
	uint32_t **by_reg = calloc(d->nregs + 1, sizeof *by_reg);
	uint32_t *nby_reg = calloc(d->nregs + 1, sizeof *nby_reg);
	if (!by_reg || !nby_reg)
		die("out of memory");
	for (uint32_t id = 0; id < d->ndefs; id++) {
		uint32_t r = d->defs[id].reg;
		by_reg[r] = realloc(by_reg[r], (nby_reg[r] + 1) * sizeof **by_reg);
		if (!by_reg[r])
			die("out of memory");
		by_reg[r][nby_reg[r]++] = id;
	}
	solve(d, by_reg, nby_reg);
	d->by_reg = by_reg;
	d->nby_reg = nby_reg;
	return d;
}

void defs_free(Defs *d)
{
	if (!d)
		return;
	for (uint32_t r = 0; r < d->nregs; r++)
		free(d->by_reg[r]);
	free(d->by_reg);
	free(d->nby_reg);
	free(d->defs);
	free(d->first_of_ins);
	free(d->count_of_ins);
	free(d->in);
	free(d);
}

uint32_t defs_reaching(const Defs *d, uint32_t ins, const char *reg, uint32_t *out, uint32_t max)
{
	int r = live_reg(d->live, reg);
	uint32_t k = d->cfg->block_of[ins];
	if (r < 0 || d->cfg->blocks[k].rpo == UINT32_MAX)
		return 0;
	size_t w = d->words;
	uint64_t cur[w ? w : 1];
	memcpy(cur, d->in + k * w, w * sizeof *cur);
	for (uint32_t i = d->cfg->blocks[k].first; i < ins; i++)
		step(d, i, cur, d->by_reg, d->nby_reg);
	uint32_t n = 0;
	for (uint32_t j = 0; j < d->nby_reg[r]; j++) {
		uint32_t id = d->by_reg[r][j];
		if (has(cur, id)) {
			if (n < max)
				out[n] = d->defs[id].ins;
			n++;
		}
	}
	return n;
}

typedef struct UseScan {
	const char *reg;
	int found;
} UseScan;

static void find_use(void *ctx, const char *name, OpRole role)
{
	UseScan *u = ctx;
	if (role == ROLE_USE && name == u->reg)
		u->found = 1;
}

uint32_t defs_uses(const Defs *d, uint32_t def_ins, const char *reg, uint32_t *out, uint32_t max)
{
	uint32_t n = 0, tmp[64];
	for (uint32_t i = 0; i < d->cfg->nins; i++) {
		UseScan u = {reg, 0};
		ins_names(&d->cfg->ins[i]->ins, find_use, &u);
		if (!u.found)
			continue;
		uint32_t k = defs_reaching(d, i, reg, tmp, 64);
		for (uint32_t j = 0; j < k && j < 64; j++)
			if (tmp[j] == def_ins) {
				if (n < max)
					out[n] = i;
				n++;
				break;
			}
	}
	return n;
}
