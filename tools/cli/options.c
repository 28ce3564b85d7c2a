/* The command line: one table of options, spelled as nvlink and ptxas
 * spell them, matched exactly (-optf is never -o ptf).  A value follows as
 * NAME=V or as the next argument; -o, -O, -L and -l also take it glued
 * (-oapp.ptx, -O2, -L/dir, -lm), as ld and ptxas do. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "driver.h"

enum {
	O_OUT, O_ARCH, O_OPTF, O_VERBOSE, O_VERSION, O_HELP, O_NOWARN, O_WERROR,
	O_WERROR_FORMAT, O_OLEVEL, O_DEBUG, O_LINEINFO, O_M64, O_M32, O_MACHINE, O_MAXRREG,
	O_LIBDIR, O_LIB, O_PTXAS, O_XPTXAS, O_FATBIN, O_MODE, O_TIME, O_ALLOW_UNDEF,
	O_STRIP_DEBUG, O_VERIFY, O_NO_VERIFY, O_NO_STAGES, O_PRINT_AFTER, O_STATS,
	O_NO_DEVIRT, O_FUNNEL_MAX, O_RPASS_DEVIRT, O_NO_GLOBALOPT, O_INTERNALIZE, O_KEEP,
	O_KEEP_FILE, O_RPASS_GLOBALOPT, O_NO_DEPOT, O_RPASS_DEPOT, O_RPASS_ANALYSIS_DEPOT,
	O_WARN_STACK, O_ADDRPREP, O_NO_ADDRPREP, O_RPASS_ADDRPREP,
};

enum {
	FLAG,      /* no value */
	VALUE,     /* NAME=V or NAME V */
	GLUED,     /* and the first spelling with V glued on */
	OPTIONAL,  /* NAME or NAME=V */
};

typedef struct Opt {
	int id, kind;
	const char *names[4];
	const char *usage, *help;
} Opt;

