/* depot.c: repacking of each function's __local_depot (issue 13).
 *
 * nvcc lays a function's local arrays out end to end in one .local byte
 * array, even when their lifetimes never meet; ptxas takes that layout as
 * its stack frame.  This stage finds the objects inside the depot, holds
 * in registers those only loaded and stored at constant offsets (what
 * inlining leaves of arrays passed by pointer; "scalar replacement" below),
 * lets objects whose lifetimes are disjoint share bytes, drops the stores
 * of objects nothing reads, and makes generic accesses of the depot local:
 *
 *     .local .align 16 .b8 __local_depot2[784];     ->  [224]
 *     add.u64 %rd60, %SPL, 160;                     ->  add.u64 %rd60, %SPL, 0;
 *     add.u64 %rd48, %SP, 0;  st.u32 [%rd49], %r1;  ->  add.u64 %rd48, %SPL, 0;
 *                                                       st.local.u32 [%rd49], %r1;
 *
 * Objects (from ir/memobj.c's facts).  An array indexed at run time is one
 * object from its base (the offset where the index was added) to the next
 * such base or escaping address; a byte range that only constant-offset
 * accesses touch is its own object, overlapping ones merged.  Accesses
 * through one anchor (the add that offsets the depot's start, which is what
 * gets rewritten) belong to one object.  This trusts what C guarantees and
 * LLVM relies on: an address computed from an array stays inside it; and
 * that no two objects share bytes, as a front end lays them out (the
 * inliner gives each callee's copies bytes of their own for this: two
 * callees' frames at one offset put one's array start inside another's).
 * An access through an address that is one of several exact places (a
 * selp or phi of two objects' addresses: MemAccess.cand) makes the
 * objects of all those places one object, which moves as a whole.  The
 * starts noted before inlining (Func.starts: where an object lent to a
 * call began, a copy's frame) end the arrays before them, as the calls
 * did.
 * An object pins (keeps its bytes, shares them with nobody) when its address
 * escapes or its anchor cannot be rewritten; nothing moves when an access
 * may touch any object (a .local access through an unknown pointer, a
 * pointer stepped around a loop, an address merged from places not all
 * exact).
 *
 * Lifetimes: an object is live at a point when a store to it reaches the
 * point and a load of it is reachable from it.  Two objects may share
 * bytes unless a store to one happens where the other is live.  An address
 * passed only to a call that reads through it and keeps nothing (vprintf's
 * format and buffer: ir/runtime.c) is no escape but a load of the object
 * at the call, so a printf buffer lives from the stores that fill it to
 * its vprintf, and two buffers, or a buffer and another object, may share.
 * So is one passed to a module function that only loads and stores
 * through it (ir/memobj.c: borrowers_args): a load (and a store) at the
 * call of the bytes it reaches, or, where it indexes the pointer, of the
 * whole object from the address on, which C's promise above bounds by the
 * next object's start; with no start after it, by the depot's end, which
 * only merges bytes into it that the call may then also touch: larger,
 * never wrong.
 *
 * Scalar replacement: an object not pinned whose every access is a plain
 * ld or st at a constant offset, the same bytes each time, gets a register
 * per piece; its accesses become movs and it takes no bytes.
 *
 * Layout: pinned objects stay; the others go largest alignment first,
 * then largest, each at the lowest offset (congruent to its old one modulo
 * its widest access, so every access keeps its alignment) that overlaps no
 * object it interferes with.  A function keeps its layout unless the depot
 * gets smaller.  Finally address arithmetic nothing reads any more goes,
 * then cvta.local, %SP, %SPL and the depot itself when unused.
 *
 * requires: normalized IR / maintains: the module's symbols / breaks: any
 * CFG or analysis of the functions it changes. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "stages.h"

enum { MAX_DEPOT = 1 << 20, MAX_OBJS = 1 << 12 };

typedef struct Obj {
	int64_t lo, hi;       /* its bytes in the old layout: [lo, hi) */
	int64_t align;        /* a move keeps lo modulo this */
	int64_t at;           /* the new offset; -1 when dead */
	int64_t floor;        /* the lowest it may take: its anchors stay in the depot */
	const char *pinned;   /* why it keeps its bytes, or NULL */
	const Stmt *pinned_at;  /* the instruction that pins it, when one does */
	const char *in_memory;  /* why registers cannot hold it, or NULL */
	uint8_t loaded, stored;
	uint8_t scalar;       /* its accesses became register moves: it takes no bytes */
	uint8_t indexed;      /* loads or stores at run-time offsets touch it: selects (select_access) */
	int iw;               /* their width */
	uint32_t nindexed;    /* how many */
} Obj;

/* --stats, summed over the module: counted, never read to decide */
typedef struct Stats {
	unsigned funcs, repacked, not_smaller, fixed, objects, pinned, dead, stores_removed;
	unsigned made_local, dropped;
	unsigned unnamed;     /* other .local variables nothing names, dropped */
	unsigned scalar, pieces;
	uint64_t bytes_before, bytes_after;
} Stats;

/* One function's depot.  Dp lives as long as the work on one function;
 * its arrays are on its arena, freed with it in one call. */
typedef struct Dp {
	Module *m;
	const StageOptions *o;
	Func *f;
	Arena *arena;
	Stmt *decl;           /* the depot's declaration */
	SrcLines *src;        /* the function's source lines, for remarks */
	MemObjs *mo;
	int dobj;             /* the depot's index in mo->objs */
	int64_t size;
	int32_t *atom;        /* per byte: its atom, -1 when nothing touches it */
	int32_t *parent;      /* union-find over atoms */
	uint32_t natoms, catoms;
	int32_t *first_atom;  /* per anchor: an atom of what it reaches, -1 none */
	int32_t *obj_of;      /* per atom root: its object */
	Obj *objs;
	uint32_t nobjs;
	const char *fixed;    /* why nothing may move, or NULL */
	const Stmt *fixed_at; /* the instruction that says so, when one does */
	uint64_t *conflict;   /* nobjs rows of words: objects that may not share */
	uint32_t words;
	struct DebugRef *refs;  /* where DWARF names the depot (array_grow) */
	uint32_t nrefs, crefs;
	int named_in_data;    /* some section names it: it may not go */
	Names *module;        /* the module's names, for fresh ones (the stage's, made once) */
	const struct Elems *sections;  /* the sections' elements (the stage's, found once) */
	const Names *named;   /* every name a section names (the stage's, found once) */
	const char *root;     /* the register the depot's address is moved into, once (local_root) */
	Stmt *root_def;
	const char *groot;    /* its generic twin (%SP), or NULL */
	int rooted;           /* root and groot are known (found when an indexed access first asks) */
	const char *sel[3];   /* select_access's offset, its low word and predicate, once made */
} Dp;

/* ---- atoms: byte ranges that belong to one object -------------------- */

static int32_t atom_new(Dp *d)
{
	if (d->natoms == d->catoms)
		die("depot: more atoms than accesses make");
	d->parent[d->natoms] = (int32_t)d->natoms;
	return (int32_t)d->natoms++;
}

static int32_t atom_find(Dp *d, int32_t a)
{
	while (d->parent[a] != a)
		a = d->parent[a] = d->parent[d->parent[a]];
	return a;
}

static void atom_union(Dp *d, int32_t a, int32_t b)
{
	a = atom_find(d, a), b = atom_find(d, b);
	if (a != b)
		d->parent[a > b ? a : b] = a < b ? a : b;
}

