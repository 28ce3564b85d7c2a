/* IR constructors for the grammar's actions, with the checks that need
 * the opcode table or the known directive words. */
#include <stdlib.h>
#include <string.h>
#include "build.h"

/* Lists are short-lived and many (one per operand list): they are
 * recycled through the parse's free list rather than malloc'ed anew. */
Vec *vec_new(struct ParseState *ps)
{
	Vec *v = ps->free_vecs;
	if (v) {
		ps->free_vecs = v->next;
		v->n = 0;
		return v;
	}
	v = xcalloc(1, sizeof *v);
	return v;
}

Vec *vec_push(Vec *v, void *p)
{
	v->v = array_grow(v->v, v->n, &v->cap, sizeof *v->v);
	v->v[v->n++] = p;
	return v;
}

void vec_free(struct ParseState *ps, Vec *v)
{
	if (v) {
		v->next = ps->free_vecs;
		ps->free_vecs = v;
	}
}

void vec_release_all(struct ParseState *ps)
{
	for (Vec *v = ps->free_vecs, *next; v; v = next) {
		next = v->next;
		free(v->v);
		free(v);
	}
	ps->free_vecs = NULL;
}

void **vec_finish(struct ParseState *ps, Vec *v, uint32_t *n)
{
	*n = 0;
	if (!v)
		return NULL;
	void **a = arena_dup(ps->m->arena, v->v, v->n * sizeof *v->v);
	*n = v->n;
	vec_free(ps, v);
	return a;
}

/* error() that counts toward the parse's limit, like ps_error(): without
 * it a file of bad instructions would print every one of them. */
