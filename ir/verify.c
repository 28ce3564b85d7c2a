/* Invariants of the IR, checked between stages in test and debug builds.
 * A violation is our bug, not the user's: it is reported with the
 * statement's location to help find the stage that broke it.
 * Shape, which every parsed module has:
 *   - list links, expression arity, statements where they belong;
 *   - declarations' and function headers' fields decoded from their words;
 *   - a known opcode and an operand count its row allows;
 *   - the normalized form (ir.h) once ir_normalize has run: in a function
 *     a spelling means one declaration (scope.c).
 * Code, which valid PTX has but a parsed snippet or odd input may not:
 *   - every name an instruction uses is declared (a register, a label, a
 *     module symbol, a special register), in a block around the use;
 *   - no call goes through a register that no definition reaches;
 *   - no register is read on a path where no definition reaches it
 *     (.reg parameters aside);
 *   - no call's .param is read where nothing writes it;
 *   - no address is used in the wrong window (.local or generic).
 * llc leaves undefined values as registers never written, so the code
 * checks are also made relative to the input: ir_verified records what a
 * module violates already (by function and message, not by line), and
 * ir_verify_since reports only what a stage added, as errors naming it.
 * Release builds check the output once instead (ir_checked before the
 * stages, ir_check_output after): the code rules but the windows, in the
 * functions the stages changed.
 * Input: what no valid PTX does, ptxas refusing it, is the user's error
 * (ir_check_input, when a module is normalized): a name used that nothing
 * declares, or declared only in a block not around the use (a call
 * block's param0 in the next call's), and a call passing more or fewer
 * parameters than its callee or prototype declares.  The stages assume
 * neither: inlining such a call once read a .param nothing wrote. */
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "ir.h"

/* A code violation: "function\nmessage", interned. */
typedef struct Known {
	UT_hash_handle hh;
	const char *key;
} Known;

/* A function's fingerprint in the input, for the output check. */
typedef struct Print {
	UT_hash_handle hh;
	const char *name;
	uint64_t fp;
} Print;

struct Verified {
	Known *set;
	Print *prints;          /* the output check's: by function */
	const char **mnames;    /* the output check's: the module's names */
	uint32_t nmnames, cmnames;
};

typedef struct Verifier {
	const Module *m;
	int bad;
	int shape_only;
	int output;                 /* the release check: code only, findings as errors */
	int input;                  /* ir_check_input: names and calls, findings the user's */
	struct Callee *callees;     /* input: the module's functions */
	struct Callee *protos;      /* input: the function's prototypes */
	Arena *carena;
	const Verified *base;       /* violations excused */
	int module_kept;            /* the output check: every module name of the input stays */
	Verified *record;           /* collect violations instead of reporting */
	const char *after;          /* the stage just run, for the message */
	const Func *f;              /* the function being checked */
	Names module;               /* module symbols */
	Names mlocals;              /* the module's .local variables, for addrspace.c */
	Names func;                 /* the function's registers, labels, params */
} Verifier;

/* After a stage a finding is that stage's bug: an error that fails the
 * run (nothing is written), naming the stage.  Alone (ir_verify) it is a
 * warning, for whoever asked. */
static void fail(Verifier *v, Loc loc, const char *what)
{
	if (v->input)
		error(loc, "%s", what);
	else if (v->output)
		error(loc, "the output check: in '%s': %s", v->f ? v->f->name : "", what);
	else if (v->after)
		error(loc, "ir_verify: after stage '%s'%s%s%s: %s", v->after, v->f ? ", in '" : "",
			v->f ? v->f->name : "", v->f ? "'" : "", what);
	else
		warn(loc, "ir_verify: %s", what);
	v->bad++;
}

static const char *known_key(const Verifier *v, const char *what)
{
	char buf[512];
	const char *f = !v->f ? "" : v->f->verify_as ? v->f->verify_as : v->f->name;
	snprintf(buf, sizeof buf, "%.200s\n%s", f, what);
	return intern_cstr(buf);
}

