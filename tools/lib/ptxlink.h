/* libptxlink: ptxlink as a library.  Link PTX modules in memory and run
 * the optimization stages, as the ptxlink command does, with diagnostics
 * delivered to a callback instead of stderr.
 *
 *     ptxlink_options o;
 *     ptxlink_options_init(&o);
 *     o.arch = "sm_80";
 *     ptxlink_session *s = ptxlink_new(&o);
 *     ptxlink_add_file(s, "a.ptx");
 *     ptxlink_add_buffer(s, "b.ptx", text, len);
 *     if (ptxlink_link(s) == 0)
 *         ptxlink_write(s, stdout);
 *     ptxlink_free(s);
 *
 * Every call that can fail returns 0 or a pointer on success and -1 or
 * NULL after reporting why through the callback.  Bad input never stops
 * the process.  An internal error (a bug in ptxlink, or memory exhausted)
 * prints "ptxlink: internal error: ..." to stderr and aborts.
 *
 * State and threads: all a session changes is its own (the names it has
 * read, the file names its diagnostics give, its error count, its
 * callback), made by ptxlink_new and given back whole by ptxlink_free;
 * the library keeps nothing else that changes.  So:
 *   - different sessions may be used on different threads at the same
 *     time, each giving the bytes and the diagnostics it gives alone;
 *   - one session must not be used from two threads at the same time (it
 *     may move from one thread to another between calls);
 *   - a session's diagnostics and phase_done reach its own callback only,
 *     on the thread of the call that reports them; a callback may call the
 *     library for another session, never for its own;
 *   - the calls without a session (ptxlink_version, ptxlink_stage_name,
 *     ptxlink_options_init) may be made from any thread, and
 *     ptxlink_set_option on different ptxlink_options at once;
 *   - memory is what the live sessions hold, however long one stays open
 *     and however many come and go.
 * A session numbers at most 65,535 input names (files, buffers and the
 * members of libraries): each input past that is refused with an error. */
#ifndef PTXLINK_LIB_H
#define PTXLINK_LIB_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define PTXLINK_API __attribute__((visibility("default")))
#else
#define PTXLINK_API
#endif

typedef struct ptxlink_session ptxlink_session;  /* opaque */

typedef enum ptxlink_severity {
	PTXLINK_ERROR,    /* the input is wrong; the session's result fails */
	PTXLINK_WARNING,
	PTXLINK_REMARK,   /* what a stage did (remarks option) */
	PTXLINK_NOTE      /* statistics and -v lines: a message, no location */
} ptxlink_severity;

/* One diagnostic: file is NULL, line and col 0 where not known (an
 * error about an option has no file; a remark has no column).  The
 * strings live only during the call. */
typedef void ptxlink_diag_fn(void *user, ptxlink_severity severity, const char *file,
	unsigned line, unsigned col, const char *message);

/* Remarks to ask for (ptxlink_options.remarks), the command's -Rpass. */
enum {
	PTXLINK_REMARK_DEVIRT = 1,          /* -Rpass=devirt */
	PTXLINK_REMARK_GLOBALOPT = 2,       /* -Rpass=globalopt */
	PTXLINK_REMARK_DEPOT = 4,           /* -Rpass=depot */
	PTXLINK_REMARK_DEPOT_ANALYSIS = 8,  /* -Rpass-analysis=depot */
	PTXLINK_REMARK_ADDRPREP = 16,       /* -Rpass=addrprep */
	PTXLINK_REMARK_INLINE = 32,         /* -Rpass=inline */
	PTXLINK_REMARK_INLINE_MISSED = 64,  /* -Rpass-missed=inline */
	PTXLINK_REMARK_IPO = 128,           /* -Rpass=ipo */
	PTXLINK_REMARK_LOCALS = 256,        /* -Rpass=locals */
	PTXLINK_REMARK_REROLL = 512,        /* -Rpass=reroll */
	PTXLINK_REMARK_FOLD = 1024,         /* -Rpass=fold */
	PTXLINK_REMARK_DCE = 2048,          /* -Rpass=dce */
	PTXLINK_REMARK_UNRECURSE = 4096     /* -Rpass=unrecurse */
};

