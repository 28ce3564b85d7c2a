/* printf.c: lower residual printf calls to CUDA's vprintf ABI (issue 6).
 *
 * GPUs have no variadic calls.  A producer that went through LLVM without
 * clang's CUDA lowering (llc, clang -fno-builtin-printf) leaves
 *     { .param .b64 param0;  st.param.b64 [param0+0], %rd2;
 *       .param .b32 param1;  st.param.f32 [param1+0], %f1;
 *       .param .b32 retval0;
 *       call.uni (retval0), printf, (param0, param1);
 *       ld.param.b32 %r2, [retval0+0]; }
 * which ptxas refuses.  Every st.param of an argument after the format
 * becomes a st.local into the function's one buffer, at the argument's
 * natural alignment (offset rounded up to its size), after C's default
 * promotions (float to double, narrow integers to 32 bits); the call
 * becomes vprintf(fmt, generic address of the buffer), as cicc's
 * PrintfLoweringPass does:
 *     { .param .b64 param0;  st.param.b64 [param0+0], %rd2;
 *       cvt.f64.f32 %printf_fd, %f1;  st.local.f64 [__printf_buf], %printf_fd;
 *       .param .b32 retval0;
 *       cvta.local.u64 %printf_rd, __printf_buf;
 *       .param .b64 param1;  st.param.b64 [param1], %printf_rd;
 *       call.uni (retval0), vprintf, (param0, param1);
 *       ld.param.b32 %r2, [retval0+0]; }
 * A format that traces back to a string constant is checked against the
 * arguments (warnings; errors with -Werror=format).  Any other format (read
 * from a table, passed in, built at run time) goes to vprintf as it is,
 * since vprintf takes any pointer; the promotions and layout above need
 * only the arguments' types, as nvcc's lowering does.  A call this stage
 * cannot read is refused with an error, never guessed.
 *
 * requires: normalized input; builds its own symbol table (which functions
 * call printf) and, per such function, CFG, liveness and reaching
 * definitions / maintains: every other function untouched / breaks: any
 * symbol table or analysis built before it (it adds vprintf, a buffer and
 * registers) / leaves no call to printf, so a second run changes nothing. */
#include <stdlib.h>
#include <string.h>
#include "stages.h"

enum { A_INT, A_FLOAT, A_AGG };          /* argument kinds */
enum { W_INT32, W_INT64, W_FLOAT, W_PTR }; /* what a conversion wants */

typedef struct Arg {
	const char *param;   /* the .param it was passed in */
	Stmt *decl;          /* its declaration, in the call's scope */
	Stmt **stores;       /* the st.param that fill it */
	uint32_t nstores;
	int kind;
	const char *type;    /* A_INT, A_FLOAT: the stored type (".b8", ".f32") */
	int stsize;          /* its size */
	int size, align;     /* in the buffer, after promotion */
	int sext;            /* a narrow integer is sign-extended */
	uint32_t off;        /* its offset in the buffer */
} Arg;

typedef struct PrintfCall {
	Stmt *call;
	List *list;          /* the scope holding the call */
	List **outer;        /* the scopes around it, innermost first */
	uint32_t nouter;
	const char *fmtparam;
	Stmt *fmtstore;
	Arg *args;           /* the arguments after the format */
	uint32_t nargs;
	uint32_t size;       /* bytes of buffer it needs */
} PrintfCall;

typedef struct PrintfFn {
	Module *m;
	const StageOptions *o;
	Func *f;
	const char *printf_name, *vprintf_name;
	PrintfCall *sites;
	uint32_t nsites, cap;
	Names names;         /* declared in the function or the module */
	int bad;             /* errors in this function */
	SrcLines *src;       /* its source lines, for diagnostics at a call */
} PrintfFn;

/* .b, .u and .s types up to 64 bits */
static int is_int_type(int ty)
{
	return ty_size(ty) && ty_size(ty) <= 8 && !ty_floats(ty);
}

static int is_name(const Expr *e, const char *name)
{
	return e->kind == E_NAME && e->str == name;
}

