/* devirt.c: closed-world devirtualization of indirect calls (issue 5).
 *
 * An indirect call `call (r), %rd9, (args), proto;` costs the full ABI in
 * ptxas: no inlining, spills around the call, a scheduling barrier.  Once
 * all device code is linked the possible targets are known:
 *   - value tracking: the pointer is exactly one function (mov, add, cvta;
 *     with a closed world also loads from initialized constant data);
 *   - otherwise what ir/flow.c says the register can hold (for a pointer
 *     read at [vptr+K]: the entries at +K of the vtable address points the
 *     program stores), or every address-taken function when it cannot say;
 *     either way only functions whose parameter and return lists could
 *     match the prototype: same count, state space and byte size each.
 * The set is open, and never proves a single target, when the world is
 * open (world.c: --allow-undefined, an undefined variable, one input that
 * other device code could join) or the module has an undefined
 * address-taken function whose signature matches.
 * Candidates of the same code (ir/samecode.c) are one, closed (one_per_code()),
 * but for a .calltargets list, which names what the pointer may hold.
 * Rewrites, per call site:
 *   one candidate, closed:   call (r), f, (args);   prototype dropped if unused
 *   every candidate returns the same constants and does nothing else
 *   (closed): the call's result reads become movs of them (uniform)
 *   2..N candidates, closed: a funnel or a .calltargets list, by the
 *   measured rules at settle(), keep_pointer() and funnel_not_worth()
 *   below (a recursive target, one the inliner would not take in its
 *   place, or arms whose copies together grow the code more than the
 *   inliner lets one call, gets the list, unless funnels everywhere leave
 *   no call through a pointer)
 *   1..N candidates open, or a funnel: a branch funnel around the call only
 *   (before and after at funnel() below), unless the inliner would not
 *   take every arm (the call is then left alone):
 *       mov.u64 %devirt_a, f;  setp.eq.s64 %devirt_p, %rd9, %devirt_a;
 *       @%devirt_p bra $Ldevirt_K_0;  ...
 *       call (r), g, (args);             (closed: the last candidate)
 *       $Ldevirt_K_open: call (r), %rd9, (args), proto;   (open instead)
 *       bra.uni $Ldevirt_K_join;
 *       $Ldevirt_K_0: call (r), f, (args);  bra.uni $Ldevirt_K_join; ...
 *       $Ldevirt_K_join:
 *     closed and read from .global vtables: the tests compare the vtable
 *     pointer instead, `cvta.global.u64 %devirt_a, _ZTV1A+16`, and the
 *     read of the function pointer goes;
 *   more than N, closed:     call (r), %rd9, (args), $Ldevirt_K_targets;
 *                            after $Ldevirt_K_targets: .calltargets f, g, ...;
 * A call whose pointer is null, with no candidate, or with more than N in
 * an open world, is left alone with a remark.  An open funnel's kept call
 * follows a $Ldevirt_*_open label, so a second run leaves it alone.
 * Finally, if no call goes through a pointer and no code takes a function's
 * address, the function entries of C++ vtables (_ZTV*) are cleared.
 *
 * requires: the world verdict (o->world), o->devirt.funnel_max (N above,
 * at least 1: its default is the caller's), o->inlining (what the
 * inliner is asked); builds its own symbol table,
 * call graph, address flow, CFG, liveness, reaching definitions /
 * maintains: the module's statements and names / breaks: any symbol
 * table, CFG or analysis built before it. */
#include <stdlib.h>
#include <string.h>
#include "stages.h"
#include "inlinable.h"
#include "ir/ptrhash.h"

enum { MAX_CAND = 64 };

enum { /* why a call is left indirect */
	WHY_NULL, WHY_NONE, WHY_MANY, WHY_MISMATCH, WHY_DONE,
	WHY_TARGETS, WHY_FORM, WHY_ARMS, NWHY
};
static const char *const why_text[NWHY] = {
	"the pointer can only be null", "no candidate target",
	"more candidates than --devirt-funnel-max", "the only target's signature does not match",
	"already funneled with an indirect fallback",
	"it has a .calltargets list", "an unrecognized call form",
	"a funnel's arms would not all be inlined",
};

enum { /* how a call is rewritten */
	HOW_SINGLE,                 /* a direct call */
	HOW_UNIFORM,                /* every candidate returns rets[], doing nothing else */
	HOW_FUNNEL,                 /* a branch funnel of direct calls */
	HOW_TARGETS,                /* too many for a funnel: a .calltargets list */
};

enum { /* why a funnel or a .calltargets list (settle) */
	RULE_NONE, RULE_NARROW, RULE_RECURSIVE, RULE_PRUNE, RULE_MAX, RULE_ARMS, RULE_WHOLE,
};

static const char *const how_text[] = {
	[HOW_SINGLE] = "single", [HOW_UNIFORM] = "uniform", [HOW_FUNNEL] = "funnel",
	[HOW_TARGETS] = "calltargets",
};

typedef struct Stats {
	unsigned seen, single, funnel, open_funnel, uniform, targets, left[NWHY];
	unsigned pruned;  /* vtable entries cleared */
	unsigned same;    /* candidates gone for one of the same code */
} Stats;

enum { MAX_RETS = 8 };

/* A constant a function stores into its return parameter. */
typedef struct RetSlot {
	int64_t off;
	int bytes;
	const Expr *value;
} RetSlot;

typedef struct Icall {
	Stmt *call;
	List *list;                 /* the statement list holding the call */
	uint32_t callee;            /* index of the pointer operand */
	uint32_t ins;               /* the call's index in the CFG, or UINT32_MAX */
	const char *cands[MAX_CAND];
	uint32_t ncands;
	int open;
	int why;                    /* WHY_*, or -1 when rewritten (HOW_*) */
	int how;
	/* a funnel on the vtable pointer instead of the function pointer:
	 * the call's pointer was read at [vptr + K]; every points[i].entry is
	 * a candidate, and the last candidate the one most points hold */
	const Expr *vptr;
	FlowPoint points[MAX_CAND];
	uint32_t npoints;
	Stmt *load;                 /* that read, when only the call uses it */
	const char *proto;          /* rewritten: its prototype, dropped if unused */
	int rule;                   /* RULE_*: why a funnel or .calltargets */
	const char *back;           /* RULE_RECURSIVE, _PRUNE: a candidate on a call cycle;
	                               RULE_ARMS, WHY_ARMS: one the inliner would not take */
	char refusal[128];          /* RULE_ARMS, WHY_ARMS: the inliner's why; RULE_WHOLE: the sum */
	RetSlot rets[MAX_RETS];     /* HOW_UNIFORM */
	uint32_t nrets;
	uint32_t nsame;             /* candidates gone for one of the same code */
	/* every candidate, those gone for one of the same code too: the
	 * pointer still holds theirs, so a .calltargets list names them */
	const char *all[MAX_CAND];
	uint32_t nall;
} Icall;

/* The module's: the analyses every function's work reads, and the
 * counts.  It lives as long as the stage. */
typedef struct Dv {
	Module *m;
	const StageOptions *o;
	CallGraph *cg;
	SymTab *syms;
	Flow *flow;                 /* where function addresses go */
	int open_world;             /* the world is open, or an undefined function fits */
	const Func **undef;         /* undefined functions whose address is taken */
	uint32_t nundef;
	int addr32;
	int dwarf;                  /* -G: each function a frame of its own */
	/* code_of(): per call graph node its code's number (0: not yet) and
	 * hash, and the numbers given */
	uint32_t *code, ncodes;
	uint64_t *code_hash;
	Stats st;
	Names module;               /* the module's symbols: each function's names' outer */
} Dv;

/* One function's work, from choosing its sites to rewriting them:
 * nothing of one function's carries into another's. */
typedef struct Df {
	Dv *d;                      /* the module's */
	Stmt *fs;                   /* the function's statement */
	Func *f;
	Icall *sites;
	uint32_t nsites, cap;
	SrcLines *src;              /* its source lines, for remarks */
	Names names;                /* what it declares, and (outer) the module */
	struct Labeled *labels;     /* its prototypes and .calltargets lists */
	Places places;              /* where its statements were before any rewrite */
	unsigned serial;
	const char *preg, *areg;    /* the funnels' registers, once one needs them */
} Df;

/* ---- signatures ------------------------------------------------------ */

static uint32_t count_ds(const Decl *d, uint32_t n)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++)
		k += d[i].nds;
	return k;
}

static int same_list(const Decl *a, uint32_t na, const Decl *b, uint32_t nb)
{
	if (count_ds(a, na) != count_ds(b, nb))
		return 0;
	uint32_t i = 0, j = 0, ii = 0, jj = 0;
	while (i < na && j < nb) {
		if (ii == a[i].nds) {
			i++, ii = 0;
			continue;
		}
		if (jj == b[j].nds) {
			j++, jj = 0;
			continue;
		}
		Space sa = decl_space(&a[i]), sb = decl_space(&b[j]);
		int64_t za = decl_bytes(&a[i], &a[i].ds[ii]), zb = decl_bytes(&b[j], &b[j].ds[jj]);
		if ((sa ? sa : SPACE_PARAM) != (sb ? sb : SPACE_PARAM) || za < 0 || za != zb)
			return 0;
		ii++, jj++;
	}
	return 1;
}

/* Could f be called through p?  Lenient on purpose: a false "yes" only
 * adds a candidate, a false "no" would drop a real target. */
static int sig_match(const Proto *p, const Func *f)
{
	return !f->is_entry && same_list(p->rets, p->nrets, f->rets, f->nrets) &&
		same_list(p->params, p->nparams, f->params, f->nparams);
}

