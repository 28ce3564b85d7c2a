/* The optimization stages.  Each lives in stages/<name>.c and exposes one
 * entry taking the whole (linked) module; pipeline.c runs them in order. */
#ifndef PTXLINK_STAGES_H
#define PTXLINK_STAGES_H

#include "ir/ir.h"

/* Whether every piece of device code that can run with the module is in
 * it, decided once (world.c) for every stage. */
typedef struct World {
	int closed;
	const char *open_because;   /* when not: the first reason */
} World;

typedef struct DevirtOptions {
	int off;             /* --no-devirt */
	int remarks;         /* -Rpass=devirt: a remark per indirect call site */
	int funnel_max;      /* --devirt-funnel-max=N, at least 1: the library
	                        fills in the default (tools/lib/opttab.h) */
} DevirtOptions;

/* inlining's modes (0: INLINE_MODE_DEFAULT, what measured best:
 * docs/stages.md) */
enum { INLINE_NEVER = 1, INLINE_AUTO, INLINE_ALWAYS };
enum { INLINE_MODE_DEFAULT = INLINE_AUTO };
typedef struct InlineOptions {
	int mode;            /* --inline=never|auto|always: INLINE_*; 0: the default */
	int threshold;       /* --inline-threshold=N: the library fills in the
	                        default (tools/lib/opttab.h) */
	int growth;          /* --inline-growth=N: copies add at most N% of the
	                        module's instructions (the library's default) */
	int remarks;         /* -Rpass=inline: a remark per call inlined */
	int missed;          /* -Rpass-missed=inline: and per call not, with why */
} InlineOptions;

typedef struct PrintfOptions {
	int werror_format;   /* -Werror=format: format mismatches are errors */
} PrintfOptions;

typedef struct DepotOptions {
	int off;             /* --no-depot */
	int no_sroa;         /* --no-sroa: no object is held in registers */
	int trust_layout;    /* --trust-layout: as if every Func.layout_kept */
	int remarks;         /* -Rpass=depot: a remark per depot */
	int analysis;        /* -Rpass-analysis=depot: per object too */
	int warn;            /* --warn-stack-size=N given */
	int64_t warn_stack_size;  /* N: warn for a depot over N bytes */
} DepotOptions;

typedef struct LocalsOptions {
	int on;              /* --opt-locals, --no-opt-locals (the default: tools/lib/opttab.h) */
	int remarks;         /* -Rpass=locals: a remark per function changed */
} LocalsOptions;

typedef struct GlobalOptOptions {
	int off;             /* --no-globalopt */
	int remarks;         /* -Rpass=globalopt */
	int internalize;     /* --internalize: only kernels and kept names are roots */
	const char **keep;   /* --keep=SYM, --keep-file=FILE: interned names */
	uint32_t nkeep;
} GlobalOptOptions;

typedef struct IpoOptions {
	int on;              /* --ipo, --no-ipo (the default: tools/lib/opttab.h) */
	int constants;       /* --ipo-constants: constant parameters too */
	int byvalue;         /* --ipo-byvalue: pointer parameters passed by value */
	int remarks;         /* -Rpass=ipo: a remark per change, and per refusal */
} IpoOptions;

typedef struct FoldOptions {
	int off;             /* --no-fold */
	int remarks;         /* -Rpass=fold: a remark per branch folded */
} FoldOptions;

typedef struct DceOptions {
	int off;             /* --no-dce */
	int remarks;         /* -Rpass=dce: a remark per call removed, per branch changed */
} DceOptions;

typedef struct RerollOptions {
	int on;              /* --reroll, --no-reroll (the default: tools/lib/opttab.h) */
	int any;             /* --reroll-any: copies without a call too (for tests) */
	int remarks;         /* -Rpass=reroll: a remark per loop rolled back */
} RerollOptions;

typedef struct UnrecurseOptions {
	int on;              /* --unrecurse, --no-unrecurse (the default: tools/lib/opttab.h) */
	int remarks;         /* -Rpass=unrecurse: a remark per call given a chain of clones */
} UnrecurseOptions;

/* address preparation's rewrites, by bit */
enum { ADDRPREP_NARROW = 1, ADDRPREP_WIDEN = 2, ADDRPREP_FOLD = 4, ADDRPREP_SINK = 8, ADDRPREP_ALL = 15 };
/* the rewrites that made no corpus function worse (tools/bench/addrprep-bench.sh) */
enum { ADDRPREP_DEFAULT = ADDRPREP_SINK };
typedef struct AddrPrepOptions {
	int off;             /* --no-addrprep */
	unsigned rewrites;   /* --addrprep[=narrow,widen,fold,sink]: ADDRPREP_* bits;
	                        0: ADDRPREP_DEFAULT */
	int remarks;         /* -Rpass=addrprep */
} AddrPrepOptions;

