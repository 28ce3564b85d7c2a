/* The pipeline, written out in order, as QBE's main.c does. */
#include <string.h>
#include "stages.h"

typedef struct Stage {
	const char *name;
	void (*run)(Module *, const StageOptions *);
} Stage;

static const Stage stages[] = {
	{"devirt", devirt},
	{"printf", printf_lower},
};

int run_pipeline(Module *m, const StageOptions *o)
{
	int errors = diag_errors();
	for (size_t i = 0; i < sizeof stages / sizeof *stages; i++) {
		stages[i].run(m, o);
		if (diag_errors() != errors)
			return -1;
		if (o->verify && ir_verify(m) != 0)
			die("IR invariants broken after stage '%s'", stages[i].name);
		if (o->print_after && !strcmp(o->print_after, stages[i].name))
			print_module(stderr, m);
	}
	return 0;
}
