/* unrecurse.c: recursion a counter bounds, cloned by depth (issue 33).
 *
 * A call cycle that counts down and stops at 0,
 *
 *     even(p0, p1): if (p1 == 0) return h;  ... odd(h >> 1, p1 - 1) ...
 *     odd(p0, p1):  if (p1 == 0) return h;  ... even(h >> 1, p1 - 1) ...
 *
 * called as even(h, h & 3u), runs at most 4 deep.  NVVM's -dlto inlines
 * through it and finds the last level's call dead; ptxlink's inliner
 * never copies a function on a cycle, so the calls stay and each level
 * pays a frame (y84's odd4 and even4: 16 and 24 bytes of stack, as many
 * of spills).  Here, before inlining, a function on a cycle whose every
 * call into its cycle is made only past a test of a counter parameter
 * for 0, passing the counter less one as the callee's counter,
 *
 *     ld.param.u32 %r5, [even_param_1];      (%r5's only write)
 *     setp.eq.s32 %p1, %r5, 0;               (%p1's only write)
 *     @%p1 bra $L__BB1_2;                    (the test)
 *     ...                                    (blocks only the test's
 *     add.s32 %r29, %r5, -1;                  fall-through reaches)
 *     st.param.b32 [param1+0], %r29;
 *     call.uni (retval0), odd, (param0, param1);
 *
 * is cloned once per depth for each call from outside the cycle whose
 * counter argument range.c bounds by K (at most MAX_DEPTH), where one
 * function outside the cycle calls into it (MAX_CALLERS): the call
 * goes to even.d3, whose calls into the cycle go to odd.d2, then
 * even.d1, odd.d0.  A clone at depth d is only ever called with a
 * counter of at most d: the outside call passes at most K, and each
 * clone passes at most d - 1 to the next, past its test (the counter is
 * not 0 there, so less one does not wrap).  At depth 0 the counter is 0,
 * so the test's branch is always taken: it becomes `bra`, and the code
 * only its fall-through reached goes (ir/cfg.c), with the calls into the
 * cycle.  The chain has no cycle: the inliner weighs it as any other.
 *
 * Each clone computes what its original does for every argument (its
 * calls go to clones that do the same), so the clones are right whatever
 * the bound; the bound only makes the chain end.  Clones are internal,
 * declared before the first function, each defined after its original.
 * Left alone: a module with -G DWARF (a clone would need its own), a
 * cycle with an indirect call, a function whose names are shadowed, a
 * .weak one in an open world (another definition may replace it).
 *
 * requires: normalized IR / maintains: the module's normal form / breaks:
 * the module's symbol tables and call graph (functions are added). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stages.h"

/* the deepest counter a chain is cloned for, the most functions outside
 * a cycle that may call it (as -dlto expands where its callers are few:
 * chosen on the yardstick's fitting programs, docs/stages.md), and what
 * one clone may hold */
enum { MAX_DEPTH = 4, MAX_CALLERS = 1, MAX_CLONE_INS = 2000 };

/* --stats, summed over the module: counted, never read to decide */
typedef struct Stats {
	unsigned sites, clones, dropped;
} Stats;

/* A function on a cycle, and whether it counts down. */
typedef struct Fn {
	Stmt *def;
	uint32_t comp;        /* its call graph component */
	int counter;          /* the counting parameter's index; -1: it does not count */
	uint32_t test;        /* the test's place among its instructions */
	const char *reg;      /* the counter's register there */
	uint32_t nins;
	uint32_t outside;     /* functions outside its cycle that call into it */
	const char *clone[MAX_DEPTH + 1];   /* made on demand */
} Fn;

typedef struct Un {
	Module *m;
	const StageOptions *o;
	CallGraph *cg;
	Fn *fns;              /* by call graph index; def NULL: not on a cycle */
	Names names;          /* the module's, for the clones' */
	Names sections;       /* what section data names: such a label keeps its code */
	Stmt *first_func;     /* where the clones are declared */
	Stats st;
} Un;

static Fn *fn_of(Un *u, const char *name)
{
	CgFunc *c = cg_find(u->cg, name);
	Fn *f = c ? &u->fns[cg_index_of(u->cg, c)] : NULL;
	return f && f->def ? f : NULL;
}

/* The register a direct call's k-th argument is stored from (the only
 * st.param into it between the call and the label, block or call before
 * it, of 4 bytes at offset 0, unguarded: it runs right before the call
 * on every way to it), or NULL; *back: how many instructions before the
 * call it is.  The walk goes back no further than that, so that the
 * calls of a body written without call blocks cost their own stretch
 * each, not the body's length each. */
