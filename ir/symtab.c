/* The module's symbol table: every function and module-scope variable by
 * name, with its linkage, state space, size and alignment, and a use list
 * saying where the module reads, writes, calls or takes the address of it.
 * One pass over the module; stages that add or remove symbols or uses
 * rebuild it (symtab_build is linear in the module).
 *
 * How a use is classified:
 *   call f, ...                      USE_CALL (the callee position)
 *   .calltargets f, g;               USE_CALL (a possible callee)
 *   ld [v+4] / st [v] / atom [v]     USE_READ / USE_WRITE / both, by the
 *                                    opcode's memory behaviour
 *   mov %rd, v;  cvta %rd, v;  add %rd, v, 8;  a call argument
 *                                    USE_ADDR: the address reaches a register
 *   = {v, generic(w)+8} in another variable's initializer
 *                                    USE_ADDR, at that variable's statement
 *   .alias a, f;                     USE_ADDR of f, at the .alias: calls of
 *                                    a reach f unseen, as through an address
 * A local declaration that shadows a module symbol hides it from its
 * function's uses. */
#include <stdint.h>
#include <stdlib.h>
#include "ptrhash.h"
#include "ir.h"

typedef struct Entry {
	UT_hash_handle hh;
	Symbol sym;
} Entry;

struct SymTab {
	Arena *arena;
	Entry *index;        /* by interned name */
	Symbol **order;      /* in module order of first appearance */
	uint32_t n, cap;
	int percent;         /* a symbol's name starts with '%' (PTX allows it) */
};

Symbol *symtab_find(const SymTab *t, const char *name)
{
	Entry *e;
	HASH_FIND_PTR(t->index, &name, e);
	return e ? &e->sym : NULL;
}

int align_written(const Decl *d)
{
	return (int)d->align;
}