static void fmt_diag(PrintfFn *fn, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fmt_diag(PrintfFn *fn, Loc loc, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const char *at = srclines_prefix(fn->src, loc);
	if (fn->o->printf_lowering.werror_format)
		error(loc, "%s%s [-Werror=format]", at, msg);
	else
		warn(loc, "%s%s [-Wformat]", at, msg);
}

/* ---- names ---------------------------------------------------------- */

static int decl_has(const Decl *d, const char *name)
{
	for (uint32_t i = 0; i < d->nds; i++)
		if (d->ds[i].name == name)
			return 1;
	return 0;
}

static const Declarator *declared_in(const List *l, const char *name, Stmt **at)
{
	for (Stmt *s = l->head; s; s = s->next)
		if (s->kind == S_VAR)
			for (uint32_t i = 0; i < s->var.nds; i++)
				if (s->var.ds[i].name == name) {
					if (at)
						*at = s;
					return &s->var.ds[i];
				}
	return NULL;
}

/* A .param name for the call's scope that hides nothing: not declared
 * there or around it, nor in the function's signature or the module. */
static const char *fresh_param(PrintfFn *fn, const PrintfCall *st, const char *base)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%s", base);
	for (int i = 1;; i++) {
		const char *name = intern_cstr(buf);
		int used = declared_in(st->list, name, NULL) != NULL;
		for (uint32_t k = 0; k < st->nouter && !used; k++)
			used = declared_in(st->outer[k], name, NULL) != NULL;
		for (uint32_t k = 0; k < fn->f->nparams && !used; k++)
			used = fn->f->params[k].ds[0].name == name;
		for (uint32_t k = 0; k < fn->f->nrets && !used; k++)
			used = fn->f->rets[k].ds[0].name == name;
		for (const Stmt *s = fn->m->items.head; s && !used; s = s->next)
			used = (s->kind == S_FUNC && s->func->name == name) ||
				(s->kind == S_VAR && decl_has(&s->var, name));
		if (!used)
			return name;
		snprintf(buf, sizeof buf, "%s_%d", base, i);
	}
}

/* ---- the format string ---------------------------------------------- */

static int parse_int(const Expr *e, int64_t *v)
{
	if (e->kind == E_UNARY && e->op == '-' && parse_int(e->kids[0], v)) {
		*v = -*v;
		return 1;
	}
	return e->kind == E_NUM && int_literal(e->str, v);
}

static uint32_t count_scalars(const Expr *e)
{
	uint32_t n = 0;
	if (e->kind != E_BRACE)
		return 1;
	for (uint32_t i = 0; i < e->n; i++)
		n += count_scalars(e->kids[i]);
	return n;
}

static int flatten(const Expr *e, int64_t *out, uint32_t *n, uint32_t max)
{
	if (e->kind == E_BRACE) {
		for (uint32_t i = 0; i < e->n; i++)
			if (!flatten(e->kids[i], out, n, max))
				return 0;
		return 1;
	}
	return *n < max && parse_int(e, &out[(*n)++]);
}

/* The NUL-terminated string at sym+off, if sym is a .global or .const
 * array of integers with a constant initializer; malloc'ed. */
static char *const_string(const Module *m, const char *sym, int64_t off)
{
	for (const Stmt *s = m->items.head; s; s = s->next) {
		if (s->kind != S_VAR)
			continue;
		for (uint32_t i = 0; i < s->var.nds; i++) {
			const Declarator *d = &s->var.ds[i];
			if (d->name != sym)
				continue;
			Space space = decl_space(&s->var);
			int type = s->var.type;
			if ((space != SPACE_GLOBAL && space != SPACE_CONST) ||
			    !d->init || !is_int_type(type) || s->var.linkage == LINK_EXTERN)
				return NULL;
			uint32_t es = (uint32_t)ty_size(type), max = count_scalars(d->init), n = 0;
			int64_t *vals = xmalloc((max + 1) * sizeof *vals);
			char *str = NULL;
			if (flatten(d->init, vals, &n, max) && off >= 0 && (uint64_t)off < (uint64_t)n * es) {
				size_t len = 0, total = (size_t)n * es;
				str = xmalloc(total - (size_t)off + 1);
				for (size_t b = (size_t)off; b < total; b++) {
					char c = (char)((uint64_t)vals[b / es] >> (8 * (b % es)));
					str[len++] = c;
					if (!c)
						break;
				}
				str[len] = 0;  /* an initializer shorter than the array: zeros */
			}
			free(vals);
			return str;
		}
	}
	return NULL;
}

typedef struct Want {
	int want;
	char conv;           /* the conversion character; 'd' for a '*' */
	char spec[40];       /* the conversion as written, for messages */
} Want;

/* The arguments a C format consumes, in order; unknown or unsupported
 * conversions are reported at loc. */
