/* ptxlink: parse PTX, run the pipeline, print PTX.
 * A regular output file is written atomically: on any error none is left. */
#define _XOPEN_SOURCE 700  /* sigaltstack, SA_ONSTACK */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "ir/ir.h"
#include "ptx-grammar/ptx.h"
#include "link/link.h"
#include "stages/stages.h"

typedef struct Options {
	const char *out;
	const char **inputs;
	int ninputs, cap;
	int verify;
	int no_stages;
	LinkOptions link;
	StageOptions stages;
} Options;

static void usage(FILE *f)
{
	fputs("usage: ptxlink [options] [-o out.ptx] in.ptx...\n"
	      "\n"
	      "Reads PTX modules, links them into one (nvlink's symbol rules) and writes\n"
	      "canonical PTX, after the optimization stages.  One input without -arch or\n"
	      "--strip-debug is not linked; with --no-stages it is the plain round trip.\n"
	      "'-' as input reads standard input; as output ('-o -'), writes standard output.\n"
	      "\n"
	      "options:\n"
	      "  -o FILE            write the result to FILE (default: standard output)\n"
	      "  -arch=sm_XX        link for this architecture (at least as new as every input)\n"
	      "  --allow-undefined  keep unresolved references .extern (for 'ptxas -c')\n"
	      "  --strip-debug      drop DWARF sections, .file and .loc\n"
	      "  -v                 say which ptxas mode the output needs\n"
	      "  -Werror=format     printf format mismatches are errors, not warnings\n"
	      "  --no-stages        link only: run no optimization stage (plain round trip)\n"
	      "  --print-after=S    print the module to stderr after stage S\n"
	      "  --no-devirt        leave indirect calls indirect\n"
	      "  --devirt-funnel-max=N  funnel at most N candidate targets (default 10)\n"
	      "  -Rpass=devirt      a remark for every indirect call site\n"
	      "  --no-globalopt     keep every function and variable, linkage as written\n"
	      "  --internalize      the host reaches only kernels and --keep names: other\n"
	      "                     variables may go, fold or become internal\n"
	      "  --keep=SYM         with --internalize, SYM stays (repeatable)\n"
	      "  --keep-file=FILE   with --internalize, the names in FILE stay (one a line, #\n"
	      "                     comments)\n"
	      "  -Rpass=globalopt   a remark for every function or variable removed, made\n"
	      "                     internal, folded or deduplicated\n"
	      "  --no-depot         leave every __local_depot's layout as it is\n"
	      "  -Rpass=depot       a remark for every depot: its new size, or why it is kept\n"
	      "  -Rpass-analysis=depot  and for every object in it: where it goes, what it\n"
	      "                     may not share bytes with\n"
	      "  --warn-stack-size=N  warn for a function whose depot is over N bytes\n"
	      "  --addrprep[=narrow,widen,fold,sink]  address preparation: 64-bit index\n"
	      "                     arithmetic that fits in 32 bits done in 32 (narrow), 64-bit\n"
	      "                     products of 32-bit values as mul.wide (widen), offsets folded\n"
	      "                     into [reg+imm] (fold), addresses sunk next to their use past a\n"
	      "                     loop or call (sink); the default is sink alone\n"
	      "  --no-addrprep      no address preparation\n"
	      "  -Rpass=addrprep    a remark for every rewrite\n"
	      "  --stats            print the stages' counts to stderr\n"
	      "  @FILE, -optf FILE, --options-file FILE\n"
	      "                     read more arguments from FILE\n"
	      "  --verify           check IR invariants after parsing, linking and every stage\n"
	      "                     (the default in Debug and test builds; --no-verify: off)\n"
	      "  --version          print the version and exit\n"
	      "  --help             print this help and exit\n", f);
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

static void add_input(Options *o, const char *path)
{
	if (o->ninputs == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 16;
		o->inputs = realloc(o->inputs, (size_t)o->cap * sizeof *o->inputs);
		if (!o->inputs)
			die("out of memory");
	}
	o->inputs[o->ninputs++] = path;
}

/* @FILE: whitespace-separated arguments, "double quotes" for spaces.
 * The strings live until exit, as argv's do. */
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
	char **args = NULL;
	int n = 0, c;
	for (;;) {
		while ((c = getc(f)) != EOF && (c == ' ' || c == '\t' || c == '\n' || c == '\r'))
			;
		if (c == EOF)
			break;
		size_t len = 0, cap = 64;
		char *buf = malloc(cap);
		int quoted = 0;
		for (; c != EOF && (quoted || !(c == ' ' || c == '\t' || c == '\n' || c == '\r')); c = getc(f)) {
			if (c == '"') {
				quoted = !quoted;
				continue;
			}
			if (len + 1 == cap)
				buf = realloc(buf, cap *= 2);
			buf[len++] = (char)c;
		}
		buf[len] = 0;
		args = realloc(args, (size_t)(n + 1) * sizeof *args);
		args[n++] = buf;
	}
	fclose(f);
	/* Keep the strings reachable until exit (o->inputs and o->out point
	 * into them), or LeakSanitizer reports the ones nothing kept. */
	static char ***kept;
	static int nkept;
	kept = realloc(kept, (size_t)(nkept + 1) * sizeof *kept);
	if (!kept)
		die("out of memory");
	kept[nkept++] = args;
	for (int i = 0; i < n; i++) {
		int used = 0;
		int rc = args[i][0] == '@' ? response_file(args[i] + 1, o, depth + 1)
			: parse_arg(args[i], i + 1 < n ? args[i + 1] : NULL, &used, o);
		if (rc)
			return rc;
		i += used;
	}
	return 0;
}