int64_t align_to(int64_t v, int64_t a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

/* .align N when written, else the natural alignment of the element. */
int var_align(const Decl *d)
{
	return d->align ? (int)d->align : ty_size(d->type) * d->vec;
}

static Symbol *add(SymTab *t, const char *name, SymKind kind)
{
	Symbol *s = symtab_find(t, name);
	if (s)
		return s;
	Entry *e = arena_alloc(t->arena, sizeof *e);
	s = &e->sym;
	s->name = name;
	s->id = t->n;
	s->kind = kind;
	s->size = -1;
	HASH_ADD_PTR(t->index, sym.name, e);
	t->percent |= name[0] == '%';
	t->order = array_grow(t->order, t->n, &t->cap, sizeof *t->order);
	t->order[t->n++] = s;
	return s;
}

/* A definition wins over declarations for linkage, size and alignment. */
static void declare(Symbol *s, Stmt *at, int is_def, Linkage lk, Space space, int64_t size, int align)
{
	if (is_def && !s->def)
		s->def = at;
	if (!s->decl)
		s->decl = at;
	if (is_def || s->def == NULL) {
		s->linkage = lk;
		s->space = space;
		if (size >= 0 || is_def)
			s->size = size;
		s->align = align;
	}
}

static void collect(SymTab *t, const Module *m)
{
	for (Stmt *s = m->items.head; s; s = s->next) {
		if (s->kind == S_FUNC) {
			Func *f = s->func;
			Linkage lk = (Linkage)f->linkage;
			declare(add(t, f->name, SYM_FUNC), s, f->has_body, lk, SPACE_NONE, -1, 0);
		} else if (s->kind == S_VAR) {
			const Decl *d = &s->var;
			Linkage lk = (Linkage)d->linkage;
			for (uint32_t i = 0; i < d->nds; i++)
				declare(add(t, d->ds[i].name, SYM_VAR), s, lk != LINK_EXTERN, lk,
					decl_space(d),
					decl_bytes(d, &d->ds[i]), var_align(d));
		} else if (s->kind == S_ALIAS && s->list.nitems == 2 && s->list.items[0]->kind == E_NAME) {
			Symbol *a = add(t, s->list.items[0]->str, SYM_FUNC);
			a->def = a->def ? a->def : s;
			a->linkage = LINK_VISIBLE;
		}
	}
}

typedef struct Walk {
	SymTab *t;
	const Func *f;
	Stmt *at;
	Names locals;        /* what the function declares itself */
	int have_locals;     /* locals is f's (made when a name in f is a symbol's) */
} Walk;

static void note(Walk *w, const char *name, unsigned how)
{
	if (name[0] == '%' && !w->t->percent)
		return;  /* a register: most names an operand holds, and no symbol */
	Symbol *s = symtab_find(w->t, name);
	if (s && w->f && !w->have_locals) {  /* what the function declares, once it matters */
		names_of_body(&w->locals, &w->f->body);
		names_add_decls(&w->locals, w->f->params, w->f->nparams);
		names_add_decls(&w->locals, w->f->rets, w->f->nrets);
		w->have_locals = 1;
	}
	if (!s || (w->f && names_exact(&w->locals, name)))
		return;  /* none, or a local of the same name */
	s->how |= how;
	s->uses = array_grow(s->uses, s->nuses, &s->cap, sizeof *s->uses);
	s->uses[s->nuses++] = (SymUse){w->at, w->f, (uint8_t)how};
}

typedef struct Leaves {
	Walk *w;
	unsigned how;
} Leaves;

static int note_leaf(void *ctx, Expr **slot)
{
	Leaves *l = ctx;
	if ((*slot)->kind == E_NAME)
		note(l->w, (*slot)->str, l->how);
	return 0;
}

/* Every name in e, without recursion (a chain a+b+c+... is deep). */
static void names_in(Walk *w, const Expr *e, unsigned how)
{
	if (e->kind == E_NAME || e->kind == E_NUM) {  /* most operands: no walk to set up */
		if (e->kind == E_NAME)
			note(w, e->str, how);
		return;
	}
	Leaves l = {w, how};
	expr_leaves((Expr **)&e, note_leaf, &l);
}

/* Whether an instruction's operands are registers and numbers only, and
 * no symbol's name starts with '%': most instructions, which then need
 * no look at their opcode. */
static int only_registers(const SymTab *t, const Ins *in)
{
	if (t->percent)
		return 0;
	for (uint32_t i = 0; i < in->nops; i++) {
		const Expr *e = in->ops[i];
		if (e->kind != E_NUM && (e->kind != E_NAME || e->str[0] != '%'))
			return 0;
	}
	return 1;
}

static void ins_uses(Walk *w, const Ins *in)
{
	if (only_registers(w->t, in))
		return;
	CallParts c;
	unsigned mem = (ins_reads_memory(in) ? USE_READ : 0) | (ins_writes_memory(in) ? USE_WRITE : 0);
	int call = ins_call_parts(in, &c);
	for (uint32_t i = 0; i < in->nops; i++) {
		const Expr *e = in->ops[i];
		if (call && e == c.callee)
			note(w, e->str, USE_CALL);
		else if (call && e == c.proto)
			continue;  /* a prototype or .calltargets label */
		else if (e->kind == E_ADDR && !call)
			names_in(w, e, mem ? mem : USE_ADDR);
		else
			names_in(w, e, USE_ADDR);
	}
}

static void body_uses(Walk *w, const List *l)
{
	BodyIt it;
	for (Stmt *s = body_first(l, &it); s; s = body_next(&it)) {
		w->at = s;
		if (s->kind == S_INS)
			ins_uses(w, &s->ins);
		else if (s->kind == S_TARGETS)
			for (uint32_t i = 0; i < s->list.nitems; i++)
				names_in(w, s->list.items[i], USE_CALL);
		else if (s->kind == S_VAR)
			for (uint32_t i = 0; i < s->var.nds; i++)
				if (s->var.ds[i].init)
					names_in(w, s->var.ds[i].init, USE_ADDR);
	}
}

SymTab *symtab_build(const Module *m)
{
	Arena *a = arena_new();
	SymTab *t = arena_alloc(a, sizeof *t);
	t->arena = a;
	collect(t, m);
	Walk w = {t, NULL, NULL, {0}, 0};
	for (Stmt *s = m->items.head; s; s = s->next) {
		w.at = s;
		if (s->kind == S_VAR) {
			w.f = NULL;
			for (uint32_t i = 0; i < s->var.nds; i++)
				if (s->var.ds[i].init)
					names_in(&w, s->var.ds[i].init, USE_ADDR);
		} else if (s->kind == S_ALIAS && s->list.nitems == 2 && s->list.items[1]->kind == E_NAME) {
			w.f = NULL;
			note(&w, s->list.items[1]->str, USE_ADDR);
		} else if (s->kind == S_FUNC && s->func->has_body) {
			w.f = s->func;
			names_free(&w.locals);
			w.have_locals = 0;
			body_uses(&w, &s->func->body);
		}
	}
	names_free(&w.locals);
	return t;
}

uint32_t symtab_count(const SymTab *t)
{
	return t->n;
}

Symbol *symtab_at(const SymTab *t, uint32_t i)
{
	return t->order[i];
}

void symtab_free(SymTab *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->n; i++)
		free(t->order[i]->uses);
	free(t->order);
	HASH_CLEAR(hh, t->index);
	arena_free(t->arena);
}
