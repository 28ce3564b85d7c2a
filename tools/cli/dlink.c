/* ptxlink -dlink: in place of nvcc -dlink (docs/usage.md, "ptxlink as the
 * device linker").  The inputs are host objects (nvcc -dc) and archives of
 * them (given, or -lNAME in the -L directories); tools/obj/device.c reads
 * their device code.  For each architecture asked for (-arch, -gencode):
 *
 *   every object carries PTX for it (the newest not newer)
 *        its PTX, linked and through the stages in a session of the
 *        library's, internalized but for what the host refers to (the
 *        objects' .nvHR* patterns: such a name is kept, as --keep keeps
 *        it), compiled by --ptxas's path (toolchain.c: dlink_compile);
 *   some object has none (a cubin only, LTO-IR)
 *        nvlink on the objects, as nvcc -dlink runs it, and one warning
 *        for the whole run naming the objects and the setting that gives
 *        PTX.
 *
 * Then nvcc -dlink's last steps: the registration (one
 * DEFINE_REGISTER_FUNC line per object with relocatable device code,
 * whatever its code became), fatbinary -link --embedded-fatbin, and the
 * host compiler on CUDA's crt/link.stub (toolchain.c: dlink_object).
 * nvcc 13 registers every member of an archive, and no whole-program
 * (nvcc -c) object: so here. */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "driver.h"
#include "tools/lib/core.h"
#include "tools/obj/obj.h"

typedef struct Dlink {
	const Options *o;
	Ctx *ctx;
	DevObjects ds;
	Strs paths;            /* the inputs and -l archives, absolute (nvlink's), owned */
	const DevObject **rel; /* the objects with relocatable device code */
	int nrel;
	Strs extra;            /* the modules nvlink linked from libraries (owned) */
	HostIndex *host;       /* their host references */
} Dlink;

/* "sm_90a" as the fatbinary's 90 */
static unsigned arch_number(const char *sm)
{
	return (unsigned)atoi(sm + 3);
}

static int read_one(Dlink *d, const char *path)
{
	char *abs = realpath(path, NULL);
	strs_push(&d->paths, abs ? abs : xstrdup(path));
	return dev_read(&d->ds, path);
}

/* The path of file in dir, if it is there (to be freed), else NULL. */
static char *found_in(const char *dir, const char *file)
{
	char *p = dir ? nv_path(dir, file) : NULL;
	if (p && access(p, F_OK) != 0) {
		free(p);
		p = NULL;
	}
	return p;
}

/* -lNAME: libNAME.a in the first -L directory holding one, else in CUDA's
 * library directory (where nvcc -dlink points nvlink); cudadevrt is the
 * device runtime, which every compile here links.  A library found
 * nowhere is skipped, as nvlink skips it: CMake's device-link line names
 * the host's (-lrt -lpthread -ldl), which hold no device code. */
static int read_lib(Dlink *d, const char *name)
{
	if (!strcmp(name, "cudadevrt"))
		return 0;
	char file[NAME_MAX + 1];
	snprintf(file, sizeof file, "lib%s.a", name);
	char *p = NULL;
	for (size_t i = 0; !p && i < d->o->lib.nlibdirs; i++)
		p = found_in(d->o->lib.libdirs[i], file);
	if (!p) {
		char *cuda = nv_cuda_path("fatbinary", "targets/x86_64-linux/lib");
		p = found_in(cuda, file);
		free(cuda);
	}
	int rc = p ? read_one(d, p) : 0;
	free(p);
	return rc;
}

static int read_inputs(Dlink *d)
{
	int rc = 0;
	for (int i = 0; i < d->o->inputs.n; i++)
		rc |= read_one(d, d->o->inputs.v[i]);
	for (size_t i = 0; i < d->o->lib.nlibs; i++)
		rc |= read_lib(d, d->o->lib.libs[i]);
	d->rel = xreallocarray(NULL, (size_t)d->ds.n + 1, sizeof *d->rel);
	for (uint32_t i = 0; i < d->ds.n; i++) {
		const DevObject *x = &d->ds.obj[i];
		if (dev_relocatable(x))
			d->rel[d->nrel++] = x;
	}
	if (rc == 0 && d->nrel == 0)
		error((Loc){0}, "no relocatable device code in the inputs (objects of nvcc -dc)");
	return rc || d->nrel == 0 ? -1 : 0;
}

/* The session's test: a name some object's host code refers to. */
static int host_refers(void *user, const char *name)
{
	return dev_host_refers(user, name);
}

/* Whether every object has PTX for sm: else nvlink links sm. */
static int all_ptx(const Dlink *d, const char *sm)
{
	for (int i = 0; i < d->nrel; i++)
		if (!dev_ptx_for(d->rel[i], arch_number(sm)))
			return 0;
	return 1;
}

/* Whether an object without PTX for sm has LTO-IR for it: nvlink -dlto. */
static int lto_for(const Dlink *d, const char *sm)
{
	for (int i = 0; i < d->nrel; i++)
		if (!dev_ptx_for(d->rel[i], arch_number(sm)) && dev_code(d->rel[i], FAT_LTO, arch_number(sm)))
			return 1;
	return 0;
}