static const char *arg_value(const Stmt *call, const CallParts *cp, uint32_t k,
	const Stmt **store, uint32_t *back)
{
	if (!cp->args || k >= cp->args->n || cp->args->kids[k]->kind != E_NAME)
		return NULL;
	const char *arg = cp->args->kids[k]->str, *v = NULL;
	int n = 0;
	uint32_t dist = 0;   /* instructions back from the call */
	for (const Stmt *s = call->prev; s && s->kind != S_LABEL && s->kind != S_SCOPE &&
	     !stmt_is_call(s); s = s->prev) {
		const char *name;
		int64_t off;
		dist += s->kind == S_INS;
		if (s->kind != S_INS || param_at(&s->ins, &name, &off) != 0 || name != arg)
			continue;
		if (n++)
			return NULL;
		if (off == 0 && s->ins.sp->type_bytes == 4 && s->ins.sp->vec == 1 && !s->ins.guard &&
		    s->ins.ops[1]->kind == E_NAME)
			v = s->ins.ops[1]->str, *store = s, *back = dist;
	}
	return v;
}

/* Does instruction a run before b on every way to b (a block that
 * dominates b's, or earlier in b's)? */
static int before(const Cfg *g, uint32_t a, uint32_t b)
{
	uint32_t x = g->block_of[a], y = g->block_of[b];
	return x == y ? a < b : cfg_dominates(g, x, y);
}

/* The only instruction writing reg, or NULL. */
static Stmt *only_writer(const Cfg *g, const RegUses *ru, const char *reg, uint32_t *at)
{
	uint32_t last;
	if (reguses_writes(ru, reg, &last) != 1)
		return NULL;
	*at = last;
	return g->ins[last]->ins.guard ? NULL : g->ins[last];
}

static int is_int32(const Ins *in)
{
	int ty = in->sp->ntypes ? in->sp->types[0] : TY_NONE;
	return in->sp->type_bytes == 4 && ty != TY_NONE && !(ty_flags(ty) & TF_FLOAT);
}

/* `@%p bra L` at instruction j testing param i of f for 0 (setp.eq of its
 * ld.param, each the only write of its register): the counter register,
 * else NULL. */
static const char *counter_test(const Cfg *g, const RegUses *ru, const Func *f, uint32_t j, int *param)
{
	const Ins *br = &g->ins[j]->ins;
	uint32_t at;
	if (br->sp->code != O_bra || !br->guard || br->guard_neg)
		return NULL;
	Stmt *set = only_writer(g, ru, br->guard, &at);
	int64_t k;
	if (!set || set->ins.sp->code != O_setp || set->ins.sp->cmp != CMP_EQ || set->ins.nops != 3 ||
	    !is_int32(&set->ins) || !before(g, at, j))
		return NULL;
	uint32_t set_at = at;
	int side = int_operand(set->ins.ops[2], &k) && k == 0 ? 1 : int_operand(set->ins.ops[1], &k) && k == 0 ? 2 : 0;
	if (!side || set->ins.ops[side]->kind != E_NAME)
		return NULL;
	const char *r = set->ins.ops[side]->str, *name;
	int64_t off;
	Stmt *ld = only_writer(g, ru, r, &at);
	if (!ld || param_at(&ld->ins, &name, &off) != 1 || off || ld->ins.sp->type_bytes != 4 ||
	    !before(g, at, set_at))
		return NULL;
	for (uint32_t i = 0; i < f->nparams; i++)
		if (f->params[i].nds == 1 && f->params[i].ds[0].name == name)
			*param = (int)i;
	return *param >= 0 ? r : NULL;
}

/* Is v, stored at instruction use, the counter r less one (its only
 * write, run before the store)? */
static int one_less(const Cfg *g, const RegUses *ru, const char *v, const char *r, uint32_t use)
{
	uint32_t at;
	Stmt *s = v ? only_writer(g, ru, v, &at) : NULL;
	int64_t k;
	if (!s || !before(g, at, use) || !is_int32(&s->ins) || s->ins.nops != 3 || s->ins.ops[1]->kind != E_NAME ||
	    s->ins.ops[1]->str != r || !int_operand(s->ins.ops[2], &k))
		return 0;
	return (s->ins.sp->code == O_add && k == -1) || (s->ins.sp->code == O_sub && k == 1);
}