/* A violation of the code rules: recorded, excused by the baseline (one
 * of the same kind in the function in the input), or reported.  kind is
 * what names it: the message, or for the windows the message less the
 * register, which a stage may rightly change. */
static void fail_kind(Verifier *v, Loc loc, const char *kind, const char *what)
{
	Known *k;
	const char *key = known_key(v, kind);
	if (v->record) {
		HASH_FIND_PTR(v->record->set, &key, k);
		if (!k) {
			k = xcalloc(1, sizeof *k);
			k->key = key;
			HASH_ADD_PTR(v->record->set, key, k);
		}
		return;
	}
	if (v->base) {
		HASH_FIND_PTR(v->base->set, &key, k);
		if (k)
			return;
	}
	fail(v, loc, what);
}

static void fail_code(Verifier *v, Loc loc, const char *what)
{
	fail_kind(v, loc, what, what);
}

/* The first kid by a loop: a chain a+b+c+... is as deep as it is long. */
static void verify_expr(Verifier *v, Loc loc, const Expr *e)
{
	for (;; e = e->kids[0]) {
		if (!e) {
			fail(v, loc, "null operand");
			return;
		}
		switch (e->kind) {
		case E_NAME:
		case E_NUM:
			if (!e->str || !*e->str)
				fail(v, loc, "leaf without spelling");
			return;
		case E_UNARY:
			if (e->n != 1)
				fail(v, loc, "unary node without one operand");
			break;
		case E_BINARY:
			if (e->n != 2)
				fail(v, loc, "binary node without two operands");
			break;
		case E_CALL:
			if (!e->kids[e->n] || e->kids[e->n]->kind != E_NAME)
				fail(v, loc, "call expression without a name");
			break;
		case E_PAREN:
		case E_BRACE:
		case E_ADDR:
			break;
		default:
			fail(v, loc, "unknown expression kind");
			return;
		}
		for (uint32_t i = 1; i < e->n; i++)
			verify_expr(v, loc, e->kids[i]);
		if (!e->n)
			return;
	}
}

static void verify_list(Verifier *v, const List *l, int in_body);

static void verify_decl(Verifier *v, Loc loc, const Decl *d)
{
	if (!decl_check(d))
		fail(v, loc, "a declaration's fields disagree with its words (set them with decl_set)");
	if (d->nds == 0)
		fail(v, loc, "declaration without a name");
	for (uint32_t i = 0; i < d->nds; i++) {
		if (!d->ds[i].name)
			fail(v, loc, "declarator without a name");
		for (uint32_t j = 0; j < d->ds[i].ndims; j++)
			if (d->ds[i].dims[j])
				verify_expr(v, loc, d->ds[i].dims[j]);
		if (d->ds[i].init)
			verify_expr(v, loc, d->ds[i].init);
	}
}

/* ---- names ---------------------------------------------------------- */

static void check_name(void *ctx, const char *name, OpRole role)
{
	(void)role;
	void **c = ctx;
	Verifier *v = c[0];
	const Stmt *s = c[1];
	if (names_declared(&v->func, name) || names_exact(&v->module, name) ||
	    is_predefined(name))
		return;
	char what[160];
	snprintf(what, sizeof what, "'%.100s' is used but nothing declares it", name);
	fail_code(v, s->loc, what);
}

static int check_init_leaf(void *ctx, Expr **slot)
{
	if ((*slot)->kind == E_NAME)
		check_name(ctx, (*slot)->str, ROLE_USE);
	return 0;
}

/* The symbols an initializer names ({0, d1b}: a vtable's functions) must
 * stay declared: ptxas refuses "Invalid initial value symbol".  A handle's
 * ({filter_mode = linear} of a .texref) names its fields and their values. */
