/* Value ranges of integer registers: the unsigned interval [lo, hi] a
 * register can hold where an instruction reads it, as a number of the
 * width it is read at.  Seeded by the special registers' hardware bounds
 * (%tid.x < 1024, %tid.z < 64, %ctaid.y < 65535, %laneid < 32), narrowed
 * by the kernel's .maxntid (the product bounds every dimension: nvcc
 * writes __launch_bounds__(256) as .maxntid 256, 1, 1, yet a 16x16 block
 * may launch it) and .reqntid (exact), by constants, masks (and, rem,
 * shr, bfe) and zero-extending loads and conversions.  A range of one
 * value is that value: and, or, xor, add, sub and mul.lo of two such give
 * the exact result (wrapped as the machine wraps), so that a constant
 * carries through index arithmetic (globalopt makes such results
 * immediates).
 *
 * Sound under wrap-around: an operation whose result might wrap in its
 * width gives the whole width, and so does anything not modelled (a load,
 * a value around a loop, a register with many definitions).  A
 * definition's range is computed once, on demand, by a walk up its
 * operands' reaching definitions that a depth limit bounds; a definition
 * met again while its own range is being computed (a loop) is unbounded. */
#include <stdlib.h>
#include "ir.h"

enum { MAX_DEPTH = 48, MAX_REACHING = 8 };

typedef struct Memo {
	uint8_t state;   /* 0 not yet, 1 being computed, 2 done */
	Range r;
} Memo;

struct Ranges {
	const Cfg *cfg;
	const Defs *defs;
	const Names *names;
	Memo *memo;      /* per instruction: the range of what it defines */
	void *fmemo;     /* frange.c's, made at its first question */
	uint32_t *walk;      /* always_rewritten's: a stack, then a mark per block */
	uint32_t *mark, gen;
	uint64_t ntid_lo[3], ntid_hi[3];
};

