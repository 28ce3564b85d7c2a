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
	const char *why;        /* after elf_open's -1: what is wrong, */
	size_t at;              /* and at which byte */
} Elf;
/* 0, or -1 when the bytes are not a little-endian ELF64 file whose
 * sections and their names lie inside them (e->why, e->at).  d must be
 * 8-byte aligned.  elf_open keeps d (the caller's); elf_load reads path. */
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
	const char *why;         /* after ar_next's -1: what is wrong at at */
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
 * .nv_fatbin and __nv_relfatbin sections): a cubin, PTX or LTO-IR each,
 * for one architecture, perhaps compressed. */
enum { FATBIN_MAGIC = 0xba55ed50 };
/* An entry's kind, the 2 bytes at its start: 8 is what nvcc -dlto
 * writes (NVVM IR, for nvlink -dlto; its payload is not a plain zstd
 * frame although flag 0x8000 is set: ptxlink does not read it). */
typedef enum FatKind { FAT_PTX = 1, FAT_ELF = 2, FAT_LTO = 8 } FatKind;
typedef enum FatZip { FAT_ZIP_NONE, FAT_ZIP_LZ4, FAT_ZIP_ZSTD } FatZip;
typedef struct FatEntry {
	FatKind kind;
	unsigned arch;           /* 80 for sm_80 or compute_80 */
	FatZip zip;              /* how data is compressed (flags 0x2000, 0x8000) */
	int compressed;          /* zip != FAT_ZIP_NONE */
	const unsigned char *data;
	size_t size;             /* of data as it is in the file */
	uint64_t full;           /* uncompressed, when compressed (the header's word) */
	size_t at;               /* the entry header's offset in the container's bytes */
} FatEntry;
typedef struct Fatbin {
	const unsigned char *d;
	size_t size, at, end;    /* the next entry's offset; the container's end */
	const char *why;         /* after -1: what is malformed (at f->at) */
} Fatbin;
/* 0, or -1 when d does not start with a fatbinary container (f->why). */
int fatbin_open(Fatbin *, const unsigned char *d, size_t size);
/* 1 and the next entry, 0 after the last, -1 when the entry at f->at is
 * malformed (f->why). */
int fatbin_next(Fatbin *, FatEntry *);
/* The bytes after this container (nvcc puts several in one section). */
size_t fatbin_rest(const Fatbin *);

/* unpack.c (the ptxdevice library, with device.c): */
/* NULL, or why a compressed entry's uncompressed size (e->full) cannot
 * be: 0, or past a cap relative to its compressed size.  Ask before
 * allocating e->full bytes for fatbin_unpack. */
const char *fatbin_full_size(const FatEntry *);
/* Decompresses a compressed entry into out (e->full bytes): NULL, or
 * why not (corrupt data, a size other than the header's). */
const char *fatbin_unpack(const FatEntry *, unsigned char *out);

/* device.c: the device code in host objects (nvcc -c, nvcc -dc) and ar
 * archives of them (nvcc -lib, ar rcs): what ptxlink -dlink reads.
 *
 *     DevObjects ds = {0};
 *     if (dev_read(&ds, path) == 0)        (each input in turn)
 *         for (uint32_t i = 0; i < ds.n; i++)
 *             ... dev_code(&ds.obj[i], FAT_PTX, 80), ds.obj[i].refs ...
 *     dev_free(&ds);
 *
 * Each object with a fatbinary gives its entries, decompressed; its
 * module id; and the host's view, the names host code refers to.
 * Errors (a malformed archive, ELF file, fatbinary or compressed entry)
 * go through the diagnostics (ir/diag.c: the session's callback) as
 * "FILE: error: WHAT at byte N", N the offset in the file on disk,
 * FILE "lib.a(member.o)" for an archive's member. */
typedef enum HostKind { HOST_KERNEL, HOST_DATA, HOST_CONST } HostKind;
/* A name host code refers to, from the sections .nvHR<K><E|I>: K is
 * K (kernels), D (__device__ data) or C (__constant__), E external
 * (.visible in the PTX), I internal (a static's __nv_static_ name).
 * The name is a pattern: '*' stands for any characters (nvcc writes
 * "_Z8launched*" for _Z8launchedPi, "_Z2tk*" for every instantiation of
 * a template kernel); dev_host_match tells whether a PTX name is one. */
typedef struct HostRef {
	const char *pattern;   /* interned */
	HostKind kind;
	int internal;
} HostRef;
typedef struct DevCode {
	FatKind kind;
	unsigned arch;
	FatZip zip;                  /* how it was stored */
	const unsigned char *data;   /* uncompressed; NULL for FAT_LTO (not read) */
	size_t size;                 /* PTX: its text's length, up to the first NUL */
	size_t at;                   /* its entry header's offset in the file */
} DevCode;
typedef struct DevObject {
	const char *name;        /* interned: "a.o" or "lib.a(a.o)" */
	const char *section;     /* "__nv_relfatbin" (nvcc -dc), ".nv_fatbin" or NULL: no device code */
	const char *module_id;   /* __nv_module_id's string (nvcc's DEFINE_REGISTER_FUNC), or NULL */
	DevCode *code;
	int ncode;
	HostRef *refs;           /* in section order: KE, KI, DE, DI, CE, CI */
	int nrefs;
} DevObject;
typedef struct DevObjects {
	DevObject *obj;          /* in input order, an archive's in member order */
	uint32_t n, cap;
	struct Arena *arena;     /* what they hold; decompressed payloads aside */
	unsigned char **owned;   /* the payloads, the files read, the members copied */
	uint32_t nowned, capowned;
} DevObjects;
/* Reads a host object or an archive of them (by the first bytes) and
 * appends its objects: 0, or -1 after reporting errors (objects read
 * before the error stay). */
int dev_read(DevObjects *, const char *path);
/* The same of bytes in memory named name (the fuzzer's, the tests'),
 * which must outlive ds: uncompressed entries point into them. */
int dev_read_bytes(DevObjects *, const char *name, const unsigned char *d, size_t size);
void dev_free(DevObjects *);
/* The object's entry of that kind for that architecture, or NULL. */
const DevCode *dev_code(const DevObject *, FatKind, unsigned arch);
/* The object's PTX to link for arch: its own, else the newest older
 * one (PTX runs on newer GPUs, after the link's retargeting), else NULL. */
const DevCode *dev_ptx_for(const DevObject *, unsigned arch);
/* Whether it holds relocatable device code (nvcc -dc: __nv_relfatbin and
 * a module id), which nvcc -dlink links and registers; a whole-program
 * object's (nvcc -c) is neither. */
int dev_relocatable(const DevObject *);
/* Whether name (a PTX symbol's) is one pattern stands for. */
int dev_host_match(const char *pattern, const char *name);
/* The host references of many objects, asked of every name of a linked
 * module: each pattern under its text before the first '*' (all of it
 * when it has none), so that a name is tried against the patterns whose
 * text it starts with, looked up once for each such length the patterns
 * have, instead of against every pattern.
 *
 *     HostIndex *h = dev_host_index(objs, n);
 *     ... dev_host_refers(h, name) ...
 *     dev_host_index_free(h);
 */
typedef struct HostIndex HostIndex;
HostIndex *dev_host_index(const DevObject *const *objs, int n);
/* Whether host code refers to name (a PTX symbol's): some pattern of the
 * objects' stands for it. */
int dev_host_refers(const HostIndex *, const char *name);
void dev_host_index_free(HostIndex *);
/* "kernel", "data", "constant" */
const char *dev_host_kind(HostKind);

#endif
