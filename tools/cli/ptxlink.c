/* ptxlink: parse PTX, run the pipeline, print PTX, written on libptxlink
 * (tools/lib/ptxlink.h): the command line becomes a session's options,
 * each input is added to it, and the session links and runs the stages.
 * What is the command's own: files given twice, the output (a regular
 * file is written atomically: on any error none is left), --ptxas. */
#define _XOPEN_SOURCE 700  /* sigaltstack, SA_ONSTACK */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>
#include "ptx-grammar/ptx.h"
#include "driver.h"
#include "tools/lib/core.h"
#include "tools/lib/ptxlink.h"

double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int timing;           /* --time */
static double phase_start;   /* when the running phase started */

/* --time: one line per phase, as ptxas's -v says its compile time */
void phase_ms(const char *phase, double ms)
{
	if (timing)
		fprintf(stderr, "ptxlink: time: %-10s %8.3f ms\n", phase, ms);
}

void phase_time(const char *phase, double start)
{
	phase_ms(phase, (now() - start) * 1e3);
}

/* The session's callback after the link and each stage. */
static void phase_done(void *user, const char *name)
{
	phase_time(name, phase_start);
	phase_start = now();
}

/* Closes f after a write; -1 (errno set) if bad, or ferror, the flush or
 * the close says a write failed. */
static int close_checked(FILE *f, int bad)
{
	bad = bad || ferror(f) || fflush(f) != 0;
	int err = errno ? errno : EIO;
	if (fclose(f) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	errno = err;
	return bad ? -1 : 0;
}

/* Prints the module to f and closes it.  print_module buffers 64 KB
 * itself: a bigger stdio buffer behind it saved nothing and was a
 * megabyte of the peak memory. */
int print_close(FILE *f, const Module *m)
{
	errno = 0;
	print_module(f, m);
	return close_checked(f, 0);
}

/* What the output gets: the module printed, or a file the tools made. */
typedef struct Payload {
	const Module *m;
	const char *file;
} Payload;

static int emit_close(FILE *f, const Payload *p)
{
	if (p->m)
		return print_close(f, p->m);
	errno = 0;
	FILE *in = fopen(p->file, "rb");
	char buf[65536];
	size_t n;
	int bad = !in;
	while (!bad && (n = fread(buf, 1, sizeof buf, in)) > 0)
		bad = fwrite(buf, 1, n, f) != n;
	if (in) {
		bad = bad || ferror(in);
		fclose(in);
	}
	return close_checked(f, bad);
}

static int write_error(const char *what, const char *path)
{
	fprintf(stderr, "ptxlink: error: cannot %s '%s': %s\n", what, path, strerror(errno));
	return -1;
}

/* Anything but a regular file (a device, a FIFO, a symlink's target) is
 * written in place, as a compiler writes it: /dev/null stays a device. */
static int write_in_place(const char *path, const Payload *p)
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
	return emit_close(f, p) == 0 ? 0 : write_error("write", path);
}

/* The temporary being written, removed if ptxlink crashes meanwhile (an
 * internal error aborts): a failed run never leaves output behind. */
static char *volatile pending_tmp;

