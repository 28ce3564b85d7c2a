/* Video instructions and the dot products, computed as the PTX ISA's
 * pseudocode computes them:
 *   scalar  vadd vsub vabsdiff vmin vmax vshl vshr vset: a byte, half-word
 *           or the word of each source (.b0-.b3, .h0 .h1), extended to 33
 *           bits; a 34-bit result, clamped (.sat) to the destination's type
 *           or subword, then .add/.min/.max with c or merged into c (d.b1);
 *   vmad    (a*b)+c in 128 bits with the negations, .po, .shr7/.shr15, .sat;
 *   SIMD    vadd2 ... vset4: half-word pairs or byte quads picked from both
 *           sources (.h10, .b7654), merged into c under the destination's
 *           mask (.h1, .b310), or summed into c (.add);
 *   dp2a, dp4a.
 * Selectors arrive as O_SEL operands, vmad's negations as O_NEG (decode.c);
 * a form the ISA does not define stops the run. */
#include "run.h"

static void need(const DIns *d, int ok)
{
	if (!ok)
		rt_fail(d, RUN_UNSUPPORTED, "unsupported instruction '%s'", ins_text(d));
}

static int is32(int ty)
{
	return ty == TY_U32 || ty == TY_S32;
}

static int64_t clamp(int64_t v, int bits, int sgn)
{
	int64_t lo = sgn ? -(1ll << (bits - 1)) : 0;
	int64_t hi = sgn ? (1ll << (bits - 1)) - 1 : (int64_t)wmask(bits);
	return v < lo ? lo : v > hi ? hi : v;
}

static int compare(const DIns *d, int64_t a, int64_t b)
{
	switch (d->cmp) {
	case CMP_EQ: return a == b;
	case CMP_NE: return a != b;
	case CMP_LT: return a < b;
	case CMP_LE: return a <= b;
	case CMP_GT: return a > b;
	case CMP_GE: return a >= b;
	}
	need(d, 0);
	return 0;
}

/* A source's register, whatever its selector says. */
static uint32_t raw(Thread *t, const Opnd *o)
{
	return (uint32_t)(o->kind == O_SEL ? t->r[o->reg] : rd(t, o));
}

/* ---- scalar ---- */

/* The width of what a scalar selector names: .b0-.b3, .h0 .h1, or the
 * whole word without one. */
static int sel_bits(const DIns *d, const Opnd *o)
{
	if (o->kind != O_SEL)
		return 32;
	int bits = o->sel == 'b' ? 8 : 16;
	need(d, o->n == 1 && o->val < 32u / (unsigned)bits);
	return bits;
}

/* partSelectSignExtend: the selected part, sign- or zero-extended. */
static int64_t part(Thread *t, const DIns *d, const Opnd *o, int sgn)
{
	int bits = sel_bits(d, o);
	uint64_t v = raw(t, o) >> (o->kind == O_SEL ? o->val * (unsigned)bits : 0);
	return sgn ? sx(v, bits) : (int64_t)zx(v, bits);
}

/* vshl, vshr: b is .u32; .clamp or .wrap says what a count past 31 does. */
static int64_t shift(const DIns *d, int64_t a, int64_t b)
{
	int wrap = (d->mods & M(wrap)) != 0;
	need(d, wrap != ((d->mods & M(clamp)) != 0) && d->ty[2] == TY_U32);
	b = wrap ? b & 31 : b > 32 ? 32 : b;
	return d->st->ins.sp->code == O_vshl ? (int64_t)((uint64_t)a << b) : a >> b;
}

static int64_t primary(const DIns *d, int64_t a, int64_t b)
{
	switch (d->st->ins.sp->code) {
	case O_vadd: return a + b;
	case O_vsub: return a - b;
	case O_vabsdiff: return a > b ? a - b : b - a;
	case O_vmin: return a < b ? a : b;
	case O_vmax: return a > b ? a : b;
	case O_vset: return compare(d, a, b);
	}
	return shift(d, a, b);
}

/* optSaturate to the destination's type or subword, then optSecOp with
 * c (sign-extended as the destination is signed) or optMerge into c; the
 * low 32 bits are written. */
