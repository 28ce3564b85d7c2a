/* Constructors and list surgery for the IR. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"

Module *mod_new(const char *path)
{
	Arena *a = arena_new_huge();
	Module *m = arena_alloc(a, sizeof *m);
	m->arena = a;
	m->path = intern_cstr(path);
	return m;
}

void mod_free(Module *m)
{
	if (!m)
		return;
	for (Module *o = m->owned, *next; o; o = next) {
		next = o->sibling;
		mod_free(o);
	}
	arena_free(m->arena);
}

/* The linker moves statements between modules; the inputs must then
 * live as long as the output. */
void mod_adopt(Module *owner, Module *m)
{
	m->sibling = owner->owned;
	owner->owned = m;
}

Stmt *stmt_new(Module *m, StmtKind kind, Loc loc)
{
	Stmt *s = arena_alloc(m->arena, sizeof *s);
	s->kind = kind;
	s->loc = loc;
	return s;
}

void list_append(List *l, Stmt *s)
{
	s->next = NULL;
	s->prev = l->tail;
	if (l->tail)
		l->tail->next = s;
	else
		l->head = s;
	l->tail = s;
}

void list_insert_before(List *l, Stmt *at, Stmt *s)
{
	if (!at) {
		list_append(l, s);
		return;
	}
	s->next = at;
	s->prev = at->prev;
	if (at->prev)
		at->prev->next = s;
	else
		l->head = s;
	at->prev = s;
}

void list_remove(List *l, Stmt *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		l->head = s->next;
	if (s->next)
		s->next->prev = s->prev;
	else
		l->tail = s->prev;
	s->next = s->prev = NULL;
}

static Expr *expr_new(Module *m, ExprKind kind, uint32_t n)
{
	Expr *e = arena_alloc(m->arena, sizeof *e + n * sizeof(Expr *));
	e->kind = kind;
	e->n = n;
	e->kids = (Expr **)(e + 1);
	return e;
}

Expr *expr_unary(Module *m, int op, Expr *a)
{
	Expr *e = expr_new(m, E_UNARY, 1);
	e->op = op;
	e->kids[0] = a;
	return e;
}

Expr *expr_binary(Module *m, int op, Expr *a, Expr *b)
{
	Expr *e = expr_new(m, E_BINARY, 2);
	e->op = op;
	e->kids[0] = a;
	e->kids[1] = b;
	return e;
}

Expr *expr_list(Module *m, ExprKind kind, Expr **kids, uint32_t n)
{
	Expr *e = expr_new(m, kind, n);
	if (n)
		memcpy(e->kids, kids, n * sizeof *kids);
	return e;
}

Expr *expr_call(Module *m, const char *fname, Expr **kids, uint32_t n)
{
	Expr *e = expr_new(m, E_CALL, n + 1);
	if (n)
		memcpy(e->kids, kids, n * sizeof *kids);
	e->kids[n] = name_expr(fname);
	e->n = n;
	return e;
}

const char *expr_fname(const Expr *e)
{
	return e->kids[e->n]->str;
}

/* Every one-character spelling as constant data: threads share it. */
#define ONE(c) {(char)(c), 0},
#define ONE4(c) ONE(c) ONE(c + 1) ONE(c + 2) ONE(c + 3)
#define ONE16(c) ONE4(c) ONE4(c + 4) ONE4(c + 8) ONE4(c + 12)
#define ONE64(c) ONE16(c) ONE16(c + 16) ONE16(c + 32) ONE16(c + 48)

const char *op_spelling(int op)
{
	static const char *const two[] = {"<<", ">>", "&&", "||", "==", "!=", "<=", ">="};
	static const char one[128][2] = {ONE64(0) ONE64(64)};
	if (op >= OP_SHL && op <= OP_GE)
		return two[op - OP_SHL];
	if (op <= 0 || op >= 128)
		die("bad operator %d", op);
	return one[op];
}

int str_in(const char *w, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(w, *set) == 0)
			return 1;
	return 0;
}

int type_bytes(const char *t)
{
	return ty_size(type_of(t));
}

/* 0f/0d spellings are float bits, not integers. */
int int_literal(const char *s, int64_t *v)
{
	char *end;
	if (s[0] == '0' && s[1] && strchr("fFdD", s[1]))
		return 0;
	if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		*v = (int64_t)strtoull(s + 2, &end, 2);
	else
		*v = (int64_t)strtoull(s, &end, 0);
	return end != s && (*end == 0 || (*end == 'U' && end[1] == 0));
}

Space decl_space(const Decl *d)
{
	return (Space)d->space;
}

const char *decl_type(const Decl *d)
{
	return ty_word(d->type);
}

