/* globalopt.c: global optimization of the whole linked module (issue 14).
 *
 * After a link the device program is known, and what the host can reach
 * is known too: it launches kernels and reads or writes variables by name
 * (cudaMemcpyToSymbol and friends work for every .global and .const
 * variable, internal ones included: nvcc's whole-program PTX marks none
 * .visible).  It never calls a device function.  So:
 *
 *   roots      kernels; every .global/.const variable the host can name
 *              (not a compiler temporary such as $str, whose name has a
 *              '$'), or with --internalize only the --keep / --keep-file
 *              names; in an open world (world.c) every non-internal
 *              symbol; anything a section (DWARF) names, and a
 *              function whose labels it names.
 *   folding    a variable no root is and nothing writes, whose
 *              initializer is numbers and whose address, where taken,
 *              only reaches loads (through mov, cvta, add and sub): each
 *              load of it at a constant offset, [v+C] or through registers
 *              (ir/value.c), becomes mov of the bytes there (the variable
 *              stays for its other loads)
 *                  ld.const.f32 %f1, [c_w+4];  ->  mov.f32 %f1, 0f3F000000;
 *              then what such moves feed, an integer operation whose
 *              result is now one value (ir/range.c), becomes a mov of it,
 *              and a load whose address that makes constant folds too,
 *              round after round in each function (at most 8) until
 *              nothing changes;
 *   dedupe     identical read-only data (the same type, size, alignment
 *              and bytes) kept once when its address cannot be told apart:
 *              compiler temporaries (string literals) and variables whose
 *              address only ever reaches loads (through mov, cvta, add);
 *              the others' uses name the first.
 *   dead code  functions and variables no root reaches through calls,
 *              addresses in code or initializers and loads and stores go,
 *              with their declarations and aliases.
 *   never run  in a closed world, a function no kernel reaches through
 *              direct calls or .calltargets lists, where no indirect call
 *              lacks one: its body becomes a trap, its address stays
 *              (uncallable()).
 *   internalize  in a closed world, functions lose .visible/.weak (the
 *              host cannot call them); with --internalize, variables not
 *              kept too.
 * Every change is a remark (-Rpass=globalopt) and counted (--stats).
 * --internalize without --keep warns once, naming the variables the host
 * could name that went, folded or split: cudaMemcpyToSymbol and
 * cudaMemcpyFromSymbol on them no longer reach what the kernels use.
 *
 * requires: normalized IR, the world verdict / maintains: normalized IR /
 * breaks: any symbol table, call graph or analysis built before it. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "stages.h"

enum { MAX_FOLD_BYTES = 1 << 20, TOOK_NAMED = 8 };

typedef struct Stats {
	unsigned funcs, vars, aliases, internal_funcs, internal_vars, folded, constants, deduped, split;
	unsigned trapped;
	uint64_t var_bytes;
} Stats;

typedef struct Go {
	Module *m;
	const StageOptions *o;
	Stats st;
	SymTab *t;
	uint8_t *root;      /* per symbol id */
	uint8_t *reached;
	uint8_t *kept;      /* per symbol id: a --keep name (mark_kept) */
	int changed;        /* the step changed the module: its table is stale */
	/* host-nameable variables --internalize let go, fold or split (names
	 * interned, a name once or more): the warning's; of those the input
	 * had (hostvars: not split's fields, which no host code names) */
	const char **took;
	uint32_t ntook, captook;
	Names hostvars;
	int seen;           /* hostvars is filled */
} Go;