/* ---- finding the sites ----------------------------------------------- */

/* The function's prototypes and .calltargets lists by label, the first
 * of a name in text order (a scope's where it stands): found once for
 * all its sites, not searched for by each. */
typedef struct Labeled {
	UT_hash_handle hh;
	const char *label;
	const Stmt *s;
} Labeled;

static void index_labels(Df *df, const List *l)
{
	BodyIt it;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it)) {
		const char *label = s->kind == S_PROTO ? s->proto->label :
			s->kind == S_TARGETS ? s->list.label : NULL;
		Labeled *x;
		if (!label)
			continue;
		HASH_FIND_PTR(df->labels, &label, x);
		if (x)
			continue;
		x = xcalloc(1, sizeof *x);
		x->label = label;
		x->s = s;
		HASH_ADD_PTR(df->labels, label, x);
	}
}

static const Stmt *find_label(const Df *df, const char *label)
{
	Labeled *x;
	HASH_FIND_PTR(df->labels, &label, x);
	return x ? x->s : NULL;
}

static void free_labels(Df *df)
{
	Labeled *x, *tmp;
	HASH_ITER(hh, df->labels, x, tmp) {
		HASH_DEL(df->labels, x);
		free(x);
	}
}

static void add_site(Df *df, Stmt *s, List *l, uint32_t callee)
{
	df->sites = array_grow(df->sites, df->nsites, &df->cap, sizeof *df->sites);
	df->sites[df->nsites++] = (Icall){.call = s, .list = l, .callee = callee, .why = -1};
}

static void find_sites(Df *df, List *l)
{
	BodyIt it;
	CallParts c;
	for (Stmt *s = body_first_call(l, &it, &c); s; s = body_next_call(&it, &c))
		if (c.callee && !cg_find(df->d->cg, c.callee->str))  /* else direct */
			add_site(df, s, it.in, c.callee_index);
}

/* ---- choosing the candidates ------------------------------------------ */

static int open_for(Dv *d, const Proto *p)
{
	if (d->open_world)
		return 1;
	/* An undefined function can be a target only if this module takes
	 * its address: in a closed world nothing else can hand it over. */
	for (uint32_t i = 0; i < d->nundef; i++)
		if (sig_match(p, d->undef[i]))
			return 1;
	return 0;
}

/* The declarations of undefined functions whose address is taken. */
static void find_undef(Dv *d)
{
	d->undef = xcalloc(cg_count(d->cg) + 1, sizeof *d->undef);
	for (uint32_t i = 0; i < cg_count(d->cg); i++) {
		const CgFunc *c = cg_func(d->cg, i);
		if (!c->def && c->address_taken)
			d->undef[d->nundef++] = c->decl;
	}
}

static const Func *func_named(Dv *d, const char *name)
{
	const CgFunc *c = cg_find(d->cg, name);
	return c ? c->def : NULL;
}

/* Exactly one value by tracking: 1 a function (in *f), 0 unknown or not a
 * function, -1 null. */
static int tracked(const Tracker *t, uint32_t ins, const Expr *e, Dv *d, const char **f)
{
	Value v;
	if (!value_of(t, ins, e, &v))
		return 0;
	if (!v.sym)
		return v.off == 0 ? -1 : 0;
	if (v.off || !cg_find(d->cg, v.sym))
		return 0;
	*f = v.sym;
	return 1;
}

/* A function's definition, else its declaration. */
static const Func *func_decl(Dv *d, const char *name)
{
	const CgFunc *c = cg_find(d->cg, name);
	return c ? c->decl : NULL;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The candidates, sorted by name: what the module's address flow says the
 * pointer register can hold, else every function whose address is taken;
 * either way only those whose signature fits.  0 (st->why) when there are
 * too many. */
static int bound(Df *df, Icall *st, const Proto *p)
{
	Dv *d = df->d;
	const Expr *ptr = st->call->ins.ops[st->callee];
	const char *found[MAX_CAND];
	int n = -1;
	if (d->flow && ptr->kind == E_NAME && !cg_find(d->cg, ptr->str))
		n = flow_callees(d->flow, df->f, ptr->str, found, MAX_CAND);
	if (n > MAX_CAND) {
		st->why = WHY_MANY;
		return 0;
	}
	for (int i = 0; i < n; i++) {
		const Func *fn = func_decl(d, found[i]);
		if (fn && sig_match(p, fn))
			st->cands[st->ncands++] = found[i];
	}
	for (uint32_t i = 0; n < 0 && i < cg_count(d->cg); i++) {
		const CgFunc *c = cg_func(d->cg, i);
		if (!c->address_taken || !c->def || !sig_match(p, c->def))
			continue;
		if (st->ncands == MAX_CAND) {
			st->why = WHY_MANY;
			return 0;
		}
		st->cands[st->ncands++] = c->name;
	}
	/* cg_func's order is a hash's; names are interned, so equal names are
	 * one pointer */
	qsort(st->cands, st->ncands, sizeof *st->cands, by_name);
	return 1;
}

static int has_cand(const Icall *st, const char *f)
{
	for (uint32_t i = 0; i < st->ncands; i++)
		if (st->cands[i] == f)
			return 1;
	return 0;
}

/* The register that holds the vtable pointer itself, as read from the
 * object, where a is used at instruction at: a, or what a was computed
 * from by adding constants (nvcc forms the slot address apart:
 * `ld %rd57, [obj]; add.s64 %rd10, %rd57, 16; ld %rd11, [%rd10]`).  The
 * funnel compares that register with each address point, so it must be
 * the loaded pointer, never the slot address.  *def: its load. */
static const Expr *vtable_pointer(const Cfg *cfg, const Defs *defs, uint32_t at, const Expr *a,
	uint32_t *def, int depth)
{
	if (a->kind != E_NAME || depth > 4 || defs_reaching(defs, at, a->str, def, 1) != 1 ||
	    *def == DEF_ENTRY)
		return NULL;
	const Ins *in = &cfg->ins[*def]->ins;
	if (in->guard)
		return NULL;
	if (in->sp->code == O_ld)
		return a;
	if (in->sp->code == O_add && in->nops == 3 && in->ops[2]->kind == E_NUM)
		return vtable_pointer(cfg, defs, *def, in->ops[1], def, depth + 1);
	return NULL;
}

/* The call's pointer read at [vptr + K] (vptr the loaded vtable pointer,
 * unchanged up to the call): its load's index, or UINT32_MAX. */
static uint32_t slot_load(const Icall *st, const Cfg *cfg, const Defs *defs, uint32_t call,
	const Expr **vptr)
{
	const Expr *ptr = st->call->ins.ops[st->callee];
	uint32_t def, vdef, at_call;
	if (ptr->kind != E_NAME || defs_reaching(defs, call, ptr->str, &def, 1) != 1 || def == DEF_ENTRY)
		return UINT32_MAX;
	const Ins *ld = &cfg->ins[def]->ins;
	if (ld->sp->code != O_ld || ld->guard || ld->nops != 2 || ld->ops[1]->kind != E_ADDR ||
	    ld->ops[1]->n != 1)
		return UINT32_MAX;
	const Expr *a = ld->ops[1]->kids[0];
	if (a->kind == E_BINARY && a->op == '+' && a->kids[1]->kind == E_NUM)
		a = a->kids[0];
	const Expr *v = vtable_pointer(cfg, defs, def, a, &vdef, 0);
	if (!v || defs_reaching(defs, call, v->str, &at_call, 1) != 1 || at_call != vdef)
		return UINT32_MAX;
	*vptr = v;
	return def;
}

/* Does a function whose address sits in memory fit p?  Such a one could
 * arrive through a pointer that is no address point. */
static int loose_fits(Dv *d, const Proto *p)
{
	const char *loose[MAX_CAND];
	int n = flow_loose(d->flow, loose, MAX_CAND);
	if (n > MAX_CAND)
		return 1;
	for (int i = 0; i < n; i++)
		if (sig_match(p, func_decl(d, loose[i])))
			return 1;
	return 0;
}

static uint32_t points_holding(const Icall *st, const char *f)
{
	uint32_t n = 0;
	for (uint32_t k = 0; k < st->npoints; k++)
		n += st->points[k].entry == f;
	return n;
}

/* The address points the call's pointer is read from, of functions that
 * fit p, into st->points: 1 when they hold exactly the candidates. */
static int points_of(Df *df, Icall *st, const Proto *p)
{
	Dv *d = df->d;
	FlowPoint pts[MAX_CAND];
	int n = flow_slot_points(d->flow, df->f, st->call->ins.ops[st->callee]->str, pts, MAX_CAND);
	if (n < 0 || n > MAX_CAND)
		return 0;
	st->npoints = 0;
	for (int i = 0; i < n; i++) {
		const Func *fn = func_decl(d, pts[i].entry);
		if (!fn || !sig_match(p, fn))
			continue;  /* an object of that class cannot reach this call */
		if (!has_cand(st, pts[i].entry))
			return 0;
		st->points[st->npoints++] = pts[i];
	}
	for (uint32_t i = 0; i < st->ncands; i++)
		if (!points_holding(st, st->cands[i]))
			return 0;  /* a candidate no address point holds */
	return 1;
}

/* The candidate most points hold (the last of equals) goes last, to be
 * the funnel's fall-through: it saves the most tests. */
static void most_held_last(Icall *st)
{
	uint32_t best = st->ncands - 1, most = 0;
	for (uint32_t i = 0; i < st->ncands; i++) {
		uint32_t c = points_holding(st, st->cands[i]);
		if (c >= most)
			best = i, most = c;
	}
	const char *def = st->cands[best];
	memmove(&st->cands[best], &st->cands[best + 1], (st->ncands - best - 1) * sizeof *st->cands);
	st->cands[st->ncands - 1] = def;
}

/* A closed set read from vtables: compare the vtable pointer with each
 * address point instead of the function pointer with each function.  The
 * read of the function pointer then dies, and with it the last use of the
 * vtable's entries.  Only when no function whose address sits in memory
 * fits; the points are .global tables, whose generic address is their
 * own. */
static void by_vtable(Df *df, Icall *st, const Proto *p, const Tracker *t)
{
	const Expr *vptr;
	uint32_t load = slot_load(st, t->cfg, t->defs, st->ins, &vptr), use;
	if (load == UINT32_MAX || loose_fits(df->d, p) || !points_of(df, st, p))
		return;
	most_held_last(st);
	st->vptr = vptr;
	if (defs_uses(t->defs, load, st->call->ins.ops[st->callee]->str, &use, 1) == 1 && use == st->ins)
		st->load = t->cfg->ins[load];
}

/* ---- candidates of the same code ---------------------------------------- */

static uint32_t cand_index(const Icall *st, const char *f);

/* A number per code (ir/samecode.c), the same for functions of the same
 * code, found once per function for every site: 0 for one without a
 * body. */
static uint32_t code_of(Dv *d, const char *name)
{
	const CgFunc *c = cg_find(d->cg, name);
	if (!c || !c->def)
		return 0;
	uint32_t at = cg_index_of(d->cg, c), n = cg_count(d->cg);
	if (d->code[at])
		return d->code[at];
	uint64_t h = func_code_hash(c->def);
	for (uint32_t i = 0; i < n && !d->code[at]; i++)
		if (d->code[i] && d->code_hash[i] == h && func_same_code(cg_func(d->cg, i)->def, c->def))
			d->code[at] = d->code[i];
	if (!d->code[at])
		d->code[at] = ++d->ncodes;
	d->code_hash[at] = h;
	return d->code[at];
}

/* Candidates with the same code (ir/samecode.c) do the same when called:
 * the first of them (by name, but for by_vtable()'s last) stands for the
 * others.  A closed set of one code is a direct call; on the vtable
 * pointer each code is one arm, the address points of its candidates all
 * branching to it.  On the function pointer each candidate keeps its test
 * (a funnel compares the pointer with each function).  C++ deleting
 * destructors are the usual case: one code, where a funnel of inlined
 * copies made a call of free per copy (docs/stages.md).  Not with -G,
 * whose DWARF tells the functions apart. */
static void one_per_code(Dv *d, Icall *st)
{
	uint32_t n = st->ncands, rep[MAX_CAND], code[MAX_CAND], codes = 0;
	if (d->dwarf || st->open || n < 2)
		return;
	for (uint32_t i = 0; i < n; i++) {
		code[i] = code_of(d, st->cands[i]);
		rep[i] = i;
		for (uint32_t j = 0; j < i && rep[i] == i; j++)
			if (code[i] && code[j] == code[i])
				rep[i] = j;
		codes += rep[i] == i;
	}
	if (codes == n || (codes > 1 && !st->vptr))
		return;
	for (uint32_t k = 0; k < st->npoints; k++)
		st->points[k].entry = st->cands[rep[cand_index(st, st->points[k].entry)]];
	memcpy(st->all, st->cands, n * sizeof *st->all);
	st->nall = n;
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++)
		if (rep[i] == i)
			st->cands[m++] = st->cands[i];
	st->ncands = m;
	st->nsame = n - m;
	d->st.same += n - m;
	if (m > 1) {
		most_held_last(st);
	} else {  /* a direct call: no test; the slot's read still goes */
		st->vptr = NULL;
		st->npoints = 0;
	}
}

