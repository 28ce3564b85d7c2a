/* reroll.c: NVVM's fully unrolled loops around calls rolled back (issue 33).
 *
 * NVVM unrolls a constant-trip loop before any link, so a loop around a
 * call to a function in another file reaches ptxlink as k copies of its
 * body, each with a call: the inliner then copies the callee k times or
 * leaves k calls.  nvcc -dlto inlines first and unrolls after.  This
 * stage, before inlining, turns such copies back into one loop, so that
 * the callee goes in once; ptxas unrolls again as it sees fit:
 *
 *     { st.param.b32 [param0+0], 1;            mov.b32 %rrv, 1;
 *       call (retval0), f, (param0);           mov.b32 %rrc, 0;
 *       ld.param.b32 %r2, [retval0+0]; }       mov.b32 %r5, 0;
 *     add.s32 %r3, %r2, 0;                $L__reroll:
 *     { st.param.b32 [param0+0], 4;            { st.param.b32 [param0+0], %rrv;
 *       call (retval0), f, (param0);     ->      call (retval0), f, (param0);
 *       ld.param.b32 %r4, [retval0+0]; }          ld.param.b32 %r4, [retval0+0]; }
 *     add.s32 %r5, %r3, %r4;                   add.s32 %r5, %r5, %r4;
 *     ... (copies 3 to k)                      add.s32 %rrv, %rrv, 3; ...
 *                                              @%rrp bra $L__reroll;
 *                                              mov.b32 %r9, %r5;  (the last copy's sum)
 *
 * What matches, exactly or not at all: k >= 2 consecutive runs of the
 * function body's own statements (a callseq's { } block compared
 * statement by statement), the same instructions and operand shapes, one
 * copy's order of a commutative instruction's two sources allowed to
 * differ.  The second copy is the body; against it, every operand of
 * every copy is one of: a register the copy itself wrote before; a
 * register the previous copy wrote at the same place (carried: the first
 * copy reads the initial value there instead, a literal or a register no
 * copy writes); the same name or literal in every copy (no copy writes
 * it); an integer operand that is c0 + j*d in copy j (a progression: a
 * register stepping by d), or c0 + j*d + e*j*(j-1)/2 in 4 copies or more
 * (second order, as LLVM's SCEV has it: `h += i` before a use of h * 27
 * gives 0, 27, 81, 162; the register steps by a register stepping by
 * e); the offset C of a load's or store's [%base+C] that steps so, %base
 * written by no copy (the address becomes %base plus the step's register,
 * an offset into %base's object: a[i] = f(i)).  Each register a copy
 * writes is written by no other copy, where the template writes its own
 * (both sides of an if/else may write one), and only the last copy's
 * are read after the run (they get the loop's final values); a read is
 * carried only where no path inside the template leads from a write of
 * the template's register to it.  A copy may hold labels of its own and
 * branches (guarded or not, among the body's own statements) to them,
 * as where NVVM inlined a callee with an if/else into each copy: a
 * branch out of a copy, a label named outside its copy, a template that
 * ends in a branch, an opaque instruction are not rolled.  At least one
 * call (--reroll-any: without one too, for tests).  What fails any of it
 * stays as it is.
 *
 * Runs are found by their calls: calls to one function (or, with
 * --reroll-any, instructions of one spelling) at equal distances, or m
 * to a copy, each one copy after its like in the copy before; each is
 * tried at each place its copies may start, with a first copy before it
 * whose step NVVM folded away (given back), whole, and without its first
 * or last copy or both (NVVM's first and last copies often differ).
 * Copies and their length are bounded, so the cost grows linearly with
 * the body.
 *
 * requires: normalized IR / maintains: the module's symbols, every
 * depot / breaks: any CFG or analysis of the functions it changes. */
#include <stdlib.h>
#include <string.h>
#include "stages.h"
#include "ir/ptrhash.h"

/* bounds on a run: statements per copy and copies (a 3x3 stencil is 9,
 * NVVM's full unroll of a 16-trip loop 16; a copy with its callee
 * inlined by NVVM already, 111 statements in a generated program) */
enum { MAX_LEN = 256, MAX_COPIES = 32 };

/* A load or store whose address steps from copy to copy is rolled only
 * in 3 copies or more of at least this many items (instructions, blocks,
 * declarations) each: an array written at constant offsets may be held
 * in registers by the depot stage, one written at a run-time offset is
 * not, and a small copy saves less code than that costs.  Measured on
 * the generated yardstick's FIT half and seeds 121-240: the copies
 * whose rolling put a program over its peers' stack had 10 to 27 items,
 * those whose rolling brought one within 5% of SASS 41 to 231; 24 lost
 * one program, 48 another, 32 none. */
enum { MIN_STEPPED_ITEMS = 32 };

/* Walks over a template with branches, each as long as the template,
 * one per read that may be carried: past this many the run is not
 * rolled, so that a match costs at most this many times its length. */
enum { MAX_WALKS = 64 };

/* What an operand of the template (the second copy) is across the copies */
enum { R_DEF, R_SAME, R_LOCAL, R_CARRIED, R_PROG, R_APROG };

/* A leaf: a name or literal an operand holds, or a whole operand that is
 * an integer literal (top). */
typedef struct Leaf {
	Expr **slot;
	const char *name;      /* a name, else NULL */
	const char *num;       /* a nested literal's spelling */
	int64_t val;
	uint16_t item;         /* the copy's item (instruction) holding it */
	uint8_t def, top, k;   /* written; a whole integer operand; its operand */
	uint8_t aoff;          /* the offset of a load's or store's [%reg+C] (in val) */
	uint8_t lab;           /* a label: a branch's target, or (def) the label's line */
} Leaf;

/* Leaf.k of an instruction's guard, which has no operand slot */
enum { K_GUARD = 255 };

/* A copy flattened: its instructions and declarations, scopes marked */
typedef struct Copy {
	Stmt *item[MAX_LEN * 4];
	uint32_t nitem;
	Leaf *leaf;
	uint32_t nleaf, capleaf;
	uint32_t *first;       /* per item: its first leaf */
} Copy;

typedef struct Role {
	uint8_t kind;
	uint32_t q;            /* R_LOCAL, R_CARRIED: the defining leaf */
	int64_t c0, d, e;      /* R_PROG, R_APROG: copy 0's value, the step, the step's step */
	uint8_t known, bits;   /* R_PROG: d known (1), e too (2); the register's width */
	const Expr *init;      /* R_CARRIED: what the first copy reads */
	/* the rewrite's, R_PROG and R_APROG: */
	const char *reg;       /* the register the progression is in the loop */
	const char *step;      /* a second order's: the register its step is */
	uint8_t owns;          /* this leaf made reg (the latch steps it) */
	const char *addr;      /* R_APROG: %base + reg, one per base and reg */
} Role;

typedef struct DefName {
	const char *name;
	uint32_t copy, leaf;
	int64_t in;            /* mentions in the run */
	UT_hash_handle hh;
} DefName;

typedef struct Count {
	const char *name;
	int64_t n;
	UT_hash_handle hh;
} Count;

typedef struct Stats {
	unsigned loops, copies;
} Stats;

/* An instruction of a first copy renamed (try_first_step), to undo */
typedef struct Renamed {
	Stmt *s;
	Expr **ops;          /* the instruction's operands before */
} Renamed;

