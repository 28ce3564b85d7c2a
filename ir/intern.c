/* Interned strings.  Names and numeric spellings repeat heavily in PTX
 * (%r1, 0, [param0+0]), so each is stored once for the whole process and
 * carries its own leaf Expr: a register operand costs no allocation. */
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "ir.h"

typedef struct Interned {
	UT_hash_handle hh;
	Expr name, num;  /* leaves, filled on first use */
	size_t len;
	char str[];
} Interned;

static Interned *table;
static size_t nbytes;

const char *intern(const char *s, size_t n)
{
	Interned *e;
	HASH_FIND(hh, table, s, n, e);
	if (e)
		return e->str;
	e = calloc(1, sizeof *e + n + 1);
	if (!e)
		die("out of memory");
	memcpy(e->str, s, n);
	e->len = n;
	HASH_ADD_KEYPTR(hh, table, e->str, n, e);
	nbytes += sizeof *e + n + 1;
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

void intern_stats(size_t *count, size_t *bytes)
{
	*count = HASH_COUNT(table);
	*bytes = nbytes + HASH_OVERHEAD(hh, table);
}
