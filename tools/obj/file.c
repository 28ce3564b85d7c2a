/* A file in memory (obj.h). */
#include <stdio.h>
#include <stdlib.h>
#include "ir/ir.h"   /* xrealloc */
#include "obj.h"

unsigned char *obj_slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0;
	*n = 0;
	if (!f)
		return NULL;
	for (size_t got = 1; got;) {
		if (*n == cap)
			buf = xrealloc(buf, cap = cap ? 2 * cap : 65536);
		got = fread(buf + *n, 1, cap - *n, f);
		*n += got;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return NULL;
	}
	return buf;
}
