/* Bump allocation by lifetime: a module's IR is freed in one call. */
#define _DEFAULT_SOURCE 1  /* MADV_HUGEPAGE */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "ir.h"

/* IR nodes hold pointers and integers only: 8-byte alignment is enough,
 * and rounding a 24-byte Expr (one kid) up to 32 would waste a quarter.
 * Blocks start small (most arenas hold one function's analysis) and
 * double up to HUGE, the size of a huge page. */
enum { BLOCK = 64 * 1024, HUGE = 2 * 1024 * 1024, ALIGN = 8 };

typedef struct Chunk {
	struct Chunk *next;
	size_t used, size;
	int mapped;  /* from map_huge(), not malloc() */
	max_align_t data[];
} Chunk;

struct Arena {
	Chunk *head;
	size_t total;
	size_t next_size;  /* of the next regular block */
	int huge;          /* arena_new_huge() */
};

/* Memory touched for the first time is the dearest thing a parse does:
 * the kernel clears each page on its first fault, a fifth of parse+print
 * with 4 KB pages (more under virtualization, where the host backs each
 * one too).  A block of HUGE bytes or more is therefore mapped on a
 * huge-page boundary and asked for huge pages, one fault per 2 MB;
 * NULL when the system says no (then malloc serves). */
#if defined(__SANITIZE_ADDRESS__)
#define NO_HUGE_MAPS   /* LeakSanitizer does not scan mappings: the chunks a
                          mapped one points to would look leaked */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_HUGE_MAPS
#endif
#endif

static void *map_huge(size_t size)
{
#if defined(MADV_HUGEPAGE) && !defined(NO_HUGE_MAPS)
	size_t len = size + HUGE;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	char *q = (char *)(((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	if (q > p)
		munmap(p, (size_t)(q - p));
	if (q + size < p + len)
		munmap(q + size, (size_t)(p + len - (q + size)));
	madvise(q, size, MADV_HUGEPAGE);
	return q;
#else
	(void)size;
	return NULL;
#endif
}

static void chunk_free(Chunk *b)
{
	if (b->mapped)
		munmap(b, b->size + sizeof *b);
	else
		free(b);
}

/* A block of at least size bytes.  Its header lies inside a huge
 * mapping, so the mapping is the size plus the header, rounded to HUGE. */
static Chunk *chunk_new(size_t size, int huge)
{
	Chunk *b = NULL;
	if (huge && size + sizeof *b >= HUGE) {
		size_t len = (size + sizeof *b + HUGE - 1) & ~(size_t)(HUGE - 1);
		b = map_huge(len);
		if (b) {
			b->mapped = 1;
			size = len - sizeof *b;
		}
	}
	if (!b) {
		b = xmalloc(sizeof *b + size);
		b->mapped = 0;
	}
	b->used = 0;
	b->size = size;
	return b;
}

Arena *arena_new(void)
{
	Arena *a = xcalloc(1, sizeof *a);
	return a;
}

/* For an arena that may grow to many megabytes and lives long (a module's
 * IR): its big blocks are huge pages.  Not for the analyses of one
 * function, which are freed soon: the huge page a block's end lies in is
 * touched whole, up to 2 MB that peak memory counts for nothing. */
Arena *arena_new_huge(void)
{
	Arena *a = arena_new();
	a->huge = 1;
	return a;
}

void arena_free(Arena *a)
{
	if (!a)
		return;
	for (Chunk *b = a->head, *next; b; b = next) {
		next = b->next;
		chunk_free(b);
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
		chunk_free(b);
	}
	keep->next = NULL;
	keep->used = 0;
	a->total = keep->size;
}

/* n bytes, not cleared */
static void *alloc(Arena *a, size_t n)
{
	n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	Chunk *b = a->head;
	if (!b || b->size - b->used < n) {
		size_t regular = a->next_size ? a->next_size : BLOCK;
		int one_off = n > regular / 4;
		b = chunk_new(one_off ? n : regular, a->huge);
		/* A big one-off block goes behind the current one so the
		 * current block's free space is not abandoned. */
		if (a->head && one_off) {
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = a->head;
			a->head = b;
			if (regular < HUGE)
				a->next_size = regular * 2;
		}
		a->total += b->size;
	}
	void *p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

void *arena_alloc(Arena *a, size_t n)
{
	return memset(alloc(a, n), 0, n);
}

void *arena_dup(Arena *a, const void *p, size_t n)
{
	if (n == 0)
		return NULL;
	return memcpy(alloc(a, n), p, n);
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

/* Gives back the pages past the used part of the current block, when it
 * is huge pages: the whole last one was touched, up to 2 MB more than a
 * parsed module needs (later allocations fault small pages in again). */
void arena_trim(Arena *a)
{
#ifdef MADV_DONTNEED
	Chunk *b = a->head;
	long page = sysconf(_SC_PAGESIZE);
	if (!b || !b->mapped || page <= 0)
		return;
	uintptr_t used = ((uintptr_t)b->data + b->used + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	uintptr_t end = (uintptr_t)b + b->size + sizeof *b;
	if (used < end)
		madvise((void *)used, end - used, MADV_DONTNEED);
#else
	(void)a;
#endif
}

size_t arena_bytes(const Arena *a)
{
	return a->total;
}

void *arena_grow(Arena *a, void *v, uint32_t n, uint32_t *cap, size_t size)
{
	if (n < *cap)
		return v;
	*cap = *cap ? 2 * *cap : 8;
	void *w = arena_alloc(a, *cap * size);
	return n ? memcpy(w, v, n * size) : w;
}
