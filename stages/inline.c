/* inline.c: direct calls to functions the module defines replaced by the
 * callee's body (issues 24, 31).  This file holds the stage's driver and
 * the rewriting.  What inlining a call depends on (the legality, the
 * callee's and the caller's facts, the parameter slots, the growth
 * budget) is inlinable.c's, which devirtualization asks too; what a
 * caller's copies fold is inline-cost.c's, and the cost model weighing
 * it all cost.c's; inline.h holds what this file and inline-cost.c share.
 *
 * ptxas never inlines a .func call: it keeps the ABI (parameters through
 * registers it may not allocate freely, a stack frame for the callee's
 * depot, a call and return).  NVVM inlines inside one translation unit and,
 * with -dlto, across files; after a link this stage is the only place left
 * to do it.  A call site
 *
 *     {
 *     .param .b32 param0;                      .reg .b32 %param0_0;
 *     st.param.b32 [param0], %r1;              mov.b32 %param0_0, %r1;
 *     .param .b32 retval0;                     .reg .b32 %retval0_0;
 *     call.uni (retval0), f, (param0);   ->    mov.b32 %retval0_0, 0;
 *     ld.param.b32 %r2, [retval0];             .reg .b32 %i1r<3>;
 *     }                                        mov.b32 %i1r1, %param0_0;
 *                                              @%i1p1 bra $L__inline_end;  (@%p1 ret)
 *                                              add.s32 %i1r2, %i1r1, 1;
 *                                              mov.b32 %retval0_0, %i1r2;
 *                                              $L__inline_end:   (the last ret goes)
 *                                              mov.b32 %r2, %retval0_0;
 *
 * The copy has no { } of its own, and a call's own { } (nvcc's, declaring
 * only the .params it passes) goes once its calls are in: every name
 * either declares is then fresh in the caller, and a chain of copies
 * nests no deeper than its callees did (two scopes a level, a chain of
 * n nested 2n deep, past what ptxas can take).
 *
 * Parameters.  Each argument (the caller's .param) and its formal (the
 * callee's) become registers, one per *slot*: every access to either, on
 * either side, must be an ld.param or st.param at a constant offset, vector
 * ones split by element, and no two accesses may overlap unless they touch
 * the same bytes, or one is a read of an integer type of the other's first
 * bytes (a piece: a char passed as .b32, read ld.param.u8).  Then memory
 * and registers behave alike, and each access becomes a mov (or a cvt
 * where the register is wider than the access, as ld and st allow: bytes
 * live in 16-bit slots; a piece's cvt truncates).  The result likewise.
 * A slot read that nothing writes, and a result's, starts as 0.  Calls
 * that pass one .param (devirtualization's funnels) share its slots and
 * are inlined together or not at all.  ptxas itself crashes on ld.param
 * of a .param array no call uses, so keeping them as memory is no option.
 *
 * The body.  The callee's declarations (registers, labels, prototypes,
 * nested scopes, inline asm's blocks) are renamed fresh in the caller,
 * scope by scope (%r<N> becomes %iKr<N>, a label keeps its name where it
 * is free, a nested scope's %r1 that shadows the function's gets another);
 * a .branchtargets lists the copy's labels; a ret branches past the
 * copy; a guarded call branches past it when its guard is false; a
 * register the callee reads where nothing wrote it starts as 0; what the
 * copy names of the module is declared before the caller, and what that
 * one's initializer names before it, at any depth.  A callee's alloca'd
 * stack, given back at its return, is given back after the copy too
 * (stacksave before it, stackrestore where it returns).  Under --verify
 * judge() reads every name of a copy against the callee by the PTX
 * scoping rule.  The callee's __local_depot becomes bytes past the caller's own
 * (a depot made when it has none), each callee's past those before it,
 * every copy of one callee at its offset; its %SPL is the caller's
 * plus that offset, each `add d, %SPL, K` and `[%SPL+K]` of it (and of
 * %SP) rebased on the caller's, so that the depot stage sees its arrays
 * as the caller's own objects and may share their bytes.  In -lineinfo
 * PTX each copied .loc names the callee (function_name, a string added to
 * .debug_str where none holds its name) and the call's line (inlined_at),
 * as nvcc writes NVVM's own inlining.  A loop of the copy that the front
 * end unrolled already is marked .pragma "nounroll" (keep_unrolled()).
 *
 * What is inlined.  Functions go bottom-up over the call graph's strongly
 * connected components, so a callee is inlined into before it is copied;
 * a callee on a cycle (recursion, direct or mutual) never is, so a second
 * run finds nothing more to do.  Only the calls a function had before the
 * stage are candidates (and those a deferred callee's copy brings: a
 * function called once that goes once inlined is copied as written into
 * its caller where every copy is taken, always or a threshold over
 * CALLER_MAX, so that a chain copies each body once, not each level's
 * whole expansion).  --inline=always takes every call it can; auto
 * asks the cost model (cost.c, on inline-cost.c's facts); never, none.  Either
 * within the module's growth budget (--inline-growth; In.budget,
 * in_open()): copies add at most N% of the module's instructions, each
 * charged its callee's body unless the callee goes with it (charge()),
 * so a chain of functions that all stay grows linearly.  A callee's body is
 * never removed here: global optimization drops what no one calls any
 * more, and a function whose address is taken keeps it.  Declined, with
 * why (-Rpass-missed=inline, inlinable_text()): recursion, an undefined or
 * .entry callee, a .weak one in an open world, -G DWARF in the module (it
 * describes the callee as a frame of its own), a parameter used other
 * than by ld.param/st.param at a constant offset or accessed in
 * overlapping pieces, a callee that declares .shared/.global/.const data
 * or a .pragma about its function, a caller whose nested scopes redeclare
 * its names, a depot whose address is formed other than by one mov (or a
 * caller that steps its %SPL: a copy's bytes would land past its end), a
 * caller or callee over CALLER_MAX instructions, the growth budget spent.
 * (A caller's name that would capture the copy's reference to a module
 * symbol cannot occur: the normal form renames it, scope.c.)
 *
 * requires: the world verdict (o->world), o->inlining; builds its own
 * symbol table and call graph / maintains: the module's normal form;
 * every function and variable stays / breaks: any symbol table, call
 * graph, CFG or analysis built before it. */
#include <stdlib.h>
#include <string.h>
#include "inline.h"
#include "cost.h"

typedef struct Str {
	UT_hash_handle hh;
	const char *s, *label;
} Str;

/* ---- small things --------------------------------------------------------- */

static Stmt *mkins(In *in, Loc loc, const char *sp, Expr *a, Expr *b, Expr *c)
{
	Expr *ops[3] = {a, b, c};
	return ins_new(in->m, loc, sp, ops, c ? 3 : b ? 2 : 1);
}

static Stmt *mklabel(In *in, Loc loc, const char *name)
{
	Stmt *s = stmt_new(in->m, S_LABEL, loc);
	s->label = name;
	return s;
}

/* ---- renaming the callee's names -------------------------------------------- */

typedef struct Ren {
	UT_hash_handle hh;
	const char *from, *to;
	unsigned long long count;    /* ranges: N of %r<N> */
} Ren;

/* The names one scope of the callee declares; a nested scope's map
 * looks in the enclosing one's for what it does not declare. */
typedef struct Map {
	Ren *exact, *ranges;         /* ranges by their interned base */
	Arena *a;
	const struct Map *up;
} Map;

static void map_put(Map *mp, Ren **set, const char *from, const char *to, const char *count)
{
	Ren *r;
	HASH_FIND_PTR(*set, &from, r);
	if (r)
		return;
	r = arena_alloc(mp->a, sizeof *r);
	r->from = from;
	r->to = to;
	r->count = count ? strtoull(count, NULL, 0) : 0;
	HASH_ADD_PTR(*set, from, r);
}

/* The name a callee's name has in the copy: itself when the callee does
 * not declare it (module symbols, parameters, special registers). */
static const char *map_here(const Map *mp, const char *name)
{
	Ren *r;
	HASH_FIND_PTR(mp->exact, &name, r);
	if (r)
		return r->to;
	if (!mp->ranges)
		return NULL;
	size_t b;
	unsigned long long k;
	if (!reg_split(name, &b, &k))
		return NULL;
	const char *base = intern(name, b);
	HASH_FIND_PTR(mp->ranges, &base, r);
	if (!r || k >= r->count)
		return NULL;
	char buf[256];
	snprintf(buf, sizeof buf, "%s%s", r->to, name + b);
	return intern_cstr(buf);
}

static const char *map_get(const Map *mp, const char *name)
{
	for (; mp; mp = mp->up) {
		const char *to = map_here(mp, name);
		if (to)
			return to;
	}
	return name;
}

/* A base for %r<N> free in the caller: %iKr, K from the copy's number.
 * The %iK of an earlier copy comes off first, so that a chain of
 * callees inlined into each other does not grow the names level by
 * level (%i1i1i1...r). */
