/* --ptxas: the linked module to machine code with NVIDIA's tools
 * (tools/nvtools: the commands each compile runs, the compile-mode
 * rule), in a temporary directory that is removed whatever happens.
 *
 * With several architectures the link is for the oldest, or its plain
 * target (options.c), app.linked.ptx, and each cubin is ptxas's (and
 * nvlink's) for its own, app.sm_XX.cubin; PTX for a newer one
 * (app.sm_XX.ptx) is the linked module with that .target (its family's
 * when the link's is family-specific), and the .version it needs.
 * --fatbin puts them in one fatbinary.
 *
 * The tools run in the temporary directory on files named after the
 * output (app.linked.ptx for -o app.cubin), so that what they print names
 * a file the user can tell from the inputs; every line is passed on to
 * stderr prefixed with "ptxlink: TOOL: ". */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "driver.h"
#include "tools/lib/core.h"
#include "tools/obj/obj.h"

/* .o, .cubin, .ptx each; the PTX, the fatbinary, three measured (a cubin
 * whole, an object and its cubin relocatable); -dlink: the PTX and those
 * per architecture, nvlink's cubin, the registration, the fatbinary's C
 * file and the object; --tune: each plan's PTX and, each way, its
 * cubin, object and what ptxas said; the mode rule's reference: an
 * object for each input and their cubin */
enum { MAX_APART = 64 };   /* inputs the reference compiles (more: none) */
enum { MAX_TMP = 6 * MAX_ARCHS + 5 + 7 * MAX_PLANS + MAX_APART + 1 };
static char tmpdir[PATH_MAX];
static char *volatile tmpfiles[MAX_TMP];   /* removed by toolchain_cleanup */
static int ntmp;

/* The tool running now (nvtools.h, NvRun.running), and --tune's workers. */
static volatile pid_t running, workers[NV_MAX_JOBS];

/* Signal-safe (kill, waitpid, unlink): ptxlink.c's crash handler calls
 * it too. */
