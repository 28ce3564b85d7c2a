/* locals.c: local memory that inlining left simple, optimized (issue 33).
 *
 * A callee copied into its caller brings the caller's stores and the
 * callee's loads of one local object into one function: a struct stored
 * to the depot only to be read back, a value written and read again
 * around a swap, a .param aggregate marshalled through the depot for a
 * call that is gone.  NVVM would clean that up after its own inlining;
 * ptxas does not for local memory.  Two rewrites, each only where exact:
 *
 * Forwarding: a load of bytes a store (or an earlier load) of the same
 * width at the same constant offset put there becomes a mov of that
 * value, when nothing between may have written them and the value's
 * register still holds it:
 *
 *     st.local.u32 [%rd1+8], %r5;          st.local.u32 [%rd1+8], %r5;
 *     add.s32 %r6, %r6, 1;           ->    add.s32 %r6, %r6, 1;
 *     ld.local.u32 %r7, [%rd1+8];          mov.b32 %r7, %r5;
 *
 * "Between" is the block, continued into a successor that the block
 * alone precedes (an if's arms, what follows a loop's exit): every path
 * to the load then passed the store.  A store to the object at a run-time
 * offset, one through an unknown .local address, a vector or volatile
 * access of the bytes, ends what is known of them; of an object whose
 * address escapes (ir/memobj.c), so does any call, any generic store
 * through an address the walk does not know and any instruction that
 * writes memory it does not model.
 *
 * Dead stores: a store to bytes of an object whose address never escapes
 * that no load of the function reads any more (none of the same bytes,
 * none at a run-time offset into the object, no .local load through an
 * unknown address, no call the address is lent to) goes, and so does one
 * whose bytes an unguarded store later in its block writes again before
 * anything may read them.  After forwarding this is most stores of the
 * copies above; the depot stage then finds the bytes unused and the
 * frame shrinks.
 *
 * Scalar replacement of whole objects stays the depot stage's (it runs
 * after this one and sees the accesses that are left); both ask
 * ir/memobj.c the same question about an access's form.
 *
 * requires: normalized IR / maintains: the module's symbols, every
 * depot's layout / breaks: any CFG or analysis of the functions it
 * changes. */
#include <stdlib.h>
#include <string.h>
#include "stages.h"

enum { MAX_KNOWN = 16 };   /* values remembered at once: a bound on the scan's cost */

/* An access that left a value in memory and in a register (or stored a
 * constant), and the register that carries it to loads out of the
 * register's scope, once one needs it. */
typedef struct Src {
	Stmt *at;
	const Expr *value;
	const List *in;        /* the list holding it */
	const char *carrier;
} Src;

typedef struct Known1 {
	int obj;
	int64_t off;
	int width;
	Src *src;
} Known1;

typedef struct Known {
	Known1 v[MAX_KNOWN];
	uint32_t n;
} Known;

typedef struct Fwd {
	Stmt *ld;
	Src *from;
	int carried;           /* through from->carrier */
} Fwd;

/* --stats, summed over the module: counted, never read to decide */
typedef struct Stats {
	unsigned seen, funcs, forwarded, stores;   /* seen: functions with local accesses */
} Stats;

/* One function's work; its arrays are on arena, freed in one call. */
typedef struct Lc {
	Module *m;
	const StageOptions *o;
	Func *f;
	Arena *arena;
	MemObjs *mo;
	Cfg *g;
	Names *module;         /* the module's names (made once, when first needed) */
	Names regs;            /* the function's and the module's: widths, fresh names */
	Names top;             /* the body's own and the parameters: seen everywhere */
	Places b;
	int32_t *acc_at;       /* per instruction: its first access, -1 none */
	Known **out;           /* per block: what its end knows, kept for a successor */
	uint8_t *forwarded;    /* per access: a load that became a mov */
	Fwd *fwd;
	uint32_t nfwd, cfwd;
} Lc;

/* ---- forwarding ---------------------------------------------------------- */

/* A load or store whose value can move through a register: a plain one
 * of one element at a constant offset into an object. */
static int movable(const Lc *c, const MemAccess *a)
{
	const Ins *in = &a->at->ins;
	if (a->obj < 0 || memacc_why_memory(a) || in->sp->vec != 1)
		return 0;
	int st = in->sp->code == O_st;
	const Expr *v = in->ops[st ? 1 : 0];
	return !is_sink(v) && memacc_value_fits(&c->regs, v, in->sp->type_bytes, st);
}

static void forget(Known *k, uint32_t i)
{
	k->v[i] = k->v[--k->n];
}