static const Opt opts[] = {
	{O_OUT, GLUED, {"-o", "--output-file"}, "-o FILE, --output-file FILE",
	 "write the result to FILE ('-': standard output, the default)"},
	{O_ARCH, VALUE, {"-arch", "--arch", "--gpu-name", "--gpu-architecture"},
	 "-arch=sm_XX, --arch, --gpu-name", "link for this architecture (one ptxas 13 accepts,\n"
	 "at least as new as every input): -arch=sm_80, -arch sm_90a"},
	{O_OPTF, VALUE, {"-optf", "--options-file"}, "-optf FILE, --options-file FILE, @FILE",
	 "read more arguments from FILE (\"quotes\" for spaces, nested 8 deep)"},
	{O_VERBOSE, FLAG, {"-v", "--verbose"}, "-v, --verbose",
	 "say what was done: inputs, libraries, stages, tools run, time"},
	{O_TIME, FLAG, {"--time"}, "--time", "print each phase's time (parse, link, stages, print, ptxas)"},
	{O_VERSION, FLAG, {"-V", "--version"}, "-V, --version", "print the version and exit"},
	{O_HELP, FLAG, {"-h", "--help"}, "-h, --help", "print this help and exit"},
	{O_NOWARN, FLAG, {"-w", "--disable-warnings"}, "-w, --disable-warnings",
	 "print no warnings (ptxas too, under --ptxas)"},
	{O_WERROR, FLAG, {"-Werror", "--warning-as-error"}, "-Werror, --warning-as-error",
	 "warnings are errors (ptxas's too, under --ptxas)"},
	{O_WERROR_FORMAT, FLAG, {"-Werror=format"}, "-Werror=format",
	 "printf format mismatches are errors, not warnings"},
	{O_OLEVEL, GLUED, {"-O", "--opt-level"}, "-O0 .. -O3, --opt-level N",
	 "which stages run: -O0 printf lowering only, -O1 and globalopt,\n"
	 "-O2 and devirt, -O3 (default) and depot and addrprep; ptxas\n"
	 "keeps its own -O3"},
	{O_DEBUG, FLAG, {"-g", "--device-debug", "--debug"}, "-g, --device-debug",
	 "ptxas -g under --ptxas (the PTX's DWARF is kept either way)"},
	{O_LINEINFO, FLAG, {"-lineinfo", "--generate-line-info"}, "-lineinfo",
	 "ptxas -lineinfo under --ptxas"},
	{O_MAXRREG, VALUE, {"-maxrregcount", "--maxrregcount"}, "-maxrregcount=N",
	 "ptxas -maxrregcount N under --ptxas"},
	{O_M64, FLAG, {"-m64"}, "-m64, --machine 64", "accepted: PTX here is 64-bit"},
	{O_M32, FLAG, {"-m32"}, "-m32", "an error: ptxlink links 64-bit PTX only"},
	{O_MACHINE, VALUE, {"-m", "--machine"}, NULL, NULL},
	{O_LIBDIR, GLUED, {"-L", "--library-path"}, "-L DIR, -LDIR, --library-path DIR",
	 "search DIR for -l libraries (in the order given)"},
	{O_LIB, GLUED, {"-l", "--library"}, "-l NAME, -lNAME, --library NAME",
	 "link the members of DIR/libNAME.a (an ar archive of .ptx files),\n"
	 "DIR/NAME.ptx or DIR/NAME/*.ptx that define a name still undefined"},
	{O_PTXAS, OPTIONAL, {"--ptxas"}, "--ptxas, --ptxas=\"OPTS\"",
	 "compile the result with ptxas (and nvlink) into a cubin, with OPTS:\n"
	 "--ptxas='-v -O2' -arch=sm_80 -o app.cubin a.ptx b.ptx"},
	{O_XPTXAS, VALUE, {"-Xptxas", "--Xptxas"}, "-Xptxas OPT[,OPT]",
	 "pass OPT to ptxas (repeatable): -Xptxas -v -Xptxas -maxrregcount=64"},
	{O_FATBIN, FLAG, {"--fatbin"}, "--fatbin",
	 "with --ptxas, write a fatbinary holding the cubin and the PTX"},
	{O_MODE, VALUE, {"--compile-mode"}, "--compile-mode=whole|relocatable|auto",
	 "ptxas whole-program, or ptxas -c and nvlink (default: auto, see README)"},
	{O_ALLOW_UNDEF, FLAG, {"--allow-undefined"}, "--allow-undefined",
	 "keep unresolved references .extern (for 'ptxas -c')"},
	{O_STRIP_DEBUG, FLAG, {"--strip-debug"}, "--strip-debug", "drop DWARF sections, .file and .loc"},
	{O_VERIFY, FLAG, {"--verify"}, "--verify",
	 "check IR invariants after parsing, linking and every stage\n"
	 "(the default in Debug and test builds)"},
	{O_NO_VERIFY, FLAG, {"--no-verify"}, "--no-verify", "do not"},
	{O_NO_STAGES, FLAG, {"--no-stages"}, "--no-stages", "link only: run no stage (plain round trip)"},
	{O_PRINT_AFTER, VALUE, {"--print-after"}, "--print-after=STAGE",
	 "print the module to stderr after STAGE: --print-after=devirt"},
	{O_STATS, FLAG, {"--stats"}, "--stats", "print the stages' counts to stderr"},
	{O_NO_DEVIRT, FLAG, {"--no-devirt"}, "--no-devirt", "leave indirect calls indirect"},
	{O_FUNNEL_MAX, VALUE, {"--devirt-funnel-max"}, "--devirt-funnel-max=N",
	 "funnel at most N candidate targets (default 10)"},
	{O_RPASS_DEVIRT, FLAG, {"-Rpass=devirt"}, "-Rpass=devirt", "a remark for every indirect call site"},
	{O_NO_GLOBALOPT, FLAG, {"--no-globalopt"}, "--no-globalopt",
	 "keep every function and variable, linkage as written"},
	{O_INTERNALIZE, FLAG, {"--internalize"}, "--internalize",
	 "the host reaches only kernels and --keep names: other\n"
	 "variables may go, fold or become internal"},
	{O_KEEP, VALUE, {"--keep"}, "--keep=SYM", "with --internalize, SYM stays (repeatable)"},
	{O_KEEP_FILE, VALUE, {"--keep-file"}, "--keep-file=FILE",
	 "with --internalize, the names in FILE stay (one a line, # comments)"},
	{O_RPASS_GLOBALOPT, FLAG, {"-Rpass=globalopt"}, "-Rpass=globalopt",
	 "a remark for every function or variable removed, made\n"
	 "internal, folded or deduplicated"},
	{O_NO_DEPOT, FLAG, {"--no-depot"}, "--no-depot", "leave every __local_depot's layout as it is"},
	{O_RPASS_DEPOT, FLAG, {"-Rpass=depot"}, "-Rpass=depot",
	 "a remark for every depot: its new size, or why it is kept"},
	{O_RPASS_ANALYSIS_DEPOT, FLAG, {"-Rpass-analysis=depot"}, "-Rpass-analysis=depot",
	 "and for every object in it: where it goes, what it\n"
	 "may not share bytes with"},
	{O_WARN_STACK, VALUE, {"--warn-stack-size"}, "--warn-stack-size=N",
	 "warn for a function whose depot is over N bytes"},
	{O_ADDRPREP, OPTIONAL, {"--addrprep"}, "--addrprep[=narrow,widen,fold,sink]",
	 "address preparation's rewrites (default: sink): 64-bit index\n"
	 "arithmetic that fits in 32 bits done in 32 (narrow), products\n"
	 "of 32-bit values as mul.wide (widen), offsets folded into\n"
	 "[reg+imm] (fold), addresses sunk past a loop or call to their\n"
	 "use (sink); --addrprep alone: all four.  --addrprep=narrow,sink"},
	{O_NO_ADDRPREP, FLAG, {"--no-addrprep"}, "--no-addrprep", "no address preparation"},
	{O_RPASS_ADDRPREP, FLAG, {"-Rpass=addrprep"}, "-Rpass=addrprep",
	 "a remark for every address preparation rewrite"},
};
enum { NOPTS = sizeof opts / sizeof *opts };

