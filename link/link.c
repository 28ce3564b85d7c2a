/* link.c: merge PTX modules into one, following nvlink's rules.
 *
 * requires: parsed modules / produces: one module that owns its inputs
 *
 * 1. headers: highest .version, one .target (or -arch), one .address_size;
 * 2. symbols: each module-scope name of each input becomes a Sym; names
 *    with linkage meet in one Global, where a strong (.visible, or an
 *    initialized .common) definition beats .weak ones, .common takes the
 *    largest, sizes must otherwise agree, and two strong ones are an error;
 *    `.alias a, b` defines a.  Internal names that collide are renamed
 *    (never a runtime function's, such as vprintf);
 * 3. every reference is rewritten to the final names, .loc renumbered;
 *    -G inputs' DWARF is made true of the merged module (dwarf.c, and
 *    section offsets moved by where each input's part starts);
 * 4. items are emitted in input order, except that whatever an item uses
 *    is declared (functions) or defined (variables) before it; sections
 *    of one name become one, the inputs' parts in input order.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "link.h"

enum { K_FUNC, K_VAR, K_LABEL };
enum { G_NONE, G_DECLARED, G_IN_PROGRESS, G_DEFINED };

typedef struct Global Global;

typedef struct Sym {
	UT_hash_handle hh;     /* in its module's table, keyed by name pointer */
	const char *name;      /* as written */
	const char *newname;   /* in the output */
	int mod, kind, linkage, is_def;
	Stmt *def;             /* the defining statement in its module */
	Stmt *decl;            /* its first declaration in its module */
	Loc loc;
	Global *g;             /* for names with linkage */
} Sym;

struct Global {
	UT_hash_handle hh;
	const char *name;
	Sym *def;              /* the definition that wins */
	Stmt *decl;            /* first declaration, used when nothing defines it */
	Sym *decl_sym;
	Sym *first;            /* the first symbol of the name: others must be its kind */
	int state;             /* G_*: how far the output has got with it */
	int internal;          /* one input's internal name (after renaming) */
	uint64_t max_align;    /* largest .align among .common or .extern .shared */
	int used;
	Loc first_use;
};

/* .file numbers are any 32-bit value (ptxas takes .file 4294967295), so
 * a module's renumbering is a sorted list, not an array indexed by them. */
typedef struct FileNum {
	uint32_t old, to;
	uint32_t seq;          /* its .file among the module's: a later one wins */
} FileNum;

/* Module k's part of a merged section starts where the parts of modules
 * before it end: its offsets into the section (.debug_loc+289) move by that. */
typedef struct SectionBase {
	const char *name;
	uint64_t base;
} SectionBase;

typedef struct Linker {
	const LinkOptions *o;
	Module **mods;
	int n;
	Module *out;
	Sym **tables;          /* per module */
	Global *globals;
	Names taken;           /* output names of module scope so far */
	Names locals;          /* the function being walked: they shadow module names */
	FileNum **filemap;     /* per module: old .file index -> new, by old */
	uint32_t *nfilemap;
	Stmt **files;          /* merged .file directives */
	uint32_t nfiles;
	int *dwarf;            /* per module: it carries -G DWARF (and keeps it) */
	SectionBase **bases;   /* per module: where its part of each section starts */
	uint32_t *nbases;
} Linker;

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		die("out of memory");
	return p;
}

/* ---- headers ---- */

static Stmt *find_item(Module *m, StmtKind kind)
{
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == kind)
			return s;
	return NULL;
}

/* major * 1000 + minor, for comparing; huge majors saturate (the parser
 * takes any digits, and .version 2147484.0 would overflow an int). */
static int64_t version_number(const char *v)
{
	char *end;
	errno = 0;
	long long major = strtoll(v, &end, 10);
	if (errno || major > INT64_MAX / 2000)
		return INT64_MAX;
	long long minor = *end == '.' ? strtoll(end + 1, NULL, 10) : 0;
	if (errno || minor > INT64_MAX / 2000)
		return INT64_MAX;
	return major * 1000 + minor;
}

typedef struct Arch {
	int num;
	char suffix;  /* 'a', 'f' or 0 */
} Arch;

/* sm_<digits>[a|f] (or compute_...): nothing else, and no number that
 * overflows an int. */
static int parse_arch(const char *s, Arch *a)
{
	const char *p = !strncmp(s, "sm_", 3) ? s + 3 : !strncmp(s, "compute_", 8) ? s + 8 : NULL;
	if (!p || *p < '0' || *p > '9')
		return -1;
	char *end;
	errno = 0;
	long num = strtol(p, &end, 10);
	if (errno || num > INT_MAX)
		return -1;
	if ((*end == 'a' || *end == 'f') && !end[1])
		a->suffix = *end;
	else if (*end)
		return -1;
	else
		a->suffix = 0;
	a->num = (int)num;
	return 0;
}

static const char *target_flag(const Stmt *t, const char *prefix)
{
	for (uint32_t i = 1; i < t->list.nitems; i++)
		if (strncmp(t->list.items[i]->str, prefix, strlen(prefix)) == 0)
			return t->list.items[i]->str;
	return NULL;
}

/* Does this module carry DWARF, as -G makes it (more than the
 * .debug_str that -lineinfo's inlining records use)? */
static int has_dwarf(Module *m)
{
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_SECTION && strcmp(s->section.name, ".debug_str") != 0)
			return 1;
	return 0;
}

static const char *pick_arch(Linker *l, Stmt **targets)
{
	Arch want = {0};
	if (l->o->arch && (strncmp(l->o->arch, "sm_", 3) != 0 || parse_arch(l->o->arch, &want) != 0)) {
		error((Loc){0}, "-arch=%s is not an architecture such as sm_80", l->o->arch);
		return NULL;
	}
	for (int i = 0; i < l->n; i++) {
		const char *name = targets[i]->list.items[0]->str;
		Arch a;
		if (parse_arch(name, &a) != 0) {
			error(targets[i]->loc, "unknown target architecture '%s'", name);
			return NULL;
		}
		if (l->o->arch) {
			if (a.num > want.num || (a.suffix && (a.num != want.num || a.suffix != want.suffix))) {
				error(targets[i]->loc, "'.target %s' cannot be linked for -arch=%s", name, l->o->arch);
				return NULL;
			}
		} else if (strcmp(name, targets[0]->list.items[0]->str) != 0) {
			error(targets[i]->loc, "'.target %s' conflicts with '.target %s' at %s:%u:%u "
				"(pass -arch=sm_XX to link for one architecture)", name,
				targets[0]->list.items[0]->str, diag_filename(targets[0]->loc.file),
				targets[0]->loc.line, targets[0]->loc.col);
			return NULL;
		}
	}
	return l->o->arch ? intern_cstr(l->o->arch) : targets[0]->list.items[0]->str;
}

static int check_texmode(Linker *l, Stmt **targets)
{
	for (int i = 1; i < l->n; i++) {
		const char *a = target_flag(targets[0], "texmode_"), *b = target_flag(targets[i], "texmode_");
		a = a ? a : "texmode_unified";
		b = b ? b : "texmode_unified";
		if (a != b) {
			error(targets[i]->loc, "'%s' conflicts with '%s' at %s:%u:%u", b, a,
				diag_filename(targets[0]->loc.file), targets[0]->loc.line, targets[0]->loc.col);
			return -1;
		}
	}
	return 0;
}

