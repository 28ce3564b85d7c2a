/* ipo.c: interprocedural optimization of internal functions (issue 24).
 *
 * A function is internal when every call of it is in the module and seen:
 * a .func that is not .visible, .extern or .weak, or any .func in a closed
 * world (world.c), whose address nothing takes and which nothing names but
 * direct calls (not a .calltargets list, not a call with a prototype).
 * Then its signature is the module's to change, call sites and callee
 * together.  In order:
 *
 *   merge      two internal functions with the same code (ir/samecode.c:
 *              the same signature, directives and statements, registers,
 *              labels and parameters renamed by their place among the
 *              declarations, .loc aside) become one: the later one's calls
 *              name the first, its body and declarations go.  Neither's
 *              address is taken, so nothing can tell them apart.  What
 *              only the gone body called goes after (globalopt_dead()).
 *   constants  (--ipo-constants, off by default: a loop bound made
 *              constant has ptxas unroll the loop, clang_depot_lifetimes
 *              +2,304 B and llc_alloca 18 -> 30 registers on the yardstick,
 *              while merging and removals change nothing but raytrace's
 *              50,816 B against 52,864) a scalar parameter every call site
 *              stores the same number into (an immediate, or a register
 *              one unguarded mov of an immediate writes) is that number in
 *              the callee:
 *                  ld.param.u32 %r1, [f_param_0];  ->  mov.b32 %r1, 7;
 *              (each ld's own width and extension; vector and array
 *              parameters are refused with a remark);
 *   parameters one nothing in the callee reads goes from its declarations
 *              and from every call's argument list, with the call site's
 *              .param and the st.param into it when no other call passes
 *              that .param (devirtualization's funnels share them);
 *   results    a return value no call site reads: the callee's st.param
 *              into it and its declaration go, and each call's (retval0).
 *   by value   a pointer parameter the callee only loads (and stores)
 *              through at constant offsets, every call lending it a .local
 *              object of the caller's that nothing else reaches, becomes
 *              an aggregate .param of the bytes it touches, the stored
 *              ones back in its result (ipo-byvalue.c).
 *
 *     .func (.param .b32 rv) f(.param .b32 a, .param .b32 b)      .func f(.param .b32 b)
 *     { ld.param.b32 %r1, [a]; ...  st.param.b32 [rv], %r2; }  -> { mov.b32 %r1, 7; ... }
 *     { .param .b32 param0; st.param.b32 [param0], 7;             { .param .b32 param1;
 *       .param .b32 param1; st.param.b32 [param1], %r5;             st.param.b32 [param1], %r5;
 *       .param .b32 retval0;                                        call.uni f, (param1);
 *       call.uni (retval0), f, (param0, param1); }                }
 *
 * A call site is understood when each argument and result is a .param
 * declared in the list holding the call and every other instruction there
 * naming it is an st.param into it (an ld.param from a result), and no
 * call passes its result on or writes its argument as a result (a
 * result passed on is read by that call; an argument a call writes holds
 * what that callee stored, not what st.param did); a
 * function with one it does not understand is left alone, as is every
 * function of a module with -G DWARF (which describes each frame and its
 * parameters).  Every change is a remark (-Rpass=ipo), counted (--stats).
 * The stage runs after global optimization: dead callers are gone by then
 * (their calls would spoil "every call site"), functions are internal in
 * a closed world, and folded loads have become the immediates it reads.
 *
 * requires: normalized IR, the world verdict / maintains: normalized IR
 * / breaks: any symbol table, call graph or analysis built before it. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "ipo.h"

static const char *const why_text[NWHY] = {
	"an .alias names it (the alias's calls are not seen, its prototype must match)",
	"its address is taken",
	"it is not internal and the world is open (callers not seen may exist)",
	"it is named other than by direct calls (a .calltargets list, a call with a prototype)",
	"a call site passes or reads something other than a .param declared beside the call",
	"a call site's result is passed on to a call, or its argument is a call's result",
};

static Callee *fn_named(const Ipo *p, const char *name)
{
	const Symbol *s = symtab_find(p->t, name);
	return s && p->fn_of[s->id] >= 0 ? &p->fns[p->fn_of[s->id]] : NULL;
}

void ipo_remark(const Ipo *p, Loc at, const char *fmt, ...)
{
	if (!p->o->ipo.remarks)
		return;
	va_list ap;
	va_start(ap, fmt);
	vdiag(DIAG_REMARK, diag_filename(at.file), at.line, 0, fmt, ap);
	va_end(ap);
}

/* ld.param (1) or st.param (0) of name at [name+off], scalar: the address
 * operand's index, else -1. */
