/* An ELF64 file's sections (obj.h): cubin-cmp's comparison, the
 * measured compile mode's SASS bytes, and nvcc's host objects, whose
 * .nv_fatbin section holds the device code. */
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include "obj.h"

/* Sections with a size but no bytes in the file: ELF's NOBITS and the
 * CUDA kinds for uninitialised global and shared memory. */
enum { SHT_CUDA_NV_GLOBAL = SHT_LOPROC + 7, SHT_CUDA_NV_SHARED = SHT_LOPROC + 10 };

int elf_nobits(const Elf64_Shdr *s)
{
	return s->sh_type == SHT_NOBITS || s->sh_type == SHT_CUDA_NV_GLOBAL ||
		s->sh_type == SHT_CUDA_NV_SHARED;
}

static int bad(Elf *e, const char *why, size_t at)
{
	e->why = why;
	e->at = at;
	return -1;
}

/* The section names' table has bytes in the file, ends with a NUL and
 * holds every name; only then does shstr point into it (a NOBITS
 * table's offset may lie anywhere). */
static int names_ok(Elf *e)
{
	const Elf64_Shdr *s = &e->sh[e->eh->e_shstrndx];
	if (elf_nobits(s) || s->sh_size == 0 || e->d[s->sh_offset + s->sh_size - 1] != 0)
		return bad(e, "section names' table is empty or unterminated", s->sh_offset);
	for (int i = 0; i < e->eh->e_shnum; i++)
		if (e->sh[i].sh_name >= s->sh_size)
			return bad(e, "section name out of range",
				e->eh->e_shoff + (size_t)i * sizeof *e->sh);
	e->shstr = (const char *)e->d + s->sh_offset;
	return 0;
}

int elf_open(Elf *e, const unsigned char *d, size_t size)
{
	*e = (Elf){.d = d, .size = size};
	if (size < SELFMAG || memcmp(d, ELFMAG, SELFMAG) != 0)
		return bad(e, "not an ELF file", 0);
	if (size < sizeof(Elf64_Ehdr))
		return bad(e, "ELF header cut short", size);
	if (d[EI_CLASS] != ELFCLASS64 || d[EI_DATA] != ELFDATA2LSB)
		return bad(e, "not a little-endian ELF64 file", EI_CLASS);
	e->eh = (const Elf64_Ehdr *)d;
	uint64_t off = e->eh->e_shoff, n = e->eh->e_shnum;
	if (off > size || n * sizeof(Elf64_Shdr) > size - off || off % 8)
		return bad(e, "section headers out of range", offsetof(Elf64_Ehdr, e_shoff));
	if (e->eh->e_shstrndx >= n)
		return bad(e, "section names' index out of range", offsetof(Elf64_Ehdr, e_shstrndx));
	e->sh = (const Elf64_Shdr *)(d + off);
	for (size_t i = 0; i < n; i++) {
		const Elf64_Shdr *s = &e->sh[i];
		if (!elf_nobits(s) && (s->sh_offset > size || s->sh_size > size - s->sh_offset))
			return bad(e, "section's bytes out of range", off + i * sizeof *s);
	}
	return names_ok(e);
}

int elf_load(const char *path, Elf *e)
{
	size_t size;
	unsigned char *d = obj_slurp(path, &size);
	if (d && elf_open(e, d, size) == 0) {
		e->owned = d;
		return 0;
	}
	free(d);
	*e = (Elf){0};
	return -1;
}

void elf_free(Elf *e)
{
	free(e->owned);
	*e = (Elf){0};
}

int elf_nsections(const Elf *e)
{
	return e->eh->e_shnum;
}

const char *elf_secname(const Elf *e, int i)
{
	return e->shstr + e->sh[i].sh_name;
}

int elf_section(const Elf *e, const char *name)
{
	for (int i = 0; i < e->eh->e_shnum; i++)
		if (!strcmp(elf_secname(e, i), name))
			return i;
	return -1;
}

const unsigned char *elf_bytes(const Elf *e, int i)
{
	return elf_nobits(&e->sh[i]) ? NULL : e->d + e->sh[i].sh_offset;
}

int elf_cubin_text(const char *path, long *bytes, int *regs)
{
	Elf e;
	if (elf_load(path, &e) != 0)
		return -1;
	*bytes = 0, *regs = 0;
	for (int i = 0; i < e.eh->e_shnum; i++)
		if (strncmp(elf_secname(&e, i), ".text.", 6) == 0) {
			int r = (int)(e.sh[i].sh_info >> 24);
			*bytes += (long)e.sh[i].sh_size;
			*regs = r > *regs ? r : *regs;
		}
	elf_free(&e);
	return 0;
}
