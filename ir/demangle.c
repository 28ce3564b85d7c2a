/* A small Itanium C++ ABI demangler, for the names nvcc emits: plain and
 * nested names, internal ones (_ZL), constructors and destructors,
 * operators, lambdas, templates with type and integer arguments and
 * parameter packs, local names (a kernel's static __shared__ variable),
 * substitutions, function parameter types and pointers to functions.  Its
 * output is what GNU's __cxa_demangle prints for these names.  Anything
 * else (arrays, member pointers, expressions) fails, and the name is
 * shown mangled: a diagnostic never depends on it.  Why not
 * __cxa_demangle: see docs/usage.md ("Demangled names").
 *
 * Parsed in one pass; every string lives in a fixed pool, so an
 * adversarial name costs no allocation and fails when the pool, the
 * substitution table or the nesting depth runs out. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "ir.h"

enum { POOL = 8192, MAXSUBS = 128, MAXARGS = 32, MAXDEPTH = 64 };

typedef struct Dm {
	const char *p;
	char pool[POOL];
	size_t used;
	const char *subs[MAXSUBS];  /* S_, S0_, S1_...: substitutable components */
	int nsubs;
	const char *targs[MAXARGS]; /* T_, T0_...: the function's template arguments */
	int ntargs;
	int depth, fail;
	uint8_t fn[MAXSUBS];        /* which substitutions are function types */
	int sub_fn;    /* the last substitution was one */
	int was_fn;    /* the last type was one: "int (*)()" is not "int ()" + "*" */
	int ctor;      /* the last name was a constructor's or destructor's */
	int from_sub;  /* the last name was a substitution (no new candidate) */
} Dm;

/* A formatted string in the pool, or "" after a failure. */
static const char *str(Dm *d, const char *fmt, ...)
{
	if (d->fail)
		return "";
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(d->pool + d->used, POOL - d->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= POOL - d->used) {
		d->fail = 1;
		return "";
	}
	const char *s = d->pool + d->used;
	d->used += (size_t)n + 1;
	return s;
}

static const char *fail(Dm *d)
{
	d->fail = 1;
	return "";
}

static void push(Dm *d, const char *s)
{
	if (d->nsubs == MAXSUBS)
		d->fail = 1;
	else
		d->subs[d->nsubs++] = s;
}

static int eat(Dm *d, char c)
{
	if (*d->p != c)
		return 0;
	d->p++;
	return 1;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static long number(Dm *d)
{
	long n = 0;
	if (!is_digit(*d->p))
		return -1;
	while (is_digit(*d->p) && n < 100000)
		n = n * 10 + (*d->p++ - '0');
	return n;
}

/* <seq-id> _: S_ is 0, S0_ is 1, base 36 with upper-case letters. */
static int seq_id(Dm *d)
{
	long n = 0;
	if (eat(d, '_'))
		return 0;
	for (; *d->p != '_'; d->p++) {
		char c = *d->p;
		if (!is_digit(c) && !(c >= 'A' && c <= 'Z'))
			return -1;
		n = n * 36 + (is_digit(c) ? c - '0' : c - 'A' + 10);
		if (n > MAXSUBS)
			return -1;
	}
	d->p++;
	return (int)n + 1;
}

static const char *source_name(Dm *d)
{
	long n = number(d);
	if (n <= 0 || (long)strnlen(d->p, (size_t)n) < n)
		return fail(d);
	const char *s = d->p;
	d->p += n;
	if (n > 10 && !strncmp(s, "_GLOBAL__N", 10))
		return "(anonymous namespace)";
	return str(d, "%.*s", (int)n, s);
}

static const char *const builtins[][2] = {
	{"v", "void"}, {"w", "wchar_t"}, {"b", "bool"}, {"c", "char"}, {"a", "signed char"},
	{"h", "unsigned char"}, {"s", "short"}, {"t", "unsigned short"}, {"i", "int"},
	{"j", "unsigned int"}, {"l", "long"}, {"m", "unsigned long"}, {"x", "long long"},
	{"y", "unsigned long long"}, {"n", "__int128"}, {"o", "unsigned __int128"},
	{"f", "float"}, {"d", "double"}, {"e", "long double"}, {"g", "__float128"},
	{"z", "..."}, {"Dh", "half"}, {"Dn", "decltype(nullptr)"}, {"Ds", "char16_t"},
	{"Di", "char32_t"}, {"Du", "char8_t"},
};

static const char *builtin(Dm *d)
{
	for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++) {
		size_t n = strlen(builtins[i][0]);
		if (!strncmp(d->p, builtins[i][0], n)) {
			d->p += n;
			return builtins[i][1];
		}
	}
	return NULL;
}

static const char *type(Dm *d);
static const char *params_of(Dm *d);
static const char *name(Dm *d, int top, int *templ, const char **cv);

