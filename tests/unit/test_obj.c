/* tools/obj/: archives, ELF sections, fatbinary entries and what a file
 * is, on bytes made here with hand-counted offsets and sizes. */
#include "unit.h"
#include "tools/obj/obj.h"

/* An ar member header: name, date, uid, gid, mode, size, "`\n". */
static size_t ar_put(unsigned char *at, const char *name, const char *data, size_t n)
{
	char h[61];
	snprintf(h, sizeof h, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0", "0", "0", "644", n);
	memcpy(at, h, 60);
	memcpy(at + 60, data, n);
	if (n & 1)
		at[60 + n++] = '\n';
	return 60 + n;
}

/* GNU's symbol table and long names, a short name, BSD's #1/LEN. */
static size_t gnu_bsd_archive(unsigned char *buf)
{
	size_t n = 8;
	memcpy(buf, "!<arch>\n", 8);
	n += ar_put(buf + n, "/", "\0\0\0\0", 4);
	n += ar_put(buf + n, "//", "a_rather_long_member.ptx/\n", 26);
	n += ar_put(buf + n, "/0", "abc", 3);   /* odd: a padding byte */
	n += ar_put(buf + n, "b.ptx/", "de", 2);
	n += ar_put(buf + n, "#1/5", "c.ptxfgh", 8);
	return n;
}

START_TEST(ar_members)
{
	unsigned char buf[1024];
	size_t n = gnu_bsd_archive(buf);
	static const char *const names[] = {"a_rather_long_member.ptx", "b.ptx", "c.ptx"};
	static const char *const datas[] = {"abc", "de", "fgh"};
	static const size_t at[] = {8 + 64 + 86, 8 + 64 + 86 + 64, 8 + 64 + 86 + 64 + 62};
	Ar a;
	ArMember m;
	ck_assert_int_eq(ar_open(&a, buf, n), 0);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(ar_next(&a, &m), 1);
		ck_assert_str_eq(m.name, names[i]);
		ck_assert_uint_eq(m.size, 3 - (i == 1));
		ck_assert_mem_eq(m.data, datas[i], m.size);
		ck_assert_uint_eq(m.at, at[i]);
	}
	ck_assert_int_eq(ar_next(&a, &m), 0);
	ar_close(&a);
	ck_assert_int_eq(ar_open(&a, (const unsigned char *)"!<arch>", 7), -1);
}
END_TEST

START_TEST(ar_malformed)
{
	unsigned char buf[1024];
	size_t n = gnu_bsd_archive(buf);
	Ar a;
	ArMember m;
	memcpy(buf + n, "xyz", 3);   /* bytes after the last member */
	ar_open(&a, buf, n + 3);
	while (ar_next(&a, &m) > 0)
		;
	ck_assert_uint_eq(ar_trailing(&a), 3);
	ar_close(&a);
	buf[8 + 64 + 86 + 58] = '!';   /* the long-named member's "`\n" */
	ar_open(&a, buf, n);
	ck_assert_int_eq(ar_next(&a, &m), -1);
	ck_assert_uint_eq(a.at, 8 + 64 + 86);
	ck_assert_uint_eq(ar_trailing(&a), 0);
	ar_close(&a);
}
END_TEST

size_t elf_image(unsigned char *buf, const char *names, size_t n, const Elf64_Shdr *sh, int nsh)
{
	memset(buf, 0, 128 + (size_t)nsh * sizeof *sh);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_shoff = 128;
	eh->e_shnum = (Elf64_Half)nsh;
	eh->e_shstrndx = 1;
	memcpy(buf + 64, names, n);
	Elf64_Shdr *h = (Elf64_Shdr *)(buf + 128);
	memcpy(h, sh, (size_t)nsh * sizeof *sh);
	h[1] = (Elf64_Shdr){.sh_name = 1, .sh_type = SHT_STRTAB, .sh_offset = 64, .sh_size = n};
	return 128 + (size_t)nsh * sizeof *sh;
}

/* Sections null, .shstrtab, .nv_fatbin (8 bytes at 96), .bss. */
static size_t small_elf(unsigned char *buf)
{
	static const char names[] = "\0.shstrtab\0.nv_fatbin\0.bss";   /* 0, 1, 11, 22 */
	static const Elf64_Shdr sh[4] = {
		[2] = {.sh_name = 11, .sh_type = SHT_PROGBITS, .sh_offset = 96, .sh_size = 8},
		[3] = {.sh_name = 22, .sh_type = SHT_NOBITS, .sh_offset = 4096, .sh_size = 64},
	};
	size_t n = elf_image(buf, names, sizeof names, sh, 4);
	memcpy(buf + 96, "FATBIN!", 8);
	return n;
}

START_TEST(elf_sections)
{
	unsigned char buf[512];
	size_t n = small_elf(buf);
	Elf e;
	ck_assert_int_eq(elf_open(&e, buf, n), 0);
	ck_assert_int_eq(elf_nsections(&e), 4);
	ck_assert_int_eq(elf_section(&e, ".nv_fatbin"), 2);
	ck_assert_int_eq(elf_section(&e, ".bss"), 3);
	ck_assert_int_eq(elf_section(&e, ".text"), -1);
	ck_assert_str_eq(elf_secname(&e, 1), ".shstrtab");
	ck_assert_str_eq((const char *)elf_bytes(&e, 2), "FATBIN!");
	ck_assert_ptr_null(elf_bytes(&e, 3));   /* NOBITS past the end is fine */
	ck_assert_int_eq(elf_open(&e, buf, n - 1), -1);   /* headers cut short */
	((Elf64_Shdr *)(buf + 128))[2].sh_size = 400;   /* bytes past the end */
	ck_assert_int_eq(elf_open(&e, buf, n), -1);
	/* A NOBITS names' table whose offset lies before the file: refused
	 * before any pointer is formed from it (the sanitizer builds see
	 * the overflow the obj fuzzer found). */
	n = small_elf(buf);
	Elf64_Shdr *names = &((Elf64_Shdr *)(buf + 128))[1];
	names->sh_type = SHT_NOBITS;
	names->sh_offset = UINT64_MAX;
	ck_assert_int_eq(elf_open(&e, buf, n), -1);
}
END_TEST

