/* Where function addresses can go, over the whole module: what bounds the
 * callees of an indirect call when value tracking finds no single one.
 *
 * Flow-insensitively, every register of every function gets the set of
 * things it may hold:
 *   FUNC f+o   the address of function f
 *   TABLE t+o  the address of a table: a variable whose initializer holds
 *              function or table addresses (a vtable, a dispatch table)
 *   MEM+o      a value read from memory (then adjusted by o)
 *   SLOT k     a value read at [q + k] where q was itself read from memory:
 *              if q was a table address stored in memory (a vptr), this
 *              is that table's entry at the stored point plus k
 * and what leaves registers for memory (stores, call arguments and
 * returns, atomics) is recorded for the module:
 *   loose           functions whose address may sit in memory: stored by
 *                   code, or held by a table other than a vtable (the host
 *                   can copy it out and pass it back to a kernel);
 *   address points  table addresses (+ a known offset) that may sit in
 *                   memory, including those in variable initializers;
 *   wide tables     those whose address reaches memory with an unknown
 *                   offset, or that are written: every entry is loose.
 * A call through MEM is then bounded by the loose functions; one through
 * SLOT k by those plus every address point's entry at +k.  That is how
 * `ld %rd1, [obj]; ld %rd2, [%rd1+K]; call %rd2` resolves to the methods
 * in slot K of the vtables the program actually stores into objects.
 *
 * Assumption (what C++ guarantees of vtable pointers): a table address
 * read back from memory is only copied, compared or used to read the table
 * at constant offsets; it is never adjusted and stored again.  Host writes
 * into device variables (cudaMemcpyToSymbol) are not seen: use the answer
 * only for a closed world. */
#include <stdlib.h>
#include <string.h>
#include "ptrhash.h"
#include "ir.h"

enum { PT_FUNC, PT_TABLE, PT_MEM, PT_SLOT, NKINDS };
enum { MAX_OFFSETS = 4 };  /* more offsets of one symbol: any offset */
enum { SMALL = 8 };        /* sets up to this size are searched, not hashed */

typedef struct Pt {
	const char *sym;   /* FUNC, TABLE: its name */
	int64_t off;       /* SLOT: the slot k */
	uint8_t kind, any;
} Pt;

/* The places of one thing's entries in a set: at most MAX_OFFSETS, or
 * one at any offset. */
typedef struct Thing {
	const char *sym;
	uint8_t kind, n;
	uint32_t at[MAX_OFFSETS];
} Thing;

/* In insertion order (what flow_loose and the funnels' tests follow); a
 * set past SMALL entries also finds a thing's entries by a hash of it. */
typedef struct PtSet {
	Pt *v;
	uint32_t n, cap;
	Thing *ix;         /* open addressing, kind NKINDS: empty */
	uint32_t ixcap;
} PtSet;

typedef struct RegFlow {
	UT_hash_handle hh;
	const char *name;
	PtSet set;
} RegFlow;

typedef struct FuncFlow {
	UT_hash_handle hh;
	const Func *func;
	RegFlow *regs;
	Arena *arena;      /* the Flow's: where its RegFlows live */
} FuncFlow;

/* What the analysis follows of a symbol: every function, and every
 * variable whose initializer mentions one it follows (a table).  Kept per
 * symbol table id; the rest of what is known of a symbol is the table's. */
typedef struct Sym {
	const char *name;       /* NULL: not followed */
	const Declarator *var;  /* a table's declarator; NULL for a function */
	int slot;               /* its initializer's slot size, 0: not indexable */
	int global;             /* a table in .global: its generic address is the same */
	int exposed;            /* its address may be in memory, or it is written */
	int wide;
} Sym;

struct Flow {
	const Module *m;
	Arena *arena;      /* FuncFlows, RegFlows (their sets are malloc'd) */
	const SymTab *syms;
	Sym *state;        /* per symbol id */
	uint32_t nsyms;
	FuncFlow *funcs;
	PtSet loose, points;
	int grew;   /* a register set grew in this pass */
	int pointer;  /* bytes in an address: 8, or 4 with .address_size 32 */
};

