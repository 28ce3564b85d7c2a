/* dwarf.c: what the linker must understand of nvcc -G's DWARF sections.
 *
 * nvcc writes DWARF as data in `.section .debug_info { .b8 ...; .b32
 * .debug_abbrev; .b64 $L__func_begin0; ... }`.  ptxas makes one
 * .debug_line from the module's .file and .loc, so when the linker merges
 * the .file tables of several -G inputs, a compile unit's DW_AT_decl_file
 * (an index into that table) must follow its file's new number.  Finding
 * those attributes means decoding the unit with its abbreviations.
 */
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "link.h"

/* Bytes of one section of one module: each byte knows the data item it
 * lies in, so that a value read from it can be written back. */
typedef struct Byte {
	Stmt *d;          /* the S_DATA */
	uint32_t item;    /* its item */
	uint8_t shift;    /* the byte's place in the item, little-endian */
	uint8_t known;    /* the item is a number (not a label or section) */
	uint8_t val;
} Byte;

typedef struct Bytes {
	Byte *v;
	uint32_t n, cap;
	Loc loc;          /* the first .section, for errors */
} Bytes;

uint32_t dwarf_width(const Stmt *d)
{
	const char *w = d->list.word;
	return w[0] == '.' && (w[1] == 'b' || w[1] == 'u' || w[1] == 's') ?
		(uint32_t)strtoul(w + 2, NULL, 10) / 8 : 0;
}

uint64_t dwarf_section_size(const Stmt *sec)
{
	uint64_t size = 0;
	for (const Stmt *d = sec->section.items.head; d; d = d->next)
		if (d->kind == S_DATA)
			size += (uint64_t)dwarf_width(d) * d->list.nitems;
	return size;
}

/* `.debug_x` or `.debug_x+N`: the section and N, else NULL. */
const char *dwarf_section_ref(const Expr *e, int64_t *off)
{
	*off = 0;
	if (e->kind == E_NAME)
		return e->str[0] == '.' ? e->str : NULL;
	if (e->kind == E_BINARY && e->op == '+' && e->kids[0]->kind == E_NAME &&
	    e->kids[0]->str[0] == '.' && e->kids[1]->kind == E_NUM &&
	    int_literal(e->kids[1]->str, off))
		return e->kids[0]->str;
	return NULL;
}

static void add_item(Bytes *b, Stmt *d, uint32_t item, uint32_t width)
{
	int64_t v = 0;
	const Expr *e = d->list.items[item];
	int known = e->kind == E_NUM && int_literal(e->str, &v);
	for (uint32_t k = 0; k < width; k++) {
		b->v = array_grow(b->v, b->n, &b->cap, sizeof *b->v);
		b->v[b->n++] = (Byte){d, item, (uint8_t)k, (uint8_t)known,
			(uint8_t)((uint64_t)v >> (8 * k))};
	}
}

static Bytes section_bytes(Module *m, const char *name)
{
	Bytes b = {0};
	for (Stmt *s = m->items.head; s; s = s->next) {
		if (s->kind != S_SECTION || strcmp(s->section.name, name) != 0)
			continue;
		if (!b.loc.line)
			b.loc = s->loc;
		for (Stmt *d = s->section.items.head; d; d = d->next)
			if (d->kind == S_DATA)
				for (uint32_t i = 0; i < d->list.nitems; i++)
					add_item(&b, d, i, dwarf_width(d));
	}
	return b;
}

/* A cursor over Bytes; err says what went wrong first. */
typedef struct Cur {
	Bytes *b;
	uint32_t pos;
	const char *err;
} Cur;

static uint64_t get(Cur *c, uint32_t n)
{
	uint64_t v = 0;
	if (n > c->b->n - c->pos) {   /* pos <= n always; pos + n may wrap */
		c->err = c->err ? c->err : "it ends inside a value";
		c->pos = c->b->n;
		return 0;
	}
	for (uint32_t k = 0; k < n && k < 8; k++)   /* a longer value is skipped: its low 8 bytes */
		v |= (uint64_t)c->b->v[c->pos + k].val << (8 * k);
	c->pos += n;
	return v;
}