static int check_address_size(Linker *l)
{
	Stmt *first = find_item(l->mods[0], S_ADDRSIZE);
	const char *want = first ? first->strs.strs[0] : "32";
	for (int i = 1; i < l->n; i++) {
		Stmt *s = find_item(l->mods[i], S_ADDRSIZE);
		const char *got = s ? s->strs.strs[0] : "32";
		if (strcmp(got, want) != 0) {
			Loc at = s ? s->loc : (Loc){1, 1, diag_file(l->mods[i]->path)};
			Loc other = first ? first->loc : (Loc){1, 1, diag_file(l->mods[0]->path)};
			error(at, "'.address_size %s' conflicts with '.address_size %s' at %s:%u:%u", got,
				want, diag_filename(other.file), other.line, other.col);
			return -1;
		}
	}
	return 0;
}

/* Which inputs' DWARF is kept: every -G input's, unless stripped. */
static void find_debug(Linker *l)
{
	for (int i = 0; i < l->n; i++)
		l->dwarf[i] = !l->o->strip_debug && has_dwarf(l->mods[i]);
}

static int any_debug_flag(Linker *l, Stmt **targets)
{
	if (l->o->strip_debug)
		return 0;
	for (int i = 0; i < l->n; i++)
		if (target_flag(targets[i], "debug"))
			return 1;
	return 0;
}

/* The first PTX ISA version that knows each target (PTX ISA, "Release
 * notes"): linking older inputs for a newer -arch raises .version. */
static int min_version(Arch a)
{
	static const struct { int num, version; } table[] = {
		{50, 4000}, {60, 5000}, {70, 6000}, {72, 6001}, {75, 6003}, {80, 7000},
		{86, 7001}, {87, 7004}, {89, 7008}, {90, 7008}, {100, 8006}, {101, 8006},
		{103, 8008}, {110, 9000}, {120, 8007}, {121, 8008},
	};
	int v = 0;
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (table[i].num <= a.num)
			v = table[i].version;
	if (a.suffix == 'a' && a.num == 90 && v < 8000)
		v = 8000;  /* sm_90a came with PTX 8.0 */
	return v;
}

static const char *version_for(Linker *l, const char *arch, const char *have)
{
	Arch a;
	if (parse_arch(arch, &a) != 0)
		return have;
	int need = min_version(a);
	if (version_number(have) >= need)
		return have;
	char buf[16];
	snprintf(buf, sizeof buf, "%d.%d", need / 1000, need % 1000);
	return intern_cstr(buf);
}

static int make_header(Linker *l)
{
	Stmt *targets[l->n];
	Stmt *best = NULL;
	for (int i = 0; i < l->n; i++) {
		Stmt *v = find_item(l->mods[i], S_VERSION);
		targets[i] = find_item(l->mods[i], S_TARGET);
		if (!best || version_number(v->strs.strs[0]) > version_number(best->strs.strs[0]))
			best = v;
	}
	const char *arch = pick_arch(l, targets);
	if (!arch || check_texmode(l, targets) || check_address_size(l))
		return -1;
	find_debug(l);
	Module *out = l->out;
	Stmt *v = stmt_new(out, S_VERSION, best->loc);
	const char *version = version_for(l, arch, best->strs.strs[0]);
	v->strs.strs = arena_dup(out->arena, &version, sizeof version);
	v->strs.nstrs = 1;
	list_append(&out->items, v);
	Expr *items[3];
	uint32_t n = 0;
	items[n++] = name_expr(arch);
	if (any_debug_flag(l, targets))
		items[n++] = name_expr(intern_cstr("debug"));
	const char *tex = target_flag(targets[0], "texmode_");
	if (tex)
		items[n++] = name_expr(tex);
	Stmt *t = stmt_new(out, S_TARGET, targets[0]->loc);
	t->list.word = intern_cstr(".target");
	t->list.items = arena_dup(out->arena, items, n * sizeof *items);
	t->list.nitems = n;
	list_append(&out->items, t);
	Stmt *a = find_item(l->mods[0], S_ADDRSIZE);
	if (a) {
		Stmt *c = stmt_new(out, S_ADDRSIZE, a->loc);
		c->strs = a->strs;
		list_append(&out->items, c);
	}
	return 0;
}

/* ---- symbols ---- */

static Sym *lookup(Linker *l, int mod, const char *name)
{
	Sym *s;
	HASH_FIND_PTR(l->tables[mod], &name, s);
	return s;
}

static const char *locstr(Loc loc, char *buf, size_t size)
{
	snprintf(buf, size, "%s:%u:%u", diag_filename(loc.file), loc.line, loc.col);
	return buf;
}

/* One name as two kinds of symbol: ptxas refuses it, and nothing after
 * collection could read a function's statement as a variable's. */
static void kind_clash(const char *name, int kind, Loc loc, int other, Loc other_loc)
{
	static const char *const what[] = {"a function", "a variable", "a label"};
	char buf[512];
	int lo = kind < other ? kind : other, hi = kind < other ? other : kind;
	error(loc, "%s is declared as %s and as %s (also at %s)", quoted_name(name), what[lo], what[hi],
		locstr(other_loc, buf, sizeof buf));
}

/* One Sym per name per module; a later definition updates a prototype. */
static void add_sym(Linker *l, int mod, const char *name, int kind, int linkage, int is_def,
	Stmt *stmt, Loc loc)
{
	Sym *s = lookup(l, mod, name);
	if (s && s->kind != kind) {
		kind_clash(name, kind, loc, s->kind, s->loc);
		return;
	}
	if (!s) {
		s = xcalloc(1, sizeof *s);
		s->name = s->newname = name;
		s->mod = mod;
		s->kind = kind;
		s->linkage = linkage;
		s->loc = loc;
		HASH_ADD_PTR(l->tables[mod], name, s);
	} else if (s->is_def && is_def) {
		error(loc, "%s is defined twice in one module (first at %s:%u:%u)", quoted_name(name),
			diag_filename(s->loc.file), s->loc.line, s->loc.col);
		return;
	}
	if (is_def || s->linkage == LINK_EXTERN) {
		s->linkage = linkage;
		s->loc = loc;
	}
	if (is_def) {
		s->is_def = 1;
		s->def = stmt;
	} else if (!s->decl) {
		s->decl = stmt;
	}
}

/* `.alias a, b;` defines a (declared by a prototype before it) as b:
 * a definition for the link, though the prototype stays bodiless. */
static void alias_def(Linker *l, int mod, Stmt *s)
{
	Sym *a = lookup(l, mod, s->list.items[0]->str);
	for (int i = 0; i < 2; i++) {  /* ptxas wants both declared functions first */
		Sym *f = s->list.items[i]->kind == E_NAME ? lookup(l, mod, s->list.items[i]->str) : NULL;
		if (!f || f->kind != K_FUNC) {
			error(s->loc, ".alias: '%s' is not a function declared before it",
				s->list.items[i]->kind == E_NAME ? s->list.items[i]->str : "?");
			return;
		}
	}
	if (a->is_def) {
		error(s->loc, "%s is defined twice in one module (first at %s:%u:%u)", quoted_name(a->name),
			diag_filename(a->loc.file), a->loc.line, a->loc.col);
		return;
	}
	a->is_def = 1;
	a->def = a->decl;
	a->loc = s->loc;
	if (a->linkage == LINK_EXTERN)
		a->linkage = LINK_VISIBLE;
}

