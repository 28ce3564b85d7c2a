/* One walk over a function's body in text order, into its { } scopes,
 * with a stack rather than recursion (scopes nest as deep as the input
 * likes), in the spirit of QBE's `for (b = fn->start; b; b = b->link)`:
 *
 *     BodyIt it;
 *     for (Stmt *s = body_first(&f->body, &it); s; s = body_next(&it))
 *         ... it.in holds s, it.block is the { } around it ...
 *
 * A scope statement comes before what it holds.  The statement after the
 * one given is fetched when it is given, so a walker may remove the
 * statement it holds; what it inserts right after it, the walk does not
 * see.  The walk ends by itself at the body's end: its stack is freed
 * then, or by body_end for a walk left early. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"

static Stmt *give(BodyIt *it, Stmt *s)
{
	it->cur = s;
	it->next = it->depth == 0 && s == it->last ? NULL : s->next;
	if (s->kind == S_LOC)
		it->at = s->locinfo;
	return s;
}

static void enter(BodyIt *it, Stmt *scope)
{
	it->stack = stack_grow(it->stack, it->local, it->depth, &it->cap, sizeof *it->stack);
	it->stack[it->depth++] = (BodyLevel){it->in, it->block, it->next};
	it->in = &scope->scope;
	it->block = scope;
	it->next = scope->scope.head;
}

Stmt *body_from(BodyIt *it, const List *in, Stmt *first, const Stmt *last)
{
	*it = (BodyIt){.in = (List *)in, .last = last, .stack = it->local, .cap = BODY_LOCAL};
	if (!first) {
		body_end(it);
		return NULL;
	}
	return give(it, first);
}

Stmt *body_first(const List *body, BodyIt *it)
{
	return body_from(it, body, body->head, NULL);
}

Stmt *body_next(BodyIt *it)
{
	if (it->cur && it->cur->kind == S_SCOPE && !it->skip)
		enter(it, it->cur);
	it->skip = 0;
	while (!it->next && it->depth) {
		BodyLevel *l = &it->stack[--it->depth];
		it->in = l->in, it->block = l->block, it->next = l->next;
	}
	if (!it->next) {
		body_end(it);
		return NULL;
	}
	return give(it, it->next);
}

void body_skip(BodyIt *it)
{
	it->skip = 1;
}

List *body_outer(const BodyIt *it, uint32_t k)
{
	return k < it->depth ? it->stack[it->depth - 1 - k].in : NULL;
}

Stmt *body_var(const BodyIt *it, const char *name)
{
	Stmt *s = list_var(it->in, name);
	for (uint32_t k = 0; !s && k < it->depth; k++)
		s = list_var(body_outer(it, k), name);
	return s;
}

void body_end(BodyIt *it)
{
	if (it->stack && it->stack != it->local)
		free(it->stack);
	it->stack = it->local;
	it->cap = BODY_LOCAL;
	it->cur = NULL;
}

/* ---- the calls of a body ------------------------------------------------ */

static Stmt *call_from(BodyIt *it, Stmt *s, CallParts *c)
{
	while (s && !stmt_is_call(s))
		s = body_next(it);
	if (s)
		c->whole = ins_call_parts(&s->ins, c);
	return s;
}

Stmt *body_first_call(const List *body, BodyIt *it, CallParts *c)
{
	return call_from(it, body_first(body, it), c);
}

Stmt *body_next_call(BodyIt *it, CallParts *c)
{
	return call_from(it, body_next(it), c);
}

Stmt *body_past_decls(const List *body)
{
	Stmt *s = body->head;
	while (s && s->kind == S_VAR)
		s = s->next;
	return s;
}

/* ---- a function's depot ------------------------------------------------- */

int depot_named(const char *name)
{
	return !strncmp(name, "__local_depot", 13);
}

/* An unguarded two-operand instruction writing a register from a name:
 * what nvcc's `mov %SPL, __local_depotN` and `cvta.local %SP, %SPL` are. */
static const char *reg_from(const Stmt *s, int code, const char *from)
{
	const Ins *in = &s->ins;
	if (s->kind != S_INS || in->guard || in->nops != 2 || in->ops[0]->kind != E_NAME ||
	    in->sp->code != code || in->ops[1]->kind != E_NAME || in->ops[1]->str != from)
		return NULL;
	return code == O_cvta && in->sp->space != SPACE_LOCAL ? NULL : in->ops[0]->str;
}

Depot func_depot(const List *body)
{
	Depot d = {0};
	for (Stmt *s = body->head; s; s = s->next) {
		if (s->kind == S_VAR && decl_space(&s->var) == SPACE_LOCAL && depot_named(s->var.ds[0].name))
			d.decl = s;
		const char *r;
		if (!d.decl)
			continue;
		if (!d.spl && (r = reg_from(s, O_mov, d.decl->var.ds[0].name)))
			d.spl = r, d.spl_def = s;
		else if (d.spl && !d.sp && (r = reg_from(s, O_cvta, d.spl)))
			d.sp = r, d.sp_def = s;
	}
	return d;
}
