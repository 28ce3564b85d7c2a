/* cubin-cmp A B: are two cubins the same machine code?
 *
 * Byte-identical files are the same.  Otherwise two things in a cubin
 * follow the PTX text's layout rather than its meaning:
 * - with .loc lines ptxas embeds the PTX text itself
 *   (.nv_debug_ptx_txt.<hash of the text>) and a SASS-to-PTX-line map
 *   (.nv_debug_line_sass);
 * - a function-scope .shared/.local variable becomes a local symbol named
 *   $__<name>__<PTX line of its declaration>.
 * Those sections are skipped and those line suffixes dropped; every other
 * section, and every symbol (by name, value, size, binding and section),
 * must match exactly.
 * Exit 0: same; 1: different (first difference on stderr); 2: bad input. */
#include <stdio.h>
#include <string.h>
#include "tools/obj/obj.h"

/* Name without the parts that depend on layout: the PTX-text hash, the
 * line number of a function-scope variable. */
static void norm(const char *name, char *buf, size_t size)
{
	const char *p = ".nv_debug_ptx_txt";
	snprintf(buf, size, "%s", strncmp(name, p, strlen(p)) == 0 ? p : name);
	size_t n = strlen(buf);
	if (strncmp(buf, "$__", 3) != 0)
		return;
	size_t d = n;
	while (d > 0 && buf[d - 1] >= '0' && buf[d - 1] <= '9')
		d--;
	if (d < n && d >= 2 && buf[d - 1] == '_' && buf[d - 2] == '_')
		buf[d] = 0;
}

static int layout_only(const char *name)
{
	return strncmp(name, ".nv_debug_ptx_txt", 17) == 0 ||
		strcmp(name, ".nv_debug_line_sass") == 0 ||
		strcmp(name, ".rel.nv_debug_line_sass") == 0 ||
		strcmp(name, ".rela.nv_debug_line_sass") == 0 ||
		strcmp(name, ".shstrtab") == 0 || strcmp(name, ".strtab") == 0 ||
		strcmp(name, ".symtab") == 0;
}

static int same_symbols(const Elf *a, int ia, const Elf *b, int ib)
{
	const Elf64_Shdr *sa = &a->sh[ia], *sb = &b->sh[ib];
	if (sa->sh_size != sb->sh_size)
		return 0;
	const char *stra = (const char *)a->d + a->sh[sa->sh_link].sh_offset;
	const char *strb = (const char *)b->d + b->sh[sb->sh_link].sh_offset;
	size_t n = sa->sh_size / sizeof(Elf64_Sym);
	const Elf64_Sym *x = (const Elf64_Sym *)(a->d + sa->sh_offset);
	const Elf64_Sym *y = (const Elf64_Sym *)(b->d + sb->sh_offset);
	for (size_t i = 0; i < n; i++) {
		char na[4096], nb[4096];
		norm(stra + x[i].st_name, na, sizeof na);
		norm(strb + y[i].st_name, nb, sizeof nb);
		if (strcmp(na, nb) || x[i].st_value != y[i].st_value || x[i].st_size != y[i].st_size ||
		    x[i].st_info != y[i].st_info || x[i].st_other != y[i].st_other ||
		    x[i].st_shndx != y[i].st_shndx)
			return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	Elf a, b;
	if (argc != 3) {
		fprintf(stderr, "usage: cubin-cmp A.cubin B.cubin\n");
		return 2;
	}
	if (elf_load(argv[1], &a) || elf_load(argv[2], &b)) {
		fprintf(stderr, "cubin-cmp: cannot read both files as ELF64\n");
		return 2;
	}
	if (a.size == b.size && memcmp(a.d, b.d, a.size) == 0)
		return 0;
	if (a.eh->e_shnum != b.eh->e_shnum) {
		fprintf(stderr, "cubin-cmp: %d sections against %d\n", a.eh->e_shnum, b.eh->e_shnum);
		return 1;
	}
	for (int i = 0; i < a.eh->e_shnum; i++) {
		char na[256], nb[256];
		norm(elf_secname(&a, i), na, sizeof na);
		norm(elf_secname(&b, i), nb, sizeof nb);
		const Elf64_Shdr *x = &a.sh[i], *y = &b.sh[i];
		int same = strcmp(na, nb) == 0 && x->sh_type == y->sh_type && x->sh_flags == y->sh_flags;
		if (same && x->sh_type == SHT_SYMTAB)
			same = same_symbols(&a, i, &b, i);
		else if (same && !layout_only(na))
			same = x->sh_size == y->sh_size && (elf_nobits(x) ||
				memcmp(a.d + x->sh_offset, b.d + y->sh_offset, x->sh_size) == 0);
		if (!same) {
			fprintf(stderr, "cubin-cmp: section %d (%s / %s) differs\n", i, na, nb);
			return 1;
		}
	}
	return 0;
}