static int in_depot(const Dp *d, int64_t off)
{
	return off >= 0 && off < d->size;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int depot_access(const Dp *d, const MemAccess *a)
{
	return a->obj == d->dobj && a->how != USE_ADDR;
}

/* Through one of several places (MemAccess.cand): the bytes of each,
 * made one object. */
static const MemCand *places(const Dp *d, const MemAccess *a)
{
	return a->ncand && !a->lent ? &d->mo->cands[a->cand] : NULL;
}

/* The bytes an access is known to touch, [lo, lo + n) (n 0: from its
 * base to the next object's start, as C promises of an indexed array;
 * of one of several places: the first's, the others in its object). */
static int64_t acc_bytes(const Dp *d, const MemAccess *a, int64_t *lo)
{
	const MemCand *c = places(d, a);
	if (c) {
		*lo = c->off;
		return a->width;
	}
	*lo = a->exact || a->bounded ? a->off : a->base;
	return a->exact ? a->width : a->bounded ? a->spread + a->width : 0;
}

/* The instruction that formed escape i's address, when an anchor did. */
static const Stmt *escape_at_ins(const MemObjs *mo, uint32_t i)
{
	int an = mo->esc[i].anchor;
	return an >= 0 && (uint32_t)an < mo->nanchors ? mo->anchors[an].at : NULL;
}

/* In PTX that neither NVVM nor LLVM wrote (Func.layout_kept), where
 * nothing says one variable's addresses come from one anchor or that an
 * index stays inside its array: an access at a run-time offset not proven
 * bounded, a call reading from an address on, or an escape may touch any
 * byte (*at: the first). */
static const char *unbounded(const Dp *d, const Stmt **at)
{
	const MemObjs *mo = d->mo;
	for (uint32_t i = 0; i < mo->nacc; i++) {
		const MemAccess *a = &mo->acc[i];
		if (depot_access(d, a) && !a->exact && !a->bounded && !places(d, a)) {
			*at = a->at;
			return "an access at a run-time offset in PTX no known compiler wrote (--trust-layout)";
		}
	}
	for (uint32_t i = 0; i < mo->nesc; i++)
		if (mo->esc[i].obj == d->dobj) {
			*at = escape_at_ins(mo, i);
			return "an address escapes in PTX no known compiler wrote (--trust-layout)";
		}
	return NULL;
}

/* Why no byte may move, or NULL: some access could touch any object
 * (*at: that access). */
static const char *why_fixed(const Dp *d, const Stmt **at)
{
	const MemObjs *mo = d->mo;
	if (mo->partial)  /* an escape or an access the walk did not reach */
		return "an address formed by a chain longer than the analysis follows";
	for (uint32_t i = 0; i < mo->nacc; i++) {
		const MemAccess *a = &mo->acc[i];
		*at = a->at;
		if (a->obj < 0 && ins_space(&a->at->ins) == SPACE_LOCAL)
			return "a .local access through an unknown pointer";
		if (a->obj != d->dobj)
			continue;
		const MemCand *c = places(d, a);
		for (uint32_t k = 0; c && k < a->ncand; k++)
			if (!in_depot(d, c[k].off) || c[k].off + a->width > d->size || a->width <= 0)
				return "an access outside the depot";
		if (c)
			continue;
		if (a->anchor == ANCHOR_MANY && !a->lent)  /* lent: pinned, as an escape is */
			return "an address formed in more than one place";
		if (!a->base_known)
			return "a pointer stepped around a loop or merged from several offsets";
		int64_t lo, n = acc_bytes(d, a, &lo);
		if (a->how != USE_ADDR && (!in_depot(d, lo) || lo + n > d->size))
			return "an access outside the depot";
		if (a->how != USE_ADDR && a->width <= 0 && !a->lent)
			return "an access of unknown width";
	}
	*at = NULL;
	for (uint32_t i = 0; i < mo->nesc; i++)
		if (mo->esc[i].obj == d->dobj && (!mo->esc[i].base_known || !in_depot(d, mo->esc[i].base)))
			return "its address escapes at an unknown offset";
	return d->f->layout_kept || d->o->depot.trust_layout ? NULL : unbounded(d, at);
}

/* Bytes lo .. lo+len join atom at. */
static void cover(Dp *d, int32_t at, int64_t lo, int64_t len)
{
	for (int64_t b = lo; b < lo + len; b++)
		if (d->atom[b] < 0)
			d->atom[b] = at;
		else
			atom_union(d, at, d->atom[b]);
}

/* Bases of indexed accesses and escaping addresses start objects that
 * reach to the next start, or to the next start noted before inlining
 * (Func.starts: an object lent to a call a copy replaced, a copy's
 * frame), which bounds the object before it and makes none itself;
 * constant-offset accesses make atoms of their own bytes, merged with
 * whatever they overlap. */
static void make_atoms(Dp *d)
{
	const MemObjs *mo = d->mo;
	const Func *f = d->f;
	int64_t *starts = arena_alloc(d->arena, (mo->nacc + mo->nesc + 1) * sizeof *starts);
	int64_t *ends = arena_alloc(d->arena, (mo->nacc + mo->nesc + f->nstarts + 1) * sizeof *ends);
	uint32_t n = memobjs_starts(mo, d->dobj, d->size, starts), nends = n;
	memcpy(ends, starts, n * sizeof *ends);
	for (uint32_t i = 0; i < f->nstarts; i++)
		if (in_depot(d, f->starts[i]))
			ends[nends++] = f->starts[i];
	qsort(ends, nends, sizeof *ends, cmp_i64);
	for (int64_t b = 0; b < d->size; b++)
		d->atom[b] = -1;
	for (uint32_t i = 0, j = 0; i < n; i++) {   /* starts are sorted, each once */
		int32_t a = atom_new(d);
		while (j < nends && ends[j] <= starts[i])
			j++;
		int64_t end = j < nends ? ends[j] : d->size;
		for (int64_t b = starts[i]; b < end; b++)
			d->atom[b] = a;
	}
	for (uint32_t i = 0; i < mo->nacc; i++) {
		const MemAccess *a = &mo->acc[i];
		int64_t lo, len = acc_bytes(d, a, &lo);
		if (!depot_access(d, a) || !len)
			continue;
		int32_t at = atom_new(d);
		const MemCand *c = places(d, a);
		cover(d, at, lo, len);
		for (uint32_t k = 1; c && k < a->ncand; k++)
			cover(d, at, c[k].off, len);
	}
}

/* What one anchor reaches is one object: it gets one shift. */
static void join_anchor(Dp *d, int anchor, int32_t atom)
{
	if (anchor < 0)
		return;
	const MemAnchor *an = &d->mo->anchors[anchor];
	if (in_depot(d, an->off) && d->atom[an->off] >= 0)
		atom_union(d, atom, d->atom[an->off]);
	if (d->first_atom[anchor] < 0)
		d->first_atom[anchor] = atom;
	else
		atom_union(d, atom, d->first_atom[anchor]);
}

static void join_by_anchors(Dp *d)
{
	const MemObjs *mo = d->mo;
	for (uint32_t i = 0; i < mo->nanchors; i++)
		d->first_atom[i] = -1;
	for (uint32_t i = 0; i < mo->nacc; i++) {
		const MemAccess *a = &mo->acc[i];
		if (!depot_access(d, a))
			continue;
		/* a[i-1] of an array at 160 is base 160, off 156: the base says */
		int64_t lo;
		acc_bytes(d, a, &lo);
		join_anchor(d, a->anchor, d->atom[lo]);
		const MemCand *c = places(d, a);
		for (uint32_t k = 0; c && k < a->ncand; k++)
			join_anchor(d, c[k].anchor, d->atom[c[k].off]);
	}
	for (uint32_t i = 0; i < mo->nesc; i++)
		if (mo->esc[i].obj == d->dobj)
			join_anchor(d, mo->esc[i].anchor, d->atom[mo->esc[i].base]);
}

/* ---- objects ------------------------------------------------------------ */

static int64_t pow2_floor(int64_t v)
{
	int64_t p = 1;
	while (p * 2 <= v)
		p *= 2;
	return p;
}

static Obj *obj_at(Dp *d, int64_t byte)
{
	return &d->objs[d->obj_of[atom_find(d, d->atom[byte])]];
}

static Obj *obj_of_access(Dp *d, const MemAccess *a)
{
	int64_t lo;
	acc_bytes(d, a, &lo);
	return obj_at(d, lo);
}

static void make_objects(Dp *d)
{
	for (uint32_t i = 0; i < d->natoms; i++)
		d->obj_of[i] = -1;
	for (int64_t b = 0; b < d->size; b++) {
		if (d->atom[b] < 0)
			continue;
		int32_t r = atom_find(d, d->atom[b]);
		if (d->obj_of[r] < 0) {
			if (d->nobjs == MAX_OBJS) {
				d->fixed = "more objects than the stage handles";
				return;
			}
			d->obj_of[r] = (int32_t)d->nobjs;
			d->objs[d->nobjs++] = (Obj){.lo = b, .hi = b + 1, .align = 1, .at = b};
		}
		d->objs[d->obj_of[r]].hi = b + 1;
	}
	const MemObjs *mo = d->mo;
	for (uint32_t i = 0; i < mo->nacc; i++) {
		const MemAccess *a = &mo->acc[i];
		if (!depot_access(d, a))
			continue;
		Obj *o = obj_of_access(d, a);
		int64_t al = pow2_floor(a->width);   /* a call's reads: none wider than 16 */
		if (a->width > 0 && (a->lent && al > 16 ? 16 : al) > o->align)
			o->align = a->lent && al > 16 ? 16 : al;
		o->loaded |= (a->how & USE_READ) != 0;
		o->stored |= (a->how & USE_WRITE) != 0;
		if (a->lent && a->anchor < 0) {  /* %SP itself, or from several places */
			o->pinned = "its address goes to a call in a form the stage does not rewrite";
			o->pinned_at = a->at;
		}
	}
	for (uint32_t i = 0; i < mo->nesc; i++)
		if (mo->esc[i].obj == d->dobj) {
			Obj *o = obj_at(d, mo->esc[i].base);
			o->pinned = "its address escapes";
			o->pinned_at = escape_at_ins(mo, i);
		}
}

/* ---- anchors: the constants that place an object ----------------------- */

/* The anchor's operand moved by `by` bytes; NULL when its form is not
 * one this stage rewrites.  *k says which operand it replaces. */
static Expr *moved(Dp *d, const MemAnchor *an, int64_t by, uint32_t *k)
{
	const Ins *in = &an->at->ins;
	int64_t c;
	if (an->fixed)
		return NULL;
	if (an->op == MEM_ARITH) {  /* add d, root, C (or C, root); sub d, root, C */
		int sub = in->sp->code == O_sub;
		for (uint32_t i = 2; i >= 1; i--)
			if (int_operand(in->ops[i], &c) && in->ops[3 - i]->kind == E_NAME && (i == 2 || !sub)) {
				*k = i;
				return int_expr((int64_t)(sub ? (uint64_t)c - (uint64_t)by : (uint64_t)c + (uint64_t)by));
			}
		return NULL;
	}
	const char *base;
	if (!addr_name_off(in->ops[an->op], &base, &c))
		return NULL;
	*k = an->op;
	return expr_addr(d->m, name_expr(base), (int64_t)((uint64_t)c + (uint64_t)by));
}

/* An object whose anchor cannot be rewritten stays where it is. */
static void pin_unmovable(Dp *d)
{
	for (uint32_t i = 0; i < d->mo->nanchors; i++) {
		uint32_t k;
		if (d->first_atom[i] >= 0 && !moved(d, &d->mo->anchors[i], 0, &k)) {
			Obj *o = &d->objs[d->obj_of[atom_find(d, d->first_atom[i])]];
			o->pinned = d->mo->anchors[i].fixed ? "a run-time amount is added to the depot's start"
				: "an address form the stage does not rewrite";
			o->pinned_at = d->mo->anchors[i].at;
		}
	}
}

static void move_anchors(Dp *d)
{
	for (uint32_t i = 0; i < d->mo->nanchors; i++) {
		if (d->first_atom[i] < 0)
			continue;
		const Obj *o = &d->objs[d->obj_of[atom_find(d, d->first_atom[i])]];
		if (o->at < 0 || o->at == o->lo)
			continue;
		uint32_t k;
		Expr *e = moved(d, &d->mo->anchors[i], o->at - o->lo, &k);
		if (!e)
			die("depot: an anchor checked movable is not");
		d->mo->anchors[i].at->ins.ops[k] = e;
	}
}

/* ---- lifetimes ---------------------------------------------------------- */

typedef struct Sets {
	uint32_t words;
	uint64_t *fin, *fout, *bin, *bout;   /* per block: stored-reaching, loaded-ahead */
	uint64_t *stores, *loads;            /* per block: what it stores, loads */
} Sets;

static uint64_t *row(uint64_t *v, uint32_t words, uint32_t i)
{
	return v + (size_t)i * words;
}

static int or_into(uint64_t *to, const uint64_t *from, uint32_t words)
{
	int changed = 0;
	for (uint32_t w = 0; w < words; w++)
		if ((to[w] | from[w]) != to[w])
			to[w] |= from[w], changed = 1;
	return changed;
}

static void set_bit(uint64_t *v, uint32_t i)
{
	v[i / 64] |= 1ull << (i % 64);
}

static int get_bit(const uint64_t *v, uint32_t i)
{
	return (v[i / 64] >> (i % 64)) & 1;
}

/* One pass of a union over the CFG: forward, each block's edge side is
 * the union of its predecessors' results, its result that and its own
 * gen; backward the same over successors.  Whether anything grew. */
static int spread(const Cfg *g, uint32_t W, uint64_t *edge, uint64_t *result, uint64_t *gen,
	int backward)
{
	int changed = 0;
	for (uint32_t i = 0; i < g->norder; i++) {
		uint32_t b = g->order[backward ? g->norder - 1 - i : i];
		const Block *bl = &g->blocks[b];
		const uint32_t *next = backward ? bl->succ : bl->pred;
		for (uint32_t k = 0, n = backward ? bl->nsucc : bl->npred; k < n; k++)
			or_into(row(edge, W, b), row(result, W, next[k]), W);
		changed |= or_into(row(result, W, b), row(edge, W, b), W);
		changed |= or_into(row(result, W, b), row(gen, W, b), W);
	}
	return changed;
}

/* Forward from stores, backward from loads, to a fixed point. */
static void solve(const Cfg *g, Sets *s)
{
	while (spread(g, s->words, s->fin, s->fout, s->stores, 0) |
	       spread(g, s->words, s->bout, s->bin, s->loads, 1))
		;
}

/* A store to o where x is live (stored before, loaded after): o and x
 * may not share.  Walks one block's depot accesses, [from, to). */
static void block_conflicts(Dp *d, const Sets *s, uint32_t b, uint32_t from, uint32_t to)
{
	uint32_t W = s->words;
	uint64_t *ahead = xcalloc((size_t)(to - from + 1) * W, sizeof *ahead);
	uint64_t *done = xcalloc(W, sizeof *done);
	memcpy(row(ahead, W, to - from), row(s->bout, W, b), W * sizeof *ahead);
	for (uint32_t i = to; i-- > from;) {  /* what is loaded after access i */
		memcpy(row(ahead, W, i - from), row(ahead, W, i - from + 1), W * sizeof *ahead);
		const MemAccess *a = &d->mo->acc[i];
		if (depot_access(d, a) && (a->how & USE_READ))
			set_bit(row(ahead, W, i - from), (uint32_t)(obj_of_access(d, a) - d->objs));
	}
	memcpy(done, row(s->fin, W, b), W * sizeof *done);
	for (uint32_t i = from; i < to; i++) {
		const MemAccess *a = &d->mo->acc[i];
		if (!depot_access(d, a) || !(a->how & USE_WRITE))
			continue;
		uint32_t o = (uint32_t)(obj_of_access(d, a) - d->objs);
		set_bit(done, o);
		const uint64_t *after = row(ahead, W, i - from + 1);
		for (uint32_t w = 0; w < W; w++) {
			uint64_t live = done[w] & after[w];
			row(d->conflict, W, o)[w] |= live;
			for (; live; live &= live - 1) {
				uint32_t x = w * 64 + (uint32_t)__builtin_ctzll(live);
				set_bit(row(d->conflict, W, x), o);
			}
		}
	}
	free(done);
	free(ahead);
}

static void interference(Dp *d, const Cfg *g)
{
	uint32_t W = d->words, nb = g->nblocks;
	Sets s = {.words = W};
	uint64_t *mem = arena_alloc(d->arena, (size_t)6 * nb * W * sizeof *mem);
	s.fin = mem, s.fout = mem + (size_t)nb * W, s.bin = mem + (size_t)2 * nb * W;
	s.bout = mem + (size_t)3 * nb * W, s.stores = mem + (size_t)4 * nb * W;
	s.loads = mem + (size_t)5 * nb * W;
	const MemObjs *mo = d->mo;
	for (uint32_t i = 0; i < mo->nacc; i++) {
		const MemAccess *a = &mo->acc[i];
		if (!depot_access(d, a))
			continue;
		uint32_t b = g->block_of[a->ins], o = (uint32_t)(obj_of_access(d, a) - d->objs);
		if (a->how & USE_READ)
			set_bit(row(s.loads, W, b), o);
		if (a->how & USE_WRITE)
			set_bit(row(s.stores, W, b), o);
	}
	solve(g, &s);
	for (uint32_t i = 0; i < mo->nacc;) {  /* accesses are in text order */
		uint32_t b = g->block_of[mo->acc[i].ins], j = i;
		while (j < mo->nacc && g->block_of[mo->acc[j].ins] == b)
			j++;
		if (g->blocks[b].rpo != UINT32_MAX)
			block_conflicts(d, &s, b, i, j);
		i = j;
	}
}

/* ---- scalar replacement ------------------------------------------------- */

/* An object that is only loaded and stored at constant offsets, the same
 * bytes each time, with no address escaping, needs no memory: each piece
 * (the bytes one element of an access touches) becomes a register, a load
 * a mov from it, a store a mov to it, as LLVM's SROA does before NVVM's
 * backend.  After inlining, the arrays a caller passes a helper by pointer
 * have this shape (k[9] of a kernel whose convolve9(win, k) was inlined).
 *
 *     st.local.f32 [%rd7+4], %f2;        ->  mov.b32 %dp4, %f2;
 *     ld.local.f32 %i2f5, [%i2rd2+4];    ->  mov.b32 %i2f5, %dp4;
 *
 * The registers are .bN, as a mov.bN copies any N-bit type; a piece some
 * load reads starts as 0 (the inliner's rule for values never written),
 * so that no register is read undefined.  A byte's piece is a .b16 (PTX
 * has no byte registers): a store truncates into it, a load widens from
 * its low byte as ld.u8 or ld.s8 would, each a cvt.
 *
 *     st.local.u8 [%rd11], %rs6;         ->  mov.b16 %dp0, %rs6;
 *     ld.local.u8 %r7, [%rd11];          ->  cvt.u32.u8 %r7, %dp0; */
enum { MAX_PIECES = 64 };   /* what one object may add to register pressure */

typedef struct Piece {
	uint32_t obj;
	int64_t off;
	int bytes;
	uint8_t read;
	const char *reg;
} Piece;

typedef struct Pieces {
	Piece *v;
	uint32_t n, cap;
} Pieces;

/* The operand holding what a load writes or a store reads. */
static Expr *access_value(const Ins *in)
{
	return in->ops[in->sp->code == O_ld ? 0 : 1];
}

static const Expr *element(const Expr *e, uint32_t i)
{
	return e->kind == E_BRACE ? e->kids[i] : e;
}

/* A byte's value: an integer register of 16 to 64 bits, a stored
 * constant, a load's sink. */
static int byte_fits(const Names *regs, const Expr *e, int store)
{
	int64_t k;
	if (is_sink(e))
		return !store;
	if (e->kind == E_NUM || int_operand(e, &k))
		return store && int_operand(e, &k);
	const char *t = e->kind == E_NAME && e->str[0] == '%' && !is_special_reg(e->str) ?
		names_type(regs, e->str) : NULL;
	int ty = t ? type_of(t) : TY_NONE;
	return ty != TY_NONE && !(ty_flags(ty) & TF_FLOAT) && ty_bits(ty) >= 16 && ty_bits(ty) <= 64;
}

static const char *value_why(const Names *regs, const Ins *in)
{
	const Expr *v = access_value(in);
	uint32_t n = in->sp->vec;
	int byte = in->sp->type_bytes == 1, store = in->sp->code == O_st;
	if (n > 1 && (v->kind != E_BRACE || v->n != n))
		return "a vector access of a form the stage does not read";
	for (uint32_t i = 0; i < n; i++)
		if (byte ? !byte_fits(regs, element(v, i), store) :
		    !memacc_value_fits(regs, element(v, i), in->sp->type_bytes, store))
			return "a value whose register is not as wide as the access";
	return NULL;
}

static int candidate(const Obj *o)
{
	return !o->pinned && o->loaded && !o->in_memory;
}

/* Which instructions read and write each register of the function as it
 * stands (ir/reguses.c, on a graph of its body built for the asking):
 * one walk, where many registers are asked about. */
typedef struct RegFacts {
	Cfg *g;
	RegUses *u;
} RegFacts;

static int reg_facts(const Dp *d, RegFacts *r)
{
	r->g = cfg_build(d->f);
	r->u = r->g ? reguses_build(r->g) : NULL;
	return r->g != NULL;
}

static void reg_facts_free(RegFacts *r)
{
	reguses_free(r->u);
	cfg_free(r->g);
}

/* A register no instruction but `def` writes (or may write). */
static int only_def(const RegFacts *r, const char *reg, const Stmt *def)
{
	uint32_t last, n = reguses_writes(r->u, reg, &last);
	return !n || (n == 1 && r->g->ins[last] == def);
}

/* The type word of the register a body declares as name, or NULL. */
static const char *reg_type(const Places *b, const char *name)
{
	for (uint32_t i = 0; i < b->n; i++) {
		const Stmt *s = b->v[i].s;
		if (s && s->kind == S_VAR && s->var.ds[0].name == name && !s->var.ds[0].count)
			return decl_type(&s->var);
	}
	return NULL;
}

static int generic_root(Dp *d, const Places *b, const RegFacts *r, const char **sp, const char **spl);

/* The register holding the depot's local address: written once, by an
 * unguarded mov of the depot, 64 bits wide (select_access subtracts it);
 * found once a function, when an access at a run-time offset asks. */
static void local_root(Dp *d, const Places *b)
{
	if (d->rooted)
		return;
	d->rooted = 1;
	RegFacts r;
	if (!reg_facts(d, &r)) {
		reg_facts_free(&r);
		return;
	}
	for (uint32_t i = 0; i < d->mo->ndefs; i++) {
		const MemAddrDef *a = &d->mo->defs[i];
		const Ins *in = &a->at->ins;
		if (a->obj != d->dobj || !a->root || a->generic || a->at->ins.guard || in->sp->code != O_mov ||
		    in->ops[0]->kind != E_NAME || in->ops[1]->kind != E_NAME ||
		    in->ops[1]->str != d->decl->var.ds[0].name)
			continue;
		const char *t = reg_type(b, in->ops[0]->str);
		if (d->root || !t || type_bytes(t) != 8 || !only_def(&r, in->ops[0]->str, a->at)) {
			d->root = NULL;
			break;
		}
		d->root = in->ops[0]->str, d->root_def = a->at;
	}
	const char *sp, *spl;
	if (d->root && generic_root(d, b, &r, &sp, &spl) && spl == d->root)
		d->groot = sp;
	reg_facts_free(&r);
}

/* [r] or [r+C] of a 64-bit register (asked once regs are known): r and C. */
static int reg_address(const Names *regs, const Expr *e, const char **r, int64_t *c)
{
	const char *t;
	return addr_name_off(e, r, c) && (!regs || ((t = names_type(regs, *r)) && type_bytes(t) == 8));
}

/* A load or store at a run-time offset that selects among registers
 * could take the place of (select_access): a plain, unguarded ld.local or
 * st.local of 2 to 8 bytes through a register the depot's address is
 * added to (64 bits wide: asked once regs are known), or a generic one
 * through one %SP is added to (the stage makes it local after, and a
 * second run must see it alike).  A store only where its index comes
 * from data (MemAccess.data): a loop counter's ptxas may unroll into
 * constants, and sinf's reduction array, stored at one, took clang_saxpy
 * 1,024 bytes of SASS for 16 of stack as selects. */
static int indexed_access(const Dp *d, const MemAccess *a, const Names *regs)
{
	const Ins *in = &a->at->ins;
	const char *r;
	int64_t c;
	Space sp = ins_space(in);
	int code = in->sp->code;
	return d->root && !a->exact && !a->lent && !a->ncand && !in->guard &&
		(code == O_ld || (code == O_st && a->data)) && in->sp->vec <= 1 && in->sp->type_bytes >= 2 &&
		!memacc_why_form(a) &&
		(a->generic ? d->groot && sp == SPACE_NONE : sp == SPACE_LOCAL) &&
		reg_address(regs, in->ops[code == O_ld], &r, &c);
}

/* Each access's form; whether any object is still a candidate. */
static int check_forms(Dp *d, const Places *b)
{
	for (uint32_t i = 0; i < d->mo->nacc; i++) {
		const MemAccess *a = &d->mo->acc[i];
		Obj *o = depot_access(d, a) ? obj_of_access(d, a) : NULL;
		if (!o || o->in_memory)
			continue;
		o->in_memory = memacc_why_memory(a);
		if (!o->in_memory || a->exact)
			continue;
		local_root(d, b);
		if (indexed_access(d, a, NULL)) {
			o->in_memory = o->iw && o->iw != a->at->ins.sp->type_bytes ?
				"accesses at run-time offsets of different widths" : NULL;
			o->indexed = 1, o->iw = a->at->ins.sp->type_bytes, o->nindexed++;
		}
	}
	for (uint32_t i = 0; i < d->nobjs; i++)
		if (candidate(&d->objs[i]))
			return 1;
	return 0;
}

static void check_values(Dp *d, const Names *regs)
{
	for (uint32_t i = 0; i < d->mo->nacc; i++) {
		const MemAccess *a = &d->mo->acc[i];
		Obj *o = depot_access(d, a) ? obj_of_access(d, a) : NULL;
		if (o && candidate(o))
			o->in_memory = !a->exact && !indexed_access(d, a, regs) ?
				"an address at a run-time offset of a form the stage does not read" :
				value_why(regs, &a->at->ins);
	}
}

static int cmp_piece(const void *pa, const void *pb)
{
	const Piece *a = pa, *b = pb;
	if (a->obj != b->obj)
		return a->obj < b->obj ? -1 : 1;
	return (a->off > b->off) - (a->off < b->off);
}

/* Every element of every candidate's accesses, sorted by object and offset. */
static void collect_pieces(Dp *d, Pieces *p)
{
	for (uint32_t i = 0; i < d->mo->nacc; i++) {
		const MemAccess *a = &d->mo->acc[i];
		const Obj *o = depot_access(d, a) ? obj_of_access(d, a) : NULL;
		if (!o || !candidate(o) || !a->exact)   /* an indexed load: no piece of its own */
			continue;
		const Spelling *sp = a->at->ins.sp;
		for (uint32_t k = 0; k < sp->vec; k++) {
			p->v = array_grow(p->v, p->n, &p->cap, sizeof *p->v);
			p->v[p->n++] = (Piece){(uint32_t)(o - d->objs), a->off + (int64_t)k * sp->type_bytes,
				sp->type_bytes, sp->code == O_ld, NULL};
		}
	}
	if (p->n)
		qsort(p->v, p->n, sizeof *p->v, cmp_piece);
}

/* One piece per offset; an object whose accesses at one offset differ in
 * width, or overlap, or that needs too many registers stays in memory. */
static void merge_pieces(Dp *d, Pieces *p)
{
	uint32_t n = 0, first = 0;
	for (uint32_t i = 0; i < p->n; i++) {
		Piece *q = n ? &p->v[n - 1] : NULL;
		Obj *o = &d->objs[p->v[i].obj];
		if (q && q->obj == p->v[i].obj && q->off == p->v[i].off) {
			q->read |= p->v[i].read;
			if (q->bytes != p->v[i].bytes)
				o->in_memory = "accesses of different widths at one offset";
			continue;
		}
		if (q && q->obj == p->v[i].obj && q->off + q->bytes > p->v[i].off)
			o->in_memory = "accesses that overlap";
		if (!q || q->obj != p->v[i].obj)
			first = n;
		if (n - first == MAX_PIECES)
			o->in_memory = "more pieces than registers the stage gives one object";
		p->v[n++] = p->v[i];
	}
	p->n = n;
}

/* An object indexed accesses touch (Obj.indexed) is whole elements of
 * their width, at most INDEXED_ELEMS (ir.h): ptxas's own bound
 * (whole-program ptxas selects among the elements of a local array of up
 * to 16 it reads at run-time offsets, ptxas -c never does).  Each load
 * costs two instructions an element, and each store (which may write any
 * element) as much, so all of an object's select among at most
 * INDEXED_SELECTS (chosen on the yardstick's FIT half and seeds 121-240,
 * docs/stages.md).  Each element gets a piece, read (it may be selected,
 * or kept by a store) even where nothing stores it. */
static void index_pieces(Dp *d, Pieces *p)
{
	uint32_t n = p->n;
	for (uint32_t i = 0; i < n; i++) {
		Obj *o = &d->objs[p->v[i].obj];
		if (o->indexed && (p->v[i].bytes != o->iw || (p->v[i].off - o->lo) % o->iw))
			o->in_memory = "accesses at run-time offsets and accesses of another width or alignment";
	}
	for (uint32_t k = 0; k < d->nobjs; k++) {
		Obj *o = &d->objs[k];
		if (!o->indexed || !candidate(o))
			continue;
		int64_t elems = (o->hi - o->lo) / o->iw;
		if ((o->hi - o->lo) % o->iw || elems > INDEXED_ELEMS || elems * o->nindexed > INDEXED_SELECTS) {
			o->in_memory = "accesses at run-time offsets of more elements than the stage selects among";
			continue;
		}
		for (int64_t off = o->lo; off < o->hi; off += o->iw) {
			p->v = array_grow(p->v, p->n, &p->cap, sizeof *p->v);
			p->v[p->n++] = (Piece){k, off, o->iw, 1, NULL};
		}
	}
	if (p->n > n) {
		qsort(p->v, p->n, sizeof *p->v, cmp_piece);
		merge_pieces(d, p);
	}
}

static const Piece *piece_at(const Pieces *p, uint32_t obj, int64_t off)
{
	Piece key = {.obj = obj, .off = off};
	return bsearch(&key, p->v, p->n, sizeof *p->v, cmp_piece);
}

/* A register per piece of a replaced object, declared after the body's
 * declarations; those a load reads set to 0 there.  Everything the stage
 * adds goes into b, which later steps ask what mentions a register. */
static void declare_pieces(Dp *d, Pieces *p, Names *regs, Places *b)
{
	List *body = &d->f->body;
	Stmt *first = body_past_decls(body);
	for (uint32_t i = 0; i < p->n; i++) {
		Piece *q = &p->v[i];
		if (!d->objs[q->obj].scalar)
			continue;
		char name[40], type[24];
		snprintf(name, sizeof name, "%%dp%lld", (long long)q->off);
		snprintf(type, sizeof type, ".reg .b%d", held_bits(q->bytes));
		q->reg = names_fresh(regs, name);
		place_insert(b, body, first, var_new(d->m, d->decl->loc, type, q->reg));
	}
	for (uint32_t i = 0; i < p->n; i++) {
		const Piece *q = &p->v[i];
		if (d->objs[q->obj].scalar && q->read)
			place_insert(b, body, first, mov_new(d->m, d->decl->loc, held_bits(q->bytes) / 8,
				name_expr(q->reg), int_expr(0)));
	}
}

/* select_access's registers, declared once a function: the offset into
 * the depot, its low word, a predicate. */
static void select_regs(Dp *d, Names *regs, Places *b)
{
	static const char *const base[3] = {"%dpo", "%dpi", "%dpp"}, *const type[3] = {".reg .b64",
		".reg .b32", ".reg .pred"};
	Stmt *first = body_past_decls(&d->f->body);
	for (int k = 0; k < 3; k++) {
		d->sel[k] = names_fresh(regs, base[k]);
		place_insert(b, &d->f->body, first, var_new(d->m, d->decl->loc, type[k], d->sel[k]));
	}
}

/* A load at a run-time offset into an object registers hold: its offset
 * in the object (the address less the depot's, then the object's start),
 * then a select per element, the first one's value by default (an offset
 * in bounds is one of them).  A store: each element the value where the
 * offset is its own, else as it was.
 *
 *     ld.local.u32 %r9, [%rd8];     ->  sub.s64 %dpo, %rd8, %SPL;
 *                                       cvt.u32.u64 %dpi, %dpo;
 *                                       add.s32 %dpi, %dpi, -64;
 *                                       mov.b32 %r9, %dp64;
 *                                       setp.eq.u32 %dpp, %dpi, 4;
 *                                       selp.b32 %r9, %dp68, %r9, %dpp;  ...
 *     st.local.u32 [%rd8], %r9;     ->  (the offset as above)
 *                                       setp.eq.u32 %dpp, %dpi, 0;
 *                                       selp.b32 %dp64, %r9, %dp64, %dpp;  ... */
static void select_access(Dp *d, const Pieces *p, Places *b, const MemAccess *a, Names *regs)
{
	Stmt *s = a->at;
	List *in = place_of(b, s)->in;
	const Obj *o = obj_of_access(d, a);
	uint32_t obj = (uint32_t)(o - d->objs);
	int w = o->iw;
	const char *r;
	int64_t c;
	char sp[16];
	if (!d->sel[0])
		select_regs(d, regs, b);
	int load = s->ins.sp->code == O_ld;
	reg_address(regs, s->ins.ops[load], &r, &c);
	snprintf(sp, sizeof sp, "selp.b%d", 8 * w);
	Expr *off = name_expr(d->sel[0]), *idx = name_expr(d->sel[1]), *pr = name_expr(d->sel[2]);
	Expr *e = access_value(&s->ins), *ops[4] = {off, name_expr(r), name_expr(a->generic ? d->groot : d->root)};
	place_insert(b, in, s, ins_new(d->m, s->loc, "sub.s64", ops, 3));
	ops[0] = idx, ops[1] = off;
	place_insert(b, in, s, ins_new(d->m, s->loc, "cvt.u32.u64", ops, 2));
	ops[1] = idx, ops[2] = int_expr(c - o->lo);
	place_insert(b, in, s, ins_new(d->m, s->loc, "add.s32", ops, 3));
	if (load)
		place_insert(b, in, s, mov_new(d->m, s->loc, w, e, name_expr(piece_at(p, obj, o->lo)->reg)));
	for (int64_t k = load; k < (o->hi - o->lo) / w; k++) {   /* a load has the first already */
		Expr *piece = name_expr(piece_at(p, obj, o->lo + k * w)->reg);
		Expr *to = load ? e : piece, *from = load ? piece : e;
		ops[0] = pr, ops[1] = idx, ops[2] = int_expr(k * w);
		place_insert(b, in, s, ins_new(d->m, s->loc, "setp.eq.u32", ops, 3));
		ops[0] = to, ops[1] = from, ops[2] = to, ops[3] = pr;
		place_insert(b, in, s, ins_new(d->m, s->loc, sp, ops, 4));
	}
	place_remove(place_of(b, s));
}

/* An access becomes a mov per element, under its guard; an indexed
 * one, selects. */
static void replace_access(Dp *d, const Pieces *p, Places *b, const MemAccess *a, Names *regs)
{
	if (!a->exact) {
		select_access(d, p, b, a, regs);
		return;
	}
	Stmt *s = a->at;
	List *in = place_of(b, s)->in;
	const Spelling *sp = s->ins.sp;
	Expr *v = access_value(&s->ins);
	uint32_t obj = (uint32_t)(obj_of_access(d, a) - d->objs);
	for (uint32_t k = 0; k < sp->vec; k++) {
		Expr *e = (Expr *)element(v, k);
		const Piece *q = piece_at(p, obj, a->off + (int64_t)k * sp->type_bytes);
		if (is_sink(e))
			continue;
		Expr *reg = name_expr(q->reg);
		Stmt *mov = q->bytes == 1 ? held_move(d->m, s->loc, &s->ins, sp->code == O_ld, e, names_bits(regs, e),
				reg, 1)
			: sp->code == O_ld ? mov_new(d->m, s->loc, q->bytes, e, reg)
			: mov_new(d->m, s->loc, q->bytes, reg, e);
		mov->ins.guard = s->ins.guard;
		mov->ins.guard_neg = s->ins.guard_neg;
		place_insert(b, in, s, mov);   /* later steps count what reads e */
	}
	place_remove(place_of(b, s));
}

/* Replaces the objects registers can hold; returns how many. */
static unsigned scalar_replace(Dp *d, Places *b, Stats *st)
{
	if (d->o->depot.no_sroa || d->named_in_data || !check_forms(d, b))
		return 0;
	if (names_shadowed(d->f))  /* a name's type would be one scope's */
		return 0;
	if (!d->module->exact)  /* every module names its functions: not made yet */
		names_of_module(d->module, d->m);
	Names regs = {0};
	names_in_module(&regs, d->module, d->f);
	Pieces p = {0};
	unsigned n = 0;
	check_values(d, &regs);
	collect_pieces(d, &p);
	merge_pieces(d, &p);
	index_pieces(d, &p);
	for (uint32_t i = 0; i < d->nobjs; i++)
		if (candidate(&d->objs[i]))
			d->objs[i].scalar = 1, n++;
	if (!n)
		goto done;
	declare_pieces(d, &p, &regs, b);
	for (uint32_t i = 0; i < d->mo->nacc; i++) {
		const MemAccess *a = &d->mo->acc[i];
		if (depot_access(d, a) && obj_of_access(d, a)->scalar)
			replace_access(d, &p, b, a, &regs);
	}
	for (uint32_t i = 0; i < p.n; i++)
		st->pieces += d->objs[p.v[i].obj].scalar;
	st->scalar += n;
done:
	free(p.v);
	names_free(&regs);
	return n;
}

/* ---- layout ------------------------------------------------------------- */

/* An object with the keys it sorts by, so that comparing needs no
 * context: largest alignment first, then largest, then lowest. */
typedef struct Key {
	int64_t align, size, lo;
	uint32_t obj;
} Key;

static int cmp_key(const void *pa, const void *pb)
{
	const Key *a = pa, *b = pb;
	if (a->align != b->align)
		return a->align > b->align ? -1 : 1;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	return (a->lo > b->lo) - (a->lo < b->lo);
}

/* The lowest offset >= from congruent to o's old one modulo its alignment. */
static int64_t congruent(const Obj *o, int64_t from)
{
	int64_t want = o->lo % o->align, p = from - from % o->align + want;
	return p < from ? p + o->align : p;
}

static int may_share(const Dp *d, uint32_t a, uint32_t b)
{
	return !d->objs[a].pinned && !d->objs[b].pinned && !get_bit(row(d->conflict, d->words, a), b);
}

/* Each object's floor: an anchor below the object's bytes (a variable
 * whose first bytes are dead) must not move below the depot's start.
 * An address outside the frame is no address cvta may convert: the
 * depot's generic %SP - 192, cvta.to.local'd in an inlined callee
 * before it adds 192, faults (difftest-depot seed 7253). */
static void anchor_floors(Dp *d)
{
	for (uint32_t i = 0; i < d->mo->nanchors; i++) {
		if (d->first_atom[i] < 0)
			continue;
		Obj *o = &d->objs[d->obj_of[atom_find(d, d->first_atom[i])]];
		int64_t below = o->lo - d->mo->anchors[i].off;
		o->floor = below > o->floor ? below : o->floor;
	}
}

/* Returns the new depot size. */
static int64_t place_all(Dp *d)
{
	Key *order = arena_alloc(d->arena, (d->nobjs + 1) * sizeof *order);
	uint32_t *placed = arena_alloc(d->arena, (d->nobjs + 1) * sizeof *placed), n = 0, nplaced = 0;
	int64_t end = 0;
	for (uint32_t i = 0; i < d->nobjs; i++) {
		Obj *o = &d->objs[i];
		if (o->pinned) {
			o->at = o->lo;
			placed[nplaced++] = i;
			end = o->hi > end ? o->hi : end;
		} else if (!o->loaded || o->scalar) {
			o->at = -1;
		} else {
			order[n++] = (Key){o->align, o->hi - o->lo, o->lo, i};
		}
	}
	if (n)
		qsort(order, n, sizeof *order, cmp_key);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = order[k].obj;
		Obj *o = &d->objs[i];
		int64_t size = o->hi - o->lo, p = congruent(o, o->floor);
		for (int moved_on = 1; moved_on;) {
			moved_on = 0;
			for (uint32_t j = 0; j < nplaced; j++) {
				const Obj *q = &d->objs[placed[j]];
				int64_t qs = q->hi - q->lo;
				if (may_share(d, i, placed[j]) || p >= q->at + qs || q->at >= p + size)
					continue;
				p = congruent(o, q->at + qs);
				moved_on = 1;
			}
		}
		o->at = p;
		placed[nplaced++] = i;
		end = p + size > end ? p + size : end;
	}
	return end;
}

