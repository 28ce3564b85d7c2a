/* What a file is, by its first bytes or its name (obj.h): what users
 * give ptxlink that is not PTX. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "obj.h"

enum { EM_CUDA_ = 190 };   /* e_machine, at byte 18 (little-endian) */

static const struct { const char *magic; size_t n; ObjKind kind; } magics[] = {
	{"\x7f" "ELF", 4, OBJ_ELF},
	{"\x50\xed\x55\xba", 4, OBJ_FATBIN},
	{"BC\xc0\xde", 4, OBJ_BITCODE},
	{"!<arch>\n", 8, OBJ_ARCHIVE},
};

ObjKind obj_kind(const unsigned char *head, size_t n)
{
	if (n >= 20 && !memcmp(head, "\x7f" "ELF", 4) && head[18] == EM_CUDA_ && !head[19])
		return OBJ_CUBIN;
	for (size_t i = 0; i < sizeof magics / sizeof *magics; i++)
		if (n >= magics[i].n && !memcmp(head, magics[i].magic, magics[i].n))
			return magics[i].kind;
	return OBJ_UNKNOWN;
}

static const char *const why[] = {
	[OBJ_CUBIN] = "a cubin (CUDA ELF), not PTX: link cubins with nvlink, or give ptxlink "
		"the PTX they were compiled from",
	[OBJ_ELF] = "an ELF file (host code), not PTX",
	[OBJ_FATBIN] = "a fatbinary, not PTX",
	[OBJ_BITCODE] = "LLVM bitcode, not PTX: 'llc -march=nvptx64' makes PTX of it",
	[OBJ_ARCHIVE] = "an ar archive: name it NAME.a (or use -l) to link it as a library",
};
static const char *const sources[] = {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".o", ".obj"};

const char *obj_not_ptx(const unsigned char *head, size_t n, const char *name)
{
	ObjKind k = obj_kind(head, n);
	if (k != OBJ_UNKNOWN)
		return why[k];
	const char *dot = strrchr(name, '.');
	for (size_t i = 0; dot && i < sizeof sources / sizeof *sources; i++)
		if (!strcmp(dot, sources[i]))
			return !strcmp(dot, ".o") || !strcmp(dot, ".obj") ? "an object file, not PTX"
				: "a source file, not PTX: compile it first ('nvcc -rdc=true --ptx')";
	return NULL;
}

/* A missing file is the parser's to report: it says why it cannot read. */
const char *obj_not_ptx_file(const char *path)
{
	unsigned char head[OBJ_HEAD] = {0};
	struct stat st;
	FILE *f = strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode)
		? fopen(path, "rb") : NULL;
	if (!f)
		return NULL;
	size_t got = fread(head, 1, sizeof head, f);
	fclose(f);
	return obj_not_ptx(head, got, path);
}
