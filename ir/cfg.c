/* Control-flow graph of one function: basic blocks over its instructions
 * (nested { } scopes flattened), edges from bra, brx.idx (through its
 * .branchtargets), ret/exit/trap and fallthrough; reverse postorder and
 * dominators (semi-NCA, below). */
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "ir.h"

typedef struct LabelAt {
	UT_hash_handle hh;
	const char *name;
	uint32_t ins;        /* index of the next instruction */
	const Stmt *targets; /* for a .branchtargets label */
} LabelAt;

typedef struct Builder {
	Cfg *g;
	LabelAt *labels;
	uint32_t cap;   /* of g->ins */
	int bad;
} Builder;

/* One table for the whole body: in a normalized function each label is
 * declared in one block (ir/scope.c), so its spelling is its label.  One
 * block declaring it twice is ptxas's error; the first is kept. */
static void add_label(Builder *b, const char *name, const Stmt *targets)
{
	LabelAt *l;
	HASH_FIND_PTR(b->labels, &name, l);
	if (l)
		return;
	l = arena_alloc(b->g->arena, sizeof *l);
	l->name = name;
	l->ins = b->g->nins;
	l->targets = targets;
	HASH_ADD_PTR(b->labels, name, l);
}

static void flatten(Builder *b, const List *body)
{
	Cfg *g = b->g;
	BodyIt it;
	for (const Stmt *s = body_first(body, &it); s; s = body_next(&it)) {
		if (s->kind == S_LABEL)
			add_label(b, s->label, NULL);
		else if (s->kind == S_TARGETS && s->list.word == intern_cstr(".branchtargets"))
			add_label(b, s->list.label, s);
		else if (s->kind == S_INS) {
			g->ins = array_grow(g->ins, g->nins, &b->cap, sizeof *g->ins);
			g->ins[g->nins++] = (Stmt *)s;
		}
	}
}

static LabelAt *label(Builder *b, const Stmt *at, const Expr *e)
{
	LabelAt *l = NULL;
	if (e->kind == E_NAME)
		HASH_FIND_PTR(b->labels, &e->str, l);
	if (!l) {
		error(at->loc, "branch to an unknown label");
		b->bad = 1;
	}
	return l;
}

/* Targets of a branch as instruction indexes; returns their count. */
static uint32_t branch_targets(Builder *b, const Stmt *s, uint32_t *out, uint32_t max)
{
	const Ins *in = &s->ins;
	if (in->sp->code == O_bra) {
		LabelAt *l = label(b, s, in->ops[0]);
		if (l)
			out[0] = l->ins;
		return l ? 1 : 0;
	}
	LabelAt *l = in->nops == 2 ? label(b, s, in->ops[1]) : NULL;  /* brx.idx i, table */
	if (!l || !l->targets)
		return 0;
	uint32_t n = 0;
	for (uint32_t i = 0; i < l->targets->list.nitems && n < max; i++) {
		LabelAt *t = label(b, s, l->targets->list.items[i]);
		if (t)
			out[n++] = t->ins;
	}
	return n;
}

static int ends_block(const Stmt *s)
{
	return (s->ins.sp->op->flags & (OF_BRANCH | OF_TERM)) != 0;
}

static void find_blocks(Builder *b, uint32_t *block_of)
{
	Cfg *g = b->g;
	char *leader = xcalloc(g->nins + 1, 1);
	uint32_t tmp[1024];
	leader[0] = 1;
	for (LabelAt *l = b->labels; l; l = l->hh.next)
		leader[l->ins] = 1;
	for (uint32_t i = 0; i < g->nins; i++) {
		if (!ends_block(g->ins[i]))
			continue;
		leader[i + 1] = 1;
		if (g->ins[i]->ins.sp->op->flags & OF_BRANCH) {
			uint32_t n = branch_targets(b, g->ins[i], tmp, 1024);
			for (uint32_t k = 0; k < n; k++)
				leader[tmp[k]] = 1;
		}
	}
	for (uint32_t i = 0; i < g->nins; i++)
		g->nblocks += leader[i];
	g->blocks = arena_alloc(g->arena, (g->nblocks + 1) * sizeof *g->blocks);
	uint32_t k = 0;
	for (uint32_t i = 0; i < g->nins; i++) {
		if (leader[i]) {
			if (k)
				g->blocks[k - 1].end = i;
			g->blocks[k++].first = i;
		}
		block_of[i] = k - 1;
	}
	if (k)
		g->blocks[k - 1].end = g->nins;
	free(leader);
}