static void remark(const Go *g, Loc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void remark(const Go *g, Loc at, const char *fmt, ...)
{
	if (!g->o->globalopt.remarks)
		return;
	va_list ap;
	va_start(ap, fmt);
	vdiag(DIAG_REMARK, diag_filename(at.file), at.line, 0, fmt, ap);
	va_end(ap);
}

/* ---- roots ---------------------------------------------------------------- */

/* --keep's names marked on the table once: asking the list for each
 * symbol cost symbols times names (ptxlink -dlink keeps every name host
 * code refers to). */
static void mark_kept(Go *g)
{
	for (uint32_t i = 0; i < g->o->globalopt.nkeep; i++) {
		const Symbol *s = symtab_find(g->t, g->o->globalopt.keep[i]);
		if (s)
			g->kept[s->id] = 1;
	}
}

/* The host reaches .global and .const variables (and binds .tex ones) by
 * name, except compiler temporaries, whose names no source can spell. */
static int host_named(const Symbol *s)
{
	return s->kind == SYM_VAR && (s->space == SPACE_GLOBAL || s->space == SPACE_CONST ||
		s->space == SPACE_TEX) && !strchr(s->name, '$');
}

static int is_kernel(const Symbol *s)
{
	return s->kind == SYM_FUNC && s->def && s->def->kind == S_FUNC && s->def->func->is_entry;
}

/* s, a variable only --internalize made no root, was removed, folded
 * or split: the warning names it (none when --keep says what stays). */
static void took(Go *g, const Symbol *s)
{
	if (!host_named(s) || !names_exact(&g->hostvars, s->name))
		return;
	g->took = array_grow(g->took, g->ntook, &g->captook, sizeof *g->took);
	g->took[g->ntook++] = s->name;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One warning for what took() saw: each name once, in order, the first
 * TOOK_NAMED of them. */
static void warn_took(Go *g)
{
	names_free(&g->hostvars);
	if (!g->ntook)
		return;
	qsort(g->took, g->ntook, sizeof *g->took, by_name);
	uint32_t n = 0;
	size_t len = 64;
	for (uint32_t i = 0; i < g->ntook; i++)
		if (!n || g->took[i] != g->took[n - 1])
			g->took[n++] = g->took[i];
	for (uint32_t i = 0; i < n && i < TOOK_NAMED; i++)
		len += strlen(quoted_name(g->took[i])) + 2;
	char *list = xmalloc(len), *p = list;
	for (uint32_t i = 0; i < n && i < TOOK_NAMED; i++)
		p += sprintf(p, "%s%s", i ? ", " : "", quoted_name(g->took[i]));
	if (n > TOOK_NAMED)
		sprintf(p, " and %u more", n - TOOK_NAMED);
	warn((Loc){0}, "--internalize: %u variable%s the host could fill or read by name "
		"(cudaMemcpyToSymbol, cudaMemcpyFromSymbol) removed, folded or split: %s "
		"(--keep=NAME keeps one)", n, n == 1 ? "" : "s", list);
	free(list);
	free(g->took);
	g->took = NULL;
	g->ntook = g->captook = 0;
}

/* The variables the host can name as the stage starts (for the warning
 * only: none without it). */
static void find_hostvars(Go *g)
{
	int warns = g->o->globalopt.internalize && !g->o->globalopt.nkeep;
	for (uint32_t i = 0; warns && !g->seen && i < symtab_count(g->t); i++)
		if (host_named(symtab_at(g->t, i)))
			names_add(&g->hostvars, symtab_at(g->t, i)->name, NULL);
	g->seen = 1;
}

static int is_root(const Go *g, const Symbol *s)
{
	if (is_kernel(s) || g->kept[s->id])
		return 1;
	if (!g->o->world.closed && s->linkage != LINK_INTERNAL)
		return 1;
	return !g->o->globalopt.internalize && host_named(s);
}

/* What a section names stays: DWARF's addresses (-G) would dangle.  A
 * function whose labels it names stays whole, and what its code names;
 * one it does not name may go, as -lineinfo's .debug_str names none. */
static int named_in_sections(const Names *named, const Symbol *s)
{
	return names_exact(named, s->name) || (s->kind == SYM_FUNC && s->def &&
		s->def->kind == S_FUNC && names_label_in(named, &s->def->func->body));
}

static void find_roots(Go *g)
{
	Names named = {0};
	names_of_sections(&named, g->m);
	mark_kept(g);
	uint32_t n = symtab_count(g->t);
	for (uint32_t i = 0; i < n; i++) {
		const Symbol *s = symtab_at(g->t, i);
		g->root[i] = (uint8_t)(is_root(g, s) || named_in_sections(&named, s));
	}
	names_free(&named);
	find_hostvars(g);
}

/* ---- what the roots reach ------------------------------------------------- */

/* The symbol whose code or initializer holds use u. */
static Symbol *owner(const Go *g, const SymUse *u)
{
	if (u->in)
		return symtab_find(g->t, u->in->name);
	if (u->at->kind == S_VAR)
		return symtab_find(g->t, u->at->var.ds[0].name);
	return NULL;
}

typedef struct Edge {
	uint32_t from, to;
} Edge;

static int cmp_edge(const void *a, const void *b)
{
	const Edge *x = a, *y = b;
	return (x->from > y->from) - (x->from < y->from);
}

static void reach(Go *g)
{
	uint32_t n = symtab_count(g->t), ne = 0, ce = 0;
	Edge *e = NULL;
	for (uint32_t i = 0; i < n; i++) {
		const Symbol *s = symtab_at(g->t, i);
		for (uint32_t k = 0; k < s->nuses; k++) {
			const Symbol *o = owner(g, &s->uses[k]);
			if (!o || o == s)
				continue;
			e = array_grow(e, ne, &ce, sizeof *e);
			e[ne++] = (Edge){o->id, s->id};
		}
		/* .alias a, b: a reaches b */
		if (s->def && s->def->kind == S_ALIAS && s->def->list.items[1]->kind == E_NAME) {
			const Symbol *b = symtab_find(g->t, s->def->list.items[1]->str);
			if (b) {
				e = array_grow(e, ne, &ce, sizeof *e);
				e[ne++] = (Edge){s->id, b->id};
			}
		}
	}
	if (ne)  /* qsort(NULL, 0) is undefined */
		qsort(e, ne, sizeof *e, cmp_edge);
	uint32_t *first = xcalloc(n + 1, sizeof *first), *work = xmalloc((n + 1) * sizeof *work), nw = 0;
	for (uint32_t i = 0; i < ne; i++)
		first[e[i].from + 1]++;
	for (uint32_t i = 0; i < n; i++)
		first[i + 1] += first[i];
	memset(g->reached, 0, n);   /* the table may be a step's old one */
	for (uint32_t i = 0; i < n; i++)
		if (g->root[i] && !g->reached[i])
			g->reached[i] = 1, work[nw++] = i;
	while (nw) {
		uint32_t s = work[--nw];
		for (uint32_t k = first[s]; k < first[s + 1]; k++)
			if (!g->reached[e[k].to])
				g->reached[e[k].to] = 1, work[nw++] = e[k].to;
	}
	free(first);
	free(work);
	free(e);
}

/* ---- dead code -------------------------------------------------------------- */

static const Symbol *symbol_of(const Go *g, const Stmt *s)
{
	if (s->kind == S_FUNC)
		return symtab_find(g->t, s->func->name);
	if (s->kind == S_VAR)
		return symtab_find(g->t, s->var.ds[0].name);
	if (s->kind == S_ALIAS && s->list.items[0]->kind == E_NAME)
		return symtab_find(g->t, s->list.items[0]->str);
	return NULL;
}

static void remove_dead(Go *g)
{
	for (Stmt *s = g->m->items.head, *next; s; s = next) {
		next = s->next;
		const Symbol *sym = symbol_of(g, s);
		if (!sym || g->reached[sym->id])
			continue;
		if (s == sym->def || (!sym->def && s == sym->decl)) {
			if (s->kind == S_FUNC)
				g->st.funcs++;
			else if (s->kind == S_VAR) {
				g->st.vars++, g->st.var_bytes += sym->size > 0 ? (uint64_t)sym->size : 0;
				took(g, sym);
			}
			else
				g->st.aliases++;
			remark(g, s->loc, "%s removed: %s", quoted_name(sym->name),
				s->kind == S_FUNC ? "no kernel calls it or takes its address"
				: "no kernel or host-visible variable reaches it");
		}
		list_remove(&g->m->items, s);
		g->changed = 1;
	}
}

/* ---- functions that never run ------------------------------------------- */

static int is_trap(const List *body)
{
	return body->head && body->head == body->tail && body->head->kind == S_INS &&
		body->head->ins.sp->code == O_trap;
}

/* In a closed world where every indirect call a kernel may run has a
 * .calltargets list (devirtualization's), a function no kernel reaches
 * through direct calls or those lists never runs, whatever holds its
 * address: a table the host may read, a pointer in code.  Its body becomes a trap: its address
 * stays valid and distinct, and what only it called goes with the dead
 * code (such a callee, its address not taken, goes whole).  Whole-program ptxas drops such functions itself (nvlink -dlto:
 * the generated yardstick's unused table of yop functions); ptxas -c and
 * nvlink keep them whole.  Not a root: a function a section names (-G's
 * DWARF describes its code) or a --keep one (a kernel always runs). */
static void uncallable(Go *g)
{
	if (!g->o->world.closed)
		return;
	CallGraph *cg = callgraph_build(g->m, g->t);
	uint8_t *runs = cg_runs(cg, g->o->globalopt.keep, g->o->globalopt.nkeep);
	for (uint32_t i = 0; runs && i < cg_count(cg); i++) {
		const Symbol *sym = cg_func(cg, i)->sym;
		Func *f = sym->def && sym->def->kind == S_FUNC ? sym->def->func : NULL;
		if (runs[i] || g->root[sym->id] || !(sym->how & USE_ADDR) || !f || !f->has_body ||
		    is_trap(&f->body))
			continue;
		f->body = (List){0};
		list_append(&f->body, ins_new(g->m, sym->def->loc, "trap", NULL, 0));
		g->st.trapped++;
		g->changed = 1;
		remark(g, sym->def->loc, "%s never runs, its body a trap: no kernel calls it, directly or "
			"through a .calltargets list", quoted_name(sym->name));
	}
	free(runs);
	callgraph_free(cg);
}

/* ---- internalize -------------------------------------------------------- */

static void internalize(Go *g)
{
	int closed = g->o->world.closed;
	for (Stmt *s = g->m->items.head, *next; s; s = next) {
		next = s->next;
		const Symbol *sym = symbol_of(g, s);
		if (!sym || !sym->def || sym->linkage == LINK_INTERNAL || is_root(g, sym) || !closed)
			continue;
		g->changed = 1;   /* the table's linkage is stale from here on */
		if (s->kind == S_FUNC && !s->func->is_entry) {
			if (s == sym->def) {
				g->st.internal_funcs++;
				remark(g, s->loc, "%s made internal: the host cannot call a device function",
					quoted_name(sym->name));
			}
			func_set_linkage(g->m, s->func, LINK_INTERNAL);
		} else if (s->kind == S_VAR && g->o->globalopt.internalize) {
			if (s != sym->def) {  /* an .extern declaration beside the definition */
				list_remove(&g->m->items, s);
				continue;
			}
			g->st.internal_vars++;
			remark(g, s->loc, "%s made internal: --internalize and not kept",
				quoted_name(sym->name));
			decl_set_linkage(g->m, &s->var, LINK_INTERNAL);
		}
	}
}

/* ---- read-only data ------------------------------------------------------ */

/* A variable whose bytes are its initializer's for the whole run: not a
 * root, defined here, .global or .const, never written, initialized with
 * numbers.  image gets them (malloc'd). */
static int read_only(const Go *g, const Symbol *s, uint8_t **image)
{
	if (s->kind != SYM_VAR || g->root[s->id] || !s->def || s->def->kind != S_VAR ||
	    (s->space != SPACE_GLOBAL && s->space != SPACE_CONST) || (s->how & USE_WRITE) ||
	    s->size <= 0 || s->size > MAX_FOLD_BYTES || s->def->var.nds != 1)
		return 0;
	*image = xmalloc((size_t)s->size);
	if (!init_image(&s->def->var, &s->def->var.ds[0], *image, s->size)) {
		free(*image);
		*image = NULL;
		return 0;
	}
	return 1;
}

/* [name] or [name+C]: C, else -1 */
static int64_t offset_from(const Expr *e, const char *name)
{
	const char *base;
	int64_t c;
	return addr_name_off(e, &base, &c) && base == name && c >= 0 ? c : -1;
}

/* ---- addresses only dereferenced ---------------------------------------- */

enum { MAX_FOLLOW = 256 };

/* Whether register reg, as instruction at defines it, only ever serves as
 * the address of loads (through mov, cvta, add and sub of it). */
static int only_load_address(const Cfg *cfg, const Defs *defs, uint32_t at, const char *reg, int *budget)
{
	uint32_t uses[64];
	uint32_t n = defs_uses(defs, at, reg, uses, 64);
	if (n > 64 || (*budget -= (int)n + 1) < 0)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		const Ins *in = &cfg->ins[uses[i]]->ins;
		int op = in->sp->code;
		if ((op == O_ld || op == O_ldu) && in->nops == 2 && in->ops[0]->kind != E_ADDR &&
		    !expr_mentions(in->ops[0], reg) && in->ops[1]->kind == E_ADDR)
			continue;
		if ((op == O_mov || op == O_cvta || op == O_add || op == O_sub) && !in->guard &&
		    in->ops[0]->kind == E_NAME && in->ops[0]->str != reg &&
		    !(op == O_sub && expr_mentions(in->ops[2], reg)) &&
		    only_load_address(cfg, defs, uses[i], in->ops[0]->str, budget))
			continue;
		return 0;
	}
	return 1;
}

typedef struct AddrUse {   /* symbol sym's address taken at `at`, in `in` */
	const Func *in;
	Stmt *at;
	uint32_t sym;
} AddrUse;

static int cmp_addr_use(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const AddrUse *)a)->in, y = (uintptr_t)((const AddrUse *)b)->in;
	return (x > y) - (x < y);
}