typedef struct Rr {
	Module *m;
	const StageOptions *o;
	Func *f;
	Stmt **st;             /* the body's own statements, .loc left out */
	uint32_t nst;
	Count *counts;         /* mentions of each name in the function */
	Arena *arena;          /* one attempt's */
	Copy cp[MAX_COPIES];
	DefName *defs;
	Role *role;
	const char **scoped;   /* names the template's blocks declare */
	uint32_t nscoped, capscoped;
	Names names;
	int named;
	int branchy;           /* the template has a branch */
	uint32_t walks;        /* write_reaches' walks in this match */
	Stmt **win;            /* try_first_step's window of copies, made once */
	Renamed *undo;         /* and its renamed instructions */
	Stats *stats;
} Rr;

/* ---- mentions ------------------------------------------------------------ */

static void count_name(Rr *r, const char *name, int delta)
{
	Count *c;
	HASH_FIND_PTR(r->counts, &name, c);
	if (!c) {
		c = xcalloc(1, sizeof *c);
		c->name = name;
		HASH_ADD_PTR(r->counts, name, c);
	}
	c->n += delta;
}

static int count_leaf(void *ctx, Expr **slot)
{
	const int *delta = ((void **)ctx)[1];
	if ((*slot)->kind == E_NAME)
		count_name(((void **)ctx)[0], (*slot)->str, *delta);
	return 0;
}

static void count_ins(Rr *r, Ins *in, int delta)
{
	void *ctx[2] = {r, &delta};
	for (uint32_t k = 0; k < in->nops; k++)
		expr_leaves(&in->ops[k], count_leaf, ctx);
	if (in->guard)
		count_name(r, in->guard, delta);
}

/* Each name an instruction (or every instruction of a block) mentions,
 * counted delta times. */
static void count_stmt(Rr *r, Stmt *s, int delta)
{
	if (s->kind == S_INS)
		count_ins(r, &s->ins, delta);
	if (s->kind != S_SCOPE)
		return;
	BodyIt it;
	for (Stmt *x = body_first(&s->scope, &it); x; x = body_next(&it))
		if (x->kind == S_INS)
			count_ins(r, &x->ins, delta);
	body_end(&it);
}

static int64_t mentions(const Rr *r, const char *name)
{
	Count *c;
	HASH_FIND_PTR(r->counts, &name, c);
	return c ? c->n : 0;
}

/* ---- a copy's items and leaves ---------------------------------------------- */

/* An instruction a copy may hold; a branch (bra) only among the body's
 * own statements, not in a block. */
static int plain_ins(const Ins *in, int top)
{
	const Opcode *op = in->sp->op;
	if (!op || (op->flags & (OF_TERM | OF_OPAQUE)) ||
	    ((op->flags & OF_BRANCH) && (in->sp->code != O_bra || !top)))
		return 0;
	for (uint32_t k = 0; k < in->nops; k++)
		if (ins_operand(in, k) == OPND_MAYDEF)
			return 0;
	return 1;
}

static Leaf *leaf_new(Rr *r, Copy *c, const Leaf *proto, Expr **slot)
{
	if (c->nleaf == c->capleaf) {
		uint32_t cap = c->capleaf ? 2 * c->capleaf : 64;
		Leaf *l = arena_alloc(r->arena, cap * sizeof *l);
		if (c->nleaf)
			memcpy(l, c->leaf, c->nleaf * sizeof *l);
		c->leaf = l, c->capleaf = cap;
	}
	Leaf *l = &c->leaf[c->nleaf++];
	*l = *proto;
	l->slot = slot;
	return l;
}

static int add_leaf(void *ctx, Expr **slot)
{
	Leaf *l = leaf_new(((void **)ctx)[0], ((void **)ctx)[1], ((void **)ctx)[2], slot);
	if ((*slot)->kind == E_NAME)
		l->name = is_sink(*slot) ? NULL : (*slot)->str;
	else
		l->num = (*slot)->str;
	return 0;
}

/* An instruction's leaves in operand order; a whole integer operand
 * (5, -1) is one. */
static void leaves_of(Rr *r, Copy *c, Stmt *s, int top)
{
	Ins *in = &s->ins;
	for (uint32_t k = 0; k < in->nops; k++) {
		Leaf proto = {.item = (uint16_t)(c->nitem - 1), .k = (uint8_t)k,
			.def = ins_operand(in, k) == OPND_DEF};
		int64_t v;
		if (int_operand(in->ops[k], &v)) {
			Leaf *l = leaf_new(r, c, &proto, &in->ops[k]);
			l->val = v, l->top = 1;
			continue;
		}
		void *ctx[3] = {r, c, &proto};
		expr_leaves(&in->ops[k], add_leaf, ctx);
		if (in->sp->code == O_bra)
			c->leaf[c->nleaf - 1].lab = 1;
		const Expr *a = in->ops[k], *b = a->kind == E_ADDR && a->n == 1 ? a->kids[0] : NULL;
		if (top && (in->sp->code == O_ld || in->sp->code == O_st) && b && b->kind == E_BINARY &&
		    b->op == '+' && b->kids[0]->kind == E_NAME && b->kids[0]->str[0] == '%' &&
		    int_operand(b->kids[1], &v)) {
			Leaf *l = &c->leaf[c->nleaf - 1];   /* the offset, the base's leaf before it */
			l->aoff = 1, l->val = v;
		}
	}
	if (in->guard) {
		Leaf proto = {.item = (uint16_t)(c->nitem - 1), .k = K_GUARD, .name = in->guard};
		leaf_new(r, c, &proto, NULL);
	}
}

/* One statement of a copy into its items: instructions, declarations,
 * and each block as its S_SCOPE and a NULL at its end. */
static int flatten_stmt(Rr *r, Copy *c, Stmt *s)
{
	Stmt *stack[16];
	uint32_t depth = 0;
	for (;;) {
		if (c->nitem + 2 > sizeof c->item / sizeof *c->item)
			return 0;
		if (!s) {
			if (!depth)
				return 1;
			c->item[c->nitem++] = NULL;
			s = stack[--depth];
			continue;
		}
		Stmt *next = depth ? s->next : NULL;
		if (s->kind == S_SCOPE) {
			if (depth == 16)
				return 0;
			c->item[c->nitem++] = s;
			stack[depth++] = next;
			s = s->scope.head;
			continue;
		}
		if (s->kind == S_INS) {
			if (!plain_ins(&s->ins, !depth))
				return 0;
			c->item[c->nitem++] = s;
			leaves_of(r, c, s, !depth);
		} else if (s->kind == S_LABEL && !depth) {
			Leaf proto = {.item = (uint16_t)c->nitem, .name = s->label, .def = 1, .lab = 1};
			c->item[c->nitem++] = s;
			leaf_new(r, c, &proto, NULL);
		} else if (s->kind == S_VAR && depth) {
			c->item[c->nitem++] = s;
		} else if (s->kind != S_LOC) {
			return 0;
		}
		s = next;
	}
}

/* A copy's statements, st[from .. from+len), flattened, and where each
 * item's leaves start. */
