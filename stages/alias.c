/* alias.c: in a closed world, before the stages, `.alias a, b` goes and
 * every use of a names b, so that the stages see one name for b (a call
 * of a is a call of b: inlined, merged, b's parameters changed).
 *
 * Why: whole-program ptxas copies a kernel's callees into it and emits
 * each alias per kernel; when its own optimizer then deletes every call
 * of b in a kernel (a branch the stages' inlining made constant, b
 * inlined), it stops with "Internal error: alias to unknown symbol"
 * (ptxas 13; `ptxas -c` is not affected).  Which calls ptxas deletes
 * cannot be foreseen, so the output gives it no alias to trip on.  In a
 * closed world nothing outside the module names a, and a and b have one
 * address, so naming b instead means the same.  An open world keeps the
 * alias: other code may name a, and its output goes through `ptxas -c`.
 *
 * An alias named where a rename is not written here (a DWARF section),
 * or whose aliasee is itself an alias, stays. */
#include "stages.h"

static int is_alias(const Symbol *s)
{
	return s && s->def && s->def->kind == S_ALIAS && s->def->list.nitems == 2 &&
		s->def->list.items[1]->kind == E_NAME;
}

static int renamable(const SymTab *t, const Symbol *a)
{
	if (is_alias(symtab_find(t, a->def->list.items[1]->str)))
		return 0;
	for (uint32_t k = 0; k < a->nuses; k++) {
		StmtKind kind = a->uses[k].at->kind;
		if (kind != S_INS && kind != S_VAR && kind != S_TARGETS)
			return 0;
	}
	return 1;
}

/* A .calltargets list naming both a and b names b twice once renamed. */
static void drop_repeats(Stmt *s)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < s->list.nitems; i++) {
		Expr *e = s->list.items[i];
		int seen = 0;
		for (uint32_t j = 0; j < n && !seen; j++)
			seen = e->kind == E_NAME && s->list.items[j]->kind == E_NAME &&
				s->list.items[j]->str == e->str;
		if (!seen)
			s->list.items[n++] = e;
	}
	s->list.nitems = n;
}

static void rename_uses(Module *m, const Symbol *a, const char *b)
{
	for (uint32_t k = 0; k < a->nuses; k++) {
		Stmt *s = a->uses[k].at;
		if (s->kind == S_INS)
			for (uint32_t i = 0; i < s->ins.nops; i++)
				s->ins.ops[i] = expr_renamed(m, s->ins.ops[i], a->name, b);
		else if (s->kind == S_VAR) {
			for (uint32_t i = 0; i < s->var.nds; i++)
				if (s->var.ds[i].init)
					s->var.ds[i].init = expr_renamed(m, s->var.ds[i].init, a->name, b);
		} else {
			for (uint32_t i = 0; i < s->list.nitems; i++)
				s->list.items[i] = expr_renamed(m, s->list.items[i], a->name, b);
			drop_repeats(s);
		}
	}
}

/* The .alias and the module-scope prototypes declaring a. */
static void remove_alias(Module *m, const Symbol *a)
{
	for (Stmt *s = m->items.head, *next; s; s = next) {
		next = s->next;
		if (s == a->def || (s->kind == S_FUNC && s->func->name == a->name && !s->func->has_body))
			list_remove(&m->items, s);
	}
}

void alias_resolve(Module *m, const StageOptions *o)
{
	if (!o->world.closed)
		return;
	SymTab *t = symtab_build(m);
	for (uint32_t i = 0; i < symtab_count(t); i++) {
		const Symbol *a = symtab_at(t, i);
		if (!is_alias(a) || !renamable(t, a))
			continue;
		rename_uses(m, a, a->def->list.items[1]->str);
		remove_alias(m, a);
	}
	symtab_free(t);
}