/* ---- generic accesses made local ---------------------------------------- */

typedef struct Count {
	UT_hash_handle hh;
	const char *name;
	uint32_t n;           /* instructions that mention it */
} Count;

typedef struct NameList {
	const char **v;
	uint32_t n, cap;
} NameList;

static void list_name(void *ctx, const char *name, OpRole role)
{
	(void)role;
	NameList *l = ctx;
	for (uint32_t i = 0; i < l->n; i++)
		if (l->v[i] == name)
			return;
	l->v = array_grow(l->v, l->n, &l->cap, sizeof *l->v);
	l->v[l->n++] = name;
}

/* Adds delta to the count of each name s mentions (once per name). */
static void count_ins(Count **h, const Stmt *s, int delta)
{
	NameList l = {0};
	ins_names(&s->ins, list_name, &l);
	for (uint32_t i = 0; i < l.n; i++) {
		Count *c;
		HASH_FIND_PTR(*h, &l.v[i], c);
		if (!c) {
			c = xcalloc(1, sizeof *c);
			c->name = l.v[i];
			HASH_ADD_PTR(*h, name, c);
		}
		c->n += (uint32_t)delta;
	}
	free(l.v);
}

/* How many instructions mention each name. */
static Count *count_names(const Places *b)
{
	Count *h = NULL;
	for (uint32_t i = 0; i < b->n; i++)
		if (b->v[i].s && b->v[i].s->kind == S_INS)
			count_ins(&h, b->v[i].s, 1);
	return h;
}

