/* inlinable.c: what inlining a call depends on that is about the module
 * and the callee as it stands, answered once per callee for every stage
 * that asks (inlinable.h): the inliner, and devirtualization before it
 * makes an indirect call a funnel of direct ones. */
#include <stdlib.h>
#include <string.h>
#include "inlinable.h"

static const char *const why_text[NINL] = {
	"the callee is recursive (on a call cycle)",
	"the callee is not defined in the module",
	"the callee is a kernel",
	"the callee is .weak and the world is open (another definition may win)",
	"the module has -G DWARF, which describes the callee as a frame of its own",
	"a call form not understood",
	"an argument or result is not a .param declared beside the call, or the counts differ",
	"a parameter is used other than by ld.param/st.param at a constant offset",
	"a parameter is accessed in overlapping pieces of different sizes",
	"the callee declares .shared, .global or .const data",
	"the callee has a .pragma other than nounroll and used_bytes_mask",
	"a nested scope of the caller declares again a name its function declares",
	"a depot whose address is formed other than by one mov, or a caller that steps its own",
	"another call passed the same .param (a devirtualized funnel's) is not inlined",
	"the cost model says no",
	"the caller or the callee is already large (over 5000 instructions: CALLER_MAX)",
	"the module's growth budget is spent (--inline-growth)",
};

const char *inlinable_text(int why)
{
	return why_text[why];
}

/* Each cache is filled the first time it is asked, and then its KNOWN_*
 * bit set in the struct's known. */
enum {
	KNOWN_NAMES = 1,             /* Inlinable.names */
	KNOWN_LOOPS = 2,             /* Facts.loop_ins */
	KNOWN_HELD = 4,              /* Facts.held made; each element's own KNOWN_HELD once asked */
};

/* A call-graph function's, as a callee: Inlinable.callee[cg_index_of()]. */
typedef struct Facts {
	unsigned known;
	int loop_ins;                /* its instructions on a loop holding no call */
	uint8_t *held;               /* per parameter: inlinable_held() */
	int32_t *held_bytes;         /* per parameter held: the bytes it reaches */
	int32_t *indexed;            /* per parameter neither held nor kept: its loads at run-time offsets */
	uint32_t ncalls;             /* its direct calls at inlinable_open() from functions
	                                that may run (inlinable_runs) */
	uint8_t runs;                /* inlinable_runs() */
} Facts;

struct Inlinable {
	Module *m;
	const StageOptions *o;
	const CallGraph *cg;
	Arena *arena;
	unsigned known;
	int dwarf;                   /* -G: a .debug_info section */
	Names names;                 /* the module's symbols */
	Facts *callee;               /* per call-graph function */
	uint64_t size, budget;       /* the module's instructions at inlinable_open(), and --inline-growth's share */
};

/* A call in f counts unless f never runs (a call is not a function's when
 * f is NULL). */
static int caller_runs(const Inlinable *in, const Func *f)
{
	const CgFunc *c = f ? cg_find(in->cg, f->name) : NULL;
	return !c || in->callee[cg_index_of(in->cg, c)].runs;
}

Inlinable *inlinable_open(Module *m, const StageOptions *o, const CallGraph *cg)
{
	Arena *a = arena_new();
	Inlinable *in = arena_alloc(a, sizeof *in);
	*in = (Inlinable){.m = m, .o = o, .cg = cg, .arena = a, .dwarf = mod_has_dwarf(m)};
	in->callee = arena_alloc(a, (cg_count(cg) + 1) * sizeof *in->callee);
	uint8_t *runs = o->world.closed ? cg_runs(cg, o->globalopt.keep, o->globalopt.nkeep) : NULL;
	for (uint32_t i = 0; i < cg_count(cg); i++)
		in->callee[i].runs = !runs || runs[i];
	for (uint32_t i = 0; i < cg_count(cg); i++) {
		const CgFunc *c = cg_func(cg, i);
		for (uint32_t k = 0; k < c->sym->nuses; k++)
			in->callee[i].ncalls += (c->sym->uses[k].how & USE_CALL) && caller_runs(in, c->sym->uses[k].in);
		in->size += c->def && c->def->has_body ? body_size(&c->def->body) : 0;
	}
	free(runs);
	in->budget = (uint64_t)o->inlining.growth * (in->size > CALLER_MAX ? in->size : CALLER_MAX) / 100;
	return in;
}

