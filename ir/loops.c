/* Loops of a control-flow graph: a header block and the back edges into
 * it (an edge from a block the header dominates), in text order of the
 * headers, with what the input says about unrolling each.  Front ends
 * lay loops out in text order, and an -O3 front end that unrolled a loop
 * itself leaves the remainder loop it made right after the unrolled one,
 * marked .pragma "nounroll" (LLVM's runtime unrolling: main loop, then
 * the epilogue). */
#include <stdlib.h>
#include <string.h>
#include "ir.h"

/* A .pragma "nounroll" among the statements just before the header's
 * first instruction (after its label, .loc between). */
static int marked_nounroll(const Stmt *first)
{
	for (const Stmt *s = first ? first->prev : NULL; s; s = s->prev) {
		if (s->kind == S_PRAGMA && s->strs.nstrs == 1 && !strcmp(s->strs.strs[0], "\"nounroll\""))
			return 1;
		if (s->kind != S_PRAGMA && s->kind != S_LOC)
			return 0;
	}
	return 0;
}

uint32_t loops_find(const Cfg *g, Loop **out)
{
	Loop *v = NULL;
	uint32_t n = 0, cap = 0;
	for (uint32_t h = 0; h < g->nblocks; h++) {
		const Block *b = &g->blocks[h];
		uint32_t last = UINT32_MAX;
		for (uint32_t e = 0; e < b->npred; e++) {
			uint32_t p = b->pred[e];
			if (g->blocks[p].rpo != UINT32_MAX && cfg_dominates(g, h, p) && (last == UINT32_MAX || p > last))
				last = p;
		}
		if (last == UINT32_MAX || b->first >= b->end)
			continue;
		v = array_grow(v, n, &cap, sizeof *v);
		Stmt *first = g->ins[b->first];
		v[n++] = (Loop){h, last, first, (uint8_t)marked_nounroll(first)};
	}
	*out = v;
	return n;
}

/* A loop the front end unrolled already: its next loop in text order is
 * the remainder, marked nounroll, and it is not marked itself. */
int loop_unrolled(const Loop *v, uint32_t n, uint32_t i)
{
	if (v[i].nounroll)
		return 0;
	for (uint32_t j = i + 1; j < n; j++)
		if (v[j].header > v[i].last)
			return v[j].nounroll;
	return 0;
}

/* Instructions on a cycle that holds no call: what ptxas may unroll.
 * It copies no loop around a call (measured, ptxas 13: a loop of 16 trips
 * calling a __noinline__ function is 3,200 SASS bytes whether its bound
 * is 16 or a parameter; without the call 4,736 against 3,712). */
uint32_t loops_unrollable_size(const Cfg *g)
{
	uint8_t *calls = xcalloc(g->nblocks + 1, 1);
	for (uint32_t b = 0; b < g->nblocks; b++)
		for (uint32_t i = g->blocks[b].first; g->blocks[b].cyclic && i < g->blocks[b].end; i++)
			calls[g->blocks[b].cycle] |= stmt_is_call(g->ins[i]);
	uint32_t n = 0;
	for (uint32_t b = 0; b < g->nblocks; b++)
		if (g->blocks[b].cyclic && !calls[g->blocks[b].cycle])
			n += g->blocks[b].end - g->blocks[b].first;
	free(calls);
	return n;
}

/* The one instruction of block b that writes reg, or -1 (none, several,
 * or one that may write it). */
static int64_t sole_writer(const Cfg *g, const Block *b, const char *reg)
{
	int64_t w = -1;
	for (uint32_t k = b->first; k < b->end; k++) {
		RegAccess a = ins_reg_access(&g->ins[k]->ins, reg);
		if (a.may_write || (a.writes && w >= 0))
			return -1;
		if (a.writes)
			w = k;
	}
	return w;
}

/* Adds d to the set out (n of at most max); 0 when it is full. */
static int add_def(uint32_t *out, uint32_t *n, uint32_t max, uint32_t d)
{
	for (uint32_t j = 0; j < *n; j++)
		if (out[j] == d)
			return 1;
	if (*n == max)
		return 0;
	out[(*n)++] = d;
	return 1;
}

uint32_t loop_entry_defs(const Cfg *g, const Defs *defs, uint32_t b, const char *reg, uint32_t *out, uint32_t max)
{
	const Block *lb = &g->blocks[b];
	uint32_t n = 0;
	for (uint32_t e = 0; e < lb->npred; e++) {
		const Block *p = &g->blocks[lb->pred[e]];
		if (lb->pred[e] == b)
			continue;
		if (p->first >= p->end)
			return 0;
		uint32_t d[4], k, last = p->end - 1;
		RegAccess a = ins_reg_access(&g->ins[last]->ins, reg);
		if (a.may_write)
			return 0;
		k = a.writes ? (d[0] = last, 1) : defs_reaching(defs, last, reg, d, 4);
		if (k == 0 || k > 4)
			return 0;
		for (uint32_t i = 0; i < k; i++)
			if (!add_def(out, &n, max, d[i]))
				return 0;
	}
	return n;
}

/* The constant K every way into one-block loop b from outside gives reg
 * ("mov reg, K" the last write on each); 0 when there is none. */
static int entry_constant(const Cfg *g, const Defs *defs, uint32_t b, const char *reg, int64_t *k)
{
	uint32_t d[4], n = loop_entry_defs(g, defs, b, reg, d, 4);
	for (uint32_t i = 0; i < n; i++) {
		const Ins *in = d[i] == DEF_ENTRY ? NULL : &g->ins[d[i]]->ins;
		int64_t v;
		if (!in || in->sp->code != O_mov || in->guard || in->nops != 2 || !int_operand(in->ops[1], &v) ||
		    (i && v != *k))
			return 0;
		*k = v;
	}
	return n > 0;
}

