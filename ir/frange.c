/* Value ranges of float registers: the interval [lo, hi] an .f32 or
 * .f64 register can hold where an instruction reads it, and whether it
 * may be NaN.  Beside range.c's integer ranges and walked the same way: a
 * definition's range is computed once, on demand, up its operands'
 * reaching definitions, a depth limit bounds the walk, and a definition
 * met again while its own range is being computed (a loop) is unbounded.
 *
 * Seeds: float literals, and conversions of an integer register whose
 * range range.c knows (cvt.rn.f32.u32 of `h & 255` is in [0, 255]).
 * Modelled: mov, abs, neg, add, sub, mul, fma and mad, min, max, selp,
 * cvt between f32 and f64; everything else (a load, a division, sqrt,
 * the approximate functions) may be anything, NaN too.
 *
 * Sound under rounding whatever the rounding mode: rounding is monotone,
 * so the result lies between the rounded bounds, and each computed bound
 * moves outward by a relative 2^-20 (an f32 result is within 2^-24 of the
 * exact one) plus the smallest normal (a subnormal result, or one .ftz
 * flushes), and past the type's largest finite value it becomes infinite.
 * A bound of zero stays: it is exact (a sum, product or fma of floats
 * computed in doubles is 0 only when the exact one is, and so is the
 * conversion of an integer), and 0 rounds to 0 in every mode; an .ftz
 * operand's subnormal bound reads as 0.  The bounds are doubles: every
 * f32 and f64 is one, and a double operation's own error is far inside
 * the widening.  NaN comes in
 * through an operand that may be one, inf - inf and 0 * inf; .sat clamps
 * to [0, 1], NaN to 0. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ir.h"

enum { MAX_DEPTH = 48, MAX_REACHING = 8 };

typedef struct FMemo {
	uint8_t state;   /* 0 not yet, 1 being computed, 2 done */
	FRange r;
} FMemo;

typedef struct FRanges {
	const Cfg *cfg;
	const Defs *defs;
	Ranges *ints;
	FMemo *memo;     /* per instruction: the range of what it defines */
} FRanges;

static const FRange any = {-INFINITY, INFINITY, 1};

/* The smallest normal and the largest finite value of a width. */
static double tiny(int bits)
{
	return bits == 32 ? FLT_MIN : DBL_MIN;
}

static double biggest(int bits)
{
	return bits == 32 ? FLT_MAX : DBL_MAX;
}

/* r as the machine may round it: each bound outward, past the largest
 * finite value infinite. */
/* The arithmetic on bounds, never NaN (tidy), without libm. */
static double lesser(double a, double b)
{
	return a < b ? a : b;
}

static double greater(double a, double b)
{
	return a > b ? a : b;
}

static double magnitude(double a)
{
	return a < 0 ? -a : a;
}

static FRange widen(FRange r, int bits)
{
	if (isfinite(r.lo) && r.lo != 0)
		r.lo -= magnitude(r.lo) * 0x1p-20 + tiny(bits);
	if (isfinite(r.hi) && r.hi != 0)
		r.hi += magnitude(r.hi) * 0x1p-20 + tiny(bits);
	if (r.lo < -biggest(bits))
		r.lo = -INFINITY;
	if (r.hi > biggest(bits))
		r.hi = INFINITY;
	return r;
}

static FRange join(FRange a, FRange b)
{
	return (FRange){lesser(a.lo, b.lo), greater(a.hi, b.hi), a.nan || b.nan};
}

static FRange exact(double v)
{
	return isnan(v) ? any : (FRange){v, v, 0};
}

/* A float literal (0f3E800000, 0d..., 1.5, and -x of one) read as bits
 * bits. */
static int literal(const Expr *e, int bits, double *v)
{
	int neg = e->kind == E_UNARY && e->op == '-';
	if (neg)
		e = e->kids[0];
	uint64_t u;
	if (e->kind != E_NUM || strpbrk(e->str, "xX") || !float_bits(e->str, bits / 8, &u))
		return 0;
	if (bits == 32) {
		float f;
		uint32_t w = (uint32_t)u;
		memcpy(&f, &w, 4);
		*v = f;
	} else {
		memcpy(v, &u, 8);
	}
	if (neg)
		*v = -*v;
	return 1;
}

static FRange def_range(FRanges *fr, uint32_t ins, int depth);