/* What a write of [lo, hi) of obj (any object: obj < 0; anywhere in it:
 * lo > hi) may have changed. */
static void forget_bytes(Known *k, int obj, int64_t lo, int64_t hi)
{
	for (uint32_t i = k->n; i-- > 0;) {
		const Known1 *e = &k->v[i];
		if (obj < 0 || (e->obj == obj && (lo > hi || (e->off < hi && lo < e->off + e->width))))
			forget(k, i);
	}
}

/* An escaped object's address may be anywhere: a call may write it, or
 * an instruction that writes memory the walk does not model (cp.async,
 * wmma.store, an opaque one), or a generic store ir/memobj.c saw no
 * object's address in (a pointer loaded from memory may hold it).  A
 * store with an access of its own (accessed: its object is known, or it
 * may write any object) is told by its access. */
static int may_write_escaped(const Ins *in, int accessed)
{
	const Opcode *op = in->sp->op;
	int code = in->sp->code;
	if (!op || (op->flags & (OF_CALL | OF_OPAQUE)))
		return 1;
	if (!(op->flags & OF_STORE))
		return 0;
	if (code != O_st && code != O_atom && code != O_red)
		return 1;
	return !accessed && ins_space(in) == SPACE_NONE;
}

static void forget_escaped(const Lc *c, Known *k)
{
	for (uint32_t i = k->n; i-- > 0;)
		if (c->mo->objs[k->v[i].obj].escapes)
			forget(k, i);
}

static void forget_reg(void *ctx, const char *name, OpRole role)
{
	Known *k = ctx;
	if (role == ROLE_USE)
		return;
	for (uint32_t i = k->n; i-- > 0;)
		if (k->v[i].src->value->kind == E_NAME && k->v[i].src->value->str == name)
			forget(k, i);
}

static const Known1 *lookup(const Known *k, const MemAccess *a)
{
	for (uint32_t i = 0; i < k->n; i++)
		if (k->v[i].obj == a->obj && k->v[i].off == a->off && k->v[i].width == a->width)
			return &k->v[i];
	return NULL;
}

static void remember(Lc *c, Known *k, const MemAccess *a, const Expr *value)
{
	for (uint32_t i = k->n; i-- > 0;)   /* the newer value for the same bytes */
		if (k->v[i].obj == a->obj && k->v[i].off == a->off && k->v[i].width == a->width)
			forget(k, i);
	if (k->n == MAX_KNOWN)
		forget(k, 0);
	Src *s = arena_alloc(c->arena, sizeof *s);
	*s = (Src){a->at, value, place_of(&c->b, a->at)->in, NULL};
	k->v[k->n++] = (Known1){a->obj, a->off, a->width, s};
}

/* A register is seen where the load is when declared in the body's own
 * list (or a parameter), or in a scope around the access that left it
 * when the load is in that access's list; elsewhere a carrier takes it
 * there. */
static int seen(const Lc *c, const Stmt *ld, const Src *s)
{
	return s->in == place_of(&c->b, ld)->in || names_declared(&c->top, s->value->str);
}

/* A stored constant moves only into a load of its own type: mov.f32 of
 * 0f3F800000, never into an integer. */
static int same_type(const Stmt *ld, const Src *s)
{
	const char *a = ld->ins.sp->type, *b = s->at->ins.sp->type;
	return a && b && !strcmp(a, b);
}

static void forward_load(Lc *c, const Known *k, uint32_t ai)
{
	const MemAccess *a = &c->mo->acc[ai];
	const Known1 *e = lookup(k, a);
	int reg = e && e->src->value->kind == E_NAME;
	if (!e || (!reg && !same_type(a->at, e->src)))
		return;
	c->fwd = array_grow(c->fwd, c->nfwd, &c->cfwd, sizeof *c->fwd);
	c->fwd[c->nfwd++] = (Fwd){a->at, e->src, reg && !seen(c, a->at, e->src)};
	c->forwarded[ai] = 1;
}

/* Instruction i's effect on what is known: its writes, the load it may
 * forward, the registers it defines, then what it leaves in memory. */
