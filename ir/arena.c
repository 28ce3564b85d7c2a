/* Bump allocation by lifetime: a module's IR is freed in one call. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"

/* IR nodes hold pointers and integers only: 8-byte alignment is enough,
 * and rounding a 24-byte Expr (one kid) up to 32 would waste a quarter. */
enum { BLOCK = 64 * 1024, ALIGN = 8 };

typedef struct Chunk {
	struct Chunk *next;
	size_t used, size;
	max_align_t data[];
} Chunk;

struct Arena {
	Chunk *head;
	size_t total;
};

Arena *arena_new(void)
{
	Arena *a = calloc(1, sizeof *a);
	if (!a)
		die("out of memory");
	return a;
}

void arena_free(Arena *a)
{
	if (!a)
		return;
	for (Chunk *b = a->head, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	free(a);
}

void arena_reset(Arena *a)
{
	Chunk *keep = a->head;
	if (!keep || (!keep->used && !keep->next))
		return;
	for (Chunk *b = keep->next, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	keep->next = NULL;
	keep->used = 0;
	a->total = keep->size;
}

void *arena_alloc(Arena *a, size_t n)
{
	n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	Chunk *b = a->head;
	if (!b || b->size - b->used < n) {
		size_t size = n > BLOCK / 4 ? n : BLOCK;
		b = malloc(sizeof *b + size);
		if (!b)
			die("out of memory");
		b->used = 0;
		b->size = size;
		/* A big one-off block goes behind the current one so the
		 * current block's free space is not abandoned. */
		if (a->head && size != BLOCK) {
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = a->head;
			a->head = b;
		}
		a->total += size;
	}
	void *p = (char *)b->data + b->used;
	b->used += n;
	memset(p, 0, n);
	return p;
}

void *arena_dup(Arena *a, const void *p, size_t n)
{
	if (n == 0)
		return NULL;
	void *q = arena_alloc(a, n);
	memcpy(q, p, n);
	return q;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

size_t arena_bytes(const Arena *a)
{
	return a->total;
}
