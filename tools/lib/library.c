/* PTX libraries, linked as nvlink and ld link archives: a member goes in
 * only if it defines (.visible or .weak) a name that what is already in
 * leaves undefined.  Every library is searched again until nothing more
 * comes in, so their order does not matter (ld's --start-group).
 *
 * -l NAME looks in each -L DIR, in order, for libNAME.a (an ar archive of
 * PTX files), NAME.ptx (one member) or NAME/ (its *.ptx, by name).  An
 * input ending in .a is a library too. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "ptx-grammar/ptx.h"
#include "core.h"
#include "ir/ptrhash.h"
#include "tools/obj/obj.h"

typedef struct Member {
	Module *m;
	const char *name;      /* for -v: lib.a(member.ptx) */
	const char **defs, **undefs;   /* interned */
	int ndefs, nundefs;
	int in;
	int wants;             /* out: how many of its defs are wanted */
} Member;

/* A name, as what is in sees it: wanted when something in declares it
 * and nothing in defines it.  outs: the members that define it. */
typedef struct Name {
	UT_hash_handle hh;
	const char *name;
	int defined, declared;
	int first;             /* the first member in that defines it, or -1 */
	int *outs;
	uint32_t nouts, cap;
} Name;

/* Members whose wants went from 0 to more, by index: a binary heap. */
typedef struct Heap {
	int *v;
	uint32_t n, cap;
} Heap;

typedef struct Members {
	Member *v;
	int n, cap;
	int errors;
	LibObjects *objects;   /* LibSearch's: archives of objects, for nvlink */
	Name *names;
	Heap cur, next;        /* candidates at or after the scan's place, before it */
	int at;                /* the scan's place */
} Members;

/* An error about a library file, through the diagnostics (the session's
 * callback in libptxlink); the link fails. */
static void lib_error(Members *ms, const char *path, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(DIAG_ERROR, path, 0, 0, fmt, ap);
	va_end(ap);
	ms->errors++;
}

/* Room for n names: as many as the module has symbols. */
static const char **names_room(uint32_t n)
{
	return xmalloc((n ? n : 1) * sizeof(const char *));
}

/* What a module exports and what it declares without defining. */
static void add_member(Members *ms, Module *m, const char *name, int in)
{
	if (!m) {
		ms->errors++;
		return;
	}
	if (ms->n == ms->cap) {
		ms->cap = ms->cap ? 2 * ms->cap : 16;
		ms->v = xreallocarray(ms->v, ms->cap, sizeof *ms->v);
	}
	int errors = diag_errors();
	ir_normalize(m);  /* what symtab_build and the linker take */
	if (diag_errors() != errors)
		ms->errors++;   /* what no stage may read (ir_check_input), as a parse error */
	Member *b = &ms->v[ms->n++];
	*b = (Member){.m = m, .name = intern_cstr(name), .in = in};
	SymTab *t = symtab_build(m);
	b->defs = names_room(symtab_count(t));
	b->undefs = names_room(symtab_count(t));
	for (uint32_t i = 0; i < symtab_count(t); i++) {
		const Symbol *s = symtab_at(t, i);
		if (s->def && s->linkage != LINK_INTERNAL)
			b->defs[b->ndefs++] = s->name;
		else if (!s->def && s->linkage == LINK_EXTERN)
			b->undefs[b->nundefs++] = s->name;
	}
	symtab_free(t);
}

int is_cudadevrt(const char *path)
{
	const char *slash = strrchr(path, '/');
	return !strcmp(slash ? slash + 1 : path, "libcudadevrt.a");
}

/* A member that is not PTX, told as an input would be.  An archive of
 * cubins or host objects (libcudadevrt.a, nvcc -rdc -lib) is nvlink's: it
 * goes to ms->objects whole when there is one; without, libcudadevrt is
 * not needed (its names stay .extern) and another is an error.  1 when
 * the archive is read no further. */
