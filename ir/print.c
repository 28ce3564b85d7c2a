/* Canonical PTX printer.  Spellings come from the IR (numbers as written,
 * instruction spellings whole), so parse+print keeps every token's meaning;
 * only layout and comments change. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "ir.h"

/* A source location a .loc has given: ptxas rejects an inlined_at that
 * names one no earlier .loc of the module gave. */
typedef struct SeenLoc {
	uint32_t key[3];   /* file, line, column */
	UT_hash_handle hh;
} SeenLoc;

/* A buffer of our own in front of stdio: printing is a stream of short
 * strings, and going through fputs for each was a sixth of a round trip. */
typedef struct Out {
	FILE *f;
	SeenLoc *seen;     /* the locations printed .loc lines gave */
	Arena *arena;      /* holds seen */
	size_t n;
	char buf[1 << 16];
} Out;

static void flush(Out *o)
{
	fwrite(o->buf, 1, o->n, o->f);
	o->n = 0;
}

static void outn(Out *o, const char *s, size_t n)
{
	if (o->n + n > sizeof o->buf) {
		flush(o);
		if (n > sizeof o->buf) {
			fwrite(s, 1, n, o->f);
			return;
		}
	}
	memcpy(o->buf + o->n, s, n);
	o->n += n;
}

static void puts_(Out *o, const char *s)
{
	outn(o, s, strlen(s));
}

/* An interned string knows its length: names and spellings are most of
 * the output, and strlen on each was a tenth of printing. */
static void put_interned(Out *o, const char *s)
{
	outn(o, s, intern_len(s));
}

static void putc_(Out *o, char c)
{
	if (o->n == sizeof o->buf)
		flush(o);
	o->buf[o->n++] = c;
}

static void printf_(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void printf_(Out *o, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < (int)sizeof tmp) {
		outn(o, tmp, (size_t)n);
		return;
	}
	flush(o);
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
}

static void indent(Out *f, int depth)
{
	while (depth-- > 0)
		putc_(f, '\t');
}

/* Binding strength of binary operators, as in the grammar. */
static int prec(const Expr *e)
{
	if (e->kind != E_BINARY)
		return 100;
	switch (e->op) {
	case '=': return 1;
	case OP_LOR: return 2;
	case OP_LAND: return 3;
	case '|': return 4;
	case '^': return 5;
	case '&': return 6;
	case OP_EQ: case OP_NE: return 7;
	case '<': case '>': case OP_LE: case OP_GE: return 8;
	case OP_SHL: case OP_SHR: return 9;
	case '+': case '-': return 10;
	default: return 11;  /* * / % */
	}
}

static void expr(Out *f, const Expr *e);

static void print_kid(Out *f, const Expr *kid, int need)
{
	int paren = prec(kid) < need;
	if (paren)
		putc_(f, '(');
	expr(f, kid);
	if (paren)
		putc_(f, ')');
}

static void print_exprs(Out *f, Expr *const *kids, uint32_t n, const char *sep)
{
	size_t seplen = strlen(sep);
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			outn(f, sep, seplen);
		expr(f, kids[i]);
	}
}

/* a+b+c+...: the left operands that need no parentheses by a loop down
 * the chain, which is as deep as it is long, then back up. */
static void binary(Out *f, const Expr *e)
{
	const Expr *local[32], **spine = local;
	uint32_t n = 0, cap = 32;
	for (; e->kind == E_BINARY && (!n || prec(e) >= prec(spine[n - 1])); e = e->kids[0]) {
		spine = stack_grow(spine, local, n, &cap, sizeof *spine);
		spine[n++] = e;
	}
	print_kid(f, e, prec(spine[n - 1]));
	while (n-- > 0) {
		const Expr *b = spine[n];
		/* " % ": "a%b" would scan as a and the register-like name %b */
		puts_(f, b->op == '=' ? " = " : b->op == '%' ? " % " : op_spelling(b->op));
		print_kid(f, b->kids[1], prec(b) + 1);
	}
	if (spine != local)
		free(spine);
}

static void expr(Out *f, const Expr *e)
{
	switch (e->kind) {
	case E_NAME:
	case E_NUM:
		put_interned(f, e->str);
		break;
	case E_UNARY:
		putc_(f, e->op);
		print_kid(f, e->kids[0], 12);
		break;
	case E_BINARY:
		binary(f, e);
		break;
	case E_PAREN:
		putc_(f, '(');
		print_exprs(f, e->kids, e->n, ", ");
		putc_(f, ')');
		break;
	case E_BRACE:
		putc_(f, '{');
		print_exprs(f, e->kids, e->n, ", ");
		putc_(f, '}');
		break;
	case E_ADDR:
		putc_(f, '[');
		print_exprs(f, e->kids, e->n, ", ");
		putc_(f, ']');
		break;
	case E_CALL:
		put_interned(f, expr_fname(e));
		putc_(f, '(');
		print_exprs(f, e->kids, e->n, ", ");
		putc_(f, ')');
		break;
	default:
		die("print_expr: bad kind %d", e->kind);
	}
}

