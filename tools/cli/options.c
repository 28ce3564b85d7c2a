/* The command line, read through the option table (tools/lib/opttab.h):
 * its spellings are nvlink's and ptxas's, matched exactly (-optf is never
 * -o ptf).  A value follows as NAME=V or as the next argument; -o, -O, -L
 * and -l also take it glued (-oapp.ptx, -O2, -L/dir, -lm), as ld and
 * ptxas do.  A library option goes to opt_set, as ptxlink_set_option's
 * do; the command's own are done here.  --help, --help=man (the man page's
 * OPTIONS) and --help=markdown (docs/command-line.md) print the table. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "driver.h"
#include "tools/lib/core.h"

static const char intro[] =
	"Reads PTX modules, links them into one (nvlink's symbol rules) and writes\n"
	"canonical PTX, after the optimization stages; with --ptxas, the cubin;\n"
	"with -dlink, from nvcc -dc's objects, nvcc -dlink's device-link object.\n"
	"One input without -arch or --strip-debug is not linked; with --no-stages\n"
	"it is the plain round trip.  '-' as input reads standard input.\n";

static const char examples[] =
	"  ptxlink in.ptx -o out.ptx                     optimize one module\n"
	"  ptxlink -arch=sm_80 -o app.ptx a.ptx b.ptx    link a program\n"
	"  ptxlink -arch=sm_80 -L libs -lmath -o app.ptx a.ptx   with a PTX library\n"
	"  ptxlink --ptxas -arch=sm_80 -o app.cubin *.ptx        to machine code\n"
	"  ptxlink --ptxas --fatbin -arch=sm_80 -o app.fatbin *.ptx  cubin and PTX\n"
	"  ptxlink --allow-undefined -o part.ptx a.ptx b.ptx     for 'ptxas -c'\n"
	"  ptxlink -dlink -arch=sm_80 -o dlink.o a.o b.o  in place of nvcc -dlink\n"
	"  ptxlink -optf args.rsp                         arguments from a file\n";

static const char others[] =
	"nvlink's and ptxas's other options are passed to ptxas under --ptxas (-fmad,\n"
	"-Ofc, ...), ignored with a warning (-cpu-arch, ...) or refused with a reason\n"
	"(-dlto, -r, ...); nvcc's on CMake's device-link line (-Xcompiler, -shared,\n"
	"...) are accepted as nvcc -dlink takes them";

/* A row's help, its line breaks as in --help or joined with spaces, and
 * its default where it has a number for one. */
static void help_text(FILE *f, const OptRow *r, const char *nl, void (*put)(FILE *, const char *, size_t))
{
	for (const char *h = r->help; *h;) {
		size_t n = strcspn(h, "\n");
		put(f, h, n);
		h += n;
		if (*h) {
			fputs(nl, f);
			h++;
		}
	}
	if ((r->kind == V_COUNT || r->kind == V_BYTES || r->kind == V_NUMBER) && r->v >= 0)
		fprintf(f, " (default %lld)", r->v);
}

static void put_plain(FILE *f, const char *s, size_t n)
{
	fwrite(s, 1, n, f);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: ptxlink [options] [-o out.ptx] in.ptx...\n\n%s\nexamples:\n%s\n"
		"%s; docs/command-line.md has the table.\n\noptions:\n", intro, examples, others);
	for (const OptRow *r = opt_rows; r < opt_rows + NOPT; r++) {
		if (!r->usage)
			continue;
		fprintf(f, "  %s\n      ", r->usage);
		help_text(f, r, "\n      ", put_plain);
		fputc('\n', f);
	}
}

/* roff: '-' is a minus sign as \-, '\' is \\; a line starting with '.'
 * or '\'' is not a request. */
static void put_roff(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '-')
			fputs("\\-", f);
		else if (s[i] == '\\')
			fputs("\\\\", f);
		else
			fputc(s[i], f);
}

/* .B's argument, quoted when it has spaces, " in it as \(dq */
static void put_roff_arg(FILE *f, const char *s)
{
	const char *q = strchr(s, ' ') ? "\"" : "";
	fputs(q, f);
	for (; *s; s++)
		if (*s == '"')
			fputs("\\(dq", f);
		else
			put_roff(f, s, 1);
	fputs(q, f);
}

static void man(FILE *f)
{
	fputs(".SH OPTIONS\n"
	      ".\\\" Generated from the option table (tools/lib/opttab.h) by 'ptxlink --help=man':\n"
	      ".\\\" tools/cli/gen-docs.sh writes it here, tests/cli-options.sh checks it.\n", f);
	for (const OptRow *r = opt_rows; r < opt_rows + NOPT; r++) {
		if (!r->usage)
			continue;
		fputs(".TP\n.B ", f);
		put_roff_arg(f, r->usage);
		fputc('\n', f);
		if (r->help[0] == '.' || r->help[0] == '\'')
			fputs("\\&", f);
		help_text(f, r, " ", put_roff);
		fputc('\n', f);
	}
}