static int flatten(Rr *r, Copy *c, uint32_t from, uint32_t len)
{
	c->nitem = c->nleaf = c->capleaf = 0;
	c->leaf = NULL;
	for (uint32_t i = from; i < from + len; i++)
		if (!flatten_stmt(r, c, r->st[i]))
			return 0;
	c->first = arena_alloc(r->arena, (c->nitem + 1) * sizeof *c->first);
	for (uint32_t i = 0, l = 0; i <= c->nitem; i++) {
		while (l < c->nleaf && c->leaf[l].item < i)
			l++;
		c->first[i] = l;
	}
	return 1;
}

/* ---- comparing a copy with the template ------------------------------------- */

/* A block's declarations: a callseq's .param arguments, byte arrays
 * too (param2[8]); no initializers. */
static int same_decl(const Decl *a, const Decl *b)
{
	if (a->nds != b->nds || a->type != b->type || a->space != b->space || a->vec != b->vec ||
	    a->align != b->align)
		return 0;
	for (uint32_t i = 0; i < a->nds; i++) {
		const Declarator *x = &a->ds[i], *y = &b->ds[i];
		if (x->name != y->name || x->count != y->count || x->ndims != y->ndims || x->init || y->init)
			return 0;
		for (uint32_t d = 0; d < x->ndims; d++)
			if (!x->dims[d] || !y->dims[d] || x->dims[d]->kind != E_NUM ||
			    y->dims[d]->kind != E_NUM || x->dims[d]->str != y->dims[d]->str)
				return 0;
	}
	return 1;
}

/* The same tree but for its leaves (a leaf may be a name in one and a
 * literal in the other: the roles decide); a whole integer operand (top)
 * is a leaf. */
static int same_shape(const Expr *a, const Expr *b, int top)
{
	int64_t v;
	int la = a->kind == E_NAME || a->kind == E_NUM || (top && int_operand(a, &v));
	int lb = b->kind == E_NAME || b->kind == E_NUM || (top && int_operand(b, &v));
	if (la || lb)
		return la && lb;
	if (a->kind != b->kind || a->op != b->op || a->n != b->n)
		return 0;
	for (uint32_t i = 0; i < a->n; i++)
		if (!same_shape(a->kids[i], b->kids[i], 0))
			return 0;
	return 1;
}

/* Two initial values the same: a name, a literal, an integer's value */
static int same_value(const Expr *a, const Expr *b)
{
	int64_t x, y;
	if (int_operand(a, &x) && int_operand(b, &y))
		return x == y;
	return a->kind == b->kind && (a->kind == E_NAME || a->kind == E_NUM) && a->str == b->str;
}

static int commutes(const Ins *in)
{
	switch (in->sp->code) {
	case O_add: case O_mul: case O_and: case O_or: case O_xor: case O_min: case O_max:
		return in->nops == 3 && !spelling_has(in->sp, MOD_cc);
	default:
		return 0;
	}
}

static int same_item(const Stmt *a, const Stmt *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind)
		return 0;
	if (a->kind == S_VAR)
		return same_decl(&a->var, &b->var);
	if (a->kind == S_SCOPE)
		return 1;
	if (a->kind == S_LABEL)
		return 1;
	const Ins *x = &a->ins, *y = &b->ins;
	if (x->sp != y->sp || x->nops != y->nops || !x->guard != !y->guard ||
	    x->guard_neg != y->guard_neg)
		return 0;
	for (uint32_t k = 0; k < x->nops; k++)
		if (!same_shape(x->ops[k], y->ops[k], 1))
			return 0;
	return 1;
}

/* ---- roles --------------------------------------------------------------- */

static int scoped(const Rr *r, const char *name)
{
	for (uint32_t i = 0; i < r->nscoped; i++)
		if (r->scoped[i] == name)
			return 1;
	return 0;
}

static void collect_scoped(Rr *r, const Copy *t)
{
	r->nscoped = 0;
	for (uint32_t i = 0; i < t->nitem; i++) {
		const Stmt *s = t->item[i];
		if (!s || s->kind != S_VAR)
			continue;
		for (uint32_t d = 0; d < s->var.nds; d++) {
			r->scoped = array_grow(r->scoped, r->nscoped, &r->capscoped, sizeof *r->scoped);
			r->scoped[r->nscoped++] = s->var.ds[d].name;
		}
	}
}

/* Every register a copy writes (and label it has), by one copy only,
 * at its first write. */
static int index_defs(Rr *r, uint32_t k)
{
	for (uint32_t j = 0; j < k; j++)
		for (uint32_t l = 0; l < r->cp[j].nleaf; l++) {
			const Leaf *x = &r->cp[j].leaf[l];
			if (!x->def || !x->name || scoped(r, x->name))
				continue;
			DefName *d;
			HASH_FIND_PTR(r->defs, &x->name, d);
			if (d && d->copy != j)
				return 0;
			if (d)
				continue;
			d = arena_alloc(r->arena, sizeof *d);
			d->name = x->name, d->copy = j, d->leaf = l;
			HASH_ADD_PTR(r->defs, name, d);
		}
	return 1;
}

/* The width of a progression's register at operand k: integer operands
 * of the instruction's one type; 0 where not known. */
static int prog_bits(const Ins *in, uint32_t k)
{
	const Spelling *sp = in->sp;
	if (sp->ntypes != 1 || ty_floats(sp->types[0]) || sp->vec != 1)
		return 0;
	int bits = ty_bits(sp->types[0]);
	if (bits != 16 && bits != 32 && bits != 64)
		return 0;
	switch (sp->code) {
	case O_add: case O_sub: case O_mul: case O_min: case O_max: case O_and: case O_or:
	case O_xor: case O_setp: case O_selp:
		return k == 1 || k == 2 ? bits : 0;
	case O_mad:
		return k == 1 || k == 2 ? bits : 0;
	case O_shl: case O_shr:
		return k == 1 ? bits : k == 2 ? 32 : 0;
	case O_mov: case O_st:
		return k == 1 ? bits : 0;
	default:
		return 0;
	}
}

static void names_ready(Rr *r)
{
	if (!r->named)
		names_of_func(&r->names, r->m, r->f);
	r->named = 1;
}

/* The width of an address's base register, 32 or 64; else 0. */
static int addr_bits(Rr *r, const char *base)
{
	names_ready(r);
	const char *ty = names_type(&r->names, base);
	if (!ty || scoped(r, base))
		return 0;
	int bits = ty_bits(type_of(ty));
	return bits == 32 || bits == 64 ? bits : 0;
}

/* The item a branch of the template goes to (its label's), else -1 */
static int64_t branch_to(Rr *r, const Stmt *s)
{
	if (!s || s->kind != S_INS || s->ins.sp->code != O_bra)
		return -1;
	const char *label = s->ins.ops[0]->str;
	DefName *d;
	HASH_FIND_PTR(r->defs, &label, d);
	return d && d->copy == 1 ? r->cp[1].leaf[d->leaf].item : -1;
}

/* Whether a write of name in the template reaches its item `at` (a path
 * inside the template from just after the write to it): then a read
 * there is not the previous copy's value.  Straight-line, any write
 * before it does; with branches, a walk over the template's items. */