static uint64_t uleb(Cur *c)
{
	uint8_t buf[ULEB_MAX];
	uint32_t n = 0;
	for (; n < ULEB_MAX && c->pos + n < c->b->n; n++)
		buf[n] = c->b->v[c->pos + n].val;
	uint64_t v;
	uint32_t len = uleb_decode(buf, n, &v);
	c->pos += len ? len : n;
	if (!len)
		c->err = c->err ? c->err : "a LEB128 number runs off its end";
	return v;
}

static void skip_string(Cur *c)
{
	while (c->pos < c->b->n && c->b->v[c->pos].val)
		c->pos++;
	get(c, 1);
}

enum {
	FORM_ADDR = 0x01, FORM_BLOCK2 = 0x03, FORM_BLOCK4, FORM_DATA2, FORM_DATA4, FORM_DATA8,
	FORM_STRING, FORM_BLOCK, FORM_BLOCK1, FORM_DATA1, FORM_FLAG, FORM_SDATA, FORM_STRP,
	FORM_UDATA, FORM_REF_ADDR, FORM_REF1, FORM_REF2, FORM_REF4, FORM_REF8, FORM_REF_UDATA,
	FORM_INDIRECT, FORM_SEC_OFFSET, FORM_EXPRLOC, FORM_FLAG_PRESENT, FORM_REF_SIG8 = 0x20,
};

/* Fixed sizes by form; 0 for the variable ones, -1 for unknown forms. */
static int form_size(uint64_t form, int addr_size)
{
	switch (form) {
	case FORM_ADDR: case FORM_REF_ADDR: return addr_size;
	case FORM_DATA1: case FORM_REF1: case FORM_FLAG: return 1;
	case FORM_DATA2: case FORM_REF2: return 2;
	case FORM_DATA4: case FORM_REF4: case FORM_STRP: case FORM_SEC_OFFSET: return 4;
	case FORM_DATA8: case FORM_REF8: case FORM_REF_SIG8: return 8;
	case FORM_FLAG_PRESENT: return 0;
	case FORM_STRING: case FORM_BLOCK: case FORM_BLOCK1: case FORM_BLOCK2: case FORM_BLOCK4:
	case FORM_SDATA: case FORM_UDATA: case FORM_REF_UDATA: case FORM_EXPRLOC: return 0;
	default: return -1;
	}
}

static void skip_form(Cur *c, uint64_t form, int addr_size)
{
	int size = form_size(form, addr_size);
	if (size < 0) {
		c->err = c->err ? c->err : "it uses an attribute form the linker does not know";
		return;
	}
	if (size > 0) {
		get(c, (uint32_t)size);
		return;
	}
	switch (form) {
	case FORM_STRING: skip_string(c); break;
	case FORM_BLOCK1: get(c, (uint32_t)get(c, 1)); break;
	case FORM_BLOCK2: get(c, (uint32_t)get(c, 2)); break;
	case FORM_BLOCK4: get(c, (uint32_t)get(c, 4)); break;
	case FORM_BLOCK: case FORM_EXPRLOC: get(c, (uint32_t)uleb(c)); break;
	case FORM_SDATA: case FORM_UDATA: case FORM_REF_UDATA: uleb(c); break;
	default: break;
	}
}

/* Every unit's abbreviations, merged into one table that all units use
 * from offset 0: ptxas takes the units of several inputs, each with its
 * own table at its own offset, only when the tables are alike (it fails
 * with "Checked Data was Invalid" or "Attempted to Dereference Out of
 * Bounds" otherwise).  Identical declarations share a code; codes stay
 * below 128, one LEB128 byte, so that no DIE changes size. */
