/* tools/obj/device.c and unpack.c: a host object made here byte by byte
 * (sections at hand-counted offsets, a fatbinary of a zstd-compressed
 * PTX entry, an LZ4-compressed cubin and an LTO-IR entry), read whole
 * and then broken one field at a time, each break one exact error. */
#include <stdlib.h>
#include <lz4.h>
#include <zstd.h>
#include "unit.h"
#include "tools/obj/obj.h"

static const char ptx[] = ".version 8.5\n.target sm_80\n.address_size 64\n"
	".visible .entry _Z1kPi(.param .u64 p)\n{\n\tret;\n}\n";
static const char cubin[] = "\x7f" "ELF cubin bytes cubin bytes cubin bytes cubin bytes";

static void le_put(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

/* An entry's header (64 bytes) and payload at e; returns its length. */
static size_t entry(unsigned char *e, FatKind kind, unsigned flags, const void *data,
	size_t n, size_t full)
{
	size_t padded = (n + 7) & ~(size_t)7;
	le_put(e, kind, 2), le_put(e + 4, 64, 4), le_put(e + 8, padded, 8);
	le_put(e + 0x10, flags & 0xa000 ? n : 0, 4), le_put(e + 0x1c, 80, 4);
	le_put(e + 0x28, flags, 8), le_put(e + 0x38, flags & 0xa000 ? full : 0, 8);
	memcpy(e + 64, data, n);
	return 64 + padded;
}

/* Sections: null, .shstrtab, __nv_module_id (512, 14), .nvHRKE (528, 9),
 * .nvHRDI (544, 17), __nv_relfatbin (576, the container); the names' offsets
 * 1, 11, 26, 34, 42. */
enum { FATBIN_AT = 576, PTX_AT = FATBIN_AT + 16 };
static size_t host_object(unsigned char *buf)
{
	static const char names[] = "\0.shstrtab\0__nv_module_id\0.nvHRKE\0.nvHRDI\0__nv_relfatbin";
	unsigned char z[512], l[512];
	size_t nz = ZSTD_compress(z, sizeof z, ptx, sizeof ptx, 3);
	size_t nl = (size_t)LZ4_compress_default(cubin, (char *)l, sizeof cubin, sizeof l);
	unsigned char *c = buf + FATBIN_AT;
	memset(c, 0, 2048);
	size_t n = 16;
	n += entry(c + n, FAT_PTX, 0x8011, z, nz, sizeof ptx);
	n += entry(c + n, FAT_ELF, 0x2011, l, nl, sizeof cubin);
	n += entry(c + n, FAT_LTO, 0x18011, "opaque!", 7, 0);
	le_put(c, FATBIN_MAGIC, 4), le_put(c + 4, 1, 2), le_put(c + 6, 16, 2), le_put(c + 8, n - 16, 8);
	Elf64_Shdr sh[6] = {
		[2] = {.sh_name = 11, .sh_type = SHT_PROGBITS, .sh_offset = 512, .sh_size = 14},
		[3] = {.sh_name = 26, .sh_type = SHT_PROGBITS, .sh_offset = 528, .sh_size = 9},
		[4] = {.sh_name = 34, .sh_type = SHT_PROGBITS, .sh_offset = 544, .sh_size = 17},
		[5] = {.sh_name = 42, .sh_type = SHT_PROGBITS, .sh_offset = FATBIN_AT, .sh_size = n},
	};
	elf_image(buf, names, sizeof names, sh, 6);
	memcpy(buf + 512, "_abc_4_k_cu_1", 14);
	memcpy(buf + 528, "_Z1k*\0ck", 9);
	memcpy(buf + 544, "\0__nv_static_*dv", 17);   /* an empty name first: skipped */
	return FATBIN_AT + n;
}

START_TEST(host_object_read)
{
	static unsigned char buf[4096] __attribute__((aligned(8)));
	size_t n = host_object(buf);
	DevObjects ds = {0};
	ck_assert_int_eq(dev_read_bytes(&ds, "k.o", buf, n), 0);
	ck_assert_int_eq(ds.n, 1);
	const DevObject *o = &ds.obj[0];
	ck_assert_str_eq(o->name, "k.o");
	ck_assert_str_eq(o->section, "__nv_relfatbin");
	ck_assert_str_eq(o->module_id, "_abc_4_k_cu_1");
	ck_assert_int_eq(o->ncode, 3);
	const DevCode *p = dev_code(o, FAT_PTX, 80), *c = dev_code(o, FAT_ELF, 80);
	ck_assert_int_eq(p->zip, FAT_ZIP_ZSTD);
	ck_assert_uint_eq(p->size, sizeof ptx - 1);   /* the text, not its NUL */
	ck_assert_mem_eq(p->data, ptx, sizeof ptx - 1);
	ck_assert_uint_eq(p->at, PTX_AT);
	ck_assert_int_eq(c->zip, FAT_ZIP_LZ4);
	ck_assert_uint_eq(c->size, sizeof cubin);
	ck_assert_mem_eq(c->data, cubin, sizeof cubin);
	ck_assert_ptr_null(dev_code(o, FAT_LTO, 80)->data);   /* recorded, not read */
	ck_assert_ptr_null(dev_code(o, FAT_PTX, 90));
	ck_assert_int_eq(o->nrefs, 3);
	ck_assert_str_eq(o->refs[0].pattern, "_Z1k*");
	ck_assert_int_eq(o->refs[0].kind, HOST_KERNEL);
	ck_assert_int_eq(o->refs[0].internal, 0);
	ck_assert_str_eq(o->refs[1].pattern, "ck");
	ck_assert_str_eq(o->refs[2].pattern, "__nv_static_*dv");
	ck_assert_int_eq(o->refs[2].kind, HOST_DATA);
	ck_assert_int_eq(o->refs[2].internal, 1);
	dev_free(&ds);
}
END_TEST

/* The diagnostics of reading bytes that must fail. */
static char *read_errors(const char *name, const unsigned char *d, size_t n)
{
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);
	DevObjects ds = {0};
	diag_set_stream(f);
	int r = dev_read_bytes(&ds, name, d, n);
	diag_set_stream(NULL);
	fclose(f);
	ck_assert_int_eq(r, -1);
	ck_assert_int_eq(ds.n, 0);   /* no half-read object */
	dev_free(&ds);
	return out;
}

