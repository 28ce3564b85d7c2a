/* Opcode lookup and interned instruction spellings. */
#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "ctx.h"

static const Opcode opcodes[] = {
#define OP(name, min, max, roles, flags) {#name, min, max, flags, roles},
#include "opcodes.h"
#undef OP
};

const Opcode *opcode_find(const char *base, size_t n)
{
	size_t lo = 0, hi = sizeof opcodes / sizeof *opcodes;
	while (lo < hi) {  /* the table is kept sorted by name */
		size_t mid = (lo + hi) / 2;
		int c = strncmp(opcodes[mid].name, base, n);
		if (c == 0 && opcodes[mid].name[n])
			c = 1;
		if (c == 0)
			return &opcodes[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Found through the interned text (intern_spelling); the context's list
 * is for spelling_reset. */
typedef struct SpellingEntry {
	struct SpellingEntry *next;
	Spelling sp;
} SpellingEntry;

static const char *const space_names[] = {
	[SPACE_REG] = ".reg", [SPACE_SREG] = ".sreg", [SPACE_CONST] = ".const",
	[SPACE_GLOBAL] = ".global", [SPACE_LOCAL] = ".local", [SPACE_PARAM] = ".param",
	[SPACE_SHARED] = ".shared", [SPACE_TEX] = ".tex",
};

/* ".shared::cluster" names the .shared space too. */
Space space_of(const char *w)
{
	size_t n = strcspn(w, ":");
	for (int k = SPACE_REG; k <= SPACE_TEX; k++)
		if (strlen(space_names[k]) == n && !strncmp(w, space_names[k], n))
			return (Space)k;
	return SPACE_NONE;
}

const char *space_spelling(Space k)
{
	return k == SPACE_NONE ? NULL : space_names[k];
}

/* ---- modifier words (mods.h) ---- */

static const struct { const char *word; int bits, flags; } types[] = {
	[TY_NONE] = {NULL, 0, 0},
#define TYPE(name, word, bits, flags) [TY_##name] = {word, bits, flags},
#include "mods.h"
};

static const uint8_t mod_groups[] = {
#define MOD(name, word, group) [MOD_##name] = group,
#include "mods.h"
};

int ty_flags(int ty) { return types[ty].flags; }
const char *ty_word(int ty) { return types[ty].word; }
int ty_bits(int ty) { return types[ty].bits; }
int ty_signed(int ty) { return (types[ty].flags & TF_SIGNED) != 0; }
int ty_float(int ty) { return (types[ty].flags & TF_FLOAT) != 0; }
int ty_floats(int ty) { return (types[ty].flags & (TF_FLOAT | TF_PAIR)) != 0; }
int ty_size(int ty) { return types[ty].flags & TF_SIZED ? types[ty].bits / 8 : 0; }
int mod_group(int mod) { return mod_groups[mod]; }

/* Every word of mods.h and the vector widths of decls.h, sorted for
 * lookup; .lo and .hi are there twice. */
typedef struct Word {
	const char *word;
	uint8_t kind, id;
} Word;

enum {
	VEC_COUNT = 0
#define VEC(n, word) + 1
#include "decls.h"
};

/* Filled once for the process (pthread_once): constant afterwards, so
 * threads read it without a lock. */
static Word wordtab[TY_COUNT + RND_COUNT + CMP_COUNT + MOD_COUNT + VEC_COUNT];
static size_t nwords;
static pthread_once_t words_once = PTHREAD_ONCE_INIT;

static int word_cmp(const void *a, const void *b)
{
	const Word *x = a, *y = b;
	int c = strcmp(x->word, y->word);
	return c ? c : x->kind - y->kind;
}

static void add_word(const char *w, int kind, int id)
{
	wordtab[nwords++] = (Word){w, (uint8_t)kind, (uint8_t)id};
}

static void fill_words(void)
{
#define TYPE(name, word, bits, flags) add_word(word, MW_TYPE, TY_##name);
#define RND(name, word) add_word(word, MW_RND, RND_##name);
#define CMP(name, word) add_word(word, MW_CMP, CMP_##name);
#define MOD(name, word, group) add_word(word, MW_MOD, MOD_##name);
#include "mods.h"
#define VEC(n, word) add_word(word, MW_VEC, n);
#include "decls.h"
	qsort(wordtab, nwords, sizeof *wordtab, word_cmp);
}

/* The row for w (the first of two, by kind), or NULL. */
static const Word *find_word(const char *w, size_t n)
{
	pthread_once(&words_once, fill_words);
	size_t lo = 0, hi = nwords;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strncmp(wordtab[mid].word, w, n);
		if (c == 0 && wordtab[mid].word[n])
			c = 1;
		if (c >= 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo < nwords && !strncmp(wordtab[lo].word, w, n) && !wordtab[lo].word[n])
		return &wordtab[lo];
	return NULL;
}

int type_of(const char *w)
{
	const Word *k = w ? find_word(w, strlen(w)) : NULL;
	return k && k->kind == MW_TYPE ? k->id : TY_NONE;
}

/* .m16n8k16 or .m8n8: 2 or 3 dimensions, 0 if not a shape. */
static int shape_of(const char *w, uint16_t *dim)
{
	static const char letter[] = "mnk";
	int n = 0;
	for (const char *p = w + 1; n < 3 && *p == letter[n] && isdigit((unsigned char)p[1]); n++) {
		char *end;
		dim[n] = (uint16_t)strtoul(p + 1, &end, 10);
		p = end;
		if (!*p)
			return n >= 1 ? n + 1 : 0;
	}
	return 0;
}

static void set_mod(Spelling *sp, int mod)
{
	sp->set.w[mod / 64] |= 1ull << (mod % 64);
}

/* A space word: .global, and .shared::cluster with its qualifier's bit;
 * an unknown qualifier leaves the word unknown. */
static ModWord space_word(Spelling *sp, const char *w, Space k)
{
	if (k != SPACE_REG && k != SPACE_SREG) {  /* no memory */
		if (!sp->space)
			sp->space = (uint8_t)k;
		else
			sp->space2 = (uint8_t)k;
	}
	if (strchr(w, ':')) {
		const Word *r = find_word(w, strlen(w));
		if (!r || r->kind != MW_MOD)
			return (ModWord){MW_UNKNOWN, 0};
		set_mod(sp, r->id);
	}
	return (ModWord){MW_SPACE, (uint8_t)k};
}

static ModWord modifier(Spelling *sp, const char *w)
{
	Space k = space_of(w);
	uint16_t dim[3] = {0};
	int n;
	if (k != SPACE_NONE)
		return space_word(sp, w, k);
	const Word *r = find_word(w, strlen(w));
	const char *family = strstr(w, "::");
	if (!r && family)  /* .L1::evict_last: the .L1:: row */
		r = find_word(w, (size_t)(family - w) + 2);
	/* .lo's CMP row sorts before its MOD row; setp.lo compares, mul.lo does not */
	if (r && r->kind == MW_CMP && sp->code != O_setp && sp->code != O_set &&
	    r + 1 < wordtab + nwords && !strcmp(r[1].word, r->word))
		r++;
	if (r)
		return (ModWord){r->kind, r->id};
	if ((n = shape_of(w, dim)) != 0) {
		if (!sp->shape[0])
			memcpy(sp->shape, dim, sizeof sp->shape);
		return (ModWord){MW_SHAPE, (uint8_t)n};
	}
	return (ModWord){MW_UNKNOWN, 0};
}

/* What the modifiers say, decoded once: the state spaces (.reg and .sreg
 * are no memory), the vector width, the types in order and the last
 * sized one (cvt.f32.s32's source, ld.v4.f32's element), rounding,
 * comparison, shape and every other word's bit. */
static void decode(Spelling *sp)
{
	sp->code = sp->op ? (uint16_t)(sp->op - opcodes) : O_UNKNOWN;
	sp->vec = 1;
	for (uint32_t i = 0; i < sp->nmods; i++) {
		const char *m = sp->mods[i];
		ModWord w = modifier(sp, m);
		sp->words[i] = w;
		switch (w.kind) {
		case MW_TYPE:
			if (sp->ntypes < 4)
				sp->types[sp->ntypes] = w.id;
			sp->ntypes++;
			if (ty_size(w.id)) {
				sp->type = m;
				sp->type_bytes = (uint8_t)ty_size(w.id);
			}
			break;
		case MW_RND: sp->rnd = w.id; break;
		case MW_CMP: sp->cmp = w.id; break;
		case MW_VEC: sp->vec = w.id; break;
		case MW_MOD: set_mod(sp, w.id); break;
		case MW_UNKNOWN:
			if (!sp->unknown)
				sp->unknown = m;
			break;
		}
	}
}

/* Instructions ptxas 13 compiles to a call of a subroutine it adds to
 * the kernel ($__internal_N_$__cuda_sm20_div_s64 and the like in the
 * cubin's symbols), measured on a kernel of the one instruction for
 * sm_75, 80, 86, 90, 100 and 120 alike: division, reciprocal and square
 * root rounded to .rn, .rz, .rm or .rp in .f32 (with or without .ftz)
 * and .f64; rsqrt.approx.f64 without .ftz; div and rem of 16 and 64
 * bits (480 to 1,888 bytes of SASS each).  Not: .approx and .full
 * forms, rsqrt.approx.ftz.f64, 32-bit div and rem, 64-bit mul, cvt
 * between .f64 and integers, .f16 or .f32, bfe, brev, clz, popc.  An
 * immediate divisor still calls it (div.u64 by 16, div.rn.f32 by 2.0).
 * Whole-program ptxas copies the subroutine into each kernel that uses
 * it; ptxas -c and nvlink keep one for all, and only for the same
 * spelling: div.rn.f32 and div.rn.ftz.f32, div.s64 and rem.s64 each get
 * their own.  The number is the opcode, type, rounding and .ftz. */
static uint32_t slowpath_of(const Spelling *sp)
{
	int ty = sp->ntypes ? sp->types[0] : TY_NONE, bits = ty_bits(ty);
	int ftz = spelling_has(sp, MOD_ftz), calls = 0;
	switch (sp->code) {
	case O_div: case O_rcp: case O_sqrt:
		calls = (ty == TY_F32 || ty == TY_F64) && sp->rnd >= RND_RN && sp->rnd <= RND_RP;
		break;
	case O_rsqrt:
		calls = ty == TY_F64 && spelling_has(sp, MOD_approx) && !ftz;
		break;
	}
	if ((sp->code == O_div || sp->code == O_rem) && !ty_float(ty) && (bits == 16 || bits == 64))
		calls = 1;
	return calls ? (uint32_t)sp->code << 16 | (uint32_t)ty << 8 | (uint32_t)sp->rnd << 1 | (uint32_t)ftz : 0;
}

/* Splits "ld.global.L1::evict_last.u32" into base "ld" and modifiers
 * ".global", ".L1::evict_last", ".u32". */
static void split(Spelling *sp)
{
	const char *t = sp->text;
	const char *dot = strchr(t, '.');
	size_t blen = dot ? (size_t)(dot - t) : strlen(t);
	sp->base = intern(t, blen);
	sp->op = opcode_find(t, blen);
	uint32_t n = 0;
	for (const char *p = dot; p; p = strchr(p + 1, '.'))
		n++;
	sp->mods = n ? xcalloc(n, sizeof *sp->mods) : NULL;
	sp->words = n ? xcalloc(n, sizeof *sp->words) : NULL;
	n = 0;
	for (const char *p = dot; p;) {
		const char *q = strchr(p + 1, '.');
		size_t len = q ? (size_t)(q - p) : strlen(p);
		sp->mods[n++] = intern(p, len);
		p = q;
	}
	sp->nmods = n;
}

const Spelling *spelling_get(const char *text, size_t n)
{
	return spelling_of(intern(text, n));
}

/* By the interned text itself: the parser already has it. */
const Spelling *spelling_of(const char *s)
{
	const Spelling *known = intern_spelling(s);
	if (known)
		return known;
	SpellingEntry *e = xcalloc(1, sizeof *e);
	e->sp.text = s;
	split(&e->sp);
	decode(&e->sp);
	e->sp.slowpath = slowpath_of(&e->sp);
	Ctx *c = ctx_now();
	e->next = c->spellings;
	c->spellings = e;
	intern_set_spelling(s, &e->sp);
	return &e->sp;
}

int spelling_has(const Spelling *sp, int mod)
{
	return (sp->set.w[mod / 64] >> (mod % 64)) & 1;
}

int spelling_ordered(const Spelling *sp)
{
	for (uint32_t k = 0; k < sp->nmods; k++)
		if (sp->words[k].kind == MW_MOD && mod_group(sp->words[k].id) == MG_ORDER &&
		    sp->words[k].id != MOD_weak)
			return 1;
	return 0;
}

void spelling_reset(void)
{
	Ctx *c = ctx_now();
	for (SpellingEntry *e = c->spellings, *next; e; e = next) {
		next = e->next;
		intern_set_spelling(e->sp.text, NULL);
		free(e->sp.mods);
		free(e->sp.words);
		free(e);
	}
	c->spellings = NULL;
}
