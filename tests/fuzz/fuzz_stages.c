/* libFuzzer harness for the optimization stages (stages/).
 *
 * An input is two option bytes and then up to FUZZ_MAX_MODULES PTX modules
 * separated by FUZZ_SEPARATOR lines.  The first byte links them
 * (fuzz_load, fuzz.h); inputs that do not parse or link are skipped.  The
 * second picks the stage options:
 *   bits 0-2  --devirt-funnel-max: default (10), 1, 2, 3, 4, 64, 1000, 2^31-1
 *   bit 3     -Werror=format
 *   bit 4     --no-devirt
 *   bits 5-6  0: the whole pipeline (run_pipeline); 1: devirt alone;
 *             2: printf lowering alone; 3: the pipeline, then again on
 *             its printed and re-parsed output (ptxlink on its own output)
 *   bit 7     a stage alone instead: with bit 5, address preparation with
 *             every rewrite (--addrprep); else depot repacking, with
 *             --warn-stack-size=64
 * Stages run with StageOptions.verify, so run_pipeline fails with
 * PIPELINE_BROKEN when a stage breaks an invariant the input kept
 * (ir_verify_since), and the harness aborts; it checks the same after a
 * stage run alone.  A stage's error (printf lowering
 * refusing a call it cannot read) is fine.  After the stages, the printed
 * module must parse again and print the same (fuzz_reparse). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include "fuzz.h"
#include "ptx-grammar/ptx.h"
#include "stages/stages.h"

static const int funnels[8] = {10 /* the default today */, 1, 2, 3, 4, 64, 1000, INT_MAX};

/* One stage, as run_pipeline runs each: 0, or -1 after its errors. */
static int run_stage(Module *m, const StageOptions *opts,
	void (*stage)(Module *, const StageOptions *), const char *name)
{
	int errors = diag_errors();
	ir_normalize(m);
	StageOptions o = *opts;
	world_decide(&o.world, m, opts);
	Verified *before = ir_verified(m);
	stage(m, &o);
	int ok = diag_errors() == errors;
	if (ok && ir_verify_since(m, before, name) != 0) {
		diag_set_stream(stderr);
		ir_verify_since(m, before, name);
		fuzz_fail("fuzz_stages", "IR invariants broken after stage '%s'", name);
	}
	ir_verified_free(before);
	return ok ? 0 : -1;
}

/* The pipeline on the module ptxlink would read back from its output. */
static void run_again(const Module *m, const StageOptions *o)
{
	size_t len;
	char *text = fuzz_print(m, &len);
	Module *m2 = ptx_parse_string("fuzz-printed.ptx", text, len);
	free(text);
	if (!m2)
		fuzz_fail("fuzz_stages", "the staged module does not parse");
	ir_normalize(m2);
	int rc = run_pipeline(m2, o);
	if (rc == PIPELINE_BROKEN)
		fuzz_fail("fuzz_stages", "IR invariants broken by the stages on their own output");
	if (rc == 0)
		fuzz_reparse("fuzz_stages: module staged twice", m2);
	mod_free(m2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	fuzz_begin();
	LinkOptions lo;
	int n;
	Module *m = fuzz_load("fuzz_stages", (const char *)data + 2, size - 2, data[0], &lo, &n);
	if (!m)
		return 0;
	unsigned flags = data[1];
	StageOptions o = {
		.verify = 1,
		.allow_undefined = lo.allow_undefined,
		.unlinked = n == 1 && !lo.arch,
		.devirt = {.off = !!(flags & 16), .funnel_max = funnels[flags & 7]},
		.printf_lowering = {.werror_format = !!(flags & 8)},
		/* inlining all it can, or by the cost model */
		.inlining = {.mode = flags & 8 ? INLINE_ALWAYS : INLINE_AUTO, .threshold = 40,
			.growth = 400},
	};
	int rc;
	if (flags & 128 && flags & 32) {
		o.addrprep.rewrites = ADDRPREP_ALL;
		rc = run_stage(m, &o, addrprep, "addrprep");
	} else if (flags & 128) {
		o.depot = (DepotOptions){.remarks = 0, .warn = 1, .warn_stack_size = 64};
		rc = run_stage(m, &o, depot, "depot");
	} else switch ((flags >> 5) & 3) {
	case 1: rc = run_stage(m, &o, devirt, "devirt"); break;
	case 2: rc = run_stage(m, &o, printf_lower, "printf"); break;
	default: rc = run_pipeline(m, &o); break;
	}
	if (rc == PIPELINE_BROKEN)
		fuzz_fail("fuzz_stages", "IR invariants broken by the stages");
	if (rc == 0) {
		fuzz_reparse("fuzz_stages: staged module", m);
		if (((flags >> 5) & 3) == 3 && !(flags & 128))
			run_again(m, &o);
	}
	mod_free(m);
	return 0;
}
