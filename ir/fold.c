/* What a function computes from constants alone, once some of its
 * registers are known constants (an inlined copy's parameter reads where
 * the call passes constants: stencil_weight(-1, 0)).  Which instructions
 * define a constant is the caller's to say (seeds); from them an
 * instruction folds when it is an operation with no memory, call or
 * other effect, every register it reads (its guard too) is defined only
 * by instructions that fold, and it reads at least one such register (an
 * instruction on immediates alone is what it was before).  A guarded
 * branch on a folded predicate is decided: the branch goes (which way it
 * goes is not known here, so the side that dies is not counted).
 * Pessimistic: a definition met around a loop is not constant, so a loop
 * counter never folds.
 *
 * ptxas does the folding (measured: 8 copies of setp/selp/mul.lo/
 * cvt.rn.f32/mul.f32 on immediates take 384 SASS bytes, on parameters
 * 1,408): nothing in ptxlink needs to.
 *
 * The same walk says what each folding instruction is computed from: a
 * seed gives bits (say one per parameter element), an instruction the
 * OR of those it reads.  Copies of f whose calls pass the same values
 * there compute it once (ptxas CSEs it: grid_at's nx - 1 and the clamp
 * of x - 1 in stencil_xfile), where the copies of it lie on every path
 * through f: an instruction in a block that dominates every exit (one
 * inside an if is in a block of its own in each copy), and not a
 * decided branch (each copy keeps its own). */
#include <stdlib.h>
#include "ir.h"

enum { MAX_REACHING = 8, MAX_ROUNDS = 8 };

typedef struct Folder {
	const Cfg *cfg;
	const Defs *defs;
	uint8_t *known;   /* per instruction: 1 a seed, 2 folds */
	uint32_t *from;   /* per instruction known: the seeds' bits it comes from */
} Folder;

/* Every definition reaching reg at ins is a constant one: the bits they
 * come from (never 0), or 0. */
static uint32_t reg_known(const Folder *fo, uint32_t ins, const char *reg)
{
	uint32_t d[MAX_REACHING], from = 0;
	uint32_t n = defs_reaching(fo->defs, ins, reg, d, MAX_REACHING);
	if (n == 0 || n > MAX_REACHING)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		if (d[i] == DEF_ENTRY || !fo->known[d[i]])
			return 0;
		from |= fo->from[d[i]];
	}
	return from;
}

/* The operands an instruction reads are all constants: 1 when one of
 * them is a register that folded (*from: what they come from), 0 when
 * all are immediates, -1 when some is not known (a special register, a
 * symbol, an address). */
static int reads_known(const Folder *fo, uint32_t i, uint32_t *from)
{
	const Ins *in = &fo->cfg->ins[i]->ins;
	uint32_t r;
	*from = 0;
	if (in->guard && !(*from = reg_known(fo, i, in->guard)))
		return -1;
	for (uint32_t k = ins_first_role(in) == ROLE_DEF ? 1 : 0; k < in->nops; k++) {
		const Expr *e = in->ops[k];
		int64_t v;
		if (e->kind == E_NUM || int_operand(e, &v))
			continue;
		if (e->kind != E_NAME || e->str[0] != '%' || is_special_reg(e->str) || !(r = reg_known(fo, i, e->str)))
			return -1;
		*from |= r;
	}
	return *from != 0;
}

/* An operation that only computes its destination from its operands. */
static int pure(const Ins *in)
{
	const Opcode *op = in->sp->op;
	return op && !op->flags && in->nops >= 2 && in->ops[0]->kind == E_NAME &&
		ins_first_role(in) == ROLE_DEF;
}

static uint32_t decided(const Folder *fo, uint32_t i)
{
	const Ins *in = &fo->cfg->ins[i]->ins;
	return in->sp->code == O_bra && in->guard ? reg_known(fo, i, in->guard) : 0;
}

/* The blocks on every path through f: those dominating every exit (a
 * reachable block with no successor), found as the dominator chains
 * the exits share. */
static uint8_t *on_every_path(const Cfg *cfg)
{
	uint32_t *n = xcalloc(cfg->nblocks + 1, sizeof *n), exits = 0;
	uint8_t *every = xcalloc(cfg->nblocks + 1, 1);
	for (uint32_t e = 0; e < cfg->nblocks; e++) {
		if (cfg->blocks[e].nsucc || cfg->blocks[e].rpo == UINT32_MAX)
			continue;
		exits++;
		for (uint32_t b = e;; b = cfg->blocks[b].idom) {
			n[b]++;
			if (cfg->blocks[b].idom == b)
				break;
		}
	}
	for (uint32_t b = 0; b < cfg->nblocks; b++)
		every[b] = exits && n[b] == exits;
	free(n);
	return every;
}

uint32_t fold_given(const Func *f, FoldSeed *seed, void *ctx, FoldEach *each)
{
	uint32_t r = 0;
	Cfg *cfg = cfg_build(f);
	if (!cfg)
		return r;
	Live *live = live_compute(cfg);
	Defs *defs = defs_compute(cfg, live);
	Folder fo = {cfg, defs, xcalloc(cfg->nins + 1, 1), xcalloc(cfg->nins + 1, sizeof(uint32_t))};
	for (uint32_t i = 0; i < cfg->nins; i++)
		if ((fo.from[i] = seed(ctx, &cfg->ins[i]->ins)))
			fo.known[i] = 1;
	int changed = 1;
	for (int round = 0; changed && round < MAX_ROUNDS; round++) {
		changed = 0;
		for (uint32_t i = 0; i < cfg->nins; i++)
			if (!fo.known[i] && pure(&cfg->ins[i]->ins) && reads_known(&fo, i, &fo.from[i]) > 0)
				fo.known[i] = 2, changed = 1;
	}
	uint8_t *every = each ? on_every_path(cfg) : NULL;
	for (uint32_t i = 0; i < cfg->nins; i++) {
		uint32_t branch = fo.known[i] ? 0 : decided(&fo, i);
		if (fo.known[i] != 2 && !branch)
			continue;
		r++;
		if (each)
			each(ctx, branch ? branch : fo.from[i], !branch && every[cfg->block_of[i]]);
	}
	free(every);
	free(fo.from);
	free(fo.known);
	defs_free(defs);
	live_free(live);
	cfg_free(cfg);
	return r;
}
