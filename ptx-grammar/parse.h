/* Shared between the scanner, the parser and the driver (parse.c). */
#ifndef PTXLINK_PARSE_H
#define PTXLINK_PARSE_H

#include "ir/ir.h"

struct ParseState;

/* flex's header names the bison types without our api.prefix. */
#define YYSTYPE PTXSTYPE
#define YYLTYPE PTXLTYPE

/* Where a token or a symbol starts, all that diagnostics and Locs use:
 * bison's default type also has where it ends, twice the copying on
 * every shift and reduction. */
typedef struct PtxLoc {
	int first_line, first_column;
} PtxLoc;

/* A growable array of pointers, malloc-backed while the parser builds a
 * list and copied into the module's arena when the list is complete. */
typedef struct Vec {
	uint32_t n, cap;
	void **v;
	struct Vec *next;  /* in the parse's free list */
} Vec;

Vec *vec_new(struct ParseState *);
Vec *vec_push(Vec *, void *);
void vec_free(struct ParseState *, Vec *);
void vec_release_all(struct ParseState *);
void **vec_finish(struct ParseState *, Vec *, uint32_t *n);

struct ParseState {
	Module *m;
	uint16_t file;
	int line, col;
	int nl_line, nl_col;  /* the last line break (0: none yet) */
	int cline, ccol;      /* start of an open block comment */
	int errors0;          /* diag_errors() when this parse began */
	const char *tok;      /* text of the last name or number scanned */
	Vec *free_vecs;       /* recycled lists */
	Arena *tmp;           /* Specs, Declarators, Decls and FuncAttrs until they are
	                         copied into the module; reset between statements */
	int stop;             /* a fatal input error: read no further, report no more */
	void *scanner;        /* whose input ps_stop drops */
	size_t nread;         /* bytes read from the file so far */
	int layout_kept;      /* NVVM or LLVM wrote it (Func.layout_kept) */
	int nopen;            /* open '{' and where the innermost few began */
	int open_line[64], open_col[64];
};

void ps_error(struct ParseState *, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void ps_verror(struct ParseState *, Loc, const char *fmt, va_list);
/* Read no further: a fatal input error, or MAX_ERRORS reported. */
static inline int ps_too_many(const struct ParseState *ps)
{
	return ps->stop;
}
/* Sets stop and drops the scanner's buffered input (lexer.l), so that the
 * next token is the end of file: nothing is asked per token. */
void ps_stop(struct ParseState *);
void ps_nul(struct ParseState *, int line, int col);
size_t ps_read(struct ParseState *, FILE *, char *buf, size_t max);

/* Bigger is no PTX file, and flex's token lengths are ints. */
#define PTX_MAX_INPUT ((size_t)1 << 31)
int ptx_keyword(const char *s, size_t n);
void ps_open(struct ParseState *, int line, int col);
void ps_close(struct ParseState *);

#endif
