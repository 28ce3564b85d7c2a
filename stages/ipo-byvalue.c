/* ipo-byvalue.c: pointer parameters passed by value (issue 33), a step
 * of the ipo stage (ipo.c runs it last; docs/stages.md, "Interprocedural
 * optimization").
 *
 * A pointer parameter the callee only loads and stores through, each at
 * a constant offset (ir/memobj.c: param_exact_accesses), where every
 * call lends it a .local object of the caller's that nothing else
 * reaches during the call (memobjs_build_lent: no address of the object
 * escapes there, no access goes through a .local address not followed,
 * no other argument of the call reaches those bytes): the call passes
 * the bytes the callee touches in an aggregate .param, and the callee
 * reads them from there.  The object stays in the caller, read at
 * constant offsets only, which the depot stage's scalar replacement can
 * hold in registers.
 *
 *   .func f(.param .b64 p)                   .func f(.param .align 4 .b8 p[8])
 *   { ld.param.u64 %rd1, [p];            ->  { mov.b64 %rd1, 0;
 *     ld.f32 %f1, [%rd1+4]; }                  ld.param.f32 %f1, [p+4]; }
 *   st.param.b64 [param0], %rd5;         ->  ld.b32 %bv, [%rd5+4];
 *                                            st.param.b32 [param0+4], %bv;
 *
 * Where the callee also stores through it, the bytes come back: they go
 * into a copy of the callee's in its depot at its start, its accesses
 * touch the copy, and before each ret it puts the bytes it stores into its
 * result, after the result it had (which becomes an aggregate of both;
 * several such parameters come back one after another there); the call
 * copies them back into the object.  Only with the depot
 * stage's scalar replacement on: it holds the copy in registers.
 *
 * Where the callee also loads at run-time offsets (a[j]: C's promise
 * keeps them inside the object lent), the call passes the whole variable
 * from the address lent to its end, and the callee reads its .local copy
 * there, which the depot stage holds in registers only if it selects
 * among few elements (INDEXED_ELEMS, INDEXED_SELECTS): the pointer's
 * value is the copy's address then.
 *
 * The copies in go where the address was stored into the .param, which
 * only other st.params and declarations may follow before the call; the
 * copies back, right after the call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "ipo.h"

typedef struct Piece {
	int64_t off;
	int bytes;
	int stored;          /* the callee stores it */
} Piece;

typedef struct ByValue {
	Callee *fn;
	uint32_t param;
	ParamAccess *acc;
	uint32_t nacc;
	Piece *pieces;
	uint32_t npieces;
	int64_t size;
	int align;
	int stores;          /* the callee stores through it: the bytes come back */
	uint32_t indexed;    /* its loads at run-time offsets: the whole variable goes */
	int64_t ret_at;      /* stores: where they come back in the result */
	int64_t ret_size;    /* stores: the result's bytes, then (every such parameter's) */
	int ret_align;       /* stores: the result's alignment, then */
	Stmt **stores_at;    /* per site: the st.param of the address */
	uint8_t *generic;    /* per site: the address is generic, not .local's window */
} ByValue;

/* A caller's lend of an address to a call, found by the st.param that
 * passed it (MemAccess.via). */
typedef struct LentBy {
	const Stmt *via;
	const MemAccess *acc;
	int twice;           /* two lends through one st.param into different places (a
	                      * callee that also indexes it: two into one, its exact
	                      * bytes and the object from there on) */
	uint32_t group, ngroup;   /* the lends of its call into its object: Facts.sorted[group ..] */
	UT_hash_handle hh;
} LentBy;

/* What escapes of one object of the caller (found when first asked). */
typedef struct Reach {
	int known, blind;    /* blind: an escape may reach any of its bytes */
	int64_t *escs;       /* sorted: where its addresses escape */
	uint32_t nescs;
	MemEnds ends;        /* where its variables end */
} Reach;

/* A function's objects and names, read once on the module as it was. */
typedef struct Facts {
	const Func *f;
	MemObjs *mo;
	int blind;           /* an access through a .local address not followed, or one not known */
	LentBy *lent, *lends;
	const MemAccess **sorted;   /* the lends, by call and object */
	Reach *reach;        /* per object */
	Names names;
	int named;
	Stmt *decls;         /* new registers are declared before it, in order */
	UT_hash_handle hh;
} Facts;

typedef struct ByValues {
	Ipo *p;
	Borrowers *rd;
	Facts *by_func;
	ByValue *v;
	uint32_t n, cap;
} ByValues;

/* ---- what a caller lends ---------------------------------------------------- */

static Facts *facts(ByValues *b, const Func *f)
{
	Facts *c;
	HASH_FIND_PTR(b->by_func, &f, c);
	if (!c) {
		c = xcalloc(1, sizeof *c);
		c->f = f;
		HASH_ADD_PTR(b->by_func, f, c);
	}
	return c;
}

