/* The option table (opttab.h) and the one code path that reads an
 * option's value into ptxlink_options: the command's parser and
 * ptxlink_set_option both end in opt_set, so both take the same values
 * and refuse the same ones with the same words.  opt_stage carries a
 * value on into the stages' options. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "ptxlink.h"
#include "core.h"

#define N(...) {__VA_ARGS__}
#define F(f) offsetof(ptxlink_options, f), 0, sizeof ((ptxlink_options *)0)->f, 0, 0
#define FS(f, s) offsetof(ptxlink_options, f), 0, sizeof ((ptxlink_options *)0)->f, \
	offsetof(StageOptions, s), sizeof ((StageOptions *)0)->s
#define L(f) offsetof(ptxlink_options, f), offsetof(ptxlink_options, n##f), \
	sizeof ((ptxlink_options *)0)->f, 0, 0
#define NONE 0, 0, 0, 0, 0
const OptRow opt_rows[NOPT] = {
#define OPT(id, kind, names, field, v, usage, help) {kind, names, field, v, usage, help},
#include "opttab.h"
#undef OPT
};

/* The size of the field each kind sets, and of the StageOptions field
 * opt_stage writes (0: none; lists and -arch are not copied one value a
 * field): a row naming a field of another type does not compile. */
#define KIND_SIZE(k) ((k) == V_BYTES ? sizeof(long long) : (k) == V_REWRITES ? sizeof(unsigned) \
	: (k) == V_ARCH || (k) == V_STAGE ? sizeof(const char *) \
	: (k) >= V_SYMBOL ? sizeof(const char *const *) : sizeof(int))
#define STAGE_SIZE(k, size) ((k) == V_BIT || (k) == V_COUNT || (k) == V_NUMBER || \
	(k) == V_INLINE ? sizeof(int) : (k) == V_ARCH || (k) == V_LEVEL || (k) >= V_SYMBOL ? 0 \
	: (size))
#define ROW_OK(k, field, count, size, stage, stage_size) \
	((k) <= C_OPTIONAL || ((size) == KIND_SIZE(k) && \
	(!(stage_size) || (stage_size) == STAGE_SIZE(k, size))))
#define ROW_CHECK(k, ...) ROW_OK(k, __VA_ARGS__)
#define OPT(id, kind, names, field, v, usage, help) \
	_Static_assert(ROW_CHECK(kind, field), "option " #id ": its field is not of its kind's type");
#include "opttab.h"
#undef OPT

/* The rows of lists (L()): at least as many as the lists they grow. */
#define ROW_COUNT(k, field, count, ...) + ((count) != 0)
#define ROW_LIST(k, ...) ROW_COUNT(k, __VA_ARGS__)
enum {
	NLIST_ROWS = 0
#define OPT(id, kind, names, field, v, usage, help) ROW_LIST(kind, field)
#include "opttab.h"
#undef OPT
};

/* What ptxlink_set_option allocated: copies of the strings it was given,
 * and the lists it grew (a caller's own array is copied before growing). */
typedef struct Grown {
	size_t field;
	const char **v;
	size_t cap;
} Grown;

struct ptxlink_owned {
	char **strs;
	size_t nstrs;
	Grown lists[NLIST_ROWS];
	int nlists;
};

int opt_syntax(const OptRow *r)
{
	switch (r->kind) {
	case C_FLAG: case V_ON: case V_OFF: case V_BIT: return FLAG;
	case C_GLUED: case V_DIR: case V_LIBRARY: case V_LEVEL: return GLUED;
	case C_OPTIONAL: case V_REWRITES: return OPTIONAL;
	case V_SYMBOL: return EQUALS;
	default: return VALUE;
	}
}

static int is_cmd(const OptRow *r)
{
	return r->kind <= C_OPTIONAL;
}

const char *opt_name(const OptRow *r)
{
	if (is_cmd(r))
		return NULL;
	for (int k = 0; k < 4 && r->names[k]; k++)
		if (!strncmp(r->names[k], "--", 2))
			return r->names[k] + 2;
	return r->names[0] + 1;
}

int opt_error(const ptxlink_options *o, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (o->diag)
		o->diag(o->diag_user, PTXLINK_ERROR, NULL, 0, 0, msg);
	else
		fprintf(stderr, "ptxlink: error: %s\n", msg);
	return -1;
}

FILE *opt_open_list(const ptxlink_options *o, const char *path, const char *what)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		f = NULL;
		errno = EISDIR;
	}
	if (!f)
		opt_error(o, "cannot read %s '%s': %s", what, path, strerror(errno));
	return f;
}