/* Whether every call of f into its cycle lies past test j (in blocks only
 * its fall-through reaches) and passes counter r less one as the
 * callee's counter (counters as assumed so far). */
static int counts_down(Un *u, const Fn *fn, const Cfg *g, const RegUses *ru, uint32_t j, const char *r)
{
	uint32_t b = g->block_of[j], ft = UINT32_MAX;
	const Block *bl = &g->blocks[b];
	for (uint32_t k = 0; k < bl->nsucc; k++)
		if (bl->succ[k] == b + 1)
			ft = b + 1;
	if (ft == UINT32_MAX || bl->nsucc != 2 || g->blocks[ft].npred != 1)
		return 0;
	BodyIt it;
	uint32_t i = 0;
	for (Stmt *s = body_first(&fn->def->func->body, &it); s; s = body_next(&it)) {
		if (s->kind != S_INS)
			continue;
		CallParts cp;
		uint32_t here = i++;
		if (!ins_call_parts(&s->ins, &cp))
			continue;
		if (!cp.callee || cp.callee->kind != E_NAME) {
			body_end(&it);
			return 0;   /* an indirect call: it might go anywhere on the cycle */
		}
		Fn *c = fn_of(u, cp.callee->str);
		if (!c || c->comp != fn->comp)
			continue;
		const Stmt *store;
		uint32_t back = 0;
		const char *v = c->counter < 0 ? NULL : arg_value(s, &cp, (uint32_t)c->counter, &store, &back);
		if (!v || !cfg_dominates(g, ft, g->block_of[here]) || back > here || !one_less(g, ru, v, r, here - back)) {
			body_end(&it);
			return 0;
		}
	}
	return 1;
}

/* f's first counter test (its parameter and register), from its own
 * body alone: whether it has one. */
static int find_test(Fn *fn)
{
	Func *f = fn->def->func;
	Cfg *g = cfg_build(f);
	if (!g)
		return 0;
	RegUses *ru = reguses_build(g);
	fn->nins = g->nins;
	for (uint32_t j = 0; j < g->nins && !fn->reg; j++) {
		int param = -1;
		if ((fn->reg = counter_test(g, ru, f, j, &param)))
			fn->counter = param, fn->test = j;
	}
	reguses_free(ru);
	cfg_free(g);
	return fn->reg != NULL;
}

/* Whether f's calls into its cycle all count down, asked with the
 * counters its cycle has now. */
static int counts(Un *u, Fn *fn)
{
	Cfg *g = cfg_build(fn->def->func);
	if (!g)
		return 0;
	RegUses *ru = reguses_build(g);
	int ok = counts_down(u, fn, g, ru, fn->test, fn->reg);
	reguses_free(ru);
	cfg_free(g);
	return ok;
}

/* Each function on a cycle with a counter test keeps it while its calls
 * count down and every function of its cycle keeps one; the rest get -1.
 * A call is checked only against its own cycle's counters, so one pass,
 * then every cycle with a function without, spoiled whole. */
static void find_counters(Un *u)
{
	uint32_t n = cg_count(u->cg);
	for (uint32_t i = 0; i < n; i++)
		u->fns[i].counter = -1;
	for (Stmt *s = u->first_func; s; s = s->next) {
		CgFunc *c = s->kind == S_FUNC && s->func->has_body ? cg_find(u->cg, s->func->name) : NULL;
		uint32_t i = c ? cg_index_of(u->cg, c) : 0;
		if (!c || c->def != s->func || !cg_on_cycle(u->cg, i) || c->nindirect ||
		    (c->def->linkage == LINK_WEAK && !u->o->world.closed) || names_shadowed(c->def))
			continue;
		u->fns[i].def = s;
		u->fns[i].comp = cg_component(u->cg, i);
		find_test(&u->fns[i]);
	}
	uint8_t *spoiled = xcalloc(n + 1, 1);
	for (uint32_t i = 0; i < n; i++) {
		Fn *fn = &u->fns[i];
		if (cg_on_cycle(u->cg, i) && (fn->counter < 0 || !counts(u, fn)))
			spoiled[cg_component(u->cg, i)] = 1;
	}
	for (uint32_t i = 0; i < n; i++)
		if (spoiled[cg_component(u->cg, i)])
			u->fns[i].counter = -1;
	free(spoiled);
}

/* ---- clones ---------------------------------------------------------------- */

static const char *clone_of(Un *u, Fn *fn, uint32_t depth);

