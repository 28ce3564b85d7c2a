/* Which list holds each statement of a body.  One walk fills the table in
 * text order, with a stack rather than recursion (scopes nest as deep as
 * the input likes), and an open-addressed index from a statement to its
 * place answers place_of in constant time: a stage that asks for every
 * statement it removes stays linear in the body. */
#include <stdlib.h>
#include "ir.h"
#include "ptrhash.h"

struct PlaceSlot {
	const Stmt *key;   /* NULL: empty */
	uint32_t i;        /* its index in Places.v */
};

typedef struct Resume {  /* where to go on once a scope is done */
	Stmt *next;
	List *in;
} Resume;

static void flatten(Places *p, List *body)
{
	Resume local[16], *stack = local;
	uint32_t n = 0, cap = 16;
	Stmt *s = body->head;
	List *in = body;
	for (;;) {
		if (!s) {
			if (!n)
				break;
			n--;
			s = stack[n].next, in = stack[n].in;
		} else if (s->kind == S_SCOPE) {
			stack = stack_grow(stack, local, n, &cap, sizeof *stack);
			stack[n++] = (Resume){s->next, in};
			in = &s->scope, s = in->head;
		} else {
			p->v = array_grow(p->v, p->n, &p->vcap, sizeof *p->v);
			p->v[p->n++] = (Place){s, in};
			s = s->next;
		}
	}
	if (stack != local)
		free(stack);
}

static void index_one(Places *p, const Stmt *s, uint32_t i)
{
	uint32_t j = ptr_hash(s) & (p->cap - 1);
	while (p->slot[j].key)
		j = (j + 1) & (p->cap - 1);
	p->slot[j] = (struct PlaceSlot){s, i};
}

/* At most half full, so a probe ends soon at an empty slot. */
static void index_all(Places *p)
{
	uint32_t cap = 16;
	while (cap < 2 * (size_t)p->n)
		cap *= 2;
	p->slot = xcalloc(cap, sizeof *p->slot);
	p->cap = cap;
	for (uint32_t i = 0; i < p->n; i++)
		index_one(p, p->v[i].s, i);
}

/* Twice the slots, from the old ones: a removed statement keeps its
 * place, found with s NULL, as before. */
static void index_grow(Places *p)
{
	struct PlaceSlot *old = p->slot;
	uint32_t n = p->cap;
	p->cap *= 2;
	p->slot = xcalloc(p->cap, sizeof *p->slot);
	for (uint32_t j = 0; j < n; j++)
		if (old[j].key)
			index_one(p, old[j].key, old[j].i);
	free(old);
}

void places_of(Places *p, List *body)
{
	flatten(p, body);
	index_all(p);
}

Place *place_of(const Places *p, const Stmt *s)
{
	if (!p->cap)
		return NULL;
	for (uint32_t j = ptr_hash(s) & (p->cap - 1); p->slot[j].key; j = (j + 1) & (p->cap - 1))
		if (p->slot[j].key == s)
			return &p->v[p->slot[j].i];
	return NULL;
}

/* Appended to v, not in text order: the table answers which statements
 * the body holds and where, which is what its users ask of it. */
void place_insert(Places *p, List *in, Stmt *before, Stmt *s)
{
	if (before)
		list_insert_before(in, before, s);
	else
		list_append(in, s);
	p->v = array_grow(p->v, p->n, &p->vcap, sizeof *p->v);
	p->v[p->n++] = (Place){s, in};
	if (!p->cap) {
		index_all(p);
		return;
	}
	if (2 * (size_t)p->n > p->cap)
		index_grow(p);
	index_one(p, s, p->n - 1);
}

void place_remove(Place *p)
{
	if (!p->s)
		return;
	list_remove(p->in, p->s);
	p->s = NULL;
}

void place_move_before(Place *p, const Place *at)
{
	list_remove(p->in, p->s);
	list_insert_before(at->in, at->s, p->s);
	p->in = at->in;
}

void places_free(Places *p)
{
	free(p->v);
	free(p->slot);
	*p = (Places){0};
}