int ipo_param_access(const Ins *in, const char *name, int64_t *off)
{
	const char *n;
	int k = param_at(in, &n, off);
	return k >= 0 && n == name && !expr_mentions(in->ops[1 - k], name) ? k : -1;
}

/* Every instruction of l (nested scopes too) naming name, calls aside
 * where calls says so, is an access of kind k (0 st.param, 1 ld.param). */
static int only_accessed(const List *l, const char *name, int k, int calls)
{
	BodyIt it;
	int64_t off;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it))
		if (s->kind == S_INS && !(calls && stmt_is_call(s)) && ins_mentions(&s->ins, name) &&
		    ipo_param_access(&s->ins, name, &off) != k) {
			body_end(&it);
			return 0;
		}
	return 1;
}


/* Whether some call of l (nested scopes too) other than except names
 * name: anywhere, among its arguments or among its results. */
int ipo_other_call_names(const List *l, const char *name, const Stmt *except, int where)
{
	BodyIt it;
	CallParts cp;
	for (const Stmt *s = body_first_call(l, &it, &cp); s; s = body_next_call(&it, &cp)) {
		if (s == except || !ins_mentions(&s->ins, name))
			continue;
		const Expr *list = where == ARGS ? cp.args : cp.rets;
		if (where == ANY || !cp.whole || (list && expr_mentions(list, name))) {
			body_end(&it);
			return 1;
		}
	}
	return 0;
}

/* Every instruction of l naming name goes, with its declaration. */
static void drop_param(List *l, const char *name)
{
	BodyIt it;
	for (Stmt *s = body_first(l, &it); s; s = body_next(&it))
		if ((s->kind == S_INS && ins_mentions(&s->ins, name)) ||
		    (s->kind == S_VAR && s->var.ds[0].name == name))
			list_remove(it.in, s);
}

/* ---- which functions, which calls ----------------------------------------- */

static void find_sites(Ipo *p, Func *caller, Callee *from, List *l)
{
	BodyIt it;
	CallParts cp;
	for (Stmt *s = body_first_call(l, &it, &cp); s; s = body_next_call(&it, &cp)) {
		Callee *fn;
		if (!cp.whole || !(fn = fn_named(p, cp.callee->str)))
			continue;
		if (cp.proto)
			fn->why = WHY_USE;
		fn->sites = array_grow(fn->sites, fn->nsites, &fn->cap, sizeof *fn->sites);
		fn->sites[fn->nsites++] = (Call){s, it.in, caller, from};
	}
}

/* The .param o names, declared in l and otherwise only accessed by kind k. */
static int site_param(const List *l, const Expr *o, int k)
{
	Stmt *d = o->kind == E_NAME ? list_var(l, o->str) : NULL;
	return d && decl_space(&d->var) == SPACE_PARAM && only_accessed(l, o->str, k, 1);
}

/* A call's .params hold what st.params store into them, and what the
 * callee stores into its results: a result a call passes on as its
 * argument, or an argument a call writes as its result, carries a value
 * the stage does not follow.  (Calls sharing arguments, or results, as a
 * funnel's arms do, are understood.)  -1 when understood. */
static int site_why(const Callee *fn, const Call *st)
{
	CallParts cp;
	if (!ins_call_parts(&st->call->ins, &cp) || cp.proto)
		return WHY_SITE;
	uint32_t nargs = cp.args ? cp.args->n : 0, nrets = cp.rets ? cp.rets->n : 0;
	if (nargs != fn->f->nparams || (nrets && nrets != fn->f->nrets))
		return WHY_SITE;
	for (uint32_t i = 0; i < nargs; i++)
		if (!site_param(st->list, cp.args->kids[i], 0))
			return WHY_SITE;
	for (uint32_t i = 0; i < nrets; i++)
		if (!site_param(st->list, cp.rets->kids[i], 1))
			return WHY_SITE;
	for (uint32_t i = 0; i < nargs; i++)
		if (ipo_other_call_names(st->list, cp.args->kids[i]->str, NULL, RESULTS))
			return WHY_PASSED;
	for (uint32_t i = 0; i < nrets; i++)
		if (ipo_other_call_names(st->list, cp.rets->kids[i]->str, NULL, ARGS))
			return WHY_PASSED;
	return -1;
}