/* ---- sets ------------------------------------------------------------- */

static int same_thing(const Pt *a, const Pt *b)
{
	return a->kind == b->kind && a->sym == b->sym;
}

static Thing *thing(const PtSet *s, const Pt *p)
{
	uint32_t mask = s->ixcap - 1, i = (ptr_hash(p->sym) + p->kind) & mask;
	while (s->ix[i].kind != NKINDS && (s->ix[i].kind != p->kind || s->ix[i].sym != p->sym))
		i = (i + 1) & mask;
	return &s->ix[i];
}

static void index_add(PtSet *s, uint32_t at)
{
	Thing *t = thing(s, &s->v[at]);
	t->sym = s->v[at].sym;
	t->kind = s->v[at].kind;
	t->at[t->n++] = at;
}

/* The index made again, twice as large as the set (entries moved). */
static void reindex(PtSet *s)
{
	free(s->ix);
	s->ix = NULL;
	if (s->n <= SMALL)
		return;
	for (s->ixcap = 16; s->ixcap < 4 * s->n; s->ixcap *= 2)
		;
	s->ix = xmalloc(s->ixcap * sizeof *s->ix);
	for (uint32_t i = 0; i < s->ixcap; i++)
		s->ix[i] = (Thing){.kind = NKINDS};
	for (uint32_t i = 0; i < s->n; i++)
		index_add(s, i);
}

/* Where p's thing has entries in s: their count. */
static uint32_t same_things(const PtSet *s, const Pt *p, uint32_t *at)
{
	uint32_t same = 0;
	if (s->ix) {
		const Thing *t = thing(s, p);
		memcpy(at, t->at, t->n * sizeof *at);
		return t->n;
	}
	for (uint32_t i = 0; i < s->n; i++)
		if (same_thing(&s->v[i], p))
			at[same++] = i;
	return same;
}

static int set_add(PtSet *s, Pt p)
{
	uint32_t at[MAX_OFFSETS + 1], same = same_things(s, &p, at);
	for (uint32_t i = 0; i < same; i++)
		if (s->v[at[i]].any || (!p.any && s->v[at[i]].off == p.off))
			return 0;
	if (p.any || same >= MAX_OFFSETS) {
		if (same) {  /* those entries go; the others keep their order */
			uint32_t k = 0;
			for (uint32_t i = 0; i < s->n; i++)
				if (!same_thing(&s->v[i], &p))
					s->v[k++] = s->v[i];
			s->n = k;
			reindex(s);
		}
		p.any = 1;
		p.off = 0;
	}
	s->v = array_grow(s->v, s->n, &s->cap, sizeof *s->v);
	s->v[s->n++] = p;
	if (s->ix && 2 * s->n <= s->ixcap)
		index_add(s, s->n - 1);
	else if (s->n > SMALL)
		reindex(s);
	return 1;
}

static void set_free(PtSet *s)
{
	free(s->v);
	free(s->ix);
}

static int set_union(PtSet *to, const PtSet *from)
{
	int grew = 0;
	for (uint32_t i = 0; i < from->n; i++)
		grew |= set_add(to, from->v[i]);
	return grew;
}

/* p moved by c bytes (any: by an unknown amount).  A SLOT value stays what
 * it is: arithmetic on a function pointer does not make another one. */
static Pt shifted(Pt p, int64_t c, int any)
{
	if (p.kind != PT_SLOT) {
		p.off += c;
		p.any |= any;
	}
	return p;
}

static Pt pt(int kind, const char *sym, int64_t off)
{
	return (Pt){sym, off, (uint8_t)kind, 0};
}

/* ---- symbols and tables ----------------------------------------------- */

static Sym *sym_find(const Flow *fl, const char *name)
{
	const Symbol *s = symtab_find(fl->syms, name);
	return s && fl->state[s->id].name ? &fl->state[s->id] : NULL;
}