/* L <type> <value> E: as GNU prints it, 5, 5u, 5l, 5ul, true. */
static const char *literal(Dm *d)
{
	static const char *const suffix[][2] = {
		{"i", ""}, {"j", "u"}, {"l", "l"}, {"m", "ul"}, {"x", "ll"}, {"y", "ull"},
	};
	const char *t = d->p;
	if (*t == 'b' && (t[1] == '0' || t[1] == '1') && t[2] == 'E') {
		d->p += 3;
		return t[1] == '1' ? "true" : "false";
	}
	const char *ty = type(d);
	int neg = eat(d, 'n');
	const char *v = d->p;
	while (is_digit(*d->p))
		d->p++;
	int nv = (int)(d->p - v);
	if (!nv || !eat(d, 'E'))
		return fail(d);
	for (size_t i = 0; i < sizeof suffix / sizeof *suffix; i++)
		if (*t == suffix[i][0][0] && t + 1 == v - neg)
			return str(d, "%s%.*s%s", neg ? "-" : "", nv, v, suffix[i][1]);
	return str(d, "(%s)%s%.*s", ty, neg ? "-" : "", nv, v);
}

/* A literal, a type, or J <arg>* E: a pack, its arguments as a list
 * (one template argument, for T_; Dp spells it out). */
static const char *template_arg(Dm *d)
{
	if (eat(d, 'L'))
		return literal(d);
	if (!eat(d, 'J'))
		return type(d);
	const char *out = "";
	if (++d->depth > MAXDEPTH)
		return fail(d);
	while (!d->fail && !eat(d, 'E')) {
		const char *a = template_arg(d);
		out = str(d, "%s%s%s", out, *out && *a ? ", " : "", a);
	}
	d->depth--;
	return out;
}

/* I <arg>+ E, as "<a, b>"; top: they are the function's, for T_. */
static const char *template_args(Dm *d, int top)
{
	const char *out = "<";
	const char *args[MAXARGS];
	int n = 0;
	d->p++;
	while (!d->fail && !eat(d, 'E')) {
		const char *a = template_arg(d);
		if (n == MAXARGS)
			return fail(d);
		args[n++] = a;
		out = str(d, "%s%s%s", out, n > 1 && *a && out[1] ? ", " : "", a);
	}
	if (top && !d->fail) {
		memcpy(d->targs, args, n * sizeof *args);
		d->ntargs = n;
	}
	/* GNU writes "> >", not ">>" */
	return str(d, "%s%s>", out, out[strlen(out) - 1] == '>' ? " " : "");
}

static const char *substitution(Dm *d)
{
	d->p++;
	if (eat(d, 't'))
		return str(d, "std::%s", source_name(d));
	int i = seq_id(d);
	if (i < 0 || i >= d->nsubs)
		return fail(d);
	d->sub_fn = d->fn[i];
	return d->subs[i];
}

static const char *template_param(Dm *d)
{
	d->p++;
	int i = seq_id(d);
	return i < 0 || i >= d->ntargs ? fail(d) : d->targs[i];
}

/* <operator-name>: two letters, as "operator+" (cv <type>: a conversion,
 * "operator int"). */
static const char *operator_name(Dm *d)
{
	static const char *const ops[][2] = {
		{"nw", " new"}, {"na", " new[]"}, {"dl", " delete"}, {"da", " delete[]"},
		{"ps", "+"}, {"ng", "-"}, {"ad", "&"}, {"de", "*"}, {"co", "~"}, {"pl", "+"},
		{"mi", "-"}, {"ml", "*"}, {"dv", "/"}, {"rm", "%"}, {"an", "&"}, {"or", "|"},
		{"eo", "^"}, {"aS", "="}, {"pL", "+="}, {"mI", "-="}, {"mL", "*="}, {"dV", "/="},
		{"rM", "%="}, {"aN", "&="}, {"oR", "|="}, {"eO", "^="}, {"ls", "<<"}, {"rs", ">>"},
		{"lS", "<<="}, {"rS", ">>="}, {"eq", "=="}, {"ne", "!="}, {"lt", "<"}, {"gt", ">"},
		{"le", "<="}, {"ge", ">="}, {"ss", "<=>"}, {"nt", "!"}, {"aa", "&&"}, {"oo", "||"},
		{"pp", "++"}, {"mm", "--"}, {"cm", ","}, {"pm", "->*"}, {"pt", "->"}, {"cl", "()"},
		{"ix", "[]"}, {"qu", "?"},
	};
	if (d->p[0] == 'c' && d->p[1] == 'v') {
		d->p += 2;
		return str(d, "operator %s", type(d));
	}
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
		if (!strncmp(d->p, ops[i][0], 2)) {
			d->p += 2;
			return str(d, "operator%s", ops[i][1]);
		}
	return fail(d);
}