/* f's names, and where its new registers are declared. */
static Facts *named(ByValues *b, Func *f)
{
	Facts *c = facts(b, f);
	if (!c->named) {
		c->named = 1;
		names_of_func(&c->names, b->p->m, f);
		c->decls = f->body.head;
	}
	return c;
}

static int by_call_obj(const void *x, const void *y)
{
	const MemAccess *a = *(const MemAccess *const *)x, *b = *(const MemAccess *const *)y;
	if (a->at != b->at)
		return (uintptr_t)a->at < (uintptr_t)b->at ? -1 : 1;
	return a->obj - b->obj;
}

/* The lends of c's body, by st.param, each with the others of its call
 * into its object. */
static void find_lent(Facts *c)
{
	const MemObjs *mo = c->mo;
	const MemAccess **v = c->sorted = xmalloc((mo->nacc + 1) * sizeof *v);
	uint32_t n = 0;
	for (uint32_t i = 0; i < mo->nacc; i++) {
		c->blind |= mo->acc[i].obj < 0;
		if (mo->acc[i].lent && mo->acc[i].via)
			v[n++] = &mo->acc[i];
	}
	qsort(v, n, sizeof *v, by_call_obj);
	c->lends = xcalloc(n + 1, sizeof *c->lends);
	for (uint32_t i = 0; i < n;) {
		uint32_t end = i + 1;
		while (end < n && !by_call_obj(&v[i], &v[end]))
			end++;
		for (uint32_t k = i; k < end; k++) {
			LentBy *l = &c->lends[k], *old;
			*l = (LentBy){.via = v[k]->via, .acc = v[k], .group = i, .ngroup = end - i};
			HASH_FIND_PTR(c->lent, &l->via, old);
			if (old)
				old->twice |= old->acc->obj != l->acc->obj || old->acc->base_known != l->acc->base_known ||
				               old->acc->base != l->acc->base;
			else
				HASH_ADD_PTR(c->lent, via, l);
		}
		i = end;
	}
}

static Facts *objects(ByValues *b, const Func *f)
{
	Facts *c = facts(b, f);
	if (!c->mo) {
		c->mo = memobjs_build_lent(f, b->rd);
		c->blind = c->mo->partial;
		c->reach = xcalloc(c->mo->nobjs + 1, sizeof *c->reach);
		find_lent(c);
	}
	return c;
}

static int by_value_cmp(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return a < b ? -1 : a > b;
}

/* Object obj's escapes.  Under a layout NVVM or LLVM wrote (one anchor
 * per variable: Func.layout_kept) an address escaping at e reaches from e
 * to the next start (memobjs_starts), as the depot stage trusts; else
 * any escape may reach any of its bytes. */
static const Reach *reach_of(Facts *c, int obj)
{
	Reach *r = &c->reach[obj];
	const MemObjs *mo = c->mo;
	if (r->known)
		return r;
	r->known = 1;
	r->escs = xmalloc((mo->nesc + 1) * sizeof *r->escs);
	for (uint32_t i = 0; i < mo->nesc; i++)
		if (mo->esc[i].obj == obj) {
			r->blind |= !mo->esc[i].base_known;
			r->escs[r->nescs++] = mo->esc[i].base;
		}
	r->blind |= (mo->objs[obj].escapes && !r->nescs) || (r->nescs && !c->f->layout_kept);
	if (r->blind || (!r->nescs && !c->f->layout_kept))
		return r;
	qsort(r->escs, r->nescs, sizeof *r->escs, by_value_cmp);
	memends_of(mo, obj, c->f->layout_kept, &r->ends);
	return r;
}

/* Are bytes base .. base+size of obj out of reach of every address of it
 * that escapes: none escapes at base, and no other variable starts
 * among them? */
static int out_of_reach(Facts *c, int obj, int64_t base, int64_t size)
{
	const Reach *r = reach_of(c, obj);
	if (r->blind)
		return 0;
	if (!r->nescs)
		return 1;
	uint32_t e = sorted_above(r->escs, r->nescs, base - 1);
	return !(e < r->nescs && r->escs[e] == base) && memends_next_start(&r->ends, base) >= base + size;
}

/* Does another lend o of the same call into the same object stay off the
 * bytes base .. base+size?  Bounded (the callee reaches constant offsets
 * only), where its bytes lie apart; else it reaches from its address on:
 * past them, or, under a layout NVVM or LLVM wrote, from before them,
 * where it ends at the next start (the address lent here is one). */
