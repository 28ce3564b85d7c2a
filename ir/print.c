/* Canonical PTX printer.  Spellings come from the IR (numbers as written,
 * instruction spellings whole), so parse+print keeps every token's meaning;
 * only layout and comments change. */
#include <string.h>
#include "ir.h"

static void puts_(FILE *f, const char *s)
{
	fputs(s, f);
}

static void indent(FILE *f, int depth)
{
	while (depth-- > 0)
		putc('\t', f);
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

static void print_kid(FILE *f, const Expr *kid, int need)
{
	int paren = prec(kid) < need;
	if (paren)
		putc('(', f);
	print_expr(f, kid);
	if (paren)
		putc(')', f);
}

static void print_exprs(FILE *f, Expr *const *kids, uint32_t n, const char *sep)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			puts_(f, sep);
		print_expr(f, kids[i]);
	}
}

void print_expr(FILE *f, const Expr *e)
{
	switch (e->kind) {
	case E_NAME:
	case E_NUM:
		puts_(f, e->str);
		break;
	case E_UNARY:
		putc(e->op, f);
		print_kid(f, e->kids[0], 12);
		break;
	case E_BINARY: {
		int p = prec(e);
		print_kid(f, e->kids[0], p);
		/* " % ": "a%b" would scan as a and the register-like name %b */
		puts_(f, e->op == '=' ? " = " : e->op == '%' ? " % " : op_spelling(e->op));
		print_kid(f, e->kids[1], p + 1);
		break;
	}
	case E_PAREN:
		putc('(', f);
		print_exprs(f, e->kids, e->n, ", ");
		putc(')', f);
		break;
	case E_BRACE:
		putc('{', f);
		print_exprs(f, e->kids, e->n, ", ");
		putc('}', f);
		break;
	case E_ADDR:
		putc('[', f);
		print_exprs(f, e->kids, e->n, ", ");
		putc(']', f);
		break;
	case E_CALL:
		puts_(f, e->fname);
		putc('(', f);
		print_exprs(f, e->kids, e->n, ", ");
		putc(')', f);
		break;
	default:
		die("print_expr: bad kind %d", e->kind);
	}
}

static void print_specs(FILE *f, const Spec *specs, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			putc(' ', f);
		puts_(f, specs[i].word);
		if (specs[i].num) {
			putc(' ', f);
			puts_(f, specs[i].num);
		}
		if (specs[i].args) {
			putc('(', f);
			print_exprs(f, specs[i].args, specs[i].nargs, ", ");
			putc(')', f);
		}
	}
}

static void print_declarator(FILE *f, const Declarator *d)
{
	puts_(f, d->name);
	if (d->count)
		fprintf(f, "<%s>", d->count);
	for (uint32_t i = 0; i < d->ndims; i++) {
		putc('[', f);
		if (d->dims[i])
			print_expr(f, d->dims[i]);
		putc(']', f);
	}
	if (d->init) {
		puts_(f, " = ");
		print_expr(f, d->init);
	}
}

static void print_decl(FILE *f, const Decl *d)
{
	print_specs(f, d->specs, d->nspecs);
	putc(d->nspecs ? '\t' : ' ', f);
	for (uint32_t i = 0; i < d->nds; i++) {
		if (i)
			puts_(f, ", ");
		print_declarator(f, &d->ds[i]);
	}
}

/* (decl, decl) for parameter lists; one per line when 'lines'. */
static void print_params(FILE *f, const Decl *ds, uint32_t n, int lines)
{
	puts_(f, lines && n ? "(\n" : "(");
	for (uint32_t i = 0; i < n; i++) {
		if (lines)
			putc('\t', f);
		print_decl(f, &ds[i]);
		if (i + 1 < n)
			puts_(f, lines ? ",\n" : ", ");
	}
	puts_(f, lines && n ? "\n)" : ")");
}

static void print_list(FILE *f, const List *l, int depth);

static void print_ins(FILE *f, const Ins *in)
{
	if (in->guard) {
		puts_(f, in->guard_neg ? "@!" : "@");
		puts_(f, in->guard);
		putc(' ', f);
	}
	puts_(f, in->sp->text);
	if (in->nops) {
		puts_(f, " \t");
		print_exprs(f, in->ops, in->nops, ", ");
	}
	puts_(f, ";\n");
}