static void collect_symbols(Linker *l, int mod)
{
	for (Stmt *s = l->mods[mod]->items.head; s; s = s->next) {
		if (s->kind == S_FUNC) {
			Func *f = s->func;
			int lk = f->linkage;
			/* ptxas resolves a runtime function however it is declared:
			 * its name is not the module's to rename */
			if (lk == LINK_INTERNAL && !f->has_body && is_runtime_symbol(f->name))
				lk = LINK_EXTERN;
			add_sym(l, mod, f->name, K_FUNC, lk, f->has_body, s, s->loc);
		} else if (s->kind == S_VAR) {
			int lk = s->var.linkage;
			add_sym(l, mod, s->var.ds[0].name, K_VAR, lk, lk != LINK_EXTERN, s, s->var.ds[0].loc);
		} else if (s->kind == S_ALIAS) {
			alias_def(l, mod, s);
		} else if (s->kind == S_SECTION) {
			for (Stmt *i = s->section.items.head; i; i = i->next)
				if (i->kind == S_LABEL)
					add_sym(l, mod, i->label, K_LABEL, LINK_INTERNAL, 1, i, i->loc);
		}
	}
}

static Global *global_get(Linker *l, const char *name)
{
	Global *g;
	HASH_FIND_PTR(l->globals, &name, g);
	if (!g) {
		g = xcalloc(1, sizeof *g);
		g->name = name;
		HASH_ADD_PTR(l->globals, name, g);
	}
	return g;
}


/* Bytes a .common variable occupies, for "the largest wins". */
static uint64_t var_size(const Stmt *s)
{
	int64_t size = decl_bytes(&s->var, &s->var.ds[0]);
	return size > 0 ? (uint64_t)size : 0;
}

static int has_init(const Sym *s)
{
	return s->kind == K_VAR && s->def->var.ds[0].init;
}

/* An initialized .common is a definition as strong as .visible, except
 * that an uninitialized .common of at most its size merges into it. */
static int strong(const Sym *s)
{
	return s->linkage == LINK_VISIBLE || (s->linkage == LINK_COMMON && has_init(s));
}

/* nvlink's rules for two definitions of one variable, made independent
 * of input order: sizes must match unless both are .common, where the
 * largest wins but may not outgrow an initialized one.  0, or -1 after an
 * error naming both places. */
static int check_var_defs(const Sym *s, const Sym *d)
{
	char buf[512];
	uint64_t ss = var_size(s->def), ds = var_size(d->def);
	if (ss == ds || !ss || !ds)
		return 0;
	if (s->linkage != LINK_COMMON || d->linkage != LINK_COMMON) {
		error(s->loc, "%s has %llu bytes here but %llu in its definition at %s", quoted_name(s->name),
			(unsigned long long)ss, (unsigned long long)ds, locstr(d->loc, buf, sizeof buf));
		return -1;
	}
	if (has_init(s) == has_init(d))
		return 0;
	const Sym *init = has_init(s) ? s : d, *other = has_init(s) ? d : s;
	if (var_size(other->def) <= var_size(init->def))
		return 0;
	error(other->loc, ".common %s of %llu bytes is larger than its initialized "
		"definition at %s (%llu bytes)", quoted_name(s->name), (unsigned long long)var_size(other->def),
		locstr(init->loc, buf, sizeof buf), (unsigned long long)var_size(init->def));
	return -1;
}

static void resolve_def(Linker *l, Sym *s)
{
	char buf[512];
	Global *g = s->g;
	Sym *d = g->def;
	(void)l;
	if (!d) {
		g->def = s;
		return;
	}
	if (s->kind == K_VAR && d->kind == K_VAR && check_var_defs(s, d) != 0)
		return;
	if (strong(s) && strong(d)) {
		error(s->loc, "duplicate definition of %s (first defined at %s)", quoted_name(s->name),
			locstr(d->loc, buf, sizeof buf));
	} else if (strong(s)) {
		g->def = s;  /* strong beats weak and common */
	} else if (strong(d)) {
		return;
	} else if (s->linkage == LINK_COMMON && d->linkage == LINK_COMMON) {
		if (var_size(s->def) > var_size(d->def))
			g->def = s;
	} else if (has_init(s) && !has_init(d)) {
		g->def = s;  /* an initializer is kept, whichever input has it */
	}
}

/* .common variables and dynamic .shared arrays take the largest
 * alignment any input asks for, as nvlink lays them out. */
static void note_align(Sym *s)
{
	if (s->kind != K_VAR)
		return;
	const Stmt *st = s->is_def ? s->def : s->decl;
	if (s->linkage == LINK_COMMON || (s->linkage == LINK_EXTERN && decl_space(&st->var) == SPACE_SHARED)) {
		uint64_t a = (uint64_t)align_written(&st->var);
		if (a > s->g->max_align)
			s->g->max_align = a;
	}
}

static void widen_alignments(Linker *l)
{
	for (Global *g = l->globals; g; g = g->hh.next) {
		if (!g->max_align)
			continue;
		if (g->def && g->def->linkage == LINK_COMMON && (uint64_t)align_written(&g->def->def->var) < g->max_align)
			decl_set_align(l->out, &g->def->def->var, (uint32_t)g->max_align);
		else if (!g->def && g->decl && (uint64_t)align_written(&g->decl->var) < g->max_align)
			decl_set_align(l->out, &g->decl->var, (uint32_t)g->max_align);
	}
}

static void resolve(Linker *l)
{
	for (int m = 0; m < l->n; m++)
		for (Sym *s = l->tables[m]; s; s = s->hh.next) {
			if (s->linkage == LINK_INTERNAL)
				continue;
			s->g = global_get(l, s->name);
			if (!s->g->first)
				s->g->first = s;
			if (s->g->first->kind != s->kind) {
				kind_clash(s->name, s->kind, s->loc, s->g->first->kind, s->g->first->loc);
				continue;
			}
			note_align(s);
			if (s->is_def)
				resolve_def(l, s);
			else if (!s->g->decl_sym) {
				s->g->decl_sym = s;
				s->g->decl = s->decl;
			}
		}
}

/* ---- signature and type agreement ---- */

static int same_number(const char *a, const char *b)
{
	int64_t x, y;
	return a == b || (int_literal(a, &x) && int_literal(b, &y) && x == y);
}

static int same_expr(const Expr *a, const Expr *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind || a->op != b->op || a->n != b->n)
		return 0;
	if (a->kind == E_NAME || a->kind == E_NUM)
		return a->str == b->str ||
			(a->kind == E_NUM && same_number(a->str, b->str));
	for (uint32_t i = 0; i < a->n; i++)
		if (!same_expr(a->kids[i], b->kids[i]))
			return 0;
	return 1;
}

/* A clash is described by what differs first, as "X here but Y in its
 * definition at ...": m holds "X here but Y", or is empty when the two
 * agree. */
typedef struct Clash {
	char m[256];
} Clash;

static int clash(Clash *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->m, sizeof c->m, fmt, ap);
	va_end(ap);
	return 1;
}

static const char *space_word(Space s)
{
	return s == SPACE_NONE ? "no state space" : space_spelling(s);
}

static const char *type_word(const Decl *d)
{
	const char *t = decl_type(d);
	return t ? t : "no type";
}

static int same_dims(const Declarator *x, const Declarator *y)
{
	if (x->ndims != y->ndims)
		return 0;
	for (uint32_t k = 0; k < x->ndims; k++)
		if (x->dims[k] && y->dims[k] && !same_expr(x->dims[k], y->dims[k]))
			return 0;
	return 1;
}