static int apart(const Facts *c, const MemAccess *o, int64_t base, int64_t size)
{
	if (!o->base_known)
		return 0;
	if (o->bounded)
		return o->off + o->width <= base || o->off >= base + size;
	return o->base >= base + size || (o->base < base && c->f->layout_kept);
}

/* The lend of the address store passes, if one known object's at a
 * known offset (else NULL). */
static const LentBy *lend_of(Facts *c, const Stmt *store)
{
	LentBy *l;
	if (c->blind)
		return NULL;
	HASH_FIND_PTR(c->lent, &store, l);
	if (!l || l->twice)
		return NULL;
	const MemAccess *mine = l->acc;
	return mine->obj < 0 || !mine->base_known || mine->base < 0 ? NULL : l;
}

/* The bytes from the address store lends to the end of its variable: the
 * object's end, or under a layout NVVM or LLVM wrote, the next anchor
 * past the anchor the address came from (memends_anchored); -1 not
 * known.  Not the next start past the address: an address lent inside
 * an array looks like one (clang's &a[13] and &a[14] to two calls, the
 * first reading a[13] to a[16]). */
static int64_t lent_extent(Facts *c, const Stmt *store)
{
	const LentBy *l = lend_of(c, store);
	const MemAccess *mine = l ? l->acc : NULL;
	if (!mine || c->mo->objs[mine->obj].size < 0)
		return -1;
	int64_t end = c->mo->objs[mine->obj].size, lo;
	const MemAnchor *an = mine->anchor >= 0 ? &c->mo->anchors[mine->anchor] : NULL;
	const Reach *r = c->f->layout_kept && an && an->op == MEM_ARITH && !an->fixed &&
		an->off >= 0 && an->off <= mine->base ? reach_of(c, mine->obj) : NULL;
	if (r && !r->blind)
		memends_anchored(&r->ends, an->off, &lo, &end);
	return end - mine->base;
}

/* Does the address stored by store lend its call an object of the
 * caller's alone, bv->size bytes of it from there: nothing else in the
 * caller may reach them while the call runs? */
static int lent_alone(Facts *c, const Stmt *store, const ByValue *bv, uint8_t *generic)
{
	const LentBy *l = lend_of(c, store);
	if (!l)
		return 0;
	const MemAccess *mine = l->acc;
	for (uint32_t i = l->group; i < l->group + l->ngroup; i++)
		if (c->sorted[i]->via != store && !apart(c, c->sorted[i], mine->base, bv->size))
			return 0;
	*generic = mine->generic;
	const MemObj *o = &c->mo->objs[mine->obj];
	return !(o->size >= 0 && mine->base + bv->size > o->size) && out_of_reach(c, mine->obj, mine->base, bv->size);
}

/* ---- what a callee touches ------------------------------------------------------ */

/* A plain ld or st (no space, .local, .global: the pointer's own, as the
 * walk followed it) at an offset its width divides: that width, else 0. */
static int plain_access(const Ins *in, int64_t off)
{
	const Spelling *sp = in->sp;
	int store = sp->code == O_st;
	if ((sp->code != O_ld && !store) || !sp->type || in->nops != 2 || (in->ops[0]->kind == E_ADDR) != store)
		return 0;
	static const char *const spaces[] = {"", ".local", ".global"};
	char vec[8] = "", want[48];
	if (sp->vec > 1)
		snprintf(vec, sizeof vec, ".v%d", sp->vec);
	int w = sp->type_bytes * sp->vec;
	for (int k = 0; k < 3; k++) {
		snprintf(want, sizeof want, "%s%s%s%s", store ? "st" : "ld", spaces[k], vec, sp->type);
		if (!strcmp(want, sp->text))
			return w > 0 && off % w == 0 ? w : 0;
	}
	return 0;
}

static int by_off(const void *x, const void *y)
{
	const Piece *a = x, *b = y;
	return a->off < b->off ? -1 : a->off > b->off ? 1 : a->bytes - b->bytes;
}

/* The elements the accesses touch, each once; 0 where two overlap. */
static int pieces_of(ByValue *bv)
{
	uint32_t n = 0, cap = 0;
	for (uint32_t i = 0; i < bv->nacc; i++) {
		const Ins *in = &bv->acc[i].at->ins;
		int w = plain_access(in, bv->acc[i].off);
		if (!w)
			return 0;
		bv->align = w > bv->align ? w : bv->align;
		bv->stores |= bv->acc[i].store;
		if (bv->acc[i].indexed)
			continue;
		for (int k = 0; k < in->sp->vec; k++) {
			bv->pieces = array_grow(bv->pieces, n, &cap, sizeof *bv->pieces);
			bv->pieces[n++] = (Piece){bv->acc[i].off + k * in->sp->type_bytes, in->sp->type_bytes,
				bv->acc[i].store};
		}
	}
	if (n)   /* (none where the callee only indexes: qsort is not given NULL) */
		qsort(bv->pieces, n, sizeof *bv->pieces, by_off);
	bv->npieces = 0;
	for (uint32_t i = 0; i < n; i++) {
		Piece *last = bv->npieces ? &bv->pieces[bv->npieces - 1] : NULL;
		if (last && last->off == bv->pieces[i].off && last->bytes == bv->pieces[i].bytes) {
			last->stored |= bv->pieces[i].stored;
			continue;
		}
		if (last && last->off + last->bytes > bv->pieces[i].off)
			return 0;
		bv->pieces[bv->npieces++] = bv->pieces[i];
	}
	return bv->npieces > 0 || bv->indexed;
}

