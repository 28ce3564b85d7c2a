/* Module layout and function decoding.
 *
 * layout_module() places every variable (global and const with their
 * initializers, shared at fixed offsets of the block's window, module-level
 * local in each thread's static area) and names every function.
 * decode_func() turns a body, on its first call, into a flat DIns array:
 * registers become frame slots, labels instruction indexes, symbols
 * addresses, modifiers bit sets.  What cannot be decoded becomes an
 * instruction that stops the run when (and only if) it executes.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "run.h"

/* ---- numbers ---- */

typedef struct Cval {
	int fk;       /* FK_* */
	uint64_t v;
	double f;
} Cval;

static int parse_num(const char *s, Cval *c)
{
	char *end;
	c->fk = FK_INT;
	c->f = 0;
	if (s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
		c->fk = FK_F32;
		c->v = strtoull(s + 2, &end, 16);
	} else if (s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
		c->fk = FK_F64;
		c->v = strtoull(s + 2, &end, 16);
	} else if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		c->v = strtoull(s + 2, &end, 16);
	} else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
		c->v = strtoull(s + 2, &end, 2);
	} else if (strpbrk(s, ".eE")) {
		c->fk = FK_DEC;
		c->f = strtod(s, &end);
		c->v = 0;
	} else if (s[0] == '0' && s[1]) {
		c->v = strtoull(s + 1, &end, 8);
	} else {
		c->v = strtoull(s, &end, 10);
	}
	if (*end == 'U')
		end++;
	return *end == 0;
}

/* ---- types ---- */

static uint32_t ty_bytes(int ty)
{
	return ty == TY_PRED ? 1 : (uint32_t)ty_bits(ty) / 8;
}

/* ---- symbols ---- */

/* Variables declared inside a body (.shared, .global, .const statics)
 * are laid out with the module, keyed by their declarator. */
typedef struct Static {
	const Declarator *dr;
	int space;
	uint64_t addr;
	int inited, bad;     /* its initializer evaluated; it could not be */
	UT_hash_handle hh;
} Static;

static Static *statics;

static Sym *sym_find(const char *name)
{
	Symbol *y = symtab_find(M->symtab, name);
	return y ? &M->syms[y->id] : NULL;
}

DFunc *find_func(const char *name)
{
	Sym *s = sym_find(name);
	return s ? s->fn : NULL;
}

/* Functions sit 16 bytes apart, as aligned as real code: the Itanium
 * ABI's pointer to member function is the function's address, with bit 0
 * set marking an offset into the vtable instead. */
#define FUNC_ALIGN 16

uint64_t func_addr(const DFunc *f)
{
	return MK_ADDR(TAG_FUNC, 0, f->idx * FUNC_ALIGN);
}

DFunc *func_at(uint64_t a)
{
	uint32_t off = (uint32_t)a;
	if ((a >> 32) != (uint64_t)TAG_FUNC << 24 || off % FUNC_ALIGN || off / FUNC_ALIGN >= M->nfuncs)
		return NULL;
	return M->funcs[off / FUNC_ALIGN];
}

const char *ins_text(const DIns *d)
{
	return d && d->st ? d->st->ins.sp->text : "?";
}

static uint32_t decl_align(const Decl *d)
{
	int al = var_align(d);
	return al > 0 ? (uint32_t)al : 1;
}

/* Scalars in an initializer, counting through nested braces. */
static uint32_t init_count(const Expr *e)
{
	if (!e)
		return 0;
	if (e->kind != E_BRACE)
		return 1;
	uint32_t n = 0;
	for (uint32_t i = 0; i < e->n; i++)
		n += init_count(e->kids[i]);
	return n;
}

static int const_dim(const Expr *e, uint64_t *v)
{
	Cval c;
	if (!e || e->kind != E_NUM || !parse_num(e->str, &c) || c.fk != FK_INT)
		return 0;
	*v = c.v;
	return 1;
}

/* Bytes of one declarator; 0 for an unsized extern array. */
static uint64_t var_size(const Decl *d, const Declarator *dr)
{
	uint64_t scalar = ty_bytes(d->type), elem = scalar * d->vec, n = 1;
	int open = 0;
	for (uint32_t i = 0; i < dr->ndims; i++) {
		uint64_t v;
		if (!dr->dims[i])
			open = 1;
		else if (const_dim(dr->dims[i], &v))
			n *= v;
		else
			return 0;
	}
	if (open) {
		uint64_t per = n * d->vec;
		uint64_t k = init_count(dr->init);
		n = per ? (k + per - 1) / per * n : 0;
	}
	return elem * n;
}

