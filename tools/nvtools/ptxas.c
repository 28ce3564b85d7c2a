/* One compile for one architecture (nvtools.h), in the run's directory:
 *
 *   whole        ptxas -arch=sm_XX OPTS app.linked.ptx -o app.cubin
 *   relocatable  ptxas -arch=sm_XX -c OPTS app.linked.ptx -o app.o
 *                nvlink -arch=sm_XX app.o [-L CUDA/lib -lcudadevrt] -o app.cubin
 *   fatbinary    fatbinary -64 --create=app.fatbin
 *                  --image3=kind=elf,sm=XX,file=app.cubin
 *                  --image3=kind=ptx,sm=XX,file=app.linked.ptx
 *
 * and what ptxas -v says of each function, with the cubin's SASS bytes
 * (its .text sections) and registers. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "nvtools.h"
#include "tools/obj/obj.h"

/* Whether the options given ask ptxas for -v. */
static int verbose_opts(const NvCompile *c)
{
	for (int i = 0; i < c->nopts; i++)
		if (!strcmp(c->opts[i], "-v") || !strcmp(c->opts[i], "--verbose"))
			return 1;
	return 0;
}

/* ptxas on ptx, -c when reloc, with the options given; with said -v
 * too, and what it says kept there instead of passed on. */
static int ptxas(const NvRun *r, const NvCompile *c, const char *ptx, const char *out,
	char **said)
{
	char arch[64];
	const char **v = xmalloc(((size_t)c->nopts + 8) * sizeof *v);
	int n = 0;
	snprintf(arch, sizeof arch, "-arch=%s", c->arch);
	v[n++] = "ptxas", v[n++] = arch;
	if (c->reloc)
		v[n++] = "-c";
	for (int i = 0; i < c->nopts; i++)
		v[n++] = c->opts[i];
	if (said && !verbose_opts(c))
		v[n++] = "-v";
	v[n++] = ptx, v[n++] = "-o", v[n++] = out, v[n] = NULL;
	int rc = nv_run(r, v, said);
	free(v);
	return rc;
}

/* -LDIR for the libcudadevrt.a of nvlink's own CUDA installation (bin/..),
 * NULL if it has none. */
static char *devrt_dir(void)
{
	char *dir = nv_cuda_path("nvlink", "targets/x86_64-linux/lib");
	char *lib = dir ? nv_path(dir, "libcudadevrt.a") : NULL;
	int ok = lib && access(lib, R_OK) == 0;
	size_t n = dir ? strlen(dir) + 3 : 0;
	char *opt = ok ? xmalloc(n) : NULL;
	if (ok)
		snprintf(opt, n, "-L%s", dir);
	free(lib);
	free(dir);
	return opt;
}

/* nvlink: ptxas -c's object (none: nv_link_objects), the archives or
 * objects given, the device runtime. */
static int nvlink(const NvRun *r, const NvCompile *c)
{
	char arch[64];
	const char **v = xmalloc(((size_t)c->nobjects + (size_t)c->napart + 11) * sizeof *v);
	int n = 0;
	snprintf(arch, sizeof arch, "-arch=%s", c->arch);
	v[n++] = "nvlink", v[n++] = arch;
	char *nvvm = c->dlto ? nv_cuda_path("nvlink", "nvvm") : NULL, *nvvmpath = NULL;
	if (nvvm) {
		size_t len = strlen(nvvm) + 16;
		nvvmpath = xmalloc(len);
		snprintf(nvvmpath, len, "-nvvmpath=%s", nvvm);
		v[n++] = "-dlto", v[n++] = nvvmpath;
	}
	char *reg = NULL;
	if (c->reg) {
		size_t len = strlen(c->reg) + 32;
		reg = xmalloc(len);
		snprintf(reg, len, "--register-link-binaries=%s", c->reg);
		v[n++] = reg;
	}
	if (c->obj && !c->napart)
		v[n++] = c->obj;
	for (int i = 0; i < c->napart; i++)
		v[n++] = c->apart_obj[i];
	for (int i = 0; i < c->nobjects; i++)
		v[n++] = c->objects[i];
	char *libdir = c->devrt ? devrt_dir() : NULL;
	if (libdir)
		v[n++] = libdir, v[n++] = "-lcudadevrt";
	v[n++] = "-o", v[n++] = c->cubin, v[n] = NULL;
	char *quiet = NULL;
	int rc = nv_run(r, v, c->napart ? &quiet : NULL);
	free(quiet);
	free(libdir);
	free(nvvm);
	free(nvvmpath);
	free(reg);
	free(v);
	return rc;
}

int nv_link_objects(const NvRun *r, const NvCompile *c)
{
	return nvlink(r, c);
}

/* fatbinary -64 [-link] OUTOPT=out IMAGES */
static int fatbinary(const NvRun *r, const char *const *images, int nimages, const char *outopt,
	const char *out)
{
	size_t len = strlen(out) + strlen(outopt) + 2;
	char *create = xmalloc(len);
	const char **v = xmalloc(((size_t)nimages + 5) * sizeof *v);
	int n = 0;
	snprintf(create, len, "%s=%s", outopt, out);
	v[n++] = "fatbinary", v[n++] = "-64";
	if (strcmp(outopt, "--create") != 0)
		v[n++] = "-link";   /* linked code: what nvcc -dlink embeds */
	v[n++] = create;
	for (int i = 0; i < nimages; i++)
		v[n++] = images[i];
	v[n] = NULL;
	int rc = nv_run(r, v, NULL);
	free(v);
	free(create);
	return rc;
}

