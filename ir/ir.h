/* ptxlink IR: a PTX module as ordered statements over interned names.
 *
 * A Module is a list of top-level statements (directives, variables,
 * functions).  A function body is a nested list of statements
 * (instructions, labels, declarations, .loc, pragmas, { } scopes).  Operands
 * are expression trees whose leaves (names and numbers) are interned and
 * shared: never mutate an Expr in place, build a new one.  Everything a
 * module owns lives in its arena and is freed by mod_free().
 */
#ifndef PTXLINK_IR_H
#define PTXLINK_IR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* arena.c */
typedef struct Arena Arena;
Arena *arena_new(void);
Arena *arena_new_huge(void);  /* one that may grow to megabytes: huge pages */
void arena_free(Arena *);
void arena_reset(Arena *);   /* forgets every allocation, keeps a block */
void arena_trim(Arena *);    /* gives back the current block's unused pages */
void *arena_alloc(Arena *, size_t);
void *arena_dup(Arena *, const void *, size_t);
/* An array on an arena grown as array_grow() grows one on the heap
 * (the old block stays until the arena goes). */
void *arena_grow(Arena *a, void *v, uint32_t n, uint32_t *cap, size_t size);
char *arena_strndup(Arena *, const char *, size_t);
size_t arena_bytes(const Arena *);

/* ctx.c: a context holds the interned names, the decoded spellings and
 * the diagnostics' state (file names, error count, handler, warning mode).
 * Each thread works in the one it entered last (none at first): sessions
 * on different threads share nothing they write.  An interned pointer is
 * one context's; never compare it with another's. */
typedef struct Ctx Ctx;
Ctx *ctx_new(void);
Ctx *ctx_enter(Ctx *);   /* this thread's context from now on; returns the one before */
void ctx_free(Ctx *);    /* with every name, spelling and file name it holds */

/* diag.c: user-facing diagnostics, file:line:col: error: ..., to stderr
 * or to a handler (the library's callback) */
typedef struct Loc {
	uint32_t line;
	uint16_t col;
	uint16_t file;  /* index into the file-name table, 0 = none */
} Loc;

