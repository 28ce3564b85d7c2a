/* PTX grammar.  Instructions are generic ([@[!]p] opcode operand, ...;):
 * the opcode table in ir/opcodes.h knows the instructions.  Actions build
 * IR through the small constructors in build.c-style helpers below. */
%code requires {
#include "parse.h"
}

%define api.pure full
%define api.prefix {ptx}
%define parse.error custom
/* Error messages list exactly the tokens that could come next, and the
 * error is found at the token that cannot be shifted.  Canonical LR with
 * default reductions only in consistent states gives that from the tables
 * (633 states, 26 KB of tables), as LALR needs LAC for, whose check on every
 * reduction was an eighth of parse+print. */
%define lr.type canonical-lr
%define lr.default-reduction consistent
%locations
%define api.location.type {PtxLoc}
%lex-param {void *scanner}
%parse-param {void *scanner} {struct ParseState *ps}
%expect 0

%union {
	const char *str;
	Expr *e;
	Vec *vec;
	Stmt *stmt;
	List list;
	Spec *spec;
	Declarator *dcl;
	Func *func;
	Decl *decl;
	LocInfo *li;
	FuncAttr *fattr;
	int num;
}

%code {
#include <ctype.h>
#include <string.h>
#include "lexer.h"
/* A symbol starts where its first part does (an empty one, which no
 * action asks about, where the symbol before it does). */
#define YYLLOC_DEFAULT(cur, rhs, n) ((cur) = (rhs)[(n) ? 1 : 0])
#define LOC(l) ((Loc){(uint32_t)(l).first_line, (uint16_t)((l).first_column > 65535 ? 65535 : (l).first_column), ps->file})
static void ptxerror(YYLTYPE *, void *, struct ParseState *, const char *);
#include "build.h"
}

%token <str> IDENT "identifier" DOTWORD "directive" NUM "number" STRING "string"
%token VERSION ".version" TARGET ".target" ADDRSIZE ".address_size"
%token FILE_ ".file" LOC_ ".loc" SECTION ".section" PRAGMA ".pragma"
%token ALIAS ".alias" ENTRY ".entry" FUNC ".func" CALLPROTO ".callprototype"
%token CALLTARGETS ".calltargets" BRANCHTARGETS ".branchtargets"
%token ALIGN ".align" ATTRIBUTE ".attribute"
%token SHL "<<" SHR ">>" LAND "&&" LOR "||" EQ "==" NE "!=" LE "<=" GE ">="

%right '='
%left LOR
%left LAND
%left '|'
%left '^'
%left '&'
%left EQ NE
%left '<' '>' LE GE
%left SHL SHR
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%type <e> expr node init_opt expr_opt
%type <vec> exprlist exprlist_opt specs declarators dims params params_opt rets_opt paren_params
%type <vec> strlist numlist numlist_opt fattrs fattrs_opt fspecs_opt namelist
%type <list> stmts sec_items
%type <stmt> stmt top sec_item decl loc
%type <spec> spec
%type <dcl> declarator
%type <str> count_opt
%type <num> funckw
%type <fattr> fattr
%type <decl> param

%destructor { vec_free(ps, $$); } <vec>

%%

/* Between two statements no parse temporary (ps->tmp) is alive: each
 * statement's Specs, Declarators and Decls were copied into the module. */
module
	: %empty
	| module top            { if ($2) list_append(&ps->m->items, $2); arena_reset(ps->tmp); }
	;