static void remove_pending(int sig)
{
	if (pending_tmp)
		unlink(pending_tmp);
	toolchain_cleanup();
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
static int write_output(const char *path, const Payload *p)
{
	if (!path || strcmp(path, "-") == 0) {
		if (emit_close(stdout, p) != 0) {
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
			return write_in_place(path, p);
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	size_t n = strlen(path);
	char *tmp = xmalloc(n + 16);
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
		write_error("create", path);   /* the user named path, not the temporary */
		free(tmp);
		return -1;
	}
	int rc = 0;
	guard_tmp(tmp);
	if (emit_close(f, p) != 0 || rename(tmp, path) != 0) {
		rc = write_error("write", path);
		unlink(tmp);
	}
	pending_tmp = NULL;
	free(tmp);
	return rc;
}

int write_output_file(const char *path, const char *file)
{
	return write_output(path, &(Payload){.file = file});
}

/* An input's identity as a file, for given_first. */
typedef struct Ident {
	dev_t dev;
	ino_t ino;
	int i;   /* its place among the inputs */
} Ident;

static int by_ident(const void *a, const void *b)
{
	const Ident *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->i - y->i;
}

/* nvlink refuses a file given twice (every symbol defined twice): for each
 * input, the place of the first input that is the same regular file,
 * whatever the spelling of the path, else -1.  Each path is looked at once
 * and the identities sorted: comparing pairs took 20 s for 8,000 inputs. */
static int *given_first(const Options *o)
{
	int n = o->inputs.n, k = 0;
	int *first = malloc((size_t)n * sizeof *first + 1);
	Ident *id = malloc((size_t)n * sizeof *id + 1);
	if (!first || !id)
		die("out of memory");
	for (int i = 0; i < n; i++) {
		struct stat st;
		first[i] = -1;
		if (strcmp(o->inputs.v[i], "-") && stat(o->inputs.v[i], &st) == 0 && S_ISREG(st.st_mode))
			id[k++] = (Ident){st.st_dev, st.st_ino, i};
	}
	qsort(id, (size_t)k, sizeof *id, by_ident);
	for (int j = 1; j < k; j++)
		if (id[j].dev == id[j - 1].dev && id[j].ino == id[j - 1].ino)
			first[id[j].i] = first[id[j - 1].i] >= 0 ? first[id[j - 1].i] : id[j - 1].i;
	free(id);
	return first;
}

static int given_before(const Options *o, int i, const int *first)
{
	if (first[i] < 0)
		return 0;
	error((Loc){0, 0, diag_file(o->inputs.v[i])}, "given twice (first as '%s'): "
		"an input is linked once", o->inputs.v[first[i]]);
	return 1;
}

/* An output that is an input would replace it: 'ptxlink -o a.ptx a.ptx
 * b.ptx', a slip for -o app.ptx, loses a.ptx.  gcc refuses it so (nvlink
 * 13 writes over it). */
static int output_is_input(const Options *o)
{
	struct stat out, in;
	if (!o->out || !strcmp(o->out, "-") || stat(o->out, &out) != 0 || !S_ISREG(out.st_mode))
		return 0;
	for (int i = 0; i < o->inputs.n; i++)
		if (stat(o->inputs.v[i], &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
			fprintf(stderr, "ptxlink: error: the output '%s' is the input '%s': "
				"ptxlink does not write over its input\n", o->out, o->inputs.v[i]);
			return 1;
		}
	return 0;
}

/* A failed link for the plain target of the oldest architecture named
 * (options.c) says why it was not for that one, which the user named. */
static void say_plain_link(const Options *o)
{
	if (o->lib.arch && o->oldest && strcmp(o->lib.arch, o->oldest) != 0)
		fprintf(stderr, "ptxlink: note: the link is for %s, not %s: ptxas compiles %s PTX "
			"for no other architecture named\n", o->lib.arch, o->oldest, o->oldest);
}

/* The inputs (errors in all of them reported), the library members they
 * need, linked and through the stages at lib's options: libptxlink's
 * session, working in the command's context, or NULL after errors. */
ptxlink_session *load(const Options *o, const ptxlink_options *lib, Ctx *ctx)
{
	ptxlink_session *s = session_new(lib, ctx);
	if (!s)
		return NULL;
	if (o->ptxas)
		session_take_objects(s);
	double t = now();
	int ok = 1, *first = given_first(o);
	for (int i = 0; i < o->inputs.n; i++)
		if (given_before(o, i, first) || ptxlink_add_file(s, o->inputs.v[i]) != 0)
			ok = 0;
	free(first);
	phase_time("parse", t);
	phase_start = now();
	if (!ok || ptxlink_link(s) != 0) {
		if (ok)
			say_plain_link(o);
		ptxlink_free(s);
		return NULL;
	}
	return s;
}

/* The module printed, or (--ptxas) compiled, its first architecture's
 * compile tuned's when not NULL; no output after a failure. */
static int output(const Options *o, Module *m, const LibObjects *objects, const Tuned *tuned)
{
	double t = now();
	if (!o->ptxas) {
		int rc = write_output(o->out, &(Payload){.m = m});
		phase_time("print", t);
		return rc;
	}
	char *made = NULL;
	guard_tmp(NULL);   /* a crash removes the tools' temporaries too */
	int rc = compile_module(m, o, objects, tuned, &made);
	if (rc == 0)
		rc = write_output(o->out, &(Payload){.file = made});
	free(made);
	toolchain_done();
	return rc;
}

int main(int argc, char **argv)
{
	Options o = {0};
	int rc = 2;
	double start = now();
	Ctx *ctx = ctx_new();   /* one for the whole command: -w, the file names, the errors */
	ctx_enter(ctx);
	int ok = parse_args(argc, argv, &o) == 0 && !output_is_input(&o);
	if (ok && o.dlink) {
		timing = o.time;
		guard_tmp(NULL);   /* a crash removes the tools' temporaries */
		rc = dlink(&o, ctx);
	} else if (ok) {
		timing = o.time;
		o.lib.stats |= o.lib.verbose;   /* -v: each stage's counts */
		o.lib.phase_done = o.time ? phase_done : NULL;
		ptxlink_session *s = load(&o, &o.lib, ctx);
		Tuned tuned = {0};
		int loaded = s && diag_errors() == 0;
		if (loaded && o.tune) {
			guard_tmp(NULL);   /* a crash removes the plans' temporaries */
			loaded = tune(&o, ctx, &s, &tuned) == 0;
		}
		rc = loaded && output(&o, session_result(s), session_objects(s), o.tune ? &tuned : NULL) == 0
			? 0 : 1;
		free(tuned.said);
		if (o.tune)
			toolchain_done();   /* the plans' temporaries, after a failure too */
		ptxlink_free(s);
		if (o.lib.verbose)
			fprintf(stderr, "ptxlink: %s in %.1f ms\n", rc ? "failed" : "done", (now() - start) * 1e3);
	}
	options_free(&o);
	ctx_free(ctx);
	return rc;
}