static Sym *sym_add(Flow *fl, const char *name)
{
	const Symbol *s = symtab_find(fl->syms, name);
	if (!s)
		die("flow: '%s' is not in the symbol table", name);
	fl->state[s->id].name = s->name;
	return &fl->state[s->id];
}

/* The first kid by a loop: a chain a+b+c+... is as deep as it is long. */
static int mentions_sym(const Flow *fl, const Expr *e)
{
	for (; e->kind != E_NAME; e = e->kids[0]) {
		if (e->kind == E_NUM || !e->n)
			return 0;
		for (uint32_t i = 1; i < e->n; i++)
			if (mentions_sym(fl, e->kids[i]))
				return 1;
	}
	return sym_find(fl, e->str) != NULL;
}

/* An initializer element that is "symbol + constant": generic(f), t+16. */
static int eval_elem(const Flow *fl, const Expr *e, Pt *p)
{
	Value v;
	const Sym *s;
	if (!value_of_const(e, &v) || !v.sym || !(s = sym_find(fl, v.sym)))
		return 0;
	*p = pt(s->var ? PT_TABLE : PT_FUNC, s->name, v.off);
	return 1;
}

typedef struct Mentions {
	const Flow *fl;
	PtSet *out;
	int grew;
} Mentions;

static int add_mention(void *ctx, Expr **slot)
{
	Mentions *m = ctx;
	const Sym *s = (*slot)->kind == E_NAME ? sym_find(m->fl, (*slot)->str) : NULL;
	if (s) {
		Pt p = pt(s->var ? PT_TABLE : PT_FUNC, s->name, 0);
		p.any = s->var != NULL;
		m->grew |= set_add(m->out, p);
	}
	return 0;
}

/* Every symbol an initializer mentions, at an unknown offset. */
static int add_mentions(const Flow *fl, const Expr *e, PtSet *out)
{
	Mentions m = {fl, out, 0};
	expr_leaves((Expr **)&e, add_mention, &m);
	return m.grew;
}

/* What table t holds at byte offset off (any: anywhere). */
static int entries(const Flow *fl, const Sym *t, int64_t off, int any, PtSet *out)
{
	const Expr *init = t->var->init;
	if (any || !t->slot)
		return add_mentions(fl, init, out);
	if (off < 0 || off % t->slot)
		return 0;
	int64_t i = off / t->slot;
	const Expr *e = init_elem(init, &i);
	Pt p;
	if (!e)
		return 0;
	return eval_elem(fl, e, &p) ? set_add(out, p) : add_mentions(fl, e, out);
}

/* Functions by name; then tables, until no variable newly mentions one. */
static void find_syms(Flow *fl)
{
	for (const Stmt *s = fl->m->items.head; s; s = s->next)
		if (s->kind == S_FUNC)
			sym_add(fl, s->func->name);
	for (int grew = 1; grew;) {
		grew = 0;
		for (const Stmt *s = fl->m->items.head; s; s = s->next)
			for (uint32_t i = 0; s->kind == S_VAR && i < s->var.nds; i++) {
				const Declarator *d = &s->var.ds[i];
				if (!d->init || sym_find(fl, d->name) || !mentions_sym(fl, d->init))
					continue;
				Sym *t = sym_add(fl, d->name);
				t->var = d;
				t->slot = init_slot_size(&s->var);
				t->global = decl_space(&s->var) == SPACE_GLOBAL;
				grew = 1;
			}
	}
}

/* Table addresses in initializers are in memory from the start; one the
 * element does not spell as "table + constant" is at an unknown offset. */
static void initial_points(Flow *fl, const Expr *e)
{
	Pt p;
	if (e->kind == E_BRACE) {
		for (uint32_t i = 0; i < e->n; i++)
			initial_points(fl, e->kids[i]);
	} else if (eval_elem(fl, e, &p)) {
		if (p.kind == PT_TABLE)
			set_add(&fl->points, p);
	} else {
		PtSet all = {0};
		add_mentions(fl, e, &all);
		for (uint32_t i = 0; i < all.n; i++)
			if (all.v[i].kind == PT_TABLE)
				sym_find(fl, all.v[i].sym)->wide = 1;
		set_free(&all);
	}
}