typedef struct Merge {
	uint8_t **decl;   /* by new code - 1: tag, children, attribute pairs, 0 0 */
	uint32_t *len;
	uint32_t n, cap, lencap;
	uint32_t at[128]; /* the unit's codes: where their pairs start */
	uint8_t code[128];/* and their new codes */
	const DwarfFileMap *map;
	int recode;       /* several inputs: merge their tables */
} Merge;

static uint8_t merged_code(Merge *m, Bytes *b, uint32_t from, uint32_t to)
{
	uint32_t len = to - from;
	for (uint32_t i = 0; i < m->n; i++) {
		uint32_t k = 0;
		while (k < len && m->len[i] == len && m->decl[i][k] == b->v[from + k].val)
			k++;
		if (k == len && m->len[i] == len)
			return (uint8_t)(i + 1);
	}
	if (m->n >= 127)
		return 0;
	uint8_t *d = xmalloc(len);
	for (uint32_t k = 0; k < len; k++)
		d[k] = b->v[from + k].val;
	m->len = array_grow(m->len, m->n, &m->lencap, sizeof *m->len);
	m->decl = array_grow(m->decl, m->n, &m->cap, sizeof *m->decl);
	m->len[m->n] = len;
	m->decl[m->n++] = d;
	return (uint8_t)m->n;
}

static void read_abbrevs(Cur *c, Merge *m)
{
	memset(m->at, 0, sizeof m->at);
	for (;;) {
		uint64_t code = uleb(c);
		if (!code || c->err)
			return;
		if (code >= 128) {
			c->err = "an abbreviation code is above 127";
			return;
		}
		uint32_t from = c->pos;
		uleb(c);  /* tag */
		get(c, 1);  /* has children */
		m->at[code] = c->pos;
		while (!c->err && (uleb(c) | uleb(c)))
			;
		if (m->recode && !c->err && !(m->code[code] = merged_code(m, c->b, from, c->pos)))
			c->err = "the inputs have more than 127 distinct abbreviations";
	}
}

enum { AT_DECL_FILE = 0x3a, AT_CALL_FILE = 0x58 };

/* Writes v over the n bytes at pos: each byte its own .b8 item, or one
 * item of exactly n bytes. */
static const char *put(Bytes *b, uint32_t pos, uint32_t n, uint64_t v)
{
	Byte *x = &b->v[pos];
	if (dwarf_width(x->d) == n && x->shift == 0) {
		char buf[24];
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
		x->d->list.items[x->item] = num_expr(intern_cstr(buf));
		return NULL;
	}
	for (uint32_t k = 0; k < n; k++)
		if (dwarf_width(x[k].d) != 1 || !x[k].known)
			return "a value to rewrite is not in .b8 numbers";
	for (uint32_t k = 0; k < n; k++) {
		char buf[8];
		snprintf(buf, sizeof buf, "%u", (unsigned)(uint8_t)(v >> (8 * k)));
		x[k].d->list.items[x[k].item] = num_expr(intern_cstr(buf));
	}
	return NULL;
}

static void renumber_attr(Cur *c, uint64_t form, const DwarfFileMap *map)
{
	uint32_t n = form == FORM_DATA1 ? 1 : form == FORM_DATA2 ? 2 : form == FORM_DATA4 ? 4 : 0;
	if (!n) {
		c->err = c->err ? c->err : "a file number's form is not data1, data2 or data4";
		return;
	}
	uint32_t pos = c->pos;
	for (uint32_t k = 0; k < n && pos + k < c->b->n; k++)
		if (!c->b->v[pos + k].known)
			c->err = c->err ? c->err : "a file number is not a number";
	uint64_t old = get(c, n);
	if (c->err)
		return;
	uint64_t to = map->fn ? map->fn(map->ctx, (uint32_t)old) : old;
	if (n < 8 && to >> (8 * n)) {
		c->err = "a file's new number does not fit its attribute";
		return;
	}
	if (to != old)
		c->err = put(c->b, pos, n, to);
}

