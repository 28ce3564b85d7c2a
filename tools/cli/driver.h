/* The ptxlink command: its options, the libraries it searches and the
 * NVIDIA tools it runs.  ptxlink.c parses, links and prints. */
#ifndef PTXLINK_DRIVER_H
#define PTXLINK_DRIVER_H

#include "ir/ir.h"
#include "link/link.h"
#include "stages/stages.h"
#include "tools/lib/ptxlink.h"
#include "tools/nvtools/nvtools.h"

/* A growing list of strings that live until exit (argv's, a response
 * file's). */
typedef struct Strs {
	const char **v;
	int n, cap;
} Strs;

enum { MAX_ARCHS = 16 };   /* cubins and PTX in one fatbinary */
enum { MAX_PLANS = 8, DEFAULT_TUNE = 4 };   /* --tune's ladder, its budget (docs/usage.md) */

/* The command's own options; the library's are set in lib through the
 * option table (tools/lib/opttab.h), as ptxlink_set_option sets them. */
typedef struct Options {
	const char *out;
	Strs inputs;
	int ptxas;            /* --ptxas: compile the result to a cubin */
	int fatbin;           /* --fatbin: a fatbinary of the cubin and the PTX */
	int dlink;            /* -dlink: host objects in, nvcc -dlink's object out */
	const char *ccbin;    /* -ccbin: the host compiler for -dlink */
	Strs host_opts;       /* -Xcompiler's (and -shared's -fPIC): its options, owned */
	NvMode mode;          /* --compile-mode */
	/* the GPUs to compile for (sm_XX): a cubin for each of archs (-arch,
	 * -gencode code=sm_XX), PTX for each of ptx_archs (code=compute_XX,
	 * and the newest named); the link is for the oldest named (lib.arch) */
	Strs archs, ptx_archs;
	const char *oldest, *newest;   /* of every architecture named */
	Strs ptxas_opts;      /* --ptxas=OPTS, -Xptxas, and -g, -w, -Werror, ... */
	int time;             /* --time: per-phase timings */
	int tune;             /* --tune[=N]: at most N compiles of plans measured; 0: off */
	int tune_remarks;     /* -Rpass=tune */
	int jobs;             /* -j N: compiles at once under --tune */
	const char *tune_cache;   /* --tune-cache=DIR, $PTXLINK_TUNE_CACHE, or the user's cache */
	const char *foreign_passed;   /* the first ptxas option given (-Xptxas, -fmad...) */
	int rsp_depth;        /* response files being read (@FILE, -optf) */
	size_t rsp_files, rsp_words, rsp_bytes;   /* read so far (their limits: options.c) */
	ptxlink_options lib;  /* the session's: -arch, -v, the stages', -L, -l... */
} Options;

/* options.c: 0, or -1 after saying why (exit status 2) */
void strs_push(Strs *, const char *);
void strs_free(Strs *);   /* each string (owned) and the list */
int parse_args(int argc, char **argv, Options *);
void options_free(Options *);

/* toolchain.c: runs ptxas (and nvlink, fatbinary) on the module printed
 * to a temporary file, once per architecture; the result in *path (a
 * temporary the caller unlinks) or -1 after saying why.  The module's
 * .target is changed while PTX for another architecture is printed. */
struct LibObjects;   /* the archives of objects the link found, for nvlink */
/* What --tune chose: the mode and the first architecture's cubin (a
 * temporary's name) and what its ptxas said. */
typedef struct Tuned {
	int mode;
	const char *cubin;
	char *said;
} Tuned;
int compile_module(Module *, const Options *, const struct LibObjects *, const Tuned *,
	char **path);
void toolchain_cleanup(void);   /* removes the temporaries; signal-safe */
void toolchain_done(void);      /* and frees their names */

/* toolchain.c, for -dlink: the module compiled for sm into a cubin in
 * the temporary directory (made once), its image (and PTX's, when
 * ptx) appended to images (nv_image's); a cubin nvlink made of objects
 * (nv_link_objects; -dlto when dlto) likewise, each adding to extra
 * (owned) the module ids of the libraries nvlink linked (libcudadevrt's,
 * which nvcc -dlink registers too); the images embedded with the registration
 * of the module ids and compiled by the host compiler into *path. */
int dlink_compile(Module *, const Options *, const char *sm, int ptx, Strs *images, Strs *extra);
int dlink_nvlink(const Options *, const char *sm, const Strs *objects, int dlto, Strs *images,
	Strs *extra);
int dlink_object(const Options *, const Strs *images, const Strs *ids, const char *archs,
	char **path);

/* toolchain.c, for --tune: a temporary named after the output, tag and
 * ext: its name in the temporary directory (made once), its path in
 * *path; NULL after saying why.  The module printed to path (0, or -1
 * after saying why: write_ptx).  Each of v compiled with figures for the first
 * architecture (their files named by the caller), -j at once. */
const char *tune_file(const Options *, const char *tag, const char *ext, char **path);
char *tune_path(const char *name, const char *ext);   /* the temporary name+ext's path, to be freed */
int write_ptx(const Module *, const char *path);
void tune_compile(const Options *, const struct LibObjects *, NvBatch *v, int n);
/* tune.c: --tune: the plans' modules compiled, the best kept: *s is
 * its session (the others freed), *t its compile; -1 after saying why. */
int tune(const Options *, Ctx *, ptxlink_session **s, Tuned *t);

/* dlink.c: -dlink's run; the exit status. */
int dlink(Options *, Ctx *);
/* ptxlink.c, for dlink.c: the output written (atomically) from a file */
int write_output_file(const char *path, const char *file);

/* ptxlink.c: the inputs loaded, linked and through the stages at lib's
 * options (NULL after errors) */
ptxlink_session *load(const Options *, const ptxlink_options *lib, Ctx *);
/* ptxlink.c: -v and --time (a phase's time since start, or its ms); the
 * module printed (-1, errno set, after a failed write) */
int print_close(FILE *, const Module *);
double now(void);
void phase_time(const char *phase, double start);
void phase_ms(const char *phase, double ms);

#endif
