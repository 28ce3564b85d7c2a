/* Declaration and function-header words (decls.h), decoded once: a Spec
 * knows what its word is from spec_make, a declaration its fields from
 * decl_set, a function its linkage from func_set_specs and its directives'
 * numbers (.maxntid 256, 1, 1) from func_set_attrs.  Stages change
 * words only through the setters here, so fields and words agree;
 * decl_check and func_check (ir_verify) say whether they do. */
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include "ir.h"

/* The LINK rows come first, in Linkage order (relinked). */
static const struct {
	const char *word;
	uint8_t kind, id;
} words[] = {
#define LINK(name, word) {word, SW_LINK, LINK_##name},
#define VEC(n, word) {word, SW_VEC, n},
#define SPEC(name, word) {word, SW_SPEC, SPEC_##name},
#include "decls.h"
};

enum { ON_ENTRY = 1, ON_FUNC = 2 };

static const struct {
	const char *word;
	uint8_t n, min, on;  /* at most n numbers, each at least min */
	uint16_t field;      /* offsetof(Func, ...) when n */
} fattrs[] = {
	[FA_UNKNOWN] = {NULL, 0, 0, 0, 0},
#define FATTR(name, word, on) [FA_##name] = {word, 0, 0, on, 0},
#define FNUM(name, word, n, min, on) [FA_##name] = {word, n, min, on, offsetof(Func, name)},
#include "decls.h"
};

