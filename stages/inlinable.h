/* inlinable.h: what inlining a call depends on, private to stages/ and
 * asked by the inliner (inline.c, inline-cost.c) and by devirtualization
 * (devirt.c) alike.  inlinable.c answers what is about the module and
 * each callee as it stands: whether a callee can be copied at all (the
 * legality why-codes), its size, its loops, how it treats an address
 * passed to it; the types of a callee's registers in place.  The
 * question devirtualization asks before a funnel (inline_ask, below) is
 * still answered by inline.c: its decision on the call, which reads the
 * inliner's per-caller state (the caller's names, depot and objects), its
 * growth budget and the .param slots the arms share. */
#ifndef PTXLINK_INLINABLE_H
#define PTXLINK_INLINABLE_H

#include "stages.h"
#include "cost.h"

enum { /* why a call is not inlined */
	INL_RECURSIVE, INL_UNDEFINED, INL_ENTRY, INL_WEAK, INL_DWARF, INL_FORM, INL_ARGS,
	INL_PARAM, INL_OVERLAP, INL_DECL, INL_PRAGMA, INL_SHADOW, INL_DEPOT, INL_BUNDLE, INL_COST,
	INL_UNDECLARED, INL_LARGE, INL_GROWTH, NINL
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
uint32_t body_size(const List *);   /* instructions, in every scope */
/* The bits of the register e names in list l (the list holding the
 * statement the walk it gave, or a body's own list and it NULL), by
 * PTX's scoping rule: its declaration in the innermost block around that
 * declares it (ir/scope.c), read in place as the inliner's renamed copy
 * of the callee reads it by its fresh name; 0 when none does. */
int inlinable_bits(const BodyIt *it, const List *l, const Expr *e);

/* Parameters as registers: every access to a .param, on either side of
 * a call, must be an ld.param/st.param at a constant offset (vector ones
 * by element) and no two may overlap unless they touch the same bytes;
 * then each element, a slot, becomes a register. */
typedef struct Slot {        /* bytes [off, off+size) */
	int64_t off;
	int size;
	const char *reg;             /* its register, once made */
	uint8_t read, written;
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

int slot_bits(int size);   /* a slot register's width */
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
int caller_passes_local(CallerFacts *, Inlinable *, const Stmt *call, const List *l, const CgFunc *callee);
uint32_t body_writes(const List *, const char *reg);   /* statements that may write reg */

/* inline.c: devirt's question before it builds a funnel at an indirect
 * call: would inline_calls() take a direct call there to each of
 * callees[0..n), the caller then calling callees[i] more[i] times more
 * than it does now, and the call itself staying beside them when kept (an
 * open funnel's fallback)?  -1 when it would take every one, else the
 * first it would not, with why.  One InlineAsk serves a module until it
 * changes; NULL with --inline=never (no call is inlined).  Where it would
 * take every one, the cost model's facts for them at this one call (ic,
 * when not NULL): weighed is 0 with --inline=always (no cost asked); else
 * arm[i] (the caller gives n) is callees[i]'s one copy, call that call's
 * sequence, threshold --inline-threshold. */
typedef struct InlineAsk InlineAsk;
typedef struct InlineCost {
	int weighed, call, threshold;
	CostFacts *arm;
} InlineCost;
InlineAsk *inline_ask_new(Module *, const StageOptions *);
int inline_ask(InlineAsk *, Stmt *caller, Stmt *call, List *l, const char *const *callees,
	const uint32_t *more, uint32_t n, int kept, InlineCost *ic, char *why, size_t nwhy);
void inline_ask_free(InlineAsk *);

#endif
