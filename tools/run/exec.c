/* Instruction execution: one handler per base opcode, found through a
 * table keyed by the spelling's base name.  A handler runs one lane; the
 * scheduler (warp.c) has already advanced the lane's pc, so a handler
 * only touches pc to jump.  Registers hold values extended to 64 bits;
 * every read masks to the width the instruction names. */
#include <stdlib.h>
#include <string.h>
#include "run.h"

static inline Frame *top(Thread *t)
{
	return &t->fr[t->depth - 1];
}

/* ---- operands ---- */

uint64_t rd(Thread *t, const Opnd *o)
{
	switch (o->kind) {
	case O_REG:
		return t->r[o->reg];
	case O_IMM:
		return o->fk == FK_DEC ? (uint64_t)(int64_t)o->fval : o->val;
	case O_SREG:
		return sreg_value(t, o->reg, (uint32_t)o->val);
	case O_FRAME:
		if (o->space == SP_LOCAL)
			return top(t)->lbase + o->val;
		return MK_ADDR(TAG_FPARAM, t->gid, top(t)->pbase + o->val);
	case O_FUNC:
		return o->val;
	case O_NOT:
		return !t->r[o->kids[0].reg];
	case O_LIST:
		if (o->n == 1)
			return rd(t, &o->kids[0]);
		break;
	}
	/* a vector, address or label where a value belongs: never guess one */
	rt_fail(M->cur, RUN_UNSUPPORTED, "unsupported instruction '%s' (an operand of this kind)",
		ins_text(M->cur));
}

/* The operand as a value of type ty (float immediates converted). */
static uint64_t rdt(Thread *t, const Opnd *o, int ty)
{
	if (o->kind == O_IMM && ty_float(ty))
		return f_from_imm(o, ty);
	return zx(rd(t, o), ty_bits(ty));
}

static int64_t rds(Thread *t, const Opnd *o, int ty)
{
	return sx(rdt(t, o, ty), ty_bits(ty));
}

void wr(Thread *t, const Opnd *o, uint64_t v)
{
	if (o->kind == O_REG)
		t->r[o->reg] = v;
	else if (o->kind != O_SINK)
		rt_fail(M->cur, RUN_UNSUPPORTED, "unsupported instruction '%s' (a destination that "
			"is not a register)", ins_text(M->cur));
}

static uint64_t addr_of(Thread *t, const Opnd *o)
{
	if (o->kind != O_ADDR)
		return rd(t, o);
	return (o->kids[0].kind == O_NONE ? 0 : rd(t, &o->kids[0])) + o->val;
}

static int need_reg(const DIns *d, int i)
{
	if (i >= d->nops)
		rt_fail(d, RUN_UNSUPPORTED, "unsupported instruction '%s' (operand count)", ins_text(d));
	const Opnd *o = &d->ops[i];
	if (o->kind != O_REG && o->kind != O_SINK)
		rt_fail(d, RUN_UNSUPPORTED, "unsupported instruction '%s' (operand %d)", ins_text(d), i + 1);
	return 1;
}

static void nops(const DIns *d, int n)
{
	if (d->nops != n)
		rt_fail(d, RUN_UNSUPPORTED, "unsupported instruction '%s' (operand count)", ins_text(d));
}

static int ty0(const DIns *d)
{
	if (!d->nty)
		rt_fail(d, RUN_UNSUPPORTED, "unsupported instruction '%s' (no type)", ins_text(d));
	return d->ty[0];
}

static int is_int(int ty)
{
	return ty >= TY_B8 && ty <= TY_S64 && ty != TY_B128;
}

static _Noreturn void bad_form(const DIns *d)
{
	rt_fail(d, RUN_UNSUPPORTED, "unsupported instruction '%s'", ins_text(d));
}

/* ---- special registers ---- */

/* The ones sreg_value knows: the vectors' components, the scalars but the
 * reserved-shared-memory and graph ones, %envreg0-31 and %pm0-7. */
int sreg_known(int id, int index)
{
	switch (id) {
	case SR_ASMEM: case SR_RSMEM_BEGIN: case SR_RSMEM_END: case SR_RSMEM_CAP: case SR_RSMEM:
	case SR_GRAPH_EXEC: case SR_PM64:
		return 0;
	case SR_ENVREG:
		return index < 32;
	case SR_PM:
		return index < 8;
	}
	return index >= 0;
}

/* Clocks and timers are fixed functions of the step count, so that runs
 * repeat exactly and elapsed-time loops still see time pass. */
uint64_t sreg_value(Thread *t, uint32_t id, uint32_t k)
{
	uint32_t wsize = (M->block[0] * M->block[1] * M->block[2] + 31) / 32;
	switch (id) {
	case SR_TID: return t->tid[k];
	case SR_NTID: return M->block[k];
	case SR_CTAID: return t->b->ctaid[k];
	case SR_NCTAID: return M->grid[k];
	case SR_CLUSTERID: return t->b->ctaid[k] / M->cluster[k];
	case SR_NCLUSTERID: return M->grid[k] / M->cluster[k];
	case SR_CLUSTER_CTAID: return t->b->ctaid[k] % M->cluster[k];
	case SR_CLUSTER_NCTAID: return M->cluster[k];
	case SR_LANEID: return t->lane;
	case SR_WARPID: return t->lin / 32;
	case SR_NWARPID: return wsize;
	case SR_SMID: return 0;
	case SR_NSMID: return 1;
	case SR_GRIDID: return 1;
	case SR_CLOCK: return (uint32_t)M->steps;
	case SR_CLOCK_HI: return (uint32_t)(M->steps >> 32);
	case SR_CLOCK64: return M->steps;
	case SR_GTIMER: return M->steps * 32;
	case SR_GTIMER_LO: return (uint32_t)(M->steps * 32);
	case SR_GTIMER_HI: return (uint32_t)((M->steps * 32) >> 32);
	case SR_LM_EQ: return 1u << t->lane;
	case SR_LM_LE: return (uint32_t)wmask(t->lane + 1);
	case SR_LM_LT: return (uint32_t)wmask(t->lane);
	case SR_LM_GE: return ~(uint32_t)wmask(t->lane);
	case SR_LM_GT: return ~(uint32_t)wmask(t->lane + 1);
	case SR_DSMEM: return M->dyn_shared;
	case SR_TSMEM: return M->shared_size;
	case SR_CTARANK: return t->b->rank;
	case SR_NCTARANK: return M->nblocks;
	case SR_EXPLICIT: return (uint64_t)M->explicit_cluster;
	}
	return 0;  /* %envreg*, %pm*: zero */
}

/* ---- moves ---- */

/* mov d, {a, b}: pack; mov {a, b}, d: unpack. */
static int ex_mov(Thread *t, const DIns *d)
{
	int ty = ty0(d), bits = ty_bits(ty);
	nops(d, 2);
	const Opnd *dst = &d->ops[0], *src = &d->ops[1];
	if (src->kind == O_VEC) {
		int each = bits / (int)src->n;
		uint64_t v = 0;
		for (uint32_t i = 0; i < src->n; i++)
			v |= zx(rd(t, &src->kids[i]), each) << (i * each);
		wr(t, dst, v);
		return X_NEXT;
	}
	if (dst->kind == O_VEC) {
		int each = bits / (int)dst->n;
		uint64_t v = rdt(t, src, ty);
		for (uint32_t i = 0; i < dst->n; i++)
			wr(t, &dst->kids[i], zx(v >> (i * each), each));
		return X_NEXT;
	}
	need_reg(d, 0);
	if (ty == TY_PRED) {
		wr(t, dst, rd(t, src) & 1);
		return X_NEXT;
	}
	wr(t, dst, rdt(t, src, ty));
	return X_NEXT;
}

/* ---- integer arithmetic ---- */

static int is_pair16(int ty)
{
	return ty == TY_U16X2 || ty == TY_S16X2;
}

/* add, min and max on .u16x2/.s16x2: each half-word alone; .relu
 * (min and max of .s16x2) clamps a negative half to 0. */