/* Ul <parameter types> E [<number>] _: "{lambda(int, float)#1}"; Ut: an
 * unnamed type's. */
static const char *unnamed(Dm *d)
{
	const char *params = "";
	int lambda = d->p[1] == 'l';
	d->p += 2;
	if (lambda)
		params = params_of(d);
	if (lambda && !eat(d, 'E'))
		return fail(d);
	long n = is_digit(*d->p) ? number(d) + 1 : 0;
	if (!eat(d, '_'))
		return fail(d);
	return lambda ? str(d, "{lambda(%s)#%ld}", params, n + 1) : str(d, "{unnamed type#%ld}", n + 1);
}

/* C1, C2, C3 and D0, D1, D2 name the class they are in (last). */
static const char *unqualified(Dm *d, const char *last)
{
	d->ctor = last && (*d->p == 'C' || *d->p == 'D');
	if (*d->p == 'L' && is_digit(d->p[1]))   /* internal linkage: _ZL6helperi */
		d->p++;
	if (is_digit(*d->p))
		return source_name(d);
	if (*d->p == 'U' && (d->p[1] == 'l' || d->p[1] == 't'))
		return unnamed(d);
	if (*d->p >= 'a' && *d->p <= 'z')
		return operator_name(d);
	if (last && *d->p == 'C' && d->p[1] >= '1' && d->p[1] <= '3') {
		d->p += 2;
		return last;
	}
	if (last && *d->p == 'D' && d->p[1] >= '0' && d->p[1] <= '2') {
		d->p += 2;
		return str(d, "~%s", last);
	}
	return fail(d);
}

/* N [K] <prefix>... E: each prefix that more follows is substitutable.
 * *cv gets " const" for a const member function. */
static const char *nested(Dm *d, int top, int *templ, const char **cv)
{
	d->p++;
	*cv = eat(d, 'r') ? fail(d) : "";
	if (eat(d, 'V'))
		*cv = " volatile";
	if (eat(d, 'K'))
		*cv = str(d, " const%s", *cv);
	const char *out = NULL, *last = NULL;
	while (!d->fail && !eat(d, 'E')) {
		*templ = 0;
		int again = 0;  /* a substitution is a candidate already */
		if (*d->p == 'I' && out) {
			out = str(d, "%s%s", out, template_args(d, top));
			*templ = 1;
		} else if (*d->p == 'S' && !out) {
			again = d->p[1] != 't';
			out = substitution(d);
		} else if (*d->p == 'T' && !out) {
			out = template_param(d);
		} else {
			last = unqualified(d, last);
			out = out ? str(d, "%s::%s", out, last) : last;
		}
		if (*d->p != 'E' && !again)
			push(d, out);
	}
	return out ? out : fail(d);
}

static const char *encoding(Dm *d, int local);

/* Z <encoding> E <entity> [_ <discriminator>]: f()::s */
static const char *local_name(Dm *d, const char **cv)
{
	d->p++;
	const char *f = encoding(d, 1);
	if (!eat(d, 'E'))
		return fail(d);
	int templ;
	const char *e = name(d, 0, &templ, cv);   /* a lambda's operator() const */
	if (eat(d, '_') && number(d) < 0)
		return fail(d);
	return str(d, "%s::%s", f, e);
}

/* A name; top: the function's own name (its template arguments are T_). */
static const char *name(Dm *d, int top, int *templ, const char **cv)
{
	*templ = 0;
	*cv = "";
	if (++d->depth > MAXDEPTH)
		return fail(d);
	const char *out;
	int from_sub = *d->p == 'S' && d->p[1] != 't';
	if (*d->p == 'N')
		out = nested(d, top, templ, cv);
	else if (*d->p == 'Z')
		out = local_name(d, cv);
	else
		out = *d->p == 'S' ? substitution(d) : unqualified(d, NULL);
	if (*d->p == 'I' && !d->fail) {
		if (!from_sub)
			push(d, out);  /* the template's name */
		out = str(d, "%s%s", out, template_args(d, top));
		*templ = 1;
		from_sub = 0;
	}
	d->from_sub = from_sub;
	d->depth--;
	return out;
}

/* The parameter types up to E (or the end), as "int, float" ("" for v
 * alone, and for an empty pack). */
static const char *params_of(Dm *d)
{
	const char *out = "";
	if (d->p[0] == 'v' && (!d->p[1] || d->p[1] == 'E')) {
		d->p++;
		return out;
	}
	while (!d->fail && *d->p && *d->p != 'E') {
		const char *t = type(d);
		out = str(d, "%s%s%s", out, *out && *t ? ", " : "", t);
	}
	return out;
}