int nv_fatbin(const NvRun *r, const char *const *images, int nimages, const char *out)
{
	return fatbinary(r, images, nimages, "--create", out);
}

int nv_fatbin_embedded(const NvRun *r, const char *const *images, int nimages, const char *out)
{
	return fatbinary(r, images, nimages, "--embedded-fatbin", out);
}

char *nv_image(const char *kind, const char *sm, const char *file)
{
	size_t n = strlen(file) + 64;
	char *s = xmalloc(n);
	snprintf(s, n, "--image3=kind=%s,sm=%s,file=%s", kind, sm + 3, file);
	return s;
}

/* The warps an SM of architecture sm (sm_XX) holds at regs registers a
 * thread, as the CUDA occupancy calculator counts them: each of the 4
 * sub-partitions has 16,384 registers, given to a warp in units of 256
 * (8 a thread); at most the architecture's resident warps (the CUDA
 * programming guide's table of compute capabilities). */
int nv_warps(const char *sm, int regs)
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

static int by_name(const void *a, const void *b)
{
	return strcmp(((const NvFunc *)a)->name, ((const NvFunc *)b)->name);
}

/* One line of ptxas -v: a function named, its frame and spills, its
 * registers (after them, when ptxas compiled it on its own). */
static void said_line(const char *line, NvFigures *f, uint32_t *cap, const char **name)
{
	const char *p = strstr(line, "Function properties for ");
	long stack, st, ld;
	int regs;
	if (p) {
		*name = p + strlen("Function properties for ");
	} else if (*name && sscanf(line, " %ld bytes stack frame, %ld bytes spill stores, "
		"%ld bytes spill loads", &stack, &st, &ld) == 3) {
		f->funcs = array_grow(f->funcs, f->nfuncs, cap, sizeof *f->funcs);
		f->funcs[f->nfuncs++] = (NvFunc){*name, stack, st + ld, -1};
		*name = NULL;
	} else if (f->nfuncs && (p = strstr(line, ": Used ")) && sscanf(p, ": Used %d registers",
		&regs) == 1 && f->funcs[f->nfuncs - 1].regs < 0) {
		f->funcs[f->nfuncs - 1].regs = regs;
	}
}

/* ptxas -v's functions, each once, summed. */
static void read_said(NvFigures *f)
{
	uint32_t cap = 0, n = 0;
	const char *name = NULL;
	for (char *line = f->owned, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		said_line(line, f, &cap, &name);
	}
	if (f->nfuncs)
		qsort(f->funcs, f->nfuncs, sizeof *f->funcs, by_name);
	for (uint32_t i = 0; i < f->nfuncs; i++)
		if (i == 0 || strcmp(f->funcs[i].name, f->funcs[n - 1].name) != 0)
			f->funcs[n++] = f->funcs[i];
	f->nfuncs = n;
	for (uint32_t i = 0; i < n; i++)
		f->spill += f->funcs[i].spill, f->stack += f->funcs[i].stack;
}

void nv_figures_read(const NvRun *r, const NvCompile *c, int rc, NvFigures *f)
{
	char *path = nv_path(r->dir, c->cubin);
	f->owned = xstrdup(f->said ? f->said : "");
	read_said(f);
	if (rc != 0 || elf_cubin_text(path, &f->text, &f->regs) != 0)
		f->spill = -1;
	f->warps = nv_warps(c->arch, f->regs);
	free(path);
}

/* Each input by ptxas -c, what each said after the one before. */
static int ptxas_apart(const NvRun *r, const NvCompile *c, char **said)
{
	size_t n = 0;
	int rc = 0;
	for (int i = 0; rc == 0 && i < c->napart; i++) {
		char *one = NULL;
		rc = ptxas(r, c, c->apart[i], c->apart_obj[i], &one);
		size_t k = one ? strlen(one) : 0;
		*said = xrealloc(*said, n + k + 1);
		memcpy(*said + n, one ? one : "", k + 1);
		n += k;
		free(one);
	}
	return rc;
}

int nv_compile(const NvRun *r, const NvCompile *c, NvFigures *f)
{
	if (f)
		*f = (NvFigures){0};
	if (c->napart && !f)
		return -1;   /* a reference is for its figures */
	int rc = c->napart ? ptxas_apart(r, c, &f->said)
		: ptxas(r, c, c->ptx, c->reloc ? c->obj : c->cubin, f ? &f->said : NULL);
	if (rc == 0 && c->reloc)
		rc = nvlink(r, c);
	if (f)
		nv_figures_read(r, c, rc, f);
	return rc;
}

void nv_figures_free(NvFigures *f)
{
	free(f->funcs);
	free(f->said);
	free(f->owned);
	*f = (NvFigures){0};
}

void nv_pass_on(const NvCompile *c, const char *said)
{
	int all = verbose_opts(c);
	for (const char *line = said, *end; *line; line = end) {
		end = strchr(line, '\n');
		end = end ? end + 1 : line + strlen(line);
		int info = !strncmp(line, "ptxas info", 10) || *line == ' ' || *line == '\t';
		if (all || !info)
			fprintf(stderr, "ptxlink: ptxas: %.*s%s", (int)(end - line), line,
				end[-1] == '\n' ? "" : "\n");
	}
}
