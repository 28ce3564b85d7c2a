/* Whole program or relocatable (nvtools.h).  The mode is relocatable
 * when the module needs it (device-runtime or libdevice names left
 * undefined, --allow-undefined) or when tools/bench/mode-bench.sh and
 * lto-bench.sh measured fewer spills, smaller frames and less SASS that
 * way (see mode_by_facts); whole-program when no function's address is
 * taken and no call is left and no division or square root ptxas makes
 * a subroutine of is in two kernels; where the facts tell nothing, the
 * caller compiles the first architecture both ways with figures
 * (nv_compile) and nv_better picks (a tie is whole: it needs no
 * nvlink): the fewer spill bytes, then the smaller frames, then the more
 * warps the registers let an SM hold, then the fewer SASS bytes (the
 * cubin's .text sections).  --tune picks among its plans' compiles by
 * the same order (nv_best). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nvtools.h"

/* A name whole-program ptxas cannot leave undefined: all but vprintf,
 * malloc and the like, which it knows. */
static int needs_nvlink(const Symbol *s)
{
	if (s->def || !s->decl || s->space == SPACE_SHARED || (s->kind == SYM_FUNC && !s->nuses))
		return 0;
	return !is_runtime_symbol(s->name) || needs_cudadevrt(s->name) ||
		!strncmp(s->name, "__nv_", 5);
}

/* Whether the call graph has a cycle (ir/callgraph.c's components). */
static int has_cycle(const CallGraph *cg)
{
	for (uint32_t i = 0; i < cg_count(cg); i++)
		if (cg_on_cycle(cg, i))
			return 1;
	return 0;
}

/* The slow paths (Spelling.slowpath) of a body, each once: *n of them
 * in v so far, the kernel's own after those of the kernels before. */
typedef struct SlowPath {
	const Spelling *sp;
	int kernels, last;   /* how many kernels use it; the last one's number */
} SlowPath;

static SlowPath *slowpaths(const List *body, int kernel, SlowPath *v, uint32_t *n, uint32_t *cap)
{
	BodyIt it;
	for (const Stmt *s = body_first((List *)body, &it); s; s = body_next(&it)) {
		if (s->kind != S_INS || !s->ins.sp->slowpath)
			continue;
		uint32_t i = 0;
		while (i < *n && v[i].sp->slowpath != s->ins.sp->slowpath)
			i++;
		if (i == *n) {
			v = array_grow(v, *n, cap, sizeof *v);
			v[(*n)++] = (SlowPath){s->ins.sp, 0, -1};
		}
		if (v[i].last != kernel)
			v[i].kernels++, v[i].last = kernel;
	}
	return v;
}

/* The slow path the most kernels use, when two or more do. */
static void shared_slowpath(const Module *m, ModeFacts *f)
{
	SlowPath *v = NULL;
	uint32_t n = 0, cap = 0;
	int kernel = 0;
	for (const Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->is_entry && s->func->has_body)
			v = slowpaths(&s->func->body, kernel++, v, &n, &cap);
	for (uint32_t i = 0; i < n; i++)
		if (v[i].kernels > 1 && v[i].kernels > f->slowpath_kernels)
			f->slowpath = v[i].sp->text, f->slowpath_kernels = v[i].kernels;
	free(v);
}

static void mode_facts(const Module *m, ModeFacts *f)
{
	SymTab *t = symtab_build(m);
	CallGraph *cg = callgraph_build(m, t);
	*f = (ModeFacts){0};
	for (uint32_t i = 0; i < symtab_count(t); i++) {
		const Symbol *s = symtab_at(t, i);
		if (!f->undefined && needs_nvlink(s))
			f->undefined = s->name;
	}
	for (uint32_t i = 0; i < cg_count(cg); i++) {
		const CgFunc *c = cg_func(cg, i);
		f->taken += c->def && c->address_taken;
		f->indirect += (int)c->nindirect;
		f->taken_indirect += c->def && c->address_taken && c->nindirect;
		f->calling += c->def && (c->ncallees || c->nindirect);
	}
	f->recursive = has_cycle(cg);
	shared_slowpath(m, f);
	callgraph_free(cg);
	symtab_free(t);
}

