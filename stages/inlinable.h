/* inlinable.h: what inlining a call depends on, private to stages/ and
 * asked by the inliner (inline.c, inline-cost.c) and by devirtualization
 * (devirt.c, before it makes an indirect call a funnel of direct ones)
 * alike, each with state of its own.  inlinable.c answers what is about
 * the module and each callee as it stands: whether a callee can be
 * copied at all (the legality why-codes), its size, its loops, how it
 * treats an address passed to it, the types of its registers in place,
 * the growth budget; about a caller (CallerFacts): its depot, its
 * objects, what a call passes it; and about a call: the .param slots of
 * its arguments on either side, the cost model's facts (cost.h). */
#ifndef PTXLINK_INLINABLE_H
#define PTXLINK_INLINABLE_H

#include "stages.h"
#include "cost.h"

enum { /* why a call is not inlined */
	INL_RECURSIVE, INL_UNDEFINED, INL_ENTRY, INL_WEAK, INL_DWARF, INL_FORM, INL_ARGS,
	INL_PARAM, INL_OVERLAP, INL_DECL, INL_PRAGMA, INL_SHADOW, INL_DEPOT, INL_BUNDLE, INL_COST,
	INL_LARGE, INL_GROWTH, NINL
};
const char *inlinable_text(int why);

/* The module's facts, for a stage's run: made by inlinable_open() on an
 * arena of its own over the stage's call graph, freed by
 * inlinable_close().  Each callee's are read the first time they are
 * asked and kept: the asker asks about a callee once its body is final
 * (the inliner inlines into callees first). */
typedef struct Inlinable Inlinable;
Inlinable *inlinable_open(Module *, const StageOptions *, const CallGraph *);
void inlinable_close(Inlinable *);
const Names *inlinable_names(Inlinable *);   /* the module's symbols */

/* No copy goes into a caller this large: each copy's work reads the
 * whole caller (liveness, names before it), so a caller of N small
 * callees would cost N times its size (20,000 sites: quadratic), and
 * no program of the yardstick comes near it.  Nor is a callee this
 * large copied. */
enum { CALLER_MAX = 5000 };
int inlinable_oversize(uint32_t caller_size, const CgFunc *c);

/* The module's growth budget (--inline-growth=N): copies add at most N%
 * of the module's own instructions at inlinable_open() (of CALLER_MAX,
 * for a smaller one), as GCC's inline-unit-growth bounds a unit's.
 * Without it a chain of functions that all stay (an open world) grows
 * each by the whole expansion of the next: n^2/2 instructions.  A copy
 * of c, which ncalls calls are left of, takes inlinable_charge(): its
 * body, or none when that is c's last call and c goes. */
uint64_t inlinable_size(const Inlinable *);
uint64_t inlinable_budget(const Inlinable *);
uint64_t inlinable_charge(const Inlinable *, const CgFunc *c, int ncalls);
uint32_t inlinable_calls(const Inlinable *, const CgFunc *c);   /* its direct calls at open */
/* Whether c may run: in a closed world whose indirect calls all have
 * .calltargets lists, a function no kernel or --keep root reaches
 * through calls or those lists never does (globalopt then traps or
 * removes it): its calls count for nothing, and nothing goes into it. */
int inlinable_runs(const Inlinable *, const CgFunc *c);

/* Why a call of c cannot be inlined whatever the copy looks like (in
 * this order: recursion, undefined, kernel, .weak in an open world, -G,
 * the caller's shadowing, names nothing declares, data or a .pragma the
 * callee declares), or -1; shadowed: the caller's names_shadowed(). */
int inlinable_why(Inlinable *, const CgFunc *c, int shadowed);
/* c's body goes once every call is inlined: nothing else can call it or
 * take its address. */
int inlinable_removable(const Inlinable *, const CgFunc *c);
int inlinable_loops(Inlinable *, const CgFunc *c);   /* its instructions on a loop */
/* How c's parameter i treats an address passed there: held at constant
 * offsets only (ir/memobj.c), stored through at a run-time index, or
 * neither (0). */
enum { PARAM_HELD = 1, PARAM_STAYS = 2 };
int inlinable_held(Inlinable *, const CgFunc *c, uint32_t i);
int inlinable_held_bytes(Inlinable *, const CgFunc *c, uint32_t i);   /* held: bytes it reaches */
uint32_t body_size(const List *);   /* instructions, in every scope */
uint32_t body_calls(const List *);  /* call instructions, in every scope */
/* The bits of the register e names in list l (the list holding the
 * statement the walk it gave, or a body's own list and it NULL), by
 * PTX's scoping rule: its declaration in the innermost block around that
 * declares it (ir/scope.c), read in place as the inliner's renamed copy
 * of the callee reads it by its fresh name; 0 when none does. */
int inlinable_bits(const BodyIt *it, const List *l, const Expr *e);

/* Parameters as registers: every access to a .param, on either side of
 * a call, must be an ld.param/st.param at a constant offset (vector ones
 * by element) and no two may overlap unless they touch the same bytes or
 * one is an integer read of the other's first bytes (a piece); then each
 * element, a slot, becomes a register. */