static void check_inits(Verifier *v, const Stmt *s)
{
	const char *ty = decl_type(&s->var);
	if (ty && (ty_flags(type_of(ty)) & TF_HANDLE))
		return;
	for (uint32_t i = 0; !v->shape_only && i < s->var.nds; i++)
		if (s->var.ds[i].init)
			expr_leaves((Expr **)&s->var.ds[i].init, check_init_leaf, (void *[]){v, (void *)s});
}

/* ---- calls' parameter counts (input) ------------------------------- */

/* What a call may name: a module function, or a prototype of the body
 * (its label, which normalization made one declaration's). */
typedef struct Callee {
	UT_hash_handle hh;
	const char *name;
	const Decl *rets, *params;
	uint32_t nrets, nparams;
	uint8_t defined;        /* a function with a body here (prototypes: 1) */
} Callee;

static void add_callee(Verifier *v, Callee **set, const char *name, const Decl *rets,
	uint32_t nrets, const Decl *params, uint32_t nparams, int defined)
{
	Callee *c;
	if (!name)
		return;
	HASH_FIND_PTR(*set, &name, c);
	if (c) {   /* a function's first declaration: the linker checks the others agree */
		c->defined |= (uint8_t)defined;
		return;
	}
	c = arena_alloc(v->carena, sizeof *c);
	*c = (Callee){.name = name, .rets = rets, .params = params, .nrets = nrets,
		.nparams = nparams, .defined = (uint8_t)defined};
	HASH_ADD_PTR(*set, name, c);
}

static void add_protos(Verifier *v, const List *body)
{
	BodyIt it;
	for (const Stmt *s = body_first(body, &it); s; s = body_next(&it))
		if (s->kind == S_PROTO)
			add_callee(v, &v->protos, s->proto->label, s->proto->rets, s->proto->nrets,
				s->proto->params, s->proto->nparams, 1);
}

static uint32_t decl_names(const Decl *d, uint32_t n)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++)
		k += d[i].nds;
	return k;
}

/* ptxas: "Call has wrong number of parameters".  A direct call is held to
 * its callee where the module defines it (the stages read that body's
 * parameters; a call of an undefined one passes through: clang's variadic
 * printf is the printf stage's to rewrite), one through a register to its
 * prototype; a .calltargets list names no parameters. */
static void check_call(Verifier *v, const Stmt *s)
{
	CallParts c;
	if (!ins_call_parts(&s->ins, &c))
		return;
	const char *key = c.callee->str[0] == '%' ? (c.proto ? c.proto->str : NULL) : c.callee->str;
	Callee *t = NULL;
	if (key)
		HASH_FIND_PTR(key == c.callee->str ? v->callees : v->protos, &key, t);
	if (!t || !t->defined)
		return;
	uint32_t nrets = c.rets ? c.rets->n : 0, nargs = c.args ? c.args->n : 0;
	uint32_t want_rets = decl_names(t->rets, t->nrets), want_args = decl_names(t->params, t->nparams);
	if (nrets == want_rets && nargs == want_args)
		return;
	char what[320];
	snprintf(what, sizeof what, "this call passes %u return parameter%s and %u argument%s, "
		"but %s '%.100s' declares %u and %u", nrets, nrets == 1 ? "" : "s", nargs,
		nargs == 1 ? "" : "s", key == c.callee->str ? "its callee" : "its prototype", key,
		want_rets, want_args);
	fail(v, s->loc, what);
}

static void verify_ins(Verifier *v, const Stmt *s)
{
	const Ins *in = &s->ins;
	if (v->output) {   /* the stages' IR has its shape: ask only what the code says */
		if (in->sp && in->sp->op)
			ins_names(in, check_name, (void *[]){v, (void *)s});
		if (v->input && in->sp && in->sp->op)
			check_call(v, s);
		return;
	}
	for (uint32_t i = 0; i < in->nops; i++)
		verify_expr(v, s->loc, in->ops[i]);
	if (!in->sp || !in->sp->op) {
		fail(v, s->loc, "instruction without a known opcode");
		return;
	}
	if (in->nops < in->sp->op->minops || in->nops > in->sp->op->maxops) {
		char what[160];
		snprintf(what, sizeof what, "'%.80s' with %u operands (the table allows %u to %u)",
			in->sp->text, in->nops, in->sp->op->minops, in->sp->op->maxops);
		fail(v, s->loc, what);
		return;
	}
	if (v->shape_only)
		return;
	const void *ctx[2] = {v, s};
	ins_names(in, check_name, (void *)ctx);
}