static const char *fresh_range(Names *n, unsigned k, const char *base, const char *count)
{
	unsigned long long c = strtoull(count, NULL, 0);
	char buf[256];
	const char *core = base + (base[0] == '%');
	while (core[0] == 'i' && core[1] >= '0' && core[1] <= '9') {
		const char *p = core + 1;
		while (*p >= '0' && *p <= '9')
			p++;
		if (!*p)
			break;   /* %i12 itself: a base of its own */
		core = p;
	}
	/* numbers tried for this core are not tried again: a caller with
	 * many copies would try each of them for every range */
	unsigned long long *next = names_counter(n, intern_cstr(core));
	if (*next > k)
		k = (unsigned)*next;
	for (;; k++) {
		snprintf(buf, sizeof buf, "%%i%u%.200s", k, core);
		const char *cand = intern_cstr(buf);
		if (names_range_free(n, cand, c)) {
			names_add(n, cand, count);
			*next = (unsigned long long)k + 1;
			return cand;
		}
	}
}

static void map_decls(Caller *fn, Map *mp, const Decl *d)
{
	for (uint32_t j = 0; j < d->nds; j++) {
		const Declarator *x = &d->ds[j];
		if (x->count)
			map_put(mp, &mp->ranges, x->name, fresh_range(&fn->names, fn->serial, x->name, x->count),
				x->count);
		else
			map_put(mp, &mp->exact, x->name, names_fresh(&fn->names, x->name), NULL);
	}
}

/* Every name one scope of the callee's body declares gets a name of its
 * own in the caller (a nested scope's %r1 that shadows the function's
 * gets another than it). */
static void map_scope(Caller *fn, Map *mp, const List *l)
{
	for (const Stmt *s = l->head; s; s = s->next)
		switch (s->kind) {
		case S_VAR: map_decls(fn, mp, &s->var); break;
		case S_LABEL: map_put(mp, &mp->exact, s->label, names_fresh(&fn->names, s->label), NULL); break;
		case S_PROTO:
			map_put(mp, &mp->exact, s->proto->label, names_fresh(&fn->names, s->proto->label), NULL);
			break;
		case S_TARGETS:
			map_put(mp, &mp->exact, s->list.label, names_fresh(&fn->names, s->list.label), NULL);
			break;
		default: break;
		}
}

static Expr *rename_expr(Module *m, const Map *mp, Expr *e)
{
	if (e->kind == E_NAME) {
		const char *to = map_get(mp, e->str);
		return to == e->str ? e : name_expr(to);
	}
	if (e->kind == E_NUM || !e->n)
		return e;
	uint32_t nk = e->n + (e->kind == E_CALL);
	Expr **kids = NULL;
	for (uint32_t i = 0; i < e->n; i++) {
		Expr *k = rename_expr(m, mp, e->kids[i]);
		if (k != e->kids[i] && !kids)
			kids = arena_dup(m->arena, e->kids, nk * sizeof *kids);
		if (kids)
			kids[i] = k;
	}
	if (!kids)
		return e;
	Expr *c = arena_dup(m->arena, e, sizeof *e);
	c->kids = kids;
	return c;
}

static Decl rename_decl(Module *m, const Map *mp, const Decl *d)
{
	Decl c = *d;
	c.ds = arena_dup(m->arena, d->ds, d->nds * sizeof *d->ds);
	for (uint32_t j = 0; j < c.nds; j++) {
		Declarator *x = &c.ds[j];
		Ren *r = NULL;
		if (x->count)
			HASH_FIND_PTR(mp->ranges, &x->name, r);
		x->name = r ? r->to : map_here(mp, x->name);
		if (!x->name)
			die("inline: a declaration its scope's map does not hold");
		if (x->init)
			x->init = rename_expr(m, mp, x->init);
	}
	return c;
}

static void map_free(Map *mp)
{
	HASH_CLEAR(hh, mp->exact);
	HASH_CLEAR(hh, mp->ranges);
	arena_free(mp->a);
}

/* A copy of a scope of the callee's body under the caller's names. */
static void clone_body(Caller *fn, const Map *up, const List *from, List *to)
{
	In *in = fn->in;
	Module *m = in->m;
	Map own = {.a = arena_new(), .up = up}, *mp = &own;
	map_scope(fn, mp, from);
	for (const Stmt *s = from->head; s; s = s->next) {
		Stmt *c = stmt_new(m, (StmtKind)s->kind, s->loc);
		switch (s->kind) {
		case S_INS:
			c->ins = s->ins;
			c->ins.guard = s->ins.guard ? map_get(mp, s->ins.guard) : NULL;
			c->ins.ops = s->ins.nops ? arena_alloc(m->arena, s->ins.nops * sizeof *c->ins.ops) : NULL;
			for (uint32_t i = 0; i < s->ins.nops; i++)
				c->ins.ops[i] = rename_expr(m, mp, s->ins.ops[i]);
			break;
		case S_VAR: c->var = rename_decl(m, mp, &s->var); break;
		case S_SCOPE: clone_body(fn, mp, &s->scope, &c->scope); break;
		case S_LABEL: c->label = map_get(mp, s->label); break;
		case S_LOC: c->locinfo = arena_dup(m->arena, s->locinfo, sizeof *s->locinfo); break;
		case S_PROTO:
			c->proto = arena_dup(m->arena, s->proto, sizeof *s->proto);
			c->proto->label = map_get(mp, s->proto->label);
			break;
		case S_TARGETS:   /* .branchtargets names the copy's labels */
			c->list = s->list;
			c->list.label = map_get(mp, s->list.label);
			c->list.items = arena_alloc(m->arena, s->list.nitems * sizeof *c->list.items);
			for (uint32_t i = 0; i < s->list.nitems; i++)
				c->list.items[i] = rename_expr(m, mp, s->list.items[i]);
			break;
		default: *c = *s; break;   /* .pragma: its strings are shared */
		}
		list_append(to, c);
	}
	map_free(mp);
}

/* ---- parameters as registers ----------------------------------------------- */

/* What a walk over a caller's or a copy's accesses (SlotWalk) needs:
 * the caller, the types of the registers it moves, and on the caller's
 * side the bundle whose calls it passes over. */
typedef struct Mover {
	Caller *fn;
	const Names *types;
	const Bundle *b;             /* the caller's side: its calls are no accesses */
} Mover;

/* An element of an access moved to or from its slot's register. */
static void put_elem(const void *ctx, List *l, Stmt *acc, int load, const Expr *v, const Slot *sl)
{
	const Mover *mv = ctx;
	int bits = v->kind == E_NAME ? names_bits(mv->types, v) : 0;
	Stmt *m = held_move(mv->fn->in->m, acc->loc, &acc->ins, load, (Expr *)v, bits, name_expr(sl->reg), sl->size);
	m->ins.guard = acc->ins.guard;
	m->ins.guard_neg = acc->ins.guard_neg;
	list_insert_before(l, acc, m);
}

static int in_bundle(const Bundle *b, const Stmt *s);

static int bundle_call(const void *ctx, const Stmt *s)
{
	return in_bundle(((const Mover *)ctx)->b, s);
}

/* ---- a call site: can it be, and how ------------------------------------------- */

/* Why the call cannot be inlined whatever the copy looks like, or -1. */
static int classify(Caller *fn, const CallSite *st)
{
	return inlinable_why(fn->in->inl, st->callee, caller_shadowed(&fn->cf));
}

static int in_bundle(const Bundle *b, const Stmt *s)
{
	for (uint32_t i = 0; i < b->n; i++)
		if (b->sites[i]->call == s)
			return 1;
	return 0;
}

/* The caller's side of each .param, once for the bundle. */
static int check_params(Caller *fn, Bundle *b, int apply)
{
	Mover mv = {fn, &fn->names, b};
	SlotWalk w = {.ctx = &mv, .skip = bundle_call, .types = &fn->names, .put = apply ? put_elem : NULL};
	return caller_slots(&b->ps, &w);
}

/* ---- the copy in place -------------------------------------------------------- */

/* A Param's slot registers, declared where its .param was (or before
 * the call for a result the call does not take).  A slot read that
 * nothing writes, and a result's (a guarded call, a path of the callee
 * may not set it), starts as 0: its bytes were not set there, any value
 * will do, a defined one keeps every read defined (ptxas drops the move
 * where every path writes). */
static void make_slots(Caller *fn, Bundle *b, Param *g, Stmt *call)
{
	In *in = fn->in;
	Stmt *at = g->decl ? g->decl : call;
	for (uint32_t i = 0; i < g->nslots; i++) {
		Slot *s = &g->slots[i];
		char base[128], spec[32], mov[32];
		const char *outer = g->outer ? g->outer : "retval";
		/* a .param may be spelled like a register (%pa): one % */
		snprintf(base, sizeof base, "%%%s_%lld", outer + (outer[0] == '%'), (long long)s->off);
		s->reg = names_fresh(&fn->names, base);
		snprintf(spec, sizeof spec, ".reg .b%d", held_bits(s->size));
		snprintf(mov, sizeof mov, "mov.b%d", held_bits(s->size));
		Stmt *d = var_new(in->m, at->loc, spec, s->reg);
		names_add_decls(&fn->names, &d->var, 1);
		list_insert_before(b->ps.list, at, d);
		if (s->read && (!s->written || g->ret))
			list_insert_before(b->ps.list, at, mkins(in, at->loc, mov, name_expr(s->reg), int_expr(0), NULL));
	}
	if (g->decl)
		list_remove(b->ps.list, g->decl);
}