static int write_reaches(Rr *r, const char *name, uint32_t at)
{
	const Copy *t = &r->cp[1];
	if (++r->walks > MAX_WALKS)
		return 1;   /* not carried: the run is not rolled */
	/* each item queued at most twice: as a write (seen), and once a
	 * path leads to it (reached), as a write's own item counts only
	 * when a path leads back to it */
	uint8_t *seen = arena_alloc(r->arena, t->nitem + 1);
	uint8_t *reached = arena_alloc(r->arena, t->nitem + 1);
	uint32_t *work = arena_alloc(r->arena, 2 * (t->nitem + 1) * sizeof *work), n = 0;
	memset(seen, 0, t->nitem + 1);
	memset(reached, 0, t->nitem + 1);
	for (uint32_t l = 0; l < t->nleaf; l++)
		if (t->leaf[l].def && t->leaf[l].name == name && !seen[t->leaf[l].item])
			seen[t->leaf[l].item] = 1, work[n++] = t->leaf[l].item;
	while (n) {
		uint32_t i = work[--n];
		const Stmt *s = t->item[i];
		int64_t to[2] = {branch_to(r, s), i + 1};
		if (s && s->kind == S_INS && s->ins.sp->code == O_bra && !s->ins.guard)
			to[1] = -1;
		for (int e = 0; e < 2; e++) {
			if (to[e] < 0 || to[e] >= t->nitem || reached[to[e]])
				continue;
			reached[to[e]] = 1;
			if (to[e] == at)
				return 1;
			work[n++] = (uint32_t)to[e];
		}
	}
	return 0;
}

/* Each template leaf's role, from the template and the first copy's
 * writes. */
static int assign_roles(Rr *r, uint32_t k)
{
	const Copy *t = &r->cp[1];
	r->role = arena_alloc(r->arena, (t->nleaf + 1) * sizeof *r->role);
	memset(r->role, 0, (t->nleaf + 1) * sizeof *r->role);
	for (uint32_t l = 0; l < t->nleaf; l++) {
		const Leaf *x = &t->leaf[l];
		Role *ro = &r->role[l];
		ro->kind = R_SAME;
		DefName *d = NULL;
		if (x->name)
			HASH_FIND_PTR(r->defs, &x->name, d);
		if (x->def && x->name && !scoped(r, x->name)) {
			/* a register written more than once (both sides of a
			 * branch) is one register in every copy: q its first */
			ro->kind = R_DEF;
			ro->q = d->leaf;
			continue;
		}
		if (x->top) {
			ro->bits = (uint8_t)prog_bits(&t->item[x->item]->ins, x->k);
			ro->kind = ro->bits ? R_PROG : R_SAME;
			continue;
		}
		if (x->aoff && k >= 3 && t->nitem >= MIN_STEPPED_ITEMS) {
			/* [%base+C] of a statement of the body's own: C may step
			 * where no copy writes %base */
			ro->bits = (uint8_t)addr_bits(r, x[-1].name);
			ro->kind = ro->bits && r->role[l - 1].kind == R_SAME ? R_APROG : R_SAME;
			continue;
		}
		if (!x->name || scoped(r, x->name))
			continue;
		if (!d) {
			/* a branch out of the copy: not rolled */
			if (x->lab)
				return 0;
			continue;
		}
		uint32_t at = r->cp[d->copy].leaf[d->leaf].item;
		if (d->copy == 1 && (at < x->item || x->lab))
			ro->kind = R_LOCAL;
		else if (d->copy == 0 && !x->lab && x->k != K_GUARD &&
		    (r->branchy ? !write_reaches(r, t->leaf[d->leaf].name, x->item) : at >= x->item))
			ro->kind = R_CARRIED;
		else
			return 0;
		ro->q = d->leaf;
	}
	return 1;
}

/* Two registers declared with one type (labels have none) */
static int same_type(Rr *r, const char *a, const char *b)
{
	names_ready(r);
	const char *ta = names_type(&r->names, a), *tb = names_type(&r->names, b);
	return ta == tb || (ta && tb && !strcmp(ta, tb));
}

/* A progression's value in copy j: c0 + j*d + e*j*(j-1)/2, wrapping */
static uint64_t prog_at(const Role *ro, uint32_t j)
{
	return (uint64_t)ro->c0 + (uint64_t)j * (uint64_t)ro->d +
		(uint64_t)ro->e * ((uint64_t)j * (j - 1) / 2);
}

/* Whether leaf y of copy j is what role ro says; commit records the
 * first copy's initial values and the progressions' steps. */
static int leaf_fits(Rr *r, uint32_t j, uint32_t l, const Leaf *y, int commit)
{
	const Leaf *x = &r->cp[1].leaf[l];
	Role *ro = &r->role[l];
	DefName *d = NULL;
	switch (ro->kind) {
	case R_DEF:
		/* written where the template's register is: the same
		 * registers in every copy, of the template's type (a read
		 * of the previous copy's becomes a read of the template's:
		 * ld.u32 may write a .b64 register in one copy) */
		if (y->name && y->def)
			HASH_FIND_PTR(r->defs, &y->name, d);
		return d && d->copy == j && d->leaf == ro->q && same_type(r, y->name, x->name);
	case R_SAME:
		if (x->top)
			return y->top && y->val == x->val;
		return !y->top && y->name == x->name && y->num == x->num;
	case R_LOCAL:
		return y->name && y->name == r->cp[j].leaf[ro->q].name;
	case R_CARRIED:
		if (j)
			return y->name && y->name == r->cp[j - 1].leaf[ro->q].name;
		if (y->name)
			HASH_FIND_PTR(r->defs, &y->name, d);
		if (d || (y->name && scoped(r, y->name)) || (!y->name && !y->top && !y->num))
			return 0;
		/* every read of one carried register starts from one value */
		for (uint32_t o = 0; o < l; o++)
			if (r->role[o].kind == R_CARRIED && r->role[o].q == ro->q && r->role[o].init &&
			    !same_value(r->role[o].init, *y->slot))
				return 0;
		if (commit)
			ro->init = *y->slot;
		return 1;
	case R_PROG:
	case R_APROG:
		if (ro->kind == R_PROG ? !y->top : !y->aoff)
			return 0;
		if (!j) {
			if (commit)
				ro->c0 = y->val, ro->d = (int64_t)((uint64_t)x->val - (uint64_t)y->val), ro->known = 1;
			return 1;
		}
		if (j == 2 && ro->known == 1) {
			/* the third copy fixes the second difference (SCEV's
			 * {c0,+,d,+,e}: 0, 27, 81, 162 is h * 27 after h += i) */
			if (commit)
				ro->e = (int64_t)((uint64_t)y->val - (uint64_t)ro->c0 - 2 * (uint64_t)ro->d),
				ro->known = 2;
			return 1;
		}
		return ro->known == 2 && (uint64_t)y->val == prog_at(ro, j);
	}
	return 0;
}

/* Item i of copy j against the template's, its sources in the
 * template's order or (swap) with the commutative two exchanged. */
static int item_fits(Rr *r, uint32_t j, uint32_t i, int swap, int commit)
{
	const Copy *c = &r->cp[j], *t = &r->cp[1];
	uint32_t a = c->first[i], n = c->first[i + 1] - a;
	if (n != t->first[i + 1] - t->first[i])
		return 0;
	for (uint32_t o = 0; o < n; o++) {
		const Leaf *y = &c->leaf[a + o];
		if (swap && (y->k == 1 || y->k == 2)) {
			/* operands 1 and 2 are one leaf each (single_leaf_sources) */
			uint32_t want = y->k == 1 ? 2 : 1;
			for (uint32_t p = 0; p < n; p++)
				if (c->leaf[a + p].k == want)
					y = &c->leaf[a + p];
		}
		if (!leaf_fits(r, j, t->first[i] + o, y, commit))
			return 0;
	}
	return 1;
}

