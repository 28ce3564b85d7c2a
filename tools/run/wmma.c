/* wmma: warp-wide matrix load, store and multiply-accumulate.
 *
 * PTX leaves the fragment layout (which lane's register holds which
 * matrix element) unspecified, and code may only load, store, fill or
 * apply the same operation to every element.  So any fixed layout that
 * load, mma and store agree on gives the results the hardware gives.
 * Here the warp's fragment slots are numbered lane by lane, register by
 * register (slot = lane * per_lane + i), and slot s holds element
 * s mod (rows * cols) of the matrix in row-major order; where a fragment
 * has more slots than the matrix has elements (f16 A and B of m16n16k16),
 * each element is held twice.  Products are accumulated in double (in
 * int64 for integers) in k order and rounded once to the destination
 * type: PTX does not define the order or intermediate rounding.
 *
 * mma.sync and ldmatrix, unlike wmma, have layouts PTX defines: lane
 * l = 4 * group + t holds fixed elements of each matrix (mma_pos), and
 * ldmatrix gives lane l the pair at row l / 4, columns 2 * (l % 4) + 0..1
 * of each 8x8 matrix, whose rows come from the addresses of lanes 8i..8i+7.
 * Their products are summed as wmma's are.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "run.h"

typedef struct Frag {
	int rows, cols;   /* of the matrix */
	int ty;           /* element type */
	int ebits;        /* element bits */
	int per;          /* elements a register holds */
	int nregs;        /* registers per lane */
} Frag;

static _Noreturn void bad(const DIns *d)
{
	rt_fail(d, RUN_UNSUPPORTED, "unsupported instruction '%s'", ins_text(d));
}

static int has(const DIns *d, int mod)
{
	return spelling_has(d->st->ins.sp, mod);
}

static int is_m8n8(const Spelling *sp)
{
	return sp->shape[0] == 8 && sp->shape[1] == 8 && !sp->shape[2];
}

/* Every modifier must be one this file reads, a type, a space or a hint:
 * wmma and mma take an .mMnNkK shape and .rn, ldmatrix .m8n8. */
static void check_mods(const DIns *d)
{
	const Spelling *sp = d->st->ins.sp;
	int ldm = sp->code == O_ldmatrix;
	Mods ok = ldm ? M(sync) | M(aligned) | M(x1) | M(x2) | M(x4) | M(trans) :
		M(load) | M(store) | M(mma) | M(a) | M(b) | M(c) | M(d) | M(sync) | M(aligned) |
		M(row) | M(col) | M(satfinite);
	for (uint32_t i = 0; i < sp->nmods; i++) {
		ModWord w = sp->words[i];
		int fine = mod_fine(w, ok) || (!ldm && w.kind == MW_RND && w.id == RND_RN) ||
			(w.kind == MW_SHAPE && (ldm ? is_m8n8(sp) : w.id == 3));
		if (!fine)
			rt_fail(d, RUN_UNSUPPORTED, "unsupported instruction '%s' (modifier '%s')",
				ins_text(d), sp->mods[i]);
	}
}

static uint64_t address(Thread *t, const DIns *d, const Opnd *o)
{
	if (o->kind != O_ADDR)
		bad(d);
	return (o->kids[0].kind == O_NONE ? 0 : rd(t, &o->kids[0])) + o->val;
}

/* m16n16k16 and friends */
static int shape(const DIns *d, int *m, int *n, int *k)
{
	const Spelling *sp = d->st->ins.sp;
	*m = sp->shape[0];
	*n = sp->shape[1];
	*k = sp->shape[2];
	return *k != 0;
}

static int elem_bits(int ty)
{
	switch (ty) {
	case TY_F16: case TY_BF16: return 16;
	case TY_S8: case TY_U8: return 8;
	case TY_F64: return 64;
	case TY_TF32: case TY_F32: case TY_S32: return 32;
	}
	return 0;
}

/* The fragment of matrix which ('a', 'b', 'c') with elements of ty. */
static Frag frag(const DIns *d, char which, int ty, int nregs)
{
	int m, n, k;
	Frag f = {0};
	if (!shape(d, &m, &n, &k) || !(f.ebits = elem_bits(ty)))
		bad(d);
	f.rows = which == 'b' ? k : m;
	f.cols = which == 'a' ? k : n;
	f.ty = ty;
	f.per = f.ebits == 64 ? 1 : 32 / f.ebits;
	f.nregs = nregs;
	if ((32 * nregs * f.per) % (f.rows * f.cols))
		bad(d);  /* not a whole number of copies of the matrix */
	return f;
}