/* ---- the values ------------------------------------------------------- */

/* What ptxas 13 accepts for -arch (ptxas --help), but the virtual
 * compute_ and lto_ ones: ptxlink's output is compiled for a GPU. */
static const char *const arches[] = {
	"sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_90a",
	"sm_100", "sm_100a", "sm_100f", "sm_103", "sm_103a", "sm_103f",
	"sm_110", "sm_110a", "sm_110f", "sm_120", "sm_120a", "sm_120f",
	"sm_121", "sm_121a", "sm_121f",
};
enum { NARCHES = sizeof arches / sizeof *arches };

/* A list of words for an error message: "a, b, c" (sep ", "). */
static void words(char *buf, size_t n, const char *const *w, size_t nw)
{
	size_t len = 0;
	buf[0] = 0;
	for (size_t i = 0; i < nw && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "", w[i]);
}

static int check_arch(const ptxlink_options *o, const char *arch)
{
	char list[512];
	for (size_t i = 0; i < NARCHES; i++)
		if (!strcmp(arch, arches[i]))
			return 0;
	words(list, sizeof list, arches, NARCHES);
	return opt_error(o, "-arch=%s is not an architecture ptxas accepts (%s)", arch, list);
}

static int check_stage(const ptxlink_options *o, const char *name)
{
	const char *v[16];
	size_t n = 0;
	char list[256];
	for (; n < 16 && (v[n] = stage_name(n)); n++)
		if (!strcmp(v[n], name))
			return 0;
	words(list, sizeof list, v, n);
	return opt_error(o, "--print-after=%s: no such stage (the stages are %s)", name, list);
}

int opt_number(const char *s, long long lo, long long hi, long long *out)
{
	char *end;
	errno = 0;
	long long v = *s >= '0' && *s <= '9' ? strtoll(s, &end, 10) : lo - 1;
	if (v < lo || v > hi || errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* --addrprep=narrow,widen,fold,sink: the rewrites address preparation
 * makes (ADDRPREP_* bits, in this order). */
static int rewrites(const ptxlink_options *o, const char *list, unsigned *bits)
{
	static const char *const names[] = {"narrow", "widen", "fold", "sink"};
	*bits = 0;
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ","), k = 0;
		while (k < 4 && (strlen(names[k]) != n || strncmp(p, names[k], n)))
			k++;
		if (k == 4)
			return opt_error(o, "--addrprep=%s: names a rewrite other than narrow, widen, fold, sink", list);
		*bits |= 1u << k;
		p += n + (p[n] == ',');
	}
	return *bits ? 0 : opt_error(o, "--addrprep=%s: names no rewrite (narrow, widen, fold, sink)", list);
}

/* ---- what ptxlink_set_option owns ------------------------------------- */

static struct ptxlink_owned *owned(ptxlink_options *o)
{
	if (!o->owned)
		o->owned = xcalloc(1, sizeof *o->owned);
	return o->owned;
}

static const char *copy(ptxlink_options *o, const char *s, size_t n)
{
	struct ptxlink_owned *w = owned(o);
	w->strs = xreallocarray(w->strs, w->nstrs + 1, sizeof *w->strs);
	w->strs[w->nstrs] = xstrndup(s, n);
	return w->strs[w->nstrs++];
}

