/* Which list holds each statement of a body.  The one walk over a body
 * (body.c) fills the table in text order, and an open-addressed index
 * from a statement to its place answers place_of in constant time: a
 * stage that asks for every statement it removes stays linear in it. */
#include <stdlib.h>
#include "ir.h"
#include "ptrhash.h"

struct PlaceSlot {
	const Stmt *key;   /* NULL: empty */
	uint32_t i;        /* its index in Places.v */
};

static void flatten(Places *p, List *body)
{
	BodyIt it;
	for (Stmt *s = body_first(body, &it); s; s = body_next(&it))
		if (s->kind != S_SCOPE) {
			p->v = array_grow(p->v, p->n, &p->vcap, sizeof *p->v);
			p->v[p->n++] = (Place){s, it.in};
		}
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