/* Inlining's modes (ptxlink_options.inline_mode), the command's
 * --inline=never|auto|always; 0 is the default (auto, as the command's). */
enum {
	PTXLINK_INLINE_NEVER = 1,
	PTXLINK_INLINE_AUTO = 2,
	PTXLINK_INLINE_ALWAYS = 3
};

/* Address preparation's rewrites (ptxlink_options.addrprep), the
 * command's --addrprep=narrow,widen,fold,sink. */
enum {
	PTXLINK_ADDRPREP_NARROW = 1,   /* 64-bit index arithmetic that fits done in 32 bits */
	PTXLINK_ADDRPREP_WIDEN = 2,    /* 64-bit products of 32-bit values as mul.wide */
	PTXLINK_ADDRPREP_FOLD = 4,     /* constant offsets into [reg+imm] */
	PTXLINK_ADDRPREP_SINK = 8      /* address computations next to their use */
};

/* The command's options, by their command-line spelling.  Start from
 * ptxlink_options_init, then set fields or call ptxlink_set_option (which
 * checks values as the command does); later versions add fields only at
 * the end. */
typedef struct ptxlink_options {
	const char *arch;         /* -arch=sm_XX; NULL: the inputs' own .target */
	int allow_undefined;      /* --allow-undefined: unresolved names stay .extern */
	int strip_debug;          /* --strip-debug: drop DWARF, .file and .loc */
	int verbose;              /* -v: a note on which ptxas mode the output needs */
	int verify;               /* --verify: check IR invariants (init: as the command) */
	int no_stages;            /* --no-stages: link only */
	int no_devirt;            /* --no-devirt */
	int no_globalopt;         /* --no-globalopt */
	int no_depot;             /* --no-depot */
	int devirt_funnel_max;    /* --devirt-funnel-max=N (init: the default; 0 too) */
	int internalize;          /* --internalize */
	/* The lists hold exactly their counts' names: a NULL (or, in libdirs
	 * and libs, an empty) name among them is an error of ptxlink_new. */
	const char *const *keep;  /* --keep=SYM, nkeep names (copied by ptxlink_new) */
	size_t nkeep;
	int remarks;              /* PTXLINK_REMARK_* bits */
	int stats;                /* --stats: the stages' counts, as notes */
	int werror_format;        /* -Werror=format */
	long long warn_stack_size;  /* --warn-stack-size=N; negative: off (init) */
	const char *print_after;  /* --print-after=STAGE: the module to stderr */
	ptxlink_diag_fn *diag;    /* NULL: print to stderr as the command does */
	void *diag_user;          /* passed to diag */
	int no_addrprep;          /* --no-addrprep */
	unsigned addrprep;        /* PTXLINK_ADDRPREP_* bits; 0: the default (sink) */
	/* -L DIR and -l NAME: PTX libraries (libNAME.a, NAME.ptx or NAME/ in
	 * each dir); a member comes in when it defines a name still undefined.
	 * An input added by file named NAME.a is a library too. */
	const char *const *libdirs;
	size_t nlibdirs;
	const char *const *libs;
	size_t nlibs;
	/* called with "link" after the link, each stage's name after it and
	 * "check" after the output check (the command's --time), or NULL */
	void (*phase_done)(void *user, const char *phase);
	/* what ptxlink_set_option allocated (ptxlink_options_free); NULL
	 * until it is called */
	struct ptxlink_owned *owned;
	int inline_mode;          /* --inline=: PTXLINK_INLINE_*; 0: the default */
	int inline_threshold;     /* --inline-threshold=N (init: the default) */
	int ipo;                  /* --ipo, --no-ipo (init: the default) */
	int no_sroa;              /* --no-sroa */
	int ipo_constants;        /* --ipo-constants */
	int no_check_output;      /* --no-check-output: write the stages' output unchecked */
	int inline_growth;        /* --inline-growth=N (init: the default) */
	/* -O0..-O3: which stages run (init: 3, every stage).  Below 3 no
	 * depot, locals, folding or address preparation; below 2 no devirt,
	 * rerolling, unrecursing, inlining or ipo; at 0 no globalopt (printf
	 * lowering always runs: ptxas rejects the calls it lowers).  The other
	 * options cannot turn a stage back on. */
	int opt_level;
	int opt_locals;           /* --opt-locals, --no-opt-locals (init: the default) */
	int reroll;               /* --reroll, --no-reroll (init: the default) */
	int reroll_any;           /* --reroll-any */
	int no_fold;              /* --no-fold */
	int trust_layout;         /* --trust-layout */
	int ipo_byvalue;          /* --ipo-byvalue, --no-ipo-byvalue (init: the default) */
	int no_dce;               /* --no-dce */
	int unrecurse;            /* --unrecurse, --no-unrecurse (init: the default) */
} ptxlink_options;

