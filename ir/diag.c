/* Diagnostics for the user (error/warn with a location) and for our own
 * bugs (die).  Bad input must never reach die(). */
#include <stdlib.h>
#include <string.h>
#include "ir.h"

static const char **files;
static uint16_t nfiles;
static int nerrors;
static FILE *out;
static DiagWarnings warnmode;

uint16_t diag_file(const char *name)
{
	for (uint16_t i = 0; i < nfiles; i++)
		if (strcmp(files[i], name) == 0)
			return i + 1;
	if (nfiles == UINT16_MAX)
		die("too many input files");
	files = realloc(files, (nfiles + 1) * sizeof *files);
	if (!files)
		die("out of memory");
	files[nfiles++] = intern_cstr(name);
	return nfiles;
}

void diag_forget_files(void)
{
	free(files);
	files = NULL;
	nfiles = 0;
}

const char *diag_filename(uint16_t file)
{
	return file && file <= nfiles ? files[file - 1] : "<unknown>";
}

void diag_set_stream(FILE *f)
{
	out = f;
}

void verror(Loc loc, const char *kind, const char *fmt, va_list ap)
{
	FILE *f = out ? out : stderr;
	if (loc.file && loc.line)
		fprintf(f, "%s:%u:%u: ", diag_filename(loc.file), loc.line, loc.col);
	else if (loc.file)
		fprintf(f, "%s: ", diag_filename(loc.file));
	else
		fputs("ptxlink: ", f);  /* about the command line, not a file */
	fprintf(f, "%s: ", kind);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
}

void verror_counted(Loc loc, const char *fmt, va_list ap)
{
	verror(loc, "error", fmt, ap);
	nerrors++;
}

void error(Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror_counted(loc, fmt, ap);
	va_end(ap);
}

void diag_warnings(DiagWarnings mode)
{
	warnmode = mode;
}

/* -w drops warnings; -Werror makes each an error that fails the run. */
void warn(Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (warnmode == WARN_ERROR)
		verror_counted(loc, fmt, ap);
	else if (warnmode == WARN_SHOW)
		verror(loc, "warning", fmt, ap);
	va_end(ap);
}

int diag_errors(void)
{
	return nerrors;
}

void diag_reset(void)
{
	nerrors = 0;
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