/* ---- uniform return value ---------------------------------------------- */


static int is_param_of(const Decl *ps, uint32_t n, const Expr *addr)
{
	const Expr *a = addr->kind == E_ADDR && addr->n == 1 ? addr->kids[0] : NULL;
	if (a && a->kind == E_BINARY && a->op == '+')
		a = a->kids[0];
	for (uint32_t i = 0; a && a->kind == E_NAME && i < n; i++)
		if (ps[i].ds[0].name == a->str)
			return 1;
	return 0;
}

static int addr_offset(const Expr *addr, int64_t *off)
{
	const Expr *a = addr->kids[0];
	*off = 0;
	return a->kind == E_NAME || (a->kind == E_BINARY && a->op == '+' &&
		a->kids[1]->kind == E_NUM && int_literal(a->kids[1]->str, off));
}

typedef struct Consts {
	const char *reg[16];
	const Expr *val[16];
	uint32_t n;
} Consts;

/* One statement of a body that only moves constants into its return
 * parameter and returns: the slots filled so far (n, the count after
 * it), or -1. */
static int scan_const_stmt(const Func *f, const Stmt *s, Consts *c, RetSlot *out, int n)
{
	if (s->kind == S_SCOPE || s->kind == S_LOC || s->kind == S_VAR || s->kind == S_PRAGMA)
		return n;
	if (s->kind != S_INS || s->ins.guard)
		return -1;
	const Ins *in = &s->ins;
	int op = in->sp->code;
	if (op == O_ret && in->nops == 0)
		return n;
	if (op == O_ld && ins_space(in) == SPACE_PARAM &&
	    in->nops == 2 && is_param_of(f->params, f->nparams, in->ops[1]))
		return n;
	if (op == O_mov && in->nops == 2 && in->ops[0]->kind == E_NAME &&
	    in->ops[1]->kind == E_NUM && c->n < 16) {
		c->reg[c->n] = in->ops[0]->str;
		c->val[c->n++] = in->ops[1];
		return n;
	}
	int64_t off;
	if (op != O_st || ins_space(in) != SPACE_PARAM || in->nops != 2 ||
	    !is_param_of(f->rets, f->nrets, in->ops[0]) || !addr_offset(in->ops[0], &off) ||
	    n == MAX_RETS)
		return -1;
	const Expr *v = in->ops[1];
	for (uint32_t i = c->n; v->kind == E_NAME && i-- > 0;)
		if (c->reg[i] == v->str)
			v = c->val[i];
	if (v->kind != E_NUM)
		return -1;
	out[n++] = (RetSlot){off, in->sp->type_bytes, v};
	return n;
}

/* f's body only moves constants into its return parameter and returns:
 * the slots it fills (count), or -1. */
static int scan_const_body(const Func *f, Consts *c, RetSlot *out)
{
	BodyIt it;
	int n = 0;
	for (const Stmt *s = body_first(&f->body, &it); s && n >= 0; s = body_next(&it))
		n = scan_const_stmt(f, s, c, out, n);
	body_end(&it);
	return n;
}

static int same_value(const Expr *a, const Expr *b)
{
	int64_t x, y;
	if (int_literal(a->str, &x) && int_literal(b->str, &y))
		return x == y;
	return a->str == b->str;
}

/* Every candidate defined, returning the same constants and doing nothing
 * else: the call is those constants. */
static int uniform(Dv *d, Icall *st)
{
	RetSlot first[MAX_RETS], r[MAX_RETS];
	int n = -1;
	for (uint32_t i = 0; i < st->ncands; i++) {
		const Func *f = func_named(d, st->cands[i]);
		Consts c = {0};
		int k = f ? scan_const_body(f, &c, r) : -1;
		if (k < 0 || (n >= 0 && k != n))
			return 0;
		for (int j = 0; n >= 0 && j < k; j++)
			if (r[j].off != first[j].off || r[j].bytes != first[j].bytes ||
			    !same_value(r[j].value, first[j].value))
				return 0;
		if (n < 0)
			memcpy(first, r, sizeof r);
		n = k;
	}
	st->nrets = (uint32_t)n;
	memcpy(st->rets, first, sizeof first);
	return 1;
}

/* The call's results read back as constants: each ld.param of its return
 * parameter that follows it in its scope becomes a mov.  0 (and no
 * change) when a read is not one of the stored slots. */
static int fold_uniform(Dv *d, Icall *st, int apply)
{
	CallParts c;
	ins_call_parts(&st->call->ins, &c);
	const Expr *ret = c.rets && c.rets->n == 1 ? c.rets->kids[0] : NULL;
	if (c.rets && !ret)
		return 0;
	for (Stmt *s = st->call->next, *next; ret && s; s = next) {
		next = s->next;
		if (s->kind != S_INS || s->ins.sp->code != O_ld || ins_space(&s->ins) != SPACE_PARAM ||
		    s->ins.nops != 2 ||
		    s->ins.ops[1]->kind != E_ADDR || !expr_mentions(s->ins.ops[1], ret->str))
			continue;
		int64_t off;
		uint32_t k = 0;
		if (!addr_offset(s->ins.ops[1], &off) || s->ins.ops[0]->kind != E_NAME)
			return 0;
		while (k < st->nrets && (st->rets[k].off != off || st->rets[k].bytes != s->ins.sp->type_bytes))
			k++;
		if (k == st->nrets || st->rets[k].bytes < 2)
			return 0;
		if (apply) {
			char sp[32];
			snprintf(sp, sizeof sp, "mov%s", s->ins.sp->type);
			Expr *ops[2] = {s->ins.ops[0], (Expr *)st->rets[k].value};
			list_insert_before(st->list, s, ins_new(d->m, s->loc, sp, ops, 2));
			list_remove(st->list, s);
		}
	}
	if (apply)
		list_remove(st->list, st->call);
	return 1;
}

