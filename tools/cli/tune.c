/* --tune: the choices one model makes for every program (how much to
 * inline, local memory after inlining, funnels or .calltargets, whole
 * or relocatable) measured on the program at hand.  Each plan of the
 * ladder is the options given with a few changed; its inputs are linked
 * and put through the stages again (a session of its own, quiet but for
 * errors), its PTX printed, and ptxas compiles it for the first
 * architecture, whole and relocatable where the mode rule leaves both
 * open (tools/nvtools/mode.c), -j compiles at once, results cached by
 * content (tools/nvtools/batch.c).  The plan given's compile (the mode
 * rule's, measured) stays unless another is better by the yardstick's
 * order (spills, stack, warps by registers, SASS) and no worse in spills
 * and stack, with SASS within bounds (nv_best); a tie goes to the plan
 * earlier in the ladder.  The output is the winner's module and, under
 * --ptxas, its compile.  A plan whose PTX is the same as an earlier one's is not
 * compiled again.  --tune=N compiles at most N.  docs/usage.md, "Tuning". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "tools/lib/core.h"
#include "tools/obj/obj.h"

/* What a plan changes in the options given (0: as given). */
typedef struct Plan {
	const char *name;   /* its options, as -Rpass=tune says them */
	int inline_mode, threshold, opt_locals, funnel_max;  /* opt_locals -1: off */
} Plan;

/* The ladder, the plans chosen most often first (on the FIT half of
 * tools/bench/yard-bench.sh: docs/usage.md, "Tuning"). */
static const Plan ladder[MAX_PLANS] = {
	{"as given", 0, 0, 0, 0},
	{"--inline-threshold=100", PTXLINK_INLINE_AUTO, 100, 0, 0},
	{"--no-opt-locals", 0, 0, -1, 0},
	{"--inline-threshold=100 --no-opt-locals", PTXLINK_INLINE_AUTO, 100, -1, 0},
	{"--inline=never", PTXLINK_INLINE_NEVER, 0, 0, 0},
	{"--devirt-funnel-max=1", 0, 0, 0, 1},
	{"--inline=always", PTXLINK_INLINE_ALWAYS, 0, 0, 0},
	{"--inline=always --no-opt-locals", PTXLINK_INLINE_ALWAYS, 0, -1, 0},
};

/* One plan tried: its session, its PTX (path and bytes), the plan whose
 * PTX is the same (or -1). */
typedef struct Tried {
	ptxlink_session *s;
	char *path;
	unsigned char *ptx;
	size_t n;
	int same;
} Tried;

/* A plan's session says only its errors: the plan given said the rest. */
static void plan_diag(void *user, ptxlink_severity sev, const char *file, unsigned line,
	unsigned col, const char *msg)
{
	if (sev != PTXLINK_ERROR)
		return;
	fprintf(stderr, "ptxlink: error: --tune, plan '%s': ", ((const Plan *)user)->name);
	if (file)
		fprintf(stderr, line ? col ? "%s:%u:%u: " : "%s:%u: " : "%s: ", file, line, col);
	fprintf(stderr, "%s\n", msg);
}

static ptxlink_session *load_plan(const Options *o, Ctx *ctx, const Plan *p)
{
	ptxlink_options lib = o->lib;
	lib.diag = plan_diag;
	lib.diag_user = (void *)p;
	lib.remarks = lib.stats = lib.verbose = 0;
	lib.phase_done = NULL;
	lib.print_after = NULL;
	lib.warn_stack_size = -1;
	if (p->inline_mode)
		lib.inline_mode = p->inline_mode;
	if (p->threshold)
		lib.inline_threshold = p->threshold;
	if (p->opt_locals)
		lib.opt_locals = p->opt_locals > 0;
	if (p->funnel_max)
		lib.devirt_funnel_max = p->funnel_max;
	return load(o, &lib, ctx);
}