/* What ptxas 13 accepts for -arch (ptxas --help), but the virtual
 * compute_ and lto_ ones: ptxlink's output is compiled for a GPU. */
static const char *const arches[] = {
	"sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_90a",
	"sm_100", "sm_100a", "sm_100f", "sm_103", "sm_103a", "sm_103f",
	"sm_110", "sm_110a", "sm_110f", "sm_120", "sm_120a", "sm_120f",
	"sm_121", "sm_121a", "sm_121f",
};

static void usage(FILE *f)
{
	fputs("usage: ptxlink [options] [-o out.ptx] in.ptx...\n"
	      "\n"
	      "Reads PTX modules, links them into one (nvlink's symbol rules) and writes\n"
	      "canonical PTX, after the optimization stages; with --ptxas, the cubin.\n"
	      "One input without -arch or --strip-debug is not linked; with --no-stages\n"
	      "it is the plain round trip.  '-' as input reads standard input.\n"
	      "\n"
	      "examples:\n"
	      "  ptxlink in.ptx -o out.ptx                     optimize one module\n"
	      "  ptxlink -arch=sm_80 -o app.ptx a.ptx b.ptx    link a program\n"
	      "  ptxlink -arch=sm_80 -L libs -lmath -o app.ptx a.ptx   with a PTX library\n"
	      "  ptxlink --ptxas -arch=sm_80 -o app.cubin *.ptx        to machine code\n"
	      "  ptxlink --ptxas --fatbin -arch=sm_80 -o app.fatbin *.ptx  cubin and PTX\n"
	      "  ptxlink --allow-undefined -o part.ptx a.ptx b.ptx     for 'ptxas -c'\n"
	      "  ptxlink -optf args.rsp                         arguments from a file\n"
	      "\n"
	      "nvlink's and ptxas's other options are passed to ptxas under --ptxas (-fmad,\n"
	      "-Ofc, ...), ignored with a warning (-cpu-arch, ...) or refused with a reason\n"
	      "(-dlto, -r, ...); README.md has the table.\n"
	      "\n"
	      "options:\n", f);
	for (int i = 0; i < NOPTS; i++) {
		if (!opts[i].usage)
			continue;
		fprintf(f, "  %s\n      ", opts[i].usage);
		for (const char *h = opts[i].help; *h; h++)
			if (*h == '\n')
				fputs("\n      ", f);
			else
				fputc(*h, f);
		fputc('\n', f);
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
		l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
		if (!l->v)
			die("out of memory");
	}
	l->v[l->n++] = s;
}