/* The specifiers other than linkage, in order, agree. */
static int same_specs(const Decl *a, const Decl *b)
{
	uint32_t i = 0, j = 0;
	for (;;) {
		while (i < a->nspecs && a->specs[i].kind == SW_LINK)
			i++;
		while (j < b->nspecs && b->specs[j].kind == SW_LINK)
			j++;
		if (i == a->nspecs || j == b->nspecs)
			break;
		const Spec *x = &a->specs[i++], *y = &b->specs[j++];
		if (x->word != y->word || (x->num != y->num && (!x->num || !y->num ||
		    !same_number(x->num, y->num))))
			return 0;
	}
	return i == a->nspecs && j == b->nspecs;
}

static int align_clash(Clash *c, const char *who, int x, int y)
{
	char a[24] = "no .align", b[24] = "no .align";
	if (x)
		snprintf(a, sizeof a, ".align %d", x);
	if (y)
		snprintf(b, sizeof b, ".align %d", y);
	return clash(c, "%s has %s here but %s", who, a, b);
}

/* Its specifiers but linkage, as written: ".param .ptr .global .b64". */
static const char *spec_text(const Decl *d, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < d->nspecs && n < size; i++)
		if (d->specs[i].kind != SW_LINK)
			n += (size_t)snprintf(buf + n, size - n, "%s%s%s%s", n ? " " : "",
				d->specs[i].word, d->specs[i].num ? " " : "",
				d->specs[i].num ? d->specs[i].num : "");
	return buf;
}

/* A parameter or return value: state space, type, alignment, array
 * shape (an unsized [] matches any size), then the other specifiers. */
static int param_clash(Clash *c, const char *who, const Decl *a, const Decl *b)
{
	if (decl_space(a) != decl_space(b))
		return clash(c, "%s is in %s here but in %s", who, space_word(decl_space(a)),
			space_word(decl_space(b)));
	if (decl_type(a) != decl_type(b))
		return clash(c, "%s has type %s here but %s", who, type_word(a), type_word(b));
	if (align_written(a) != align_written(b))
		return align_clash(c, who, align_written(a), align_written(b));
	if (!same_dims(&a->ds[0], &b->ds[0])) {
		int64_t x = decl_bytes(a, &a->ds[0]), y = decl_bytes(b, &b->ds[0]);
		if (x >= 0 && y >= 0 && x != y)
			return clash(c, "%s has %lld bytes here but %lld", who, (long long)x, (long long)y);
		return clash(c, "%s has one array shape here but another", who);
	}
	if (!same_specs(a, b)) {
		char x[96], y[96];
		return clash(c, "%s is '%s' here but '%s'", who, spec_text(a, x, sizeof x),
			spec_text(b, y, sizeof y));
	}
	return 0;
}

/* what: "parameter" or "return value"; counts first, then each in turn. */
static int params_clash(Clash *c, const char *name, const char *what, const Decl *a,
	uint32_t na, const Decl *b, uint32_t nb)
{
	if (na != nb)
		return clash(c, "%s has %u %s%s here but %u", name, na, what, na == 1 ? "" : "s", nb);
	for (uint32_t i = 0; i < na; i++) {
		char who[128];
		snprintf(who, sizeof who, "%s %u of %s", what, i + 1, name);
		if (param_clash(c, who, &a[i], &b[i]))
			return 1;
	}
	return 0;
}

/* nvcc declares an extern variable as bytes (.b8 x[48]) whatever the
 * definition's type (.u64 x[6]): as nvlink does, compare the state space
 * and the size in bytes (unless the declaration is unsized), and the
 * declaration may not promise more alignment than the definition has. */
static int var_clash(Clash *c, const char *name, const Stmt *decl, const Stmt *def)
{
	Space a = decl_space(&decl->var), b = decl_space(&def->var);
	if (a != b)
		return clash(c, "%s is in %s here but in %s", name, space_word(a), space_word(b));
	const Declarator *d = &decl->var.ds[0];
	int unsized = d->ndims > 0 && !d->dims[d->ndims - 1];
	if (!unsized && var_size(decl) != var_size(def))
		return clash(c, "%s has %llu bytes here but %llu", name,
			(unsigned long long)var_size(decl), (unsigned long long)var_size(def));
	int x = align_written(&decl->var), y = align_written(&def->var);
	if (y && x > y)
		return align_clash(c, name, x, y);
	return 0;
}

static int func_clash(Clash *c, const char *name, const Func *f, const Func *g)
{
	if (f->is_entry != g->is_entry)
		return clash(c, "%s is %s here but %s", name, f->is_entry ? "an .entry" : "a .func",
			g->is_entry ? "an .entry" : "a .func");
	return params_clash(c, name, "return value", f->rets, f->nrets, g->rets, g->nrets) ||
		params_clash(c, name, "parameter", f->params, f->nparams, g->params, g->nparams);
}

/* Every declaration and losing definition must agree with the winner. */
static void check_agreement(Linker *l, Module *m)
{
	char buf[512];
	for (Stmt *s = m->items.head; s; s = s->next) {
		if (s->kind != S_FUNC && s->kind != S_VAR)
			continue;
		const char *name = s->kind == S_FUNC ? s->func->name : s->var.ds[0].name;
		Global *g;
		HASH_FIND_PTR(l->globals, &name, g);
		if (!g || !g->def || g->def->def == s)
			continue;
		int lk = s->kind == S_FUNC ? s->func->linkage : s->var.linkage;
		if (lk == LINK_INTERNAL)
			continue;
		if (s->kind == S_VAR && lk == LINK_COMMON && g->def->linkage != LINK_VISIBLE)
			continue;  /* .common sizes may differ: the largest won */
		if (s->kind == S_VAR && lk != LINK_EXTERN && var_size(s) != var_size(g->def->def))
			continue;  /* two definitions' sizes: resolve_def said it */
		const Stmt *d = g->def->def;
		const char *who = quoted_name(name);
		Clash c;
		if (s->kind != d->kind ? 0 : s->kind == S_VAR ? var_clash(&c, who, s, d)
		    : func_clash(&c, who, s->func, d->func))
			error(s->kind == S_VAR ? s->var.ds[0].loc : s->loc,
				"%s in its definition at %s", c.m, locstr(g->def->loc, buf, sizeof buf));
	}
}

/* ---- renaming of internal names ---- */

/* name$m<module>, then name$m<module>_<k>: legal PTX identifiers. */
static const char *fresh_name(Linker *l, const char *name, int mod)
{
	char *buf = malloc(strlen(name) + 32);
	if (!buf)
		die("out of memory");
	const char *s;
	sprintf(buf, "%s$m%d", name, mod);
	for (int k = 2; names_exact(&l->taken, s = intern_cstr(buf)); k++)
		sprintf(buf, "%s$m%d_%d", name, mod, k);
	free(buf);
	return s;
}

static void rename_internals(Linker *l)
{
	for (Global *g = l->globals; g; g = g->hh.next)
		names_add(&l->taken, g->name, NULL);
	for (int m = 0; m < l->n; m++)
		for (Sym *s = l->tables[m]; s; s = s->hh.next) {
			if (s->linkage != LINK_INTERNAL)
				continue;
			if (names_exact(&l->taken, s->name))
				s->newname = fresh_name(l, s->name, m);
			names_add(&l->taken, s->newname, NULL);
		}
	/* Now unique, internal names are placed in the output like the others. */
	for (int m = 0; m < l->n; m++)
		for (Sym *s = l->tables[m]; s; s = s->hh.next) {
			if (s->linkage != LINK_INTERNAL || s->kind == K_LABEL)
				continue;
			Global *g = global_get(l, s->newname);
			g->internal = 1;
			g->def = s->is_def ? s : NULL;
			g->decl_sym = s->decl ? s : NULL;
			g->decl = s->decl;
		}
}

