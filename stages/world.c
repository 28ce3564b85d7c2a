/* world.c: whether all device code that can run with the module is in
 * it, which closed-world stages (devirtualization, and global optimization
 * next) need, decided once before the first stage.
 *
 * Open when the module was linked with --allow-undefined (nvlink adds the
 * rest later); when it declares a variable it does not define (data, and
 * so pointers, from code not seen; .extern .shared is only the dynamic
 * shared memory); and when it is one input given without -arch that other
 * device code could join: a .visible or .weak function others may call or
 * take the address of, or a non-runtime .extern one (nvcc -rdc output). */
#include "stages.h"

static int joinable(const Func *f)
{
	Linkage lk = (Linkage)f->linkage;
	return !f->is_entry && (lk == LINK_VISIBLE || lk == LINK_WEAK ||
		(lk == LINK_EXTERN && !is_runtime_symbol(f->name)));
}

void world_decide(World *w, const Module *m, const StageOptions *o)
{
	*w = (World){1, NULL};
	if (o->allow_undefined)
		*w = (World){0, "linked with --allow-undefined"};
	for (const Stmt *s = m->items.head; s && w->closed; s = s->next) {
		if (s->kind == S_VAR && s->var.linkage == LINK_EXTERN && decl_space(&s->var) != SPACE_SHARED)
			*w = (World){0, "a variable is declared but not defined"};
		if (o->unlinked && s->kind == S_FUNC && joinable(s->func))
			*w = (World){0, "one input without -arch that other device code can join"};
	}
}