typedef struct Slot {        /* bytes [off, off+size) */
	int64_t off;
	int size;
	const char *reg;             /* its register, once made */
	uint8_t read, written;
	uint8_t whole;               /* an access of its size is no piece: it cannot grow */
} Slot;

/* A caller's .param passed to calls (outer; NULL for a result a call
 * does not take), with its slots: every call passed it is inlined, or
 * none (devirtualization's funnels pass one set to each candidate). */
typedef struct Param {
	const char *outer;
	Stmt *decl;                  /* its declaration, in the calls' list */
	int ret;                     /* a result */
	Slot *slots;
	uint32_t nslots, cap;
} Param;

/* The .param access of name in ins (ld.param d, [name+off]: 1,
 * st.param [name+off], v: 0) that moves sized elements; -1 for any
 * other use of name. */
int param_moves_of(const Ins *ins, const char *name, int64_t *off);

/* A walk over every access to name in a body (g its Param): checking,
 * each element given its slot in g (put NULL), or, once checked, each
 * element handed to put and the access removed. */
typedef struct SlotWalk {
	Param *g;
	const char *name;
	int caller;                  /* the caller's side (a callee writes a result) */
	const void *ctx;             /* skip's and put's */
	int (*skip)(const void *ctx, const Stmt *);   /* the caller's side: the calls themselves */
	const Names *types;          /* the registers' types; NULL: by scope (inlinable_bits) */
	void (*put)(const void *ctx, List *l, Stmt *acc, int load, const Expr *v, const Slot *);
} SlotWalk;
/* -1, else why not: INL_PARAM or INL_OVERLAP. */
int slots_walk(const SlotWalk *, const List *body);

/* A formal of one call's callee and the Param in its place. */
typedef struct Group {
	uint32_t param;              /* in the CallParams */
	const char *inner;
} Group;

/* The .params that calls of one list pass (calls that share one, a
 * funnel's, are inlined all or none): each call's groups name them. */
typedef struct CallParams {
	List *list;
	Param *v;
	uint32_t n, cap;
} CallParams;
void params_free(CallParams *);
/* The groups of a call (cp) of g, on the heap: -1, else INL_ARGS. */
int call_groups(CallParams *, const CallParts *cp, const Func *g, Group **, uint32_t *ngroups);
/* The callee's side of each group, checked in callee as it stands and
 * its slots found: -1, else why not. */
int callee_slots(CallParams *, const Group *, uint32_t n, const Func *callee);
/* The caller's side of each .param in the list, walked as like says
 * (its types, the calls it skips, a put): -1, else why not. */
int caller_slots(CallParams *, const SlotWalk *like);
/* One call's sequence: call, return, a move per parameter element. */
int call_overhead(const CallParams *, const Group *, uint32_t n);

/* A body's depot and the one mov at its top level that takes its
 * address (nested blocks may not name it): -1, else INL_DEPOT. */
int inlinable_depot(const List *body, Stmt **depot, Stmt **mov);

/* A caller's facts, asked by whoever weighs a call in it (the inliner's
 * Caller holds one): each read the first time it is asked and its
 * CF_* bit then set in known.  caller_facts_free() frees them. */
enum { CF_SHADOWED = 1, CF_DEPOT = 2, CF_LOCALS = 4, CF_OBJS = 8 };
typedef struct CallerFacts {
	const Func *f;
	unsigned known;
	int shadowed;                /* a nested scope declares a name again */
	Stmt *depot;                 /* its __local_depot (the inliner makes one a callee needs) */
	const char *spl, *sp;        /* the depot's local and generic start registers */
	int64_t own;                 /* the depot's bytes before any copy came in */
	int depot_ok;                /* caller_depot()'s answer */
	Names locals;                /* registers holding an address of its .local objects */
	MemObjs *mo;                 /* its objects as they stand: read again once CF_OBJS is cleared */
} CallerFacts;
void caller_facts_free(CallerFacts *);
int caller_shadowed(CallerFacts *);
/* 0 when it has a depot whose start is not one mov at its top level, or
 * whose start it steps (depot, spl, sp and own are then read). */
int caller_depot(CallerFacts *);
/* Can the depot of body (a callee's: mov takes its address, NULL for
 * none) join the caller's?  names: the caller's register types. */
int caller_depot_fits(const CallerFacts *, const Names *names, const List *body, const Stmt *mov);
/* How call (in l) passes an address of the caller's .local objects to
 * callee: COST_LOCAL_*. */
int caller_passes_local(CallerFacts *, Inlinable *, const Stmt *call, const List *l, const CgFunc *callee,
	int *bytes, int *loads);
uint32_t body_writes(const List *, const char *reg);   /* statements that may write reg */
/* The cost model's facts for copies of c at call (in l), the caller
 * calling it copies times and the module ncalls times; what the asker
 * knows (CostFacts.overhead, folds) left 0. */
CostFacts caller_cost_facts(CallerFacts *, Inlinable *, const Stmt *call, const List *l,
	const CgFunc *c, uint32_t copies, uint32_t ncalls);

#endif