/* The list at field, ours to grow: a caller's own array is copied first. */
static Grown *list(ptxlink_options *o, size_t field, size_t count)
{
	struct ptxlink_owned *w = owned(o);
	const char **have = *(const char ***)((char *)o + field);
	size_t n = *(size_t *)((char *)o + count);
	Grown *l = w->lists;
	while (l < w->lists + w->nlists && l->field != field)
		l++;
	if (l == w->lists + w->nlists) {
		*l = (Grown){.field = field};
		w->nlists++;
	}
	if (!l->v || l->v != have) {   /* first, or the caller set the field since */
		const char **v = xreallocarray(NULL, n + 8, sizeof *v);
		if (n)
			memcpy(v, have, n * sizeof *v);
		free(l->v);
		l->v = v;
		l->cap = n + 8;
	}
	return l;
}

static void push(ptxlink_options *o, const OptRow *r, const char *s, size_t n)
{
	Grown *l = list(o, r->field, r->count);
	size_t *count = (size_t *)((char *)o + r->count);
	if (*count == l->cap)
		l->v = xreallocarray(l->v, l->cap *= 2, sizeof *l->v);
	l->v[(*count)++] = copy(o, s, n);
	*(const char ***)((char *)o + r->field) = l->v;
}

/* --keep-file=FILE: names separated by white space; # starts a comment. */
static int symfile(ptxlink_options *o, const OptRow *r, const char *path)
{
	FILE *f = opt_open_list(o, path, "keep file");
	if (!f)
		return -1;
	char *line = NULL;   /* a line of any length: a name is never split */
	size_t cap = 0;
	while (getline(&line, &cap, f) >= 0) {
		char *p = line, *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		for (;;) {
			p += strspn(p, " \t\r\n");
			size_t n = strcspn(p, " \t\r\n");
			if (!n)
				break;
			push(o, r, p, n);
			p += n;
		}
	}
	free(line);
	fclose(f);
	return 0;
}

/* ---- setting one ------------------------------------------------------ */

static int set_value(ptxlink_options *o, const OptRow *r, const char *a, const char *v)
{
	void *field = (char *)o + r->field;
	long long n;
	switch (r->kind) {
	case V_COUNT:
		if (opt_number(v, 1, INT_MAX, &n) != 0)
			return opt_error(o, "'%s' needs a positive number below 2^31", a);
		*(int *)field = (int)n;
		return 0;
	case V_NUMBER:
		if (opt_number(v, 0, INT_MAX, &n) != 0)
			return opt_error(o, "'%s' needs a number from 0 below 2^31", a);
		*(int *)field = (int)n;
		return 0;
	case V_INLINE:
		for (int k = 0; k < 3; k++)
			if (!strcmp(v, (const char *const[]){"never", "auto", "always"}[k])) {
				*(int *)field = PTXLINK_INLINE_NEVER + k;
				return 0;
			}
		return opt_error(o, "'%s': the mode is never, auto or always", a);
	case V_LEVEL:
		if (opt_number(v, 0, 3, &n) != 0)
			return opt_error(o, "'%s': the optimization level is 0, 1, 2 or 3", a);
		*(int *)field = (int)n;
		return 0;
	case V_BYTES:
		if (opt_number(v, 0, LLONG_MAX, &n) != 0)
			return opt_error(o, "'%s' needs a number of bytes", a);
		*(long long *)field = n;
		return 0;
	case V_ARCH:
	case V_STAGE:
		if ((r->kind == V_ARCH ? check_arch : check_stage)(o, v) != 0)
			return -1;
		*(const char **)field = copy(o, v, strlen(v));
		return 0;
	case V_REWRITES: return rewrites(o, v, field);
	case V_SYMBOL:
	case V_LIBRARY:
	case V_DIR:   /* -L '': not the root, "" + "/libm.a" */
		if (!*v)
			return opt_error(o, "'%s' needs a %s name", a, r->kind == V_SYMBOL ? "symbol"
				: r->kind == V_DIR ? "directory" : "library");
		push(o, r, v, strlen(v));
		return 0;
	case V_SYMFILE: return symfile(o, r, v);
	default: die("option %s has no value action", r->names[0]);
	}
}

