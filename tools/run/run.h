/* ptxlink-run: a reference PTX interpreter.
 *
 * A kernel runs block after block; the threads of a block run
 * cooperatively (warp.c), each warp in lockstep over 32 lanes.  Functions
 * are decoded once, on first use, into flat arrays of DIns whose operands
 * are register slots, constants and label indexes (decode.c), so that the
 * execution loop (exec.c, fp.c) never looks a name up.  Memory (mem.c)
 * hands out tagged generic addresses so that a generic pointer names its
 * state space and, for local and param memory, its thread.
 */
#ifndef PTXLINK_RUN_H
#define PTXLINK_RUN_H

#include <stdint.h>
#include <uthash.h>
#include "ir/ir.h"
#include "ptx-grammar/ptx.h"

/* Exit codes: what the coverage script classifies by. */
enum {
	RUN_OK = 0,
	RUN_USAGE = 1,        /* bad command line, unreadable or unparsable PTX */
	RUN_UNSUPPORTED = 2,  /* an instruction or form the interpreter lacks */
	RUN_FAULT = 3,        /* the kernel misbehaved: bad address, trap, assert, */
	                      /* deadlock, step limit */
};

/* Types (TY_*), rounding modes (RND_*), comparisons (CMP_*) and the
 * other modifier bits (MOD_*) are ir's (ir/mods.h). */

/* State spaces. */
enum { SP_NONE, SP_GLOBAL, SP_CONST, SP_SHARED, SP_LOCAL, SP_PARAM, SP_GENERIC };

/* Generic address layout: bits 56..63 tag the space; local and function
 * param addresses carry the owning thread (its index in the block) in
 * bits 32..55; the low 32 bits are the offset in that space.  Global
 * addresses carry no tag. */
enum {
	TAG_SHARED = 0xC1, TAG_LOCAL = 0xC2, TAG_CONST = 0xC3,
	TAG_KPARAM = 0xC4, TAG_FPARAM = 0xC5, TAG_FUNC = 0xC6,
};
#define TAG_OF(a) ((unsigned)((uint64_t)(a) >> 56))
#define MK_ADDR(tag, thr, off) \
	(((uint64_t)(tag) << 56) | ((uint64_t)(thr) << 32) | (uint32_t)(off))
#define GLOBAL_BASE 0x100000000ull

/* Global memory's arenas, GM_ARENA bytes apart from GLOBAL_BASE up:
 * kernel-argument buffers, module variables, the device heap. */
enum { GM_BUFFER, GM_VAR, GM_HEAP };
#define GM_ARENA (1ull << 40)

/* Distributed shared memory: a .shared address with r + 1 in bits 24..31
 * (a generic one: in bits 32..55) is in the window of the cluster's block
 * of rank r; 0 there means the thread's own block.  So windows are
 * smaller than SHARED_MAX. */
#define SHARED_MAX (1u << 24)

/* A spelling's MG_FORM modifier bits, as one integer: M(ftz).  The
 * dispatch table says which a handler understands; any other makes the
 * instruction unsupported. */
typedef unsigned __int128 Mods;
#define M(w) ((Mods)1 << MOD_##w)

/* Decoded operands. */
enum {
	O_NONE,
	O_REG,    /* reg: register slot */
	O_IMM,    /* val: integer value or float bits, see fk */
	O_SREG,   /* reg: special register (SR_*), val: its index (sreg_find) */
	O_FRAME,  /* space SP_LOCAL or SP_PARAM: frame-relative, val = offset */
	O_ADDR,   /* [base + val]; kids[0] is the base (O_NONE when constant) */
	O_VEC,    /* { kids } */
	O_LIST,   /* ( kids ) of a call */
	O_LABEL,  /* reg: instruction index */
	O_FUNC,   /* reg: function index */
	O_PAIR,   /* p|q: kids[0], kids[1] */
	O_NOT,    /* !p: kids[0] */
	O_SINK,   /* _ */
	O_LABELS, /* brx.idx targets: reg = index of the label list */
	O_SEL,    /* %r1.b0, %r2.h10, %r3.b7654 of a video instruction: reg, sel 'b' or */
	          /* 'h', n digits in val, the first in the highest nibble */
	O_NEG,    /* -a of vmad: kids[0], an O_REG or O_SEL */
	O_PROTO,  /* a call's prototype: n sizes in kids, the first val of them results' */
};
enum { FK_INT, FK_F32, FK_F64, FK_DEC };  /* immediates: 0f, 0d, 1.5 */