/* ---- rewriting references ---- */

typedef struct Walk {
	Linker *l;
	int mod;
	Loc loc;
} Walk;

static void note_use(Walk *w, Sym *s)
{
	if (!s->g)
		return;
	if (!s->g->used) {
		s->g->used = 1;
		s->g->first_use = w->loc;
	}
}

static Sym *module_sym(Walk *w, const char *name)
{
	if (names_exact(&w->l->locals, name))
		return NULL;
	return lookup(w->l, w->mod, name);
}

static int rename_leaf(void *ctx, Expr **slot)
{
	Walk *w = ctx;
	Sym *s = (*slot)->kind == E_NAME ? module_sym(w, (*slot)->str) : NULL;
	if (s) {
		note_use(w, s);
		if (s->newname != s->name)
			*slot = name_expr(s->newname);
	}
	return 0;
}

static Expr *rename_expr(Walk *w, Expr *e)
{
	expr_leaves(&e, rename_leaf, w);
	return e;
}

static void rename_exprs(Walk *w, Expr **es, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (es[i])
			es[i] = rename_expr(w, es[i]);
}

static const char *rename_name(Walk *w, const char *name)
{
	Sym *s = module_sym(w, name);
	return s ? s->newname : name;
}

/* Names a function declares shadow module-scope ones. */
static void enter_func(Linker *l, const Func *f)
{
	names_free(&l->locals);
	names_add_decls(&l->locals, f->params, f->nparams);
	names_add_decls(&l->locals, f->rets, f->nrets);
	names_of_body(&l->locals, &f->body);
}

static int by_old(const void *a, const void *b)
{
	const FileNum *x = a, *y = b;
	return (x->old > y->old) - (x->old < y->old);
}

static void renumber(const Linker *l, int mod, uint32_t *file)
{
	FileNum key = {.old = *file}, *f;
	if (l->nfilemap[mod] && (f = bsearch(&key, l->filemap[mod], l->nfilemap[mod],
	    sizeof key, by_old)))
		*file = f->to;
}

static void renumber_loc(Linker *l, int mod, LocInfo *li)
{
	renumber(l, mod, &li->file);
	if (li->has_inlined)
		renumber(l, mod, &li->in_file);
}

static void rename_body(Walk *w, List *body)
{
	for (Stmt *s = body->head; s; s = s->next) {
		w->loc = s->loc;
		switch (s->kind) {
		case S_INS:
			rename_exprs(w, s->ins.ops, s->ins.nops);
			break;
		case S_VAR:
			for (uint32_t i = 0; i < s->var.nds; i++)
				if (s->var.ds[i].init)
					s->var.ds[i].init = rename_expr(w, s->var.ds[i].init);
			break;
		case S_TARGETS:
			rename_exprs(w, s->list.items, s->list.nitems);
			break;
		case S_LOC:
			renumber_loc(w->l, w->mod, s->locinfo);
			if (s->locinfo->function_name)
				s->locinfo->function_name = rename_name(w, s->locinfo->function_name);
			break;
		case S_SCOPE:
			rename_body(w, &s->scope);
			break;
		default:
			break;
		}
	}
}

static void rename_func(Walk *w, Func *f)
{
	Linker *l = w->l;
	f->name = rename_name(w, f->name);
	if (!f->has_body)
		return;
	enter_func(l, f);
	rename_body(w, &f->body);
	names_free(&l->locals);
}

static uint64_t section_base(const Linker *l, int mod, const char *name)
{
	for (uint32_t i = 0; i < l->nbases[mod]; i++)
		if (l->bases[mod][i].name == name)
			return l->bases[mod][i].base;
	return 0;
}

/* Sections merge in input order: each input's part of one starts where
 * the earlier inputs' parts end. */
static void section_bases(Linker *l)
{
	SectionBase *total = NULL;
	uint32_t n = 0, cap = 0;
	for (int m = 0; m < l->n; m++) {
		l->bases[m] = xcalloc(n, sizeof *total);
		if (n)
			memcpy(l->bases[m], total, n * sizeof *total);
		l->nbases[m] = n;
		for (Stmt *s = l->mods[m]->items.head; s; s = s->next) {
			if (s->kind != S_SECTION)
				continue;
			uint32_t i = 0;
			while (i < n && total[i].name != s->section.name)
				i++;
			if (i == n) {
				total = array_grow(total, n, &cap, sizeof *total);
				total[n++] = (SectionBase){s->section.name, 0};
			}
			total[i].base += dwarf_section_size(s);
		}
	}
	free(total);
}

/* `.debug_loc+289` in the second input's DWARF means 289 bytes into its
 * own part of .debug_loc: in the merged section, base+289.  ptxas takes
 * the section's name plus a number there, and no label: with
 * `.b32 $L__loc+289` it drops .debug_info without a word. */
static Expr *rebase(Linker *l, int mod, Expr *e)
{
	int64_t off;
	const char *sec = dwarf_section_ref(e, &off);
	uint64_t base = sec ? section_base(l, mod, sec) : 0;
	if (!base)
		return e;
	char buf[24];
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)base + (uint64_t)off);
	return expr_binary(l->out, '+', name_expr(sec), num_expr(intern_cstr(buf)));
}

static void rename_section(Walk *w, Stmt *sec)
{
	for (Stmt *i = sec->section.items.head; i; i = i->next) {
		w->loc = i->loc;
		if (i->kind == S_LABEL) {
			i->label = rename_name(w, i->label);
			continue;
		}
		rename_exprs(w, i->list.items, i->list.nitems);
		for (uint32_t k = 0; k < i->list.nitems; k++)
			i->list.items[k] = rebase(w->l, w->mod, i->list.items[k]);
	}
}

static void rename_module(Linker *l, int mod)
{
	Walk w = {l, mod, {0}};
	for (Stmt *s = l->mods[mod]->items.head; s; s = s->next) {
		w.loc = s->loc;
		switch (s->kind) {
		case S_FUNC:
			rename_func(&w, s->func);
			break;
		case S_VAR:
			s->var.ds[0].name = rename_name(&w, s->var.ds[0].name);
			w.loc = s->var.ds[0].loc;
			if (s->var.ds[0].init)
				s->var.ds[0].init = rename_expr(&w, s->var.ds[0].init);
			break;
		case S_ALIAS:
			rename_exprs(&w, s->list.items, s->list.nitems);
			break;
		case S_SECTION:
			rename_section(&w, s);
			break;
		default:
			break;
		}
	}
}

/* ---- names that DWARF takes from inside functions ---- */

/* -G DWARF names a function's labels, parameters and depot from outside
 * it (`.b64 $L__func_begin0`, `.b64 __local_depot3`), and ptxas looks them
 * up in the whole module.  nvcc numbers them uniquely within one module,
 * but two inputs both have $L__func_begin0: the input whose DWARF would
 * find another input's renames its own. */
typedef struct Rename {
	UT_hash_handle hh;
	const char *from, *to;
} Rename;

/* The names of one module's sections that are not module-scope names,
 * as a set and in order. */
typedef struct SecNames {
	Linker *l;
	int mod;
	Names set;
	const char **v;
	uint32_t n, cap;
} SecNames;