/* Is in "add i, i, s" (or sub, or add i, s, i), unguarded, s a constant:
 * s, negated for sub, in *s?  A plain integer add: no .sat or .cc, which
 * would not step i by s modulo its width. */
int loop_step_of(const Ins *in, const char *i, int64_t *s)
{
	int op = in->sp->code;
	const Spelling *sp = in->sp;
	if ((op != O_add && op != O_sub) || in->guard || in->nops != 3 || in->ops[0]->kind != E_NAME ||
	    in->ops[0]->str != i || sp->ntypes != 1 || sp->nmods != 1 || sp->unknown || ty_floats(sp->types[0]))
		return 0;
	int k = in->ops[1]->kind == E_NAME && in->ops[1]->str == i ? 2 :
		op == O_add && in->ops[2]->kind == E_NAME && in->ops[2]->str == i ? 1 : 0;
	if (!k || !int_operand(in->ops[k], s))
		return 0;
	if (op == O_sub)
		*s = (int64_t)(0 - (uint64_t)*s);
	return 1;
}

static int holds(int cmp, uint64_t a, uint64_t b, int bits, int sign)
{
	int64_t x = (int64_t)(a << (64 - bits)) >> (64 - bits), y = (int64_t)(b << (64 - bits)) >> (64 - bits);
	int lt = sign ? x < y : a < b, eq = a == b;
	switch (cmp) {
	case CMP_EQ: return eq;
	case CMP_NE: return !eq;
	case CMP_LT: case CMP_LO: return lt;
	case CMP_LE: case CMP_LS: return lt || eq;
	case CMP_GT: case CMP_HI: return !lt && !eq;
	case CMP_GE: case CMP_HS: return !lt;
	}
	return -1;
}

/* The setp that decides one-block loop b's closing "@q bra": its index,
 * the counter it reads in *i and the constant in *n (the comparison
 * turned round when the constant comes first: 6 > i is i < 6). */
static int64_t closing_test(const Cfg *g, const Block *lb, const char **i, int64_t *n, int *cmp)
{
	const Ins *bra = &g->ins[lb->end - 1]->ins;
	if (bra->sp->code != O_bra || !bra->guard)
		return -1;
	int64_t t = sole_writer(g, lb, bra->guard);
	const Ins *setp = t >= 0 ? &g->ins[t]->ins : NULL;
	if (!setp || setp->sp->code != O_setp || setp->guard || setp->nops != 3 || setp->ops[0]->kind != E_NAME)
		return -1;
	static const int turned[] = {[CMP_LT] = CMP_GT, [CMP_GT] = CMP_LT, [CMP_LE] = CMP_GE, [CMP_GE] = CMP_LE,
		[CMP_LO] = CMP_HI, [CMP_HI] = CMP_LO, [CMP_LS] = CMP_HS, [CMP_HS] = CMP_LS,
		[CMP_EQ] = CMP_EQ, [CMP_NE] = CMP_NE};
	*cmp = setp->sp->cmp;
	if (setp->ops[1]->kind == E_NAME && int_operand(setp->ops[2], n)) {
		*i = setp->ops[1]->str;
	} else if (setp->ops[2]->kind == E_NAME && int_operand(setp->ops[1], n)) {
		*i = setp->ops[2]->str;
		*cmp = *cmp >= 0 && (size_t)*cmp < sizeof turned / sizeof *turned ? turned[*cmp] : -1;
	} else {
		return -1;
	}
	return t;
}

/* How many times at most one-block loop b runs each time it is entered:
 * a counter set to a constant on every way in, stepped by a constant
 * once a trip, and compared with a constant to close it, counted trip by
 * trip as the machine would (wrapping in the test's width); 0 when that
 * is not its form or it runs more than limit times. */
uint32_t loop_trips(const Cfg *g, const Defs *defs, uint32_t b, uint32_t limit)
{
	const Block *lb = &g->blocks[b];
	if (lb->first >= lb->end || lb->nsucc != 2 || (lb->succ[0] != b && lb->succ[1] != b))
		return 0;
	const char *i;
	int64_t n, c0, s;
	int cmp;
	int64_t t = closing_test(g, lb, &i, &n, &cmp), st = t >= 0 ? sole_writer(g, lb, i) : -1;
	if (st < 0 || !loop_step_of(&g->ins[st]->ins, i, &s) || !entry_constant(g, defs, b, i, &c0))
		return 0;
	const Ins *setp = &g->ins[t]->ins;
	int bits = ty_bits(setp->sp->types[0]), sign = ty_signed(setp->sp->types[0]);
	if (bits < 8 || bits > 64 || ty_bits(g->ins[st]->ins.sp->types[0]) != bits ||
	    setp->sp->ntypes != 1 || setp->sp->unknown || ty_floats(setp->sp->types[0]))
		return 0;
	uint64_t mask = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1, v = (uint64_t)c0;
	int neg = g->ins[lb->end - 1]->ins.guard_neg;
	for (uint32_t trip = 1; trip <= limit; trip++) {
		if (st < t)   /* the test reads the counter as stepped this trip */
			v += (uint64_t)s;
		int h = holds(cmp, v & mask, (uint64_t)n & mask, bits, sign);
		if (h < 0)
			return 0;
		if (h == neg)
			return trip;
		if (st > t)
			v += (uint64_t)s;
	}
	return 0;
}
