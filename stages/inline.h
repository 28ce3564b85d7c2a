/* inline.h: what the inline stage's two files share, private to stages/
 * (stages.h holds the stage's entries): inline.c, the driver and the
 * rewriting (a call site replaced by a copy of its callee), asks
 * inline-cost.c, the deciding (what a copy folds, the facts the cost
 * model weighs). */
#ifndef PTXLINK_INLINE_H
#define PTXLINK_INLINE_H

#include <string.h>
#include "stages.h"
#include "inlinable.h"
#include "ir/ptrhash.h"

typedef struct Stats {
	unsigned seen, inlined, left[NINL];
	unsigned long long copied;   /* instructions copied in */
} Stats;

typedef struct Str Str;         /* inline.c: .debug_str's strings */
typedef struct Bundle Bundle;

/* Every cache of the stage's state is filled the first time it is
 * asked, and then its KNOWN_* bit set in the state's known: one
 * convention for the module's (In), a callee's (Inlinee, and each of its
 * parameters' held), a caller's (Caller, and its CallerFacts' CF_* bits)
 * and a round's (Vals). */
enum {
	KNOWN_STRS = 1,              /* In.strs, In.labels */
	KNOWN_FOLDS = 1,             /* Inlinee.folds */
	KNOWN_FRAME = 2,             /* Inlinee.frame */
	KNOWN_JUDGED = 1,            /* Caller.judged */
	KNOWN_SRC = 2,               /* Caller.src */
	KNOWN_VALS = 1,              /* inline-cost.c's Vals: the caller's values before its copies */
};

/* A call-graph function, as a callee: In.callee[cg_index_of()]. */
typedef struct Inlinee {
	unsigned known;
	uint8_t deferred;            /* expanded in its one caller (find_deferred) */
	struct Folds *folds;         /* what its copies fold or share (folds_of) */
	uint8_t frame;               /* FRAME_*: what its body (final when asked) holds */
	uint32_t ncalls;             /* its direct call sites in the module, as callers finish */
} Inlinee;

/* The module's, for the whole stage: made by in_open() on one arena,
 * which everything it allocates lives on, and freed by in_close(). */
typedef struct In {
	Module *m;
	const StageOptions *o;
	Arena *arena;
	int mode;                    /* INLINE_AUTO or INLINE_ALWAYS */
	unsigned known;
	SymTab *syms;
	CallGraph *cg;
	Inlinee *callee;             /* per call-graph function */
	const uint32_t *order;       /* the call graph's functions, callees first (cg_bottom_up) */
	uint32_t *late, nlate, clate;   /* deferred functions whose call stayed: expanded on their own */
	Inlinable *inl;              /* the module's and its callees' facts (inlinable.c) */
	int loc_names;               /* .loc may carry function_name/inlined_at */
	DeclOrder *order_of;         /* where each module symbol is declared first */
	Stmt *debug_str;             /* the .debug_str section, once found or made */
	Str *strs;                   /* .debug_str's strings, read on the first inlined .loc */
	Names labels;                /* .debug_str's labels */
	uint64_t grown;              /* what copies took from the growth budget (inlinable.h) */
	uint64_t moved;              /* the bodies that went with their last call: bounded by
	                                the same budget (cost.h, CostFacts.move_room) */
	Borrowers *rd;               /* for the depot starts noted (func_depot_starts), made once */
	Stats st;
} In;

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
	uint32_t same;               /* the next of them in this round's sites, or UINT32_MAX */
	uint32_t folds;              /* instructions the caller's copies of the callee fold or compute
	                                once: constant and shared arguments (fold_sites) */
	int cost;                    /* what the cost model weighed it, once it kept it out */
} CallSite;

/* What a caller's copies change in a callee's call count, applied once
 * the caller is done (so that its calls of one callee are decided alike). */
typedef struct Delta {
	UT_hash_handle hh;
	const CgFunc *callee;
	int n;
} Delta;

/* One caller's work: made by fn_open() on an arena of its own, freed by
 * fn_close(). */
typedef struct Caller {
	In *in;
	Arena *arena;
	unsigned known;
	Stmt *fs;
	Func *f;
	uint32_t size;               /* its instructions, copies included */
	int maybe_leaf;              /* not a kernel, and it keeps its body (would_be_leaf) */
	int leaf;                    /* the calls the cost model kept out weighed again: their
	                                copies end its frame */
	CallSite *left;              /* the calls the cost model kept out, over the rounds */
	uint32_t nleft, cleft;
	Names names;                 /* what it and the module declare, and what it gains */
	CallSite *sites;
	uint32_t nsites, cap;
	CallSite *more;              /* the calls copies of deferred callees brought: the next round's */
	uint32_t nmore, cmore;
	Delta *delta;                /* by callee */
	Names judged;                /* --verify: what it declares, read by judge() itself */
	SrcLines *src;
	unsigned serial;             /* inlined copies so far */
	CallerFacts cf;              /* its depot, objects, shadowing (inlinable.c), copies in */
	struct Frame *frames;        /* the callees' bytes in the depot (merge_depot) */
	uint32_t nframes, cframes;
	int64_t pos;                 /* its place in the module (In.order_of) */
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
	CallParams ps;                   /* in the list holding them */
	CallSite **sites;
	CopyPlan *plans;
	uint32_t n;
};

/* inline-cost.c: what the rewriting (inline.c) asks of the deciding */
void fold_sites(Caller *fn);
CostFacts cost_facts(Caller *fn, const CallSite *st, const CopyPlan *p);

/* inline-cost.c: what of a frame of its own c's body holds. */
enum { FRAME_CALLS = 1, FRAME_DEPOT = 2 };
unsigned callee_frame(In *, const CgFunc *c);
int leaf_share(Caller *fn, const CallSite *st);   /* would_be_leaf's round: thousandths */

#endif
