/* The CUDA source line of a statement, for remarks: the nearest .loc
 * before it in the PTX (by its PTX position, so a statement a stage moved
 * or made in the place of another still finds its line) and the module's
 * .file table.  Built once per function, looked up per remark. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"

typedef struct SrcEntry {
	Loc at;            /* where the .loc is in the PTX */
	const char *pos;   /* "kernel.cu:42: ", interned; "" when .file lacks it */
} SrcEntry;

struct SrcLines {
	SrcEntry *e;
	uint32_t n, cap;
};

/* .file 1 "kernel.cu": the path without its quotes, interned. */
static const char *file_path(const Module *m, uint32_t index)
{
	for (const Stmt *s = m->items.head; s; s = s->next) {
		if (s->kind != S_FILE || strtoul(s->file.index, NULL, 10) != index)
			continue;
		const char *p = s->file.path;
		size_t n = strlen(p);
		return n >= 2 && p[0] == '"' ? intern(p + 1, n - 2) : p;
	}
	return NULL;
}

static void collect(SrcLines *sl, const Module *m, const List *l)
{
	for (const Stmt *s = l->head; s; s = s->next) {
		if (s->kind == S_SCOPE)
			collect(sl, m, &s->scope);
		if (s->kind != S_LOC)
			continue;
		/* line 0: code of no one line (nvcc's prologues) */
		const char *path = s->locinfo->line ? file_path(m, s->locinfo->file) : NULL;
		char buf[32];
		snprintf(buf, sizeof buf, ":%u: ", s->locinfo->line);
		size_t n = path ? strlen(path) : 0;
		char *pos = path ? malloc(n + sizeof buf) : NULL;
		if (path && !pos)
			die("out of memory");
		if (pos) {
			memcpy(pos, path, n);
			strcpy(pos + n, buf);
		}
		sl->e = array_grow(sl->e, sl->n, &sl->cap, sizeof *sl->e);
		sl->e[sl->n++] = (SrcEntry){s->loc, pos ? intern_cstr(pos) : ""};
		free(pos);
	}
}

static int before(Loc a, Loc b)
{
	if (a.file != b.file)
		return a.file < b.file;
	return a.line != b.line ? a.line < b.line : a.col < b.col;
}

static int cmp_entry(const void *pa, const void *pb)
{
	const SrcEntry *a = pa, *b = pb;
	return before(a->at, b->at) ? -1 : before(b->at, a->at) ? 1 : 0;
}

SrcLines *srclines_build(const Module *m, const Func *f)
{
	SrcLines *sl = calloc(1, sizeof *sl);
	if (!sl)
		die("out of memory");
	collect(sl, m, &f->body);
	qsort(sl->e, sl->n, sizeof *sl->e, cmp_entry);
	return sl;
}

/* The last .loc at or before at, in at's PTX file. */
const char *srclines_prefix(const SrcLines *sl, Loc at)
{
	uint32_t lo = 0, hi = sl ? sl->n : 0;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (before(at, sl->e[mid].at))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo && sl->e[lo - 1].at.file == at.file ? sl->e[lo - 1].pos : "";
}

void srclines_free(SrcLines *sl)
{
	if (sl)
		free(sl->e);
	free(sl);
}