static int single_leaf_sources(const Copy *c, uint32_t i)
{
	uint32_t n1 = 0, n2 = 0;
	for (uint32_t l = c->first[i]; l < c->first[i + 1]; l++)
		n1 += c->leaf[l].k == 1, n2 += c->leaf[l].k == 2;
	return n1 == 1 && n2 == 1;
}

static int copy_fits(Rr *r, uint32_t j)
{
	const Copy *c = &r->cp[j];
	for (uint32_t i = 0; i < c->nitem; i++) {
		const Stmt *s = c->item[i];
		if (!s || (s->kind != S_INS && s->kind != S_LABEL))
			continue;
		if (item_fits(r, j, i, 0, 0)) {
			/* committing checks what checking could not: two reads of
			 * one carried register in this item starting from one value */
			if (!item_fits(r, j, i, 0, 1))
				return 0;
			continue;
		}
		if (!commutes(&s->ins) || !single_leaf_sources(c, i) || !single_leaf_sources(&r->cp[1], i) ||
		    !item_fits(r, j, i, 1, 0) || !item_fits(r, j, i, 1, 1))
			return 0;
	}
	return 1;
}

/* ---- a run --------------------------------------------------------------- */

/* Only the last copy's registers are read outside the run, no copy's
 * label is named outside it, and what the loop's movs write has a type. */
static int outside_reads_last(Rr *r, uint32_t k)
{
	DefName *d, *tmp;
	for (uint32_t j = 0; j < k; j++)
		for (uint32_t l = 0; l < r->cp[j].nleaf; l++) {
			const Leaf *x = &r->cp[j].leaf[l];
			if (x->name && !(x->lab && x->def)) {   /* a label's line is no mention */
				HASH_FIND_PTR(r->defs, &x->name, d);
				if (d)
					d->in++;
			}
		}
	HASH_ITER(hh, r->defs, d, tmp)
		if ((d->copy != k - 1 || r->cp[d->copy].leaf[d->leaf].lab) &&
		    mentions(r, d->name) != d->in)
			return 0;
	for (uint32_t l = 0; l < r->cp[1].nleaf; l++)
		if (r->role[l].kind == R_DEF && !r->cp[1].leaf[l].lab &&
		    !names_type(&r->names, r->cp[1].leaf[l].name))
			return 0;
	return 1;
}

/* A last copy's register read after the run */
static int read_after(const Rr *r, const char *name)
{
	DefName *d;
	HASH_FIND_PTR(r->defs, &name, d);
	return d && mentions(r, name) != d->in;
}

static int has_call(const Copy *c)
{
	for (uint32_t i = 0; i < c->nitem; i++)
		if (c->item[i] && stmt_is_call(c->item[i]))
			return 1;
	return 0;
}

/* An attempt's state forgotten: the defs, then the arena they live in. */
static void attempt_begin(Rr *r)
{
	HASH_CLEAR(hh, r->defs);
	arena_reset(r->arena);
}

/* Copies st[start + j*len ..) for j < k: whether they roll. */
static int match(Rr *r, uint32_t start, uint32_t len, uint32_t k)
{
	attempt_begin(r);
	for (uint32_t j = 0; j < k; j++)
		if (!flatten(r, &r->cp[j], start + j * len, len))
			return 0;
	const Copy *t = &r->cp[1];
	if (!r->o->reroll.any && !has_call(t))
		return 0;
	for (uint32_t j = 0; j < k; j++) {
		if (r->cp[j].nitem != t->nitem)
			return 0;
		for (uint32_t i = 0; i < t->nitem; i++)
			if (!same_item(r->cp[j].item[i], t->item[i]))
				return 0;
	}
	/* the latch follows the template: control must reach its end */
	const Stmt *end = t->item[t->nitem - 1];
	if (end && end->kind == S_INS && end->ins.sp->code == O_bra && !end->ins.guard)
		return 0;
	r->branchy = 0, r->walks = 0;
	for (uint32_t i = 0; i < t->nitem; i++)
		r->branchy |= t->item[i] && t->item[i]->kind == S_INS && t->item[i]->ins.sp->code == O_bra;
	collect_scoped(r, t);
	if (!index_defs(r, k) || !assign_roles(r, k))
		return 0;
	for (uint32_t j = 0; j < k; j++)
		if (j != 1 && !copy_fits(r, j))
			return 0;
	/* any three values are c0, +d, +e: a second order needs four */
	for (uint32_t l = 0; l < t->nleaf && k < 4; l++)
		if ((r->role[l].kind == R_PROG || r->role[l].kind == R_APROG) && r->role[l].e)
			return 0;
	names_ready(r);
	return outside_reads_last(r, k);
}

/* ---- the rewrite ----------------------------------------------------------- */

static const char *fresh_reg(Rr *r, const char *base, const char *type)
{
	names_ready(r);
	return reg_new(r->m, &r->f->body, &r->names, r->f->body.head, base, type);
}

static Stmt *ins2(Rr *r, Loc loc, const char *sp, Expr *a, Expr *b, Expr *c)
{
	Expr *ops[3] = {a, b, c};
	Stmt *s = ins_new(r->m, loc, sp, ops, c ? 3 : b ? 2 : 1);
	count_stmt(r, s, 1);
	return s;
}

static const char *spell(const char *op, const char *type)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%s%s", op, type);
	return intern_cstr(buf);
}

static const char *bits_type(int bits)
{
	return bits == 16 ? ".b16" : bits == 32 ? ".b32" : ".b64";
}

/* One register per progression (width, start, step, step's step),
 * shared; a second-order one steps by a register of its own. */
static void prog_regs(Rr *r, Stmt *at, List *in)
{
	const Copy *t = &r->cp[1];
	for (uint32_t l = 0; l < t->nleaf; l++) {
		Role *ro = &r->role[l];
		if ((ro->kind != R_PROG && ro->kind != R_APROG) || (!ro->d && !ro->e))
			continue;
		for (uint32_t o = 0; o < l && !ro->reg; o++) {
			const Role *ot = &r->role[o];
			if (ot->owns && ot->bits == ro->bits && ot->c0 == ro->c0 && ot->d == ro->d &&
			    ot->e == ro->e)
				ro->reg = ot->reg, ro->step = ot->step;
		}
		if (ro->reg)
			continue;
		const char *type = bits_type(ro->bits);
		ro->owns = 1;
		ro->reg = fresh_reg(r, "%rrv", spell(".reg ", type));
		list_insert_before(in, at, ins2(r, at->loc, spell("mov", type),
			name_expr(ro->reg), int_expr(ro->c0), NULL));
		if (!ro->e)
			continue;
		ro->step = fresh_reg(r, "%rrs", spell(".reg ", type));
		list_insert_before(in, at, ins2(r, at->loc, spell("mov", type),
			name_expr(ro->step), int_expr(ro->d), NULL));
	}
}

