/* The work the command (tools/cli/ptxlink.c) and libptxlink (libptxlink.c)
 * both do, written once: an input in the one form the linker and stages
 * take, what the number of inputs decides, the link, the stages.  Internal:
 * not installed, not part of ptxlink.h. */
#ifndef PTXLINK_CORE_H
#define PTXLINK_CORE_H

#include "ir/ir.h"
#include "link/link.h"
#include "stages/stages.h"

/* NULL, or why the file at path is not PTX (a cubin, an object, a source,
 * bitcode...): one error instead of the parser's stray bytes. */
const char *core_not_ptx(const char *path);
/* A parsed input (NULL after its errors) checked (verify) and normalized. */
Module *core_input(Module *parsed, const char *name, int verify);
/* What the number of inputs decides: whether they are linked, whether
 * names dead code alone references may stay undefined. */
void core_settle(LinkOptions *, StageOptions *, int ninputs, int no_stages);
/* The inputs linked (one input without -arch or --strip-debug is only
 * checked); consumes mods' modules, not the array.  NULL after errors. */
Module *core_combine(Module **mods, int n, const LinkOptions *, int verify);

/* library.c: -L DIR and -l NAME, and inputs named NAME.a: PTX libraries,
 * whose members come in when they define a name still undefined. */
typedef struct LibSearch {
	const char *const *dirs, *const *libs, *const *archives;
	int ndirs, nlibs, narchives;
	int verbose;   /* -v: which member came in for which name */
} LibSearch;
int is_library_input(const char *path);   /* NAME.a */
/* The members the n modules in *mods need, parsed and appended (the
 * array grows); -1 after errors. */
int add_libraries(const LibSearch *, Module ***mods, int *n);

/* libptxlink.c: the linked module of a session (NULL before a link
 * succeeds), for the command's --ptxas; not in ptxlink.h. */
struct ptxlink_session;
const Module *session_result(const struct ptxlink_session *);

#endif