/* A field an option sets is named by that option's row (FS) in
 * tools/lib/opttab.h, which libptxlink copies here. */
typedef struct StageOptions {
	int verify;          /* ir_verify() after every stage */
	int no_check_output; /* without verify: no ir_check_output() of the result */
	const char *print_after;  /* --print-after=<stage>: dump to stderr */
	int stats;           /* --stats: each stage's counts to stderr */
	void (*stage_done)(void *ctx, const char *name);  /* after each stage (--time), or NULL */
	void *stage_ctx;     /* stage_done's ctx */
	/* how the module was made, from which world.c decides */
	int allow_undefined; /* linked with --allow-undefined */
	int unlinked;        /* one input and no -arch */
	int check_undefined; /* linked with defer_undefined: report names the
	                        stages leave referenced and undefined */
	World world;         /* run_pipeline fills it in */
	DevirtOptions devirt;
	InlineOptions inlining;
	PrintfOptions printf_lowering;
	DepotOptions depot;
	LocalsOptions locals;
	GlobalOptOptions globalopt;
	IpoOptions ipo;
	AddrPrepOptions addrprep;
	RerollOptions reroll;
	UnrecurseOptions unrecurse;
	FoldOptions fold;
	DceOptions dce;
} StageOptions;

/* pipeline.c: runs every stage in order; returns 0, or -1 after errors.
 * stages_define: whether a stage defines or removes every use of name, so
 * that the linker may leave it undefined (printf, which becomes vprintf). */
int stages_define(const char *name);
/* 0; -1 after errors; PIPELINE_BROKEN after the verifier's (o->verify)
 * or the output check's errors: a stage broke the module. */
enum { PIPELINE_BROKEN = -2 };
int run_pipeline(Module *, const StageOptions *);
/* the i-th stage's name (for --print-after), NULL past the last */
const char *stage_name(size_t i);

/* world.c: a world is closed unless the module was linked with
 * --allow-undefined, declares a variable it does not define (other than
 * dynamic .shared memory), or is one input without -arch that other
 * device code could join. */
void world_decide(World *, const Module *, const StageOptions *);

/* devirt.c: indirect calls with known targets become direct calls or funnels */
void devirt(Module *, const StageOptions *);

/* reroll.c: NVVM's fully unrolled copies of a loop around a call
 * rolled back into one loop, before inlining */
void reroll(Module *, const StageOptions *);
/* unrecurse.c: a call cycle that counts a parameter down to 0, cloned
 * once per depth for calls whose counter is bounded, before inlining */
void unrecurse(Module *, const StageOptions *);

/* inline.c: direct calls to defined functions replaced by their bodies
 * (bottom-up, never on a call cycle), as the cost model or --inline says */
void inline_calls(Module *, const StageOptions *);

/* printf.c: calls to an undefined printf become vprintf(fmt, buffer) */
void printf_lower(Module *, const StageOptions *);
int printf_defines(const char *name);   /* printf: no call is left */

/* globalopt.c: dead functions and variables go, functions (and with
 * --internalize variables) become internal, never-written data folds into
 * loads and is kept once */
void globalopt(Module *, const StageOptions *);
/* Its dead-code step alone: ipo's merges leave the merged copy's callees
 * with fewer callers, some with none. */
void globalopt_dead(Module *, const StageOptions *);

/* ipo.c: internal functions (every caller seen, no address taken) that
 * are the same merged; parameters every call passes one number made that
 * number (--ipo-constants); parameters and results nothing reads removed;
 * read-only pointer parameters lent a caller's .local object passed by
 * value (--ipo-byvalue) */
void ipo(Module *, const StageOptions *);

/* fold.c: branches whose predicate the operands' value ranges decide
 * made unconditional or removed, and the code no longer reachable gone */
void fold_by_ranges(Module *, const StageOptions *);

/* locals.c: loads of local memory a store (or load) of the same bytes
 * dominates become movs, stores nothing reads any more go */
void locals(Module *, const StageOptions *);

/* depot.c: each function's __local_depot repacked: objects only loaded and
 * stored at constant offsets become registers, objects with disjoint
 * lifetimes share bytes, dead ones go, generic accesses become .local */
void depot(Module *, const StageOptions *);

/* dce.c: code whose values nothing reads goes, calls of functions free of
 * effects (ir/effects.c) among it, and branches nothing left depends on
 * skip the dead code they led to */
void dce(Module *, const StageOptions *);

/* addrprep.c: 64-bit index arithmetic that provably fits in 32 bits done
 * in 32, constant offsets folded into [reg+imm], address computations
 * sunk next to their use */
void addrprep(Module *, const StageOptions *);

/* alias.c: before the stages, in a closed world, each .alias goes and
 * its uses name the aliasee (whole-program ptxas can trip on an alias) */
void alias_resolve(Module *, const StageOptions *);

#endif
