/* The linker: many PTX modules into one, with nvlink's symbol rules. */
#ifndef PTXLINK_LINK_H
#define PTXLINK_LINK_H

#include "ir/ir.h"

typedef struct LinkOptions {
	const char *arch;     /* -arch=sm_XX, or NULL */
	int allow_undefined;  /* unresolved references stay .extern */
	int strip_debug;      /* drop DWARF sections, .file, .loc and 'debug' */
	int verbose;          /* -v: say what was resolved and which ptxas mode */
	/* names a later stage defines or removes, so they may stay undefined
	 * here (the printf stage's printf); NULL: none */
	int (*defined_later)(const char *name);
	/* unresolved names are not errors here: the stages drop dead code
	 * first and run_pipeline reports what is still referenced */
	int defer_undefined;
} LinkOptions;

/* link.c: consumes the inputs (the result owns them); NULL after errors. */
Module *link_modules(Module **mods, int n, const LinkOptions *);
/* The symbol checks of a link for one input that is not linked: a name
 * declared as two kinds, a name defined twice.  0, or -1 after errors. */
int link_check_symbols(Module *);
/* headers.c: the .version PTX for arch needs, have or newer (interned);
 * whether ptxas compiles PTX of .target ptx for the GPU gpu (sm_XX[a|f],
 * or compute_XX...; 0 for anything else). */
const char *link_ptx_version(const char *arch, const char *have);
int link_arch_runs(const char *ptx, const char *gpu);

/* dwarf.c: nvcc -G's DWARF sections, for merging them. */
typedef struct DwarfFileMap {
	uint32_t (*fn)(void *ctx, uint32_t old);  /* a .file number's new one */
	void *ctx;
} DwarfFileMap;
uint32_t dwarf_width(const Stmt *data);             /* bytes per item of .b8 .. .b64 */
uint64_t dwarf_section_size(const Stmt *section);
const char *dwarf_section_ref(const Expr *, int64_t *off);  /* .debug_x[+off], else NULL */
/* The -G inputs (dwarf[i]) made ready to concatenate: DW_AT_decl_file
 * and DW_AT_call_file renumbered by maps[i] (NULL fn: unchanged) and, with
 * several, one abbreviation table for all.  0, or -1 after an error saying
 * why an input's DWARF cannot be decoded. */
int dwarf_merge(Module **mods, int n, const int *dwarf, const DwarfFileMap *maps, Module *out);

#endif
