/* inline.h: what the inline stage's two files share, private to stages/
 * (stages.h holds the stage's entries): inline.c, the driver and the
 * rewriting (a call site replaced by a copy of its callee), and
 * inline-cost.c, the deciding (what a copy folds, what it costs,
 * devirtualization's question). */
#ifndef PTXLINK_INLINE_H
#define PTXLINK_INLINE_H

#include "stages.h"
#include "ir/ptrhash.h"

enum { /* why a call is not inlined */
	WHY_RECURSIVE, WHY_UNDEFINED, WHY_ENTRY, WHY_WEAK, WHY_DWARF, WHY_FORM, WHY_ARGS,
	WHY_PARAM, WHY_OVERLAP, WHY_DECL, WHY_PRAGMA, WHY_SHADOW, WHY_DEPOT, WHY_BUNDLE, WHY_COST,
	WHY_UNDECLARED, WHY_LARGE, WHY_GROWTH, NWHY
};
extern const char *const why_text[NWHY];

typedef struct Stats {
	unsigned seen, inlined, left[NWHY];
	unsigned long long copied;   /* instructions copied in */
} Stats;

typedef struct Str Str;         /* inline.c: .debug_str's strings */
typedef struct Slot Slot;       /* inline.c: one element of a parameter */
typedef struct Bundle Bundle;

/* The module's, for the whole stage. */
typedef struct In {
	Module *m;
	const StageOptions *o;
	int mode;                    /* INLINE_AUTO or INLINE_ALWAYS */
	SymTab *syms;
	CallGraph *cg;
	int dwarf;                   /* -G: a .debug_info section */
	int loc_names;               /* .loc may carry function_name/inlined_at */
	Stmt *debug_str;             /* the .debug_str section, once found or made */
	uint32_t *scc;               /* per call-graph function: its component */
	uint8_t *cyclic;             /* per component: more than one function */
	int8_t **held;               /* per call-graph function, per parameter: param_held, -1 not asked */
	int8_t *undeclared;          /* per call-graph function: names what nothing declares
	                                (1), not (0), not yet asked (-1) */
	Names module_names;          /* the module's symbols, once one is asked for */
	struct Pos *pos;             /* where each module symbol is declared first (read_positions) */
	Arena *pos_arena;
	int module_named;
	unsigned walks;               /* declare()'s walks so far */
	uint32_t *ncalls;            /* per call-graph function: direct call sites */
	int *ncalls_delta;           /* what the current caller's copies change, applied after it */
	uint32_t *touched, ntouched, ctouched;   /* the functions whose delta is not 0 */
	int *loop_ins;               /* per call-graph function: instructions on a loop (-1: not yet asked) */
	struct Folds **folds;        /* per call-graph function: what its copies fold or share (folds_of) */
	uint32_t *fold_head;         /* per call-graph function: fold_sites' chains, kept 0 */
	uint32_t *copies;            /* per call-graph function: count_copies' counters, kept 0 */
	uint32_t *order;             /* the call graph's functions, callees first (bottom_up) */
	uint8_t *deferred;           /* per call-graph function: expanded in its one caller (deferrable) */
	uint32_t *late, nlate, clate;   /* deferred functions whose call stayed: expanded on their own */
	Str *strs;                   /* .debug_str's strings, read on the first inlined .loc */
	Names labels;                /* .debug_str's labels */
	int strs_read;
	uint64_t size;               /* the module's instructions before the stage */
	/* The module's growth budget (--inline-growth=N): copies add at most
	 * N% of the module's own instructions (of CALLER_MAX, for a smaller
	 * one), as GCC's inline-unit-growth bounds a unit's.  Without it a
	 * chain of functions that all stay (an open world) grows each by the
	 * whole expansion of the next: n^2/2 instructions, up to CALLER_MAX
	 * each.  A copy that is its callee's last call, the callee going,
	 * moves a body rather than adds one and costs none (charge()). */
	uint64_t budget, grown;
	Stats st;
} In;

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