top
	: VERSION NUM           { $$ = mk_strs(ps, S_VERSION, LOC(@1), $2); }
	| TARGET namelist       { $$ = mk_list(ps, S_TARGET, LOC(@1), NULL, ".target", $2); }
	| ADDRSIZE NUM          { $$ = mk_strs(ps, S_ADDRSIZE, LOC(@1), $2); }
	| FILE_ NUM STRING      { $$ = mk_file(ps, LOC(@1), $2, $3, NULL, NULL); }
	| FILE_ NUM STRING ',' NUM { $$ = mk_file(ps, LOC(@1), $2, $3, $5, NULL); }
	| FILE_ NUM STRING ',' NUM ',' NUM { $$ = mk_file(ps, LOC(@1), $2, $3, $5, $7); }
	| SECTION DOTWORD '{' sec_items '}' { $$ = mk_section(ps, LOC(@1), $2, $4); }
	| PRAGMA strlist ';'    { $$ = mk_pragma(ps, LOC(@1), $2); }
	| ALIAS IDENT ',' IDENT ';' { $$ = mk_alias(ps, LOC(@1), $2, $4); }
	| decl ';'              { $$ = $1; }
	| specs funckw fspecs_opt rets_opt IDENT params_opt fattrs_opt
	  { $<func>$ = mk_func(ps, $1, $2, $3, $4, $5, $6, $7);
	    /* mk_func freed the Vecs; keep %destructor off them if func_end fails */
	    $1 = $3 = $4 = $6 = $7 = NULL; } func_end
	  { $$ = func_stmt(ps, LOC(@5), $<func>8); }
	| funckw fspecs_opt rets_opt IDENT params_opt fattrs_opt
	  { $<func>$ = mk_func(ps, NULL, $1, $2, $3, $4, $5, $6);
	    $2 = $3 = $5 = $6 = NULL; } func_end
	  { $$ = func_stmt(ps, LOC(@4), $<func>7); }
	/* No yyerrok after ';': until three tokens parse again, more errors are
	 * the same mistake (a body's lines read at top level, say), so stay quiet. */
	| error ';'             { $$ = NULL; }
	| error '}'             { $$ = NULL; yyerrok; }
	/* A bad function header: still parse (and check) the body, rather
	 * than resuming at its first ';' and misreading the rest. */
	| error '{' stmts '}'   { $$ = NULL; yyerrok; }
	;

func_end
	: ';'
	| '{' stmts '}'         { $<func>0->has_body = 1; $<func>0->body = $2; }
	;

funckw
	: ENTRY                 { $$ = 1; }
	| FUNC                  { $$ = 0; }
	;

fspecs_opt
	: %empty                { $$ = NULL; }
	| specs
	;

rets_opt
	: %empty                { $$ = NULL; }
	| paren_params
	;

params_opt
	: %empty                { $$ = NULL; }
	| paren_params
	;

paren_params
	: '(' ')'               { $$ = vec_new(ps); }
	| '(' params ')'        { $$ = $2; }
	;

params
	: param                 { $$ = vec_push(vec_new(ps), $1); }
	| params ',' param      { $$ = vec_push($1, $3); }
	;

param
	: specs declarator      { $$ = mk_decl(ps, $1, vec_push(vec_new(ps), $2)); }
	;

fattrs_opt
	: %empty                { $$ = NULL; }
	| fattrs
	;

fattrs
	: fattr                 { $$ = vec_push(vec_new(ps), $1); }
	| fattrs fattr          { $$ = vec_push($1, $2); }
	;

fattr
	: DOTWORD numlist_opt   { $$ = mk_fattr(ps, LOC(@1), $1, $2); }
	;

numlist_opt
	: %empty                { $$ = NULL; }
	| numlist
	;

numlist
	: NUM                   { $$ = vec_push(vec_new(ps), (void *)$1); }
	| numlist ',' NUM       { $$ = vec_push($1, (void *)$3); }
	;

stmts
	: %empty                { $$ = (List){0}; }
	| stmts stmt            { $$ = $1; if ($2) list_append(&$$, $2); arena_reset(ps->tmp); }
	;

/* An instruction is a stmt itself, and without a guard it takes exprlist,
 * not exprlist_opt: the reduction for each chain rule was a tenth of
 * parsing.  The opcode table, not the grammar, knows the opcodes. */
stmt
	: IDENT ';'             { $$ = mk_ins(ps, LOC(@1), NULL, 0, $1, LOC(@1), NULL); }
	| IDENT exprlist ';'    { $$ = mk_ins(ps, LOC(@1), NULL, 0, $1, LOC(@1), $2); }
	| '@' IDENT IDENT exprlist_opt ';'
	                        { $$ = mk_ins(ps, LOC(@1), $2, 0, $3, LOC(@3), $4); }
	| '@' '!' IDENT IDENT exprlist_opt ';'
	                        { $$ = mk_ins(ps, LOC(@1), $3, 1, $4, LOC(@4), $5); }
	| IDENT ':'             { $$ = mk_label(ps, LOC(@1), $1); }
	| IDENT ':' CALLPROTO rets_opt IDENT params_opt ';'
	                        { $$ = mk_proto(ps, LOC(@1), $1, $4, $5, $6); }
	| IDENT ':' CALLTARGETS namelist ';'
	                        { $$ = mk_list(ps, S_TARGETS, LOC(@1), $1, ".calltargets", $4); }
	| IDENT ':' BRANCHTARGETS namelist ';'
	                        { $$ = mk_list(ps, S_TARGETS, LOC(@1), $1, ".branchtargets", $4); }
	| decl ';'
	| loc
	| PRAGMA strlist ';'    { $$ = mk_pragma(ps, LOC(@1), $2); }
	| '{' stmts '}'         { $$ = mk_scope(ps, LOC(@1), $2); }
	| error ';'             { $$ = NULL; yyerrok; }
	;

