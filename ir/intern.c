/* Interned strings.  Names and numeric spellings repeat heavily in PTX
 * (%r1, 0, [param0+0]), so each is stored once per context (ctx.c) and
 * carries its own leaf Expr: a register operand costs no allocation. */
#include <stdlib.h>
#include <string.h>
#include "ctx.h"

typedef struct Interned {
	Expr name, num;  /* leaves, filled on first use */
	const Spelling *sp;  /* opcode.c's decoding when the string is an instruction's */
	uint32_t len;  /* a name is no longer than its input, at most 2 GiB */
	uint16_t file;  /* diag.c's number for it as a file name, 0 if none */
	char str[];
} Interned;

/* Open addressing with linear probing; each slot keeps the full hash so a
 * probe touches an entry only when the hashes match (one cache miss per
 * lookup instead of one per chain link). */
typedef struct Slot {
	uint64_t hash;
	Interned *e;
} Slot;

/* Eight bytes a step, not one: hashing a byte at a time was a tenth of a
 * parse.  The last 1 to 7 bytes are read as two 4-byte words that may
 * overlap (4 to 7 bytes) or as the first, middle and last byte (1 to 3),
 * which with the length fold in every byte without a loop.  The final mix
 * spreads every byte into the low bits, which pick the slot. */
static uint64_t hash_bytes(const char *s, size_t n)
{
	const uint64_t k = 0x9e3779b97f4a7c15u;
	const unsigned char *p = (const unsigned char *)s;
	uint64_t h = (n + 1) * k, w;
	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * k;
		h ^= h >> 32;
	}
	if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, p, 4);
		memcpy(&b, p + n - 4, 4);
		h = (h ^ ((uint64_t)a << 32 | b) ^ n) * k;
	} else if (n) {
		h = (h ^ ((uint64_t)p[0] << 16 | (uint64_t)p[n / 2] << 8 | p[n - 1]) ^ n << 24) * k;
	}
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9u;
	return h ^ (h >> 32);
}

static void grow(Ctx *c)
{
	size_t n = c->nslots ? c->nslots * 2 : 4096;
	Slot *t = xcalloc(n, sizeof *t);
	for (size_t i = 0; i < c->nslots; i++) {
		if (!c->slots[i].e)
			continue;
		size_t j = c->slots[i].hash & (n - 1);
		while (t[j].e)
			j = (j + 1) & (n - 1);
		t[j] = c->slots[i];
	}
	free(c->slots);
	c->slots = t;
	c->nslots = n;
}

const char *intern(const char *s, size_t n)
{
	Ctx *c = ctx_now();
	if (!c->nslots)
		grow(c);
	if (n > UINT32_MAX)
		die("a name of %zu bytes", n);
	uint64_t h = hash_bytes(s, n);
	Slot *slots = c->slots;
	size_t mask = c->nslots - 1, i = h & mask;
	for (; slots[i].e; i = (i + 1) & mask)
		if (slots[i].hash == h && slots[i].e->len == n && memcmp(slots[i].e->str, s, n) == 0)
			return slots[i].e->str;
	if (4 * (c->count + 1) > 3 * c->nslots) {  /* load factor at most 3/4 */
		grow(c);
		slots = c->slots;
		mask = c->nslots - 1;
		for (i = h & mask; slots[i].e; i = (i + 1) & mask)
			;
	}
	if (!c->entries)
		c->entries = arena_new();
	Interned *e = arena_alloc(c->entries, sizeof *e + n + 1);
	memcpy(e->str, s, n);
	e->len = (uint32_t)n;
	slots[i].hash = h;
	slots[i].e = e;
	c->count++;
	c->nbytes += sizeof *e + n + 1;
	return e->str;
}

const char *intern_cstr(const char *s)
{
	return intern(s, strlen(s));
}

static Interned *entry(const char *interned)
{
	return (Interned *)(interned - offsetof(Interned, str));
}

size_t intern_len(const char *s)
{
	return entry(s)->len;
}

const Spelling *intern_spelling(const char *s)
{
	return entry(s)->sp;
}

void intern_set_spelling(const char *s, const Spelling *sp)
{
	entry(s)->sp = sp;
}

uint16_t intern_file(const char *s)
{
	return entry(s)->file;
}

void intern_set_file(const char *s, uint16_t file)
{
	entry(s)->file = file;
}

Expr *name_expr(const char *s)
{
	Expr *e = &entry(s)->name;
	e->kind = E_NAME;
	e->str = s;
	return e;
}

Expr *num_expr(const char *s)
{
	Expr *e = &entry(s)->num;
	e->kind = E_NUM;
	e->str = s;
	return e;
}

void intern_stats(size_t *countp, size_t *bytes)
{
	Ctx *c = ctx_now();
	*countp = c->count;
	*bytes = c->nbytes + c->nslots * sizeof *c->slots;
}

/* Forgets every name of the current context.  Only when no module (nor
 * anything else holding an interned pointer) of it is alive: the fuzzer
 * calls it so that hours of random names do not accumulate. */
void intern_reset(void)
{
	Ctx *c = ctx_now();
	spelling_reset();
	diag_forget_files();
	arena_free(c->entries);
	c->entries = NULL;
	free(c->slots);
	c->slots = NULL;
	c->nslots = c->count = c->nbytes = 0;
}