static void rewrite_callee(Caller *fn, CopyPlan *p)
{
	for (uint32_t i = 0; i < p->ngroups; i++) {
		Group *g = &p->groups[i];
		Mover mv = {fn, &p->types, NULL};
		SlotWalk w = {.g = &p->b->ps.v[g->param], .name = g->inner, .ctx = &mv, .types = &p->types,
			.put = put_elem};
		if (slots_walk(&w, &p->body) >= 0)
			die("inline: a parameter checked before could not be rewritten");
	}
}

static int mentions_other(const List *l, const char *name, const Stmt *except)
{
	BodyIt it;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it))
		if (s->kind == S_INS && s != except && ins_mentions(&s->ins, name)) {
			body_end(&it);
			return 1;
		}
	return 0;
}

/* Addresses from `from` (written once, by def) taken from `to` + off
 * instead: `add d, from, K` and [from+K]; def goes when nothing else
 * reads from. */
static void rebase(In *in, List *body, const char *from, const char *to, int64_t off, Stmt *def)
{
	BodyIt it;
	for (Stmt *s = body_first(body, &it); s; s = body_next(&it)) {
		if (s->kind != S_INS || s == def || !ins_mentions(&s->ins, from))
			continue;
		Ins *x = &s->ins;
		int64_t k;
		const char *n;
		Expr **ops = arena_dup(in->m->arena, x->ops, x->nops * sizeof *ops);
		if (x->sp->code == O_add && x->nops == 3 && ops[1]->kind == E_NAME && ops[1]->str == from &&
		    int_operand(ops[2], &k)) {
			ops[1] = name_expr(to);
			ops[2] = int_expr(k + off);
		}
		for (uint32_t i = 0; i < x->nops; i++)
			if (addr_name_off(ops[i], &n, &k) && n == from)
				ops[i] = expr_addr(in->m, name_expr(to), k + off);
		x->ops = ops;
	}
	if (def && !mentions_other(body, from, def))
		list_remove(body, def);
}

/* The generic start of the caller's depot (cvta.local of its %SPL),
 * made after %SPL's mov when it has none. */
static const char *caller_sp(Caller *fn, const char *type)
{
	if (fn->cf.sp)
		return fn->cf.sp;
	In *in = fn->in;
	List *body = &fn->f->body;
	Stmt *mov = body->head;
	while (!(mov->kind == S_INS && mov->ins.sp->code == O_mov && mov->ins.ops[0]->str == fn->cf.spl))
		mov = mov->next;
	char sp[32], decl[32];
	fn->cf.sp = names_fresh(&fn->names, "%SP");
	snprintf(decl, sizeof decl, ".reg .b%d", 8 * type_bytes(type));
	Stmt *d = var_new(in->m, mov->loc, decl, fn->cf.sp);
	names_add_decls(&fn->names, &d->var, 1);
	list_insert_before(body, body->head, d);
	snprintf(sp, sizeof sp, "cvta.local%s", type);
	list_insert_before(body, mov->next,
		mkins(in, mov->loc, sp, name_expr(fn->cf.sp), name_expr(fn->cf.spl), NULL));
	return fn->cf.sp;
}

/* The first statement of the caller that runs (or is jumped to). */
static Stmt *entry_point(List *body)
{
	Stmt *s = body->head;
	while (s && s->kind != S_INS && s->kind != S_LABEL && s->kind != S_SCOPE)
		s = s->next;
	return s;
}

/* A depot for a caller without one: `mov %SPL, __local_depot` first. */
static void make_depot(Caller *fn, const Stmt *like)
{
	In *in = fn->in;
	List *body = &fn->f->body;
	const char *type = like->ins.sp->type, *name = names_fresh(&fn->names, "__local_depot");
	char decl[32], arr[160];
	snprintf(arr, sizeof arr, "%s[1]", name);
	fn->cf.depot = var_new(in->m, like->loc, ".local .align 1 .b8", arr);
	fn->cf.spl = names_fresh(&fn->names, "%SPL");
	snprintf(decl, sizeof decl, ".reg .b%d", 8 * type_bytes(type));
	Stmt *r = var_new(in->m, like->loc, decl, fn->cf.spl);
	names_add_decls(&fn->names, &r->var, 1);
	names_add_decls(&fn->names, &fn->cf.depot->var, 1);
	Stmt *first = entry_point(body);
	list_insert_before(body, body->head, fn->cf.depot);
	list_insert_before(body, body->head, r);
	list_insert_before(body, first, mkins(in, like->loc, like->ins.sp->text, name_expr(fn->cf.spl),
		name_expr(name), NULL));
	fn->cf.depot->var.ds[0].dims[0] = int_expr(0);
}

/* The copy's depot becomes bytes past the caller's own: its start
 * register is the caller's plus their offset, and every address formed
 * from it (or from its generic twin) by a constant comes from the
 * caller's start directly, as if nvcc had laid the arrays out there.
 * Each callee has bytes of its own, past those already there, as a front
 * end lays a function's arrays out end to end: the depot stage ends an
 * array indexed at run time at the next object's start, which holds only
 * while no object starts inside another (two callees' frames at one
 * offset put g's t inside f's a, and a[n % 10] read past the repacked
 * depot).  The copies of one callee share its bytes, as every call's
 * frame starts at the same place on the stack: their objects start at
 * the same offsets, and a callee's die when it returns.  A copy that a
 * copy of the same callee brought (its objects live across the call)
 * takes bytes of its own past those. */
typedef struct Frame {
	const CgFunc *callee;
	int64_t off, size;
} Frame;

/* Where the copy's size bytes go: its callee's when they lie past the
 * bytes of the copy that brought it (and the callee has not grown since),
 * else new bytes past the depot's. */
static int64_t frame_of(Caller *fn, CopyPlan *p, int64_t now, int64_t size, int64_t align)
{
	for (uint32_t i = fn->nframes; i-- > 0;) {
		const Frame *r = &fn->frames[i];
		if (r->callee == p->site->callee && r->size == size && r->off >= p->site->frame)
			return r->off;
	}
	fn->frames = arena_grow(fn->arena, fn->frames, fn->nframes, &fn->cframes, sizeof *fn->frames);
	fn->frames[fn->nframes] = (Frame){p->site->callee, align_to(now, align), size};
	return fn->frames[fn->nframes++].off;
}

/* f's depot starts (func_depot_starts), noted now if not yet. */
static const int64_t *starts_of(In *in, Func *f, uint32_t *n)
{
	if (!in->rd)
		in->rd = borrowers_build(in->m);
	return func_depot_starts(in->m, f, in->rd, n);
}

/* The copy's frame at off starts an object, and so does every object
 * its callee's depot held: what the depot stage would have seen at the
 * call (an object lent) it sees in the caller still. */
static void add_starts(Caller *fn, CopyPlan *p, int64_t off)
{
	In *in = fn->in;
	uint32_t n;
	const int64_t *v = starts_of(in, p->site->callee->sym->def->func, &n);
	for (uint32_t i = 0; i <= n; i++)
		func_depot_start(in->m, fn->f, off + (i ? v[i - 1] : 0));
}

static void merge_depot(Caller *fn, CopyPlan *p)
{
	In *in = fn->in;
	Decl *dv = &p->depot->var;
	int64_t size = decl_bytes(dv, &dv->ds[0]), align = var_align(dv);
	const char *type = p->depot_mov->ins.sp->type, *own = p->depot_mov->ins.ops[0]->str;
	if (!fn->cf.depot)
		make_depot(fn, p->depot_mov);
	Decl *cv = &fn->cf.depot->var;
	uint32_t frames = fn->nframes;
	int64_t now = decl_bytes(cv, &cv->ds[0]), off = frame_of(fn, p, now, size, align);
	p->frame_end = off + size;
	if (fn->nframes > frames)   /* new bytes: copies of one callee share them */
		add_starts(fn, p, off);
	decl_set_dim(in->m, cv, off + size > now ? off + size : now);
	if (align > var_align(cv))
		decl_set_align(in->m, cv, (uint32_t)align);
	char sp[32];
	snprintf(sp, sizeof sp, "add%s", type);
	Stmt *def = mkins(in, p->depot_mov->loc, sp, name_expr(own), name_expr(fn->cf.spl), int_expr(off));
	list_insert_before(&p->body, p->depot_mov, def);
	list_remove(&p->body, p->depot_mov);
	list_remove(&p->body, p->depot);
	/* nvcc's generic start: cvta.local %SP, %SPL */
	for (Stmt *s = p->body.head; s; s = s->next)
		if (s->kind == S_INS && s->ins.sp->code == O_cvta && s->ins.sp->space == SPACE_LOCAL &&
		    !s->ins.guard && s->ins.nops == 2 && s->ins.ops[1]->kind == E_NAME &&
		    s->ins.ops[1]->str == own && s->ins.ops[0]->kind == E_NAME &&
		    body_writes(&p->body, s->ins.ops[0]->str) == 1) {
			rebase(in, &p->body, s->ins.ops[0]->str, caller_sp(fn, type), off, s);
			break;
		}
	if (body_writes(&p->body, own) == 1)
		rebase(in, &p->body, own, fn->cf.spl, off, def);
	for (Stmt *s = p->body.head, *next; s; s = next) {   /* %SP, %SPL, once unused */
		next = s->next;
		if (s->kind == S_VAR && decl_space(&s->var) == SPACE_REG && s->var.nds == 1 &&
		    !s->var.ds[0].count && !mentions_other(&p->body, s->var.ds[0].name, NULL))
			list_remove(&p->body, s);
	}
}