uint64_t inlinable_size(const Inlinable *in)
{
	return in->size;
}

uint64_t inlinable_budget(const Inlinable *in)
{
	return in->budget;
}

int inlinable_runs(const Inlinable *in, const CgFunc *c)
{
	return in->callee[cg_index_of(in->cg, c)].runs;
}

uint32_t inlinable_calls(const Inlinable *in, const CgFunc *c)
{
	return in->callee[cg_index_of(in->cg, c)].ncalls;
}

/* A copy that is its callee's last call, the callee going, moves a body
 * rather than adds one. */
uint64_t inlinable_charge(const Inlinable *in, const CgFunc *c, int ncalls)
{
	if (inlinable_removable(in, c) && ncalls <= 1)
		return 0;
	return body_size(&c->def->body);
}

/* A chain of functions that must all stay (an open world) would
 * otherwise grow each by the whole expansion of the next, n^2/2
 * instructions over n of them. */
int inlinable_oversize(uint32_t caller_size, const CgFunc *c)
{
	return caller_size > CALLER_MAX || (c->def && body_size(&c->def->body) > CALLER_MAX);
}

void inlinable_close(Inlinable *in)
{
	if (!in)
		return;
	names_free(&in->names);
	arena_free(in->arena);
}

/* Read once for every caller and callee (no stage step adds a symbol a
 * later caller could clash with). */
const Names *inlinable_names(Inlinable *in)
{
	if (!(in->known & KNOWN_NAMES)) {
		in->known |= KNOWN_NAMES;
		names_of_module(&in->names, in->m);
	}
	return &in->names;
}

static Facts *facts(const Inlinable *in, const CgFunc *c)
{
	return &in->callee[cg_index_of(in->cg, c)];
}

uint32_t body_size(const List *l)
{
	uint32_t n = 0;
	BodyIt it;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it))
		n += s->kind == S_INS;
	return n;
}

uint32_t body_calls(const List *l)
{
	uint32_t n = 0;
	BodyIt it;
	CallParts cp;
	for (const Stmt *s = body_first_call(l, &it, &cp); s; s = body_next_call(&it, &cp))
		n++;
	return n;
}

/* ---- legality ----------------------------------------------------------------- */

/* A pragma that speaks of the statements next to it, not of its
 * function: a copy keeps it. */
static int pragma_ok(const Stmt *s)
{
	const char *w = s->strs.nstrs == 1 ? s->strs.strs[0] : "";
	return !strcmp(w, "\"nounroll\"") || !strncmp(w, "\"used_bytes_mask ", 17);
}

/* What the callee declares and holds that no copy can keep. */
static int stmt_why(const Stmt *s)
{
	if (s->kind == S_VAR) {
		Space sp = decl_space(&s->var);
		if (sp != SPACE_REG && sp != SPACE_LOCAL && sp != SPACE_PARAM)
			return INL_DECL;
	}
	return s->kind == S_PRAGMA && !pragma_ok(s) ? INL_PRAGMA : -1;
}

static int body_why(const List *l)
{
	BodyIt it;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it))
		if (stmt_why(s) >= 0) {
			body_end(&it);
			return stmt_why(s);
		}
	return -1;
}

int inlinable_why(Inlinable *in, const CgFunc *c, int shadowed)
{
	if (!c->def)
		return INL_UNDEFINED;
	if (c->def->is_entry)
		return INL_ENTRY;
	if (cg_on_cycle(in->cg, cg_index_of(in->cg, c)))
		return INL_RECURSIVE;
	if (c->def->linkage == LINK_WEAK && !in->o->world.closed)
		return INL_WEAK;
	if (in->dwarf)
		return INL_DWARF;
	if (shadowed)   /* the caller's registers' types are read by name */
		return INL_SHADOW;
	return body_why(&c->def->body);
}

