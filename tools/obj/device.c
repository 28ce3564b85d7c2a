/* The device code in host objects and archives of them (obj.h): what
 * nvcc -c and -dc write around a fatbinary, read as ptxlink -dlink needs
 * it.  An object's device code is its __nv_relfatbin section (nvcc -dc)
 * or .nv_fatbin (whole-program nvcc -c): one or more fatbinary
 * containers.  Beside it, __nv_module_id (the id nvcc -dlink's
 * DEFINE_REGISTER_FUNC lines name) and the host's view, six sections of
 * NUL-terminated name patterns (docs/design.md, "Host objects").
 *
 * Every size is checked before it is used, every allocation is bounded
 * by the input (fatbin_full_size), and each malformed field is one
 * error naming the file and the byte: reading stops at the object. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "ir/ir.h"
#include "obj.h"

/* Where the bytes being read are: a file or an archive's member, and
 * the offset of their first byte in the file on disk. */
typedef struct Src {
	const char *name;
	size_t base;
} Src;

static int fail(const Src *src, size_t at, const char *why)
{
	diag_at(DIAG_ERROR, src->name, 0, 0, "%s at byte %zu", why, src->base + at);
	return -1;
}

/* A new slot at the end of an arena array of *n items (grown by doubling
 * into a new block: what the old block held is at most what is kept). */
static void *grow(Arena *a, void *items, int *n, int *cap, size_t size)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 4;
		void *more = arena_alloc(a, (size_t)*cap * size);
		if (*n)
			memcpy(more, items, (size_t)*n * size);
		items = more;
	}
	return items;
}

static DevObject *new_object(DevObjects *ds, const char *name)
{
	ds->obj = array_grow(ds->obj, ds->n, &ds->cap, sizeof *ds->obj);
	DevObject *o = &ds->obj[ds->n++];
	*o = (DevObject){.name = intern_cstr(name)};
	return o;
}

static unsigned char *keep(DevObjects *ds, unsigned char *p)
{
	ds->owned = array_grow(ds->owned, ds->nowned, &ds->capowned, sizeof *ds->owned);
	return ds->owned[ds->nowned++] = p;
}

static unsigned char *own(DevObjects *ds, size_t n)
{
	return keep(ds, xmalloc(n ? n : 1));
}

/* PTX text ends at its first NUL: the payload is padded with them. */
static size_t text_len(const unsigned char *d, size_t n)
{
	const unsigned char *nul = memchr(d, 0, n);
	return nul ? (size_t)(nul - d) : n;
}

/* One entry, decompressed (LTO-IR is recorded, not read). */
static int add_entry(DevObjects *ds, DevObject *o, int *cap, const Src *src, size_t base,
	const FatEntry *e)
{
	size_t at = base + e->at;
	DevCode c = {.kind = e->kind, .arch = e->arch, .zip = e->zip, .data = e->data,
		.size = e->size, .at = src->base + at};
	if (e->kind == FAT_LTO)
		c.data = NULL, c.size = 0;
	else if (e->compressed) {
		const char *why = fatbin_full_size(e);
		if (why)
			return fail(src, at, why);
		unsigned char *out = own(ds, (size_t)e->full);
		if ((why = fatbin_unpack(e, out)))
			return fail(src, at, why);
		c.data = out, c.size = (size_t)e->full;
	}
	if (c.kind == FAT_PTX)
		c.size = text_len(c.data, c.size);
	o->code = grow(ds->arena, o->code, &o->ncode, cap, sizeof *o->code);
	o->code[o->ncode++] = c;
	return 0;
}

/* The section's containers, one after another (zero padding between). */
static int read_fatbin(DevObjects *ds, DevObject *o, const Src *src, const unsigned char *d,
	size_t size, size_t base)
{
	int cap = 0;
	for (size_t off = 0; off < size;) {
		if (!d[off]) {
			off++;
			continue;
		}
		Fatbin f;
		FatEntry e;
		if (fatbin_open(&f, d + off, size - off) != 0)
			return fail(src, base + off, f.why);
		int got;
		while ((got = fatbin_next(&f, &e)) > 0)
			if (add_entry(ds, o, &cap, src, base + off, &e) != 0)
				return -1;
		if (got < 0)
			return fail(src, base + off + f.at, f.why);
		off += f.end;
	}
	return 0;
}

static const struct { const char *name; HostKind kind; int internal; } hr[] = {
	{".nvHRKE", HOST_KERNEL, 0}, {".nvHRKI", HOST_KERNEL, 1},
	{".nvHRDE", HOST_DATA, 0}, {".nvHRDI", HOST_DATA, 1},
	{".nvHRCE", HOST_CONST, 0}, {".nvHRCI", HOST_CONST, 1},
};