static int pair16(Thread *t, const DIns *d, int op)
{
	int ty = ty0(d), sgn = ty_signed(ty), relu = (d->mods & M(relu)) != 0;
	nops(d, 3);
	if ((d->mods & ~M(relu)) || (relu && (op == '+' || !sgn)))
		bad_form(d);
	uint64_t a = rd(t, &d->ops[1]), b = rd(t, &d->ops[2]), r = 0;
	for (int i = 0; i < 2; i++) {
		uint64_t ua = zx(a >> (16 * i), 16), ub = zx(b >> (16 * i), 16);
		int64_t x = sgn ? sx(ua, 16) : (int64_t)ua, y = sgn ? sx(ub, 16) : (int64_t)ub;
		int64_t v = op == '+' ? x + y : (op == '<') == (x < y) ? x : y;
		if (relu && v < 0)
			v = 0;
		r |= zx((uint64_t)v, 16) << (16 * i);
	}
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

/* add, addc, sub, subc: .sat clamps s32; .cc leaves the carry (add) or
 * the borrow (sub) as addc/subc consume it. */
static int add_or_sub(Thread *t, const DIns *d, int sub)
{
	int ty = ty0(d), bits = ty_bits(ty);
	if (ty_floats(ty))
		return sub ? ex_fsub(t, d) : ex_fadd(t, d);
	if (is_pair16(ty) && !sub && d->st->ins.sp->code == O_add)
		return pair16(t, d, '+');
	nops(d, 3);
	uint64_t a = rdt(t, &d->ops[1], ty), b = rdt(t, &d->ops[2], ty);
	int code = d->st->ins.sp->code, c = code == O_subc || code == O_addc ? t->carry : 0;
	uint64_t r = zx(sub ? a - b - c : a + b + c, bits);
	if (d->mods & M(sat)) {
		if (ty != TY_S32)
			bad_form(d);
		int64_t s = sub ? sx(a, 32) - sx(b, 32) : sx(a, 32) + sx(b, 32);
		r = zx((uint64_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s), 32);
	}
	if (d->mods & M(cc))
		t->carry = sub ? a < b || (c && a == b) :
			bits == 64 ? (r < a || (c && r == a)) : ((a + b + c) >> bits) & 1;
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

static int ex_add(Thread *t, const DIns *d) { return add_or_sub(t, d, 0); }
static int ex_sub(Thread *t, const DIns *d) { return add_or_sub(t, d, 1); }

/* The full product of two bits-wide values, as lo and hi halves. */
static void mul_full(int ty, uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
	int bits = ty_bits(ty);
	if (bits == 64) {
		if (ty_signed(ty)) {
			__int128 p = (__int128)(int64_t)a * (int64_t)b;
			*lo = (uint64_t)p;
			*hi = (uint64_t)((unsigned __int128)p >> 64);
		} else {
			unsigned __int128 p = (unsigned __int128)a * b;
			*lo = (uint64_t)p;
			*hi = (uint64_t)(p >> 64);
		}
		return;
	}
	uint64_t p = ty_signed(ty) ? (uint64_t)(sx(a, bits) * sx(b, bits)) : a * b;
	*lo = zx(p, bits);
	*hi = zx(p >> bits, bits);
}

/* mul/mad product as .lo, .hi or .wide asks; wide results are 2x bits. */
static uint64_t product(const DIns *d, int ty, uint64_t a, uint64_t b, int *rbits)
{
	uint64_t lo, hi;
	int bits = ty_bits(ty);
	mul_full(ty, a, b, &lo, &hi);
	*rbits = bits;
	if (d->mods & M(wide)) {
		if (bits > 32)
			bad_form(d);
		*rbits = 2 * bits;
		return lo | hi << bits;
	}
	return d->mods & M(hi) ? hi : lo;
}

static int ex_mul(Thread *t, const DIns *d)
{
	int ty = ty0(d), rbits;
	if (ty_floats(ty))
		return ex_fmul(t, d);
	nops(d, 3);
	uint64_t a = rdt(t, &d->ops[1], ty), b = rdt(t, &d->ops[2], ty);
	wr(t, &d->ops[0], product(d, ty, a, b, &rbits));
	return X_NEXT;
}

static int ex_mad(Thread *t, const DIns *d)
{
	int ty = ty0(d), rbits;
	if (ty_floats(ty))
		return ex_ffma(t, d);
	nops(d, 4);
	uint64_t a = rdt(t, &d->ops[1], ty), b = rdt(t, &d->ops[2], ty);
	uint64_t p = product(d, ty, a, b, &rbits);
	uint64_t c = zx(rd(t, &d->ops[3]), rbits);
	int cin = d->st->ins.sp->code == O_madc ? t->carry : 0;
	uint64_t r = zx(p + c + cin, rbits);
	if (d->mods & M(sat)) {
		if (ty != TY_S32 || !(d->mods & M(hi)))
			bad_form(d);
		int64_t s = sx(p, 32) + sx(c, 32);
		r = zx((uint64_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s), 32);
	}
	if (d->mods & M(cc))
		t->carry = rbits == 64 ? (r < p || (cin && r == p)) : ((p + c + cin) >> rbits) & 1;
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

static int ex_mul24(Thread *t, const DIns *d)
{
	int ty = ty0(d), sgn = ty_signed(ty);
	int base_mad = d->st->ins.sp->code == O_mad24;
	nops(d, base_mad ? 4 : 3);
	if (ty_bits(ty) != 32)
		bad_form(d);
	uint64_t a = rd(t, &d->ops[1]), b = rd(t, &d->ops[2]);
	int64_t x = sgn ? sx(a, 24) : (int64_t)zx(a, 24), y = sgn ? sx(b, 24) : (int64_t)zx(b, 24);
	uint64_t p = (uint64_t)(x * y);
	uint64_t r = d->mods & M(hi) ? zx(p >> 16, 32) : zx(p, 32);
	if ((d->mods & M(sat)) && (!base_mad || !sgn || !(d->mods & M(hi))))
		bad_form(d);
	if (d->mods & M(sat)) {  /* mad24.hi.sat.s32: the 32-bit signed addition clamps */
		int64_t s = sx(r, 32) + sx(rd(t, &d->ops[3]), 32);
		r = zx((uint64_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s), 32);
	} else if (base_mad)
		r = zx(r + rd(t, &d->ops[3]), 32);
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

/* Division by zero is undefined in PTX; this returns what NVIDIA GPUs
 * return (all ones for the quotient, the dividend for the remainder). */
static int ex_divrem(Thread *t, const DIns *d, int rem)
{
	int ty = ty0(d), bits = ty_bits(ty);
	nops(d, 3);
	uint64_t a = rdt(t, &d->ops[1], ty), b = rdt(t, &d->ops[2], ty), r;
	if (b == 0)
		r = rem ? a : wmask(bits);
	else if (ty_signed(ty)) {
		int64_t x = sx(a, bits), y = sx(b, bits);
		if (y == -1)
			r = rem ? 0 : (uint64_t)0 - (uint64_t)x;
		else
			r = (uint64_t)(rem ? x % y : x / y);
	} else
		r = rem ? a % b : a / b;
	wr(t, &d->ops[0], zx(r, bits));
	return X_NEXT;
}

static int ex_div(Thread *t, const DIns *d)
{
	if (ty_float(ty0(d)))
		return ex_fdiv(t, d);
	return ex_divrem(t, d, 0);
}

static int ex_rem(Thread *t, const DIns *d)
{
	return ex_divrem(t, d, 1);
}

static int ex_abs(Thread *t, const DIns *d)
{
	int ty = ty0(d), bits = ty_bits(ty);
	if (ty_floats(ty))
		return ex_funary(t, d);
	nops(d, 2);
	int64_t a = rds(t, &d->ops[1], ty);
	wr(t, &d->ops[0], zx((uint64_t)(a < 0 ? -(uint64_t)a : (uint64_t)a), bits));
	return X_NEXT;
}

static int ex_neg(Thread *t, const DIns *d)
{
	int ty = ty0(d), bits = ty_bits(ty);
	if (ty_floats(ty))
		return ex_funary(t, d);
	nops(d, 2);
	wr(t, &d->ops[0], zx(-rdt(t, &d->ops[1], ty), bits));
	return X_NEXT;
}

/* .relu (min and max of .s32) clamps a negative result to 0. */
static int ex_minmax(Thread *t, const DIns *d, int max)
{
	int ty = ty0(d), bits = ty_bits(ty), relu = (d->mods & M(relu)) != 0;
	if (ty_floats(ty))
		return max ? ex_fmax(t, d) : ex_fmin(t, d);
	if (is_pair16(ty))
		return pair16(t, d, max ? '>' : '<');
	nops(d, 3);
	if ((d->mods & (M(NaN) | M(xorsign) | M(abs))) || (relu && ty != TY_S32))
		bad_form(d);
	uint64_t a = rdt(t, &d->ops[1], ty), b = rdt(t, &d->ops[2], ty);
	int less = ty_signed(ty) ? sx(a, bits) < sx(b, bits) : a < b;
	uint64_t r = (less ^ max) ? a : b;
	wr(t, &d->ops[0], relu && sx(r, 32) < 0 ? 0 : r);
	return X_NEXT;
}

static int ex_min(Thread *t, const DIns *d) { return ex_minmax(t, d, 0); }
static int ex_max(Thread *t, const DIns *d) { return ex_minmax(t, d, 1); }

/* ---- logic and bits ---- */

static int ex_logic(Thread *t, const DIns *d, int op)
{
	int ty = ty0(d), bits = ty_bits(ty);
	nops(d, 3);
	uint64_t a = rdt(t, &d->ops[1], ty), b = rdt(t, &d->ops[2], ty);
	uint64_t r = op == '&' ? a & b : op == '|' ? a | b : a ^ b;
	wr(t, &d->ops[0], zx(r, bits));
	return X_NEXT;
}

static int ex_and(Thread *t, const DIns *d) { return ex_logic(t, d, '&'); }
static int ex_or(Thread *t, const DIns *d) { return ex_logic(t, d, '|'); }
static int ex_xor(Thread *t, const DIns *d) { return ex_logic(t, d, '^'); }

static int ex_not(Thread *t, const DIns *d)
{
	int ty = ty0(d);
	nops(d, 2);
	wr(t, &d->ops[0], zx(~rdt(t, &d->ops[1], ty), ty_bits(ty)));
	return X_NEXT;
}

static int ex_cnot(Thread *t, const DIns *d)
{
	int ty = ty0(d);
	nops(d, 2);
	wr(t, &d->ops[0], rdt(t, &d->ops[1], ty) == 0);
	return X_NEXT;
}

static int ex_shl(Thread *t, const DIns *d)
{
	int ty = ty0(d), bits = ty_bits(ty);
	nops(d, 3);
	uint64_t a = rdt(t, &d->ops[1], ty), n = zx(rd(t, &d->ops[2]), 32);
	wr(t, &d->ops[0], n >= (uint64_t)bits ? 0 : zx(a << n, bits));
	return X_NEXT;
}

static int ex_shr(Thread *t, const DIns *d)
{
	int ty = ty0(d), bits = ty_bits(ty);
	nops(d, 3);
	uint64_t a = rdt(t, &d->ops[1], ty), n = zx(rd(t, &d->ops[2]), 32), r;
	if (ty_signed(ty))
		r = (uint64_t)(sx(a, bits) >> (n >= (uint64_t)bits ? (uint64_t)bits - 1 : n));
	else
		r = n >= (uint64_t)bits ? 0 : a >> n;
	wr(t, &d->ops[0], zx(r, bits));
	return X_NEXT;
}

static int ex_bfe(Thread *t, const DIns *d)
{
	int ty = ty0(d), bits = ty_bits(ty);
	nops(d, 4);
	uint64_t a = rdt(t, &d->ops[1], ty);
	uint32_t pos = (uint32_t)zx(rd(t, &d->ops[2]), 8), len = (uint32_t)zx(rd(t, &d->ops[3]), 8);
	uint64_t r = 0;
	int sbit = 0;
	if (ty_signed(ty))
		sbit = len == 0 ? 0 : (int)((a >> (pos + len - 1 < (uint32_t)bits ? pos + len - 1 : (uint32_t)bits - 1)) & 1);
	for (uint32_t i = 0; i < (uint32_t)bits; i++) {
		uint64_t bit = i < len && pos + i < (uint32_t)bits ? (a >> (pos + i)) & 1 : (uint64_t)sbit;
		r |= bit << i;
	}
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

static int ex_bfi(Thread *t, const DIns *d)
{
	int ty = ty0(d), bits = ty_bits(ty);
	nops(d, 5);
	uint64_t a = rdt(t, &d->ops[1], ty), b = rdt(t, &d->ops[2], ty);
	uint32_t pos = (uint32_t)zx(rd(t, &d->ops[3]), 8), len = (uint32_t)zx(rd(t, &d->ops[4]), 8);
	uint64_t r = b;
	for (uint32_t i = 0; i < len && pos + i < (uint32_t)bits; i++)
		r = (r & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

static int ex_brev(Thread *t, const DIns *d)
{
	int ty = ty0(d), bits = ty_bits(ty);
	nops(d, 2);
	uint64_t a = rdt(t, &d->ops[1], ty), r = 0;
	for (int i = 0; i < bits; i++)
		r |= ((a >> i) & 1) << (bits - 1 - i);
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

static int ex_clz(Thread *t, const DIns *d)
{
	int ty = ty0(d), bits = ty_bits(ty);
	nops(d, 2);
	uint64_t a = rdt(t, &d->ops[1], ty);
	wr(t, &d->ops[0], a == 0 ? (uint64_t)bits : (uint64_t)(__builtin_clzll(a) - (64 - bits)));
	return X_NEXT;
}

static int ex_popc(Thread *t, const DIns *d)
{
	int ty = ty0(d);
	nops(d, 2);
	wr(t, &d->ops[0], (uint64_t)__builtin_popcountll(rdt(t, &d->ops[1], ty)));
	return X_NEXT;
}

/* fns: the offset-th set bit of mask counting from base, up (offset > 0)
 * or down; 0xffffffff when there is none.  A base above 31 is undefined. */
static int ex_fns(Thread *t, const DIns *d)
{
	nops(d, 4);
	uint32_t mask = (uint32_t)rd(t, &d->ops[1]), base = (uint32_t)rd(t, &d->ops[2]);
	int32_t off = (int32_t)rd(t, &d->ops[3]);
	if (base > 31)
		rt_fail(d, RUN_FAULT, "fns from bit %u (it must be at most 31)", base);
	uint64_t r = 0xFFFFFFFF, count = (uint64_t)(off < 0 ? -(int64_t)off - 1 : off ? (int64_t)off - 1 : 0);
	int inc = off < 0 ? -1 : 1;
	for (int pos = (int)base; pos >= 0 && pos < 32 && (off || pos == (int)base); pos += inc)
		if (mask >> pos & 1 && count-- == 0) {
			r = (uint64_t)pos;
			break;
		}
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

static int ex_bfind(Thread *t, const DIns *d)
{
	int ty = ty0(d), bits = ty_bits(ty);
	nops(d, 2);
	uint64_t a = rdt(t, &d->ops[1], ty);
	if (ty_signed(ty) && sx(a, bits) < 0)
		a = zx(~a, bits);
	uint64_t r = 0xFFFFFFFF;
	if (a) {
		r = 63 - __builtin_clzll(a);
		if (d->mods & M(shiftamt))
			r = bits - 1 - r;
	}
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

static int ex_prmt(Thread *t, const DIns *d)
{
	nops(d, 4);
	uint64_t a = zx(rd(t, &d->ops[1]), 32), b = zx(rd(t, &d->ops[2]), 32);
	uint32_t c = (uint32_t)rd(t, &d->ops[3]);
	uint64_t x = a | b << 32;  /* bytes 0..7 */
	uint32_t r = 0;
	Mods m = d->mods & (M(f4e) | M(b4e) | M(rc8) | M(ecl) | M(ecr) | M(rc16));
	for (int i = 0; i < 4; i++) {
		uint32_t sel, byte;
		if (!m) {
			sel = (c >> (4 * i)) & 0xF;
			byte = (uint32_t)(x >> ((sel & 7) * 8)) & 0xFF;
			if (sel & 8)
				byte = byte & 0x80 ? 0xFF : 0;
		} else {
			uint32_t n = c & 3;
			static const uint8_t f4e[4][4] = {{0,1,2,3},{1,2,3,4},{2,3,4,5},{3,4,5,6}};
			static const uint8_t b4e[4][4] = {{0,7,6,5},{1,0,7,6},{2,1,0,7},{3,2,1,0}};
			static const uint8_t rc8[4][4] = {{0,0,0,0},{1,1,1,1},{2,2,2,2},{3,3,3,3}};
			static const uint8_t ecl[4][4] = {{0,1,2,3},{1,1,2,3},{2,2,2,3},{3,3,3,3}};
			static const uint8_t ecr[4][4] = {{0,0,0,0},{0,1,1,1},{0,1,2,2},{0,1,2,3}};
			static const uint8_t rc16[4][4] = {{0,1,0,1},{2,3,2,3},{0,1,0,1},{2,3,2,3}};
			const uint8_t (*tab)[4] = m == M(f4e) ? f4e : m == M(b4e) ? b4e : m == M(rc8) ? rc8
				: m == M(ecl) ? ecl : m == M(ecr) ? ecr : rc16;
			sel = tab[n][i];
			byte = (uint32_t)(x >> (sel * 8)) & 0xFF;
		}
		r |= byte << (8 * i);
	}
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

static int boolop(const DIns *d, int r, int c);

/* lop3.b32 d, a, b, c, lut; and lop3.and|or.b32 d|p, a, b, c, lut, q,
 * where p = (d != 0) and|or q. */
static int ex_lop3(Thread *t, const DIns *d)
{
	int ty = ty0(d), bits = ty_bits(ty);
	int pair = d->ops[0].kind == O_PAIR, hasbool = (d->mods & (M(and) | M(or))) != 0;
	if (d->nops != 5 + pair || pair != hasbool)
		bad_form(d);
	uint64_t a = rdt(t, &d->ops[1], ty), b = rdt(t, &d->ops[2], ty), c = rdt(t, &d->ops[3], ty);
	uint32_t lut = (uint32_t)rd(t, &d->ops[4]) & 0xFF;
	uint64_t r = 0;
	for (int k = 0; k < 8; k++) {
		uint64_t ta = k & 4 ? a : ~a, tb = k & 2 ? b : ~b, tc = k & 1 ? c : ~c;
		if (lut & (1u << k))
			r |= ta & tb & tc;
	}
	r = zx(r, bits);
	if (!pair) {
		wr(t, &d->ops[0], r);
		return X_NEXT;
	}
	wr(t, &d->ops[0].kids[0], r);
	wr(t, &d->ops[0].kids[1], boolop(d, r != 0, (int)(rd(t, &d->ops[5]) & 1)));
	return X_NEXT;
}

static int ex_shf(Thread *t, const DIns *d)
{
	nops(d, 4);
	uint64_t a = zx(rd(t, &d->ops[1]), 32), b = zx(rd(t, &d->ops[2]), 32);
	uint32_t n = (uint32_t)rd(t, &d->ops[3]);
	n = d->mods & M(wrap) ? n & 31 : n > 32 ? 32 : n;
	uint64_t x = b << 32 | a, r;
	if (d->mods & M(l))
		r = (x << n) >> 32;
	else if (d->mods & M(r))
		r = x >> n;
	else
		bad_form(d);
	wr(t, &d->ops[0], zx(r, 32));
	return X_NEXT;
}

static int ex_bmsk(Thread *t, const DIns *d)
{
	nops(d, 3);
	uint32_t a = (uint32_t)rd(t, &d->ops[1]), b = (uint32_t)rd(t, &d->ops[2]);
	if (d->mods & M(wrap)) {
		a &= 31;
		b &= 31;
	} else {
		a = a > 32 ? 32 : a;
		b = b > 32 ? 32 : b;
	}
	uint64_t m = wmask((int)(a + b > 32 ? 32 : a + b)) & ~wmask((int)a);
	wr(t, &d->ops[0], zx(m, 32));
	return X_NEXT;
}

static int ex_szext(Thread *t, const DIns *d)
{
	int ty = ty0(d);
	nops(d, 3);
	uint64_t a = zx(rd(t, &d->ops[1]), 32);
	uint32_t n = (uint32_t)rd(t, &d->ops[2]);
	n = d->mods & M(wrap) ? n & 31 : n > 32 ? 32 : n;
	uint64_t r = n == 0 ? 0 : ty_signed(ty) ? zx((uint64_t)sx(a, (int)n), 32) : zx(a, (int)n);
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

static int ex_sad(Thread *t, const DIns *d)
{
	int ty = ty0(d), bits = ty_bits(ty);
	nops(d, 4);
	uint64_t a = rdt(t, &d->ops[1], ty), b = rdt(t, &d->ops[2], ty), c = rdt(t, &d->ops[3], ty);
	int lt = ty_signed(ty) ? sx(a, bits) < sx(b, bits) : a < b;
	wr(t, &d->ops[0], zx(c + (lt ? b - a : a - b), bits));
	return X_NEXT;
}

/* ---- compare and select ---- */

static int icompare(int cmp, int ty, uint64_t a, uint64_t b)
{
	int bits = ty_bits(ty);
	int s = ty_signed(ty);
	int64_t x = sx(a, bits), y = sx(b, bits);
	switch (cmp) {
	case CMP_EQ: return a == b;
	case CMP_NE: return a != b;
	case CMP_LT: return s ? x < y : a < b;
	case CMP_LE: return s ? x <= y : a <= b;
	case CMP_GT: return s ? x > y : a > b;
	case CMP_GE: return s ? x >= y : a >= b;
	case CMP_LO: return a < b;
	case CMP_LS: return a <= b;
	case CMP_HI: return a > b;
	case CMP_HS: return a >= b;
	}
	return -1;
}

static int compare(const DIns *d, int ty, uint64_t a, uint64_t b)
{
	int r = ty_float(ty) ? fcompare(d->cmp, ty, a, b) : icompare(d->cmp, ty, a, b);
	if (r < 0)
		bad_form(d);
	return r;
}

static int boolop(const DIns *d, int r, int c)
{
	if (d->mods & M(and))
		return r & c;
	if (d->mods & M(or))
		return r | c;
	if (d->mods & M(xor))
		return r ^ c;
	return r;
}

static int is_half(int ty)
{
	return ty == TY_F16 || ty == TY_BF16 || ty == TY_F16X2 || ty == TY_BF16X2;
}

/* One 16-bit lane of a half-precision compare, done on f64 values. */
static int half_compare(const DIns *d, int ty, uint64_t a, uint64_t b, int lane)
{
	int bf = ty == TY_BF16 || ty == TY_BF16X2;
	uint16_t x = (uint16_t)(a >> (16 * lane)), y = (uint16_t)(b >> (16 * lane));
	double fx = bf ? bf2f(x) : h2f(x), fy = bf ? bf2f(y) : h2f(y);
	uint64_t ux, uy;
	memcpy(&ux, &fx, 8);
	memcpy(&uy, &fy, 8);
	return compare(d, TY_F64, ux, uy);
}

/* The comparison's operands, flushed when .ftz asks (f32 only). */
static void cmp_operands(Thread *t, const DIns *d, int ty, uint64_t *a, uint64_t *b)
{
	*a = is_half(ty) ? rd(t, &d->ops[1]) : rdt(t, &d->ops[1], ty);
	*b = is_half(ty) ? rd(t, &d->ops[2]) : rdt(t, &d->ops[2], ty);
	if (ty == TY_F32 && (d->mods & M(ftz))) {
		if ((*a & 0x7F800000) == 0)
			*a &= 0x80000000;
		if ((*b & 0x7F800000) == 0)
			*b &= 0x80000000;
	}
}

static int ex_setp(Thread *t, const DIns *d)
{
	int ty = d->nty ? d->ty[d->nty - 1] : TY_NONE;
	int hasbool = (d->mods & (M(and) | M(or) | M(xor))) != 0;
	if (d->nops != 3 + hasbool || (!is_int(ty) && !ty_float(ty) && !is_half(ty)))
		bad_form(d);
	uint64_t a, b;
	cmp_operands(t, d, ty, &a, &b);
	int c = hasbool ? (int)(rd(t, &d->ops[3]) & 1) : 0;
	const Opnd *dst = &d->ops[0];
	if (ty == TY_F16X2 || ty == TY_BF16X2) {
		if (dst->kind != O_PAIR)
			bad_form(d);
		wr(t, &dst->kids[0], boolop(d, half_compare(d, ty, a, b, 0), c));
		wr(t, &dst->kids[1], boolop(d, half_compare(d, ty, a, b, 1), c));
		return X_NEXT;
	}
	int r = is_half(ty) ? half_compare(d, ty, a, b, 0) : compare(d, ty, a, b);
	if (dst->kind == O_PAIR) {
		wr(t, &dst->kids[0], boolop(d, r, c));
		wr(t, &dst->kids[1], boolop(d, !r, c));
	} else
		wr(t, dst, boolop(d, r, c));
	return X_NEXT;
}

/* set.cmp.dtype.stype: all ones (or 1.0) for true. */
static uint64_t set_true(const DIns *d, int dty)
{
	switch (dty) {
	case TY_F32: return 0x3F800000;
	case TY_U32: case TY_S32: case TY_B32: return 0xFFFFFFFF;
	case TY_F16: case TY_F16X2: return 0x3C00;
	case TY_BF16: case TY_BF16X2: return 0x3F80;
	case TY_U16: case TY_S16: case TY_B16: return 0xFFFF;
	}
	bad_form(d);
}

static int ex_set(Thread *t, const DIns *d)
{
	if (d->nty != 2)
		bad_form(d);
	int dty = d->ty[0], ty = d->ty[1];
	int hasbool = (d->mods & (M(and) | M(or) | M(xor))) != 0;
	if (d->nops != 3 + hasbool || (!is_int(ty) && !ty_float(ty) && !is_half(ty)))
		bad_form(d);
	uint64_t a, b;
	cmp_operands(t, d, ty, &a, &b);
	int c = hasbool ? (int)(rd(t, &d->ops[3]) & 1) : 0;
	if (ty == TY_F16X2 || ty == TY_BF16X2) {
		/* each half: 1.0 of the destination type, or all ones for integers */
		uint64_t one = set_true(d, dty == TY_U32 || dty == TY_S32 ? TY_U16 : dty);
		uint64_t lo = boolop(d, half_compare(d, ty, a, b, 0), c) ? one : 0;
		uint64_t hi = boolop(d, half_compare(d, ty, a, b, 1), c) ? one : 0;
		wr(t, &d->ops[0], lo | hi << 16);
		return X_NEXT;
	}
	int r = is_half(ty) ? half_compare(d, ty, a, b, 0) : compare(d, ty, a, b);
	wr(t, &d->ops[0], boolop(d, r, c) ? set_true(d, dty) : 0);
	return X_NEXT;
}

static int ex_selp(Thread *t, const DIns *d)
{
	int ty = ty0(d);
	nops(d, 4);
	int p = (int)(rd(t, &d->ops[3]) & 1);
	wr(t, &d->ops[0], rdt(t, &d->ops[p ? 1 : 2], ty));
	return X_NEXT;
}

static int ex_slct(Thread *t, const DIns *d)
{
	nops(d, 4);
	if (d->nty != 2)
		bad_form(d);
	int ty = d->ty[0], cty = d->ty[1];
	uint64_t c = rdt(t, &d->ops[3], cty);
	int ge;
	if (cty == TY_F32) {
		float f;
		uint32_t u = (uint32_t)c;
		memcpy(&f, &u, 4);
		if (d->mods & M(ftz) && (u & 0x7F800000) == 0)
			f = 0;
		ge = f >= 0;  /* NaN selects b */
	} else if (cty == TY_S32)
		ge = sx(c, 32) >= 0;
	else
		bad_form(d);
	wr(t, &d->ops[0], rdt(t, &d->ops[ge ? 1 : 2], ty));
	return X_NEXT;
}

/* ---- memory ---- */

static int ld_space(const DIns *d)
{
	return d->space ? d->space : SP_GENERIC;
}

static uint64_t extend(uint64_t v, int ty)
{
	int bits = ty_bits(ty);
	return ty_signed(ty) ? (uint64_t)sx(v, bits) : zx(v, bits);
}

/* What ld and st share: the form check, the address and its alignment.
 * Returns the memory of n elements of size bytes; *val is the register
 * (or vector) operand. */
static uint8_t *access(Thread *t, const DIns *d, int addr_op, const Opnd **val, uint32_t *size, int *n)
{
	int ty = ty0(d);
	*n = d->vec ? d->vec : 1;
	if (d->nops < 2 || d->nops > 2 + ((d->mods & M(cache_hint)) != 0) || ty == TY_B128 ||
	    ty == TY_PRED)
		bad_form(d);
	*size = ty_bits(ty) / 8;
	uint64_t a = addr_of(t, &d->ops[addr_op]);
	*val = &d->ops[1 - addr_op];
	if (((*val)->kind == O_VEC) != (*n > 1) || (*n > 1 && (*val)->n != (uint32_t)*n))
		bad_form(d);
	if (a % (*size * *n))
		rt_fail(d, RUN_FAULT, "misaligned address 0x%llx", (unsigned long long)a);
	return mem_ptr(t, ld_space(d), a, *size * *n, d);
}

static int ex_ld(Thread *t, const DIns *d)
{
	const Opnd *dst;
	uint32_t size;
	int n;
	uint8_t *p = access(t, d, 1, &dst, &size, &n);
	for (int i = 0; i < n; i++) {
		uint64_t v = 0;
		memcpy(&v, p + i * size, size);
		wr(t, n > 1 ? &dst->kids[i] : dst, extend(v, ty0(d)));
	}
	return X_NEXT;
}

static int ex_st(Thread *t, const DIns *d)
{
	const Opnd *src;
	uint32_t size;
	int n;
	uint8_t *p = access(t, d, 0, &src, &size, &n);
	for (int i = 0; i < n; i++) {
		uint64_t v = rdt(t, n > 1 ? &src->kids[i] : src, ty0(d));
		memcpy(p + i * size, &v, size);
	}
	return X_NEXT;
}

static int ex_cvta(Thread *t, const DIns *d)
{
	nops(d, 2);
	if (!d->space || d->space == SP_GENERIC)
		bad_form(d);
	uint64_t a = rd(t, &d->ops[1]), r;
	if (d->mods & M(to))
		mem_to_space(t, d->space, a, &r);
	else
		r = mem_generic(t, d->space, a);
	if (d->nty && ty_bits(d->ty[0]) == 32)
		r = zx(r, 32);
	wr(t, &d->ops[0], r);
	return X_NEXT;
}

static int ex_isspacep(Thread *t, const DIns *d)
{
	nops(d, 2);
	uint64_t a = rd(t, &d->ops[1]);
	wr(t, &d->ops[0], mem_space_of(a) == d->space);
	return X_NEXT;
}

/* atom and red: the update, returning the old value. */
static uint64_t atom_apply(const DIns *d, int ty, uint64_t old, uint64_t b, uint64_t c, uint64_t *nv)
{
	int bits = ty_bits(ty);
	Mods m = d->mods & (M(add) | M(min) | M(max) | M(inc) | M(dec) | M(and) | M(or) |
		M(xor) | M(exch) | M(cas));
	if (ty_float(ty)) {
		if (m != M(add) && m != M(exch))
			bad_form(d);
		*nv = m == M(exch) ? b : atom_fadd(ty, old, b);
		return old;
	}
	int s = ty_signed(ty);
	switch (m) {
	case M(add): *nv = old + b; break;
	case M(min): *nv = (s ? sx(b, bits) < sx(old, bits) : b < old) ? b : old; break;
	case M(max): *nv = (s ? sx(b, bits) > sx(old, bits) : b > old) ? b : old; break;
	case M(inc): *nv = old >= b ? 0 : old + 1; break;
	case M(dec): *nv = (old == 0 || old > b) ? b : old - 1; break;
	case M(and): *nv = old & b; break;
	case M(or): *nv = old | b; break;
	case M(xor): *nv = old ^ b; break;
	case M(exch): *nv = b; break;
	case M(cas): *nv = old == b ? c : old; break;
	default: bad_form(d);
	}
	*nv = zx(*nv, bits);
	return old;
}

static int do_atom(Thread *t, const DIns *d, int has_dst)
{
	int ty = ty0(d);
	int cas = (d->mods & M(cas)) != 0;
	int base = has_dst ? 1 : 0;
	if (d->nops != base + 2 + cas || d->vec || ty_bits(ty) < 16 || ty_bits(ty) > 64 ||
	    (ty_bits(ty) == 16 && !ty_float(ty) && !cas) || ty == TY_F16 || ty == TY_BF16)
		bad_form(d);
	if (d->space && d->space != SP_GLOBAL && d->space != SP_SHARED)
		bad_form(d);
	uint32_t size = ty_bits(ty) / 8;
	uint64_t a = addr_of(t, &d->ops[base]);
	if (a % size)
		rt_fail(d, RUN_FAULT, "misaligned atomic address 0x%llx", (unsigned long long)a);
	uint8_t *p = mem_ptr(t, ld_space(d), a, size, d);
	uint64_t old = 0, nv;
	memcpy(&old, p, size);
	uint64_t b = rdt(t, &d->ops[base + 1], ty), c = cas ? rdt(t, &d->ops[base + 2], ty) : 0;
	atom_apply(d, ty, old, b, c, &nv);
	memcpy(p, &nv, size);
	if (has_dst)
		wr(t, &d->ops[0], old);
	return X_NEXT;
}

static int ex_atom(Thread *t, const DIns *d) { return do_atom(t, d, 1); }
static int ex_red(Thread *t, const DIns *d) { return do_atom(t, d, 0); }

static int has(const DIns *d, int mod)
{
	return spelling_has(d->st->ins.sp, mod);
}

/* For handlers that read their own modifiers: stop on any word that is
 * not a type, a state space, a hint the decoder ignores, or in ok. */
static void only_mods(const DIns *d, Mods ok)
{
	const Spelling *sp = d->st->ins.sp;
	for (uint32_t i = 0; i < sp->nmods; i++)
		if (!mod_fine(sp->words[i], ok))
			rt_fail(d, RUN_UNSUPPORTED, "unsupported instruction '%s' (modifier '%s')",
				ins_text(d), sp->mods[i]);
}

static int cp_mbarrier_arrive(Thread *t, const DIns *d);

/* cp.async copies at once: nothing can observe the copy in flight
 * before the wait that the program must issue anyway. */
static int ex_cp(Thread *t, const DIns *d)
{
	only_mods(d, M(async) | M(commit_group) | M(wait_group) | M(wait_all) | M(mbarrier) |
		M(arrive) | M(noinc));
	if (has(d, MOD_mbarrier) && has(d, MOD_arrive))
		return cp_mbarrier_arrive(t, d);
	if (!has(d, MOD_async))
		bad_form(d);
	if (has(d, MOD_commit_group) || has(d, MOD_wait_group) || has(d, MOD_wait_all))
		return X_NEXT;
	if (d->space != SP_SHARED || d->space2 != SP_GLOBAL || (d->nops != 3 && d->nops != 4))
		bad_form(d);
	/* cp.async.ca.shared.global [dst], [src], size[, srcsize] */
	uint32_t size = (uint32_t)rd(t, &d->ops[2]);
	uint32_t src = d->nops == 4 ? (uint32_t)rd(t, &d->ops[3]) : size;
	if (src > size)
		src = size;
	uint8_t *dp = mem_ptr(t, SP_SHARED, addr_of(t, &d->ops[0]), size, d);
	uint8_t *sp = src ? mem_ptr(t, SP_GLOBAL, addr_of(t, &d->ops[1]), src, d) : NULL;
	if (src)
		memcpy(dp, sp, src);
	memset(dp + src, 0, size - src);
	return X_NEXT;
}

static int ex_nop(Thread *t, const DIns *d)
{
	return X_NEXT;
}

/* prefetch, prefetchu, applypriority, discard: cache hints, whatever
 * their space, level or priority words (the handlers take RAW_MODS), so
 * nothing for a machine without caches.  discard leaves the line's bytes
 * undefined; keeping them is one of the values it allows.  The operands
 * are still checked: an address, and for the sized ones, a size. */
static int ex_hint(Thread *t, const DIns *d)
{
	int code = d->st->ins.sp->code;
	int sized = code != O_prefetch && code != O_prefetchu;  /* [a], size */
	if (d->nops != 1 + sized || d->ops[0].kind != O_ADDR)
		bad_form(d);
	return X_NEXT;
}

/* ---- mbarrier ---- */

/* The object's 64 bits are opaque to the program; here they hold the
 * pending arrivals (bits 0-19), the expected count (20-39), the pending
 * transaction bytes (40-62) and the phase parity (63).  Copies finish as
 * they are issued, so a phase completes as soon as its counts reach 0. */
#define MB_FIELD(v, lo, n) (((v) >> (lo)) & ((1ull << (n)) - 1))

static uint64_t mb_make(uint64_t pend, uint64_t expect, uint64_t tx, uint64_t phase)
{
	return (pend & 0xFFFFF) | (expect & 0xFFFFF) << 20 | (tx & 0x7FFFFF) << 40 | phase << 63;
}

static uint64_t mb_settle(uint64_t v)
{
	uint64_t pend = MB_FIELD(v, 0, 20), expect = MB_FIELD(v, 20, 20), tx = MB_FIELD(v, 40, 23);
	uint64_t phase = v >> 63;
	if (pend == 0 && tx == 0)
		return mb_make(expect, expect, 0, phase ^ 1);
	return v;
}

static uint8_t *mb_ptr(Thread *t, const DIns *d, const Opnd *a)
{
	int sp = d->space ? d->space : SP_GENERIC;
	uint64_t addr = addr_of(t, a);
	if (addr % 8)
		rt_fail(d, RUN_FAULT, "misaligned mbarrier 0x%llx", (unsigned long long)addr);
	return mem_ptr(t, sp, addr, 8, d);
}

/* mbarrier.{init,inval,arrive[.expect_tx],arrive_drop,test_wait,try_wait[.parity]} */
static int ex_mbarrier(Thread *t, const DIns *d)
{
	int wait = has(d, MOD_test_wait) || has(d, MOD_try_wait);
	int init = has(d, MOD_init), inval = has(d, MOD_inval);
	int arrive = has(d, MOD_arrive), drop = has(d, MOD_arrive_drop);
	int etx = has(d, MOD_expect_tx);
	only_mods(d, M(init) | M(inval) | M(arrive) | M(arrive_drop) | M(expect_tx) |
		M(test_wait) | M(try_wait) | M(parity));
	if (has(d, MOD_shared_cluster) || (init + inval + arrive + drop + wait) != 1 ||
	    (etx && !(arrive || drop)))
		bad_form(d);
	uint64_t v;
	uint8_t *p;
	if (init || inval) {
		nops(d, init ? 2 : 1);
		p = mb_ptr(t, d, &d->ops[0]);
		v = init ? mb_make(rd(t, &d->ops[1]), rd(t, &d->ops[1]), 0, 0) : 0;
		memcpy(p, &v, 8);
		return X_NEXT;
	}
	if (wait) {
		/* p, [a], state | phaseParity (and an optional time limit) */
		if (d->nops < 3 || d->nops > 4)
			bad_form(d);
		p = mb_ptr(t, d, &d->ops[1]);
		memcpy(&v, p, 8);
		uint64_t want = has(d, MOD_parity) ? rd(t, &d->ops[2]) & 1 : rd(t, &d->ops[2]) >> 63;
		wr(t, &d->ops[0], (v >> 63) != want);
		return X_NEXT;
	}
	/* [state,] [a] [, count | txcount] */
	int hasstate = d->ops[0].kind != O_ADDR;
	const Opnd *a = &d->ops[hasstate];
	uint64_t count = 1, tx = 0;
	if (d->nops == hasstate + 2) {
		if (etx)
			tx = rd(t, &d->ops[hasstate + 1]);
		else
			count = rd(t, &d->ops[hasstate + 1]);
	} else if (d->nops != hasstate + 1)
		bad_form(d);
	p = mb_ptr(t, d, a);
	memcpy(&v, p, 8);
	if (hasstate)
		wr(t, &d->ops[0], v & (1ull << 63));
	uint64_t pend = MB_FIELD(v, 0, 20), expect = MB_FIELD(v, 20, 20);
	if (count > pend)
		rt_fail(d, RUN_FAULT, "mbarrier arrivals exceed its expected count");
	v = mb_make(pend - count, expect - (drop ? count : 0), MB_FIELD(v, 40, 23) + tx, v >> 63);
	v = mb_settle(v);
	memcpy(p, &v, 8);
	return X_NEXT;
}

/* cp.async.mbarrier.arrive[.noinc]: the copies are done already; without
 * .noinc the pending count goes up by one and the arrival takes it back. */
static int cp_mbarrier_arrive(Thread *t, const DIns *d)
{
	nops(d, 1);
	uint8_t *p = mb_ptr(t, d, &d->ops[0]);
	uint64_t v;
	memcpy(&v, p, 8);
	if (has(d, MOD_noinc)) {
		uint64_t pend = MB_FIELD(v, 0, 20);
		if (!pend)
			rt_fail(d, RUN_FAULT, "mbarrier arrivals exceed its expected count");
		v = mb_settle(mb_make(pend - 1, MB_FIELD(v, 20, 20), MB_FIELD(v, 40, 23), v >> 63));
		memcpy(p, &v, 8);
	}
	return X_NEXT;
}

/* ---- control ---- */

static int ex_bra(Thread *t, const DIns *d)
{
	nops(d, 1);
	if (d->ops[0].kind != O_LABEL)
		bad_form(d);
	top(t)->pc = d->ops[0].reg;
	return X_JUMP;
}

static int ex_brx(Thread *t, const DIns *d)
{
	nops(d, 2);
	if (d->ops[1].kind != O_LABELS || !(d->mods & M(idx)))
		bad_form(d);
	uint32_t i = (uint32_t)rd(t, &d->ops[0]);
	if (i >= d->ops[1].n)
		rt_fail(d, RUN_FAULT, "brx.idx index %u out of range", i);
	top(t)->pc = d->ops[1].kids[i].reg;
	return X_JUMP;
}

static void grow_regs(Thread *t, uint32_t need)
{
	if (need <= t->regcap)
		return;
	uint32_t n = t->regcap ? t->regcap : 256;
	while (n < need)
		n *= 2;
	t->regs = xreallocarray(t->regs, n, sizeof *t->regs);
	t->regcap = n;
}

/* A new frame: registers zeroed (reads of unset registers are then
 * deterministic), the function's .local and .param areas pushed. */
int push_frame(Thread *t, DFunc *fn, const DIns *call)
{
	decode_func(fn);
	if (t->depth == t->frcap) {
		t->frcap = t->frcap ? t->frcap * 2 : 8;
		t->fr = xreallocarray(t->fr, t->frcap, sizeof *t->fr);
	}
	if (t->depth >= 4096)
		rt_fail(call, RUN_FAULT, "call stack overflow");
	Frame *f = &t->fr[t->depth];
	f->fn = fn;
	f->pc = 0;
	f->call = call;
	f->regbase = t->depth ? t->fr[t->depth - 1].regbase + t->fr[t->depth - 1].fn->nregs : 0;
	grow_regs(t, f->regbase + fn->nregs + 1);
	memset(t->regs + f->regbase, 0, fn->nregs * sizeof *t->regs);
	f->lbase = stack_push(&t->lmem, &t->lsp, &t->lcap, fn->lsize, fn->lalign, M->stack_limit);
	f->pbase = stack_push(&t->pmem, &t->psp, &t->pcap, fn->psize, 16, PARAM_STACK);
	if (f->lbase == UINT32_MAX || f->pbase == UINT32_MAX)
		rt_fail(call, RUN_FAULT, "local memory stack overflow");
	t->depth++;
	t->r = t->regs + f->regbase;
	return 0;
}

/* Moves an argument (a .param variable, register or constant) into the
 * callee's .param slot, or a result back. */
static void copy_param(Thread *t, Thread *dummy, const Opnd *o, uint8_t *slot, uint32_t size,
	int to_callee, const DIns *d)
{
	if (o->kind == O_FRAME && o->space == SP_PARAM) {
		uint64_t a = MK_ADDR(TAG_FPARAM, t->gid, t->fr[t->depth - (to_callee ? 2 : 1)].pbase + o->val);
		uint8_t *p = mem_ptr(t, SP_PARAM, a, size, d);
		if (to_callee)
			memcpy(slot, p, size);
		else
			memcpy(p, slot, size);
		return;
	}
	if (o->kind == O_REG || (o->kind == O_IMM && to_callee)) {
		if (size > 8)
			bad_form(d);
		if (to_callee) {
			uint64_t v = rd(t, o);  /* caller's registers: see ex_call */
			memcpy(slot, &v, size);
		} else {
			uint64_t v = 0;
			memcpy(&v, slot, size);
			t->r[o->reg] = v;
		}
		return;
	}
	bad_form(d);
}

/* An indirect call's callee against its .calltargets list or
 * prototype: another is undefined in PTX. */
static void check_callee(const DIns *d, DFunc *fn)
{
	const Opnd *o = &d->ops[3];
	if (o->kind == O_LABELS) {
		for (uint32_t i = 0; i < o->n; i++)
			if (o->kids[i].reg == fn->idx)
				return;
		rt_fail(d, RUN_FAULT, "indirect call of '%s', which its .calltargets list does not name",
			fn->name);
	}
	decode_func(fn);
	int same = o->val == fn->nrets && o->n - o->val == fn->nparams;
	for (uint32_t k = 0; same && k < o->n; k++) {
		uint32_t size = k < o->val ? fn->rsz[k] : fn->psz[k - o->val];
		same = o->kids[k].val == size;
	}
	if (!same)
		rt_fail(d, RUN_FAULT, "indirect call of '%s', whose signature is not the call's prototype",
			fn->name);
}

static int ex_call(Thread *t, const DIns *d)
{
	const Opnd *rets = &d->ops[0], *tgt = &d->ops[1], *args = &d->ops[2];
	DFunc *fn = tgt->kind == O_FUNC ? M->funcs[tgt->reg] : func_at(rd(t, tgt));
	M->ncalls++;
	if (!fn)
		rt_fail(d, RUN_FAULT, "indirect call through 0x%llx, not a function address",
			(unsigned long long)rd(t, tgt));
	if (d->nops == 4 && tgt->kind != O_FUNC)
		check_callee(d, fn);
	if (fn->builtin)
		return ex_call_builtin(t, d, fn);
	if (!fn->f->has_body)
		rt_fail(d, RUN_UNSUPPORTED, "call to '%s', which has no body", fn->name);
	if (fn->f->is_entry)
		rt_fail(d, RUN_UNSUPPORTED, "call of the kernel '%s'", fn->name);
	decode_func(fn);
	if (args->n != fn->nparams || rets->n > fn->nrets)
		rt_fail(d, RUN_FAULT, "call of '%s' with %u arguments, %u results; it takes %u, %u",
			fn->name, args->n, rets->n, fn->nparams, fn->nrets);
	/* immediates and registers are read before the callee's frame hides them */
	uint64_t early[32];
	for (uint32_t i = 0; i < args->n && i < 32; i++)
		early[i] = rd(t, &args->kids[i]);
	push_frame(t, fn, d);
	Frame *f = top(t);
	for (uint32_t i = 0; i < args->n; i++) {
		if (fn->psz[i] == UINT32_MAX)
			bad_form(d);
		uint8_t *slot = t->pmem + f->pbase + fn->poff[i];
		const Opnd *a = &args->kids[i];
		if (a->kind == O_REG || a->kind == O_IMM) {
			if (fn->psz[i] > 8 || i >= 32)
				bad_form(d);
			memcpy(slot, &early[i], fn->psz[i]);
		} else
			copy_param(t, NULL, a, slot, fn->psz[i], 1, d);
	}
	return X_JUMP;
}

/* Returns from a frame: results go to the caller's .param variables. */
static int ex_ret(Thread *t, const DIns *d)
{
	Frame f = *top(t);
	if (t->depth == 1) {
		thread_exit(t);
		return X_WAIT;
	}
	const DIns *call = f.call;
	const Opnd *rets = &call->ops[0];
	t->depth--;
	t->r = t->regs + top(t)->regbase;
	for (uint32_t i = 0; i < rets->n; i++) {
		uint8_t *slot = t->pmem + f.pbase + f.fn->roff[i];
		copy_param(t, NULL, &rets->kids[i], slot, f.fn->rsz[i], 0, call);
	}
	t->lsp = f.lbase;
	t->psp = f.pbase;
	return X_JUMP;
}

static int ex_exit(Thread *t, const DIns *d)
{
	thread_exit(t);
	return X_WAIT;
}

static int ex_trap(Thread *t, const DIns *d)
{
	rt_fail(d, RUN_FAULT, "trap");
}

/* alloca ptr, size{, align}: size bytes on the thread's local stack,
 * above the frame (and any callee's frame goes above them).  ret gives
 * them back with the frame, stackrestore to where stacksave was; what is
 * allocated again is zeroed, as all memory is. */
static int ex_alloca(Thread *t, const DIns *d)
{
	int ty = ty0(d);
	if (d->nops != 2)
		nops(d, 3);
	uint64_t size = zx(rd(t, &d->ops[1]), ty_bits(ty));
	uint64_t align = d->nops == 3 ? zx(rd(t, &d->ops[2]), 32) : 8;
	if (!align || (align & (align - 1)) || align > (1u << 23))
		rt_fail(d, RUN_FAULT, "alloca alignment %llu is not a power of 2 up to 2^23",
			(unsigned long long)align);
	uint32_t at = stack_push(&t->lmem, &t->lsp, &t->lcap, size, (uint32_t)align, M->stack_limit);
	if (at == UINT32_MAX)
		rt_fail(d, RUN_FAULT, "local memory stack overflow: alloca of %llu bytes with %u of "
			"the thread's %u in use (--stack)", (unsigned long long)size, t->lsp,
			M->stack_limit);
	wr(t, &d->ops[0], at);
	return X_NEXT;
}

static int ex_stacksave(Thread *t, const DIns *d)
{
	nops(d, 1);
	wr(t, &d->ops[0], t->lsp);
	return X_NEXT;
}

/* Only back to a point of this frame's own allocations: anything else
 * would free a caller's memory, or hand out memory never allocated. */
static int ex_stackrestore(Thread *t, const DIns *d)
{
	nops(d, 1);
	uint64_t a = zx(rd(t, &d->ops[0]), ty_bits(ty0(d)));
	uint64_t floor = top(t)->lbase + top(t)->fn->lsize;
	if (a < floor || a > t->lsp)
		rt_fail(d, RUN_FAULT, "stackrestore to 0x%llx, outside this frame's allocations "
			"(0x%llx..0x%x)", (unsigned long long)a, (unsigned long long)floor, t->lsp);
	t->lsp = (uint32_t)a;
	return X_NEXT;
}

static int ex_brkpt(Thread *t, const DIns *d)
{
	rt_fail(d, RUN_FAULT, "brkpt");
}

/* mapa[.shared::cluster].{u32,u64} d, a, rank: a's variable in the
 * window of the cluster's block of that rank (see SHARED_MAX). */
static int ex_mapa(Thread *t, const DIns *d)
{
	nops(d, 3);
	uint64_t a = rd(t, &d->ops[1]), r = zx(rd(t, &d->ops[2]), 32), off;
	if (r >= M->nblocks)
		rt_fail(d, RUN_FAULT, "mapa to block rank %llu of a cluster of %u", (unsigned long long)r,
			M->nblocks);
	if (d->space == SP_SHARED)
		off = (uint32_t)a & (SHARED_MAX - 1);
	else if (!d->space && mem_to_space(t, SP_SHARED, a, &off))
		off &= SHARED_MAX - 1;
	else
		rt_fail(d, RUN_FAULT, "mapa of 0x%llx, not a shared address", (unsigned long long)a);
	uint64_t v = (r + 1) << 24 | off;
	wr(t, &d->ops[0], d->space ? v : mem_generic(t, SP_SHARED, v));
	return X_NEXT;
}

/* ---- the table ---- */

#define IGN_ALL (M(sync) | M(aligned))
static const Handler handlers[O_UNKNOWN + 1] = {
	[O_abs] = {ex_abs, NULL, M(ftz) | M(relu)},
	[O_activemask] = {NULL, wx_activemask, 0},
	[O_alloca] = {ex_alloca, NULL, 0},
	[O_add] = {ex_add, NULL, M(sat) | M(cc) | M(ftz)},
	[O_addc] = {ex_add, NULL, M(cc)},
	[O_and] = {ex_and, NULL, 0},
	[O_applypriority] = {ex_hint, NULL, RAW_MODS},
	[O_atom] = {ex_atom, NULL, M(add) | M(min) | M(max) | M(inc) | M(dec) | M(and) | M(or) |
		M(xor) | M(exch) | M(cas) | M(noftz) | M(ftz)},
	[O_bar] = {ex_bar, NULL, IGN_ALL | M(warp) | M(arrive) | M(red) | M(popc) | M(and) | M(or)},
	[O_barrier] = {ex_bar, NULL, IGN_ALL | M(arrive) | M(red) | M(popc) | M(and) | M(or)},
	[O_bfe] = {ex_bfe, NULL, 0},
	[O_bfi] = {ex_bfi, NULL, 0},
	[O_bfind] = {ex_bfind, NULL, M(shiftamt)},
	[O_bmsk] = {ex_bmsk, NULL, M(clamp) | M(wrap)},
	[O_bra] = {ex_bra, NULL, M(uni)},
	[O_brev] = {ex_brev, NULL, 0},
	[O_brkpt] = {ex_brkpt, NULL, 0},
	[O_brx] = {ex_brx, NULL, M(idx) | M(uni)},
	[O_call] = {ex_call, NULL, M(uni)},
	[O_stackrestore] = {ex_stackrestore, NULL, 0},
	[O_stacksave] = {ex_stacksave, NULL, 0},
	[O_clz] = {ex_clz, NULL, 0},
	[O_cnot] = {ex_cnot, NULL, 0},
	[O_copysign] = {ex_funary, NULL, 0},
	[O_cos] = {ex_funary, NULL, M(approx) | M(ftz)},
	[O_cp] = {ex_cp, NULL, RAW_MODS},
	[O_cvt] = {ex_cvt, NULL, M(ftz) | M(sat) | M(relu) | M(satfinite)},
	[O_cvta] = {ex_cvta, NULL, M(to)},
	[O_discard] = {ex_hint, NULL, RAW_MODS},
	[O_div] = {ex_div, NULL, M(approx) | M(full) | M(ftz)},
	[O_dp2a] = {ex_dot, NULL, M(lo) | M(hi)},
	[O_dp4a] = {ex_dot, NULL, 0},
	[O_ex2] = {ex_funary, NULL, M(approx) | M(ftz)},
	[O_exit] = {ex_exit, NULL, 0},
	[O_fence] = {ex_nop, NULL, 0},
	[O_fma] = {ex_ffma, NULL, M(ftz) | M(sat) | M(relu)},
	[O_fns] = {ex_fns, NULL, 0},
	[O_isspacep] = {ex_isspacep, NULL, 0},
	[O_ld] = {ex_ld, NULL, M(cache_hint)},
	[O_ldmatrix] = {NULL, wx_wmma, RAW_MODS},
	[O_ldu] = {ex_ld, NULL, 0},
	[O_lg2] = {ex_funary, NULL, M(approx) | M(ftz)},
	[O_lop3] = {ex_lop3, NULL, M(and) | M(or)},
	[O_mad] = {ex_mad, NULL, M(lo) | M(hi) | M(wide) | M(sat) | M(cc) | M(ftz)},
	[O_mad24] = {ex_mul24, NULL, M(lo) | M(hi) | M(sat)},
	[O_madc] = {ex_mad, NULL, M(lo) | M(hi) | M(cc)},
	[O_mapa] = {ex_mapa, NULL, 0},
	[O_match] = {NULL, wx_match, M(any) | M(all) | M(sync)},
	[O_max] = {ex_max, NULL, M(ftz) | M(NaN) | M(xorsign) | M(abs) | M(relu)},
	[O_mbarrier] = {ex_mbarrier, NULL, RAW_MODS},
	[O_membar] = {ex_nop, NULL, 0},
	[O_min] = {ex_min, NULL, M(ftz) | M(NaN) | M(xorsign) | M(abs) | M(relu)},
	[O_mma] = {NULL, wx_wmma, RAW_MODS},
	[O_mov] = {ex_mov, NULL, 0},
	[O_mul] = {ex_mul, NULL, M(lo) | M(hi) | M(wide) | M(ftz) | M(sat)},
	[O_mul24] = {ex_mul24, NULL, M(lo) | M(hi)},
	[O_nanosleep] = {ex_nop, NULL, 0},
	[O_neg] = {ex_neg, NULL, M(ftz)},
	[O_not] = {ex_not, NULL, 0},
	[O_or] = {ex_or, NULL, 0},
	[O_pmevent] = {ex_nop, NULL, 0},
	[O_popc] = {ex_popc, NULL, 0},
	[O_prefetch] = {ex_hint, NULL, RAW_MODS},
	[O_prefetchu] = {ex_hint, NULL, RAW_MODS},
	[O_prmt] = {ex_prmt, NULL, M(f4e) | M(b4e) | M(rc8) | M(ecl) | M(ecr) | M(rc16)},
	[O_rcp] = {ex_funary, NULL, M(approx) | M(ftz)},
	[O_red] = {ex_red, NULL, M(add) | M(min) | M(max) | M(inc) | M(dec) | M(and) | M(or) |
		M(xor) | M(noftz) | M(ftz)},
	[O_redux] = {NULL, wx_redux, M(sync) | M(add) | M(min) | M(max) | M(and) | M(or) | M(xor)},
	[O_rem] = {ex_rem, NULL, 0},
	[O_ret] = {ex_ret, NULL, M(uni)},
	[O_rsqrt] = {ex_funary, NULL, M(approx) | M(ftz)},
	[O_sad] = {ex_sad, NULL, 0},
	[O_selp] = {ex_selp, NULL, 0},
	[O_set] = {ex_set, NULL, M(ftz) | M(and) | M(or) | M(xor)},
	[O_setmaxnreg] = {ex_nop, NULL, M(inc) | M(dec) | IGN_ALL},
	[O_setp] = {ex_setp, NULL, M(ftz) | M(and) | M(or) | M(xor)},
	[O_shf] = {ex_shf, NULL, M(l) | M(r) | M(wrap) | M(clamp)},
	[O_shfl] = {NULL, wx_shfl, M(sync) | M(up) | M(down) | M(bfly) | M(idx)},
	[O_shl] = {ex_shl, NULL, 0},
	[O_shr] = {ex_shr, NULL, 0},
	[O_sin] = {ex_funary, NULL, M(approx) | M(ftz)},
	[O_slct] = {ex_slct, NULL, M(ftz)},
	[O_sqrt] = {ex_funary, NULL, M(approx) | M(ftz)},
	[O_st] = {ex_st, NULL, M(cache_hint)},
	[O_sub] = {ex_sub, NULL, M(sat) | M(cc) | M(ftz)},
	[O_subc] = {ex_sub, NULL, M(cc)},
	[O_szext] = {ex_szext, NULL, M(clamp) | M(wrap)},
	[O_tanh] = {ex_funary, NULL, M(approx)},
	[O_testp] = {ex_funary, NULL, M(finite) | M(infinite) | M(number) | M(notanumber) |
		M(normal) | M(subnormal)},
	[O_trap] = {ex_trap, NULL, 0},
	[O_vabsdiff] = {ex_vscalar, NULL, M(sat) | M(add) | M(min) | M(max)},
	[O_vabsdiff2] = {ex_vsimd, NULL, M(sat) | M(add)},
	[O_vabsdiff4] = {ex_vsimd, NULL, M(sat) | M(add)},
	[O_vadd] = {ex_vscalar, NULL, M(sat) | M(add) | M(min) | M(max)},
	[O_vadd2] = {ex_vsimd, NULL, M(sat) | M(add)},
	[O_vadd4] = {ex_vsimd, NULL, M(sat) | M(add)},
	[O_vavrg2] = {ex_vsimd, NULL, M(sat) | M(add)},
	[O_vavrg4] = {ex_vsimd, NULL, M(sat) | M(add)},
	[O_vmad] = {ex_vmad, NULL, M(sat) | M(po) | M(shr7) | M(shr15)},
	[O_vmax] = {ex_vscalar, NULL, M(sat) | M(add) | M(min) | M(max)},
	[O_vmax2] = {ex_vsimd, NULL, M(sat) | M(add)},
	[O_vmax4] = {ex_vsimd, NULL, M(sat) | M(add)},
	[O_vmin] = {ex_vscalar, NULL, M(sat) | M(add) | M(min) | M(max)},
	[O_vmin2] = {ex_vsimd, NULL, M(sat) | M(add)},
	[O_vmin4] = {ex_vsimd, NULL, M(sat) | M(add)},
	[O_vote] = {NULL, wx_vote, M(sync) | M(all) | M(any) | M(uni) | M(ballot)},
	[O_vset] = {ex_vscalar, NULL, M(add) | M(min) | M(max)},
	[O_vset2] = {ex_vsimd, NULL, M(add)},
	[O_vset4] = {ex_vsimd, NULL, M(add)},
	[O_vshl] = {ex_vscalar, NULL, M(sat) | M(add) | M(min) | M(max) | M(clamp) | M(wrap)},
	[O_vshr] = {ex_vscalar, NULL, M(sat) | M(add) | M(min) | M(max) | M(clamp) | M(wrap)},
	[O_vsub] = {ex_vscalar, NULL, M(sat) | M(add) | M(min) | M(max)},
	[O_vsub2] = {ex_vsimd, NULL, M(sat) | M(add)},
	[O_vsub4] = {ex_vsimd, NULL, M(sat) | M(add)},
	[O_wmma] = {NULL, wx_wmma, RAW_MODS},
	[O_xor] = {ex_xor, NULL, 0},
};

/* barrier.cluster is a different barrier from barrier's. */
const Handler *handler_for(const Spelling *sp)
{
	static const Handler barcluster = {ex_barcluster, NULL, RAW_MODS};
	const Handler *h = handler_of(sp->code);
	if (h && h->fn == ex_bar && spelling_has(sp, MOD_cluster))
		return &barcluster;
	return h;
}

/* The table is indexed by the opcode enum: a row for an opcode the IR does
 * not know cannot be written. */
const Handler *handler_of(int code)
{
	const Handler *h = &handlers[code];
	return h->fn || h->wfn ? h : NULL;
}