static int classify(const Ipo *p, const Callee *fn, const Symbol *s)
{
	if (fn->why >= 0)
		return fn->why;
	for (uint32_t k = 0; k < s->nuses; k++)
		if (s->uses[k].at->kind == S_ALIAS)
			return WHY_ALIAS;
	if (s->how & USE_ADDR)
		return WHY_ADDR;
	if (!p->o->world.closed && fn->f->linkage != LINK_INTERNAL)
		return WHY_OPEN;
	uint32_t calls = 0;
	for (uint32_t k = 0; k < s->nuses; k++)
		calls += (s->uses[k].how & USE_CALL) != 0;
	if (calls != fn->nsites || (s->how & ~(unsigned)USE_CALL))
		return WHY_USE;
	for (uint32_t i = 0; i < fn->nsites; i++) {
		int why = site_why(fn, &fn->sites[i]);
		if (why >= 0)
			return why;
	}
	return -1;
}

static void scan(Ipo *p)
{
	p->t = symtab_build(p->m);
	uint32_t n = symtab_count(p->t), cap = 0;
	p->fn_of = xmalloc((n + 1) * sizeof *p->fn_of);
	for (uint32_t i = 0; i < n; i++)
		p->fn_of[i] = -1;
	for (Stmt *s = p->m->items.head; s; s = s->next) {
		if (s->kind != S_FUNC || !s->func->has_body || s->func->is_entry)
			continue;
		const Symbol *sym = symtab_find(p->t, s->func->name);
		if (!sym || sym->def != s)
			continue;
		p->fns = array_grow(p->fns, p->nfns, &cap, sizeof *p->fns);
		p->fns[p->nfns] = (Callee){.def = s, .f = s->func, .why = -1};
		p->fn_of[sym->id] = (int32_t)p->nfns++;
	}
	for (Stmt *s = p->m->items.head; s; s = s->next) {
		Callee *from;
		if (s->kind == S_FUNC && s->func->has_body)
			find_sites(p, s->func, (from = fn_named(p, s->func->name)) && from->def == s ? from : NULL,
				&s->func->body);
	}
	for (uint32_t i = 0; i < p->nfns; i++) {
		Callee *fn = &p->fns[i];
		fn->why = classify(p, fn, symtab_find(p->t, fn->f->name));
		p->st.funcs++;
		if (fn->why < 0)
			p->st.internal++;
		else
			p->st.left[fn->why]++;
		if (fn->why >= 0 && fn->nsites && fn->f->nparams + fn->f->nrets)
			ipo_remark(p, fn->def->loc, "%s left as it is: %s", quoted_name(fn->f->name),
				why_text[fn->why]);
	}
}

/* ---- merging ---------------------------------------------------------------
 *
 * Functions of one code share a hash (ir/samecode.c), so each is compared
 * only with the functions already in its hash's bucket: the first of its
 * code in module order is kept, a later one merges into it.  A merge
 * renames the calls of the function gone, so its callers may now be the
 * same code as others: they are hashed again in the next wave, and only
 * they, so merging a chain of n callers costs n, not n rounds of all. */

typedef struct Bucket {
	UT_hash_handle hh;
	uint64_t hash;
	Callee **fns;
	uint32_t n, cap;
} Bucket;

typedef struct Wave {
	Callee **fns;
	uint32_t n, cap;
} Wave;

/* Only a function ipo may change is (re)hashed: a caller hashed again
 * because its callee merged may be one left alone (its address taken, a
 * vtable's destructor), which must never merge away. */
static void queue(Wave *w, Callee *fn)
{
	if (fn->queued || fn->gone || fn->why >= 0)
		return;
	fn->queued = 1;
	w->fns = array_grow(w->fns, w->n, &w->cap, sizeof *w->fns);
	w->fns[w->n++] = fn;
}

