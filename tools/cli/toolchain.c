/* --ptxas: the linked module to machine code with NVIDIA's tools, in a
 * temporary directory that is removed whatever happens.
 *
 *   whole        ptxas -arch=sm_XX OPTS app.linked.ptx -o app.cubin
 *   relocatable  ptxas -arch=sm_XX -c OPTS app.linked.ptx -o app.o
 *                nvlink -arch=sm_XX app.o [-L CUDA/lib -lcudadevrt] -o app.cubin
 *   --fatbin     fatbinary -64 --create=app.fatbin
 *                  --image3=kind=elf,sm=XX,file=app.cubin
 *                  --image3=kind=ptx,sm=XX,file=app.linked.ptx
 *
 * With several architectures the link is for the oldest (app.linked.ptx)
 * and each cubin is ptxas's (and nvlink's) for its own, app.sm_XX.cubin;
 * PTX for a newer one (app.sm_XX.ptx) is the linked module with that
 * .target, and the .version it needs.
 *
 * The mode (--compile-mode=auto) is relocatable when the module needs it
 * (device-runtime or libdevice names left undefined, --allow-undefined)
 * or when tools/bench/mode-bench.sh and lto-bench.sh measured fewer
 * spills, smaller frames and less SASS that way (see mode_by_facts);
 * whole-program when no function's address is taken and no call is
 * left and no division or square root ptxas makes a subroutine of is in
 * two kernels; where the facts tell nothing, ptxas -v compiles the first
 * architecture both ways and the fewer spill bytes, then the smaller
 * frames, then the more warps the registers let an SM hold, then the
 * fewer SASS bytes (the cubin's .text sections) decide, and the compile
 * chosen is the output's.
 *
 * The tools run in the temporary directory on files named after the
 * output (app.linked.ptx for -o app.cubin), so that what they print names
 * a file the user can tell from the inputs; every line is passed on to
 * stderr prefixed with "ptxlink: TOOL: ". */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "driver.h"
#include "tools/obj/obj.h"
#include "tools/lib/core.h"

/* .o, .cubin, .ptx each; the PTX, the fatbinary, three measured (a cubin
 * whole, an object and its cubin relocatable) */
enum { MAX_TMP = 3 * MAX_ARCHS + 5 };
static char tmpdir[PATH_MAX];
static char *volatile tmpfiles[MAX_TMP];   /* removed by toolchain_cleanup */
static int ntmp;

/* The tool running now, in a process group of its own: a signal that
 * ends ptxlink ends it too.  A SIGINT or SIGTERM sent to ptxlink alone
 * (by a build tool, a timeout, kill) once left ptxas running, writing
 * into the directory being removed. */
static volatile pid_t running;

/* The signals ptxlink.c's handler catches: a tool starts with them
 * blocked until its pid is known, and with their default actions. */
static const int fatal_sigs[] = {SIGINT, SIGTERM, SIGHUP};

/* Signal-safe (kill, waitpid, unlink): ptxlink.c's crash handler calls
 * it too.  SIGKILL to the tool's whole group: its only work is in the
 * temporary directory that goes next, and a tool that ignored a gentler
 * signal would keep ptxlink waiting. */