/* The DIE's code at pos, before c, becomes its merged one in as many
 * bytes (a code may come padded: 0x82 0x00 is 2): one byte less would
 * leave the 0x00 to be read as the DIE's first attribute. */
static void recode_die(Cur *c, Merge *m, uint32_t pos, uint64_t code)
{
	uint8_t buf[ULEB_MAX];
	uint32_t len = c->pos - pos;
	uint64_t v = 0;
	if (!m->recode || m->code[code] == code || c->err)
		return;
	if (len > 8 || uleb_encode(m->code[code], buf, len) != 0) {
		c->err = "an abbreviation code is padded past 8 bytes";
		return;
	}
	for (uint32_t k = 0; k < len; k++)
		v |= (uint64_t)buf[k] << (8 * k);
	c->err = put(c->b, pos, len, v);
}

/* One unit's DIEs, from after its header to end. */
static void walk_dies(Cur *c, Cur *ab, Merge *m, uint32_t end, int addr_size)
{
	while (c->pos < end && !c->err) {
		uint32_t pos = c->pos;
		uint64_t code = uleb(c);
		if (!code)
			continue;
		if (code >= 128 || !m->at[code]) {
			c->err = "a DIE names an abbreviation code that does not exist";
			return;
		}
		recode_die(c, m, pos, code);
		ab->pos = m->at[code];
		for (;;) {
			uint64_t attr = uleb(ab), form = uleb(ab);
			if (!attr && !form)
				break;
			if (ab->err) {
				c->err = ab->err;
				return;
			}
			if (attr == AT_DECL_FILE || attr == AT_CALL_FILE)
				renumber_attr(c, form, m->map);
			else
				skip_form(c, form, addr_size);
		}
	}
}

/* The unit header's abbreviation offset, as `.debug_abbrev[+N]` or N;
 * with merged tables it becomes `.debug_abbrev`, the one table. */
static int64_t abbrev_offset(Cur *c, Merge *m)
{
	if (c->pos + 4 > c->b->n) {
		c->err = c->err ? c->err : "it ends inside a unit header";
		return 0;
	}
	Byte *x = &c->b->v[c->pos];
	int64_t off = 0;
	const char *sec = NULL;
	if (x->known)
		return (int64_t)get(c, 4);
	if (x->shift == 0 && dwarf_width(x->d) == 4)
		sec = dwarf_section_ref(x->d->list.items[x->item], &off);
	get(c, 4);
	if (!sec || strcmp(sec, ".debug_abbrev") != 0) {
		c->err = "a unit's abbreviation offset is not .debug_abbrev+N";
		return 0;
	}
	if (m->recode)
		x->d->list.items[x->item] = name_expr(sec);
	return off;
}

/* A table read once, by its offset: an input's units mostly share one,
 * and reading it again for each would make them a product. */
typedef struct Table {
	UT_hash_handle hh;
	uint32_t off;
	uint32_t at[128];
	uint8_t code[128];
} Table;

static void unit_abbrevs(Cur *ab, Merge *m, Table **seen)
{
	Table *t;
	HASH_FIND(hh, *seen, &ab->pos, sizeof ab->pos, t);
	if (!t) {
		uint32_t off = ab->pos;
		read_abbrevs(ab, m);
		if (ab->err)
			return;
		t = xcalloc(1, sizeof *t);
		t->off = off;
		memcpy(t->at, m->at, sizeof t->at);
		memcpy(t->code, m->code, sizeof t->code);
		HASH_ADD(hh, *seen, off, sizeof t->off, t);
		return;
	}
	memcpy(m->at, t->at, sizeof m->at);
	memcpy(m->code, t->code, sizeof m->code);
}

