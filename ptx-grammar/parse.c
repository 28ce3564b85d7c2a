/* Driver for the scanner and parser: one call parses one PTX file into a
 * Module, or reports every error it can and returns NULL. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "parse.h"
#include "ptx.h"
#include "parser.h"
#include "lexer.h"

static const struct { const char *word; int tok; } keywords[] = {
	{".version", VERSION}, {".target", TARGET}, {".address_size", ADDRSIZE},
	{".file", FILE_}, {".loc", LOC_}, {".section", SECTION},
	{".pragma", PRAGMA}, {".alias", ALIAS}, {".entry", ENTRY}, {".func", FUNC},
	{".callprototype", CALLPROTO}, {".calltargets", CALLTARGETS},
	{".branchtargets", BRANCHTARGETS}, {".align", ALIGN},
	{".attribute", ATTRIBUTE},
};

int ptx_keyword(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
		if (strlen(keywords[i].word) == n && memcmp(keywords[i].word, s, n) == 0)
			return keywords[i].tok;
	return 0;
}

/* After MAX_ERRORS (or a fatal error) the scanner reads nothing more:
 * endless input ends too. */
/* ptxas takes a NUL for the end of the file; text never has one. */
void ps_nul(struct ParseState *ps, int line, int col)
{
	ps_error(ps, line, col, "NUL byte in program: not a PTX text file, reading stops here");
	ps_stop(ps);
}

size_t ps_read(struct ParseState *ps, FILE *in, char *buf, size_t max)
{
	if (ps->stop)
		return 0;
	size_t n = fread(buf, 1, max, in);
	ps->nread += n;
	if (ps->nread > PTX_MAX_INPUT) {
		error((Loc){0, 0, ps->file}, "input larger than %zu MiB: not a PTX file, reading stops",
			PTX_MAX_INPUT >> 20);
		ps->stop = 1;  /* not ps_stop: flex is filling its buffer */
		return 0;
	}
	return n;
}

/* Every parse error goes through here, so the cap holds for all. */
void ps_verror(struct ParseState *ps, Loc loc, const char *fmt, va_list ap)
{
	if (ps->stop)
		return;
	verror_counted(loc, fmt, ap);
	if (diag_errors() - ps->errors0 >= MAX_ERRORS) {
		error((Loc){0, 0, ps->file}, "too many errors, giving up");
		ps_stop(ps);
	}
}

void ps_error(struct ParseState *ps, int line, int col, const char *fmt, ...)
{
	Loc loc = {(uint32_t)line, (uint16_t)(col > 65535 ? 65535 : col), ps->file};
	va_list ap;
	va_start(ap, fmt);
	ps_verror(ps, loc, fmt, ap);
	va_end(ap);
}

void ps_open(struct ParseState *ps, int line, int col)
{
	if (ps->nopen < 64) {
		ps->open_line[ps->nopen] = line;
		ps->open_col[ps->nopen] = col;
	}
	ps->nopen++;
}

void ps_close(struct ParseState *ps)
{
	if (ps->nopen > 0)
		ps->nopen--;
}

/* A module must open with .version and then .target, as ptxas requires. */
static void check_header(struct ParseState *ps)
{
	Stmt *s = ps->m->items.head;
	Loc start = {1, 1, ps->file};
	if (!s || s->kind != S_VERSION) {
		error(s ? s->loc : start, "expected '.version' at the start of the module");
		return;
	}
	if (!s->next || s->next->kind != S_TARGET)
		error(s->next ? s->next->loc : s->loc, "expected '.target' after '.version'");
}

static Module *run(const char *name, FILE *in, const char *text, size_t len)
{
	struct ParseState ps = {0};
	ps.m = mod_new(name);
	ps.errors0 = diag_errors();
	ps.file = diag_file(name);
	if (!ps.file) {   /* out of file numbers: said so */
		mod_free(ps.m);
		return NULL;
	}
	ps.line = ps.col = 1;
	ps.tmp = arena_new();
	yyscan_t scanner;
	if (ptxlex_init_extra(&ps, &scanner))
		die("cannot initialise the scanner");
	ps.scanner = scanner;
	YY_BUFFER_STATE buf = NULL;
	if (in)
		ptxset_in(in, scanner);
	else
		buf = ptx_scan_bytes(text, (int)len, scanner);
	int rc = ptxparse(scanner, &ps);
	if (buf)
		ptx_delete_buffer(buf, scanner);
	ptxlex_destroy(scanner);
	vec_release_all(&ps);
	arena_free(ps.tmp);
	if (rc == 0 && diag_errors() == ps.errors0)
		check_header(&ps);
	if (rc != 0 || diag_errors() != ps.errors0) {
		mod_free(ps.m);
		return NULL;
	}
	arena_trim(ps.m->arena);
	return ps.m;
}

Module *ptx_parse_file(const char *path)
{
	int is_stdin = strcmp(path, "-") == 0;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	if (!f) {
		error((Loc){0, 0, diag_file(path)}, "cannot open: %s", strerror(errno));
		return NULL;
	}
	/* A directory opens fine but fails on the first read, inside the scanner. */
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		error((Loc){0, 0, diag_file(path)}, "cannot read: %s", strerror(EISDIR));
		if (!is_stdin)
			fclose(f);
		return NULL;
	}
	Module *m = run(is_stdin ? "<stdin>" : path, f, NULL, 0);
	if (ferror(f)) {
		error((Loc){0, 0, diag_file(path)}, "read error: %s", strerror(errno));
		mod_free(m);
		m = NULL;
	}
	if (!is_stdin)
		fclose(f);
	return m;
}

Module *ptx_parse_string(const char *name, const char *text, size_t len)
{
	return run(name, NULL, text, len);
}