/* Markdown: a table cell's '|' is \|, in code too. */
static void put_md(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '|')
			fputs("\\|", f);
		else
			fputc(s[i], f);
}

static void markdown_options(FILE *f)
{
	fputs("| option | what it does | ptxlink_set_option |\n| --- | --- | --- |\n", f);
	for (const OptRow *r = opt_rows; r < opt_rows + NOPT; r++) {
		if (!r->usage)
			continue;
		fputs("| `", f);
		put_md(f, r->usage, strlen(r->usage));
		fputs("` | ", f);
		help_text(f, r, " ", put_md);
		if (opt_name(r))
			fprintf(f, " | `\"%s\"` |\n", opt_name(r));
		else
			fputs(" | (the command's own) |\n", f);
	}
}

static int bad(const char *fmt, const char *a)
{
	fputs("ptxlink: error: ", stderr);
	fprintf(stderr, fmt, a);
	fputc('\n', stderr);
	return -1;
}

void strs_push(Strs *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n++] = s;
}

void strs_free(Strs *l)
{
	for (int i = 0; i < l->n; i++)
		free((void *)l->v[i]);
	free(l->v);
}

/* nvlink's and ptxas's other options (their --help, CUDA 13), so that
 * their command lines work or say why not: PASS goes to ptxas under
 * --ptxas, IGNORE is a warning, REFUSE an error; each says why.  HOST is
 * nvcc's, on CMake's device-link line: taken without a word, as nvcc
 * -dlink takes it (host_arg). */
enum { PASS, IGNORE, REFUSE, HOST };
typedef struct Foreign {
	const char *names[2];
	int value;   /* takes one: NAME=V or NAME V */
	int action;
	const char *why;
} Foreign;