Stmt *ins_new(Module *m, Loc loc, const char *spelling, Expr **ops, uint32_t nops)
{
	const Spelling *sp = spelling_get(spelling, strlen(spelling));
	if (!sp->op || nops < sp->op->minops || nops > sp->op->maxops)
		die("ins_new: bad instruction '%s' with %u operands", spelling, nops);
	Stmt *s = stmt_new(m, S_INS, loc);
	s->ins.sp = sp;
	s->ins.nops = nops;
	s->ins.ops = nops ? arena_dup(m->arena, ops, nops * sizeof *ops) : NULL;
	return s;
}

Stmt *mov_new(Module *m, Loc loc, int bytes, Expr *to, Expr *from)
{
	char sp[16];
	snprintf(sp, sizeof sp, "mov.b%d", bytes * 8);
	Expr *ops[2] = {to, from};
	return ins_new(m, loc, sp, ops, 2);
}

int held_bits(int bytes)
{
	return bytes < 2 ? 16 : 8 * bytes;
}

Stmt *held_move(Module *m, Loc loc, const Ins *acc, int load, Expr *v, int vbits, Expr *reg, int reg_bytes)
{
	int w = held_bits(reg_bytes), r = vbits ? vbits : w, ty = acc->sp->types[0];
	int bytes = acc->sp->type_bytes;
	const char *sg = ty_signed(ty) ? "s" : "u";
	char sp[48];
	Expr *ops[2] = {v, reg};
	if (!load) {
		ops[0] = reg, ops[1] = v;
		if (v->kind == E_NUM && ty_float(ty) && reg_bytes >= 2)
			snprintf(sp, sizeof sp, "mov%s", acc->sp->type);
		else if (r == w)
			snprintf(sp, sizeof sp, "mov.b%d", w);
		else
			snprintf(sp, sizeof sp, "cvt.u%d.u%d", w, r);
	} else if (bytes < reg_bytes || reg_bytes == 1) {
		snprintf(sp, sizeof sp, "cvt.%s%d.%s%d", sg, r, sg, 8 * bytes);
	} else if (r == w) {
		snprintf(sp, sizeof sp, "mov.b%d", w);
	} else {
		snprintf(sp, sizeof sp, "cvt.%s%d.%s%d", sg, r, sg, w);
	}
	return ins_new(m, loc, sp, ops, 2);
}

/* Words are separated by blanks; a number after .align is its operand. */
Stmt *var_new(Module *m, Loc loc, const char *specs, const char *declarator)
{
	Spec tmp[32];
	uint32_t n = 0;
	for (const char *p = specs; *p;) {
		size_t len = strcspn(p, " ");
		if (!len) {
			p++;
			continue;
		}
		if (*p >= '0' && *p <= '9' && n && tmp[n - 1].kind == SW_SPEC && tmp[n - 1].id == SPEC_align)
			tmp[n - 1].num = intern(p, len);
		else if (*p == '.' && n < 32 && spec_known(intern(p, len)))
			tmp[n++] = spec_make(intern(p, len), NULL, NULL, 0);
		else
			die("var_new: bad declaration words '%s'", specs);
		p += len;
	}
	Stmt *s = stmt_new(m, S_VAR, loc);
	DeclProblem why;
	if (!decl_set(&s->var, arena_dup(m->arena, tmp, (n ? n : 1) * sizeof *tmp), n, &why))
		die("var_new: '%s': %s", specs, why.why);
	Declarator *d = arena_alloc(m->arena, sizeof *d);
	size_t len = strcspn(declarator, "<[");
	d->name = intern(declarator, len);
	d->loc = loc;
	const char *rest = declarator + len;
	if (*rest == '<') {
		d->count = intern(rest + 1, strcspn(rest + 1, ">"));
	} else if (*rest == '[') {
		Expr *dim = num_expr(intern(rest + 1, strcspn(rest + 1, "]")));
		d->dims = arena_dup(m->arena, &dim, sizeof dim);
		d->ndims = 1;
	}
	s->var.ds = d;
	s->var.nds = 1;
	return s;
}

/* A register named afresh from base among names (the function's), declared
 * with type in body before at: what a stage that makes registers needs. */
const char *reg_new(Module *m, List *body, Names *names, Stmt *at, const char *base, const char *type)
{
	const char *name = names_fresh(names, base);
	list_insert_before(body, at, var_new(m, at->loc, type, name));
	return name;
}

Expr *int_expr(int64_t v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%lld", (long long)v);
	return num_expr(intern_cstr(buf));
}

Expr *expr_addr(Module *m, Expr *base, int64_t off)
{
	Expr *e = off ? expr_binary(m, '+', base, int_expr(off)) : base;
	return expr_list(m, E_ADDR, &e, 1);
}

