/* The NVIDIA-tools layer: ptxas, nvlink and fatbinary run as child
 * processes in a directory of the caller's, what ptxas -v says of each
 * function, and the rule that picks whole-program or relocatable
 * compilation (docs/usage.md).  The command's --ptxas is written on it;
 * a feedback loop (compile, read each function's figures, choose) is
 * nv_compile with figures, as often as it likes. */
#ifndef PTXLINK_NVTOOLS_H
#define PTXLINK_NVTOOLS_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include "ir/ir.h"

/* run.c: how the tools run.  Their files are named relative to dir. */
typedef struct NvRun {
	const char *dir;          /* where they run */
	int verbose;              /* "ptxlink: running ..." before each */
	/* after each: the tool's name and how long it ran (--time), or NULL */
	void (*timed)(const char *tool, double ms);
	/* the tool running now, for a signal handler to nv_kill; or NULL */
	volatile pid_t *running;
} NvRun;
/* dir/name, to be freed. */
char *nv_path(const char *dir, const char *name);
char *nv_path_ext(const char *dir, const char *name, const char *ext);   /* dir/name+ext */
/* The tool's path (to be freed): name on PATH, else in the CUDA root's
 * bin ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda); NULL after saying where
 * it was looked for. */
char *nv_find(const char *name);
/* The path sub (a file or directory) in the CUDA installation whose
 * bin holds tool (bin/..), to be freed; NULL after saying the tool was
 * not found. */
char *nv_cuda_path(const char *tool, const char *sub);
/* Runs argv (NULL-terminated, argv[0] the tool's name) in r->dir; 0 if
 * it exits 0, else -1 after saying how it ended.  Its output is passed
 * on to stderr a line at a time ("ptxlink: TOOL: "), or kept in
 * *captured (to be freed; then -1 without a word) when captured is not
 * NULL.  SIGINT, SIGTERM and SIGHUP kill the tool with ptxlink. */
int nv_run(const NvRun *, const char *const *argv, char **captured);
/* Ends the tool *running (its process group) and waits: signal-safe. */
void nv_kill(volatile pid_t *running);
double nv_seconds(void);   /* a monotonic clock */
/* fork() with the signals that end ptxlink blocked, the mask before in
 * *old: parent and child restore it once the child's pid is kept. */
pid_t nv_fork(sigset_t *old);

/* ptxas.c: one compile for one architecture. */
typedef struct NvCompile {
	const char *arch;                 /* sm_XX */
	int reloc;                        /* ptxas -c, then nvlink */
	const char *const *opts;          /* ptxas's options */
	int nopts;
	const char *ptx, *obj, *cubin;    /* in the run's dir: the input, ptxas -c's, the result */
	/* nvlink's: archives of cubins or objects (absolute paths), and
	 * whether libcudadevrt.a of nvlink's own CUDA goes in too */
	const char *const *objects;
	int nobjects, devrt;
	int dlto;                         /* objects carry LTO-IR: nvlink -dlto, as nvcc -dlink -dlto */
	const char *reg;                  /* nvlink --register-link-binaries=reg, or NULL */
	/* the inputs compiled apart, as nvcc -rdc does (ptx and obj unused):
	 * each of apart by ptxas -c into apart_obj's, then nvlink; what the
	 * tools say is kept, not passed on (the mode rule's reference) */
	const char *const *apart, *const *apart_obj;
	int napart;
} NvCompile;
/* What ptxas -v says of one function. */
typedef struct NvFunc {
	const char *name;
	long stack, spill;                /* frame bytes; spill stores and loads */
	int regs;                         /* -1: not said (whole-program callees) */
} NvFunc;
/* Of one compile: ptxas -v's functions (by name, each once: whole
 * program names a callee again under each kernel it is copied into)
 * and their sums, and the cubin's SASS bytes and most registers. */
typedef struct NvFigures {
	NvFunc *funcs;
	uint32_t nfuncs;
	long spill, stack, text;          /* spill -1: a tool failed */
	int regs, warps;                  /* warps: nv_warps(arch, regs) */
	char *said;                       /* what ptxas said */
	char *owned;
} NvFigures;
/* Compiles c in r's dir; 0, or -1 after the tools said why.  With
 * figures, ptxas gets -v and what it says is kept there (nv_pass_on
 * passes it on), and the figures are read (nv_figures_free). */
int nv_compile(const NvRun *, const NvCompile *, NvFigures *figures);
void nv_figures_free(NvFigures *);
/* The figures of c's compile (rc: how it ended) from f->said, set, and
 * its cubin. */
void nv_figures_read(const NvRun *, const NvCompile *c, int rc, NvFigures *f);
/* What a compile with figures had ptxas say, passed on as a compile's
 * without them is: the -v lines only when c's options ask for -v. */
void nv_pass_on(const NvCompile *, const char *said);
/* The warps an SM of architecture sm holds at regs registers a thread. */
int nv_warps(const char *sm, int regs);
/* nvlink alone, as nvcc -dlink runs it: c's objects (host objects and
 * archives of them, absolute paths) and the device runtime for c->arch
 * into c->cubin; c->obj NULL, c->ptx unused. */