static uint64_t umax(int bits)
{
	return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

static Range full(int bits)
{
	return (Range){0, umax(bits)};
}

static Range join(Range a, Range b)
{
	return (Range){a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
}

/* The register's declared width in bits; 0 when not an integer register. */
static int int_bits(const Ranges *rs, const char *name)
{
	const char *type = names_type(rs->names, name);
	int ty = type ? type_of(type) : TY_NONE;
	return ty != TY_NONE && !(ty_flags(ty) & (TF_FLOAT | TF_PAIR | TF_HANDLE)) && ty != TY_PRED ?
		ty_bits(ty) : 0;
}

/* .maxntid x, y, z bounds the product only; .reqntid fixes each.  A
 * dimension past 1024 never launches: such a directive bounds nothing. */
static void thread_bounds(Ranges *rs, const Func *f)
{
	static const uint64_t hw[3] = {1024, 1024, 64};
	const uint32_t *dim = f->reqntid[0] ? f->reqntid : f->maxntid;
	uint64_t total = 1024;
	for (int i = 0; i < 3; i++)
		rs->ntid_lo[i] = 1, rs->ntid_hi[i] = hw[i];
	if (f->is_entry && dim[0] && dim[0] <= 1024 && dim[1] <= 1024 && dim[2] <= 1024) {
		uint64_t product = (uint64_t)dim[0] * dim[1] * dim[2];
		if (product < total)
			total = product;
		for (int i = 0; f->reqntid[0] && i < 3; i++)
			rs->ntid_lo[i] = rs->ntid_hi[i] = dim[i];
	}
	for (int i = 0; i < 3; i++)
		if (rs->ntid_hi[i] > total)
			rs->ntid_hi[i] = total;
}

/* What a special register holds; 0 when nothing is known. */
static int sreg_range(const Ranges *rs, const char *name, Range *r)
{
	int index, id = sreg_find(name, &index);
	if (id < 0 || (index < 0 && (id == SR_TID || id == SR_NTID || id == SR_CTAID || id == SR_NCTAID)))
		return 0;
	switch (id) {
	case SR_TID:
		*r = (Range){0, rs->ntid_hi[index] - 1};
		return 1;
	case SR_NTID:
		*r = (Range){rs->ntid_lo[index], rs->ntid_hi[index]};
		return 1;
	case SR_CTAID:   /* a grid is at most 2^31-1 x 65535 x 65535 blocks */
		*r = (Range){0, index ? 65534 : 0x7ffffffe};
		return 1;
	case SR_NCTAID:
		*r = (Range){1, index ? 65535 : 0x7fffffff};
		return 1;
	case SR_LANEID:
		*r = (Range){0, 31};
		return 1;
	default:
		return 0;
	}
}

/* r, known as a number of from bits, read as one of to bits: kept when
 * zero- and sign-extension agree or when truncation loses nothing. */
static Range resize(Range r, int from, int to)
{
	if (from > to && r.lo == r.hi)   /* one value truncated: its low bits */
		return (Range){r.lo & umax(to), r.lo & umax(to)};
	if (from == to || (from < to && r.hi <= umax(from - 1)) || (from > to && r.hi <= umax(to)))
		return r;
	return full(to);
}

static Range def_range(Ranges *rs, uint32_t ins, int depth);

static Range reg_range(Ranges *rs, uint32_t ins, const char *reg, int bits, int depth)
{
	Range r;
	if (sreg_range(rs, reg, &r))
		return resize(r, 32, bits);
	int width = int_bits(rs, reg);
	uint32_t defs[MAX_REACHING];
	uint32_t n = width ? defs_reaching(rs->defs, ins, reg, defs, MAX_REACHING) : 0;
	if (n == 0 || n > MAX_REACHING)
		return full(bits);
	for (uint32_t i = 0; i < n; i++) {
		if (defs[i] == DEF_ENTRY)
			return full(bits);
		Range d = def_range(rs, defs[i], depth + 1);
		r = i ? join(r, d) : d;
	}
	return resize(r, width, bits);
}

static Range operand_range(Ranges *rs, uint32_t ins, const Expr *e, int bits, int depth)
{
	int64_t v;
	if (int_operand(e, &v)) {
		uint64_t u = (uint64_t)v & umax(bits);
		return (Range){u, u};
	}
	if (e->kind == E_NAME && depth < MAX_DEPTH)
		return reg_range(rs, ins, e->str, bits, depth);
	return full(bits);
}

/* ---- the operations ------------------------------------------------------- */

static Range add(Range a, Range b, int bits)
{
	if (a.hi > umax(bits) - b.hi)
		return full(bits);
	return (Range){a.lo + b.lo, a.hi + b.hi};
}

static Range sub(Range a, Range b, int bits)
{
	return a.lo >= b.hi ? (Range){a.lo - b.hi, a.hi - b.lo} : full(bits);
}

static Range mul(Range a, Range b, int bits)
{
	if (b.hi && a.hi > umax(bits) / b.hi)
		return full(bits);
	return (Range){a.lo * b.lo, a.hi * b.hi};
}

static uint64_t shr_by(uint64_t v, uint64_t k, int bits)
{
	return k >= (uint64_t)bits ? 0 : v >> k;
}

/* Every value below the next power of two above hi. */
static uint64_t fill_below(uint64_t hi)
{
	for (int s = 1; s < 64; s *= 2)
		hi |= hi >> s;
	return hi;
}

static int nonneg(Range r, int bits)
{
	return r.hi <= umax(bits - 1);
}

typedef struct Args {
	Range a, b, c;
	int bits;
	int sign;   /* the type is signed */
} Args;

/* op on operands a, b, c of one type; 0 when the operation is not
 * modelled. */
static int arith(int op, const Spelling *sp, const Args *x, Range *r)
{
	Range a = x->a, b = x->b;
	int bits = x->bits, wide = spelling_has(sp, MOD_wide);
	if (x->sign && (op == O_shr || op == O_div || op == O_rem || op == O_min || op == O_max || wide) &&
	    (!nonneg(a, bits) || !nonneg(b, bits)))
		return 0;   /* a negative operand: signed and unsigned disagree */
	if (a.lo == a.hi && b.lo == b.hi && (op == O_add || op == O_sub ||
	    (op == O_mul && spelling_has(sp, MOD_lo)))) {
		uint64_t v = op == O_add ? a.lo + b.lo : op == O_sub ? a.lo - b.lo : a.lo * b.lo;
		*r = (Range){v & umax(bits), v & umax(bits)};
		return 1;
	}
	switch (op) {
	case O_add:
		*r = add(a, b, bits);
		return 1;
	case O_sub:
		*r = sub(a, b, bits);
		return 1;
	case O_mul:
		*r = mul(a, b, wide ? 2 * bits : bits);
		return wide || spelling_has(sp, MOD_lo);
	case O_mad:
		if (!wide && !spelling_has(sp, MOD_lo))
			return 0;
		*r = add(mul(a, b, wide ? 2 * bits : bits), x->c, wide ? 2 * bits : bits);
		return 1;
	case O_shl:
		*r = b.hi < (uint64_t)bits && a.hi <= umax(bits) >> b.hi ?
			(Range){a.lo << b.lo, a.hi << b.hi} : full(bits);
		return 1;
	case O_shr:
		*r = (Range){shr_by(a.lo, b.hi, bits), shr_by(a.hi, b.lo, bits)};
		return 1;
	case O_and:
	case O_or:
	case O_xor:
		if (a.lo == a.hi && b.lo == b.hi) {   /* two known values: the exact bits */
			uint64_t v = op == O_and ? a.lo & b.lo : op == O_or ? a.lo | b.lo : a.lo ^ b.lo;
			*r = (Range){v, v};
		} else if (op == O_and) {
			*r = (Range){0, a.hi < b.hi ? a.hi : b.hi};
		} else {
			*r = (Range){op == O_or ? (a.lo > b.lo ? a.lo : b.lo) : 0, fill_below(a.hi | b.hi)};
		}
		return 1;
	case O_rem:
		*r = b.lo ? (Range){0, a.hi < b.hi - 1 ? a.hi : b.hi - 1} : full(bits);
		return 1;
	case O_div:
		*r = b.lo ? (Range){a.lo / b.hi, a.hi / b.lo} : full(bits);
		return 1;
	case O_min:
		*r = (Range){a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
		return 1;
	case O_max:
		*r = (Range){a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
		return 1;
	case O_selp:
		*r = join(a, b);
		return 1;
	}
	return 0;
}

/* The modifiers an operation may carry and still be modelled: its type,
 * and for mul and mad .lo or .wide.  .sat, .cc, .hi and the rest are not. */
static int plain(const Spelling *sp)
{
	uint32_t extra = spelling_has(sp, MOD_lo) + spelling_has(sp, MOD_wide);
	return sp->ntypes == 1 && sp->nmods == 1 + extra && !sp->unknown;
}

/* What ins computes into its destination, as a number of bits bits (the
 * operation's width, doubled by .wide); *zext when a wider register gets
 * it zero-extended (an unsigned load or conversion). */
static int computed(Ranges *rs, uint32_t ins, int *bits, Range *r, int *zext, int depth)
{
	const Ins *in = &rs->cfg->ins[ins]->ins;
	const Spelling *sp = in->sp;
	int op = sp->code, ty = sp->types[0];
	if (!sp->ntypes || (ty_flags(ty) & (TF_FLOAT | TF_PAIR)) || ty == TY_PRED)
		return 0;
	int tb = ty_bits(ty), sign = ty_signed(ty);
	if (op == O_cvt) {   /* integer to integer, no rounding or saturation */
		int from = sp->types[1];
		if (sp->ntypes != 2 || sp->nmods != 2 || in->nops != 2 || (ty_flags(from) & (TF_FLOAT | TF_PAIR)))
			return 0;
		int fb = ty_bits(from);
		Range a = operand_range(rs, ins, in->ops[1], fb, depth);
		if (ty_signed(from) && !nonneg(a, fb))
			return 0;
		*bits = tb;
		*r = fb < tb ? a : resize(a, fb, tb);   /* a non-negative value extends as itself */
		*zext = !ty_signed(ty);   /* cvt.s8.s32 into a .b32 sign-extends the byte */
		return 1;
	}
	if (op == O_ld && sp->vec == 1 && (ty == TY_U8 || ty == TY_U16 || ty == TY_U32) && in->nops == 2) {
		*bits = tb;
		*r = full(tb);
		*zext = 1;   /* into a wider register */
		return 1;
	}
	if (op == O_mov && plain(sp) && in->nops == 2) {
		*bits = tb;
		*r = operand_range(rs, ins, in->ops[1], tb, depth);
		return 1;
	}
	if ((op == O_popc || op == O_clz) && in->nops == 2) {
		*bits = 32;
		*r = (Range){0, (uint64_t)tb};
		return 1;
	}
	if (op == O_bfe && !sign && in->nops == 4) {
		Range len = operand_range(rs, ins, in->ops[3], 32, depth);
		*bits = tb;
		*r = len.hi < (uint64_t)tb ? (Range){0, umax((int)len.hi)} : full(tb);
		return 1;
	}
	if (!plain(sp) || in->nops < 3 || in->nops > 4)
		return 0;
	int wide = spelling_has(sp, MOD_wide);
	int sbits = op == O_shl || op == O_shr ? 32 : tb;   /* a shift's amount is a .u32 */
	Args x = {.bits = tb, .sign = sign};
	x.a = operand_range(rs, ins, in->ops[1], tb, depth);
	x.b = operand_range(rs, ins, in->ops[2], sbits, depth);
	if (in->nops == 4)
		x.c = operand_range(rs, ins, in->ops[3], wide ? 2 * tb : tb, depth);
	if ((in->nops == 4) != (op == O_mad || op == O_selp) || !arith(op, sp, &x, r))
		return 0;
	*bits = wide ? 2 * tb : tb;
	return 1;
}

/* ---- loop counters --------------------------------------------------------- */

/* Whether ins writes reg for certain (unguarded: a guarded write may not
 * happen). */
static int kills(const Ins *in, const char *reg)
{
	return !in->guard && ins_reg_access(in, reg).writes;
}

/* Whether every way from block from back into block back passes a
 * block that writes reg.  From is a successor of back, so a way back
 * closes a cycle through back and stays in back's strongly connected
 * component: the walk goes no further (a function of many loops one
 * after another walked the rest of the function for each). */
static int always_rewritten(Ranges *rs, uint32_t from, uint32_t back, const char *reg)
{
	const Cfg *g = rs->cfg;
	uint32_t scc = g->blocks[back].cycle;
	if (scc == UINT32_MAX || g->blocks[from].cycle != scc)
		return 1;
	if (!rs->walk) {
		rs->walk = xmalloc((g->nblocks + 1) * sizeof *rs->walk);
		rs->mark = xcalloc(g->nblocks + 1, sizeof *rs->mark);
	}
	uint32_t *stack = rs->walk, top = 0, gen = ++rs->gen;
	stack[top++] = from;
	rs->mark[from] = gen;
	while (top) {
		const Block *b = &g->blocks[stack[--top]];
		if (b == &g->blocks[back])
			return 0;
		int killed = 0;
		for (uint32_t i = b->first; i < b->end && !killed; i++)
			killed = kills(&g->ins[i]->ins, reg);
		for (uint32_t e = 0; !killed && e < b->nsucc; e++) {
			uint32_t s = b->succ[e];
			if (rs->mark[s] != gen && g->blocks[s].cycle == scc) {
				rs->mark[s] = gen;
				stack[top++] = s;
			}
		}
	}
	return 1;
}

/* The setp in ins's block after it that decides its closing "@p bra":
 * the counter i compared with a bound; *bound and *strict say how it
 * passes (i < bound, or i <= bound).  -1 when there is none, or i or p
 * change on the way. */
static int64_t loop_test(const Ranges *rs, uint32_t ins, const char *i, const Expr **bound, int *strict)
{
	const Cfg *g = rs->cfg;
	const Block *b = &g->blocks[g->block_of[ins]];
	const Ins *bra = &g->ins[b->end - 1]->ins;
	if (bra->sp->code != O_bra || !bra->guard || bra->guard_neg || b->nsucc != 2 || b->end - 1 <= ins)
		return -1;
	int64_t test = -1;
	for (uint32_t k = ins + 1; k < b->end - 1; k++) {
		const Ins *in = &g->ins[k]->ins;
		RegAccess ai = ins_reg_access(in, i), ap = ins_reg_access(in, bra->guard);
		if (ai.writes || ai.may_write)
			return -1;
		if (ap.writes || ap.may_write)
			test = in->sp->code == O_setp && !in->guard && in->nops == 3 &&
				in->ops[0]->kind == E_NAME ? (int64_t)k : -1;
	}
	if (test < 0)
		return -1;
	const Ins *setp = &g->ins[test]->ins;
	int cmp = setp->sp->cmp, left = cmp == CMP_LT || cmp == CMP_LO || cmp == CMP_LE || cmp == CMP_LS;
	int right = cmp == CMP_GT || cmp == CMP_HI || cmp == CMP_GE || cmp == CMP_HS;
	const Expr *mine = setp->ops[left ? 1 : 2];
	if ((!left && !right) || mine->kind != E_NAME || mine->str != i)
		return -1;
	*bound = setp->ops[left ? 2 : 1];
	*strict = cmp == CMP_LT || cmp == CMP_LO || cmp == CMP_GT || cmp == CMP_HI;
	return test;
}

/* A loop counter: ins is "add i, i, s" (s > 0) in a block closed by
 * "setp.lt p, i, N; @p bra" (or le, or N gt i), and every way from the
 * loop's exit back to ins writes i anew.  Then the values of i that come
 * round to ins passed the test: below N (or at most N).  ins gives at most
 * max(what enters the loop, N - 1) + s, when that does not wrap (and,
 * for a signed test, stays non-negative, so the test compared it as
 * unsigned too). */
static int counter_range(Ranges *rs, uint32_t ins, int width, Range *r, int depth)
{
	const Cfg *g = rs->cfg;
	const Ins *in = &g->ins[ins]->ins;
	if (in->sp->code != O_add || !plain(in->sp) || in->guard || in->nops != 3 ||
	    in->ops[0]->kind != E_NAME || ty_bits(in->sp->types[0]) != width)
		return 0;
	const char *i = in->ops[0]->str;
	int k = in->ops[1]->kind == E_NAME && in->ops[1]->str == i ? 2 :
		in->ops[2]->kind == E_NAME && in->ops[2]->str == i ? 1 : 0;
	const Expr *bound;
	int strict;
	int64_t test = k ? loop_test(rs, ins, i, &bound, &strict) : -1;
	uint32_t block = g->block_of[ins];
	if (test < 0 || block + 1 >= g->nblocks ||
	    !(g->blocks[block].succ[0] == block + 1 || g->blocks[block].succ[1] == block + 1) ||
	    !always_rewritten(rs, block + 1, block, i))
		return 0;
	const Ins *setp = &g->ins[test]->ins;
	int sign = ty_signed(setp->sp->types[0]);
	if (ty_bits(setp->sp->types[0]) != width)
		return 0;
	Range step = operand_range(rs, ins, in->ops[k], width, depth);
	Range n = operand_range(rs, (uint32_t)test, bound, width, depth);
	uint32_t defs[MAX_REACHING];
	uint32_t nd = defs_reaching(rs->defs, ins, i, defs, MAX_REACHING), found = 0;
	Range enter = {UINT64_MAX, 0};
	if (step.lo == 0 || nd == 0 || nd > MAX_REACHING)
		return 0;
	for (uint32_t d = 0; d < nd; d++) {
		if (defs[d] == ins) {
			found = 1;
			continue;
		}
		if (defs[d] == DEF_ENTRY)
			return 0;
		Range e = def_range(rs, defs[d], depth + 1);
		enter = (Range){e.lo < enter.lo ? e.lo : enter.lo, e.hi > enter.hi ? e.hi : enter.hi};
	}
	if (!found || enter.lo > enter.hi)
		return 0;
	uint64_t passed = strict ? (n.hi ? n.hi - 1 : 0) : n.hi;
	uint64_t before = enter.hi > passed ? enter.hi : passed, top = umax(sign ? width - 1 : width);
	if (before > top || step.hi > top - before)
		return 0;
	*r = (Range){enter.lo + step.lo, before + step.hi};
	return 1;
}

/* The range of the register ins defines, in its declared width. */
static Range def_range(Ranges *rs, uint32_t ins, int depth)
{
	const Ins *in = &rs->cfg->ins[ins]->ins;
	int width = in->nops && in->ops[0]->kind == E_NAME ? int_bits(rs, in->ops[0]->str) : 0;
	Memo *m = &rs->memo[ins];
	if (m->state == 2)
		return m->r;
	if (!width || m->state == 1 || depth >= MAX_DEPTH || ins_first_role(in) != ROLE_DEF)
		return full(width ? width : 64);
	m->state = 1;
	int bits = 0, zext = 0;
	Range r;
	if (counter_range(rs, ins, width, &r, depth))
		bits = width;
	else if (!computed(rs, ins, &bits, &r, &zext, depth))
		r = full(width);
	else if (bits < width && !zext && !nonneg(r, bits))
		r = full(width);   /* how the top bits are filled is not modelled */
	else if (bits > width)
		r = resize(r, bits, width);
	m->state = 2;
	m->r = r;
	return r;
}

Ranges *ranges_compute(const Func *f, const Cfg *g, const Defs *d, const Names *names)
{
	Ranges *rs = xcalloc(1, sizeof *rs);
	rs->cfg = g;
	rs->defs = d;
	rs->names = names;
	rs->memo = xcalloc(g->nins + 1, sizeof *rs->memo);
	thread_bounds(rs, f);
	return rs;
}

void ranges_free(Ranges *rs)
{
	if (rs)
		free(rs->memo), free(rs->fmemo), free(rs->walk), free(rs->mark);
	free(rs);
}

void *ranges_float_memo(Ranges *rs, size_t each, const Cfg **g, const Defs **d)
{
	if (!rs->fmemo)
		rs->fmemo = xcalloc(rs->cfg->nins + 1, each);
	*g = rs->cfg;
	*d = rs->defs;
	return rs->fmemo;
}

Range range_of(Ranges *rs, uint32_t ins, const Expr *operand, int bits)
{
	return operand_range(rs, ins, operand, bits, 0);
}

Range range_of_def(Ranges *rs, uint32_t ins)
{
	return def_range(rs, ins, 0);
}