/* ---- what the cost model weighs ------------------------------------------------ */

int inlinable_removable(const Inlinable *in, const CgFunc *c)
{
	return !c->address_taken && (in->o->world.closed || c->def->linkage == LINK_INTERNAL);
}

int inlinable_loops(Inlinable *in, const CgFunc *c)
{
	Facts *e = facts(in, c);
	if (!(e->known & KNOWN_LOOPS)) {
		e->known |= KNOWN_LOOPS;
		Cfg *cfg = cfg_build(c->def);
		e->loop_ins = cfg ? (int)loops_unrollable_size(cfg) : 0;
		cfg_free(cfg);
	}
	return e->loop_ins;
}

int inlinable_held(Inlinable *in, const CgFunc *c, uint32_t i)
{
	Facts *e = facts(in, c);
	if (!(e->known & KNOWN_HELD)) {
		e->known |= KNOWN_HELD;
		e->held = arena_alloc(in->arena, c->def->nparams + 1);
		e->held_bytes = arena_alloc(in->arena, (c->def->nparams + 1) * sizeof *e->held_bytes);
		e->indexed = arena_alloc(in->arena, (c->def->nparams + 1) * sizeof *e->indexed);
	}
	const char *p = c->def->params[i].ds[0].name;
	if (!(e->held[i] & KNOWN_HELD)) {
		ParamReads r = param_reads(c->def, p);
		e->held[i] = KNOWN_HELD | (r.constant ? PARAM_HELD : r.stored_indexed ? PARAM_STAYS : 0);
		e->held_bytes[i] = r.bytes < INT32_MAX ? (int32_t)r.bytes : INT32_MAX;
		e->indexed[i] = r.indexed_loads < INT32_MAX ? (int32_t)r.indexed_loads : INT32_MAX;
	}
	return e->held[i] & ~KNOWN_HELD;
}

int inlinable_held_bytes(Inlinable *in, const CgFunc *c, uint32_t i)
{
	return inlinable_held(in, c, i) == PARAM_HELD ? facts(in, c)->held_bytes[i] : 0;
}

static int indexed_loads(Inlinable *in, const CgFunc *c, uint32_t i)
{
	return inlinable_held(in, c, i) == 0 ? facts(in, c)->indexed[i] : 0;
}

/* ---- a callee's registers in place ---------------------------------------------- */

/* The type of what name (stem and k: reg_split's, when ranged) means
 * in list l, or NULL when l declares it not: as itself, the last such
 * declaration; else as a member of the first range of its stem there,
 * the type of the last range of it.  So the inliner's renamed copy
 * reads it (a copy renames a block's names as its first declaration
 * of each says, and keeps the last type). */
static const char *type_in(const List *l, const char *name, int ranged, size_t stem,
	unsigned long long k)
{
	const char *exact = NULL, *range = NULL;
	int first = 1, member = 0;
	for (const Stmt *s = l->head; s; s = s->next)
		for (uint32_t j = 0; s->kind == S_VAR && j < s->var.nds; j++) {
			const Declarator *x = &s->var.ds[j];
			if (!x->count && x->name == name)
				exact = decl_type(&s->var);
			else if (x->count && ranged && strlen(x->name) == stem && !strncmp(x->name, name, stem)) {
				if (first)
					member = k < strtoull(x->count, NULL, 0);
				first = 0;
				range = decl_type(&s->var);
			}
		}
	return exact ? exact : member ? range : NULL;
}

int inlinable_bits(const BodyIt *it, const List *l, const Expr *e)
{
	if (e->kind != E_NAME)
		return 0;
	size_t stem = 0;
	unsigned long long k = 0;
	int ranged = reg_split(e->str, &stem, &k);
	const char *t = type_in(l, e->str, ranged, stem, k);
	for (uint32_t i = 0; !t && it && i < it->depth; i++)
		t = type_in(body_outer(it, i), e->str, ranged, stem, k);
	return t ? 8 * type_bytes(t) : 0;
}