static int not_ptx_member(Members *ms, const char *path, const char *shown,
	const unsigned char *data, size_t size)
{
	const char *why = obj_not_ptx(data, size < OBJ_HEAD ? size : OBJ_HEAD, shown);
	if (!why)
		return 0;
	ObjKind k = obj_kind(data, size < OBJ_HEAD ? size : OBJ_HEAD);
	if (k != OBJ_ELF && k != OBJ_CUBIN)
		lib_error(ms, shown, "%s", why);
	else if (ms->objects) {
		LibObjects *o = ms->objects;
		o->paths = xreallocarray(o->paths, (size_t)o->n + 1, sizeof *o->paths);
		o->paths[o->n++] = xstrdup(path);
	} else if (is_cudadevrt(path))
		diag_at(DIAG_WARNING, path, 0, 0, "not needed for PTX: the device runtime's names "
			"stay .extern for nvlink ('ptxlink --ptxas' links it)");
	else
		lib_error(ms, path, "an archive of cubins or host objects (%s), not of PTX: nvlink "
			"links it, as 'ptxlink --ptxas' does", shown);
	return 1;
}

/* Every member of the archive a, parsed. */
static void read_archive(Members *ms, const char *path, Ar *a)
{
	ArMember m;
	int got;
	while ((got = ar_next(a, &m)) > 0) {
		size_t len = strlen(path) + strlen(m.name) + 3;
		char *shown = xmalloc(len);
		snprintf(shown, len, "%s(%s)", path, m.name);
		int stop = not_ptx_member(ms, path, shown, m.data, m.size);
		if (!stop)
			add_member(ms, ptx_parse_string(intern_cstr(shown), (const char *)m.data, m.size),
				shown, 0);
		free(shown);
		if (stop)
			break;
	}
	if (got < 0 && ar_trailing(a))
		lib_error(ms, path, "malformed ar archive (%zu bytes after the last member)", ar_trailing(a));
	else if (got < 0)
		lib_error(ms, path, "malformed ar archive (member at byte %zu)", a->at);
	ar_close(a);
}

static void add_archive(Members *ms, const char *path)
{
	size_t n;
	Ar a;
	unsigned char *buf = obj_slurp(path, &n);
	if (!buf)
		lib_error(ms, path, "cannot read: %s", strerror(errno));
	else if (ar_open(&a, buf, n) != 0)
		lib_error(ms, path, "not an ar archive");
	else
		read_archive(ms, path, &a);
	free(buf);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A directory library: its *.ptx, in name order (deterministic). */
static void add_dir(Members *ms, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		lib_error(ms, dir, "cannot read: %s", strerror(errno));
		return;
	}
	char **names = NULL;
	int n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (len > 4 && !strcmp(e->d_name + len - 4, ".ptx")) {
			names = xreallocarray(names, n + 1, sizeof *names);
			names[n++] = xstrdup(e->d_name);
		}
	}
	closedir(d);
	if (n)
		qsort(names, (size_t)n, sizeof *names, by_name);
	for (int i = 0; i < n; i++) {
		size_t len = strlen(dir) + strlen(names[i]) + 2;
		char *path = xmalloc(len);
		snprintf(path, len, "%s/%s", dir, names[i]);
		if (is_file(path))   /* a FIFO would block the link */
			add_member(ms, ptx_parse_file(path), path, 0);
		else
			lib_error(ms, path, "not a regular file (in a directory library)");
		free(path);
		free(names[i]);
	}
	free(names);
}

static void add_lib(Members *ms, const char *path, int form)
{
	if (form == 0)
		add_archive(ms, path);
	else if (form == 1)
		add_member(ms, ptx_parse_file(path), path, 0);
	else
		add_dir(ms, path);
}