/* Each statement's index in Cfg.ins by its place: cfg_build and places_of
 * walk a body alike.  UINT32_MAX for what is no instruction. */
static uint32_t *ins_numbers(const Places *pl)
{
	uint32_t *num = xmalloc((pl->n + 1) * sizeof *num), k = 0;
	for (uint32_t p = 0; p < pl->n; p++)
		num[p] = pl->v[p].s->kind == S_INS ? k++ : UINT32_MAX;
	return num;
}

/* a[0..n), uses in one function: each one's symbol loses ok unless the
 * register the use defines only reaches the addresses of loads.  Not
 * followed where a nested scope declares a name again: registers' uses,
 * found by name, could be another register's. */
static void check_addresses(const AddrUse *a, uint32_t n, uint8_t *ok)
{
	const Func *f = a[0].in;
	Cfg *cfg = names_shadowed(f) ? NULL : cfg_build(f);
	Live *live = cfg ? live_compute(cfg) : NULL;
	Defs *defs = cfg ? defs_compute(cfg, live) : NULL;
	Places pl = {0};
	places_of(&pl, (List *)&f->body);
	uint32_t *num = ins_numbers(&pl);
	for (uint32_t k = 0; k < n; k++) {
		const Ins *in = &a[k].at->ins;
		const Place *p = place_of(&pl, a[k].at);
		uint32_t at = p ? num[p - pl.v] : UINT32_MAX;
		int op = in->sp->code, budget = MAX_FOLLOW;
		if (ok[a[k].sym] && (!cfg || at >= cfg->nins || cfg->ins[at] != a[k].at ||
		    !(op == O_mov || op == O_cvta || op == O_add) || in->guard ||
		    in->ops[0]->kind != E_NAME || !only_load_address(cfg, defs, at, in->ops[0]->str, &budget)))
			ok[a[k].sym] = 0;
	}
	free(num);
	places_free(&pl);
	defs_free(defs), live_free(live), cfg_free(cfg);
}

