/* ipo.h: what the ipo stage's two files share, private to stages/
 * (stages.h holds the stage's entry): ipo.c, the driver, the call sites
 * and merging, constants and removals, and ipo-byvalue.c, pointer
 * parameters passed by value. */
#ifndef PTXLINK_IPO_H
#define PTXLINK_IPO_H

#include "stages.h"

enum { /* why a function is left alone */
	WHY_ALIAS, WHY_ADDR, WHY_OPEN, WHY_USE, WHY_SITE, WHY_PASSED, NWHY
};
typedef struct Stats {
	unsigned funcs, internal, left[NWHY], constants, params, results, merged, refused_const, byvalue;
} Stats;

typedef struct Callee Callee;
typedef struct Call {
	Stmt *call;
	List *list;          /* the list holding it */
	Func *caller;
	Callee *from;            /* the caller's Callee, NULL for a kernel or a function left out */
} Call;

struct Callee {
	Stmt *def;
	Func *f;
	Call *sites;
	uint32_t nsites, cap;
	int why;             /* -1: internal, every site understood */
	int gone;            /* merged into another */
	int queued;          /* to hash again: a call in it names another now */
	struct Bucket *bucket;   /* its code's, while it is not merged */
	Stmt **stmts;        /* the module's statements naming it, in order */
	uint32_t nstmts, scap;
	uint32_t first;      /* the first one's place in the module */
};

typedef struct Ipo {
	Module *m;
	const StageOptions *o;
	SymTab *t;
	Callee *fns;
	uint32_t nfns;
	int32_t *fn_of;      /* per symbol id: its Callee, or -1 */
	Stats st;
} Ipo;

void ipo_remark(const Ipo *p, Loc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* ld.param (1) or st.param (0) of name at [name+off], scalar: the address
 * operand's index, else -1. */
int ipo_param_access(const Ins *in, const char *name, int64_t *off);
enum { ANY, ARGS, RESULTS };
/* Whether some call of l (nested scopes too) other than except names
 * name: anywhere, among its arguments or among its results. */
int ipo_other_call_names(const List *l, const char *name, const Stmt *except, int where);
/* A scalar parameter: one sized type, no vector, no array. */
int ipo_scalar(const Decl *d);
/* Every statement declaring func gets these parameters and results, in
 * place (Call.caller and Call.list stay valid). */
void ipo_set_signature(Ipo *p, const char *func, Decl *params, uint32_t nparams, Decl *rets, uint32_t nrets);
/* ipo-byvalue.c */
void ipo_by_value(Ipo *p);

#endif