static int sec_name_leaf(void *ctx, Expr **slot)
{
	SecNames *c = ctx;
	const char *name = (*slot)->str;
	if ((*slot)->kind != E_NAME || name[0] == '.' || lookup(c->l, c->mod, name) ||
	    names_exact(&c->set, name))
		return 0;
	names_add(&c->set, name, NULL);
	c->v = array_grow(c->v, c->n, &c->cap, sizeof *c->v);
	c->v[c->n++] = name;
	return 0;
}

static uint32_t section_names(SecNames *c)
{
	for (Stmt *s = c->l->mods[c->mod]->items.head; s; s = s->next)
		for (Stmt *d = s->kind == S_SECTION ? s->section.items.head : NULL; d; d = d->next)
			for (uint32_t i = 0; d->kind == S_DATA && i < d->list.nitems; i++)
				expr_leaves(&d->list.items[i], sec_name_leaf, c);
	return c->n;
}

static void local_names(Module *m, Names *names)
{
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body) {
			names_of_body(names, &s->func->body);
			names_add_decls(names, s->func->params, s->func->nparams);
			names_add_decls(names, s->func->rets, s->func->nrets);
		}
}

/* Another input has the name in a function, and keeps it there (it came
 * first, or its own DWARF does not name it); or it is a module's name. */
static int must_rename(Linker *l, Names *locals, SecNames *refs, int m, const char *name)
{
	if (names_exact(&l->taken, name))
		return 1;
	for (int j = 0; j < l->n; j++)
		if (j != m && names_exact(&locals[j], name) &&
		    (j < m || !names_exact(&refs[j].set, name)))
			return 1;
	return 0;
}

static const char *fresh_local(Linker *l, Names *locals, const char *name, int m)
{
	char *buf = malloc(strlen(name) + 32);
	if (!buf)
		die("out of memory");
	const char *s = NULL;
	for (int k = 1, clash = 1; clash; k++) {
		sprintf(buf, k == 1 ? "%s$m%d" : "%s$m%d_%d", name, m, k);
		s = intern_cstr(buf);
		clash = names_exact(&l->taken, s);
		for (int j = 0; j < l->n && !clash; j++)
			clash = names_exact(&locals[j], s);
	}
	free(buf);
	names_add(&locals[m], s, NULL);
	return s;
}

static const char *renamed(Rename *map, const char *name)
{
	Rename *r;
	HASH_FIND_PTR(map, &name, r);
	return r ? r->to : name;
}

static int rename_map_leaf(void *ctx, Expr **slot)
{
	if ((*slot)->kind == E_NAME && renamed(ctx, (*slot)->str) != (*slot)->str)
		*slot = name_expr(renamed(ctx, (*slot)->str));
	return 0;
}

static void rename_map_exprs(Rename *map, Expr **es, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (es[i])
			expr_leaves(&es[i], rename_map_leaf, map);
}

static void rename_map_decls(Rename *map, Decl *d, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < d[i].nds; j++)
			d[i].ds[j].name = renamed(map, d[i].ds[j].name);
}

static void rename_map_body(Rename *map, List *body)
{
	for (Stmt *s = body->head; s; s = s->next)
		switch (s->kind) {
		case S_INS: rename_map_exprs(map, s->ins.ops, s->ins.nops); break;
		case S_VAR: rename_map_decls(map, &s->var, 1); break;
		case S_LABEL: s->label = renamed(map, s->label); break;
		case S_PROTO: s->proto->label = renamed(map, s->proto->label); break;
		case S_SCOPE: rename_map_body(map, &s->scope); break;
		case S_TARGETS:
			s->list.label = renamed(map, s->list.label);
			rename_map_exprs(map, s->list.items, s->list.nitems);
			break;
		default: break;
		}
}

static void rename_map_module(Rename *map, Module *m)
{
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body) {
			rename_map_decls(map, s->func->params, s->func->nparams);
			rename_map_decls(map, s->func->rets, s->func->nrets);
			rename_map_body(map, &s->func->body);
		} else if (s->kind == S_SECTION) {
			for (Stmt *d = s->section.items.head; d; d = d->next)
				if (d->kind == S_DATA)
					rename_map_exprs(map, d->list.items, d->list.nitems);
		}
}

static void rename_locals_of(Linker *l, Names *locals, SecNames *refs, int m)
{
	Rename *map = NULL, *r, *tmp;
	for (uint32_t i = 0; i < refs[m].n; i++) {
		if (!must_rename(l, locals, refs, m, refs[m].v[i]))
			continue;
		r = xcalloc(1, sizeof *r);
		r->from = refs[m].v[i];
		r->to = fresh_local(l, locals, r->from, m);
		HASH_ADD_PTR(map, from, r);
	}
	if (map)
		rename_map_module(map, l->mods[m]);
	HASH_ITER(hh, map, r, tmp) {
		HASH_DEL(map, r);
		free(r);
	}
}

static void rename_section_locals(Linker *l)
{
	if (l->o->strip_debug)
		return;  /* no section is kept to name them */
	SecNames *refs = xcalloc((size_t)l->n, sizeof *refs);
	Names *locals = xcalloc((size_t)l->n, sizeof *locals);
	uint32_t any = 0;
	for (int m = 0; m < l->n; m++) {
		refs[m] = (SecNames){.l = l, .mod = m};
		any += section_names(&refs[m]);
	}
	for (int m = 0; any && m < l->n; m++)
		local_names(l->mods[m], &locals[m]);
	for (int m = 0; any && m < l->n; m++)
		rename_locals_of(l, locals, refs, m);
	for (int m = 0; m < l->n; m++) {
		names_free(&refs[m].set);
		free(refs[m].v);
		names_free(&locals[m]);
	}
	free(refs);
	free(locals);
}

/* ---- .file tables ---- */

static int by_old_seq(const void *a, const void *b)
{
	const FileNum *x = a, *y = b;
	return x->old != y->old ? by_old(a, b) : (x->seq > y->seq) - (x->seq < y->seq);
}

/* Sorts a module's map by old number, the last .file of a number kept. */
static uint32_t unique_files(FileNum *map, uint32_t n)
{
	qsort(map, n, sizeof *map, by_old_seq);
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (k && map[k - 1].old == map[i].old)
			k--;
		map[k++] = map[i];
	}
	return k;
}

static void merge_module_files(Linker *l, int m)
{
	uint32_t n = 0;
	for (Stmt *s = l->mods[m]->items.head; s; s = s->next)
		n += s->kind == S_FILE;
	FileNum *map = l->filemap[m] = xcalloc(n, sizeof *map);
	n = 0;
	for (Stmt *s = l->mods[m]->items.head; s; s = s->next) {
		if (s->kind != S_FILE || l->o->strip_debug)
			continue;
		uint32_t k = 0;
		while (k < l->nfiles && !(l->files[k]->file.path == s->file.path &&
		       l->files[k]->file.timestamp == s->file.timestamp &&
		       l->files[k]->file.size == s->file.size))
			k++;
		if (k == l->nfiles) {
			l->files = realloc(l->files, (l->nfiles + 1) * sizeof *l->files);
			if (!l->files)
				die("out of memory");
			l->files[l->nfiles++] = s;
		}
		uint32_t old = (uint32_t)strtoul(s->file.index, NULL, 10);
		map[n] = (FileNum){old, k + 1, n};
		n++;
	}
	l->nfilemap[m] = unique_files(map, n);
}

typedef struct ModFiles {
	Linker *l;
	int mod;
} ModFiles;

