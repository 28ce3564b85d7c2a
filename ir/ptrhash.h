/* uthash keyed on interned pointers: include this instead of <uthash.h>
 * where every key is an interned name (HASH_*_PTR).  A multiply hashes
 * such keys as well as uthash's Jenkins hash over their bytes, at a
 * fraction of the cost: that hash was most of building a symbol table. */
#ifndef PTXLINK_PTRHASH_H
#define PTXLINK_PTRHASH_H

#include <stdint.h>
#include <string.h>

#define HASH_FUNCTION(keyptr, keylen, hashv) do { \
	uintptr_t key_; \
	memcpy(&key_, (keyptr), sizeof key_); \
	(hashv) = (unsigned)(((uint64_t)key_ * 0x9e3779b97f4a7c15u) >> 32); \
} while (0)
#include <uthash.h>

#endif