static uint32_t mentions(Count *h, const char *name)
{
	Count *c;
	HASH_FIND_PTR(h, &name, c);
	return c ? c->n : 0;
}

static void free_counts(Count *h)
{
	Count *c, *t;
	HASH_ITER(hh, h, c, t) {
		HASH_DEL(h, c);
		free(c);
	}
}

/* The spelling with .local after the memory-order words: ld.local.v2.u32. */
static const Spelling *local_spelling(const Spelling *sp)
{
	char buf[256];
	size_t n = (size_t)snprintf(buf, sizeof buf, "%s", sp->base);
	int done = 0;
	for (uint32_t i = 0; i < sp->nmods && n < sizeof buf; i++) {
		const ModWord *w = &sp->words[i];
		if (!done && !(w->kind == MW_MOD && mod_group(w->id) == MG_ORDER)) {
			n += (size_t)snprintf(buf + n, sizeof buf - n, ".local");
			done = 1;
		}
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", sp->mods[i]);
	}
	if (!done && n < sizeof buf)
		n += (size_t)snprintf(buf + n, sizeof buf - n, ".local");
	if (n >= sizeof buf)
		return NULL;
	return spelling_get(buf, n);
}

/* ld and st that can take .local: no memory order (ptxas refuses even
 * .volatile there), no scope */