/* ---- parameters as registers ----------------------------------------------- */

/* The .param access of name in ins (ld.param d, [name+off]: 1,
 * st.param [name+off], v: 0) that moves sized elements; -1 for any
 * other use of name. */
int param_moves_of(const Ins *ins, const char *name, int64_t *off)
{
	const char *n;
	int k = param_moves(ins, &n, off);
	return k >= 0 && n == name ? k : -1;
}

/* Can element v (of an access of type ty and size bytes; a register of
 * r bits) be moved to or from a slot?  Registers as wide as the slot take a mov; a wider one,
 * as ld and st allow, a cvt (not for floats). */
static int elem_ok(int r, const Expr *v, int load, int ty, int size)
{
	int w = held_bits(size);
	int64_t c;
	if (v->kind == E_NUM || int_operand(v, &c))   /* st.param [p], -1 too */
		return !load;
	if (v->kind != E_NAME)
		return 0;
	if (load && is_sink(v))
		return 1;
	if (!r || r < w)
		return 0;
	return size == 1 || r == w || !ty_float(ty);
}

/* The slot holding [off, off+size) of g, added when new; NULL when it
 * overlaps another but at its first bytes.  A piece, a read of an
 * integer type, may take a slot's first bytes: the value truncated,
 * as little-endian memory gives them (nvcc passes a char as .b32 and
 * reads it ld.param.u8).  A slot only pieces read grows to a wider
 * access at its start, and those reads become its pieces. */
static Slot *slot_at(Param *g, int64_t off, int size, int add, int piece)
{
	Slot *hit = NULL;
	for (uint32_t i = 0; i < g->nslots; i++) {
		Slot *s = &g->slots[i];
		if (s->off == off && s->size == size)
			return s;
		if (off < s->off + s->size && s->off < off + size) {
			if (hit)
				return NULL;
			hit = s;
		}
	}
	if (hit) {
		if (hit->off != off || (hit->size > size ? !piece : !add || hit->whole))
			return NULL;
		if (hit->size < size)
			hit->size = size;
		return hit;
	}
	if (!add)
		return NULL;
	g->slots = array_grow(g->slots, g->nslots, &g->cap, sizeof *g->slots);
	g->slots[g->nslots] = (Slot){off, size, NULL, 0, 0, 0};
	return &g->slots[g->nslots++];
}

/* One access to the walk's name: each element checked and given its
 * slot, or moved (put) and the access removed; -1, else why not. */
static int access(const SlotWalk *w, const BodyIt *it, Stmt *s)
{
	int64_t off;
	int k = param_moves_of(&s->ins, w->name, &off);
	if (k < 0)
		return INL_PARAM;
	const Ins *in = &s->ins;
	int size = in->sp->type_bytes, load = k == 1, n = in->sp->vec;
	const Expr *v = in->ops[1 - k];
	/* by value: a callee writing its argument, or a caller its result,
	 * writes a copy the other side never reads */
	if (!load && (w->caller ? w->g->ret : !w->g->ret))
		return INL_PARAM;
	int ty = in->sp->types[0], piece = load && !(ty_flags(ty) & (TF_BITS | TF_FLOAT));
	for (int i = 0; i < n; i++) {
		const Expr *e = n > 1 ? v->kids[i] : v;
		Slot *sl = slot_at(w->g, off + (int64_t)i * size, size, !w->put, piece);
		if (!sl)
			return INL_OVERLAP;
		if (sl->size == size && !piece)
			sl->whole = 1;
		int bits = w->types ? names_bits(w->types, e) : inlinable_bits(it, it->in, e);
		if (!elem_ok(bits, e, load, ty, size))
			return INL_PARAM;
		if (!w->put)
			load ? (sl->read = 1) : (sl->written = 1);
		else if (!(load && is_sink(e)))
			w->put(w->ctx, it->in, s, load, e, sl);
	}
	if (w->put)
		list_remove(it->in, s);
	return -1;
}