/* For each symbol asked about (ask[id]), whether every use of its address
 * is a register only loads dereference (ok[id]): then nothing writes it
 * and nothing can tell its address from another's.  One walk of each
 * function, however many symbols it takes addresses of. */
static void only_loaded(const Go *g, const uint8_t *ask, uint8_t *ok)
{
	uint32_t n = symtab_count(g->t), na = 0, ca = 0;
	AddrUse *a = NULL;
	for (uint32_t i = 0; i < n; i++) {
		const Symbol *v = symtab_at(g->t, i);
		ok[i] = ask[i];
		for (uint32_t k = 0; ok[i] && k < v->nuses; k++) {
			const SymUse *u = &v->uses[k];
			if (!(u->how & USE_ADDR))
				continue;
			if (!u->in || u->at->kind != S_INS) {
				ok[i] = 0;   /* in an initializer: anything may hold it */
				break;
			}
			a = array_grow(a, na, &ca, sizeof *a);
			a[na++] = (AddrUse){u->in, u->at, i};
		}
	}
	if (na)
		qsort(a, na, sizeof *a, cmp_addr_use);
	for (uint32_t i = 0, j; i < na; i = j) {
		for (j = i + 1; j < na && a[j].in == a[i].in; j++)
			;
		check_addresses(a + i, j - i, ok);
	}
	free(a);
}

/* ---- folding ------------------------------------------------------------ */

/* Loads fold, then what they feed: an integer operation whose result the
 * ranges (ir/range.c) now say is one value becomes a move of it, and a
 * load whose address that makes constant folds in the next round. */
enum { MAX_ROUNDS = 8 };

typedef struct Folder {   /* folding in one function */
	Go *g;
	uint8_t **image;      /* per symbol: its bytes, when never written */
	Cfg *cfg;
	Live *live;
	Defs *defs;
	Names own;            /* what f declares: its registers' types, names it shadows */
	Tracker tr;           /* addresses through registers (ir/value.c), no loads */
	Ranges *rs;           /* this round's */
	int follow;           /* registers are followed (no name declared twice) */
	uint8_t *known;       /* per instruction: 1 made a constant, 2 a vector load folded */
} Folder;

/* The immediate for `bytes` bytes at p read as type ty, as PTX spells it. */
static const char *immediate(const uint8_t *p, int bytes, int ty)
{
	uint64_t v = 0;
	for (int b = 0; b < bytes; b++)
		v |= (uint64_t)p[b] << (8 * b);
	char buf[32];
	if (ty_float(ty))
		snprintf(buf, sizeof buf, bytes == 4 ? "0f%08llX" : "0d%016llX", (unsigned long long)v);
	else if (ty_signed(ty))
		snprintf(buf, sizeof buf, "%lld", bytes == 4 ? (long long)(int32_t)v : (long long)(int64_t)v);
	else
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
	return intern_cstr(buf);
}

/* The low `bits` bits of v, as a signed number or an unsigned one. */
static const char *int_immediate(uint64_t v, int bits, int sign)
{
	int drop = 64 - bits;
	char buf[32];
	if (sign)
		snprintf(buf, sizeof buf, "%lld", (long long)((int64_t)(v << drop) >> drop));
	else
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)(v << drop >> drop));
	return intern_cstr(buf);
}

/* The never-written variable a plain load (no memory order or scope)
 * reads, at a constant offset *off, in its own state space or through a
 * generic address; NULL when it is not one. */
