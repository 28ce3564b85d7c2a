/* A fatbinary's entries (obj.h), as fatbinary 13 writes them: a 16-byte
 * container header (magic, version, its size, the entries' bytes), then
 * entries, each a header of its own size (kind, the payload's padded
 * size, the architecture, flags, the sizes of compressed data) and its
 * payload.  Read, not written: fatbinary writes them for --fatbin.
 * An entry's header, little-endian: kind (2 bytes) at 0, its own size
 * (4) at 4, the payload's padded size (8) at 8, the compressed size (4)
 * at 0x10, the architecture (4) at 0x1c, flags (8) at 0x28, the
 * uncompressed size (8) at 0x38.  Compressed payloads are unpack.c's. */
#include <string.h>
#include "obj.h"

/* Flags of an entry whose payload is compressed: 0x2000 (LZ4, older
 * fatbinary, and fatbinary 13's --compress-mode=speed) and 0x8000 (zstd,
 * fatbinary 13's default for PTX and for -compress-all). */
enum { FAT_LZ4 = 0x2000, FAT_ZSTD = 0x8000, FAT_ENTRY_MIN = 0x40 };

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static int bad(Fatbin *f, const char *why)
{
	f->why = why;
	return -1;
}

int fatbin_open(Fatbin *f, const unsigned char *d, size_t size)
{
	*f = (Fatbin){.d = d, .size = size};
	if (size < 16)
		return bad(f, "fatbinary header cut short");
	if (le(d, 4) != FATBIN_MAGIC)
		return bad(f, "not a fatbinary (wrong magic)");
	uint64_t head = le(d + 6, 2), body = le(d + 8, 8);
	if (head < 16 || head > size)
		return bad(f, "fatbinary header size out of range");
	if (body > size - head)
		return bad(f, "fatbinary's entries run past the end of its section");
	f->at = (size_t)head;
	f->end = (size_t)(head + body);
	return 0;
}

static FatZip zip_of(uint64_t flags)
{
	return flags & FAT_ZSTD ? FAT_ZIP_ZSTD : flags & FAT_LZ4 ? FAT_ZIP_LZ4 : FAT_ZIP_NONE;
}

int fatbin_next(Fatbin *f, FatEntry *e)
{
	if (f->at >= f->end)
		return 0;
	const unsigned char *h = f->d + f->at;
	size_t left = f->end - f->at;
	if (left < FAT_ENTRY_MIN)
		return bad(f, "fatbinary entry header cut short");
	uint64_t head = le(h + 4, 4), padded = le(h + 8, 8);
	if (head < FAT_ENTRY_MIN || head > left)
		return bad(f, "fatbinary entry header size out of range");
	if (padded > left - head)
		return bad(f, "fatbinary entry runs past the end of its container");
	FatZip zip = zip_of(le(h + 0x28, 8));
	*e = (FatEntry){.kind = (FatKind)le(h, 2), .arch = (unsigned)le(h + 0x1c, 4),
		.zip = zip, .compressed = zip != FAT_ZIP_NONE, .data = h + head,
		.size = (size_t)padded, .at = f->at};
	if (e->compressed) {
		e->size = (size_t)le(h + 0x10, 4);
		e->full = le(h + 0x38, 8);
	}
	if (e->size > padded)
		return bad(f, "fatbinary entry's compressed size exceeds its payload");
	f->at += (size_t)(head + padded);
	return 1;
}

size_t fatbin_rest(const Fatbin *f)
{
	return f->size - f->end;
}
