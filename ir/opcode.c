/* Opcode lookup and interned instruction spellings. */
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "ir.h"

static const Opcode opcodes[] = {
#define OP(name, min, max, roles, flags) {#name, min, max, flags, roles},
#include "opcodes.h"
#undef OP
};

const Opcode *opcode_find(const char *base, size_t n)
{
	size_t lo = 0, hi = sizeof opcodes / sizeof *opcodes;
	while (lo < hi) {  /* the table is kept sorted by name */
		size_t mid = (lo + hi) / 2;
		int c = strncmp(opcodes[mid].name, base, n);
		if (c == 0 && opcodes[mid].name[n])
			c = 1;
		if (c == 0)
			return &opcodes[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

typedef struct SpellingEntry {
	UT_hash_handle hh;
	Spelling sp;
} SpellingEntry;

static SpellingEntry *spellings;

static const char *const space_names[] = {
	[SPACE_REG] = ".reg", [SPACE_SREG] = ".sreg", [SPACE_CONST] = ".const",
	[SPACE_GLOBAL] = ".global", [SPACE_LOCAL] = ".local", [SPACE_PARAM] = ".param",
	[SPACE_SHARED] = ".shared", [SPACE_TEX] = ".tex",
};

/* ".shared::cluster" names the .shared space too. */
Space space_of(const char *w)
{
	size_t n = strcspn(w, ":");
	for (int k = SPACE_REG; k <= SPACE_TEX; k++)
		if (strlen(space_names[k]) == n && !strncmp(w, space_names[k], n))
			return (Space)k;
	return SPACE_NONE;
}

const char *space_spelling(Space k)
{
	return k == SPACE_NONE ? NULL : space_names[k];
}

/* What the modifiers say, decoded once: the state space (an instruction
 * names at most one; .reg and .sreg are no memory), the vector width and
 * the last sized type (cvt.f32.s32's source, ld.v4.f32's element). */
static void decode(Spelling *sp)
{
	sp->code = sp->op ? (uint16_t)(sp->op - opcodes) : O_UNKNOWN;
	sp->vec = 1;
	for (uint32_t i = 0; i < sp->nmods; i++) {
		const char *m = sp->mods[i];
		Space k = space_of(m);
		if (!sp->space && k != SPACE_REG && k != SPACE_SREG)
			sp->space = (uint8_t)k;
		if (!strcmp(m, ".v2") || !strcmp(m, ".v4") || !strcmp(m, ".v8"))
			sp->vec = (uint8_t)(m[2] - '0');
		if (type_bytes(m)) {
			sp->type = m;
			sp->type_bytes = (uint8_t)type_bytes(m);
		}
	}
}

/* Splits "ld.global.L1::evict_last.u32" into base "ld" and modifiers
 * ".global", ".L1::evict_last", ".u32". */
static void split(Spelling *sp)
{
	const char *t = sp->text;
	const char *dot = strchr(t, '.');
	size_t blen = dot ? (size_t)(dot - t) : strlen(t);
	sp->base = intern(t, blen);
	sp->op = opcode_find(t, blen);
	uint32_t n = 0;
	for (const char *p = dot; p; p = strchr(p + 1, '.'))
		n++;
	sp->mods = n ? calloc(n, sizeof *sp->mods) : NULL;
	if (n && !sp->mods)
		die("out of memory");
	n = 0;
	for (const char *p = dot; p;) {
		const char *q = strchr(p + 1, '.');
		size_t len = q ? (size_t)(q - p) : strlen(p);
		sp->mods[n++] = intern(p, len);
		p = q;
	}
	sp->nmods = n;
}

const Spelling *spelling_get(const char *text, size_t n)
{
	return spelling_of(intern(text, n));
}

/* By the interned text itself: the parser already has it. */
const Spelling *spelling_of(const char *s)
{
	SpellingEntry *e;
	HASH_FIND_PTR(spellings, &s, e);
	if (e)
		return &e->sp;
	e = calloc(1, sizeof *e);
	if (!e)
		die("out of memory");
	e->sp.text = s;
	split(&e->sp);
	decode(&e->sp);
	HASH_ADD_PTR(spellings, sp.text, e);
	return &e->sp;
}

int spelling_has(const Spelling *sp, const char *mod)
{
	for (uint32_t i = 0; i < sp->nmods; i++)
		if (strcmp(sp->mods[i], mod) == 0)
			return 1;
	return 0;
}

void spelling_reset(void)
{
	SpellingEntry *e, *tmp;
	HASH_ITER(hh, spellings, e, tmp) {
		HASH_DEL(spellings, e);
		free(e->sp.mods);
		free(e);
	}
}
