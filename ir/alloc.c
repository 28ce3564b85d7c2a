/* The C heap, one way for every layer.  Running out of memory ends the
 * process here and nowhere else; a request for zero bytes gets one, so
 * that NULL only ever means failure (calloc(0, n) and realloc(p, 0) may
 * return NULL, and realloc(p, 0) frees p). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ir.h"

static _Noreturn void out_of_memory(void)
{
	die("out of memory");
}

/* n * size, or the end of the process when it does not fit a size_t. */
static size_t product(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		out_of_memory();
	return n * size;
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	if (!product(n, size))
		n = size = 1;
	void *p = calloc(n, size);
	if (!p)
		out_of_memory();
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	return xrealloc(p, product(n, size));
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	n = strnlen(s, n);
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

/* Room for element n of a malloc'd array holding *cap: doubles *cap when
 * it is full.  v = array_grow(v, n, &cap, sizeof *v); v[n++] = x; */
void *array_grow(void *v, uint32_t n, uint32_t *cap, size_t size)
{
	if (n < *cap)
		return v;
	if (*cap > UINT32_MAX / 2)
		out_of_memory();
	*cap = *cap ? 2 * *cap : 8;
	return xreallocarray(v, *cap, size);
}

/* array_grow for a stack that starts in a local array: the first growth
 * copies it to the heap; free the stack only if it is no longer local. */
void *stack_grow(void *v, const void *local, uint32_t n, uint32_t *cap, size_t size)
{
	if (n < *cap)
		return v;
	if (*cap > UINT32_MAX / 2)
		out_of_memory();
	void *big = xreallocarray(NULL, 2 * (size_t)*cap, size);
	memcpy(big, v, (size_t)n * size);
	if (v != local)
		free(v);
	*cap *= 2;
	return big;
}

FILE *xmemstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	if (!f)
		out_of_memory();
	return f;
}