/* Each function's statements, in module order, and the first one's place. */
static void find_stmts(Ipo *p)
{
	uint32_t at = 0;
	for (Stmt *s = p->m->items.head; s; s = s->next, at++) {
		Callee *fn = s->kind == S_FUNC ? fn_named(p, s->func->name) : NULL;
		if (!fn)
			continue;
		if (!fn->nstmts)
			fn->first = at;
		fn->stmts = array_grow(fn->stmts, fn->nstmts, &fn->scap, sizeof *fn->stmts);
		fn->stmts[fn->nstmts++] = s;
	}
}

static void bucket_put(Bucket *b, Callee *fn)
{
	b->fns = array_grow(b->fns, b->n, &b->cap, sizeof *b->fns);
	b->fns[b->n++] = fn;
	fn->bucket = b;
}

static void bucket_del(Callee *fn)
{
	Bucket *b = fn->bucket;
	for (uint32_t i = 0; i < b->n; i++)
		if (b->fns[i] == fn) {
			b->fns[i] = b->fns[--b->n];
			break;
		}
	fn->bucket = NULL;
}

/* Before dup's first statement (ptxas reads in order, and dup's callers
 * come after it), keep is declared if nothing named it yet. */
static void declare_early(Ipo *p, Callee *keep, const Callee *dup)
{
	if (keep->first < dup->first)
		return;
	func_declare_before(p->m, keep->f, dup->stmts[0]);
	keep->stmts = array_grow(keep->stmts, keep->nstmts, &keep->scap, sizeof *keep->stmts);
	memmove(keep->stmts + 1, keep->stmts, keep->nstmts++ * sizeof *keep->stmts);
	keep->stmts[0] = dup->stmts[0]->prev;
	keep->first = dup->first;
}

/* dup's calls name keep instead (their callers to be hashed again), and
 * its statements go. */
static void merge(Ipo *p, Callee *keep, Callee *dup, Wave *next)
{
	dup->gone = 1;
	for (uint32_t i = 0; i < dup->nsites; i++) {
		Call *st = &dup->sites[i];
		if (st->from && st->from->gone)
			continue;   /* in a body gone */
		Ins *in = &st->call->ins;
		CallParts cp;
		ins_call_parts(in, &cp);
		Expr **ops = arena_dup(p->m->arena, in->ops, in->nops * sizeof *ops);
		ops[cp.callee_index] = name_expr(keep->f->name);
		in->ops = ops;
		keep->sites = array_grow(keep->sites, keep->nsites, &keep->cap, sizeof *keep->sites);
		keep->sites[keep->nsites++] = *st;
		if (st->from)
			queue(next, st->from);
	}
	dup->nsites = 0;
	declare_early(p, keep, dup);
	for (uint32_t i = 0; i < dup->nstmts; i++)
		list_remove(&p->m->items, dup->stmts[i]);
	p->st.merged++;
	ipo_remark(p, dup->def->loc, "%s merged into %s: the same code", quoted_name(dup->f->name),
		quoted_name(keep->f->name));
}

/* fn into its code's bucket, or merged with the function there of its
 * code (the earlier in the module kept). */
static void place(Ipo *p, Bucket **table, Callee *fn, Wave *next)
{
	uint64_t h = func_code_hash(fn->f);
	Bucket *b;
	HASH_FIND(hh, *table, &h, sizeof h, b);
	if (!b) {
		b = xcalloc(1, sizeof *b);
		b->hash = h;
		HASH_ADD(hh, *table, hash, sizeof b->hash, b);
	}
	for (uint32_t i = 0; i < b->n; i++) {
		Callee *other = b->fns[i];
		if (!func_same_code(other->f, fn->f))
			continue;
		if (other < fn) {
			merge(p, other, fn, next);
		} else {
			b->fns[i] = fn;
			fn->bucket = b;
			other->bucket = NULL;
			merge(p, fn, other, next);
		}
		return;
	}
	bucket_put(b, fn);
}

static int by_place(const void *x, const void *y)
{
	const Callee *a = *(Callee *const *)x, *b = *(Callee *const *)y;
	return a < b ? -1 : a > b;
}

