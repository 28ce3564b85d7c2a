/* IR constructors called from the grammar's actions (build.c). */
#ifndef PTXLINK_BUILD_H
#define PTXLINK_BUILD_H

#include "parse.h"

Stmt *mk_strs(struct ParseState *, StmtKind, Loc, const char *s);
Stmt *mk_list(struct ParseState *, StmtKind, Loc, const char *label, const char *word, Vec *items);
Stmt *mk_file(struct ParseState *, Loc, const char *idx, const char *path, const char *ts, const char *size);
Stmt *mk_section(struct ParseState *, Loc, const char *name, List items);
Stmt *mk_pragma(struct ParseState *, Loc, Vec *strs);
Stmt *mk_alias(struct ParseState *, Loc, const char *a, const char *b);
Func *mk_func(struct ParseState *, Vec *specs, int entry, Vec *fspecs, Vec *rets,
	const char *name, Vec *params, Vec *fattrs);
Stmt *func_stmt(struct ParseState *, Loc, Func *);
Decl *mk_decl(struct ParseState *, Vec *specs, Vec *declarators);
Stmt *var_stmt(struct ParseState *, Loc, Decl *);
Vec *add_spec_words(struct ParseState *, Vec *specs, Loc, const char *word, const char *num);
Spec *mk_spec(struct ParseState *, Loc, const char *word, const char *num, Vec *args);
Declarator *mk_declarator(struct ParseState *, Loc, const char *name, const char *count,
	Vec *dims, Expr *init);
FuncAttr *mk_fattr(struct ParseState *, Loc, const char *word, Vec *nums);
Stmt *mk_label(struct ParseState *, Loc, const char *name);
Stmt *mk_proto(struct ParseState *, Loc, const char *label, Vec *rets, const char *name, Vec *params);
Stmt *mk_scope(struct ParseState *, Loc, List);
Stmt *mk_ins(struct ParseState *, Loc, const char *guard, int neg, const char *opcode,
	Loc oploc, Vec *ops);
Stmt *mk_loc(struct ParseState *, Loc, const char *file, Loc, const char *line, Loc,
	const char *col, Loc);
Stmt *loc_funcname(struct ParseState *, Stmt *, Loc, const char *kw, const char *name);
Stmt *loc_inlined(struct ParseState *, Stmt *, Loc, const char *kw, const char *file, Loc,
	const char *line, Loc, const char *col, Loc);
Expr *mk_exprs(struct ParseState *, ExprKind, Vec *);
Expr *mk_callexpr(struct ParseState *, const char *name, Vec *);

#endif