loc
	: LOC_ NUM NUM NUM      { $$ = mk_loc(ps, LOC(@1), $2, LOC(@2), $3, LOC(@3), $4, LOC(@4)); }
	| loc ',' IDENT IDENT   { $$ = loc_funcname(ps, $1, LOC(@3), $3, $4); }
	| loc ',' IDENT NUM NUM NUM { $$ = loc_inlined(ps, $1, LOC(@3), $3, $4, LOC(@4), $5, LOC(@5), $6, LOC(@6)); }
	;

decl
	: specs declarators     { $$ = var_stmt(ps, LOC(@1), mk_decl(ps, $1, $2)); }
	;

specs
	: DOTWORD               { $$ = add_spec_words(ps, vec_new(ps), LOC(@1), $1, NULL); }
	| DOTWORD NUM           { $$ = add_spec_words(ps, vec_new(ps), LOC(@1), $1, $2); }
	| spec                  { $$ = vec_push(vec_new(ps), $1); }
	| specs DOTWORD         { $$ = add_spec_words(ps, $1, LOC(@2), $2, NULL); }
	| specs DOTWORD NUM     { $$ = add_spec_words(ps, $1, LOC(@2), $2, $3); }
	| specs spec            { $$ = vec_push($1, $2); }
	;

spec
	: ALIGN NUM             { $$ = mk_spec(ps, LOC(@1), ".align", $2, NULL); }
	| ATTRIBUTE '(' exprlist ')' { $$ = mk_spec(ps, LOC(@1), ".attribute", NULL, $3); }
	;

declarators
	: declarator            { $$ = vec_push(vec_new(ps), $1); }
	| declarators ',' declarator { $$ = vec_push($1, $3); }
	;

declarator
	: IDENT count_opt dims init_opt { $$ = mk_declarator(ps, LOC(@1), $1, $2, $3, $4); }
	;

count_opt
	: %empty                { $$ = NULL; }
	| '<' NUM '>'           { $$ = $2; }
	;

dims
	: %empty                { $$ = NULL; }
	| dims '[' expr_opt ']' { $$ = vec_push($1 ? $1 : vec_new(ps), $3); }
	;

init_opt
	: %empty                { $$ = NULL; }
	| '=' expr              { $$ = $2; }
	;

sec_items
	: %empty                { $$ = (List){0}; }
	| sec_items sec_item    { $$ = $1; if ($2) list_append(&$$, $2); }
	;

sec_item
	: DOTWORD exprlist      { $$ = mk_list(ps, S_DATA, LOC(@1), NULL, $1, $2); }
	| IDENT ':'             { $$ = mk_label(ps, LOC(@1), $1); }
	;

strlist
	: STRING                { $$ = vec_push(vec_new(ps), (void *)$1); }
	| strlist ',' STRING    { $$ = vec_push($1, (void *)$3); }
	;

namelist
	: IDENT                 { $$ = vec_push(vec_new(ps), name_expr($1)); }
	| namelist ',' IDENT    { $$ = vec_push($1, name_expr($3)); }
	;

exprlist_opt
	: %empty                { $$ = NULL; }
	| exprlist
	;

/* A name or a number goes into its list in one reduction, not two (as
 * an expr, then into the list): most operands are one, and the second
 * reduction each was a tenth of parsing. */
exprlist
	: IDENT                 { $$ = vec_push(vec_new(ps), name_expr($1)); }
	| NUM                   { $$ = vec_push(vec_new(ps), num_expr($1)); }
	| node                  { $$ = vec_push(vec_new(ps), $1); }
	| exprlist ',' IDENT    { $$ = vec_push($1, name_expr($3)); }
	| exprlist ',' NUM      { $$ = vec_push($1, num_expr($3)); }
	| exprlist ',' node     { $$ = vec_push($1, $3); }
	;