static FRange operand(FRanges *fr, uint32_t ins, const Expr *e, int bits, int depth)
{
	double v;
	if (literal(e, bits, &v))
		return exact(v);
	uint32_t defs[MAX_REACHING];
	uint32_t n = e->kind == E_NAME && depth < MAX_DEPTH ?
		defs_reaching(fr->defs, ins, e->str, defs, MAX_REACHING) : 0;
	if (n == 0 || n > MAX_REACHING)
		return any;
	FRange r = any;
	for (uint32_t i = 0; i < n; i++) {
		if (defs[i] == DEF_ENTRY)
			return any;
		FRange d = def_range(fr, defs[i], depth + 1);
		r = i ? join(r, d) : d;
	}
	return r;
}

/* ---- the operations ------------------------------------------------------- */

/* x * y where 0 * inf counts as 0: the bound a product of intervals
 * reaches without NaN (whether it may be NaN is asked apart). */
static double times(double x, double y)
{
	if (x == 0 || y == 0)
		return 0;
	double p = x * y;
	if (p == 0)   /* underflowed: not an exact zero, so that it widens */
		p = (x < 0) == (y < 0) ? 0x1p-1074 : -0x1p-1074;
	return p;
}

static int holds(FRange r, double v)
{
	return r.lo <= v && v <= r.hi;
}

static FRange add(FRange a, FRange b)
{
	int nan = a.nan || b.nan || (a.hi == INFINITY && b.lo == -INFINITY) ||
		(a.lo == -INFINITY && b.hi == INFINITY);
	return (FRange){a.lo + b.lo, a.hi + b.hi, nan};   /* -inf + inf only where nan says */
}

static FRange neg(FRange a)
{
	return (FRange){-a.hi, -a.lo, a.nan};
}

static FRange mul(FRange a, FRange b)
{
	double p[4] = {times(a.lo, b.lo), times(a.lo, b.hi), times(a.hi, b.lo), times(a.hi, b.hi)};
	FRange r = {p[0], p[0], a.nan || b.nan};
	for (int i = 1; i < 4; i++)
		r.lo = lesser(r.lo, p[i]), r.hi = greater(r.hi, p[i]);
	if ((holds(a, 0) && (isinf(b.lo) || isinf(b.hi))) || (holds(b, 0) && (isinf(a.lo) || isinf(a.hi))))
		r.nan = 1;
	return r;
}

static FRange absolute(FRange a)
{
	if (a.lo >= 0)
		return a;
	if (a.hi <= 0)
		return neg(a);
	return (FRange){0, greater(-a.lo, a.hi), a.nan};
}

/* min and max give the other operand where one is NaN */
static FRange minmax(FRange a, FRange b, int is_max)
{
	if (a.nan || b.nan)
		return (FRange){lesser(a.lo, b.lo), greater(a.hi, b.hi), a.nan && b.nan};
	return is_max ? (FRange){greater(a.lo, b.lo), greater(a.hi, b.hi), 0} :
		(FRange){lesser(a.lo, b.lo), lesser(a.hi, b.hi), 0};
}

/* [lo, hi] made inf + (-inf)-free where add left a NaN bound */
static FRange tidy(FRange r)
{
	if (isnan(r.lo))
		r.lo = -INFINITY;
	if (isnan(r.hi))
		r.hi = INFINITY;
	return r;
}

static FRange saturate(FRange r)
{
	FRange s = {lesser(greater(r.lo, 0), 1), greater(lesser(r.hi, 1), 0), 0};
	if (r.nan)
		s.lo = 0;
	return s;
}

/* An integer range as the numbers it holds, signed or not. */
static FRange from_int(Range r, int bits, int sign)
{
	if (!sign || bits > 64)
		return (FRange){(double)r.lo, (double)r.hi, 0};
	uint64_t half = UINT64_C(1) << (bits - 1);
	double span = 2.0 * (double)half;
	if (r.hi < half)
		return (FRange){(double)r.lo, (double)r.hi, 0};
	if (r.lo >= half)
		return (FRange){(double)r.lo - span, (double)r.hi - span, 0};
	return (FRange){-(double)half, (double)(half - 1), 0};
}

/* The modifiers an operation may carry and still be modelled: its
 * types, a rounding mode, .ftz and .sat. */
static int plain(const Spelling *sp)
{
	uint32_t known = sp->ntypes + (sp->rnd != RND_NONE) + spelling_has(sp, MOD_ftz) +
		spelling_has(sp, MOD_sat);
	return sp->nmods == known && !sp->unknown;
}