/* ---- registers -------------------------------------------------------- */

static RegFlow *reg_flow(FuncFlow *ff, const char *name, int create)
{
	RegFlow *r;
	HASH_FIND_PTR(ff->regs, &name, r);
	if (!r && create) {
		r = arena_alloc(ff->arena, sizeof *r);
		r->name = name;
		HASH_ADD_PTR(ff->regs, name, r);
	}
	return r;
}

/* What operand e may hold, moved by c (any: by an unknown amount). */
static void expr_flow(const Flow *fl, FuncFlow *ff, const Expr *e, int64_t c, int any, PtSet *out)
{
	int64_t k;
	switch (e->kind) {
	case E_NAME: {
		const Sym *s = sym_find(fl, e->str);
		if (s) {
			set_add(out, shifted(pt(s->var ? PT_TABLE : PT_FUNC, s->name, 0), c, any));
			return;
		}
		const RegFlow *r = reg_flow(ff, e->str, 0);
		for (uint32_t i = 0; r && i < r->set.n; i++)
			set_add(out, shifted(r->set.v[i], c, any));
		return;
	}
	case E_NUM:
		return;
	case E_BINARY:
		if (e->op == '+' || e->op == '-') {
			/* a chain r+1+2+...: a loop, as deep as it is long */
			while (e->kind == E_BINARY && (e->op == '+' || e->op == '-') &&
			       e->kids[1]->kind == E_NUM && int_literal(e->kids[1]->str, &k)) {
				c = (int64_t)(e->op == '+' ? (uint64_t)c + (uint64_t)k : (uint64_t)c - (uint64_t)k);
				e = e->kids[0];
			}
			if (e->kind != E_BINARY) {
				expr_flow(fl, ff, e, c, any, out);
				return;
			}
			if (e->op != '+' && e->op != '-')
				break;  /* not moved by a constant: at any offset */
			if (e->op == '+' && e->kids[0]->kind == E_NUM && int_literal(e->kids[0]->str, &k)) {
				expr_flow(fl, ff, e->kids[1], c + k, any, out);
				return;
			}
		}
		any = 1;
		break;
	case E_CALL:
		any |= strcmp(expr_fname(e), "generic") != 0;
		break;
	case E_UNARY:
		any = 1;
		break;
	default:  /* ( ), { } lists, [ ] addresses */
		break;
	}
	for (uint32_t i = 0; i < e->n; i++)
		expr_flow(fl, ff, e->kids[i], c, any, out);
}

/* Can this load's destination hold an address?  A float, or an integer
 * narrower than a pointer, is taken to hold none (halves packed back into
 * a pointer count as memory again, see step). */
static int loads_pointer(const Flow *fl, const Ins *in)
{
	const Spelling *sp = in->sp;
	for (uint32_t i = 0; i < sp->ntypes && i < 4; i++)
		if (ty_size(sp->types[i]))
			return ty_size(sp->types[i]) == fl->pointer && !ty_floats(sp->types[i]);
	return 0;
}

/* The value a load from an address holding `addr` may give. */
static void load_flow(Flow *fl, const PtSet *addr, PtSet *out)
{
	int memory = addr->n == 0;
	for (uint32_t i = 0; i < addr->n; i++) {
		const Pt *a = &addr->v[i];
		if (a->kind == PT_TABLE) {
			const Sym *t = sym_find(fl, a->sym);
			entries(fl, t, a->off, a->any, out);
			memory |= t->exposed;
		} else {
			if (a->kind == PT_MEM) {
				Pt s = pt(PT_SLOT, NULL, a->off);
				s.any = a->any;
				set_add(out, s);
			}
			memory = 1;
		}
	}
	if (memory)
		set_add(out, pt(PT_MEM, NULL, 0));
}

static void grow(Flow *fl, PtSet *s, Pt p)
{
	fl->grew |= set_add(s, p);
}

