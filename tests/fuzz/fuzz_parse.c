/* libFuzzer harness for the PTX front end and printer.
 *
 * For every input: parse it; when it parses, the IR must verify, the
 * printed text must parse again (else the printer wrote PTX we cannot
 * read), and printing that second module must give the same bytes
 * (print(parse(print(m))) == print(m)).  Any violation aborts, which
 * libFuzzer reports as a crash.  Diagnostics go to /dev/null.
 *
 * Interned strings live for the whole process by design, so the intern
 * table grows with the number of distinct names seen; that is not a
 * leak (it stays reachable) but bounds how long one fuzz run can be.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"
#include "ptx-grammar/ptx.h"

static FILE *devnull;

static char *print_to_mem(const Module *m, size_t *len)
{
	char *buf = NULL;
	*len = 0;
	FILE *f = open_memstream(&buf, len);
	if (!f) {
		fprintf(stderr, "fuzz_parse: open_memstream failed\n");
		abort();
	}
	print_module(f, m);
	if (fclose(f) != 0) {
		fprintf(stderr, "fuzz_parse: writing the printed module failed\n");
		abort();
	}
	return buf;
}

static void dump(const char *what, const char *text, size_t len)
{
	fprintf(stderr, "fuzz_parse: %s (%zu bytes):\n", what, len);
	fwrite(text, 1, len < 4096 ? len : 4096, stderr);
	fputc('\n', stderr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		if (!devnull)
			abort();
	}
	diag_set_stream(devnull);
	diag_reset();
	/* Every random name would stay interned: long runs would only grow.
	 * No module is alive between inputs. */
	static unsigned runs;
	if (++runs % 4096 == 0)
		intern_reset();

	Module *m = ptx_parse_string("fuzz.ptx", (const char *)data, size);
	if (!m)
		return 0;
	if (ir_verify_shape(m) != 0) {
		diag_set_stream(stderr);
		ir_verify_shape(m);
		fprintf(stderr, "fuzz_parse: ir_verify failed on a parsed module\n");
		abort();
	}

	size_t len1, len2;
	char *out1 = print_to_mem(m, &len1);
	mod_free(m);

	Module *m2 = ptx_parse_string("fuzz-printed.ptx", out1, len1);
	if (!m2) {
		dump("printed text", out1, len1);
		diag_set_stream(stderr);
		diag_reset();
		mod_free(ptx_parse_string("fuzz-printed.ptx", out1, len1));
		fprintf(stderr, "fuzz_parse: the printer produced text that does not parse\n");
		abort();
	}
	if (ir_verify_shape(m2) != 0) {
		fprintf(stderr, "fuzz_parse: ir_verify failed on the re-parsed module\n");
		abort();
	}
	char *out2 = print_to_mem(m2, &len2);
	mod_free(m2);

	if (len1 != len2 || memcmp(out1, out2, len1) != 0) {
		dump("first print", out1, len1);
		dump("second print", out2, len2);
		fprintf(stderr, "fuzz_parse: printing is not idempotent\n");
		abort();
	}
	free(out1);
	free(out2);
	return 0;
}