static const Symbol *load_source(const Folder *fo, uint32_t i, int64_t *off)
{
	const Ins *in = &fo->cfg->ins[i]->ins;
	const Spelling *sp = in->sp;
	if ((sp->code != O_ld && sp->code != O_ldu) || in->nops != 2 || sp->unknown ||
	    in->ops[1]->kind != E_ADDR || in->ops[1]->n != 1)
		return NULL;
	for (uint32_t k = 0; k < sp->nmods; k++)
		if (sp->words[k].kind == MW_MOD && (mod_group(sp->words[k].id) == MG_ORDER ||
		    mod_group(sp->words[k].id) == MG_SCOPE))
			return NULL;
	Value a;
	if (fo->follow ? !value_of(&fo->tr, i, in->ops[1]->kids[0], &a) :
	    !addr_name_off(in->ops[1], &a.sym, &a.off))
		return NULL;
	const Symbol *v = a.sym && !names_exact(&fo->own, a.sym) ? symtab_find(fo->g->t, a.sym) : NULL;
	Space space = ins_space(in);
	if (!v || !fo->image[v->id] || (space != SPACE_NONE && space != v->space) || a.off < 0 ||
	    a.off > v->size - (int64_t)sp->type_bytes * sp->vec)
		return NULL;
	*off = a.off;
	return v;
}

/* The move that leaves in register dst what the load s leaves there of
 * the bytes at p: the same bits into a register as wide (4 or 8 bytes),
 * an integer extended as ld extends it (by its sign for .s types, with
 * zeros for the others) into a wider integer register.  NULL for '_', a
 * float into a wider register and the like. */
static Stmt *load_move(const Folder *fo, const Stmt *s, Expr *dst, const uint8_t *p)
{
	const Spelling *sp = s->ins.sp;
	int bytes = sp->type_bytes, ty = sp->ntypes ? sp->types[sp->ntypes - 1] : TY_NONE;
	const char *type = dst->kind == E_NAME ? names_type(&fo->own, dst->str) : NULL;
	int rbytes = type ? type_bytes(type) : 0, rty = type ? type_of(type) : TY_NONE;
	char spelling[16];
	const char *imm;
	if (rbytes == bytes && (bytes == 4 || bytes == 8)) {
		snprintf(spelling, sizeof spelling, "mov%s", sp->mods[sp->nmods - 1]);
		imm = immediate(p, bytes, ty);
	} else if (rbytes >= 2 && rbytes >= bytes && bytes <= 4 && ty != TY_NONE && !ty_floats(ty) &&
		   !ty_floats(rty)) {
		uint64_t v = 0;
		for (int b = 0; b < bytes; b++)
			v |= (uint64_t)p[b] << (8 * b);
		snprintf(spelling, sizeof spelling, "mov.%c%d", ty_signed(ty) ? 's' : 'u', rbytes * 8);
		imm = int_immediate(v, 8 * bytes, ty_signed(ty));
	} else {
		return NULL;
	}
	Expr *ops[2] = {dst, num_expr(imm)};
	Stmt *mv = ins_new(fo->g->m, s->loc, spelling, ops, 2);
	mv->ins.guard = s->ins.guard;
	mv->ins.guard_neg = s->ins.guard_neg;
	return mv;
}

/* The registers a vector load fills, each with its move; 0 if one has none. */
static uint32_t vector_moves(const Folder *fo, const Stmt *s, const uint8_t *p, Stmt **mv)
{
	const Expr *d = s->ins.ops[0];
	uint32_t n = s->ins.sp->vec, bytes = s->ins.sp->type_bytes;
	if (d->kind != E_BRACE || d->n != n)
		return 0;
	for (uint32_t k = 0; k < n; k++)
		if (!(mv[k] = load_move(fo, s, d->kids[k], p + k * bytes)))
			return 0;
	return n;
}

/* A load of never-written bytes: a move of them.  A scalar one becomes
 * the move where it is, so that the analyses stay right for the next
 * rounds; a vector one waits for the end (fold_vectors). */
static int fold_load(Folder *fo, uint32_t i)
{
	int64_t off;
	const Symbol *v = load_source(fo, i, &off);
	if (!v)
		return 0;
	Stmt *s = fo->cfg->ins[i], *mv[8];
	const uint8_t *p = fo->image[v->id] + off;
	if (s->ins.sp->vec > 1 ? !vector_moves(fo, s, p, mv) : !(mv[0] = load_move(fo, s, s->ins.ops[0], p)))
		return 0;
	if (s->ins.sp->vec == 1)
		s->ins = mv[0]->ins;
	fo->known[i] = s->ins.sp->vec > 1 ? 2 : 1;
	fo->g->st.folded++;
	took(fo->g, v);
	remark(fo->g, s->loc, "load of %s folded: never written, initialized", quoted_name(v->name));
	return 1;
}

/* Whether a definition reaching a register instruction i reads is a
 * folded constant. */
static int reads_known(const Folder *fo, uint32_t i)
{
	const Ins *in = &fo->cfg->ins[i]->ins;
	for (uint32_t k = 1; k < in->nops; k++) {
		uint32_t d[8];
		uint32_t n = in->ops[k]->kind == E_NAME ? defs_reaching(fo->defs, i, in->ops[k]->str, d, 8) : 0;
		for (uint32_t j = 0; j < n && j < 8; j++)
			if (d[j] != DEF_ENTRY && fo->known[d[j]] == 1)
				return 1;
	}
	return 0;
}

/* An operation on a folded constant whose result is one integer: a move
 * of that integer (loads aside, which fold_load takes). */