/* ---- choosing the rewrite -------------------------------------------- */

/* Whether the call can be devirtualized at all: -1 and its prototype in
 * *p, else why not (WHY_*). */
static int classify(const Df *df, const Icall *st, const Proto **p)
{
	const Stmt *prev = st->call->prev;
	if (prev && prev->kind == S_LABEL && !strncmp(prev->label, "$Ldevirt", 8))
		return WHY_DONE;
	CallParts c;
	const Stmt *ps = ins_call_parts(&st->call->ins, &c) && c.proto ?
		find_label(df, c.proto->str) : NULL;
	if (ps && ps->kind == S_TARGETS)
		return WHY_TARGETS;
	if (!ps || st->ins == UINT32_MAX)
		return WHY_FORM;
	*p = ps->proto;
	return -1;
}

/* The one function value tracking finds the pointer to be: 1 (in
 * st->cands), 0 when it finds none, -1 (st->why) when the pointer is
 * null or the function does not fit p. */
static int track(Dv *d, Icall *st, const Proto *p, const Tracker *exact)
{
	const Expr *ptr = st->call->ins.ops[st->callee];
	Tracker loads = *exact;
	loads.syms = d->syms;
	const char *f = NULL;
	int r = tracked(exact, st->ins, ptr, d, &f);
	if (r == 0 && !st->open)  /* loads of constant data hold if nothing outside writes */
		r = tracked(&loads, st->ins, ptr, d, &f);
	if (r < 0)
		st->why = WHY_NULL;
	if (r <= 0)
		return r;
	const Func *fn = func_decl(d, f);
	if (!fn || !sig_match(p, fn)) {
		st->why = WHY_MISMATCH;
		return -1;
	}
	st->cands[st->ncands++] = f;
	return 1;
}

/* The rewrite for the candidates bound() found.  A funnel on the vtable
 * pointer and a uniform result need the whole set: closed worlds only. */
static void pick(Df *df, Icall *st, const Proto *p, const Tracker *t)
{
	Dv *d = df->d;
	uint32_t n = st->ncands, max = (uint32_t)d->o->devirt.funnel_max;
	if (n == 0 || (n > max && st->open)) {
		st->why = n ? WHY_MANY : WHY_NONE;
		return;
	}
	/* before the count decides: the order it leaves is also a
	 * .calltargets list's */
	if (!st->open)
		by_vtable(df, st, p, t);
	one_per_code(d, st);
	n = st->ncands;
	if (n > max) {
		/* the call still goes through the pointer it read: no funnel on
		 * the vtable pointer, and the slot read stays */
		st->vptr = NULL;
		st->load = NULL;
		st->npoints = 0;
		st->how = HOW_TARGETS;
		st->rule = RULE_MAX;
	} else if (!st->open && !st->call->ins.guard && uniform(d, st) && fold_uniform(d, st, 0)) {
		st->how = HOW_UNIFORM;
	} else {
		st->how = n == 1 && !st->open ? HOW_SINGLE : HOW_FUNNEL;
	}
}

/* st->why, or the rewrite in st->how with what it needs. */
static void choose(Df *df, Icall *st, const Tracker *exact)
{
	const Proto *p = NULL;
	df->d->st.seen++;
	st->why = classify(df, st, &p);
	if (st->why >= 0)
		return;
	st->open = open_for(df->d, p);
	int r = track(df->d, st, p, exact);
	if (r > 0)
		st->how = HOW_SINGLE;  /* the pointer is that function, open world or not */
	else if (r == 0 && bound(df, st, p))
		pick(df, st, p, exact);
}

/* ---- funnel or .calltargets ------------------------------------------ */

/* A closed set of 2..N candidates: a branch funnel or a .calltargets
 * list, by what tools/bench/lto-bench.sh measured (docs/stages.md).
 * ptxas compiles every direct call of a funnel as a call sequence of its
 * own (its arguments, the ABI's saves, the call) unless it inlines the
 * target, and in whole-program mode copies each target into every
 * kernel that calls it.  What the funnel
 * buys: ptxas knows the callee, so a caller that keeps registers across
 * the call need not save them all, and once no call goes through a
 * pointer the vtables are cleared and the virtual functions become
 * ordinary ones ptxas may inline.  A recursive target gains neither
 * (ptxas inlines no function on a cycle), and a wide funnel pays its call
 * sequences at every site: hence N (--devirt-funnel-max). */

/* The edges of the call graph with the sites' candidates as callees of
 * their functions, as scc_find reads them: u's to[first[u] ..
 * first[u + 1] - 1]; at[u] counts them, then places them. */
static uint32_t cand_at(const Dv *d, const char *name)
{
	return cg_index_of(d->cg, cg_find(d->cg, name));
}

static void edge(uint32_t *at, uint32_t *to, uint32_t u, uint32_t v)
{
	if (to)
		to[at[u]] = v;
	at[u]++;
}

static void edges(Dv *d, const Df *fns, uint32_t nfns, uint32_t *at, uint32_t *to)
{
	for (uint32_t u = 0; u < cg_count(d->cg); u++) {
		const CgFunc *f = cg_func(d->cg, u);
		for (uint32_t k = 0; k < f->ncallees; k++)
			edge(at, to, u, cand_at(d, f->callees[k]));
	}
	for (uint32_t i = 0; i < nfns; i++) {
		uint32_t u = cand_at(d, fns[i].f->name);
		for (uint32_t j = 0; j < fns[i].nsites; j++)
			for (uint32_t k = 0; k < fns[i].sites[j].ncands; k++)
				edge(at, to, u, cand_at(d, fns[i].sites[j].cands[k]));
	}
}

/* The first candidate on a call cycle (cyclic[], computed for every
 * candidate), or NULL. */
static const char *recursive_cand(Dv *d, const Icall *st, const uint8_t *cyclic)
{
	for (uint32_t k = 0; k < st->ncands; k++)
		if (cyclic[cg_index_of(d->cg, cg_find(d->cg, st->cands[k]))])
			return st->cands[k];
	return NULL;
}

/* cyclic[f] for every function: whether it can call itself, directly
 * or through the sites' candidates (one search for components). */
static uint8_t *cyclic_cands(Dv *d, const Df *fns, uint32_t nfns)
{
	uint32_t n = cg_count(d->cg), m = 0;
	uint32_t *first = xcalloc(n + 2, sizeof *first), *at = xcalloc(n + 1, sizeof *at);
	edges(d, fns, nfns, at, NULL);
	for (uint32_t u = 0; u < n; u++)
		first[u] = m, m += at[u], at[u] = first[u];
	first[n] = m;
	uint32_t *to = xcalloc(m + 1, sizeof *to), *comp = xcalloc(n + 1, sizeof *comp);
	uint32_t *order = xcalloc(n + 1, sizeof *order);
	uint8_t *cyclic = xcalloc(n + 1, 1);
	edges(d, fns, nfns, at, to);
	scc_find(n, first, to, comp, order, cyclic);
	free(order);
	free(comp);
	free(to);
	free(at);
	free(first);
	return cyclic;
}

static void to_targets(Icall *st, int rule)
{
	st->how = HOW_TARGETS;
	st->rule = rule;
	st->vptr = NULL;
	st->load = NULL;
	st->npoints = 0;
}

/* Whether every site can go without its pointer (direct, uniform, or a
 * funnel on the vtable pointer): then no call goes through a pointer and
 * prune_vtables() clears the vtables. */
static int pointer_free(const Df *fns, uint32_t nfns)
{
	for (uint32_t i = 0; i < nfns; i++)
		for (uint32_t j = 0; j < fns[i].nsites; j++) {
			const Icall *st = &fns[i].sites[j];
			if (st->why >= 0 || st->how == HOW_TARGETS ||
			    (st->how == HOW_FUNNEL && (st->open || !st->vptr)))
				return 0;
		}
	return 1;
}

/* A call to a recursive candidate keeps its pointer: ptxas inlines no
 * function on a cycle, so a funnel's direct call to it is a full-ABI call
 * like the indirect one, only repeated; unless funnels everywhere clear
 * the vtables (worth more: raytrace). */
static void settle(Dv *d, Icall *st, const uint8_t *cyclic, int prune)
{
	if (st->why >= 0 || st->how != HOW_FUNNEL || st->open)
		return;
	st->back = recursive_cand(d, st, cyclic);
	if (st->back && !prune)
		to_targets(st, RULE_RECURSIVE);
	else
		st->rule = st->back ? RULE_PRUNE : RULE_NARROW;
}

/* A funnel whose arms the inliner would not all take brings nothing but
 * a longer call sequence: each arm left is a full call of its own, and a
 * .calltargets list names the callees to ptxas as well.  Such a call
 * keeps its pointer: with a .calltargets list when closed, left as it
 * is when open (an open funnel's arms are never inlined: its fallback
 * call passes the same .params).  Whether the inliner would take an arm
 * is asked of what its decision depends on (inlinable.h, ask_arms()),
 * each funnel of the caller that calls a candidate counted as one call
 * of it more; a funnel that goes is one call fewer for those asked after
 * it.  And where it takes them all, the cost model's funnel rule
 * (funnel_not_worth()).  docs/stages.md has the measurements. */
static void keep_pointer(Icall *st, const char *back, const char *why)
{
	st->back = back;
	snprintf(st->refusal, sizeof st->refusal, "%s", why);
	if (st->open)
		st->why = WHY_ARMS;
	else
		to_targets(st, back ? RULE_ARMS : RULE_WHOLE);
}