/* A formal of one call's callee and the Param in its place. */
typedef struct Group {
	uint32_t param;              /* in the bundle */
	const char *inner;
} Group;

typedef struct CallSite {
	Stmt *call;
	List *list;                  /* the list holding it */
	Stmt *block;                 /* the { } whose list that is, or NULL (then outer too) */
	List *outer;                 /* the list holding block */
	int64_t frame;               /* where its copy's depot bytes may start: past those of
	                                the copy that brought it (0: anywhere) */
	const LocInfo *at;           /* the last .loc before it, or NULL */
	const CgFunc *callee;
	uint32_t copies;             /* the caller's calls of the same callee */
	int asked;                   /* inline_ask's: the call is still indirect, callee one of its targets */
	uint32_t folds;              /* instructions the caller's copies of the callee fold or compute
	                                once: constant and shared arguments (fold_sites) */
} CallSite;

/* One caller's work. */
typedef struct Caller {
	In *in;
	Stmt *fs;
	Func *f;
	uint32_t size;               /* its instructions, copies included */
	Names names;                 /* what it and the module declare, and what it gains */
	CallSite *sites;
	uint32_t nsites, cap;
	CallSite *more;              /* the calls copies of deferred callees brought: the next round's */
	uint32_t nmore, cmore;
	int shadowed;                /* names_shadowed, once asked (-1 not yet) */
	Names judged;                /* --verify: what it declares, read by judge() itself */
	int judging;
	SrcLines *src;
	unsigned serial;             /* inlined copies so far */
	Stmt *depot;                 /* its __local_depot, made when a callee needs one */
	const char *spl, *sp;        /* the depot's local and generic start registers */
	int64_t own;                 /* the depot's bytes before any copy came in */
	struct Frame *frames;        /* the callees' bytes in the depot (merge_depot) */
	uint32_t nframes, cframes;
	int depot_read, depot_ok;    /* caller_depot() has looked; what it found */
	int64_t pos;                 /* its place in the module (In.pos) */
	Names locals;                /* registers holding an address of its .local objects */
	int locals_read;
	uint32_t put;                /* copies put in so far */
	MemObjs *mo;                 /* its objects as they were after mo_put copies (caller_objs) */
	uint32_t mo_put;
} Caller;

typedef struct CopyPlan {
	CallSite *site;
	Bundle *b;
	const Func *callee;
	Group *groups;               /* rets first, then params */
	uint32_t ngroups;
	List body;                   /* the copy */
	Names types;                 /* the copy's declarations */
	Stmt *depot;                 /* the copy's __local_depot */
	Stmt *depot_mov;             /* mov %SPL, __local_depot */
	Stmt *first, *last;          /* the copy's statements, once in place */
	int64_t frame_end;           /* past its depot bytes in the caller's (CallSite.frame) */
} CopyPlan;

/* Calls of one list that share a .param. */
struct Bundle {
	List *list;
	CallSite **sites;
	CopyPlan *plans;
	uint32_t n;
	Param *params;
	uint32_t nparams, cap;
};

/* No copy goes into a caller this large: each copy's work reads the
 * whole caller (liveness, names before it), so a caller of N small
 * callees would cost N times its size (20,000 sites: quadratic), and
 * no program of the yardstick comes near it. */
enum { CALLER_MAX = 5000 };

/* inline.c */
uint32_t cg_index(const In *in, const CgFunc *c);
uint32_t body_size(const List *l);
int reg_bits(const Names *n, const Expr *e);
int param_access(const Ins *in, const char *name, int64_t *off);
int removable(const In *in, const CgFunc *c);
void decide(Caller *fn, Bundle *b, int *why, int *c, int *t);
void bundle_free(Bundle *b);
void in_open(In *in, Module *m, const StageOptions *o, int mode);
void in_close(In *in);
void fn_open(Caller *fn, In *in, Stmt *fs, int all);
void fn_close(Caller *fn);

/* inline-cost.c */
void fold_sites(Caller *fn);
void folds_free(In *in);
int cost(Caller *fn, const CallSite *st, const CopyPlan *p);

#endif
