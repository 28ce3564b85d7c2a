/* libFuzzer harness for the PTX front end and printer.
 *
 * For every input: parse it; when it parses, the IR must verify, the
 * printed text must parse again (else the printer wrote PTX we cannot
 * read), and printing that second module must give the same bytes
 * (print(parse(print(m))) == print(m)): fuzz_reparse.  Any violation
 * aborts, which libFuzzer reports as a crash.  Diagnostics go to /dev/null.
 *
 * Interned strings live for the whole process by design, so the intern
 * table grows with the number of distinct names seen; fuzz_begin empties
 * it now and then, between inputs, when no module is alive.
 */
#include <stdint.h>
#include "fuzz.h"
#include "ptx-grammar/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_begin();
	Module *m = ptx_parse_string("fuzz.ptx", (const char *)data, size);
	if (!m)
		return 0;
	fuzz_check_shape("fuzz_parse: parsed module", m);
	fuzz_reparse("fuzz_parse", m);
	mod_free(m);
	return 0;
}