enum { TEST_INS = 3 };   /* test(): a mov or cvta, a setp, a bra */

static uint32_t cand_index(const Icall *st, const char *f)
{
	uint32_t i = 0;
	while (i < st->ncands && st->cands[i] != f)
		i++;
	return i;
}

/* What funnel() adds beside its calls: each test, a bra.uni per
 * tested candidate, the branch over a guarded call's funnel; less the
 * vtable slot's read, which a funnel on the vtable pointer drops. */
static int funnel_size(const Icall *st)
{
	uint32_t nbr = st->open ? st->ncands : st->ncands - 1, ntests = st->vptr ? 0 : nbr;
	for (uint32_t j = 0; st->vptr && j < st->npoints; j++)
		ntests += cand_index(st, st->points[j].entry) < nbr;
	return TEST_INS * (int)ntests + (int)nbr + (st->call->ins.guard != NULL) - (st->load != NULL);
}

/* ---- would the inliner take every arm --------------------------------- */

/* What devirt asks of inlining for one run: the module's facts
 * (inlinable.c) and, for the function whose funnels it settles, the
 * caller's: its names, size and depot, its objects (inlinable.h's
 * CallerFacts), its direct calls of each function.  The callees are as
 * they are before any inlining (the inliner inlines into them first),
 * and so is the caller (no funnel is made before every one is settled). */
typedef struct Ask {
	Dv *d;
	Inlinable *inl;
	int weighed;                 /* not --inline=always: the cost model is asked */
	CallerFacts cf;
	Names names;                 /* what the caller and the module declare */
	uint32_t size;               /* the caller's instructions */
	uint32_t *direct;            /* per call-graph function: the caller's direct calls of it */
} Ask;

/* A direct call at the indirect one to a candidate (asked), or the
 * indirect call itself kept beside them (an open funnel's fallback),
 * which no copy can replace: its plan, and the inliner's answer. */
typedef struct Arm {
	const CgFunc *g;
	int asked;
	uint32_t copies;             /* the caller's calls of g, this funnel's and the others' in */
	Group *groups;
	uint32_t ngroups;
	int why, cost;
} Arm;

static void ask_caller(Ask *a, Df *df)
{
	a->cf = (CallerFacts){.f = df->f};
	names_in_module(&a->names, inlinable_names(a->inl), df->f);
	a->size = body_size(&df->f->body);
	a->direct = xcalloc(cg_count(a->d->cg) + 1, sizeof *a->direct);
	BodyIt it;
	CallParts c;
	const CgFunc *g;
	for (const Stmt *s = body_first(&df->f->body, &it); s; s = body_next(&it))
		if (stmt_is_call(s) && ins_call_parts(&s->ins, &c) && (g = cg_find(a->d->cg, c.callee->str)))
			a->direct[cg_index_of(a->d->cg, g)]++;
}

static void ask_caller_done(Ask *a)
{
	caller_facts_free(&a->cf);
	names_free(&a->names);
	free(a->direct);
}

/* Can the call take a copy of the arm's callee: its parameters and
 * depot, checked in the callee as it stands. */
static int arm_fits(Ask *a, CallParams *ps, const Icall *st, Arm *r)
{
	CallParts cp;
	if (!ins_call_parts(&st->call->ins, &cp) || (cp.proto && !r->asked))
		return INL_FORM;
	const Func *callee = r->g->def;
	int why = call_groups(ps, &cp, callee, &r->groups, &r->ngroups);
	if (why >= 0)
		return why;
	why = callee_slots(ps, r->groups, r->ngroups, callee);
	Stmt *depot = NULL, *mov = NULL;
	if (why < 0)
		why = inlinable_depot(&callee->body, &depot, &mov);
	if (why < 0 && (!caller_depot(&a->cf) || !caller_depot_fits(&a->cf, &a->names, &callee->body, mov)))
		why = INL_DEPOT;
	return why;
}

/* The cost model's facts for the arm's copies, copies of them. */
static CostFacts arm_facts(Ask *a, const CallParams *ps, const Icall *st, const Arm *r, uint32_t copies)
{
	CostFacts f = caller_cost_facts(&a->cf, a->inl, st->call, st->list, r->g, copies,
		inlinable_calls(a->inl, r->g));
	f.overhead = call_overhead(ps, r->groups, r->ngroups);
	return f;
}

/* The inliner's answer for one arm, in its order: the sizes, the
 * callee, the growth budget (grown: what the arms before took), the
 * copy, the cost model. */
static int arm_why(Ask *a, CallParams *ps, const Icall *st, Arm *r, uint64_t *grown)
{
	int why = inlinable_oversize(a->size, r->g) ? INL_LARGE :
		inlinable_why(a->inl, r->g, caller_shadowed(&a->cf));
	uint64_t charge = why < 0 ? inlinable_charge(a->inl, r->g, (int)inlinable_calls(a->inl, r->g)) : 0;
	if (why < 0 && *grown + charge > inlinable_budget(a->inl))
		why = INL_GROWTH;
	if (why < 0)
		why = arm_fits(a, ps, st, r);
	if (why < 0 && a->weighed) {
		CostFacts f = arm_facts(a, ps, st, r, r->copies);
		r->cost = cost_weigh(&f);
		if (r->cost > a->d->o->inlining.threshold)
			why = INL_COST;
	}
	if (why < 0)
		*grown += charge;
	return why;
}

static int is_call(const void *call, const Stmt *s)
{
	return s == call;
}

/* Every arm goes in, or none does: they share the call's .params. */
static void arms_why(Ask *a, CallParams *ps, const Icall *st, Arm *r, uint32_t m)
{
	uint64_t grown = 0;
	int all = -1;
	for (uint32_t i = 0; i < m; i++) {
		r[i].why = arm_why(a, ps, st, &r[i], &grown);
		if (r[i].why >= 0)
			all = INL_BUNDLE;
	}
	SlotWalk w = {.ctx = st->call, .skip = is_call, .types = &a->names};
	if (all < 0)
		all = caller_slots(ps, &w);
	for (uint32_t i = 0; all >= 0 && i < m; i++)
		if (r[i].why < 0)
			r[i].why = all;
}

/* Would the inliner take a direct call at st to each candidate, the
 * caller then calling candidate k more[k] times more than it does now?
 * -1 when it would take every one, with each one's copy weighed at this
 * one call (arm, when weighed) and that call's own sequence; else the
 * first it would not (refused for its own reason, else for another's),
 * with why. */
static int ask_arms(Ask *a, const Icall *st, const uint32_t *more, int *arm, int *call, char *why,
	size_t nwhy)
{
	uint32_t n = st->ncands, m = n + (st->open != 0), k = 0;
	Arm r[MAX_CAND + 1];
	CallParams ps = {.list = st->list};
	for (uint32_t i = 0; i < m; i++) {
		const CgFunc *g = cg_find(a->d->cg, st->cands[i < n ? i : 0]);
		if (!g)
			die("devirt: asked about %s, which the call graph does not hold", st->cands[i < n ? i : 0]);
		r[i] = (Arm){.g = g, .asked = i < n, .copies = a->direct[cg_index_of(a->d->cg, g)] + (i < n ? more[i] : 0)};
	}
	arms_why(a, &ps, st, r, m);
	while (k < n && (r[k].why < 0 || r[k].why == INL_BUNDLE))
		k++;
	if (k == n)
		for (k = 0; k < n && r[k].why < 0; k++)
			;
	for (uint32_t i = 0; k == n && a->weighed && i < n; i++) {
		CostFacts f = arm_facts(a, &ps, st, &r[i], 1);
		arm[i] = cost_weigh(&f);
		*call = i ? *call : f.overhead;
	}
	if (k < n && r[k].why == INL_COST)
		snprintf(why, nwhy, "cost %d over threshold %d", r[k].cost, a->d->o->inlining.threshold);
	else if (k < n)
		snprintf(why, nwhy, "%s", inlinable_text(r[k].why));
	for (uint32_t i = 0; i < m; i++)
		free(r[i].groups);
	params_free(&ps);
	return k < n ? (int)k : -1;
}

/* Every arm inlined is not enough: the funnel as a whole is weighed
 * by the cost model's funnel rule (cost.c: cost_funnel_worth), from each
 * arm's cost at this call (arm) and the call's sequence. */
static int funnel_not_worth(const Ask *a, const Icall *st, const int *arm, int call, uint32_t copies,
	char *why, size_t n)
{
	int g, threshold = a->d->o->inlining.threshold;
	FunnelFacts f = {.weighed = a->weighed, .open = st->open, .tests = funnel_size(st),
		.call = a->weighed ? call : 0, .narms = st->ncands, .arm = arm, .threshold = threshold,
		.copies = (int)copies};
	if (cost_funnel_worth(&f, &g))
		return 0;
	if (copies > 1)
		snprintf(why, n, "adds %d over the %u calls to the same targets, more than the inline threshold %d",
			g, copies, threshold);
	else
		snprintf(why, n, "adds %d over the one call, more than the inline threshold %d", g, threshold);
	return 1;
}

static int is_funnel(const Icall *st)
{
	return st->why < 0 && st->how == HOW_FUNNEL;
}

/* arms[f]: how many of the function's funnels would call f (0 again
 * after). */
