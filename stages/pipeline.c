/* The pipeline, written out in order, as QBE's main.c does. */
#include <string.h>
#include "stages.h"

typedef struct Stage {
	const char *name;
	void (*run)(Module *, const StageOptions *);
} Stage;

static const Stage stages[] = {
	{"devirt", devirt},
	/* before inlining: the callee of a loop rolled back goes in once */
	{"reroll", reroll},
	/* before inlining: a call whose results nothing reads is copied in
	 * by no one, nor weighed by the cost model */
	{"dce", dce},
	/* before inlining: the chain of clones is no cycle, and goes in */
	{"unrecurse", unrecurse},
	/* after devirt: the calls it made direct inline too; before printf
	 * lowering, so that an inlined callee's printf gets its buffer in
	 * the function it ends in, one per function as the stage makes them;
	 * before globalopt, which drops the bodies nothing calls any more */
	{"inline", inline_calls},
	{"printf", printf_lower},
	{"globalopt", globalopt},
	/* after globalopt: dead callers are gone (their calls would spoil
	 * "every call passes"), functions internal, folded loads immediates */
	{"ipo", ipo},
	/* after inlining put a caller's known values beside a callee's tests
	 * (sinf's |x| < 105615); before locals and depot, which then see no
	 * access of the dead code */
	{"fold", fold_by_ranges},
	/* after inlining put a caller's stores and its callees' loads in one
	 * function; before depot, which then sees only the accesses left */
	{"locals", locals},
	{"depot", depot},
	/* again: what the copies, by value and the depot's registers left
	 * dead (copies of fn2 whose h their callers no longer read) */
	{"dce-late", dce},
	{"addrprep", addrprep},
};

const char *stage_name(size_t i)
{
	return i < sizeof stages / sizeof *stages ? stages[i].name : NULL;
}

int stages_define(const char *name)
{
	return printf_defines(name);
}

/* What the linker deferred: a name still referenced after the stages
 * that nothing defines (the CUDA runtime's aside; a function only when
 * called or named).  Dead code that named it is gone by now, as nvlink
 * -dlto drops unused library functions before resolving. */
static void check_undefined(const Module *m)
{
	SymTab *t = symtab_build(m);
	for (uint32_t i = 0; i < symtab_count(t); i++) {
		const Symbol *s = symtab_at(t, i);
		if (s->def || !s->decl || is_runtime_symbol(s->name) || s->space == SPACE_SHARED ||
		    (s->kind == SYM_FUNC && !s->nuses))
			continue;
		const SymUse *u = s->nuses ? &s->uses[0] : NULL;
		SrcLines *src = u && u->in ? srclines_build(m, u->in) : NULL;   /* -lineinfo's line */
		error(u ? u->at->loc : s->decl->loc, "%sundefined reference to %s",
			u ? srclines_prefix(src, u->at->loc) : "", quoted_name(s->name));
		srclines_free(src);
	}
	symtab_free(t);
}

/* With o->verify, the IR's invariants are checked after every stage: its
 * shape, and no code violation the input did not have already (a name
 * nothing declares, a register read or called through where no definition
 * reaches it, an address used in the wrong window; ir/verify.c).  A
 * finding is an error naming the stage, and the run fails.  Without it
 * (release builds) the output alone gets the cheap part of that check,
 * unless o->no_check_output: what fails it is not written either. */
int run_pipeline(Module *m, const StageOptions *opts)
{
	int errors = diag_errors();
	ir_normalize(m);
	if (diag_errors() != errors)
		return -1;   /* input no stage may read (ir_check_input) */
	StageOptions with_world = *opts;
	const StageOptions *o = &with_world;
	world_decide(&with_world.world, m, opts);
	alias_resolve(m, o);   /* the stages see one name for each function */
	int check = !o->verify && !o->no_check_output, broken = 0;
	Verified *before = o->verify ? ir_verified(m) : check ? ir_checked(m) : NULL;
	for (size_t i = 0; i < sizeof stages / sizeof *stages; i++) {
		stages[i].run(m, o);
		if (o->stage_done)
			o->stage_done(o->stage_ctx, stages[i].name);
		if (diag_errors() != errors)
			break;
		if (o->verify && ir_verify_since(m, before, stages[i].name) != 0) {
			broken = 1;   /* its errors fail the run */
			break;
		}
		if (o->print_after && !strcmp(o->print_after, stages[i].name))
			print_module(stderr, m);
	}
	if (check && diag_errors() == errors) {
		if (ir_check_output(m, before) != 0) {
			error((Loc){0}, "the stages made output that fails the output check, so none is "
				"written: rerun with --verify to find the stage that broke it");
			broken = 1;
		}
		if (o->stage_done)
			o->stage_done(o->stage_ctx, "check");
	}
	ir_verified_free(before);
	if (o->check_undefined && diag_errors() == errors)
		check_undefined(m);
	return broken ? PIPELINE_BROKEN : diag_errors() == errors ? 0 : -1;
}