static void step(Lc *c, Known *k, uint32_t i)
{
	int32_t first = c->acc_at[i];
	if (may_write_escaped(&c->g->ins[i]->ins, first >= 0))
		forget_escaped(c, k);
	if (first < 0) {
		ins_names(&c->g->ins[i]->ins, forget_reg, k);
		return;
	}
	uint32_t n = 0;
	for (uint32_t j = (uint32_t)first; j < c->mo->nacc && c->mo->acc[j].ins == i; j++, n++) {
		const MemAccess *a = &c->mo->acc[j];
		if (a->how & USE_WRITE)
			forget_bytes(k, a->obj, a->exact ? a->off : 1, a->exact ? a->off + a->width : 0);
	}
	const MemAccess *a = &c->mo->acc[first];
	const Ins *in = &a->at->ins;
	int one = n == 1 && movable(c, a);
	if (one && in->sp->code == O_ld)
		forward_load(c, k, (uint32_t)first);
	ins_names(in, forget_reg, k);
	if (one && !in->guard)
		remember(c, k, a, in->ops[in->sp->code == O_st ? 1 : 0]);
}

static int feeds_one(const Cfg *g, uint32_t b)
{
	const Block *bb = &g->blocks[b];
	for (uint32_t i = 0; i < bb->nsucc; i++)
		if (g->blocks[bb->succ[i]].npred == 1)
			return 1;
	return 0;
}

/* Blocks in reverse postorder, so a block's only predecessor (unless
 * around a cycle) is done before it. */
static void forward(Lc *c)
{
	const Cfg *g = c->g;
	for (uint32_t r = 0; r < g->norder; r++) {
		uint32_t b = g->order[r];
		const Block *bb = &g->blocks[b];
		Known k = {.n = 0};
		if (bb->npred == 1 && g->blocks[bb->pred[0]].rpo < r && c->out[bb->pred[0]])
			k = *c->out[bb->pred[0]];
		for (uint32_t i = bb->first; i < bb->end; i++)
			step(c, &k, i);
		if (k.n && feeds_one(g, b)) {
			c->out[b] = arena_alloc(c->arena, sizeof k);
			*c->out[b] = k;
		}
	}
}

/* A register of the body's own list, set from the value right after the
 * access that left it (unguarded: remember took no other). */
static const char *carrier(Lc *c, Src *s)
{
	if (s->carrier)
		return s->carrier;
	int bytes = s->at->ins.sp->type_bytes;
	char type[16];
	snprintf(type, sizeof type, ".reg .b%d", bytes * 8);
	s->carrier = names_fresh(&c->regs, "%lc");
	List *body = &c->f->body;
	Stmt *first = body_past_decls(body);
	place_insert(&c->b, body, first, var_new(c->m, s->at->loc, type, s->carrier));
	place_insert(&c->b, (List *)s->in, s->at->next,
		mov_new(c->m, s->at->loc, bytes, name_expr(s->carrier), (Expr *)s->value));
	return s->carrier;
}

static Stmt *forwarded_mov(Lc *c, const Fwd *f)
{
	const Ins *ld = &f->ld->ins;
	Stmt *s;
	if (f->from->value->kind == E_NAME) {
		Expr *v = f->carried ? name_expr(carrier(c, f->from)) : (Expr *)f->from->value;
		s = mov_new(c->m, f->ld->loc, ld->sp->type_bytes, ld->ops[0], v);
	} else {
		char sp[24];
		snprintf(sp, sizeof sp, "mov%s", ld->sp->type);
		Expr *ops[2] = {ld->ops[0], (Expr *)f->from->value};
		s = ins_new(c->m, f->ld->loc, sp, ops, 2);
	}
	s->ins.guard = ld->guard;
	s->ins.guard_neg = ld->guard_neg;
	return s;
}

/* ---- dead stores --------------------------------------------------------- */

typedef struct Read {
	int obj;
	int64_t lo, hi;        /* the bytes [lo, hi) */
} Read;

static int cmp_read(const void *pa, const void *pb)
{
	const Read *a = pa, *b = pb;
	if (a->obj != b->obj)
		return a->obj < b->obj ? -1 : 1;
	return (a->lo > b->lo) - (a->lo < b->lo);
}

/* Sorted by object and start, overlapping ones merged: disjoint, so the
 * last one starting before a range ends is the only one to ask. */
static uint32_t merge_reads(Read *r, uint32_t n)
{
	if (!n)
		return 0;
	qsort(r, n, sizeof *r, cmp_read);
	uint32_t k = 0;
	for (uint32_t i = 1; i < n; i++) {
		if (r[i].obj == r[k].obj && r[i].lo < r[k].hi) {
			if (r[i].hi > r[k].hi)
				r[k].hi = r[i].hi;
		} else
			r[++k] = r[i];
	}
	return k + 1;
}

/* Every read left once the forwarded loads are movs (one of anywhere in
 * the object spans all of it), merged; *any set when an access may read
 * any object. */
