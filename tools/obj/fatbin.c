/* A fatbinary's entries (obj.h), as fatbinary 13 writes them: a 16-byte
 * container header (magic, version, its size, the entries' bytes), then
 * entries, each a header of its own size (kind, the payload's padded
 * size, the architecture, flags, the sizes of compressed data) and its
 * payload.  Read, not written: fatbinary writes them for --fatbin.
 * An entry's header, little-endian: kind (2 bytes) at 0, its own size
 * (4) at 4, the payload's padded size (8) at 8, the compressed size (4)
 * at 0x10, the architecture (4) at 0x1c, flags (8) at 0x28, the
 * uncompressed size (8) at 0x38. */
#include <string.h>
#include "obj.h"

/* Flags of an entry whose payload is compressed: 0x2000 (LZ4, older
 * fatbinary) and 0x8000 (zstd, fatbinary 13's -compress-all and its PTX). */
enum { FAT_COMPRESSED = 0x2000 | 0x8000, FAT_ENTRY_MIN = 0x40 };

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

int fatbin_open(Fatbin *f, const unsigned char *d, size_t size)
{
	*f = (Fatbin){.d = d, .size = size};
	if (size < 16 || le(d, 4) != FATBIN_MAGIC)
		return -1;
	size_t head = (size_t)le(d + 6, 2), body = (size_t)le(d + 8, 8);
	if (head < 16 || head > size || body > size - head)
		return -1;
	f->at = head;
	f->end = head + body;
	return 0;
}

int fatbin_next(Fatbin *f, FatEntry *e)
{
	if (f->at >= f->end)
		return 0;
	const unsigned char *h = f->d + f->at;
	size_t left = f->end - f->at;
	if (left < FAT_ENTRY_MIN)
		return -1;
	size_t head = (size_t)le(h + 4, 4), padded = (size_t)le(h + 8, 8);
	if (head < FAT_ENTRY_MIN || head > left || padded > left - head)
		return -1;
	uint64_t flags = le(h + 0x28, 8);
	*e = (FatEntry){.kind = (FatKind)le(h, 2), .arch = (unsigned)le(h + 0x1c, 4),
		.compressed = (flags & FAT_COMPRESSED) != 0, .data = h + head, .size = padded};
	if (e->compressed) {
		e->size = (size_t)le(h + 0x10, 4);
		e->full = (size_t)le(h + 0x38, 8);
	}
	if (e->size > padded)
		return -1;
	f->at += head + padded;
	return 1;
}

size_t fatbin_rest(const Fatbin *f)
{
	return f->size - f->end;
}
