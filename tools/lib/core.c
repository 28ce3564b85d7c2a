/* The work the command and libptxlink share (core.h). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "core.h"

Module *core_input(Module *m, const char *name, int verify)
{
	if (m && verify && ir_verify_shape(m) != 0)
		die("IR invariants broken after parsing %s", name);
	int errors = diag_errors();
	if (m)
		ir_normalize(m);  /* linked or not, the one form the stages take */
	if (m && diag_errors() != errors) {   /* a name it cannot give one meaning (ir/scope.c) */
		mod_free(m);
		return NULL;
	}
	return m;
}

static int links(const LinkOptions *lo, int n)
{
	return !(n == 1 && !lo->arch && !lo->strip_debug);
}

void core_settle(LinkOptions *lo, StageOptions *so, int n, int no_stages)
{
	lo->defined_later = no_stages ? NULL : stages_define;
	so->allow_undefined = lo->allow_undefined;
	/* -arch asks for a link, as nvlink's does: the result is the program */
	so->unlinked = n == 1 && !lo->arch;
	/* a link whose stages run: names dead code alone references may stay
	 * undefined, as nvlink -dlto drops unused library code first */
	lo->defer_undefined = so->check_undefined = links(lo, n) && !no_stages && !lo->allow_undefined;
}

/* One input and no -arch is not linked (nothing to link or retarget). */
Module *core_combine(Module **mods, int n, const LinkOptions *lo, int verify)
{
	if (!links(lo, n)) {
		Module *m = mods[0];
		if (link_check_symbols(m) == 0)
			return m;
		mod_free(m);
		return NULL;
	}
	Module *m = link_modules(mods, n, lo);
	if (m && verify && ir_verify_shape(m) != 0)
		die("IR invariants broken after linking");
	return m;
}

/* What users give that is not PTX, by its first bytes or its name. */
static const struct { const char *magic; size_t n; const char *what; } magics[] = {
	{"\x7f" "ELF", 4, "an ELF file (host code), not PTX"},
	{"\x50\xed\x55\xba", 4, "a fatbinary, not PTX"},
	{"BC\xc0\xde", 4, "LLVM bitcode, not PTX: 'llc -march=nvptx64' makes PTX of it"},
	{"!<arch>\n", 8, "an ar archive: name it NAME.a (or use -l) to link it as a library"},
};
static const char *const sources[] = {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".o", ".obj"};

/* NULL, or why the bytes starting head (got of them: up to 20) of the
 * file or archive member name are not PTX. */
const char *core_not_ptx_bytes(const unsigned char *head, size_t got, const char *name)
{
	enum { EM_CUDA = 190 };  /* e_machine, at byte 18 (little-endian) */
	if (got >= 20 && !memcmp(head, "\x7f" "ELF", 4) && head[18] == EM_CUDA && !head[19])
		return "a cubin (CUDA ELF), not PTX: link cubins with nvlink, or give ptxlink "
			"the PTX they were compiled from";
	for (size_t i = 0; i < sizeof magics / sizeof *magics; i++)
		if (got >= magics[i].n && !memcmp(head, magics[i].magic, magics[i].n))
			return magics[i].what;
	const char *dot = strrchr(name, '.');
	for (size_t i = 0; dot && i < sizeof sources / sizeof *sources; i++)
		if (!strcmp(dot, sources[i]))
			return !strcmp(dot, ".o") || !strcmp(dot, ".obj") ? "an object file, not PTX"
				: "a source file, not PTX: compile it first ('nvcc -rdc=true --ptx')";
	return NULL;
}

/* NULL, or why path is not PTX.  Its bytes decide when it can be read
 * again: a regular file (a pipe's would be gone, <(cmd) read without its
 * first line); else (a missing file) the parser says why it cannot. */
const char *core_not_ptx(const char *path)
{
	unsigned char head[20] = {0};
	struct stat st;
	FILE *f = strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode)
		? fopen(path, "rb") : NULL;
	if (!f)
		return NULL;
	size_t got = fread(head, 1, sizeof head, f);
	fclose(f);
	return core_not_ptx_bytes(head, got, path);
}