static int fold_op(Folder *fo, uint32_t i)
{
	Stmt *s = fo->cfg->ins[i];
	const Ins *in = &s->ins;
	int op = in->sp->code;
	if (op == O_ld || op == O_ldu || in->nops < 2 || in->ops[0]->kind != E_NAME ||
	    ins_first_role(in) != ROLE_DEF || !reads_known(fo, i))
		return 0;
	const char *type = names_type(&fo->own, in->ops[0]->str);
	int ty = type ? type_of(type) : TY_NONE, bits = ty_size(ty) * 8;
	Range r = bits >= 16 && !ty_floats(ty) ? range_of_def(fo->rs, i) : (Range){0, 1};
	if (r.lo != r.hi)
		return 0;
	Stmt *mv = mov_new(fo->g->m, s->loc, bits / 8, in->ops[0],
		num_expr(int_immediate(r.lo, bits, 1)));
	mv->ins.guard = in->guard;
	mv->ins.guard_neg = in->guard_neg;
	s->ins = mv->ins;
	fo->known[i] = 1;
	fo->g->st.constants++;
	return 1;
}

/* The vector loads folded: their moves take their place. */
static void fold_vectors(Folder *fo, const Func *f)
{
	Places pl = {0};
	for (uint32_t i = 0; i < fo->cfg->nins; i++) {
		if (fo->known[i] != 2)
			continue;
		if (!pl.v)
			places_of(&pl, (List *)&f->body);
		Stmt *s = fo->cfg->ins[i], *mv[8];
		int64_t off;
		const Symbol *v = load_source(fo, i, &off);
		Place *p = place_of(&pl, s);
		uint32_t n = v && p ? vector_moves(fo, s, fo->image[v->id] + off, mv) : 0;
		if (!n)
			die("globalopt: a folded vector load no longer folds");
		for (uint32_t k = 0; k < n; k++)
			list_insert_before(p->in, s, mv[k]);
		place_remove(p);
	}
	places_free(&pl);
}

static void fold_func(Go *g, const Func *f, uint8_t **image)
{
	Folder fo = {.g = g, .image = image, .cfg = cfg_build(f)};
	if (!fo.cfg)
		return;
	fo.live = live_compute(fo.cfg);
	fo.defs = defs_compute(fo.cfg, fo.live);
	names_in_module(&fo.own, NULL, f);
	fo.tr = (Tracker){NULL, fo.cfg, fo.live, fo.defs};
	fo.follow = !names_shadowed(f);
	fo.known = xcalloc(fo.cfg->nins + 1, 1);
	int changed = 1;
	for (int round = 0; changed && round < MAX_ROUNDS; round++) {
		changed = 0;
		fo.rs = ranges_compute(f, fo.cfg, fo.defs, &fo.own);
		for (uint32_t i = 0; i < fo.cfg->nins; i++)
			if (!fo.known[i] && (fold_load(&fo, i) || (fo.follow && fold_op(&fo, i))))
				changed = g->changed = 1;
		ranges_free(fo.rs);
	}
	fold_vectors(&fo, f);
	free(fo.known);
	names_free(&fo.own);
	defs_free(fo.defs), live_free(fo.live), cfg_free(fo.cfg);
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const void *const *)a, y = (uintptr_t)*(const void *const *)b;
	return (x > y) - (x < y);
}

/* Per symbol, the image of read-only data (read_only) whose address, if
 * taken, only reaches loads, or NULL.  With named_only, the address of
 * data nvcc names itself ($str) is not asked after: no one looks at it. */
static uint8_t **loaded_images(const Go *g, int named_only)
{
	uint32_t n = symtab_count(g->t);
	uint8_t **img = xcalloc(n + 1, sizeof *img), *ask = xcalloc(n + 1, 1), *ok = xcalloc(n + 1, 1);
	for (uint32_t i = 0; i < n; i++) {
		const Symbol *v = symtab_at(g->t, i);
		if (read_only(g, v, &img[i]))
			ask[i] = (v->how & USE_ADDR) && !(named_only && strchr(v->name, '$'));
	}
	only_loaded(g, ask, ok);
	for (uint32_t i = 0; i < n; i++)
		if (ask[i] && !ok[i])
			free(img[i]), img[i] = NULL;
	free(ask);
	free(ok);
	return img;
}

static void free_images(uint8_t **img, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(img[i]);
	free(img);
}

/* Variables never written: read-only data (read_only) whose address, if
 * taken, only reaches loads.  Every function that names one is folded. */
static void fold(Go *g)
{
	uint32_t n = symtab_count(g->t), nf = 0, cf = 0;
	uint8_t **image = loaded_images(g, 0);
	const Func **fs = NULL;
	for (uint32_t i = 0; i < n; i++) {
		const Symbol *v = symtab_at(g->t, i);
		for (uint32_t k = 0; image[i] && k < v->nuses; k++)
			if (v->uses[k].in) {
				fs = array_grow(fs, nf, &cf, sizeof *fs);
				fs[nf++] = v->uses[k].in;
			}
	}
	if (nf)
		qsort(fs, nf, sizeof *fs, cmp_ptr);
	for (Stmt *s = g->m->items.head; s && nf; s = s->next) {
		const Func *f = s->kind == S_FUNC ? s->func : NULL;
		if (f && f->has_body && bsearch(&f, fs, nf, sizeof *fs, cmp_ptr))
			fold_func(g, f, image);
	}
	free_images(image, n);
	free(fs);
}

/* ---- scalar replacement ------------------------------------------------ */

enum { MAX_FIELDS = 16 };   /* cicc's limit */

typedef struct Field {
	int64_t lo, hi;     /* bytes of the old variable */
	int read;           /* some access reads it */
	const char *name;
} Field;

/* The address operand of an access of v at a constant offset, with its
 * width: its index, or -1 when u is anything else. */