void toolchain_cleanup(void)
{
	pid_t pid = running;
	if (pid > 0) {
		kill(-pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		running = 0;
	}
	for (int i = 0; i < MAX_TMP; i++)
		if (tmpfiles[i])
			unlink(tmpfiles[i]);
	if (tmpdir[0])
		rmdir(tmpdir);
	tmpdir[0] = 0;
}

void toolchain_done(void)
{
	toolchain_cleanup();
	for (int i = 0; i < MAX_TMP; i++) {
		free(tmpfiles[i]);
		tmpfiles[i] = NULL;
	}
	ntmp = 0;
}

static int make_tmpdir(void)
{
	const char *t = getenv("TMPDIR");
	int n = snprintf(tmpdir, sizeof tmpdir, "%s/ptxlink-XXXXXX", t && *t ? t : "/tmp");
	if (n >= (int)sizeof tmpdir)
		errno = ENAMETOOLONG;
	if (n >= (int)sizeof tmpdir || !mkdtemp(tmpdir)) {
		fprintf(stderr, "ptxlink: error: cannot create a temporary directory '%s': %s\n",
			tmpdir, strerror(errno));
		tmpdir[0] = 0;
		return -1;
	}
	return 0;
}

static char *join(const char *dir, const char *name);

/* base[.arch]ext, a file in the temporary directory to be removed: its
 * name there (the tools run in tmpdir). */
static const char *tmpfile_named(const char *base, const char *arch, const char *ext)
{
	char name[NAME_MAX + 1];
	snprintf(name, sizeof name, "%s%s%s%s", base, arch ? "." : "", arch ? arch : "", ext);
	if (ntmp == MAX_TMP)
		die("more temporaries than MAX_TMP");
	tmpfiles[ntmp] = join(tmpdir, name);
	return strrchr(tmpfiles[ntmp++], '/') + 1;
}

static int executable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = xmalloc(n);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* The CUDA installation to fall back on: $CUDA_HOME, else $CUDA_PATH,
 * else /usr/local/cuda. */
static const char *cuda_root(void)
{
	const char *r = getenv("CUDA_HOME");
	if (!r || !*r)
		r = getenv("CUDA_PATH");
	return r && *r ? r : "/usr/local/cuda";
}

/* name on PATH, else in the CUDA root's bin; NULL after saying where it
 * was looked for. */
static char *find_tool(const char *name)
{
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : "");
	for (char *save, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *p = join(*d ? d : ".", name);
		if (executable(p)) {
			free(copy);
			return p;
		}
		free(p);
	}
	free(copy);
	char *bin = join(cuda_root(), "bin");
	char *p = join(bin, name);
	free(bin);
	if (executable(p))
		return p;
	fprintf(stderr, "ptxlink: error: cannot find %s: not on PATH, not in %s/bin "
		"(set CUDA_HOME to the CUDA installation)\n", name, cuda_root());
	free(p);
	return NULL;
}

/* Passes the tool's output on, a line at a time, with its context. */
static void relay(FILE *from, const char *tool)
{
	char line[4096];
	int start = 1;
	while (fgets(line, sizeof line, from)) {
		if (start)
			fprintf(stderr, "ptxlink: %s: ", tool);
		fputs(line, stderr);
		start = strchr(line, '\n') != NULL;
	}
	if (!start)
		fputc('\n', stderr);
}