static void add_edge(Cfg *g, uint32_t from, uint32_t to, uint32_t *nsucc, uint32_t **succ)
{
	for (uint32_t i = 0; i < nsucc[from]; i++)
		if (succ[from][i] == to)
			return;
	succ[from] = xreallocarray(succ[from], nsucc[from] + 1, sizeof **succ);
	succ[from][nsucc[from]++] = to;
	g->blocks[to].npred++;
}

static void connect(Builder *b, const uint32_t *block_of)
{
	Cfg *g = b->g;
	uint32_t **succ = xcalloc(g->nblocks + 1, sizeof *succ);
	uint32_t *nsucc = xcalloc(g->nblocks + 1, sizeof *nsucc);
	uint32_t tmp[1024];
	for (uint32_t k = 0; k < g->nblocks; k++) {
		const Stmt *last = g->ins[g->blocks[k].end - 1];
		unsigned flags = last->ins.sp->op->flags;
		int falls = !(flags & (OF_BRANCH | OF_TERM)) || last->ins.guard;
		if (flags & OF_BRANCH) {
			uint32_t n = branch_targets(b, last, tmp, 1024);
			for (uint32_t i = 0; i < n; i++)
				if (tmp[i] < g->nins)
					add_edge(g, k, block_of[tmp[i]], nsucc, succ);
		}
		if (falls && k + 1 < g->nblocks)
			add_edge(g, k, k + 1, nsucc, succ);
	}
	for (uint32_t k = 0; k < g->nblocks; k++) {
		Block *bl = &g->blocks[k];
		bl->succ = arena_dup(g->arena, succ[k], nsucc[k] * sizeof *succ[k]);
		bl->nsucc = nsucc[k];
		bl->pred = arena_alloc(g->arena, (bl->npred + 1) * sizeof *bl->pred);
		bl->npred = 0;
		free(succ[k]);
	}
	for (uint32_t k = 0; k < g->nblocks; k++)
		for (uint32_t i = 0; i < g->blocks[k].nsucc; i++) {
			Block *to = &g->blocks[g->blocks[k].succ[i]];
			to->pred[to->npred++] = k;
		}
	free(succ);
	free(nsucc);
}

/* Reverse postorder by an explicit-stack DFS (deep CFGs exist). */
static void number(Cfg *g)
{
	uint32_t n = g->nblocks, top = 0, count = 0;
	uint32_t *stack = xcalloc(n + 1, sizeof *stack), *edge = xcalloc(n + 1, sizeof *edge);
	uint32_t *post = xcalloc(n + 1, sizeof *post);
	char *seen = xcalloc(n + 1, 1);
	for (uint32_t k = 0; k < n; k++)
		g->blocks[k].rpo = UINT32_MAX;
	if (n) {
		stack[top++] = 0;
		seen[0] = 1;
	}
	while (top) {
		uint32_t k = stack[top - 1];
		if (edge[k] < g->blocks[k].nsucc) {
			uint32_t s = g->blocks[k].succ[edge[k]++];
			if (!seen[s]) {
				seen[s] = 1;
				stack[top++] = s;
			}
		} else {
			post[count++] = k;
			top--;
		}
	}
	g->order = arena_alloc(g->arena, (count + 1) * sizeof *g->order);
	g->norder = count;
	for (uint32_t i = 0; i < count; i++) {
		g->order[i] = post[count - 1 - i];
		g->blocks[g->order[i]].rpo = i;
	}
	free(stack);
	free(edge);
	free(post);
	free(seen);
}

/* Which blocks lie on a cycle (may run more than once per call):
 * Kosaraju's second pass, over predecessors in reverse postorder; a block
 * is on one when its component has another block or it is its own
 * successor. */
