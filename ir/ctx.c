/* Contexts: which tables of names, spellings and diagnostics this thread
 * works in.  The library enters its session's context on each call and
 * leaves it on return; the command, the tests and the tools enter one at
 * the start.  Reached through a thread-local pointer because every layer
 * interns and reports, and threading a parameter through all of them
 * would change every signature for no other gain. */
#include <stdlib.h>
#include "ctx.h"

/* initial-exec: every intern reads it, and in the shared library the
 * default model is a call to __tls_get_addr (3% of a parse's instructions,
 * against 1.5% this way); 8 bytes of static TLS, which dlopen also grants. */
static _Thread_local Ctx *current __attribute__((tls_model("initial-exec")));

Ctx *ctx_new(void)
{
	return xcalloc(1, sizeof(Ctx));
}

Ctx *ctx_enter(Ctx *c)
{
	Ctx *before = current;
	current = c;
	return before;
}

Ctx *ctx_now(void)
{
	if (!current)
		die("no context entered on this thread");
	return current;
}

/* Entered for the freeing: the tables hand back their own entries. */
void ctx_free(Ctx *c)
{
	if (!c)
		return;
	Ctx *before = ctx_enter(c);
	intern_reset();
	ctx_enter(before == c ? NULL : before);
	free(c);
}
