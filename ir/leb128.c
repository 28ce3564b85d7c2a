/* DWARF's unsigned LEB128 numbers: 7 bits a byte, low bits first, the
 * high bit set on every byte but the last.  The linker reads them in -G's
 * .debug_info and .debug_abbrev (link/dwarf.c); the depot stage reads and
 * rewrites DW_OP_plus_uconst offsets (stages/depot.c) in the bytes they
 * had, padded (0x80 0x00 is 0), so that no section offset moves. */
#include "ir.h"

/* Bits past the 64th (a tenth byte above 1) are dropped. */
uint32_t uleb_decode(const uint8_t *p, uint32_t n, uint64_t *v)
{
	*v = 0;
	for (uint32_t k = 0; k < n && k < ULEB_MAX; k++) {
		*v |= (uint64_t)(p[k] & 0x7f) << (7 * k);
		if (!(p[k] & 0x80))
			return k + 1;
	}
	return 0;
}

uint32_t uleb_size(uint64_t v)
{
	uint32_t n = 1;
	while (v >>= 7)
		n++;
	return n;
}

int uleb_encode(uint64_t v, uint8_t *p, uint32_t n)
{
	if (uleb_size(v) > n)
		return -1;
	for (uint32_t k = 0; k < n; k++, v >>= 7)
		p[k] = (uint8_t)((v & 0x7f) | (k + 1 < n ? 0x80 : 0));
	return 0;
}