/* Plan i's session (the given one for 0) and its PTX, printed and read
 * back to be compared with the plans' before it; -1 after saying why. */
static int try_plan(const Options *o, Ctx *ctx, int i, Tried *t, ptxlink_session *given)
{
	char tag[16];
	snprintf(tag, sizeof tag, "plan%d", i);
	t[i] = (Tried){.s = i ? load_plan(o, ctx, &ladder[i]) : given, .same = -1};
	if (!t[i].s || !tune_file(o, tag, ".ptx", &t[i].path))
		return -1;
	if (write_ptx(session_result(t[i].s), t[i].path) != 0)
		return -1;
	t[i].ptx = obj_slurp(t[i].path, &t[i].n);
	for (int j = 0; j < i && t[i].same < 0; j++)
		if (t[j].ptx && t[i].ptx && t[j].n == t[i].n && !memcmp(t[j].ptx, t[i].ptx, t[i].n))
			t[i].same = j;
	return 0;
}

/* Plan i's compiles, one for each mode left open, while fewer than the
 * budget: appended to v (*n of them), plan_of saying whose. */
static int add_compiles(const Options *o, const Tried *t, int i, NvBatch *v, int *plan_of, int *n)
{
	ModeFacts f;
	int mode = nv_mode(session_result(t[i].s), o->mode, &f);
	if (mode < 0)
		return -1;
	for (int k = 0; k < 2 && *n < o->tune; k++) {
		int reloc = mode == MODE_AUTO ? k : mode == MODE_RELOCATABLE;
		if (k && mode != MODE_AUTO)
			break;
		char tag[24];
		snprintf(tag, sizeof tag, "plan%d.%s", i, reloc ? "reloc" : "whole");
		NvBatch *b = &v[*n];
		*b = (NvBatch){.c = {.ptx = strrchr(t[i].path, '/') + 1, .reloc = reloc,
			.cubin = tune_file(o, tag, ".cubin", NULL),
			.obj = reloc ? tune_file(o, tag, ".o", NULL) : NULL}};
		if (!b->c.cubin || !tune_file(o, tag, ".cubin.said", NULL) ||
			!tune_file(o, tag, ".cubin.log", NULL) || (reloc && !b->c.obj))
			return -1;
		plan_of[(*n)++] = i;
	}
	return 0;
}

/* -Rpass=tune: a compile's figures. */
static void say_compile(const NvBatch *b, int plan, const char *what)
{
	fprintf(stderr, "ptxlink: remark: tune: %s plan %d (%s), %s: ", what, plan, ladder[plan].name,
		b->c.reloc ? "relocatable" : "whole program");
	if (b->f.spill < 0)
		fprintf(stderr, "ptxas failed\n");
	else
		fprintf(stderr, "%ld spill bytes, %ld stack, %d registers (%d warps), %ld SASS bytes%s\n",
			b->f.spill, b->f.stack, b->f.regs, b->f.warps, b->f.text, b->cached ? " (cached)" : "");
}

/* -v, --stats: which plan won and what the tuning cost in ptxas's time
 * beside the plan given's own compiles (given of them: the mode rule's
 * measuring), which a run without --tune makes. */
static void say_cost(const Options *o, const NvBatch *v, int n, int given, int plans, int win)
{
	double all = 0, own = 0;
	int cached = 0;
	for (int k = 0; k < n; k++)
		all += v[k].ms, cached += v[k].cached, own += k < given ? v[k].ms : 0;
	fprintf(stderr, "ptxlink: tune: plan %d (%s) chosen; %d compiles of %d plans (%d cached or "
		"the same) at -j %d: ptxas %.0f ms in all, the plan given's own %.0f ms\n", win,
		ladder[win].name, n, plans, cached, o->jobs, all, own);
}

/* What the tools printed compiling the winner (nvlink's warnings), as
 * they print it without --tune; a cached compile's is not kept. */