static void merge_all(Ipo *p)
{
	Bucket *table = NULL, *b, *tmp;
	Wave now = {0}, next = {0};
	find_stmts(p);
	for (uint32_t i = 0; i < p->nfns; i++)
		if (p->fns[i].why < 0)
			queue(&next, &p->fns[i]);
	while (next.n) {
		Wave w = now;
		now = next, next = w, next.n = 0;
		qsort(now.fns, now.n, sizeof *now.fns, by_place);   /* remarks in module order */
		for (uint32_t i = 0; i < now.n; i++)
			now.fns[i]->queued = 0;
		for (uint32_t i = 0; i < now.n; i++) {
			Callee *fn = now.fns[i];
			if (fn->gone)
				continue;
			if (fn->bucket)
				bucket_del(fn);
			place(p, &table, fn, &next);
		}
	}
	HASH_ITER(hh, table, b, tmp) {
		HASH_DEL(table, b);
		free(b->fns);
		free(b);
	}
	free(now.fns);
	free(next.fns);
	for (uint32_t i = 0; i < p->nfns; i++) {   /* the calls in bodies gone */
		Callee *fn = &p->fns[i];
		uint32_t n = 0;
		for (uint32_t k = 0; k < fn->nsites; k++)
			if (!fn->sites[k].from || !fn->sites[k].from->gone)
				fn->sites[n++] = fn->sites[k];
		fn->nsites = n;
	}
}

/* ---- constants -------------------------------------------------------------- */

/* The bits of a literal e read as type ty (of bytes bytes). */
static int literal_bits(const Expr *e, int ty, int bytes, uint64_t *bits)
{
	int64_t v;
	const Expr *num = e->kind == E_UNARY && e->op == '-' ? e->kids[0] : e;
	if (num->kind != E_NUM)
		return 0;
	if (ty_float(ty) || (num->str[0] == '0' && num->str[1] && strchr("fFdD", num->str[1]))) {
		if ((bytes != 4 && bytes != 8) || !float_bits(num->str, bytes, bits))
			return 0;
		if (num != e)
			*bits ^= 1ull << (8 * bytes - 1);
		return 1;
	}
	if (!int_operand(e, &v))
		return 0;
	*bits = (uint64_t)v;
	return 1;
}

static uint64_t low_bytes(uint64_t v, int bytes)
{
	return bytes >= 8 ? v : v & ((1ull << (8 * bytes)) - 1);
}

/* The one instruction of l that writes reg, if only one does. */
static const Stmt *only_writer(const List *l, const char *reg, int *n)
{
	const Stmt *w = NULL;
	BodyIt it;
	for (const Stmt *s = body_first(l, &it); s && *n < 2; s = body_next(&it))
		if (s->kind == S_INS) {
			RegAccess a = ins_reg_access(&s->ins, reg);
			if (a.writes || a.may_write)
				w = s, ++*n;
		}
	body_end(&it);
	return *n == 1 ? w : NULL;
}

/* What v holds when written by st: an immediate, or a register only an
 * unguarded mov of an immediate writes in the caller. */
static int value_bits(const Call *st, const Expr *v, uint64_t *bits)
{
	int n = 0;
	const Stmt *w = v->str[0] == '%' && !reg_of_part(v->str) && !names_shadowed(st->caller) ?
		only_writer(&st->caller->body, v->str, &n) : NULL;
	if (!w || w->ins.sp->code != O_mov || w->ins.guard || w->ins.nops != 2 || !w->ins.sp->type ||
	    w->ins.ops[0]->kind != E_NAME || w->ins.ops[0]->str != v->str)
		return 0;
	int bytes = w->ins.sp->type_bytes;
	if (!literal_bits(w->ins.ops[1], w->ins.sp->types[0], bytes, bits))
		return 0;
	*bits = low_bytes(*bits, bytes);
	return 1;
}

/* The number the call stores into its .param arg, of bytes bytes: the
 * one st.param into it, at offset 0 and as wide, unguarded, before the
 * call in its list with no label (nor scope) between. */
