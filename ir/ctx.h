/* A context's state (ir.h: Ctx), private to ir/: the tables that intern.c,
 * opcode.c and diag.c would otherwise keep in statics.  One per library
 * session and one for the command; each thread works in its current one,
 * so sessions on different threads share nothing they write. */
#ifndef PTXLINK_CTX_H
#define PTXLINK_CTX_H

#include "ir.h"

struct Ctx {
	/* intern.c: open addressing; nslots is 0 or a power of two */
	struct Slot *slots;
	size_t nslots, count, nbytes;
	Arena *entries;  /* the Interned, never freed one by one */
	/* opcode.c: the decoded spellings, found through their interned text */
	struct SpellingEntry *spellings;
	/* diag.c: file numbers are found through the interned name */
	const char **files;
	uint32_t nfiles, capfiles;
	int nerrors;
	FILE *out;
	DiagHandler *handler;
	void *handler_ctx;
	DiagWarnings warnmode;
};

Ctx *ctx_now(void);   /* the thread's current context; a bug without one */

#endif
