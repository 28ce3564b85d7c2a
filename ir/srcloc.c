/* The CUDA source line of a statement, for remarks: the nearest .loc
 * before it in the PTX (by its PTX position, so a statement a stage moved
 * or made in the place of another still finds its line) and the module's
 * .file table.  Read once per function, when its first diagnostic asks
 * (a stage may have moved code by then, but each .loc keeps its PTX
 * position), and looked up per diagnostic. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"

typedef struct SrcEntry {
	Loc at;            /* where the .loc is in the PTX */
	const char *pos;   /* "kernel.cu:42: ", interned; "" when it names no line */
} SrcEntry;

typedef struct SrcFile {
	uint32_t index;
	const char *path;  /* without its quotes, interned */
} SrcFile;

struct SrcLines {
	const Module *m;
	const Func *f;
	int built;         /* on the first lookup: most functions never need it */
	SrcEntry *e;
	uint32_t n, cap;
	SrcFile *files;    /* the module's .file table, by index */
	uint32_t nfiles, fcap;
};

static int cmp_file(const void *pa, const void *pb)
{
	const SrcFile *a = pa, *b = pb;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* One pass over the module, so that each .loc costs a search, not a scan. */
static void read_files(SrcLines *sl)
{
	for (const Stmt *s = sl->m->items.head; s; s = s->next) {
		if (s->kind != S_FILE)
			continue;
		const char *p = s->file.path;
		size_t n = strlen(p);
		sl->files = array_grow(sl->files, sl->nfiles, &sl->fcap, sizeof *sl->files);
		sl->files[sl->nfiles++] = (SrcFile){(uint32_t)strtoul(s->file.index, NULL, 10),
			n >= 2 && p[0] == '"' ? intern(p + 1, n - 2) : p};
	}
	if (sl->nfiles)  /* qsort and bsearch take no NULL, even for 0 items */
		qsort(sl->files, sl->nfiles, sizeof *sl->files, cmp_file);
}

static const char *file_path(const SrcLines *sl, uint32_t index)
{
	SrcFile key = {index, NULL};
	const SrcFile *f = sl->nfiles ? bsearch(&key, sl->files, sl->nfiles, sizeof key, cmp_file)
		: NULL;
	return f ? f->path : NULL;
}

/* "kernel.cu:42: ", interned; line 0 is code of no one line (nvcc's
 * prologues). */
static const char *position(const SrcLines *sl, const LocInfo *li)
{
	const char *path = li->line ? file_path(sl, li->file) : NULL;
	if (!path)
		return "";
	size_t n = strlen(path) + 16;
	char *buf = xmalloc(n);
	snprintf(buf, n, "%s:%u: ", path, li->line);
	const char *pos = intern_cstr(buf);
	free(buf);
	return pos;
}

static void collect(SrcLines *sl, const List *l)
{
	BodyIt it;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it)) {
		if (s->kind != S_LOC)
			continue;
		sl->e = array_grow(sl->e, sl->n, &sl->cap, sizeof *sl->e);
		sl->e[sl->n++] = (SrcEntry){s->loc, position(sl, s->locinfo)};
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
	SrcLines *sl = xcalloc(1, sizeof *sl);
	sl->m = m;
	sl->f = f;
	return sl;
}

/* The last .loc at or before at, in at's PTX file.  The function's .loc
 * statements are read, as it was, on the first call. */
const char *srclines_prefix(SrcLines *sl, Loc at)
{
	if (!sl)
		return "";
	if (!sl->built) {
		sl->built = 1;
		read_files(sl);
		collect(sl, &sl->f->body);
		if (sl->n)
			qsort(sl->e, sl->n, sizeof *sl->e, cmp_entry);
	}
	uint32_t lo = 0, hi = sl->n;
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
	if (sl) {
		free(sl->e);
		free(sl->files);
	}
	free(sl);
}