static int finish(Thread *t, const DIns *d, int64_t tmp, int sgn)
{
	const Opnd *dst = &d->ops[0];
	Mods op2 = d->mods & (M(add) | M(min) | M(max));
	int bits = sel_bits(d, dst), merge = dst->kind == O_SEL;
	need(d, d->nops == (op2 || merge ? 4 : 3) && !(op2 && merge) && !(op2 & (op2 - 1)));
	if (d->mods & M(sat))
		tmp = clamp(tmp, bits, sgn);
	uint32_t r = (uint32_t)tmp;
	if (op2) {
		need(d, d->ops[3].kind != O_SEL);
		int64_t c = part(t, d, &d->ops[3], sgn);
		if (op2 == M(add))
			r = (uint32_t)(tmp + c);
		else
			r = (uint32_t)((op2 == M(min) ? tmp < c : tmp > c) ? tmp : c);
	} else if (merge) {
		unsigned at = (unsigned)dst->val * (unsigned)bits;
		uint32_t m = (uint32_t)wmask(bits) << at;
		need(d, d->ops[3].kind != O_SEL);
		r = (raw(t, &d->ops[3]) & ~m) | (r << at & m);
	}
	t->r[dst->reg] = r;
	return X_NEXT;
}

/* vop.dtype.atype.btype, vset.atype.btype.cmp: the 34-bit intermediate
 * is the ISA's (a vshl result past it loses its high bits). */
int ex_vscalar(Thread *t, const DIns *d)
{
	int set = d->st->ins.sp->code == O_vset, n = set ? 2 : 3;
	need(d, d->nops >= 3 && d->nty == n && is32(d->ty[0]) && is32(d->ty[1]) &&
		(set || is32(d->ty[2])) && (d->ops[0].kind == O_REG || d->ops[0].kind == O_SEL));
	int64_t a = part(t, d, &d->ops[1], ty_signed(d->ty[n - 2]));
	int64_t b = part(t, d, &d->ops[2], ty_signed(d->ty[n - 1]));
	return finish(t, d, sx((uint64_t)primary(d, a, b), 34), !set && ty_signed(d->ty[0]));
}

/* A vmad source, and whether it is negated. */
static const Opnd *vmad_in(const DIns *d, int i, int *neg)
{
	const Opnd *o = &d->ops[i];
	*neg = o->kind == O_NEG;
	return *neg ? &o->kids[0] : o;
}

/* The final result is signed unless everything is unsigned and nothing
 * negated; negating (a*b) or c is one's complement plus the lsb. */
int ex_vmad(Thread *t, const DIns *d)
{
	need(d, d->nops == 4 && d->nty == 3 && is32(d->ty[0]) && is32(d->ty[1]) && is32(d->ty[2]) &&
		d->ops[0].kind == O_REG);
	int sa = ty_signed(d->ty[1]), sb = ty_signed(d->ty[2]), na, nb, nc;
	int64_t a = part(t, d, vmad_in(d, 1, &na), sa), b = part(t, d, vmad_in(d, 2, &nb), sb);
	const Opnd *co = vmad_in(d, 3, &nc);
	int po = (d->mods & M(po)) != 0, shr7 = (d->mods & M(shr7)) != 0;
	int shr15 = (d->mods & M(shr15)) != 0, nab = na ^ nb, sfinal = sa || sb || nab || nc;
	need(d, !(po && (na || nb || nc)) && !(nab && nc) && !(shr7 && shr15) && co->kind != O_SEL);
	uint32_t c = (uint32_t)rd(t, co);
	__int128 tmp = (__int128)a * b;
	int lsb = po || nab || nc;
	if (!po && nab)
		tmp = ~tmp;
	else if (!po && nc)
		c = ~c;
	tmp += (sfinal ? (__int128)(int32_t)c : (__int128)c) + lsb;
	tmp >>= shr7 ? 7 : shr15 ? 15 : 0;
	uint64_t r = (uint64_t)tmp;
	if (d->mods & M(sat))
		r = sfinal ? (uint64_t)clamp((int64_t)r, 32, 1) : r > UINT32_MAX ? UINT32_MAX : r;
	wr(t, &d->ops[0], (uint32_t)r);
	return X_NEXT;
}

/* ---- SIMD ---- */

static int lanes(int op)
{
	switch (op) {
	case O_vadd4: case O_vsub4: case O_vavrg4: case O_vabsdiff4: case O_vmin4: case O_vmax4:
	case O_vset4:
		return 4;
	}
	return 2;
}

/* extractAndSignExt: lane i is the element (half-word or byte) of b:a
 * that digit i of the selector names, the last digit lane 0. */
static void pick(const DIns *d, const Opnd *o, uint64_t ba, int n, uint32_t dflt, int sgn,
	int64_t *v)
{
	int bits = 32 / n;
	uint64_t sel = dflt;
	if (o->kind == O_SEL) {
		need(d, o->sel == (n == 2 ? 'h' : 'b') && o->n == (uint32_t)n);
		sel = o->val;
	}
	for (int i = 0; i < n; i++) {
		unsigned k = (unsigned)(sel >> (4 * i)) & 0xF;
		need(d, k < 2u * (unsigned)n);
		uint64_t x = zx(ba >> (k * (unsigned)bits), bits);
		v[i] = sgn ? sx(x, bits) : (int64_t)x;
	}
}