static void find_cycles(Cfg *g)
{
	uint32_t *comp = xmalloc((g->nblocks + 1) * sizeof *comp), *size = xcalloc(g->nblocks + 1, sizeof *size);
	uint32_t *stack = xmalloc((g->nblocks + 1) * sizeof *stack), top = 0;
	for (uint32_t k = 0; k < g->nblocks; k++)
		comp[k] = UINT32_MAX;
	for (uint32_t i = 0; i < g->norder; i++) {
		uint32_t root = g->order[i];
		if (comp[root] != UINT32_MAX)
			continue;
		comp[root] = root;
		stack[top++] = root;
		while (top) {
			const Block *b = &g->blocks[stack[--top]];
			size[root]++;
			for (uint32_t e = 0; e < b->npred; e++) {
				uint32_t p = b->pred[e];
				if (comp[p] == UINT32_MAX && g->blocks[p].rpo != UINT32_MAX) {
					comp[p] = root;
					stack[top++] = p;
				}
			}
		}
	}
	for (uint32_t k = 0; k < g->nblocks; k++) {
		Block *b = &g->blocks[k];
		b->cycle = comp[k];
		b->cyclic = comp[k] != UINT32_MAX && size[comp[k]] > 1;
		for (uint32_t e = 0; e < b->nsucc; e++)
			b->cyclic |= b->succ[e] == k;
	}
	free(comp);
	free(size);
	free(stack);
}

/* ---- dominators: semi-NCA (Georgiadis, Tarjan and Werneck) ----------
 * Semidominators over a depth-first tree with path compression, then each
 * node's immediate dominator found up the tree from its parent.  Nearly
 * linear, where the iterative algorithm of Cooper, Harvey and Kennedy is
 * quadratic on a chain of blocks that all branch to one join.  The graph
 * is given as edge lists, so that post-dominators are the same walk over
 * the reversed one.  Arrays below are indexed by depth-first number. */
typedef struct Graph {
	uint32_t n;
	const uint32_t *first, *to;     /* v's successors: to[first[v] .. first[v + 1]) */
	const uint32_t *pfirst, *pto;   /* and its predecessors */
} Graph;

typedef struct Dom {
	uint32_t *num;     /* node -> its number, NONE when unreachable */
	uint32_t *vert;    /* number -> node */
	uint32_t *parent;  /* number -> its parent's number in the tree */
	uint32_t *semi, *label, *anc, *stack;
	uint32_t n;
} Dom;

enum { NONE = UINT32_MAX };

static void dom_number(const Graph *gr, Dom *d, uint32_t entry)
{
	uint32_t *edge = xmalloc((gr->n + 1) * sizeof *edge), top = 0;
	d->num[entry] = 0;
	d->vert[0] = entry;
	d->parent[0] = 0;
	d->n = 1;
	d->stack[top] = entry;
	edge[top++] = gr->first[entry];
	while (top) {
		uint32_t v = d->stack[top - 1];
		if (edge[top - 1] == gr->first[v + 1]) {
			top--;
			continue;
		}
		uint32_t w = gr->to[edge[top - 1]++];
		if (d->num[w] != NONE)
			continue;
		d->num[w] = d->n;
		d->vert[d->n] = w;
		d->parent[d->n++] = d->num[v];
		d->stack[top] = w;
		edge[top++] = gr->first[w];
	}
	free(edge);
}

/* The number with the least semidominator on the path from v up to the
 * root of its tree in the forest linked so far (v itself when v is a
 * root), the path compressed on the way. */
static uint32_t dom_eval(Dom *d, uint32_t v)
{
	uint32_t top = 0, u = v;
	if (d->anc[v] == NONE)
		return v;
	while (d->anc[d->anc[u]] != NONE) {
		d->stack[top++] = u;
		u = d->anc[u];
	}
	while (top) {
		u = d->stack[--top];
		uint32_t a = d->anc[u];
		if (d->semi[d->label[a]] < d->semi[d->label[u]])
			d->label[u] = d->label[a];
		d->anc[u] = d->anc[a];
	}
	return d->label[v];
}

/* Each node's immediate dominator from entry into idom (the entry's is
 * itself), NONE for the nodes entry does not reach. */