/* The interpreter's memory spaces for the IR's. */
static int space_code(Space k)
{
	switch (k) {
	case SPACE_GLOBAL: return SP_GLOBAL;
	case SPACE_CONST: return SP_CONST;
	case SPACE_SHARED: return SP_SHARED;
	case SPACE_LOCAL: return SP_LOCAL;
	case SPACE_PARAM: return SP_PARAM;
	default: return SP_NONE;
	}
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

static uint64_t place_const(uint64_t size, uint32_t align)
{
	uint64_t at = align_up(M->csize ? M->csize : 16, align);
	M->cbank = xrealloc(M->cbank, at + size + 1);
	memset(M->cbank + M->csize, 0, at + size + 1 - M->csize);
	M->csize = (uint32_t)(at + size);
	return at;
}

/* Where a variable lives; shared variables get their offsets later. */
static uint64_t place_var(int space, const Decl *d, const Declarator *dr, uint64_t size)
{
	uint32_t align = decl_align(d);
	switch (space) {
	case SP_GLOBAL:
		return gmem_place_var(size, dr->name);   /* slots are aligned past any .align */
	case SP_CONST:
		return place_const(size, align);
	case SP_SHARED: {
		uint64_t at = align_up(M->shared_static, align);
		M->shared_static = (uint32_t)(at + size);
		return at;
	}
	case SP_LOCAL: {
		uint64_t at = align_up(M->lstatic ? M->lstatic : 16, align);
		M->lstatic = (uint32_t)(at + size);
		return at;
	}
	}
	return 0;
}

/* An extern .shared array with no size is the dynamic window; it starts
 * after every static one, so its address is fixed up at launch. */
static int is_dyn_shared(int space, const Decl *d, uint64_t size)
{
	return space == SP_SHARED && size == 0 && d->linkage == LINK_EXTERN;
}

static DFunc *add_func(const Func *f)
{
	DFunc *fn = xcalloc(1, sizeof *fn);
	fn->f = f;
	fn->name = f->name;
	fn->idx = M->nfuncs;
	M->funcs = xreallocarray(M->funcs, M->nfuncs + 1, sizeof *M->funcs);
	M->funcs[M->nfuncs++] = fn;
	return fn;
}

/* What the symbol table says defines a name (the body, else the first
 * declaration; the definition, else the first .extern): a function, or a
 * variable's declaration.  An .alias names the function it declares
 * until follow_aliases makes it the aliasee. */
static void add_sym(Sym *s, const Symbol *y)
{
	const Stmt *at = y->def && y->def->kind != S_ALIAS ? y->def : y->decl;
	s->sym = y;
	if (y->def && y->def->kind == S_ALIAS)
		return;
	if (at->kind == S_FUNC) {
		s->fn = add_func(at->func);
		return;
	}
	if (at->kind != S_VAR)
		return;
	for (uint32_t i = 0; i < at->var.nds; i++)
		if (at->var.ds[i].name == y->name)
			s->dr = &at->var.ds[i];
	s->decl = &at->var;
	s->space = space_code(decl_space(s->decl));
}

/* .alias a, b: a is b, called or taken by address (an alias of an alias
 * too, followed a bounded number of times).  Its own declaration's
 * DFunc stays, unnamed. */
static void follow_aliases(void)
{
	for (Sym *s = M->syms; s < M->syms + M->nsyms; s++) {
		const Symbol *y = s->sym;
		for (int hop = 0; hop < 64 && y->def && y->def->kind == S_ALIAS; hop++) {
			const Expr *to = y->def->list.items[1];
			Symbol *t = to->kind == E_NAME ? symtab_find(M->symtab, to->str) : NULL;
			if (!t || t == y || !M->syms[t->id].fn)
				break;
			s->fn = M->syms[t->id].fn;
			y = t;
		}
	}
}

static void collect_statics(const List *l)
{
	for (Stmt *s = l->head; s; s = s->next) {
		if (s->kind == S_SCOPE) {
			collect_statics(&s->scope);
			continue;
		}
		if (s->kind != S_VAR)
			continue;
		int sp = space_code(decl_space(&s->var));
		if (sp != SP_SHARED && sp != SP_GLOBAL && sp != SP_CONST)
			continue;
		for (uint32_t i = 0; i < s->var.nds; i++) {
			const Declarator *dr = &s->var.ds[i];
			Static *st = xcalloc(1, sizeof *st);
			uint64_t size = var_size(&s->var, dr);
			st->dr = dr;
			st->space = sp;
			st->addr = is_dyn_shared(sp, &s->var, size) ? UINT64_MAX
				: place_var(sp, &s->var, dr, size);
			HASH_ADD_PTR(statics, dr, st);
		}
	}
}

/* ---- initializers ---- */

typedef struct Ctx Ctx;
static int ceval(const Expr *e, Cval *c, int generic, Ctx *x);
static int bound_value(Ctx *x, const char *name, int generic, uint64_t *v);

/* A variable's address in a constant expression: generic(sym) tags a
 * shared or const one; a .local one has no constant address. */
static int var_value(int space, uint64_t addr, int generic, uint64_t *v)
{
	*v = addr;
	if (generic && space == SP_SHARED)
		*v = MK_ADDR(TAG_SHARED, 0, addr);
	else if (generic && space == SP_CONST)
		*v = MK_ADDR(TAG_CONST, 0, addr);
	else if (space == SP_LOCAL)
		return 0;
	return 1;
}

/* A name in a constant expression: inside a body (x set) the innermost
 * block declaring it decides, and only names no block declares are the
 * module's symbols. */
static int sym_value(const char *name, int generic, uint64_t *v, Ctx *x)
{
	int r = x ? bound_value(x, name, generic, v) : -1;
	if (r >= 0)
		return r;
	Sym *s = sym_find(name);
	if (!s)
		return 0;
	if (s->fn) {
		*v = func_addr(s->fn);
		return 1;
	}
	if (s->space == SP_NONE || s->space == SP_PARAM)
		return 0;
	return var_value(s->space, s->addr, generic, v);
}

/* c = c op e's right operand. */
static int ceval_op(const Expr *e, Cval *c, int generic, Ctx *cx)
{
	Cval b;
	if (!ceval(e->kids[1], &b, generic, cx) || c->fk != FK_INT || b.fk != FK_INT)
		return 0;
	uint64_t x = c->v, y = b.v, r;
	switch (e->op) {
	case '+': r = x + y; break;
	case '-': r = x - y; break;
	case '*': r = x * y; break;
	case '/': if (!y) return 0; r = (uint64_t)((int64_t)x / (int64_t)y); break;
	case '%': if (!y) return 0; r = (uint64_t)((int64_t)x % (int64_t)y); break;
	case '&': r = x & y; break;
	case '|': r = x | y; break;
	case '^': r = x ^ y; break;
	case OP_SHL: r = y < 64 ? x << y : 0; break;
	case OP_SHR: r = y < 64 ? (uint64_t)((int64_t)x >> y) : 0; break;
	default: return 0;
	}
	c->v = r;
	return 1;
}

/* A chain a+b+c+... is as deep as it is long (ptxas takes 200,000
 * terms): its left spine is walked by a loop, and only right operands,
 * which the parser's stack keeps shallow, by recursion. */
static int ceval_bin(const Expr *e, Cval *c, int generic, Ctx *cx)
{
	const Expr *local[64], **spine = local, *x;
	uint32_t n = 0, ok;
	for (x = e; x->kind == E_BINARY; x = x->kids[0])
		n++;
	if (n > 64)
		spine = xreallocarray(NULL, n, sizeof *spine);
	n = 0;
	for (x = e; x->kind == E_BINARY; x = x->kids[0])
		spine[n++] = x;
	ok = ceval(x, c, generic, cx);
	while (ok && n)
		ok = ceval_op(spine[--n], c, generic, cx);
	if (spine != local)
		free(spine);
	return ok;
}

/* A constant expression: numbers, symbol addresses, generic(sym) and
 * mask(sym) byte selectors, and integer arithmetic over them. */
static int ceval(const Expr *e, Cval *c, int generic, Ctx *cx)
{
	switch (e->kind) {
	case E_NUM:
		return parse_num(e->str, c);
	case E_NAME:
		c->fk = FK_INT;
		return sym_value(e->str, generic, &c->v, cx);
	case E_PAREN:
		return e->n == 1 && ceval(e->kids[0], c, generic, cx);
	case E_UNARY:
		if (!ceval(e->kids[0], c, generic, cx))
			return 0;
		if (e->op == '-' && c->fk == FK_DEC)
			c->f = -c->f;
		else if (e->op == '-' && c->fk == FK_F32)
			c->v ^= 0x80000000u;
		else if (e->op == '-' && c->fk == FK_F64)
			c->v ^= 0x8000000000000000ull;
		else if (c->fk != FK_INT)
			return 0;
		else
			c->v = e->op == '-' ? -c->v : e->op == '~' ? ~c->v : !c->v;
		return 1;
	case E_BINARY:
		return ceval_bin(e, c, generic, cx);
	case E_CALL:
		if (e->n != 1)
			return 0;
		if (strcmp(expr_fname(e), "generic") == 0)
			return ceval(e->kids[0], c, 1, cx);
		Cval m;
		if (!parse_num(expr_fname(e), &m) || m.fk != FK_INT || !m.v || !ceval(e->kids[0], c, generic, cx))
			return 0;
		c->v = (c->v & m.v) >> __builtin_ctzll(m.v);
		return 1;
	}
	return 0;
}

/* The bits of an immediate as a value of type ty. */
static uint64_t cval_bits(const Cval *c, int ty)
{
	Opnd o = {.kind = O_IMM, .fk = (uint8_t)c->fk, .val = c->v, .fval = c->f};
	if (ty_float(ty))
		return f_from_imm(&o, ty);
	return c->fk == FK_DEC ? (uint64_t)(int64_t)c->f : c->v;
}

static int init_flat(const Expr *e, int ty, uint8_t *p, uint64_t size, uint64_t *at, Ctx *cx)
{
	if (e->kind == E_BRACE) {
		for (uint32_t i = 0; i < e->n; i++)
			if (!init_flat(e->kids[i], ty, p, size, at, cx))
				return 0;
		return 1;
	}
	uint32_t n = ty_bytes(ty);
	Cval c;
	if (!ceval(e, &c, 0, cx))
		return 0;
	uint64_t v = cval_bits(&c, ty);
	if (*at + n <= size)
		memcpy(p + *at, &v, n);
	*at += n;
	return 1;
}

/* An initializer it cannot evaluate makes the variable unusable: the
 * run stops only if the kernel touches it. */
static void init_var(Sym *s)
{
	if (!s->dr->init || s->unusable)
		return;
	uint8_t *p = s->space == SP_GLOBAL ? gmem_ptr(s->addr, s->size) : M->cbank + s->addr;
	uint64_t at = 0;
	if (p && !init_flat(s->dr->init, s->decl->type, p, s->size, &at, NULL))
		s->unusable = "has an initializer the interpreter cannot evaluate";
}

/* ---- the module ---- */

int layout_module(Module *m)
{
	M->symtab = symtab_build(m);
	M->nsyms = symtab_count(M->symtab);
	M->syms = xcalloc(M->nsyms + 1, sizeof *M->syms);
	for (uint32_t i = 0; i < M->nsyms; i++)
		add_sym(&M->syms[i], symtab_at(M->symtab, i));
	follow_aliases();
	for (Sym *s = M->syms; s < M->syms + M->nsyms; s++) {
		if (s->fn || !s->decl)
			continue;
		if (s->decl->type == TY_NONE || (ty_flags(s->decl->type) & TF_HANDLE)) {
			s->unusable = "is a texture, sampler or surface reference";
			continue;
		}
		s->size = (uint32_t)var_size(s->decl, s->dr);
		if (!s->sym->def && s->space != SP_SHARED)
			s->unusable = "is declared .extern and not defined in this module";
		s->align = decl_align(s->decl);
		if (is_dyn_shared(s->space, s->decl, s->size))
			s->is_extern_shared = 1;
		else
			s->addr = place_var(s->space, s->decl, s->dr, s->size);
	}
	for (uint32_t i = 0; i < M->nfuncs; i++)
		if (M->funcs[i]->f->has_body)
			collect_statics(&M->funcs[i]->f->body);
	/* the dynamic window follows the static variables */
	M->shared_static = (uint32_t)align_up(M->shared_static, 16);
	for (Sym *s = M->syms; s < M->syms + M->nsyms; s++)
		if (s->is_extern_shared)
			s->addr = M->shared_static;
	for (Static *st = statics; st; st = st->hh.next)
		if (st->addr == UINT64_MAX)
			st->addr = M->shared_static;
	for (Sym *s = M->syms; s < M->syms + M->nsyms; s++)
		if (!s->fn && s->decl && (s->space == SP_GLOBAL || s->space == SP_CONST))
			init_var(s);
	static const struct { const char *name; int bi; } builtins[] = {
		{"vprintf", BI_VPRINTF}, {"malloc", BI_MALLOC}, {"free", BI_FREE},
		{"__assertfail", BI_ASSERTFAIL},
	};
	for (uint32_t i = 0; i < M->nfuncs; i++)
		for (size_t k = 0; k < sizeof builtins / sizeof *builtins; k++)
			if (!M->funcs[i]->f->has_body && strcmp(M->funcs[i]->name, builtins[k].name) == 0)
				M->funcs[i]->builtin = builtins[k].bi;
	return 0;
}

/* ---- function bodies ---- */

/* From the run's arena: an operand tree a failed decode leaves half
 * built is freed with the rest, not leaked. */
static Opnd *kids_new(uint32_t n)
{
	if (!M->code)
		M->code = arena_new();
	return arena_alloc(M->code, (n ? n : 1) * sizeof(Opnd));
}

/* Names in a body resolve as the PTX ISA scopes them: to the innermost
 * enclosing block that declares them.  Registers and variables are bound
 * where declared (a use must follow its declaration), labels, prototypes
 * and target lists when their block is entered (a branch may go forward);
 * leaving a block unbinds all of its names, so sibling blocks may each
 * declare the same label.  This is the interpreter's own reading of the
 * rule, on purpose not ir/'s: it judges the stages that use ir/'s. */
enum {
	B_REG, B_VREG, B_RANGE, B_LOCAL, B_PARAM, B_KPARAM, B_LABEL, B_STATIC, B_BADSTATIC,
	B_TARGETS, B_PROTO,
};

typedef struct Bind {
	const char *name;
	int kind, space;
	uint64_t v;          /* B_RANGE: the N of %r<N>; B_TARGETS: its set, or */
	                     /* UINT64_MAX when a target is unknown */
	uint32_t seq;        /* binding order: the later of two names shadows */
	struct Bind *prev;
	UT_hash_handle hh;
	/* B_RANGE: the registers used so far, by number, each a B_REG bind;
	 * declaring %r<99999999> costs nothing until one is used */
	struct Bind *used;
	uint32_t index;
	UT_hash_handle rh;
} Bind;

/* The instruction index of each label, from a first pass. */
typedef struct LabelAt {
	const Stmt *s;
	uint32_t at;
	UT_hash_handle hh;
} LabelAt;

struct Ctx {
	DFunc *fn;
	Bind *names;         /* what each name means here */
	Bind **added;
	uint32_t nadded, capadded, seq;
	uint32_t nins;
	LabelAt *labels;
	Opnd **sets;
	uint32_t nsets;
};

static void bind(Ctx *c, const char *name, int kind, int space, uint64_t v)
{
	Bind *b = xcalloc(1, sizeof *b), *old;
	b->name = name;
	b->kind = kind;
	b->space = space;
	b->v = v;
	b->seq = ++c->seq;
	HASH_FIND_PTR(c->names, &name, old);
	if (old) {
		HASH_DEL(c->names, old);
		b->prev = old;
	}
	HASH_ADD_PTR(c->names, name, b);
	if (c->nadded == c->capadded) {
		c->capadded = c->capadded ? c->capadded * 2 : 256;
		c->added = xreallocarray(c->added, c->capadded, sizeof *c->added);
	}
	c->added[c->nadded++] = b;
}

static void unbind_to(Ctx *c, uint32_t mark)
{
	while (c->nadded > mark) {
		Bind *b = c->added[--c->nadded], *r, *tmp;
		HASH_DEL(c->names, b);
		if (b->prev)
			HASH_ADD_PTR(c->names, name, b->prev);
		HASH_ITER(rh, b->used, r, tmp) {
			HASH_DELETE(rh, b->used, r);
			free(r);
		}
		free(b);
	}
}

/* %r12 under a %r<N> with N > 12 (no leading zero): its register, given
 * a slot the first time it is used.  The innermost range that declares
 * %r12 decides: an inner %r<4> hides an outer %r<16>'s %r3, not its %r12. */
static Bind *range_reg(Ctx *c, const char *name)
{
	size_t n = strlen(name), base = n;
	while (base > 0 && name[base - 1] >= '0' && name[base - 1] <= '9')
		base--;
	if (base == n || base == 0 || (name[base] == '0' && base + 1 < n) || n - base > 9)
		return NULL;
	const char *stem = intern(name, base);
	Bind *r, *b;
	HASH_FIND_PTR(c->names, &stem, r);
	uint32_t index = (uint32_t)strtoul(name + base, NULL, 10);
	while (r && (r->kind != B_RANGE || index >= r->v))
		r = r->prev;
	if (!r)
		return NULL;
	HASH_FIND(rh, r->used, &index, sizeof index, b);
	if (!b) {
		b = xcalloc(1, sizeof *b);
		*b = (Bind){.name = name, .kind = B_REG, .v = c->fn->nregs++, .seq = r->seq, .index = index};
		HASH_ADD(rh, r->used, index, sizeof b->index, b);
	}
	return b;
}

static Bind *lookup(Ctx *c, const char *name)
{
	Bind *b, *r = range_reg(c, name);
	HASH_FIND_PTR(c->names, &name, b);
	if (r && (!b || r->seq > b->seq))
		return r;
	return b;
}

/* A name bound in the body, in a constant expression: 1 with its value,
 * 0 when it has none (a register, a frame variable, a label), -1 when
 * no block declares it. */
static int bound_value(Ctx *c, const char *name, int generic, uint64_t *v)
{
	Bind *b = lookup(c, name);
	if (!b)
		return -1;
	if (b->kind == B_STATIC)
		return var_value(b->space, b->v, generic, v);
	if (b->kind == B_KPARAM) {
		*v = b->v;
		return 1;
	}
	return 0;
}

/* First pass: the instruction index of every label. */
static void scan_labels(Ctx *c, const List *l)
{
	for (Stmt *s = l->head; s; s = s->next) {
		if (s->kind == S_INS)
			c->nins++;
		else if (s->kind == S_SCOPE)
			scan_labels(c, &s->scope);
		else if (s->kind == S_LABEL) {
			LabelAt *la = xcalloc(1, sizeof *la);
			la->s = s;
			la->at = c->nins;
			HASH_ADD_PTR(c->labels, s, la);
		}
	}
}

static int dec_opnd(Ctx *c, const Expr *e, Opnd *o);

/* A target list's labels (.branchtargets) or functions (.calltargets),
 * resolved where it is declared. */
static uint64_t dec_targets(Ctx *c, const Stmt *s)
{
	int want = strcmp(s->list.word, ".calltargets") == 0 ? O_FUNC : O_LABEL;
	Opnd *set = kids_new(s->list.nitems);
	for (uint32_t i = 0; i < s->list.nitems; i++)
		if (!dec_opnd(c, s->list.items[i], &set[i]) || set[i].kind != want)
			return UINT64_MAX;
	c->sets = xreallocarray(c->sets, c->nsets + 1, sizeof *c->sets);
	c->sets[c->nsets] = set;
	return c->nsets++;
}

/* Entering a block: its labels, prototypes and target lists, which its
 * instructions may name before they appear. */
static void bind_labels(Ctx *c, const List *l)
{
	for (Stmt *s = l->head; s; s = s->next) {
		LabelAt *la;
		if (s->kind == S_LABEL) {
			HASH_FIND_PTR(c->labels, &s, la);
			bind(c, s->label, B_LABEL, 0, la->at);
		} else if (s->kind == S_PROTO)
			bind(c, s->proto->label, B_PROTO, 0, (uint64_t)(uintptr_t)s->proto);
	}
	for (Stmt *s = l->head; s; s = s->next)
		if (s->kind == S_TARGETS)
			bind(c, s->list.label, B_TARGETS, (int)s->list.nitems, dec_targets(c, s));
}

/* .reg .v4 .f32 %v: four slots; %v names them all (an operand like
 * {a, b, c, d}), %v.x .. %v.w (or .r .g .b .a) one each. */
static void bind_vreg(Ctx *c, const char *name, int n)
{
	char buf[256];
	static const char *const comp[2][4] = {{"x", "y", "z", "w"}, {"r", "g", "b", "a"}};
	bind(c, name, B_VREG, n, c->fn->nregs);
	for (int k = 0; k < n; k++)
		for (int set = 0; set < 2 && k < 4; set++) {
			snprintf(buf, sizeof buf, "%s.%s", name, comp[set][k]);
			bind(c, intern_cstr(buf), B_REG, 0, c->fn->nregs + k);
		}
	c->fn->nregs += n;
}

static void bind_regs(Ctx *c, const Decl *d)
{
	for (uint32_t i = 0; i < d->nds; i++) {
		const Declarator *dr = &d->ds[i];
		if (d->vec > 1 && !dr->count) {
			bind_vreg(c, dr->name, d->vec);
			continue;
		}
		if (!dr->count) {
			bind(c, dr->name, B_REG, 0, c->fn->nregs++);
			continue;
		}
		bind(c, dr->name, B_RANGE, 0, strtoull(dr->count, NULL, 10));  /* slots as used */
	}
}

static void bind_frame_var(Ctx *c, const Decl *d, int space)
{
	for (uint32_t i = 0; i < d->nds; i++) {
		const Declarator *dr = &d->ds[i];
		uint64_t size = var_size(d, dr), align = decl_align(d);
		if (space == SP_LOCAL) {
			uint64_t at = align_up(c->fn->lsize, align);
			c->fn->lsize = (uint32_t)(at + size);
			if (align > c->fn->lalign)
				c->fn->lalign = (uint32_t)align;
			bind(c, dr->name, B_LOCAL, SP_LOCAL, at);
		} else {
			uint64_t at = align_up(c->fn->psize, align < 8 ? 8 : align);
			c->fn->psize = (uint32_t)(at + size);
			bind(c, dr->name, B_PARAM, SP_PARAM, at);
		}
	}
}

/* A static's initializer, evaluated where it is declared (its names are
 * the block's); the body is decoded on its first call, before any of its
 * code can have touched the variable.  0 if it cannot be evaluated. */
static int init_static(Ctx *c, const Decl *d, Static *st)
{
	if (!st->dr->init || st->inited++ || (st->space != SP_GLOBAL && st->space != SP_CONST))
		return !st->bad;
	uint64_t size = var_size(d, st->dr), at = 0;
	uint8_t *p = st->space == SP_GLOBAL ? gmem_ptr(st->addr, size) : M->cbank + st->addr;
	st->bad = p && !init_flat(st->dr->init, d->type, p, size, &at, c);
	return !st->bad;
}

static void bind_var(Ctx *c, const Decl *d)
{
	int sp = space_code(decl_space(d));
	if (decl_space(d) == SPACE_REG) {
		bind_regs(c, d);
		return;
	}
	if (sp == SP_LOCAL || sp == SP_PARAM) {
		bind_frame_var(c, d, sp);
		return;
	}
	for (uint32_t i = 0; i < d->nds; i++) {
		Static *st;
		const Declarator *dr = &d->ds[i];
		HASH_FIND_PTR(statics, &dr, st);
		if (!st)
			continue;
		if (!init_static(c, d, st))
			bind(c, dr->name, B_BADSTATIC, 0, 0);
		else
			bind(c, dr->name, B_STATIC, st->space, st->addr);
	}
}

static const char *why_name, *why_text;

/* %r1.b0, %r2.h10, %r3.b7654: a video instruction's register with a
 * byte or half-word selector (or a destination's mask); the handler
 * checks which it may take. */
static int dec_sel(Ctx *c, const char *name, Opnd *o)
{
	const char *dot = strrchr(name, '.');
	if (!dot || (dot[1] != 'b' && dot[1] != 'h') || !dot[2] || strlen(dot + 2) > 4)
		return 0;
	Bind *b = lookup(c, intern(name, (size_t)(dot - name)));
	if (!b || b->kind != B_REG)
		return 0;
	o->val = 0;
	for (const char *p = dot + 2; *p; p++) {
		if (*p < '0' || *p > '7')
			return 0;
		o->val = o->val << 4 | (uint64_t)(*p - '0');
	}
	o->kind = O_SEL;
	o->reg = (uint32_t)b->v;
	o->sel = (uint8_t)dot[1];
	o->n = (uint32_t)strlen(dot + 2);
	return 1;
}

static int dec_name(Ctx *c, const char *name, Opnd *o)
{
	Bind *b = lookup(c, name);
	if (name[0] == '_' && name[1] == 0) {
		o->kind = O_SINK;
		return 1;
	}
	if (b) {
		switch (b->kind) {
		case B_REG: o->kind = O_REG; o->reg = (uint32_t)b->v; return 1;
		case B_VREG:
			o->kind = O_VEC;
			o->n = (uint32_t)b->space;
			o->kids = kids_new(o->n);
			for (uint32_t k = 0; k < o->n; k++) {
				o->kids[k].kind = O_REG;
				o->kids[k].reg = (uint32_t)b->v + k;
			}
			return 1;
		case B_LOCAL: case B_PARAM:
			o->kind = O_FRAME; o->space = (uint8_t)b->space; o->val = b->v; return 1;
		case B_KPARAM: o->kind = O_IMM; o->val = b->v; return 1;
		case B_LABEL: o->kind = O_LABEL; o->reg = (uint32_t)b->v; return 1;
		case B_STATIC: o->kind = O_IMM; o->val = b->v; return 1;
		case B_BADSTATIC:
			why_name = name;
			why_text = "has an initializer the interpreter cannot evaluate";
			return 0;
		case B_PROTO: o->kind = O_NONE; return 1;
		case B_TARGETS:
			if (b->v == UINT64_MAX) {
				why_name = name;
				why_text = "names a label not declared where it is";
				return 0;
			}
			o->kind = O_LABELS;
			o->reg = (uint32_t)b->v;
			o->kids = c->sets[b->v];
			o->n = (uint32_t)b->space;
			return 1;
		}
	}
	Sym *s = sym_find(name);
	if (s && s->fn) {
		o->kind = O_FUNC;
		o->reg = s->fn->idx;
		o->val = func_addr(s->fn);
		return 1;
	}
	if (s && s->unusable) {
		why_name = name;
		why_text = s->unusable;
		return 0;
	}
	if (s && s->space != SP_NONE && s->space != SP_PARAM) {
		o->kind = O_IMM;
		o->val = s->addr;
		return 1;
	}
	int index, id = sreg_find(name, &index);
	if (id >= 0 && sreg_known(id, index)) {
		o->kind = O_SREG;
		o->reg = (uint32_t)id;
		o->val = (uint64_t)index;
		return 1;
	}
	if (dec_sel(c, name, o))
		return 1;
	if (strcmp(name, "WARP_SZ") == 0) {  /* the ISA's run-time constant: a warp's threads */
		o->kind = O_IMM;
		o->val = 32;
		return 1;
	}
	why_name = name;
	return 0;
}

/* base + constant: the shape of an address and of sym+offset.  The
 * constants by a loop: x+1+1+... is as deep as it is long. */
static int dec_lin(Ctx *c, const Expr *e, Opnd *base, int64_t *off)
{
	Cval k;
	while (e->kind == E_BINARY && (e->op == '+' || e->op == '-')) {
		if (ceval(e->kids[1], &k, 0, c) && k.fk == FK_INT &&
		    !lookup(c, e->kids[1]->kind == E_NAME ? e->kids[1]->str : "")) {
			*off = (int64_t)((uint64_t)*off + (e->op == '+' ? k.v : -k.v));
			e = e->kids[0];
		} else if (e->op == '+' && ceval(e->kids[0], &k, 0, c) && k.fk == FK_INT) {
			*off = (int64_t)((uint64_t)*off + k.v);
			e = e->kids[1];
		} else
			return 0;
	}
	if (!dec_opnd(c, e, base))
		return 0;
	if (base->kind == O_IMM && base->fk == FK_INT) {
		*off += (int64_t)base->val;
		base->kind = O_NONE;
		base->val = 0;
		return 1;
	}
	if (base->kind == O_FRAME) {
		base->val += (uint64_t)*off;
		*off = 0;
	}
	return base->kind == O_REG || base->kind == O_FRAME || base->kind == O_NONE ||
		base->kind == O_SREG;
}

static int dec_list(Ctx *c, const Expr *e, Opnd *o, int kind)
{
	o->kind = (uint8_t)kind;
	o->n = e->n;
	o->kids = kids_new(e->n);
	for (uint32_t i = 0; i < e->n; i++)
		if (!dec_opnd(c, e->kids[i], &o->kids[i]))
			return 0;
	return 1;
}

static int dec_opnd(Ctx *c, const Expr *e, Opnd *o)
{
	Cval k;
	memset(o, 0, sizeof *o);
	switch (e->kind) {
	case E_NAME:
		return dec_name(c, e->str, o);
	case E_NUM:
		if (!parse_num(e->str, &k))
			return 0;
		o->kind = O_IMM;
		o->fk = (uint8_t)k.fk;
		o->val = k.v;
		o->fval = k.f;
		return 1;
	case E_BRACE:
		return dec_list(c, e, o, O_VEC);
	case E_PAREN:
		if (e->n == 1 && ceval(e->kids[0], &k, 0, c)) {
			o->kind = O_IMM;
			o->fk = (uint8_t)k.fk;
			o->val = k.v;
			o->fval = k.f;
			return 1;
		}
		return dec_list(c, e, o, O_LIST);
	case E_ADDR: {
		if (e->n != 1)
			return 0;
		int64_t off = 0;
		o->kind = O_ADDR;
		o->kids = kids_new(1);
		if (!dec_lin(c, e->kids[0], &o->kids[0], &off))
			return 0;
		o->val = (uint64_t)off;
		return 1;
	}
	case E_UNARY:
		if (e->op == '!' && e->kids[0]->kind == E_NAME) {
			o->kind = O_NOT;
			o->kids = kids_new(1);
			return dec_opnd(c, e->kids[0], &o->kids[0]) && o->kids[0].kind == O_REG;
		}
		if (e->op == '-' && e->kids[0]->kind == E_NAME) {  /* vmad's -a */
			Opnd r;
			if (dec_opnd(c, e->kids[0], &r) && (r.kind == O_REG || r.kind == O_SEL)) {
				o->kind = O_NEG;
				o->kids = kids_new(1);
				o->kids[0] = r;
				return 1;
			}
		}
		break;
	case E_BINARY:
		if (e->op == '|' && e->kids[0]->kind == E_NAME && e->kids[1]->kind == E_NAME &&
		    lookup(c, e->kids[0]->str)) {
			o->kind = O_PAIR;
			o->kids = kids_new(2);
			return dec_opnd(c, e->kids[0], &o->kids[0]) && dec_opnd(c, e->kids[1], &o->kids[1]);
		}
		break;
	}
	/* a constant expression, or sym+offset */
	int64_t off = 0;
	Opnd base;
	if (ceval(e, &k, 0, c)) {
		o->kind = O_IMM;
		o->fk = (uint8_t)k.fk;
		o->val = k.v;
		o->fval = k.f;
		return 1;
	}
	if (e->kind == E_BINARY && dec_lin(c, e, &base, &off)) {
		if (base.kind == O_NONE) {
			o->kind = O_IMM;
			o->val = (uint64_t)off;
			return 1;
		}
		if (base.kind == O_FRAME) {
			*o = base;
			return 1;
		}
	}
	return 0;
}

/* ---- modifiers ---- */

/* The MG_FORM bits: the others are hints, or a space's qualifier. */
static const Mods form_mods = 0
#define MOD(name, word, group) | ((group) == MG_FORM ? M(name) : 0)
#include "ir/mods.h"
	;

/* Whether a modifier word asks nothing of a handler beyond the bits in
 * ok: a type, a state space the interpreter has, a memory-order, scope
 * or cache hint (nothing to a sequential interpreter without caches), or
 * a bit in ok. */
int mod_fine(ModWord w, Mods ok)
{
	switch (w.kind) {
	case MW_TYPE:
		return 1;
	case MW_SPACE:
		return space_code((Space)w.id) != SP_NONE;
	case MW_MOD:
		return mod_group(w.id) != MG_FORM || (ok & ((Mods)1 << w.id)) != 0;
	}
	return 0;
}

/* The first of sp's modifier words a handler taking ok cannot run; each
 * takes any rounding mode, comparison and vector width (and checks the
 * ones it reads). */
static const char *mods_beyond(const Spelling *sp, Mods ok)
{
	for (uint32_t i = 0; i < sp->nmods; i++) {
		ModWord w = sp->words[i];
		if (!mod_fine(w, ok) && w.kind != MW_RND && w.kind != MW_CMP && w.kind != MW_VEC)
			return sp->mods[i];
	}
	return NULL;
}

/* The spelling's decoded modifiers, as the handlers read them. */
static const char *dec_mods(DIns *d, const Spelling *sp, const Handler *h)
{
	static char why[128];
	if (sp->ntypes > 4)
		return "too many types";
	const char *bad = h->mods == RAW_MODS ? NULL : mods_beyond(sp, h->mods);
	if (bad) {
		snprintf(why, sizeof why, "modifier '%s'", bad);
		return why;
	}
	d->nty = sp->ntypes;
	memcpy(d->ty, sp->types, sizeof d->ty);
	d->space = (uint8_t)space_code((Space)sp->space);
	d->space2 = (uint8_t)space_code((Space)sp->space2);
	d->rnd = sp->rnd;
	d->cmp = sp->cmp;
	d->vec = sp->vec > 1 ? sp->vec : 0;
	d->mods = ((Mods)sp->set.w[1] << 64 | sp->set.w[0]) & form_mods;
	return NULL;
}

/* ---- instructions ---- */

static int ex_unsupported(Thread *t, const DIns *d)
{
	if (d->why)
		rt_fail(d, RUN_UNSUPPORTED, "unsupported instruction '%s' (%s)", ins_text(d), d->why);
	rt_fail(d, RUN_UNSUPPORTED, "unsupported instruction '%s'", ins_text(d));
}

static void unsupported(DIns *d, const char *why)
{
	d->fn = ex_unsupported;
	d->wfn = NULL;
	d->why = why ? xstrdup(why) : NULL;
}

/* An indirect call's prototype (the sizes of its results, then its
 * parameters) or .calltargets list as a fourth operand: a callee outside
 * the list or of another signature is undefined in PTX, and stops the
 * run (a stage that got either wrong is then not judged by luck). */
static int dec_call_bound(Ctx *c, const char *name, DIns *d)
{
	Bind *b = lookup(c, name);
	Opnd *o = &d->ops[3];
	if (!b || (b->kind == B_TARGETS && b->v == UINT64_MAX))
		return 0;
	if (b->kind == B_TARGETS) {
		o->kind = O_LABELS;
		o->kids = c->sets[b->v];
		o->n = (uint32_t)b->space;
		d->nops = 4;
		return 1;
	}
	if (b->kind != B_PROTO)
		return 0;
	const Proto *p = (const Proto *)(uintptr_t)b->v;
	o->kind = O_PROTO;
	o->val = p->nrets;
	o->n = p->nrets + p->nparams;
	o->kids = kids_new(o->n);
	for (uint32_t k = 0; k < o->n; k++) {
		const Decl *x = k < p->nrets ? &p->rets[k] : &p->params[k - p->nrets];
		o->kids[k].kind = O_IMM;
		o->kids[k].val = decl_space(x) == SPACE_REG ? UINT32_MAX : var_size(x, &x->ds[0]);
	}
	d->nops = 4;
	return 1;
}

/* call (rets), target, (args)[, proto or targets]: three operands
 * afterwards, four with a prototype or a .calltargets list. */
static int dec_call(Ctx *c, const Ins *in, DIns *d)
{
	uint32_t i = 0;
	Opnd *ops = kids_new(4);
	ops[0].kind = O_LIST;
	ops[2].kind = O_LIST;
	if (i < in->nops && in->ops[i]->kind == E_PAREN && in->nops > 1)
		if (!dec_opnd(c, in->ops[i++], &ops[0]))
			return 0;
	if (i >= in->nops || !dec_opnd(c, in->ops[i++], &ops[1]))
		return 0;
	if (ops[1].kind != O_FUNC && ops[1].kind != O_REG)
		return 0;
	if (i < in->nops && in->ops[i]->kind == E_PAREN)
		if (!dec_opnd(c, in->ops[i++], &ops[2]))
			return 0;
	d->ops = ops;
	d->nops = 3;
	if (i < in->nops && in->ops[i]->kind == E_NAME)
		return dec_call_bound(c, in->ops[i]->str, d);
	return i == in->nops;
}

static void dec_ins(Ctx *c, const Stmt *s, DIns *d)
{
	const Ins *in = &s->ins;
	const Handler *h = handler_for(in->sp);
	static char why[300];
	d->st = s;
	d->guard = -1;
	if (in->guard) {
		Bind *b = lookup(c, in->guard);
		if (!b || b->kind != B_REG) {
			snprintf(why, sizeof why, "unknown guard '%s'", in->guard);
			unsupported(d, why);
			return;
		}
		d->guard = (int32_t)b->v;
		d->gneg = (uint8_t)in->guard_neg;
	}
	if (!h) {
		unsupported(d, NULL);
		return;
	}
	const char *bad = dec_mods(d, in->sp, h);
	if (bad) {
		unsupported(d, bad);
		return;
	}
	if (in->sp->code == O_call) {
		if (!dec_call(c, in, d)) {
			unsupported(d, "call form");
			return;
		}
	} else {
		d->nops = (uint8_t)in->nops;
		d->ops = kids_new(in->nops);
		for (uint32_t i = 0; i < in->nops; i++) {
			why_name = why_text = NULL;
			if (!dec_opnd(c, in->ops[i], &d->ops[i])) {
				if (why_text)
					snprintf(why, sizeof why, "'%s' %s", why_name, why_text);
				else if (why_name)
					snprintf(why, sizeof why, "unknown name '%s'", why_name);
				else
					snprintf(why, sizeof why, "operand %u", i + 1);
				unsupported(d, why);
				return;
			}
		}
	}
	d->fn = h->fn;
	d->wfn = h->wfn;
	if (d->fn == ex_bar && (d->mods & M(warp))) {
		d->fn = NULL;  /* bar.warp.sync: a warp collective, not a block barrier */
		d->wfn = wx_warpsync;
	}
}

static void dec_list_stmts(Ctx *c, const List *l, uint32_t *k)
{
	for (Stmt *s = l->head; s; s = s->next) {
		switch (s->kind) {
		case S_INS:
			dec_ins(c, s, &c->fn->ins[(*k)++]);
			break;
		case S_VAR:
			bind_var(c, &s->var);
			break;
		case S_SCOPE: {
			uint32_t mark = c->nadded;
			bind_labels(c, &s->scope);
			dec_list_stmts(c, &s->scope, k);
			unbind_to(c, mark);
			break;
		}
		}
	}
}

/* The signature's parameters: the kernel's in the launch's .param block,
 * a function's at the start of its frame's .param area. */
static void bind_signature(Ctx *c)
{
	const Func *f = c->fn->f;
	DFunc *fn = c->fn;
	fn->nparams = f->nparams;
	fn->nrets = f->nrets;
	fn->poff = xcalloc(f->nparams + 1, sizeof *fn->poff);
	fn->psz = xcalloc(f->nparams + 1, sizeof *fn->psz);
	fn->roff = xcalloc(f->nrets + 1, sizeof *fn->roff);
	fn->rsz = xcalloc(f->nrets + 1, sizeof *fn->rsz);
	for (uint32_t i = 0; i < f->nrets; i++) {
		bind_frame_var(c, &f->rets[i], SP_PARAM);
		fn->rsz[i] = (uint32_t)var_size(&f->rets[i], &f->rets[i].ds[0]);
		fn->roff[i] = fn->psize - fn->rsz[i];
	}
	for (uint32_t i = 0; i < f->nparams; i++) {
		const Decl *p = &f->params[i];
		uint32_t size = (uint32_t)var_size(p, &p->ds[0]);
		if (f->is_entry) {
			uint64_t at = align_up(M->kpsize, decl_align(p));
			fn->poff[i] = (uint32_t)at;
			fn->psz[i] = size;
			M->kpsize = (uint32_t)(at + size);
			bind(c, p->ds[0].name, B_KPARAM, SP_PARAM, MK_ADDR(TAG_KPARAM, 0, at));
			continue;
		}
		if (decl_space(p) == SPACE_REG) {
			bind_regs(c, p);  /* old-style register parameters */
			fn->psz[i] = UINT32_MAX;
			continue;
		}
		bind_frame_var(c, p, SP_PARAM);
		fn->psz[i] = size;
		fn->poff[i] = fn->psize - size;
	}
}

void decode_func(DFunc *fn)
{
	Ctx c = {.fn = fn};
	if (fn->decoded)
		return;
	fn->decoded = 1;
	if (fn->f->is_entry)
		M->kpsize = 0;
	bind_signature(&c);
	scan_labels(&c, &fn->f->body);
	fn->ins = xcalloc(c.nins + 1, sizeof *fn->ins);
	fn->nins = c.nins;
	uint32_t k = 0;
	bind_labels(&c, &fn->f->body);
	dec_list_stmts(&c, &fn->f->body, &k);
	/* falling off the end returns */
	fn->ins[c.nins] = (DIns){.fn = handler_of(O_ret)->fn, .guard = -1, .st = NULL};
	fn->labelsets = c.sets;
	fn->nlabelsets = c.nsets;
	unbind_to(&c, 0);
	for (LabelAt *la = c.labels, *tmp; la; la = tmp) {
		tmp = la->hh.next;
		HASH_DEL(c.labels, la);
		free(la);
	}
	free(c.added);
	if (fn->lalign < 16)
		fn->lalign = 16;
}