/* -l NAME: the first of libNAME.a, NAME.ptx, NAME/ in the -L dirs. */
static int find_lib(Members *ms, const LibSearch *o, const char *name)
{
	static const char *const forms[] = {"%s/lib%s.a", "%s/%s.ptx", "%s/%s"};
	for (int d = 0; d < o->ndirs; d++)
		for (int k = 0; k < 3; k++) {
			size_t len = strlen(o->dirs[d]) + strlen(name) + 16;
			char *path = xmalloc(len);
			snprintf(path, len, forms[k], o->dirs[d], name);
			if (k == 2 ? is_dir(path) : is_file(path)) {
				add_lib(ms, path, k);
				free(path);
				return 0;
			}
			free(path);
		}
	char *dirs = NULL;
	size_t len = 0;
	FILE *f = xmemstream(&dirs, &len);
	if (!o->ndirs)
		fputs("any directory: no -L given", f);
	for (int d = 0; d < o->ndirs; d++)
		fprintf(f, "%s'%s'", d ? ", " : "", o->dirs[d]);
	fclose(f);
	diag_at(DIAG_ERROR, NULL, 0, 0, "cannot find -l%s (no lib%s.a, %s.ptx or %s/ in %s)", name,
		name, name, name, dirs);
	free(dirs);
	return -1;
}

static Name *name_get(Members *ms, const char *name)
{
	Name *x;
	HASH_FIND_PTR(ms->names, &name, x);
	if (!x) {
		x = xcalloc(1, sizeof *x);
		x->name = name;
		x->first = -1;
		HASH_ADD_PTR(ms->names, name, x);
	}
	return x;
}

static int is_wanted(const Name *x)
{
	return x->declared && !x->defined;
}

static void heap_push(Heap *h, int i)
{
	h->v = array_grow(h->v, h->n, &h->cap, sizeof *h->v);
	uint32_t k = h->n++;
	for (; k && h->v[(k - 1) / 2] > i; k = (k - 1) / 2)
		h->v[k] = h->v[(k - 1) / 2];
	h->v[k] = i;
}

static int heap_pop(Heap *h)
{
	int top = h->v[0], last = h->v[--h->n];
	uint32_t k = 0;
	for (uint32_t c; (c = 2 * k + 1) < h->n; k = c) {
		if (c + 1 < h->n && h->v[c + 1] < h->v[c])
			c++;
		if (last <= h->v[c])
			break;
		h->v[k] = h->v[c];
	}
	h->v[k] = last;
	return top;
}

/* x became wanted (by 1) or stopped being wanted (by -1): so did the
 * members that define it.  A member out that now wants one name is a
 * candidate, in this pass if the scan has not passed it yet. */
static void want(Members *ms, Name *x, int by)
{
	for (uint32_t i = 0; i < x->nouts; i++) {
		Member *b = &ms->v[x->outs[i]];
		b->wants += by;
		if (by > 0 && b->wants == 1 && !b->in)
			heap_push(x->outs[i] >= ms->at ? &ms->cur : &ms->next, x->outs[i]);
	}
}

static void bring_in(Members *ms, int i)
{
	Member *b = &ms->v[i];
	b->in = 1;
	for (int k = 0; k < b->ndefs; k++) {
		Name *x = name_get(ms, b->defs[k]);
		if (is_wanted(x))
			want(ms, x, -1);
		x->defined = 1;
		if (x->first < 0 || i < x->first)
			x->first = i;
	}
	for (int k = 0; k < b->nundefs; k++) {
		Name *x = name_get(ms, b->undefs[k]);
		int was = is_wanted(x);
		x->declared = 1;
		if (!was && is_wanted(x))
			want(ms, x, 1);
	}
}

/* The first name b defines that is wanted. */
static const char *pulls(Members *ms, const Member *b)
{
	for (int k = 0; k < b->ndefs; k++)
		if (is_wanted(name_get(ms, b->defs[k])))
			return b->defs[k];
	return NULL;
}

/* Brings in members until none defines a wanted name; -v says why each
 * came.  As passes over the members in order would, each taking every
 * member that pulls when the scan reaches it: the next one taken is the
 * first candidate at or after the scan's place, else (a new pass) the
 * first of all.  A heap of candidates makes that a step, not a pass. */