/* A table whose address reaches memory at an unknown offset, or that code
 * writes: any entry, or anything stored into it, may be read back. */
static void widen(Flow *fl, const char *table)
{
	Sym *t = sym_find(fl, table);
	fl->grew |= !t->wide;
	t->wide = 1;
}

/* Values leaving registers for memory. */
static void escape(Flow *fl, const PtSet *vals)
{
	for (uint32_t i = 0; i < vals->n; i++) {
		Pt p = vals->v[i];
		if (p.kind == PT_FUNC)
			grow(fl, &fl->loose, pt(PT_FUNC, p.sym, 0));
		else if (p.kind == PT_TABLE && p.any)
			widen(fl, p.sym);
		else if (p.kind == PT_TABLE)
			grow(fl, &fl->points, p);
		/* memory read back and stored again adds nothing; a vtable entry
		 * copied out is never called through (is_vtable), and other
		 * tables' entries are loose anyway */
	}
}

static void written(Flow *fl, const PtSet *addr)
{
	for (uint32_t i = 0; i < addr->n; i++)
		if (addr->v[i].kind == PT_TABLE)
			widen(fl, addr->v[i].sym);
}

typedef struct DefSink {
	Flow *fl;
	FuncFlow *ff;
	const PtSet *val;
} DefSink;

static void def_gets(void *ctx, const char *name, OpRole role)
{
	DefSink *d = ctx;
	if (role == ROLE_USE || sym_find(d->fl, name))
		return;
	RegFlow *r = reg_flow(d->ff, name, 1);
	d->fl->grew |= set_union(&r->set, d->val);
}

/* add/sub: a pointer moved by a constant, or by an unknown amount; sub's
 * second operand makes a difference, not a pointer, but is kept anyway. */
static void arith_flow(const Flow *fl, FuncFlow *ff, const Ins *in, PtSet *out)
{
	int64_t k;
	int add = in->sp->code == O_add;
	const Expr *a = in->ops[1], *b = in->ops[2];
	int ka = a->kind == E_NUM && int_literal(a->str, &k) && add;
	int64_t ca = ka ? k : 0;
	int kb = b->kind == E_NUM && int_literal(b->str, &k);
	int64_t cb = kb ? (add ? k : -k) : 0;
	expr_flow(fl, ff, a, cb, !kb, out);
	expr_flow(fl, ff, b, ca, !ka, out);
}

/* One instruction's effect on the registers it defines and on memory. */
static void step(Flow *fl, FuncFlow *ff, const Ins *in)
{
	unsigned flags = in->sp->op ? in->sp->op->flags : OF_OPAQUE | OF_LOAD | OF_STORE;
	int op = in->sp->code;
	int copy = op == O_mov || op == O_cvta || op == O_selp || op == O_slct;
	if ((flags & OF_CALL) || op == O_setp)
		return;  /* arguments travel through st.param, seen there */
	PtSet src = {0}, addr = {0}, val = {0};
	const Expr *address = NULL;
	int packed = 0;  /* mov between a vector and a scalar */
	int defines = 0;
	for (uint32_t i = 0; i < in->nops; i++) {
		const Expr *e = in->ops[i];
		Operand role = ins_operand(in, i);
		packed |= e->kind == E_BRACE;
		if (role == OPND_DEF || role == OPND_MAYDEF)
			defines = 1;
		else if (OPND_IS_ADDRESS(role) && !address)
			address = e;
		else
			expr_flow(fl, ff, e, 0, 0, &src);
	}
	if (address)
		expr_flow(fl, ff, address, 0, 0, &addr);
	if ((op == O_ld || op == O_ldu) && address) {
		if (loads_pointer(fl, in))  /* narrower or float: not an address */
			load_flow(fl, &addr, &val);
	} else if (copy || ((op == O_add || op == O_sub) && in->nops == 3)) {
		if (copy)
			set_union(&val, &src);
		else
			arith_flow(fl, ff, in, &val);
		for (uint32_t i = 0; packed && i < val.n; i++)
			val.v[i] = shifted(val.v[i], 0, 1);
		if (packed)  /* halves read from memory may make an address again */
			set_add(&val, pt(PT_MEM, NULL, 0));
	} else {
		if (flags & (OF_STORE | OF_OPAQUE)) {
			escape(fl, &src);
			written(fl, &addr);
		}
		if (flags & OF_OPAQUE)
			escape(fl, &addr);
		if (flags & (OF_LOAD | OF_OPAQUE))
			set_add(&val, pt(PT_MEM, NULL, 0));
		for (uint32_t i = 0; i < src.n; i++)
			set_add(&val, shifted(src.v[i], 0, 1));
	}
	if (defines || (flags & OF_OPAQUE)) {
		DefSink sink = {fl, ff, &val};
		ins_names(in, def_gets, &sink);
	}
	set_free(&src);
	set_free(&addr);
	set_free(&val);
}