static void copy_list(Un *u, const Fn *fn, uint32_t depth, const List *from, List *to)
{
	for (const Stmt *s = from->head; s; s = s->next) {
		Stmt *c = stmt_new(u->m, (StmtKind)s->kind, s->loc);
		*c = *s;
		c->next = c->prev = NULL;
		Arena *a = u->m->arena;
		/* what later stages change in place is the clone's own (the
		 * depot stage resizes a declarator: the clones shared one) */
		if (s->kind == S_VAR && s->var.nds)
			c->var.ds = arena_dup(a, s->var.ds, s->var.nds * sizeof *s->var.ds);
		else if (s->kind == S_LOC)
			c->locinfo = arena_dup(a, s->locinfo, sizeof *s->locinfo);
		else if (s->kind == S_PROTO)
			c->proto = arena_dup(a, s->proto, sizeof *s->proto);
		else if (s->kind == S_TARGETS && s->list.nitems)
			c->list.items = arena_dup(a, s->list.items, s->list.nitems * sizeof *s->list.items);
		if (s->kind == S_SCOPE) {
			c->scope = (List){0};
			copy_list(u, fn, depth, &s->scope, &c->scope);
		} else if (s->kind == S_INS && s->ins.nops) {
			c->ins.ops = arena_dup(a, s->ins.ops, s->ins.nops * sizeof *s->ins.ops);
			CallParts cp;
			Fn *callee;
			if (depth > 0 && ins_call_parts(&s->ins, &cp) && cp.callee && cp.callee->kind == E_NAME &&
			    (callee = fn_of(u, cp.callee->str)) && callee->comp == fn->comp)
				c->ins.ops[cp.callee_index] = name_expr(clone_of(u, callee, depth - 1));
		}
		list_append(to, c);
	}
}

/* At depth 0 the test's branch is always taken: what only its
 * fall-through reached goes. */
static void end_chain(Un *u, Fn *fn, Func *f)
{
	BodyIt it;
	uint32_t i = 0;
	for (Stmt *s = body_first(&f->body, &it); s; s = body_next(&it))
		if (s->kind == S_INS && i++ == fn->test) {
			s->ins.guard = NULL;
			body_end(&it);
			break;
		}
	Cfg *g = cfg_build(f);
	if (!g)
		return;
	uint32_t n = cfg_dead_size(g, f, &u->sections);
	if (n)
		cfg_drop_dead(g, f);
	u->st.dropped += n;
	cfg_free(g);
}

/* fn's clone for counters of at most depth: made (with the clones it
 * calls) the first time it is asked for. */
static const char *clone_of(Un *u, Fn *fn, uint32_t depth)
{
	if (fn->clone[depth])
		return fn->clone[depth];
	const Func *orig = fn->def->func;
	char base[256];
	snprintf(base, sizeof base, "%s_d%u", orig->name, depth);
	Func *f = arena_dup(u->m->arena, orig, sizeof *f);
	f->name = fn->clone[depth] = names_fresh(&u->names, base);
	func_set_specs(f, NULL, 0);   /* internal */
	f->verify_as = orig->verify_as ? orig->verify_as : orig->name;
	f->starts = NULL, f->nstarts = f->cstarts = 0, f->starts_noted = 0;
	f->body = (List){0};
	copy_list(u, fn, depth, &orig->body, &f->body);
	if (depth == 0)
		end_chain(u, fn, f);
	Stmt *s = stmt_new(u->m, S_FUNC, fn->def->loc);
	s->func = f;
	if (fn->def->next)
		list_insert_before(&u->m->items, fn->def->next, s);
	else
		list_append(&u->m->items, s);
	func_declare_before(u->m, f, u->first_func);
	u->st.clones++;
	return f->name;
}

/* ---- calls from outside a cycle -------------------------------------------- */

/* The calls h makes into cycles that count down, each with the most its
 * counter argument can be there, retargeted to their chains. */
/* How many functions outside each cycle call into it (fns[].outside,
 * for every function of the cycle). */
