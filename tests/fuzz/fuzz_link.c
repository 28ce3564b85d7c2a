/* libFuzzer harness for the linker (link/link.c).
 *
 * An input is one byte of link options and then up to FUZZ_MAX_MODULES
 * PTX modules separated by FUZZ_SEPARATOR lines; fuzz_load (fuzz.h) parses
 * and links them as the driver does.  Link errors are fine.  A linked
 * module must have the IR's shape (ir_verify_shape, as ptxlink --verify
 * checks after linking), and its printed text must parse again and print
 * the same (fuzz_reparse).  Any crash, leak, undefined behaviour or abort
 * is a finding. */
#include <stdint.h>
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	fuzz_begin();
	LinkOptions lo;
	int n;
	Module *m = fuzz_load("fuzz_link", (const char *)data + 1, size - 1, data[0], &lo, &n);
	if (!m)
		return 0;
	fuzz_check_shape("fuzz_link: linked module", m);
	fuzz_reparse("fuzz_link: linked module", m);
	mod_free(m);
	return 0;
}