uint16_t diag_file(const char *name);   /* 0 after an error: too many */
const char *diag_filename(uint16_t file);
void diag_forget_files(void);
void error(Loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void warn(Loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
typedef enum DiagKind { DIAG_ERROR, DIAG_WARNING, DIAG_REMARK, DIAG_NOTE } DiagKind;
/* file is NULL, line and col 0 where unknown; msg has no prefix */
typedef void DiagHandler(void *ctx, DiagKind, const char *file, unsigned line, unsigned col,
	const char *msg);
void diag_remark(Loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));  /* a bare line: --stats, -v */
void diag_at(DiagKind, const char *file, unsigned line, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
char *diag_vformat(const char *fmt, va_list);   /* malloc'd */
void vdiag(DiagKind, const char *file, unsigned line, unsigned col, const char *fmt, va_list);
void verror_counted(Loc, const char *fmt, va_list);
int diag_errors(void);   /* errors so far (counted whoever prints them) */
void diag_reset(void);
void diag_set_stream(FILE *);   /* NULL: stderr */
void diag_set_handler(DiagHandler *, void *ctx);   /* NULL: print to the stream */
typedef enum { WARN_SHOW, WARN_NONE, WARN_ERROR } DiagWarnings;  /* -w, -Werror */
void diag_warnings(DiagWarnings);
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define MAX_ERRORS 20

/* alloc.c: the C heap, the one way every layer uses it.  Out of memory
 * ends the process (die), here only; zero bytes asked for are one, so
 * NULL never comes back; n * size is checked for overflow. */
void *xmalloc(size_t);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *, size_t);
void *xreallocarray(void *, size_t n, size_t size);
char *xstrdup(const char *);
char *xstrndup(const char *, size_t);   /* at most n bytes of it */
FILE *xmemstream(char **buf, size_t *len);   /* open_memstream */
void *array_grow(void *v, uint32_t n, uint32_t *cap, size_t size);  /* room for v[n] */
void *stack_grow(void *v, const void *local, uint32_t n, uint32_t *cap, size_t size);  /* v starts as local */

/* intern.c: every name and numeric spelling is stored once; compare by
 * pointer.  A Name doubles as the leaf Expr that refers to it. */
typedef enum {
	E_NAME,   /* register, symbol, label, special register, section name, _ */
	E_NUM,    /* integer or float literal, spelled as written */
	E_UNARY,  /* op a: - ~ ! */
	E_BINARY, /* a op b, incl. the predicate pair p|q */
	E_PAREN,  /* ( kids ) : call argument lists and parenthesized exprs */
	E_BRACE,  /* { kids } : vector operands and initializer lists */
	E_ADDR,   /* [ kids ] : memory address, texture operands */
	E_CALL,   /* name ( kids ) : generic(sym), mask(...) in initializers */
} ExprKind;

typedef struct Expr Expr;
struct Expr {
	uint8_t kind;
	uint8_t op;      /* operator for E_UNARY/E_BINARY (see op_spelling) */
	uint16_t pad;
	uint32_t n;      /* number of kids */
	union {
		const char *str;    /* E_NAME, E_NUM: the interned spelling */
		Expr **kids;        /* E_UNARY (1), E_BINARY (2), lists, E_CALL's arguments */
	};
};

enum { /* two-character operators beyond plain ASCII ones */
	OP_SHL = 128, OP_SHR, OP_LAND, OP_LOR, OP_EQ, OP_NE, OP_LE, OP_GE,
};
const char *op_spelling(int op);

const char *intern(const char *s, size_t n);
const char *intern_cstr(const char *s);
Expr *name_expr(const char *interned);   /* shared leaf for a name */
Expr *num_expr(const char *interned);    /* shared leaf for a number */
size_t intern_len(const char *interned);  /* strlen without the scan */
/* The decoded instruction spelling (opcode.c) kept with its text, so an
 * instruction's lookup is one load; NULL until spelling_of sets it. */
struct Spelling;
const struct Spelling *intern_spelling(const char *interned);
void intern_set_spelling(const char *interned, const struct Spelling *);
uint16_t intern_file(const char *interned);   /* diag.c's number for a file name */
void intern_set_file(const char *interned, uint16_t file);
void intern_stats(size_t *count, size_t *bytes);
void intern_reset(void);  /* only with no module of the context alive: forgets every name */

/* opcode.c: the instruction table (ir/opcodes.h). */
enum {
	OF_BRANCH = 1 << 0,  /* transfers control within the function */
	OF_CALL = 1 << 1,
	OF_TERM = 1 << 2,    /* ends the thread or the function */
	OF_LOAD = 1 << 3,
	OF_STORE = 1 << 4,
	OF_SIDE = 1 << 5,    /* other side effect: barrier, fence, trap, ... */
	OF_OPAQUE = 1 << 6,  /* roles not modelled: may do anything */
};

typedef struct Opcode {
	const char *name;  /* base name, e.g. "ld", "cp" */
	uint8_t minops, maxops;
	uint16_t flags;
	const char *roles;  /* per operand, the last repeating (opcodes.h) */
} Opcode;

/* The same rows as an enum, so code switches on O_ld, never on "ld". */
enum {
#define OP(name, min, max, roles, flags) O_##name,
#include "opcodes.h"
#undef OP
	O_UNKNOWN
};

/* State spaces, decoded once from a spelling's or a declaration's words. */
typedef enum Space {
	SPACE_NONE,     /* generic addressing, or no memory */
	SPACE_REG, SPACE_SREG, SPACE_CONST, SPACE_GLOBAL, SPACE_LOCAL, SPACE_PARAM,
	SPACE_SHARED,   /* .shared, .shared::cta, .shared::cluster */
	SPACE_TEX,
} Space;
Space space_of(const char *word);   /* ".global" -> SPACE_GLOBAL; else SPACE_NONE */
const char *space_spelling(Space);      /* SPACE_GLOBAL -> ".global"; SPACE_NONE -> NULL */

/* Modifier words (ir/mods.h), decoded once per spelling.  Types,
 * rounding modes and comparisons are enums; every other word is a bit. */
/* TYPE flags: TF_SIZED types are those a stage moves as scalars (not
 * .pred, .tf32 or the fp8 formats); TF_BITS ones are untyped (.b32). */
/* TF_INSN: instructions only, never a declaration (.tf32, .bf16, .e4m3:
 * decl_set refuses them, as ptxas does); TF_HANDLE: a
 * declaration's opaque handle (.texref). */
enum { TF_SIZED = 1, TF_BITS = 2, TF_SIGNED = 4, TF_FLOAT = 8, TF_PAIR = 16, TF_INSN = 32,
	TF_HANDLE = 64 };
enum {
	TY_NONE,
#define TYPE(name, word, bits, flags) TY_##name,
#include "mods.h"
	TY_COUNT
};
enum {
	RND_NONE,
#define RND(name, word) RND_##name,
#include "mods.h"
	RND_COUNT
};
enum {
	CMP_NONE,
#define CMP(name, word) CMP_##name,
#include "mods.h"
	CMP_COUNT
};
enum {
#define MOD(name, word, group) MOD_##name,
#include "mods.h"
	MOD_COUNT
};
enum {
	MG_FORM,   /* what the instruction computes or which form it takes */
	MG_ORDER,  /* memory order: .relaxed, .acquire, .volatile ... */
	MG_SCOPE,  /* .cta, .cluster, .gpu, .sys, .gl */
	MG_CACHE,  /* cache operators and eviction hints: .ca, .nc, .L2::evict_last ... */
	MG_SPACE,  /* a state space's qualifier: .shared::cluster ... */
};
typedef struct ModSet {
	uint64_t w[2];
} ModSet;
_Static_assert(MOD_COUNT <= 128, "modifier bits fit a ModSet");
int type_of(const char *word);      /* ".u32" -> TY_U32; TY_NONE if no type */
const char *ty_word(int ty);        /* TY_U32 -> ".u32"; NULL for TY_NONE */
int ty_flags(int ty);               /* TF_* */
int ty_bits(int ty);                /* 1 for .pred */
int ty_signed(int ty);
int ty_float(int ty);               /* f16 bf16 tf32 f32 f64: scalar float arithmetic */
int ty_floats(int ty);              /* those, or the f16x2/bf16x2 pairs */
int ty_size(int ty);                /* bytes of a TF_SIZED type, else 0 */
int mod_group(int mod);             /* MG_* */

/* What each modifier word of a spelling is; id is a TY_*, a Space, a
 * RND_*, a CMP_*, the width of .vN, a shape's dimensions or a MOD_*. */
enum { MW_UNKNOWN, MW_TYPE, MW_SPACE, MW_RND, MW_CMP, MW_VEC, MW_SHAPE, MW_MOD };
typedef struct ModWord {
	uint8_t kind, id;
} ModWord;

/* An instruction's whole spelling ("ld.global.nc.v4.f32") is interned
 * once and shared by every instruction that spells it the same way; its
 * modifiers are decoded then.  In setp and set, .lo and .hi are
 * comparisons; elsewhere (mul.lo) they are MOD_lo and MOD_hi. */
typedef struct Spelling {
	const char *text;       /* interned full spelling */
	const Opcode *op;       /* NULL when the base name is unknown */
	const char *base;       /* interned base name */
	const char **mods;      /* interned modifiers, each with its dot */
	ModWord *words;         /* what each of mods[] is */
	uint32_t nmods;
	uint16_t code;          /* O_ld, ...; O_UNKNOWN when op is NULL */
	uint8_t space;          /* the Space its modifiers name (SPACE_NONE: generic) */
	uint8_t space2;         /* a later one: cp.async.shared.global's source */
	uint8_t vec;            /* .v2 .v4 .v8: 2, 4, 8; else 1 */
	uint8_t type_bytes;     /* the size of type, 0 without one */
	const char *type;       /* its last sized type modifier (".u32"), or NULL */
	uint8_t ntypes;         /* type modifiers, in order; types[] holds the first 4 */
	uint8_t types[4];       /* TY_*: cvt.f32.s32 is TY_F32, TY_S32 */
	uint8_t rnd;            /* RND_*, RND_NONE */
	uint8_t cmp;            /* CMP_*, CMP_NONE */
	uint16_t shape[3];      /* .m16n8k16: 16, 8, 16; .m8n8: 8, 8, 0 */
	ModSet set;             /* MOD_* bits */
	const char *unknown;    /* its first modifier no row of mods.h covers, or NULL */
	uint32_t slowpath;      /* nonzero: ptxas calls a subroutine of its own for
	                         * it, the same number for the same one (opcode.c) */
} Spelling;

const Opcode *opcode_find(const char *base, size_t n);
const Spelling *spelling_get(const char *text, size_t n);
const Spelling *spelling_of(const char *interned);
int spelling_has(const Spelling *, int mod);   /* MOD_* */
/* A memory order other than .weak (the default): .volatile, .relaxed,
 * .acquire ..., .mmio: an access another thread or the host may see. */
int spelling_ordered(const Spelling *);
void spelling_reset(void);

/* sem.c: operand roles.  ins_operand is what an instruction does with
 * its operand k: its opcode row's letter (opcodes.h), or the form's for
 * "?" rows.  ins_names calls fn for every name an instruction mentions
 * (registers, symbols, labels; not '_'), with what it does to it; names
 * inside an address are read.  Memory: ins_space is the state space its
 * modifiers name (SPACE_NONE: generic or none). */
typedef enum {
	OPND_USE, OPND_DEF, OPND_MAYDEF,  /* a value read, written, maybe written */
	OPND_LOAD, OPND_STORE, OPND_UPDATE,  /* [address]: memory read, written, both */
	OPND_NAMED,                          /* [address]: not accessed (prefetch, txq) */
} Operand;
#define OPND_IS_ADDRESS(r) ((r) >= OPND_LOAD)
typedef enum { ROLE_USE, ROLE_DEF, ROLE_MAYDEF } OpRole;
typedef void NameFn(void *ctx, const char *name, OpRole);
struct Ins;
Operand ins_operand(const struct Ins *, uint32_t k);
void ins_names(const struct Ins *, NameFn *, void *ctx);
OpRole ins_first_role(const struct Ins *);  /* what the first operand receives */
/* %r1.b0, %r1.h10 (video selectors and masks), %v.x (a vector register's
 * element): the register it is a part of (interned), NULL for any other
 * name.  ins_names reports a part as its register: read, or where the
 * part is written, maybe written (the rest is kept). */
const char *reg_of_part(const char *name);
/* What an instruction does to one register (name interned); a guard
 * reads its predicate. */
typedef struct RegAccess {
	uint8_t reads, writes, may_write;
} RegAccess;
RegAccess ins_reg_access(const struct Ins *, const char *reg);
Space ins_space(const struct Ins *);
int ins_reads_memory(const struct Ins *);
/* call (rets), callee, (args), proto: the parts present (NULL if not).
 * 0 when the instruction is no call of that shape. */
typedef struct CallParts {
	const Expr *rets, *callee, *args, *proto;  /* proto: a prototype or .calltargets label */
	uint32_t callee_index;
	int whole;   /* body_next_call: ins_call_parts read all of it */
} CallParts;
int ins_call_parts(const struct Ins *, CallParts *);
int is_sink(const Expr *);   /* "_", the operand that discards a result: not a name */
/* ld.param d, [name+off] (1) or st.param [name+off], v (0): the address
 * operand's index, with name and off; -1 for any other instruction.
 * param_moves: such an access moving what registers hold, sized elements
 * of 1 to 8 bytes ({a, b} for .v2), as a stage turning .params into
 * registers wants. */
int param_at(const struct Ins *, const char **name, int64_t *off);
int param_moves(const struct Ins *, const char **name, int64_t *off);
int ins_writes_memory(const struct Ins *);

/* Special registers (ir/sregs.h): sreg_find gives a name's SR_* and its
 * index (see sregs.h), or -1 if it names none. */
enum { SRF_ONE, SRF_XYZ, SRF_NUM, SRF_N64 };
enum {
#define SREG(name, spelling, form) SR_##name,
#include "sregs.h"
#undef SREG
	SR_COUNT
};
int sreg_find(const char *name, int *index);
int is_special_reg(const char *name);   /* %tid.x, %laneid, %envreg3, ... */
int is_predefined(const char *name);    /* a special register, or WARP_SZ */

/* ir.c: statements and modules */
typedef enum {
	S_VERSION, S_TARGET, S_ADDRSIZE, S_FILE, S_SECTION, S_PRAGMA, S_ALIAS,
	S_VAR, S_FUNC,
	S_INS, S_LABEL, S_LOC, S_SCOPE,
	S_PROTO,   /* label: .callprototype ... ; */
	S_TARGETS, /* .calltargets / .branchtargets name, ... ; */
	S_DATA,    /* .b8 1, 2, 3 inside a .section */
} StmtKind;

typedef struct Stmt Stmt;
typedef struct List {
	Stmt *head, *tail;
} List;

/* The words of declarations and function headers (ir/decls.h), decoded
 * once (decl.c).  A Spec is one declaration-specifier word: .visible
 * .global .align 8 .u32 .v4 .attribute(.managed) .ptr ...  kept in source
 * order; kind and id say what it is: a Linkage, a Space, a TY_*, a vector
 * width, a SPEC_*. */
typedef enum {
	LINK_INTERNAL,
#define LINK(name, word) LINK_##name,
#include "decls.h"
} Linkage;
enum { SW_UNKNOWN, SW_LINK, SW_SPACE, SW_TYPE, SW_VEC, SW_SPEC };
enum {
#define SPEC(name, word) SPEC_##name,
#include "decls.h"
	SPEC_COUNT
};
enum {
	FA_UNKNOWN,
#define FATTR(name, word, on) FA_##name,
#define FNUM(name, word, n, min, on) FA_##name,
#include "decls.h"
	FA_COUNT
};

typedef struct Spec {
	const char *word;  /* interned, with its dot */
	const char *num;   /* .align N: the number; otherwise NULL */
	Expr **args;       /* .attribute( args ) */
	uint32_t nargs;
	uint8_t kind, id;  /* SW_*, and which */
} Spec;

typedef struct Declarator {
	const char *name;   /* interned */
	const char *count;  /* %r<N>: N, else NULL */
	Expr **dims;        /* [N][M]; a NULL entry is [] */
	uint32_t ndims;
	Expr *init;         /* = init, or NULL */
	Loc loc;
} Declarator;

/* The fields are its words' (decl_set), never set apart from them.  The
 * space and .align after .ptr are the pointee's, not the declaration's. */
typedef struct Decl {
	Spec *specs;
	uint32_t nspecs;
	uint8_t linkage;   /* Linkage */
	uint8_t space;     /* Space; SPACE_NONE when it names none */
	uint8_t type;      /* TY_*; TY_NONE when it names none */
	uint8_t vec;       /* .v2 .v4: 2, 4; else 1 */
	Declarator *ds;
	uint32_t nds;
	uint32_t align;    /* .align N: N; 0 without one */
} Decl;

typedef struct FuncAttr { /* .maxntid 256, 1, 1   .noreturn */
	const char *word;
	const char **nums;
	uint32_t nnums;
	uint8_t id;        /* FA_*: fattr_of(word) */
} FuncAttr;

typedef struct Func {
	Spec *specs;       /* linkage words before .entry/.func (func_set_specs) */
	uint32_t nspecs;
	uint8_t linkage;   /* Linkage: theirs */
	int is_entry;
	Spec *fspecs;      /* words between .func and the name (.attribute(..), .noreturn) */
	uint32_t nfspecs;
	Decl *rets;        /* return parameters; NULL when absent */
	uint32_t nrets;
	int has_rets;      /* "()" written even if empty */
	const char *name;
	Decl *params;
	uint32_t nparams;
	int has_params;
	FuncAttr *attrs;   /* func_set_attrs */
	uint32_t nattrs;
	/* The directives' numbers (the FNUM rows of decls.h), never set apart
	 * from attrs: 0 where absent (or written 0: func_attr tells), 1 for a
	 * dimension not written; the last directive of a kind wins, as in ptxas. */
	uint32_t maxntid[3], reqntid[3], reqnctapercluster[3];
	uint32_t minnctapersm, maxnctapersm, maxnreg, maxclusterrank;
	uint32_t abi_preserve, abi_preserve_control;
	int has_body;      /* else a declaration ending in ';' */
	List body;
	/* Where objects start in its __local_depot, noted before inlining took
	 * away the calls that showed them (func_depot_starts); the inliner adds
	 * each copy's frame, the depot stage, which moves objects, forgets them. */
	int64_t *starts;
	uint32_t nstarts, cstarts;
	uint8_t starts_noted;
	/* NVVM or LLVM wrote it (their header comment): each .local
	 * variable's addresses come from one anchor, and an address computed
	 * from an array stays inside it, what the depot stage moves objects by
	 * (--trust-layout: as if every function had it) and ir/memobj.c takes
	 * a parameter's pointer for the caller's memory by.  The inliner clears
	 * it in a caller it copies a function without it into. */
	uint8_t layout_kept;
	/* A clone's original (stages/unrecurse.c), whose findings in the
	 * input excuse the clone's (ir/verify.c); NULL: its own name. */
	const char *verify_as;
} Func;

typedef struct Ins {
	const Spelling *sp;
	const char *guard;  /* predicate register or NULL */
	int guard_neg;
	uint32_t nops;
	Expr **ops;
} Ins;

typedef struct LocInfo {
	uint32_t file, line, col;
	const char *function_name;        /* NULL if absent */
	int has_inlined;
	uint32_t in_file, in_line, in_col;
} LocInfo;

typedef struct Proto {
	const char *label;
	Decl *rets;
	uint32_t nrets;
	int has_rets;
	const char *name;  /* always "_" in practice */
	Decl *params;
	uint32_t nparams;
} Proto;

struct Stmt {
	Stmt *next, *prev;
	uint8_t kind;
	Loc loc;
	union {
		Ins ins;
		Decl var;                 /* S_VAR */
		Func *func;               /* S_FUNC */
		LocInfo *locinfo;         /* S_LOC */
		List scope;               /* S_SCOPE */
		Proto *proto;             /* S_PROTO */
		const char *label;        /* S_LABEL */
		struct {                  /* S_TARGETS, S_DATA, S_ALIAS, S_TARGET */
			const char *label;    /* S_TARGETS: the label it defines */
			const char *word;     /* directive or data type, e.g. ".b8" */
			Expr **items;
			uint32_t nitems;
		} list;
		struct {                  /* S_PRAGMA (strings), S_VERSION, S_ADDRSIZE */
			const char **strs;
			uint32_t nstrs;
		} strs;
		struct {                  /* S_FILE */
			const char *index, *path, *timestamp, *size;
		} file;
		struct {                  /* S_SECTION */
			const char *name;
			List items;           /* S_DATA and S_LABEL */
		} section;
	};
};

typedef struct Module Module;
struct Module {
	Arena *arena;
	const char *path;
	List items;
	Module *owned;    /* modules whose IR this one links to, freed with it */
	Module *sibling;  /* next in the owner's list */
	int normalized;   /* ir_normalize() has run */
};

Module *mod_new(const char *path);
void mod_free(Module *);
void mod_adopt(Module *owner, Module *m);
Stmt *stmt_new(Module *, StmtKind, Loc);
void list_append(List *, Stmt *);
void list_insert_before(List *, Stmt *at, Stmt *s);
void list_remove(List *, Stmt *);
Expr *expr_unary(Module *, int op, Expr *a);
Expr *expr_binary(Module *, int op, Expr *a, Expr *b);
Expr *expr_list(Module *, ExprKind, Expr **kids, uint32_t n);
Expr *expr_call(Module *, const char *fname, Expr **kids, uint32_t n);
/* E_CALL: the function's name (interned).  It is kept as a name leaf in
 * kids[n], past the arguments, so that every Expr is 16 bytes, not 24. */
const char *expr_fname(const Expr *);
int expr_mentions(const Expr *, const char *name);   /* name interned */
Expr *expr_renamed(Module *, Expr *, const char *from, const char *to);  /* new nodes where it changes */
/* fn on the slot of every name and number in *e, left to right, until it
 * returns nonzero (returned); no recursion, whatever the depth. */
typedef int LeafFn(void *ctx, Expr **slot);
int expr_leaves(Expr **e, LeafFn *fn, void *ctx);
int ins_mentions(const struct Ins *, const char *name);
int body_mentions(const List *, const char *name);
int stmt_is_call(const Stmt *);   /* a call instruction (sem.c) */
Stmt *list_var(const List *, const char *name);   /* the S_VAR of l declaring name, or NULL */
int mod_has_dwarf(const Module *);   /* -G DWARF: a .debug_info section */
/* A declaration of def (its header, no body) put before at, a module
 * item: ptxas reads in order, and a call must follow its callee's. */
void func_declare_before(Module *, const Func *def, Stmt *at);
int str_in(const char *w, const char *const *set);   /* set ends with NULL */
int type_bytes(const char *type);  /* ".u32" -> 4; 0 if not a sized scalar type (TF_SIZED) */
int64_t decl_bytes(const Decl *, const Declarator *);  /* -1: not known */
int pointer_bytes(const Module *);  /* 4 under .address_size 32, else 8 */
int int_literal(const char *spelling, int64_t *);  /* 0 if not an integer literal */
int int_operand(const Expr *, int64_t *);   /* a literal or -literal */
int addr_name_off(const Expr *, const char **name, int64_t *off);  /* [name], [name+-C] */
Space decl_space(const Decl *);   /* its space field */
const char *decl_type(const Decl *);  /* its type's word; NULL without one */
int init_slot_size(const Decl *);  /* 4 or 8 for integer slots that can hold addresses, else 0 */
const Expr *init_elem(const Expr *init, int64_t *i);  /* the i-th scalar of nested braces */
/* The bytes a variable holds before any code runs (little-endian; zeros
 * without an initializer or past its end): 1, or 0 when an element is no
 * number (an address, generic(sym)) or the type is not a sized scalar. */
int init_image(const Decl *, const Declarator *, uint8_t *out, int64_t size);
int float_bits(const char *spelling, int bytes, uint64_t *bits);  /* 0f.., 0d.., 1.5 */

/* places.c: which list holds each statement of a function's body, found
 * once for a stage that removes or moves statements it reached another
 * way (a symbol's uses, a Cfg's instructions, an object's accesses):
 * place_of answers in constant time, never searching the body.  v holds
 * the body's statements in text order, nested scopes flattened (not the
 * S_SCOPE statements themselves), then those place_insert added.  The
 * table stays right while the statements it holds leave or move only
 * through place_remove and place_move_before; others may come and go
 * around them, but a stage that asks the table what the body holds (which
 * instructions mention a register) must add its own through place_insert.
 * place_insert may move v: a Place pointer held across it is stale.  A
 * zeroed Places is empty, and places_free empties it again. */
typedef struct Place {
	Stmt *s;       /* NULL once place_remove'd */
	List *in;      /* the list holding it */
} Place;
typedef struct Places {
	Place *v;
	uint32_t n, vcap;
	struct PlaceSlot *slot;   /* the index: statement -> its place */
	uint32_t cap;
} Places;
void places_of(Places *, List *body);
Place *place_of(const Places *, const Stmt *);  /* NULL: not in the body */
void place_insert(Places *, List *in, Stmt *before, Stmt *s);  /* before `before` in in (NULL: at its end) */
void place_remove(Place *);   /* from its list; nothing once removed */
void place_move_before(Place *, const Place *at);   /* before at's statement, in at's list */
void places_free(Places *);

/* body.c: one walk over a body in text order, into its { } scopes and
 * without recursion (see the file's header):
 *     for (Stmt *s = body_first(&f->body, &it); s; s = body_next(&it))
 * A scope statement comes before what it holds; body_skip after it is
 * given walks past what it holds.  The walk may remove the statement it
 * was given (a scope so removed is still walked into, unless skipped);
 * what it inserts right after it, the walk does not see.  The body may
 * be const: the statements come back writable, as strchr's.  A walk left
 * before its end is ended by body_end. */
typedef struct BodyLevel {
	List *in;
	Stmt *block, *next;
} BodyLevel;
enum { BODY_LOCAL = 8 };
typedef struct BodyIt {
	List *in;              /* the list holding the statement given */
	Stmt *block;           /* the { } statement whose list that is; NULL: the body's */
	uint32_t depth;        /* the scopes around it */
	const LocInfo *at;     /* the last .loc given so far, NULL before one */
	/* the walk's own */
	Stmt *cur, *next;
	const Stmt *last;
	int skip;
	BodyLevel *stack, local[BODY_LOCAL];
	uint32_t cap;
} BodyIt;
Stmt *body_first(const List *body, BodyIt *);
/* From first in list in to last (NULL: in's end), into the scopes of those */
Stmt *body_from(BodyIt *, const List *in, Stmt *first, const Stmt *last);
Stmt *body_next(BodyIt *);
void body_skip(BodyIt *);    /* the scope statement just given: not into it */
List *body_outer(const BodyIt *, uint32_t k);  /* the list k scopes out from in; NULL past the body */
/* The S_VAR declaring name (interned) in in or a list around it, the
 * innermost; NULL when none does. */
Stmt *body_var(const BodyIt *, const char *name);
void body_end(BodyIt *);
/* The call instructions of a body in text order (direct, or through a
 * register), with the walk's in and block, and what ins_call_parts reads
 * of each in *c (c->whole: all of it). */
Stmt *body_first_call(const List *body, BodyIt *, CallParts *c);
Stmt *body_next_call(BodyIt *, CallParts *c);
/* A function's __local_depot (nvcc's frame: the last one its top level
 * declares), the register the first unguarded `mov %SPL, depot` of its
 * top level writes, and the one the first `cvta.local %SP, %SPL` after
 * that writes; NULL where there is none. */
typedef struct Depot {
	Stmt *decl;
	const char *spl, *sp;
	Stmt *spl_def, *sp_def;
} Depot;
int depot_named(const char *name);   /* __local_depot, __local_depot3 ... */
Depot func_depot(const List *body);
/* The body's first statement past its leading declarations (NULL: none),
 * where a stage declares or sets what the whole body sees. */
Stmt *body_past_decls(const List *body);

/* order.c: where each module variable and function is first declared,
 * and a function's body, as places growing down the module, ORDER_STEP
 * apart: "declared before f" is order_first(name) < order_def(f), without
 * a walk of the module.  A stage that declares name before an item at
 * place p says so with order_put(o, name, p - 1); the earliest place wins. */
enum { ORDER_STEP = 16 };
typedef struct DeclOrder DeclOrder;
DeclOrder *order_build(const Module *);
int64_t order_first(const DeclOrder *, const char *name);  /* -1: not declared */
int64_t order_def(const DeclOrder *, const char *name);    /* -1: no body */
void order_put(DeclOrder *, const char *name, int64_t place);
void order_free(DeclOrder *);

/* cfg.c: basic blocks of a function's body (scopes flattened).
 * Blocks are numbered in text order, block 0 is the entry. */
typedef struct Block {
	uint32_t first, end;    /* its instructions: Cfg.ins[first .. end-1] */
	uint32_t *succ, nsucc;
	uint32_t *pred, npred;
	uint32_t idom;          /* immediate dominator (the entry's is itself);
	                           UINT32_MAX when unreachable */
	uint32_t rpo;           /* index in Cfg.order, UINT32_MAX if unreachable */
	uint8_t cyclic;         /* on a cycle: may run more than once per call */
	uint32_t cycle;         /* its strongly connected component (a block of
	                           it), UINT32_MAX when unreachable */
} Block;

typedef struct Cfg {
	Arena *arena;
	const Func *func;
	Stmt **ins;             /* the S_INS statements in order */
	uint32_t nins;
	uint32_t *block_of;     /* instruction index -> block */
	Block *blocks;
	uint32_t nblocks;
	uint32_t *order;        /* reachable blocks in reverse postorder */
	uint32_t norder;
} Cfg;

Cfg *cfg_build(const Func *);   /* NULL (after an error) on a bad label */
void cfg_free(Cfg *);
int cfg_dominates(const Cfg *, uint32_t a, uint32_t b);
struct Names;
/* How many instructions the blocks g says are unreachable hold, when
 * they may go: none of their labels is named apart from a branch (in a
 * .branchtargets list, in section data: sections, names_of_sections);
 * else 0.  cfg_drop_dead removes them, and the labels and .loc lines
 * before each (they belong to it); the last such .loc moves to the live
 * instruction after them when that has none of its own: it said that
 * instruction's line too.  g is stale after. */
uint32_t cfg_dead_size(const Cfg *g, const Func *f, const struct Names *sections);
void cfg_drop_dead(const Cfg *g, Func *f);
/* Does block b end the function: its last instruction a ret, exit or
 * trap (guarded or not), or no successor? */
int cfg_ends_function(const Cfg *, uint32_t b);
/* Each block's immediate post-dominator (malloc'd, nblocks + 1 entries):
 * index nblocks is a node past the blocks that every block ending the
 * function (ret, exit, trap, guarded or not, or no successor) goes to,
 * its own; UINT32_MAX for a block that reaches no end (a loop without
 * exit) or is unreachable. */
uint32_t *cfg_postdoms(const Cfg *);

/* loops.c: natural loops (back edges into a header that dominates
 * their source), sorted by header; the caller frees the array. */
typedef struct Loop {
	uint32_t header;        /* its header block */
	uint32_t last;          /* the last block (text order) branching back to it */
	Stmt *first;            /* the header's first instruction */
	uint8_t nounroll;       /* .pragma "nounroll" before that instruction */
} Loop;
uint32_t loops_find(const Cfg *, Loop **);
int loop_unrolled(const Loop *, uint32_t n, uint32_t i);   /* by the front end, remainder after it */
uint32_t loops_unrollable_size(const Cfg *);   /* instructions on a cycle holding no call */

/* live.c: register liveness per block; names must be interned.  The
 * registers are those the code mentions; live_in_blocks gives register
 * reg's live-in blocks, sorted. */
typedef struct Live Live;
Live *live_compute(const Cfg *);
void live_free(Live *);
int live_reg(const Live *, const char *name);   /* its index, or -1 */
int live_in(const Live *, uint32_t block, const char *name);
int live_out(const Live *, uint32_t block, const char *name);
uint32_t live_nregs(const Live *);
const char *live_name(const Live *, uint32_t reg);   /* reg < live_nregs */
uint32_t live_in_blocks(const Live *, uint32_t reg, const uint32_t **blocks);

/* addrspace.c: the window of the address a register holds where an
 * instruction reads it, when every definition reaching the read says:
 * WINDOW_LOCAL from a .local variable's name (%SPL), cvta.to.local and
 * mov/add/sub/selp of those; WINDOW_GENERIC from cvta.local (%SP) and the
 * same arithmetic; else WINDOW_UNKNOWN. */
typedef enum { WINDOW_UNKNOWN, WINDOW_LOCAL, WINDOW_GENERIC } Window;
typedef struct AddrSpaces AddrSpaces;
struct Defs;
/* mlocals: the module's .local variables (names_add_decls of each), found
 * once by the caller: a scan of the module per function is quadratic */
struct Names;
AddrSpaces *addrspace_compute(const struct Names *mlocals, const Func *, const Cfg *, const struct Defs *);
Window addrspace_at(const AddrSpaces *, uint32_t ins, const char *reg);
void addrspace_free(AddrSpaces *);

/* reguses.c: the instructions (Cfg.ins indexes) that read and that write
 * each register (a name starting with '%'; interned).  reguses_reads
 * gives reg's reads, ascending, an instruction once however often it
 * reads reg; reguses_writes how many instructions write or may write
 * reg, and the last of them in *last. */
typedef struct RegUses RegUses;
RegUses *reguses_build(const Cfg *);
void reguses_free(RegUses *);
const uint32_t *reguses_reads(const RegUses *, const char *reg, uint32_t *n);
uint32_t reguses_writes(const RegUses *, const char *reg, uint32_t *last);

/* defs.c: reaching definitions and def-use chains of registers.
 * Instruction indexes are Cfg.ins indexes; DEF_ENTRY is the value a
 * register has on entry.  The query functions return how many there are
 * and store at most max of them; defs_uses gives a definition's readers
 * in instruction order (all of them found in one walk, the first time). */
#define DEF_ENTRY UINT32_MAX
typedef struct Defs Defs;
Defs *defs_compute(const Cfg *, const Live *);
void defs_free(Defs *);
uint32_t defs_reaching(const Defs *, uint32_t ins, const char *reg, uint32_t *out, uint32_t max);
uint32_t defs_uses(const Defs *, uint32_t def_ins, const char *reg, uint32_t *out, uint32_t max);
/* A cheap stand-in, without liveness: every write of a register (or of
 * a part of it) reaches every read of it, and no entry value does.  Where
 * each register is written once (SSA-like code) and before its reads,
 * that is what reaches; elsewhere a first look only (stages/fold.c asks
 * it whether a function is worth the real analysis), or a superset of it
 * (stages/dce.c: every write of what a live instruction reads).  A
 * register is any name written (.reg .pred p too); a call writes
 * .params, none.  defs_uses: none. */
Defs *defs_writers(const Cfg *);
/* loops.c, needing Defs: the most times one-block loop b (its last
 * instruction a guarded branch back to itself) runs per entry, counted by
 * a constant counter and test; 0 unknown or over limit. */
uint32_t loop_trips(const Cfg *, const Defs *, uint32_t b, uint32_t limit);
int loop_step_of(const struct Ins *, const char *reg, int64_t *step);   /* add reg, reg, C */
/* The writes of reg reaching one-block loop b from outside, the last on
 * each way in (a set, at most max); 0 when a way in has none known. */
uint32_t loop_entry_defs(const Cfg *, const Defs *, uint32_t b, const char *reg, uint32_t *out, uint32_t max);

/* value.c: "is this operand symbol + offset (or a constant)?" at an
 * instruction.  The symbol table says which variables are constant data
 * (.const, or .global only ever loaded from). */
typedef struct Value {
	const char *sym;   /* NULL: a plain integer */
	int64_t off;
} Value;
typedef struct SymTab SymTab;   /* symtab.c, below */
typedef struct Tracker {
	const SymTab *syms;   /* NULL: follow no load, even of constant data */
	const Cfg *cfg;
	const Live *live;
	const Defs *defs;
} Tracker;
int value_of(const Tracker *, uint32_t ins, const Expr *operand, Value *);
int value_at_def(const Tracker *, uint32_t def_ins, Value *, int depth);
int value_of_const(const Expr *, Value *);  /* no registers: an initializer element */

/* demangle.c: C++ names as nvcc mangles them, for diagnostics */
const char *demangle(const char *name);     /* interned, or NULL if not one we read */
const char *quoted_name(const char *name);  /* 'name', or 'name' (demangled), interned */
const char *plain_name(const char *name);   /* name, or name (demangled), interned */

/* srcloc.c: a statement's CUDA source line (from .loc and .file), for
 * diagnostics; read once per function, looked up by the statement's Loc */
typedef struct SrcLines SrcLines;
SrcLines *srclines_build(const Module *, const Func *);
const char *srclines_prefix(SrcLines *, Loc);  /* "kernel.cu:42: ", or "" (NULL too) */
void srclines_free(SrcLines *);

/* leb128.c: DWARF's unsigned LEB128 numbers, for -G's sections. */
enum { ULEB_MAX = 10 };   /* bytes of the longest, a 64-bit value */
/* The number at p[0..n) in *v: the bytes it takes, 0 if it runs off the
 * end (or past ULEB_MAX bytes). */
uint32_t uleb_decode(const uint8_t *p, uint32_t n, uint64_t *v);
uint32_t uleb_size(uint64_t v);  /* bytes v takes unpadded */
/* v in exactly n bytes, padded: 0, or -1 when it needs more. */
int uleb_encode(uint64_t v, uint8_t *p, uint32_t n);

/* runtime.c: entry points the CUDA toolchain supplies at ptxas/nvlink time */
int is_runtime_symbol(const char *name);
int needs_cudadevrt(const char *name);
/* The pointer arguments (bit k: argument k) through which the toolchain's
 * function name only reads while the call runs, keeping nothing; 0 for any
 * other name.  Calls by such a name are the toolchain's only where the
 * module does not define it (defines_runtime). */
uint32_t runtime_reads_only(const char *name);
int defines_runtime(const Module *);

/* names.c: sets of declared names, and fresh ones beside them.  A %r<N>
 * declaration is one entry that declares %r0 .. %r<N-1>.  Names are
 * interned; a zeroed Names is empty, and names_free empties it again. */
typedef struct NameEntry NameEntry;
typedef struct Names {
	NameEntry *exact;    /* declared as themselves, by pointer */
	NameEntry *ranges;   /* %r<N>: by the base's spelling */
	NameEntry *fresh;    /* names_fresh's next suffix per base */
	NameEntry *numbered; /* exact names ending in a number: the least, by base */
	Arena *arena;
	const struct Names *outer;  /* declared too, not added to: the module's names */
} Names;
void names_add(Names *, const char *name, const char *count);  /* count: N of name<N> */
unsigned long long *names_counter(Names *, const char *key);   /* kept per key, from 1 */
/* Is no name base0 .. base<count-1> declared (nor base, nor a range of base)? */
int names_range_free(const Names *, const char *base, unsigned long long count);
void names_add_decls(Names *, const Decl *, uint32_t n);
/* what a body declares in any scope: variables, registers, labels, and
 * the labels of prototypes and .calltargets lists */
void names_of_body(Names *, const List *);
/* what code in f can see: the module's symbols, f's parameters and body */
void names_of_func(Names *, const Module *, const Func *f);
/* the module's symbols alone, and f's own as one of its functions would
 * see them: a set per function without a walk of the module each */
void names_of_module(Names *, const Module *);
void names_in_module(Names *, const Names *module, const Func *f);
/* every name a section's data holds: nvcc -G's DWARF places code by its
 * labels (.b64 $L__func_begin0) and data by its symbols.  -lineinfo's
 * .debug_str holds bytes only (its labels name strings, and so does a
 * .loc's function_name): it names no code and no symbol. */
void names_of_sections(Names *, const Module *);
int names_label_in(const Names *, const List *body);  /* a label of body (any scope) in the set */
int names_exact(const Names *, const char *name);      /* declared as itself */
int names_declared(const Names *, const char *name);   /* itself or in a range */
const char *names_type(const Names *, const char *name);  /* its declaration's type word */
/* A register's width in bits, from its declaration's type; 0 when not
 * known or not a sized type (.pred). */
int names_bits(const Names *, const Expr *);
/* A name as a member of a range %r<N>: %r15 is the stem %r (its length in
 * *stem) and 15.  0 for a name no range declares: no digits at its end,
 * nothing before them, or a 0 before more digits (%r05). */
int reg_split(const char *name, size_t *stem, unsigned long long *k);
const char *names_fresh(Names *, const char *base);    /* base, else base_1, base_2 ... */
void names_free(Names *);
/* A scope nested in f's body declares again a name (or a name of a range:
 * %r1 and %r<4>) that an enclosing scope or f's parameters declare.  Then
 * two registers share a name, and what is computed by name (liveness,
 * reaching definitions, uses) takes them for one.  In a normalized module
 * only a declaration nothing uses still can (scope.c renames the rest). */
int names_shadowed(const Func *f);

/* range.c: the unsigned values [lo, hi] an integer register can hold,
 * from the special registers' bounds (and the kernel's .maxntid and
 * .reqntid), constants and masks; the whole width where a result may wrap
 * or nothing is known.  range_of: an operand (register, special register
 * or literal) read at instruction ins as a number of bits bits;
 * range_of_def: what ins writes to its destination, in its declared
 * width.  names says the registers' types. */
typedef struct Range {
	uint64_t lo, hi;
} Range;
typedef struct Ranges Ranges;
Ranges *ranges_compute(const Func *, const Cfg *, const Defs *, const Names *);
void ranges_free(Ranges *);
Range range_of(Ranges *, uint32_t ins, const Expr *operand, int bits);
Range range_of_def(Ranges *, uint32_t ins);

/* frange.c: the values [lo, hi] an .f32 or .f64 register can hold and
 * whether it may be NaN, from float literals and conversions of integer
 * ranges (ints) through mov, abs, neg, add, sub, mul, fma, mad, min, max,
 * selp and cvt between f32 and f64; every bound widened for rounding,
 * infinite past the largest finite value.  frange_of: an operand (register
 * or literal) read at ins as a float of bits bits (32 or 64);
 * frange_of_def: what ins writes.  Anything else: [-inf, inf], may be NaN.
 * Asked of a Ranges (ranges_compute), whose analyses and lifetime they
 * share. */
typedef struct FRange {
	double lo, hi;
	int nan;   /* may be NaN */
} FRange;
FRange frange_of(Ranges *, uint32_t ins, const Expr *operand, int bits);
FRange frange_of_def(Ranges *, uint32_t ins);
/* range.c keeps frange.c's memo (each bytes per instruction), made at
 * the first question, with the analyses both walk */
void *ranges_float_memo(Ranges *, size_t each, const Cfg **, const Defs **);

/* fold.c: how many instructions of f fold once the instructions seed
 * says define constants do (say an inlined copy's reads of the parameters
 * a call passes constants): operations with no effect whose registers all
 * come from constants (the seeds not counted), and guarded branches so
 * decided.  seed gives an instruction's bits (0: not a seed); each, when
 * not NULL, is told of every instruction counted the OR of the seeds'
 * bits it comes from, and whether copies of f sharing those inputs
 * compute it once (it is on every path through f, not a branch). */
typedef uint32_t FoldSeed(void *ctx, const struct Ins *);
typedef void FoldEach(void *ctx, uint32_t from, int shared);
uint32_t fold_given(const Func *, FoldSeed *seed, void *ctx, FoldEach *each);

/* One step of a 64-bit hash over a sequence of values (samecode.c's
 * code hash, verify.c's fingerprints). */
static inline uint64_t hash_mix(uint64_t h, uint64_t x)
{
	h = (h ^ x) * 0x9e3779b97f4a7c15u;
	return h ^ (h >> 29);
}

/* samecode.c: whether two functions have the same code, renamings of
 * their own names and .loc aside, so that a call of one does what a call
 * of the other does; and a hash equal for such functions. */
int func_same_code(const Func *, const Func *);
uint64_t func_code_hash(const Func *);

/* flow.c: which functions an indirect call can reach, from where function
 * and table addresses go in the whole module (flow-insensitive).
 * flow_callees returns how many functions reg in f may hold (it stops
 * counting past max) and stores them, sorted by name, when they fit.
 * Closed worlds only. */
typedef struct Flow Flow;
Flow *flow_build(const Module *, const SymTab *);  /* which must outlive it */
void flow_free(Flow *);
int flow_callees(const Flow *, const Func *f, const char *reg, const char **out, int max);
/* Functions whose address may sit in memory (count; the first max stored). */
int flow_loose(const Flow *, const char **out, int max);
/* When all reg can hold is a value read at [q + k] with q read from memory
 * (a virtual call's pointer): the table address points q may be, with
 * their entry at +k (count, which stops a little past max; the first max
 * stored).  -1 when reg may hold anything else, or an address point
 * before that is not a .global table's. */
typedef struct FlowPoint {
	const char *table;
	int64_t off;
	const char *entry;
} FlowPoint;
int flow_slot_points(const Flow *, const Func *f, const char *reg, FlowPoint *out, int max);

/* symtab.c: the module's functions and variables by name, with what the
 * module does with each (see the file's header for the rules).  A stage
 * that adds or removes symbols or their uses rebuilds it. */
typedef enum { SYM_FUNC, SYM_VAR } SymKind;
enum { USE_READ = 1, USE_WRITE = 2, USE_CALL = 4, USE_ADDR = 8 };
typedef struct SymUse {
	Stmt *at;               /* the instruction, .calltargets, variable statement or .alias */
	const Func *in;         /* NULL in a module-scope initializer */
	uint8_t how;            /* USE_* */
} SymUse;
typedef struct Symbol {
	const char *name;
	uint32_t id;            /* its index in module order: symtab_at(t, id) */
	SymKind kind;
	Linkage linkage;        /* the definition's, else the first declaration's */
	Space space;            /* variables */
	int64_t size;           /* bytes; -1 unknown (functions, unsized arrays) */
	int align;              /* bytes; 0 unknown */
	Stmt *def;              /* the definition (body, non-extern variable, .alias) */
	Stmt *decl;             /* the first statement naming it */
	unsigned how;           /* every use's USE_* bits */
	SymUse *uses;
	uint32_t nuses, cap;
} Symbol;
SymTab *symtab_build(const Module *);
void symtab_free(SymTab *);
Symbol *symtab_find(const SymTab *, const char *name);   /* name interned */
uint32_t symtab_count(const SymTab *);
Symbol *symtab_at(const SymTab *, uint32_t i);        /* module order */
int var_align(const Decl *);   /* .align N, else the element's natural alignment */
int align_written(const Decl *);   /* .align N; 0 without one */
int64_t align_to(int64_t v, int64_t a);   /* v rounded up to a multiple of a (a <= 1: v) */

/* memobj.c: a function's .local objects (the __local_depot, named .local
 * variables in any scope) and every instruction that touches or converts
 * their addresses (see the file's header for how addresses are followed).
 * An access whose object is unknown (obj -1) may touch any object whose
 * address escapes; a .local one, any object at all.
 *
 * Inside an object, an address is its start (a root: the symbol, or a
 * register moved or cvta'd from it), then an anchor, the one place a
 * constant (or a run-time amount) is first added to a root: an add or sub,
 * or the access's own [root+C].  An anchor says where an address lands and
 * is what a stage moving bytes rewrites.  base is the constant offset when
 * a run-time amount was first added (a[i] of an array at 160: base 160,
 * a[i-1]: base 160, off 156); it is not known when different addresses
 * merge, or a pointer steps around a loop. */
typedef struct MemObj {
	const char *name;
	Stmt *decl;
	int64_t size;           /* bytes, -1 unknown */
	int align;
	int escapes;            /* its address goes where it is not followed */
} MemObj;
enum { ANCHOR_NONE = -1, ANCHOR_MANY = -2 };
typedef struct MemAnchor {
	Stmt *at;               /* an add or sub, or an access */
	uint32_t op;            /* the access's address operand; MEM_ARITH for add/sub */
	int64_t off;            /* the constant it adds to the root */
	int fixed;              /* it adds a run-time amount, or its form is not root+C */
} MemAnchor;
#define MEM_ARITH UINT32_MAX
typedef struct MemAccess {
	Stmt *at;               /* ld, st, atom, red, or cvta.local */
	uint32_t ins;           /* its index in cfg_build(f)'s order */
	int obj;                /* index in objs, -1 unknown */
	int64_t off;            /* the constant part of the offset into it */
	int exact;              /* off is the whole offset (no run-time index) */
	int width;              /* bytes touched from off; 0 for cvta */
	uint8_t how;            /* USE_READ, USE_WRITE, both; USE_ADDR for cvta */
	uint8_t generic;        /* through a generic address (cvta.local'd) */
	uint8_t base_known;
	int64_t base;           /* see above; off when exact */
	int anchor;             /* index in anchors, ANCHOR_NONE (a root), ANCHOR_MANY */
	uint8_t lent;           /* a call that keeps nothing reads the object from base on
	                         * (memobjs_build_lent): never exact, how USE_READ and
	                         * width 0 for the toolchain's, and for a module function
	                         * that indexes it how USE_READ (USE_WRITE too if it may
	                         * store), width its widest access; or, bounded, a module
	                         * function's that reads (and may write: how) at constant
	                         * offsets off .. off+width, base the address lent */
	const Stmt *via;        /* lent: the st.param that passed the address */
	uint8_t data;           /* its run-time index comes from data: a value loaded, a
	                         * parameter, a special register (bins[px >> 4]), not only
	                         * from constants stepped around loops (a[i] in a loop that
	                         * ptxas may unroll, each index a constant then) */
	uint8_t bounded;        /* not exact, but proven to touch only off .. off+spread+width
	                         * (a pointer stepped around a counted loop) */
	int64_t spread;
	uint32_t cand, ncand;   /* ncand > 0: through an address that is one of several exact
	                         * places (a phi or selp of them): MemObjs.cands[cand ..
	                         * cand+ncand), each the offset touched and its anchor; the
	                         * access is otherwise as one merged from several offsets */
} MemAccess;
typedef struct MemCand {
	int anchor;
	int64_t off;
} MemCand;
typedef struct MemEscape {  /* an object's address escaping */
	int obj;
	int base_known;
	int64_t base;           /* the offset it escapes at (its constant part) */
	int anchor;
} MemEscape;
typedef struct MemAddrDef { /* an instruction that defines an object's address */
	Stmt *at;
	uint32_t ins;
	int obj;
	uint8_t generic, root;
	int anchor;
} MemAddrDef;
typedef struct MemObjs {
	MemObj *objs;
	uint32_t nobjs, cobjs;
	MemAccess *acc;         /* in text order */
	uint32_t nacc, cacc;
	MemAnchor *anchors;
	uint32_t nanchors, canchors;
	MemEscape *esc;
	uint32_t nesc, cesc;
	MemAddrDef *defs;       /* in text order */
	uint32_t ndefs, cdefs;
	MemCand *cands;         /* MemAccess.cand's */
	uint32_t ncands, ccands;
	int partial;            /* an address chain went deeper than the walk follows:
	                           some accesses and escapes are not known */
} MemObjs;
MemObjs *memobjs_build(const Func *);
/* Which arguments of a call only lend an object, the callee keeping
 * nothing of its address (borrowers_args): the toolchain's (vprintf,
 * reads) and, asked once per function, the module's own (reads and
 * writes at constant offsets: those bytes; at run-time offsets too: the
 * object from the address on). */
typedef struct Borrowers Borrowers;
Borrowers *borrowers_build(const Module *);
uint32_t borrowers_args(Borrowers *, const char *callee);
void borrowers_free(Borrowers *);
/* memobjs_build, but an address stored only into .params of calls that
 * lend it (borrowers_args) is a lent access at each call, not an escape. */
MemObjs *memobjs_build_lent(const Func *, Borrowers *);
/* And the difference of two addresses of one object is a number, not an
 * escape (the depot stage's selects take an offset so): for who reads and
 * writes an object's bytes only, never for a stage that moves bytes,
 * which would change the difference. */
MemObjs *memobjs_build_reads(const Func *, Borrowers *);
void memobjs_free(MemObjs *);
int memobjs_depot(const MemObjs *);   /* the __local_depot's index in objs, -1 none */
/* Where objects start in object obj of size bytes, sorted, each once,
 * into out (room for nacc + nesc): an array's base where a run-time
 * index is added, an address lent or escaping.  C promises that an
 * address computed from an array stays inside it; the depot stage ends
 * such an array at the next start. */
uint32_t memobjs_starts(const MemObjs *, int obj, int64_t size, int64_t *out);
/* Where object obj's anchors that add a constant to its start land,
 * sorted, each once, into out (room for ndefs).  Under a layout NVVM or
 * LLVM wrote (Func.layout_kept: each variable's addresses come from one
 * anchor), a variable ends at or before the next of them past it. */
uint32_t memobjs_anchor_offsets(const MemObjs *, int obj, int64_t *out);
/* f's depot starts: noted (on m's arena) when first asked, from f's body
 * then; later a caller's noted before its first copy goes in keep what
 * the calls showed (an object lent to a callee starts where it is). */
const int64_t *func_depot_starts(Module *m, Func *f, Borrowers *rd, uint32_t *n);
/* Notes that an object starts at off in f's depot (its starts noted
 * first, before the change that hides what showed them). */
void func_depot_start(Module *m, Func *f, int64_t off);
/* Where the variables inside object obj end: an address at base stays
 * before the next start past it (memobjs_starts: memends_next_start,
 * INT64_MAX for none) and, under a layout NVVM or LLVM wrote
 * (layout_kept), inside its anchor's variable (memobjs_anchor_offsets:
 * memends_anchored). */
typedef struct MemEnds {
	int64_t *starts, *anchors;
	uint32_t nstarts, nanchors;
	int64_t size;
} MemEnds;
void memends_of(const MemObjs *, int obj, int layout_kept, MemEnds *);
int64_t memends_next_start(const MemEnds *, int64_t base);
/* The bytes between the anchors around offset at (0 and the object's size
 * past the first and the last): under a layout NVVM or LLVM wrote, the
 * variable an anchor at `at` forms addresses of lies within them, however
 * it is indexed (a[i - 2] through &a[2]).  A start is no bound there:
 * stack colouring gives variables with disjoint lives one start, and an
 * indexed address inside an array looks like one. */
void memends_anchored(const MemEnds *, int64_t at, int64_t *lo, int64_t *hi);
void memends_free(MemEnds *);
/* The first of n sorted values v above x (n when none is). */
uint32_t sorted_above(const int64_t *v, uint32_t n, int64_t x);
int memobjs_stored_data(const MemObjs *, int obj);   /* a store at a data index */
/* Why an access needs memory by its form (NULL: a plain ld or st at a
 * constant offset that registers could take the place of), and whether
 * an element of its value moves through a register of `bytes` bytes. */
const char *memacc_why_memory(const MemAccess *);
const char *memacc_why_form(const MemAccess *);   /* the same but for where it lands */
int memacc_value_fits(const struct Names *, const Expr *e, int bytes, int store);
/* Is every access through pointer parameter param (interned) of f at a
 * constant offset, its value going nowhere else? */
int param_offsets_constant(const Func *f, const char *param, int64_t *bytes);
/* Is every access through it a load or a store at a constant offset, at
 * or past it, its value going nowhere else?  Each, else NULL. */
typedef struct ParamAccess {
	Stmt *at;           /* an ld or st through the pointer (any space) */
	int64_t off;        /* its constant offset from it */
	int store;
	int indexed;        /* (param_accesses_indexed) a load at a run-time offset: no off */
} ParamAccess;
ParamAccess *param_exact_accesses(const Func *f, const char *param, uint32_t *n, int64_t *hi);
/* Or loads at run-time offsets too, inside the object from the pointer
 * on (C's promise), *indexed of them; nothing stored at one. */
ParamAccess *param_accesses_indexed(const Func *f, const char *param, uint32_t *n, int64_t *hi,
	uint32_t *indexed);
/* A local array loads read at run-time offsets is held in registers
 * (depot.c's selects among its elements) when it has at most
 * INDEXED_ELEMS elements of their width and its loads select among at
 * most INDEXED_SELECTS in all (the bound and why: depot.c). */
enum { INDEXED_ELEMS = 16, INDEXED_SELECTS = 48 };
/* Does f store through it at a run-time offset (a[j] = x)?  Then the
 * caller's object passed there stays in memory once the call is inlined. */
int param_stored_indexed(const Func *f, const char *param);
/* The three in one walk, and how many loads f makes through it at a
 * run-time offset (a[j]). */
typedef struct ParamReads {
	int constant;            /* param_offsets_constant */
	int64_t bytes;           /* and its *bytes */
	int stored_indexed;      /* param_stored_indexed */
	uint32_t indexed_loads;
} ParamReads;
ParamReads param_reads(const Func *f, const char *param);

/* callgraph.c: functions in module order, their direct callees, how
 * many indirect calls they make, and whether their address is taken
 * (the symbol table's USE_ADDR).  It reads the SymTab it is given, which
 * must outlive it. */
typedef struct CgFunc {
	const char *name;
	const Symbol *sym;
	const Func *def;        /* NULL for a declaration only */
	const Func *decl;       /* the definition, else the first declaration */
	const char **callees;   /* direct, each once */
	uint32_t ncallees;
	uint32_t nindirect;     /* call sites through a register */
	int address_taken;
} CgFunc;
typedef struct CallGraph CallGraph;
CallGraph *callgraph_build(const Module *, const SymTab *);
void callgraph_free(CallGraph *);
CgFunc *cg_find(const CallGraph *, const char *name);
uint32_t cg_count(const CallGraph *);
CgFunc *cg_func(const CallGraph *, uint32_t i);
uint32_t cg_index_of(const CallGraph *, const CgFunc *);   /* cg_func(cg, i) is f */
/* The call graph's strongly connected components, found when it is built
 * (scc_find): i's component; whether i can call itself, directly or
 * through others; every function, each after its callees (those on a
 * cycle with it aside). */
uint32_t cg_component(const CallGraph *, uint32_t i);
int cg_on_cycle(const CallGraph *, uint32_t i);
const uint32_t *cg_bottom_up(const CallGraph *);   /* cg_count entries */
/* Which functions (by index, malloc'd) the kernels and the roots named
 * may run: through direct calls and the .calltargets lists of indirect
 * ones; NULL when an indirect call they may run has none (a prototype
 * only: any address taken may be called).  Closed worlds only. */
uint8_t *cg_runs(const CallGraph *, const char *const *roots, uint32_t nroots);
/* Tarjan's strongly connected components of a graph of n nodes, without
 * recursion (a chain of calls is as deep as the input likes).  The edges
 * from v go to to[first[v] .. first[v + 1] - 1], in the order they are
 * followed.  Components are numbered as they complete, each after those
 * it reaches; order lists the nodes so; cyclic[v]: v reaches itself (its
 * component has another node, or it has an edge to itself).  The arrays
 * are the caller's, n entries each. */
uint32_t scc_find(uint32_t n, const uint32_t *first, const uint32_t *to, uint32_t *comp,
	uint32_t *order, uint8_t *cyclic);

/* effects.c: the functions a call of does nothing but compute its
 * results and return (see the file's header), found once for the
 * module: a call of one whose results nothing reads may go. */
typedef struct Effects Effects;
Effects *effects_build(const Module *);
int effects_none(const Effects *, const char *callee);   /* callee interned */
void effects_free(Effects *);

/* print.c */
void print_module(FILE *, const Module *);
void print_expr(FILE *, const Expr *);

/* normalize.c: the one form the linker and the stages take.  The driver
 * normalizes every input, linked or not; a normalized module guarantees:
 *   - every S_VAR statement, at module scope or in a body, declares one
 *     name (ds[0] is the whole statement);
 *   - every function parameter and return Decl declares one name (the
 *     grammar's own rule);
 *   - in a function, a spelling means one declaration (scope.c, above).
 * Stages keep these when they add code; ir_verify checks them. */
void ir_normalize(Module *);

/* scope.c: PTX's scoping rule.  A name resolves to the innermost
 * enclosing { } block that declares it (registers, function-scope
 * variables, labels alike); a function's parameters and its body's own
 * list are its outermost block, the module's symbols lie around it.
 * scope_unshare (part of ir_normalize) makes each spelling in a function
 * mean one declaration: a name declared in two blocks of a function, or
 * by a block and the module, keeps it only in the outermost block, and
 * every other declaration and the uses resolving to it take a fresh one.
 * Then every table keyed by a function's names (the CFG's labels,
 * liveness, definitions, ranges, the symbol table) is right; a module
 * without such names is left as it was.  A stage adding a block keeps
 * the form by naming what it declares afresh (names_fresh over
 * names_of_func: every block's names).  scope_check reports, for f (fs
 * its statement), each use of a name that only a block not around it
 * declares (form 0), and, once m is normalized, each name the form
 * forbids (form 1); module holds the module's symbols. */
typedef void ScopeReport(void *ctx, Loc, const char *what, int form);
void scope_unshare(Module *);
void scope_check(const Module *m, const Stmt *fs, const Names *module, ScopeReport *, void *ctx);

/* verify.c: the invariants stages must keep, checked between stages in
 * tests and debug builds; each violation is counted and reported: an
 * error naming the stage after one (ir_verify_since), else a warning
 * naming ir_verify.  Shape: lists, expressions, opcodes and operand
 * counts, the normalized form once ir_normalize has run; every parsed
 * module has it.  Code: every name an instruction uses is declared, no
 * call goes through a register no definition reaches, no register is read
 * where no definition reaches it, no call's .param is read where nothing
 * writes it, no .local window address is used by a generic access nor a
 * generic one by a .local access (addrspace.c).
 * Input may break the code rules (llc leaves undefined values as
 * registers never written), so a stage is checked against what its input
 * broke already: ir_verified records that, ir_verify_since reports only
 * what is new.  The release check of the output is the cheap part of the
 * code rules (names and reads, not windows; no shape): ir_checked records
 * what the input breaks, ir_check_output reports what is new as errors,
 * checking only the functions the stages changed (by fingerprint) and,
 * when a module name of the input has gone, the others' names too. */
int ir_verify(const Module *);         /* shape and code */
int ir_verify_shape(const Module *);
typedef struct Verified Verified;
Verified *ir_verified(const Module *);
int ir_verify_since(const Module *, const Verified *, const char *stage);
Verified *ir_checked(const Module *);
int ir_check_output(const Module *, const Verified *);
void ir_verified_free(Verified *);
/* What no valid PTX has, as the user's errors (ir_normalize runs it): a
 * name used that no block around the use declares, a call passing more or
 * fewer parameters than its callee or prototype declares.  How many. */
int ir_check_input(const Module *);


/* decl.c: the words of declarations and function headers (decls.h).
 * spec_make decodes a word (interned) once; decl_set gives a declaration
 * its words and decodes its fields from them.  Where ptxas would refuse
 * the words (.v8, .v4 .b64, .align 3, two state spaces ...), decl_set
 * returns 0 and says which word and why, for the parser to report; the
 * fields are then those of the words before it.  func_set_attrs does the
 * same for the directives after a function's parameters (.maxntid 0,
 * four numbers, .maxntid with .reqntid, .noreturn on a kernel ...).  The other setters make
 * new words (never editing an array in place: declarations share them)
 * and die() on a declaration ptxas would refuse. */
typedef struct DeclProblem {
	uint32_t at;       /* the index of the word */
	char why[96];
} DeclProblem;
Spec spec_make(const char *word, const char *num, Expr **args, uint32_t nargs);
int spec_known(const char *word);   /* a word a declaration may carry */
int fattr_of(const char *word);     /* FA_*; FA_UNKNOWN */
int decl_set(Decl *, Spec *, uint32_t n, DeclProblem *);
void decl_set_align(Module *, Decl *, uint32_t align);     /* .align N, added or changed */
void decl_set_dim(Module *, Decl *, int64_t n);           /* its one array's first dimension: n */
void decl_set_linkage(Module *, Decl *, Linkage);          /* the linkage word, first */
void func_set_specs(Func *, Spec *, uint32_t n);           /* its words before .entry/.func */
void func_set_linkage(Module *, Func *, Linkage);
int func_set_attrs(Func *, FuncAttr *, uint32_t n, DeclProblem *);  /* after is_entry */
const FuncAttr *func_attr(const Func *, int fa);           /* its first FA_*, or NULL */
int decl_check(const Decl *);       /* ir_verify: the fields are the words' */
int func_check(const Func *);       /* and a function's directives' */

/* ir.c: constructors for stages that write new code.  ins_new builds an
 * instruction from its whole spelling ("st.local.f64") and operands;
 * var_new a declaration from its words (".local .align 8 .b8") and one
 * declarator ("buf", "%r<4>" or "buf[16]").  Both die() on a malformed
 * request: it is the caller's bug, never the user's. */
Stmt *ins_new(Module *, Loc, const char *spelling, Expr **ops, uint32_t nops);
Stmt *mov_new(Module *, Loc, int bytes, Expr *to, Expr *from);   /* mov.b<8 bytes> to, from */
/* A register holding `bytes` bytes in place of memory (the inliner's
 * .param slots, the depot stage's pieces): its width, a byte in 16 bits
 * (no PTX register is narrower); and an element of load or store acc
 * moved to or from it: a mov where the widths agree, else a cvt that
 * widens a load as ld would (a read of its first bytes only truncates
 * first) or narrows a store.  v is vbits wide (0: a constant). */
int held_bits(int bytes);
Stmt *held_move(Module *, Loc, const Ins *acc, int load, Expr *v, int vbits, Expr *reg, int reg_bytes);
Stmt *var_new(Module *, Loc, const char *specs, const char *declarator);
const char *reg_new(Module *, List *body, Names *, Stmt *at, const char *base, const char *type);
Expr *int_expr(int64_t);                          /* interned decimal literal */
Expr *expr_addr(Module *, Expr *base, int64_t off);  /* [base+off], or [base] */

#endif
