/* The names code in one function can see (its registers, parameters and
 * labels, the module's symbols), and fresh ones beside them for what a
 * stage adds.  A %r<N> declaration stands for %r0 .. %r<N-1>. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"

static void add(Names *n, const char *name, const char *count)
{
	n->v = array_grow(n->v, n->n, &n->cap, sizeof *n->v);
	n->v[n->n].name = name;
	n->v[n->n++].count = count;
}

static void add_decl(Names *n, const Decl *d)
{
	for (uint32_t i = 0; i < d->nds; i++)
		add(n, d->ds[i].name, d->ds[i].count);
}

static void add_body(Names *n, const List *l)
{
	for (const Stmt *s = l->head; s; s = s->next)
		if (s->kind == S_VAR)
			add_decl(n, &s->var);
		else if (s->kind == S_SCOPE)
			add_body(n, &s->scope);
		else if (s->kind == S_LABEL)
			add(n, s->label, NULL);
}

void names_of_func(Names *n, const Module *m, const Func *f)
{
	for (const Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_VAR)
			add_decl(n, &s->var);
		else if (s->kind == S_FUNC)
			add(n, s->func->name, NULL);
	add_body(n, &f->body);
	for (uint32_t i = 0; i < f->nparams; i++)
		add_decl(n, &f->params[i]);
	for (uint32_t i = 0; i < f->nrets; i++)
		add_decl(n, &f->rets[i]);
}

/* Is name one of %r<N>'s registers: base, then a number below N? */
static int in_range(const char *name, const char *base, const char *count)
{
	size_t n = strlen(base);
	if (strncmp(name, base, n) || !name[n] || (name[n] == '0' && name[n + 1]))
		return 0;
	for (const char *p = name + n; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return strtoull(name + n, NULL, 10) < strtoull(count, NULL, 10);
}

static int taken(const Names *n, const char *name)
{
	for (uint32_t i = 0; i < n->n; i++)
		if (n->v[i].count ? in_range(name, n->v[i].name, n->v[i].count) :
		    !strcmp(name, n->v[i].name))
			return 1;
	return 0;
}

const char *names_fresh(Names *n, const char *base)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", base);
	for (int i = 1; taken(n, buf); i++)
		snprintf(buf, sizeof buf, "%s_%d", base, i);
	const char *name = intern_cstr(buf);
	add(n, name, NULL);
	return name;
}

void names_free(Names *n)
{
	free(n->v);
	*n = (Names){0};
}