/* The rule tools/bench/mode-bench.sh's and lto-bench.sh's measurements
 * support (docs/usage.md): nvlink must resolve a name; or a cycle may be
 * compiled with the full call ABI (an address-taken function calling
 * through a pointer): relocatable.  No
 * function address-taken, no call left and no instruction ptxas calls a
 * subroutine of its own for (Spelling.slowpath) in two kernels: whole
 * program.  Of the 51 call-free corpus files compiled both ways with
 * ptxas 13, 49 are no better relocatable in spills, stack, warps or
 * .text; the two that are, textures for sm_75 and sm_80, are the two
 * with a slow path in two kernels (div.rn.f32): whole-program ptxas
 * copies the subroutine into each, ptxas -c and nvlink keep one (14,720
 * .text bytes against 13,184 and 15,232 against 13,824), so they are
 * measured.  A slow path in one kernel, or a different one in each, is
 * one copy a kernel either way, and whole program less SASS
 * (cluster_sm90's sqrt.rn.f64 in one kernel: 6,016 bytes against 6,912;
 * div.rn.f32 and div.rn.ftz.f32 in two kernels: 3,712 against 4,224).
 * The subroutines ptxas makes of warp-synchronous instructions for sm_80
 * and sm_86, not sm_90 (__cuda_sm70_shflsync_up_p and the like), depend
 * on the code around them, not on the instruction (a kernel of the one
 * instruction has none), and are no fact: in the 6 corpus files that
 * have them (cub_sort_scan's in 40 kernels) whole program is better.
 * Otherwise MODE_AUTO, measure:
 * - recursion through direct calls: whole-program ptxas saves a non-leaf
 *   function's return address in fewer spill bytes, relocatable keeps
 *   one copy of each function; the generated yardstick's programs go
 *   either way (docs/usage.md).
 * - address-taken functions: whole-program mode compiles each as a
 *   full-ABI function copied into every kernel, relocatable mode pays at
 *   the call sites instead, and which costs more no count of them tells.
 *   (Relocatable spills less for a bytecode interpreter's 10 functions at
 *   2 sites, fnptr --no-devirt's 10 at 14 and fnptr's after
 *   devirtualization, 10 with no indirect call left; whole for mono_iface
 *   --no-devirt's 9 at 13, fnptr --no-stages's 10 at 25, and at a tie, as
 *   globals_init's and llc_fnptr's funnels with no call left: 3,456 SASS
 *   bytes against 4,608, 768 against 1,536.)
 * - calls left (to a .func the stages kept, or to vprintf, malloc):
 *   whole-program ptxas copies a callee into each kernel calling it and
 *   still calls it, relocatable keeps one and calls it with the full ABI;
 *   at equal spills and frames the registers and the SASS differ either
 *   way, and no count of callees or sites tells which.  (Relocatable:
 *   clang_depot_lifetimes 15,104 bytes against 17,152 at 40 registers
 *   against 37, and with vprintf the only callee printf_demo 1,792
 *   against 2,176, printf_runtime 1,792 against 2,048; whole, fewer
 *   registers: virtual_shapes 32 against 37, solver 32 against 53,
 *   vcall_xfile 46 against 70, though relocatable's SASS is 2 KB
 *   smaller each; whole, less SASS: bits 7,808 against 8,448, vecmath
 *   9,600 against 11,264, nbody_xfile 6,272 against 7,936, globals
 *   4,608 against 4,736.) */
static int mode_by_facts(const ModeFacts *f)
{
	if (f->undefined || f->taken_indirect)
		return MODE_RELOCATABLE;
	return f->recursive || f->taken || f->calling || f->slowpath ? MODE_AUTO : MODE_WHOLE;
}

/* The yardstick's order (tools/bench/lto-bench.sh): fewer spill bytes,
 * then smaller frames, then more warps resident (registers cost
 * occupancy: relocatable's full-ABI calls took vcall_xfile from 46
 * registers to 70 and solver from 32 to 53, for 2 KB less SASS each),
 * then less SASS; a failed compile is worse than any other. */