/* A section of NUL-terminated names (empty ones skipped). */
static int read_refs(DevObjects *ds, DevObject *o, int *cap, const Src *src, const Elf *e,
	int i)
{
	int s = elf_section(e, hr[i].name);
	if (s < 0)
		return 0;
	const char *d = (const char *)elf_bytes(e, s);
	size_t n = e->sh[s].sh_size;
	if (!d || (n && d[n - 1]))
		return fail(src, e->sh[s].sh_offset, "host reference names unterminated");
	for (size_t at = 0; at < n; at += strlen(d + at) + 1) {
		if (!d[at])
			continue;
		o->refs = grow(ds->arena, o->refs, &o->nrefs, cap, sizeof *o->refs);
		o->refs[o->nrefs++] = (HostRef){intern_cstr(d + at), hr[i].kind, hr[i].internal};
	}
	return 0;
}

static int read_module_id(DevObject *o, const Src *src, const Elf *e)
{
	int s = elf_section(e, "__nv_module_id");
	if (s < 0)
		return 0;
	const char *d = (const char *)elf_bytes(e, s);
	size_t n = e->sh[s].sh_size;
	if (!d || !memchr(d, 0, n))
		return fail(src, e->sh[s].sh_offset, "module id unterminated");
	o->module_id = intern_cstr(d);
	return 0;
}

static int read_sections(DevObjects *ds, DevObject *o, const Src *src, const Elf *e)
{
	int s = elf_section(e, "__nv_relfatbin");
	if (s < 0)
		s = elf_section(e, ".nv_fatbin");
	if (read_module_id(o, src, e) != 0)
		return -1;
	if (s >= 0) {
		o->section = intern_cstr(elf_secname(e, s));
		const unsigned char *fb = elf_bytes(e, s);
		if (fb && read_fatbin(ds, o, src, fb, e->sh[s].sh_size, e->sh[s].sh_offset) != 0)
			return -1;
	}
	int cap = 0;
	for (size_t i = 0; i < sizeof hr / sizeof *hr; i++)
		if (read_refs(ds, o, &cap, src, e, (int)i) != 0)
			return -1;
	return 0;
}

/* A host object: its fatbinary, module id and host references; none of
 * it after an error. */
static int read_object(DevObjects *ds, const Src *src, const unsigned char *d, size_t size)
{
	Elf e;
	if (obj_kind(d, size < OBJ_HEAD ? size : OBJ_HEAD) == OBJ_CUBIN)
		return fail(src, 18, "a cubin, not a host object: nvlink links it");
	if (elf_open(&e, d, size) != 0)
		return fail(src, e.at, e.why);
	if (read_sections(ds, new_object(ds, src->name), src, &e) != 0) {
		ds->n--;
		return -1;
	}
	return 0;
}

/* An ELF file's headers are read in place: an archive member that does
 * not start 8-byte aligned (ar aligns to 2) is read from a copy, which
 * its uncompressed entries then point into. */
static int read_aligned(DevObjects *ds, const Src *src, const unsigned char *d, size_t size)
{
	if ((uintptr_t)d % 8 == 0)
		return read_object(ds, src, d, size);
	unsigned char *copy = own(ds, size);
	memcpy(copy, d, size);
	return read_object(ds, src, copy, size);
}

static int read_archive(DevObjects *ds, const char *name, const unsigned char *d, size_t size)
{
	Ar a;
	ArMember m;
	int got = 0, r = 0;
	ar_open(&a, d, size);
	while (r == 0 && (got = ar_next(&a, &m)) > 0) {
		char *shown = xmalloc(strlen(name) + strlen(m.name) + 3);
		sprintf(shown, "%s(%s)", name, m.name);
		Src src = {shown, (size_t)(m.data - d)};
		r = read_aligned(ds, &src, m.data, m.size);
		free(shown);
	}
	Src src = {name, 0};
	if (r == 0 && got < 0)
		r = fail(&src, a.at, a.why);
	ar_close(&a);
	return r;
}

int dev_read_bytes(DevObjects *ds, const char *name, const unsigned char *d, size_t size)
{
	if (!ds->arena)
		ds->arena = arena_new();
	Src src = {name, 0};
	ObjKind k = obj_kind(d, size < OBJ_HEAD ? size : OBJ_HEAD);
	if (k == OBJ_ARCHIVE)
		return read_archive(ds, name, d, size);
	if (k == OBJ_ELF || k == OBJ_CUBIN)
		return read_aligned(ds, &src, d, size);
	return fail(&src, 0, "not a host object or an archive of them");
}