/* A decimal number from 1 to INT_MAX, nothing after it. */
static int positive(const char *s, int *out)
{
	char *end;
	errno = 0;
	long v = *s >= '0' && *s <= '9' ? strtol(s, &end, 10) : 0;
	if (v < 1 || v > INT_MAX || errno || *end)
		return -1;
	*out = (int)v;
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
		if (k == 4) {
			fprintf(stderr, "ptxlink: error: --addrprep=%s: '%.*s' is no rewrite (narrow, widen, "
				"fold, sink)\n", list, (int)n, p);
			return -1;
		}
		*bits |= 1u << k;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* One argument; *used counts how many following ones it consumed. */
static int parse_arg(const char *a, const char *next, int *used, Options *o)
{
	*used = 0;
	if (strcmp(a, "-optf") == 0 || strcmp(a, "--options-file") == 0) {
		/* nvlink's spelling of @FILE, not -o ptf */
		if (!next) {
			fprintf(stderr, "ptxlink: error: '%s' needs a file name\n", a);
			return -1;
		}
		*used = 1;
		return response_file(next, o, 0);
	} else if (strcmp(a, "-o") == 0) {
		if (!next) {
			fprintf(stderr, "ptxlink: error: '-o' needs a file name\n");
			return -1;
		}
		o->out = next;
		*used = 1;
	} else if (strncmp(a, "-o", 2) == 0 && a[2]) {
		o->out = a + 2;
	} else if (strncmp(a, "-arch=", 6) == 0 || strncmp(a, "--gpu-architecture=", 19) == 0) {
		o->link.arch = strchr(a, '=') + 1;
	} else if (strcmp(a, "-arch") == 0 && next) {
		o->link.arch = next;
		*used = 1;
	} else if (strcmp(a, "--allow-undefined") == 0) {
		o->link.allow_undefined = 1;
	} else if (strcmp(a, "--strip-debug") == 0) {
		o->link.strip_debug = 1;
	} else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
		o->link.verbose = 1;
	} else if (strcmp(a, "--verify") == 0) {
		o->verify = o->stages.verify = 1;
	} else if (strcmp(a, "--no-verify") == 0) {
		o->verify = o->stages.verify = 0;
	} else if (strcmp(a, "-Werror=format") == 0) {
		o->stages.printf_lowering.werror_format = 1;
	} else if (strcmp(a, "--no-stages") == 0) {
		o->no_stages = 1;
	} else if (strcmp(a, "--no-devirt") == 0) {
		o->stages.devirt.off = 1;
	} else if (strncmp(a, "--devirt-funnel-max=", 20) == 0) {
		if (positive(a + 20, &o->stages.devirt.funnel_max) != 0) {
			fprintf(stderr, "ptxlink: error: '%s' needs a positive number below 2^31\n", a);
			return -1;
		}
	} else if (strcmp(a, "-Rpass=devirt") == 0) {
		o->stages.devirt.remarks = 1;
	} else if (strcmp(a, "--no-globalopt") == 0) {
		o->stages.globalopt.off = 1;
	} else if (strcmp(a, "--internalize") == 0) {
		o->stages.globalopt.internalize = 1;
	} else if (strcmp(a, "-Rpass=globalopt") == 0) {
		o->stages.globalopt.remarks = 1;
	} else if (strncmp(a, "--keep=", 7) == 0) {
		if (!a[7]) {
			fprintf(stderr, "ptxlink: error: '--keep=' needs a symbol name\n");
			return -1;
		}
		add_keep(o, a + 7, strlen(a + 7));
	} else if (strncmp(a, "--keep-file=", 12) == 0) {
		return keep_file(o, a + 12);
	} else if (strcmp(a, "--no-depot") == 0) {
		o->stages.depot.off = 1;
	} else if (strcmp(a, "-Rpass=depot") == 0) {
		o->stages.depot.remarks = 1;
	} else if (strcmp(a, "-Rpass-analysis=depot") == 0) {
		o->stages.depot.remarks = o->stages.depot.analysis = 1;
	} else if (strncmp(a, "--warn-stack-size=", 18) == 0) {
		char *end;
		errno = 0;
		long long v = a[18] >= '0' && a[18] <= '9' ? strtoll(a + 18, &end, 10) : -1;
		if (v < 0 || errno || *end) {
			fprintf(stderr, "ptxlink: error: '%s' needs a number of bytes\n", a);
			return -1;
		}
		o->stages.depot.warn = 1;
		o->stages.depot.warn_stack_size = v;
	} else if (strcmp(a, "--addrprep") == 0) {
		o->stages.addrprep.rewrites = ADDRPREP_ALL;
	} else if (strncmp(a, "--addrprep=", 11) == 0) {
		return addrprep_list(a + 11, &o->stages.addrprep.rewrites);
	} else if (strcmp(a, "--no-addrprep") == 0) {
		o->stages.addrprep.off = 1;
	} else if (strcmp(a, "-Rpass=addrprep") == 0) {
		o->stages.addrprep.remarks = 1;
	} else if (strcmp(a, "--stats") == 0) {
		o->stages.stats = 1;
	} else if (strncmp(a, "--print-after=", 14) == 0) {
		o->stages.print_after = a + 14;
		if (check_stage(a + 14) != 0)
			return -1;
	} else if (strcmp(a, "--version") == 0) {
		printf("ptxlink %s\n", PTXLINK_VERSION);
		exit(0);
	} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
		usage(stdout);
		exit(0);
	} else if (a[0] == '@') {
		return response_file(a + 1, o, 0);
	} else if (a[0] == '-' && a[1]) {
		fprintf(stderr, "ptxlink: error: unknown option '%s' (see --help)\n", a);
		return -1;
	} else {
		add_input(o, a);
	}
	return 0;
}