/* An explicit stack, a small one on the C stack first: a chain
 * a+b+c+... is as deep as it is long. */
int expr_leaves(Expr **e, LeafFn *fn, void *ctx)
{
	Expr **local[64], ***stack = local;
	uint32_t n = 0, cap = 64;
	int r = 0;
	stack[n++] = e;
	while (n && !r) {
		Expr **slot = stack[--n], *x = *slot;
		if (x->kind == E_NAME || x->kind == E_NUM) {
			r = fn(ctx, slot);
			continue;
		}
		for (uint32_t i = x->n; i-- > 0;) {
			stack = stack_grow(stack, local, n, &cap, sizeof *stack);
			stack[n++] = &x->kids[i];
		}
	}
	if (stack != local)
		free(stack);
	return r;
}

/* The first kid by a loop: a chain a+b+c+... is as deep as it is long. */
int expr_mentions(const Expr *e, const char *name)
{
	for (; e->kind != E_NAME; e = e->kids[0]) {
		if (e->kind == E_NUM || !e->n)
			return 0;
		for (uint32_t i = 1; i < e->n; i++)
			if (expr_mentions(e->kids[i], name))
				return 1;
	}
	return e->str == name || (e->str[0] == '%' && reg_of_part(e->str) == name);
}

/* name, or a part of register from (%r1.b0), renamed to to */
static Expr *leaf_renamed(Expr *x, const char *from, const char *to)
{
	if (x->str == from)
		return name_expr(to);
	if (x->str[0] != '%' || reg_of_part(x->str) != from)
		return x;
	char buf[256];
	snprintf(buf, sizeof buf, "%s%s", to, x->str + intern_len(from));
	return name_expr(intern_cstr(buf));
}

/* e with every name `from` (and every part of it, %r1.b0) replaced by `to`: new nodes where it changes,
 * e itself where it does not.  Walks the left spine without recursion, as
 * expr_mentions does (a chain a+b+c+... is deep on the left). */
Expr *expr_renamed(Module *m, Expr *e, const char *from, const char *to)
{
	if (!expr_mentions(e, from))
		return e;
	Expr **spine = NULL;
	uint32_t n = 0, cap = 0;
	Expr *x = e;
	for (; x->kind != E_NAME && x->kind != E_NUM && x->n; x = x->kids[0]) {
		spine = array_grow(spine, n, &cap, sizeof *spine);
		spine[n++] = x;
	}
	Expr *r = x->kind == E_NAME ? leaf_renamed(x, from, to) : x;
	while (n-- > 0) {
		Expr *c = arena_dup(m->arena, spine[n], sizeof *c);
		uint32_t nk = c->n + (c->kind == E_CALL);  /* and expr_fname's slot */
		c->kids = arena_dup(m->arena, spine[n]->kids, nk * sizeof *c->kids);
		c->kids[0] = r;
		for (uint32_t i = 1; i < c->n; i++)
			c->kids[i] = expr_renamed(m, c->kids[i], from, to);
		r = c;
	}
	free(spine);
	return r;
}

int ins_mentions(const Ins *in, const char *name)
{
	for (uint32_t i = 0; i < in->nops; i++)
		if (expr_mentions(in->ops[i], name))
			return 1;
	return 0;
}

/* In l itself, not in its nested scopes: a call's .param arguments are
 * declared beside it. */
Stmt *list_var(const List *l, const char *name)
{
	for (Stmt *s = l->head; s; s = s->next)
		if (s->kind == S_VAR && s->var.nds && s->var.ds[0].name == name)
			return s;
	return NULL;
}

int mod_has_dwarf(const Module *m)
{
	for (const Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_SECTION && !strcmp(s->section.name, ".debug_info"))
			return 1;
	return 0;
}

void func_declare_before(Module *m, const Func *def, Stmt *at)
{
	Func *decl = arena_dup(m->arena, def, sizeof *def);
	decl->has_body = 0;
	decl->body = (List){0};
	Stmt *s = stmt_new(m, S_FUNC, at->loc);
	s->func = decl;
	list_insert_before(&m->items, at, s);
}

/* Instructions, nested scopes and local initializers. */
int body_mentions(const List *l, const char *name)
{
	BodyIt it;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it))
		if ((s->kind == S_INS && ins_mentions(&s->ins, name)) ||
		    (s->kind == S_VAR && s->var.nds && s->var.ds[0].init &&
		     expr_mentions(s->var.ds[0].init, name))) {
			body_end(&it);
			return 1;
		}
	return 0;
}

/* Bytes a declarator occupies: its type, times .v2/.v4, times each
 * dimension; -1 when that is not known (an unsized or symbolic dimension,
 * a type without a size). */