int dev_read(DevObjects *ds, const char *path)
{
	size_t n;
	unsigned char *d = obj_slurp(path, &n);
	if (!d) {
		diag_at(DIAG_ERROR, path, 0, 0, "cannot read: %s", strerror(errno));
		return -1;
	}
	keep(ds, d);   /* uncompressed entries point into it */
	return dev_read_bytes(ds, path, d, n);
}

void dev_free(DevObjects *ds)
{
	for (uint32_t i = 0; i < ds->nowned; i++)
		free(ds->owned[i]);
	free(ds->owned);
	free(ds->obj);
	if (ds->arena)
		arena_free(ds->arena);
	*ds = (DevObjects){0};
}

const DevCode *dev_code(const DevObject *o, FatKind kind, unsigned arch)
{
	for (int i = 0; i < o->ncode; i++)
		if (o->code[i].kind == kind && o->code[i].arch == arch)
			return &o->code[i];
	return NULL;
}

const DevCode *dev_ptx_for(const DevObject *o, unsigned arch)
{
	const DevCode *best = NULL;
	for (int i = 0; i < o->ncode; i++) {
		const DevCode *c = &o->code[i];
		if (c->kind == FAT_PTX && c->arch <= arch && (!best || c->arch > best->arch))
			best = c;
	}
	return best;
}

int dev_relocatable(const DevObject *o)
{
	return o->section && !strcmp(o->section, "__nv_relfatbin") && o->module_id;
}

/* '*' matches any run of characters: the classic two-pointer walk, which
 * goes back only to the last star (linear for nvcc's patterns, whose
 * stars are few). */
int dev_host_match(const char *p, const char *s)
{
	const char *star = NULL, *resume = NULL;
	while (*s) {
		if (*p == '*')
			star = p++, resume = s;
		else if (*p == *s)
			p++, s++;
		else if (star)
			p = star + 1, s = ++resume;
		else
			return 0;
	}
	while (*p == '*')
		p++;
	return !*p;
}

const char *dev_host_kind(HostKind k)
{
	static const char *const names[] = {"kernel", "data", "constant"};
	return names[k];
}

/* ---- the host's references, indexed -------------------------------------- */

typedef struct HostKey {
	const char *key;         /* a pattern's text before its first '*' */
	size_t len;
	const char **patterns;   /* the patterns with that text first */
	uint32_t n, cap;
	UT_hash_handle hh;
} HostKey;

struct HostIndex {
	HostKey *keys;
	size_t *lens;            /* the keys' lengths, each once */
	uint32_t nlens, caplens;
};

static void index_pattern(HostIndex *h, const char *p)
{
	size_t len = strcspn(p, "*");
	HostKey *k;
	HASH_FIND(hh, h->keys, p, len, k);
	if (!k) {
		k = xcalloc(1, sizeof *k);
		k->key = p, k->len = len;
		HASH_ADD_KEYPTR(hh, h->keys, k->key, len, k);
		uint32_t i = 0;
		while (i < h->nlens && h->lens[i] != len)
			i++;
		if (i == h->nlens) {
			h->lens = array_grow(h->lens, h->nlens, &h->caplens, sizeof *h->lens);
			h->lens[h->nlens++] = len;
		}
	}
	k->patterns = array_grow(k->patterns, k->n, &k->cap, sizeof *k->patterns);
	k->patterns[k->n++] = p;
}

HostIndex *dev_host_index(const DevObject *const *objs, int n)
{
	HostIndex *h = xcalloc(1, sizeof *h);
	for (int i = 0; i < n; i++)
		for (int r = 0; r < objs[i]->nrefs; r++)
			index_pattern(h, objs[i]->refs[r].pattern);
	return h;
}

int dev_host_refers(const HostIndex *h, const char *name)
{
	size_t len = strlen(name);
	for (uint32_t i = 0; i < h->nlens; i++) {
		HostKey *k;
		if (h->lens[i] > len)
			continue;
		HASH_FIND(hh, h->keys, name, h->lens[i], k);
		for (uint32_t j = 0; k && j < k->n; j++)
			if (dev_host_match(k->patterns[j], name))
				return 1;
	}
	return 0;
}

void dev_host_index_free(HostIndex *h)
{
	HostKey *k, *tmp;
	if (!h)
		return;
	HASH_ITER(hh, h->keys, k, tmp) {
		HASH_DEL(h->keys, k);
		free(k->patterns);
		free(k);
	}
	free(h->lens);
	free(h);
}