static int site_constant(const Call *st, const char *arg, int bytes, uint64_t *bits)
{
	const Stmt *store = NULL;
	for (const Stmt *s = st->list->head; s; s = s->next) {
		if (s == st->call)
			break;
		if (s->kind == S_LABEL || s->kind == S_SCOPE)
			store = NULL;
		int64_t off;
		if (s->kind == S_SCOPE ? body_mentions(&s->scope, arg)
		    : s->kind == S_INS && !stmt_is_call(s) && ins_mentions(&s->ins, arg)) {
			if (store || s->kind != S_INS || ipo_param_access(&s->ins, arg, &off) != 0 || off ||
			    s->ins.guard || s->ins.sp->vec != 1 || s->ins.sp->type_bytes != bytes)
				return 0;
			store = s;
		}
	}
	if (!store)
		return 0;
	const Expr *v = store->ins.ops[1];
	if (v->kind == E_NAME ? !value_bits(st, v, bits) :
	    !literal_bits(v, store->ins.sp->types[0], bytes, bits))
		return 0;
	*bits = low_bytes(*bits, bytes);
	return 1;
}

/* A scalar parameter: one sized type, no vector, no array. */
int ipo_scalar(const Decl *d)
{
	return d->nds == 1 && !d->ds[0].ndims && d->vec == 1 && ty_size(d->type) > 0 &&
		(decl_space(d) == SPACE_PARAM || decl_space(d) == SPACE_NONE);
}

/* Every call's argument i is the same number (bits). */
static int same_constant(const Callee *fn, uint32_t i, int bytes, uint64_t *bits)
{
	for (uint32_t k = 0; k < fn->nsites; k++) {
		CallParts cp;
		uint64_t b;
		ins_call_parts(&fn->sites[k].call->ins, &cp);
		if (!site_constant(&fn->sites[k], cp.args->kids[i]->str, bytes, &b) || (k && b != *bits))
			return 0;
		*bits = b;
	}
	return fn->nsites > 0;
}

/* Every use of formal in l is a scalar ld.param inside its bytes into a
 * register (or '_'). */
static int loads_only(const List *l, const char *formal, int bytes)
{
	BodyIt it;
	int64_t off;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it)) {
		if (s->kind != S_INS || !ins_mentions(&s->ins, formal))
			continue;
		if (ipo_param_access(&s->ins, formal, &off) != 1 || s->ins.sp->vec != 1 || off < 0 ||
		    off + s->ins.sp->type_bytes > bytes || s->ins.ops[0]->kind != E_NAME) {
			body_end(&it);
			return 0;
		}
	}
	return 1;
}

/* mov of the bytes ld reads of bits into its register, extended as ld
 * extends them. */
static Stmt *load_as_mov(Ipo *p, const Names *regs, const Stmt *ld, uint64_t bits, int64_t off)
{
	const Spelling *sp = ld->ins.sp;
	int size = sp->type_bytes;
	uint64_t v = low_bytes(bits >> (8 * off), size);
	if (ty_signed(sp->types[0]) && size < 8 && (v >> (8 * size - 1)))
		v |= ~0ull << (8 * size);
	Expr *dst = ld->ins.ops[0];
	const char *rt = names_type(regs, dst->str);
	int rbytes = rt ? type_bytes(rt) : size, rty = rt ? type_of(rt) : TY_NONE;
	v = low_bytes(v, rbytes);
	char spelling[16], imm[32];
	if ((rty == TY_F32 || rty == TY_F64) && rbytes == size) {
		snprintf(spelling, sizeof spelling, "mov%s", rt);
		snprintf(imm, sizeof imm, rbytes == 4 ? "0f%08llX" : "0d%016llX", (unsigned long long)v);
	} else {
		snprintf(spelling, sizeof spelling, "mov.b%d", 8 * (rbytes < 2 ? 2 : rbytes));
		snprintf(imm, sizeof imm, "%llu", (unsigned long long)v);
	}
	Expr *ops[2] = {dst, num_expr(intern_cstr(imm))};
	Stmt *m = ins_new(p->m, ld->loc, spelling, ops, 2);
	m->ins.guard = ld->ins.guard;
	m->ins.guard_neg = ld->ins.guard_neg;
	return m;
}