/* ---- line information --------------------------------------------------------- */

/* The label of a string in .debug_str holding name, added when none does
 * (the section too). */
static const char *name_label(In *in, Str **strs, Names *labels, const char *name)
{
	Str *e;
	HASH_FIND_PTR(*strs, &name, e);
	if (e)
		return e->label;
	Module *m = in->m;
	if (!in->debug_str) {
		in->debug_str = stmt_new(m, S_SECTION, (Loc){0});
		in->debug_str->section.name = intern_cstr(".debug_str");
		list_append(&m->items, in->debug_str);
	}
	List *items = &in->debug_str->section.items;
	const char *label = names_fresh(labels, "$L__info_string_inline");
	list_append(items, mklabel(in, (Loc){0}, label));
	size_t n = intern_len(name) + 1;
	for (size_t i = 0; i < n; i += 40) {
		Stmt *d = stmt_new(m, S_DATA, (Loc){0});
		d->list.word = intern_cstr(".b8");
		d->list.nitems = (uint32_t)(n - i < 40 ? n - i : 40);
		d->list.items = arena_alloc(m->arena, d->list.nitems * sizeof *d->list.items);
		for (uint32_t k = 0; k < d->list.nitems; k++)
			d->list.items[k] = int_expr((unsigned char)name[i + k]);
		list_append(items, d);
	}
	e = arena_alloc(in->arena, sizeof *e);
	e->s = name;
	e->label = label;
	HASH_ADD_PTR(*strs, s, e);
	return label;
}

/* The strings .debug_str holds, by their text (interned). */
static void read_strings(In *in, Str **strs, Names *labels)
{
	for (Stmt *s = in->m->items.head; s; s = s->next)
		if (s->kind == S_SECTION && !strcmp(s->section.name, ".debug_str"))
			in->debug_str = s;
	if (!in->debug_str)
		return;
	char buf[4096];
	size_t n = 0;
	const char *label = NULL;
	for (const Stmt *s = in->debug_str->section.items.head; s; s = s->next) {
		if (s->kind == S_LABEL) {
			label = s->label;
			names_add(labels, label, NULL);
			n = 0;
			continue;
		}
		for (uint32_t i = 0; s->kind == S_DATA && i < s->list.nitems; i++) {
			int64_t b;
			if (!int_operand(s->list.items[i], &b) || n == sizeof buf) {
				label = NULL;
				continue;
			}
			buf[n++] = (char)b;
			if (b || !label)
				continue;
			const char *str = intern(buf, n - 1);
			Str *e;
			HASH_FIND_PTR(*strs, &str, e);
			if (!e) {
				e = arena_alloc(in->arena, sizeof *e);
				e->s = str;
				e->label = label;
				HASH_ADD_PTR(*strs, s, e);
			}
			label = NULL;
		}
	}
}

/* Each copied .loc of the callee's own code names it and the call's line,
 * as nvcc writes NVVM's inlining; one already naming a function inlined
 * into the callee keeps its inlined_at, a line of the callee's, which the
 * callee's own .loc now places. */
static void mark_locs(In *in, List *l, const char *callee, const LocInfo *at)
{
	BodyIt it;
	for (Stmt *s = body_first(l, &it); s; s = body_next(&it)) {
		if (s->kind != S_LOC || s->locinfo->function_name)
			continue;
		if (!(in->known & KNOWN_STRS)) {
			in->known |= KNOWN_STRS;
			read_strings(in, &in->strs, &in->labels);
		}
		LocInfo *li = s->locinfo;
		li->function_name = name_label(in, &in->strs, &in->labels, callee);
		li->has_inlined = 1;
		li->in_file = at->file;
		li->in_line = at->line;
		li->in_col = at->col;
	}
}

/* ---- returns ------------------------------------------------------------------ */

/* Each ret becomes a branch to end (the last, unguarded, falls through
 * instead); how many branches there are. */
static unsigned lower_rets(In *in, List *l, const char *end)
{
	unsigned n = 0;
	BodyIt it;
	for (Stmt *s = body_first(l, &it); s; s = body_next(&it)) {
		if (s->kind != S_INS || s->ins.sp->code != O_ret)
			continue;
		Stmt *b = mkins(in, s->loc, s->ins.guard ? "bra" : "bra.uni", name_expr(end), NULL, NULL);
		b->ins.guard = s->ins.guard;
		b->ins.guard_neg = s->ins.guard_neg;
		list_insert_before(it.in, s, b);
		list_remove(it.in, s);
		n++;
	}
	return n;
}

/* Past .loc and labels: -lineinfo ends a function with $L__func_end0
 * after its ret, and falling off the copy's end is its return too. */
static void drop_last_ret(List *l)
{
	Stmt *s = l->tail;
	while (s && (s->kind == S_LOC || s->kind == S_LABEL))
		s = s->prev;
	if (s && s->kind == S_INS && s->ins.sp->code == O_ret && !s->ins.guard)
		list_remove(l, s);
}

/* ---- loops the front end unrolled ------------------------------------------- */

static Stmt *mkpragma(In *in, Loc loc, const char *word)
{
	Stmt *s = stmt_new(in->m, S_PRAGMA, loc);
	const char *w = intern_cstr(word);
	s->strs.strs = arena_dup(in->m->arena, &w, sizeof w);
	s->strs.nstrs = 1;
	return s;
}

/* A loop of the copy that NVVM unrolled already (the remainder it made
 * follows it, marked nounroll) gets .pragma "nounroll" too.  In its
 * caller ptxas sees the loop anew (a pointer now known .local, a bound
 * now constant) and unrolls it once more, where -dlto, whose NVVM
 * unrolls after inlining, has ptxas leave it alone (docs/stages.md).
 * Loops the front end did not unroll are left to ptxas. */
static void keep_unrolled(In *in, CopyPlan *p, const Cfg *cfg)
{
	Loop *v;
	uint32_t n = loops_find(cfg, &v);
	Places pl = {0};
	for (uint32_t i = 0; i < n; i++)
		if (loop_unrolled(v, n, i)) {
			if (!pl.v)
				places_of(&pl, &p->body);
			Place *at = place_of(&pl, v[i].first);
			list_insert_before(at->in, v[i].first, mkpragma(in, v[i].first->loc, "\"nounroll\""));
		}
	places_free(&pl);
	free(v);
}

/* The type of the copy's first alloca (.u32 or .u64), or NULL. */
static const char *alloca_type(const List *l)
{
	BodyIt it;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it))
		if (s->kind == S_INS && s->ins.sp->code == O_alloca) {
			body_end(&it);
			return s->ins.sp->type;
		}
	return NULL;
}

/* The callee's alloca'd stack is given back at its return; the copy's
 * would not be (a copy in a loop takes new bytes each time round), so
 * the stack pointer is saved before the copy and restored where it
 * returns: the register holding it, or NULL. */
static const char *save_stack(Caller *fn, CopyPlan *p, const char *type)
{
	In *in = fn->in;
	Stmt *call = p->site->call;
	if (!type)
		return NULL;
	char decl[32], sp[32];
	const char *reg = names_fresh(&fn->names, "%stack");
	snprintf(decl, sizeof decl, ".reg .b%d", 8 * type_bytes(type));
	Stmt *d = var_new(in->m, call->loc, decl, reg);
	names_add_decls(&fn->names, &d->var, 1);
	list_insert_before(p->site->list, call, d);
	snprintf(sp, sizeof sp, "stacksave%s", type);
	list_insert_before(p->site->list, call, mkins(in, call->loc, sp, name_expr(reg), NULL, NULL));
	return reg;
}

static void restore_stack(Caller *fn, CopyPlan *p, const char *reg, const char *type)
{
	char sp[32];
	snprintf(sp, sizeof sp, "stackrestore%s", type);
	Stmt *call = p->site->call;
	list_insert_before(p->site->list, call, mkins(fn->in, call->loc, sp, name_expr(reg), NULL, NULL));
}

/* The copy in place of the call: a guarded call skips it when its guard
 * is false, rets branch past it. */
static void splice(Caller *fn, CopyPlan *p)
{
	In *in = fn->in;
	CallSite *st = p->site;
	Stmt *call = st->call;
	const char *end = names_fresh(&fn->names, "$L__inline_end");
	const char *type = alloca_type(&p->body);
	const char *stack = save_stack(fn, p, type);   /* before the guard's skip: restored after it */
	drop_last_ret(&p->body);
	unsigned branches = lower_rets(in, &p->body, end);
	if (call->ins.guard) {
		Stmt *skip = mkins(in, call->loc, "bra", name_expr(end), NULL, NULL);
		skip->ins.guard = call->ins.guard;
		skip->ins.guard_neg = !call->ins.guard_neg;
		list_insert_before(st->list, call, skip);
		branches++;
	}
	/* no { } of its own: every name it declares is fresh in the caller,
	 * and a chain of copies would nest one scope deeper each */
	p->first = p->body.head;
	p->last = p->body.tail;
	for (Stmt *s = p->body.head, *next; s; s = next) {
		next = s->next;
		list_insert_before(st->list, call, s);
	}
	p->body = (List){0};
	if (branches)
		list_insert_before(st->list, call, mklabel(in, call->loc, end));
	if (stack)
		restore_stack(fn, p, stack, type);
	list_remove(st->list, call);
}