/* Where the callee loads at run-time offsets: the whole variable lent
 * (bv->size bytes), in elements of those loads' width, which every
 * access shares (the depot stage selects among the elements of one
 * width), and few enough that it does; each element stored back if an
 * access stores it. */
static int whole_pieces(ByValue *bv)
{
	int w = 0;
	for (uint32_t i = 0; i < bv->nacc; i++) {
		const Ins *in = &bv->acc[i].at->ins;
		int e = in->sp->type_bytes;
		if ((w && e != w) || (bv->acc[i].indexed && (in->sp->vec != 1 || in->guard || e < 2)))
			return 0;
		w = e;
	}
	int64_t elems = bv->size / w;
	if (bv->size % w || elems > INDEXED_ELEMS || elems * bv->indexed > INDEXED_SELECTS)
		return 0;
	Piece *v = xcalloc((size_t)elems, sizeof *v);
	for (int64_t k = 0; k < elems; k++) {
		v[k] = (Piece){k * w, w, 0};
		for (uint32_t i = 0; i < bv->npieces; i++)
			v[k].stored |= bv->pieces[i].stored && bv->pieces[i].off < (k + 1) * w &&
			               bv->pieces[i].off + bv->pieces[i].bytes > k * w;
	}
	free(bv->pieces);
	bv->pieces = v;
	bv->npieces = (uint32_t)elems;
	return 1;
}

/* What the ABI passes in registers: parameters up to this many bytes in
 * all, and a result as large; past it, in the caller's stack frame
 * (ptxas 13.0 -c for sm_80: a 48-byte aggregate argument or result takes
 * no stack, 52 bytes take 56, and of arguments 32 + 32 bytes, 32).  A
 * copy past it would only move the object's bytes into another frame. */
enum { ABI_REG_BYTES = 48 };

/* The bytes of a parameter or result as declared, -1 unknown. */
static int64_t param_bytes(const Decl *d)
{
	return d->nds == 1 ? decl_bytes(d, &d->ds[0]) : -1;
}

/* A parameter's alignment as declared (a scalar's: its size). */
static int param_align(const Decl *d)
{
	int a = var_align(d);
	return a > 0 ? a : 1;
}

/* A function's parameters as the ABI lays them out, each at its
 * alignment: their bytes, -1 unknown; bytes[i] and align[i] in place of
 * parameter i's where given (lay, one per parameter). */
typedef struct Lay {
	int64_t bytes;
	int align;
} Lay;

static int64_t laid_out(const Lay *lay, uint32_t n)
{
	int64_t at = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (lay[i].bytes < 0)
			return -1;
		at = align_to(at, lay[i].align) + lay[i].bytes;
	}
	return at;
}

/* The bytes of the callee's result (none: 0), -1 if not one sized
 * parameter: where the stored bytes come back is past them. */
static int64_t result_bytes(const Func *f)
{
	if (!f->nrets)
		return 0;
	const Decl *r = &f->rets[0];
	if (f->nrets != 1 || (decl_space(r) != SPACE_PARAM && decl_space(r) != SPACE_NONE))
		return -1;
	return param_bytes(r);
}

static int result_align(const Func *f)
{
	return f->nrets ? param_align(&f->rets[0]) : 1;
}

/* ---- which parameters ------------------------------------------------------- */

/* The one st.param of the address into the call's argument arg, followed
 * only by st.params and declarations up to the call. */
static Stmt *address_store(const Call *st, const char *arg)
{
	Stmt *store = NULL, *s;
	for (s = st->list->head; s && s != st->call; s = s->next) {
		if (s->kind == S_INS && ins_mentions(&s->ins, arg)) {
			if (store)
				return NULL;
			store = s;
		} else if (store && s->kind != S_VAR &&
		           !(s->kind == S_INS && s->ins.sp->code == O_st && ins_space(&s->ins) == SPACE_PARAM)) {
			return NULL;
		}
	}
	int64_t off;
	if (!s || !store || ipo_param_access(&store->ins, arg, &off) != 0 || off || store->ins.guard ||
	    store->ins.sp->vec != 1 || store->ins.sp->type_bytes != 8 ||
	    store->ins.ops[1]->kind != E_NAME || store->ins.ops[1]->str[0] != '%')
		return NULL;
	return store;
}