static void walk(Flow *fl, FuncFlow *ff, const List *l)
{
	BodyIt it;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it))
		if (s->kind == S_INS)
			step(fl, ff, &s->ins);
}

static FuncFlow *func_flow(const Flow *fl, const Func *f)
{
	FuncFlow *ff;
	HASH_FIND_PTR(fl->funcs, &f, ff);
	return ff;
}

/* An Itanium C++ ABI virtual table.  The language reads its slots only to
 * call them (a pointer to a virtual member holds a slot offset, not the
 * function), and host code cannot name it, so its entries reach memory
 * only as the vtable itself, through its address points. */
static int is_vtable(const char *name)
{
	return !strncmp(name, "_ZTV", 4);
}

/* What the escaped tables make loose. */
static void settle(Flow *fl)
{
	for (int grew = 1; grew;) {
		PtSet found = {0};
		/* a wide table's entries, and what the host may copy out of any
		 * table but a vtable (cudaMemcpyFromSymbol) and hand back in a
		 * kernel argument or a buffer */
		for (uint32_t i = 0; i < fl->nsyms; i++) {
			const Sym *t = &fl->state[i];
			if (t->var && (t->wide || !is_vtable(t->name)))
				entries(fl, t, 0, 1, &found);
		}
		grew = 0;
		for (uint32_t i = 0; i < found.n; i++)
			grew |= found.v[i].kind == PT_FUNC ?
				set_add(&fl->loose, pt(PT_FUNC, found.v[i].sym, 0)) :
				set_add(&fl->points, found.v[i]);
		set_free(&found);
	}
}

/* Which tables' contents may have been replaced or be reached through
 * memory: a load from them may also give anything memory holds. */
static int expose(Flow *fl)
{
	int grew = 0;
	for (uint32_t i = 0; i < fl->points.n; i++) {
		Sym *t = sym_find(fl, fl->points.v[i].sym);
		grew |= !t->exposed;
		t->exposed = 1;
	}
	for (uint32_t i = 0; i < fl->nsyms; i++)
		if (fl->state[i].wide && !fl->state[i].exposed)
			grew = fl->state[i].exposed = 1;
	return grew;
}

Flow *flow_build(const Module *m, const SymTab *syms)
{
	Flow *fl = xcalloc(1, sizeof *fl);
	fl->m = m;
	fl->syms = syms;
	fl->nsyms = symtab_count(syms);
	fl->state = xcalloc(fl->nsyms + 1, sizeof *fl->state);
	fl->arena = arena_new();
	fl->pointer = pointer_bytes(m);
	find_syms(fl);
	for (const Stmt *s = m->items.head; s; s = s->next)
		for (uint32_t i = 0; s->kind == S_VAR && i < s->var.nds; i++)
			if (s->var.ds[i].init)
				initial_points(fl, s->var.ds[i].init);
	for (const Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body && !func_flow(fl, s->func)) {
			FuncFlow *ff = arena_alloc(fl->arena, sizeof *ff);
			ff->func = s->func;
			ff->arena = fl->arena;
			HASH_ADD_PTR(fl->funcs, func, ff);
		}
	expose(fl);
	do {
		FuncFlow *ff, *tmp;
		HASH_ITER(hh, fl->funcs, ff, tmp)
			do {
				fl->grew = 0;
				walk(fl, ff, &ff->func->body);
			} while (fl->grew);
		settle(fl);
	} while (expose(fl));
	return fl;
}

