/* A compressed fatbinary entry's payload (obj.h).  It is one zstd frame
 * (its magic 28 b5 2f fd at the payload's first byte) or one raw LZ4
 * block (no frame: LZ4's block format, what LZ4_decompress_safe reads),
 * as fatbinary 13 writes them with --compress-mode=default and =speed
 * (docs/design.md, "Host objects").  The decompression is the
 * libraries' (libzstd, liblz4): apart from fatbin.c so that only what
 * reads host objects links them, not libptxlink. */
#include <limits.h>
#include <lz4.h>
#include <zstd.h>
#include "obj.h"

/* Decompressed payloads are at most this many times their compressed
 * size, plus a megabyte: PTX and cubins compress 3 to 5 times, a table
 * of one repeated value far more (docs/design.md); a size field past
 * the cap is a malformed entry, not an allocation. */
enum { FAT_RATIO = 1024, FAT_SLACK = 1 << 20 };

static const char *unzstd(const FatEntry *e, unsigned char *out)
{
	unsigned long long n = ZSTD_getFrameContentSize(e->data, e->size);
	if (n == ZSTD_CONTENTSIZE_ERROR)
		return "compressed entry is not a zstd frame";
	if (n != ZSTD_CONTENTSIZE_UNKNOWN && n != e->full)
		return "zstd frame's size differs from the entry header's uncompressed size";
	size_t got = ZSTD_decompress(out, (size_t)e->full, e->data, e->size);
	if (ZSTD_isError(got))
		return "corrupt zstd data";
	return got != e->full ? "decompressed size differs from the entry header's" : NULL;
}

static const char *unlz4(const FatEntry *e, unsigned char *out)
{
	if (e->size > INT_MAX || e->full > INT_MAX)
		return "LZ4 entry too large";
	int got = LZ4_decompress_safe((const char *)e->data, (char *)out, (int)e->size, (int)e->full);
	if (got < 0)
		return "corrupt LZ4 data";
	return (uint64_t)got != e->full ? "decompressed size differs from the entry header's" : NULL;
}

const char *fatbin_unpack(const FatEntry *e, unsigned char *out)
{
	return e->zip == FAT_ZIP_ZSTD ? unzstd(e, out) : unlz4(e, out);
}

const char *fatbin_full_size(const FatEntry *e)
{
	if (e->full == 0)
		return "compressed entry's uncompressed size is 0";
	if (e->full > (uint64_t)FAT_RATIO * e->size + FAT_SLACK)
		return "compressed entry's uncompressed size is out of range";
	return NULL;
}