static int parse_arg(const char *a, const char *next, int *used, Options *o);

/* A file of arguments or names; a directory is refused as such, not read
 * as empty.  NULL after saying why. */
static FILE *open_list(const char *path, const char *what)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		f = NULL;
		errno = EISDIR;
	}
	if (!f)
		fprintf(stderr, "ptxlink: error: cannot read %s '%s': %s\n", what, path, strerror(errno));
	return f;
}

static void add_keep(Options *o, const char *name, size_t n)
{
	GlobalOptOptions *g = &o->stages.globalopt;
	g->keep = realloc((void *)g->keep, (g->nkeep + 1) * sizeof *g->keep);
	if (!g->keep)
		die("out of memory");
	g->keep[g->nkeep++] = intern(name, n);
}

/* --keep-file=FILE: names separated by white space; # starts a comment. */
static int keep_file(Options *o, const char *path)
{
	FILE *f = open_list(path, "keep file");
	if (!f)
		return -1;
	char line[4096];
	while (fgets(line, sizeof line, f)) {
		char *p = line, *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		for (;;) {
			p += strspn(p, " \t\r\n");
			size_t n = strcspn(p, " \t\r\n");
			if (!n)
				break;
			add_keep(o, p, n);
			p += n;
		}
	}
	fclose(f);
	return 0;
}

/* Strings that must stay reachable until exit (o->inputs and o->out point
 * into them), or LeakSanitizer reports the ones nothing kept. */
static void keep_alive(void *p)
{
	static void **kept;
	static int nkept;
	kept = realloc(kept, (size_t)(nkept + 1) * sizeof *kept);
	if (!kept)
		die("out of memory");
	kept[nkept++] = p;
}

/* The next whitespace-separated word of f ("double quotes" for spaces),
 * NULL at the end. */
static char *read_word(FILE *f)
{
	int c;
	while ((c = getc(f)) != EOF && strchr(" \t\n\r", c))
		;
	if (c == EOF)
		return NULL;
	size_t len = 0, cap = 64;
	char *buf = malloc(cap);
	int quoted = 0;
	for (; c != EOF && (quoted || !strchr(" \t\n\r", c)); c = getc(f)) {
		if (c == '"') {
			quoted = !quoted;
			continue;
		}
		if (len + 1 == cap)
			buf = realloc(buf, cap *= 2);
		buf[len++] = (char)c;
	}
	buf[len] = 0;
	keep_alive(buf);
	return buf;
}

/* @FILE: whitespace-separated arguments, "double quotes" for spaces. */
static int response_file(const char *path, Options *o, int depth)
{
	enum { MAX_DEPTH = 8 };
	if (depth >= MAX_DEPTH) {
		fprintf(stderr, "ptxlink: error: response files nested deeper than %d "
			"(does '%s' include itself?)\n", MAX_DEPTH, path);
		return -1;
	}
	FILE *f = open_list(path, "response file");
	if (!f)
		return -1;
	Strs args = {0};
	for (char *w; (w = read_word(f));)
		strs_push(&args, w);
	fclose(f);
	keep_alive(args.v);
	for (int i = 0; i < args.n; i++) {
		int used = 0;
		const char *a = args.v[i];
		int rc = a[0] == '@' ? response_file(a + 1, o, depth + 1)
			: parse_arg(a, i + 1 < args.n ? args.v[i + 1] : NULL, &used, o);
		if (rc)
			return rc;
		i += used;
	}
	return 0;
}