static void semi_nca(const Graph *gr, uint32_t entry, uint32_t *out)
{
	uint32_t nb = gr->n + 1;
	Dom d = {.num = xmalloc(nb * sizeof(uint32_t)), .vert = xmalloc(nb * sizeof(uint32_t)),
		.parent = xmalloc(nb * sizeof(uint32_t)), .semi = xmalloc(nb * sizeof(uint32_t)),
		.label = xmalloc(nb * sizeof(uint32_t)), .anc = xmalloc(nb * sizeof(uint32_t)),
		.stack = xmalloc(nb * sizeof(uint32_t))};
	for (uint32_t k = 0; k < gr->n; k++)
		d.num[k] = NONE, out[k] = NONE;
	dom_number(gr, &d, entry);
	for (uint32_t i = 0; i < d.n; i++) {
		d.semi[i] = d.label[i] = i;
		d.anc[i] = NONE;
	}
	for (uint32_t i = d.n; i-- > 1;) {
		uint32_t w = d.vert[i];
		for (uint32_t p = gr->pfirst[w]; p < gr->pfirst[w + 1]; p++) {
			uint32_t v = d.num[gr->pto[p]];
			if (v != NONE && d.semi[dom_eval(&d, v)] < d.semi[i])
				d.semi[i] = d.semi[dom_eval(&d, v)];
		}
		d.anc[i] = d.parent[i];
	}
	uint32_t *idom = d.label;  /* reused: number -> its immediate dominator's */
	idom[0] = 0;
	for (uint32_t i = 1; i < d.n; i++) {
		uint32_t up = d.parent[i];
		while (up > d.semi[i])
			up = idom[up];
		idom[i] = up;
	}
	for (uint32_t i = 0; i < d.n; i++)
		out[d.vert[i]] = d.vert[idom[i]];
	free(d.num);
	free(d.vert);
	free(d.parent);
	free(d.semi);
	free(d.label);
	free(d.anc);
	free(d.stack);
}

/* The blocks' successors and predecessors as edge lists; with exits,
 * a node past the blocks that every block ending the function (a
 * ret, exit or trap, guarded or not, or no successor) goes to. */
typedef struct Edges {
	uint32_t *first, *to, *pfirst, *pto;
} Edges;

int cfg_ends_function(const Cfg *g, uint32_t b)
{
	const Block *x = &g->blocks[b];
	return !x->nsucc || (g->ins[x->end - 1]->ins.sp->op->flags & OF_TERM);
}

static void edges_of(const Cfg *g, int exits, Edges *e)
{
	uint32_t n = g->nblocks + (exits != 0), m = 0, k, i;
	for (k = 0; k < g->nblocks; k++)
		m += g->blocks[k].nsucc + (exits && cfg_ends_function(g, k));
	e->first = xcalloc(n + 2, sizeof *e->first), e->pfirst = xcalloc(n + 2, sizeof *e->pfirst);
	e->to = xmalloc((m + 1) * sizeof *e->to), e->pto = xmalloc((m + 1) * sizeof *e->pto);
	for (k = 0; k < g->nblocks; k++) {     /* count, then place */
		const Block *b = &g->blocks[k];
		int out = exits && cfg_ends_function(g, k);
		e->first[k + 1] += b->nsucc + out;
		for (i = 0; i < b->nsucc; i++)
			e->pfirst[b->succ[i] + 1]++;
		e->pfirst[g->nblocks + 1] += out;
	}
	for (k = 0; k < n; k++)
		e->first[k + 1] += e->first[k], e->pfirst[k + 1] += e->pfirst[k];
	uint32_t *at = xmalloc((n + 1) * sizeof *at);
	memcpy(at, e->pfirst, (n + 1) * sizeof *at);
	for (k = 0; k < g->nblocks; k++) {
		const Block *b = &g->blocks[k];
		uint32_t w = e->first[k];
		for (i = 0; i < b->nsucc; i++) {
			e->to[w++] = b->succ[i];
			e->pto[at[b->succ[i]]++] = k;
		}
		if (exits && cfg_ends_function(g, k)) {
			e->to[w++] = g->nblocks;
			e->pto[at[g->nblocks]++] = k;
		}
	}
	free(at);
}

static void edges_free(Edges *e)
{
	free(e->first), free(e->to), free(e->pfirst), free(e->pto);
}

static void dominators(Cfg *g)
{
	for (uint32_t k = 0; k < g->nblocks; k++)
		g->blocks[k].idom = NONE;
	if (!g->norder)
		return;
	Edges e;
	edges_of(g, 0, &e);
	Graph gr = {g->nblocks, e.first, e.to, e.pfirst, e.pto};
	uint32_t *idom = xmalloc((g->nblocks + 1) * sizeof *idom);
	semi_nca(&gr, g->order[0], idom);
	for (uint32_t k = 0; k < g->nblocks; k++)
		g->blocks[k].idom = idom[k];
	free(idom);
	edges_free(&e);
}

