/* nvcc -dlink's last step (nvtools.h), as nvcc 13 runs it (nvcc -dryrun
 * -dlink):
 *
 *   gcc -D__CUDA_ARCH_LIST__=800 -c -x c++ -DFATBINFILE="\"X.fatbin.c\""
 *       -DREGISTERLINKBINARYFILE="\"X.reg.c\"" -I. -D__NV_EXTRA_INITIALIZATION=
 *       -D__NV_EXTRA_FINALIZATION= -D__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
 *       [-Xcompiler's, -fPIC for -shared] -Wno-psabi -I CUDA/include -m64
 *       CUDA/bin/crt/link.stub -o X.o
 *
 * link.stub defines __cudaRegisterLinkedBinary_<id> for each
 * DEFINE_REGISTER_FUNC(<id>) line, which each object's host code calls,
 * and registers the embedded fatbinary once all of them have. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nvtools.h"

/* -DNAME="\"file\"", to be freed */
static char *define_file(const char *name, const char *file)
{
	size_t n = strlen(name) + strlen(file) + 16;
	char *s = xmalloc(n);
	snprintf(s, n, "-D%s=\"%s\"", name, file);
	return s;
}

char **nv_registered(const char *path, int *n)
{
	static const char tag[] = "DEFINE_REGISTER_FUNC(";
	FILE *f = fopen(path, "r");
	char **ids = NULL, line[1024];
	uint32_t cap = 0;
	*n = 0;
	while (f && fgets(line, sizeof line, f)) {
		char *end = strchr(line, ')');
		if (strncmp(line, tag, sizeof tag - 1) != 0 || !end)
			continue;
		*end = 0;
		ids = array_grow(ids, (uint32_t)*n, &cap, sizeof *ids);
		ids[(*n)++] = xstrdup(line + sizeof tag - 1);
	}
	if (f)
		fclose(f);
	return ids;
}

int nv_link_stub(const NvRun *r, const char *cc, const char *const *cc_opts, int ncc_opts,
	const char *archs, const char *fatbin_c, const char *reg_c, const char *out)
{
	enum { STUB, INC, FATBIN, REG, NOWNED };
	char *own[NOWNED] = {nv_cuda_path("fatbinary", "bin/crt/link.stub"),
		nv_cuda_path("fatbinary", "targets/x86_64-linux/include"),
		define_file("FATBINFILE", fatbin_c), define_file("REGISTERLINKBINARYFILE", reg_c)};
	char list[256];
	snprintf(list, sizeof list, "-D__CUDA_ARCH_LIST__=%s", archs);
	const char *head[] = {cc ? cc : "gcc", list, "-c", "-x", "c++", own[FATBIN], own[REG], "-I.",
		"-D__NV_EXTRA_INITIALIZATION=", "-D__NV_EXTRA_FINALIZATION=",
		"-D__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__"};
	const char *tail[] = {"-Wno-psabi", "-I", own[INC], "-m64", own[STUB], "-o", out, NULL};
	enum { NHEAD = sizeof head / sizeof *head, NTAIL = sizeof tail / sizeof *tail };
	const char **v = xmalloc((NHEAD + (size_t)ncc_opts + NTAIL) * sizeof *v);
	memcpy(v, head, sizeof head);
	if (ncc_opts)   /* memcpy's source may not be NULL, even for no bytes */
		memcpy(v + NHEAD, cc_opts, (size_t)ncc_opts * sizeof *v);
	memcpy(v + NHEAD + ncc_opts, tail, sizeof tail);
	int rc = own[STUB] && own[INC] ? nv_run(r, v, NULL) : -1;
	for (int i = 0; i < NOWNED; i++)
		free(own[i]);
	free(v);
	return rc;
}