static void child(int out, const char *exe, char *const *argv, const sigset_t *mask)
{
	setpgid(0, 0);
	for (size_t i = 0; i < sizeof fatal_sigs / sizeof *fatal_sigs; i++)
		signal(fatal_sigs[i], SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	dup2(out, 1);
	dup2(out, 2);
	close(out);
	if (chdir(tmpdir) == 0)
		execv(exe, argv);
	fprintf(stderr, "cannot run %s: %s\n", exe, strerror(errno));
	_exit(127);
}

/* 0 if the tool exited 0, else -1 after saying how it ended. */
static int exit_status(const char *tool, pid_t pid, int status)
{
	if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (pid < 0)
		fprintf(stderr, "ptxlink: error: cannot run %s: %s\n", tool, strerror(errno));
	else if (WIFSIGNALED(status))
		fprintf(stderr, "ptxlink: error: %s killed by signal %d\n", tool, WTERMSIG(status));
	else
		fprintf(stderr, "ptxlink: error: %s failed (exit status %d)%s\n", tool, WEXITSTATUS(status),
			!strcmp(tool, "ptxas") ? " on the linked PTX (ptxlink without --ptxas writes it)" : "");
	return -1;
}

/* Runs exe with argv, its output relayed (or copied to *captured when
 * captured is not NULL); the exit_status, or -1 without a word when
 * captured: a measured compile that fails only loses (see measure). */
static int spawn(const char *exe, const char *tool, char *const *argv, char **captured)
{
	int fds[2];
	if (pipe(fds) != 0) {
		fprintf(stderr, "ptxlink: error: cannot run %s: %s\n", tool, strerror(errno));
		return -1;
	}
	fflush(NULL);
	sigset_t block, old;
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof fatal_sigs / sizeof *fatal_sigs; i++)
		sigaddset(&block, fatal_sigs[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid_t pid = fork();
	if (pid == 0)
		child(fds[1], exe, argv, &old);
	int err = errno;
	if (pid > 0) {
		setpgid(pid, pid);   /* as the child does: whichever runs first */
		running = pid;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fds[1]);
	FILE *from = fdopen(fds[0], "r");
	if (pid > 0 && from && captured) {
		size_t len;
		FILE *to = xmemstream(captured, &len);
		for (int c; (c = getc(from)) != EOF;)
			putc(c, to);
		fclose(to);
	} else if (pid > 0 && from) {
		relay(from, tool);
	}
	if (from)
		fclose(from);
	else
		close(fds[0]);
	int status = 0;
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	running = 0;
	errno = err;
	if (captured)
		return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
	return exit_status(tool, pid, status);
}

/* Runs argv (argv[0] the tool's name) in the temporary directory; 0 if
 * it exits 0, else -1 after saying so.  Its output is passed on, or
 * kept in *captured (to be freed, and then nothing said) when captured
 * is not NULL. */
static int run_capture(const Options *o, Strs *argv, char **captured)
{
	const char *tool = argv->v[0];
	char *exe = find_tool(tool);
	if (!exe)
		return -1;
	if (o->lib.verbose) {
		fprintf(stderr, "ptxlink: running");
		for (int i = 0; i < argv->n; i++)
			fprintf(stderr, " %s", i ? argv->v[i] : exe);
		fprintf(stderr, " (in %s)\n", tmpdir);
	}
	strs_push(argv, NULL);
	double t = now();
	int rc = spawn(exe, tool, (char *const *)argv->v, captured);
	phase_time(tool, t);
	argv->n--;
	free(exe);
	return rc;
}

static int run(const Options *o, Strs *argv)
{
	return run_capture(o, argv, NULL);
}

/* What decides the mode (see the header). */
typedef struct ModeFacts {
	const char *undefined;  /* a name only nvlink can resolve, or NULL */
	int recursive;          /* a call-graph cycle */
	int taken;              /* defined functions whose address is taken */
	int indirect;           /* indirect call sites */
	int taken_indirect;     /* address-taken functions that call indirectly */
	int calling;            /* defined functions with a call left, to anything */
	const char *slowpath;   /* an instruction ptxas calls its own subroutine for
	                         * (Spelling.slowpath) in two kernels or more, or NULL */
	int slowpath_kernels;   /* how many */
} ModeFacts;

/* A name whole-program ptxas cannot leave undefined: all but vprintf,
 * malloc and the like, which it knows. */
static int needs_nvlink(const Symbol *s)
{
	if (s->def || !s->decl || s->space == SPACE_SHARED || (s->kind == SYM_FUNC && !s->nuses))
		return 0;
	return !is_runtime_symbol(s->name) || needs_cudadevrt(s->name) ||
		!strncmp(s->name, "__nv_", 5);
}

/* Whether the call graph has a cycle: an iterative depth-first search
 * (a deep call chain must not overflow the stack), grey = on the path. */
static int has_cycle(const CallGraph *cg)
{
	uint32_t n = cg_count(cg);
	if (!n)
		return 0;
	const CgFunc *base = cg_func(cg, 0);   /* the nodes are one array */
	uint8_t *colour = xcalloc(n, 1);
	uint32_t (*stack)[2] = xmalloc(n * sizeof *stack);   /* node, next callee */
	int cycle = 0;
	for (uint32_t root = 0; root < n && !cycle; root++) {
		if (colour[root])
			continue;
		uint32_t sp = 0;
		stack[sp][0] = root, stack[sp++][1] = 0, colour[root] = 1;
		while (sp && !cycle) {
			const CgFunc *f = cg_func(cg, stack[sp - 1][0]);
			if (stack[sp - 1][1] == f->ncallees) {
				colour[stack[--sp][0]] = 2;
				continue;
			}
			const CgFunc *c = cg_find(cg, f->callees[stack[sp - 1][1]++]);
			uint32_t k = (uint32_t)(c - base);
			if (colour[k] == 1)
				cycle = 1;
			else if (!colour[k])
				stack[sp][0] = k, stack[sp++][1] = 0, colour[k] = 1;
		}
	}
	free(colour);
	free(stack);
	return cycle;
}

/* The slow paths (Spelling.slowpath) of a body, each once: *n of them
 * in v so far, the kernel's own after those of the kernels before. */
typedef struct SlowPath {
	const Spelling *sp;
	int kernels, last;   /* how many kernels use it; the last one's number */
} SlowPath;

static SlowPath *slowpaths(const List *body, int kernel, SlowPath *v, uint32_t *n, uint32_t *cap)
{
	for (const Stmt *s = body->head; s; s = s->next) {
		if (s->kind == S_SCOPE)
			v = slowpaths(&s->scope, kernel, v, n, cap);
		if (s->kind != S_INS || !s->ins.sp->slowpath)
			continue;
		uint32_t i = 0;
		while (i < *n && v[i].sp->slowpath != s->ins.sp->slowpath)
			i++;
		if (i == *n) {
			v = array_grow(v, *n, cap, sizeof *v);
			v[(*n)++] = (SlowPath){s->ins.sp, 0, -1};
		}
		if (v[i].last != kernel)
			v[i].kernels++, v[i].last = kernel;
	}
	return v;
}

/* The slow path the most kernels use, when two or more do. */
static void shared_slowpath(const Module *m, ModeFacts *f)
{
	SlowPath *v = NULL;
	uint32_t n = 0, cap = 0;
	int kernel = 0;
	for (const Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC && s->func->is_entry && s->func->has_body)
			v = slowpaths(&s->func->body, kernel++, v, &n, &cap);
	for (uint32_t i = 0; i < n; i++)
		if (v[i].kernels > 1 && v[i].kernels > f->slowpath_kernels)
			f->slowpath = v[i].sp->text, f->slowpath_kernels = v[i].kernels;
	free(v);
}

static void mode_facts(const Module *m, ModeFacts *f)
{
	SymTab *t = symtab_build(m);
	CallGraph *cg = callgraph_build(m, t);
	*f = (ModeFacts){0};
	for (uint32_t i = 0; i < symtab_count(t); i++) {
		const Symbol *s = symtab_at(t, i);
		if (!f->undefined && needs_nvlink(s))
			f->undefined = s->name;
	}
	for (uint32_t i = 0; i < cg_count(cg); i++) {
		const CgFunc *c = cg_func(cg, i);
		f->taken += c->def && c->address_taken;
		f->indirect += (int)c->nindirect;
		f->taken_indirect += c->def && c->address_taken && c->nindirect;
		f->calling += c->def && (c->ncallees || c->nindirect);
	}
	f->recursive = has_cycle(cg);
	shared_slowpath(m, f);
	callgraph_free(cg);
	symtab_free(t);
}

/* The rule tools/bench/mode-bench.sh's and lto-bench.sh's measurements
 * support (docs/usage.md): nvlink must resolve a name; or a cycle may be
 * compiled with the full call ABI (recursion through direct calls, or an
 * address-taken function calling through a pointer): relocatable.  No
 * function address-taken, no call left and no instruction ptxas calls a
 * subroutine of its own for (Spelling.slowpath) in two kernels: whole
 * program.  Of the 51 call-free corpus files compiled both ways with
 * ptxas 13, 49 are no better relocatable in spills, stack, warps or
 * .text; the two that are, textures for sm_75 and sm_80, are the two
 * with a slow path in two kernels (div.rn.f32): whole-program ptxas
 * copies the subroutine into each, ptxas -c and nvlink keep one (14,720
 * .text bytes against 13,184 and 15,232 against 13,824), so they are
 * measured.  A slow path in one kernel, or a different one in each, is
 * one copy a kernel either way, and whole program less SASS
 * (cluster_sm90's sqrt.rn.f64 in one kernel: 6,016 bytes against 6,912;
 * div.rn.f32 and div.rn.ftz.f32 in two kernels: 3,712 against 4,224).
 * The subroutines ptxas makes of warp-synchronous instructions for sm_80
 * and sm_86, not sm_90 (__cuda_sm70_shflsync_up_p and the like), depend
 * on the code around them, not on the instruction (a kernel of the one
 * instruction has none), and are no fact: in the 6 corpus files that
 * have them (cub_sort_scan's in 40 kernels) whole program is better.
 * Otherwise MODE_AUTO, measure:
 * - address-taken functions: whole-program mode compiles each as a
 *   full-ABI function copied into every kernel, relocatable mode pays at
 *   the call sites instead, and which costs more no count of them tells.
 *   (Relocatable spills less for a bytecode interpreter's 10 functions at
 *   2 sites, fnptr --no-devirt's 10 at 14 and fnptr's after
 *   devirtualization, 10 with no indirect call left; whole for mono_iface
 *   --no-devirt's 9 at 13, fnptr --no-stages's 10 at 25, and at a tie, as
 *   globals_init's and llc_fnptr's funnels with no call left: 3,456 SASS
 *   bytes against 4,608, 768 against 1,536.)
 * - calls left (to a .func the stages kept, or to vprintf, malloc):
 *   whole-program ptxas copies a callee into each kernel calling it and
 *   still calls it, relocatable keeps one and calls it with the full ABI;
 *   at equal spills and frames the registers and the SASS differ either
 *   way, and no count of callees or sites tells which.  (Relocatable:
 *   clang_depot_lifetimes 15,104 bytes against 17,152 at 40 registers
 *   against 37, and with vprintf the only callee printf_demo 1,792
 *   against 2,176, printf_runtime 1,792 against 2,048; whole, fewer
 *   registers: virtual_shapes 32 against 37, solver 32 against 53,
 *   vcall_xfile 46 against 70, though relocatable's SASS is 2 KB
 *   smaller each; whole, less SASS: bits 7,808 against 8,448, vecmath
 *   9,600 against 11,264, nbody_xfile 6,272 against 7,936, globals
 *   4,608 against 4,736.) */
static int mode_by_facts(const ModeFacts *f)
{
	if (f->undefined || f->recursive || f->taken_indirect)
		return MODE_RELOCATABLE;
	return f->taken || f->calling || f->slowpath ? MODE_AUTO : MODE_WHOLE;
}

/* What ptxas -v said of one compile: spill bytes (stores and loads) and
 * stack frames summed over the distinct functions it names (whole-program
 * mode reports a callee again under every kernel it is copied into); and
 * the SASS bytes of its cubin (its .text sections). */
typedef struct Cost {
	long spill, stack, text;
	int regs, warps;             /* the most registers of a function; warps_by_regs */
} Cost;

typedef struct FuncCost {
	const char *name;
	long spill, stack;
} FuncCost;

static int by_name(const void *a, const void *b)
{
	return strcmp(((const FuncCost *)a)->name, ((const FuncCost *)b)->name);
}

static Cost ptxas_cost(char *out)
{
	FuncCost *fc = NULL;
	uint32_t n = 0, cap = 0;
	const char *name = NULL;
	for (char *line = out, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		const char *p = strstr(line, "Function properties for ");
		long stack, st, ld;
		if (p)
			name = p + strlen("Function properties for ");
		else if (name && sscanf(line, " %ld bytes stack frame, %ld bytes spill stores, %ld bytes spill loads",
			&stack, &st, &ld) == 3) {
			fc = array_grow(fc, n, &cap, sizeof *fc);
			fc[n++] = (FuncCost){name, st + ld, stack};
			name = NULL;
		}
	}
	if (n)
		qsort(fc, n, sizeof *fc, by_name);
	Cost c = {0};
	for (uint32_t i = 0; i < n; i++)
		if (i == 0 || strcmp(fc[i].name, fc[i - 1].name) != 0)
			c.spill += fc[i].spill, c.stack += fc[i].stack;
	free(fc);
	return c;
}

/* The mode, or -1 when whole-program mode is asked for and cannot be. */
static int pick_mode(const Module *m, const Options *o, ModeFacts *f)
{
	mode_facts(m, f);
	if (o->mode == MODE_WHOLE && f->undefined) {
		fprintf(stderr, "ptxlink: error: --compile-mode=whole: '%s' is undefined and only "
			"nvlink can resolve it (use --compile-mode=relocatable)\n", f->undefined);
		return -1;
	}
	return o->mode != MODE_AUTO ? (int)o->mode : mode_by_facts(f);
}

/* -v's line: the mode and why (measured: what ptxas -v said each way). */
static void say_mode(const Options *o, const ModeFacts *f, int mode, const char *measured)
{
	if (!o->lib.verbose)
		return;
	fprintf(stderr, "ptxlink: compile mode: %s (%s", mode == MODE_WHOLE ? "whole program"
		: "relocatable, ptxas -c and nvlink", o->mode != MODE_AUTO ? "--compile-mode; " : "");
	if (f->undefined)
		fprintf(stderr, "'%s' is left to nvlink; ", f->undefined);
	if (measured)
		fprintf(stderr, "%s; ", measured);
	fprintf(stderr, "%d functions address-taken, %d of them calling indirectly, "
		"%d indirect calls, %d functions calling, %s", f->taken, f->taken_indirect,
		f->indirect, f->calling, f->recursive ? "recursion" : "no recursion");
	if (f->slowpath)
		fprintf(stderr, ", ptxas's subroutine for %s in %d kernels", f->slowpath,
			f->slowpath_kernels);
	fprintf(stderr, ")\n");
}

/* The output's name without directory and extension: what the temporary
 * files are called ("a" for standard output or a name like an option).
 * Characters beyond letters, digits and "._+-" become '_': fatbinary
 * reads --image3=...,file=NAME up to a comma. */
static void base_name(const Options *o, char *buf, size_t n)
{
	const char *out = o->out && strcmp(o->out, "-") ? o->out : "a";
	const char *slash = strrchr(out, '/');
	snprintf(buf, n, "%s", slash ? slash + 1 : out);
	char *dot = strrchr(buf, '.');
	if (dot && dot != buf)
		*dot = 0;
	for (char *c = buf; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("._+-", *c))
			*c = '_';
	if (buf[0] == '-' || buf[0] == '.' || !buf[0])
		snprintf(buf, n, "a");
}

static int write_ptx(const Module *m, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f || print_close(f, m) != 0) {
		fprintf(stderr, "ptxlink: error: cannot write '%s': %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static void args(Strs *a, const char *first, const char *sm)
{
	static char arch[64];
	a->n = 0;
	strs_push(a, first);
	snprintf(arch, sizeof arch, "-arch=%s", sm);
	strs_push(a, arch);
}

/* -LDIR for the libcudadevrt.a of nvlink's own CUDA installation (bin/..),
 * NULL if it has none. */
static char *devrt_dir(void)
{
	char *nv = find_tool("nvlink");
	char *slash = nv ? strrchr(nv, '/') : NULL;
	if (slash)
		*slash = 0;
	slash = nv ? strrchr(nv, '/') : NULL;
	if (!slash) {
		free(nv);
		return NULL;
	}
	*slash = 0;
	size_t n = strlen(nv) + 64;
	char *dir = xmalloc(n);
	snprintf(dir, n, "-L%s/targets/x86_64-linux/lib", nv);
	char *lib = join(dir + 2, "libcudadevrt.a");
	int ok = access(lib, R_OK) == 0;
	free(lib);
	free(nv);
	if (!ok)
		free(dir);
	return ok ? dir : NULL;
}

/* The archives of objects the link found, for nvlink (which runs in the
 * temporary directory: absolute paths); whether one is libcudadevrt. */
static int object_args(Strs *a, Strs *owned, const LibObjects *objects)
{
	int devrt = 0;
	for (int i = 0; objects && i < objects->n; i++) {
		char *p = realpath(objects->paths[i], NULL);
		if (!p)
			p = xstrdup(objects->paths[i]);
		strs_push(owned, p);
		strs_push(a, p);
		devrt |= is_cudadevrt(p);
	}
	return devrt;
}

/* Whether the options given ask ptxas for -v. */
static int ptxas_verbose(const Options *o)
{
	for (int i = 0; i < o->ptxas_opts.n; i++)
		if (!strcmp(o->ptxas_opts.v[i], "-v") || !strcmp(o->ptxas_opts.v[i], "--verbose"))
			return 1;
	return 0;
}

/* ptxas, -c when reloc, with the options given; with said (the measured
 * mode) -v too, and what it says kept there instead of passed on. */
static int ptxas(const Options *o, const char *sm, Strs *a, int reloc, const char *ptx,
	const char *out, char **said)
{
	args(a, "ptxas", sm);
	if (reloc)
		strs_push(a, "-c");
	for (int i = 0; i < o->ptxas_opts.n; i++)
		strs_push(a, o->ptxas_opts.v[i]);
	if (said && !ptxas_verbose(o))
		strs_push(a, "-v");
	strs_push(a, ptx), strs_push(a, "-o"), strs_push(a, out);
	return run_capture(o, a, said);
}

/* ptxas -c, then nvlink with the archives of objects given, and the
 * device runtime when CUDA has it and none of those is it. */
static int relocatable(const Options *o, const char *sm, Strs *a, const char *ptx,
	const char *obj, const char *cubin, const LibObjects *objects, char **said)
{
	if (ptxas(o, sm, a, 1, ptx, obj, said) != 0)
		return -1;
	args(a, "nvlink", sm);
	strs_push(a, obj);
	Strs owned = {0};
	char *libdir = object_args(a, &owned, objects) ? NULL : devrt_dir();
	if (libdir)
		strs_push(a, libdir), strs_push(a, "-lcudadevrt");
	strs_push(a, "-o"), strs_push(a, cubin);
	int rc = run(o, a);
	free(libdir);
	for (int i = 0; i < owned.n; i++)
		free((void *)owned.v[i]);
	free(owned.v);
	return rc;
}

/* fatbinary: the cubins and the PTX they came from (the JIT compiles
 * the PTX for newer GPUs); images holds --image3=... arguments. */
static int fatbin(const Options *o, Strs *a, const Strs *images, const char *fat)
{
	static char create[PATH_MAX + 16];
	snprintf(create, sizeof create, "--create=%s", fat);
	a->n = 0;
	strs_push(a, "fatbinary"), strs_push(a, "-64"), strs_push(a, create);
	for (int i = 0; i < images->n; i++)
		strs_push(a, images->v[i]);
	return run(o, a);
}

static void image(Strs *images, const char *kind, const char *sm, const char *file)
{
	size_t n = strlen(file) + 64;
	char *s = xmalloc(n);
	snprintf(s, n, "--image3=kind=%s,sm=%s,file=%s", kind, sm + 3, file);
	strs_push(images, s);
}

/* The module printed to path for sm: its .target's architecture, and its
 * .version if sm needs a newer one, are sm's while it is printed. */
static int write_ptx_for(Module *m, const char *sm, const char *path)
{
	Stmt *t = NULL, *v = NULL;
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_TARGET && !t)
			t = s;
		else if (s->kind == S_VERSION && !v)
			v = s;
	if (!t || !v || !t->list.nitems)
		return write_ptx(m, path);
	Expr *arch = t->list.items[0], retarget = *arch;
	const char *version = v->strs.strs[0];
	retarget.str = intern_cstr(sm);
	t->list.items[0] = &retarget;
	v->strs.strs[0] = link_ptx_version(sm, version);
	int rc = write_ptx(m, path);
	t->list.items[0] = arch;
	v->strs.strs[0] = version;
	return rc;
}

/* The warps an SM of architecture sm (sm_XX) holds at regs registers a
 * thread, as the CUDA occupancy calculator counts them: each of the 4
 * sub-partitions has 16,384 registers, given to a warp in units of 256
 * (8 a thread); at most the architecture's resident warps (the CUDA
 * programming guide's table of compute capabilities). */
static int warps_by_regs(const char *sm, int regs)
{
	int cc = atoi(sm + 3), most = 64;
	if (cc == 75)
		most = 32;
	else if (cc == 86 || cc == 87 || cc == 88 || cc == 89 || cc >= 120)
		most = 48;
	int per_warp = (regs < 1 ? 1 : (regs + 7) / 8) * 8 * 32;
	int warps = 4 * (16384 / per_warp);
	return warps < most ? warps : most;
}

/* The first architecture compiled relocatable (ptxas -c, nvlink) or
 * not, with ptxas -v: the cubin's name and its Cost (spill -1 when a tool
 * failed); *said keeps what ptxas said. */
static Cost measure(const Options *o, const char *base, Strs *a, const char *ptx, int reloc,
	const LibObjects *objects, const char **cubin, char **said)
{
	const char *sm = o->archs.v[0], *way = reloc ? "relocatable" : "whole";
	*cubin = tmpfile_named(base, way, ".cubin");
	int rc = reloc ? relocatable(o, sm, a, ptx, tmpfile_named(base, way, ".o"), *cubin, objects, said)
		: ptxas(o, sm, a, 0, ptx, *cubin, said);
	char *copy = xstrdup(*said ? *said : ""), *path = join(tmpdir, *cubin);
	Cost c = ptxas_cost(copy);
	if (rc != 0 || elf_cubin_text(path, &c.text, &c.regs) != 0)
		c.spill = -1;
	c.warps = warps_by_regs(sm, c.regs);
	free(copy);
	free(path);
	return c;
}

/* Whether relocatable's cost r beats whole's w: fewer spill bytes, then
 * smaller frames, then more warps resident (registers cost occupancy:
 * relocatable's full-ABI calls took vcall_xfile from 46 registers to
 * 70 and solver from 32 to 53, for 2 KB less SASS each), then less
 * SASS; a tie is whole (it needs no nvlink). */
static int reloc_better(Cost r, Cost w)
{
	if (r.spill < 0 || w.spill < 0)
		return w.spill < 0 && r.spill >= 0;
	if (r.spill != w.spill)
		return r.spill < w.spill;
	if (r.stack != w.stack)
		return r.stack < w.stack;
	return r.warps != w.warps ? r.warps > w.warps : r.text < w.text;
}

static void say_cost(char *buf, size_t n, Cost c, const char *way)
{
	size_t k = strlen(buf);
	if (c.spill < 0)
		snprintf(buf + k, n - k, "%s failed", way);
	else
		snprintf(buf + k, n - k, "%ld, %ld, %d (%d warps) and %ld %s", c.spill, c.stack,
			c.regs, c.warps, c.text, way);
}

/* What the measured compile's ptxas said, passed on as an output's is;
 * the lines of the -v it was given only when the options asked for -v. */
static void pass_on(const Options *o, const char *said)
{
	int all = ptxas_verbose(o);
	for (const char *line = said, *end; *line; line = end) {
		end = strchr(line, '\n');
		end = end ? end + 1 : line + strlen(line);
		int info = !strncmp(line, "ptxas info", 10) || *line == ' ' || *line == '\t';
		if (all || !info)
			fprintf(stderr, "ptxlink: ptxas: %.*s%s", (int)(end - line), line,
				end[-1] == '\n' ? "" : "\n");
	}
}

/* The mode the facts leave open, by compiling the first architecture
 * both ways (see reloc_better); why gets what was measured.  The chosen
 * compile is the output's for that architecture: its cubin in *cubin
 * (NULL when both failed: the output's own compile says why), what its
 * ptxas said in *said (to be freed).  -1 without ptxas (said once, not
 * at each compile). */
static int measured_mode(const Options *o, const char *base, Strs *a, const char *ptx,
	const LibObjects *objects, char *why, size_t n, const char **cubin, char **said)
{
	char *exe = find_tool("ptxas");
	if (!exe)
		return -1;
	free(exe);
	const char *wc, *rc;
	char *ws = NULL, *rs = NULL;
	Cost w = measure(o, base, a, ptx, 0, objects, &wc, &ws);
	Cost r = measure(o, base, a, ptx, 1, objects, &rc, &rs);
	int reloc = reloc_better(r, w);
	snprintf(why, n, "measured for %s: spill bytes, stack, registers and .text bytes ", o->archs.v[0]);
	say_cost(why, n, w, "whole; ");
	say_cost(why, n, r, "relocatable");
	*cubin = (reloc ? r : w).spill < 0 ? NULL : reloc ? rc : wc;
	*said = reloc ? rs : ws;
	free(reloc ? ws : rs);
	return reloc ? MODE_RELOCATABLE : MODE_WHOLE;
}

/* A cubin for each architecture (base.sm_XX.cubin when several), PTX for
 * each asked for, in one fatbinary with --fatbin. */
static int compile_in_tmpdir(Module *m, const Options *o, int mode, const ModeFacts *f,
	const LibObjects *objects, char **path)
{
	char base[NAME_MAX - 32];
	base_name(o, base, sizeof base);
	const char *ptx = tmpfile_named(base, NULL, ".linked.ptx"), *out = NULL;
	double t = now();
	if (write_ptx(m, tmpfiles[ntmp - 1]) != 0)
		return -1;
	phase_time("print", t);
	Strs a = {0}, images = {0};
	char measured[256] = "", *said = NULL;
	const char *reuse = NULL;   /* the measured compile's cubin */
	if (mode == MODE_AUTO)
		mode = measured_mode(o, base, &a, ptx, objects, measured, sizeof measured, &reuse, &said);
	if (o->archs.n && mode >= 0)
		say_mode(o, f, mode, *measured ? measured : NULL);
	if (reuse && said)
		pass_on(o, said);
	free(said);
	int rc = mode < 0 ? -1 : 0, several = o->archs.n > 1;
	for (int i = 0; rc == 0 && i < o->archs.n; i++) {
		const char *sm = o->archs.v[i], *tag = several ? sm : NULL;
		if (i == 0 && reuse) {
			image(&images, "elf", sm, out = reuse);
			continue;
		}
		const char *obj = tmpfile_named(base, tag, ".o");
		out = tmpfile_named(base, tag, ".cubin");
		rc = mode == MODE_WHOLE ? ptxas(o, sm, &a, 0, ptx, out, NULL)
			: relocatable(o, sm, &a, ptx, obj, out, objects, NULL);
		image(&images, "elf", sm, out);
	}
	for (int i = 0; rc == 0 && i < o->ptx_archs.n; i++) {
		const char *sm = o->ptx_archs.v[i], *file = ptx;
		if (strcmp(sm, o->lib.arch) != 0) {
			file = tmpfile_named(base, sm, ".ptx");
			rc = write_ptx_for(m, sm, tmpfiles[ntmp - 1]);
		}
		image(&images, "ptx", sm, file);
	}
	if (rc == 0 && o->fatbin) {
		out = tmpfile_named(base, NULL, ".fatbin");
		rc = fatbin(o, &a, &images, out);
	}
	free(a.v);
	for (int i = 0; i < images.n; i++)
		free((void *)images.v[i]);
	free(images.v);
	if (rc == 0)
		*path = join(tmpdir, out);
	return rc;
}

int compile_module(Module *m, const Options *o, const LibObjects *objects, char **path)
{
	ModeFacts f = {0};
	int mode = o->archs.n ? pick_mode(m, o, &f) : MODE_WHOLE;
	if (mode < 0 || make_tmpdir() != 0)
		return -1;
	return compile_in_tmpdir(m, o, mode, &f, objects, path);
}