static void loads_to_movs(Ipo *p, const Names *regs, List *l, const char *formal, uint64_t bits)
{
	BodyIt it;
	int64_t off;
	for (Stmt *s = body_first(l, &it); s; s = body_next(&it)) {
		if (s->kind != S_INS || !ins_mentions(&s->ins, formal))
			continue;
		ipo_param_access(&s->ins, formal, &off);
		if (!is_sink(s->ins.ops[0]))
			list_insert_before(it.in, s, load_as_mov(p, regs, s, bits, off));
		list_remove(it.in, s);
	}
}

/* Whether every call stores immediates alone into argument i (for the
 * remark on a parameter that is not a scalar). */
static int all_immediate(const Callee *fn, uint32_t i)
{
	for (uint32_t k = 0; k < fn->nsites; k++) {
		CallParts cp;
		ins_call_parts(&fn->sites[k].call->ins, &cp);
		const char *arg = cp.args->kids[i]->str;
		int stores = 0;
		for (const Stmt *s = fn->sites[k].list->head; s; s = s->next)
			if (s->kind == S_INS && !stmt_is_call(s) && ins_mentions(&s->ins, arg)) {
				const Expr *v = s->ins.ops[1];
				if (v->kind == E_BRACE)
					for (uint32_t j = 0; j < v->n; j++)
						if (v->kids[j]->kind == E_NAME)
							return 0;
				if (v->kind == E_NAME)
					return 0;
				stores++;
			}
		if (!stores)
			return 0;
	}
	return fn->nsites > 0;
}

static void constants(Ipo *p, Callee *fn)
{
	Names regs = {0};
	int named = 0;
	for (uint32_t i = 0; i < fn->f->nparams; i++) {
		const Decl *d = &fn->f->params[i];
		const char *formal = d->ds[0].name;
		int bytes = ty_size(d->type);
		uint64_t bits;
		if (!body_mentions(&fn->f->body, formal) || names_shadowed(fn->f))
			continue;   /* (registers' types are read by name) */
		if (!ipo_scalar(d)) {
			if (all_immediate(fn, i)) {
				p->st.refused_const++;
				ipo_remark(p, fn->def->loc, "parameter %u of %s is not made constant: only "
					"scalar parameters are, not vectors or arrays", i + 1, quoted_name(fn->f->name));
			}
			continue;
		}
		if (!same_constant(fn, i, bytes, &bits) || !loads_only(&fn->f->body, formal, bytes))
			continue;
		if (!named++)
			names_of_func(&regs, p->m, fn->f);
		loads_to_movs(p, &regs, &fn->f->body, formal, bits);
		p->st.constants++;
		ipo_remark(p, fn->def->loc, "parameter %u of %s is 0x%llx at every call: made that constant",
			i + 1, quoted_name(fn->f->name), (unsigned long long)bits);
	}
	names_free(&regs);
}

/* ---- parameters and results nothing reads --------------------------------- */

/* Every statement declaring func gets these parameters and results,
 * in place: calls and lists kept from its body (Call.caller, Call.list)
 * stay its own. */
void ipo_set_signature(Ipo *p, const char *func, Decl *params, uint32_t nparams, Decl *rets, uint32_t nrets)
{
	for (Stmt *s = p->m->items.head; s; s = s->next) {
		if (s->kind != S_FUNC || s->func->name != func)
			continue;
		Func *f = s->func;
		if (rets != f->rets)
			f->has_rets = nrets != 0;
		f->params = params, f->nparams = nparams;
		f->rets = rets, f->nrets = nrets;
	}
}

/* The call without argument i (or, for i == -1, without its results);
 * the .param goes when no other call passes it. */
static void drop_from_call(Ipo *p, const Call *st, int64_t i)
{
	Ins *in = &st->call->ins;
	CallParts cp;
	ins_call_parts(in, &cp);
	const Expr *list = i < 0 ? cp.rets : cp.args;
	if (!list)
		return;
	const char *name = list->kids[i < 0 ? 0 : i]->str;
	uint32_t nops = 0;
	Expr **ops = arena_alloc(p->m->arena, in->nops * sizeof *ops);
	for (uint32_t k = 0; k < in->nops; k++) {
		if (in->ops[k] == cp.rets && i < 0)
			continue;
		if (in->ops[k] == cp.args && i >= 0) {
			Expr **kids = arena_alloc(p->m->arena, (list->n + 1) * sizeof *kids);
			uint32_t n = 0;
			for (uint32_t j = 0; j < list->n; j++)
				if (j != (uint32_t)i)
					kids[n++] = list->kids[j];
			ops[nops++] = expr_list(p->m, E_PAREN, kids, n);
			continue;
		}
		ops[nops++] = in->ops[k];
	}
	in->ops = ops;
	in->nops = nops;
	if (!ipo_other_call_names(st->list, name, NULL, ANY))
		drop_param(st->list, name);
}