/* The destination's lanes: all, or its mask's digits (.h1, .b310), each
 * below the one before. */
static unsigned lane_mask(const DIns *d, const Opnd *o, int n)
{
	if (o->kind != O_SEL)
		return (1u << n) - 1;
	need(d, o->sel == (n == 2 ? 'h' : 'b'));
	unsigned m = 0, prev = (unsigned)n;
	for (int i = (int)o->n - 1; i >= 0; i--) {
		unsigned k = (unsigned)(o->val >> (4 * i)) & 0xF;
		need(d, k < prev);
		m |= 1u << k;
		prev = k;
	}
	return m;
}

/* vavrg rounds half away from zero. */
static int64_t simd_op(const DIns *d, int op, int64_t x, int64_t y)
{
	switch (op) {
	case O_vadd2: case O_vadd4: return x + y;
	case O_vsub2: case O_vsub4: return x - y;
	case O_vavrg2: case O_vavrg4: return x + y >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1;
	case O_vabsdiff2: case O_vabsdiff4: return x > y ? x - y : y - x;
	case O_vmin2: case O_vmin4: return x < y ? x : y;
	case O_vmax2: case O_vmax4: return x > y ? x : y;
	}
	return compare(d, x, y);
}

/* vop2/vop4.dtype.atype.btype, vset2/vset4.atype.btype.cmp: d{.mask},
 * a{.asel}, b{.bsel}, c.  Lanes outside the mask take c's (a merge), or
 * add nothing to c (.add). */
int ex_vsimd(Thread *t, const DIns *d)
{
	int op = d->st->ins.sp->code, n = lanes(op), bits = 32 / n;
	int set = op == O_vset2 || op == O_vset4, ta = set ? 0 : 1;
	int add = (d->mods & M(add)) != 0, sat = (d->mods & M(sat)) != 0;
	need(d, d->nops == 4 && d->nty == 2 + !set && is32(d->ty[0]) && is32(d->ty[1]) &&
		(set || is32(d->ty[2])) && !(add && sat) && d->ops[3].kind != O_SEL &&
		(d->ops[0].kind == O_REG || d->ops[0].kind == O_SEL));
	uint64_t ba = raw(t, &d->ops[1]) | (uint64_t)raw(t, &d->ops[2]) << 32;
	int64_t va[4], vb[4];
	pick(d, &d->ops[1], ba, n, n == 2 ? 0x10 : 0x3210, ty_signed(d->ty[ta]), va);
	pick(d, &d->ops[2], ba, n, n == 2 ? 0x32 : 0x7654, ty_signed(d->ty[ta + 1]), vb);
	unsigned mask = lane_mask(d, &d->ops[0], n);
	uint32_t c = raw(t, &d->ops[3]), r = add ? c : 0;
	for (int i = 0; i < n; i++) {
		int64_t v = simd_op(d, op, va[i], vb[i]);
		uint32_t lane = (uint32_t)wmask(bits) << (i * bits);
		if (sat)
			v = clamp(v, bits, ty_signed(d->ty[0]));
		if (add)
			r += mask >> i & 1 ? (uint32_t)v : 0;
		else
			r |= mask >> i & 1 ? (uint32_t)v << (i * bits) & lane : c & lane;
	}
	t->r[d->ops[0].reg] = r;
	return X_NEXT;
}

/* ---- dot products ---- */

/* dp4a: the four byte products; dp2a.lo/.hi: a's two half-words times
 * b's low or high two bytes.  Only the low 32 bits of c matter, so its
 * sign does not. */
int ex_dot(Thread *t, const DIns *d)
{
	int two = d->st->ins.sp->code == O_dp2a, hi = (d->mods & M(hi)) != 0;
	int lo = (d->mods & M(lo)) != 0, abits = two ? 16 : 8;
	need(d, d->nops == 4 && d->nty == 2 && is32(d->ty[0]) && is32(d->ty[1]) &&
		(two ? lo != hi : !lo && !hi));
	uint32_t a = (uint32_t)rd(t, &d->ops[1]), b = (uint32_t)rd(t, &d->ops[2]);
	uint32_t r = (uint32_t)rd(t, &d->ops[3]);
	int sa = ty_signed(d->ty[0]), sb = ty_signed(d->ty[1]);
	for (int i = 0; i < (two ? 2 : 4); i++) {
		uint64_t x = zx(a >> (i * abits), abits), y = zx(b >> ((i + 2 * hi) * 8), 8);
		r += (uint32_t)((sa ? sx(x, abits) : (int64_t)x) * (sb ? sx(y, 8) : (int64_t)y));
	}
	wr(t, &d->ops[0], r);
	return X_NEXT;
}