static void count_arms(Dv *d, const Df *df, uint32_t *arms, int add)
{
	for (uint32_t j = 0; j < df->nsites; j++)
		for (uint32_t k = 0; is_funnel(&df->sites[j]) && k < df->sites[j].ncands; k++) {
			uint32_t f = cg_index_of(d->cg, cg_find(d->cg, df->sites[j].cands[k]));
			arms[f] = add ? arms[f] + 1 : 0;
		}
}

/* A function's funnels by their candidates (interned, so one list is
 * one key): how many go to each list, as the inliner counts a callee's
 * calls. */
typedef struct SameArms {
	UT_hash_handle hh;
	uint32_t n;
} SameArms;

static SameArms *same_arms(Arena *ar, SameArms **table, const Icall *st)
{
	SameArms *e;
	size_t len = st->ncands * sizeof *st->cands;
	HASH_FIND(hh, *table, st->cands, len, e);
	if (!e) {
		e = arena_alloc(ar, sizeof *e);
		HASH_ADD_KEYPTR(hh, *table, st->cands, len, e);
	}
	return e;
}

static void count_same_arms(Arena *ar, SameArms **table, const Df *df)
{
	for (uint32_t j = 0; j < df->nsites; j++)
		if (is_funnel(&df->sites[j]))
			same_arms(ar, table, &df->sites[j])->n++;
}

static void settle_arms(Ask *a, Df *df, uint32_t *arms)
{
	Dv *d = a->d;
	Arena *ar = arena_new();
	SameArms *same = NULL;
	ask_caller(a, df);
	count_arms(d, df, arms, 1);
	count_same_arms(ar, &same, df);
	for (uint32_t j = 0; j < df->nsites; j++) {
		Icall *st = &df->sites[j];
		if (!is_funnel(st))
			continue;
		uint32_t more[MAX_CAND], at[MAX_CAND];
		for (uint32_t k = 0; k < st->ncands; k++) {
			at[k] = cg_index_of(d->cg, cg_find(d->cg, st->cands[k]));
			more[k] = arms[at[k]];
		}
		char why[128];
		int arm[MAX_CAND], call = 0;
		int r = ask_arms(a, st, more, arm, &call, why, sizeof why);
		if (r < 0 && !funnel_not_worth(a, st, arm, call, same_arms(ar, &same, st)->n, why, sizeof why))
			continue;
		for (uint32_t k = 0; k < st->ncands; k++)
			arms[at[k]]--;
		keep_pointer(st, r < 0 ? NULL : st->cands[r], why);
	}
	count_arms(d, df, arms, 0);   /* a call kept its pointer: its arms were taken off */
	HASH_CLEAR(hh, same);
	arena_free(ar);
	ask_caller_done(a);
}

/* With --inline=never (no arm is inlined) every arm stays a call, and
 * yet funnels measured smaller than lists (docs/stages.md): funnels. */
static void settle_arms_all(Dv *d, Df *fns, uint32_t nfns)
{
	int mode = d->o->inlining.mode ? d->o->inlining.mode : INLINE_MODE_DEFAULT;
	if (mode == INLINE_NEVER)
		return;
	Ask a = {.d = d, .inl = inlinable_open(d->m, d->o, d->cg), .weighed = mode != INLINE_ALWAYS};
	uint32_t *arms = xcalloc(cg_count(d->cg) + 1, sizeof *arms);
	for (uint32_t i = 0; i < nfns; i++)
		settle_arms(&a, &fns[i], arms);
	free(arms);
	inlinable_close(a.inl);
}

/* all: fns holds every function with sites.  Where funnels everywhere
 * clear the vtables, that is worth more than the arms (raytrace). */
static void settle_all(Dv *d, Df *fns, uint32_t nfns, int all)
{
	int prune = all && !d->open_world && pointer_free(fns, nfns);
	uint8_t *cyclic = cyclic_cands(d, fns, nfns);
	for (uint32_t i = 0; i < nfns; i++)
		for (uint32_t j = 0; j < fns[i].nsites; j++)
			settle(d, &fns[i].sites[j], cyclic, prune);
	free(cyclic);
	if (!prune)
		settle_arms_all(d, fns, nfns);
}

/* ---- rewriting -------------------------------------------------------- */

/* The call with f as callee and no prototype. */
static Stmt *direct(Dv *d, const Icall *st, const char *f)
{
	const Ins *in = &st->call->ins;
	Expr *ops[8];
	uint32_t n = 0;
	for (uint32_t i = 0; i + 1 < in->nops && n < 8; i++)
		ops[n++] = i == st->callee ? name_expr(f) : in->ops[i];
	Stmt *s = ins_new(d->m, st->call->loc, in->sp->text, ops, n);
	s->ins.guard = in->guard;
	s->ins.guard_neg = in->guard_neg;
	return s;
}

static Stmt *label(Dv *d, Loc loc, const char *name)
{
	Stmt *s = stmt_new(d->m, S_LABEL, loc);
	s->label = name;
	return s;
}

static Stmt *ins2(Dv *d, Loc loc, const char *sp, Expr *a, Expr *b, Expr *c, const char *guard)
{
	Expr *ops[3] = {a, b, c};
	Stmt *s = ins_new(d->m, loc, sp, ops, c ? 3 : b ? 2 : 1);
	s->ins.guard = guard;
	return s;
}

static const char *labelname(Df *df, unsigned k, const char *what)
{
	char buf[64];
	snprintf(buf, sizeof buf, "$Ldevirt_%u_%s", k, what);
	return names_fresh(&df->names, buf);
}

/* Before the call: branch to lab when ptr equals key, a function (mov)
 * or a .global table's address point (cvta: its generic address). */
static void test(Df *df, List *l, Stmt *at, Expr *key, const Expr *ptr, const char *lab)
{
	Dv *d = df->d;
	Loc loc = at->loc;
	int fn = key->kind == E_NAME && cg_find(d->cg, key->str);
	const char *get = fn ? (d->addr32 ? "mov.u32" : "mov.u64") :
		(d->addr32 ? "cvta.global.u32" : "cvta.global.u64");
	const char *cmp = d->addr32 ? "setp.eq.s32" : "setp.eq.s64";
	list_insert_before(l, at, ins2(d, loc, get, name_expr(df->areg), key, NULL, NULL));
	list_insert_before(l, at, ins2(d, loc, cmp, name_expr(df->preg), (Expr *)ptr,
		name_expr(df->areg), NULL));
	list_insert_before(l, at, ins2(d, loc, "bra", name_expr(lab), NULL, NULL, df->preg));
}

/* s before `before`, or at the end of l when that is NULL. */
static void put(List *l, Stmt *before, Stmt *s)
{
	if (before)
		list_insert_before(l, before, s);
	else
		list_append(l, s);
}

/* Before the call: candidate i's test, a branch to lab[i], for i < nbr. */
static void tests(Df *df, const Icall *st, const char *const *lab, uint32_t nbr)
{
	Stmt *at = st->call;
	for (uint32_t i = 0; !st->vptr && i < nbr; i++)
		test(df, st->list, at, name_expr(st->cands[i]), at->ins.ops[st->callee], lab[i]);
	for (uint32_t j = 0; st->vptr && j < st->npoints; j++) {
		const FlowPoint *pt = &st->points[j];
		uint32_t i = cand_index(st, pt->entry);
		if (i == st->ncands || st->open)  /* by_vtable() made sure */
			die("devirt: a vtable funnel's address point holds no candidate");
		if (i < nbr)  /* the last candidate's points fall through */
			test(df, st->list, at, expr_addr(df->d->m, name_expr(pt->table), pt->off)->kids[0],
				st->vptr, lab[i]);
	}
}

/* A branch funnel replaces the call only, inside its scope, so that its
 * .param stores serve every direct call.  Closed, with candidates f, g
 * and h (the last, the fall-through):
 *
 *   call (r), %rd9, (a), proto;     mov.u64 %devirt_a, f;
 *                                   setp.eq.s64 %devirt_p, %rd9, %devirt_a;
 *                                   @%devirt_p bra $Ldevirt_0_0;
 *                                   mov.u64 %devirt_a, g;
 *                                   setp.eq.s64 %devirt_p, %rd9, %devirt_a;
 *                                   @%devirt_p bra $Ldevirt_0_1;
 *                                   call (r), h, (a);
 *                                   bra.uni $Ldevirt_0_join;
 *                               $Ldevirt_0_0:
 *                                   call (r), f, (a);
 *                                   bra.uni $Ldevirt_0_join;
 *                               $Ldevirt_0_1:
 *                                   call (r), g, (a);
 *                               $Ldevirt_0_join:
 *
 * Open, h is tested too and the fall-through is the call itself, after a
 * label `$Ldevirt_0_open:` that tells a second run it is done.  On the
 * vtable pointer (st->vptr, closed only) each address point is a test,
 * `cvta.global.u64 %devirt_a, _ZTV1A+16;` compared with the vtable
 * pointer, and those of h fall through.  `@p call`: `@!p bra
 * $Ldevirt_0_join;` first, and the calls lose the guard. */