static void unread_params(Ipo *p, Callee *fn)
{
	Func *f = fn->f;
	Decl *keep = arena_alloc(p->m->arena, (f->nparams + 1) * sizeof *keep);
	uint32_t n = 0, gone = 0;
	for (uint32_t i = 0; i < f->nparams; i++) {
		if (body_mentions(&f->body, f->params[i].ds[0].name)) {
			keep[n++] = f->params[i];
			continue;
		}
		for (uint32_t k = 0; k < fn->nsites; k++)
			drop_from_call(p, &fn->sites[k], (int64_t)(i - gone));
		gone++;
		p->st.params++;
		ipo_remark(p, fn->def->loc, "parameter %u of %s removed: nothing reads it", i + 1,
			quoted_name(f->name));
	}
	if (gone)
		ipo_set_signature(p, f->name, keep, n, f->rets, f->nrets);
}

/* No call site reads the result: a call without one, or whose result
 * .param nothing but calls names. */
static int result_unread(const Callee *fn)
{
	for (uint32_t k = 0; k < fn->nsites; k++) {
		CallParts cp;
		ins_call_parts(&fn->sites[k].call->ins, &cp);
		if (!cp.rets)
			continue;
		const char *r = cp.rets->kids[0]->str;
		for (const Stmt *s = fn->sites[k].list->head; s; s = s->next)
			if ((s->kind == S_INS && !stmt_is_call(s) && ins_mentions(&s->ins, r)) ||
			    (s->kind == S_SCOPE && body_mentions(&s->scope, r)))
				return 0;
	}
	return 1;
}

static void unread_result(Ipo *p, Callee *fn)
{
	Func *f = fn->f;
	if (f->nrets != 1 || !result_unread(fn) || !only_accessed(&f->body, f->rets[0].ds[0].name, 0, 0))
		return;
	drop_param(&f->body, f->rets[0].ds[0].name);
	for (uint32_t k = 0; k < fn->nsites; k++)
		drop_from_call(p, &fn->sites[k], -1);
	ipo_set_signature(p, f->name, f->params, f->nparams, NULL, 0);
	p->st.results++;
	ipo_remark(p, fn->def->loc, "return value of %s removed: no call reads it", quoted_name(f->name));
}

/* ---- driver --------------------------------------------------------------- */

static void print_stats(const Stats *s)
{
	diag_note("ipo: %u functions, %u internal", s->funcs, s->internal);
	for (int i = 0; i < NWHY; i++)
		if (s->left[i])
			diag_note("ipo:   %u left: %s", s->left[i], why_text[i]);
	diag_note("ipo:   %u merged into another, %u parameters made constant (%u refused: not "
		"scalars), %u parameters and %u return values removed, %u pointer parameters passed "
		"by value", s->merged, s->constants, s->refused_const, s->params, s->results, s->byvalue);
}

void ipo(Module *m, const StageOptions *o)
{
	if (!o->ipo.on || mod_has_dwarf(m))
		return;
	Ipo p = {.m = m, .o = o};
	scan(&p);
	merge_all(&p);
	for (uint32_t i = 0; i < p.nfns; i++) {
		Callee *fn = &p.fns[i];
		if (fn->why >= 0 || fn->gone)
			continue;
		if (o->ipo.constants)
			constants(&p, fn);
		unread_params(&p, fn);
		unread_result(&p, fn);
	}
	if (o->ipo.byvalue)
		ipo_by_value(&p);
	if (o->stats)
		print_stats(&p.st);
	if (p.st.merged)
		globalopt_dead(m, o);
	for (uint32_t i = 0; i < p.nfns; i++) {
		free(p.fns[i].sites);
		free(p.fns[i].stmts);
	}
	free(p.fns);
	free(p.fn_of);
	symtab_free(p.t);
}