void toolchain_cleanup(void)
{
	nv_stop_workers(workers, NV_MAX_JOBS);
	nv_kill(&running);
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
	if (tmpdir[0])   /* made once for the run: -dlink's architectures, --tune's plans */
		return 0;
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

/* base[.arch]ext, a file in the temporary directory to be removed: its
 * name there (the tools run in tmpdir). */
static const char *tmpfile_named(const char *base, const char *arch, const char *ext)
{
	char name[NAME_MAX + 1];
	snprintf(name, sizeof name, "%s%s%s%s", base, arch ? "." : "", arch ? arch : "", ext);
	if (ntmp == MAX_TMP)
		die("more temporaries than MAX_TMP");
	tmpfiles[ntmp] = nv_path(tmpdir, name);
	return strrchr(tmpfiles[ntmp++], '/') + 1;
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

int write_ptx(const Module *m, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f || print_close(f, m) != 0) {
		fprintf(stderr, "ptxlink: error: cannot write '%s': %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The module's first statement of that kind (its header's), or NULL. */
static Stmt *first_of(const Module *m, StmtKind kind)
{
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == kind)
			return s;
	return NULL;
}

/* The module printed to path for sm: its .target's architecture, and its
 * .version if sm needs a newer one, are sm's while it is printed. */
static int write_ptx_for(Module *m, const char *sm, const char *path)
{
	Stmt *t = first_of(m, S_TARGET), *v = first_of(m, S_VERSION);
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

/* The linked module's .target architecture (sm_XX[a|f]). */
static const char *module_target(const Module *m)
{
	Stmt *t = first_of(m, S_TARGET);
	return t && t->list.nitems ? t->list.items[0]->str : "";
}

/* The .target PTX for sm is printed with: sm's, or its family's when the
 * link's is family-specific and sm plain (the inputs' family instructions,
 * which the plain target refuses).  Interned. */
static const char *ptx_target(const char *linked, const char *sm)
{
	size_t n = strlen(linked), k = strlen(sm);
	int family = n && linked[n - 1] == 'f', plain = k && sm[k - 1] != 'a' && sm[k - 1] != 'f';
	char buf[32];
	snprintf(buf, sizeof buf, "%s%s", sm, family && plain ? "f" : "");
	return intern_cstr(buf);
}

/* Every architecture asked for runs the linked PTX: the link's target is
 * one that does (options.c), unless an input's family-specific target
 * made it its family's (link/headers.c), which another family cannot
 * compile. */
static int serves_all(const Module *m, const Options *o)
{
	const char *t = module_target(m);
	for (int k = 0; k < 2; k++) {
		const Strs *archs = k ? &o->ptx_archs : &o->archs;
		for (int i = 0; i < archs->n; i++)
			if (!link_arch_runs(t, archs->v[i])) {
				fprintf(stderr, "ptxlink: error: the linked PTX is for .target %s (an input's), "
					"which ptxas cannot compile for %s: link for that architecture "
					"separately\n", t, archs->v[i]);
				return 0;
			}
	}
	return 1;
}

/* What every compile of this run shares: the tools, the options, the
 * archives of objects the link found (for nvlink, which runs in the
 * temporary directory: absolute paths), whether one is libcudadevrt. */
typedef struct Job {
	NvRun run;
	NvCompile c;
	Strs objects;
} Job;

static void job_start(Job *j, const Options *o, const LibObjects *objects, const char *ptx)
{
	*j = (Job){.run = {.dir = tmpdir, .verbose = o->lib.verbose,
		.timed = o->time ? phase_ms : NULL, .running = &running}};
	int devrt = 0;
	for (int i = 0; objects && i < objects->n; i++) {
		char *p = realpath(objects->paths[i], NULL);
		if (!p)
			p = xstrdup(objects->paths[i]);
		strs_push(&j->objects, p);
		devrt |= is_cudadevrt(p);
	}
	j->c = (NvCompile){.opts = o->ptxas_opts.v, .nopts = o->ptxas_opts.n, .ptx = ptx,
		.objects = j->objects.v, .nobjects = j->objects.n, .devrt = !devrt};
}

static void job_end(Job *j)
{
	for (int i = 0; i < j->objects.n; i++)
		free((void *)j->objects.v[i]);
	free(j->objects.v);
}

/* One architecture, whole or relocatable, its files named by tag. */
static int compile_for(Job *j, const char *sm, int reloc, const char *base, const char *tag,
	const char **cubin, NvFigures *figures)
{
	j->c.arch = sm;
	j->c.reloc = reloc;
	j->c.cubin = *cubin = tmpfile_named(base, tag, ".cubin");
	j->c.obj = reloc || !figures ? tmpfile_named(base, tag, ".o") : NULL;
	return nv_compile(&j->run, &j->c, figures);
}

static void say_figures(char *buf, size_t n, const NvFigures *c, const char *way)
{
	size_t k = strlen(buf);
	if (c->spill < 0)
		snprintf(buf + k, n - k, "%s failed", way);
	else
		snprintf(buf + k, n - k, "%ld, %ld, %d (%d warps) and %ld %s", c->spill, c->stack,
			c->regs, c->warps, c->text, way);
}

/* The mode rule's reference for the first architecture (nvtools.h,
 * nv_mode_pick): the inputs compiled apart as nvcc -rdc compiles them,
 * when each is a PTX file (not standard input) and there are at most
 * MAX_APART; ref->spill -1 when not, or when a tool failed on them. */
static void reference(Job *j, const Options *o, const char *base, NvFigures *ref)
{
	const char *ptx[MAX_APART], *obj[MAX_APART];
	char *abs[MAX_APART];
	int n = 0, ok = o->inputs.n > 0 && o->inputs.n <= MAX_APART;
	*ref = (NvFigures){.spill = -1};
	for (; ok && n < o->inputs.n; n++) {
		const char *in = o->inputs.v[n];
		abs[n] = strcmp(in, "-") != 0 && !obj_not_ptx_file(in) ? realpath(in, NULL) : NULL;
		ok = abs[n] != NULL;
	}
	if (ok) {
		for (int i = 0; i < n; i++) {
			char tag[32];
			snprintf(tag, sizeof tag, "apart%d", i + 1);
			ptx[i] = abs[i];
			obj[i] = tmpfile_named(base, tag, ".o");
		}
		NvCompile c = j->c;
		c.arch = o->archs.v[0];
		c.reloc = 1;
		c.apart = ptx, c.apart_obj = obj, c.napart = n;
		c.cubin = tmpfile_named(base, "apart", ".cubin");
		nv_compile(&j->run, &c, ref);
	}
	for (int i = 0; i < n; i++)
		free(abs[i]);
}

/* The mode the facts leave open, by compiling the first architecture
 * both ways, and the inputs apart where that may decide (nv_mode_pick);
 * why gets what was measured.  The chosen
 * compile is the output's for that architecture: its cubin in *cubin
 * (NULL when both failed: the output's own compile says why), what its
 * ptxas said in *said (to be freed).  -1 without ptxas (said once, not
 * at each compile). */
static int measured_mode(Job *j, const Options *o, const char *base, char *why, size_t n,
	const char **cubin, char **said)
{
	char *exe = nv_find("ptxas");
	if (!exe)
		return -1;
	free(exe);
	const char *wc, *rc;
	NvFigures w, r, ref = {.spill = -1};
	compile_for(j, o->archs.v[0], 0, base, "whole", &wc, &w);
	compile_for(j, o->archs.v[0], 1, base, "relocatable", &rc, &r);
	if (nv_mode_needs_ref(&w, &r))
		reference(j, o, base, &ref);
	int reloc = nv_mode_pick(&w, &r, &ref);
	snprintf(why, n, "measured for %s: spill bytes, stack, registers and .text bytes ", o->archs.v[0]);
	say_figures(why, n, &w, "whole; ");
	say_figures(why, n, &r, "relocatable");
	if (ref.spill >= 0) {
		size_t k = strlen(why);
		snprintf(why + k, n - k, "; ");
		say_figures(why, n, &ref, "the inputs compiled apart, as nvcc -rdc does");
	}
	nv_figures_free(&ref);
	*cubin = (reloc ? r : w).spill < 0 ? NULL : reloc ? rc : wc;
	NvFigures *chosen = reloc ? &r : &w;
	*said = chosen->said;
	chosen->said = NULL;
	nv_figures_free(&w);
	nv_figures_free(&r);
	return reloc ? MODE_RELOCATABLE : MODE_WHOLE;
}

/* A cubin for each architecture (base.sm_XX.cubin when several); the
 * first may be the measured compile's. */
static int cubins(Job *j, const Options *o, int mode, const char *base, const char *reuse,
	Strs *images, const char **out)
{
	int rc = 0, several = o->archs.n > 1;
	for (int i = 0; rc == 0 && i < o->archs.n; i++) {
		const char *sm = o->archs.v[i];
		if (i == 0 && reuse)
			*out = reuse;
		else
			rc = compile_for(j, sm, mode == MODE_RELOCATABLE, base, several ? sm : NULL, out, NULL);
		strs_push(images, nv_image("elf", sm, *out));
	}
	return rc;
}

/* PTX for each architecture asked for, then the fatbinary. */
static int ptx_images(Module *m, const Options *o, const char *base, const char *ptx,
	Strs *images)
{
	int rc = 0;
	const char *linked = module_target(m);
	for (int i = 0; rc == 0 && i < o->ptx_archs.n; i++) {
		const char *sm = ptx_target(linked, o->ptx_archs.v[i]), *file = ptx;
		if (sm != linked) {
			file = tmpfile_named(base, sm, ".ptx");
			rc = write_ptx_for(m, sm, tmpfiles[ntmp - 1]);
		}
		strs_push(images, nv_image("ptx", sm, file));
	}
	return rc;
}

/* The output's compiles; the first architecture's is tuned's when not
 * NULL (--tune measured it), or the measured mode's. */
static int compile_in_tmpdir(Module *m, const Options *o, int mode, const ModeFacts *f,
	const LibObjects *objects, const Tuned *tuned, Strs *images, char **path)
{
	char base[NAME_MAX - 32];
	base_name(o, base, sizeof base);
	const char *ptx = tmpfile_named(base, NULL, ".linked.ptx"), *out = NULL;
	double t = now();
	if (write_ptx(m, tmpfiles[ntmp - 1]) != 0)
		return -1;
	phase_time("print", t);
	Job j;
	char measured[384] = "", *said = NULL;
	const char *reuse = tuned ? tuned->cubin : NULL;   /* the measured compile's cubin */
	job_start(&j, o, objects, ptx);
	if (o->dlink)   /* which libraries' modules nvlink linked (dlink_compile) */
		j.c.reg = tmpfile_named(base, NULL, ".nvlink.reg.c");
	if (tuned)
		mode = tuned->mode;
	else if (mode == MODE_AUTO)
		mode = measured_mode(&j, o, base, measured, sizeof measured, &reuse, &said);
	if (o->archs.n && mode >= 0)
		say_mode(o, f, mode, tuned ? "--tune's plan" : *measured ? measured : NULL);
	if (reuse && (said || tuned))
		nv_pass_on(&j.c, tuned ? tuned->said : said);
	free(said);
	int rc = mode < 0 ? -1 : cubins(&j, o, mode, base, reuse, images, &out);
	if (rc == 0)
		rc = ptx_images(m, o, base, ptx, images);
	if (rc == 0 && o->fatbin) {
		out = tmpfile_named(base, NULL, ".fatbin");
		rc = nv_fatbin(&j.run, images->v, images->n, out);
	}
	job_end(&j);
	if (rc == 0 && path)
		*path = nv_path(tmpdir, out);
	return rc;
}

int compile_module(Module *m, const Options *o, const LibObjects *objects, const Tuned *tuned,
	char **path)
{
	ModeFacts f = {0};
	int mode = o->archs.n ? nv_mode(m, o->mode, &f) : MODE_WHOLE;
	if (mode < 0 || !serves_all(m, o) || make_tmpdir() != 0)
		return -1;
	Strs images = {0};
	int rc = compile_in_tmpdir(m, o, mode, &f, objects, tuned, &images, path);
	strs_free(&images);
	return rc;
}

/* ---- --tune: the plans' files and their compiles ---------------------- */

const char *tune_file(const Options *o, const char *tag, const char *ext, char **path)
{
	char base[NAME_MAX - 48];
	base_name(o, base, sizeof base);
	if (make_tmpdir() != 0)
		return NULL;
	const char *name = tmpfile_named(base, tag, ext);
	if (path)
		*path = tmpfiles[ntmp - 1];
	return name;
}

char *tune_path(const char *name, const char *ext)
{
	return nv_path_ext(tmpdir, name, ext);
}

void tune_compile(const Options *o, const LibObjects *objects, NvBatch *v, int n)
{
	Job j;
	job_start(&j, o, objects, NULL);
	j.run.verbose = 0;
	j.run.timed = NULL;
	for (int i = 0; i < n; i++) {
		NvCompile c = j.c;
		c.arch = o->archs.n ? o->archs.v[0] : o->lib.arch;
		c.ptx = v[i].c.ptx, c.reloc = v[i].c.reloc, c.cubin = v[i].c.cubin, c.obj = v[i].c.obj;
		v[i].c = c;
	}
	double t = now();
	nv_compile_batch(&j.run, v, n, o->jobs, o->tune_cache, workers);
	phase_time("tune", t);
	job_end(&j);
}

/* ---- -dlink: one temporary directory for every architecture ---------- */

/* The module ids of nvlink's registration file name (in the temporary
 * directory; none when nvlink did not run) after the first skip, into
 * extra (owned). */
static void take_registered(const char *name, int skip, Strs *extra)
{
	char *path = nv_path(tmpdir, name);
	int n;
	char **ids = nv_registered(path, &n);
	for (int i = 0; i < n; i++)
		if (i < skip)
			free(ids[i]);
		else
			strs_push(extra, ids[i]);
	free(ids);
	free(path);
}

/* The options of one architecture's compile: its files named
 * BASE.sm_XX.*, a cubin for sm, PTX for it when ptx.  nvlink's first
 * module is ptxas -c's object, named after its path. */
int dlink_compile(Module *m, const Options *o, const char *sm, int ptx, Strs *images, Strs *extra)
{
	char base[NAME_MAX - 48], out[NAME_MAX];
	base_name(o, base, sizeof base);
	snprintf(out, sizeof out, "%s.%s.o", base, sm);
	Options one = *o;
	one.out = out;
	one.archs = (Strs){.v = &sm, .n = 1};
	one.ptx_archs = (Strs){.v = &sm, .n = ptx ? 1 : 0};
	one.fatbin = 0;
	one.lib.arch = sm;
	ModeFacts f = {0};
	int mode = nv_mode(m, o->mode, &f);
	if (mode < 0 || make_tmpdir() != 0 || compile_in_tmpdir(m, &one, mode, &f, NULL, NULL, images, NULL) != 0)
		return -1;
	snprintf(out, sizeof out, "%s.%s.nvlink.reg.c", base, sm);
	take_registered(out, 1, extra);
	return 0;
}

int dlink_nvlink(const Options *o, const char *sm, const Strs *objects, int dlto, Strs *images,
	Strs *extra)
{
	char base[NAME_MAX - 48];
	base_name(o, base, sizeof base);
	if (make_tmpdir() != 0)
		return -1;
	Job j;
	job_start(&j, o, NULL, NULL);
	NvCompile c = {.arch = sm, .objects = objects->v, .nobjects = objects->n, .devrt = 1,
		.dlto = dlto, .cubin = tmpfile_named(base, sm, ".nvlink.cubin"),
		.reg = tmpfile_named(base, sm, ".nvlink.reg.c")};
	int rc = nv_link_objects(&j.run, &c);
	if (rc == 0) {
		strs_push(images, nv_image("elf", sm, c.cubin));
		take_registered(c.reg, 0, extra);
	}
	job_end(&j);
	return rc;
}

/* nvcc -dlink's registration file: a line for each module id */
static int write_reg(const char *path, const Strs *ids)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "#define NUM_PRELINKED_OBJECTS %d\n", ids->n);
		for (int i = 0; i < ids->n; i++)
			fprintf(f, "DEFINE_REGISTER_FUNC(%s)\n", ids->v[i]);
	}
	if (!f || ferror(f) | fclose(f)) {
		fprintf(stderr, "ptxlink: error: cannot write '%s': %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* -ccbin names the compiler or, as nvcc takes it, its directory */
static char *host_compiler(const Options *o)
{
	struct stat st;
	if (o->ccbin && stat(o->ccbin, &st) == 0 && S_ISDIR(st.st_mode))
		return nv_path(o->ccbin, "gcc");
	return xstrdup(o->ccbin ? o->ccbin : "gcc");
}

int dlink_object(const Options *o, const Strs *images, const Strs *ids, const char *archs,
	char **path)
{
	char base[NAME_MAX - 48];
	base_name(o, base, sizeof base);
	if (make_tmpdir() != 0)
		return -1;
	tmpfile_named(base, NULL, ".reg.c");
	const char *reg = tmpfiles[ntmp - 1];
	tmpfile_named(base, NULL, ".fatbin.c");
	const char *fatbin = tmpfiles[ntmp - 1], *obj = tmpfile_named(base, NULL, ".dlink.o");
	Job j;
	job_start(&j, o, NULL, NULL);
	char *cc = host_compiler(o);
	int rc = write_reg(reg, ids);
	if (rc == 0)
		rc = nv_fatbin_embedded(&j.run, images->v, images->n, fatbin);
	if (rc == 0)
		rc = nv_link_stub(&j.run, cc, o->host_opts.v, o->host_opts.n, archs, fatbin, reg, obj);
	if (rc == 0)
		*path = nv_path(tmpdir, obj);
	free(cc);
	job_end(&j);
	return rc;
}