static FRange convert(FRanges *fr, uint32_t ins, const Ins *in, int depth)
{
	const Spelling *sp = in->sp;
	int to = sp->types[0], from = sp->types[1];
	if (sp->ntypes != 2 || in->nops != 2)
		return any;
	if (from == TY_F32 || from == TY_F64)
		return sp->rnd == RND_NONE || sp->rnd == RND_RN || sp->rnd == RND_RZ || sp->rnd == RND_RM ||
			sp->rnd == RND_RP ? operand(fr, ins, in->ops[1], ty_bits(from), depth) : any;
	if (ty_flags(from) & (TF_FLOAT | TF_PAIR | TF_BITS) || from == TY_PRED)
		return any;
	int bits = ty_bits(from);
	return to == TY_F32 || to == TY_F64 ?
		from_int(range_of(fr->ints, ins, in->ops[1], bits), bits, ty_signed(from)) : any;
}

/* An operand of an .ftz operation: a subnormal in it reads as zero. */
static FRange flushed(FRange r, int bits, int ftz)
{
	if (ftz && r.lo > 0 && r.lo < tiny(bits))
		r.lo = 0;
	if (ftz && r.hi < 0 && r.hi > -tiny(bits))
		r.hi = 0;
	return r;
}

/* What ins computes, before rounding; any when not modelled. */
static FRange computed(FRanges *fr, uint32_t ins, int bits, int depth)
{
	const Ins *in = &fr->cfg->ins[ins]->ins;
	const Spelling *sp = in->sp;
	int op = sp->code;
	if (!plain(sp))
		return any;
	if (op == O_cvt)
		return convert(fr, ins, in, depth);
	if (sp->ntypes != 1 || in->nops < 2)
		return any;
	int ftz = spelling_has(sp, MOD_ftz), fused = op == O_fma || op == O_mad;
	FRange a = flushed(operand(fr, ins, in->ops[1], bits, depth), bits, ftz), b = a, c = a;
	if (in->nops > 2)
		b = flushed(operand(fr, ins, in->ops[2], bits, depth), bits, ftz);
	if (in->nops > 3 && fused)   /* selp's fourth is its predicate */
		c = flushed(operand(fr, ins, in->ops[3], bits, depth), bits, ftz);
	switch (op) {
	case O_mov:
		return in->nops == 2 ? a : any;
	case O_abs:
		return in->nops == 2 ? absolute(a) : any;
	case O_neg:
		return in->nops == 2 ? neg(a) : any;
	case O_add:
		return in->nops == 3 ? add(a, b) : any;
	case O_sub:
		return in->nops == 3 ? add(a, neg(b)) : any;
	case O_mul:
		return in->nops == 3 ? mul(a, b) : any;
	case O_fma:
	case O_mad:   /* one rounding or two: the widening covers both */
		return in->nops == 4 ? add(widen(tidy(mul(a, b)), bits), c) : any;
	case O_min:
	case O_max:
		return in->nops == 3 ? minmax(a, b, op == O_max) : any;
	case O_selp:
		return in->nops == 4 ? join(a, b) : any;
	}
	return any;
}

/* The range of the float register ins defines. */
static FRange def_range(FRanges *fr, uint32_t ins, int depth)
{
	const Ins *in = &fr->cfg->ins[ins]->ins;
	const Spelling *sp = in->sp;
	int ty = sp->ntypes ? sp->types[0] : TY_NONE;
	FMemo *m = &fr->memo[ins];
	if (m->state == 2)
		return m->r;
	if ((ty != TY_F32 && ty != TY_F64) || m->state == 1 || depth >= MAX_DEPTH || in->guard ||
	    ins_first_role(in) != ROLE_DEF || in->ops[0]->kind != E_NAME)
		return any;   /* a guarded write leaves the old value where it does not happen */
	m->state = 1;
	int bits = ty_bits(ty);
	int op = sp->code, rounds = op == O_add || op == O_sub || op == O_mul || op == O_fma ||
		op == O_mad || op == O_cvt || spelling_has(sp, MOD_ftz);
	FRange r = tidy(computed(fr, ins, bits, depth));
	if (rounds)   /* mov, abs, neg, min, max and selp give a value they read */
		r = widen(r, bits);
	if (spelling_has(sp, MOD_sat))
		r = saturate(r);
	m->state = 2;
	m->r = r;
	return r;
}

/* The walk's state for one question: the integer ranges' own analyses
 * and memo (range.c keeps them with its). */
static FRanges walk(Ranges *ints)
{
	FRanges fr = {.ints = ints};
	fr.memo = ranges_float_memo(ints, sizeof *fr.memo, &fr.cfg, &fr.defs);
	return fr;
}

FRange frange_of(Ranges *ints, uint32_t ins, const Expr *e, int bits)
{
	FRanges fr = walk(ints);
	return operand(&fr, ins, e, bits, 0);
}

FRange frange_of_def(Ranges *ints, uint32_t ins)
{
	FRanges fr = walk(ints);
	return def_range(&fr, ins, 0);
}