static void walk_units(Cur *c, Bytes *abbrev, Merge *m)
{
	Table *seen = NULL, *t, *tmp;
	while (c->pos < c->b->n && !c->err) {
		uint64_t len = get(c, 4);
		uint32_t start = c->pos;
		if (len >= 0xfffffff0 || len > c->b->n - start) {
			c->err = "a unit's length is not a 32-bit DWARF length within the section";
			return;
		}
		uint64_t version = get(c, 2);
		if (version < 2 || version > 4) {
			c->err = "a unit is not DWARF version 2, 3 or 4";
			return;
		}
		int64_t off = abbrev_offset(c, m);
		int addr_size = (int)get(c, 1);
		Cur ab = {abbrev, (uint32_t)off, NULL};
		if (off < 0 || off > abbrev->n)
			c->err = c->err ? c->err : "a unit's abbreviations lie outside .debug_abbrev";
		else
			unit_abbrevs(&ab, m, &seen);
		c->err = c->err ? c->err : ab.err;
		walk_dies(c, &ab, m, start + (uint32_t)len, addr_size);
		c->pos = start + (uint32_t)len;
	}
	HASH_ITER(hh, seen, t, tmp) {
		HASH_DEL(seen, t);
		free(t);
	}
}

static int merge_module(Module *mod, Merge *m)
{
	Bytes info = section_bytes(mod, ".debug_info"), abbrev = section_bytes(mod, ".debug_abbrev");
	Cur c = {&info, 0, NULL};
	walk_units(&c, &abbrev, m);
	if (c.err)
		error(info.loc.line ? info.loc : (Loc){1, 1, diag_file(mod->path)},
			"cannot merge the DWARF (-G) of this input with others: its .debug_info "
			"cannot be decoded (%s); use --strip-debug", c.err);
	free(info.v);
	free(abbrev.v);
	return c.err ? -1 : 0;
}

static Expr *byte_expr(unsigned v)
{
	char buf[8];
	snprintf(buf, sizeof buf, "%u", v);
	return num_expr(intern_cstr(buf));
}

/* The merged table goes where the last input's was and the others' go:
 * every part before it is then empty, so every unit's `.debug_abbrev`
 * stays offset 0 when the linker moves section offsets by their part's
 * start. */
static void write_abbrevs(Merge *m, Module **mods, int n, const int *dwarf, Module *out)
{
	Stmt *table = NULL;
	for (int i = 0; i < n; i++)
		for (Stmt *s = dwarf[i] ? mods[i]->items.head : NULL; s; s = s->next)
			if (s->kind == S_SECTION && !strcmp(s->section.name, ".debug_abbrev")) {
				table = s;
				s->section.items = (List){0};
			}
	if (!table)
		return;
	for (uint32_t i = 0; i <= m->n; i++) {
		uint32_t len = i < m->n ? m->len[i] + 1 : 1;
		Stmt *d = stmt_new(out, S_DATA, table->loc);
		d->list.word = intern_cstr(".b8");
		d->list.items = arena_alloc(out->arena, len * sizeof *d->list.items);
		d->list.nitems = len;
		d->list.items[0] = byte_expr(i < m->n ? i + 1 : 0);
		for (uint32_t k = 1; k < len; k++)
			d->list.items[k] = byte_expr(m->decl[i][k - 1]);
		list_append(&table->section.items, d);
	}
}

int dwarf_merge(Module **mods, int n, const int *dwarf, const DwarfFileMap *maps, Module *out)
{
	Merge m = {0};
	int ndwarf = 0, rc = 0;
	for (int i = 0; i < n; i++)
		ndwarf += dwarf[i] != 0;
	m.recode = ndwarf > 1;
	for (int i = 0; i < n; i++) {
		m.map = &maps[i];
		if (dwarf[i] && (m.recode || maps[i].fn))
			rc |= merge_module(mods[i], &m);
	}
	if (m.recode && !rc)
		write_abbrevs(&m, mods, n, dwarf, out);
	for (uint32_t i = 0; i < m.n; i++)
		free(m.decl[i]);
	free(m.decl);
	free(m.len);
	return rc;
}
