/* rewrite.c: step 3 of a link, every input rewritten to the output's
 * names: references follow the renames of step 2 (rename_module, which
 * also notes each global's first use), .file numbers are merged and .loc
 * renumbered (merge_files, which has dwarf.c merge -G DWARF), names that
 * DWARF takes from inside functions are made unique (rename_section_locals)
 * and offsets into sections moved by where each input's part starts
 * (section_bases). */
#include <stdlib.h>
#include <string.h>
#include "linker.h"

/* .file numbers are any 32-bit value (ptxas takes .file 4294967295), so
 * a module's renumbering is a sorted list, not an array indexed by them. */
struct FileNum {
	uint32_t old, to;
	uint32_t seq;          /* its .file among the module's: a later one wins */
};

/* Module k's part of a merged section starts where the parts of modules
 * before it end: its offsets into the section (.debug_loc+289) move by that.
 * Per section, the modules that have a part, in order, each with where
 * its part ends. */
typedef struct Part {
	int mod;
	uint64_t end;
} Part;

struct SectionBase {
	UT_hash_handle hh;
	const char *name;
	Part *parts;
	uint32_t n, cap;
};

/* ---- rewriting references ---- */

typedef struct Walk {
	Linker *l;
	int mod;
	Loc loc;
	const Func *fn;   /* the function being walked, or NULL */
} Walk;

static void note_use(Walk *w, Sym *s)
{
	if (!s->g)
		return;
	if (!s->g->used) {
		s->g->used = 1;
		s->g->first_use = w->loc;
		s->g->first_use_in = w->fn;
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
void enter_func(Linker *l, const Func *f)
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
	BodyIt it;
	for (Stmt *s = body_first(body, &it); s; s = body_next(&it)) {
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

/* Where the parts of the modules before mod end: the last such part's end. */
static uint64_t section_base(const Linker *l, int mod, const char *name)
{
	SectionBase *sb;
	HASH_FIND_PTR(l->sections, &name, sb);
	uint32_t lo = 0, hi = sb ? sb->n : 0;
	while (lo < hi) {  /* the first part of mod or after it */
		uint32_t mid = (lo + hi) / 2;
		if (sb->parts[mid].mod < mod)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? sb->parts[lo - 1].end : 0;
}

/* Sections merge in input order: each input's part of one starts where
 * the earlier inputs' parts end. */
void section_bases(Linker *l)
{
	for (int m = 0; m < l->n; m++)
		for (Stmt *s = l->mods[m]->items.head; s; s = s->next) {
			if (s->kind != S_SECTION)
				continue;
			SectionBase *sb;
			HASH_FIND_PTR(l->sections, &s->section.name, sb);
			if (!sb) {
				sb = xcalloc(1, sizeof *sb);
				sb->name = s->section.name;
				HASH_ADD_PTR(l->sections, name, sb);
			}
			if (!sb->n || sb->parts[sb->n - 1].mod != m) {
				uint64_t end = sb->n ? sb->parts[sb->n - 1].end : 0;
				sb->parts = array_grow(sb->parts, sb->n, &sb->cap, sizeof *sb->parts);
				sb->parts[sb->n++] = (Part){m, end};
			}
			sb->parts[sb->n - 1].end += dwarf_section_size(s);
		}
}

void free_sections(Linker *l)
{
	SectionBase *sb, *tmp;
	HASH_ITER(hh, l->sections, sb, tmp) {
		HASH_DEL(l->sections, sb);
		free(sb->parts);
		free(sb);
	}
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

void rename_module(Linker *l, int mod)
{
	Walk w = {l, mod, {0}, NULL};
	for (Stmt *s = l->mods[mod]->items.head; s; s = s->next) {
		w.loc = s->loc;
		switch (s->kind) {
		case S_FUNC:
			w.fn = s->func;
			rename_func(&w, s->func);
			w.fn = NULL;
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
	char *buf = xmalloc(strlen(name) + 32);
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
	BodyIt it;
	for (Stmt *s = body_first(body, &it); s; s = body_next(&it))
		switch (s->kind) {
		case S_INS: rename_map_exprs(map, s->ins.ops, s->ins.nops); break;
		case S_VAR: rename_map_decls(map, &s->var, 1); break;
		case S_LABEL: s->label = renamed(map, s->label); break;
		case S_PROTO: s->proto->label = renamed(map, s->proto->label); break;
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

void rename_section_locals(Linker *l)
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
			l->files = xreallocarray(l->files, l->nfiles + 1, sizeof *l->files);
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
void merge_files(Linker *l)
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
