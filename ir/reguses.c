/* Which instructions of a function read and write each register.  One
 * walk over the operands fills flat arrays: an open-addressed table from
 * a register's interned name to its number, and every read as a pair
 * (register, instruction), sorted by register at the end (a counting
 * sort).  A per-register hash entry and list, as this was first built,
 * made it most of addrprep's time. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"
#include "ptrhash.h"

struct RegUses {
	const char **key;     /* slot -> name; NULL: empty */
	uint32_t *num;        /* slot -> register number */
	uint32_t cap;         /* slots, a power of two, at most half full */
	uint32_t nregs, regcap;
	uint32_t *nwrites, *last_write, *last_read;  /* by register */
	uint32_t *start;      /* register r's reads are reads[start[r] .. start[r+1]) */
	uint32_t *reads;
	uint32_t npairs, paircap;
	uint32_t (*pair)[2];  /* while building: (register, instruction) */
};

static uint32_t slot_of(const char *name, uint32_t cap)
{
	return ptr_hash(name) & (cap - 1);
}

/* Twice the slots, or first enough for n names at most half full. */
static void grow_table(RegUses *u, uint32_t n)
{
	uint32_t cap = u->cap ? u->cap * 2 : 256;
	while (cap < 2 * n)
		cap *= 2;
	const char **key = xcalloc(cap, sizeof *key);
	uint32_t *num = xcalloc(cap, sizeof *num);
	for (uint32_t i = 0; i < u->cap; i++) {
		if (!u->key[i])
			continue;
		uint32_t j = slot_of(u->key[i], cap);
		while (key[j])
			j = (j + 1) & (cap - 1);
		key[j] = u->key[i];
		num[j] = u->num[i];
	}
	free(u->key);
	free(u->num);
	u->key = key, u->num = num, u->cap = cap;
}

/* name's number, or UINT32_MAX with *slot where it would go. */
static uint32_t find(const RegUses *u, const char *name, uint32_t *slot)
{
	uint32_t i = slot_of(name, u->cap);
	for (; u->key[i]; i = (i + 1) & (u->cap - 1))
		if (u->key[i] == name)
			return u->num[i];
	*slot = i;
	return UINT32_MAX;
}

static uint32_t number(RegUses *u, const char *name)
{
	uint32_t i = 0, r = find(u, name, &i);
	if (r != UINT32_MAX)
		return r;
	if (2 * (u->nregs + 1) > u->cap) {
		grow_table(u, 0);
		find(u, name, &i);
	}
	if (u->nregs == u->regcap) {
		u->regcap = u->regcap ? 2 * u->regcap : 64;
		u->nwrites = xreallocarray(u->nwrites, u->regcap, sizeof *u->nwrites);
		u->last_write = xreallocarray(u->last_write, u->regcap, sizeof *u->last_write);
		u->last_read = xreallocarray(u->last_read, u->regcap, sizeof *u->last_read);
	}
	r = u->nregs++;
	u->nwrites[r] = 0;
	u->last_write[r] = UINT32_MAX;  /* what reguses_writes says of a register never written */
	u->last_read[r] = UINT32_MAX;
	u->key[i] = name;
	u->num[i] = r;
	return r;
}

typedef struct Walk {
	RegUses *u;
	uint32_t ins;
} Walk;

static void note(void *ctx, const char *name, OpRole role)
{
	Walk *w = ctx;
	RegUses *u = w->u;
	if (name[0] != '%')
		return;
	uint32_t r = number(u, name);
	if (role != ROLE_USE) {
		u->nwrites[r]++;
		u->last_write[r] = w->ins;
		return;
	}
	if (u->last_read[r] == w->ins)  /* read twice by one instruction */
		return;
	u->last_read[r] = w->ins;
	u->pair = array_grow(u->pair, u->npairs, &u->paircap, sizeof *u->pair);
	u->pair[u->npairs][0] = r;
	u->pair[u->npairs][1] = w->ins;
	u->npairs++;
}

RegUses *reguses_build(const Cfg *g)
{
	RegUses *u = xcalloc(1, sizeof *u);
	grow_table(u, g->nins / 2 < (1u << 20) ? g->nins / 2 : 1u << 20);  /* registers: about this many at most */
	Walk w = {u, 0};
	for (w.ins = 0; w.ins < g->nins; w.ins++)
		ins_names(&g->ins[w.ins]->ins, note, &w);
	/* counting sort by register, stable: each one's reads ascend */
	u->start = xcalloc(u->nregs + 1, sizeof *u->start);
	for (uint32_t k = 0; k < u->npairs; k++)
		u->start[u->pair[k][0] + 1]++;
	for (uint32_t r = 0; r < u->nregs; r++)
		u->start[r + 1] += u->start[r];
	u->reads = xcalloc(u->npairs, sizeof *u->reads);
	uint32_t *fill = u->last_read;  /* no longer needed: the next free place */
	if (u->nregs)  /* none: fill is NULL */
		memcpy(fill, u->start, u->nregs * sizeof *fill);
	for (uint32_t k = 0; k < u->npairs; k++)
		u->reads[fill[u->pair[k][0]]++] = u->pair[k][1];
	free(u->pair);
	u->pair = NULL;
	return u;
}

void reguses_free(RegUses *u)
{
	if (!u)
		return;
	free(u->key);
	free(u->num);
	free(u->nwrites);
	free(u->last_write);
	free(u->last_read);
	free(u->start);
	free(u->reads);
	free(u->pair);
	free(u);
}

const uint32_t *reguses_reads(const RegUses *u, const char *reg, uint32_t *n)
{
	uint32_t slot, r = find(u, reg, &slot);
	if (r == UINT32_MAX) {
		*n = 0;
		return NULL;
	}
	*n = u->start[r + 1] - u->start[r];
	return u->reads + u->start[r];
}

uint32_t reguses_writes(const RegUses *u, const char *reg, uint32_t *last)
{
	uint32_t slot, r = find(u, reg, &slot);
	if (r == UINT32_MAX)
		return 0;
	*last = u->last_write[r];
	return u->nwrites[r];
}