static int localizable(const Ins *in)
{
	int op = in->sp->code;
	if ((op != O_ld && op != O_st) || in->sp->space != SPACE_NONE || in->sp->unknown)
		return 0;
	for (uint32_t i = 0; i < in->sp->nmods; i++) {
		const ModWord *w = &in->sp->words[i];
		if (w->kind == MW_MOD && (mod_group(w->id) == MG_SCOPE || mod_group(w->id) == MG_ORDER))
			return 0;
	}
	return local_spelling(in->sp) != NULL;
}

static Stmt *def_of(const Dp *d, const char *reg)
{
	for (uint32_t i = 0; i < d->mo->ndefs; i++) {
		Stmt *s = d->mo->defs[i].at;
		if (s->ins.ops[0]->kind == E_NAME && s->ins.ops[0]->str == reg)
			return s;
	}
	return NULL;
}

/* The generic start (%SP = cvta.local of %SPL) and its local twin, when
 * both are written once and %SPL holds the depot's address. */
static int generic_root(Dp *d, const Places *b, const RegFacts *r, const char **sp, const char **spl)
{
	for (uint32_t i = 0; i < d->mo->ndefs; i++) {
		const MemAddrDef *a = &d->mo->defs[i];
		const Ins *in = &a->at->ins;
		if (a->obj != d->dobj || !a->root || !a->generic || in->sp->code != O_cvta ||
		    in->ops[1]->kind != E_NAME)
			continue;
		const char *g = in->ops[0]->str, *l = in->ops[1]->str;
		const Stmt *ldef = def_of(d, l);
		if (!only_def(r, g, a->at))
			return 0;
		const char *gt = reg_type(b, g), *lt = reg_type(b, l);
		if (l != d->decl->var.ds[0].name && (!gt || gt != lt))
			return 0;  /* nvptx-short-ptr: a 32-bit %SPL beside a 64-bit %SP */
		if (l == d->decl->var.ds[0].name || (ldef && !ldef->ins.guard && ldef->ins.sp->code == O_mov &&
		    ldef->ins.ops[1]->kind == E_NAME && ldef->ins.ops[1]->str == d->decl->var.ds[0].name &&
		    only_def(r, l, ldef))) {
			*sp = g, *spl = l;
			return 1;
		}
		return 0;
	}
	return 0;
}