static int parse_args(int argc, char **argv, Options *o)
{
	for (int i = 1; i < argc; i++) {
		int used;
		if (parse_arg(argv[i], i + 1 < argc ? argv[i + 1] : NULL, &used, o) != 0)
			return -1;
		i += used;
	}
	o->link.defined_later = o->no_stages ? NULL : stages_define;
	o->stages.allow_undefined = o->link.allow_undefined;
	/* -arch asks for a link, as nvlink's does: the result is the program */
	o->stages.unlinked = o->ninputs == 1 && !o->link.arch;
	/* a link whose stages run: names dead code alone references may stay
	 * undefined, as nvlink -dlto drops unused library code first */
	int links = !(o->ninputs == 1 && !o->link.arch && !o->link.strip_debug);
	o->link.defer_undefined = o->stages.check_undefined =
		links && !o->no_stages && !o->link.allow_undefined;
	if (o->ninputs == 0) {
		fprintf(stderr, "ptxlink: error: no input files (see --help)\n");
		return -1;
	}
	return 0;
}

/* Prints the module to f and closes it; -1 (errno set) if any write,
 * the flush or the close failed.  print_module buffers 64 KB itself: a
 * bigger stdio buffer behind it saved nothing and was a megabyte of the
 * peak memory. */
static int print_close(FILE *f, const Module *m)
{
	errno = 0;
	print_module(f, m);
	int bad = ferror(f) || fflush(f) != 0;
	int err = errno ? errno : EIO;
	if (fclose(f) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	errno = err;
	return bad ? -1 : 0;
}

static int write_error(const char *what, const char *path)
{
	fprintf(stderr, "ptxlink: error: cannot %s '%s': %s\n", what, path, strerror(errno));
	return -1;
}

/* Anything but a regular file (a device, a FIFO, a symlink's target) is
 * written in place, as a compiler writes it: /dev/null stays a device. */
static int write_in_place(const char *path, const Module *m)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CREAT, 0666);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		errno = err;
		return write_error("open", path);
	}
	return print_close(f, m) == 0 ? 0 : write_error("write", path);
}