static uint32_t new_file(void *ctx, uint32_t old)
{
	ModFiles *f = ctx;
	renumber(f->l, f->mod, &old);
	return old;
}

static int same_files(const Linker *l, int m)
{
	for (uint32_t i = 0; i < l->nfilemap[m]; i++)
		if (l->filemap[m][i].old != l->filemap[m][i].to)
			return 0;
	return 1;
}

/* -G inputs' tables come first, so that the first keeps its numbers (and
 * its DWARF as written); the others follow.  DWARF names files by number:
 * where they changed, its DW_AT_decl_file follow. */
static void merge_files(Linker *l)
{
	for (int pass = 0; pass < 2; pass++)
		for (int m = 0; m < l->n; m++)
			if (l->dwarf[m] == !pass)
				merge_module_files(l, m);
	ModFiles *ctx = xcalloc((size_t)l->n, sizeof *ctx);
	DwarfFileMap *maps = xcalloc((size_t)l->n, sizeof *maps);
	for (int m = 0; m < l->n; m++) {
		ctx[m] = (ModFiles){l, m};
		if (!same_files(l, m))
			maps[m] = (DwarfFileMap){new_file, &ctx[m]};
	}
	dwarf_merge(l->mods, l->n, l->dwarf, maps, l->out);
	free(ctx);
	free(maps);
}

/* ---- output order ---- */

typedef struct Refs {
	Global **v;
	uint32_t n, cap;
} Refs;

typedef struct Collect {
	Linker *l;
	Refs refs;
} Collect;

static void refs_add(Refs *r, Global *g)
{
	for (uint32_t i = 0; i < r->n; i++)
		if (r->v[i] == g)
			return;
	r->v = array_grow(r->v, r->n, &r->cap, sizeof *r->v);
	r->v[r->n++] = g;
}

static int ref_leaf(void *ctx, Expr **slot)
{
	Collect *c = ctx;
	const Expr *e = *slot;
	Global *g;
	if (e->kind != E_NAME || names_exact(&c->l->locals, e->str))
		return 0;
	HASH_FIND_PTR(c->l->globals, &e->str, g);
	if (g)
		refs_add(&c->refs, g);
	return 0;
}

static void refs_expr(Collect *c, const Expr *e)
{
	expr_leaves((Expr **)&e, ref_leaf, c);
}

static void refs_exprs(Collect *c, Expr *const *es, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (es[i])
			refs_expr(c, es[i]);
}

static void refs_body(Collect *c, const List *body)
{
	for (const Stmt *s = body->head; s; s = s->next) {
		if (s->kind == S_INS)
			refs_exprs(c, s->ins.ops, s->ins.nops);
		else if (s->kind == S_TARGETS)
			refs_exprs(c, s->list.items, s->list.nitems);
		else if (s->kind == S_VAR) {
			for (uint32_t i = 0; i < s->var.nds; i++)
				if (s->var.ds[i].init)
					refs_expr(c, s->var.ds[i].init);
		} else if (s->kind == S_SCOPE)
			refs_body(c, &s->scope);
	}
}

/* The external names an item uses (not the one it defines). */
static Refs item_refs(Linker *l, const Stmt *s)
{
	Collect c = {l, {0}};
	if (s->kind == S_FUNC && s->func->has_body) {
		const Func *f = s->func;
		enter_func(l, f);
		refs_body(&c, &f->body);
		names_free(&l->locals);
	} else if (s->kind == S_VAR && s->var.ds[0].init) {
		refs_expr(&c, s->var.ds[0].init);
	} else if (s->kind == S_ALIAS) {
		refs_exprs(&c, s->list.items, s->list.nitems);
	}
	return c.refs;
}

static void emit(Linker *l, Stmt *s)
{
	list_append(&l->out->items, s);
}

/* A bodiless copy of a function definition, linkage and all. */
static Stmt *prototype(Linker *l, const Stmt *def)
{
	Stmt *p = stmt_new(l->out, S_FUNC, def->loc);
	Func *f = arena_dup(l->out->arena, def->func, sizeof *f);
	f->has_body = 0;
	f->body = (List){0};
	p->func = f;
	return p;
}

/* An .extern declaration of a variable defined later (a cycle). */
static Stmt *extern_decl(Linker *l, const Stmt *def)
{
	Stmt *d = stmt_new(l->out, S_VAR, def->loc);
	d->var = def->var;
	decl_set_linkage(l->out, &d->var, LINK_EXTERN);
	Declarator *ds = arena_dup(l->out->arena, def->var.ds, sizeof *ds);
	ds->init = NULL;
	d->var.ds = ds;
	return d;
}

static void emit_def(Linker *l, Global *g);

/* Makes g usable from here on in the output. */
static void ensure(Linker *l, Global *g)
{
	if (g->state == G_DECLARED || g->state == G_DEFINED)
		return;
	if (!g->def) {
		if (g->decl_sym && g->state == G_NONE) {
			g->state = G_DECLARED;
			emit(l, g->decl);
		}
		return;
	}
	if (g->def->kind == K_FUNC) {
		g->state = G_DECLARED;
		emit(l, prototype(l, g->def->def));
	} else if (g->state == G_IN_PROGRESS) {
		g->state = G_DECLARED;
		emit(l, extern_decl(l, g->def->def));
	} else {
		emit_def(l, g);
	}
}

static void ensure_refs(Linker *l, const Stmt *s, const Global *self)
{
	Refs r = item_refs(l, s);
	for (uint32_t i = 0; i < r.n; i++)
		if (r.v[i] != self)
			ensure(l, r.v[i]);
	free(r.v);
}

static void emit_def(Linker *l, Global *g)
{
	g->state = G_IN_PROGRESS;
	ensure_refs(l, g->def->def, g);
	emit(l, g->def->def);
	g->state = G_DEFINED;
}

static Global *item_global(Linker *l, const Stmt *s)
{
	const char *name = s->kind == S_FUNC ? s->func->name : s->var.ds[0].name;
	Global *g;
	HASH_FIND_PTR(l->globals, &name, g);
	return g;
}

/* One input item, in order: drop what lost or was declared already. */
static void place(Linker *l, Stmt *s)
{
	Global *g = (s->kind == S_FUNC || s->kind == S_VAR) ? item_global(l, s) : NULL;
	if (!g) {
		ensure_refs(l, s, NULL);
		emit(l, s);
		return;
	}
	int is_def = s->kind == S_FUNC ? s->func->has_body
		: s->var.linkage != LINK_EXTERN;
	if (is_def) {
		if (g->def && g->def->def == s && g->state != G_DEFINED)
			emit_def(l, g);
		return;
	}
	if (g->state == G_DECLARED || g->state == G_DEFINED)
		return;
	if (g->def && g->def->kind == K_FUNC) {
		g->state = G_DECLARED;
		emit(l, prototype(l, g->def->def));
	} else if (!g->def && g->decl == s) {
		ensure(l, g);
	}
}

static void strip_locs(List *body)
{
	for (Stmt *s = body->head, *next; s; s = next) {
		next = s->next;
		if (s->kind == S_LOC)
			list_remove(body, s);
		else if (s->kind == S_SCOPE)
			strip_locs(&s->scope);
	}
}

/* Sections of one name from every input become one section, the inputs'
 * parts in input order (section_bases counted on it).  Any number of
 * names: an index keyed on the interned name. */
typedef struct Merged {
	UT_hash_handle hh;
	const char *name;
	Stmt *s;
} Merged;