PTXLINK_API const char *ptxlink_version(void);
/* The i-th stage's name (for print_after), NULL past the last. */
PTXLINK_API const char *ptxlink_stage_name(size_t i);

PTXLINK_API void ptxlink_options_init(ptxlink_options *);
/* Sets an option by the name the command spells it, with or without its
 * dashes ("devirt-funnel-max", "arch", "keep", "no-depot", "Rpass=devirt";
 * docs/command-line.md lists them), from the text the command takes after
 * it: NULL for a flag, "4", "sm_80", "narrow,sink" (NULL: all four), a
 * name to add to keep, libdirs or libs.  The command's parser sets its
 * options through the same code, so values are checked, and refused with
 * the same words, as there.  0, or -1 after an error through o->diag
 * (stderr when NULL); the options of the command alone (-o, --ptxas, --fatbin,
 * ...) are refused.
 *
 *     ptxlink_set_option(&o, "devirt-funnel-max", "4");
 *     ptxlink_set_option(&o, "Rpass=devirt", NULL);
 *
 * Strings are copied, and a list grown by name is copied first: they are
 * the options' until ptxlink_options_free. */
PTXLINK_API int ptxlink_set_option(ptxlink_options *, const char *name, const char *value);
/* Frees what ptxlink_set_option allocated (nothing else); the options
 * are then used only after ptxlink_options_init.  ptxlink_new copies what
 * it keeps: they may be freed as soon as it returns. */
PTXLINK_API void ptxlink_options_free(ptxlink_options *);
/* A session with a copy of the options; NULL (after a diagnostic) if an
 * option is wrong, such as an unknown print_after stage. */
PTXLINK_API ptxlink_session *ptxlink_new(const ptxlink_options *);

/* Parse one input now ("-" reads stdin; NULL is an error).  Errors in every input are
 * reported before ptxlink_link fails. */
PTXLINK_API int ptxlink_add_file(ptxlink_session *, const char *path);
/* The same from memory; name is the file name diagnostics give.  The
 * data need not end with a NUL and is not kept after the call. */
PTXLINK_API int ptxlink_add_buffer(ptxlink_session *, const char *name, const char *data,
	size_t len);

/* Links the inputs and runs the stages, once per session.  One input
 * without arch or strip_debug is not linked (the stages still run). */
PTXLINK_API int ptxlink_link(ptxlink_session *);
/* The result as PTX text.  ptxlink_write flushes f but does not close it;
 * -1 with errno set if a write failed.  ptxlink_write_buffer returns a
 * malloc'd NUL-terminated string (free it with free) and its length. */
PTXLINK_API int ptxlink_write(ptxlink_session *, FILE *f);
PTXLINK_API char *ptxlink_write_buffer(ptxlink_session *, size_t *len);

/* Errors reported so far in this session. */
PTXLINK_API int ptxlink_errors(const ptxlink_session *);
PTXLINK_API void ptxlink_free(ptxlink_session *);

#ifdef __cplusplus
}
#endif
#endif
