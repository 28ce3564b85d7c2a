/* Memory spaces: global regions (buffers, module variables, the device
 * heap), the .const bank, the block's .shared window, per-thread .local
 * and call .param stacks, and the kernel's .param block.  Every access is
 * bounds-checked: a bad address stops the run rather than reading
 * whatever happens to be there. */
#include <stdlib.h>
#include <string.h>
#include "run.h"

typedef struct Region {
	uint64_t base, size;
	uint8_t *data;
	int live;
	int heap;
	const char *what;
} Region;

static Region *regions;      /* sorted by base */
static uint32_t nregions, capregions;
static uint64_t gnext[3] = {GLOBAL_BASE, GLOBAL_BASE + GM_ARENA, GLOBAL_BASE + 2 * GM_ARENA};
static uint32_t lastr;
static uint64_t heap_used;

/* cudaLimitMallocHeapSize's default: device malloc returns NULL past it. */
#define HEAP_LIMIT (8u << 20)

/* The index of the first region above addr. */
static uint32_t region_after(uint64_t addr)
{
	uint32_t lo = 0, hi = nregions;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (regions[mid].base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Each arena (GM_*) hands out increasing addresses with a gap between
 * regions, so that a small overrun hits no region; the arenas are apart
 * so that what one holds moves no address of another: a module that
 * lost a dead global passes the same buffer addresses to its kernel. */
static void region_new(int arena, uint64_t base, uint64_t size, const char *what)
{
	if (nregions == capregions) {
		capregions = capregions ? capregions * 2 : 64;
		regions = xreallocarray(regions, capregions, sizeof *regions);
	}
	uint32_t at = region_after(base);
	memmove(&regions[at + 1], &regions[at], (nregions++ - at) * sizeof *regions);
	Region *r = &regions[at];
	r->base = base;
	r->size = size;
	r->data = xcalloc(size, 1);
	r->live = 1;
	r->heap = arena == GM_HEAP;
	r->what = what;
}

uint64_t gmem_alloc(int arena, uint64_t size, uint32_t align, const char *what)
{
	if (align < 256)
		align = 256;
	uint64_t base = (gnext[arena] + align - 1) & ~(uint64_t)(align - 1);
	if (base + size + 256 > GLOBAL_BASE + (uint64_t)(arena + 1) * GM_ARENA)
		die("out of memory");
	region_new(arena, base, size, what);
	gnext[arena] = base + size + 256;
	return base;
}

/* Whether [base, base+size) meets no region. */
static int is_free(uint64_t base, uint64_t size)
{
	uint32_t i = region_after(base + size - 1);
	return !i || regions[i - 1].base + regions[i - 1].size <= base;
}

/* A module variable's address hangs on its name alone: the name's hash
 * picks a slot of VAR_SLOT bytes in the variables' arena (the next free
 * ones on a collision), so a module that lost a dead global, or a global
 * folded away, puts every other variable where it was. */
#define VAR_SLOT (1ull << 24)
uint64_t gmem_place_var(uint64_t size, const char *name)
{
	uint64_t h = 14695981039346656037ull;   /* FNV-1a */
	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	uint64_t nslots = GM_ARENA / VAR_SLOT, need = (size + 256) / VAR_SLOT + 1;
	if (need >= nslots)
		die("out of memory");
	uint64_t first = GLOBAL_BASE + GM_VAR * GM_ARENA;
	for (uint64_t k = 0, slot = h % (nslots - need); k < nslots; k++, slot = (slot + 1) % (nslots - need)) {
		uint64_t base = first + slot * VAR_SLOT;
		if (is_free(base, need * VAR_SLOT)) {
			region_new(GM_VAR, base, size, name);
			return base;
		}
	}
	die("out of memory");
}

static Region *region_find(uint64_t addr)
{
	if (lastr < nregions && addr >= regions[lastr].base &&
	    addr < regions[lastr].base + regions[lastr].size)
		return &regions[lastr];
	uint32_t lo = region_after(addr);
	if (lo == 0)
		return NULL;
	lastr = lo - 1;
	return &regions[lo - 1];
}

uint8_t *gmem_ptr(uint64_t addr, uint64_t size)
{
	Region *r = region_find(addr);
	if (!r || !r->live || addr + size > r->base + r->size || addr + size < addr)
		return NULL;
	return r->data + (addr - r->base);
}

/* Device malloc: a heap region of its own per allocation. */
uint64_t heap_malloc(uint64_t size)
{
	if (size > HEAP_LIMIT || heap_used + size > HEAP_LIMIT)
		return 0;
	heap_used += size;
	return gmem_alloc(GM_HEAP, size, 16, "heap");
}

int gmem_free(uint64_t addr)
{
	Region *r = region_find(addr);
	if (!r || !r->live || !r->heap || r->base != addr)
		return 0;
	r->live = 0;
	heap_used -= r->size;
	free(r->data);
	r->data = NULL;
	return 1;
}

/* Room for size bytes aligned to align on a growable stack of at most
 * limit bytes. */
uint32_t stack_push(uint8_t **mem, uint32_t *sp, uint32_t *cap, uint64_t size, uint32_t align,
	uint32_t limit)
{
	if (align < 8)
		align = 8;
	uint64_t at = ((uint64_t)*sp + align - 1) & ~(uint64_t)(align - 1);
	uint64_t end = at + size;
	if (size > limit || end > limit)
		return UINT32_MAX;  /* the caller reports the overflow */
	if (end > *cap) {
		uint32_t n = *cap ? *cap : 1024;
		while (n < end)
			n *= 2;
		*mem = xrealloc(*mem, n);
		*cap = n;
	}
	if (end > *sp)
		memset(*mem + *sp, 0, end - *sp);
	*sp = (uint32_t)end;
	return (uint32_t)at;
}

static const char *space_name(int space)
{
	static const char *const names[] = {"", "global", "const", "shared", "local", "param", "generic"};
	return names[space];
}

static uint8_t *in(uint8_t *base, uint64_t limit, uint64_t off, uint32_t size)
{
	if (!base || off > limit || size > limit - off)
		return NULL;
	return base + off;
}

static Thread *owner(uint64_t a)
{
	uint32_t thr = (uint32_t)(a >> 32) & 0xFFFFFF;
	return thr < M->nthreads ? &M->threads[thr] : NULL;
}

/* A .shared address: the window of the block its rank field names, or
 * of t's own block (see SHARED_MAX). */
static uint8_t *shared_ptr(Thread *t, uint64_t a, uint32_t size)
{
	uint32_t r = (uint32_t)(a >> 24);
	Cta *b = r == 0 ? t->b : r <= M->nblocks ? &M->blocks[r - 1] : NULL;
	if (a >> 32 || !b)
		return NULL;
	return in(b->shared, M->shared_size, a & (SHARED_MAX - 1), size);
}

/* A generic (tagged) address to host memory. */
static uint8_t *generic_ptr(Thread *t, uint64_t a, uint32_t size)
{
	uint32_t off = (uint32_t)a;
	Thread *o;
	switch (TAG_OF(a)) {
	case 0:
		return gmem_ptr(a, size);
	case TAG_SHARED:
		if (off >= SHARED_MAX || (a >> 32 & 0xFFFFFF) > 0xFF)
			return NULL;
		return shared_ptr(t, (a >> 32 & 0xFF) << 24 | off, size);
	case TAG_CONST:
		return (a >> 32) == (uint64_t)TAG_CONST << 24 ? in(M->cbank, M->csize, off, size) : NULL;
	case TAG_KPARAM:
		return in(M->kparam, M->kpsize, off, size);
	case TAG_LOCAL:
		o = owner(a);
		return o ? in(o->lmem, o->lsp, off, size) : NULL;
	case TAG_FPARAM:
		o = owner(a);
		return o ? in(o->pmem, o->psp, off, size) : NULL;
	}
	return NULL;
}

/* --count: one local-memory instruction a thread executes, however many
 * bytes or elements it moves (M->steps is new at every warp step). */
static void count_local(Thread *t, int space, uint64_t a)
{
	if (!M->count || t->lstep == M->steps)
		return;
	if (space == SP_LOCAL || (space == SP_GENERIC && TAG_OF(a) == TAG_LOCAL)) {
		t->lstep = M->steps;
		M->nlocal++;
	}
}

uint8_t *mem_ptr(Thread *t, int space, uint64_t a, uint32_t size, const DIns *d)
{
	uint8_t *p = NULL;
	switch (space) {
	case SP_GLOBAL:
		p = TAG_OF(a) == 0 ? gmem_ptr(a, size) : NULL;
		break;
	case SP_CONST:
		p = in(M->cbank, M->csize, a, size);
		break;
	case SP_SHARED:
		p = shared_ptr(t, a, size);
		break;
	case SP_LOCAL:
		p = in(t->lmem, t->lsp, a, size);
		break;
	case SP_PARAM:
		p = TAG_OF(a) == TAG_KPARAM || TAG_OF(a) == TAG_FPARAM ? generic_ptr(t, a, size) : NULL;
		break;
	default:
		p = generic_ptr(t, a, size);
		break;
	}
	if (!p)
		rt_fail(d, RUN_FAULT, "invalid %s address 0x%llx (%u bytes)", space_name(space),
			(unsigned long long)a, size);
	count_local(t, space, a);
	return p;
}

uint64_t mem_load(Thread *t, int space, uint64_t a, uint32_t size, const DIns *d)
{
	uint8_t *p = mem_ptr(t, space, a, size, d);
	uint64_t v = 0;
	memcpy(&v, p, size > 8 ? 8 : size);  /* little-endian host */
	return v;
}

void mem_store(Thread *t, int space, uint64_t a, uint32_t size, uint64_t v, const DIns *d)
{
	uint8_t *p = mem_ptr(t, space, a, size, d);
	memcpy(p, &v, size > 8 ? 8 : size);
}

/* cvta: a state-space address to a generic one. */
uint64_t mem_generic(Thread *t, int space, uint64_t a)
{
	switch (space) {
	case SP_SHARED:
		return MK_ADDR(TAG_SHARED, (uint32_t)a >> 24, a & (SHARED_MAX - 1));
	case SP_CONST:
		return MK_ADDR(TAG_CONST, 0, a);
	case SP_LOCAL:
		return MK_ADDR(TAG_LOCAL, t->gid, a);
	default:
		return a;  /* global and param addresses are already generic */
	}
}

int mem_space_of(uint64_t a)
{
	switch (TAG_OF(a)) {
	case 0:
		return SP_GLOBAL;
	case TAG_SHARED:
		return SP_SHARED;
	case TAG_CONST:
		return SP_CONST;
	case TAG_LOCAL:
		return SP_LOCAL;
	case TAG_KPARAM:
	case TAG_FPARAM:
		return SP_PARAM;
	}
	return SP_NONE;
}

/* cvta.to: a generic address to the space's own; 0 when it points
 * elsewhere (the hardware result is undefined; a later access through
 * it then fails cleanly). */
int mem_to_space(Thread *t, int space, uint64_t a, uint64_t *out)
{
	int s = mem_space_of(a);
	if (space == SP_GLOBAL) {
		*out = a;
		return s == SP_GLOBAL;
	}
	if (s != space) {
		*out = a;
		return 0;
	}
	*out = space == SP_PARAM ? a : (uint32_t)a;
	if (space == SP_SHARED) {  /* the rank field moves, see SHARED_MAX */
		if ((a >> 32 & 0xFFFFFF) > 0xFF || (uint32_t)a >= SHARED_MAX)
			return 0;
		*out = (a >> 32 & 0xFF) << 24 | (uint32_t)a;
	}
	return 1;
}

/* A NUL-terminated string at a generic address, for %s and assert. */
const char *mem_cstr(Thread *t, uint64_t a, const DIns *d, size_t *len)
{
	for (size_t n = 0;; n++) {
		uint8_t *p = mem_ptr(t, SP_GENERIC, a + n, 1, d);
		if (*p == 0) {
			*len = n;
			return (const char *)mem_ptr(t, SP_GENERIC, a, (uint32_t)(n + 1), d);
		}
		if (n > (1u << 20))
			rt_fail(d, RUN_FAULT, "unterminated string at 0x%llx", (unsigned long long)a);
	}
}
