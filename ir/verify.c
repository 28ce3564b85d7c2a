/* Structural invariants of the IR, checked between stages in test and
 * debug builds.  A violation is our bug, not the user's: it is reported
 * with the statement's location to help find the stage that broke it. */
#include <string.h>
#include "ir.h"

typedef struct Verifier {
	int bad;
} Verifier;

static void fail(Verifier *v, Loc loc, const char *what)
{
	warn(loc, "ir_verify: %s", what);
	v->bad++;
}

static void verify_expr(Verifier *v, Loc loc, const Expr *e)
{
	if (!e) {
		fail(v, loc, "null operand");
		return;
	}
	switch (e->kind) {
	case E_NAME:
	case E_NUM:
		if (!e->str || !*e->str)
			fail(v, loc, "leaf without spelling");
		return;
	case E_UNARY:
		if (e->n != 1)
			fail(v, loc, "unary node without one operand");
		break;
	case E_BINARY:
		if (e->n != 2)
			fail(v, loc, "binary node without two operands");
		break;
	case E_CALL:
		if (!e->fname)
			fail(v, loc, "call expression without a name");
		break;
	case E_PAREN:
	case E_BRACE:
	case E_ADDR:
		break;
	default:
		fail(v, loc, "unknown expression kind");
		return;
	}
	for (uint32_t i = 0; i < e->n; i++)
		verify_expr(v, loc, e->kids[i]);
}

static void verify_list(Verifier *v, const List *l, int in_body);

static void verify_decl(Verifier *v, Loc loc, const Decl *d)
{
	if (d->nds == 0)
		fail(v, loc, "declaration without a name");
	for (uint32_t i = 0; i < d->nds; i++) {
		if (!d->ds[i].name)
			fail(v, loc, "declarator without a name");
		for (uint32_t j = 0; j < d->ds[i].ndims; j++)
			if (d->ds[i].dims[j])
				verify_expr(v, loc, d->ds[i].dims[j]);
		if (d->ds[i].init)
			verify_expr(v, loc, d->ds[i].init);
	}
}

static void verify_stmt(Verifier *v, const Stmt *s, int in_body)
{
	int body_only = s->kind == S_INS || s->kind == S_LABEL || s->kind == S_SCOPE ||
		s->kind == S_LOC || s->kind == S_PROTO || s->kind == S_TARGETS;
	int top_only = s->kind == S_VERSION || s->kind == S_TARGET ||
		s->kind == S_ADDRSIZE || s->kind == S_FILE || s->kind == S_SECTION ||
		s->kind == S_FUNC || s->kind == S_ALIAS;
	if ((in_body && top_only) || (!in_body && body_only))
		fail(v, s->loc, "statement in the wrong place");
	switch (s->kind) {
	case S_INS:
		if (!s->ins.sp || !s->ins.sp->op)
			fail(v, s->loc, "instruction without a known opcode");
		for (uint32_t i = 0; i < s->ins.nops; i++)
			verify_expr(v, s->loc, s->ins.ops[i]);
		break;
	case S_VAR:
		verify_decl(v, s->loc, &s->var);
		break;
	case S_FUNC:
		if (!s->func->name)
			fail(v, s->loc, "function without a name");
		if (!s->func->has_body && s->func->body.head)
			fail(v, s->loc, "declaration with a body");
		verify_list(v, &s->func->body, 1);
		break;
	case S_SCOPE:
		verify_list(v, &s->scope, 1);
		break;
	case S_LABEL:
		if (!s->label)
			fail(v, s->loc, "label without a name");
		break;
	default:
		break;
	}
}

static void verify_list(Verifier *v, const List *l, int in_body)
{
	const Stmt *prev = NULL;
	for (const Stmt *s = l->head; s; prev = s, s = s->next) {
		if (s->prev != prev)
			fail(v, s->loc, "broken prev link");
		verify_stmt(v, s, in_body);
	}
	if (l->tail != prev)
		fail(v, (Loc){0}, "list tail is not its last statement");
}

int ir_verify(const Module *m)
{
	Verifier v = {0};
	verify_list(&v, &m->items, 0);
	return v.bad;
}