static void print_loc(FILE *f, const LocInfo *li)
{
	fprintf(f, ".loc\t%u %u %u", li->file, li->line, li->col);
	if (li->function_name)
		fprintf(f, ", function_name %s", li->function_name);
	if (li->has_inlined)
		fprintf(f, ", inlined_at %u %u %u", li->in_file, li->in_line, li->in_col);
	putc('\n', f);
}

static void print_proto(FILE *f, const Proto *p)
{
	fprintf(f, "%s: .callprototype ", p->label);
	if (p->has_rets) {
		print_params(f, p->rets, p->nrets, 0);
		putc(' ', f);
	}
	puts_(f, p->name);
	putc(' ', f);
	print_params(f, p->params, p->nparams, 0);
	puts_(f, ";\n");
}

static void print_func(FILE *f, const Func *fn)
{
	print_specs(f, fn->specs, fn->nspecs);
	if (fn->nspecs)
		putc(' ', f);
	puts_(f, fn->is_entry ? ".entry " : ".func ");
	if (fn->nfspecs) {
		print_specs(f, fn->fspecs, fn->nfspecs);
		putc(' ', f);
	}
	if (fn->has_rets) {
		print_params(f, fn->rets, fn->nrets, 0);
		putc(' ', f);
	}
	puts_(f, fn->name);
	if (fn->has_params)
		print_params(f, fn->params, fn->nparams, 1);
	for (uint32_t i = 0; i < fn->nattrs; i++) {
		fprintf(f, "\n%s", fn->attrs[i].word);
		for (uint32_t j = 0; j < fn->attrs[i].nnums; j++)
			fprintf(f, "%s%s", j ? ", " : " ", fn->attrs[i].nums[j]);
	}
	if (!fn->has_body) {
		puts_(f, ";\n");
		return;
	}
	puts_(f, "\n{\n");
	print_list(f, &fn->body, 1);
	puts_(f, "}\n");
}

static void print_stmt(FILE *f, const Stmt *s, int depth)
{
	if (s->kind != S_LABEL)
		indent(f, depth);
	switch (s->kind) {
	case S_VERSION:
		fprintf(f, ".version %s\n", s->strs.strs[0]);
		break;
	case S_ADDRSIZE:
		fprintf(f, ".address_size %s\n", s->strs.strs[0]);
		break;
	case S_TARGET:
		puts_(f, ".target ");
		print_exprs(f, s->list.items, s->list.nitems, ", ");
		putc('\n', f);
		break;
	case S_FILE:
		fprintf(f, ".file\t%s %s", s->file.index, s->file.path);
		if (s->file.timestamp)
			fprintf(f, ", %s, %s", s->file.timestamp, s->file.size);
		putc('\n', f);
		break;
	case S_SECTION:
		fprintf(f, ".section\t%s\n{\n", s->section.name);
		print_list(f, &s->section.items, 0);
		puts_(f, "}\n");
		break;
	case S_DATA:
		fprintf(f, "%s ", s->list.word);
		print_exprs(f, s->list.items, s->list.nitems, ",");
		putc('\n', f);
		break;
	case S_PRAGMA:
		puts_(f, ".pragma ");
		for (uint32_t i = 0; i < s->strs.nstrs; i++)
			fprintf(f, "%s%s", i ? ", " : "", s->strs.strs[i]);
		puts_(f, ";\n");
		break;
	case S_ALIAS:
		puts_(f, ".alias ");
		print_exprs(f, s->list.items, s->list.nitems, ", ");
		puts_(f, ";\n");
		break;
	case S_TARGETS:
		fprintf(f, "%s: %s ", s->list.label, s->list.word);
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
		fprintf(f, "%s:\n", s->label);
		break;
	case S_LOC:
		print_loc(f, s->locinfo);
		break;
	case S_SCOPE:
		puts_(f, "{\n");
		print_list(f, &s->scope, depth + 1);
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

static void print_list(FILE *f, const List *l, int depth)
{
	for (const Stmt *s = l->head; s; s = s->next)
		print_stmt(f, s, depth);
}

void print_module(FILE *f, const Module *m)
{
	for (const Stmt *s = m->items.head; s; s = s->next) {
		if (s->kind == S_FUNC || s->kind == S_SECTION)
			putc('\n', f);
		print_stmt(f, s, 0);
	}
}