static Read *reads_left(Lc *c, uint32_t *n, int *any)
{
	Read *r = arena_alloc(c->arena, (c->mo->nacc + 1) * sizeof *r);
	*n = 0, *any = 0;
	for (uint32_t i = 0; i < c->mo->nacc; i++) {
		const MemAccess *a = &c->mo->acc[i];
		if (!(a->how & USE_READ) || c->forwarded[i])
			continue;
		if (a->obj < 0) {
			*any |= ins_space(&a->at->ins) == SPACE_LOCAL;
			continue;   /* a generic one reaches escaping objects only */
		}
		if (!a->exact || a->width == 0)
			r[(*n)++] = (Read){a->obj, INT64_MIN, INT64_MAX};
		else
			r[(*n)++] = (Read){a->obj, a->off, a->off + a->width};
	}
	*n = merge_reads(r, *n);
	return r;
}

static int is_read(const Read *r, uint32_t n, int obj, int64_t lo, int64_t hi)
{
	uint32_t a = 0, b = n;   /* the first read after [lo, hi) starts */
	while (a < b) {
		uint32_t mid = a + (b - a) / 2;
		if (r[mid].obj < obj || (r[mid].obj == obj && r[mid].lo < hi))
			a = mid + 1;
		else
			b = mid;
	}
	return a > 0 && r[a - 1].obj == obj && r[a - 1].hi > lo;
}

/* A plain st (any width, guarded or not, not volatile) at a constant
 * offset into an object nothing else sees. */
static int droppable(const Lc *c, const MemAccess *a)
{
	const Spelling *sp = a->at->ins.sp;
	if (a->obj < 0 || c->mo->objs[a->obj].escapes || !a->exact || sp->code != O_st ||
	    a->how != USE_WRITE || sp->unknown || a->at->ins.nops != 2)
		return 0;
	for (uint32_t i = 0; i < sp->nmods; i++) {
		const ModWord *w = &sp->words[i];
		if (w->kind == MW_MOD && (mod_group(w->id) == MG_ORDER || mod_group(w->id) == MG_SCOPE))
			return 0;
	}
	return 1;
}

/* Bytes a store later in the block writes before anything reads them. */
typedef struct Later {
	Read v[MAX_KNOWN];
	uint32_t n;
} Later;

static void forget_read(Later *l, const MemAccess *a)
{
	int64_t lo = a->off, hi = a->off + a->width;
	int anywhere = !a->exact || !a->width;   /* in the object */
	for (uint32_t i = l->n; i-- > 0;) {
		const Read *e = &l->v[i];
		if (a->obj < 0 || (e->obj == a->obj && (anywhere || (e->lo < hi && lo < e->hi))))
			l->v[i] = l->v[--l->n];
	}
}

static int covered(const Later *l, const MemAccess *a)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->v[i].obj == a->obj && l->v[i].lo <= a->off && a->off + a->width <= l->v[i].hi)
			return 1;
	return 0;
}

/* Each block from its end: a store whose bytes an unguarded store after
 * it writes again, with no read of them between, is dead (dead[access]). */
static void overwritten(Lc *c, uint8_t *dead)
{
	for (uint32_t b = 0; b < c->g->nblocks; b++) {
		const Block *bb = &c->g->blocks[b];
		Later l = {.n = 0};
		for (uint32_t i = bb->end; i-- > bb->first;) {
			int32_t j = c->acc_at[i];
			for (; j >= 0 && (uint32_t)j < c->mo->nacc && c->mo->acc[j].ins == i; j++) {
				const MemAccess *a = &c->mo->acc[j];
				if ((a->how & USE_READ) && !c->forwarded[j])
					forget_read(&l, a);
				if (!droppable(c, a))
					continue;
				dead[j] = (uint8_t)covered(&l, a);
				if (a->at->ins.guard)
					continue;
				if (l.n == MAX_KNOWN)
					l.v[0] = l.v[--l.n];
				l.v[l.n++] = (Read){a->obj, a->off, a->off + a->width};
			}
		}
	}
}

/* The stores whose bytes nothing reads, or nothing reads before a later
 * store writes them again, removed; returns how many. */
static unsigned drop_dead(Lc *c, Places *b)
{
	uint32_t n;
	int any;
	Read *r = reads_left(c, &n, &any);
	uint8_t *dead = arena_alloc(c->arena, c->mo->nacc + 1);
	memset(dead, 0, c->mo->nacc + 1);
	overwritten(c, dead);
	unsigned dropped = 0;
	for (uint32_t i = 0; i < c->mo->nacc; i++) {
		const MemAccess *a = &c->mo->acc[i];
		if (!droppable(c, a))
			continue;
		if (!dead[i] && (any || is_read(r, n, a->obj, a->off, a->off + a->width)))
			continue;
		place_remove(place_of(b, a->at));
		dropped++;
	}
	return dropped;
}

