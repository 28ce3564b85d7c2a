/* ptxlink-run: runs one kernel of a PTX module on the CPU.
 *
 *   ptxlink-run [options] file.ptx kernel
 *
 * The printf stream goes to standard output as the kernel runs; after it
 * completes, one line per buffer argument gives the FNV-1a 64 digest of
 * its final contents (and, with --dump, the bytes).  Errors go to
 * standard error as file:line:col: error: ptxlink-run: ..., with the exit
 * codes of run.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "run.h"

Machine *M;

_Noreturn void rt_stop(int code)
{
	fflush(stdout);
	exit(code);
}

_Noreturn void rt_fail(const DIns *d, int code, const char *fmt, ...)
{
	va_list ap;
	char msg[1024];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (M)
		printf_flush();  /* what the block printed before it stopped */
	fflush(stdout);
	if (d && d->st)
		error(d->st->loc, "ptxlink-run: %s", msg);
	else
		fprintf(stderr, "%s: error: ptxlink-run: %s\n", M && M->path ? M->path : "ptxlink-run", msg);
	rt_stop(code);
}

static _Noreturn void bad_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "ptxlink-run: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(RUN_USAGE);
}

static uint64_t parse_u64(const char *s, const char *what)
{
	char *end;
	errno = 0;
	uint64_t v = s[0] == '-' ? (uint64_t)strtoll(s, &end, 0) : strtoull(s, &end, 0);
	if (!*s || *end || errno)
		bad_usage("bad number '%s' for %s", s, what);
	return v;
}

static void parse_dims(const char *s, uint32_t d[3], const char *what)
{
	char buf[128];
	snprintf(buf, sizeof buf, "%s", s);
	d[0] = d[1] = d[2] = 1;
	int i = 0;
	for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
		if (i == 3)
			bad_usage("%s takes at most three sizes", what);
		uint64_t v = parse_u64(tok, what);
		if (v == 0 || v > 65535u * 1024)
			bad_usage("bad %s size '%s'", what, tok);
		d[i++] = (uint32_t)v;
	}
}

