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

/* Instructions on a cycle: what a loop-unrolling backend may copy. */
uint32_t loops_size(const Cfg *g)
{
	uint32_t n = 0;
	for (uint32_t b = 0; b < g->nblocks; b++)
		if (g->blocks[b].cyclic)
			n += g->blocks[b].end - g->blocks[b].first;
	return n;
}