int slots_walk(const SlotWalk *w, const List *body)
{
	BodyIt it;
	int why = -1;
	for (Stmt *s = body_first(body, &it); s && why < 0; s = body_next(&it))
		if (s->kind == S_INS && !(w->skip && w->skip(w->ctx, s)) && ins_mentions(&s->ins, w->name))
			why = access(w, &it, s);
	body_end(&it);
	return why;
}

/* ---- a callee's depot ------------------------------------------------------------ */

int inlinable_depot(const List *body, Stmt **depot, Stmt **mov)
{
	*depot = *mov = NULL;
	for (Stmt *s = body->head; s; s = s->next)
		if (s->kind == S_VAR && decl_space(&s->var) == SPACE_LOCAL && depot_named(s->var.ds[0].name))
			*depot = s;
	if (!*depot)
		return -1;
	const char *name = (*depot)->var.ds[0].name;
	if (decl_bytes(&(*depot)->var, &(*depot)->var.ds[0]) < 0)
		return INL_DEPOT;
	for (Stmt *s = body->head; s; s = s->next) {
		if (s->kind != S_INS || !ins_mentions(&s->ins, name))
			continue;
		if (*mov || s->ins.sp->code != O_mov || s->ins.guard || s->ins.nops != 2 ||
		    s->ins.ops[1]->kind != E_NAME || s->ins.ops[0]->kind != E_NAME)
			return INL_DEPOT;
		*mov = s;
	}
	for (Stmt *s = body->head; s; s = s->next)
		if (s->kind == S_SCOPE && body_mentions(&s->scope, name))
			return INL_DEPOT;
	return *mov ? -1 : INL_DEPOT;
}

/* ---- a caller ----------------------------------------------------------------- */

void caller_facts_free(CallerFacts *cf)
{
	names_free(&cf->locals);
	memobjs_free(cf->mo);
}

/* copies and their fresh names never shadow */
int caller_shadowed(CallerFacts *cf)
{
	if (!(cf->known & CF_SHADOWED)) {
		cf->known |= CF_SHADOWED;
		cf->shadowed = names_shadowed(cf->f);
	}
	return cf->shadowed;
}

uint32_t body_writes(const List *l, const char *reg)
{
	uint32_t n = 0;
	BodyIt it;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it))
		if (s->kind == S_INS) {
			RegAccess a = ins_reg_access(&s->ins, reg);
			n += a.writes || a.may_write;
		}
	return n;
}

int caller_depot(CallerFacts *cf)
{
	if (cf->known & CF_DEPOT)
		return cf->depot_ok;
	cf->known |= CF_DEPOT;
	Depot dp = func_depot(&cf->f->body);
	Stmt *d = dp.decl;
	cf->spl = dp.spl;
	cf->sp = dp.sp;
	cf->depot = d;
	cf->own = d ? decl_bytes(&d->var, &d->var.ds[0]) : 0;
	/* a caller that steps its %SPL (hand-written) would put a copy's
	 * bytes at the stepped place, past its depot's end */
	cf->depot_ok = !d || (cf->spl && cf->own >= 0 && body_writes(&cf->f->body, cf->spl) == 1 &&
		(!cf->sp || body_writes(&cf->f->body, cf->sp) == 1));
	return cf->depot_ok;
}

/* Their start registers must be as wide. */
int caller_depot_fits(const CallerFacts *cf, const Names *names, const List *body, const Stmt *mov)
{
	if (!mov)
		return 1;
	const char *t = mov->ins.sp->type;
	if (!t || inlinable_bits(NULL, body, mov->ins.ops[0]) != 8 * type_bytes(t))
		return 0;
	return !cf->depot || names_bits(names, name_expr(cf->spl)) == 8 * type_bytes(t);
}

/* The caller's objects as it stands, the copies put in so far with it. */
static const MemObjs *caller_objs(CallerFacts *cf)
{
	if (!(cf->known & CF_OBJS)) {
		cf->known |= CF_OBJS;
		memobjs_free(cf->mo);
		cf->mo = memobjs_build(cf->f);
	}
	return cf->mo;
}