/* ---- what the copy names, declared before the caller ------------------------- */

/* declare()'s walk: symbols to visit, and ones to place once what they
 * name is placed. */
typedef struct Need {
	const char *name;
	int place;
} Need;

typedef struct Needs {
	Need *v;
	uint32_t n, cap;
	Names seen;                  /* the symbols visited */
} Needs;

static void need(Needs *w, const char *name, int place)
{
	w->v = array_grow(w->v, w->n, &w->cap, sizeof *w->v);
	w->v[w->n++] = (Need){name, place};
}

static int need_leaf(void *ctx, Expr **slot)
{
	if ((*slot)->kind == E_NAME)
		need(ctx, (*slot)->str, 0);
	return 0;
}

/* A module symbol declared just before the caller: a function by a copy
 * of its header, a variable by moving its statement there. */
static void place(Caller *fn, const Symbol *sym)
{
	In *in = fn->in;
	Stmt *s = sym->def ? sym->def : sym->decl;
	order_put(in->order_of, sym->name, fn->pos - 1);
	if (s->kind == S_FUNC) {
		func_declare_before(in->m, s->func, fn->fs);
	} else if (s->kind == S_VAR) {
		list_remove(&in->m->items, s);
		list_insert_before(&in->m->items, fn->fs, s);
	}
}

/* name, a module symbol the copy names, declared before the caller, and
 * before it what its initializer names, and so on at any depth (nvcc's
 * static linked list: each node's initializer names the next): a walk
 * that visits each symbol once and places each after what it names. */
static void declare(Caller *fn, const char *name)
{
	In *in = fn->in;
	Needs w = {0};
	need(&w, name, 0);
	while (w.n) {
		Need e = w.v[--w.n];
		const Symbol *sym = symtab_find(in->syms, e.name);
		int64_t first = order_first(in->order_of, e.name);
		if (e.place) {
			place(fn, sym);
			continue;
		}
		if (!sym || first < 0 || first < fn->pos || names_exact(&w.seen, e.name))
			continue;
		names_add(&w.seen, e.name, NULL);
		need(&w, e.name, 1);
		Stmt *s = sym->def ? sym->def : sym->decl;
		if (s->kind == S_VAR && s->var.ds[0].init)
			expr_leaves(&s->var.ds[0].init, need_leaf, &w);
	}
	names_free(&w.seen);
	free(w.v);
}

static int declare_leaf(void *ctx, Expr **slot)
{
	if ((*slot)->kind == E_NAME)
		declare(ctx, (*slot)->str);
	return 0;
}

static void declare_used(Caller *fn, List *l)
{
	BodyIt it;
	for (Stmt *s = body_first(l, &it); s; s = body_next(&it)) {
		for (uint32_t i = 0; s->kind == S_INS && i < s->ins.nops; i++)
			expr_leaves(&s->ins.ops[i], declare_leaf, fn);
		for (uint32_t i = 0; s->kind == S_TARGETS && i < s->list.nitems; i++)
			expr_leaves(&s->list.items[i], declare_leaf, fn);
	}
}

/* ---- finding call sites ------------------------------------------------------ */

/* Where the next sites go: this round's, or (more) the next one's. */
typedef struct Found {
	Caller *fn;
	int more;
	const LocInfo *at;           /* the .loc before from, where the walk has seen none */
	int64_t frame;               /* CallSite.frame */
} Found;

static void add_site(Found *fd, const CallSite *st)
{
	Caller *fn = fd->fn;
	if (fd->more) {
		fn->more = arena_grow(fn->arena, fn->more, fn->nmore, &fn->cmore, sizeof *fn->more);
		fn->more[fn->nmore++] = *st;
	} else {
		fn->sites = arena_grow(fn->arena, fn->sites, fn->nsites, &fn->cap, sizeof *fn->sites);
		fn->sites[fn->nsites++] = *st;
	}
}

/* The direct calls of l from `from` to `to` (NULL: its end), in
 * scopes nested in it too. */
static void find_sites(Found *fd, List *l, Stmt *from, const Stmt *to)
{
	BodyIt it;
	CallParts c;
	const CgFunc *g;
	for (Stmt *s = body_from(&it, l, from, to); s; s = body_next(&it)) {
		if (!stmt_is_call(s) || !ins_call_parts(&s->ins, &c) || !(g = cg_find(fd->fn->in->cg, c.callee->str)))
			continue;
		add_site(fd, &(CallSite){.call = s, .list = it.in, .block = it.block,
			.outer = body_outer(&it, 0), .at = it.at ? it.at : fd->at, .callee = g, .frame = fd->frame});
	}
}

/* ---- a bundle of call sites ------------------------------------------------------ */

static void remark(Caller *fn, const CallSite *st, int why, int c, int t)
{
	In *in = fn->in;
	const InlineOptions *o = &in->o->inlining;
	if (why >= 0 ? !o->missed : !o->remarks)
		return;
	if (!(fn->known & KNOWN_SRC)) {
		fn->known |= KNOWN_SRC;
		fn->src = srclines_build(in->m, fn->f);
	}
	const char *at = srclines_prefix(fn->src, st->call->loc);
	const char *callee = quoted_name(st->callee->name), *caller = quoted_name(fn->f->name);
	if (why == INL_COST)
		diag_remark(st->call->loc, "%s%s not inlined into %s: cost %d over threshold %d", at,
			callee, caller, c, t);
	else if (why >= 0)
		diag_remark(st->call->loc, "%s%s not inlined into %s: %s", at, callee, caller, inlinable_text(why));
	else if (in->mode == INLINE_ALWAYS)
		diag_remark(st->call->loc, "%s%s inlined into %s (--inline=always)", at, callee, caller);
	else
		diag_remark(st->call->loc, "%s%s inlined into %s (cost %d, threshold %d)", at, callee,
			caller, c, t);
}

/* A call decided: counted, and its remark. */
static void tell(Caller *fn, const CallSite *st, int why, int c, int t)
{
	In *in = fn->in;
	in->st.seen++;
	if (why >= 0)
		in->st.left[why]++;
	remark(fn, st, why, c, t);
}

/* A name the copy keeps because it is one of the callee's parameters,
 * which the copy binds to the call's arguments. */
static int is_formal(const CopyPlan *p, const char *name)
{
	for (uint32_t i = 0; i < p->ngroups; i++)
		if (p->groups[i].inner == name)
			return 1;
	return 0;
}

/* The callee's side of the parameters and its depot checked in the
 * callee as it stands, each register's type by the scoping rule as a
 * renamed copy would read it (inlinable_bits), as devirtualization asks
 * them.  The copy is made here, before the checks, whether it goes in
 * or not: the fresh names it takes are the ones later copies then do
 * not.  -1 when it can go in, else why not. */
static int prepare(Caller *fn, CopyPlan *p)
{
	CallSite *st = p->site;
	CallParts cp;
	if (!ins_call_parts(&st->call->ins, &cp) || cp.proto)
		return INL_FORM;
	p->callee = st->callee->def;
	int why = call_groups(&p->b->ps, &cp, p->callee, &p->groups, &p->ngroups);
	if (why >= 0)
		return why;
	clone_body(fn, NULL, &p->callee->body, &p->body);
	names_of_body(&p->types, &p->body);
	why = callee_slots(&p->b->ps, p->groups, p->ngroups, p->callee);
	Stmt *depot = NULL, *mov = NULL;
	if (why < 0)
		why = inlinable_depot(&p->callee->body, &depot, &mov);
	if (why < 0 && (!caller_depot(&fn->cf) || !caller_depot_fits(&fn->cf, &fn->names, &p->callee->body, mov)))
		why = INL_DEPOT;
	if (why < 0)   /* the copy's own, which the rewriting moves */
		inlinable_depot(&p->body, &p->depot, &p->depot_mov);
	return why;
}

/* A register the callee reads where nothing wrote it (llc and clang
 * leave such reads on paths that never run) starts as 0 in the copy: in
 * the caller the read would be a new one where no definition reaches. */
static void define_undefined(Caller *fn, CopyPlan *p, const Cfg *cfg)
{
	Live *live = live_compute(cfg);
	Stmt *first = body_past_decls(&p->body);
	for (uint32_t i = 0; cfg->nblocks && i < live_nregs(live); i++) {
		const char *r = live_name(live, i);
		if (!live_in(live, 0, r) || !names_declared(&p->types, r))
			continue;
		int bits = names_bits(&p->types, name_expr(r));
		char sp[32];
		Stmt *z;
		if (bits) {
			snprintf(sp, sizeof sp, "mov.b%d", bits);
			z = mkins(fn->in, p->site->call->loc, sp, name_expr(r), int_expr(0), NULL);
		} else {
			z = mkins(fn->in, p->site->call->loc, "setp.ne.u32", name_expr(r), int_expr(0), int_expr(0));
		}
		list_insert_before(&p->body, first, z);
	}
	live_free(live);
}

