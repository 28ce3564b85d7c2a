/* cost.c: the inline cost model (docs/stages.md, "Inlining" and
 * "Devirtualization", has the measurements behind each rule).  The
 * inliner asks it whether a callee goes into a caller, devirtualization
 * whether a funnel whose arms all go in is worth it; each gathers the
 * facts, neither's state is read here. */
#include "cost.h"

/* A caller's .local array passed to a callee reached at constant offsets
 * leaves the stack once inlined, and stack is what the yardstick weighs
 * first: such a call weighs this many instructions less. */
enum { HELD_BONUS = 60 };
/* And each copy frees the bytes of those objects it reaches, which the
 * caller's frame held otherwise: this many instructions less per byte. */
enum { HELD_BYTE = 2 };
/* A body that goes with its last call is free to inline up to this size,
 * and past it while the instructions so moved fit the growth budget
 * (CostFacts.move_room): a chain of functions each calling the next once
 * would otherwise collapse into one, each level copying all below it.  A
 * large function a kernel calls once (the generated yardstick's big<N>)
 * is what -dlto inlines; taking it on the FIT half put 2 more programs at
 * or below the better peer, Σ spills -18% (docs/stages.md). */
enum { BODY_GOES_MAX = 400 };

/* A body reading a caller's array at run-time offsets goes with its last
 * call only up to this size: a larger one brings its own objects and
 * accesses into the caller's depot, where the depot stage may then keep
 * more bytes (Quicksilver's tracking kernel: MC_Load_Particle's 208
 * bytes whose addresses escape, then MC_Segment_Outcome's accesses
 * through a pointer it cannot follow, which keep the whole depot: stack
 * 944 -> 1,744 bytes with no bound; 944 up to 200 instructions, 1,280
 * at 400).  On the generated yardstick's fitting sets 200 keeps the
 * programs at the bar as they were. */
enum { PASSED_GOES_MAX = 200 };

/* ptxas gives a function that calls an ABI frame: its return address
 * saved and restored (8 bytes of stack, 16 spill bytes, in relocatable
 * mode and, in whole-program mode, where it is called through a pointer
 * or on a call cycle) and a callee-saved register for each value live
 * across a call.  Copies that end one (a callee's share of its calls
 * when it calls, or the calls that make a caller a leaf) weigh this many
 * instructions less for a whole frame (the largest of 60 to 200 on the
 * fitting sets that took no program off the bar: docs/stages.md). */
enum { FRAME_BONUS = 150 };

/* Every copy counts (front ends unroll loops around calls); a parameter
 * element costs one move; what the copies fold weighs nothing.  An array
 * read at run-time indices may become registers, each read a chain of
 * selects over its elements, and the loops ptxas unrolls (by 4, fully at
 * a constant trip count; not one around a call) copy them: the callee's
 * instructions on such loops count 3 times more.  Its body going earns
 * nothing then, nor where it reads the array more than once so (a loop
 * NVVM unrolled already: depot_lifetimes' sum_through, 16 reads). */
int cost_weigh(const CostFacts *f)
{
	int total = f->copies * (f->body - f->overhead) - f->folds;
	int selects = f->local == COST_LOCAL_PASSED &&
		(f->loop_ins || f->indexed_loads > 1 || f->body > PASSED_GOES_MAX);
	if (f->local == COST_LOCAL_PASSED)
		total += 3 * f->copies * f->loop_ins;
	if (!selects && f->last && (f->body <= BODY_GOES_MAX || f->body <= f->move_room))
		total -= f->body;
	if (f->local == COST_LOCAL_HELD)
		total -= HELD_BONUS + HELD_BYTE * f->copies * f->held_bytes;
	total -= cost_frame(f->frames);
	return total;
}

int cost_frame(int thousandths)
{
	return thousandths * FRAME_BONUS / 1000;
}

/* The rule for a funnel whose every arm the inliner would take: weighed
 * as the inliner weighs a callee's calls, what each copy adds over the indirect call
 * (its tests and branches, each arm's copy less the call it replaces,
 * the call sequences of the arms beyond the one) against the inline
 * threshold, since a funnel of small copies can still be larger than the
 * one call.  --inline=always weighs nothing: a funnel.  An open funnel's
 * arms are never inlined, so it never gets here weighed. */
int cost_funnel_worth(const FunnelFacts *f, int *added)
{
	if (!f->weighed || f->open)
		return 1;
	int g = f->tests + (int)(f->narms - 1) * f->call;
	for (uint32_t k = 0; k < f->narms; k++)
		g += f->arm[k];
	g *= f->copies > 1 ? f->copies : 1;
	*added = g;
	return g <= f->threshold;
}