/* The registers holding an address in the caller's .local objects,
 * read once per caller (ir/memobj.c follows them). */
static const Names *local_addrs(CallerFacts *cf)
{
	if (cf->known & CF_LOCALS)
		return &cf->locals;
	cf->known |= CF_LOCALS;
	const MemObjs *mo = caller_objs(cf);
	for (uint32_t i = 0; i < mo->ndefs; i++) {
		const Stmt *d = mo->defs[i].at;
		if (d->kind == S_INS && d->ins.nops && d->ins.ops[0]->kind == E_NAME)
			names_add(&cf->locals, d->ins.ops[0]->str, NULL);
	}
	return &cf->locals;
}

/* Does the caller as it stands (the copies put in so far with it)
 * store into the object whose address reg holds at an index that comes
 * from data (ir/memobj.c: memobjs_stored_data)?  Then ptxas keeps that
 * object in memory, inlined or not: tile_modes counts into
 * bins[px >> 4] once hist16_add is in, so hist16_mode's reads of bins
 * stay loads.  A fill loop's counter is no such index (ptxas unrolls a
 * loop of constant trip count and holds the array in registers:
 * clang_depot_lifetimes' escapes fills seen[] so before sum_through). */
static int stored_data(CallerFacts *cf, const char *reg)
{
	const MemObjs *mo = caller_objs(cf);
	int found = 0;
	for (uint32_t i = 0; i < mo->ndefs; i++) {
		const Stmt *d = mo->defs[i].at;
		if (d->kind != S_INS || !d->ins.nops || d->ins.ops[0]->kind != E_NAME || d->ins.ops[0]->str != reg)
			continue;
		if (!memobjs_stored_data(mo, mo->defs[i].obj))
			return 0;
		found = 1;
	}
	return found;
}

/* Does the call pass an address of the caller's .local objects (an
 * st.param of one to an argument, beside the call)?  COST_LOCAL_HELD when every such
 * argument's parameter is accessed in the callee at constant offsets
 * only (ir/memobj.c): once inlined the depot stage holds the object in
 * registers.  COST_LOCAL_NONE where the array stays in memory either
 * way: the callee stores through each of the others at a run-time
 * index, or the caller itself stores into it at a data index
 * (stored_data).  Else COST_LOCAL_PASSED: the callee only reads it at
 * run-time indices, and ptxas may hold it in registers once inlined;
 * *loads (when not NULL) adds how many such reads the callee makes. */
int caller_passes_local(CallerFacts *cf, Inlinable *inl, const Stmt *call, const List *l, const CgFunc *c,
	int *bytes, int *loads)
{
	const Names *locals = local_addrs(cf);
	const Func *callee = c->def;
	CallParts cp;
	if (!ins_call_parts(&call->ins, &cp) || !cp.args)
		return 0;
	int64_t off;
	int passed = 0, held = 1, read = 0;
	for (const Stmt *s = l->head; s && s != call; s = s->next)
		for (uint32_t i = 0; s->kind == S_INS && i < cp.args->n; i++)
			if (cp.args->kids[i]->kind == E_NAME && param_moves_of(&s->ins, cp.args->kids[i]->str, &off) == 0 &&
			    s->ins.ops[1]->kind == E_NAME && names_exact(locals, s->ins.ops[1]->str)) {
				int how = i < callee->nparams ? inlinable_held(inl, c, i) : 0;
				passed = 1;
				held &= how == PARAM_HELD;
				if (bytes && how == PARAM_HELD)
					*bytes += inlinable_held_bytes(inl, c, i);
				int reads = how == 0 && !stored_data(cf, s->ins.ops[1]->str);
				if (loads && reads)
					*loads += indexed_loads(inl, c, i);
				read |= reads;
			}
	return !passed ? COST_LOCAL_NONE : held ? COST_LOCAL_HELD : read ? COST_LOCAL_PASSED : COST_LOCAL_NONE;
}

/* ---- a call's parameters -------------------------------------------------------- */

static Stmt *decl_in(const List *l, const char *name)
{
	for (Stmt *s = l->head; s; s = s->next)
		if (s->kind == S_VAR && s->var.ds[0].name == name)
			return s;
	return NULL;
}