uint32_t *cfg_postdoms(const Cfg *g)
{
	Edges e;
	edges_of(g, 1, &e);
	Graph rev = {g->nblocks + 1, e.pfirst, e.pto, e.first, e.to};
	uint32_t *ipdom = xmalloc((g->nblocks + 2) * sizeof *ipdom);
	semi_nca(&rev, g->nblocks, ipdom);
	for (uint32_t k = 0; k < g->nblocks; k++)
		if (g->blocks[k].rpo == NONE)
			ipdom[k] = NONE;
	edges_free(&e);
	return ipdom;
}

Cfg *cfg_build(const Func *f)
{
	Arena *a = arena_new();
	Cfg *g = arena_alloc(a, sizeof *g);
	g->arena = a;
	g->func = f;
	Builder b = {g, NULL, 0, 0};
	flatten(&b, &f->body);
	g->block_of = arena_alloc(a, (g->nins + 1) * sizeof *g->block_of);
	find_blocks(&b, g->block_of);
	connect(&b, g->block_of);
	number(g);
	dominators(g);
	find_cycles(g);
	HASH_CLEAR(hh, b.labels);
	if (b.bad) {
		cfg_free(g);
		return NULL;
	}
	return g;
}

void cfg_free(Cfg *g)
{
	if (g) {
		free(g->ins);
		arena_free(g->arena);
	}
}

int cfg_dominates(const Cfg *g, uint32_t a, uint32_t b)
{
	if (g->blocks[b].rpo == UINT32_MAX)
		return 1;  /* unreachable code is dominated by everything */
	for (;;) {
		if (a == b)
			return 1;
		uint32_t up = g->blocks[b].idom;
		if (up == b || up == UINT32_MAX)
			return 0;
		b = up;
	}
}

/* ---- unreachable code (stages/fold.c, stages/unrecurse.c) ---------------- */

/* The labels f's .branchtargets lists name (a .calltargets list names
 * functions): those of dead code keep it, as the lists stay. */
static void listed_labels(const Func *f, Names *out)
{
	BodyIt it;
	const char *word = intern_cstr(".branchtargets");
	for (const Stmt *s = body_first(&f->body, &it); s; s = body_next(&it))
		if (s->kind == S_TARGETS && s->list.word == word)
			for (uint32_t k = 0; k < s->list.nitems; k++)
				if (s->list.items[k]->kind == E_NAME)
					names_add(out, s->list.items[k]->str, NULL);
}

typedef struct Pending {
	Stmt **s;
	List **in;
	uint32_t n, cap, cap2;
} Pending;

uint32_t cfg_dead_size(const Cfg *g, const Func *f, const Names *sections)
{
	uint32_t n = 0;
	BodyIt it;
	for (uint32_t j = 0; j < g->nins; j++)
		n += g->blocks[g->block_of[j]].rpo == UINT32_MAX;
	if (!n)
		return 0;
	uint32_t j = 0;
	Names targets = {0};
	listed_labels(f, &targets);
	for (const Stmt *s = body_first(&f->body, &it); s && n; s = body_next(&it))
		if (s->kind == S_INS)
			j++;
		else if (s->kind == S_LABEL && j < g->nins && g->blocks[g->block_of[j]].rpo == UINT32_MAX &&
			 (names_exact(&targets, s->label) || names_exact(sections, s->label)))
			n = 0;
	if (!n)
		body_end(&it);
	names_free(&targets);
	return n;
}

void cfg_drop_dead(const Cfg *g, Func *f)
{
	Pending p = {0};
	BodyIt it;
	uint32_t j = 0;
	Stmt *loc = NULL;   /* the last .loc of dead code just passed */
	for (Stmt *s = body_first(&f->body, &it); s; s = body_next(&it)) {
		if (s->kind == S_LABEL || s->kind == S_LOC) {
			p.s = array_grow(p.s, p.n, &p.cap, sizeof *p.s);
			p.in = array_grow(p.in, p.n, &p.cap2, sizeof *p.in);
			p.s[p.n] = s;
			p.in[p.n++] = it.in;
			loc = s->kind == S_LOC ? NULL : loc;
		} else if (s->kind == S_INS) {
			int dead = g->blocks[g->block_of[j++]].rpo == UINT32_MAX;
			for (uint32_t k = 0; dead && k < p.n; k++) {
				list_remove(p.in[k], p.s[k]);
				loc = p.s[k]->kind == S_LOC ? p.s[k] : loc;
			}
			if (dead)
				list_remove(it.in, s);
			else if (loc)
				list_insert_before(it.in, s, loc);
			loc = dead ? loc : NULL;
			p.n = 0;
		}
	}
	free(p.s);
	free(p.in);
}