void flow_free(Flow *fl)
{
	if (!fl)
		return;
	for (FuncFlow *ff = fl->funcs; ff; ff = ff->hh.next) {
		for (RegFlow *r = ff->regs; r; r = r->hh.next)
			set_free(&r->set);
		HASH_CLEAR(hh, ff->regs);
	}
	HASH_CLEAR(hh, fl->funcs);
	free(fl->state);
	arena_free(fl->arena);
	set_free(&fl->loose);
	set_free(&fl->points);
	free(fl);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Stops counting a little past max: the caller only needs to know it is
 * too many. */
int flow_callees(const Flow *fl, const Func *f, const char *reg, const char **out, int max)
{
	FuncFlow *ff = func_flow(fl, f);
	RegFlow *r = ff ? reg_flow(ff, reg, 0) : NULL;
	if (!r)
		return 0;
	PtSet c = {0};
	for (uint32_t i = 0; i < r->set.n && c.n <= (uint32_t)max; i++) {
		const Pt *p = &r->set.v[i];
		if (p->kind == PT_FUNC && (p->any || p->off == 0))
			set_add(&c, pt(PT_FUNC, p->sym, 0));
		if (p->kind == PT_MEM || p->kind == PT_SLOT)
			set_union(&c, &fl->loose);
		for (uint32_t j = 0; p->kind == PT_SLOT && j < fl->points.n && c.n <= (uint32_t)max; j++) {
			const Pt *q = &fl->points.v[j];
			PtSet e = {0};
			entries(fl, sym_find(fl, q->sym), q->off + p->off, q->any || p->any, &e);
			for (uint32_t k = 0; k < e.n; k++)
				if (e.v[k].kind == PT_FUNC)
					set_add(&c, pt(PT_FUNC, e.v[k].sym, 0));
			set_free(&e);
		}
	}
	int n = (int)c.n;
	for (int i = 0; i < n && i < max; i++)
		out[i] = c.v[i].sym;
	set_free(&c);
	if (n <= max)
		qsort(out, (size_t)n, sizeof *out, by_name);
	return n;
}

int flow_loose(const Flow *fl, const char **out, int max)
{
	int n = 0;
	for (uint32_t i = 0; i < fl->loose.n; i++, n++)
		if (n < max)
			out[n] = fl->loose.v[i].sym;
	return n;
}

int flow_slot_points(const Flow *fl, const Func *f, const char *reg, FlowPoint *out, int max)
{
	FuncFlow *ff = func_flow(fl, f);
	RegFlow *r = ff ? reg_flow(ff, reg, 0) : NULL;
	const Pt *slot = NULL;
	for (uint32_t i = 0; r && i < r->set.n; i++) {
		const Pt *p = &r->set.v[i];
		if (p->kind == PT_SLOT && !p->any && !slot)
			slot = p;
		else if (p->kind != PT_MEM || p->any || p->off)
			return -1;
	}
	if (!slot)
		return -1;
	int n = 0;
	for (uint32_t j = 0; j < fl->points.n && n <= max; j++) {
		const Pt *q = &fl->points.v[j];
		const Sym *t = sym_find(fl, q->sym);
		if (q->any || !t->global)
			return -1;
		PtSet e = {0};
		entries(fl, t, q->off + slot->off, 0, &e);
		for (uint32_t i = 0; i < e.n; i++)
			if (e.v[i].kind == PT_FUNC && !e.v[i].any && !e.v[i].off) {
				if (n < max)
					out[n] = (FlowPoint){t->name, q->off, e.v[i].sym};
				n++;
			}
		set_free(&e);
	}
	return n;
}
