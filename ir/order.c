/* Where each function and variable is first declared in the module, as a
 * number that grows down the module, so that "declared before this
 * function" is one comparison rather than a walk of the module per
 * question (a chain of 2,000 callers would make that quadratic).  Places
 * are ORDER_STEP apart, so that a declaration a stage puts before an item
 * takes a place between the item and the one before it (order_put). */
#include <stdlib.h>
#include "ptrhash.h"
#include "ir.h"

typedef struct Placed {
	UT_hash_handle hh;
	const char *name;
	int64_t first;   /* its first declaration's place */
	int64_t def;     /* its body's (a function with one), or -1 */
} Placed;

struct DeclOrder {
	Arena *arena;
	Placed *by_name;
};

static Placed *placed(const DeclOrder *o, const char *name)
{
	Placed *p;
	HASH_FIND_PTR(o->by_name, &name, p);
	return p;
}

void order_put(DeclOrder *o, const char *name, int64_t place)
{
	Placed *p = placed(o, name);
	if (!p) {
		p = arena_alloc(o->arena, sizeof *p);
		*p = (Placed){.name = name, .first = place, .def = -1};
		HASH_ADD_PTR(o->by_name, name, p);
	} else if (place < p->first) {
		p->first = place;
	}
}

DeclOrder *order_build(const Module *m)
{
	DeclOrder *o = xcalloc(1, sizeof *o);
	o->arena = arena_new();
	int64_t k = 0;
	for (const Stmt *s = m->items.head; s; s = s->next, k += ORDER_STEP)
		if (s->kind == S_VAR)
			order_put(o, s->var.ds[0].name, k);
		else if (s->kind == S_FUNC) {
			order_put(o, s->func->name, k);
			if (s->func->has_body)
				placed(o, s->func->name)->def = k;
		}
	return o;
}

int64_t order_first(const DeclOrder *o, const char *name)
{
	const Placed *p = placed(o, name);
	return p ? p->first : -1;
}

int64_t order_def(const DeclOrder *o, const char *name)
{
	const Placed *p = placed(o, name);
	return p ? p->def : -1;
}

void order_free(DeclOrder *o)
{
	if (!o)
		return;
	HASH_CLEAR(hh, o->by_name);
	arena_free(o->arena);
	free(o);
}