static void print_specs(Out *f, const Spec *specs, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			putc_(f, ' ');
		puts_(f, specs[i].word);
		if (specs[i].num) {
			putc_(f, ' ');
			puts_(f, specs[i].num);
		}
		if (specs[i].args) {
			putc_(f, '(');
			print_exprs(f, specs[i].args, specs[i].nargs, ", ");
			putc_(f, ')');
		}
	}
}

static void print_declarator(Out *f, const Declarator *d)
{
	puts_(f, d->name);
	if (d->count)
		printf_(f, "<%s>", d->count);
	for (uint32_t i = 0; i < d->ndims; i++) {
		putc_(f, '[');
		if (d->dims[i])
			expr(f, d->dims[i]);
		putc_(f, ']');
	}
	if (d->init) {
		puts_(f, " = ");
		expr(f, d->init);
	}
}

static void print_decl(Out *f, const Decl *d)
{
	print_specs(f, d->specs, d->nspecs);
	putc_(f, d->nspecs ? '\t' : ' ');
	for (uint32_t i = 0; i < d->nds; i++) {
		if (i)
			puts_(f, ", ");
		print_declarator(f, &d->ds[i]);
	}
}

/* (decl, decl) for parameter lists; one per line when 'lines'. */
static void print_params(Out *f, const Decl *ds, uint32_t n, int lines)
{
	puts_(f, lines && n ? "(\n" : "(");
	for (uint32_t i = 0; i < n; i++) {
		if (lines)
			putc_(f, '\t');
		print_decl(f, &ds[i]);
		if (i + 1 < n)
			puts_(f, lines ? ",\n" : ", ");
	}
	puts_(f, lines && n ? "\n)" : ")");
}

static void print_list(Out *f, const List *l, int depth);

static void print_ins(Out *f, const Ins *in)
{
	if (in->guard) {
		puts_(f, in->guard_neg ? "@!" : "@");
		puts_(f, in->guard);
		putc_(f, ' ');
	}
	put_interned(f, in->sp->text);
	if (in->nops) {
		puts_(f, " \t");
		print_exprs(f, in->ops, in->nops, ", ");
	}
	puts_(f, ";\n");
}

/* Whether a .loc has given file:line:col; it has from now on. */
static int seen_loc(Out *f, uint32_t file, uint32_t line, uint32_t col)
{
	uint32_t key[3] = {file, line, col};
	SeenLoc *e;
	HASH_FIND(hh, f->seen, key, sizeof key, e);
	if (e)
		return 1;
	e = arena_alloc(f->arena, sizeof *e);
	memcpy(e->key, key, sizeof key);
	HASH_ADD(hh, f->seen, key, sizeof e->key, e);
	return 0;
}

/* A stage that removes code removes its .loc lines with it, and a later
 * inlined_at may name the location only such a line gave (NVVM gives a
 * loop's line once, then names it from each inlined copy; the copies
 * reroll folds into one and the blocks fold finds dead go).  ptxas
 * wants that location seen first, anywhere earlier in the module: a
 * plain .loc of it, just before, says no more than the one that went. */
static void print_loc(Out *f, const LocInfo *li, int depth)
{
	if (li->has_inlined && !seen_loc(f, li->in_file, li->in_line, li->in_col)) {
		printf_(f, ".loc\t%u %u %u\n", li->in_file, li->in_line, li->in_col);
		indent(f, depth);
	}
	seen_loc(f, li->file, li->line, li->col);
	printf_(f, ".loc\t%u %u %u", li->file, li->line, li->col);
	if (li->function_name)
		printf_(f, ", function_name %s", li->function_name);
	if (li->has_inlined)
		printf_(f, ", inlined_at %u %u %u", li->in_file, li->in_line, li->in_col);
	putc_(f, '\n');
}

static void print_proto(Out *f, const Proto *p)
{
	printf_(f, "%s: .callprototype ", p->label);
	if (p->has_rets) {
		print_params(f, p->rets, p->nrets, 0);
		putc_(f, ' ');
	}
	puts_(f, p->name);
	putc_(f, ' ');
	print_params(f, p->params, p->nparams, 0);
	puts_(f, ";\n");
}