static const Foreign foreign[] = {
	{{"-Ofc", "--Ofast-compile"}, 1, PASS, NULL},
	{{"-allow-expensive-optimizations", "--allow-expensive-optimizations"}, 1, PASS, NULL},
	{{"-astoolspatch", "--compile-as-tools-patch"}, 0, PASS, NULL},
	{{"-annotate", "--compiler-annotations"}, 0, PASS, NULL},
	{{"-dlcm", "--def-load-cache"}, 1, PASS, NULL},
	{{"-dscm", "--def-store-cache"}, 1, PASS, NULL},
	{{"-flcm", "--force-load-cache"}, 1, PASS, NULL},
	{{"-fscm", "--force-store-cache"}, 1, PASS, NULL},
	{{"-func-maxrregcount", "--device-function-maxrregcount"}, 1, PASS, NULL},
	{{"-device-stack-protector", "--device-stack-protector"}, 1, PASS, NULL},
	{{"-disable-optimizer-consts", "--disable-optimizer-constants"}, 0, PASS, NULL},
	{{"-no-bb-merge", "--dont-merge-basicblocks"}, 0, PASS, NULL},
	{{"-ewp", "--extensible-whole-program"}, 0, PASS, NULL},
	{{"-fmad", "--fmad"}, 1, PASS, NULL},
	{{"-g-tmem-access-check", "--g-tensor-memory-access-check"}, 0, PASS, NULL},
	{{"-gno-tmem-access-check", "--gno-tensor-memory-access-check"}, 0, PASS, NULL},
	{{"-legacy-bar-warp-wide-behavior", "--legacy-bar-warp-wide-behavior"}, 0, PASS, NULL},
	{{"-make-errors-visible-at-exit", "--make-errors-visible-at-exit"}, 0, PASS, NULL},
	{{"-maxntid", "--maxntid"}, 1, PASS, NULL},
	{{"-minnctapersm", "--minnctapersm"}, 1, PASS, NULL},
	{{"-opt-fp-atomics", "--optimize-float-atomics"}, 0, PASS, NULL},
	{{"-override-directive-values", "--override-directive-values"}, 0, PASS, NULL},
	{{"-pic", "--position-independent-code"}, 1, PASS, NULL},
	{{"-preserve-relocs", "--preserve-relocs"}, 0, PASS, NULL},
	{{"-regUsageLevel", "--register-usage-level"}, 1, PASS, NULL},
	{{"-ret-end", "--return-at-end"}, 0, PASS, NULL},
	{{"-sanitize", "--sanitize"}, 1, PASS, NULL},
	{{"-sp-bounds-check", "--sp-bounds-check"}, 0, PASS, NULL},
	{{"-split-compile", "--split-compile"}, 1, PASS, NULL},
	{{"-suppress-async-bulk-multicast-advisory-warning",
	  "--suppress-async-bulk-multicast-advisory-warning"}, 0, PASS, NULL},
	{{"-suppress-debug-info", "--suppress-debug-info"}, 0, PASS, NULL},
	{{"-suppress-double-demote-warning", "--suppress-double-demote-warning"}, 0, PASS, NULL},
	{{"-suppress-sparse-mma-advisory-info", "--suppress-sparse-mma-advisory-info"}, 0, PASS, NULL},
	{{"-suppress-stack-size-warning", "--suppress-stack-size-warning"}, 0, PASS, NULL},
	{{"-warn-double-usage", "--warn-on-double-precision-use"}, 0, PASS, NULL},
	{{"-warn-lmem-usage", "--warn-on-local-memory-usage"}, 0, PASS, NULL},
	{{"-warn-spills", "--warn-on-spills"}, 0, PASS, NULL},
	{{"-Xcompiler", "--compiler-options"}, 1, HOST,
	 "with -dlink, passed to the host compiler (nvcc's: comma-separated)"},
	{{"-shared", "--shared"}, 0, HOST, "with -dlink, the host compiler gets -fPIC, as from nvcc"},
	{{"-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler"}, 0, HOST,
	 "nvcc's; ptxlink has no unknown options to forward"},
	{{"-Wno-deprecated-gpu-targets", NULL}, 0, HOST, "nvcc's; ptxlink gives no such warning"},
	{{"-cpu-arch", "--cpu-arch"}, 1, IGNORE, "host code is not ptxlink's"},
	{{"-ghls", "--gen-host-linker-script"}, 1, IGNORE, "host code is not ptxlink's"},
	{{"-register-link-binaries", "--register-link-binaries"}, 1, IGNORE, "host code is not ptxlink's"},
	{{"-use-host-info", "--use-host-info"}, 0, IGNORE, "host code is not ptxlink's"},
	{{"-ignore-host-info", "--ignore-host-info"}, 0, IGNORE, "host code is not ptxlink's"},
	{{"-uidx", "--uidx-file"}, 1, IGNORE, "host code is not ptxlink's"},
	{{"-keep-system-libraries", "--keep-system-libraries"}, 0, IGNORE, "ptxlink links no system library"},
	{{"-emit-ptx", "--emit-ptx"}, 0, IGNORE, "ptxlink writes PTX unless --ptxas"},
	{{"-disable-infos", "--disable-infos"}, 0, IGNORE, "ptxlink prints no infos"},
	{{"-extrawarn", "--extra-warnings"}, 0, IGNORE, "ptxlink has no extra warnings"},
	{{"-suppress-arch-warning", "--suppress-arch-warning"}, 0, IGNORE, "ptxlink gives no arch warning"},
	{{"-c", "--compile-only"}, 0, REFUSE,
	 "ptxlink links; '--ptxas --compile-mode=relocatable' runs 'ptxas -c'"},
	{{"-r", "--relocatable-link"}, 0, REFUSE,
	 "'--allow-undefined' writes PTX that a later link completes"},
	{{"-dlto", "--dlto"}, 0, REFUSE, "LTO-IR is for 'nvlink -dlto'; ptxlink links PTX"},
	{{"-lto", "--link-time-opt"}, 0, REFUSE, "LTO-IR is for 'nvlink -dlto'; ptxlink links PTX"},
	{{"-Xnvvm", "--Xnvvm"}, 1, REFUSE, "ptxlink runs no NVVM: it reads PTX"},
	{{"-nvvmpath", "--nvvmpath"}, 1, REFUSE, "ptxlink runs no NVVM: it reads PTX"},
	{{"-kernels-used", "--kernels-used"}, 1, REFUSE,
	 "'--internalize --keep=NAME' keeps only kernels and the names given"},
	{{"-variables-used", "--variables-used"}, 1, REFUSE,
	 "'--internalize --keep=NAME' keeps only kernels and the names given"},
	{{"-e", "--entry"}, 1, REFUSE, "ptxas's: pass it with -Xptxas under --ptxas"},
	{{"-ias", "--input-as-string"}, 1, REFUSE, "inputs are files ('-' reads standard input)"},
	{{"-time", NULL}, 1, REFUSE, "'--time' prints each phase's time to stderr"},
	{{"-dump-callgraph", "--dump-callgraph"}, 0, REFUSE, "not supported ('-v' says what was linked)"},
	{{"-dump-callgraph-no-demangle", "--dump-callgraph-no-demangle"}, 0, REFUSE,
	 "not supported ('-v' says what was linked)"},
	{{"-report-arch", "--report-arch"}, 0, REFUSE, "not supported"},
	{{"-split-compile-extended", "--split-compile-extended"}, 1, REFUSE, "not supported"},
	{{"-version-ls", "--list-version"}, 0, REFUSE, "not supported ('ptxas -version-ls')"},
};
enum { NFOREIGN = sizeof foreign / sizeof *foreign };