/* The template's operand slot, in a copy of its operand array. */
static Expr **slot_in(Rr *r, Stmt *s, const Leaf *x, Expr ***ops)
{
	if (!*ops) {
		*ops = arena_dup(r->m->arena, s->ins.ops, s->ins.nops * sizeof **ops);
		s->ins.ops = *ops;
	}
	return &(*ops)[x->k];
}

/* A stepping access's address, %base + the progression's register:
 * one add per base and register, before the first access (the template
 * is straight-line code, so that one comes before every other). */
static const char *stepped_addr(Rr *r, uint32_t l, Stmt *s)
{
	const Copy *t = &r->cp[1];
	Role *ro = &r->role[l];
	const char *base = t->leaf[l - 1].name;
	for (uint32_t o = 0; o < l; o++)
		if (r->role[o].addr && r->role[o].reg == ro->reg && t->leaf[o - 1].name == base)
			return ro->addr = r->role[o].addr;
	const char *type = bits_type(ro->bits);
	ro->addr = fresh_reg(r, "%rra", spell(".reg ", type));
	list_insert_before(&r->f->body, s, ins2(r, s->loc, spell("add.s", type + 2),
		name_expr(ro->addr), name_expr(base), name_expr(ro->reg)));
	return ro->addr;
}

/* The template becomes the body: progressions read their registers,
 * carried reads the template's own writes. */
static void rewrite_body(Rr *r)
{
	Copy *t = &r->cp[1];
	for (uint32_t i = 0; i < t->nitem; i++) {
		Stmt *s = t->item[i];
		if (!s || s->kind != S_INS)
			continue;
		Expr **ops = NULL;
		count_stmt(r, s, -1);
		for (uint32_t l = t->first[i]; l < t->first[i + 1]; l++) {
			const Leaf *x = &t->leaf[l];
			const Role *ro = &r->role[l];
			if (ro->kind == R_PROG && ro->reg) {
				*slot_in(r, s, x, &ops) = name_expr(ro->reg);
			} else if (ro->kind == R_APROG && ro->reg) {
				/* [%base+C] becomes [%rra], %rra = %base + the step's
				 * register: an offset into %base's object, not a
				 * pointer stepped around the loop (which the depot
				 * stage cannot bound) */
				const char *a = stepped_addr(r, l, s);
				slot_in(r, s, x, &ops);
				ops[x->k] = expr_addr(r->m, name_expr(a), 0);
			} else if (ro->kind == R_CARRIED) {
				Expr **e = slot_in(r, s, x, &ops);
				*e = expr_renamed(r->m, *e, x->name, t->leaf[ro->q].name);
			}
		}
		count_stmt(r, s, 1);
	}
}

/* Before the loop, each carried register takes its initial value. */
static void init_carried(Rr *r, Stmt *at, List *in)
{
	const Copy *t = &r->cp[1];
	for (uint32_t l = 0; l < t->nleaf; l++) {
		const Role *ro = &r->role[l];
		if (ro->kind != R_CARRIED || !ro->init)
			continue;
		int first = 1;
		for (uint32_t o = 0; o < l; o++)
			first &= !(r->role[o].kind == R_CARRIED && r->role[o].q == ro->q);
		if (!first)
			continue;
		const char *to = t->leaf[ro->q].name;
		list_insert_before(in, at, ins2(r, at->loc, spell("mov", names_type(&r->names, to)),
			name_expr(to), (Expr *)ro->init, NULL));
	}
}

/* After the template: the steps, the count, the branch back, and the
 * last copy's registers that are read later. */
static void latch(Rr *r, uint32_t k, const char *counter, const char *label, Stmt *after,
	List *in)
{
	const Copy *t = &r->cp[1], *last = &r->cp[k - 1];
	Stmt *next = after->next;
	Loc loc = after->loc;
	for (uint32_t l = 0; l < t->nleaf; l++) {
		const Role *ro = &r->role[l];
		if (!ro->owns)
			continue;
		const char *add = spell("add.s", bits_type(ro->bits) + 2);
		list_insert_before(in, next, ins2(r, loc, add, name_expr(ro->reg), name_expr(ro->reg),
			ro->step ? name_expr(ro->step) : int_expr(ro->d)));
		if (ro->step)
			list_insert_before(in, next, ins2(r, loc, add, name_expr(ro->step),
				name_expr(ro->step), int_expr(ro->e)));
	}
	const char *p = fresh_reg(r, "%rrp", ".reg .pred");
	list_insert_before(in, next, ins2(r, loc, "add.s32", name_expr(counter), name_expr(counter),
		int_expr(1)));
	list_insert_before(in, next, ins2(r, loc, "setp.lt.u32", name_expr(p), name_expr(counter),
		int_expr(k)));
	Stmt *br = ins2(r, loc, "bra", name_expr(label), NULL, NULL);
	count_stmt(r, br, -1);
	br->ins.guard = p;
	count_stmt(r, br, 1);
	list_insert_before(in, next, br);
	if (k == 2)
		return;
	for (uint32_t l = 0; l < t->nleaf; l++)
		if (r->role[l].kind == R_DEF && r->role[l].q == l && read_after(r, last->leaf[l].name))
			list_insert_before(in, next, ins2(r, loc,
				spell("mov", names_type(&r->names, t->leaf[l].name)),
				name_expr(last->leaf[l].name), name_expr(t->leaf[l].name), NULL));
}

static void drop(Rr *r, List *in, Stmt *from, Stmt *to)
{
	for (Stmt *s = from, *next; ; s = next) {
		next = s->next;
		count_stmt(r, s, -1);
		list_remove(in, s);
		if (s == to)
			break;
	}
}

static void roll(Rr *r, uint32_t start, uint32_t len, uint32_t k)
{
	List *in = &r->f->body;
	Stmt *first = r->st[start], *tfirst = r->st[start + len];
	Stmt *tlast = r->st[start + 2 * len - 1], *last = r->st[start + k * len - 1];
	prog_regs(r, first, in);
	const char *counter = fresh_reg(r, "%rrc", ".reg .b32");
	list_insert_before(in, first, ins2(r, first->loc, "mov.b32", name_expr(counter), int_expr(0), NULL));
	init_carried(r, first, in);
	Stmt *lab = stmt_new(r->m, S_LABEL, tfirst->loc);
	lab->label = names_fresh(&r->names, "$L__reroll");
	list_insert_before(in, first, lab);
	rewrite_body(r);
	latch(r, k, counter, lab->label, tlast, in);
	if (k > 2)
		drop(r, in, r->st[start + 2 * len], last);
	drop(r, in, first, r->st[start + len - 1]);
	r->stats->loops++;
	r->stats->copies += k - 1;
	if (r->o->reroll.remarks) {
		const char *callee = NULL;
		for (uint32_t i = 0; i < r->cp[1].nitem && !callee; i++) {
			CallParts cp;
			Stmt *s = r->cp[1].item[i];
			if (s && s->kind == S_INS && ins_call_parts(&s->ins, &cp) && cp.callee->kind == E_NAME)
				callee = cp.callee->str;
		}
		diag_remark(tfirst->loc, "%s: %u copies of an unrolled loop%s%s rolled back into one",
			quoted_name(r->f->name), k, callee ? " calling " : "", callee ? quoted_name(callee) : "");
	}
}

/* ---- a first copy whose step NVVM folded away ------------------------------ */