static int access_of(const Symbol *v, const SymUse *u, int64_t *off, int *width)
{
	const Ins *in = &u->at->ins;
	if (u->at->kind != S_INS || !(u->how & (USE_READ | USE_WRITE)) || (u->how & (USE_ADDR | USE_CALL)))
		return -1;
	int op = in->sp->code;   /* the ones whose type says how many bytes they touch */
	if (op != O_ld && op != O_st && op != O_atom && op != O_red && op != O_ldu)
		return -1;
	for (uint32_t k = 0; k < in->nops; k++)
		if (OPND_IS_ADDRESS(ins_operand(in, k)) && expr_mentions(in->ops[k], v->name)) {
			*off = offset_from(in->ops[k], v->name);
			*width = in->sp->type_bytes * in->sp->vec;
			return *off >= 0 && *width > 0 && *off + *width <= v->size ? (int)k : -1;
		}
	return -1;
}

static int cmp_field(const void *a, const void *b)
{
	const Field *x = a, *y = b;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* The fields of v: its accesses' byte ranges, overlapping ones merged;
 * 0 when some use is no plain access or there are too many. */
static uint32_t fields_of(const Symbol *v, Field *f)
{
	Field all[256];
	uint32_t n = 0;
	for (uint32_t k = 0; k < v->nuses; k++) {
		int64_t off;
		int width;
		if (access_of(v, &v->uses[k], &off, &width) < 0 || n == 256)
			return 0;
		all[n++] = (Field){off, off + width, (v->uses[k].how & USE_READ) != 0, NULL};
	}
	if (n)
		qsort(all, n, sizeof *all, cmp_field);
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++)
		if (m && all[i].lo < f[m - 1].hi) {
			f[m - 1].hi = all[i].hi > f[m - 1].hi ? all[i].hi : f[m - 1].hi;
			f[m - 1].read |= all[i].read;
		} else if (m == MAX_FIELDS) {
			return 0;
		} else {
			f[m++] = all[i];
		}
	return m;
}

static const Field *field_at(const Field *f, uint32_t n, int64_t off)
{
	for (uint32_t i = 0; i < n; i++)
		if (off >= f[i].lo && off < f[i].hi)
			return &f[i];
	return NULL;
}

/* .global .align A .b8 v_fK[N] = {bytes}: the field's bytes of v. */
static Stmt *field_decl(Go *g, const Symbol *v, const Field *f, const uint8_t *image)
{
	int64_t align = v->align > 0 ? v->align : 1;
	while (f->lo % align)
		align /= 2;
	char specs[64], decl[256];
	snprintf(specs, sizeof specs, "%s .align %lld .b8", space_spelling(v->space), (long long)align);
	snprintf(decl, sizeof decl, "%s[%lld]", f->name, (long long)(f->hi - f->lo));
	Stmt *s = var_new(g->m, v->def->loc, specs, decl);
	int nonzero = 0;
	for (int64_t b = f->lo; image && b < f->hi; b++)
		nonzero |= image[b] != 0;
	if (nonzero) {
		uint32_t len = (uint32_t)(f->hi - f->lo);
		Expr **kids = arena_alloc(g->m->arena, len * sizeof *kids);
		for (uint32_t b = 0; b < len; b++)
			kids[b] = int_expr(image[f->lo + b]);
		s->var.ds[0].init = expr_list(g->m, E_BRACE, kids, len);
	}
	return s;
}

/* A non-root variable used only by accesses at constant offsets becomes
 * one variable per field (at most 16, as cicc), in its state space; a
 * field nothing reads loses its stores and is not made. */
static void split(Go *g, const Symbol *v)
{
	Field f[MAX_FIELDS];
	uint32_t n = fields_of(v, f);
	if (n < 2 && !(n == 1 && (f[0].lo > 0 || f[0].hi < v->size || !f[0].read)))
		return;   /* nothing to gain */
	uint8_t *image = v->def->var.ds[0].init ? xmalloc((size_t)v->size) : NULL;
	if (image && !init_image(&v->def->var, &v->def->var.ds[0], image, v->size)) {
		free(image);
		return;   /* an address in its initializer */
	}
	Names taken = {0};
	for (uint32_t i = 0; i < symtab_count(g->t); i++)
		names_add(&taken, symtab_at(g->t, i)->name, NULL);
	for (uint32_t i = 0; i < n; i++) {
		char base[256];
		snprintf(base, sizeof base, "%s_f%u", v->name, i);
		f[i].name = names_fresh(&taken, base);
		if (f[i].read)
			list_insert_before(&g->m->items, v->def, field_decl(g, v, &f[i], image));
	}
	names_free(&taken);
	free(image);
	Places pl = {0};
	const Func *placed = NULL;   /* whose statements pl holds */
	for (uint32_t k = 0; k < v->nuses; k++) {
		const SymUse *u = &v->uses[k];
		int64_t off;
		int width, op = access_of(v, u, &off, &width);
		const Field *fd = field_at(f, n, off);
		if (!fd->read) {  /* a store to a field nothing reads */
			if (u->in != placed) {
				places_free(&pl);
				places_of(&pl, (List *)&u->in->body);
				placed = u->in;
			}
			Place *p = place_of(&pl, u->at);
			if (p)
				place_remove(p);
			continue;
		}
		u->at->ins.ops[op] = expr_addr(g->m, name_expr(fd->name), off - fd->lo);
	}
	places_free(&pl);
	uint32_t read = 0;
	for (uint32_t i = 0; i < n; i++)
		read += f[i].read;
	g->st.split++;
	g->changed = 1;
	took(g, v);
	remark(g, v->def->loc, "%s split into %u fields, %u of them read", quoted_name(v->name), n,
		read);
	list_remove(&g->m->items, v->def);
}

static void sra(Go *g)
{
	for (uint32_t i = 0; i < symtab_count(g->t); i++) {
		const Symbol *v = symtab_at(g->t, i);
		if (v->kind == SYM_VAR && !g->root[v->id] && v->def && v->def->kind == S_VAR &&
		    v->decl == v->def && v->size > 0 && v->space != SPACE_LOCAL && v->space != SPACE_PARAM &&
		    !(v->how & (USE_ADDR | USE_CALL)) && v->nuses)
			split(g, v);
	}
}