static void localize_access(Stmt *s)
{
	s->ins.sp = local_spelling(s->ins.sp);   /* localizable() made sure */
}

typedef struct Chain {
	const char *reg;
	Stmt *def;
	int keep;             /* 1 while it can become local */
	uint8_t queued;
} Chain;

/* The candidates, sorted by register, and every register a MemAddrDef
 * of the depot writes, sorted, beside the body's reads and writes. */
typedef struct Chains {
	Chain *c;
	uint32_t n;
	const char **addrs;
	uint32_t naddrs;
	RegFacts r;
	const char *sp;
} Chains;

static int by_reg(const void *x, const void *y)
{
	uintptr_t a = (uintptr_t)((const Chain *)x)->reg, b = (uintptr_t)((const Chain *)y)->reg;
	return (a > b) - (a < b);
}

static int by_name(const void *x, const void *y)
{
	uintptr_t a = (uintptr_t)*(const char *const *)x, b = (uintptr_t)*(const char *const *)y;
	return (a > b) - (a < b);
}

/* reg's chain member, -1 none. */
static int member(const Chains *ch, const char *reg)
{
	Chain key = {.reg = reg};
	const Chain *m = reg ? bsearch(&key, ch->c, ch->n, sizeof *ch->c, by_reg) : NULL;
	return m ? (int)(m - ch->c) : -1;
}

static Chain *kept(const Chains *ch, const char *reg)
{
	int i = member(ch, reg);
	return i >= 0 && ch->c[i].keep ? &ch->c[i] : NULL;
}

static int is_addr(const Chains *ch, const char *reg)
{
	return bsearch(&reg, ch->addrs, ch->naddrs, sizeof *ch->addrs, by_name) != NULL;
}

/* Whether operand e of an ld/st is [reg] or [reg+C]. */
static int plain_address(const Expr *e, const char *reg)
{
	const char *name;
	int64_t c;
	return addr_name_off(e, &name, &c) && name == reg;
}

/* Each read of m's register: the address of a localizable ld/st, or a
 * source of a kept chain member's definition. */
static int uses_convertible(const Chains *ch, const Chain *m)
{
	uint32_t n;
	const uint32_t *reads = reguses_reads(ch->r.u, m->reg, &n);
	for (uint32_t i = 0; i < n; i++) {
		const Stmt *s = ch->r.g->ins[reads[i]];
		if (s == m->def)
			continue;
		const Ins *in = &s->ins;
		if (localizable(in)) {
			uint32_t k = in->sp->code == O_ld ? 1 : 0;
			int ok = plain_address(in->ops[k], m->reg);
			for (uint32_t j = 0; j < in->nops && ok; j++)
				if (j != k && expr_mentions(in->ops[j], m->reg))
					ok = 0;
			if (ok)
				continue;
		}
		const Chain *user = in->nops && in->ops[0]->kind == E_NAME ? kept(ch, in->ops[0]->str) : NULL;
		if (!user || user->def != s || expr_mentions(in->ops[0], m->reg))
			return 0;
	}
	return 1;
}

/* Its address sources: %SP, or kept chain members (an address a
 * MemAddrDef defines otherwise stays generic). */
static int sources_ok(const Chains *ch, const Chain *m)
{
	const Ins *in = &m->def->ins;
	for (uint32_t k = 1; k < in->nops; k++)
		if (in->ops[k]->kind == E_NAME && in->ops[k]->str != ch->sp && is_addr(ch, in->ops[k]->str) &&
		    !kept(ch, in->ops[k]->str))
			return 0;
	return 1;
}

static void requeue(Chains *ch, uint32_t *work, uint32_t *nwork, int i)
{
	if (i >= 0 && ch->c[i].keep && !ch->c[i].queued)
		ch->c[i].queued = 1, work[(*nwork)++] = (uint32_t)i;
}

/* Members stay while their sources and uses allow, until nothing changes:
 * a member dropped has the members it feeds and the members feeding it
 * looked at again. */
static void keep_chains(Dp *d, Chains *ch)
{
	uint32_t *work = arena_alloc(d->arena, (ch->n + 1) * sizeof *work), nwork = 0;
	for (uint32_t i = ch->n; i-- > 0;)
		requeue(ch, work, &nwork, (int)i);
	while (nwork) {
		Chain *m = &ch->c[work[--nwork]];
		m->queued = 0;
		if (!m->keep || (sources_ok(ch, m) && uses_convertible(ch, m)))
			continue;
		m->keep = 0;
		uint32_t n;
		const uint32_t *reads = reguses_reads(ch->r.u, m->reg, &n);
		for (uint32_t i = 0; i < n; i++) {
			const Stmt *s = ch->r.g->ins[reads[i]];
			int t = s->ins.nops && s->ins.ops[0]->kind == E_NAME ? member(ch, s->ins.ops[0]->str) : -1;
			if (t >= 0 && ch->c[t].def == s)
				requeue(ch, work, &nwork, t);
		}
		for (uint32_t k = 1; k < m->def->ins.nops; k++) {
			const Expr *o = m->def->ins.ops[k];
			if (o->kind == E_NAME)
				requeue(ch, work, &nwork, member(ch, o->str));
		}
	}
}

/* Every ld/st reading reg, but def, made .local (a chain member's: each
 * reads it as [reg] or [reg+C], uses_convertible made sure). */
static unsigned localize_reads(const Chains *ch, const char *reg, const Stmt *def)
{
	uint32_t n;
	unsigned made = 0;
	const uint32_t *reads = reguses_reads(ch->r.u, reg, &n);
	for (uint32_t j = 0; j < n; j++) {
		Stmt *s = ch->r.g->ins[reads[j]];
		if (s != def && localizable(&s->ins))
			localize_access(s), made++;
	}
	return made;
}

/* Registers computed from %SP only to be dereferenced become computed
 * from %SPL, and their ld/st .local; so do accesses through %SP itself.
 * Returns how many accesses it made local. */
static unsigned make_local(Dp *d, const Places *b)
{
	const char *sp, *spl;
	Chains ch = {0};
	if (!reg_facts(d, &ch.r) || !generic_root(d, b, &ch.r, &sp, &spl)) {
		reg_facts_free(&ch.r);
		return 0;
	}
	ch.sp = sp;
	ch.c = arena_alloc(d->arena, (d->mo->ndefs + 1) * sizeof *ch.c);
	ch.addrs = arena_alloc(d->arena, (d->mo->ndefs + 1) * sizeof *ch.addrs);
	for (uint32_t i = 0; i < d->mo->ndefs; i++) {
		const MemAddrDef *a = &d->mo->defs[i];
		const Ins *in = &a->at->ins;
		int op = in->sp->code;
		if (in->ops[0]->kind == E_NAME)
			ch.addrs[ch.naddrs++] = in->ops[0]->str;
		if (a->obj != d->dobj || a->root || !a->generic || in->guard ||
		    !(op == O_add || op == O_sub || op == O_mov) || in->ops[0]->kind != E_NAME ||
		    !only_def(&ch.r, in->ops[0]->str, a->at))
			continue;
		ch.c[ch.n++] = (Chain){in->ops[0]->str, a->at, 1, 0};
	}
	qsort(ch.c, ch.n, sizeof *ch.c, by_reg);   /* each register once: only_def */
	qsort(ch.addrs, ch.naddrs, sizeof *ch.addrs, by_name);
	keep_chains(d, &ch);
	unsigned made = 0;
	for (uint32_t i = 0; i < ch.n; i++) {
		if (!ch.c[i].keep)
			continue;
		Ins *in = &ch.c[i].def->ins;
		for (uint32_t k = 1; k < in->nops; k++)
			in->ops[k] = expr_renamed(d->m, in->ops[k], sp, spl);
		made += localize_reads(&ch, ch.c[i].reg, ch.c[i].def);
	}
	/* ld/st straight through %SP */
	uint32_t n;
	const uint32_t *reads = reguses_reads(ch.r.u, sp, &n);
	for (uint32_t j = 0; j < n; j++) {
		Stmt *s = ch.r.g->ins[reads[j]];
		if (!localizable(&s->ins))
			continue;
		uint32_t k = s->ins.sp->code == O_ld ? 1 : 0;
		int ok = plain_address(s->ins.ops[k], sp);
		for (uint32_t i = 0; i < s->ins.nops && ok; i++)
			if (i != k && expr_mentions(s->ins.ops[i], sp))
				ok = 0;
		if (ok) {
			s->ins.ops[k] = expr_renamed(d->m, s->ins.ops[k], sp, spl);
			localize_access(s), made++;
		}
	}
	reg_facts_free(&ch.r);
	return made;
}

/* ---- clean-up: what no instruction reads any more ------------------------ */

static void remove_ins(Places *b, Count **h, Stmt *s)
{
	Place *w = place_of(b, s);
	if (!w || !w->s)
		return;
	if (h)
		count_ins(h, s, -1);
	place_remove(w);
}

/* The stores of objects nothing loads; returns how many went. */
static unsigned drop_dead_stores(Dp *d, Places *b)
{
	unsigned n = 0;
	for (uint32_t i = 0; i < d->mo->nacc; i++) {
		const MemAccess *a = &d->mo->acc[i];
		if (!depot_access(d, a) || a->how != USE_WRITE)
			continue;
		const Obj *o = obj_of_access(d, a);
		if (o->loaded || o->pinned)
			continue;
		remove_ins(b, NULL, a->at);
		n++;
	}
	return n;
}

/* Address arithmetic whose register only its own definition mentions,
 * until none is left; then %SP, %SPL and the depot when unmentioned.
 * Returns whether the depot went. */
