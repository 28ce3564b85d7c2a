/* The work the command (tools/cli/ptxlink.c) and libptxlink (libptxlink.c)
 * both do, written once: an input in the one form the linker and stages
 * take, what the number of inputs decides, the link, the stages.  Internal:
 * not installed, not part of ptxlink.h. */
#ifndef PTXLINK_CORE_H
#define PTXLINK_CORE_H

#include "ir/ir.h"
#include "link/link.h"
#include "stages/stages.h"
#include <stdio.h>

/* A parsed input (NULL after its errors) checked (verify) and normalized;
 * NULL, and freed, when normalizing it fails (ir/scope.c refuses a name). */
Module *core_input(Module *parsed, const char *name, int verify);
/* What the number of inputs decides: whether they are linked, whether
 * names dead code alone references may stay undefined. */
void core_settle(LinkOptions *, StageOptions *, int ninputs, int no_stages);
/* The inputs linked (one input without -arch or --strip-debug is only
 * checked); consumes mods' modules, not the array.  NULL after errors. */
Module *core_combine(Module **mods, int n, const LinkOptions *, int verify);

/* library.c: -L DIR and -l NAME, and inputs named NAME.a: PTX libraries,
 * whose members come in when they define a name still undefined. */
/* Archives of cubins or host objects (libcudadevrt.a, a user's nvcc
 * -rdc -lib), for nvlink: their paths (owned), in the order found. */
typedef struct LibObjects {
	char **paths;
	int n;
} LibObjects;
typedef struct LibSearch {
	const char *const *dirs, *const *libs, *const *archives;
	int ndirs, nlibs, narchives;
	int verbose;   /* -v: which member came in for which name */
	LibObjects *objects;   /* where archives of objects go; NULL: they are errors */
} LibSearch;
/* Is path CUDA's libcudadevrt.a, whose names ptxlink knows as the device
 * runtime's? */
int is_cudadevrt(const char *path);
int is_library_input(const char *path);   /* NAME.a */
/* The members the n modules in *mods need, parsed and appended (the
 * array grows); -1 after errors. */
int add_libraries(const LibSearch *, Module ***mods, int *n);

/* opttab.c: the option table (opttab.h), one row per option, indexed by
 * OPT_<id>. */
#ifdef PTXLINK_VERIFY_DEFAULT
#define VERIFY_DEFAULT 1   /* --verify: on in Debug and test builds */
#else
#define VERIFY_DEFAULT 0
#endif

enum {
#define OPT(id, ...) OPT_##id,
#include "opttab.h"
#undef OPT
	NOPT
};

typedef enum OptKind {
	/* the command's own (tools/cli/options.c): no value, a value, a value
	 * also glued on (-oFILE, -O2), an optional one (--ptxas[=OPTS]) */
	C_FLAG, C_VALUE, C_GLUED, C_OPTIONAL,
	/* library options: flags (field = 1, = 0, |= v) */
	V_ON, V_OFF, V_BIT,
	/* a value: a count from 1, bytes from 0, an -arch, a stage's name,
	 * address preparation's rewrites (optional: none means all four) */
	V_COUNT, V_BYTES, V_ARCH, V_STAGE, V_REWRITES,
	/* a number from 0; inlining's mode (never, auto, always); the
	 * optimization level (0 to 3, also glued: -O2) */
	V_NUMBER, V_INLINE, V_LEVEL,
	/* one more in a list: a symbol, the names in a file, a directory,
	 * a library's name (the last two also glued on: -L/dir, -lm) */
	V_SYMBOL, V_SYMFILE, V_DIR, V_LIBRARY,
} OptKind;

typedef struct OptRow {
	OptKind kind;
	const char *names[4];
	size_t field, count, size;   /* offsetof in ptxlink_options: the field, a list's count */
	size_t stage, stage_size;    /* offsetof in StageOptions: the field it feeds (size 0: none) */
	long long v;                 /* the default (V_BIT: the bit) */
	const char *usage, *help;
} OptRow;

/* How a value is given: none, NAME=V or NAME V, also glued, optional,
 * only NAME=V (--keep=SYM: '--keep -arch=sm_80' must not keep -arch). */
enum { FLAG, VALUE, GLUED, OPTIONAL, EQUALS };

struct ptxlink_options;
extern const OptRow opt_rows[NOPT];
int opt_syntax(const OptRow *);
/* The name ptxlink_set_option knows it by, without dashes (NULL: the command's own). */
const char *opt_name(const OptRow *);
/* Sets r's field to v (NULL: none given); spelled is the option as given,
 * for errors.  0, or -1 after an error through o->diag. */
int opt_set(struct ptxlink_options *o, const OptRow *r, const char *spelled, const char *v);
/* r's value in o copied into its StageOptions field (r->stage_size). */
void opt_stage(const OptRow *r, const struct ptxlink_options *o, StageOptions *);
/* An error about an option: through o->diag, else "ptxlink: error: " on
 * stderr; -1. */
int opt_error(const struct ptxlink_options *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A decimal number from lo to hi, nothing after it: 0, else -1. */
int opt_number(const char *s, long long lo, long long hi, long long *out);
/* A file of arguments or names (NULL after saying why; a directory is
 * refused as such, not read as empty). */
FILE *opt_open_list(const struct ptxlink_options *, const char *path, const char *what);

/* libptxlink.c: the linked module of a session (NULL before a link
 * succeeds), for the command's --ptxas; not in ptxlink.h. */
struct ptxlink_session;
Module *session_result(const struct ptxlink_session *);
/* ptxlink_new working in ctx, which it does not free (the command's: its
 * own diagnostics, -w and the result's names are there too); NULL ctx:
 * a context of the session's own, as ptxlink_new makes. */
struct ptxlink_options;
struct ptxlink_session *session_new(const struct ptxlink_options *, Ctx *ctx);
/* Archives of cubins or objects are kept for nvlink (the command's
 * --ptxas), not refused; after the link, those found. */
void session_take_objects(struct ptxlink_session *);
const LibObjects *session_objects(const struct ptxlink_session *);
/* The command's -dlink: internalize, keeping (as --keep does) each name of
 * the linked module match says yes to (the host's references). */
void session_keep_matching(struct ptxlink_session *, int (*match)(void *user, const char *name),
	void *user);

#endif
