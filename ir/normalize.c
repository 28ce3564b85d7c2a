/* The one form every module takes before the linker and the stages see it
 * (ir.h, "Normalized modules", lists what they may assume).  Parsing keeps
 * the text's shape, so a plain round trip prints what it read; this step
 * is where the shapes that would make every consumer handle two forms go.
 *
 * Two rules.  A variable statement declares one name: `.global .u64
 * a[2] = {f, g}, b[2] = {h, k};` becomes two statements, so a symbol can
 * be looked up, placed, kept or dropped on its own, and nothing reads the
 * first declarator and takes it for the whole statement.  And in a
 * function a spelling means one declaration (scope.c): two blocks'
 * $L1, or a block's g hiding the module's, would otherwise be one name
 * to every table keyed by name. */
#include "ir.h"

static void split_var(Module *m, List *l, Stmt *s)
{
	if (s->kind != S_VAR || s->var.nds < 2)
		return;
	for (uint32_t i = s->var.nds - 1; i > 0; i--) {
		Stmt *c = stmt_new(m, S_VAR, s->var.ds[i].loc);
		c->var = s->var;
		c->var.ds = &s->var.ds[i];
		c->var.nds = 1;
		list_insert_before(l, s->next, c);
	}
	s->var.nds = 1;
}

static void split_vars(Module *m)
{
	for (Stmt *s = m->items.head; s; s = s->next) {
		BodyIt it;
		if (s->kind == S_FUNC)
			for (Stmt *x = body_first(&s->func->body, &it); x; x = body_next(&it))
				split_var(m, it.in, x);
		split_var(m, &m->items, s);
	}
}

void ir_normalize(Module *m)
{
	if (m->normalized)
		return;
	split_vars(m);
	scope_unshare(m);
	ir_check_input(m);   /* errors: callers stop on them, as on scope_unshare's */
	m->normalized = 1;
}
