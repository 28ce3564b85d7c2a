/* cost.h: the inline cost model, private to stages/ (cost.c).  A pure
 * function of facts its askers gather (the inliner for a call, devirt
 * for a funnel's arms): it reads no stage's state. */
#ifndef PTXLINK_COST_H
#define PTXLINK_COST_H

#include <stdint.h>

/* How a call passes an address of the caller's .local objects. */
enum {
	COST_LOCAL_NONE,     /* none, or the array stays in memory inlined or not */
	COST_LOCAL_PASSED,   /* the callee reads it at run-time indices only */
	COST_LOCAL_HELD,     /* the callee reaches it at constant offsets only */
};

/* What inlining one callee into one caller touches, over all of that
 * caller's calls to it. */
typedef struct CostFacts {
	int body;            /* the callee's instructions, as it stands */
	int copies;          /* the caller's calls of it: each a copy */
	int overhead;        /* one call's sequence: call, return, a move per parameter element */
	int folds;           /* instructions the copies fold or compute once */
	int local;           /* COST_LOCAL_* */
	int held_bytes;      /* COST_LOCAL_HELD: the bytes of those objects a copy reaches */
	int loop_ins;        /* the callee's instructions on a loop holding no call (asked for COST_LOCAL_PASSED) */
	int indexed_loads;   /* COST_LOCAL_PASSED: the callee's loads of the objects at run-time offsets */
	int last;            /* these are its last calls, and nothing else keeps its body */
	int move_room;       /* instructions bodies going with their last call may still move (0: none) */
	int frames;          /* ABI frames the copies end, in thousandths: the callee's share of its
	                        own (it calls; these copies over all its calls) and the caller's
	                        (not a kernel, whose calls left all go to callees making none) */
} CostFacts;

/* What the copies add to the caller: inlined when at most the threshold. */
int cost_weigh(const CostFacts *);

/* What ending that share of an ABI frame (thousandths) weighs. */
int cost_frame(int thousandths);

/* A funnel of direct calls at an indirect one, each arm to be inlined. */
typedef struct FunnelFacts {
	int weighed;         /* the inliner weighs calls (not --inline=always) */
	int open;            /* the indirect call stays beside the arms */
	int tests;           /* the funnel's own instructions: tests, branches */
	int call;            /* one call's sequence, as CostFacts.overhead */
	uint32_t narms;
	const int *arm;      /* each arm's cost_weigh, one copy at this call */
	int threshold;       /* --inline-threshold */
	int copies;          /* the caller's funnels to the same arms (front ends unroll loops) */
} FunnelFacts;

/* Whether such a funnel is worth it: 1, else 0 with what it adds. */
int cost_funnel_worth(const FunnelFacts *, int *added);

#endif