int opt_set(ptxlink_options *o, const OptRow *r, const char *a, const char *v)
{
	int *field = (int *)((char *)o + r->field);
	if (is_cmd(r))
		return opt_error(o, "'%s' is an option of the ptxlink command, not of the library", a);
	if (opt_syntax(r) == FLAG && v)
		return opt_error(o, "'%s' takes no value", a);
	if (opt_syntax(r) != FLAG && opt_syntax(r) != OPTIONAL && !v)
		return opt_error(o, "'%s' needs a value", a);
	switch (r->kind) {
	case V_ON: *field = 1; return 0;
	case V_OFF: *field = 0; return 0;
	case V_BIT: *field |= (int)r->v; return 0;
	case V_REWRITES:
		if (!v) {
			*(unsigned *)field = ADDRPREP_ALL;
			return 0;
		}
		return set_value(o, r, a, v);
	default: return set_value(o, r, a, v);
	}
}

/* ---- into the stages' options ----------------------------------------- */

/* A flag or a value as it is (a long long into an int64_t); a remark bit
 * as 0 or 1; a count of 0 as the row's default, as ptxlink.h allows; a
 * name interned, as the stages compare names. */
void opt_stage(const OptRow *r, const ptxlink_options *o, StageOptions *st)
{
	const char *from = (const char *)o + r->field;
	char *to = (char *)st + r->stage;
	const char *name = r->kind == V_STAGE ? *(const char *const *)from : NULL;
	switch (r->kind) {
	case V_BIT: *(int *)to = (*(const int *)from & (int)r->v) != 0; return;
	case V_COUNT: *(int *)to = *(const int *)from ? *(const int *)from : (int)r->v; return;
	case V_STAGE: *(const char **)to = name ? intern_cstr(name) : NULL; return;
	default: memcpy(to, from, r->size); return;
	}
}

/* ---- the library's entries -------------------------------------------- */

void ptxlink_options_init(ptxlink_options *o)
{
	memset(o, 0, sizeof *o);
	for (const OptRow *r = opt_rows; r < opt_rows + NOPT; r++) {
		if (is_cmd(r))
			continue;
		if (r->kind == V_ON || r->kind == V_COUNT || r->kind == V_NUMBER || r->kind == V_LEVEL)
			*(int *)((char *)o + r->field) = (int)r->v;
		else if (r->kind == V_BYTES)
			*(long long *)((char *)o + r->field) = r->v;
	}
}

/* name as any of the command's spellings, its dashes optional */
static const OptRow *find(const char *name)
{
	const char *bare = name + strspn(name, "-");
	for (const OptRow *r = opt_rows; r < opt_rows + NOPT; r++)
		for (int k = 0; k < 4 && r->names[k]; k++)
			if (!strcmp(r->names[k], name) || !strcmp(r->names[k] + strspn(r->names[k], "-"), bare))
				return r;
	return NULL;
}

int ptxlink_set_option(ptxlink_options *o, const char *name, const char *value)
{
	if (!o)
		return -1;
	const OptRow *r = name ? find(name) : NULL;
	if (!r)
		return opt_error(o, "unknown option '%s'", name ? name : "(null)");
	return opt_set(o, r, name, value);
}

void ptxlink_options_free(ptxlink_options *o)
{
	struct ptxlink_owned *w = o ? o->owned : NULL;
	if (!w)
		return;
	for (size_t i = 0; i < w->nstrs; i++)
		free(w->strs[i]);
	free(w->strs);
	for (int i = 0; i < w->nlists; i++)
		free(w->lists[i].v);
	free(w);
	o->owned = NULL;
}