/* Where the stored bytes come back: every call takes the result (one
 * does not: the callee's result would change under it). */
static int results_taken(const Callee *fn)
{
	for (uint32_t k = 0; k < fn->nsites; k++) {
		CallParts cp;
		ins_call_parts(&fn->sites[k].call->ins, &cp);
		if ((cp.rets != NULL) != (fn->f->nrets != 0))
			return 0;
	}
	return 1;
}

static void forget(ByValue *bv)
{
	free(bv->acc);
	free(bv->pieces);
	free(bv->stores_at);
	free(bv->generic);
}

/* Every call's one st.param of the address into the argument (bv's
 * stores_at), and where the callee indexes, the bytes it may reach: each
 * call's variable from the address on, the largest (more read is
 * harmless), at least the bytes it reaches at constant offsets. */
static int sites_store(ByValues *b, ByValue *bv)
{
	const Callee *fn = bv->fn;
	int64_t hi = bv->size;
	bv->stores_at = xcalloc(fn->nsites, sizeof *bv->stores_at);
	bv->generic = xcalloc(fn->nsites, 1);
	for (uint32_t k = 0; k < fn->nsites; k++) {
		const Call *st = &fn->sites[k];
		CallParts cp;
		ins_call_parts(&st->call->ins, &cp);
		const char *arg = cp.args->kids[bv->param]->str;
		if (ipo_other_call_names(st->list, arg, st->call, ANY) || !(bv->stores_at[k] = address_store(st, arg)))
			return 0;
		int64_t x = bv->indexed ? lent_extent(objects(b, st->caller), bv->stores_at[k]) : hi;
		if (x < hi)
			return 0;
		bv->size = x > bv->size ? x : bv->size;
	}
	return 1;
}

/* Parameter i of fn, if it can go by value at every call, its bytes in
 * the ABI's registers with the others' (lay: each parameter's, updated),
 * the stored ones back in the result's, from *ret_end on (the result's
 * bytes so far, -1 if it cannot take them; updated). */
static void consider(ByValues *b, Callee *fn, uint32_t i, Lay *lay, int64_t *ret_end)
{
	const Decl *d = &fn->f->params[i];
	if (!ipo_scalar(d) || ty_size(d->type) != 8)
		return;
	ByValue bv = {.fn = fn, .param = i};
	bv.acc = param_accesses_indexed(fn->f, d->ds[0].name, &bv.nacc, &bv.size, &bv.indexed);
	if (!bv.acc || !pieces_of(&bv))
		goto no;
	if (!sites_store(b, &bv) || (bv.indexed && !whole_pieces(&bv)))
		goto no;
	const StageOptions *o = b->p->o;
	if (bv.stores || bv.indexed) {   /* a copy of the callee's: the depot stage's registers */
		Lay was = lay[i];
		lay[i] = (Lay){bv.size, bv.align};
		int64_t all = laid_out(lay, fn->f->nparams);
		lay[i] = was;
		if (all < 0 || all > ABI_REG_BYTES || o->depot.off || o->depot.no_sroa)
			goto no;
	}
	if (bv.stores) {
		if (*ret_end < 0 || !results_taken(fn))
			goto no;
		bv.ret_at = align_to(*ret_end, bv.align);
		if (bv.ret_at + bv.size > ABI_REG_BYTES)
			goto no;
	}
	for (uint32_t k = 0; k < fn->nsites; k++)
		if (!lent_alone(objects(b, fn->sites[k].caller), bv.stores_at[k], &bv, &bv.generic[k]))
			goto no;
	lay[i] = (Lay){bv.size, bv.align};
	if (bv.stores)
		*ret_end = bv.ret_at + bv.size;
	b->v = array_grow(b->v, b->n, &b->cap, sizeof *b->v);
	b->v[b->n++] = bv;
	return;
no:
	forget(&bv);
}

/* The result that n parameters (v) of f coming back make: every one's
 * bytes at its alignment, after the result f had. */
static void result_is(ByValue *v, uint32_t n, const Func *f, int64_t end)
{
	int align = result_align(f);
	for (uint32_t i = 0; i < n; i++)
		if (v[i].stores && v[i].align > align)
			align = v[i].align;
	for (uint32_t i = 0; i < n; i++)
		v[i].ret_size = end, v[i].ret_align = align;
}

/* ---- the rewrite ------------------------------------------------------------ */