static void print_func(Out *f, const Func *fn)
{
	print_specs(f, fn->specs, fn->nspecs);
	if (fn->nspecs)
		putc_(f, ' ');
	puts_(f, fn->is_entry ? ".entry " : ".func ");
	if (fn->nfspecs) {
		print_specs(f, fn->fspecs, fn->nfspecs);
		putc_(f, ' ');
	}
	if (fn->has_rets) {
		print_params(f, fn->rets, fn->nrets, 0);
		putc_(f, ' ');
	}
	puts_(f, fn->name);
	if (fn->has_params)
		print_params(f, fn->params, fn->nparams, 1);
	for (uint32_t i = 0; i < fn->nattrs; i++) {
		printf_(f, "\n%s", fn->attrs[i].word);
		for (uint32_t j = 0; j < fn->attrs[i].nnums; j++)
			printf_(f, "%s%s", j ? ", " : " ", fn->attrs[i].nums[j]);
	}
	if (!fn->has_body) {
		puts_(f, ";\n");
		return;
	}
	puts_(f, "\n{\n");
	print_list(f, &fn->body, 1);
	puts_(f, "}\n");
}

static void print_stmt(Out *f, const Stmt *s, int depth)
{
	if (s->kind != S_LABEL)
		indent(f, depth);
	switch (s->kind) {
	case S_VERSION:
		printf_(f, ".version %s\n", s->strs.strs[0]);
		break;
	case S_ADDRSIZE:
		printf_(f, ".address_size %s\n", s->strs.strs[0]);
		break;
	case S_TARGET:
		puts_(f, ".target ");
		print_exprs(f, s->list.items, s->list.nitems, ", ");
		putc_(f, '\n');
		break;
	case S_FILE:
		printf_(f, ".file\t%s %s", s->file.index, s->file.path);
		if (s->file.timestamp)
			printf_(f, ", %s", s->file.timestamp);
		if (s->file.size)
			printf_(f, ", %s", s->file.size);
		putc_(f, '\n');
		break;
	case S_SECTION:
		printf_(f, ".section\t%s\n{\n", s->section.name);
		print_list(f, &s->section.items, 0);
		puts_(f, "}\n");
		break;
	case S_DATA:
		printf_(f, "%s ", s->list.word);
		print_exprs(f, s->list.items, s->list.nitems, ",");
		putc_(f, '\n');
		break;
	case S_PRAGMA:
		puts_(f, ".pragma ");
		for (uint32_t i = 0; i < s->strs.nstrs; i++)
			printf_(f, "%s%s", i ? ", " : "", s->strs.strs[i]);
		puts_(f, ";\n");
		break;
	case S_ALIAS:
		puts_(f, ".alias ");
		print_exprs(f, s->list.items, s->list.nitems, ", ");
		puts_(f, ";\n");
		break;
	case S_TARGETS:
		printf_(f, "%s: %s ", s->list.label, s->list.word);
		print_exprs(f, s->list.items, s->list.nitems, ", ");
		puts_(f, ";\n");
		break;
	case S_VAR:
		print_decl(f, &s->var);
		puts_(f, ";\n");
		break;
	case S_FUNC:
		print_func(f, s->func);
		break;
	case S_INS:
		print_ins(f, &s->ins);
		break;
	case S_LABEL:
		printf_(f, "%s:\n", s->label);
		break;
	case S_LOC:
		print_loc(f, s->locinfo, depth);
		break;
	case S_SCOPE:
		puts_(f, "{\n");
		print_list(f, &s->scope, depth + 1);   /* recursive: indented, between braces */
		indent(f, depth);
		puts_(f, "}\n");
		break;
	case S_PROTO:
		print_proto(f, s->proto);
		break;
	default:
		die("print_stmt: bad kind %d", s->kind);
	}
}

static void print_list(Out *f, const List *l, int depth)
{
	for (const Stmt *s = l->head; s; s = s->next)
		print_stmt(f, s, depth);
}

static void module(Out *f, const Module *m)
{
	for (const Stmt *s = m->items.head; s; s = s->next) {
		if (s->kind == S_FUNC || s->kind == S_SECTION)
			putc_(f, '\n');
		print_stmt(f, s, 0);
	}
}

void print_module(FILE *f, const Module *m)
{
	Out *o = xmalloc(sizeof *o);
	o->f = f;
	o->n = 0;
	o->seen = NULL;
	o->arena = arena_new();
	module(o, m);
	flush(o);
	HASH_CLEAR(hh, o->seen);   /* its table is uthash's own; the entries the arena's */
	arena_free(o->arena);
	free(o);
}

void print_expr(FILE *f, const Expr *e)
{
	Out o;
	o.f = f;
	o.n = 0;
	o.seen = NULL;
	o.arena = NULL;
	expr(&o, e);
	flush(&o);
}