/* The one warning of nvlink's links: each object without PTX for an
 * architecture it was needed for, and how to give it PTX. */
static void say_fallback(const Dlink *d, const Strs *archs)
{
	char *names = NULL, *which = NULL;
	size_t n = 0, m = 0;
	FILE *f = xmemstream(&names, &n), *g = xmemstream(&which, &m);
	int any = 0;
	unsigned x = 0;   /* the first such architecture, for the example */
	for (int i = 0; i < archs->n; i++)
		if (!all_ptx(d, archs->v[i])) {
			fprintf(g, "%s%s", any++ ? ", " : "", archs->v[i]);
			x = x ? x : arch_number(archs->v[i]);
		}
	for (int i = 0, k = 0; any && i < d->nrel; i++)
		for (int a = 0; a < archs->n; a++)
			if (!dev_ptx_for(d->rel[i], arch_number(archs->v[a]))) {
				fprintf(f, "%s%s", k++ ? ", " : "", d->rel[i]->name);
				break;
			}
	fclose(f);
	fclose(g);
	if (any)
		warn((Loc){0}, "no PTX for %s in %s (a cubin or LTO-IR only): nvlink linked the "
			"objects instead, as nvcc -dlink does, without ptxlink's optimization; compile them "
			"with PTX too (CMake: CUDA_ARCHITECTURES %u rather than %u-real; nvcc: -gencode "
			"arch=compute_%u,code=[compute_%u,sm_%u])", which, names, x, x, x, x, x);
	free(names);
	free(which);
}

/* One architecture's PTX linked, optimized and compiled. */
static int link_arch(Dlink *d, const char *sm, int ptx, Strs *images)
{
	ptxlink_options lib = d->o->lib;
	lib.arch = sm;
	lib.internalize = 1;   /* before session_new: --keep is then not said to do nothing */
	lib.libs = lib.libdirs = NULL;   /* read here as objects, not PTX libraries */
	lib.nlibs = lib.nlibdirs = 0;
	ptxlink_session *s = session_new(&lib, d->ctx);
	if (!s)
		return -1;
	session_keep_matching(s, host_refers, d->host);
	int rc = 0;
	for (int i = 0; i < d->nrel; i++) {
		const DevCode *c = dev_ptx_for(d->rel[i], arch_number(sm));
		rc |= ptxlink_add_buffer(s, d->rel[i]->name, (const char *)c->data, c->size);
	}
	if (rc == 0)
		rc = ptxlink_link(s);
	if (rc == 0)
		rc = dlink_compile(session_result(s), d->o, sm, ptx, images, &d->extra);
	ptxlink_free(s);
	return rc;
}

static int listed(const Strs *l, const char *s)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

/* Each architecture asked for, a cubin and PTX too where code=compute_XX
 * asks; "800,900" for __CUDA_ARCH_LIST__ in list. */
static int each_arch(Dlink *d, Strs *images, char *list, size_t cap)
{
	Strs archs = {0};
	for (int i = 0; i < d->o->archs.n; i++)
		strs_push(&archs, d->o->archs.v[i]);
	for (int i = 0; i < d->o->ptx_archs.n; i++)
		if (!listed(&archs, d->o->ptx_archs.v[i]))
			strs_push(&archs, d->o->ptx_archs.v[i]);
	say_fallback(d, &archs);
	int rc = 0;
	for (int i = 0; rc == 0 && i < archs.n; i++) {
		const char *sm = archs.v[i];
		int ptx = listed(&d->o->ptx_archs, sm);
		rc = all_ptx(d, sm) ? link_arch(d, sm, ptx, images)
			: dlink_nvlink(d->o, sm, &d->paths, lto_for(d, sm), images, &d->extra);
		size_t k = strlen(list);
		snprintf(list + k, cap - k, "%s%u", i ? "," : "", arch_number(sm) * 10);
	}
	free(archs.v);
	return rc;
}

int dlink(Options *o, Ctx *ctx)
{
	Dlink d = {.o = o, .ctx = ctx};
	Strs images = {0}, ids = {0};
	char list[16 * MAX_ARCHS] = "", *made = NULL;
	int rc = read_inputs(&d);
	d.host = dev_host_index(d.rel, d.nrel);
	if (rc == 0)
		rc = each_arch(&d, &images, list, sizeof list);
	for (int i = 0; rc == 0 && i < d.nrel; i++)
		strs_push(&ids, d.rel[i]->module_id);
	for (int i = 0; rc == 0 && i < d.extra.n; i++)
		if (!listed(&ids, d.extra.v[i]))
			strs_push(&ids, d.extra.v[i]);
	if (rc == 0)
		rc = dlink_object(o, &images, &ids, list, &made);
	if (rc == 0)
		rc = write_output_file(o->out ? o->out : "a_dlink.o", made);
	free(made);
	toolchain_done();
	strs_free(&images);
	strs_free(&d.extra);
	strs_free(&d.paths);
	free(ids.v);
	free(d.rel);
	dev_host_index_free(d.host);
	dev_free(&d.ds);
	return rc == 0 && diag_errors() == 0 ? 0 : 1;
}