/* A declaration of name, size bytes at align in space (".param", ".local"). */
static Stmt *aggregate_stmt(Ipo *p, Loc at, const char *space, const char *name, int align, int64_t size)
{
	char words[64], decl[256];
	snprintf(words, sizeof words, "%s .align %d .b8", space, align);
	snprintf(decl, sizeof decl, "%s[%lld]", name, (long long)size);
	return var_new(p->m, at, words, decl);
}

static Decl aggregate(Ipo *p, Loc at, const char *name, int align, int64_t size)
{
	return aggregate_stmt(p, at, ".param", name, align, size)->var;
}

/* s, an access through the pointer, as the same access at [base+off] in
 * space (".param", ".local"); base NULL: at its own address. */
static void access_at(Ipo *p, Stmt *s, const char *space, const char *base, int64_t off)
{
	const Spelling *sp = s->ins.sp;
	int store = sp->code == O_st;
	char text[48], vec[8] = "";
	if (sp->vec > 1)
		snprintf(vec, sizeof vec, ".v%d", sp->vec);
	snprintf(text, sizeof text, "%s%s%s%s", store ? "st" : "ld", space, vec, sp->type);
	Expr *addr = base ? expr_addr(p->m, name_expr(base), off) : s->ins.ops[!store];
	Expr *ops[2] = {store ? addr : s->ins.ops[0], store ? s->ins.ops[1] : addr};
	Stmt *m = ins_new(p->m, s->loc, text, ops, 2);
	m->ins.guard = s->ins.guard, m->ins.guard_neg = s->ins.guard_neg;
	s->ins = m->ins;
}

/* Where a copy reads and writes: [base+shift+off] in space, for each
 * piece's off. */
typedef struct Side {
	const char *space;
	Expr *base;
	int64_t shift;
} Side;

/* Before at in l (at its end: NULL): each piece (the stored ones, with
 * stored) moved through a new register of f's, from one side to the
 * other; each store with guard's guard. */
static void copy_pieces(ByValues *b, Func *f, List *l, Stmt *at, const ByValue *bv, int stored,
	Side from, Side to, const Stmt *guard)
{
	Facts *c = named(b, f);
	for (uint32_t i = 0; i < bv->npieces; i++) {
		const Piece *pc = &bv->pieces[i];
		if (stored && !pc->stored)
			continue;
		char type[16], lds[32], sts[32];
		snprintf(type, sizeof type, ".reg .b%d", held_bits(pc->bytes));
		snprintf(lds, sizeof lds, "ld%s.b%d", from.space, 8 * pc->bytes);
		snprintf(sts, sizeof sts, "st%s.b%d", to.space, 8 * pc->bytes);
		Expr *reg = name_expr(reg_new(b->p->m, &f->body, &c->names, c->decls, "%bv", type));
		Expr *lops[2] = {reg, expr_addr(b->p->m, from.base, from.shift + pc->off)};
		Expr *sops[2] = {expr_addr(b->p->m, to.base, to.shift + pc->off), reg};
		Loc loc = at ? at->loc : bv->fn->def->loc;
		Stmt *x = ins_new(b->p->m, loc, lds, lops, 2), *y = ins_new(b->p->m, loc, sts, sops, 2);
		if (guard) {   /* the store only: the register is read where it is written */
			y->ins.guard = guard->ins.guard;
			y->ins.guard_neg = guard->ins.guard_neg;
		}
		if (at) {
			list_insert_before(l, at, x);
			list_insert_before(l, at, y);
		} else {
			list_append(l, x);
			list_append(l, y);
		}
	}
}

/* A statement that never falls through: an unguarded ret, exit, trap or
 * branch. */
static int ends_flow(const Stmt *s)
{
	return s && s->kind == S_INS && !s->ins.guard && (s->ins.sp->op->flags & (OF_BRANCH | OF_TERM));
}

/* Where the callee's copy lives: bytes past its depot's (a depot made if
 * it has none), an object of their own there (a start noted), which the
 * depot stage holds in registers, or, one the callee also loads at
 * run-time offsets, selects among (ptxas -c does not).  Not a .local
 * variable of its own: ptxas keeps those in memory, and in whole-program
 * compiles adds them to every kernel that reaches the callee (y161's
 * fn1: 12 bytes of its copy in two kernels' frames). */