/* ---- kernel arguments ---- */

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint64_t make_buffer(const char *spec, int argi)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", spec);
	char *fill = strchr(buf, ':');
	if (fill)
		*fill++ = 0;
	uint64_t size = parse_u64(buf, "buf size");
	if (size > (1ull << 32))
		bad_usage("buffer of %llu bytes is too large", (unsigned long long)size);
	uint64_t a = gmem_alloc(GM_BUFFER, size, 256, "buffer");
	uint8_t *p = gmem_ptr(a, size);
	if (!fill || strcmp(fill, "zero") == 0) {
		/* calloc'd */
	} else if (strncmp(fill, "pattern=", 8) == 0) {
		uint64_t s = parse_u64(fill + 8, "pattern seed") * 0x9E3779B97F4A7C15ull + 1;
		for (uint64_t i = 0; i < size; i++)
			p[i] = (uint8_t)(xorshift(&s) >> 24);
	} else if (strncmp(fill, "byte=", 5) == 0) {
		memset(p, (int)parse_u64(fill + 5, "fill byte"), size);
	} else if (strncmp(fill, "file=", 5) == 0) {
		FILE *f = fopen(fill + 5, "rb");
		if (!f)
			bad_usage("cannot open '%s': %s", fill + 5, strerror(errno));
		size_t got = fread(p, 1, size, f);
		(void)got;
		fclose(f);
	} else
		bad_usage("bad buffer fill '%s'", fill);
	M->bufs = xreallocarray(M->bufs, M->nbufs + 1, sizeof *M->bufs);
	M->bufs[M->nbufs++] = (Buffer){a, size, argi};
	return a;
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
		: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static void put_arg(DFunc *k, uint32_t i, const char *spec)
{
	uint8_t *slot = M->kparam + k->poff[i];
	uint32_t size = k->psz[i];
	const char *colon = strchr(spec, ':');
	char kind[16] = {0};
	size_t klen = colon ? (size_t)(colon - spec) : strlen(spec);
	memcpy(kind, spec, klen < 15 ? klen : 15);
	const char *val = colon ? colon + 1 : "";
	uint64_t v;
	if (strcmp(kind, "zero") == 0)
		return;
	if (strcmp(kind, "words4") == 0 || strcmp(kind, "words8") == 0) {
		uint32_t w = kind[5] == '4' ? 4 : 8;
		v = parse_u64(val, "argument");
		for (uint32_t b = 0; b + w <= size; b += w)
			memcpy(slot + b, &v, w);
		return;
	}
	if (strcmp(kind, "ptrs") == 0) {
		for (uint32_t b = 0; b + 8 <= size; b += 8) {
			v = make_buffer(val, (int)i);
			v += M->bufs[M->nbufs - 1].size / 2 & ~(uint64_t)15;
			memcpy(slot + b, &v, 8);
		}
		return;
	}
	if (strcmp(kind, "hex") == 0) {
		size_t n = strlen(val);
		if (n != 2 * size)
			bad_usage("argument %u: hex needs %u bytes", i + 1, size);
		for (uint32_t b = 0; b < size; b++) {
			int h = hexval(val[2 * b]), l = hexval(val[2 * b + 1]);
			if (h < 0 || l < 0)
				bad_usage("argument %u: bad hex '%s'", i + 1, val);
			slot[b] = (uint8_t)(h << 4 | l);
		}
		return;
	}
	if (strcmp(kind, "buf") == 0) {
		v = make_buffer(val, (int)i);
	} else if (strcmp(kind, "f32") == 0) {
		float f = strtof(val, NULL);
		memcpy(&v, &f, 4);
		v &= 0xFFFFFFFF;
	} else if (strcmp(kind, "f64") == 0) {
		double f = strtod(val, NULL);
		memcpy(&v, &f, 8);
	} else {
		char w[20];
		snprintf(w, sizeof w, ".%s", kind);
		int ty = type_of(w);
		if (ty == TY_NONE || ty_float(ty) || ty == TY_PRED)
			bad_usage("argument %u: unknown kind '%s'", i + 1, kind);
		v = parse_u64(val, "argument");
		if ((uint32_t)ty_bits(ty) / 8 != size)
			bad_usage("argument %u: '%s' is %d bytes, the parameter %u", i + 1, kind,
				ty_bits(ty) / 8, size);
	}
	if (size > 8)
		bad_usage("argument %u: the parameter is %u bytes; use zero or hex:", i + 1, size);
	memcpy(slot, &v, size);
}

/* ---- output ---- */