/* ---- address windows ---------------------------------------------- */

/* A .local window address used by a generic access, or a generic one by
 * ld.local, is undefined in the PTX ISA, and ptxas takes it without a
 * word: depot's generic-to-local rewrite once gave a pointer variable a
 * .local address that a generic st then used (issue 31). */
static void verify_windows(Verifier *v, const Func *f, const Cfg *g, const Live *l, Defs **d)
{
	AddrSpaces *a = NULL;
	char what[320];
	for (uint32_t i = 0; i < g->nins; i++) {
		const Ins *in = &g->ins[i]->ins;
		int op = in->sp->code;
		Space space = (Space)in->sp->space;
		if ((op != O_ld && op != O_st && op != O_atom && op != O_red) ||
		    (space != SPACE_NONE && space != SPACE_LOCAL))
			continue;
		for (uint32_t k = 0; k < in->nops; k++) {
			const char *reg;
			int64_t off;
			if (!OPND_IS_ADDRESS(ins_operand(in, k)) || !addr_name_off(in->ops[k], &reg, &off) ||
			    reg[0] != '%')
				continue;
			if (!a) {
				if (!*d)
					*d = defs_compute(g, l);
				a = addrspace_compute(&v->mlocals, f, g, *d);
			}
			Window w = addrspace_at(a, i, reg);
			const char *kind;
			if (space == SPACE_NONE && w == WINDOW_LOCAL) {
				kind = "a .local window address used by a generic access";
				snprintf(what, sizeof what, "'%.80s' holds a .local window address, used by the "
					"generic '%.60s' (a generic address of .local memory comes from cvta.local)",
					reg, in->sp->text);
			} else if (space == SPACE_LOCAL && w == WINDOW_GENERIC) {
				kind = "a generic address used by a .local access";
				snprintf(what, sizeof what, "'%.80s' holds a generic address, used by '%.60s' "
					"(a .local window address comes from cvta.to.local)", reg, in->sp->text);
			} else
				continue;
			/* by kind: folding %rd4 = %SPL+16 into [%SPL+16] names another
			 * register for the input's own misuse */
			fail_kind(v, g->ins[i]->loc, kind, what);
		}
	}
	addrspace_free(a);
}

/* ---- call parameters nothing writes ---------------------------------- */

/* A .param a body declares for a call, read (ld.param, a call's argument)
 * where nothing in the function writes it (st.param, a call's result):
 * what ipo left when it removed a result that another call is passed
 * (issue 31).  By name over the whole function: a write anywhere counts,
 * so nvcc's param0 in every call's scope never makes a false finding. */
typedef struct ParamUse {
	UT_hash_handle hh;
	const char *name;
	const Stmt *read;     /* the first read, or NULL */
	uint8_t written;
} ParamUse;

typedef struct Params {
	Arena *arena;
	ParamUse *set;
} Params;

static void body_params(Params *p, const List *l)
{
	BodyIt it;
	for (const Stmt *s = body_first(l, &it); s; s = body_next(&it))
		if (s->kind == S_VAR && decl_space(&s->var) == SPACE_PARAM)
			for (uint32_t i = 0; i < s->var.nds; i++) {
				/* once per name: nvcc declares param0 in every call's
				 * scope, and uthash chains equal keys in one bucket,
				 * which every other name hashed there then walks */
				const char *name = s->var.ds[i].name;
				ParamUse *u;
				HASH_FIND_PTR(p->set, &name, u);
				if (u)
					continue;
				u = arena_alloc(p->arena, sizeof *u);
				*u = (ParamUse){.name = name};
				HASH_ADD_PTR(p->set, name, u);
			}
}

