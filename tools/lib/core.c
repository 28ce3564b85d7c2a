/* The work the command and libptxlink share (core.h). */
#include <stdio.h>
#include "core.h"

Module *core_input(Module *m, const char *name, int verify)
{
	if (m && verify && ir_verify_shape(m) != 0)
		die("IR invariants broken after parsing %s", name);
	int errors = diag_errors();
	if (m)
		ir_normalize(m);  /* linked or not, the one form the stages take */
	if (m && diag_errors() != errors) {   /* a name it cannot give one meaning (ir/scope.c) */
		mod_free(m);
		return NULL;
	}
	return m;
}

static int links(const LinkOptions *lo, int n)
{
	return !(n == 1 && !lo->arch && !lo->strip_debug);
}

void core_settle(LinkOptions *lo, StageOptions *so, int n, int no_stages)
{
	lo->defined_later = no_stages ? NULL : stages_define;
	so->allow_undefined = lo->allow_undefined;
	/* -arch asks for a link, as nvlink's does: the result is the program */
	so->unlinked = n == 1 && !lo->arch;
	/* a link whose stages run: names dead code alone references may stay
	 * undefined, as nvlink -dlto drops unused library code first */
	lo->defer_undefined = so->check_undefined = links(lo, n) && !no_stages && !lo->allow_undefined;
}

/* One input and no -arch is not linked (nothing to link or retarget). */
Module *core_combine(Module **mods, int n, const LinkOptions *lo, int verify)
{
	if (!links(lo, n)) {
		Module *m = mods[0];
		if (link_check_symbols(m) == 0)
			return m;
		mod_free(m);
		return NULL;
	}
	Module *m = link_modules(mods, n, lo);
	if (m && verify && ir_verify_shape(m) != 0)
		die("IR invariants broken after linking");
	return m;
}