int nv_link_objects(const NvRun *, const NvCompile *c);
/* fatbinary -64 --create=out with the images (nv_image's, to be freed). */
int nv_fatbin(const NvRun *, const char *const *images, int nimages, const char *out);
/* fatbinary -64 -link --embedded-fatbin=out: the images as the C file
 * crt/link.stub includes (nvcc -dlink's). */
int nv_fatbin_embedded(const NvRun *, const char *const *images, int nimages, const char *out);
char *nv_image(const char *kind, const char *sm, const char *file);

/* stub.c: nvcc -dlink's last step, CUDA's crt/link.stub compiled by the
 * host compiler cc (gcc when NULL) into out, with the fatbinary's C file
 * and the registration file (DEFINE_REGISTER_FUNC lines), all in the
 * run's dir, with cc_opts (nvcc's -Xcompiler) after nvcc's own; archs the
 * __CUDA_ARCH_LIST__ value ("800,900"). */
/* The module ids of a --register-link-binaries file (its
 * DEFINE_REGISTER_FUNC(<id>) lines) in order, *n of them, each and the
 * array to be freed; NULL and 0 when it cannot be read. */
char **nv_registered(const char *path, int *n);
int nv_link_stub(const NvRun *, const char *cc, const char *const *cc_opts, int ncc_opts,
	const char *archs, const char *fatbin_c, const char *reg_c, const char *out);

/* batch.c: many compiles with figures at once (--tune). */
enum { NV_MAX_JOBS = 64 };
typedef struct NvBatch {
	NvCompile c;      /* the compile: its files named apart from the others' */
	NvFigures f;      /* its figures (nv_figures_free) */
	int cached;       /* from the cache, or another of the batch with its key */
	double ms;        /* how long its tools ran, ms (0 when cached) */
} NvBatch;
/* Compiles each of v (n of them) with figures, at most jobs at a time
 * (1 to NV_MAX_JOBS), each in a worker process whose pid is in
 * workers[jobs] (zeroed by the caller) while it runs; results by content
 * in the directory cache (made if missing; NULL or unusable: none).  A
 * compile that fails has f.spill -1 and what ptxas said in f.said. */
void nv_compile_batch(const NvRun *, NvBatch *v, int n, int jobs, const char *cache,
	volatile pid_t *workers);
/* Stops the workers running (their tools too) and waits: signal-safe. */
void nv_stop_workers(volatile pid_t *workers, int jobs);

/* mode.c: whole program (ptxas) or relocatable (ptxas -c, nvlink). */
typedef enum NvMode { MODE_AUTO, MODE_WHOLE, MODE_RELOCATABLE } NvMode;
/* What decides the mode (see mode.c). */
typedef struct ModeFacts {
	const char *undefined;  /* a name only nvlink can resolve, or NULL */
	int recursive;          /* a call-graph cycle */
	int taken;              /* defined functions whose address is taken */
	int indirect;           /* indirect call sites */
	int taken_indirect;     /* address-taken functions that call indirectly */
	int calling;            /* defined functions with a call left, to anything */
	const char *slowpath;   /* an instruction ptxas calls its own subroutine for
	                         * (Spelling.slowpath) in two kernels or more, or NULL */
	int slowpath_kernels;   /* how many */
} ModeFacts;
/* The module's facts and the mode asked (MODE_AUTO: the rule's): the
 * mode, MODE_AUTO when only measuring tells, or -1 when whole program is
 * asked for and cannot be (said why). */
int nv_mode(const Module *, NvMode asked, ModeFacts *);
/* Whether a's figures beat b's by the yardstick's order: spill bytes,
 * stack, warps by registers, SASS bytes (a tie is not). */
int nv_better(const NvFigures *a, const NvFigures *b);
/* The compile mode's choice between a module's two compiles: that order,
 * but for a compile NV_MODE_SASS percent smaller in SASS or more with no
 * larger stack, no fewer warps and at most NV_MODE_SPILL spill bytes
 * more, which wins. */
enum { NV_MODE_SASS = 5, NV_MODE_SPILL = 8 };
int nv_mode_better(const NvFigures *a, const NvFigures *b);
/* Whether a module's compiles w (whole) and r (relocatable) leave the
 * choice to the inputs' own compile, the -rdc route's figures: the one
 * nv_mode_better picks has more spill bytes, stack or SASS than the
 * other. */
int nv_mode_needs_ref(const NvFigures *w, const NvFigures *r);
/* The choice (1: relocatable) given ref, the -rdc route's figures (NULL
 * or failed: none): a compile at or below ref in spill bytes and stack
 * with at most NV_REF_SASS percent of its SASS, where the other is not;
 * else nv_mode_better's. */
enum { NV_REF_SASS = 105 };
int nv_mode_pick(const NvFigures *w, const NvFigures *r, const NvFigures *ref);
/* --tune's choice among n compiles, the first given of them (at least
 * one) the plan given's: the best of those by that order (the mode
 * rule's measuring), unless a later one beats it by that order with no
 * more spill bytes, no larger stack and at most NV_TUNE_SASS percent of
 * its SASS; the best such.  The first of equals: the ladder's order
 * breaks ties.  (The order alone, fitted on nothing, took every
 * program's lowest spills at any price: on the yard benchmark's FIT half
 * twice the SASS and half again the stack; docs/usage.md, "Tuning".) */
enum { NV_TUNE_SASS = 110 };
int nv_best(const NvBatch *v, int n, int given);

#endif
