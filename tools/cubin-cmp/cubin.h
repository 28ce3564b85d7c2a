/* cubin.c: a cubin's ELF sections, read once for cubin-cmp and for
 * ptxlink --ptxas's measured compile mode (its SASS bytes). */
#ifndef PTXLINK_CUBIN_H
#define PTXLINK_CUBIN_H

#include <elf.h>
#include <stddef.h>

typedef struct Cubin {
	unsigned char *d;
	size_t size;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	const char *shstr;
} Cubin;

/* 0, or -1 when path is not a readable ELF64 file (d freed). */
int cubin_load(const char *path, Cubin *);
void cubin_free(Cubin *);
const char *cubin_secname(const Cubin *, int i);
/* A section with a size but no bytes in the file. */
int cubin_nobits(const Elf64_Shdr *);
/* The machine code: its size, the .text.<function> sections summed
 * (the yardstick's SASS bytes), and the most registers any of them
 * uses (the top byte of sh_info; a kernel's counts its callees' after
 * nvlink).  -1 when path is not a cubin. */
int cubin_text(const char *path, long *bytes, int *regs);

#endif