static void build_error(struct ParseState *ps, Loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void build_error(struct ParseState *ps, Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ps_verror(ps, loc, fmt, ap);
	va_end(ap);
}

/* Specs, Declarators, Decls and FuncAttrs are built in ps->tmp and copied
 * into the module's arrays once their statement is complete.  A Spec or
 * FuncAttr keeps its word's location there, for what decl_set or
 * func_set_attrs finds wrong with it. */
typedef struct SpecAt {
	Spec spec;
	Loc loc;
} SpecAt;

typedef struct FuncAttrAt {
	FuncAttr attr;
	Loc loc;
} FuncAttrAt;

Spec *mk_spec(struct ParseState *ps, Loc loc, const char *word, const char *num, Vec *args)
{
	const char *w = intern_cstr(word);
	if (!num && !args && !spec_known(w))
		build_error(ps, loc, "unknown directive '%s'", word);
	SpecAt *s = arena_alloc(ps->tmp, sizeof *s);
	uint32_t n;
	Expr **a = (Expr **)vec_finish(ps, args, &n);
	s->spec = spec_make(w, num, a, n);
	s->loc = loc;
	return &s->spec;
}

/* Words may come glued, as CUDA's inline asm writes ".reg.b16" and
 * ".ptr.global.align 16"; a number after them belongs to a final .align. */
Vec *add_spec_words(struct ParseState *ps, Vec *specs, Loc loc, const char *word, const char *num)
{
	const char *p = word;
	while (*p) {
		const char *q = strchr(p + 1, '.');
		size_t n = q ? (size_t)(q - p) : strlen(p);
		const char *w = intern(p, n);
		p += n;
		Spec *s = mk_spec(ps, loc, w, NULL, NULL);
		int takes_num = !*p && num && s->kind == SW_SPEC && s->id == SPEC_align;
		s->num = takes_num ? num : NULL;
		vec_push(specs, s);
		if (!*p && num && !takes_num && s->kind != SW_UNKNOWN)
			build_error(ps, loc, "unexpected number after '%s'", w);
	}
	return specs;
}

/* What ptxas would refuse in the words (.v8, .v4 .b64, .align 3) is
 * reported at the word. */
Decl *mk_decl(struct ParseState *ps, Vec *specs, Vec *declarators)
{
	Decl *d = arena_alloc(ps->tmp, sizeof *d);
	Spec *a = arena_alloc(ps->m->arena, specs->n * sizeof *a);
	for (uint32_t i = 0; i < specs->n; i++)
		a[i] = *(Spec *)specs->v[i];
	DeclProblem p;
	if (!decl_set(d, a, specs->n, &p))
		build_error(ps, ((SpecAt *)specs->v[p.at])->loc, "%s", p.why);
	vec_free(ps, specs);
	d->ds = arena_alloc(ps->m->arena, declarators->n * sizeof *d->ds);
	for (uint32_t i = 0; i < declarators->n; i++)
		d->ds[i] = *(Declarator *)declarators->v[i];
	d->nds = declarators->n;
	vec_free(ps, declarators);
	return d;
}

Stmt *var_stmt(struct ParseState *ps, Loc loc, Decl *d)
{
	Stmt *s = stmt_new(ps->m, S_VAR, loc);
	s->var = *d;
	return s;
}

Declarator *mk_declarator(struct ParseState *ps, Loc loc, const char *name,
	const char *count, Vec *dims, Expr *init)
{
	Declarator *d = arena_alloc(ps->tmp, sizeof *d);
	d->name = name;
	d->count = count;
	d->dims = (Expr **)vec_finish(ps, dims, &d->ndims);
	d->init = init;
	d->loc = loc;
	return d;
}

/* A list of Decl pointers becomes an array of Decls. */
static Decl *decls(struct ParseState *ps, Vec *v, uint32_t *n)
{
	*n = 0;
	if (!v)
		return NULL;
	Decl *a = arena_alloc(ps->m->arena, (v->n ? v->n : 1) * sizeof *a);
	for (uint32_t i = 0; i < v->n; i++)
		a[i] = *(Decl *)v->v[i];
	*n = v->n;
	vec_free(ps, v);
	return a;
}

static Spec *specs_array(struct ParseState *ps, Vec *v, uint32_t *n)
{
	*n = 0;
	if (!v)
		return NULL;
	Spec *a = arena_alloc(ps->m->arena, v->n * sizeof *a);
	for (uint32_t i = 0; i < v->n; i++)
		a[i] = *(Spec *)v->v[i];
	*n = v->n;
	vec_free(ps, v);
	return a;
}

/* .align.visible, one word: ptxas refuses it, and printed apart it would
 * read as .align missing its number (a declaration's words say so in
 * decl_set). */
static void check_func_specs(struct ParseState *ps, const Vec *specs)
{
	for (uint32_t i = 0; specs && i < specs->n; i++) {
		const SpecAt *s = specs->v[i];
		if (s->spec.kind == SW_SPEC && s->spec.id == SPEC_align && !s->spec.num)
			build_error(ps, s->loc, "'%s' without its number", s->spec.word);
	}
}

Func *mk_func(struct ParseState *ps, Vec *specs, int entry, Vec *fspecs, Vec *rets,
	const char *name, Vec *params, Vec *fattrs)
{
	Func *f = arena_alloc(ps->m->arena, sizeof *f);
	uint32_t n;
	check_func_specs(ps, specs);
	Spec *words = specs_array(ps, specs, &n);
	func_set_specs(f, words, n);
	f->is_entry = entry;
	f->layout_kept = (uint8_t)ps->layout_kept;
	f->fspecs = specs_array(ps, fspecs, &f->nfspecs);
	f->has_rets = rets != NULL;
	f->rets = decls(ps, rets, &f->nrets);
	f->name = name;
	f->has_params = params != NULL;
	f->params = decls(ps, params, &f->nparams);
	FuncAttr **a = (FuncAttr **)vec_finish(ps, fattrs, &n);
	FuncAttr *attrs = arena_alloc(ps->m->arena, (n ? n : 1) * sizeof *attrs);
	for (uint32_t i = 0; i < n; i++)
		attrs[i] = *a[i];
	DeclProblem p;
	if (!func_set_attrs(f, attrs, n, &p))
		build_error(ps, ((FuncAttrAt *)a[p.at])->loc, "%s", p.why);
	return f;
}

Stmt *func_stmt(struct ParseState *ps, Loc loc, Func *f)
{
	Stmt *s = stmt_new(ps->m, S_FUNC, loc);
	s->func = f;
	return s;
}

FuncAttr *mk_fattr(struct ParseState *ps, Loc loc, const char *word, Vec *nums)
{
	int id = fattr_of(word);
	if (id == FA_UNKNOWN)
		build_error(ps, loc, "unknown function directive '%s'", word);
	FuncAttrAt *a = arena_alloc(ps->tmp, sizeof *a);
	a->attr.word = word;
	a->attr.id = (uint8_t)id;
	a->attr.nums = (const char **)vec_finish(ps, nums, &a->attr.nnums);
	a->loc = loc;
	return &a->attr;
}

Stmt *mk_strs(struct ParseState *ps, StmtKind kind, Loc loc, const char *str)
{
	Stmt *s = stmt_new(ps->m, kind, loc);
	s->strs.strs = arena_dup(ps->m->arena, &str, sizeof str);
	s->strs.nstrs = 1;
	return s;
}

Stmt *mk_pragma(struct ParseState *ps, Loc loc, Vec *strs)
{
	Stmt *s = stmt_new(ps->m, S_PRAGMA, loc);
	s->strs.strs = (const char **)vec_finish(ps, strs, &s->strs.nstrs);
	return s;
}

Stmt *mk_list(struct ParseState *ps, StmtKind kind, Loc loc, const char *label,
	const char *word, Vec *items)
{
	Stmt *s = stmt_new(ps->m, kind, loc);
	s->list.label = label;
	s->list.word = intern_cstr(word);
	s->list.items = (Expr **)vec_finish(ps, items, &s->list.nitems);
	return s;
}

Stmt *mk_alias(struct ParseState *ps, Loc loc, const char *a, const char *b)
{
	Vec *v = vec_push(vec_push(vec_new(ps), name_expr(a)), name_expr(b));
	return mk_list(ps, S_ALIAS, loc, NULL, ".alias", v);
}

Stmt *mk_file(struct ParseState *ps, Loc loc, const char *idx, const char *path,
	const char *ts, const char *size)
{
	Stmt *s = stmt_new(ps->m, S_FILE, loc);
	s->file.index = idx;
	s->file.path = path;
	s->file.timestamp = ts;
	s->file.size = size;
	return s;
}

Stmt *mk_section(struct ParseState *ps, Loc loc, const char *name, List items)
{
	Stmt *s = stmt_new(ps->m, S_SECTION, loc);
	s->section.name = name;
	s->section.items = items;
	return s;
}

Stmt *mk_label(struct ParseState *ps, Loc loc, const char *name)
{
	Stmt *s = stmt_new(ps->m, S_LABEL, loc);
	s->label = name;
	return s;
}

Stmt *mk_proto(struct ParseState *ps, Loc loc, const char *label, Vec *rets,
	const char *name, Vec *params)
{
	Stmt *s = stmt_new(ps->m, S_PROTO, loc);
	Proto *p = arena_alloc(ps->m->arena, sizeof *p);
	p->label = label;
	p->has_rets = rets != NULL;
	p->rets = decls(ps, rets, &p->nrets);
	p->name = name;
	p->params = decls(ps, params, &p->nparams);
	s->proto = p;
	return s;
}

Stmt *mk_scope(struct ParseState *ps, Loc loc, List body)
{
	Stmt *s = stmt_new(ps->m, S_SCOPE, loc);
	s->scope = body;
	return s;
}

static void check_operands(struct ParseState *ps, Loc loc, const Spelling *sp, uint32_t n)
{
	const Opcode *op = sp->op;
	if (n >= op->minops && n <= op->maxops)
		return;
	if (op->minops == op->maxops)
		build_error(ps, loc, "'%s' takes %u operand%s, not %u", sp->text, op->minops,
			op->minops == 1 ? "" : "s", n);
	else
		build_error(ps, loc, "'%s' takes %u to %u operands, not %u", sp->text, op->minops,
			op->maxops, n);
}

Stmt *mk_ins(struct ParseState *ps, Loc loc, const char *guard, int neg,
	const char *opcode, Loc oploc, Vec *ops)
{
	Stmt *s = stmt_new(ps->m, S_INS, loc);
	const Spelling *sp = spelling_of(opcode);
	s->ins.sp = sp;
	s->ins.guard = guard;
	s->ins.guard_neg = neg;
	s->ins.ops = (Expr **)vec_finish(ps, ops, &s->ins.nops);
	if (!sp->op)
		build_error(ps, oploc, "unknown instruction '%s'", sp->base);
	else
		check_operands(ps, oploc, sp, s->ins.nops);
	return s;
}

/* .loc numbers are plain decimal integers. */
static uint32_t loc_number(struct ParseState *ps, Loc loc, const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (*end || v > UINT32_MAX) {
		build_error(ps, loc, "expected a decimal integer in .loc, not '%s'", s);
		return 0;
	}
	return (uint32_t)v;
}

Stmt *mk_loc(struct ParseState *ps, Loc loc, const char *file, Loc floc,
	const char *line, Loc lloc, const char *col, Loc cloc)
{
	Stmt *s = stmt_new(ps->m, S_LOC, loc);
	LocInfo *li = arena_alloc(ps->m->arena, sizeof *li);
	li->file = loc_number(ps, floc, file);
	li->line = loc_number(ps, lloc, line);
	li->col = loc_number(ps, cloc, col);
	s->locinfo = li;
	return s;
}

Stmt *loc_funcname(struct ParseState *ps, Stmt *s, Loc loc, const char *kw, const char *name)
{
	if (strcmp(kw, "function_name") != 0)
		build_error(ps, loc, "expected 'function_name' or 'inlined_at' in .loc, not '%s'", kw);
	s->locinfo->function_name = name;
	return s;
}

Stmt *loc_inlined(struct ParseState *ps, Stmt *s, Loc loc, const char *kw,
	const char *file, Loc floc, const char *line, Loc lloc, const char *col, Loc cloc)
{
	if (strcmp(kw, "inlined_at") != 0)
		build_error(ps, loc, "expected 'function_name' or 'inlined_at' in .loc, not '%s'", kw);
	LocInfo *li = s->locinfo;
	li->has_inlined = 1;
	li->in_file = loc_number(ps, floc, file);
	li->in_line = loc_number(ps, lloc, line);
	li->in_col = loc_number(ps, cloc, col);
	return s;
}

/* Kids are copied straight from the Vec into the node. */
Expr *mk_exprs(struct ParseState *ps, ExprKind kind, Vec *v)
{
	Expr *e = expr_list(ps->m, kind, v ? (Expr **)v->v : NULL, v ? v->n : 0);
	vec_free(ps, v);
	return e;
}

Expr *mk_callexpr(struct ParseState *ps, const char *name, Vec *v)
{
	Expr *e = expr_call(ps->m, name, v ? (Expr **)v->v : NULL, v ? v->n : 0);
	vec_free(ps, v);
	return e;
}
