/* linker.h: the Linker and its symbols, shared by link.c and the step
 * files it runs (private to link/; link.h is the layer's header). */
#ifndef PTXLINK_LINKER_H
#define PTXLINK_LINKER_H

#include <uthash.h>
#include "link.h"

enum { K_FUNC, K_VAR, K_LABEL };
enum { G_NONE, G_DECLARED, G_IN_PROGRESS, G_DEFINED };

typedef struct Global Global;

typedef struct Sym {
	UT_hash_handle hh;     /* in its module's table, keyed by name pointer */
	const char *name;      /* as written */
	const char *newname;   /* in the output */
	int mod, kind, linkage, is_def;
	Stmt *def;             /* the defining statement in its module */
	Stmt *decl;            /* its first declaration in its module */
	Loc loc;
	Global *g;             /* for names with linkage */
} Sym;

struct Global {
	UT_hash_handle hh;
	const char *name;
	Sym *def;              /* the definition that wins */
	Stmt *decl;            /* first declaration, used when nothing defines it */
	Sym *decl_sym;
	Sym *first;            /* the first symbol of the name: others must be its kind */
	int state;             /* G_*: how far the output has got with it */
	int internal;          /* one input's internal name (after renaming) */
	uint64_t max_align;    /* largest .align among .common or .extern .shared */
	int used;
	Loc first_use;
	const Func *first_use_in;  /* the function holding it, or NULL */
	int unresolved;        /* reported once the output exists (its CUDA line) */
	int widened;           /* a formal's .align raised to a declaration's */
	uint32_t stamp;        /* output.c: Linker's stamp when in an item's refs */
};

typedef struct FileNum FileNum;          /* rewrite.c */
typedef struct SectionBase SectionBase;  /* rewrite.c */

typedef struct Linker {
	const LinkOptions *o;
	Module **mods;
	int n;
	Module *out;
	Sym **tables;          /* per module */
	Global *globals;
	Names taken;           /* output names of module scope so far */
	Names locals;          /* the function being walked: they shadow module names */
	FileNum **filemap;     /* per module: old .file index -> new, by old */
	uint32_t *nfilemap;
	Stmt **files;          /* merged .file directives */
	uint32_t nfiles;
	int *dwarf;            /* per module: it carries -G DWARF (and keeps it) */
	SectionBase *sections; /* by name: where each module's part starts */
	uint32_t stamp;        /* output.c: one per item whose refs are collected */
} Linker;

/* headers.c: step 1 */
Stmt *find_item(Module *m, StmtKind kind);
int make_header(Linker *l);

/* symbols.c: step 2 */
Sym *lookup(Linker *l, int mod, const char *name);
void collect_symbols(Linker *l, int mod);
void resolve(Linker *l);
void check_agreement(Linker *l, Module *m);
void rename_internals(Linker *l);
void widen_alignments(Linker *l);
void widen_param_alignments(Linker *l);

/* rewrite.c: step 3 */
void enter_func(Linker *l, const Func *f);
void merge_files(Linker *l);
void rename_section_locals(Linker *l);
void section_bases(Linker *l);
void free_sections(Linker *l);
void rename_module(Linker *l, int mod);

/* output.c: step 4 */
void build_output(Linker *l);

#endif