static void funnel(Df *df, Icall *st)
{
	Dv *d = df->d;
	List *l = st->list;
	Stmt *at = st->call, *after = at->next;
	Loc loc = at->loc;
	unsigned k = df->serial++;
	uint32_t nbr = st->open ? st->ncands : st->ncands - 1;  /* candidates with a test */
	const char *lab[MAX_CAND];
	if (!df->preg) {
		df->preg = names_fresh(&df->names, "%devirt_p");
		df->areg = names_fresh(&df->names, "%devirt_a");
	}
	const char *join = labelname(df, k, "join");
	if (at->ins.guard) {  /* @p call: the whole funnel runs under p */
		Stmt *skip = ins2(d, loc, "bra", name_expr(join), NULL, NULL, at->ins.guard);
		skip->ins.guard_neg = !at->ins.guard_neg;
		list_insert_before(l, at, skip);
		at->ins.guard = NULL;
		at->ins.guard_neg = 0;
	}
	for (uint32_t i = 0; i < nbr; i++) {
		char what[16];
		snprintf(what, sizeof what, "%u", i);
		lab[i] = labelname(df, k, what);
	}
	tests(df, st, lab, nbr);
	if (st->open) {
		list_insert_before(l, at, label(d, loc, labelname(df, k, "open")));
	} else {
		list_insert_before(l, at, direct(d, st, st->cands[st->ncands - 1]));
		list_remove(l, at);
	}
	put(l, after, ins2(d, loc, "bra.uni", name_expr(join), NULL, NULL, NULL));
	for (uint32_t i = 0; i < nbr; i++) {
		put(l, after, label(d, loc, lab[i]));
		put(l, after, direct(d, st, st->cands[i]));
		if (i + 1 < nbr)
			put(l, after, ins2(d, loc, "bra.uni", name_expr(join), NULL, NULL, NULL));
	}
	put(l, after, label(d, loc, join));
}

/* The call keeps its pointer but names its possible callees, PTX's flist
 * form, so ptxas need not assume any function:
 *   $Ldevirt_K_targets: .calltargets f, g, ...;
 *   call (r), %rd9, (args), $Ldevirt_K_targets;   */
static void calltargets(Df *df, Icall *st)
{
	Dv *d = df->d;
	Ins *in = &st->call->ins;
	Stmt *t = stmt_new(d->m, S_TARGETS, st->call->loc);
	/* the list is what the pointer may hold, not one per code: a callee
	 * it does not name is undefined in PTX, however alike */
	const char *const *names = st->nall ? st->all : st->cands;
	uint32_t n = st->nall ? st->nall : st->ncands;
	t->list.label = labelname(df, df->serial++, "targets");
	t->list.word = intern_cstr(".calltargets");
	t->list.items = arena_alloc(d->m->arena, n * sizeof *t->list.items);
	for (uint32_t i = 0; i < n; i++)
		t->list.items[i] = name_expr(names[i]);
	t->list.nitems = n;
	list_insert_before(st->list, st->call, t);
	Expr **ops = arena_dup(d->m->arena, in->ops, in->nops * sizeof *ops);
	ops[in->nops - 1] = name_expr(t->list.label);
	in->ops = ops;
}

/* The rewritten sites' prototypes (drop) that code still names (kept),
 * found in one walk of the body after every site's rewrite: a rewrite
 * takes away its own call's mention only, so a prototype no call names
 * then was named by none once its last site was rewritten. */
typedef struct Protos {
	Names drop, kept;
} Protos;

static int proto_leaf(void *ctx, Expr **slot)
{
	Protos *p = ctx;
	if ((*slot)->kind == E_NAME && names_exact(&p->drop, (*slot)->str))
		names_add(&p->kept, (*slot)->str, NULL);
	return 0;
}

static void proto_uses(Protos *p, List *l)
{
	BodyIt it;
	for (Stmt *s = body_first(l, &it); s; s = body_next(&it))
		if (s->kind == S_INS)
			for (uint32_t i = 0; i < s->ins.nops; i++)
				expr_leaves(&s->ins.ops[i], proto_leaf, p);
		else if (s->kind == S_VAR && s->var.nds && s->var.ds[0].init)
			expr_leaves(&s->var.ds[0].init, proto_leaf, p);
}

/* The first prototype of each unused name goes (then it counts as kept). */
static void drop_protos(Protos *p, List *l)
{
	BodyIt it;
	for (Stmt *s = body_first(l, &it); s; s = body_next(&it))
		if (s->kind == S_PROTO && names_exact(&p->drop, s->proto->label) &&
		    !names_exact(&p->kept, s->proto->label)) {
			names_add(&p->kept, s->proto->label, NULL);
			list_remove(it.in, s);
		}
}

static void drop_unused_protos(Df *df)
{
	Protos p = {{0}, {0}};
	for (uint32_t i = 0; i < df->nsites; i++)
		if (df->sites[i].proto)
			names_add(&p.drop, df->sites[i].proto, NULL);
	if (p.drop.exact) {
		proto_uses(&p, &df->f->body);
		drop_protos(&p, &df->f->body);
	}
	names_free(&p.drop);
	names_free(&p.kept);
}

/* ---- remarks ---------------------------------------------------------- */

/* Why a funnel or a .calltargets list: ": " and the reason, or "". */
static void rule_text(const Icall *st, char *buf, size_t n)
{
	switch (st->rule) {
	case RULE_NARROW:
		snprintf(buf, n, ": %u targets, none recursive", st->ncands);
		break;
	case RULE_RECURSIVE:
		snprintf(buf, n, ": %s is recursive, a funnel's call to it no cheaper",
			quoted_name(st->back));
		break;
	case RULE_PRUNE:
		snprintf(buf, n, ": %s is recursive, but with no call left through a "
			"pointer the vtables are cleared", quoted_name(st->back));
		break;
	case RULE_MAX:
		snprintf(buf, n, ": %u targets, more than --devirt-funnel-max", st->ncands);
		break;
	case RULE_ARMS:
		snprintf(buf, n, ": a funnel's call to %s would not be inlined (%s)",
			quoted_name(st->back), st->refusal);
		break;
	case RULE_WHOLE:
		snprintf(buf, n, ": a funnel of the inlined arms %s", st->refusal);
		break;
	default:
		*buf = 0;
	}
}

/* The remark names the source line (.loc) beside the PTX one. */
static void remark(const Df *df, const Icall *st)
{
	if (!df->d->o->devirt.remarks)
		return;
	const char *at = srclines_prefix(df->src, st->call->loc);
	if (st->why == WHY_ARMS) {
		diag_remark(st->call->loc, "%scall left indirect: %s (%s: %s)", at, why_text[st->why],
			quoted_name(st->back), st->refusal);
		return;
	}
	if (st->why >= 0) {
		diag_remark(st->call->loc, "%scall left indirect: %s", at, why_text[st->why]);
		return;
	}
	size_t n = 1;
	for (uint32_t i = 0; i < st->ncands; i++)
		n += intern_len(quoted_name(st->cands[i])) + 2;
	char *names = xmalloc(n), *p = names;
	*p = 0;
	for (uint32_t i = 0; i < st->ncands; i++)
		p += sprintf(p, "%s%s", i ? ", " : "", quoted_name(st->cands[i]));
	char why[1024], same[64] = "";
	rule_text(st, why, sizeof why);
	if (st->nsame)
		snprintf(same, sizeof same, "; %u more of the same code", st->nsame);
	diag_remark(st->call->loc, "%sdevirtualized call to %s (%s%s%s)", at, names,
		st->how == HOW_FUNNEL && st->open ? "funnel, open" : how_text[st->how], why, same);
	free(names);
}

/* ---- driver ----------------------------------------------------------- */

/* ptxas wants a function declared before a mov or call names it: when a
 * candidate's first declaration follows fs, a copy of its header goes
 * before fs. */
static void declare_before(Dv *d, Stmt *fs, const char *name)
{
	for (const Stmt *s = d->m->items.head; s && s != fs; s = s->next)
		if (s->kind == S_FUNC && s->func->name == name)
			return;
	const Func *def = func_named(d, name);
	if (def)
		func_declare_before(d->m, def, fs);
}

static void hoist_var(Dv *d, Stmt *at, const char *name, int depth);

typedef struct Hoist {
	Dv *d;
	Stmt *at;
	int depth;
} Hoist;

static int hoist_leaf(void *ctx, Expr **slot)
{
	Hoist *h = ctx;
	const char *name = (*slot)->str;
	if ((*slot)->kind != E_NAME)
		return 0;
	if (cg_find(h->d->cg, name))
		declare_before(h->d, h->at, name);
	else
		hoist_var(h->d, h->at, name, h->depth + 1);
	return 0;
}

/* expr_leaves: a chain a+b+c+... is as deep as it is long */
static void hoist_refs(Dv *d, Stmt *at, const Expr *e, int depth)
{
	Hoist h = {d, at, depth};
	expr_leaves((Expr **)&e, hoist_leaf, &h);
}

/* A funnel names a vtable: its definition must come before `at`, and
 * before it what its initializer names. */
static void hoist_var(Dv *d, Stmt *at, const char *name, int depth)
{
	Stmt *s = d->m->items.head;
	for (; s && s != at; s = s->next)
		if (s->kind == S_VAR && s->var.ds[0].name == name)
			return;
	for (; s && !(s->kind == S_VAR && s->var.ds[0].name == name); s = s->next)
		;
	if (!s || depth > 8)
		return;
	list_remove(&d->m->items, s);
	list_insert_before(&d->m->items, at, s);
	for (uint32_t i = 0; i < s->var.nds; i++)
		if (s->var.ds[i].init)
			hoist_refs(d, s, s->var.ds[i].init, depth);
}

/* choose() for every site, on the function's CFG, liveness and reaching
 * definitions; 0 when it has no CFG. */
