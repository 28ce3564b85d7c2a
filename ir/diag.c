/* Diagnostics for the user (error/warn/remark with a location) and for our
 * own bugs (die).  Bad input must never reach die().  Each diagnostic is
 * formatted whole and handed to one handler: by default it is printed to
 * the stream (stderr) as file:line:col: kind: message; the library
 * (tools/lib/) installs its user's callback instead.  The file names, the
 * error count, the handler and the warning mode are the current
 * context's (ctx.c). */
#include <stdlib.h>
#include <string.h>
#include "ctx.h"

/* A Loc has 16 bits for the file: past that many names an input is
 * refused with an error, as any other bad input is.  The number is kept
 * with the interned name, so finding it costs one lookup. */
uint16_t diag_file(const char *name)
{
	Ctx *c = ctx_now();
	const char *s = intern_cstr(name);
	uint16_t file = intern_file(s);
	if (file)
		return file;
	if (c->nfiles == UINT16_MAX) {
		diag_at(DIAG_ERROR, s, 0, 0, "too many input files: at most %u names, inputs and "
			"library members, in one link", UINT16_MAX);
		return 0;
	}
	if (c->nfiles == c->capfiles) {
		c->capfiles = c->capfiles ? 2 * c->capfiles : 16;
		c->files = xreallocarray(c->files, c->capfiles, sizeof *c->files);
	}
	c->files[c->nfiles++] = s;
	intern_set_file(s, (uint16_t)c->nfiles);
	return (uint16_t)c->nfiles;
}

void diag_forget_files(void)
{
	Ctx *c = ctx_now();
	for (uint32_t i = 0; i < c->nfiles; i++)
		intern_set_file(c->files[i], 0);
	free(c->files);
	c->files = NULL;
	c->nfiles = c->capfiles = 0;
}

const char *diag_filename(uint16_t file)
{
	Ctx *c = ctx_now();
	return file && file <= c->nfiles ? c->files[file - 1] : "<unknown>";
}

void diag_set_stream(FILE *f)
{
	ctx_now()->out = f;
}

void diag_set_handler(DiagHandler *h, void *ctx)
{
	Ctx *c = ctx_now();
	c->handler = h;
	c->handler_ctx = ctx;
}

static const char *const kind_names[] = {
	[DIAG_ERROR] = "error", [DIAG_WARNING] = "warning", [DIAG_REMARK] = "remark",
	[DIAG_NOTE] = "note",
};

/* The text format the tests and users know.  Remarks name a line, not a
 * column; a note (statistics, -v) is a bare line. */
static void print_diag(DiagKind kind, const char *file, unsigned line, unsigned col,
	const char *msg)
{
	FILE *out = ctx_now()->out, *f = out ? out : stderr;
	if (kind == DIAG_NOTE)
		;
	else if (kind == DIAG_REMARK)
		fprintf(f, "%s:%u: ", file ? file : "<unknown>", line);
	else if (file && line)
		fprintf(f, "%s:%u:%u: ", file, line, col);
	else if (file)
		fprintf(f, "%s: ", file);
	else
		fputs("ptxlink: ", f);  /* about the command line, not a file */
	if (kind != DIAG_NOTE)
		fprintf(f, "%s: ", kind_names[kind]);
	fprintf(f, "%s\n", msg);
}

/* The message of fmt and ap, malloc'd. */
char *diag_vformat(const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	char *msg = xmalloc(n < 0 ? 1 : (size_t)n + 1);
	if (n < 0)
		*msg = 0;
	else
		vsnprintf(msg, (size_t)n + 1, fmt, again);
	va_end(again);
	return msg;
}

void vdiag(DiagKind kind, const char *file, unsigned line, unsigned col, const char *fmt,
	va_list ap)
{
	Ctx *c = ctx_now();
	char *msg = diag_vformat(fmt, ap);
	if (kind == DIAG_ERROR)
		c->nerrors++;
	if (c->handler)
		c->handler(c->handler_ctx, kind, file, line, col, msg);
	else
		print_diag(kind, file, line, col, msg);
	free(msg);
}

void diag_at(DiagKind kind, const char *file, unsigned line, unsigned col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(kind, file, line, col, fmt, ap);
	va_end(ap);
}

/* A Loc without a file is about the command line: no file name. */
static void vdiag_loc(DiagKind kind, Loc loc, const char *fmt, va_list ap)
{
	vdiag(kind, loc.file ? diag_filename(loc.file) : NULL, loc.file ? loc.line : 0,
		loc.file && loc.line ? loc.col : 0, fmt, ap);
}

void verror_counted(Loc loc, const char *fmt, va_list ap)
{
	vdiag_loc(DIAG_ERROR, loc, fmt, ap);
}

void error(Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag_loc(DIAG_ERROR, loc, fmt, ap);
	va_end(ap);
}

void diag_warnings(DiagWarnings mode)
{
	ctx_now()->warnmode = mode;
}

/* -w drops warnings; -Werror makes each an error that fails the run. */
void warn(Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	DiagWarnings mode = ctx_now()->warnmode;
	if (mode == WARN_ERROR)
		vdiag_loc(DIAG_ERROR, loc, fmt, ap);
	else if (mode == WARN_SHOW)
		vdiag_loc(DIAG_WARNING, loc, fmt, ap);
	va_end(ap);
}

/* A remark names a line always, as the stages' remarks always did. */
void diag_remark(Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(DIAG_REMARK, diag_filename(loc.file), loc.line, 0, fmt, ap);
	va_end(ap);
}

void diag_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(DIAG_NOTE, NULL, 0, 0, fmt, ap);
	va_end(ap);
}

int diag_errors(void)
{
	return ctx_now()->nerrors;
}

void diag_reset(void)
{
	ctx_now()->nerrors = 0;
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "ptxlink: internal error: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}