/* F [Y] <return type> <parameter types> E: "float (float, float)"; a
 * pointer or reference to it (ptr "*" or "&", the function type is a
 * candidate first) "float (*)(float, float)". */
static const char *function_type(Dm *d, const char *ptr)
{
	if (ptr)
		d->p++;
	d->p++;
	eat(d, 'Y');
	const char *ret = type(d), *ps = params_of(d);
	if (!eat(d, 'E'))
		return fail(d);
	const char *f = str(d, "%s (%s)", ret, ps);
	if (!ptr)
		return f;
	push(d, f);
	d->fn[d->nsubs - 1] = !d->fail;
	return str(d, "%s (%s)(%s)", ret, ptr, ps);
}

static const char *type(Dm *d)
{
	if (++d->depth > MAXDEPTH)
		return fail(d);
	const char *t = builtin(d), *cv;
	int templ, sub = 0, fn = 0;
	d->was_fn = 0;
	if (t) {
		d->depth--;
		return t;
	}
	switch (*d->p) {
	case 'K': case 'V': case 'P': case 'R': case 'O':
		if ((*d->p == 'P' || *d->p == 'R') && d->p[1] == 'F') {
			t = function_type(d, *d->p == 'P' ? "*" : "&");
			break;
		}
		static const char *const quals[] = {"K const", "V volatile", "P*", "R&", "O&&"};
		const char *q = "";
		for (size_t i = 0; i < 5; i++)
			if (quals[i][0] == *d->p)
				q = quals[i] + 1;
		d->p++;
		t = type(d);
		t = d->was_fn ? fail(d) : str(d, "%s%s", t, q);   /* a function type's declarator */
		break;
	case 'F':
		t = function_type(d, NULL);
		fn = 1;
		break;
	case 'Z':   /* a local type: a lambda's closure as a template argument */
		t = name(d, 0, &templ, &cv);
		break;
	case 'D':   /* Dp: a pack expanded, its types as a list */
		t = d->p[1] == 'p' ? (d->p += 2, type(d)) : fail(d);
		break;
	case 'T': t = template_param(d); break;
	case 'S':
		d->sub_fn = 0;
		t = name(d, 0, &templ, &cv);
		sub = d->from_sub;
		fn = sub && d->sub_fn;
		break;
	case 'N': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		t = name(d, 0, &templ, &cv);
		break;
	default:
		t = fail(d);
	}
	if (!sub) {
		push(d, t);
		d->fn[d->nsubs - 1] = fn && !d->fail;
	}
	d->was_fn = fn;
	d->depth--;
	return t;
}

/* <name> [<return type>] <parameter types>: a variable's is its name; a
 * template function's return type comes first, but GNU shows none for
 * the function of a local name. */
static const char *encoding(Dm *d, int local)
{
	int templ;
	const char *cv, *n = name(d, 1, &templ, &cv);
	if (!*d->p || *d->p == 'E' || d->fail)
		return n;
	const char *ret = templ && !d->ctor ? type(d) : NULL;
	const char *ps = params_of(d);
	if (ret && !local)
		return str(d, "%s %s(%s)%s", ret, n, ps, cv);
	return str(d, "%s(%s)%s", n, ps, cv);
}

/* A virtual table or type information (of a class with virtual
 * functions), else a function or variable. */
static const char *special(Dm *d)
{
	static const char *const what[][2] = {
		{"TV", "vtable for "}, {"TI", "typeinfo for "}, {"TS", "typeinfo name for "},
	};
	for (size_t i = 0; i < sizeof what / sizeof *what; i++)
		if (!strncmp(d->p, what[i][0], 2)) {
			d->p += 2;
			return str(d, "%s%s", what[i][1], type(d));
		}
	return encoding(d, 0);
}

const char *demangle(const char *mangled)
{
	if (!mangled || strncmp(mangled, "_Z", 2))
		return NULL;
	Dm *d = xcalloc(1, sizeof *d);
	d->p = mangled + 2;
	const char *s = special(d);
	const char *out = d->fail || *d->p ? NULL : intern_cstr(s);
	free(d);
	return out;
}

static const char *with_demangled(const char *name, int quote)
{
	const char *dm = demangle(name);
	size_t n = strlen(name) + (dm ? strlen(dm) : 0) + 8;
	char *buf = xmalloc(n);
	const char *q = quote ? "'" : "";
	if (dm)
		snprintf(buf, n, "%s%s%s (%s)", q, name, q, dm);
	else
		snprintf(buf, n, "%s%s%s", q, name, q);
	const char *s = intern_cstr(buf);
	free(buf);
	return s;
}

const char *quoted_name(const char *name)
{
	return with_demangled(name, 1);
}

const char *plain_name(const char *name)
{
	return with_demangled(name, 0);
}
