/* The device runtime functions a module declares without a body:
 * vprintf, malloc, free and __assertfail. */
#include <stdlib.h>
#include <string.h>
#include "run.h"

static uint8_t *param_slot(Thread *t, const Opnd *o, uint32_t size, const DIns *d)
{
	uint64_t a = MK_ADDR(TAG_FPARAM, t->gid, t->fr[t->depth - 1].pbase + o->val);
	return mem_ptr(t, SP_PARAM, a, size, d);
}

static uint64_t arg(Thread *t, const DIns *d, DFunc *fn, uint32_t i)
{
	const Opnd *args = &d->ops[2];
	if (i >= args->n || i >= fn->nparams)
		rt_fail(d, RUN_FAULT, "call of '%s' with too few arguments", fn->name);
	const Opnd *o = &args->kids[i];
	uint32_t size = fn->psz[i] > 8 ? 8 : fn->psz[i];
	if (o->kind == O_FRAME && o->space == SP_PARAM) {
		uint64_t v = 0;
		memcpy(&v, param_slot(t, o, size, d), size);
		return v;
	}
	return rd(t, o);
}

static void result(Thread *t, const DIns *d, DFunc *fn, uint64_t v)
{
	const Opnd *rets = &d->ops[0];
	if (!rets->n)
		return;
	const Opnd *o = &rets->kids[0];
	uint32_t size = fn->nrets ? fn->rsz[0] : 8;
	if (size > 8)
		size = 8;
	if (o->kind == O_FRAME && o->space == SP_PARAM)
		memcpy(param_slot(t, o, size, d), &v, size);
	else
		wr(t, o, v);
}

static _Noreturn void assertfail(Thread *t, const DIns *d, DFunc *fn)
{
	size_t n;
	const char *msg = mem_cstr(t, arg(t, d, fn, 0), d, &n);
	const char *file = mem_cstr(t, arg(t, d, fn, 1), d, &n);
	uint32_t line = (uint32_t)arg(t, d, fn, 2);
	const char *func = mem_cstr(t, arg(t, d, fn, 3), d, &n);
	fflush(stdout);
	fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
		file, line, func, t->b->ctaid[0], t->b->ctaid[1], t->b->ctaid[2], t->tid[0], t->tid[1],
		t->tid[2], msg);
	rt_fail(d, RUN_FAULT, "device assertion failed");
}

int ex_call_builtin(Thread *t, const DIns *d, DFunc *fn)
{
	decode_func(fn);  /* the declaration's parameter sizes */
	switch (fn->builtin) {
	case BI_VPRINTF:
		result(t, d, fn, (uint64_t)(int64_t)run_vprintf(t, arg(t, d, fn, 0), arg(t, d, fn, 1), d));
		break;
	case BI_MALLOC:
		result(t, d, fn, heap_malloc(arg(t, d, fn, 0)));
		break;
	case BI_FREE: {
		uint64_t p = arg(t, d, fn, 0);
		if (p && !gmem_free(p))
			rt_fail(d, RUN_FAULT, "free of 0x%llx, which malloc did not return",
				(unsigned long long)p);
		break;
	}
	case BI_ASSERTFAIL:
		assertfail(t, d, fn);
	}
	return X_NEXT;
}
