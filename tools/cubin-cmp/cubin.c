/* A cubin's ELF sections (cubin.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"   /* xmalloc */
#include "cubin.h"

/* Sections with a size but no bytes in the file: ELF's NOBITS and the
 * CUDA kinds for uninitialised global and shared memory. */
enum { SHT_CUDA_NV_GLOBAL = SHT_LOPROC + 7, SHT_CUDA_NV_SHARED = SHT_LOPROC + 10 };

int cubin_nobits(const Elf64_Shdr *s)
{
	return s->sh_type == SHT_NOBITS || s->sh_type == SHT_CUDA_NV_GLOBAL ||
		s->sh_type == SHT_CUDA_NV_SHARED;
}

static unsigned char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	unsigned char *d = xmalloc(cap);
	size_t k;
	while ((k = fread(d + n, 1, cap - n, f)) > 0) {
		n += k;
		if (n == cap)
			d = xrealloc(d, cap *= 2);
	}
	fclose(f);
	*size = n;
	return d;
}

static int check(Cubin *e)
{
	if (e->size < sizeof(Elf64_Ehdr) || memcmp(e->d, ELFMAG, SELFMAG) != 0)
		return -1;
	e->eh = (Elf64_Ehdr *)e->d;
	if (e->eh->e_shoff + (size_t)e->eh->e_shnum * sizeof(Elf64_Shdr) > e->size ||
	    e->eh->e_shstrndx >= e->eh->e_shnum)
		return -1;
	e->sh = (Elf64_Shdr *)(e->d + e->eh->e_shoff);
	e->shstr = (const char *)e->d + e->sh[e->eh->e_shstrndx].sh_offset;
	for (int i = 0; i < e->eh->e_shnum; i++)
		if (!cubin_nobits(&e->sh[i]) && e->sh[i].sh_offset + e->sh[i].sh_size > e->size)
			return -1;
	return 0;
}

int cubin_load(const char *path, Cubin *e)
{
	*e = (Cubin){0};
	e->d = slurp(path, &e->size);
	if (e->d && check(e) == 0)
		return 0;
	cubin_free(e);
	return -1;
}

void cubin_free(Cubin *e)
{
	free(e->d);
	e->d = NULL;
}

const char *cubin_secname(const Cubin *e, int i)
{
	return e->shstr + e->sh[i].sh_name;
}

int cubin_text(const char *path, long *bytes, int *regs)
{
	Cubin e;
	if (cubin_load(path, &e) != 0)
		return -1;
	*bytes = 0, *regs = 0;
	for (int i = 0; i < e.eh->e_shnum; i++)
		if (strncmp(cubin_secname(&e, i), ".text.", 6) == 0) {
			int r = (int)(e.sh[i].sh_info >> 24);
			*bytes += (long)e.sh[i].sh_size;
			*regs = r > *regs ? r : *regs;
		}
	cubin_free(&e);
	return 0;
}