#define ERRS(name, d, n, want) do { \
	char *got_ = read_errors(name, d, n); \
	ck_assert_str_eq(got_, want); \
	free(got_); \
} while (0)

START_TEST(host_object_malformed)
{
	static unsigned char buf[4096] __attribute__((aligned(8)));
	size_t n = host_object(buf);
	ERRS("k.o", buf, 40, "k.o: error: ELF header cut short at byte 40\n");
	ERRS("k.o", (const unsigned char *)"hello", 5,
		"k.o: error: not a host object or an archive of them at byte 0\n");
	ERRS("k.o", buf, 400, "k.o: error: section headers out of range at byte 40\n");
	ERRS("k.o", buf, n - 1, "k.o: error: section's bytes out of range at byte 448\n");
	buf[FATBIN_AT] ^= 1;   /* the container's magic */
	ERRS("k.o", buf, n, "k.o: error: not a fatbinary (wrong magic) at byte 576\n");
	n = host_object(buf);
	le_put(buf + PTX_AT + 0x38, (uint64_t)1 << 60, 8);   /* the uncompressed size */
	ERRS("k.o", buf, n, "k.o: error: compressed entry's uncompressed size is out of range "
		"at byte 592\n");
	n = host_object(buf);
	le_put(buf + PTX_AT + 8, 4096, 8);   /* the payload past the container */
	ERRS("k.o", buf, n, "k.o: error: fatbinary entry runs past the end of its container "
		"at byte 592\n");
	n = host_object(buf);
	le_put(buf + PTX_AT + 0x10, 20, 4);   /* the zstd frame cut short */
	ERRS("k.o", buf, n, "k.o: error: corrupt zstd data at byte 592\n");
	n = host_object(buf);
	buf[PTX_AT + 64] ^= 0xff;   /* the zstd frame's magic */
	ERRS("k.o", buf, n, "k.o: error: compressed entry is not a zstd frame at byte 592\n");
	n = host_object(buf);
	le_put(buf + PTX_AT + 0x38, sizeof ptx + 1, 8);
	ERRS("k.o", buf, n, "k.o: error: zstd frame's size differs from the entry header's "
		"uncompressed size at byte 592\n");
	n = host_object(buf);
	size_t cub = PTX_AT + 64 + buf[PTX_AT + 8];   /* after the PTX's padded payload */
	le_put(buf + cub + 0x38, sizeof cubin + 5, 8);   /* LZ4 gives fewer bytes */
	char want[128];
	snprintf(want, sizeof want, "k.o: error: decompressed size differs from the entry "
		"header's at byte %zu\n", cub);
	ERRS("k.o", buf, n, want);
	n = host_object(buf);
	buf[528 + 8] = 'x';   /* the last name's NUL */
	ERRS("k.o", buf, n, "k.o: error: host reference names unterminated at byte 528\n");
}
END_TEST

/* An archive of the object (its data at byte 68: not 8-aligned, read
 * from a copy), then broken in the object and in the member's size. */