static int drop_unused(Dp *d, Places *b, Count **h)
{
	int dropped = 0;
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t i = 0; i < d->mo->ndefs; i++) {
			Stmt *s = d->mo->defs[i].at;
			Place *w = place_of(b, s);
			if (!w || !w->s || s->ins.guard || s->ins.ops[0]->kind != E_NAME ||
			    mentions(*h, s->ins.ops[0]->str) != 1)
				continue;
			remove_ins(b, h, s);
			changed = 1;
		}
	}
	for (uint32_t i = 0; i < b->n; i++) {
		Stmt *s = b->v[i].s;
		if (!s || s->kind != S_VAR || s->var.nds != 1)
			continue;
		const char *name = s->var.ds[0].name;
		int reg = decl_space(&s->var) == SPACE_REG && !s->var.ds[0].count &&
			(!strcmp(name, "%SP") || !strcmp(name, "%SPL"));
		if ((reg || (s == d->decl && !d->named_in_data)) && mentions(*h, name) == 0) {
			place_remove(&b->v[i]);
			if (s == d->decl)
				dropped = 1;
		}
	}
	return dropped;
}

/* ---- debug information ------------------------------------------------- */

/* nvcc -G locates a variable in the depot as DW_OP_addr __local_depotN,
 * DW_OP_plus_uconst OFF (.b8 3, .b64 __local_depotN, .b8 35, ULEB128 OFF)
 * in .debug_info and .debug_loc.  A moved object's OFF is rewritten in the
 * same number of bytes (ULEB128 may be padded), so no section offset moves;
 * a layout whose offsets do not fit is not taken. */
enum { DW_OP_addr = 3, DW_OP_plus_uconst = 35 };

typedef struct Elem {   /* one data element of a section */
	Expr **slot;
} Elem;

typedef struct Named {   /* element i names depot name */
	const char *name;
	uint32_t i;
} Named;

typedef struct Elems {
	Elem *v;
	uint32_t n;
	Named *named;          /* sorted by name, then element (cmp_named) */
	uint32_t nnamed;
} Elems;

typedef struct DebugRef {
	Expr **bytes[ULEB_MAX];
	uint32_t nbytes;
	int64_t off;
} DebugRef;

static int elem_value(const Elem *e, int64_t *v)
{
	return (*e->slot)->kind == E_NUM && int_literal((*e->slot)->str, v);
}

static void add_named(Elems *es, uint32_t *cap, const char *name, uint32_t i)
{
	es->named = array_grow(es->named, es->nnamed, cap, sizeof *es->named);
	es->named[es->nnamed++] = (Named){name, i};
}

/* Each depot element i names (DWARF names each function's) into es. */
static void depots_in(Elems *es, uint32_t *cap, const Expr *e, uint32_t i)
{
	for (; e->kind != E_NAME; e = e->kids[0]) {
		if (e->kind == E_NUM || !e->n)
			return;
		for (uint32_t k = 1; k < e->n; k++)
			depots_in(es, cap, e->kids[k], i);
	}
	if (depot_named(e->str))
		add_named(es, cap, e->str, i);
}

static int cmp_named(const void *pa, const void *pb)
{
	const Named *a = pa, *b = pb;
	if (a->name != b->name)
		return (uintptr_t)a->name < (uintptr_t)b->name ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/* The elements of every section, in order (comma lists split), and by
 * the depot each names: found once for the module, as every function's
 * depot asks, so that -G's thousands of functions each look only at its
 * own (the stage moves what a slot holds, never the slots). */
static Elems section_elems(const Module *m)
{
	Elems e = {0};
	uint32_t cap = 0, ncap = 0;
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_SECTION)
			for (Stmt *x = s->section.items.head; x; x = x->next)
				for (uint32_t i = 0; x->kind == S_DATA && i < x->list.nitems; i++) {
					e.v = array_grow(e.v, e.n, &cap, sizeof *e.v);
					e.v[e.n++] = (Elem){&x->list.items[i]};
					depots_in(&e, &ncap, x->list.items[i], e.n - 1);
				}
	if (e.nnamed)
		qsort(e.named, e.nnamed, sizeof *e.named, cmp_named);
	return e;
}

/* Finds the references to the depot; NULL, or why they cannot follow. */
static const char *find_debug_refs(Dp *d)
{
	const Elems *es = d->sections;
	uint32_t n = es->n;
	const Elem *e = es->v;
	const char *name = d->decl->var.ds[0].name, *why = NULL;
	uint32_t lo = 0, hi = es->nnamed;
	while (lo < hi) {   /* the first element naming it */
		uint32_t mid = lo + (hi - lo) / 2;
		if ((uintptr_t)es->named[mid].name < (uintptr_t)name)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint32_t j = lo; j < es->nnamed && es->named[j].name == name && !why; j++) {
		uint32_t i = es->named[j].i;
		if (j > lo && es->named[j - 1].i == i)
			continue;   /* named twice in one element */
		d->named_in_data = 1;
		int64_t v;
		DebugRef r = {{0}, 0, 0};
		if ((*e[i].slot)->kind != E_NAME || i == 0 || !elem_value(&e[i - 1], &v) || v != DW_OP_addr ||
		    i + 2 >= n || !elem_value(&e[i + 1], &v) || v != DW_OP_plus_uconst) {
			why = "its debug information names it in a form the stage does not rewrite";
			break;
		}
		uint8_t buf[ULEB_MAX];
		for (uint32_t k = i + 2; k < n && r.nbytes < ULEB_MAX; k++) {
			if (!elem_value(&e[k], &v) || v < 0 || v > 255)
				break;
			buf[r.nbytes] = (uint8_t)v;
			r.bytes[r.nbytes++] = e[k].slot;
			if (!(v & 128))
				break;
		}
		uint64_t off;
		if (!uleb_decode(buf, r.nbytes, &off) || off > INT64_MAX)
			why = "its debug information holds an offset the stage cannot read";
		r.off = (int64_t)off;
		d->refs = array_grow(d->refs, d->nrefs, &d->crefs, sizeof *d->refs);
		d->refs[d->nrefs++] = r;
	}
	return why;
}

/* Where a byte of the old layout is now, or -1 when it did not move. */
static int64_t new_offset(Dp *d, int64_t off)
{
	if (!in_depot(d, off) || !d->atom || d->atom[off] < 0)
		return -1;
	const Obj *o = obj_at(d, off);
	return o->at < 0 || o->at == o->lo ? -1 : off - o->lo + o->at;
}

static int debug_refs_fit(Dp *d)
{
	for (uint32_t i = 0; i < d->nrefs; i++) {
		int64_t to = new_offset(d, d->refs[i].off);
		if (to >= 0 && uleb_size((uint64_t)to) > d->refs[i].nbytes)
			return 0;
	}
	return 1;
}

static void move_debug_refs(Dp *d)
{
	for (uint32_t i = 0; i < d->nrefs; i++) {
		const DebugRef *r = &d->refs[i];
		int64_t to = new_offset(d, r->off);
		uint8_t buf[ULEB_MAX];
		if (to < 0 || uleb_encode((uint64_t)to, buf, r->nbytes) != 0)
			continue;
		for (uint32_t k = 0; k < r->nbytes; k++)
			*r->bytes[k] = int_expr(buf[k]);
	}
}

/* ---- the depot's new size ---------------------------------------------- */

/* The new size, and the largest object's alignment unless an object is
 * pinned (what reaches it through an escaped pointer may need the old). */
static void resize(Dp *d, int64_t size)
{
	/* copied on write (ir's decl_set_dim): a declarator may be shared,
	 * as unrecurse's clones once shared their original's */
	decl_set_dim(d->m, &d->decl->var, size);   /* a depot has one dimension (memobjs_depot) */
	int64_t align = 1;
	for (uint32_t i = 0; i < d->nobjs; i++) {
		if (d->objs[i].pinned)
			return;
		if (d->objs[i].at >= 0 && d->objs[i].align > align)
			align = d->objs[i].align;
	}
	Decl *v = &d->decl->var;
	if (v->align && align < v->align)
		decl_set_align(d->m, v, (uint32_t)align);
}

/* ---- remarks and warnings ---------------------------------------------- */

static void remark(const Dp *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void remark(const Dp *d, const char *fmt, ...)
{
	if (!d->o->depot.remarks && !d->o->depot.analysis)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *msg = diag_vformat(fmt, ap);
	va_end(ap);
	diag_remark(d->decl->loc, "%s: %s", plain_name(d->f->name), msg);
	free(msg);
}

/* --warn-stack-size=N, as cicc's -warn-stack-size: the function and its
 * largest objects. */
static void warn_size(const Dp *d, int64_t size)
{
	int64_t limit = d->o->depot.warn_stack_size;
	if (limit < 0 || size <= limit)
		return;
	char buf[512] = "";
	size_t n = 0;
	Key *order = arena_alloc(d->arena, (d->nobjs + 1) * sizeof *order);
	uint32_t k = 0;
	for (uint32_t i = 0; i < d->nobjs; i++) {
		const Obj *o = &d->objs[i];
		if (o->at >= 0 || d->fixed)  /* largest first, whatever the alignment */
			order[k++] = (Key){.size = o->hi - o->lo, .lo = o->lo, .obj = i};
	}
	if (k)
		qsort(order, k, sizeof *order, cmp_key);
	for (uint32_t i = 0; i < k && i < 3 && n < sizeof buf; i++) {
		const Obj *o = &d->objs[order[i].obj];
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%lld bytes at %lld", i ? ", " : "",
			(long long)(o->hi - o->lo), (long long)(d->fixed || o->at < 0 ? o->lo : o->at));
	}
	warn(d->decl->loc, "stack frame size of function %s is %lld bytes, over --warn-stack-size=%lld%s%s%s",
		quoted_name(d->f->name), (long long)size, (long long)limit, k ? " (largest objects: " : "", buf, k ? ")" : "");
}

/* ---- driver ------------------------------------------------------------- */

static void print_stats(const Stats *s)
{
	diag_note("depot: %u functions with a depot: %u repacked, %u kept (not smaller), "
		"%u kept whole (an access may touch any object)", s->funcs, s->repacked,
		s->not_smaller, s->fixed);
	diag_note("depot:   %u objects: %u pinned, %u dead (%u stores removed)", s->objects,
		s->pinned, s->dead, s->stores_removed);
	diag_note("depot:   %llu bytes before, %llu after", (unsigned long long)s->bytes_before,
		(unsigned long long)s->bytes_after);
	diag_note("depot:   %u generic accesses made local, %u depots dropped", s->made_local,
		s->dropped);
	if (s->scalar)  /* only then: a module without gets the notes it always got */
		diag_note("depot:   %u objects held in %u registers", s->scalar, s->pieces);
	if (s->unnamed)
		diag_note("depot:   %u other .local variables dropped: nothing names them", s->unnamed);
}