static void emit_sections(Linker *l, Stmt **items, size_t n)
{
	Merged *index = NULL, *merged = xcalloc(n, sizeof *merged);
	size_t nmerged = 0;
	for (size_t k = 0; k < n; k++) {
		Stmt *s = items[k];
		if (s->kind != S_SECTION || l->o->strip_debug)
			continue;
		Merged *m;
		HASH_FIND_PTR(index, &s->section.name, m);
		if (m) {
			List *dst = &m->s->section.items;
			for (Stmt *i = s->section.items.head, *next; i; i = next) {
				next = i->next;
				list_append(dst, i);
			}
			continue;
		}
		Stmt *c = stmt_new(l->out, S_SECTION, s->loc);
		c->section.name = s->section.name;
		c->section.items = s->section.items;
		m = &merged[nmerged++];
		m->name = c->section.name;
		m->s = c;
		HASH_ADD_PTR(index, name, m);
	}
	HASH_CLEAR(hh, index);
	for (size_t j = 0; j < nmerged; j++)
		emit(l, merged[j].s);
	free(merged);
}

/* Items are placed from a snapshot of every input's list taken first:
 * placing one may hoist a later one, even from a later input, and that
 * relinks it into the output list. */
static void build_output(Linker *l)
{
	size_t n = 0, k = 0;
	for (int m = 0; m < l->n; m++)
		for (Stmt *s = l->mods[m]->items.head; s; s = s->next)
			n++;
	Stmt **items = xcalloc(n, sizeof *items);
	for (int m = 0; m < l->n; m++)
		for (Stmt *s = l->mods[m]->items.head; s; s = s->next)
			items[k++] = s;
	for (k = 0; k < n; k++) {
		Stmt *s = items[k];
		if (s->kind == S_VERSION || s->kind == S_TARGET || s->kind == S_ADDRSIZE ||
		    s->kind == S_FILE || s->kind == S_SECTION)
			continue;
		if (l->o->strip_debug && s->kind == S_FUNC && s->func->has_body)
			strip_locs(&s->func->body);
		place(l, s);
	}
	for (k = 0; k < l->nfiles; k++) {
		Stmt *f = stmt_new(l->out, S_FILE, l->files[k]->loc);
		f->file = l->files[k]->file;
		char buf[16];
		snprintf(buf, sizeof buf, "%zu", k + 1);
		f->file.index = intern_cstr(buf);
		emit(l, f);
	}
	emit_sections(l, items, n);
	free(items);
}

/* ---- unresolved names ---- */

/* libdevice comes as bitcode: neither ptxas nor nvlink resolves a call
 * to __nv_sinf ("Unresolved extern function"), so a program that uses one
 * needs libdevice's PTX as another input. */
static void warn_libdevice(Linker *l, Global *g)
{
	if (g->decl_sym->kind != K_FUNC || !g->used || strncmp(g->name, "__nv_", 5))
		return;
	Stmt *t = find_item(l->out, S_TARGET);
	const char *arch = t && t->list.nitems ? t->list.items[0]->str : "sm_XX";
	warn(g->first_use, "'%s' is a libdevice function that no input defines, and neither ptxas "
		"nor nvlink resolves it: add libdevice as PTX to the inputs (llc -march=nvptx64 "
		"-mcpu=%s $CUDA_HOME/nvvm/libdevice/libdevice.10.bc -o libdevice.ptx)", g->name, arch);
}

static void check_unresolved(Linker *l)
{
	int devrt = 0;
	for (Global *g = l->globals; g; g = g->hh.next) {
		if (g->def || !g->decl_sym || g->internal)
			continue;
		Sym *d = g->decl_sym;
		if (d->kind == K_VAR && decl_space(&g->decl->var) == SPACE_SHARED)
			continue;  /* dynamic shared memory is never defined */
		if (needs_cudadevrt(g->name))
			devrt = 1;
		if (l->o->allow_undefined || l->o->defer_undefined ||
		    (l->o->defined_later && l->o->defined_later(g->name)))
			continue;
		warn_libdevice(l, g);
		if (is_runtime_symbol(g->name))
			continue;
		if (d->kind == K_FUNC && !g->used)
			continue;  /* ptxas drops an unused .extern function, as nvlink does */
		error(g->used ? g->first_use : d->loc, "undefined reference to %s", quoted_name(g->name));
	}
	if (l->o->verbose && diag_errors() == 0)
		diag_note("ptxlink: %s", devrt || l->o->allow_undefined
			? "names are left for nvlink (device runtime, libraries): the output needs 'ptxas -c' and nvlink"
			: "every name is resolved, a whole program: 'ptxas' without -c can compile it");
}

/* ---- the entry point ---- */

static void free_linker(Linker *l)
{
	for (int m = 0; m < l->n; m++) {
		Sym *s, *tmp;
		HASH_ITER(hh, l->tables[m], s, tmp) {
			HASH_DEL(l->tables[m], s);
			free(s);
		}
		free(l->filemap[m]);
		if (l->bases)
			free(l->bases[m]);
	}
	Global *g, *gt;
	HASH_ITER(hh, l->globals, g, gt) {
		HASH_DEL(l->globals, g);
		free(g);
	}
	names_free(&l->taken);
	free(l->tables);
	free(l->filemap);
	free(l->nfilemap);
	free(l->files);
	free(l->dwarf);
	free(l->bases);
	free(l->nbases);
	names_free(&l->locals);
}

Module *link_modules(Module **mods, int n, const LinkOptions *o)
{
	Linker l = {0};
	l.o = o;
	l.mods = mods;
	l.n = n;
	l.out = mod_new("<linked>");
	for (int m = 0; m < n; m++)
		mod_adopt(l.out, mods[m]);
	l.tables = xcalloc((size_t)n, sizeof *l.tables);
	l.filemap = xcalloc((size_t)n, sizeof *l.filemap);
	l.nfilemap = xcalloc((size_t)n, sizeof *l.nfilemap);
	l.dwarf = xcalloc((size_t)n, sizeof *l.dwarf);
	l.bases = xcalloc((size_t)n, sizeof *l.bases);
	l.nbases = xcalloc((size_t)n, sizeof *l.nbases);
	int errors = diag_errors();
	int ok = make_header(&l) == 0;
	if (ok) {
		for (int m = 0; m < n; m++) {
			ir_normalize(mods[m]);  /* one symbol per statement */
			collect_symbols(&l, m);
		}
		if (diag_errors() == errors)
			resolve(&l);
	}
	if (ok && diag_errors() == errors) {
		for (int m = 0; m < n; m++)
			check_agreement(&l, mods[m]);
		rename_internals(&l);
		merge_files(&l);
		rename_section_locals(&l);
		section_bases(&l);
		for (int m = 0; m < n; m++)
			rename_module(&l, m);
		check_unresolved(&l);
		widen_alignments(&l);
		if (diag_errors() == errors)
			build_output(&l);
	}
	free_linker(&l);
	if (diag_errors() != errors) {
		mod_free(l.out);
		return NULL;
	}
	return l.out;
}

/* One input that is not linked: its names still must be one kind each. */
int link_check_symbols(Module *m)
{
	Linker l = {0};
	l.mods = &m;
	l.n = 1;
	l.tables = xcalloc(1, sizeof *l.tables);
	l.filemap = xcalloc(1, sizeof *l.filemap);
	l.nfilemap = xcalloc(1, sizeof *l.nfilemap);
	int errors = diag_errors();
	collect_symbols(&l, 0);
	free_linker(&l);
	return diag_errors() == errors ? 0 : -1;
}