/* One of the options above: exactly, or NAME=V. */
static const Foreign *find_foreign(const char *a, const char **val)
{
	*val = NULL;
	for (int i = 0; i < NFOREIGN; i++)
		for (int k = 0; k < 2 && foreign[i].names[k]; k++) {
			size_t n = strlen(foreign[i].names[k]);
			if (!strncmp(a, foreign[i].names[k], n) && (!a[n] || (a[n] == '=' && foreign[i].value))) {
				*val = a[n] ? a + n + 1 : NULL;
				return &foreign[i];
			}
		}
	return NULL;
}

/* Warnings wait for the end of the command line: -w may come later. */
static Strs pending_warnings;

static void warn_later(const char *a, const char *why)
{
	size_t n = strlen(a) + strlen(why) + 32;
	char *w = xmalloc(n);
	snprintf(w, n, "'%s' ignored: %s", a, why);
	strs_push(&pending_warnings, w);
}

static void flush_warnings(void)
{
	for (int i = 0; i < pending_warnings.n; i++) {
		warn((Loc){0}, "%s", pending_warnings.v[i]);
		free((void *)pending_warnings.v[i]);
	}
	free(pending_warnings.v);
	pending_warnings = (Strs){0};
}

/* nvcc's options for the host compiler that compiles the device-link
 * object: -Xcompiler=A,B gives it A and B, -shared -fPIC (nvcc -dlink's
 * own, CUDA 13); the others change nothing here. */
static int host_arg(Options *o, const Foreign *f, const char *v)
{
	if (!strcmp(f->names[0], "-shared"))
		strs_push(&o->host_opts, xstrdup("-fPIC"));
	for (const char *p = f->value ? v : ""; *p; p += *p == ',') {
		size_t n = strcspn(p, ",");
		if (n) {
			char *w = xmalloc(n + 1);
			memcpy(w, p, n);
			w[n] = 0;
			strs_push(&o->host_opts, w);
		}
		p += n;
	}
	return 0;
}

static int foreign_arg(Options *o, const Foreign *f, const char *a, const char *v,
	const char *next, int *used)
{
	if (f->action == REFUSE) {
		fprintf(stderr, "ptxlink: error: '%s': %s\n", a, f->why);
		return -1;
	}
	if (f->value && !v) {
		if (!next)
			return bad("'%s' needs a value", a);
		v = next;
		*used = 1;
	}
	if (f->action == IGNORE) {
		warn_later(a, f->why);
		return 0;
	}
	if (f->action == HOST)
		return host_arg(o, f, v);
	strs_push(&o->ptxas_opts, f->names[0]);
	if (v)
		strs_push(&o->ptxas_opts, v);
	if (!o->foreign_passed)
		o->foreign_passed = a;
	return 0;
}


/* docs/command-line.md: the tables above, for the docs/ directory. */
static void markdown(FILE *f)
{
	fprintf(f, "# The ptxlink command line\n\n"
		"<!-- Generated from the option table (tools/lib/opttab.h) by 'ptxlink --help=markdown':\n"
		"     tools/cli/gen-docs.sh writes it, tests/cli-options.sh checks it. -->\n\n"
		"```\nptxlink [options] [-o out.ptx] in.ptx...\n```\n\n%s\n"
		"Examples:\n\n```\n%s```\n\n"
		"## Options\n\n"
		"A library option is set by a host as the command sets it, by name, with the\n"
		"same checks: `ptxlink_set_option(&o, \"devirt-funnel-max\", \"4\")`\n"
		"(tools/lib/ptxlink.h).\n\n", intro, examples);
	markdown_options(f);
	fprintf(f, "\n## nvlink's and ptxas's other options\n\n%s:\n\n"
		"| option | ptxlink |\n| --- | --- |\n", others);
	for (int i = 0; i < NFOREIGN; i++) {
		const Foreign *x = &foreign[i];
		fprintf(f, "| `%s%s`%s%s%s | ", x->names[0], x->value ? " V" : "",
			x->names[1] ? ", `" : "", x->names[1] ? x->names[1] : "", x->names[1] ? "`" : "");
		if (x->action == PASS)
			fputs("passed to ptxas under --ptxas |\n", f);
		else if (x->action != HOST)
			fprintf(f, "%s: ", x->action == IGNORE ? "ignored with a warning" : "refused");
		else
			fputs("accepted: ", f);
		if (x->action != PASS) {
			put_md(f, x->why, strlen(x->why));
			fputs(" |\n", f);
		}
	}
}

static int help(const char *a, const char *form)
{
	if (!form)
		usage(stdout);
	else if (!strcmp(form, "man"))
		man(stdout);
	else if (!strcmp(form, "markdown"))
		markdown(stdout);
	else
		return bad("'%s': the help's forms are man and markdown", a);
	exit(0);
}