static uint64_t fnv1a(const uint8_t *p, uint64_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (uint64_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static void dump(const uint8_t *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i += 16) {
		printf("  %08llx:", (unsigned long long)i);
		for (uint64_t j = i; j < i + 16 && j < n; j++)
			printf(" %02x", p[j]);
		printf("\n");
	}
}

/* ---- parameter kinds from a mangled name, for --list ---- */

static int add_sub(char *subs, int *n, char kind)
{
	if (*n < 64)
		subs[(*n)++] = kind;
	return 1;
}

/* One <type> of an Itanium-mangled name: 'p' pointer or reference, 'i'
 * integer, 'f' floating, 'c' class; 0 for what this small reader does
 * not follow (templates, nested names, std:: abbreviations). */
static int mangled_type(const char **pp, char *kind, char *subs, int *nsubs)
{
	const char *p = *pp;
	char inner;
	if (*p == 'P' || *p == 'R' || *p == 'K' || *p == 'V') {
		char q = *p++;
		if (!mangled_type(&p, &inner, subs, nsubs))
			return 0;
		*kind = q == 'P' || q == 'R' ? 'p' : inner;
		add_sub(subs, nsubs, *kind);
	} else if (*p == 'S') {
		int idx = 0;
		p++;
		if (*p != '_') {
			if (!isdigit((unsigned char)*p) && !isupper((unsigned char)*p))
				return 0;
			for (; *p && *p != '_'; p++)
				idx = idx * 36 + (isdigit((unsigned char)*p) ? *p - '0' : *p - 'A' + 10);
			idx++;
		}
		if (*p++ != '_' || idx >= *nsubs)
			return 0;
		*kind = subs[idx];
	} else if (isdigit((unsigned char)*p)) {
		long len = strtol(p, (char **)&p, 10);
		if ((long)strlen(p) < len)
			return 0;
		p += len;
		if (*p == 'I')
			return 0;
		*kind = 'c';
		add_sub(subs, nsubs, 'c');
	} else if (*p && strchr("bcahstijlmxywn", *p)) {
		*kind = 'i';
		p++;
	} else if (*p == 'f' || *p == 'd') {
		*kind = 'f';
		p++;
	} else
		return 0;
	*pp = p;
	return 1;
}

static int mangled_kinds(const char *n, char *out, uint32_t max)
{
	char subs[64];
	int nsubs = 0;
	uint32_t k = 0;
	if (strncmp(n, "_Z", 2) != 0 || !isdigit((unsigned char)n[2]))
		return 0;
	const char *p = n + 2;
	long len = strtol(p, (char **)&p, 10);
	if ((long)strlen(p) < len)
		return 0;
	p += len;
	if (*p == 'I' || (*p == 'v' && !p[1]))
		return 0;
	while (*p && k < max)
		if (!mangled_type(&p, &out[k++], subs, &nsubs))
			return 0;
	return *p ? 0 : (int)k;
}

/* name, then each parameter as type or typexcount (".b8x24"), and
 * ":p" (pointer) or ":i" (integer) when the mangled name says so. */
static void list_kernels(Module *m)
{
	for (Stmt *s = m->items.head; s; s = s->next) {
		if (s->kind != S_FUNC || !s->func->is_entry || !s->func->has_body)
			continue;
		const Func *f = s->func;
		char kinds[256];
		int nk = mangled_kinds(f->name, kinds, sizeof kinds);
		printf("%s", f->name);
		for (uint32_t i = 0; i < f->nparams; i++) {
			const Decl *p = &f->params[i];
			const char *ty = decl_type(p);
			printf(" %s", ty ? ty : "?");
			const Declarator *dr = &p->ds[0];
			for (uint32_t k = 0; k < dr->ndims; k++) {
				printf("x");
				if (dr->dims[k])
					print_expr(stdout, dr->dims[k]);
			}
			if (p->align && dr->ndims)
				printf("/%u", p->align);
			if ((uint32_t)nk == f->nparams && (kinds[i] == 'p' || kinds[i] == 'i'))
				printf(":%c", kinds[i]);
		}
		const uint32_t *b = f->reqntid, *c = f->reqnctapercluster;  /* shapes it demands */
		if (b[0])
			printf(" @block=%u,%u,%u", b[0], b[1], b[2]);
		if (c[0])
			printf(" @cluster=%u,%u,%u", c[0], c[1], c[2]);
		printf("\n");
	}
}

/* One value a line: "  [i] value", hex for unsigned types; floats
 * with their bits, so that a reader can check rounding. */
static void dump_as(const uint8_t *p, uint64_t n, const char *as)
{
	int size = strcmp(as, "u8") == 0 ? 1 : strcmp(as, "u16") == 0 ? 2
		: strcmp(as, "u64") == 0 || strcmp(as, "s64") == 0 || strcmp(as, "f64") == 0 ? 8 : 4;
	for (uint64_t i = 0; i + (uint64_t)size <= n; i += (uint64_t)size) {
		uint64_t v = 0;
		memcpy(&v, p + i, (size_t)size);
		printf("  [%llu] ", (unsigned long long)(i / (uint64_t)size));
		if (strcmp(as, "s32") == 0)
			printf("%d\n", (int32_t)v);
		else if (strcmp(as, "s64") == 0)
			printf("%lld\n", (long long)v);
		else if (strcmp(as, "f32") == 0) {
			float f;
			uint32_t u = (uint32_t)v;
			memcpy(&f, &u, 4);
			printf("%.9g 0x%08x\n", f, u);
		} else if (strcmp(as, "f64") == 0) {
			double f;
			memcpy(&f, &v, 8);
			printf("%.17g 0x%016llx\n", f, (unsigned long long)v);
		} else
			printf("0x%0*llx\n", size * 2, (unsigned long long)v);
	}
}

static void report(int dumpit, const char *as, int globals)
{
	if (M->last_out && M->last_out != '\n')
		printf("\n");
	for (uint32_t i = 0; i < M->nbufs; i++) {
		Buffer *b = &M->bufs[i];
		uint8_t *p = gmem_ptr(b->addr, b->size);
		printf("buffer %u (argument %d, %llu bytes): fnv1a64 %016llx\n", i, b->argi + 1,
			(unsigned long long)b->size, (unsigned long long)fnv1a(p, b->size));
		if (dumpit)
			dump(p, b->size);
		if (as)
			dump_as(p, b->size, as);
	}
	if (!globals)
		return;
	for (Sym *s = M->syms; s < M->syms + M->nsyms; s++) {
		if (s->fn || s->space != SP_GLOBAL || !s->size)
			continue;
		uint8_t *p = gmem_ptr(s->addr, s->size);
		printf("global %s (%u bytes): fnv1a64 %016llx\n", s->sym->name, s->size,
			(unsigned long long)fnv1a(p, s->size));
		if (dumpit)
			dump(p, s->size);
	}
}

/* The cluster shape: what the kernel requires (.reqnctapercluster) or
 * the launch gives (--cluster); one block when neither asks. */
static void cluster_shape(const Func *f, const uint32_t given[3])
{
	int need = func_attr(f, FA_explicitcluster) != NULL;
	const uint32_t *req = f->reqnctapercluster, *use = req[0] ? req : given;
	if (req[0] && given[0] && memcmp(req, given, sizeof f->reqnctapercluster))
		bad_usage("--cluster differs from the kernel's .reqnctapercluster");
	if (need && !use[0])
		bad_usage("kernel '%s' needs a cluster shape: --cluster X[,Y,Z]", f->name);
	M->explicit_cluster = use[0] != 0;
	for (int k = 0; k < 3; k++) {
		M->cluster[k] = use[0] ? use[k] : 1;
		if (!M->cluster[k] || M->grid[k] % M->cluster[k])
			bad_usage("the grid is not a whole number of clusters");
	}
	if ((uint64_t)M->cluster[0] * M->cluster[1] * M->cluster[2] > 16)
		bad_usage("a cluster has at most 16 blocks");
}

/* ---- the command line ---- */

/* What the options ask for beyond the Machine's own fields. */
typedef struct Launch {
	const char *args[256];     /* --arg, one per kernel parameter */
	int nargs;
	int dump, globals, list, trace, by_thread, count;
	const char *as;            /* --dump-as */
	uint32_t cluster[3];       /* --cluster; 0: the kernel's, else 1 */
} Launch;

static void set_grid(Launch *l, const char *v)
{
	parse_dims(v, M->grid, "grid");
}

static void set_block(Launch *l, const char *v)
{
	parse_dims(v, M->block, "block");
}

static void set_cluster(Launch *l, const char *v)
{
	parse_dims(v, l->cluster, "cluster");
}

static void add_arg(Launch *l, const char *v)
{
	if (l->nargs == 256)
		bad_usage("too many --arg");
	l->args[l->nargs++] = v;
}

static void set_dynamic_shared(Launch *l, const char *v)
{
	uint64_t n = parse_u64(v, "--dynamic-shared");
	if (n > UINT32_MAX)
		bad_usage("--dynamic-shared %s: more shared memory than a block can have", v);
	M->dyn_shared = (uint32_t)n;
}

static void set_max_steps(Launch *l, const char *v)
{
	M->max_steps = parse_u64(v, "--max-steps");
}

static void set_stack(Launch *l, const char *v)
{
	uint64_t n = parse_u64(v, "--stack");
	if (n < 64 || n > (1u << 30))
		bad_usage("--stack %s: between 64 bytes and 1 GiB", v);
	M->stack_limit = (uint32_t)n;
}

static void set_dump_as(Launch *l, const char *v)
{
	static const char *const kinds[] = {"u8", "u16", "u32", "u64", "s32", "s64", "f32", "f64", NULL};
	l->as = v;
	if (!str_in(v, kinds))
		bad_usage("bad --dump-as type '%s'", v);
}

/* One option: with a value (named in the help), the function that reads
 * it; without, the Launch flag it sets.  The help is the text after the
 * option's column, its later lines indented as printed (MORE). */
typedef struct Option {
	const char *name, *value;
	void (*set)(Launch *, const char *value);
	size_t flag;
	const char *help;
} Option;

#define MORE "\n                          "

static const Option options[] = {
	{"--grid", "X[,Y,Z]", set_grid, 0, "blocks (default 1)"},
	{"--block", "X[,Y,Z]", set_block, 0, "threads per block (default 1)"},
	{"--cluster", "X[,Y,Z]", set_cluster, 0,
		"blocks per cluster, run together (default: the kernel's" MORE ".reqnctapercluster, else 1)"},
	{"--arg", "SPEC", add_arg, 0, "one per kernel parameter, in order:\n"
		"      u8|u16|u32|u64|s8|s16|s32|s64|b8|b16|b32|b64:INT   f32:REAL   f64:REAL\n"
		"      buf:SIZE[:zero|:pattern=SEED|:byte=N|:file=PATH]   a global buffer; passes its"
		MORE "address\n"
		"      zero                zero bytes, whatever the parameter's size (structs)\n"
		"      ptrs:SIZE[:FILL]    a struct whose every 8-byte word points to the middle of"
		MORE "a new buffer (so small negative offsets stay inside)\n"
		"      hex:HEXBYTES        the parameter's bytes, in memory order\n"
		"      words4:INT, words8:INT  a struct filled with 4- or 8-byte copies of INT"},
	{"--dynamic-shared", "BYTES", set_dynamic_shared, 0, "dynamic shared memory per block"},
	{"--max-steps", "N", set_max_steps, 0, "stop after N thread instructions (default 1000000000)"},
	{"--stack", "BYTES", set_stack, 0, "a thread's local memory: its frames and what alloca" MORE
		"holds (default 524288, what a GPU thread may have)"},
	{"--dump", NULL, NULL, offsetof(Launch, dump), "print every buffer's bytes after its digest"},
	{"--dump-as", "TYPE", set_dump_as, 0, "print every buffer as values, one a line; TYPE is"
		MORE "u8, u16, u32, u64 (hex), s32, s64, f32, f64"},
	{"--globals", NULL, NULL, offsetof(Launch, globals),
		"also digest the module's .global variables"},
	{"--printf-by-thread", NULL, NULL, offsetof(Launch, by_thread),
		"print the printf stream grouped by thread (block by block," MORE
		"in thread order), an order that does not depend on how" MORE
		"divergent paths were scheduled"},
	{"--trace", NULL, NULL, offsetof(Launch, trace),
		"print every warp step (block, warp, lanes, line) to stderr"},
	{"--count", NULL, NULL, offsetof(Launch, count),
		"after the run, print to stderr the thread instructions" MORE "executed, per thread, and the calls and local-memory" MORE
		"instructions among them (a run-time yardstick)"},
	{"--list", NULL, NULL, offsetof(Launch, list),
		"list the kernels and their parameters, one a line" MORE "(ptxlink-run --list file.ptx)"},
};

static void usage(FILE *f)
{
	fputs("usage: ptxlink-run [options] file.ptx kernel\n", f);
	for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
		char col[32];
		const Option *o = &options[i];
		snprintf(col, sizeof col, "%s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
		fprintf(f, "  %-24s%s\n", col, o->help);
	}
}

/* The option argv[*i] names, its value consumed; NULL when it names
 * none, or lacks its value. */
static const Option *option(Launch *l, int argc, char **argv, int *i)
{
	for (size_t k = 0; k < sizeof options / sizeof *options; k++) {
		const Option *o = &options[k];
		if (strcmp(argv[*i], o->name) != 0)
			continue;
		if (!o->value)
			*(int *)((char *)l + o->flag) = 1;
		else if (*i + 1 < argc)
			o->set(l, argv[++*i]);
		else
			return NULL;
		return o;
	}
	return NULL;
}

/* --count: M->nthreads is one cluster's; the grid ran them all. */
static void print_count(void)
{
	uint64_t n = (uint64_t)M->grid[0] * M->grid[1] * M->grid[2] *
		M->block[0] * M->block[1] * M->block[2];
	fprintf(stderr, "count: %llu threads, %llu instructions (%.1f per thread), %llu calls, "
		"%llu local-memory instructions\n", (unsigned long long)n,
		(unsigned long long)M->steps, (double)M->steps / (double)n,
		(unsigned long long)M->ncalls, (unsigned long long)M->nlocal);
}

int main(int argc, char **argv)
{
	Launch l = {0};
	const char *pos[2];
	int npos = 0;
	ctx_enter(ctx_new());   /* the names and diagnostics of this one run */
	M = xcalloc(1, sizeof *M);
	M->grid[0] = M->grid[1] = M->grid[2] = 1;
	M->block[0] = M->block[1] = M->block[2] = 1;
	M->max_steps = 1000000000ull;
	M->stack_limit = 512u << 10;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (option(&l, argc, argv, &i))
			continue;
		else if (a[0] == '-' && a[1]) {
			usage(stderr);
			bad_usage("unknown option '%s'", a);
		} else if (npos < 2)
			pos[npos++] = a;
		else
			bad_usage("too many operands");
	}
	M->trace = l.trace;
	M->by_thread = l.by_thread;
	M->count = l.count;
	if (l.list && npos == 1) {
		Module *m = ptx_parse_file(pos[0]);
		if (!m)
			return RUN_USAGE;
		list_kernels(m);
		mod_free(m);
		return RUN_OK;
	}
	if (npos != 2) {
		usage(stderr);
		return RUN_USAGE;
	}
	if ((uint64_t)M->block[0] * M->block[1] * M->block[2] > 1024)
		bad_usage("a block has at most 1024 threads");
	M->path = pos[0];
	Module *m = ptx_parse_file(pos[0]);
	if (!m)
		return RUN_USAGE;
	M->mod = m;
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_ADDRSIZE && s->strs.nstrs && strcmp(s->strs.strs[0], "32") == 0) {
			error(s->loc, "ptxlink-run: .address_size 32 is not supported");
			return RUN_UNSUPPORTED;
		}
	layout_module(m);
	DFunc *k = find_func(intern_cstr(pos[1]));
	if (!k || !k->f->is_entry || !k->f->has_body)
		bad_usage("%s: no kernel (.entry with a body) named '%s'", pos[0], pos[1]);
	cluster_shape(k->f, l.cluster);
	if ((uint64_t)M->shared_static + M->dyn_shared >= SHARED_MAX)
		bad_usage("shared memory of %llu bytes is too large",
			(unsigned long long)M->shared_static + M->dyn_shared);
	decode_func(k);
	if ((uint32_t)l.nargs != k->nparams)
		bad_usage("kernel '%s' takes %u parameters, %d --arg given", pos[1], k->nparams, l.nargs);
	M->kparam = xcalloc(M->kpsize + 8, 1);
	for (uint32_t i = 0; i < k->nparams; i++)
		put_arg(k, i, l.args[i]);
	run_grid(k);
	report(l.dump, l.as, l.globals);
	fflush(stdout);
	if (l.count)
		print_count();
	return RUN_OK;
}