/* What the caller's copies so far change in c's call count. */
static Delta *delta_of(Caller *fn, const CgFunc *c)
{
	Delta *d;
	HASH_FIND_PTR(fn->delta, &c, d);
	if (!d) {
		d = arena_alloc(fn->arena, sizeof *d);
		d->callee = c;
		HASH_ADD_PTR(fn->delta, callee, d);
	}
	return d;
}

/* The direct calls a copy brings in, counted: the cost model asks
 * whether a call is its callee's last. */
static void count_copied_calls(Caller *fn, const List *l)
{
	CallParts cp;
	BodyIt it;
	for (const Stmt *s = body_first_call(l, &it, &cp); s; s = body_next_call(&it, &cp)) {
		const CgFunc *c = cp.whole && cp.callee->kind == E_NAME ? cg_find(fn->in->cg, cp.callee->str) : NULL;
		if (c)
			delta_of(fn, c)->n++;
	}
}

/* ---- the judge (--verify) ------------------------------------------------------ */

/* Every name in a copy must mean what it meant in the callee: one the
 * callee declares, the copy's own declaration at the same place; one it
 * does not (a module symbol), the module's, itself, declared neither by
 * the copy nor by the caller.  Read by the PTX rule (a name resolves to
 * the innermost enclosing block declaring it), from the two bodies and
 * a set of the caller's declarations of the judge's own, not from the
 * renaming's maps; the copy is judged as cloned, before its parameters
 * become registers. */
enum { JUDGE_DEPTH = 64 };

typedef struct Judge {
	Caller *fn;
	const CopyPlan *p;
	Names callee[JUDGE_DEPTH], copy[JUDGE_DEPTH];   /* each block's own declarations */
	uint32_t depth;
	const char **names[2];       /* one statement's names: the callee's, the copy's */
	uint32_t n[2], cap[2];
} Judge;

static void level_names(Names *n, const List *l)
{
	for (const Stmt *s = l->head; s; s = s->next)
		switch (s->kind) {
		case S_VAR: names_add_decls(n, &s->var, 1); break;
		case S_LABEL: names_add(n, s->label, NULL); break;
		case S_PROTO: names_add(n, s->proto->label, NULL); break;
		case S_TARGETS: names_add(n, s->list.label, NULL); break;
		default: break;
		}
}

/* The depth of the innermost block declaring name, or -1. */
static int resolve(const Names *levels, uint32_t depth, const char *name)
{
	for (uint32_t d = depth; d-- > 0;)
		if (names_declared(&levels[d], name))
			return (int)d;
	return -1;
}

static void judge_fail(Judge *j, const char *in, const char *out, const char *why)
{
	die("inline (--verify): in the copy of %s in %s, %s (the callee's %s) %s", j->p->callee->name,
		j->fn->f->name, out, in, why);
}

static void judge_name(Judge *j, const char *in, const char *out)
{
	int d = resolve(j->callee, j->depth, in), e = resolve(j->copy, j->depth, out);
	if (d >= 0 && e != d)
		judge_fail(j, in, out, "is not the copy of its declaration");
	if (d >= 0 && names_declared(&j->fn->judged, out))
		judge_fail(j, in, out, "is declared by the caller too");
	if (d >= 0 || is_special_reg(in) || is_formal(j->p, in))
		return;
	if (out != in || e >= 0)
		judge_fail(j, in, out, "no longer names the module's symbol");
	if (names_declared(&j->fn->judged, out))
		judge_fail(j, in, out, "means the caller's declaration, not the module's symbol");
}

static void collect_name(void *ctx, const char *name, OpRole role)
{
	Judge *j = ((Judge **)ctx)[0];
	int k = ((Judge **)ctx)[1] != NULL;
	(void)role;
	j->names[k] = array_grow(j->names[k], j->n[k], &j->cap[k], sizeof *j->names[k]);
	j->names[k][j->n[k]++] = name;
}

static int collect_leaf(void *ctx, Expr **slot)
{
	if ((*slot)->kind == E_NAME)
		collect_name(ctx, (*slot)->str, ROLE_USE);
	return 0;
}

/* One statement's names, the callee's (k 0) or the copy's (k 1). */
static void statement_names(Judge *j, const Stmt *s, int k)
{
	Judge *ctx[2] = {j, k ? j : NULL};
	j->n[k] = 0;
	if (s->kind == S_INS) {
		if (s->ins.guard)
			collect_name(ctx, s->ins.guard, ROLE_USE);
		ins_names(&s->ins, collect_name, ctx);
	}
	for (uint32_t i = 0; s->kind == S_TARGETS && i < s->list.nitems; i++)
		expr_leaves(&s->list.items[i], collect_leaf, ctx);
	if (s->kind == S_LABEL)
		collect_name(ctx, s->label, ROLE_DEF);
}

static void judge_list(Judge *j, const List *c, const List *p)
{
	if (j->depth == JUDGE_DEPTH)
		return;   /* deeper than any front end nests: not judged */
	uint32_t d = j->depth++;
	level_names(&j->callee[d], c);
	level_names(&j->copy[d], p);
	const Stmt *a = c->head, *b = p->head;
	for (; a && b; a = a->next, b = b->next) {
		if (a->kind != b->kind)
			die("inline (--verify): the copy of %s is not shaped as it", j->p->callee->name);
		if (a->kind == S_SCOPE) {
			judge_list(j, &a->scope, &b->scope);
			continue;
		}
		statement_names(j, a, 0);
		statement_names(j, b, 1);
		if (j->n[0] != j->n[1])
			die("inline (--verify): a statement of the copy of %s names more or less", j->p->callee->name);
		for (uint32_t i = 0; i < j->n[0]; i++)
			judge_name(j, j->names[0][i], j->names[1][i]);
	}
	if (a || b)
		die("inline (--verify): the copy of %s is not as long as it", j->p->callee->name);
	names_free(&j->callee[d]);
	names_free(&j->copy[d]);
	j->depth--;
}

/* The caller's declarations as the judge reads them, once; each copy's
 * join them once judged. */
static void judge(Caller *fn, const CopyPlan *p)
{
	if (!(fn->known & KNOWN_JUDGED)) {
		fn->known |= KNOWN_JUDGED;
		names_of_body(&fn->judged, &fn->f->body);
		names_add_decls(&fn->judged, fn->f->params, fn->f->nparams);
		names_add_decls(&fn->judged, fn->f->rets, fn->f->nrets);
	}
	Judge j = {.fn = fn, .p = p};
	judge_list(&j, &p->callee->body, &p->body);
	free(j.names[0]);
	free(j.names[1]);
	names_of_body(&fn->judged, &p->body);
}

/* What a copy of the site's callee takes from the growth budget: its
 * body, or nothing where the copy is the body moved: the callee's last
 * call, and it goes (a deferred callee's copy is one). */
static uint64_t charge(Caller *fn, const CallSite *st)
{
	In *in = fn->in;
	uint32_t k = cg_index_of(in->cg, st->callee);
	return inlinable_charge(in->inl, st->callee, (int)in->callee[k].ncalls + delta_of(fn, st->callee)->n);
}

static void put_in(Caller *fn, CopyPlan *p)
{
	In *in = fn->in;
	if (in->o->verify)
		judge(fn, p);
	rewrite_callee(fn, p);
	fn->f->layout_kept &= p->callee->layout_kept;
	p->frame_end = p->site->frame;
	if (p->depot)
		merge_depot(fn, p);
	/* One graph of the copy for both: the zeroes go in before its first
	 * label, so no loop header moves. */
	Func tmp = *p->callee;
	tmp.body = p->body;
	Cfg *cfg = cfg_build(&tmp);
	if (cfg) {
		define_undefined(fn, p, cfg);
		keep_unrolled(in, p, cfg);
	}
	cfg_free(cfg);
	if (p->site->at && in->loc_names)
		mark_locs(in, &p->body, p->callee->name, p->site->at);
	for (const Stmt *s = p->body.head; s; s = s->next)
		if (s->kind == S_VAR)
			names_add_decls(&fn->names, &s->var, 1);
	declare_used(fn, &p->body);
	in->st.copied += body_size(&p->body);
	uint64_t charged = charge(fn, p->site);
	in->grown += charged;
	if (!charged)
		in->moved += body_size(&p->body);
	fn->size += body_size(&p->body);
	fn->cf.known &= ~CF_OBJS;
	/* the call goes, the copy's calls come: so a later caller's call is
	 * seen to be the last (the decision a second run would make) */
	delta_of(fn, p->site->callee)->n--;
	if (!in->callee[cg_index_of(in->cg, p->site->callee)].deferred)   /* else its calls move here */
		count_copied_calls(fn, &p->body);
	splice(fn, p);
	in->st.inlined++;
}

/* Why each call of the bundle is not inlined (-1: it is): all go in or
 * none does, since they share their .params. */