static int choose_all(Df *df)
{
	Cfg *cfg = cfg_build(df->f);
	if (!cfg)
		return 0;
	Live *live = live_compute(cfg);
	Defs *defs = defs_compute(cfg, live);
	/* sites and CFG instructions are both in text order */
	for (uint32_t i = 0, k = 0; i < df->nsites; i++) {
		while (k < cfg->nins && cfg->ins[k] != df->sites[i].call)
			k++;
		df->sites[i].ins = k < cfg->nins ? k : UINT32_MAX;
	}
	Tracker exact = {NULL, cfg, live, defs};
	for (uint32_t i = 0; i < df->nsites; i++)
		choose(df, &df->sites[i], &exact);
	defs_free(defs);
	live_free(live);
	cfg_free(cfg);
	return 1;
}

/* The rewrite choose() picked, then what the new calls need: what they
 * name declared before the function. */
static void rewrite_site(Df *df, Icall *st)
{
	Dv *d = df->d;
	if (st->why >= 0) {
		d->st.left[st->why]++;
		remark(df, st);
		return;
	}
	const Ins *in = &st->call->ins;
	st->proto = in->ops[in->nops - 1]->str;  /* before calltargets() replaces it */
	switch (st->how) {
	case HOW_SINGLE:
		d->st.single++;
		list_insert_before(st->list, st->call, direct(d, st, st->cands[0]));
		list_remove(st->list, st->call);
		break;
	case HOW_UNIFORM:
		d->st.uniform++;
		fold_uniform(d, st, 1);
		break;
	case HOW_FUNNEL:
		d->st.funnel++;
		d->st.open_funnel += st->open;
		funnel(df, st);
		break;
	case HOW_TARGETS:
		d->st.targets++;
		calltargets(df, st);
		break;
	}
	Place *load = st->load ? place_of(&df->places, st->load) : NULL;
	if (load)
		place_remove(load);
	for (uint32_t k = 0; st->vptr && k < st->npoints; k++)
		hoist_var(d, df->fs, st->points[k].table, 0);
	remark(df, st);
	for (uint32_t k = 0; k < st->ncands; k++)
		declare_before(d, df->fs, st->cands[k]);
	for (uint32_t k = 0; st->how == HOW_TARGETS && k < st->nall; k++)
		declare_before(d, df->fs, st->all[k]);   /* the list names them all */
}

/* The funnels' two registers, declared first in the body. */
static void declare_regs(Df *df)
{
	Dv *d = df->d;
	List *body = &df->f->body;
	Stmt *first = body->head;
	Loc loc = first ? first->loc : (Loc){0};
	put(body, first, var_new(d->m, loc, ".reg .pred", df->preg));
	put(body, first, var_new(d->m, loc, d->addr32 ? ".reg .b32" : ".reg .b64", df->areg));
}

/* Sites first: a function without one costs no analysis.  0 when there
 * is nothing to rewrite. */
static int choose_func(Df *df)
{
	find_sites(df, &df->f->body);
	if (!df->nsites)
		return 0;
	index_labels(df, &df->f->body);
	int ok = choose_all(df);
	free_labels(df);
	return ok;
}

static void rewrite_func(Df *df)
{
	Dv *d = df->d;
	df->src = d->o->devirt.remarks ? srclines_build(d->m, df->f) : NULL;
	names_in_module(&df->names, &d->module, df->f);  /* for the funnels' fresh names */
	places_of(&df->places, &df->f->body);
	for (uint32_t i = 0; i < df->nsites; i++)
		rewrite_site(df, &df->sites[i]);
	drop_unused_protos(df);
	if (df->preg)
		declare_regs(df);
}

static void free_func(Df *df)
{
	free(df->sites);
	srclines_free(df->src);
	names_free(&df->names);
	places_free(&df->places);
}

/* Every function's sites chosen first, then the rule that needs them all
 * (settle: whether a target is recursive, whether any call is left
 * through a pointer), then the rewrites. */
static void devirt_funcs(Dv *d)
{
	uint32_t n = 0, cap = 0;
	Df *fns = NULL;
	int stuck = 0;
	for (Stmt *s = d->m->items.head; s; s = s->next) {
		if (s->kind != S_FUNC || !s->func->has_body)
			continue;
		Df df = {.d = d, .fs = s, .f = s->func};
		if (choose_func(&df)) {
			fns = array_grow(fns, n, &cap, sizeof *fns);
			fns[n++] = df;
		} else {
			stuck |= df.nsites > 0;  /* sites left as they are */
			free_func(&df);
		}
	}
	settle_all(d, fns, n, !stuck);
	for (uint32_t i = 0; i < n; i++) {
		rewrite_func(&fns[i]);
		free_func(&fns[i]);
	}
	free(fns);
}

/* ---- vtables whose entries nothing reads any more ---------------------- */

static int is_func_leaf(void *ctx, Expr **slot)
{
	Dv *d = ctx;
	return (*slot)->kind == E_NAME && cg_find(d->cg, (*slot)->str) != NULL;
}

/* expr_leaves: a chain a+b+c+... is as deep as it is long */
static int mentions_func(Dv *d, const Expr *e)
{
	return expr_leaves((Expr **)&e, is_func_leaf, d);
}

/* Does code still call through a pointer, or take a function's address? */
static int stmt_uses_pointers(Dv *d, const Stmt *s)
{
	if (s->kind == S_TARGETS)
		return 1;
	if (s->kind != S_INS)
		return 0;
	const Ins *in = &s->ins;
	CallParts c;
	int call = stmt_is_call(s);
	ins_call_parts(in, &c);
	if (call && (!c.callee || !cg_find(d->cg, c.callee->str)))
		return 1;
	for (uint32_t k = call ? c.callee_index + 1 : 0; k < in->nops; k++)
		if (mentions_func(d, in->ops[k]))
			return 1;
	return 0;
}

static int code_uses_pointers(Dv *d, const List *l)
{
	BodyIt it;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it))
		if (stmt_uses_pointers(d, s)) {
			body_end(&it);
			return 1;
		}
	return 0;
}

/* The initializer with every function address replaced by 0. */
static Expr *without_funcs(Dv *d, Expr *e, unsigned *n)
{
	if (e->kind == E_BRACE) {
		Expr **kids = arena_alloc(d->m->arena, e->n * sizeof *kids);
		for (uint32_t i = 0; i < e->n; i++)
			kids[i] = without_funcs(d, e->kids[i], n);
		return expr_list(d->m, E_BRACE, kids, e->n);
	}
	if (!mentions_func(d, e))
		return e;
	++*n;
	return num_expr(intern_cstr("0"));
}

/* Once no call goes through a pointer and code takes no function's
 * address, a C++ vtable's function entries are never read again (the
 * language reads a slot only to call it).  Clearing them frees ptxas from
 * keeping every virtual function as an address-taken, full-ABI function. */
static void prune_vtables(Dv *d)
{
	if (d->open_world)
		return;
	for (const Stmt *s = d->m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body && code_uses_pointers(d, &s->func->body))
			return;
	for (Stmt *s = d->m->items.head; s; s = s->next)
		for (uint32_t i = 0; s->kind == S_VAR && i < s->var.nds; i++) {
			Declarator *v = &s->var.ds[i];
			if (v->init && !strncmp(v->name, "_ZTV", 4) && mentions_func(d, v->init))
				v->init = without_funcs(d, v->init, &d->st.pruned);
		}
}

static void print_stats(const Stats *s)
{
	diag_note("devirt: %u indirect call sites", s->seen);
	diag_note("devirt:   %u devirtualized: %u single, %u funnel (%u keep an indirect fallback), %u uniform, %u calltargets",
		s->single + s->funnel + s->uniform + s->targets, s->single, s->funnel, s->open_funnel,
		s->uniform, s->targets);
	unsigned left = 0;
	for (int i = 0; i < NWHY; i++)
		left += s->left[i];
	diag_note("devirt:   %u left indirect", left);
	for (int i = 0; i < NWHY; i++)
		if (s->left[i])
			diag_note("devirt:     %u: %s", s->left[i], why_text[i]);
	if (s->same)
		diag_note("devirt: %u candidates of the same code as another: one arm for them", s->same);
	if (s->pruned)
		diag_note("devirt: %u vtable entries no longer read: cleared", s->pruned);
}

void devirt(Module *m, const StageOptions *o)
{
	if (o->devirt.off)
		return;
	if (o->devirt.funnel_max < 1)  /* its default is the caller's */
		die("devirt: no --devirt-funnel-max (%d)", o->devirt.funnel_max);
	Dv d = {.m = m, .o = o, .open_world = !o->world.closed};
	d.syms = symtab_build(m);
	d.cg = callgraph_build(m, d.syms);
	uint32_t indirect = 0;
	for (uint32_t i = 0; i < cg_count(d.cg); i++)
		indirect += cg_func(d.cg, i)->nindirect;
	if (!indirect) {  /* nothing to do: spare the module-wide analyses */
		if (o->stats)
			print_stats(&d.st);
		callgraph_free(d.cg);
		symtab_free(d.syms);
		return;
	}
	d.flow = flow_build(m, d.syms);
	find_undef(&d);
	d.addr32 = pointer_bytes(m) == 4;
	d.dwarf = mod_has_dwarf(m);
	d.code = xcalloc(cg_count(d.cg) + 1, sizeof *d.code);
	d.code_hash = xcalloc(cg_count(d.cg) + 1, sizeof *d.code_hash);
	names_of_module(&d.module, m);
	devirt_funcs(&d);
	prune_vtables(&d);
	if (o->stats)
		print_stats(&d.st);
	names_free(&d.module);
	free(d.undef);
	free(d.code);
	free(d.code_hash);
	flow_free(d.flow);
	callgraph_free(d.cg);
	symtab_free(d.syms);
}