static uint32_t parse_format(PrintfFn *fn, Loc loc, const char *s, Want *w, uint32_t max)
{
	uint32_t n = 0;
	for (const char *p = s; *p; p++) {
		if (*p != '%')
			continue;
		const char *start = p++;
		if (*p == '%')
			continue;
		uint32_t first = n;
		while (*p && strchr("-+ #0'", *p))
			p++;
		for (int part = 0; part < 2; part++) {  /* width, then .precision */
			if (part && *p == '.')
				p++;
			else if (part)
				break;
			if (*p == '*') {
				if (n < max)
					w[n++] = (Want){W_INT32, 'd', ""};
				p++;
			} else {
				while (*p >= '0' && *p <= '9')
					p++;
			}
		}
		const char *len = p;
		while (*p && strchr("hljztLq", *p))
			p++;
		size_t lenlen = (size_t)(p - len);
		int wide = lenlen && strchr("ljztq", *len) && strncmp(len, "lc", 2);
		char spec[40];
		snprintf(spec, sizeof spec, "%.*s", (int)(p - start + (*p != 0)), start);
		for (uint32_t k = first; k < n; k++)
			memcpy(w[k].spec, spec, sizeof spec);
		int want;
		if (!*p) {
			fmt_diag(fn, loc, "spurious trailing '%%' in format");
			break;
		} else if (strchr("diouxXc", *p)) {
			want = wide && *p != 'c' ? W_INT64 : W_INT32;
		} else if (strchr("fFeEgGaA", *p)) {
			want = W_FLOAT;
		} else if (*p == 's' || *p == 'p') {
			want = W_PTR;
		} else if (*p == 'n') {
			fmt_diag(fn, loc, "format '%s': CUDA's printf does not support %%n", spec);
			want = W_PTR;
		} else {
			fmt_diag(fn, loc, "unknown conversion type character '%c' in format", *p);
			continue;
		}
		if (lenlen > 2 || (lenlen == 2 && len[0] != len[1]) ||
		    (lenlen == 2 && len[0] != 'h' && len[0] != 'l'))
			fmt_diag(fn, loc, "format '%s': bad length modifier '%.*s'", spec, (int)lenlen, len);
		if (n < max) {
			w[n] = (Want){want, *p, ""};
			memcpy(w[n++].spec, spec, sizeof spec);
		}
	}
	return n;
}

static void describe(const Arg *a, char *buf, size_t n)
{
	if (a->kind == A_AGG)
		snprintf(buf, n, "an aggregate of %d bytes", a->size);
	else if (a->kind == A_FLOAT)
		snprintf(buf, n, a->stsize == 4 ? "a float (.f32, promoted to double)" : "a double (%s)",
			a->type);
	else if (a->stsize < 4)
		snprintf(buf, n, "a %d-bit integer (%s, promoted to 32 bits)", 8 * a->stsize, a->type);
	else
		snprintf(buf, n, "a %d-bit integer (%s)", 8 * a->stsize, a->type);
}

static int fits(int want, const Arg *a)
{
	switch (want) {
	case W_INT32: return a->kind == A_INT && a->size == 4;
	case W_INT64: return a->kind == A_INT && a->size == 8;
	case W_FLOAT: return a->kind == A_FLOAT;
	default: return a->kind == A_INT && a->size == 8;
	}
}

static void check_format(PrintfFn *fn, PrintfCall *st, const Want *w, uint32_t nw)
{
	static const char *const wants[] = {
		"a 32-bit integer", "a 64-bit integer", "a floating-point value",
		"a 64-bit pointer",
	};
	Loc loc = st->call->loc;
	char what[96];
	for (uint32_t i = 0; i < nw && i < st->nargs; i++) {
		if (fits(w[i].want, &st->args[i]))
			continue;
		describe(&st->args[i], what, sizeof what);
		fmt_diag(fn, loc, "format '%s' expects %s, but argument %u is %s", w[i].spec,
			wants[w[i].want], i + 2, what);
	}
	if (nw > st->nargs)
		fmt_diag(fn, loc, "format '%s' has no argument: the format wants %u, the call passes %u",
			w[st->nargs].spec, nw, st->nargs);
	else if (nw < st->nargs)
		fmt_diag(fn, loc, "too many arguments for format: the format wants %u, the call passes %u",
			nw, st->nargs);
}

/* ---- reading a call sequence ---------------------------------------- */