static double get_elem(const Frag *f, uint64_t bits)
{
	switch (f->ty) {
	case TY_F16: return h2f((uint16_t)bits);
	case TY_BF16: return bf2f((uint16_t)bits);
	case TY_S8: return (int8_t)bits;
	case TY_U8: return (uint8_t)bits;
	case TY_S32: return (int32_t)bits;
	case TY_F64: { double x; memcpy(&x, &bits, 8); return x; }
	}
	/* f32 and tf32 (an f32 whose low mantissa bits are ignored) */
	uint32_t u = (uint32_t)bits;
	if (f->ty == TY_TF32)
		u &= 0xFFFFE000u;
	float x;
	memcpy(&x, &u, 4);
	return x;
}

static uint64_t put_elem(const Frag *f, double v, int sat)
{
	switch (f->ty) {
	case TY_F16: return d2h(v, RND_RN);
	case TY_F64: { uint64_t u; memcpy(&u, &v, 8); return u; }
	case TY_S32:
		if (sat)
			v = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
		return (uint32_t)(int32_t)(int64_t)v;
	}
	float x = (float)v;
	uint32_t u;
	memcpy(&u, &x, 4);
	return isnan(x) ? 0x7FFFFFFFu : u;
}

/* The bits of slot i (of this lane) in its register vector. */
static uint64_t slot_get(Thread *t, const Opnd *vec, const Frag *f, int i)
{
	uint64_t r = rd(t, &vec->kids[i / f->per]);
	int sh = (i % f->per) * f->ebits;
	return f->ebits == 64 ? r : (r >> sh) & ((1ull << f->ebits) - 1);
}

static void slot_put(Thread *t, const Opnd *vec, const Frag *f, int i, uint64_t v)
{
	const Opnd *o = &vec->kids[i / f->per];
	if (f->ebits == 64 || f->per == 1) {
		wr(t, o, v);
		return;
	}
	int sh = (i % f->per) * f->ebits;
	uint64_t m = ((1ull << f->ebits) - 1) << sh;
	uint64_t old = o->kind == O_REG ? t->r[o->reg] : 0;
	wr(t, o, (old & ~m) | (v << sh & m));
}

static const Opnd *vec_of(const DIns *d, int i, int nregs)
{
	if (i >= d->nops || d->ops[i].kind != O_VEC || (nregs && (int)d->ops[i].n != nregs))
		bad(d);
	return &d->ops[i];
}

/* Byte offset of element (r, c) in memory of the given layout. */
static uint64_t elem_offset(const Frag *f, int r, int c, int col_major, uint64_t ldm)
{
	uint64_t idx = col_major ? (uint64_t)c * ldm + r : (uint64_t)r * ldm + c;
	return idx * (uint64_t)(f->ebits / 8);
}

/* wmma.load.{a,b,c}.sync.aligned.layout.shape[.space].type r, [p][, stride] */
static void wmma_load(Warp *w, const DIns *d, char which)
{
	int ty = d->nty ? d->ty[0] : TY_NONE;
	Frag f = frag(d, which, ty, (int)vec_of(d, 0, 0)->n);
	int colmaj = has(d, MOD_col), n = f.nregs * f.per, total = f.rows * f.cols;
	if (colmaj == has(d, MOD_row) || (d->nops != 2 && d->nops != 3))
		bad(d);
	for (int l = 0; l < 32; l++) {
		Thread *t = w->lane[l];
		uint64_t base = address(t, d, &d->ops[1]);
		uint64_t ldm = d->nops == 3 ? rd(t, &d->ops[2]) & 0xFFFFFFFF : (uint64_t)(colmaj ? f.rows : f.cols);
		for (int i = 0; i < n; i++) {
			int e = (l * n + i) % total;
			uint64_t a = base + elem_offset(&f, e / f.cols, e % f.cols, colmaj, ldm);
			slot_put(t, &d->ops[0], &f, i, mem_load(t, d->space ? d->space : SP_GENERIC, a,
				(uint32_t)f.ebits / 8, d));
		}
	}
}

/* wmma.store.d.sync.aligned.layout.shape[.space].type [p], r[, stride] */
static void wmma_store(Warp *w, const DIns *d)
{
	int ty = d->nty ? d->ty[0] : TY_NONE;
	Frag f = frag(d, 'c', ty, (int)vec_of(d, 1, 0)->n);
	int colmaj = has(d, MOD_col), n = f.nregs * f.per, total = f.rows * f.cols;
	if (colmaj == has(d, MOD_row) || (d->nops != 2 && d->nops != 3))
		bad(d);
	for (int l = 0; l < 32; l++) {
		Thread *t = w->lane[l];
		uint64_t base = address(t, d, &d->ops[0]);
		uint64_t ldm = d->nops == 3 ? rd(t, &d->ops[2]) & 0xFFFFFFFF : (uint64_t)(colmaj ? f.rows : f.cols);
		for (int i = 0; i < n && l * n + i < total; i++) {
			int e = l * n + i;
			uint64_t a = base + elem_offset(&f, e / f.cols, e % f.cols, colmaj, ldm);
			mem_store(t, d->space ? d->space : SP_GENERIC, a, (uint32_t)f.ebits / 8,
				slot_get(t, &d->ops[1], &f, i), d);
		}
	}
}