START_TEST(archive_of_objects)
{
	static unsigned char obj[4096] __attribute__((aligned(8)));
	static unsigned char ar[8192] __attribute__((aligned(8)));
	size_t n = host_object(obj), at = 8;
	memcpy(ar, "!<arch>\n", 8);
	char h[61];
	snprintf(h, sizeof h, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", "k.o/", "0", "0", "0", "644", n);
	memcpy(ar + at, h, 60);
	memcpy(ar + at + 60, obj, n);
	at += 60 + n + (n & 1);
	DevObjects ds = {0};
	ck_assert_int_eq(dev_read_bytes(&ds, "lib.a", ar, at), 0);
	ck_assert_int_eq(ds.n, 1);
	ck_assert_str_eq(ds.obj[0].name, "lib.a(k.o)");
	ck_assert_uint_eq(dev_code(&ds.obj[0], FAT_PTX, 80)->at, 68 + PTX_AT);
	dev_free(&ds);
	ar[68 + FATBIN_AT] ^= 1;
	ERRS("lib.a", ar, at, "lib.a(k.o): error: not a fatbinary (wrong magic) at byte 644\n");
	snprintf(h, sizeof h, "%-16s%-12s%-6s%-6s%-8s%-10d`\n", "cut.o/", "0", "0", "0", "644", 500);
	memcpy(ar + 8, h, 60);   /* now the first member, 100 bytes of its 500 */
	ERRS("lib.a", ar, 8 + 60 + 100, "lib.a: error: archive member cut short at byte 8\n");
}
END_TEST

START_TEST(host_patterns)
{
	ck_assert(dev_host_match("_Z8launched*", "_Z8launchedPi"));
	ck_assert(!dev_host_match("_Z8launched*", "_Z8launche"));
	ck_assert(dev_host_match("__nv_static_25__x_*6hidden*", "__nv_static_25__x__Z6hiddenPi"));
	ck_assert(dev_host_match("__nv_static_3__x_*dv", "__nv_static_3__x_dv"));
	ck_assert(!dev_host_match("dev_used", "dev_used2"));
	ck_assert(dev_host_match("dev_used", "dev_used"));
	ck_assert(dev_host_match("a*b*c", "aXbYbZc"));
	ck_assert(!dev_host_match("a*b*c", "aXbYbZ"));
	ck_assert(dev_host_match("*", ""));
	ck_assert_str_eq(dev_host_kind(HOST_CONST), "constant");
}
END_TEST

START_TEST(ptx_to_link)
{
	DevCode code[] = {{.kind = FAT_PTX, .arch = 75}, {.kind = FAT_ELF, .arch = 80},
		{.kind = FAT_PTX, .arch = 90}, {.kind = FAT_PTX, .arch = 70}, {.kind = FAT_LTO, .arch = 100}};
	DevObject o = {.name = "a.o", .section = "__nv_relfatbin", .module_id = "_x_4_a_cu_y",
		.code = code, .ncode = 5};
	ck_assert_ptr_null(dev_ptx_for(&o, 61));            /* none old enough */
	ck_assert_ptr_eq(dev_ptx_for(&o, 70), &code[3]);
	ck_assert_ptr_eq(dev_ptx_for(&o, 80), &code[0]);    /* 75's, not the cubin's 80 */
	ck_assert_ptr_eq(dev_ptx_for(&o, 90), &code[2]);
	ck_assert_ptr_eq(dev_ptx_for(&o, 120), &code[2]);   /* LTO-IR is no PTX */
	ck_assert(dev_relocatable(&o));
	o.module_id = NULL;
	ck_assert(!dev_relocatable(&o));
	o.module_id = "__NV_MODULE_ID", o.section = ".nv_fatbin";   /* nvcc -c's */
	ck_assert(!dev_relocatable(&o));
	o.section = NULL;
	ck_assert(!dev_relocatable(&o));
}
END_TEST

/* The index finds what matching each pattern in turn finds. */
START_TEST(host_index)
{
	HostRef a[] = {{.pattern = "_Z8launched*"}, {.pattern = "dev_used"}, {.pattern = "_Z2tk*"},
		{.pattern = "_Z2tk*x"}},
		b[] = {{.pattern = "__nv_static_3__x_*dv"}, {.pattern = "*tail"}, {.pattern = "dev_used"}};
	DevObject x = {.refs = a, .nrefs = 4}, y = {.refs = b, .nrefs = 3}, none = {0};
	const DevObject *objs[] = {&x, &none, &y};
	HostIndex *h = dev_host_index(objs, 3);
	ck_assert(dev_host_refers(h, "_Z8launchedPi"));
	ck_assert(dev_host_refers(h, "dev_used"));
	ck_assert(!dev_host_refers(h, "dev_used2"));       /* exact: no more */
	ck_assert(!dev_host_refers(h, "dev_use"));
	ck_assert(dev_host_refers(h, "_Z2tkIfEvPT_"));
	ck_assert(dev_host_refers(h, "__nv_static_3__x_dv"));
	ck_assert(!dev_host_refers(h, "__nv_static_3__x_dw"));
	ck_assert(dev_host_refers(h, "a_tail"));            /* the empty text before '*' */
	ck_assert(!dev_host_refers(h, "_Z8launche"));
	ck_assert(!dev_host_refers(h, ""));
	dev_host_index_free(h);
	h = dev_host_index(objs, 0);
	ck_assert(!dev_host_refers(h, "dev_used"));
	dev_host_index_free(h);
}
END_TEST

Suite *device_suite(void)
{
	Suite *s = suite_create("device");
	TCase *tc = tcase_create("device");
	tcase_add_test(tc, host_object_read);
	tcase_add_test(tc, host_object_malformed);
	tcase_add_test(tc, archive_of_objects);
	tcase_add_test(tc, host_patterns);
	tcase_add_test(tc, ptx_to_link);
	tcase_add_test(tc, host_index);
	suite_add_tcase(s, tc);
	return s;
}