/* The temporary being written, removed if ptxlink crashes meanwhile (an
 * internal error aborts): a failed run never leaves output behind. */
static char *volatile pending_tmp;

static void remove_pending(int sig)
{
	if (pending_tmp)
		unlink(pending_tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void guard_tmp(char *tmp)
{
	static char altstack[1 << 16];  /* the handler runs after a stack overflow too */
	static const int sigs[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGINT, SIGTERM, SIGHUP};
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
	sigaltstack(&ss, NULL);
	struct sigaction sa = {.sa_handler = remove_pending, .sa_flags = SA_ONSTACK};
	sigemptyset(&sa.sa_mask);
	pending_tmp = tmp;
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaction(sigs[i], &sa, NULL);
}

/* A regular file (or a new one) is replaced atomically: written to a
 * temporary beside it and renamed into place only when every byte is out.
 * It gets the existing file's mode, or what the umask gives a new file. */
static int write_output(const char *path, const Module *m)
{
	if (!path || strcmp(path, "-") == 0) {
		if (print_close(stdout, m) != 0) {
			fprintf(stderr, "ptxlink: error: cannot write standard output: %s\n",
				strerror(errno));
			return -1;
		}
		return 0;
	}
	struct stat st;
	mode_t mode;
	if (lstat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return write_in_place(path, m);
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	size_t n = strlen(path);
	char *tmp = malloc(n + 16);
	if (!tmp)
		die("out of memory");
	snprintf(tmp, n + 16, "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp);
	FILE *f = fd >= 0 && fchmod(fd, mode) == 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int err = errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		errno = err;
		write_error("create", tmp);
		free(tmp);
		return -1;
	}
	int rc = 0;
	guard_tmp(tmp);
	if (print_close(f, m) != 0 || rename(tmp, path) != 0) {
		rc = write_error("write", path);
		unlink(tmp);
	}
	pending_tmp = NULL;
	free(tmp);
	return rc;
}

/* Parses every input (reporting errors in all of them), then links. */
static Module *load(const Options *o)
{
	Module **mods = calloc((size_t)o->ninputs, sizeof *mods);
	if (!mods)
		die("out of memory");
	int ok = 1;
	for (int i = 0; i < o->ninputs; i++) {
		mods[i] = ptx_parse_file(o->inputs[i]);
		if (!mods[i]) {
			ok = 0;
			continue;
		}
		if (o->verify && ir_verify_shape(mods[i]) != 0)
			die("IR invariants broken after parsing %s", o->inputs[i]);
		ir_normalize(mods[i]);  /* linked or not, the one form the stages take */
	}
	Module *m = NULL;
	if (!ok) {
		for (int i = 0; i < o->ninputs; i++)
			mod_free(mods[i]);
	} else if (o->ninputs == 1 && !o->link.arch && !o->link.strip_debug) {
		m = mods[0];  /* nothing to link or retarget */
		if (link_check_symbols(m) != 0) {
			mod_free(m);
			m = NULL;
		}
	} else {
		m = link_modules(mods, o->ninputs, &o->link);
		if (m && o->verify && ir_verify_shape(m) != 0)
			die("IR invariants broken after linking");
	}
	free(mods);
	if (m && !o->no_stages && run_pipeline(m, &o->stages) != 0) {
		mod_free(m);
		m = NULL;
	}
	return m;
}

int main(int argc, char **argv)
{
	Options o = {0};
#ifdef PTXLINK_VERIFY_DEFAULT
	o.verify = o.stages.verify = 1;  /* Debug and test builds */
#endif
	int rc = 2;
	if (parse_args(argc, argv, &o) == 0) {
		Module *m = load(&o);
		rc = m && write_output(o.out, m) == 0 ? 0 : 1;
		mod_free(m);
	}
	free(o.inputs);
	free((void *)o.stages.globalopt.keep);
	return rc;
}