/* A decimal number from lo to hi, nothing after it. */
static int number(const char *s, long long lo, long long hi, long long *out)
{
	char *end;
	errno = 0;
	long long v = *s >= '0' && *s <= '9' ? strtoll(s, &end, 10) : lo - 1;
	if (v < lo || v > hi || errno || *end)
		return -1;
	*out = v;
	return 0;
}

static int check_stage(const char *name)
{
	const char *s;
	for (size_t i = 0; (s = stage_name(i)); i++)
		if (!strcmp(s, name))
			return 0;
	fprintf(stderr, "ptxlink: error: --print-after=%s: no such stage (the stages are", name);
	for (size_t i = 0; (s = stage_name(i)); i++)
		fprintf(stderr, "%s %s", i ? "," : "", s);
	fputs(")\n", stderr);
	return -1;
}

static int check_arch(const char *arch)
{
	for (size_t i = 0; i < sizeof arches / sizeof *arches; i++)
		if (!strcmp(arch, arches[i]))
			return 0;
	fprintf(stderr, "ptxlink: error: -arch=%s is not an architecture ptxas accepts (", arch);
	for (size_t i = 0; i < sizeof arches / sizeof *arches; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", arches[i]);
	fputs(")\n", stderr);
	return -1;
}

/* The option a spells and its value (NULL: none given): exact spellings
 * first (-Werror=format is not -Werror with a value), then NAME=V.  A
 * value glued to a short option is tried last (find_glued), after
 * nvlink's and ptxas's other options: -lto is not -l to. */
static const Opt *find_opt(const char *a, const char **val)
{
	*val = NULL;
	for (int i = 0; i < NOPTS; i++)
		for (int k = 0; k < 4 && opts[i].names[k]; k++)
			if (!strcmp(a, opts[i].names[k]))
				return &opts[i];
	for (int i = 0; i < NOPTS; i++)
		for (int k = 0; k < 4 && opts[i].names[k] && opts[i].kind != FLAG; k++) {
			size_t n = strlen(opts[i].names[k]);
			if (!strncmp(a, opts[i].names[k], n) && a[n] == '=') {
				*val = a + n + 1;
				return &opts[i];
			}
		}
	return NULL;
}

static const Opt *find_glued(const char *a, const char **val)
{
	for (int i = 0; i < NOPTS; i++)
		if (opts[i].kind == GLUED && !strncmp(a, opts[i].names[0], strlen(opts[i].names[0]))) {
			*val = a + strlen(opts[i].names[0]);
			return &opts[i];
		}
	return NULL;
}

/* OPTS of --ptxas=OPTS and -Xptxas: separated by commas or spaces */
static void add_ptxas_opts(Options *o, const char *s)
{
	char *copy = strdup(s);
	keep_alive(copy);
	for (char *w = strtok(copy, ", \t"); w; w = strtok(NULL, ", \t"))
		strs_push(&o->ptxas_opts, w);
}

static int set_olevel(Options *o, const char *a, const char *v)
{
	long long n;
	if (number(v, 0, 3, &n) != 0)
		return bad("'%s': the optimization level is 0, 1, 2 or 3", a);
	o->olevel = (int)n;
	return 0;
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

/* nvlink's and ptxas's other options (their --help, CUDA 13), so that
 * their command lines work or say why not: PASS goes to ptxas under
 * --ptxas, IGNORE is a warning, REFUSE an error; each says why. */
enum { PASS, IGNORE, REFUSE };
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
	char *w = malloc(n);
	if (!w)
		die("out of memory");
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
	strs_push(&o->ptxas_opts, f->names[0]);
	if (v)
		strs_push(&o->ptxas_opts, v);
	if (!o->foreign_passed)
		o->foreign_passed = a;
	return 0;
}

static int set_value(Options *o, const Opt *p, const char *a, const char *v);

/* One argument; *used counts how many following ones it consumed. */
static int parse_arg(const char *a, const char *next, int *used, Options *o)
{
	*used = 0;
	if (a[0] == '@')
		return response_file(a + 1, o, 0);
	if (a[0] != '-' || !a[1]) {
		strs_push(&o->inputs, a);
		return 0;
	}
	const char *v;
	const Opt *p = find_opt(a, &v);
	const Foreign *f = p ? NULL : find_foreign(a, &v);
	if (f)
		return foreign_arg(o, f, a, v, next, used);
	if (!p)
		p = find_glued(a, &v);
	if (!p)
		return bad("unknown option '%s' (see --help)", a);
	if ((p->kind == VALUE || p->kind == GLUED) && !v) {
		if (!next)
			return bad("'%s' needs a value (see --help)", a);
		v = next;
		*used = 1;
	}
	return set_value(o, p, a, v);
}

static int set_flag(Options *o, const Opt *p)
{
	switch (p->id) {
	case O_VERBOSE: o->link.verbose = 1; break;
	case O_TIME: o->time = 1; break;
	case O_VERSION: printf("ptxlink %s\n", PTXLINK_VERSION); exit(0);
	case O_HELP: usage(stdout); exit(0);
	case O_NOWARN: diag_warnings(WARN_NONE); strs_push(&o->ptxas_opts, "-w"); break;
	case O_WERROR: diag_warnings(WARN_ERROR); strs_push(&o->ptxas_opts, "-Werror"); break;
	case O_WERROR_FORMAT: o->stages.printf_lowering.werror_format = 1; break;
	case O_DEBUG: strs_push(&o->ptxas_opts, "-g"); break;
	case O_LINEINFO: strs_push(&o->ptxas_opts, "-lineinfo"); break;
	case O_M64: break;
	case O_M32: return bad("%s: ptxlink links 64-bit PTX only (.address_size 64)", "-m32");
	case O_PTXAS: o->ptxas = 1; break;
	case O_FATBIN: o->fatbin = o->ptxas = 1; break;
	case O_ALLOW_UNDEF: o->link.allow_undefined = 1; break;
	case O_STRIP_DEBUG: o->link.strip_debug = 1; break;
	case O_VERIFY: o->verify = o->stages.verify = 1; break;
	case O_NO_VERIFY: o->verify = o->stages.verify = 0; break;
	case O_NO_STAGES: o->no_stages = 1; break;
	case O_STATS: o->stages.stats = 1; break;
	case O_NO_DEVIRT: o->stages.devirt.off = 1; break;
	case O_RPASS_DEVIRT: o->stages.devirt.remarks = 1; break;
	case O_NO_GLOBALOPT: o->stages.globalopt.off = 1; break;
	case O_INTERNALIZE: o->stages.globalopt.internalize = 1; break;
	case O_RPASS_GLOBALOPT: o->stages.globalopt.remarks = 1; break;
	case O_NO_DEPOT: o->stages.depot.off = 1; break;
	case O_RPASS_DEPOT: o->stages.depot.remarks = 1; break;
	case O_RPASS_ANALYSIS_DEPOT: o->stages.depot.remarks = o->stages.depot.analysis = 1; break;
	case O_ADDRPREP: o->stages.addrprep.rewrites = ADDRPREP_ALL; break;
	case O_NO_ADDRPREP: o->stages.addrprep.off = 1; break;
	case O_RPASS_ADDRPREP: o->stages.addrprep.remarks = 1; break;
	default: die("option %s has no flag action", p->names[0]);
	}
	return 0;
}

/* --addrprep=narrow,widen,fold,sink: the rewrites address preparation
 * makes (ADDRPREP_* bits, in this order). */
static int addrprep_list(const char *list, unsigned *bits)
{
	static const char *const names[] = {"narrow", "widen", "fold", "sink"};
	*bits = 0;
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ","), k = 0;
		while (k < 4 && (strlen(names[k]) != n || strncmp(p, names[k], n)))
			k++;
		if (k == 4)
			return bad("--addrprep=%s: names a rewrite other than narrow, widen, fold, sink", list);
		*bits |= 1u << k;
		p += n + (p[n] == ',');
	}
	return *bits ? 0 : bad("--addrprep=%s: names no rewrite (narrow, widen, fold, sink)", list);
}