static void param_use(Params *p, const Expr *e, const Stmt *at, int write)
{
	const char *name;
	int64_t off;
	ParamUse *u;
	if (e->kind == E_NAME)
		name = e->str;
	else if (!addr_name_off(e, &name, &off))
		return;
	HASH_FIND_PTR(p->set, &name, u);
	if (!u)
		return;
	if (write)
		u->written = 1;
	else if (!u->read)
		u->read = at;
}

/* Any other mention (mov of its address) counts as a write: no claim. */
static void other_use(void *ctx, const char *name, OpRole role)
{
	(void)role;
	Params *p = ctx;
	ParamUse *u;
	HASH_FIND_PTR(p->set, &name, u);
	if (u)
		u->written = 1;
}

static void verify_param_writes(Verifier *v, const Func *f, const Cfg *g)
{
	Params p = {arena_new(), NULL};
	body_params(&p, &f->body);
	for (uint32_t i = 0; p.set && i < g->nins; i++) {
		const Stmt *s = g->ins[i];
		const Ins *in = &s->ins;
		CallParts c;
		if (ins_call_parts(in, &c)) {
			for (uint32_t k = 0; c.rets && k < c.rets->n; k++)
				param_use(&p, c.rets->kids[k], s, 1);
			for (uint32_t k = 0; c.args && k < c.args->n; k++)
				param_use(&p, c.args->kids[k], s, 0);
		} else if ((in->sp->code == O_ld || in->sp->code == O_st) && in->sp->space == SPACE_PARAM &&
		    in->nops == 2) {
			int st = in->sp->code == O_st;
			param_use(&p, in->ops[st ? 0 : 1], s, st);
		} else
			ins_names(in, other_use, &p);
	}
	char what[200];
	ParamUse *u, *t;
	HASH_ITER(hh, p.set, u, t) {
		if (u->read && !u->written) {
			snprintf(what, sizeof what, "'%.100s' (a .param) is read but nothing writes it", u->name);
			fail_code(v, u->read->loc, what);
		}
		HASH_DEL(p.set, u);
	}
	arena_free(p.arena);
}

/* ---- registers no definition reaches ---------------------------------- */

static int is_reg_param(const Func *f, const char *name)
{
	for (uint32_t i = 0; i < f->nparams; i++)
		if (f->params[i].ds[0].name == name && decl_space(&f->params[i]) == SPACE_REG)
			return 1;
	return 0;
}

/* Registers live on entry are read on some path before any write; a call
 * through a register only the entry value reaches calls garbage. */
static void verify_dataflow(Verifier *v, const Func *f, const Stmt *at)
{
	Cfg *g = cfg_build(f);
	if (!g)
		return;
	Live *l = live_compute(g);
	char what[200];
	for (uint32_t r = 0; g->nblocks && r < live_nregs(l); r++) {
		const char *reg = live_name(l, r);
		if (live_in(l, 0, reg) && !is_reg_param(f, reg)) {
			snprintf(what, sizeof what, "'%.100s' is read on a path where no definition reaches it", reg);
			fail_code(v, at->loc, what);
		}
	}
	Defs *d = NULL;
	for (uint32_t i = 0; i < g->nins; i++) {
		CallParts c;
		const char *reg;
		if (!ins_call_parts(&g->ins[i]->ins, &c) || live_reg(l, reg = c.callee->str) < 0)
			continue;
		if (!d)
			d = defs_compute(g, l);
		uint32_t def[2];
		if (defs_reaching(d, i, reg, def, 2) == 1 && def[0] == DEF_ENTRY) {
			snprintf(what, sizeof what, "call through '%.100s', which no definition reaches", reg);
			fail_code(v, g->ins[i]->loc, what);
		}
	}
	verify_param_writes(v, f, g);
	if (!v->output)
		verify_windows(v, f, g, l, &d);
	defs_free(d);
	live_free(l);
	cfg_free(g);
}

