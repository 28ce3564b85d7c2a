/* The object-file layer: what ptxlink reads that is not PTX.  ELF files
 * (cubins, host objects), ar archives (PTX libraries, archives of cubins
 * for nvlink), fatbinaries (a cubin or PTX per architecture), and the
 * first bytes that tell one from PTX.  Each is read in one place: the
 * command, libptxlink and cubin-cmp ask here.  Readers work on bytes in
 * memory, so that what one holds (an archive's member, an object's
 * .nv_fatbin section, a fatbinary's entry) is read by the next. */
#ifndef PTXLINK_OBJ_H
#define PTXLINK_OBJ_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

/* file.c: a whole file in memory (to be freed); NULL with errno set
 * when it cannot be opened or read. */
unsigned char *obj_slurp(const char *path, size_t *size);

/* sniff.c: what the first bytes (up to OBJ_HEAD of them) say a file is. */
enum { OBJ_HEAD = 20 };
typedef enum ObjKind {
	OBJ_UNKNOWN,   /* PTX, or something else a name may tell (obj_not_ptx) */
	OBJ_CUBIN,     /* an ELF file for a GPU (e_machine EM_CUDA) */
	OBJ_ELF,       /* any other ELF file: a host object or program */
	OBJ_FATBIN,    /* a fatbinary (fatbin.c) */
	OBJ_BITCODE,   /* LLVM bitcode */
	OBJ_ARCHIVE,   /* an ar archive (ar.c) */
} ObjKind;
ObjKind obj_kind(const unsigned char *head, size_t n);
/* NULL, or why the bytes starting head (n of them: up to OBJ_HEAD) of
 * the file or archive member name are not PTX: one error instead of the
 * parser's stray bytes. */
const char *obj_not_ptx(const unsigned char *head, size_t n, const char *name);
/* The same of the file at path, when its bytes can be read again (a
 * regular file: a pipe's would be gone); NULL otherwise. */
const char *obj_not_ptx_file(const char *path);

/* elf.c: an ELF64 file's sections, in memory. */
typedef struct Elf {
	const unsigned char *d;
	size_t size;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	const char *shstr;
	unsigned char *owned;   /* elf_load's copy of the file, else NULL */
} Elf;
/* 0, or -1 when the bytes are not an ELF64 file whose sections lie
 * inside them.  elf_open keeps d (the caller's); elf_load reads path. */
int elf_open(Elf *, const unsigned char *d, size_t size);
int elf_load(const char *path, Elf *);
void elf_free(Elf *);
int elf_nsections(const Elf *);
const char *elf_secname(const Elf *, int i);
/* The first section named name, or -1. */
int elf_section(const Elf *, const char *name);
/* A section's bytes (NULL for one with none in the file). */
const unsigned char *elf_bytes(const Elf *, int i);
/* A section with a size but no bytes in the file. */
int elf_nobits(const Elf64_Shdr *);
/* A cubin's machine code: its size, the .text.<function> sections
 * summed (the yardstick's SASS bytes), and the most registers any of
 * them uses (the top byte of sh_info; a kernel's counts its callees'
 * after nvlink).  -1 when path is not ELF. */
int elf_cubin_text(const char *path, long *bytes, int *regs);

/* ar.c: an ar archive's members, one at a time.
 *
 *     Ar a;
 *     ArMember m;
 *     if (ar_open(&a, buf, n) == 0)
 *         while (ar_next(&a, &m) > 0)
 *             ... m.name, m.data, m.size ...
 *     ar_close(&a);
 */
typedef struct Ar {
	const unsigned char *buf;
	size_t n, at;            /* where the next member's header starts */
	const char *longnames;   /* GNU's "//" member */
	size_t nlong;
	char *name;              /* the member's name, until the next */
} Ar;
typedef struct ArMember {
	const char *name;        /* GNU "name/", "/N" and BSD "#1/LEN" resolved */
	const unsigned char *data;
	size_t size;
	size_t at;               /* its header's offset in the archive */
} ArMember;
/* 0, or -1 when buf is not an ar archive ("!<arch>\n"). */
int ar_open(Ar *, const unsigned char *buf, size_t n);
/* 1 and the next member (the symbol table and long names skipped), 0
 * after the last, -1 when malformed: a member's header is bad at a->at,
 * or bytes follow the last member (ar_trailing says how many). */
int ar_next(Ar *, ArMember *);
size_t ar_trailing(const Ar *);
void ar_close(Ar *);

/* fatbin.c: a fatbinary's entries (fatbinary --create, nvcc's
 * .nv_fatbin sections): a cubin or PTX each, for one architecture. */
enum { FATBIN_MAGIC = 0xba55ed50 };
typedef enum FatKind { FAT_PTX = 1, FAT_ELF = 2 } FatKind;
typedef struct FatEntry {
	FatKind kind;
	unsigned arch;           /* 80 for sm_80 or compute_80 */
	int compressed;          /* data is compressed (fatbinary -compress) */
	const unsigned char *data;
	size_t size;             /* of data as it is in the file */
	size_t full;             /* uncompressed, when compressed */
} FatEntry;
typedef struct Fatbin {
	const unsigned char *d;
	size_t size, at, end;    /* the next entry's offset; the container's end */
} Fatbin;
/* 0, or -1 when d does not start with a fatbinary container. */
int fatbin_open(Fatbin *, const unsigned char *d, size_t size);
/* 1 and the next entry, 0 after the last, -1 when malformed. */
int fatbin_next(Fatbin *, FatEntry *);
/* The bytes after this container (nvcc puts several in one section). */
size_t fatbin_rest(const Fatbin *);

#endif