/* A row's field holds its n numbers. */
#define FNUM(name, word, n, min, on) \
	_Static_assert(sizeof ((Func *)0)->name == (n) * sizeof(uint32_t), "Func." #name);
#include "decls.h"

/* .shared::cta is a space; .tf32 a type take() refuses. */
static Spec decode(Spec s)
{
	int k;
	s.kind = SW_UNKNOWN;
	s.id = 0;
	if ((k = space_of(s.word)) != SPACE_NONE) {
		s.kind = SW_SPACE, s.id = (uint8_t)k;
	} else if ((k = type_of(s.word)) != TY_NONE) {
		s.kind = SW_TYPE, s.id = (uint8_t)k;
	} else {
		for (size_t i = 0; i < sizeof words / sizeof *words; i++)
			if (!strcmp(s.word, words[i].word))
				s.kind = words[i].kind, s.id = words[i].id;
	}
	return s;
}

Spec spec_make(const char *word, const char *num, Expr **args, uint32_t nargs)
{
	return decode((Spec){.word = word, .num = num, .args = args, .nargs = nargs});
}

int spec_known(const char *word)
{
	return decode((Spec){.word = word}).kind != SW_UNKNOWN;
}

int fattr_of(const char *word)
{
	for (int k = FA_UNKNOWN + 1; k < FA_COUNT; k++)
		if (!strcmp(word, fattrs[k].word))
			return k;
	return FA_UNKNOWN;
}

/* ---- a declaration's fields ---- */

typedef struct Decoder {
	Decl *d;
	int ptr;          /* after .ptr: the pointee's words */
	int ptr_space;
	int typed;        /* a type word came (the element is complete) */
	DeclProblem *p;
} Decoder;

static int problem(DeclProblem *p, uint32_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int problem(DeclProblem *p, uint32_t at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	p->at = at;
	vsnprintf(p->why, sizeof p->why, fmt, ap);
	va_end(ap);
	return 0;
}
#define refuse(c, ...) problem((c)->p, __VA_ARGS__)

static int is_pow2(int64_t n)
{
	return n > 0 && (n & (n - 1)) == 0;
}

/* N is a power of two.  ptxas reads a declaration's .align N only before
 * its vector width and type (the pointee's follows .ptr); the first one
 * written is the declaration's. */
static int take_align(Decoder *c, uint32_t i, const Spec *s)
{
	int64_t n;
	if (!s->num)
		return refuse(c, i, "'%s' without its number", s->word);
	if (!int_literal(s->num, &n) || !is_pow2(n) || n > (1 << 30))
		return refuse(c, i, "'%s %s': an alignment is a power of two", s->word, s->num);
	if (c->ptr)
		return 1;
	if (c->d->vec > 1 || c->typed)
		return refuse(c, i, "'%s' after the vector width or type: ptxas reads it only before them",
			s->word);
	if (!c->d->align)
		c->d->align = (uint32_t)n;
	return 1;
}

static int take(Decoder *c, uint32_t i, const Spec *s)
{
	Decl *d = c->d;
	switch (s->kind) {
	case SW_LINK:
		if (d->linkage != LINK_INTERNAL)
			return refuse(c, i, "'%s': a second linkage word", s->word);
		d->linkage = s->id;
		return 1;
	case SW_SPACE:
		if (c->ptr && !c->ptr_space)
			c->ptr_space = s->id;
		else if (d->space != SPACE_NONE)
			return refuse(c, i, "'%s': a second state space", s->word);
		else
			d->space = s->id;
		return 1;
	case SW_TYPE:
		if (ty_flags(s->id) & TF_INSN)  /* ptxas's words */
			return refuse(c, i, "'%s' may only be used as an instruction type", s->word);
		if (c->typed)
			return refuse(c, i, "'%s': a second type", s->word);
		d->type = s->id;
		c->typed = 1;
		return 1;
	case SW_VEC:
		if (s->id == 8)
			return refuse(c, i, "'%s' in a declaration: ptxas declares .v2 and .v4 vectors only",
				s->word);
		if (d->vec > 1)
			return refuse(c, i, "'%s': a second vector width", s->word);
		if (c->typed)
			return refuse(c, i, "'%s' after the type: ptxas reads it only before", s->word);
		d->vec = s->id;
		return 1;
	case SW_SPEC:
		if (s->id == SPEC_ptr)
			c->ptr = 1;
		return s->id == SPEC_align ? take_align(c, i, s) : 1;
	default:
		return 1;  /* an unknown word: the parser says so */
	}
}

/* A vector is of a sized type and at most 16 bytes (ptxas: "exceeds 128
 * bit limit", "only allowed over basic types"). */
static int check_vector(Decoder *c, uint32_t n)
{
	Decl *d = c->d;
	uint32_t at = 0;
	for (uint32_t i = 0; i < n; i++)
		if (d->specs[i].kind == SW_VEC)
			at = i;
	const char *v = d->specs[at].word;
	if (!d->type)
		return refuse(c, at, "'%s' without a type", v);
	if (!ty_size(d->type))
		return refuse(c, at, "'%s %s': a vector's elements are sized numbers", v, ty_word(d->type));
	if (ty_size(d->type) * d->vec > 16)
		return refuse(c, at, "'%s %s' is %d bytes: a vector holds at most 16", v, ty_word(d->type),
			ty_size(d->type) * d->vec);
	return 1;
}

int decl_set(Decl *d, Spec *specs, uint32_t n, DeclProblem *p)
{
	DeclProblem ignored;
	Decoder c = {.d = d, .p = p ? p : &ignored};
	d->specs = specs;
	d->nspecs = n;
	d->linkage = LINK_INTERNAL;
	d->space = SPACE_NONE;
	d->type = TY_NONE;
	d->vec = 1;
	d->align = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!take(&c, i, &specs[i]))
			return 0;
	return d->vec == 1 || check_vector(&c, n);
}

/* For a stage's own declaration: a refusal is our bug. */
static void reset(Decl *d, Spec *specs, uint32_t n)
{
	DeclProblem p;
	if (!decl_set(d, specs, n, &p))
		die("declaration words refused: %s", p.why);
}

/* .align goes before the vector width and the type, where ptxas reads it. */
void decl_set_align(Module *m, Decl *d, uint32_t align)
{
	Spec *specs = arena_alloc(m->arena, (d->nspecs + 1) * sizeof *specs);
	char buf[24];
	snprintf(buf, sizeof buf, "%u", align);
	Spec a = spec_make(intern_cstr(".align"), intern_cstr(buf), NULL, 0);
	uint32_t n = 0, placed = 0, ptr = 0;
	for (uint32_t i = 0; i < d->nspecs; i++) {
		Spec s = d->specs[i];
		ptr |= s.kind == SW_SPEC && s.id == SPEC_ptr;
		int mine = !ptr && s.kind == SW_SPEC && s.id == SPEC_align;
		if (!placed && (mine || s.kind == SW_VEC || s.kind == SW_TYPE || ptr)) {
			specs[n++] = a;
			placed = 1;
		}
		if (!mine)
			specs[n++] = s;
	}
	if (!placed)
		specs[n++] = a;
	reset(d, specs, n);
}

void decl_set_dim(Module *m, Decl *d, int64_t n)
{
	Declarator *x = arena_dup(m->arena, d->ds, sizeof *d->ds);
	x->dims = arena_dup(m->arena, x->dims, sizeof *x->dims);
	x->dims[0] = int_expr(n);
	d->ds = x;
}

static Spec *relinked(Module *m, const Spec *old, uint32_t *n, Linkage lk)
{
	Spec *specs = arena_alloc(m->arena, (*n + 1) * sizeof *specs);
	uint32_t k = 0;
	if (lk != LINK_INTERNAL)
		specs[k++] = spec_make(intern_cstr(words[lk - 1].word), NULL, NULL, 0);
	for (uint32_t i = 0; i < *n; i++)
		if (old[i].kind != SW_LINK)
			specs[k++] = old[i];
	*n = k;
	return specs;
}

void decl_set_linkage(Module *m, Decl *d, Linkage lk)
{
	uint32_t n = d->nspecs;
	Spec *specs = relinked(m, d->specs, &n, lk);
	reset(d, specs, n);
}

void func_set_specs(Func *f, Spec *specs, uint32_t n)
{
	f->specs = specs;
	f->nspecs = n;
	f->linkage = LINK_INTERNAL;
	for (uint32_t i = 0; i < n && f->linkage == LINK_INTERNAL; i++)
		if (specs[i].kind == SW_LINK)
			f->linkage = specs[i].id;
}

void func_set_linkage(Module *m, Func *f, Linkage lk)
{
	uint32_t n = f->nspecs;
	Spec *specs = relinked(m, f->specs, &n, lk);
	func_set_specs(f, specs, n);
}

/* ---- a function's directives ---- */

/* Its numbers as ptxas reads them: integers that fit in 32 bits, at
 * least the row's min; a dimension not written is 1. */
static int take_nums(Func *f, const FuncAttr *a, uint32_t at, DeclProblem *p)
{
	int n = fattrs[a->id].n;
	uint32_t v[3];
	if (!n && a->nnums)
		return problem(p, at, "'%s' takes no number", a->word);
	if (n && (!a->nnums || a->nnums > (uint32_t)n))
		return n == 1 ? problem(p, at, "'%s' takes one number, not %u", a->word, a->nnums)
			: problem(p, at, "'%s' takes 1 to %d numbers, not %u", a->word, n, a->nnums);
	for (int i = 0; i < n; i++) {
		int64_t k = 1;
		const char *num = (uint32_t)i < a->nnums ? a->nums[i] : NULL;
		if (num && !int_literal(num, &k))
			return problem(p, at, "'%s %s': not an integer", a->word, num);
		if (num && (k < 0 || k > UINT32_MAX))   /* strtoull's overflow is -1 */
			return problem(p, at, "'%s %s' does not fit in 32 bits", a->word, num);
		if (k < fattrs[a->id].min)
			return problem(p, at, "'%s %s': ptxas wants a positive number", a->word, num);
		v[i] = (uint32_t)k;
	}
	memcpy((char *)f + fattrs[a->id].field, v, (size_t)n * sizeof *v);
	return 1;
}

static int take_attr(Func *f, const FuncAttr *a, uint32_t at, DeclProblem *p)
{
	if (fattrs[a->id].on == ON_ENTRY && !f->is_entry)
		return problem(p, at, "'%s' on a .func: ptxas takes it on a kernel (.entry) only", a->word);
	if (fattrs[a->id].on == ON_FUNC && f->is_entry)
		return problem(p, at, "'%s' on a kernel: ptxas takes it on a .func only", a->word);
	return take_nums(f, a, at, p);
}

/* Pairs ptxas refuses together, and what .blocksareclusters needs. */
_Static_assert(FA_COUNT <= 32, "check_attrs: a bit for each directive");
static int check_attrs(const FuncAttr *attrs, uint32_t n, DeclProblem *p)
{
	static const uint8_t apart[][2] = {{FA_maxntid, FA_reqntid},
		{FA_maxclusterrank, FA_reqnctapercluster}};
	uint32_t seen = 0;
	for (uint32_t i = 0; i < n; i++) {
		seen |= 1u << attrs[i].id;
		for (size_t k = 0; k < sizeof apart / sizeof *apart; k++)
			if ((seen >> apart[k][0] & 1) && (seen >> apart[k][1] & 1))
				return problem(p, i, "'%s' and '%s' together: ptxas takes one or the other",
					fattrs[apart[k][0]].word, fattrs[apart[k][1]].word);
	}
	uint32_t need = 1u << FA_reqntid | 1u << FA_reqnctapercluster;
	for (uint32_t i = 0; i < n; i++)
		if (attrs[i].id == FA_blocksareclusters && (seen & need) != need)
			return problem(p, i, "'%s' without '.reqntid' and '.reqnctapercluster'",
				attrs[i].word);
	return 1;
}

static void clear_nums(Func *f)
{
	for (int k = 0; k < FA_COUNT; k++)
		memset((char *)f + fattrs[k].field, 0, fattrs[k].n * sizeof(uint32_t));
}

int func_set_attrs(Func *f, FuncAttr *attrs, uint32_t n, DeclProblem *p)
{
	DeclProblem ignored;
	p = p ? p : &ignored;
	f->attrs = attrs;
	f->nattrs = n;
	clear_nums(f);
	for (uint32_t i = 0; i < n; i++)   /* an unknown word: the parser said so */
		if (attrs[i].id != FA_UNKNOWN && !take_attr(f, &attrs[i], i, p))
			return 0;
	return check_attrs(attrs, n, p);
}

const FuncAttr *func_attr(const Func *f, int fa)
{
	for (uint32_t i = 0; i < f->nattrs; i++)
		if (f->attrs[i].id == fa)
			return &f->attrs[i];
	return NULL;
}

/* Every word decoded as spec_make would, the fields as decl_set would. */
int decl_check(const Decl *d)
{
	for (uint32_t i = 0; i < d->nspecs; i++) {
		Spec s = decode(d->specs[i]);
		if (s.kind != d->specs[i].kind || s.id != d->specs[i].id)
			return 0;
	}
	Decl again = *d;
	decl_set(&again, d->specs, d->nspecs, NULL);
	return again.linkage == d->linkage && again.space == d->space && again.type == d->type &&
		again.vec == d->vec && again.align == d->align;
}

/* Every directive's id its word's, the numbers as func_set_attrs reads them. */
int func_check(const Func *f)
{
	for (uint32_t i = 0; i < f->nattrs; i++)
		if (f->attrs[i].id != fattr_of(f->attrs[i].word))
			return 0;
	Func again = *f;
	if (!func_set_attrs(&again, f->attrs, f->nattrs, NULL))
		return 0;
	for (int k = 0; k < FA_COUNT; k++)
		if (memcmp((const char *)f + fattrs[k].field, (const char *)&again + fattrs[k].field,
				fattrs[k].n * sizeof(uint32_t)))
			return 0;
	return 1;
}