/* Parameters and return values: their words and fields only. */
static void verify_params(Verifier *v, Loc loc, const Decl *d, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (!decl_check(&d[i]))
			fail(v, loc, "a parameter's fields disagree with its words (set them with decl_set)");
}

static void verify_header(Verifier *v, const Stmt *s)
{
	const Func *f = s->func;
	Func again = *f;
	func_set_specs(&again, f->specs, f->nspecs);
	if (again.linkage != f->linkage)
		fail(v, s->loc, "a function's linkage is not its words' (set it with func_set_linkage)");
	if (!func_check(f))
		fail(v, s->loc, "a function's directives disagree with its fields (set them with func_set_attrs)");
	verify_params(v, s->loc, f->params, f->nparams);
	verify_params(v, s->loc, f->rets, f->nrets);
}

static void scope_problem(void *ctx, Loc loc, const char *what, int form)
{
	Verifier *v = ctx;
	if (form)
		fail(v, loc, what);
	else if (!v->shape_only)
		fail_code(v, loc, what);
}

/* ---- what the stages left alone --------------------------------------- */

/* The output check is about what the stages did: a function they left
 * as it was breaks what it broke in the input, and no more, once every
 * module name it could use is still there.  Its fingerprint covers every
 * field the check reads (interned pointers: a changed one only makes a
 * function checked again), so a function is skipped only when unchanged. */
/* The first kid by a loop, as verify_expr. */
static uint64_t expr_fp(uint64_t h, const Expr *e)
{
	for (; e; e = e->n ? e->kids[0] : NULL) {
		h = hash_mix(hash_mix(h, e->kind), e->op);
		if (e->kind == E_NAME || e->kind == E_NUM)
			return hash_mix(h, (uintptr_t)e->str);
		h = hash_mix(h, e->n);
		for (uint32_t i = 1; i < e->n; i++)
			h = expr_fp(h, e->kids[i]);
		if (e->kind == E_CALL)
			h = expr_fp(h, e->kids[e->n]);
	}
	return hash_mix(h, 0);
}

static uint64_t decl_fp(uint64_t h, const Decl *d, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++) {
		h = hash_mix(hash_mix(h, decl_space(&d[k])), (uintptr_t)decl_type(&d[k]));
		for (uint32_t i = 0; i < d[k].nds; i++)
			h = hash_mix(hash_mix(h, (uintptr_t)d[k].ds[i].name), (uintptr_t)d[k].ds[i].count);
	}
	return h;
}

static uint64_t list_fp(uint64_t h, const List *l)
{
	for (const Stmt *s = l->head; s; s = s->next) {
		h = hash_mix(h, s->kind);
		switch (s->kind) {
		case S_INS:
			h = hash_mix(hash_mix(hash_mix(h, (uintptr_t)s->ins.sp), (uintptr_t)s->ins.guard), (uint64_t)s->ins.guard_neg);
			h = hash_mix(h, s->ins.nops);
			for (uint32_t i = 0; i < s->ins.nops; i++)
				h = expr_fp(h, s->ins.ops[i]);
			break;
		case S_VAR: h = decl_fp(h, &s->var, 1); break;
		case S_SCOPE: h = hash_mix(list_fp(h, &s->scope), S_SCOPE); break;   /* recursive: brackets it */
		case S_LABEL: h = hash_mix(h, (uintptr_t)s->label); break;
		case S_PROTO: h = hash_mix(h, (uintptr_t)s->proto->label); break;
		case S_TARGETS:
			h = hash_mix(h, (uintptr_t)s->list.label);
			for (uint32_t i = 0; i < s->list.nitems; i++)
				h = expr_fp(h, s->list.items[i]);
			break;
		default: break;
		}
	}
	return h;
}