static void decide(Caller *fn, Bundle *b, int *why, int *c, int *t)
{
	In *in = fn->in;
	int all = -1;
	uint64_t grown = in->grown;
	for (uint32_t i = 0; i < b->n; i++) {
		CopyPlan *p = &b->plans[i];
		*p = (CopyPlan){.site = b->sites[i], .b = b};
		why[i] = inlinable_oversize(fn->size, p->site->callee) ? INL_LARGE : classify(fn, p->site);
		/* before prepare(), which copies the callee: once the budget is
		 * spent, each call left costs no copy of its callee */
		if (why[i] < 0 && grown + charge(fn, p->site) > inlinable_budget(in->inl))
			why[i] = INL_GROWTH;
		if (why[i] < 0)
			why[i] = prepare(fn, p);
		if (why[i] < 0 && in->mode != INLINE_ALWAYS) {
			CostFacts f = cost_facts(fn, p->site, p);
			c[i] = cost_weigh(&f);
			t[i] = in->o->inlining.threshold;
			if (c[i] > t[i])
				why[i] = INL_COST;
		}
		if (why[i] < 0)
			grown += charge(fn, p->site);
		if (why[i] >= 0)
			all = INL_BUNDLE;
	}
	if (all < 0)
		all = check_params(fn, b, 0);
	for (uint32_t i = 0; all >= 0 && i < b->n; i++)
		if (why[i] < 0)
			why[i] = all;
}

static int plan_uses(const CopyPlan *p, uint32_t param)
{
	for (uint32_t i = 0; i < p->ngroups; i++)
		if (p->groups[i].param == param)
			return 1;
	return 0;
}

static void bundle_free(Bundle *b)
{
	for (uint32_t i = 0; i < b->n; i++) {
		free(b->plans[i].groups);
		names_free(&b->plans[i].types);
	}
	params_free(&b->ps);
	free(b->plans);
}

static int is_param_decl(const Bundle *b, const Stmt *s)
{
	for (uint32_t i = 0; i < b->ps.n; i++)
		if (b->ps.v[i].decl == s)
			return 1;
	return 0;
}

/* Is the bundle's list a call's own { } (nvcc's), declaring only the
 * .params its calls pass?  Once they are inlined it declares only fresh
 * names, so it can go and its statements join the list around it: a
 * chain of copies then nests no deeper than the callee did. */
static int plain_block(const Bundle *b)
{
	if (!b->sites[0]->block)
		return 0;
	for (const Stmt *s = b->ps.list->head; s; s = s->next)
		if ((s->kind == S_VAR && !is_param_decl(b, s)) || (stmt_is_call(s) && !in_bundle(b, s)) ||
		    s->kind == S_LABEL || s->kind == S_PROTO || s->kind == S_TARGETS || s->kind == S_SCOPE)
			return 0;
	return 1;
}

static void dissolve(Stmt *block, List *outer)
{
	for (Stmt *s = block->scope.head, *next; s; s = next) {
		next = s->next;
		list_insert_before(outer, block, s);
	}
	block->scope = (List){0};
	list_remove(outer, block);
}

/* The calls a deferred callee's copy brought, for the caller's next
 * round (the list holding the copy is where it is now). */
static void find_brought(Caller *fn, Bundle *b, List *holder)
{
	for (uint32_t i = 0; i < b->n; i++) {
		CopyPlan *p = &b->plans[i];
		if (!fn->in->callee[cg_index_of(fn->in->cg, p->site->callee)].deferred || !p->first)
			continue;
		Found fd = {fn, 1, p->site->at, p->frame_end};
		find_sites(&fd, holder, p->first, p->last);
	}
}

static void inline_bundle(Caller *fn, Bundle *b)
{
	In *in = fn->in;
	int why[b->n], c[b->n], t[b->n];
	memset(c, 0, sizeof c);
	memset(t, 0, sizeof t);
	b->plans = xcalloc(b->n, sizeof *b->plans);
	fn->serial++;
	decide(fn, b, why, c, t);
	if (why[0] < 0) {
		uint32_t n;
		starts_of(in, fn->f, &n);   /* before the first copy hides what its call showed */
		int plain = plain_block(b);
		for (uint32_t i = 0; i < b->ps.n; i++) {   /* a private one is one call's */
			uint32_t k = 0;
			while (k + 1 < b->n && !plan_uses(&b->plans[k], i))
				k++;
			make_slots(fn, b, &b->ps.v[i], b->sites[k]->call);
		}
		if (check_params(fn, b, 1) >= 0)
			die("inline: a parameter checked before could not be rewritten");
		for (uint32_t i = 0; i < b->n; i++)
			put_in(fn, &b->plans[i]);
		List *holder = b->ps.list;
		if (plain) {
			holder = b->sites[0]->outer;
			dissolve(b->sites[0]->block, holder);
		}
		find_brought(fn, b, holder);
	}
	for (uint32_t i = 0; i < b->n; i++) {   /* a deferred callee that stays: on its own */
		uint32_t k = cg_index_of(in->cg, b->sites[i]->callee);
		if (why[i] >= 0 && in->callee[k].deferred) {
			in->late = arena_grow(in->arena, in->late, in->nlate, &in->clate, sizeof *in->late);
			in->late[in->nlate++] = k;
		}
	}
	for (uint32_t i = 0; i < b->n; i++) {
		if (why[i] == INL_COST && fn->maybe_leaf && !fn->leaf) {   /* told once weighed again, or not */
			fn->left = arena_grow(fn->arena, fn->left, fn->nleft, &fn->cleft, sizeof *fn->left);
			fn->left[fn->nleft] = *b->sites[i];
			fn->left[fn->nleft++].cost = c[i];
			continue;
		}
		tell(fn, b->sites[i], why[i], c[i], t[i]);
	}
	bundle_free(b);
}

/* ---- a caller ----------------------------------------------------------------- */

/* Does call site a pass a .param that b passes too (in the same list)? */
/* A .param of a call's, by the list holding the call and its name: the
 * first site naming it. */
typedef struct ParamSite {
	UT_hash_handle hh;
	const void *key[3];          /* a mix of the two (the file hashes a key's first pointer), list, name */
	uint32_t site;
} ParamSite;

static uint32_t site_root(uint32_t *up, uint32_t i)
{
	while (up[i] != i)
		i = up[i] = up[up[i]];
	return i;
}

/* Sites that pass one .param (a funnel's) in one bundle: joined through
 * a table of the .params, not by comparing every pair (20,000 calls in
 * one kernel). */
static void join_sites(Caller *fn, uint32_t *up)
{
	ParamSite *table = NULL, *e, *tmp;
	Arena *a = arena_new();
	for (uint32_t i = 0; i < fn->nsites; i++) {
		up[i] = i;
		CallParts cp;
		if (!ins_call_parts(&fn->sites[i].call->ins, &cp))
			continue;
		const Expr *lists[2] = {cp.rets, cp.args};
		for (int l = 0; l < 2; l++)
			for (uint32_t k = 0; lists[l] && k < lists[l]->n; k++) {
				if (lists[l]->kids[k]->kind != E_NAME)
					continue;
				const void *list = fn->sites[i].list, *name = lists[l]->kids[k]->str;
				const void *key[3] = {(const void *)((uintptr_t)list * 31 ^ (uintptr_t)name), list, name};
				HASH_FIND(hh, table, key, sizeof key, e);
				if (e) {
					up[site_root(up, i)] = site_root(up, e->site);
					continue;
				}
				e = arena_alloc(a, sizeof *e);
				memcpy(e->key, key, sizeof key);
				e->site = i;
				HASH_ADD(hh, table, key, sizeof e->key, e);
			}
	}
	HASH_ITER(hh, table, e, tmp)
		HASH_DEL(table, e);
	arena_free(a);
}

/* The sites in bundles, each in the order of its first site; a bundle's
 * sites in text order. */
static void inline_sites(Caller *fn)
{
	uint32_t n = fn->nsites, none = UINT32_MAX;
	size_t words = (n + 1) * sizeof(uint32_t);
	uint32_t *up = arena_alloc(fn->arena, words), *first = arena_alloc(fn->arena, words);
	uint32_t *last = arena_alloc(fn->arena, words), *next = arena_alloc(fn->arena, words);
	CallSite **v = arena_alloc(fn->arena, (n + 1) * sizeof *v);
	join_sites(fn, up);
	for (uint32_t i = 0; i < n; i++)
		first[i] = none;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = site_root(up, i);
		next[i] = none;
		if (first[r] == none)
			first[r] = i;
		else
			next[last[r]] = i;
		last[r] = i;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (first[site_root(up, i)] != i)
			continue;
		Bundle b = {.ps.list = fn->sites[i].list, .sites = v};
		for (uint32_t j = i; j != none; j = next[j])
			v[b.n++] = &fn->sites[j];
		inline_bundle(fn, &b);
	}
}

typedef struct ByCallee {
	const CgFunc *c;
	uint32_t i;
} ByCallee;

static int by_callee(const void *x, const void *y)
{
	const ByCallee *a = x, *b = y;
	if (a->c != b->c)
		return (uintptr_t)a->c < (uintptr_t)b->c ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* How many calls of each site's callee the caller makes (NVVM unrolls
 * loops around calls, so one call in the source is often several), and
 * the next of them (CallSite.same): the sites sorted by callee, no
 * counter per call-graph function. */