static int set_value(Options *o, const Opt *p, const char *a, const char *v)
{
	long long n;
	if (p->kind == FLAG || (p->kind == OPTIONAL && !v))
		return set_flag(o, p);
	switch (p->id) {
	case O_OUT: o->out = v; break;
	case O_ARCH: o->link.arch = v; return check_arch(v);
	case O_OPTF: return response_file(v, o, 0);
	case O_OLEVEL: return set_olevel(o, a, v);
	case O_MACHINE:
		if (strcmp(v, "64") != 0)
			return bad("'%s': ptxlink links 64-bit PTX only (.address_size 64)", a);
		break;
	case O_MAXRREG:
		if (number(v, 1, 255, &n) != 0)
			return bad("'%s' needs a register count from 1 to 255", a);
		strs_push(&o->ptxas_opts, "-maxrregcount");
		strs_push(&o->ptxas_opts, v);
		break;
	case O_LIBDIR: strs_push(&o->libdirs, v); break;
	case O_LIB:
		if (!*v)
			return bad("'%s' needs a library name", a);
		strs_push(&o->libs, v);
		break;
	case O_PTXAS: o->ptxas = 1; add_ptxas_opts(o, v); break;
	case O_XPTXAS:
		add_ptxas_opts(o, v);
		if (!o->foreign_passed)
			o->foreign_passed = a;
		break;
	case O_MODE: return set_mode(o, v);
	case O_PRINT_AFTER: o->stages.print_after = v; return check_stage(v);
	case O_FUNNEL_MAX:
		if (number(v, 1, INT_MAX, &n) != 0)
			return bad("'%s' needs a positive number below 2^31", a);
		o->stages.devirt.funnel_max = (int)n;
		break;
	case O_KEEP:
		if (!*v)
			return bad("'%s' needs a symbol name", a);
		add_keep(o, v, strlen(v));
		break;
	case O_KEEP_FILE: return keep_file(o, v);
	case O_ADDRPREP: return addrprep_list(v, &o->stages.addrprep.rewrites);
	case O_WARN_STACK:
		if (number(v, 0, LLONG_MAX, &n) != 0)
			return bad("'%s' needs a number of bytes", a);
		o->stages.depot.warn = 1;
		o->stages.depot.warn_stack_size = n;
		break;
	default: die("option %s has no value action", p->names[0]);
	}
	return 0;
}