expr_opt
	: %empty                { $$ = NULL; }
	| expr
	;

/* Operands (no "primary" between them and expr: one reduction fewer each). */
expr
	: IDENT                 { $$ = name_expr($1); }
	| NUM                   { $$ = num_expr($1); }
	| node
	;

/* Every operand but a plain name or number (see exprlist). */
node
	: DOTWORD               { $$ = name_expr($1); }
	| '(' exprlist_opt ')'  { $$ = mk_exprs(ps, E_PAREN, $2); }
	| '{' exprlist_opt '}'  { $$ = mk_exprs(ps, E_BRACE, $2); }
	| '[' exprlist ']'      { $$ = mk_exprs(ps, E_ADDR, $2); }
	| IDENT '(' exprlist_opt ')' { $$ = mk_callexpr(ps, $1, $3); }
	| NUM '(' exprlist ')'  { $$ = mk_callexpr(ps, $1, $3); }
	| DOTWORD '(' exprlist_opt ')' { $$ = mk_callexpr(ps, $1, $3); }
	| '-' expr %prec UNARY  { $$ = expr_unary(ps->m, '-', $2); }
	| '~' expr %prec UNARY  { $$ = expr_unary(ps->m, '~', $2); }
	| '!' expr %prec UNARY  { $$ = expr_unary(ps->m, '!', $2); }
	| expr '=' expr         { $$ = expr_binary(ps->m, '=', $1, $3); }
	| expr LOR expr         { $$ = expr_binary(ps->m, OP_LOR, $1, $3); }
	| expr LAND expr        { $$ = expr_binary(ps->m, OP_LAND, $1, $3); }
	| expr '|' expr         { $$ = expr_binary(ps->m, '|', $1, $3); }
	| expr '^' expr         { $$ = expr_binary(ps->m, '^', $1, $3); }
	| expr '&' expr         { $$ = expr_binary(ps->m, '&', $1, $3); }
	| expr EQ expr          { $$ = expr_binary(ps->m, OP_EQ, $1, $3); }
	| expr NE expr          { $$ = expr_binary(ps->m, OP_NE, $1, $3); }
	| expr '<' expr         { $$ = expr_binary(ps->m, '<', $1, $3); }
	| expr '>' expr         { $$ = expr_binary(ps->m, '>', $1, $3); }
	| expr LE expr          { $$ = expr_binary(ps->m, OP_LE, $1, $3); }
	| expr GE expr          { $$ = expr_binary(ps->m, OP_GE, $1, $3); }
	| expr SHL expr         { $$ = expr_binary(ps->m, OP_SHL, $1, $3); }
	| expr SHR expr         { $$ = expr_binary(ps->m, OP_SHR, $1, $3); }
	| expr '+' expr         { $$ = expr_binary(ps->m, '+', $1, $3); }
	| expr '-' expr         { $$ = expr_binary(ps->m, '-', $1, $3); }
	| expr '*' expr         { $$ = expr_binary(ps->m, '*', $1, $3); }
	| expr '/' expr         { $$ = expr_binary(ps->m, '/', $1, $3); }
	| expr '%' expr         { $$ = expr_binary(ps->m, '%', $1, $3); }
	;

%%

/* bison's only other message: its stack (YYMAXDEPTH, 10000) is full. */
static void ptxerror(YYLTYPE *l, void *scanner, struct ParseState *s, const char *msg)
{
	if (!strcmp(msg, "memory exhausted"))
		msg = "nested too deep: scopes, parentheses and operators nest at most about 3,000 levels";
	ps_error(s, l->first_line, l->first_column, "%s", msg);
}

/* "identifier" -> identifier, ".version" -> '.version', ';' stays. */
static const char *token_text(yysymbol_kind_t k, char *buf, size_t size)
{
	const char *name = yysymbol_name(k);
	size_t n = strlen(name);
	if (name[0] == '.' || name[0] == '<' || name[0] == '>' || name[0] == '&' ||
	    name[0] == '|' || name[0] == '=' || name[0] == '!') {
		snprintf(buf, size, "'%s'", name);
		return buf;
	}
	if (name[0] != '"' || n < 2)
		return name;
	if (name[1] == '.' || !isalpha((unsigned char)name[1]))
		snprintf(buf, size, "'%.*s'", (int)n - 2, name + 1);
	else
		snprintf(buf, size, "%.*s", (int)n - 2, name + 1);
	return buf;
}