/* `h += i` is no instruction at i = 0: NVVM's first copy of a loop body
 * is one statement shorter than the others and reads h where they read
 * h + i.  Given the step back (add %rri, h, 0, and those reads of h made
 * reads of %rri: the same value), it is a copy like the rest, and the
 * callee goes in once rather than once before the loop and once in it.
 * The step is the template's statement where the first copy first
 * differs from it; what does not roll is put back as it was. */

/* An integer step the first copy may lack: op %d, %a, C */
static int step_ins(const Stmt *s)
{
	int64_t v;
	if (!s || s->kind != S_INS || s->ins.guard || s->ins.nops != 3)
		return 0;
	switch (s->ins.sp->code) {
	case O_add: case O_sub: case O_or: case O_xor: case O_shl: case O_shr:
		break;
	default:
		return 0;
	}
	return prog_bits(&s->ins, 2) && s->ins.ops[0]->kind == E_NAME &&
		s->ins.ops[1]->kind == E_NAME && int_operand(s->ins.ops[2], &v);
}

static int alike(const Stmt *a, const Stmt *b)
{
	return a->kind == b->kind && (a->kind != S_INS || a->ins.sp == b->ins.sp);
}

/* The statement of the template st[t ..) that copy 0, st[s0 ..), one
 * shorter, lacks: the first where they differ in kind or spelling, the
 * rest alike after it (the cheap test before the leaves are compared);
 * len when there is none such. */
static uint32_t missing(const Rr *r, uint32_t s0, uint32_t t, uint32_t len)
{
	uint32_t p = 0;
	while (p + 1 < len && alike(r->st[s0 + p], r->st[t + p]))
		p++;
	for (uint32_t i = p; i + 1 < len; i++)
		if (!alike(r->st[s0 + i], r->st[t + i + 1]))
			return len;
	return p;
}

/* Copy 0's reads where the template reads the step's result d: all of
 * one register, written in copy 0 nowhere before; each such operand of
 * copy 0 renamed to n (its old operands in *u, at most one entry an
 * item).  That register, or NULL when there is none or not so. */
static const char *rename_reads(Rr *r, uint32_t tp, const char *d, const char *n, Renamed *u,
	uint32_t *nu)
{
	Copy *c = &r->cp[0], *t = &r->cp[1];
	const char *x = NULL;
	*nu = 0;
	for (uint32_t i = 0; i < c->nitem; i++) {
		uint32_t ti = i + (i >= tp), a = c->first[i], m = c->first[i + 1] - a;
		if (!same_item(c->item[i], t->item[ti]) || m != t->first[ti + 1] - t->first[ti])
			return NULL;
		Stmt *s = c->item[i];
		for (uint32_t o = 0; o < m; o++) {
			const Leaf *y = &c->leaf[a + o], *z = &t->leaf[t->first[ti] + o];
			if (y->def && y->name && y->name == x)
				return NULL;   /* x written in copy 0: not the value before it */
			if (z->name != d || z->def)
				continue;
			if (!y->name || (x && y->name != x) || y->k == K_GUARD)
				return NULL;
			x = y->name;
			if (!*nu || u[*nu - 1].s != s) {   /* its first: its operands kept */
				u[(*nu)++] = (Renamed){s, s->ins.ops};
				s->ins.ops = arena_dup(r->m->arena, s->ins.ops, s->ins.nops * sizeof *s->ins.ops);
			}
			count_stmt(r, s, -1);
			s->ins.ops[y->k] = expr_renamed(r->m, s->ins.ops[y->k], x, n);
			count_stmt(r, s, 1);
		}
	}
	return x;
}

static void unrename(Rr *r, Renamed *u, uint32_t nu)
{
	for (uint32_t i = 0; i < nu; i++) {
		count_stmt(r, u[i].s, -1);
		u[i].s->ins.ops = u[i].ops;
		count_stmt(r, u[i].s, 1);
	}
}

/* Copy 0 given the template's statement p as `op %n, x, 0`, then the
 * run of copies 0 to n (from st[s0], n from st[t]) matched in w, a
 * window of st with the new statement; rolled when it matches. */
static int with_step(Rr *r, uint32_t s0, uint32_t t, uint32_t len, uint32_t n, uint32_t p,
	Stmt **w, Renamed *u)
{
	Stmt *step = r->st[t + p];
	const char *d = step->ins.ops[0]->str;
	names_ready(r);
	const char *type = names_type(&r->names, d);
	attempt_begin(r);
	if (!type || !flatten(r, &r->cp[0], s0, len - 1) || !flatten(r, &r->cp[1], t, len) ||
	    r->cp[0].nitem + 1 != r->cp[1].nitem)
		return 0;
	uint32_t tp = 0, nu = 0;
	while (tp < r->cp[1].nitem && r->cp[1].item[tp] != step)
		tp++;
	const char *reg = names_fresh(&r->names, "%rri");
	const char *x = tp < r->cp[1].nitem ? rename_reads(r, tp, d, reg, u, &nu) : NULL;
	if (!x || !same_type(r, x, d)) {
		unrename(r, u, nu);
		return 0;
	}
	Stmt *decl = var_new(r->m, r->f->body.head->loc, spell(".reg ", type), reg);
	names_add_decls(&r->names, &decl->var, 1);
	Stmt *ins = ins2(r, step->loc, step->ins.sp->text, name_expr(reg), name_expr(x), int_expr(0));
	list_insert_before(&r->f->body, r->f->body.head, decl);
	list_insert_before(&r->f->body, r->st[s0 + p], ins);
	for (uint32_t i = 0; i < len; i++)
		w[i] = i < p ? r->st[s0 + i] : i == p ? ins : r->st[s0 + i - 1];
	memcpy(w + len, r->st + t, (size_t)n * len * sizeof *w);
	Stmt **st = r->st;
	uint32_t nst = r->nst;
	r->st = w, r->nst = (n + 1) * len;
	int ok = match(r, 0, len, n + 1);
	if (ok)
		roll(r, 0, len, n + 1);
	r->st = st, r->nst = nst;
	list_remove(&r->f->body, decl);   /* rolled, copy 0 is gone: none reads it */
	if (ok)
		return 1;
	count_stmt(r, ins, -1);
	list_remove(&r->f->body, ins);
	unrename(r, u, nu);
	return 0;
}

/* The run of n copies from st[t], len statements each, with the len - 1
 * statements before it as a first copy whose step was folded away:
 * whether it rolled. */
static int try_first_step(Rr *r, uint32_t t, uint32_t len, uint32_t n, uint32_t done)
{
	if (len < 2 || t < len - 1 || t - (len - 1) < done || n < 2 || n + 1 > MAX_COPIES ||
	    t + n * len > r->nst)
		return 0;
	uint32_t s0 = t - (len - 1), p = missing(r, s0, t, len);
	if (p == len || !step_ins(r->st[t + p]))
		return 0;
	if (!r->win) {
		r->win = xmalloc((size_t)MAX_COPIES * MAX_LEN * sizeof *r->win);
		r->undo = xmalloc(MAX_LEN * 4 * sizeof *r->undo);
	}
	return with_step(r, s0, t, len, n, p, r->win, r->undo);
}

/* ---- finding runs -------------------------------------------------------- */

/* What marks a copy: the function a statement calls (its callseq block's
 * call), or with --reroll-any an instruction's spelling. */
