/* uthash keyed on interned pointers: include this instead of <uthash.h>
 * where every key is an interned name (HASH_*_PTR).  A multiply hashes
 * such keys as well as uthash's Jenkins hash over their bytes, at a
 * fraction of the cost: that hash was most of building a symbol table. */
#ifndef PTXLINK_PTRHASH_H
#define PTXLINK_PTRHASH_H

#include <stdint.h>
#include <string.h>

/* An interned pointer's hash; its high half, where the multiply has
 * mixed in every bit (ir/reguses.c takes its low bits for a slot). */
static inline uint32_t ptr_hash(const void *p)
{
	return (uint32_t)(((uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15u) >> 32);
}

#define HASH_FUNCTION(keyptr, keylen, hashv) do { \
	const void *key_; \
	memcpy(&key_, (keyptr), sizeof key_); \
	(hashv) = ptr_hash(key_); \
} while (0)
#include <uthash.h>

#endif