static void le_put(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

/* A container of two entries as fatbinary 13 writes them: a cubin for
 * sm_80 (a 64-byte header, 16 bytes), PTX for sm_90 compressed (an
 * 80-byte header, 5 bytes of 8 padded, 40 uncompressed). */
static size_t two_entries(unsigned char *buf)
{
	memset(buf, 0, 256);
	le_put(buf, FATBIN_MAGIC, 4), le_put(buf + 4, 1, 2), le_put(buf + 6, 16, 2);
	le_put(buf + 8, 64 + 16 + 80 + 8, 8);
	unsigned char *e = buf + 16;
	le_put(e, FAT_ELF, 2), le_put(e + 4, 64, 4), le_put(e + 8, 16, 8);
	le_put(e + 0x1c, 80, 4), le_put(e + 0x28, 0x11, 8);
	memcpy(e + 64, "\x7f" "ELF-sixteen-by", 16);
	e += 64 + 16;
	le_put(e, FAT_PTX, 2), le_put(e + 4, 80, 4), le_put(e + 8, 8, 8);
	le_put(e + 0x10, 5, 4), le_put(e + 0x1c, 90, 4), le_put(e + 0x28, 0x8011, 8);
	le_put(e + 0x38, 40, 8);
	memcpy(e + 80, "zstd!", 5);
	return 16 + 64 + 16 + 80 + 8;
}

START_TEST(fatbin_entries)
{
	unsigned char buf[256];
	size_t n = two_entries(buf);
	Fatbin f;
	FatEntry e;
	ck_assert_int_eq(fatbin_open(&f, buf, n + 4), 0);
	ck_assert_int_eq(fatbin_next(&f, &e), 1);
	ck_assert_int_eq(e.kind, FAT_ELF);
	ck_assert_uint_eq(e.arch, 80);
	ck_assert_int_eq(e.compressed, 0);
	ck_assert_uint_eq(e.size, 16);
	ck_assert_ptr_eq(e.data, buf + 16 + 64);
	ck_assert_int_eq(fatbin_next(&f, &e), 1);
	ck_assert_int_eq(e.kind, FAT_PTX);
	ck_assert_uint_eq(e.arch, 90);
	ck_assert_int_eq(e.compressed, 1);
	ck_assert_uint_eq(e.size, 5);
	ck_assert_uint_eq(e.full, 40);
	ck_assert_mem_eq(e.data, "zstd!", 5);
	ck_assert_int_eq(fatbin_next(&f, &e), 0);
	ck_assert_uint_eq(fatbin_rest(&f), 4);
	ck_assert_int_eq(fatbin_open(&f, buf, n - 1), -1);   /* the entries cut short */
	le_put(buf + 16 + 8, 200, 8);   /* the cubin's size past the container */
	ck_assert_int_eq(fatbin_open(&f, buf, n), 0);
	ck_assert_int_eq(fatbin_next(&f, &e), -1);
}
END_TEST

START_TEST(what_a_file_is)
{
	unsigned char cubin[OBJ_HEAD] = "\x7f" "ELF", host[OBJ_HEAD] = "\x7f" "ELF";
	cubin[18] = 190;   /* EM_CUDA */
	host[18] = 62;     /* EM_X86_64 */
	ck_assert_int_eq(obj_kind(cubin, OBJ_HEAD), OBJ_CUBIN);
	ck_assert_int_eq(obj_kind(cubin, 4), OBJ_ELF);   /* too short to tell */
	ck_assert_int_eq(obj_kind(host, OBJ_HEAD), OBJ_ELF);
	ck_assert_int_eq(obj_kind((const unsigned char *)"\x50\xed\x55\xba", 4), OBJ_FATBIN);
	ck_assert_int_eq(obj_kind((const unsigned char *)"BC\xc0\xde", 4), OBJ_BITCODE);
	ck_assert_int_eq(obj_kind((const unsigned char *)"!<arch>\n", 8), OBJ_ARCHIVE);
	ck_assert_int_eq(obj_kind((const unsigned char *)".version 8.0", 12), OBJ_UNKNOWN);
	ck_assert_str_eq(obj_not_ptx(host, OBJ_HEAD, "a.ptx"), "an ELF file (host code), not PTX");
	ck_assert_str_eq(obj_not_ptx((const unsigned char *)"//", 2, "k.o"), "an object file, not PTX");
	ck_assert_ptr_nonnull(strstr(obj_not_ptx((const unsigned char *)"//", 2, "k.cu"), "source"));
	ck_assert_ptr_null(obj_not_ptx((const unsigned char *)"//", 2, "k.ptx"));
}
END_TEST

Suite *obj_suite(void)
{
	Suite *s = suite_create("obj");
	TCase *tc = tcase_create("obj");
	tcase_add_test(tc, ar_members);
	tcase_add_test(tc, ar_malformed);
	tcase_add_test(tc, elf_sections);
	tcase_add_test(tc, fatbin_entries);
	tcase_add_test(tc, what_a_file_is);
	suite_add_tcase(s, tc);
	return s;
}