static int parse_arg(const char *a, const char *next, int *used, Options *o);

/* Strings that must stay reachable until exit (o->inputs and o->out point
 * into them), or LeakSanitizer reports the ones nothing kept. */
static void keep_alive(void *p)
{
	static void **kept;
	static uint32_t nkept, cap;
	kept = array_grow(kept, nkept, &cap, sizeof *kept);
	kept[nkept++] = p;
}

/* What response files may expand to, in all: files that name each other
 * many times over (20 names a file, 8 deep) must end in an error, not
 * after 20^7 expansions. */
enum { RSP_DEPTH = 8, RSP_FILES = 10000, RSP_WORDS = 1000000, RSP_BYTES = 64 << 20 };

static int too_much(const char *path, const char *what)
{
	fprintf(stderr, "ptxlink: error: response file '%s': %s\n", path, what);
	return -1;
}

static int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The next whitespace-separated word of f in *w, quoted as gcc reads
 * @file (libiberty's buildargv): 'single' and "double" quotes keep
 * spaces, a backslash keeps the next character, even inside quotes.  1, 0
 * at the end, -1 after an error (a NUL byte, the limit). */
static int read_word(FILE *f, const char *path, Options *o, char **w)
{
	int c;
	while ((c = getc(f)) != EOF && is_space(c))
		;
	if (c == EOF)
		return 0;
	size_t len = 0, cap = 64;
	char *buf = xmalloc(cap);
	int quote = 0, escaped = 0;
	for (; c != EOF && (quote || escaped || !is_space(c)); c = getc(f)) {
		if (!c || ++o->rsp_bytes > RSP_BYTES) {
			free(buf);
			return too_much(path, c ? "the response files expand to more than 64 MiB"
				: "a NUL byte in a word (is it a text file?)");
		}
		if (!escaped && c == '\\') {
			escaped = 1;
			continue;
		}
		if (!escaped && (c == quote || (!quote && (c == '\'' || c == '"')))) {
			quote = quote ? 0 : c;
			continue;
		}
		escaped = 0;
		if (len + 1 == cap)
			buf = xrealloc(buf, cap *= 2);
		buf[len++] = (char)c;
	}
	buf[len] = 0;
	keep_alive(buf);
	*w = buf;
	if (++o->rsp_words > RSP_WORDS)
		return too_much(path, "the response files expand to more than 1,000,000 words");
	return 1;
}

/* @FILE and -optf FILE: whitespace-separated arguments, quoted as gcc
 * quotes them (read_word); either may name other response files. */
static int response_file(const char *path, Options *o)
{
	if (o->rsp_depth >= RSP_DEPTH) {
		fprintf(stderr, "ptxlink: error: response files nested deeper than %d "
			"(does '%s' include itself?)\n", RSP_DEPTH, path);
		return -1;
	}
	if (++o->rsp_files > RSP_FILES)
		return too_much(path, "the response files name more than 10,000 response files "
			"(do they name each other over and over?)");
	FILE *f = opt_open_list(&o->lib, path, "response file");
	if (!f)
		return -1;
	Strs args = {0};
	char *w;
	int rc;
	while ((rc = read_word(f, path, o, &w)) > 0)
		strs_push(&args, w);
	fclose(f);
	keep_alive(args.v);
	o->rsp_depth++;
	for (int i = 0; i < args.n && rc == 0; i++) {
		int used = 0;
		rc = parse_arg(args.v[i], i + 1 < args.n ? args.v[i + 1] : NULL, &used, o);
		i += used;
	}
	o->rsp_depth--;
	return rc;
}

/* The option a spells and its value (NULL: none given): exact spellings
 * first (-Werror=format is not -Werror with a value), then NAME=V.  A
 * value glued to a short option is tried last (find_glued), after
 * nvlink's and ptxas's other options: -lto is not -l to. */
static const OptRow *find_opt(const char *a, const char **val)
{
	*val = NULL;
	for (const OptRow *r = opt_rows; r < opt_rows + NOPT; r++)
		for (int k = 0; k < 4 && r->names[k]; k++)
			if (!strcmp(a, r->names[k]))
				return r;
	for (const OptRow *r = opt_rows; r < opt_rows + NOPT; r++)
		for (int k = 0; k < 4 && r->names[k] && opt_syntax(r) != FLAG; k++) {
			size_t n = strlen(r->names[k]);
			if (!strncmp(a, r->names[k], n) && a[n] == '=') {
				*val = a + n + 1;
				return r;
			}
		}
	return NULL;
}

static const OptRow *find_glued(const char *a, const char **val)
{
	for (const OptRow *r = opt_rows; r < opt_rows + NOPT; r++)
		if (opt_syntax(r) == GLUED && !strncmp(a, r->names[0], strlen(r->names[0]))) {
			*val = a + strlen(r->names[0]);
			return r;
		}
	return NULL;
}

/* OPTS of --ptxas=OPTS and -Xptxas: separated by commas or spaces */
static void add_ptxas_opts(Options *o, const char *s)
{
	char *copy = xstrdup(s);
	keep_alive(copy);
	for (char *w = strtok(copy, ", \t"); w; w = strtok(NULL, ", \t"))
		strs_push(&o->ptxas_opts, w);
}

static int set_mode(Options *o, const char *v)
{
	if (!strcmp(v, "whole"))
		o->mode = MODE_WHOLE;
	else if (!strcmp(v, "relocatable"))
		o->mode = MODE_RELOCATABLE;
	else if (!strcmp(v, "auto"))
		o->mode = MODE_AUTO;
	else
		return bad("--compile-mode=%s: the modes are whole, relocatable and auto", v);
	return 0;
}

/* sm_XX[a|f] in order: sm_90 < sm_90f < sm_90a < sm_100 */
static long arch_rank(const char *sm)
{
	char *end;
	long n = strtol(sm + 3, &end, 10);
	return n * 3 + (*end == 'f' ? 1 : *end == 'a' ? 2 : 0);
}

/* An architecture to compile for (sm_XX, checked as -arch is), into list
 * once; the oldest and newest named are kept. */
static int add_arch(Options *o, Strs *list, const char *a, const char *sm)
{
	if (opt_set(&o->lib, &opt_rows[OPT_ARCH], a, sm) != 0)
		return -1;
	sm = o->lib.arch;   /* opt_set's copy */
	if (!o->oldest || arch_rank(sm) < arch_rank(o->oldest))
		o->oldest = sm;
	if (!o->newest || arch_rank(sm) > arch_rank(o->newest))
		o->newest = sm;
	for (int i = 0; list && i < list->n; i++)
		if (!strcmp(list->v[i], sm))
			return 0;
	if (list)
		strs_push(list, sm);
	return 0;
}

/* compute_XX as the sm_XX it runs on */
static const char *real_arch(const char *v)
{
	if (strncmp(v, "compute_", 8) != 0)
		return v;
	size_t n = strlen(v) + 1;
	char *sm = xmalloc(n);
	snprintf(sm, n, "sm_%s", v + 8);
	keep_alive(sm);
	return sm;
}

/* The next word of code='s list at *p (brackets and quotes aside), split
 * at commas, NULL at the end; *empty: an empty one, which nvcc refuses
 * ("code=[]", "code=[sm_80,]", "code=,sm_80": "Unsupported gpu
 * architecture ''") but for a last one after a word, unbracketed
 * ("code=sm_80,"). */
static char *code_word(char **p, int bracketed, int *nwords, int *empty)
{
	for (char *w = *p, *end; w; w = end) {
		end = strchr(w, ',');
		if (end)
			*end++ = 0;
		*p = end;
		w += strspn(w, "[\"");
		w[strcspn(w, "]\"")] = 0;
		if (*w) {
			++*nwords;
			return w;
		}
		if (bracketed || end || !*nwords) {
			*empty = 1;
			return NULL;
		}
	}
	return NULL;
}

/* nvcc's -gencode arch=compute_XX,code=sm_XX: code= may list several
 * (code=[sm_80,compute_80], code="sm_80,compute_80"); sm_ is a cubin,
 * compute_ PTX.  The link is for arch= at newest. */
static int gencode(Options *o, const char *a, const char *v)
{
	char *s = xstrdup(v), *code = strstr(s, ",code=");
	keep_alive(s);
	if (strncmp(s, "arch=", 5) != 0 || !code || !code[6])
		return bad("'%s': nvcc's form is -gencode arch=compute_XX,code=sm_XX", a);
	*code = 0;
	code += 6;
	const char *base = real_arch(s + 5);
	if (add_arch(o, NULL, a, base) != 0)
		return -1;
	int bracketed = strchr(code, '[') != NULL, nwords = 0, empty = 0;
	for (char *w; (w = code_word(&code, bracketed, &nwords, &empty));) {
		const char *sm = real_arch(w);
		int ptx = sm != w;
		if (strncmp(w, "sm_", 3) != 0 && !ptx)
			return bad("'%s': code= names sm_XX (a cubin) or compute_XX (PTX)", a);
		if (add_arch(o, ptx ? &o->ptx_archs : &o->archs, a, sm) != 0)
			return -1;
		if (arch_rank(sm) < arch_rank(base))
			return bad("'%s': code= is older than arch=", a);
	}
	if (empty)
		return bad("-gencode '%s': code= names an empty architecture (nvcc: \"Unsupported "
			"gpu architecture ''\"); list sm_XX or compute_XX", v);
	return 0;
}

static int is_plain(const char *sm)
{
	size_t n = strlen(sm);
	return sm[n - 1] != 'a' && sm[n - 1] != 'f';
}

/* sm_XX for sm_XX[a|f]: the target whose PTX every later GPU runs. */
static const char *plain_arch(const char *sm)
{
	if (is_plain(sm))
		return sm;
	char *p = xstrdup(sm);
	p[strlen(p) - 1] = 0;
	keep_alive(p);
	return p;
}

static int runs_all(const char *ptx, const Strs *archs)
{
	for (int i = 0; i < archs->n; i++)
		if (!link_arch_runs(ptx, archs->v[i]))
			return 0;
	return 1;
}

/* The link's target: the oldest named, if ptxas compiles its PTX for
 * every other; else its plain form: architecture-specific PTX (sm_90a)
 * serves no other GPU, family-specific (sm_100f) no other family. */
static const char *link_arch(const Options *o)
{
	if (runs_all(o->oldest, &o->archs) && runs_all(o->oldest, &o->ptx_archs))
		return o->oldest;
	return plain_arch(o->oldest);
}

/* After the command line: the link is for link_arch; a fatbinary has PTX
 * for the newest, of the plain target when the link's is (sm_120 for
 * sm_120a: a later GPU JITs no architecture-specific PTX), else the
 * newest's own, as nvcc embeds compute_90a for -arch=sm_90a; several
 * need --fatbin. */
static int settle_archs(Options *o)
{
	if (!o->oldest)
		return 0;
	const char *link = link_arch(o);
	if (o->fatbin && !o->dlink)   /* nvcc -dlink embeds no PTX unasked */
		add_arch(o, &o->ptx_archs, "-arch", is_plain(link) ? plain_arch(o->newest) : o->newest);
	o->lib.arch = link;   /* after add_arch, which sets it */
	if (o->ptxas && !o->fatbin && !o->dlink && (o->archs.n != 1 || o->ptx_archs.n))
		return bad("%s: a cubin is for one GPU; --fatbin holds one for each "
			"architecture, and PTX", o->archs.n > 1 ? "several architectures" : "PTX");
	if (o->archs.n + o->ptx_archs.n > MAX_ARCHS)
		return bad("more than %s architectures", "16");
	return 0;
}

/* $PTXLINK_TUNE_CACHE, else ptxlink/tune in the user's cache directory
 * (XDG's), NULL when there is none. */
static const char *user_cache(void)
{
	const char *env = getenv("PTXLINK_TUNE_CACHE"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	if (env)
		return env;
	if (!(xdg && *xdg) && !(home && *home))
		return NULL;
	size_t n = strlen(xdg && *xdg ? xdg : home) + 32;
	char *p = xmalloc(n);
	snprintf(p, n, "%s%s/ptxlink/tune", xdg && *xdg ? xdg : home, xdg && *xdg ? "" : "/.cache");
	keep_alive(p);
	return p;
}

/* --tune's: it needs an architecture and is no -dlink's; -j is the CPUs
 * online unless given, the cache the user's unless given. */
static int settle_tune(Options *o)
{
	if (!o->tune)
		return 0;
	if (o->dlink)
		return bad("%s", "--tune is not for -dlink: each architecture's link is compiled once");
	if (!o->lib.arch)
		return bad("%s", "--tune needs -arch=sm_XX (the GPU to measure the plans for)");
	if (!o->jobs) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		o->jobs = cpus < 1 ? 1 : cpus > NV_MAX_JOBS ? NV_MAX_JOBS : (int)cpus;
	}
	if (!o->tune_cache)
		o->tune_cache = user_cache();
	return 0;
}

/* The command's own options (C_* rows). */
static int command_flag(Options *o, const OptRow *r)
{
	switch (r - opt_rows) {
	case OPT_TIME: o->time = 1; break;
	case OPT_VERSION: printf("ptxlink %s\n", PTXLINK_VERSION); exit(0);
	case OPT_NOWARN: diag_warnings(WARN_NONE); strs_push(&o->ptxas_opts, "-w"); break;
	case OPT_WERROR: diag_warnings(WARN_ERROR); strs_push(&o->ptxas_opts, "-Werror"); break;
	case OPT_DEBUG: strs_push(&o->ptxas_opts, "-g"); break;
	case OPT_LINEINFO: strs_push(&o->ptxas_opts, "-lineinfo"); break;
	case OPT_M64: break;
	case OPT_M32: return bad("%s: ptxlink links 64-bit PTX only (.address_size 64)", "-m32");
	case OPT_PTXAS: o->ptxas = 1; break;
	case OPT_FATBIN: o->fatbin = o->ptxas = 1; break;
	case OPT_DLINK: o->dlink = o->ptxas = 1; break;
	case OPT_TUNE: o->tune = DEFAULT_TUNE; break;
	case OPT_NO_TUNE: o->tune = 0; break;
	case OPT_RPASS_TUNE: o->tune_remarks = 1; break;
	default: die("option %s has no flag action", r->names[0]);
	}
	return 0;
}

static int command_value(Options *o, const OptRow *r, const char *a, const char *v)
{
	long long n;
	switch (r - opt_rows) {
	case OPT_OUT: o->out = v; break;
	case OPT_OPTF: return response_file(v, o);
	case OPT_MACHINE:
		if (strcmp(v, "64") != 0)
			return bad("'%s': ptxlink links 64-bit PTX only (.address_size 64)", a);
		break;
	case OPT_MAXRREG:   /* archmax, archmin: the GPU's bounds, as ptxas takes them */
		if (opt_number(v, 1, 255, &n) != 0 && strcmp(v, "archmax") && strcmp(v, "archmin"))
			return bad("'%s' needs a register count from 1 to 255, archmax or archmin", a);
		strs_push(&o->ptxas_opts, "-maxrregcount");
		strs_push(&o->ptxas_opts, v);
		break;
	case OPT_PTXAS: o->ptxas = 1; add_ptxas_opts(o, v); break;
	case OPT_XPTXAS:
		add_ptxas_opts(o, v);
		if (!o->foreign_passed)
			o->foreign_passed = a;
		break;
	case OPT_MODE: return set_mode(o, v);
	case OPT_TUNE:
		if (opt_number(v, 1, 2 * MAX_PLANS, &n) != 0)
			return bad("'%s' needs a number of compiles from 1 to 16", a);
		o->tune = (int)n;
		break;
	case OPT_JOBS:
		if (opt_number(v, 1, NV_MAX_JOBS, &n) != 0)
			return bad("'%s' needs a number of compiles at once from 1 to 64", a);
		o->jobs = (int)n;
		break;
	case OPT_TUNE_CACHE: o->tune_cache = v; break;
	case OPT_CCBIN: o->ccbin = v; break;
	case OPT_GENCODE: return gencode(o, a, v);
	case OPT_HELP: return help(a, v);
	default: die("option %s has no value action", r->names[0]);
	}
	return 0;
}

/* One argument; *used counts how many following ones it consumed. */
static int parse_arg(const char *a, const char *next, int *used, Options *o)
{
	*used = 0;
	if (a[0] == '@')
		return response_file(a + 1, o);
	if (a[0] != '-' || !a[1]) {
		strs_push(&o->inputs, a);
		return 0;
	}
	const char *v;
	const OptRow *r = find_opt(a, &v);
	const Foreign *f = r ? NULL : find_foreign(a, &v);
	if (f)
		return foreign_arg(o, f, a, v, next, used);
	if (!r)
		r = find_glued(a, &v);
	if (!r)
		return bad("unknown option '%s' (see --help)", a);
	int syntax = opt_syntax(r);
	if (syntax == EQUALS && !v)
		return bad("'%s' needs its value after '=' (see --help)", a);
	if ((syntax == VALUE || syntax == GLUED) && !v) {
		if (!next)
			return bad("'%s' needs a value (see --help)", a);
		v = next;
		*used = 1;
	}
	if (r - opt_rows == OPT_ARCH)
		return add_arch(o, &o->archs, a, v);
	if (r->kind > C_OPTIONAL)
		return opt_set(&o->lib, r, a, v);
	if (r - opt_rows == OPT_HELP && !v)
		return help(a, v);
	return syntax == FLAG || !v ? command_flag(o, r) : command_value(o, r, a, v);
}

int parse_args(int argc, char **argv, Options *o)
{
	ptxlink_options_init(&o->lib);
	for (int i = 1; i < argc; i++) {
		int used;
		if (parse_arg(argv[i], i + 1 < argc ? argv[i + 1] : NULL, &used, o) != 0)
			return -1;
		i += used;
	}
	if (o->foreign_passed && !o->ptxas && !o->tune)
		warn_later(o->foreign_passed, "a ptxas option, and without --ptxas no ptxas runs");
	flush_warnings();
	if (settle_archs(o) != 0)
		return -1;
	if (o->ptxas && !o->lib.arch)
		return bad("%s needs -arch=sm_XX (the GPU to compile for)",
			o->dlink ? "-dlink" : o->fatbin ? "--fatbin" : "--ptxas");
	if (o->inputs.n == 0)
		return bad("%s", "no input files (see --help)");
	return settle_tune(o);
}

void options_free(Options *o)
{
	free(o->inputs.v);
	free(o->ptxas_opts.v);
	free(o->archs.v);
	free(o->ptx_archs.v);
	strs_free(&o->host_opts);
	ptxlink_options_free(&o->lib);
}