/* The matrix element e of a fragment spread over the warp. */
static double gather(Warp *w, const Opnd *vec, const Frag *f, int e)
{
	int n = f->nregs * f->per;
	return get_elem(f, slot_get(w->lane[e / n], vec, f, e % n));
}

static int mma_types(const DIns *d, int *dt, int *at, int *bt, int *ct)
{
	if (d->nty == 2) {  /* .dtype.ctype: f16 inputs */
		*dt = d->ty[0];
		*ct = d->ty[1];
		*at = *bt = TY_F16;
		return 1;
	}
	if (d->nty != 4)
		return 0;
	*dt = d->ty[0];
	*at = d->ty[1];
	*bt = d->ty[2];
	*ct = d->ty[3];
	return 1;
}

/* wmma.mma.sync.aligned.alayout.blayout.shape.types d, a, b, c */
static void wmma_mma(Warp *w, const DIns *d)
{
	int dt, at, bt, ct, m, n, k;
	if (!mma_types(d, &dt, &at, &bt, &ct) || d->nops != 4 || !shape(d, &m, &n, &k))
		bad(d);
	Frag fa = frag(d, 'a', at, (int)vec_of(d, 1, 0)->n);
	Frag fb = frag(d, 'b', bt, (int)vec_of(d, 2, 0)->n);
	Frag fc = frag(d, 'c', ct, (int)vec_of(d, 3, 0)->n);
	Frag fd = frag(d, 'c', dt, (int)vec_of(d, 0, 0)->n);
	double out[64 * 64];
	if (m * n > 64 * 64)
		bad(d);
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			double acc = gather(w, &d->ops[3], &fc, i * n + j);
			for (int x = 0; x < k; x++)
				acc += gather(w, &d->ops[1], &fa, i * k + x) *
					gather(w, &d->ops[2], &fb, x * n + j);
			out[i * n + j] = acc;
		}
	int per_lane = fd.nregs * fd.per, sat = has(d, MOD_satfinite);
	for (int l = 0; l < 32; l++)
		for (int i = 0; i < per_lane; i++)
			slot_put(w->lane[l], &d->ops[0], &fd, i,
				put_elem(&fd, out[(l * per_lane + i) % (m * n)], sat));
}

/* ---- mma.sync and ldmatrix ---- */

/* Row and column of slot i of a lane's m16n8kK fragment (which 'a', 'b'
 * or 'c'), as PTX lays them out: group g = lane / 4 and t = lane % 4;
 * register r holds f->per consecutive elements along k (a, b) or n (c). */
static void mma_pos(const Frag *f, char which, int lane, int i, int *row, int *col)
{
	int g = lane >> 2, t = lane & 3, r = i / f->per, j = i % f->per;
	if (which == 'a') {
		*row = g + 8 * (r & 1);
		*col = t * f->per + j + (r >> 1) * 4 * f->per;
	} else if (which == 'b') {
		*row = t * f->per + j + r * 4 * f->per;
		*col = g;
	} else {
		*row = g + 8 * (i >> 1);
		*col = 2 * t + (i & 1);
	}
}

/* The whole matrix of a fragment spread over the warp, row-major. */
static void mma_gather(Warp *w, const Opnd *vec, const Frag *f, char which, double *out)
{
	int row, col;
	for (int l = 0; l < 32; l++)
		for (int i = 0; i < f->nregs * f->per; i++) {
			mma_pos(f, which, l, i, &row, &col);
			out[row * f->cols + col] = get_elem(f, slot_get(w->lane[l], vec, f, i));
		}
}

/* The m16n8kK fragment of matrix which: its register count must be the
 * one PTX gives the shape and type. */
static Frag mma_frag(const DIns *d, char which, int ty, int opi)
{
	Frag f = frag(d, which, ty, (int)vec_of(d, opi, 0)->n);
	if (f.ebits > 32 || f.nregs * f.per * 32 != f.rows * f.cols ||
	    (which == 'c' && f.per > 2))
		bad(d);
	return f;
}

/* The input pairs PTX allows, with their accumulators: f16 (f16 or f32),
 * bf16 and tf32 (f32), s8 and u8 in any mix (s32). */