/* The Param for outer (a new one for NULL). */
static uint32_t param_of(CallParams *ps, const char *outer, int ret)
{
	for (uint32_t i = 0; outer && i < ps->n; i++)
		if (ps->v[i].outer == outer)
			return i;
	ps->v = array_grow(ps->v, ps->n, &ps->cap, sizeof *ps->v);
	ps->v[ps->n] = (Param){.outer = outer, .ret = ret};
	return ps->n++;
}

int call_groups(CallParams *ps, const CallParts *cp, const Func *g, Group **groups, uint32_t *ngroups)
{
	uint32_t nrets = cp->rets ? cp->rets->n : 0, nargs = cp->args ? cp->args->n : 0;
	if (nargs != g->nparams || (nrets && nrets != g->nrets) || g->nrets > 1)
		return INL_ARGS;
	*ngroups = g->nrets + g->nparams;
	*groups = xcalloc(*ngroups + 1, sizeof **groups);
	for (uint32_t i = 0; i < *ngroups; i++) {
		const Decl *d = i < g->nrets ? &g->rets[i] : &g->params[i - g->nrets];
		const Expr *o = i < g->nrets ? (nrets ? cp->rets->kids[i] : NULL) : cp->args->kids[i - g->nrets];
		Group *gr = &(*groups)[i];
		gr->inner = d->ds[0].name;
		if (decl_space(d) != SPACE_PARAM && decl_space(d) != SPACE_NONE)
			return INL_ARGS;
		if (o && o->kind != E_NAME)
			return INL_ARGS;
		gr->param = param_of(ps, o ? o->str : NULL, i < g->nrets);
		Param *pa = &ps->v[gr->param];
		if (!o)
			continue;
		if (!pa->decl)
			pa->decl = decl_in(ps->list, pa->outer);
		if (!pa->decl || decl_space(&pa->decl->var) != SPACE_PARAM || pa->ret != (i < g->nrets))
			return INL_ARGS;
	}
	return -1;
}

int callee_slots(CallParams *ps, const Group *groups, uint32_t n, const Func *callee)
{
	for (uint32_t i = 0; i < n; i++) {
		SlotWalk w = {.g = &ps->v[groups[i].param], .name = groups[i].inner};
		int why = slots_walk(&w, &callee->body);
		if (why >= 0)
			return why;
	}
	return -1;
}

int caller_slots(CallParams *ps, const SlotWalk *like)
{
	for (uint32_t i = 0; i < ps->n; i++) {
		SlotWalk w = *like;
		w.g = &ps->v[i];
		w.name = ps->v[i].outer;
		w.caller = 1;
		int why = w.name ? slots_walk(&w, ps->list) : -1;
		if (why >= 0)
			return why;
	}
	return -1;
}

int call_overhead(const CallParams *ps, const Group *groups, uint32_t n)
{
	int k = 2;
	for (uint32_t i = 0; i < n; i++)
		k += (int)ps->v[groups[i].param].nslots;
	return k;
}

void params_free(CallParams *ps)
{
	for (uint32_t i = 0; i < ps->n; i++)
		free(ps->v[i].slots);
	free(ps->v);
}

/* The facts for copies of c at call (in l), but for what the asker knows
 * of the copy (overhead) and of the caller's values (folds). */
CostFacts caller_cost_facts(CallerFacts *cf, Inlinable *inl, const Stmt *call, const List *l,
	const CgFunc *c, uint32_t copies, uint32_t ncalls)
{
	int bytes = 0, loads = 0, local = caller_passes_local(cf, inl, call, l, c, &bytes, &loads);
	CostFacts f = {.body = (int)body_size(&c->def->body), .copies = (int)copies, .local = local,
		.held_bytes = bytes, .indexed_loads = loads};
	if (f.local == COST_LOCAL_PASSED)
		f.loop_ins = inlinable_loops(inl, c);
	f.last = inlinable_removable(inl, c) && ncalls == copies;
	return f;
}