static const void *anchor(const Rr *r, const Stmt *s)
{
	if (s->kind == S_SCOPE)
		for (const Stmt *x = s->scope.head; x; x = x->next) {
			CallParts c;
			if (x->kind == S_INS && ins_call_parts(&x->ins, &c) && c.callee->kind == E_NAME)
				return c.callee->str;
		}
	if (s->kind != S_INS)
		return NULL;
	CallParts c;
	if (ins_call_parts(&s->ins, &c) && c.callee->kind == E_NAME)
		return c.callee->str;
	return r->o->reroll.any ? (const void *)s->ins.sp : NULL;
}

/* Where one anchor key (a callee) is, in order */
typedef struct Seen {
	const void *key;
	uint32_t *at, n, cap;
	UT_hash_handle hh;
} Seen;

/* A run to try: n copies gap apart, the first anchor at st[first] */
typedef struct Run {
	uint32_t first, gap, n;
} Run;

/* Tries a run of n anchors gap apart from st[first]: each place its
 * copies may start, all of them, then without the first, the last or
 * both. */
static uint32_t try_run(Rr *r, uint32_t first, uint32_t gap, uint32_t n, uint32_t done)
{
	if (gap > MAX_LEN || n < 2)
		return done;
	if (n > MAX_COPIES)
		n = MAX_COPIES;
	/* at each place the copies may start: all n, then without the first
	 * copy (NVVM's first often reads the loop's start as it is), the
	 * last (merged with what follows), both.  A part is at least 3
	 * copies: any two make a progression, loop or not.  Before those,
	 * the n with a first copy whose step was folded away before them. */
	for (uint32_t o = 0; o < gap && o <= first && first - o >= done; o++) {
		/* the anchors' first copy the one after the stepless one, or
		 * the stepless one itself (a statement before it made up the
		 * anchors' distance) */
		if (try_first_step(r, first - o, gap, n, done))
			return first - o + n * gap;
		if (try_first_step(r, first - o + gap, gap, n - 1, done))
			return first - o + n * gap;
	}
	for (uint32_t o = 0; o < gap && o <= first && first - o >= done; o++) {
		for (uint32_t v = 0; v < 4; v++) {
			uint32_t s = first - o + (v & 1 ? gap : 0), k = n - (v & 1) - (v >> 1);
			if (k >= 2 + (v != 0) && k <= n && s + k * gap <= r->nst && match(r, s, gap, k)) {
				roll(r, s, gap, k);
				return s + k * gap;
			}
		}
	}
	return done;
}

static int by_start(const void *a, const void *b)
{
	const Run *x = a, *y = b;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	if (x->gap * x->n != y->gap * y->n)
		return x->gap * x->n > y->gap * y->n ? -1 : 1;
	return x->gap < y->gap ? -1 : x->gap > y->gap;
}

/* Runs of one key: its anchors m to a copy (a callee called m times in
 * each, MAX_STRIDE at most), the i-th anchor of each copy gap after the
 * one before: the longest from each anchor that none before covers.
 * Anchors all one distance apart are copies of one (m of them would
 * be copies of anything, loop or not). */
enum { MAX_STRIDE = 4 };

static int evenly(const Seen *x, uint32_t from, uint32_t to)
{
	for (uint32_t q = from + 1; q < to; q++)
		if (x->at[q + 1] - x->at[q] != x->at[from + 1] - x->at[from])
			return 0;
	return 1;
}

static Run *key_runs(const Seen *x, Run *v, uint32_t *n, uint32_t *cap)
{
	for (uint32_t m = 1; m <= MAX_STRIDE && m < x->n; m++)
		for (uint32_t i = 0; i + m < x->n;) {
			uint32_t gap = x->at[i + m] - x->at[i], j = i;
			while (j + m < x->n && x->at[j + m] - x->at[j] == gap)
				j++;
			/* anchors i .. j + m - 1: (j - i) / m + 1 copies of m each */
			uint32_t copies = (j - i) / m + 1;
			if (copies >= 2 && gap <= MAX_LEN && (m == 1 || !evenly(x, i, j + m - 1))) {
				v = array_grow(v, *n, cap, sizeof *v);
				v[(*n)++] = (Run){x->at[i], gap, copies};
			}
			i = j > i ? j : i + 1;
		}
	return v;
}

static void find_runs(Rr *r)
{
	Seen *seen = NULL, *x, *tmp;
	for (uint32_t i = 0; i < r->nst; i++) {
		const void *key = anchor(r, r->st[i]);
		if (!key)
			continue;
		HASH_FIND_PTR(seen, &key, x);
		if (!x) {
			x = xcalloc(1, sizeof *x);
			x->key = key;
			HASH_ADD_PTR(seen, key, x);
		}
		x->at = array_grow(x->at, x->n, &x->cap, sizeof *x->at);
		x->at[x->n++] = i;
	}
	Run *v = NULL;
	uint32_t n = 0, cap = 0, done = 0;
	HASH_ITER(hh, seen, x, tmp) {
		v = key_runs(x, v, &n, &cap);
		HASH_DEL(seen, x);
		free(x->at);
		free(x);
	}
	if (n)
		qsort(v, n, sizeof *v, by_start);
	for (uint32_t i = 0; i < n; i++)
		if (v[i].first >= done)
			done = try_run(r, v[i].first, v[i].gap, v[i].n, done);
	free(v);
}

/* ---- the stage ----------------------------------------------------------- */

static void reroll_func(Rr *r, Func *f)
{
	r->f = f, r->nst = 0, r->named = 0;
	uint32_t cap = 0, anchors = 0;
	for (Stmt *s = f->body.head; s; s = s->next) {
		if (s->kind == S_LOC)
			continue;
		r->st = array_grow(r->st, r->nst, &cap, sizeof *r->st);
		r->st[r->nst++] = s;
		anchors += anchor(r, s) != NULL;
	}
	if (anchors < 2 || names_shadowed(f))
		return;
	BodyIt it;
	for (Stmt *s = body_first(&f->body, &it); s; s = body_next(&it)) {
		if (s->kind == S_INS)
			count_ins(r, &s->ins, 1);
		if (s->kind == S_TARGETS)   /* a .branchtargets list names labels */
			for (uint32_t i = 0; i < s->list.nitems; i++)
				if (s->list.items[i]->kind == E_NAME)
					count_name(r, s->list.items[i]->str, 1);
	}
	body_end(&it);
	find_runs(r);
	Count *c, *tmp;
	HASH_ITER(hh, r->counts, c, tmp) {
		HASH_DEL(r->counts, c);
		free(c);
	}
	names_free(&r->names);
	memset(&r->names, 0, sizeof r->names);
}

void reroll(Module *m, const StageOptions *o)
{
	if (!o->reroll.on || mod_has_dwarf(m))
		return;
	Stats st = {0};
	Rr *r = xcalloc(1, sizeof *r);
	r->m = m, r->o = o, r->stats = &st, r->arena = arena_new();
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body)
			reroll_func(r, s->func);
	HASH_CLEAR(hh, r->defs);
	arena_free(r->arena);
	free(r->st);
	free(r->scoped);
	free(r->win);
	free(r->undo);
	free(r);
	if (o->stats && st.loops)   /* as addrprep: a line only where it acted */
		diag_note("reroll: %u loops rolled back, %u copies removed", st.loops, st.copies);
}