static void count_copies(Caller *fn)
{
	uint32_t n = fn->nsites;
	ByCallee *v = arena_alloc(fn->arena, (n + 1) * sizeof *v);
	for (uint32_t i = 0; i < n; i++)
		v[i] = (ByCallee){fn->sites[i].callee, i};
	qsort(v, n, sizeof *v, by_callee);
	for (uint32_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && v[j].c == v[i].c; j++)
			fn->sites[v[j].i].same = j + 1 < n && v[j + 1].c == v[i].c ? v[j + 1].i : UINT32_MAX;
		for (uint32_t k = i; k < j; k++)
			fn->sites[v[k].i].copies = j - i;
	}
}

/* A caller's work begun: its direct calls and, where it has any, its
 * size and its names. */
static void fn_open(Caller *fn, In *in, Stmt *fs)
{
	*fn = (Caller){.in = in, .arena = arena_new(), .fs = fs, .f = fs->func,
		.cf.f = fs->func, .pos = order_def(in->order_of, fs->func->name)};
	Found fd = {fn, 0, NULL, 0};
	find_sites(&fd, &fn->f->body, fn->f->body.head, NULL);
	if (fn->nsites) {
		const CgFunc *self = cg_find(in->cg, fn->f->name);
		fn->maybe_leaf = !fn->f->is_entry && in->mode == INLINE_AUTO && self &&
			!inlinable_removable(in->inl, self);
		fn->size = body_size(&fn->f->body);
		names_in_module(&fn->names, inlinable_names(in->inl), fn->f);
	}
}

static void fn_close(Caller *fn)
{
	HASH_CLEAR(hh, fn->delta);
	names_free(&fn->judged);
	names_free(&fn->names);
	caller_facts_free(&fn->cf);
	srclines_free(fn->src);
	arena_free(fn->arena);
	*fn = (Caller){0};
}

/* Would the calls the cost model kept out make the function a leaf?
 * They are its only calls, each to a callee with no frame of its own (no
 * call, no depot: a depot's bytes would join the caller's), each would
 * go in with its share of the frame their copies end (cost.c), and the
 * function keeps its body and so its frame (its address is taken, or it
 * is external in an open world: one inlined into its callers leaves no
 * frame whether it calls or not, and whole-program ptxas gives a frame
 * only to functions called through a pointer or on a call cycle, which
 * never becomes a leaf).  Then they are weighed again so. */
static int would_be_leaf(Caller *fn)
{
	In *in = fn->in;
	if (!fn->nleft)
		return 0;
	for (uint32_t i = 0; i < fn->nleft; i++) {
		int share = leaf_share(fn, &fn->left[i]);
		if (!share || fn->left[i].cost - cost_frame(share) > in->o->inlining.threshold)
			return 0;
	}
	return body_calls(&fn->f->body) == fn->nleft;
}

static void inline_into(In *in, Stmt *fs)
{
	Caller fn;
	fn_open(&fn, in, fs);
	while (fn.nsites) {
		count_copies(&fn);
		if (in->mode == INLINE_AUTO && !fn.leaf)   /* the leaf round's sites keep theirs */
			fold_sites(&fn);
		inline_sites(&fn);
		/* the next round: the calls deferred callees' copies brought, or
		 * those kept out weighed again where they are the last */
		fn.sites = fn.more;
		fn.nsites = fn.nmore;
		fn.cap = fn.cmore;
		fn.more = NULL;
		fn.nmore = fn.cmore = 0;
		if (!fn.nsites && !fn.leaf && (fn.leaf = would_be_leaf(&fn))) {
			fn.sites = fn.left;
			fn.nsites = fn.cap = fn.nleft;
		}
	}
	for (uint32_t i = 0; !fn.leaf && i < fn.nleft; i++)
		tell(&fn, &fn.left[i], INL_COST, fn.left[i].cost, in->o->inlining.threshold);
	/* after the caller, so that its calls of one callee are decided alike */
	for (Delta *d = fn.delta; d; d = d->hh.next)
		in->callee[cg_index_of(in->cg, d->callee)].ncalls += (uint32_t)d->n;
	fn_close(&fn);
}

/* ---- the module --------------------------------------------------------------- */

static void count_calls(In *in)
{
	for (uint32_t i = 0; i < cg_count(in->cg); i++)
		in->callee[i].ncalls = inlinable_calls(in->inl, cg_func(in->cg, i));
}

/* PTX ISA 7.2 brought function_name and inlined_at. */
static int loc_names_ok(const Module *m)
{
	for (const Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_VERSION) {
			unsigned major = 0, minor = 0;
			sscanf(s->strs.strs[0], "%u.%u", &major, &minor);
			return major > 7 || (major == 7 && minor >= 2);
		}
	return 0;
}


static void print_stats(const In *in)
{
	const Stats *s = &in->st;
	diag_note("inline: %u direct call sites", s->seen);
	diag_note("inline:   %u inlined (%llu instructions copied)", s->inlined, s->copied);
	unsigned left = 0;
	for (int i = 0; i < NINL; i++)
		left += s->left[i];
	diag_note("inline:   %u left", left);
	for (int i = 0; i < NINL; i++)
		if (s->left[i])
			diag_note("inline:     %u: %s", s->left[i], inlinable_text(i));
	if (s->left[INL_GROWTH])
		diag_note("inline:   copies added %llu instructions to the module's %llu (the budget: %llu)",
			(unsigned long long)in->grown, (unsigned long long)inlinable_size(in->inl),
			(unsigned long long)inlinable_budget(in->inl));
}

/* A function called once, by another, that goes once that call is
 * inlined (no other use, a closed world or internal) is not inlined
 * into first: its caller takes a copy of its body as written and then
 * inlines the calls the copy brought.  Bottom-up, a chain of n such
 * functions would copy each one's whole expansion into the next (n^2/2
 * instructions for --inline=always); so each body is copied once.  If
 * the call stays, the function is inlined into on its own after its
 * caller (in->late).  One that nothing calls goes as it is: a deferred
 * callee's body, left behind where its copy went in, is one, and a
 * second run must not inline into it either.  Under auto's usual thresholds the bodies that
 * go free with their last call are bounded instead: up to BODY_GOES_MAX
 * each, past it all together by the growth budget (in->moved). */
static void find_deferred(In *in)
{
	uint32_t n = cg_count(in->cg);
	/* only where every copy is taken whatever its callee expands to
	 * (no callee over CALLER_MAX is copied): the cost model weighs a
	 * callee as it is after its own calls went in */
	if (in->mode != INLINE_ALWAYS && in->o->inlining.threshold < CALLER_MAX)
		return;
	for (uint32_t i = 0; i < n; i++) {
		const CgFunc *c = cg_func(in->cg, i);
		const Symbol *sym = c->sym;
		in->callee[i].deferred = c->def && c->def->has_body && !c->def->is_entry && c->ncallees &&
			!cg_on_cycle(in->cg, i) && !c->address_taken &&
			(in->o->world.closed || c->def->linkage == LINK_INTERNAL) && (sym->nuses == 0 ||
			(sym->nuses == 1 && sym->uses[0].how == USE_CALL && sym->uses[0].in &&
			sym->uses[0].in != c->def));
	}
}

/* What every caller's work reads: in->order, callees first, holds every
 * call-graph function. */
static void in_open(In *in, Module *m, const StageOptions *o, int mode)
{
	*in = (In){.m = m, .o = o, .mode = mode, .arena = arena_new()};
	in->syms = symtab_build(m);
	in->cg = callgraph_build(m, in->syms);
	in->callee = arena_alloc(in->arena, (cg_count(in->cg) + 1) * sizeof *in->callee);
	in->inl = inlinable_open(m, o, in->cg);
	in->loc_names = loc_names_ok(m);
	count_calls(in);
	in->order_of = order_build(m);
	in->order = cg_bottom_up(in->cg);
	find_deferred(in);
}

static void in_close(In *in)
{
	HASH_CLEAR(hh, in->strs);
	borrowers_free(in->rd);
	order_free(in->order_of);
	names_free(&in->labels);
	inlinable_close(in->inl);
	callgraph_free(in->cg);
	symtab_free(in->syms);
	arena_free(in->arena);
}

void inline_calls(Module *m, const StageOptions *o)
{
	int mode = o->inlining.mode ? o->inlining.mode : INLINE_MODE_DEFAULT;
	if (mode == INLINE_NEVER)
		return;
	In in;
	in_open(&in, m, o, mode);
	for (uint32_t i = 0; i < cg_count(in.cg); i++) {
		const CgFunc *c = cg_func(in.cg, in.order[i]);
		if (c->def && c->def->has_body && c->ncallees && !in.callee[in.order[i]].deferred &&
		    inlinable_runs(in.inl, c))
			inline_into(&in, c->sym->def);
		while (in.nlate) {
			c = cg_func(in.cg, in.late[--in.nlate]);
			inline_into(&in, c->sym->def);
		}
	}
	if (o->stats)
		print_stats(&in);
	in_close(&in);
}