/* -O: the stages below the level are off (printf lowering always runs:
 * ptxas rejects the calls it lowers). */
static void apply_olevel(Options *o)
{
	if (o->olevel < 3)
		o->stages.depot.off = o->stages.addrprep.off = 1;
	if (o->olevel < 2)
		o->stages.devirt.off = 1;
	if (o->olevel < 1)
		o->stages.globalopt.off = 1;
}

int parse_args(int argc, char **argv, Options *o)
{
	o->olevel = 3;
	for (int i = 1; i < argc; i++) {
		int used;
		if (parse_arg(argv[i], i + 1 < argc ? argv[i + 1] : NULL, &used, o) != 0)
			return -1;
		i += used;
	}
	apply_olevel(o);
	if (o->foreign_passed && !o->ptxas)
		warn_later(o->foreign_passed, "a ptxas option, and without --ptxas no ptxas runs");
	flush_warnings();
	if (o->ptxas && !o->link.arch)
		return bad("%s needs -arch=sm_XX (the GPU to compile for)", o->fatbin ? "--fatbin" : "--ptxas");
	if (o->inputs.n == 0)
		return bad("%s", "no input files (see --help)");
	return 0;
}

void options_free(Options *o)
{
	free(o->inputs.v);
	free(o->libdirs.v);
	free(o->libs.v);
	free(o->ptxas_opts.v);
	free((void *)o->stages.globalopt.keep);
}