/* Uses of dup name keep instead. */
static void rename_uses(Go *g, const Symbol *dup, const char *keep)
{
	for (uint32_t k = 0; k < dup->nuses; k++) {
		Stmt *s = dup->uses[k].at;
		if (s->kind == S_INS)
			for (uint32_t i = 0; i < s->ins.nops; i++)
				s->ins.ops[i] = expr_renamed(g->m, s->ins.ops[i], dup->name, keep);
		else if (s->kind == S_VAR && s->var.ds[0].init)
			s->var.ds[0].init = expr_renamed(g->m, s->var.ds[0].init, dup->name, keep);
	}
}

static int same_data(const Symbol *a, const uint8_t *ia, const Symbol *b, const uint8_t *ib)
{
	const Decl *x = &a->def->var, *y = &b->def->var;
	return a->space == b->space && a->size == b->size && a->align == b->align &&
		x->type == y->type && !memcmp(ia, ib, (size_t)a->size);
}

typedef struct Data {   /* read-only data dedupe may merge */
	const Symbol *v;
	const uint8_t *image;
} Data;

/* Data in an order that puts the same data together, the first symbol
 * first. */
static int cmp_data(const void *a, const void *b)
{
	const Data *x = a, *y = b;
	const Symbol *s = x->v, *t = y->v;
	int64_t k[4][2] = {{s->space, t->space}, {s->size, t->size}, {s->align, t->align},
		{s->def->var.type, t->def->var.type}};
	for (int i = 0; i < 4; i++)
		if (k[i][0] != k[i][1])
			return k[i][0] < k[i][1] ? -1 : 1;
	int c = memcmp(x->image, y->image, (size_t)s->size);
	return c ? c : (s->id > t->id) - (s->id < t->id);
}

/* Read-only data whose address cannot be told apart, kept once: sorted,
 * so that finding the same data is not a search of all kept so far. */
static void dedupe(Go *g)
{
	uint32_t n = symtab_count(g->t), nd = 0;
	/* a named object's address is its own, if anything looks at it */
	uint8_t **img = loaded_images(g, 1);
	Data *d = xmalloc((n + 1) * sizeof *d);
	const Symbol **same = xcalloc(n + 1, sizeof *same);   /* per symbol: the one it merges into */
	for (uint32_t i = 0; i < n; i++)
		if (img[i])
			d[nd++] = (Data){symtab_at(g->t, i), img[i]};
	if (nd)
		qsort(d, nd, sizeof *d, cmp_data);
	for (uint32_t i = 1, first = 0; i < nd; i++)
		if (same_data(d[first].v, d[first].image, d[i].v, d[i].image))
			same[d[i].v->id] = d[first].v;
		else
			first = i;
	for (uint32_t i = 0; i < n; i++) {
		const Symbol *v = symtab_at(g->t, i);
		if (!same[i])
			continue;
		rename_uses(g, v, same[i]->name);
		g->st.deduped++;
		g->changed = 1;
		took(g, v);
		remark(g, v->def->loc, "%s is the same read-only data as %s: uses name that",
			quoted_name(v->name), quoted_name(same[i]->name));
	}
	free_images(img, n);
	free(d);
	free(same);
}

static void dead_code(Go *g)
{
	reach(g);
	remove_dead(g);
	internalize(g);
}

/* ---- driver ------------------------------------------------------------- */

static void forget_table(Go *g)
{
	free(g->root);
	free(g->reached);
	free(g->kept);
	symtab_free(g->t);
	g->root = g->reached = g->kept = NULL;
	g->t = NULL;
}

/* A step on the symbol table and its roots, built anew only when the
 * step before changed the module: five walks of every instruction were
 * a third of the default stages' time on a large module that has little
 * for the steps between the two dead-code passes to do.  Whether it
 * changed the module. */
static int step(Go *g, void (*fn)(Go *))
{
	if (!g->t) {
		g->t = symtab_build(g->m);
		uint32_t n = symtab_count(g->t);
		g->root = xcalloc(n + 1, 1);
		g->reached = xcalloc(n + 1, 1);
		g->kept = xcalloc(n + 1, 1);
		find_roots(g);
	}
	g->changed = 0;
	fn(g);
	if (g->changed)
		forget_table(g);
	return g->changed;
}

static void print_stats(const Stats *s)
{
	diag_note("globalopt: %u functions and %u variables (%llu bytes) removed, %u aliases",
		s->funcs, s->vars, (unsigned long long)s->var_bytes, s->aliases);
	diag_note("globalopt:   %u functions and %u variables made internal", s->internal_funcs,
		s->internal_vars);
	diag_note("globalopt:   %u variables split into fields, %u loads folded, %u variables "
		"deduplicated", s->split, s->folded, s->deduped);
	if (s->trapped)   /* likewise */
		diag_note("globalopt:   %u functions never run, their bodies traps", s->trapped);
	if (s->constants)   /* a line of its own: most modules have none */
		diag_note("globalopt:   %u results of folded loads made constants", s->constants);
}

void globalopt(Module *m, const StageOptions *o)
{
	if (o->globalopt.off)
		return;
	Go g = {.m = m, .o = o};
	step(&g, dead_code);   /* first, so that nothing dead is folded */
	if (step(&g, uncallable))  /* after it: a dead function's indirect calls count for nothing */
		step(&g, dead_code);   /* what only the trapped bodies called */
	step(&g, sra);
	step(&g, fold);
	step(&g, dedupe);
	step(&g, dead_code);   /* what folding and dedupe left unused */
	forget_table(&g);
	warn_took(&g);
	if (o->stats)
		print_stats(&g.st);
}

void globalopt_dead(Module *m, const StageOptions *o)
{
	if (o->globalopt.off)
		return;
	Go g = {.m = m, .o = o};
	step(&g, dead_code);
	forget_table(&g);
	warn_took(&g);
}