static Side copy_place(ByValues *b, const ByValue *bv, Func *f, const char **start)
{
	Ipo *p = b->p;
	Facts *c = named(b, f);
	Loc loc = bv->fn->def->loc;
	Depot dp = func_depot(&f->body);
	if (!dp.decl) {
		const char *name = names_fresh(&c->names, "__local_depot");
		dp.decl = aggregate_stmt(p, loc, ".local", name, bv->align, 0);
		list_insert_before(&f->body, c->decls, dp.decl);
	}
	Decl *v = &dp.decl->var;
	Expr *depot = name_expr(v->ds[0].name);
	if (bv->indexed && !dp.spl) {   /* nvcc's mov %SPL, __local_depotN */
		dp.spl = reg_new(p->m, &f->body, &c->names, c->decls, "%SPL", ".reg .b64");
		Expr *ops[2] = {name_expr(dp.spl), depot};
		list_insert_before(&f->body, body_past_decls(&f->body), ins_new(p->m, loc, "mov.u64", ops, 2));
	}
	int64_t at = align_to(decl_bytes(v, &v->ds[0]), bv->align);
	decl_set_dim(p->m, v, at + bv->size);
	func_depot_start(p->m, f, at);
	if (bv->align > var_align(v))
		decl_set_align(p->m, v, (uint32_t)bv->align);
	*start = dp.spl;   /* the register a mov of the depot sets */
	return (Side){".local", depot, at};
}

/* The callee keeps the bytes in its copy (copy_place), filled from the
 * .param at its start, the loads at run-time offsets reading it through
 * the pointer (now its address); with ret, before each ret (and at its
 * end, if it falls off it) the stored ones go into its result, past what
 * it returned. */
static void callee_copy(ByValues *b, const ByValue *bv, Func *f, const char *formal, Side local,
	const char *ret)
{
	Ipo *p = b->p;
	Stmt *first = body_past_decls(&f->body);
	Side param = {".param", name_expr(formal), 0};
	copy_pieces(b, f, &f->body, first, bv, 0, param, local, NULL);
	for (uint32_t i = 0; i < bv->nacc; i++)
		access_at(p, bv->acc[i].at, ".local", bv->acc[i].indexed ? NULL : local.base->str,
			local.shift + bv->acc[i].off);
	if (!ret)
		return;
	Side result = {".param", name_expr(ret), bv->ret_at};
	BodyIt it;
	for (Stmt *s = body_first(&f->body, &it); s; s = body_next(&it))
		if (s->kind == S_INS && s->ins.sp->code == O_ret)
			copy_pieces(b, f, it.in, s, bv, 1, local, result, s);
	if (!ends_flow(f->body.tail))
		copy_pieces(b, f, &f->body, NULL, bv, 1, local, result, NULL);
}

/* The callee's load of the pointer (s) as its copy's address, where it
 * loads through it at run-time offsets (an add to the depot's start
 * even of 0: the anchor NVVM writes, which the index follows), else as 0
 * (no access goes through it any more). */
static void pointer_is(Ipo *p, Stmt *s, const char *start, int64_t shift)
{
	Expr *reg = s->ins.ops[0];
	Stmt *m = mov_new(p->m, s->loc, 8, reg, int_expr(0));
	if (start) {
		Expr *ops[3] = {reg, name_expr(start), int_expr(shift)};
		m = ins_new(p->m, s->loc, "add.u64", ops, 3);
	}
	m->ins.guard = s->ins.guard, m->ins.guard_neg = s->ins.guard_neg;
	s->ins = m->ins;
}

/* The callee loads what the pointer pointed to from the .param itself,
 * or from its copy. */
static void callee_by_value(ByValues *b, const ByValue *bv)
{
	Ipo *p = b->p;
	Func *f = bv->fn->f;
	const char *formal = f->params[bv->param].ds[0].name;
	int copied = bv->stores || bv->indexed;
	const char *start = NULL;
	Side copy = copied ? copy_place(b, bv, f, &start) : (Side){0};
	BodyIt it;
	int64_t off;
	for (Stmt *s = body_first(&f->body, &it); s; s = body_next(&it))
		if (s->kind == S_INS && ipo_param_access(&s->ins, formal, &off) == 1)
			pointer_is(p, s, start, copy.shift);
	if (!copied)
		for (uint32_t i = 0; i < bv->nacc; i++)
			access_at(p, bv->acc[i].at, ".param", formal, bv->acc[i].off);
	Decl *params = arena_dup(p->m->arena, f->params, (f->nparams + 1) * sizeof *params);
	params[bv->param] = aggregate(p, bv->fn->def->loc, formal, bv->align, bv->size);
	Decl *rets = f->rets;
	uint32_t nrets = f->nrets;
	const char *ret = NULL;
	if (bv->stores) {
		ret = f->nrets ? f->rets[0].ds[0].name : names_fresh(&named(b, f)->names, "func_retval0");
		rets = arena_alloc(p->m->arena, 2 * sizeof *rets);
		rets[0] = aggregate(p, bv->fn->def->loc, ret, bv->ret_align, bv->ret_size);
		nrets = 1;
	}
	if (copied)
		callee_copy(b, bv, f, formal, copy, ret);
	ipo_set_signature(p, f->name, params, f->nparams, rets, nrets);
}