static void count_outside(Un *u)
{
	uint32_t n = cg_count(u->cg);
	uint32_t *per = xcalloc(n + 1, sizeof *per), *seen = xcalloc(n + 1, sizeof *seen);
	uint32_t serial = 0;   /* seen[comp] == serial: this caller counted already */
	for (Stmt *s = u->m->items.head; s; s = s->next) {
		if (s->kind != S_FUNC || !s->func->has_body)
			continue;
		CgFunc *self = cg_find(u->cg, s->func->name);
		uint32_t comp = self ? cg_component(u->cg, cg_index_of(u->cg, self)) : UINT32_MAX;
		BodyIt it;
		serial++;
		for (Stmt *x = body_first(&s->func->body, &it); x; x = body_next(&it)) {
			CallParts cp;
			Fn *fn;
			if (x->kind == S_INS && ins_call_parts(&x->ins, &cp) && cp.callee && cp.callee->kind == E_NAME &&
			    (fn = fn_of(u, cp.callee->str)) && fn->counter >= 0 && fn->comp != comp &&
			    seen[fn->comp] != serial)
				seen[fn->comp] = serial, per[fn->comp]++;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		if (u->fns[i].def)
			u->fns[i].outside = per[u->fns[i].comp];
	free(per);
	free(seen);
}

static void outside_calls(Un *u, Func *h, const Names *module)
{
	Cfg *g = cfg_build(h);
	if (!g)
		return;
	Live *live = NULL;
	Defs *defs = NULL;
	Ranges *rs = NULL;
	Names names = {0};
	BodyIt it;
	uint32_t i = 0;
	CgFunc *self = cg_find(u->cg, h->name);
	uint32_t comp = self ? cg_component(u->cg, cg_index_of(u->cg, self)) : UINT32_MAX;
	for (Stmt *s = body_first(&h->body, &it); s; s = body_next(&it)) {
		if (s->kind != S_INS)
			continue;
		i++;
		CallParts cp;
		Fn *fn;
		const Stmt *store = NULL;
		uint32_t back = 0, here = i - 1;
		if (!ins_call_parts(&s->ins, &cp) || !cp.callee || cp.callee->kind != E_NAME ||
		    !(fn = fn_of(u, cp.callee->str)) || fn->counter < 0 || fn->comp == comp ||
		    fn->nins > MAX_CLONE_INS || fn->outside > MAX_CALLERS ||
		    !arg_value(s, &cp, (uint32_t)fn->counter, &store, &back) || back > here)
			continue;
		if (!rs) {
			names_in_module(&names, module, h);
			live = live_compute(g);
			defs = defs_compute(g, live);
			rs = ranges_compute(h, g, defs, &names);
		}
		uint32_t at = here - back;
		if (g->ins[at] != store)
			continue;
		Range r = range_of(rs, at, store->ins.ops[1], 32);
		if (r.hi > MAX_DEPTH)
			continue;
		const char *to = clone_of(u, fn, (uint32_t)r.hi);
		s->ins.ops[cp.callee_index] = name_expr(to);
		u->st.sites++;
		if (u->o->unrecurse.remarks)
			diag_remark(s->loc, "call of %s with a counter of at most %llu: to %s, a chain of clones "
				"one per depth, the last without the call into the cycle", quoted_name(fn->def->func->name),
				(unsigned long long)r.hi, quoted_name(to));
	}
	ranges_free(rs);
	defs_free(defs);
	live_free(live);
	names_free(&names);
	cfg_free(g);
}

void unrecurse(Module *m, const StageOptions *o)
{
	if (!o->unrecurse.on || mod_has_dwarf(m))
		return;
	Un u = {.m = m, .o = o};
	for (Stmt *s = m->items.head; s && !u.first_func; s = s->next)
		if (s->kind == S_FUNC)
			u.first_func = s;
	if (!u.first_func)
		return;
	SymTab *t = symtab_build(m);
	u.cg = callgraph_build(m, t);
	u.fns = xcalloc(cg_count(u.cg) + 1, sizeof *u.fns);
	find_counters(&u);
	int any = 0;
	for (uint32_t i = 0; i < cg_count(u.cg); i++)
		any |= u.fns[i].def && u.fns[i].counter >= 0;
	if (any) {
		names_of_module(&u.names, m);
		names_of_sections(&u.sections, m);
		count_outside(&u);
		for (Stmt *s = m->items.head; s; s = s->next)   /* a clone (verify_as) is no outside caller */
			if (s->kind == S_FUNC && s->func->has_body && !s->func->verify_as && !names_shadowed(s->func))
				outside_calls(&u, s->func, &u.names);
		names_free(&u.names);
		names_free(&u.sections);
	}
	free(u.fns);
	callgraph_free(u.cg);
	symtab_free(t);
	if (o->stats && u.st.sites)
		diag_note("unrecurse: %u calls into counted cycles: %u clones, %u unreachable instructions removed",
			u.st.sites, u.st.clones, u.st.dropped);
}