static void refuse(PrintfFn *fn, const Stmt *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void refuse(PrintfFn *fn, const Stmt *at, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	error(at->loc, "%scannot lower this call to printf: %s", srclines_prefix(fn->src, at->loc), msg);
	fn->bad++;
}

/* st.param [P+off], v: the offset, or -1 when it does not store to P. */
static int64_t store_offset(const Ins *in, const char *p)
{
	if (in->sp->code != O_st || ins_space(in) != SPACE_PARAM || in->nops != 2 ||
	    in->ops[0]->kind != E_ADDR || in->ops[0]->n != 1)
		return -1;
	const Expr *a = in->ops[0]->kids[0];
	int64_t off;
	if (is_name(a, p))
		return 0;
	if (a->kind == E_BINARY && a->op == '+' && is_name(a->kids[0], p) &&
	    parse_int(a->kids[1], &off) && off >= 0)
		return off;
	return -1;
}

static int decl_size(const Decl *d, const Declarator *dr)
{
	int64_t size = decl_bytes(d, dr);
	if (dr->count || d->vec > 1 || size <= 0 || size > 1 << 16)
		return 0;
	return (int)size;
}

/* Finds P's declaration and stores in the call's scope; 0 after refusing. */
static int read_param(PrintfFn *fn, PrintfCall *st, const char *p, Arg *a)
{
	const Stmt *call = st->call;
	const Declarator *dr = declared_in(st->list, p, &a->decl);
	if (!dr || decl_space(&a->decl->var) != SPACE_PARAM) {
		refuse(fn, call, "argument '%s' is not a .param declared in the call's scope", p);
		return 0;
	}
	int size = decl_size(&a->decl->var, dr);
	if (!size || a->decl->var.nds != 1) {
		refuse(fn, a->decl, "unsupported declaration of argument '%s'", p);
		return 0;
	}
	a->param = p;
	a->size = size;
	a->align = var_align(&a->decl->var);
	a->stores = arena_alloc(fn->m->arena, 16 * sizeof *a->stores);
	int after = 0;
	for (Stmt *s = st->list->head; s; s = s->next) {
		if (s == call) {
			after = 1;
			continue;
		}
		if (s->kind == S_SCOPE && !declared_in(&s->scope, p, NULL) && body_mentions(&s->scope, p)) {
			refuse(fn, s, "'%s' is used in a nested scope", p);
			return 0;
		}
		if (s->kind != S_INS || !ins_mentions(&s->ins, p))
			continue;
		int64_t off = store_offset(&s->ins, p);
		const char *type = s->ins.sp->type;
		int vec = s->ins.sp->vec;
		if (after || off < 0 || !type || expr_mentions(s->ins.ops[1], p)) {
			refuse(fn, s, "'%s' is used other than by a st.param before the call", p);
			return 0;
		}
		if (off + (int64_t)type_bytes(type) * vec > size || a->nstores == 16) {
			refuse(fn, s, "store outside argument '%s' (%d bytes)", p, size);
			return 0;
		}
		if (vec > 1 && (s->ins.ops[1]->kind != E_BRACE || s->ins.ops[1]->n != (uint32_t)vec)) {
			refuse(fn, s, "vector store without %d values", vec);
			return 0;
		}
		a->stores[a->nstores++] = s;
	}
	if (!a->nstores) {
		refuse(fn, call, "argument '%s' is never stored", p);
		return 0;
	}
	return 1;
}

/* A scalar is one plain store at offset 0; anything else is raw bytes. */
static int classify(PrintfFn *fn, Arg *a)
{
	const Ins *in = &a->stores[0]->ins;
	const char *type = in->sp->type;
	if (a->nstores == 1 && in->sp->vec == 1 && store_offset(in, a->param) == 0 && type_bytes(type) <= 8) {
		a->type = type;
		a->stsize = type_bytes(type);
		int ty = type_of(type);
		if (ty == TY_F32 || ty == TY_F64) {
			a->kind = A_FLOAT;
			a->size = a->align = 8;
			return 1;
		}
		if (is_int_type(ty)) {
			a->kind = A_INT;
			a->size = a->align = a->stsize < 4 ? 4 : a->stsize;
			a->sext = ty_signed(ty);
			return 1;
		}
		refuse(fn, a->stores[0], "printf cannot take a %s argument", type);
		return 0;
	}
	a->kind = A_AGG;
	if (a->align < 1 || a->align > 8)
		a->align = 8;
	return 1;
}

static int read_site(PrintfFn *fn, PrintfCall *st)
{
	CallParts c;
	ins_call_parts(&st->call->ins, &c);
	const Expr *args = c.args, *rets = c.rets;
	if (!args || args->n == 0) {
		refuse(fn, st->call, "no format argument");
		return 0;
	}
	for (uint32_t i = 0; i < args->n; i++) {
		if (args->kids[i]->kind != E_NAME) {
			refuse(fn, st->call, "argument %u is not a .param name", i + 1);
			return 0;
		}
		for (uint32_t k = 0; k < i; k++)
			if (args->kids[k]->str == args->kids[i]->str) {
				refuse(fn, st->call, "'%s' is passed twice", args->kids[i]->str);
				return 0;
			}
	}
	if (rets) {
		Stmt *d;
		const Declarator *dr;
		if (rets->n != 1 || rets->kids[0]->kind != E_NAME ||
		    !(dr = declared_in(st->list, rets->kids[0]->str, &d)) ||
		    decl_size(&d->var, dr) != 4) {
			refuse(fn, st->call, "printf's result is not one 32-bit .param of the call's scope");
			return 0;
		}
	}
	Arg fmt = {0};
	if (!read_param(fn, st, args->kids[0]->str, &fmt))
		return 0;
	const Spelling *fsp = fmt.nstores == 1 ? fmt.stores[0]->ins.sp : NULL;
	if (!fsp || fmt.size != 8 || store_offset(&fmt.stores[0]->ins, fmt.param) != 0 ||
	    fsp->type_bytes != 8 || fsp->vec != 1) {
		refuse(fn, st->call, "the format is not one 64-bit pointer");
		return 0;
	}
	st->fmtparam = fmt.param;
	st->fmtstore = fmt.stores[0];
	st->nargs = args->n - 1;
	st->args = arena_alloc(fn->m->arena, (st->nargs + 1) * sizeof *st->args);
	for (uint32_t i = 0; i < st->nargs; i++)
		if (!read_param(fn, st, args->kids[i + 1]->str, &st->args[i]) ||
		    !classify(fn, &st->args[i]))
			return 0;
	return 1;
}

/* The format's text, through value tracking from its st.param. */
static char *format_of(PrintfFn *fn, const PrintfCall *st, const Tracker *t)
{
	uint32_t idx = 0;
	while (idx < t->cfg->nins && t->cfg->ins[idx] != st->fmtstore)
		idx++;
	Value v;
	if (idx == t->cfg->nins || !value_of(t, idx, st->fmtstore->ins.ops[1], &v) || !v.sym)
		return NULL;
	return const_string(fn->m, v.sym, v.off);
}

/* With a run-time format only the types say how an argument promotes; an
 * untyped narrow integer (.b8, .b16) could be signed or not, and only a
 * conversion (%d or %u) would tell. */
static int runtime_args_ok(PrintfFn *fn, const PrintfCall *st)
{
	for (uint32_t i = 0; i < st->nargs; i++) {
		const Arg *a = &st->args[i];
		if (a->kind == A_INT && a->stsize < 4 && (ty_flags(type_of(a->type)) & TF_BITS)) {
			int bits = 8 * a->stsize;
			refuse(fn, a->stores[0], "argument %u is an untyped %s: with a format that is "
				"not a string constant, nothing says whether to sign-extend it (store it "
				"as .s%d or .u%d, or promote it to 32 bits)", i + 2, a->type, bits, bits);
			return 0;
		}
	}
	return 1;
}

/* Offsets at natural alignment; narrow untyped integers take their
 * signedness from the conversion that prints them. */
static void layout(PrintfCall *st, const Want *w, uint32_t nw)
{
	uint32_t off = 0;
	for (uint32_t i = 0; i < st->nargs; i++) {
		Arg *a = &st->args[i];
		if (a->kind == A_INT && a->stsize < 4 && (ty_flags(type_of(a->type)) & TF_BITS))
			a->sext = i < nw && (w[i].conv == 'd' || w[i].conv == 'i');
		off = (off + (uint32_t)a->align - 1) / (uint32_t)a->align * (uint32_t)a->align;
		a->off = off;
		off += (uint32_t)a->size;
	}
	st->size = off;
}

/* ---- rewriting ------------------------------------------------------ */

typedef struct Regs {
	const char *buf, *rd, *fd, *r;  /* NULL until needed */
	uint32_t bufsize;
} Regs;

static Stmt *emit(PrintfFn *fn, List *l, Stmt *at, const Stmt *like, const char *sp, Expr *a, Expr *b)
{
	Expr *ops[2] = {a, b};
	Stmt *s = ins_new(fn->m, like->loc, sp, ops, 2);
	if (like->kind == S_INS) {
		s->ins.guard = like->ins.guard;
		s->ins.guard_neg = like->ins.guard_neg;
	}
	list_insert_before(l, at, s);
	return s;
}

static const char *reg(PrintfFn *fn, const char **slot, const char *base)
{
	if (!*slot)
		*slot = names_fresh(&fn->names, base);
	return *slot;
}

/* An immediate's bits as the double C's promotion makes of a float. */
static Expr *promoted_float(const Expr *e)
{
	const char *s = e->str;
	double d;
	char buf[32];
	if (e->kind != E_NUM)
		return NULL;
	if (s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
		uint32_t bits = (uint32_t)strtoul(s + 2, NULL, 16);
		float f;
		memcpy(&f, &bits, sizeof f);
		d = f;
	} else {
		char *end;
		d = (float)strtod(s, &end);
		if (*end)
			return NULL;
	}
	uint64_t bits;
	memcpy(&bits, &d, sizeof bits);
	snprintf(buf, sizeof buf, "0d%016llX", (unsigned long long)bits);
	return num_expr(intern_cstr(buf));
}

static int rewrite_scalar(PrintfFn *fn, Regs *r, List *l, Stmt *s, const Arg *a)
{
	Expr *v = s->ins.ops[1];
	Expr *addr = expr_addr(fn->m, name_expr(r->buf), a->off);
	char sp[32];
	if (a->kind == A_FLOAT && a->stsize == 4) {
		if (v->kind != E_NAME) {
			if (!(v = promoted_float(v))) {
				refuse(fn, s, "cannot read the float immediate");
				return 0;
			}
		} else {
			Expr *fd = name_expr(reg(fn, &r->fd, "%printf_fd"));
			emit(fn, l, s, s, "cvt.f64.f32", fd, v);
			v = fd;
		}
		emit(fn, l, s, s, "st.local.f64", addr, v);
	} else if (a->kind == A_INT && a->stsize < 4) {
		int bits = 8 * a->stsize;
		int64_t k;
		if (v->kind != E_NAME) {
			if (!parse_int(v, &k)) {
				refuse(fn, s, "cannot read the integer immediate");
				return 0;
			}
			uint32_t u = (uint32_t)k & ((1u << bits) - 1);
			if (a->sext && (u >> (bits - 1)))
				u |= ~((1u << bits) - 1);
			v = int_expr(a->sext ? (int64_t)(int32_t)u : (int64_t)u);
		} else {
			Expr *r32 = name_expr(reg(fn, &r->r, "%printf_r"));
			snprintf(sp, sizeof sp, "cvt.%c32.%c%d", a->sext ? 's' : 'u', a->sext ? 's' : 'u', bits);
			emit(fn, l, s, s, sp, r32, v);
			v = r32;
		}
		emit(fn, l, s, s, "st.local.b32", addr, v);
	} else {
		snprintf(sp, sizeof sp, "st.local%s", a->type);
		emit(fn, l, s, s, sp, addr, v);
	}
	return 1;
}

/* Raw bytes: each store lands at the same place in the buffer, vectors
 * split into elements (the buffer is only 8-aligned). */
static void rewrite_agg(PrintfFn *fn, Regs *r, List *l, Stmt *s, const Arg *a)
{
	const char *type = s->ins.sp->type;
	int vec = s->ins.sp->vec;
	int64_t off = a->off + store_offset(&s->ins, a->param);
	char sp[32];
	snprintf(sp, sizeof sp, "st.local%s", type);
	for (int i = 0; i < vec; i++) {
		Expr *v = vec > 1 ? s->ins.ops[1]->kids[i] : s->ins.ops[1];
		if (is_sink(v))
			continue;
		emit(fn, l, s, s, sp, expr_addr(fn->m, name_expr(r->buf), off + i * type_bytes(type)), v);
	}
}

static int rewrite_site(PrintfFn *fn, Regs *r, PrintfCall *st)
{
	List *l = st->list;
	Stmt *call = st->call;
	for (uint32_t i = 0; i < st->nargs; i++) {
		Arg *a = &st->args[i];
		for (uint32_t k = 0; k < a->nstores; k++) {
			Stmt *s = a->stores[k];
			if (a->kind == A_AGG)
				rewrite_agg(fn, r, l, s, a);
			else if (!rewrite_scalar(fn, r, l, s, a))
				return 0;
			list_remove(l, s);
		}
		list_remove(l, a->decl);
	}
	CallParts c;
	ins_call_parts(&call->ins, &c);
	Expr *ret = (Expr *)c.rets;
	if (!ret) {
		const char *name = fresh_param(fn, st, "retval0");
		list_insert_before(l, call, var_new(fn->m, call->loc, ".param .b32", name));
		Expr *k = name_expr(name);
		ret = expr_list(fn->m, E_PAREN, &k, 1);
	}
	const char *pb = st->nargs ? st->args[0].param : fresh_param(fn, st, "param1");
	Expr *ptr = int_expr(0);
	if (st->nargs) {
		ptr = name_expr(reg(fn, &r->rd, "%printf_rd"));
		emit(fn, l, call, call, "cvta.local.u64", ptr, name_expr(r->buf));
	}
	list_insert_before(l, call, var_new(fn->m, call->loc, ".param .b64", pb));
	emit(fn, l, call, call, "st.param.b64", expr_addr(fn->m, name_expr(pb), 0), ptr);
	Expr *kids[2] = {name_expr(st->fmtparam), name_expr(pb)};
	Expr *ops[3] = {ret, name_expr(fn->vprintf_name), expr_list(fn->m, E_PAREN, kids, 2)};
	call->ins.ops = arena_dup(fn->m->arena, ops, sizeof ops);
	call->ins.nops = 3;
	return 1;
}

/* The buffer and registers go after the function's leading declarations. */
static void declare(PrintfFn *fn, const Regs *r)
{
	List *body = &fn->f->body;
	Stmt *at = body->head;
	while (at && at->kind == S_VAR)
		at = at->next;
	Loc loc = at ? at->loc : (Loc){0};
	char buf[300];
	if (r->bufsize) {
		snprintf(buf, sizeof buf, "%s[%u]", r->buf, r->bufsize);
		list_insert_before(body, at, var_new(fn->m, loc, ".local .align 8 .b8", buf));
	}
	if (r->rd)
		list_insert_before(body, at, var_new(fn->m, loc, ".reg .b64", r->rd));
	if (r->fd)
		list_insert_before(body, at, var_new(fn->m, loc, ".reg .f64", r->fd));
	if (r->r)
		list_insert_before(body, at, var_new(fn->m, loc, ".reg .b32", r->r));
}

/* ---- finding the calls ---------------------------------------------- */

static void find_sites(PrintfFn *fn, List *l)
{
	BodyIt it;
	for (Stmt *s = body_first(l, &it); s; s = body_next(&it)) {
		if (s->kind != S_INS || !ins_mentions(&s->ins, fn->printf_name))
			continue;
		CallParts c;
		if (!ins_call_parts(&s->ins, &c) || c.proto || c.callee->str != fn->printf_name) {
			error(s->loc, "cannot lower printf: its address is taken (only direct calls are)");
			fn->bad++;
			continue;
		}
		fn->sites = array_grow(fn->sites, fn->nsites, &fn->cap, sizeof *fn->sites);
		PrintfCall *st = &fn->sites[fn->nsites++];
		*st = (PrintfCall){.call = s, .list = it.in, .nouter = it.depth};
		st->outer = arena_alloc(fn->m->arena, (it.depth + 1) * sizeof *st->outer);
		for (uint32_t k = 0; k < it.depth; k++)
			st->outer[k] = body_outer(&it, k);
	}
}

/* Every site of one function read and checked, then all rewritten.
 * Returns how many calls it lowered. */
static uint32_t lower_func(PrintfFn *fn, const SymTab *syms)
{
	find_sites(fn, &fn->f->body);
	if (!fn->nsites)
		return 0;
	fn->src = srclines_build(fn->m, fn->f);
	Cfg *cfg = cfg_build(fn->f);
	if (!cfg) {
		fn->bad++;
		return 0;
	}
	Live *live = live_compute(cfg);
	Defs *defs = defs_compute(cfg, live);
	Tracker t = {syms, cfg, live, defs};
	Regs r = {0};
	Want w[256];
	for (uint32_t i = 0; i < fn->nsites; i++) {
		PrintfCall *st = &fn->sites[i];
		if (!read_site(fn, st))
			continue;
		char *fmt = format_of(fn, st, &t);
		uint32_t nw = 0;
		if (fmt) {
			nw = parse_format(fn, st->call->loc, fmt, w, sizeof w / sizeof *w);
			free(fmt);
			check_format(fn, st, w, nw);
		} else if (!runtime_args_ok(fn, st)) {
			continue;
		}
		layout(st, w, nw);
		if (st->size > r.bufsize)
			r.bufsize = st->size;
	}
	defs_free(defs);
	live_free(live);
	cfg_free(cfg);
	if (fn->bad)
		return 0;
	names_of_func(&fn->names, fn->m, fn->f);
	if (r.bufsize)
		r.buf = names_fresh(&fn->names, "__printf_buf");
	for (uint32_t i = 0; i < fn->nsites; i++)
		if (!rewrite_site(fn, &r, &fn->sites[i]))
			return 0;
	declare(fn, &r);
	return fn->nsites;
}

/* ---- the module ----------------------------------------------------- */

static int module_refers(const Module *m, const char *name)
{
	for (const Stmt *s = m->items.head; s; s = s->next) {
		if (s->kind == S_FUNC && s->func->has_body && body_mentions(&s->func->body, name))
			return 1;
		if (s->kind == S_VAR)
			for (uint32_t i = 0; i < s->var.nds; i++)
				if (s->var.ds[i].init && expr_mentions(s->var.ds[i].init, name))
					return 1;
		if ((s->kind == S_ALIAS || s->kind == S_TARGETS) && s->list.nitems)
			for (uint32_t i = 0; i < s->list.nitems; i++)
				if (expr_mentions(s->list.items[i], name))
					return 1;
	}
	return 0;
}

static Decl one_decl(Module *m, const char *specs, const char *name)
{
	return var_new(m, (Loc){0}, specs, name)->var;
}

/* .extern .func (.param .b32 func_retval0) vprintf (.param .b64
 * vprintf_param_0, .param .b64 vprintf_param_1); */
static Stmt *vprintf_decl(Module *m, const char *name, Loc loc)
{
	Func *f = arena_alloc(m->arena, sizeof *f);
	func_set_linkage(m, f, LINK_EXTERN);
	f->rets = arena_alloc(m->arena, sizeof *f->rets);
	f->rets[0] = one_decl(m, ".param .b32", "func_retval0");
	f->nrets = 1;
	f->has_rets = 1;
	f->name = name;
	f->params = arena_alloc(m->arena, 2 * sizeof *f->params);
	f->params[0] = one_decl(m, ".param .b64", "vprintf_param_0");
	f->params[1] = one_decl(m, ".param .b64", "vprintf_param_1");
	f->nparams = 2;
	f->has_params = 1;
	f->attrs = arena_alloc(m->arena, sizeof *f->attrs);
	Stmt *s = stmt_new(m, S_FUNC, loc);
	s->func = f;
	return s;
}

void printf_lower(Module *m, const StageOptions *o)
{
	const char *pf = intern_cstr("printf"), *vpf = intern_cstr("vprintf");
	Stmt *pf_decl = NULL, *vpf_decl = NULL, *first_func = NULL;
	for (Stmt *s = m->items.head; s; s = s->next) {
		if (s->kind != S_FUNC)
			continue;
		if (!first_func)
			first_func = s;
		if (s->func->name == pf && s->func->has_body)
			return;  /* an input defines printf: its calls are ordinary */
		if (s->func->name == pf && !pf_decl)
			pf_decl = s;
		if (s->func->name == vpf && !vpf_decl)
			vpf_decl = s;
	}
	if (!pf_decl && !o->stats)
		return;  /* nothing calls an undeclared printf: spare the symbol table */
	SymTab *syms = symtab_build(m);
	uint32_t lowered = 0;
	int bad = 0;
	for (Stmt *s = m->items.head; s; s = s->next) {
		if (s->kind != S_FUNC || !s->func->has_body)
			continue;
		PrintfFn fn = {.m = m, .o = o, .f = s->func, .printf_name = pf, .vprintf_name = vpf};
		lowered += lower_func(&fn, syms);
		bad += fn.bad;
		free(fn.sites);
		srclines_free(fn.src);
		names_free(&fn.names);
	}
	symtab_free(syms);
	if (bad || !lowered)
		return;
	if (!vpf_decl) {
		Stmt *at = pf_decl ? pf_decl : first_func;
		list_insert_before(&m->items, at, vprintf_decl(m, vpf, at ? at->loc : (Loc){0}));
	}
	if (!module_refers(m, pf))
		for (Stmt *s = m->items.head, *next; s; s = next) {
			next = s->next;
			if (s->kind == S_FUNC && s->func->name == pf)
				list_remove(&m->items, s);
		}
}

int printf_defines(const char *name)
{
	return !strcmp(name, "printf");
}
