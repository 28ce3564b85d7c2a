/* headers.c: step 1 of a link, the module's header: the highest
 * .version (raised to what -arch needs); one .target, the inputs' one
 * architecture or an -arch that runs them all (family-specific, sm_XXf,
 * when an input is and -arch is plain), their one texmode, and
 * 'debug' if an input's has it (unless --strip-debug); one .address_size;
 * and which inputs carry -G DWARF. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "linker.h"

/* ---- headers ---- */

Stmt *find_item(Module *m, StmtKind kind)
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

/* ptxas 13's rule, checked against it for every pair of its -arch values
 * (PTX ISA, "Target Directive"): PTX for a plain target runs on that GPU
 * and every later one; for a family-specific one (sm_100f) on the later
 * members of its family, the same major number (sm_100, sm_103, and
 * their a and f targets, not sm_110); for an architecture-specific one
 * (sm_90a) on that GPU alone. */
static int arch_runs(Arch ptx, Arch gpu)
{
	if (ptx.suffix == 'a')
		return ptx.num == gpu.num && gpu.suffix == 'a';
	if (ptx.suffix == 'f' && ptx.num / 10 != gpu.num / 10)
		return 0;
	return gpu.num >= ptx.num;
}

int link_arch_runs(const char *ptx, const char *gpu)
{
	Arch p, g;
	return parse_arch(ptx, &p) == 0 && parse_arch(gpu, &g) == 0 && arch_runs(p, g);
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

/* -arch=sm_100 for a family-specific input is .target sm_100f: the
 * plain target would refuse the family's instructions. */
static const char *with_family(const char *arch, Arch want, int family)
{
	if (!family || want.suffix)
		return intern_cstr(arch);
	char buf[32];
	snprintf(buf, sizeof buf, "%sf", arch);
	return intern_cstr(buf);
}

static const char *pick_arch(Linker *l, Stmt **targets)
{
	Arch want = {0};
	int family = 0;
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
		family |= a.suffix == 'f';
		if (l->o->arch) {
			if (!arch_runs(a, want)) {
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
	return l->o->arch ? with_family(l->o->arch, want, family) : targets[0]->list.items[0]->str;
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
	if (a.suffix == 'f' && v < 8008)
		v = 8008;  /* family targets with PTX 8.8 (ptxas 13 refuses .version 8.6 sm_100f) */
	return v;
}

const char *link_ptx_version(const char *arch, const char *have)
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

int make_header(Linker *l)
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
	const char *version = link_ptx_version(arch, best->strs.strs[0]);
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