/* Single-character tokens by their spelling: bison numbers them its own way. */
static int char_token(yysymbol_kind_t k, const char *set)
{
	const char *name = yysymbol_name(k);
	return name[0] == '\'' && name[1] && name[2] == '\'' && strchr(set, name[1]);
}

static int has_symbol(const yysymbol_kind_t *a, int n, yysymbol_kind_t k)
{
	for (int i = 0; i < n; i++)
		if (a[i] == k)
			return 1;
	return 0;
}

static int has_char(const yysymbol_kind_t *a, int n, const char *c)
{
	for (int i = 0; i < n; i++)
		if (char_token(a[i], c))
			return 1;
	return 0;
}

/* The expected tokens worth naming, at most max of them, or 0.  Where an
 * operand may start, its first tokens become one YYSYMBOL_YYUNDEF ("an
 * expression"); after an operand, the binary operators (and '(' of a call)
 * are dropped, since "expected '+'" never helps. */
static int expected_summary(const yysymbol_kind_t *all, int nall, yysymbol_kind_t *out, int max)
{
	int operand = has_symbol(all, nall, YYSYMBOL_NUM) && has_symbol(all, nall, YYSYMBOL_IDENT);
	int after = has_char(all, nall, "+") && has_char(all, nall, "*");
	int n = 0;
	if (operand)
		out[n++] = YYSYMBOL_YYUNDEF;
	for (int i = 0; i < nall; i++) {
		yysymbol_kind_t k = all[i];
		if (operand && (k == YYSYMBOL_IDENT || k == YYSYMBOL_DOTWORD || k == YYSYMBOL_NUM ||
				char_token(k, "([{-~!")))
			continue;
		if (after && (char_token(k, "=|^&<>+-*/%(") || k == YYSYMBOL_LOR || k == YYSYMBOL_LAND ||
				k == YYSYMBOL_EQ || k == YYSYMBOL_NE || k == YYSYMBOL_LE ||
				k == YYSYMBOL_GE || k == YYSYMBOL_SHL || k == YYSYMBOL_SHR))
			continue;
		if (n == max)
			return 0;
		out[n++] = k;
	}
	return n;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner, struct ParseState *ps)
{
	enum { MAXEXP = 5 };
	yysymbol_kind_t all[YYNTOKENS], exp[MAXEXP], la = yypcontext_token(ctx);
	const YYLTYPE *l = yypcontext_location(ctx);
	char msg[512], buf[64];
	int nall = yypcontext_expected_tokens(ctx, all, YYNTOKENS);
	int n = expected_summary(all, nall, exp, MAXEXP);
	int len;
	if (la == YYSYMBOL_YYEOF)
		len = snprintf(msg, sizeof msg, "unexpected end of file");
	else if (la == YYSYMBOL_IDENT || la == YYSYMBOL_DOTWORD || la == YYSYMBOL_NUM)
		len = snprintf(msg, sizeof msg, "unexpected %s '%.60s'",
			token_text(la, buf, sizeof buf), ps->tok ? ps->tok : "");
	else
		len = snprintf(msg, sizeof msg, "unexpected %s", token_text(la, buf, sizeof buf));
	for (int i = 0; i < n && n > 0 && len < (int)sizeof msg; i++)
		len += snprintf(msg + len, sizeof msg - len, "%s%s",
			i == 0 ? ", expected " : i == n - 1 ? " or " : ", ",
			exp[i] == YYSYMBOL_YYUNDEF ? "an expression" : token_text(exp[i], buf, sizeof buf));
	if (la == YYSYMBOL_YYEOF && ps->nopen > 0 && ps->nopen <= 64 && len < (int)sizeof msg)
		snprintf(msg + len, sizeof msg - len,
			n == 0 ? ", expected '}' (to close '{' at line %d)" : " (to close '{' at line %d)",
			ps->open_line[ps->nopen - 1]);
	ps_error(ps, l->first_line, l->first_column, "%s", msg);
	return 0;
}