int nv_better(const NvFigures *a, const NvFigures *b)
{
	if (a->spill < 0 || b->spill < 0)
		return b->spill < 0 && a->spill >= 0;
	if (a->spill != b->spill)
		return a->spill < b->spill;
	if (a->stack != b->stack)
		return a->stack < b->stack;
	return a->warps != b->warps ? a->warps > b->warps : a->text < b->text;
}

/* Is a that much smaller than b in SASS for that little more spilled? */
static int smaller_for_little(const NvFigures *a, const NvFigures *b)
{
	return a->spill >= 0 && b->spill >= 0 && a->stack <= b->stack && a->warps >= b->warps &&
		a->spill <= b->spill + NV_MODE_SPILL && a->text * 100 <= b->text * (100 - NV_MODE_SASS);
}

int nv_mode_better(const NvFigures *a, const NvFigures *b)
{
	if (smaller_for_little(a, b) || smaller_for_little(b, a))
		return smaller_for_little(a, b);
	return nv_better(a, b);
}

/* The reference is the build the user has without ptxlink: each input
 * compiled apart by ptxas -c and linked by nvlink (nvcc -rdc's route).
 * Where one mode's compile is at or below it in spills and stack and
 * within NV_REF_SASS percent of its SASS and the other's is not, that
 * one: a whole-program compile can take fewer spill bytes and more warps
 * than a relocatable one and still be a quarter larger than the code
 * -rdc gives (the generated yardstick's fitting sets: 4 of 178 programs
 * reach the bar, relocatable 27% to 31% smaller; none leaves it at 105%
 * to 110%, 3 do at 100%: docs/usage.md). */
static int at_or_below(const NvFigures *c, const NvFigures *ref)
{
	return c->spill <= ref->spill && c->stack <= ref->stack &&
		c->text * 100 <= ref->text * NV_REF_SASS;
}

/* p no more than q in spills, stack and SASS: at or below whatever q is. */
static int no_more(const NvFigures *p, const NvFigures *q)
{
	return p->spill <= q->spill && p->stack <= q->stack && p->text <= q->text;
}

int nv_mode_needs_ref(const NvFigures *w, const NvFigures *r)
{
	if (w->spill < 0 || r->spill < 0)
		return 0;
	return nv_mode_better(r, w) ? !no_more(r, w) : !no_more(w, r);
}

int nv_mode_pick(const NvFigures *w, const NvFigures *r, const NvFigures *ref)
{
	if (ref && ref->spill >= 0 && w->spill >= 0 && r->spill >= 0 &&
		at_or_below(w, ref) != at_or_below(r, ref))
		return at_or_below(r, ref);
	return nv_mode_better(r, w);
}

/* Whether c is no worse than the plan given's g in spills and stack,
 * and its SASS at most NV_TUNE_SASS percent of g's (any compile is, when
 * g failed). */
static int guarded(const NvFigures *c, const NvFigures *g)
{
	return g->spill < 0 || (c->spill >= 0 && c->spill <= g->spill && c->stack <= g->stack &&
		c->text * 100 <= g->text * NV_TUNE_SASS);
}

int nv_best(const NvBatch *v, int n, int given)
{
	int g = 0, best;
	for (int k = 1; k < given; k++)
		if (nv_better(&v[k].f, &v[g].f))
			g = k;
	best = g;
	for (int k = given; k < n; k++)
		if (guarded(&v[k].f, &v[g].f) && nv_better(&v[k].f, &v[best].f))
			best = k;
	return best;
}

int nv_mode(const Module *m, NvMode asked, ModeFacts *f)
{
	mode_facts(m, f);
	if (asked == MODE_WHOLE && f->undefined) {
		fprintf(stderr, "ptxlink: error: --compile-mode=whole: '%s' is undefined and only "
			"nvlink can resolve it (use --compile-mode=relocatable)\n", f->undefined);
		return -1;
	}
	return asked != MODE_AUTO ? (int)asked : mode_by_facts(f);
}