static void analyse(Dp *d)
{
	if (d->fixed)  /* its accesses may lie outside the depot */
		return;
	const MemObjs *mo = d->mo;
	Arena *a = d->arena;
	d->atom = arena_alloc(a, (size_t)d->size * sizeof *d->atom);
	/* an atom per indexed access's or escape's start, per exact access */
	d->catoms = 2 * mo->nacc + mo->nesc;   /* a lent access: a start and its bytes */
	d->parent = arena_alloc(a, (d->catoms + 1) * sizeof *d->parent);
	make_atoms(d);
	d->first_atom = arena_alloc(a, (mo->nanchors + 1) * sizeof *d->first_atom);
	join_by_anchors(d);
	d->obj_of = arena_alloc(a, (d->natoms + 1) * sizeof *d->obj_of);
	d->objs = arena_alloc(a, ((d->natoms < MAX_OBJS ? d->natoms : MAX_OBJS) + 1) * sizeof *d->objs);
	make_objects(d);
	if (d->fixed)
		return;
	pin_unmovable(d);
	d->words = (d->nobjs + 63) / 64;
	d->conflict = arena_alloc(a, ((size_t)d->nobjs * d->words + 1) * sizeof *d->conflict);
	Cfg *g = cfg_build(d->f);
	if (!g) {
		d->fixed = "its control flow is not understood";
		return;
	}
	interference(d, g);
	cfg_free(g);
}

/* " (address formed at line 301, kernel.cu:58)": the instruction that
 * forms the address which pins an object, in buf. */
static const char *pinned_where(const Dp *d, const Obj *o, char *buf, size_t size)
{
	if (!o->pinned_at)
		return "";
	const char *src = srclines_prefix(d->src, o->pinned_at->loc);
	int n = (int)strlen(src);
	snprintf(buf, size, " (address formed at line %u%s%.*s)", o->pinned_at->loc.line,
		n ? ", " : "", n > 2 ? n - 2 : 0, src);  /* src without its ": " */
	return buf;
}

static void report_objects(const Dp *d, Stats *st)
{
	for (uint32_t i = 0; i < d->nobjs; i++) {
		const Obj *o = &d->objs[i];
		char where[512];
		st->objects++;
		if (o->pinned) {
			st->pinned++;
			remark(d, "bytes %lld..%lld stay: %s%s", (long long)o->lo, (long long)o->hi, o->pinned,
				pinned_where(d, o, where, sizeof where));
		} else if (o->scalar) {
			remark(d, "bytes %lld..%lld are held in registers", (long long)o->lo, (long long)o->hi);
		} else if (!o->loaded) {
			st->dead++;
			remark(d, "bytes %lld..%lld are never read: their stores go", (long long)o->lo,
				(long long)o->hi);
		}
	}
}

/* -Rpass-analysis=depot: each object, where it goes, what it may not
 * share with. */
static void analysis_remarks(Dp *d)
{
	if (!d->o->depot.analysis)
		return;
	for (uint32_t i = 0; i < d->nobjs; i++) {
		const Obj *o = &d->objs[i];
		char with[256] = "";
		size_t n = 0;
		for (uint32_t j = 0; j < d->nobjs && n < sizeof with; j++)
			if (j != i && get_bit(row(d->conflict, d->words, i), j))
				n += (size_t)snprintf(with + n, sizeof with - n, "%s%lld..%lld", n ? ", " : "",
					(long long)d->objs[j].lo, (long long)d->objs[j].hi);
		if (n >= sizeof with)
			strcpy(with + sizeof with - 5, "...");
		char place[32] = "dead";
		if (o->scalar)
			strcpy(place, "registers");
		else if (o->at >= 0)
			snprintf(place, sizeof place, "%s%lld", o->pinned ? "pinned at " : "to ", (long long)o->at);
		int why = !o->scalar && !o->pinned && o->loaded && o->in_memory;
		remark(d, "object %lld..%lld (align %lld): %s%s%s%s%s", (long long)o->lo, (long long)o->hi,
			(long long)o->align, place, n ? "; live with " : "", with,
			why ? "; not in registers: " : "", why ? o->in_memory : "");
	}
}

/* Repacks d's depot; returns whether the code changed. */
static int repack(Dp *d, Stats *st, Places *b, int64_t *size)
{
	analyse(d);
	if (d->fixed) {
		st->fixed++;
		char where[64] = "";
		if (d->fixed_at)
			snprintf(where, sizeof where, " (at line %u)", d->fixed_at->loc.line);
		remark(d, "depot of %lld bytes kept whole: %s%s", (long long)d->size, d->fixed, where);
		return 0;
	}
	/* before layout: what registers hold takes no bytes */
	unsigned scalar = scalar_replace(d, b, st);
	report_objects(d, st);
	anchor_floors(d);
	int64_t packed = place_all(d);
	analysis_remarks(d);
	unsigned removed = drop_dead_stores(d, b);
	st->stores_removed += removed;
	if (packed < d->size && !debug_refs_fit(d)) {
		st->not_smaller++;
		remark(d, "depot of %lld bytes kept: its debug information cannot hold the new offsets",
			(long long)d->size);
		return removed || scalar;
	}
	if (packed >= d->size) {
		st->not_smaller++;
		remark(d, "depot of %lld bytes kept: repacking (%u object%s) would not make it smaller",
			(long long)d->size, d->nobjs, d->nobjs == 1 ? "" : "s");
		return removed || scalar;
	}
	move_anchors(d);
	move_debug_refs(d);
	*size = packed;
	st->repacked++;
	if (packed == 0 && !d->named_in_data) {  /* its declaration goes once nothing names it */
		if (d->sel[0])   /* select_access's offsets: from a depot at 0, none left to name */
			d->root_def->ins.ops[1] = int_expr(0);
		remark(d, "depot of %lld bytes dropped: %s", (long long)d->size,
			scalar ? "registers hold what is read of it" : "nothing in it is read");
		return 1;
	}
	resize(d, packed ? packed : 1);
	remark(d, "depot repacked from %lld to %lld bytes (%u object%s)", (long long)d->size,
		(long long)packed, d->nobjs, d->nobjs == 1 ? "" : "s");
	return 1;
}

/* Repacks the depot, makes its generic accesses local, then drops what
 * no instruction reads any more. */
static void rewrite(Dp *d, Stats *st)
{
	d->decl = d->mo->objs[d->dobj].decl;
	if (d->o->depot.remarks || d->o->depot.analysis)
		d->src = srclines_build(d->m, d->f);
	d->size = d->mo->objs[d->dobj].size;
	st->funcs++;
	d->fixed = d->size > MAX_DEPOT ? "larger than the stage handles" : why_fixed(d, &d->fixed_at);
	const char *debug = find_debug_refs(d);
	if (!d->fixed)
		d->fixed = debug;
	Places b = {0};
	places_of(&b, &d->f->body);
	int64_t size = d->size;
	int changed = repack(d, st, &b, &size);
	unsigned local = make_local(d, &b);
	st->made_local += local;
	int dropped = 0;
	if (changed || local) {
		Count *h = count_names(&b);
		dropped = drop_unused(d, &b, &h);
		free_counts(h);
	}
	st->dropped += (unsigned)dropped;
	st->bytes_before += (uint64_t)d->size;
	st->bytes_after += dropped ? 0 : (uint64_t)size;
	if (d->o->depot.warn && !dropped)
		warn_size(d, size);
	places_free(&b);
}

/* A .local variable besides the depot that no instruction names (its
 * loads forwarded and its stores dropped by the locals stage: the copy
 * ipo-byvalue gave a callee, a callee's array inlined) still takes
 * bytes: ptxas allocates every declared .local, used or not, in either
 * compile mode (y173's fn0: 16 bytes of its frame, and of both kernels'
 * whole-program frames).  Its declaration goes, unless a section names
 * it (nvcc -G's DWARF). */
static void drop_unnamed(const Dp *d, Stats *st)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < d->mo->nobjs; i++)
		n += (int)i != d->dobj && !names_exact(d->named, d->mo->objs[i].name);
	if (!n)
		return;
	const Stmt *depot = d->dobj >= 0 ? d->mo->objs[d->dobj].decl : NULL;
	Places b = {0};
	places_of(&b, &d->f->body);
	Count *h = count_names(&b);
	for (uint32_t i = 0; i < b.n; i++) {
		Stmt *s = b.v[i].s;
		if (!s || s == depot || s->kind != S_VAR || decl_space(&s->var) != SPACE_LOCAL)
			continue;
		int64_t bytes = 0;
		uint32_t j = 0;
		for (; j < s->var.nds; j++) {
			const char *name = s->var.ds[j].name;
			if (mentions(h, name) || names_exact(d->named, name))
				break;
			bytes += decl_bytes(&s->var, &s->var.ds[j]);
		}
		if (j < s->var.nds)
			continue;
		if (d->o->depot.remarks || d->o->depot.analysis)
			diag_remark(s->loc, "%s: .local %s (%lld bytes) dropped: no instruction names it",
				plain_name(d->f->name), s->var.ds[0].name, (long long)bytes);
		place_remove(&b.v[i]);
		st->unnamed++;
	}
	free_counts(h);
	places_free(&b);
}

static void depot_func(Dp d, Stats *st, Borrowers *rd)
{
	d.arena = arena_new(), d.mo = memobjs_build_lent(d.f, rd);
	d.dobj = memobjs_depot(d.mo);
	drop_unnamed(&d, st);
	if (d.dobj >= 0) {
		rewrite(&d, st);
		/* its objects may have moved, and share bytes: an anchor left for
		 * the selects' offsets (add %rd9, %SPL, 48) no longer ends the
		 * array before it (dce asks) */
		d.f->layout_kept = 0;
	}
	d.f->nstarts = 0;
	memobjs_free(d.mo);
	srclines_free(d.src);
	free(d.refs);  /* find_debug_refs grows it */
	arena_free(d.arena);
}

void depot(Module *m, const StageOptions *o)
{
	if (o->depot.off)
		return;
	Stats st = {0};
	Names module = {0};   /* made when scalar replacement first needs it */
	Borrowers *rd = borrowers_build(m);   /* calls that only borrow an object lent them */
	Elems sections = section_elems(m);
	Names named = {0};
	names_of_sections(&named, m);
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->has_body)
			depot_func((Dp){.m = m, .o = o, .f = s->func, .module = &module, .sections = &sections,
				.named = &named}, &st, rd);
	names_free(&named);
	free(sections.v);
	free(sections.named);
	borrowers_free(rd);
	names_free(&module);
	if (o->stats && st.funcs)
		print_stats(&st);
}