static void select_members(Members *ms, int verbose)
{
	for (int i = 0; i < ms->n; i++)
		for (int k = 0; k < ms->v[i].ndefs; k++) {
			Name *x = name_get(ms, ms->v[i].defs[k]);
			x->outs = array_grow(x->outs, x->nouts, &x->cap, sizeof *x->outs);
			x->outs[x->nouts++] = i;
		}
	for (int i = 0; i < ms->n; i++)
		if (ms->v[i].in)
			bring_in(ms, i);
	for (;;) {
		if (!ms->cur.n) {
			Heap h = ms->cur;
			ms->cur = ms->next;
			ms->next = h;
			ms->at = 0;
			if (!ms->cur.n)
				break;
		}
		int i = heap_pop(&ms->cur);
		if (ms->v[i].in || !ms->v[i].wants)
			continue;
		if (verbose)
			diag_note("ptxlink: %s linked: it defines '%s'", ms->v[i].name, pulls(ms, &ms->v[i]));
		ms->at = i + 1;
		bring_in(ms, i);
	}
}

static int is_archive_input(const char *path)
{
	size_t n = strlen(path);
	return n > 2 && !strcmp(path + n - 2, ".a");
}

/* Who defines name among what is in: a member's name, or NULL. */
static const char *provider(const Members *ms, const char *name)
{
	Name *x;
	HASH_FIND_PTR(ms->names, &name, x);
	return x && x->first >= 0 ? ms->v[x->first].name : NULL;
}

/* -v: each module linked, what it defines and where its references go. */
static void describe(const Members *ms, const Member *b)
{
	char *line = NULL;
	size_t len = 0;
	FILE *f = xmemstream(&line, &len);
	fprintf(f, "ptxlink: input %s: %d names defined", b->name, b->ndefs);
	for (int i = 0; i < b->nundefs; i++) {
		const char *from = provider(ms, b->undefs[i]);
		fprintf(f, "%s'%s' from %s", i ? ", " : "; uses ", b->undefs[i], from ? from
			: is_runtime_symbol(b->undefs[i]) ? "the CUDA runtime" : "nowhere yet");
	}
	fclose(f);
	diag_note("%s", line);
	free(line);
}

static void free_members(Members *ms)
{
	for (int i = 0; i < ms->n; i++) {
		free(ms->v[i].defs);
		free(ms->v[i].undefs);
	}
	free(ms->v);
	Name *x, *tmp;
	HASH_ITER(hh, ms->names, x, tmp) {
		HASH_DEL(ms->names, x);
		free(x->outs);
		free(x);
	}
	free(ms->cur.v);
	free(ms->next.v);
}

/* The inputs first, in order, then the members brought in, in the order
 * the libraries were given; the others are freed. */
static void take_members(Members *ms, Module ***mods, int *n)
{
	int k = 0;
	for (int i = 0; i < ms->n; i++)
		if (ms->v[i].in)
			k++;
	*mods = xreallocarray(*mods, (size_t)k, sizeof **mods);
	*n = 0;
	for (int i = 0; i < ms->n; i++)
		if (ms->v[i].in)
			(*mods)[(*n)++] = ms->v[i].m;
		else
			mod_free(ms->v[i].m);
}

int is_library_input(const char *path)
{
	return is_archive_input(path);
}

int add_libraries(const LibSearch *o, Module ***mods, int *n)
{
	Members ms = {.objects = o->objects};
	for (int i = 0; i < *n; i++)
		add_member(&ms, (*mods)[i], (*mods)[i]->path, 1);
	for (int i = 0; i < o->narchives; i++)
		add_archive(&ms, o->archives[i]);
	int rc = 0;
	for (int i = 0; i < o->nlibs; i++)
		if (find_lib(&ms, o, o->libs[i]) != 0)
			rc = -1;
	if (ms.errors)
		rc = -1;
	select_members(&ms, o->verbose);
	for (int i = 0; o->verbose && i < ms.n; i++)
		if (ms.v[i].in)
			describe(&ms, &ms.v[i]);
	take_members(&ms, mods, n);
	free_members(&ms);
	return rc;
}
