/* Floating point.
 *
 * Where PTX defines the result exactly (add, sub, mul, fma, div.rn,
 * sqrt.rn, rcp.rn and cvt, in every rounding mode) it is computed with the
 * host's IEEE arithmetic under the matching rounding mode (this file is
 * built with -frounding-math), or by fround() for the narrow formats.
 * The approximate instructions (.approx, sin, cos, ex2, lg2, rsqrt, tanh)
 * are computed in double precision and rounded to nearest: a fixed,
 * deterministic formula, at least as accurate as the hardware's.
 * Results that are NaN become the canonical NaN (0x7fffffff for f32,
 * 0x7fff for f16 and bf16), as on NVIDIA GPUs.
 */
#include <fenv.h>
#include <math.h>
#include <string.h>
#include "run.h"

#define F32_NAN 0x7FFFFFFFu
#define F64_NAN 0x7FFFFFFFFFFFFFFFull
#define H_NAN 0x7FFFu

static float f_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t u_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double d_of(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static uint64_t ud_of(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

static int fe_mode(int rnd)
{
	switch (rnd) {
	case RND_RZ: case RND_RZI: return FE_TOWARDZERO;
	case RND_RM: case RND_RMI: return FE_DOWNWARD;
	case RND_RP: case RND_RPI: return FE_UPWARD;
	}
	return FE_TONEAREST;
}

/* Rounds x to a binary format with mbits stored significand bits and
 * ebits of exponent; returns its bits.  Used for f16, bf16, tf32 and the
 * f64 -> f32 conversions with directed rounding. */
static uint64_t fround(double x, int rnd, int mbits, int ebits, uint64_t nan)
{
	int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias, emax = bias;
	uint64_t sign = signbit(x) ? 1ull << (mbits + ebits) : 0;
	uint64_t inf = (uint64_t)((1 << ebits) - 1) << mbits;
	if (isnan(x))
		return nan;
	x = fabs(x);
	if (isinf(x))
		return sign | inf;
	if (x == 0)
		return sign;
	int e;
	frexp(x, &e);
	e -= 1;
	if (e < emin)
		e = emin;
	double q = ldexp(x, mbits - e);  /* exact: a power-of-two scaling */
	double n = floor(q), frac = q - n;
	int up = 0, neg = sign != 0;
	switch (rnd) {
	case RND_RZ: case RND_RZI: up = 0; break;
	case RND_RM: case RND_RMI: up = neg && frac > 0; break;
	case RND_RP: case RND_RPI: up = !neg && frac > 0; break;
	case RND_RNA: up = frac >= 0.5; break;
	default: up = frac > 0.5 || (frac == 0.5 && fmod(n, 2) == 1); break;
	}
	n += up;
	if (n >= ldexp(1, mbits + 1)) {
		n /= 2;
		e++;
	}
	if (e > emax) {
		int toinf = rnd == RND_RN || rnd == RND_RNA || rnd == RND_NONE || rnd == RND_RNI ||
			(rnd == RND_RM && neg) || (rnd == RND_RP && !neg);
		return sign | (toinf ? inf : inf - 1);
	}
	uint64_t m = (uint64_t)n;
	if (m < (1ull << mbits))
		return sign | m;  /* subnormal */
	return sign | ((uint64_t)(e + bias) << mbits) | (m - (1ull << mbits));
}

static double fexpand(uint64_t bits, int mbits, int ebits)
{
	int bias = (1 << (ebits - 1)) - 1;
	uint64_t m = bits & ((1ull << mbits) - 1);
	int e = (int)((bits >> mbits) & ((1u << ebits) - 1));
	double s = bits >> (mbits + ebits) & 1 ? -1 : 1;
	if (e == (1 << ebits) - 1)
		return m ? NAN : s * INFINITY;
	if (e == 0)
		return s * ldexp((double)m, 1 - bias - mbits);
	return s * ldexp((double)(m | 1ull << mbits), e - bias - mbits);
}

float h2f(uint16_t h) { return (float)fexpand(h, 10, 5); }
uint16_t f2h(float f, int rnd) { return (uint16_t)fround(f, rnd, 10, 5, H_NAN); }
float bf2f(uint16_t h) { return f_of((uint32_t)h << 16); }
uint16_t d2h(double x, int rnd) { return (uint16_t)fround(x, rnd, 10, 5, H_NAN); }
uint16_t f2bf(float f, int rnd) { return (uint16_t)fround(f, rnd, 7, 8, H_NAN); }

/* ---- operands ---- */

uint64_t f_from_imm(const Opnd *o, int ty)
{
	double v;
	switch (o->fk) {
	case FK_F32:
		if (ty == TY_F32)
			return o->val & 0xFFFFFFFF;
		v = f_of((uint32_t)o->val);
		break;
	case FK_F64:
		if (ty == TY_F64)
			return o->val;
		v = d_of(o->val);
		break;
	case FK_DEC:
		v = o->fval;
		break;
	default:
		/* an integer spelled where a float is expected: its bits, as ptxas takes them */
		return o->val;
	}
	switch (ty) {
	case TY_F32: return u_of((float)v);
	case TY_F64: return ud_of(v);
	case TY_F16: return fround(v, RND_RN, 10, 5, H_NAN);
	case TY_BF16: return fround(v, RND_RN, 7, 8, H_NAN);
	}
	return o->val;
}

static uint64_t opbits(Thread *t, const Opnd *o, int ty)
{
	if (o->kind == O_IMM)
		return f_from_imm(o, ty);
	uint64_t v = rd(t, o);
	return ty == TY_F64 ? v : ty == TY_F32 ? (uint32_t)v : (uint16_t)v;
}

static int is_sub32(uint32_t u)
{
	return (u & 0x7F800000) == 0 && (u & 0x7FFFFF);
}

static float flush32(float f)
{
	uint32_t u = u_of(f);
	return is_sub32(u) ? f_of(u & 0x80000000) : f;
}

float read_float(Thread *t, const Opnd *o)
{
	return f_of((uint32_t)opbits(t, o, TY_F32));
}

double read_double(Thread *t, const Opnd *o, int ty)
{
	uint64_t b = opbits(t, o, ty);
	switch (ty) {
	case TY_F64: return d_of(b);
	case TY_F32: return f_of((uint32_t)b);
	case TY_F16: return h2f((uint16_t)b);
	case TY_BF16: return bf2f((uint16_t)b);
	}
	return 0;
}

static float in32(Thread *t, const DIns *d, int i)
{
	float f = read_float(t, &d->ops[i]);
	return d->mods & M(ftz) ? flush32(f) : f;
}

static uint64_t out32(const DIns *d, float r)
{
	if (isnan(r))
		return F32_NAN;
	if (d->mods & M(ftz))
		r = flush32(r);
	if (d->mods & M(sat))
		r = r < 0 ? 0 : r > 1 ? 1 : r;
	if (d->mods & M(relu) && r < 0)
		r = 0;
	return u_of(r);
}

static uint64_t out64(const DIns *d, double r)
{
	if (isnan(r))
		return F64_NAN;
	if (d->mods & M(sat))
		r = r < 0 ? 0 : r > 1 ? 1 : r;
	return ud_of(r);
}

static void need(const DIns *d, int cond)
{
	if (!cond)
		rt_fail(d, RUN_UNSUPPORTED, "unsupported instruction '%s'", ins_text(d));
}

/* ---- f16, bf16 and their pairs: computed in double, rounded once ---- */

static int half_ty(int ty)
{
	return ty == TY_F16 || ty == TY_BF16 || ty == TY_F16X2 || ty == TY_BF16X2;
}

static double hget(int ty, uint32_t bits)
{
	return ty == TY_F16 || ty == TY_F16X2 ? h2f((uint16_t)bits) : bf2f((uint16_t)bits);
}

static uint32_t hput(const DIns *d, int ty, double v)
{
	int rnd = d->rnd ? d->rnd : RND_RN;
	if ((d->mods & M(relu)) && v < 0)
		v = 0;
	if (d->mods & M(sat))
		v = isnan(v) ? 0 : v < 0 ? 0 : v > 1 ? 1 : v;
	return ty == TY_F16 || ty == TY_F16X2 ? (uint32_t)fround(v, rnd, 10, 5, H_NAN)
		: (uint32_t)fround(v, rnd, 7, 8, H_NAN);
}

/* .ftz on a half: a subnormal becomes a zero of its sign. */
static uint32_t hflush(const DIns *d, int ty, uint32_t h)
{
	uint32_t exp = ty == TY_F16 || ty == TY_F16X2 ? 0x7C00 : 0x7F80;
	h &= 0xFFFF;
	return (d->mods & M(ftz)) && (h & exp) == 0 ? h & 0x8000 : h;
}

static double hop(int op, double a, double b, double c)
{
	switch (op) {
	case '+': return a + b;
	case '-': return a - b;
	case '*': return a * b;
	case 'f': return a * b + c;
	case 'm': return isnan(a) ? b : isnan(b) ? a : a < b || (a == b && signbit(a)) ? a : b;
	case 'M': return isnan(a) ? b : isnan(b) ? a : a > b || (a == b && !signbit(a)) ? a : b;
	}
	return NAN;
}

static int half_op(Thread *t, const DIns *d, int op, int nin)
{
	int ty = d->ty[0], lanes = ty == TY_F16X2 || ty == TY_BF16X2 ? 2 : 1;
	need(d, d->nops == 1 + nin && !(d->mods & (M(xorsign) | M(abs))));
	uint32_t in[3], r = 0;
	for (int i = 0; i < nin; i++)
		in[i] = (uint32_t)rd(t, &d->ops[1 + i]);
	for (int l = 0; l < lanes; l++) {
		double v[3] = {0, 0, 0};
		for (int i = 0; i < nin; i++)
			v[i] = hget(ty, hflush(d, ty, in[i] >> (16 * l)));
		double x = hop(op, v[0], v[1], v[2]);
		if ((d->mods & M(NaN)) && (isnan(v[0]) || isnan(v[1])))
			x = NAN;
		r |= (hflush(d, ty, hput(d, ty, x)) & 0xFFFF) << (16 * l);
	}
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

/* ---- f32 and f64 arithmetic ---- */

static int fbin(Thread *t, const DIns *d, int op)
{
	int ty = d->ty[0];
	if (half_ty(ty))
		return half_op(t, d, op, 2);
	need(d, d->nops == 3 && (ty == TY_F32 || ty == TY_F64) && !(d->mods & M(relu)));
	need(d, d->rnd <= RND_RP);
	int old = fegetround();
	fesetround(fe_mode(d->rnd));
	uint64_t r;
	if (ty == TY_F32) {
		volatile float a = in32(t, d, 1), b = in32(t, d, 2), x;
		x = op == '+' ? a + b : op == '-' ? a - b : a * b;
		fesetround(old);
		r = out32(d, x);
	} else {
		need(d, !(d->mods & M(ftz)));
		volatile double a = read_double(t, &d->ops[1], ty), b = read_double(t, &d->ops[2], ty), x;
		x = op == '+' ? a + b : op == '-' ? a - b : a * b;
		fesetround(old);
		r = out64(d, x);
	}
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

int ex_fadd(Thread *t, const DIns *d) { return fbin(t, d, '+'); }
int ex_fsub(Thread *t, const DIns *d) { return fbin(t, d, '-'); }
int ex_fmul(Thread *t, const DIns *d) { return fbin(t, d, '*'); }

int ex_ffma(Thread *t, const DIns *d)
{
	int ty = d->ty[0];
	if (half_ty(ty))
		return half_op(t, d, 'f', 3);
	need(d, d->nops == 4 && (ty == TY_F32 || ty == TY_F64) && d->rnd <= RND_RP &&
		!(d->mods & (M(lo) | M(hi) | M(wide) | M(cc) | M(relu))));
	int old = fegetround();
	fesetround(fe_mode(d->rnd));
	uint64_t r;
	if (ty == TY_F32) {
		volatile float x = fmaf(in32(t, d, 1), in32(t, d, 2), in32(t, d, 3));
		fesetround(old);
		r = out32(d, x);
	} else {
		need(d, !(d->mods & M(ftz)));
		volatile double x = fma(read_double(t, &d->ops[1], ty), read_double(t, &d->ops[2], ty),
			read_double(t, &d->ops[3], ty));
		fesetround(old);
		r = out64(d, x);
	}
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

int ex_fdiv(Thread *t, const DIns *d)
{
	int ty = d->ty[0];
	need(d, d->nops == 3 && (ty == TY_F32 || ty == TY_F64) && d->rnd <= RND_RP);
	uint64_t r;
	if (ty == TY_F32) {
		float a = in32(t, d, 1), b = in32(t, d, 2);
		if (d->mods & M(approx)) {
			r = out32(d, (float)((double)a / (double)b));
		} else {
			/* .full is within 2 ulp of the exact quotient: the correctly rounded one is */
			int old = fegetround();
			fesetround(fe_mode(d->rnd));
			volatile float x = a / b;
			fesetround(old);
			r = out32(d, x);
		}
	} else {
		need(d, !(d->mods & (M(ftz) | M(full))) || (d->mods & M(approx)));
		int old = fegetround();
		fesetround(fe_mode(d->rnd));
		volatile double x = read_double(t, &d->ops[1], ty) / read_double(t, &d->ops[2], ty);
		fesetround(old);
		r = out64(d, x);
	}
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

static int fminmax(Thread *t, const DIns *d, int max)
{
	int ty = d->ty[0];
	if (half_ty(ty))
		return half_op(t, d, max ? 'M' : 'm', 2);
	need(d, d->nops == 3 && (ty == TY_F32 || ty == TY_F64) && !(d->mods & (M(xorsign) | M(abs))));
	double a, b;
	if (ty == TY_F32) {
		a = in32(t, d, 1);
		b = in32(t, d, 2);
	} else {
		a = read_double(t, &d->ops[1], ty);
		b = read_double(t, &d->ops[2], ty);
	}
	double r;
	if ((d->mods & M(NaN)) && (isnan(a) || isnan(b)))
		r = NAN;
	else
		r = hop(max ? 'M' : 'm', a, b, 0);
	wr(t, &d->ops[0], ty == TY_F32 ? out32(d, (float)r) : out64(d, r));
	return X_NEXT;
}

int ex_fmin(Thread *t, const DIns *d) { return fminmax(t, d, 0); }
int ex_fmax(Thread *t, const DIns *d) { return fminmax(t, d, 1); }

/* Classified in the operand's own format: a float subnormal is a normal
 * double. */
static int testp(const DIns *d, double v, int ty)
{
	Mods m = d->mods;
	if (ty == TY_F32) {
		float f = (float)v;
		if (m & M(normal)) return isnormal(f);
		if (m & M(subnormal)) return fpclassify(f) == FP_SUBNORMAL;
	}
	if (m & M(finite)) return isfinite(v);
	if (m & M(infinite)) return isinf(v);
	if (m & M(number)) return !isnan(v);
	if (m & M(notanumber)) return isnan(v);
	if (m & M(normal)) return isnormal(v);
	if (m & M(subnormal)) return fpclassify(v) == FP_SUBNORMAL;
	need(d, 0);
	return 0;
}

static double approx(int op, double x)
{
	if (op == O_sqrt) return sqrt(x);
	if (op == O_rsqrt) return 1 / sqrt(x);
	if (op == O_rcp) return 1 / x;
	if (op == O_ex2) return exp2(x);
	if (op == O_lg2) return log2(x);
	if (op == O_sin) return sin(x);
	if (op == O_cos) return cos(x);
	if (op == O_tanh) return tanh(x);
	return NAN;
}

/* Sign-bit operations act on the bits, as PTX specifies them. */
static int sign_op(Thread *t, const DIns *d, int op, int ty)
{
	int bits = ty == TY_F64 ? 64 : ty == TY_F32 ? 32 : 16;
	uint64_t sb = 1ull << (bits - 1);
	int lanes = ty == TY_F16X2 || ty == TY_BF16X2 ? 2 : 1;
	if (lanes == 2)
		sb = 0x80008000u;
	uint64_t a = opbits(t, &d->ops[1], ty == TY_F16X2 || ty == TY_BF16X2 ? TY_B32 : ty);
	if (lanes == 2)
		a = (uint32_t)rd(t, &d->ops[1]);
	if (ty == TY_F32 && (d->mods & M(ftz)) && is_sub32((uint32_t)a))
		a &= sb;
	uint64_t r = op == O_abs ? a & ~sb : a ^ sb;
	if (ty == TY_F32 && isnan(f_of((uint32_t)r)) && op == O_abs)
		r = F32_NAN;
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

int ex_funary(Thread *t, const DIns *d)
{
	int op = d->st->ins.sp->code;
	int ty = d->nty ? d->ty[0] : TY_NONE;
	if (op == O_abs || op == O_neg) {
		need(d, d->nops == 2 && (ty_float(ty) || ty == TY_F16X2 || ty == TY_BF16X2));
		return sign_op(t, d, op, ty);
	}
	if (op == O_copysign) {
		need(d, d->nops == 3 && (ty == TY_F32 || ty == TY_F64));
		uint64_t sb = ty == TY_F32 ? 0x80000000u : 1ull << 63;
		uint64_t a = opbits(t, &d->ops[1], ty), b = opbits(t, &d->ops[2], ty);
		wr(t, &d->ops[0], (b & ~sb) | (a & sb));
		return X_NEXT;
	}
	if (op == O_testp) {
		need(d, d->nops == 2 && (ty == TY_F32 || ty == TY_F64));
		wr(t, &d->ops[0], testp(d, read_double(t, &d->ops[1], ty), ty));
		return X_NEXT;
	}
	need(d, d->nops == 2 && (ty == TY_F32 || ty == TY_F64));
	int exact = !(d->mods & M(approx));
	if (exact)  /* only sqrt and rcp have IEEE forms, and they need a rounding mode */
		need(d, (op == O_sqrt || op == O_rcp) && d->rnd &&
			d->rnd <= RND_RP);
	uint64_t r;
	if (ty == TY_F32) {
		float a = in32(t, d, 1);
		if (exact) {
			int old = fegetround();
			fesetround(fe_mode(d->rnd));
			volatile float x = op == O_sqrt ? sqrtf(a) : 1.0f / a;
			fesetround(old);
			r = out32(d, x);
		} else
			r = out32(d, (float)approx(op, a));
	} else {
		double a = read_double(t, &d->ops[1], ty);
		if (exact) {
			int old = fegetround();
			fesetround(fe_mode(d->rnd));
			volatile double x = op == O_sqrt ? sqrt(a) : 1.0 / a;
			fesetround(old);
			r = out64(d, x);
		} else {
			need(d, op == O_rcp || op == O_rsqrt || op == O_sqrt);
			r = out64(d, approx(op, a));
		}
	}
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

int fcompare(int cmp, int ty, uint64_t a, uint64_t b)
{
	double x = ty == TY_F64 ? d_of(a) : f_of((uint32_t)a);
	double y = ty == TY_F64 ? d_of(b) : f_of((uint32_t)b);
	int un = isnan(x) || isnan(y);
	switch (cmp) {
	case CMP_EQ: return !un && x == y;
	case CMP_NE: return !un && x != y;
	case CMP_LT: return !un && x < y;
	case CMP_LE: return !un && x <= y;
	case CMP_GT: return !un && x > y;
	case CMP_GE: return !un && x >= y;
	case CMP_EQU: return un || x == y;
	case CMP_NEU: return un || x != y;
	case CMP_LTU: return un || x < y;
	case CMP_LEU: return un || x <= y;
	case CMP_GTU: return un || x > y;
	case CMP_GEU: return un || x >= y;
	case CMP_NUM: return !un;
	case CMP_NAN: return un;
	}
	return -1;
}

/* atom.add.f32 flushes subnormals and rounds to nearest. */
uint64_t atom_fadd(int ty, uint64_t a, uint64_t b)
{
	if (ty == TY_F32) {
		float x = flush32(f_of((uint32_t)a)) + flush32(f_of((uint32_t)b));
		return isnan(x) ? F32_NAN : u_of(flush32(x));
	}
	double x = d_of(a) + d_of(b);
	return isnan(x) ? F64_NAN : ud_of(x);
}

/* ---- cvt ---- */


/* Float to integer: round as asked, saturate to the range, NaN -> 0. */
static uint64_t f2i(double x, int rnd, int dty)
{
	int bits = ty_bits(dty);
	if (isnan(x))
		return 0;
	switch (rnd) {
	case RND_RZI: case RND_RZ: x = trunc(x); break;
	case RND_RMI: case RND_RM: x = floor(x); break;
	case RND_RPI: case RND_RP: x = ceil(x); break;
	default: x = nearbyint(x); break;  /* rounding mode is to-nearest-even here */
	}
	if (ty_signed(dty)) {
		double lo = -ldexp(1, bits - 1), hi = ldexp(1, bits - 1);
		if (x < lo)
			return (uint64_t)1 << (bits - 1);
		if (x >= hi)
			return wmask(bits - 1);
		return (uint64_t)(int64_t)x & wmask(bits);
	}
	if (x <= 0)
		return 0;
	if (x >= ldexp(1, bits))
		return wmask(bits);
	return (uint64_t)x;
}

/* Integer to a float type, rounded as asked. */
static uint64_t i2f(uint64_t v, int sty, int dty, int rnd, const DIns *d)
{
	int bits = ty_bits(sty);
	int old = fegetround();
	uint64_t r;
	fesetround(fe_mode(rnd));
	if (dty == TY_F32) {
		volatile float f = ty_signed(sty) ? (float)sx(v, bits) : (float)v;
		r = u_of(f);
	} else if (dty == TY_F64) {
		volatile double f = ty_signed(sty) ? (double)sx(v, bits) : (double)v;
		r = ud_of(f);
	} else {
		fesetround(old);
		need(d, bits <= 32);  /* exact in double, so one rounding */
		double x = ty_signed(sty) ? (double)sx(v, bits) : (double)v;
		return dty == TY_F16 ? fround(x, rnd, 10, 5, H_NAN) : fround(x, rnd, 7, 8, H_NAN);
	}
	fesetround(old);
	return r;
}

static uint64_t f2f(const DIns *d, double x, int sty, int dty)
{
	int rnd = d->rnd;
	int integral = rnd >= RND_RNI && rnd <= RND_RPI;
	if (integral) {
		switch (rnd) {
		case RND_RZI: x = trunc(x); break;
		case RND_RMI: x = floor(x); break;
		case RND_RPI: x = ceil(x); break;
		default: x = nearbyint(x); break;
		}
		rnd = RND_RN;  /* an integral value of the source type is exact in it */
	}
	if ((d->mods & M(sat)) && !isnan(x))
		x = x < 0 ? 0 : x > 1 ? 1 : x;
	if ((d->mods & M(relu)) && x < 0)
		x = 0;
	switch (dty) {
	case TY_F64:
		return isnan(x) ? F64_NAN : ud_of(x);
	case TY_F32: {
		uint32_t u = isnan(x) ? F32_NAN : (uint32_t)fround(x, rnd ? rnd : RND_RN, 23, 8, F32_NAN);
		if ((d->mods & M(sat)) && !isnan(x))
			u = u_of((float)(f_of(u) < 0 ? 0 : f_of(u) > 1 ? 1 : f_of(u)));
		if (d->mods & M(ftz))
			u = u_of(flush32(f_of(u)));
		return u;
	}
	case TY_F16:
		return fround(x, rnd ? rnd : RND_RN, 10, 5, H_NAN);
	case TY_BF16:
		return fround(x, rnd ? rnd : RND_RN, 7, 8, H_NAN);
	case TY_TF32: {
		need(d, rnd == RND_RNA || rnd == RND_RN || rnd == RND_RZ);
		uint64_t b = fround(x, rnd, 10, 8, F32_NAN);
		return isnan(x) ? F32_NAN : (b & 0x80000000u ? 0x80000000u : 0) |
			(b & 0x7FFFFFFF) << 13;
	}
	}
	need(d, 0);
	return 0;
}

static int cvt_pair(Thread *t, const DIns *d)
{
	/* cvt.rn.f16x2.f32 d, a, b: a goes to the upper half */
	int dty = d->ty[0];
	need(d, d->nops == 3 && d->ty[1] == TY_F32 && d->rnd && !(d->mods & (M(ftz) | M(sat))));
	int half = dty == TY_F16X2 ? TY_F16 : TY_BF16;
	uint64_t hi = f2f(d, read_float(t, &d->ops[1]), TY_F32, half);
	uint64_t lo = f2f(d, read_float(t, &d->ops[2]), TY_F32, half);
	wr(t, &d->ops[0], (hi & 0xFFFF) << 16 | (lo & 0xFFFF));
	return X_NEXT;
}

/* ---- fp8 pairs: e4m3 (no infinities, 0x7F NaN, 448 largest) and e5m2
 * (IEEE-like, 57344 largest) ---- */

/* e4m3 uses exponent 15 for numbers (256 to 448) and only S.1111.111 for
 * NaN, so fexpand, which would see infinities there, does not read it. */
static double f8_value(uint32_t b, int e4m3)
{
	double sign = b & 0x80 ? -1 : 1;
	b &= 0xFF;
	if (!e4m3)
		return fexpand(b, 2, 5);
	if ((b & 0x7F) == 0x7F)
		return NAN;
	if ((b & 0x78) == 0x78)
		return sign * ldexp(8 + (b & 7), 5);
	return sign * fexpand(b & 0x7F, 3, 4);
}

/* cvt.rn.satfinite: the nearest finite fp8, ties to the even code (codes
 * grow with magnitude), magnitudes past the largest (infinities too)
 * clamped to it; NaN stays NaN. */
static uint32_t f8_round(double x, int e4m3, int relu)
{
	if (isnan(x))
		return 0x7F;
	if (relu && x < 0)
		x = 0;
	uint32_t sign = signbit(x) ? 0x80 : 0, best = 0, max = e4m3 ? 0x7E : 0x7B;
	double a = fabs(x), bestd = INFINITY;
	if (a >= f8_value(max, e4m3))
		return sign | max;
	for (uint32_t c = 0; c <= max; c++) {
		double dist = fabs(f8_value(c, e4m3) - a);
		if (dist < bestd || (dist == bestd && !(c & 1))) {
			bestd = dist;
			best = c;
		}
	}
	return sign | best;
}

/* cvt.rn.satfinite[.relu].{e4m3x2,e5m2x2}.{f32 a, b | f16x2 a}: the first
 * (upper) value to the upper byte; cvt.rn[.relu].f16x2.{e4m3x2,e5m2x2},
 * exact, each byte to its half. */
static int cvt_fp8(Thread *t, const DIns *d)
{
	int dty = d->ty[0], sty = d->ty[1], relu = (d->mods & M(relu)) != 0;
	if (dty == TY_F16X2) {
		need(d, (sty == TY_E4M3X2 || sty == TY_E5M2X2) && d->nops == 2 && d->rnd == RND_RN &&
			!(d->mods & ~M(relu)));
		uint64_t v = rd(t, &d->ops[1]), r = 0;
		for (int i = 0; i < 2; i++) {
			double x = f8_value((uint32_t)(v >> 8 * i), sty == TY_E4M3X2);
			if (relu && x < 0)
				x = 0;
			r |= (uint64_t)fround(x, RND_RN, 10, 5, H_NAN) << 16 * i;
		}
		wr(t, &d->ops[0], r);
		return X_NEXT;
	}
	int e4m3 = dty == TY_E4M3X2;
	need(d, (dty == TY_E4M3X2 || dty == TY_E5M2X2) && d->rnd == RND_RN &&
		(d->mods & M(satfinite)) && !(d->mods & ~(M(satfinite) | M(relu))));
	double hi, lo;
	if (sty == TY_F32 && d->nops == 3) {
		hi = read_float(t, &d->ops[1]);
		lo = read_float(t, &d->ops[2]);
	} else {
		need(d, sty == TY_F16X2 && d->nops == 2);
		uint64_t v = rd(t, &d->ops[1]);
		hi = h2f((uint16_t)(v >> 16));
		lo = h2f((uint16_t)v);
	}
	wr(t, &d->ops[0], f8_round(hi, e4m3, relu) << 8 | f8_round(lo, e4m3, relu));
	return X_NEXT;
}

static int is_intty(int ty)
{
	return ty >= TY_B8 && ty <= TY_S64 && ty != TY_B128;
}

int ex_cvt(Thread *t, const DIns *d)
{
	need(d, d->nty == 2);
	int dty = d->ty[0], sty = d->ty[1];
	if (dty == TY_E4M3X2 || dty == TY_E5M2X2 || sty == TY_E4M3X2 || sty == TY_E5M2X2)
		return cvt_fp8(t, d);
	if (dty == TY_F16X2 || dty == TY_BF16X2)
		return cvt_pair(t, d);
	need(d, d->nops == 2 && !(d->mods & M(satfinite)));
	uint64_t r;
	if (is_intty(dty) && is_intty(sty)) {
		int sb = ty_bits(sty), db = ty_bits(dty);
		uint64_t v = rd(t, &d->ops[1]) & wmask(sb);
		int64_t s = ty_signed(sty) ? sx(v, sb) : (int64_t)v;
		if (d->mods & M(sat)) {
			int ssrc = ty_signed(sty);
			if (ty_signed(dty)) {
				int64_t lo = -(int64_t)(1ull << (db - 1)), hi = (int64_t)wmask(db - 1);
				if (!ssrc && v > (uint64_t)hi)
					s = hi;
				else if (ssrc && s > hi)
					s = hi;
				else if (ssrc && s < lo)
					s = lo;
			} else if (ssrc && s < 0)
				s = 0;
			else if ((ssrc ? (uint64_t)s : v) > wmask(db))
				s = (int64_t)wmask(db);
		}
		r = (uint64_t)s & wmask(db);
		if (ty_signed(dty))
			r = (uint64_t)sx(r, db);
	} else if (is_intty(sty)) {
		need(d, ty_float(dty) && dty != TY_TF32 && (d->rnd == RND_NONE || d->rnd <= RND_RP));
		r = i2f(rd(t, &d->ops[1]) & wmask(ty_bits(sty)), sty, dty, d->rnd, d);
		if (dty == TY_F32)
			r = out32(d, f_of((uint32_t)r));
	} else {
		need(d, ty_float(sty) && sty != TY_TF32);
		double x = read_double(t, &d->ops[1], sty);
		if (sty == TY_F32 && (d->mods & M(ftz)))
			x = flush32((float)x);
		if (is_intty(dty)) {
			r = f2i(x, d->rnd, dty);
			if (ty_signed(dty))
				r = (uint64_t)sx(r, ty_bits(dty));
		} else
			r = f2f(d, x, sty, dty);
	}
	wr(t, &d->ops[0], r);
	return X_NEXT;
}
