/* ptxlink-objects [-x DIR] FILE...: the device code the reader
 * (tools/obj/device.c) finds in host objects and archives of them, one
 * block per object:
 *
 *     lib.a(a.o): __nv_relfatbin module _df92edb8_4_a_cu_3040c4ba
 *       ptx sm_80 zstd 1878
 *       cubin sm_80 zstd 7744
 *       host kernel external _Z8launched*
 *
 * (an entry: its kind, architecture, how it was stored and its size
 * uncompressed; lto-ir entries are not read).  With -x, each entry read
 * is also written to DIR/N.sm_A.ptx or .cubin, N the object's number
 * from 0 in that order: tests/obj/objects.sh compares them with what
 * nvcc compiled.  Exit 1 after an error (on stderr), 2 on bad usage. */
#include <stdio.h>
#include <string.h>
#include "ir/ir.h"
#include "tools/obj/obj.h"

static const char *kind_name(FatKind k)
{
	return k == FAT_PTX ? "ptx" : k == FAT_ELF ? "cubin" : k == FAT_LTO ? "lto-ir" : "unknown";
}

static int extract(const char *dir, int i, const DevCode *c)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%d.sm_%u.%s", dir, i, c->arch, kind_name(c->kind));
	FILE *f = fopen(path, "wb");
	int bad = !f || fwrite(c->data, 1, c->size, f) != c->size;
	if (f && fclose(f) != 0)
		bad = 1;
	if (bad)
		fprintf(stderr, "ptxlink-objects: cannot write %s\n", path);
	return bad;
}

static int list(const DevObject *o, int i, const char *dir)
{
	static const char *const zips[] = {"plain", "lz4", "zstd"};
	int bad = 0;
	printf("%s: %s", o->name, o->section ? o->section : "no device code");
	if (o->module_id)
		printf(" module %s", o->module_id);
	printf("\n");
	for (int k = 0; k < o->ncode; k++) {
		const DevCode *c = &o->code[k];
		printf("  %s sm_%u %s", kind_name(c->kind), c->arch, zips[c->zip]);
		if (c->data)
			printf(" %zu", c->size);
		printf("\n");
		if (dir && c->data)
			bad |= extract(dir, i, c);
	}
	for (int k = 0; k < o->nrefs; k++)
		printf("  host %s %s %s\n", dev_host_kind(o->refs[k].kind),
			o->refs[k].internal ? "internal" : "external", o->refs[k].pattern);
	return bad;
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	int i = 1, bad = 0;
	if (argc > 2 && !strcmp(argv[1], "-x"))
		dir = argv[2], i = 3;
	if (i >= argc) {
		fprintf(stderr, "usage: ptxlink-objects [-x DIR] FILE...\n");
		return 2;
	}
	Ctx *ctx = ctx_new();   /* the names and the error count */
	ctx_enter(ctx);
	DevObjects ds = {0};
	for (; i < argc; i++)
		dev_read(&ds, argv[i]);
	for (uint32_t k = 0; k < ds.n; k++)
		bad |= list(&ds.obj[k], k, dir);
	dev_free(&ds);
	bad |= diag_errors() > 0;
	ctx_free(ctx);
	return bad;
}
