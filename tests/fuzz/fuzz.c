/* What the libFuzzer harnesses share: see fuzz.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "ptx-grammar/ptx.h"
#include "stages/stages.h"

static FILE *devnull;

void fuzz_begin(void)
{
	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	static Ctx *ctx;
	if (!ctx)
		ctx_enter(ctx = ctx_new());
	diag_set_stream(getenv("FUZZ_DIAG") ? stderr : devnull);
	diag_reset();
	static unsigned runs;
	if (++runs % 4096 == 0)
		intern_reset();
}

void fuzz_fail(const char *who, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", who);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

int fuzz_split(const char *text, size_t len, Piece *out)
{
	static const char sep[] = FUZZ_SEPARATOR;
	const size_t seplen = sizeof sep - 1;
	int n = 0;
	size_t start = 0;
	for (size_t i = 0; i + seplen <= len && n + 1 < FUZZ_MAX_MODULES; i++) {
		if ((i > 0 && text[i - 1] != '\n') || memcmp(text + i, sep, seplen) != 0)
			continue;
		out[n++] = (Piece){text + start, i - start};
		const char *nl = memchr(text + i, '\n', len - i);
		start = nl ? (size_t)(nl - text) + 1 : len;
		i = start - 1;
	}
	out[n++] = (Piece){text + start, len - start};
	return n;
}

char *fuzz_print(const Module *m, size_t *len)
{
	char *buf = NULL;
	*len = 0;
	FILE *f = open_memstream(&buf, len);
	if (!f)
		fuzz_fail("fuzz", "open_memstream failed");
	print_module(f, m);
	if (fclose(f) != 0)
		fuzz_fail("fuzz", "writing the printed module failed");
	return buf;
}

static void dump(const char *what, const char *text, size_t len)
{
	fprintf(stderr, "%s (%zu bytes):\n", what, len);
	fwrite(text, 1, len < 8192 ? len : 8192, stderr);
	fputc('\n', stderr);
}

void fuzz_reparse(const char *who, const Module *m)
{
	size_t len1, len2;
	char *out1 = fuzz_print(m, &len1);
	int errors = diag_errors();
	Module *m2 = ptx_parse_string("fuzz-printed.ptx", out1, len1);
	if (!m2 || diag_errors() != errors) {
		dump("printed text", out1, len1);
		diag_set_stream(stderr);
		mod_free(m2);
		mod_free(ptx_parse_string("fuzz-printed.ptx", out1, len1));
		fuzz_fail(who, "the printed module does not parse");
	}
	if (ir_verify_shape(m2) != 0) {
		diag_set_stream(stderr);
		ir_verify_shape(m2);
		fuzz_fail(who, "ir_verify fails on the re-parsed module");
	}
	char *out2 = fuzz_print(m2, &len2);
	mod_free(m2);
	if (len1 != len2 || memcmp(out1, out2, len1) != 0) {
		dump("first print", out1, len1);
		dump("print after re-parsing", out2, len2);
		fuzz_fail(who, "printing the re-parsed module gives other text");
	}
	free(out1);
	free(out2);
}

void fuzz_check_shape(const char *who, const Module *m)
{
	if (ir_verify_shape(m) == 0)
		return;
	diag_set_stream(stderr);
	ir_verify_shape(m);
	fuzz_fail(who, "ir_verify fails");
}

static const char *const archs[8] = {
	NULL, "sm_80", "sm_90a", "sm_52", "sm_86", "sm_100", "sm80", "sm_99999999999",
};

/* The pieces parsed and normalized, or 0 after a parse error. */
static int parse_all(const char *who, const char *text, size_t len, Module **mods)
{
	Piece p[FUZZ_MAX_MODULES];
	int n = fuzz_split(text, len, p), ok = 1;
	for (int i = 0; i < n; i++) {
		char name[16];
		snprintf(name, sizeof name, "m%d.ptx", i);
		mods[i] = ptx_parse_string(name, p[i].text, p[i].len);
		if (!mods[i]) {
			ok = 0;
			continue;
		}
		fuzz_check_shape(who, mods[i]);
		int errors = diag_errors();
		ir_normalize(mods[i]);
		ok &= diag_errors() == errors;   /* a name it cannot give one meaning, as the driver stops */
	}
	if (ok)
		return n;
	for (int i = 0; i < n; i++)
		mod_free(mods[i]);
	return 0;
}

Module *fuzz_load(const char *who, const char *text, size_t len, unsigned flags,
	LinkOptions *lo, int *ninputs)
{
	Module *mods[FUZZ_MAX_MODULES];
	int n = parse_all(who, text, len, mods);
	*ninputs = n;
	if (!n)
		return NULL;
	*lo = (LinkOptions){
		.arch = archs[flags & 7],
		.allow_undefined = !!(flags & 8),
		.strip_debug = !!(flags & 16),
		.defined_later = flags & 32 ? stages_define : NULL,
	};
	if ((flags & 64) && n == 1 && !lo->arch && !lo->strip_debug) {
		if (link_check_symbols(mods[0]) == 0)
			return mods[0];
		mod_free(mods[0]);
		return NULL;
	}
	return link_modules(mods, n, lo);
}
