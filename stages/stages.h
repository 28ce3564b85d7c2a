/* The optimization stages.  Each lives in stages/<name>.c and exposes one
 * entry taking the whole (linked) module; pipeline.c runs them in order. */
#ifndef PTXLINK_STAGES_H
#define PTXLINK_STAGES_H

#include "ir/ir.h"

typedef struct StageOptions {
	int verify;          /* ir_verify() after every stage */
	int werror_format;   /* -Werror=format: printf format mismatches are errors */
	const char *print_after;  /* --print-after=<stage>: dump to stderr */
	int no_devirt;       /* --no-devirt */
	int remarks_devirt;  /* -Rpass=devirt: a remark per indirect call site */
	int stats;           /* --stats: each stage's counts to stderr */
	int allow_undefined; /* linked with --allow-undefined: the world is open */
	int unlinked;        /* one input and no -arch: other device code may join it */
	int devirt_funnel_max;  /* --devirt-funnel-max=N (0: 10) */
} StageOptions;

/* pipeline.c: runs every stage in order; returns 0, or -1 after errors.
 * stages_define: whether a stage defines or removes every use of name, so
 * that the linker may leave it undefined (printf, which becomes vprintf). */
int stages_define(const char *name);
int run_pipeline(Module *, const StageOptions *);
/* the i-th stage's name (for --print-after), NULL past the last */
const char *stage_name(size_t i);

/* devirt.c: indirect calls with known targets become direct calls or funnels */
void devirt(Module *, const StageOptions *);

/* printf.c: calls to an undefined printf become vprintf(fmt, buffer) */
void printf_lower(Module *, const StageOptions *);
int printf_defines(const char *name);   /* printf: no call is left */

#endif