/* Records f's fingerprint (ir_checked), or whether the input had f as it
 * is now (ir_check_output). */
static int unchanged(Verifier *v, const Func *f)
{
	if (!f->name || !f->has_body)
		return 0;
	uint64_t fp = list_fp(decl_fp(decl_fp(1, f->params, f->nparams), f->rets, f->nrets), &f->body);
	Print *p;
	if (v->record) {
		p = xcalloc(1, sizeof *p);
		p->name = f->name, p->fp = fp;
		HASH_ADD_PTR(v->record->prints, name, p);   /* a module defines a name once */
		return 0;
	}
	if (!v->base)
		return 0;
	HASH_FIND_PTR(v->base->prints, &f->name, p);
	return p && p->fp == fp;
}

/* The module's names, recorded (ir_checked), or whether each recorded
 * one is still declared (ir_check_output). */
static void module_names(Verifier *v)
{
	Verified *r = v->record;
	if (r) {
		for (const Stmt *s = v->m->items.head; s; s = s->next)
			for (uint32_t i = 0; s->kind == S_VAR && i < s->var.nds; i++) {
				r->mnames = array_grow(r->mnames, r->nmnames, &r->cmnames, sizeof *r->mnames);
				r->mnames[r->nmnames++] = s->var.ds[i].name;
			}
		for (const Stmt *s = v->m->items.head; s; s = s->next)
			if (s->kind == S_FUNC && s->func->name) {
				r->mnames = array_grow(r->mnames, r->nmnames, &r->cmnames, sizeof *r->mnames);
				r->mnames[r->nmnames++] = s->func->name;
			}
		return;
	}
	v->module_kept = v->base != NULL;
	for (uint32_t i = 0; v->base && i < v->base->nmnames; i++)
		if (!names_exact(&v->module, v->base->mnames[i]))
			v->module_kept = 0;
}

static void verify_func(Verifier *v, const Stmt *s)
{
	const Func *f = s->func;
	if (!f->name)
		fail(v, s->loc, "function without a name");
	if (!v->output)
		verify_header(v, s);
	if (!f->has_body && f->body.head)
		fail(v, s->loc, "declaration with a body");
	int same = v->output && unchanged(v, f);
	if (same && v->module_kept)
		return;   /* its findings are the input's */
	names_add_decls(&v->func, f->params, f->nparams);
	names_add_decls(&v->func, f->rets, f->nrets);
	names_of_body(&v->func, &f->body);
	if (v->input)
		add_protos(v, &f->body);
	v->f = f;
	int before = v->bad;
	verify_list(v, &f->body, 1);
	if (v->bad == before && f->has_body)
		scope_check(v->m, s, &v->module, scope_problem, v);
	if (!same && !v->shape_only && !v->input && v->bad == before && f->has_body)
		verify_dataflow(v, f, s);  /* its labels resolve: the CFG can be built */
	v->f = NULL;
	names_free(&v->func);
	HASH_CLEAR(hh, v->protos);   /* their memory is the arena's */
}