int64_t decl_bytes(const Decl *d, const Declarator *dr)
{
	int64_t n = ty_size(d->type) * d->vec;
	if (!n)
		return -1;
	for (uint32_t i = 0; i < dr->ndims; i++) {
		int64_t k;
		if (!dr->dims[i] || dr->dims[i]->kind != E_NUM || !int_literal(dr->dims[i]->str, &k) || k < 0)
			return -1;
		n *= k;
	}
	return n;
}

/* Bytes in an address: 4 under .address_size 32, else 8. */
int pointer_bytes(const Module *m)
{
	for (const Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_ADDRSIZE && s->strs.nstrs && !strcmp(s->strs.strs[0], "32"))
			return 4;
	return 8;
}

/* Only 32- and 64-bit integer slots hold addresses worth following. */
int init_slot_size(const Decl *d)
{
	int n = ty_size(d->type);
	return (n == 4 || n == 8) && !ty_floats(d->type) ? n : 0;
}

/* Flattens nested braces into the i-th scalar of an initializer. */
const Expr *init_elem(const Expr *init, int64_t *i)
{
	if (init->kind != E_BRACE)
		return (*i)-- == 0 ? init : NULL;
	for (uint32_t k = 0; k < init->n; k++) {
		const Expr *e = init_elem(init->kids[k], i);
		if (e || *i < 0)
			return e;
	}
	return NULL;
}

/* A float literal's bits as a float of the given size: 0f3F800000 and
 * 0d3FF0000000000000 as written, a decimal rounded (1 if it parses). */
int float_bits(const char *s, int bytes, uint64_t *bits)
{
	if ((s[0] == '0' && (s[1] == 'f' || s[1] == 'F') && bytes == 4) ||
	    (s[0] == '0' && (s[1] == 'd' || s[1] == 'D') && bytes == 8)) {
		char *end;
		*bits = strtoull(s + 2, &end, 16);
		return *end == 0 && end - (s + 2) == 2 * bytes;
	}
	char *end;
	double d = strtod(s, &end);
	if (*end || end == s)
		return 0;
	if (bytes == 4) {
		float f = (float)d;
		uint32_t u;
		memcpy(&u, &f, 4);
		*bits = u;
	} else {
		memcpy(bits, &d, 8);
	}
	return 1;
}

int init_image(const Decl *d, const Declarator *ds, uint8_t *out, int64_t size)
{
	memset(out, 0, (size_t)size);
	int n = ty_size(d->type);
	if (!n)
		return 0;
	if (!ds->init)
		return 1;
	int fl = ty_float(d->type);
	for (int64_t i = 0; i * n < size; i++) {
		int64_t k = i;
		const Expr *e = init_elem(ds->init, &k);
		if (!e)
			break;
		uint64_t v;
		int64_t iv;
		int neg = e->kind == E_UNARY && e->op == '-' && e->kids[0]->kind == E_NUM;
		const Expr *num = neg ? e->kids[0] : e;
		if (num->kind != E_NUM)
			return 0;
		if (fl && n >= 4) {
			if (!float_bits(num->str, n, &v))
				return 0;
			if (neg)
				v ^= 1ull << (8 * n - 1);
		} else if (int_literal(num->str, &iv)) {
			v = neg ? 0 - (uint64_t)iv : (uint64_t)iv;
		} else {
			return 0;
		}
		for (int b = 0; b < n && i * n + b < size; b++)
			out[i * n + b] = (uint8_t)(v >> (8 * b));
	}
	return 1;
}

/* An integer literal, or the negation of one (add.s64 %rd9, %rd1, -120). */
int int_operand(const Expr *e, int64_t *v)
{
	int neg = e->kind == E_UNARY && e->op == '-';
	if (neg)
		e = e->kids[0];
	if (e->kind != E_NUM || !int_literal(e->str, v))
		return 0;
	if (neg)
		*v = (int64_t)(0 - (uint64_t)*v);
	return 1;
}

/* [name], [name+C] or [name-C]: the name and the offset. */
int addr_name_off(const Expr *e, const char **name, int64_t *off)
{
	if (e->kind != E_ADDR || e->n != 1)
		return 0;
	e = e->kids[0];
	*off = 0;
	if (e->kind == E_NAME) {
		*name = e->str;
		return 1;
	}
	if (e->kind != E_BINARY || (e->op != '+' && e->op != '-') || e->kids[0]->kind != E_NAME ||
	    !int_operand(e->kids[1], off))
		return 0;
	*name = e->kids[0]->str;
	if (e->op == '-')
		*off = (int64_t)(0 - (uint64_t)*off);
	return 1;
}
