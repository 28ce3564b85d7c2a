/* symbols.c: step 2 of a link, nvlink's symbol rules: each input's
 * module-scope names (collect_symbols), the definition that wins for each
 * name with linkage (resolve), every other declaration's agreement with it
 * (check_agreement), fresh names for internal ones that collide
 * (rename_internals), and the largest alignment for .common and dynamic
 * .shared variables (widen_alignments). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "linker.h"

/* ---- symbols ---- */

Sym *lookup(Linker *l, int mod, const char *name)
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

void collect_symbols(Linker *l, int mod)
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

void widen_alignments(Linker *l)
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

void resolve(Linker *l)
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
	int decl_may_align_more;   /* a declaration's parameters, not a definition's */
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
/* Linkage words, and the declaration's own .align (compared apart), are
 * not part of what must be the same; an .align after .ptr is the
 * pointee's and is. */
static int ignored(const Spec *s, int *after_ptr)
{
	if (s->kind == SW_SPEC && s->id == SPEC_ptr)
		*after_ptr = 1;
	return s->kind == SW_LINK || (!*after_ptr && s->kind == SW_SPEC && s->id == SPEC_align);
}

static int same_specs(const Decl *a, const Decl *b)
{
	uint32_t i = 0, j = 0;
	int pa = 0, pb = 0;
	for (;;) {
		while (i < a->nspecs && ignored(&a->specs[i], &pa))
			i++;
		while (j < b->nspecs && ignored(&b->specs[j], &pb))
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
	/* nvcc declares a float4 result .align 16 where its own definition of
	 * the .visible function says .align 4: nvlink takes it, and
	 * widen_param_alignments makes the definition say 16 */
	int has = align_written(a), want = align_written(b);
	if (has < want || (has > want && !c->decl_may_align_more))
		return align_clash(c, who, has, want);
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
void check_agreement(Linker *l, Module *m)
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
		Clash c = {.decl_may_align_more = s->kind == S_FUNC && !s->func->has_body};
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
	char *buf = xmalloc(strlen(name) + 32);
	const char *s;
	sprintf(buf, "%s$m%d", name, mod);
	for (int k = 2; names_exact(&l->taken, s = intern_cstr(buf)); k++)
		sprintf(buf, "%s$m%d_%d", name, mod, k);
	free(buf);
	return s;
}

void rename_internals(Linker *l)
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

/* ---- parameters aligned as a declaration promised ---- */

/* A declaration may promise a parameter or result more alignment than
 * its definition writes (nvcc: a float4 result .align 16 in the callers'
 * files, .align 4 in the definer's).  nvlink takes it, but in one module
 * ptxas wants each call's argument aligned exactly as the formal is
 * ("Alignment of argument does not match formal parameter").  So the
 * formal takes the largest alignment promised, and every call's argument
 * is declared so: more alignment than needed loses nothing. */
static int widen_formals(Linker *l, Decl *def, const Decl *decl, uint32_t n)
{
	int widened = 0;
	for (uint32_t i = 0; i < n; i++)
		if (align_written(&decl[i]) > align_written(&def[i])) {
			decl_set_align(l->out, &def[i], (uint32_t)align_written(&decl[i]));
			widened = 1;
		}
	return widened;
}

static Decl *arg_decl(const BodyIt *it, const char *name)
{
	Stmt *s = body_var(it, name);
	return s ? &s->var : NULL;
}

static void align_args(Linker *l, const BodyIt *sc, const Expr *list, const Decl *formal, uint32_t n)
{
	for (uint32_t i = 0; list && i < list->n && i < n; i++) {
		Decl *d = list->kids[i]->kind == E_NAME ? arg_decl(sc, list->kids[i]->str) : NULL;
		if (d && align_written(d) && align_written(d) < align_written(&formal[i]))
			decl_set_align(l->out, d, (uint32_t)align_written(&formal[i]));
	}
}

static void align_calls(Linker *l, int mod, List *body)
{
	BodyIt it;
	CallParts c;
	for (Stmt *s = body_first_call(body, &it, &c); s; s = body_next_call(&it, &c)) {
		if (!c.whole || c.proto)
			continue;
		Sym *y = lookup(l, mod, c.callee->str);
		if (!y || !y->g || !y->g->widened)
			continue;
		const Func *f = y->g->def->def->func;
		align_args(l, &it, c.rets, f->rets, f->nrets);
		align_args(l, &it, c.args, f->params, f->nparams);
	}
}

void widen_param_alignments(Linker *l)
{
	int any = 0;
	for (int m = 0; m < l->n; m++)
		for (Stmt *s = l->mods[m]->items.head; s; s = s->next) {
			Sym *y = s->kind == S_FUNC && !s->func->has_body ? lookup(l, m, s->func->name) : NULL;
			if (!y || !y->g || !y->g->def || y->g->def->def->kind != S_FUNC ||
			    y->g->def->def == s)
				continue;
			Func *def = y->g->def->def->func;
			const Func *decl = s->func;
			if (decl->nrets != def->nrets || decl->nparams != def->nparams)
				continue;   /* check_agreement said it */
			int w = widen_formals(l, def->rets, decl->rets, def->nrets);
			w |= widen_formals(l, def->params, decl->params, def->nparams);
			if (w)
				y->g->widened = any = 1;
		}
	for (int m = 0; any && m < l->n; m++)
		for (Stmt *s = l->mods[m]->items.head; s; s = s->next)
			if (s->kind == S_FUNC && s->func->has_body)
				align_calls(l, m, &s->func->body);
}