static int mma_types_ok(int at, int bt, int acc)
{
	int i8 = (at == TY_S8 || at == TY_U8) && (bt == TY_S8 || bt == TY_U8);
	if (i8)
		return acc == TY_S32;
	if (at != bt || (at != TY_F16 && at != TY_BF16 && at != TY_TF32))
		return 0;
	return acc == TY_F32 || (acc == TY_F16 && at == TY_F16);
}

/* mma.sync.aligned.m16n8kK.row.col[.satfinite].dtype.atype.btype.ctype d, a, b, c */
static void mma_sync(Warp *w, const DIns *d)
{
	int m, n, k, dt = d->ty[0], at = d->ty[1], bt = d->ty[2], ct = d->ty[3];
	if (d->nty != 4 || d->nops != 4 || !shape(d, &m, &n, &k) || m != 16 || n != 8 ||
	    k > 32 || !has(d, MOD_row) || !has(d, MOD_col))
		bad(d);
	Frag fa = mma_frag(d, 'a', at, 1), fb = mma_frag(d, 'b', bt, 2);
	Frag fc = mma_frag(d, 'c', ct, 3), fd = mma_frag(d, 'c', dt, 0);
	if (!mma_types_ok(at, bt, ct) || !mma_types_ok(at, bt, dt))
		bad(d);
	double a[16 * 32], b[32 * 8], c[16 * 8];
	mma_gather(w, &d->ops[1], &fa, 'a', a);
	mma_gather(w, &d->ops[2], &fb, 'b', b);
	mma_gather(w, &d->ops[3], &fc, 'c', c);
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 8; j++)
			for (int x = 0; x < k; x++)
				c[i * 8 + j] += a[i * k + x] * b[x * 8 + j];
	int sat = has(d, MOD_satfinite), row, col;
	for (int l = 0; l < 32; l++)
		for (int i = 0; i < fd.nregs * fd.per; i++) {
			mma_pos(&fd, 'c', l, i, &row, &col);
			slot_put(w->lane[l], &d->ops[0], &fd, i, put_elem(&fd, c[row * 8 + col], sat));
		}
}

/* ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans][.shared].b16 {r...}, [p] */
static void ldmatrix(Warp *w, const DIns *d)
{
	int nm = has(d, MOD_x1) ? 1 : has(d, MOD_x2) ? 2 : has(d, MOD_x4) ? 4 : 0;
	int trans = has(d, MOD_trans), sp = d->space ? d->space : SP_GENERIC;
	if (!nm || !is_m8n8(d->st->ins.sp) || d->nty != 1 || d->ty[0] != TY_B16 || d->nops != 2 ||
	    vec_of(d, 0, nm)->n != (uint32_t)nm)
		bad(d);
	for (int i = 0; i < nm; i++) {
		uint64_t rows[8];
		for (int r = 0; r < 8; r++)
			rows[r] = address(w->lane[8 * i + r], d, &d->ops[1]);
		for (int l = 0; l < 32; l++) {
			Thread *t = w->lane[l];
			uint64_t v = 0;
			for (int j = 0; j < 2; j++) {
				int row = l / 4, col = 2 * (l % 4) + j;
				uint64_t a = trans ? rows[col] + 2 * (uint64_t)row : rows[row] + 2 * (uint64_t)col;
				v |= mem_load(t, sp, a, 2, d) << 16 * j;
			}
			wr(t, &d->ops[0].kids[i], v);
		}
	}
}

/* wmma, mma and ldmatrix: .aligned, so the whole warp, at one instruction. */
int wx_wmma(Warp *w, const DIns *d, uint32_t mask)
{
	check_mods(d);
	if (mask != 0xFFFFFFFFu)
		rt_fail(d, RUN_UNSUPPORTED, "'%s' with fewer than 32 lanes", ins_text(d));
	for (int l = 0; l < 32; l++)
		if (w->lane[l]->coll != d)
			rt_fail(d, RUN_UNSUPPORTED, "'%s' with lanes at different instructions", ins_text(d));
	int code = d->st->ins.sp->code;
	if (code == O_mma)
		mma_sync(w, d);
	else if (code == O_ldmatrix)
		ldmatrix(w, d);
	else if (has(d, MOD_load))
		wmma_load(w, d, has(d, MOD_a) ? 'a' : has(d, MOD_b) ? 'b' : 'c');
	else if (has(d, MOD_store) && has(d, MOD_d))
		wmma_store(w, d);
	else if (has(d, MOD_mma))
		wmma_mma(w, d);
	else
		bad(d);
	return X_NEXT;
}
