/* What the libFuzzer harnesses share (tests/fuzz/, run by tools/fuzz.sh).
 *
 * A harness aborts on a broken invariant, which libFuzzer reports as a
 * crash and saves the input for; bad input itself only makes ptxlink
 * report errors, which go to /dev/null. */
#ifndef PTXLINK_FUZZ_H
#define PTXLINK_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include "ir/ir.h"
#include "link/link.h"

/* Inputs holding several modules separate them by this line; to the
 * parser it is a comment, so the whole input is one module too. */
#define FUZZ_SEPARATOR "//--- next module"
enum { FUZZ_MAX_MODULES = 8 };

typedef struct Piece {
	const char *text;
	size_t len;
} Piece;

/* Starts an input: diagnostics to /dev/null (to stderr when FUZZ_DIAG is
 * set in the environment, to see why an input fails), the error count reset, and
 * now and then the intern table emptied (no module is alive between
 * inputs; every random name would otherwise stay interned). */
void fuzz_begin(void);
/* Splits text at separator lines into at most FUZZ_MAX_MODULES pieces
 * (later separators stay in the last piece, as comments); returns how many. */
int fuzz_split(const char *text, size_t len, Piece *out);
/* The module's printed text (malloc'd), and its length. */
char *fuzz_print(const Module *, size_t *len);
/* Prints the module and parses the text again: the printer must write PTX
 * the parser reads without an error, whose IR has the invariants' shape,
 * and which prints the same again.  Aborts otherwise, after saying why
 * (who: the harness and what was printed, e.g. "fuzz_link: linked module"). */
void fuzz_reparse(const char *who, const Module *);
/* Parses the modules of an input (text after its option bytes) as the
 * driver does (tools/cli/ptxlink.c: parse, ir_verify_shape, ir_normalize) and
 * links them with the options flags picks; NULL after errors.
 *   bits 0-2  -arch: none, sm_80, sm_90a, sm_52 (older than the inputs),
 *             sm_86, sm_100, sm80 and sm_99999999999 (both malformed)
 *   bit 3     --allow-undefined
 *   bit 4     --strip-debug
 *   bit 5     names the stages define may stay undefined (printf), as
 *             without --no-stages
 *   bit 6     one input, no -arch, no --strip-debug: not linked, only the
 *             symbol checks (link_check_symbols), as the driver does then
 * *lo and *ninputs say how it was linked. */
Module *fuzz_load(const char *who, const char *text, size_t len, unsigned flags,
	LinkOptions *lo, int *ninputs);
/* Aborts unless ir_verify_shape holds, after printing what is wrong. */
void fuzz_check_shape(const char *who, const Module *);
/* Says why on stderr and aborts: a finding. */
_Noreturn void fuzz_fail(const char *who, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