static void relay_log(const NvBatch *b)
{
	char *path = tune_path(b->c.cubin, ".log");
	size_t n;
	unsigned char *log = b->cached ? NULL : obj_slurp(path, &n);
	if (log)
		fwrite(log, 1, n, stderr);
	free(log);
	free(path);
}

/* The plans tried, into v; the number of plans, or -1. */
static int try_all(const Options *o, Ctx *ctx, ptxlink_session *given, Tried *t, NvBatch *v,
	int *plan_of, int *n)
{
	int plans = 0;
	for (int i = 0; i < MAX_PLANS && *n < o->tune; i++, plans++) {
		if (try_plan(o, ctx, i, t, given) != 0)
			return -1;
		if (t[i].same >= 0) {
			if (o->tune_remarks)
				fprintf(stderr, "ptxlink: remark: tune: plan %d (%s): the same PTX as plan %d\n",
					i, ladder[i].name, t[i].same);
			continue;
		}
		if (add_compiles(o, t, i, v, plan_of, n) != 0)
			return -1;
	}
	return plans;
}

static int input_once(const Options *o)
{
	for (int i = 0; i < o->inputs.n; i++)
		if (!strcmp(o->inputs.v[i], "-")) {
			fprintf(stderr, "ptxlink: error: --tune links the inputs again for each plan, "
				"and standard input cannot be read again: name a file\n");
			return 0;
		}
	return 1;
}

/* The plans' sessions and PTX freed but the winner's (win: -1 none),
 * which becomes *s (the given one is plan 0's). */
static void drop(Tried *t, int win, ptxlink_session **s)
{
	for (int i = 0; i < MAX_PLANS; i++) {
		if (i != win && t[i].s != *s)
			ptxlink_free(t[i].s);
		free(t[i].ptx);
	}
	if (win > 0) {
		ptxlink_free(*s);
		*s = t[win].s;
	}
}

int tune(const Options *o, Ctx *ctx, ptxlink_session **s, Tuned *tuned)
{
	char *exe = nv_find("ptxas");
	if (!exe) {
		fprintf(stderr, "ptxlink: error: --tune measures plans with ptxas, which is not found\n");
		return -1;
	}
	free(exe);
	if (!input_once(o))
		return -1;
	Tried t[MAX_PLANS] = {{0}};
	NvBatch v[2 * MAX_PLANS];
	int plan_of[2 * MAX_PLANS], n = 0;
	int plans = try_all(o, ctx, *s, t, v, plan_of, &n);
	if (plans >= 0)
		tune_compile(o, session_objects(*s), v, n);
	int given = 0;
	while (given < n && plan_of[given] == 0)
		given++;
	int win = plans >= 0 && n ? nv_best(v, n, given) : -1;
	for (int k = 0; o->tune_remarks && win >= 0 && k < n; k++)
		say_compile(&v[k], plan_of[k], "tried");
	if (o->tune_remarks && win >= 0)
		say_compile(&v[win], plan_of[win], "chosen:");
	if ((o->lib.verbose || o->lib.stats) && win >= 0)
		say_cost(o, v, n, given, plans, plan_of[win]);
	if (win >= 0 && v[win].f.spill < 0) {
		fprintf(stderr, "ptxlink: error: --tune: ptxas failed on every plan; on the plan given:\n");
		nv_pass_on(&(NvCompile){.nopts = 0}, v[0].f.said ? v[0].f.said : "");
		win = -1;
	}
	if (win >= 0)
		relay_log(&v[win]);
	drop(t, win >= 0 ? plan_of[win] : -1, s);
	if (win >= 0) {
		*tuned = (Tuned){.mode = v[win].c.reloc ? MODE_RELOCATABLE : MODE_WHOLE,
			.cubin = v[win].c.cubin, .said = v[win].f.said};
		v[win].f.said = NULL;
	}
	for (int k = 0; k < n; k++)
		nv_figures_free(&v[k].f);
	return win >= 0 ? 0 : -1;
}