/* ---- driver ---------------------------------------------------------------- */

static void index_accesses(Lc *c)
{
	c->acc_at = arena_alloc(c->arena, (c->g->nins + 1) * sizeof *c->acc_at);
	for (uint32_t i = 0; i < c->g->nins; i++)
		c->acc_at[i] = -1;
	for (uint32_t j = c->mo->nacc; j-- > 0;)
		c->acc_at[c->mo->acc[j].ins] = (int32_t)j;
}

/* Section data that names one of the function's objects (nvcc -G's
 * DWARF: where a variable lives) keeps their stores, for a debugger to
 * read; -lineinfo's names none. */
static int named_in_sections(const Lc *c, const Names *sections)
{
	for (uint32_t i = 0; i < c->mo->nobjs; i++)
		if (names_exact(sections, c->mo->objs[i].name))
			return 1;
	return 0;
}

static void rewrite(Lc *c, Stats *st, int keep_stores, Loc loc)
{
	Places *b = &c->b;
	for (uint32_t i = 0; i < c->nfwd; i++)   /* while every source is still in place */
		if (c->fwd[i].carried)
			carrier(c, c->fwd[i].from);
	for (uint32_t i = 0; i < c->nfwd; i++) {
		Place *p = place_of(b, c->fwd[i].ld);
		place_insert(b, p->in, c->fwd[i].ld, forwarded_mov(c, &c->fwd[i]));
		place_remove(place_of(b, c->fwd[i].ld));
	}
	unsigned dropped = keep_stores ? 0 : drop_dead(c, b);
	if (c->o->locals.remarks && (c->nfwd || dropped))
		diag_remark(loc, "%s: %u load%s of local memory forwarded, %u store%s removed",
			quoted_name(c->f->name), c->nfwd, c->nfwd == 1 ? "" : "s", dropped,
			dropped == 1 ? "" : "s");
	st->funcs += c->nfwd || dropped;
	st->forwarded += c->nfwd;
	st->stores += dropped;
}

/* The names every register and the body's own list declare. */
static void declared(Lc *c)
{
	if (!c->module->exact)
		names_of_module(c->module, c->m);
	names_in_module(&c->regs, c->module, c->f);
	names_add_decls(&c->top, c->f->params, c->f->nparams);
	for (const Stmt *s = c->f->body.head; s; s = s->next)
		if (s->kind == S_VAR)
			names_add_decls(&c->top, &s->var, 1);
}

static void locals_func(Module *m, const StageOptions *o, Stmt *fs, Stats *st, Names *module,
	const Names *sections, Borrowers *rd)
{
	Func *f = fs->func;
	Lc c = {.m = m, .o = o, .f = f, .mo = memobjs_build_lent(f, rd), .module = module};
	/* names_shadowed: a register's width would be one scope's */
	if (!c.mo->nacc || c.mo->partial || names_shadowed(f) || !(c.g = cfg_build(f))) {
		memobjs_free(c.mo);
		return;
	}
	st->seen++;
	c.arena = arena_new();
	declared(&c);
	places_of(&c.b, &f->body);
	index_accesses(&c);
	c.out = arena_alloc(c.arena, (c.g->nblocks + 1) * sizeof *c.out);
	memset(c.out, 0, (c.g->nblocks + 1) * sizeof *c.out);
	c.forwarded = arena_alloc(c.arena, c.mo->nacc + 1);
	memset(c.forwarded, 0, c.mo->nacc + 1);
	forward(&c);
	rewrite(&c, st, named_in_sections(&c, sections), fs->loc);
	free(c.fwd);
	places_free(&c.b);
	names_free(&c.regs);
	names_free(&c.top);
	cfg_free(c.g);
	memobjs_free(c.mo);
	arena_free(c.arena);
}

void locals(Module *m, const StageOptions *o)
{
	if (!o->locals.on)
		return;
	Stats st = {0};
	Names module = {0}, sections = {0};
	names_of_sections(&sections, m);
	Borrowers *rd = borrowers_build(m);
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body)
			locals_func(m, o, s, &st, &module, &sections, rd);
	borrowers_free(rd);
	names_free(&module);
	names_free(&sections);
	if (o->stats && st.seen)  /* as the depot stage's: only where there is local memory */
		diag_note("locals: %u functions changed: %u loads forwarded, %u stores removed",
			st.funcs, st.forwarded, st.stores);
}