typedef struct Opnd Opnd;
struct Opnd {
	uint8_t kind, space, fk, sel;
	uint32_t reg;
	uint32_t n;
	uint64_t val;
	double fval;    /* FK_DEC */
	Opnd *kids;
};

/* A value's low bits, zero- or sign-extended. */
static inline uint64_t wmask(int bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static inline uint64_t zx(uint64_t v, int bits)
{
	return v & wmask(bits);
}

static inline int64_t sx(uint64_t v, int bits)
{
	if (bits >= 64)
		return (int64_t)v;
	return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

typedef struct Thread Thread;
typedef struct Warp Warp;
typedef struct DIns DIns;
typedef struct DFunc DFunc;

typedef int (*ExecFn)(Thread *, const DIns *);
typedef int (*WarpFn)(Warp *, const DIns *, uint32_t mask);

/* Handler results. */
enum { X_NEXT, X_JUMP, X_WAIT, X_STOP };

struct DIns {
	ExecFn fn;           /* per lane */
	WarpFn wfn;          /* collectives: once per warp for the lanes there */
	const Stmt *st;
	Mods mods;
	int32_t guard;       /* register slot, -1 when none */
	uint8_t gneg, nty, space, space2, rnd, cmp, vec, nops;
	uint8_t ty[4];
	Opnd *ops;
	uint32_t aux;        /* handler data */
	const char *why;     /* an unsupported instruction: the reason */
};

typedef struct Sym Sym;

struct DFunc {
	const Func *f;
	const char *name;
	uint32_t idx;
	int decoded;
	int builtin;         /* BI_*: no body, the interpreter provides it */
	DIns *ins;
	uint32_t nins;
	uint32_t nregs;
	uint32_t lsize, lalign;  /* .local variables of one frame */
	uint32_t psize;          /* .param area of one frame */
	uint32_t nparams, nrets;
	uint32_t *poff, *psz, *roff, *rsz;  /* the signature's .param slots */
	uint32_t *rtypes;        /* register slot -> width class for mov {a,b} */
	Opnd **labelsets;        /* brx.idx target lists */
	uint32_t nlabelsets;
};

enum { BI_NONE, BI_VPRINTF, BI_MALLOC, BI_FREE, BI_ASSERTFAIL };

typedef struct Frame {
	DFunc *fn;
	uint32_t pc;
	uint32_t regbase, lbase, pbase;
	const DIns *call;    /* the caller's call instruction */
} Frame;

enum { TS_RUN, TS_BAR, TS_COLL, TS_CLUSTER, TS_DONE };

/* A block of the cluster that runs now (a cluster of one block unless
 * the launch asks for clusters). */
typedef struct Cta {
	uint32_t ctaid[3];
	uint32_t rank;       /* %cluster_ctarank */
	uint8_t *shared;     /* its .shared window */
	Thread *threads;     /* its first thread */
	int bar_waiting[16];
	int bar_expect[16];
} Cta;

struct Thread {
	uint64_t *r;         /* the current frame's registers */
	uint64_t *regs;
	uint32_t nregs, regcap;
	Frame *fr;
	int depth, frcap;
	uint8_t *lmem;       /* local memory: statics, then frames */
	uint32_t lsp, lcap;
	uint8_t *pmem;       /* param memory of call frames */
	uint32_t psp, pcap;
	int state;
	int carry;           /* CC.CF for add.cc/addc */
	uint32_t tid[3];
	uint32_t lin;        /* linear index in the block */
	uint32_t gid;        /* index in M->threads: the owner field of its addresses */
	Cta *b;
	uint32_t lane;
	Warp *w;
	/* barrier bookkeeping */
	int bar_id;
	const DIns *bar_ins;
	int bar_pred;
	const DIns *coll;    /* the collective it waits at */
	uint64_t lstep;      /* --count: the step of its last local-memory access */
	uint32_t cl_gen;     /* barrier.cluster: the phase it arrived in */
	int cl_arrived;
	char *out;           /* --printf-by-thread: its printf text so far */
	size_t olen, ocap;
};

struct Warp {
	Thread *lane[32];
	uint32_t exists;     /* lanes with a thread */
	uint32_t id;
	uint64_t divsteps;   /* steps taken while divergent, for fairness */
	int flip;
};

/* The launch. */
typedef struct Buffer {
	uint64_t addr;
	uint64_t size;
	int argi;
} Buffer;

typedef struct Machine {
	Arena *code;         /* decoded operands: they live as long as the run */
	Module *mod;
	const char *path;
	DFunc **funcs;
	uint32_t nfuncs;
	SymTab *symtab;      /* which declaration defines each name */
	Sym *syms;           /* indexed like the symtab */
	uint32_t nsyms;
	uint32_t grid[3], block[3];
	uint32_t cluster[3];     /* blocks per cluster */
	Cta *blocks;           /* the cluster's */
	uint32_t nblocks;
	uint32_t bthreads;       /* threads per block */
	uint32_t cl_gen, cl_count;  /* barrier.cluster: phase, arrivals */
	uint32_t dyn_shared;
	uint32_t shared_static;
	uint32_t shared_size;
	uint8_t *cbank;      /* .const */
	uint32_t csize;
	uint8_t *kparam;     /* kernel parameters */
	uint32_t kpsize;
	uint32_t lstatic;    /* module-level .local bytes */
	uint8_t *linit;
	uint64_t steps, max_steps;
	int count;           /* --count: tally calls and local-memory instructions */
	uint64_t ncalls, nlocal;
	uint32_t stack_limit;  /* --stack: a thread's local memory, frames and alloca */
	Thread *threads;
	uint32_t nthreads;
	Warp *warps;
	uint32_t nwarps;
	Buffer *bufs;
	uint32_t nbufs;
	char last_out;       /* last byte printf wrote */
	int by_thread;       /* --printf-by-thread */
	size_t held;         /* bytes of printf text held for the block */
	int trace;           /* --trace: every warp step to stderr */
	const DIns *cur;     /* the instruction executing, for messages */
	int explicit_cluster;  /* the launch gives a cluster shape */
} Machine;

extern Machine *M;

/* run.c */
_Noreturn void rt_stop(int code);
_Noreturn void rt_fail(const DIns *, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* mem.c */
uint64_t gmem_alloc(int arena, uint64_t size, uint32_t align, const char *what);
uint64_t gmem_place_var(uint64_t size, const char *name);   /* by its name's hash */
uint64_t heap_malloc(uint64_t size);
int gmem_free(uint64_t addr);
uint8_t *gmem_ptr(uint64_t addr, uint64_t size);
uint8_t *mem_ptr(Thread *, int space, uint64_t addr, uint32_t size, const DIns *);
uint64_t mem_generic(Thread *, int space, uint64_t addr);
int mem_to_space(Thread *, int space, uint64_t generic, uint64_t *out);
int mem_space_of(uint64_t generic);
uint64_t mem_load(Thread *, int space, uint64_t addr, uint32_t size, const DIns *);
void mem_store(Thread *, int space, uint64_t addr, uint32_t size, uint64_t v, const DIns *);
uint32_t stack_push(uint8_t **mem, uint32_t *sp, uint32_t *cap, uint64_t size, uint32_t align,
	uint32_t limit);
#define PARAM_STACK (16u << 20)
const char *mem_cstr(Thread *, uint64_t generic, const DIns *, size_t *len);

/* decode.c: where a module symbol lives (the symtab says which
 * declaration defines it) */
struct Sym {
	const Symbol *sym;
	int space;           /* SP_*; SP_NONE for a function */
	uint64_t addr;       /* global/const/shared/static local address */
	uint32_t size, align;
	const Decl *decl;    /* a variable's defining declaration */
	const Declarator *dr;
	DFunc *fn;
	int is_extern_shared;
	const char *unusable;  /* why an instruction may not use it, or NULL */
};
int layout_module(Module *);
DFunc *find_func(const char *name);
void decode_func(DFunc *);
uint64_t func_addr(const DFunc *);
DFunc *func_at(uint64_t addr);
const char *ins_text(const DIns *);
int mod_fine(ModWord, Mods ok);  /* a type, space or hint, or a bit in ok */

/* exec.c */
typedef struct Handler {   /* handlers[O_ld]: the row for ld */
	ExecFn fn;
	WarpFn wfn;
	Mods mods;           /* modifier bits it understands; RAW_MODS: it reads */
} Handler;                   /* its modifiers from the spelling itself */
#define RAW_MODS (~(Mods)0)
const Handler *handler_of(int opcode);   /* NULL when not implemented */
const Handler *handler_for(const Spelling *);
uint64_t rd(Thread *, const Opnd *);
void wr(Thread *, const Opnd *, uint64_t);
uint64_t sreg_value(Thread *, uint32_t id, uint32_t index);
int sreg_known(int id, int index);
int push_frame(Thread *, DFunc *, const DIns *call);

/* video.c */
int ex_vscalar(Thread *, const DIns *);
int ex_vmad(Thread *, const DIns *);
int ex_vsimd(Thread *, const DIns *);
int ex_dot(Thread *, const DIns *);

/* builtin.c */
int ex_call_builtin(Thread *, const DIns *, DFunc *);

/* fp.c */
int ex_fadd(Thread *, const DIns *);
int ex_fsub(Thread *, const DIns *);
int ex_fmul(Thread *, const DIns *);
int ex_ffma(Thread *, const DIns *);
int ex_fdiv(Thread *, const DIns *);
int ex_fmin(Thread *, const DIns *);
int ex_fmax(Thread *, const DIns *);
int ex_funary(Thread *, const DIns *);
int ex_cvt(Thread *, const DIns *);
int fcompare(int cmp, int ty, uint64_t a, uint64_t b);
uint64_t f_from_imm(const Opnd *, int ty);
float h2f(uint16_t h);
uint16_t f2h(float f, int rnd);
float bf2f(uint16_t h);
uint16_t d2h(double x, int rnd);
uint16_t f2bf(float f, int rnd);
uint64_t atom_fadd(int ty, uint64_t a, uint64_t b);
double read_double(Thread *, const Opnd *, int ty);
float read_float(Thread *, const Opnd *);

/* warp.c */
int run_grid(DFunc *kernel);
int ex_bar(Thread *, const DIns *);
int ex_barcluster(Thread *, const DIns *);
int wx_shfl(Warp *, const DIns *, uint32_t);
int wx_vote(Warp *, const DIns *, uint32_t);
int wx_match(Warp *, const DIns *, uint32_t);
int wx_redux(Warp *, const DIns *, uint32_t);
int wx_activemask(Warp *, const DIns *, uint32_t);
int wx_warpsync(Warp *, const DIns *, uint32_t);
void thread_exit(Thread *);

/* wmma.c */
int wx_wmma(Warp *, const DIns *, uint32_t);

/* printf.c */
int run_vprintf(Thread *, uint64_t fmt, uint64_t args, const DIns *);
void printf_flush(void);

#endif