/* The call with result ret (it had none). */
static void add_result(Ipo *p, Stmt *call, const char *ret)
{
	Ins *in = &call->ins;
	Expr **ops = arena_alloc(p->m->arena, (in->nops + 1) * sizeof *ops);
	Expr *r = name_expr(ret);
	ops[0] = expr_list(p->m, E_PAREN, &r, 1);
	memcpy(ops + 1, in->ops, in->nops * sizeof *ops);
	in->ops = ops;
	in->nops++;
}

/* The call copies the bytes into its .param where it stored the address,
 * and the stored ones back after it. */
static void site_by_value(ByValues *b, const ByValue *bv, const Call *st, Stmt *store, int generic)
{
	Ipo *p = b->p;
	Func *caller = st->caller;
	CallParts cp;
	ins_call_parts(&st->call->ins, &cp);
	const char *arg = cp.args->kids[bv->param]->str;
	Stmt *d = list_var(st->list, arg);
	d->var = aggregate(p, d->loc, arg, bv->align, bv->size);
	Expr *addr = store->ins.ops[1];
	Side object = {generic ? "" : ".local", addr, 0}, param = {".param", name_expr(arg), 0};
	copy_pieces(b, caller, st->list, store, bv, 0, object, param, NULL);
	list_remove(st->list, store);
	if (!bv->stores)
		return;
	const char *ret;
	if (cp.rets) {
		ret = cp.rets->kids[0]->str;
		Stmt *r = list_var(st->list, ret);
		r->var = aggregate(p, r->loc, ret, bv->ret_align, bv->ret_size);
	} else {
		ret = names_fresh(&named(b, caller)->names, "retval_bv");
		list_insert_before(st->list, st->call,
			aggregate_stmt(p, st->call->loc, ".param", ret, bv->ret_align, bv->ret_size));
		add_result(p, st->call, ret);
	}
	Side result = {".param", name_expr(ret), bv->ret_at};
	copy_pieces(b, caller, st->list, st->call->next, bv, 1, result, object, NULL);
}

void ipo_by_value(Ipo *p)
{
	ByValues b = {.p = p, .rd = borrowers_build(p->m)};
	for (uint32_t i = 0; i < p->nfns; i++) {
		Callee *fn = &p->fns[i];
		if (fn->why >= 0 || fn->gone || !fn->nsites || names_shadowed(fn->f))
			continue;   /* (the shadowing asked once a function, not per parameter) */
		Lay *lay = xmalloc((fn->f->nparams + 1) * sizeof *lay);
		for (uint32_t k = 0; k < fn->f->nparams; k++)
			lay[k] = (Lay){param_bytes(&fn->f->params[k]), param_align(&fn->f->params[k])};
		uint32_t first = b.n;
		int64_t ret_end = result_bytes(fn->f);
		for (uint32_t k = 0; k < fn->f->nparams; k++)
			consider(&b, fn, k, lay, &ret_end);
		free(lay);
		if (b.n > first)
			result_is(&b.v[first], b.n - first, fn->f, ret_end);
	}
	for (uint32_t i = 0; i < b.n; i++) {   /* before a copy of another parameter hides them */
		uint32_t n;
		if (b.v[i].stores || b.v[i].indexed)
			func_depot_starts(p->m, b.v[i].fn->f, b.rd, &n);
	}
	for (uint32_t i = 0; i < b.n; i++) {
		ByValue *bv = &b.v[i];
		for (uint32_t k = 0; k < bv->fn->nsites; k++)
			site_by_value(&b, bv, &bv->fn->sites[k], bv->stores_at[k], bv->generic[k]);
		callee_by_value(&b, bv);
		p->st.byvalue++;
		ipo_remark(p, bv->fn->def->loc, bv->stores ?
			"parameter %u of %s passed by value and back: every call lends it a .local object "
			"of its own that only it touches (%lld bytes%s)" :
			"parameter %u of %s passed by value: every call lends it a .local object of its own "
			"that only it reads (%lld bytes%s)", bv->param + 1, quoted_name(bv->fn->f->name),
			(long long)bv->size, bv->indexed ? ", the whole variable: it reads at run-time offsets" : "");
		forget(bv);
	}
	Facts *c, *tmp;
	HASH_ITER(hh, b.by_func, c, tmp) {
		HASH_DEL(b.by_func, c);
		if (c->mo) {
			for (uint32_t i = 0; i < c->mo->nobjs; i++)
				free(c->reach[i].escs), memends_free(&c->reach[i].ends);
			HASH_CLEAR(hh, c->lent);
			free(c->lends);
			free(c->sorted);
			free(c->reach);
			memobjs_free(c->mo);
		}
		if (c->named)
			names_free(&c->names);
		free(c);
	}
	free(b.v);
	borrowers_free(b.rd);
}