static void verify_stmt(Verifier *v, const Stmt *s, int in_body)
{
	int body_only = s->kind == S_INS || s->kind == S_LABEL || s->kind == S_SCOPE ||
		s->kind == S_LOC || s->kind == S_PROTO || s->kind == S_TARGETS;
	int top_only = s->kind == S_VERSION || s->kind == S_TARGET ||
		s->kind == S_ADDRSIZE || s->kind == S_FILE || s->kind == S_SECTION ||
		s->kind == S_FUNC || s->kind == S_ALIAS;
	if ((in_body && top_only) || (!in_body && body_only))
		fail(v, s->loc, "statement in the wrong place");
	switch (s->kind) {
	case S_INS:
		verify_ins(v, s);
		break;
	case S_VAR:
		check_inits(v, s);
		if (v->output)
			break;
		verify_decl(v, s->loc, &s->var);
		if (v->m->normalized && s->var.nds != 1)
			fail(v, s->loc, "a variable statement declares more than one name after normalization");
		break;
	case S_FUNC:
		verify_func(v, s);
		break;
	case S_SCOPE:   /* recursive: each list's own links are checked, which a walk trusts */
		verify_list(v, &s->scope, 1);
		break;
	case S_TARGETS:   /* a label or function each name of the list must mean */
		for (uint32_t i = 0; !v->shape_only && i < s->list.nitems; i++)
			if (s->list.items[i]->kind == E_NAME)
				check_name((void *[]){v, (void *)s}, s->list.items[i]->str, ROLE_USE);
		break;
	case S_PROTO:
		verify_params(v, s->loc, s->proto->params, s->proto->nparams);
		verify_params(v, s->loc, s->proto->rets, s->proto->nrets);
		break;
	case S_LABEL:
		if (!s->label)
			fail(v, s->loc, "label without a name");
		break;
	default:
		break;
	}
}

static void verify_list(Verifier *v, const List *l, int in_body)
{
	const Stmt *prev = NULL;
	for (const Stmt *s = l->head; s; prev = s, s = s->next) {
		if (s->prev != prev)
			fail(v, s->loc, "broken prev link");
		verify_stmt(v, s, in_body);
	}
	if (l->tail != prev)
		fail(v, (Loc){0}, "list tail is not its last statement");
}

static int verify(Verifier *v)
{
	for (const Stmt *s = v->m->items.head; s; s = s->next)
		if (s->kind == S_VAR) {
			names_add_decls(&v->module, &s->var, 1);
			if (decl_space(&s->var) == SPACE_LOCAL)
				names_add_decls(&v->mlocals, &s->var, 1);
		} else if (s->kind == S_FUNC && s->func->name) {
			names_add(&v->module, s->func->name, NULL);
			if (v->input)
				add_callee(v, &v->callees, s->func->name, s->func->rets, s->func->nrets,
					s->func->params, s->func->nparams, s->func->has_body);
		}
		else if (s->kind == S_ALIAS)
			for (uint32_t i = 0; i < s->list.nitems; i++)
				if (s->list.items[i]->kind == E_NAME)
					names_add(&v->module, s->list.items[i]->str, NULL);
	if (v->output)
		module_names(v);
	verify_list(v, &v->m->items, 0);
	names_free(&v->module);
	names_free(&v->mlocals);
	HASH_CLEAR(hh, v->callees);
	arena_free(v->carena);
	return v->bad;
}

int ir_verify(const Module *m)
{
	return verify(&(Verifier){.m = m});
}

int ir_check_input(const Module *m)
{
	return verify(&(Verifier){.m = m, .output = 1, .input = 1, .carena = arena_new()});
}

int ir_verify_shape(const Module *m)
{
	return verify(&(Verifier){.m = m, .shape_only = 1});
}

Verified *ir_verified(const Module *m)
{
	Verified *r = xcalloc(1, sizeof *r);
	verify(&(Verifier){.m = m, .record = r});
	return r;
}

int ir_verify_since(const Module *m, const Verified *base, const char *stage)
{
	return verify(&(Verifier){.m = m, .base = base, .after = stage});
}

Verified *ir_checked(const Module *m)
{
	Verified *r = xcalloc(1, sizeof *r);
	verify(&(Verifier){.m = m, .record = r, .output = 1});
	return r;
}

int ir_check_output(const Module *m, const Verified *base)
{
	return verify(&(Verifier){.m = m, .base = base, .output = 1});
}

void ir_verified_free(Verified *r)
{
	if (!r)
		return;
	Known *k, *t;
	HASH_ITER(hh, r->set, k, t) {
		HASH_DEL(r->set, k);
		free(k);
	}
	Print *p, *q;
	HASH_ITER(hh, r->prints, p, q) {
		HASH_DEL(r->prints, p);
		free(p);
	}
	free(r->mnames);
	free(r);
}
