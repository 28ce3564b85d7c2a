/* vprintf(fmt, args): CUDA's device printf.  The arguments come packed in
 * a buffer, each at its natural alignment: 4 bytes for int-sized
 * conversions, 8 for l/ll, pointers, strings and doubles (a float
 * argument arrives promoted to double).  Each conversion is formatted by
 * the host's snprintf with the same flags, width and precision, so the
 * text is what C's printf prints for the same values. */
#include <stdlib.h>
#include <string.h>
#include "run.h"

typedef struct Args {
	Thread *t;
	uint64_t at;
	const DIns *d;
	int count;
} Args;

#define HELD_MAX (256u << 20)  /* bytes --printf-by-thread holds for a block */

static void out_write(const char *s, size_t n)
{
	if (!n)
		return;
	fwrite(s, 1, n, stdout);
	M->last_out = s[n - 1];
}

/* CUDA orders one thread's printf output but not the interleaving of
 * threads, so --printf-by-thread holds each thread's text until its
 * block ends (printf_flush) and a comparison sees one canonical order. */
static void emit(Args *a, const char *s, size_t n)
{
	Thread *t = a->t;
	if (!M->by_thread) {
		out_write(s, n);
		return;
	}
	if (!n)
		return;  /* printf(""): nothing held, and no buffer yet to hold it in */
	if (M->held + n > HELD_MAX)
		rt_fail(a->d, RUN_UNSUPPORTED, "--printf-by-thread holds at most %u MiB of a block's "
			"output", HELD_MAX >> 20);
	if (t->olen + n > t->ocap) {
		t->ocap = (t->olen + n) * 2;
		t->out = xrealloc(t->out, t->ocap);
	}
	memcpy(t->out + t->olen, s, n);
	t->olen += n;
	M->held += n;
}

/* The held output of the block's threads, in thread order. */
void printf_flush(void)
{
	if (!M->by_thread || !M->threads)
		return;
	for (uint32_t i = 0; i < M->nthreads; i++) {
		Thread *t = &M->threads[i];
		out_write(t->out, t->olen);
		t->olen = 0;
	}
	M->held = 0;
}


static uint64_t next_arg(Args *a, uint32_t size)
{
	a->at = (a->at + size - 1) & ~(uint64_t)(size - 1);
	uint64_t v = mem_load(a->t, SP_GENERIC, a->at, size, a->d);
	a->at += size;
	a->count++;
	return v;
}

/* One conversion: spec is "%" flags width precision, without length
 * and conversion characters; len is the length modifier. */
static void convert(Args *a, char *spec, const char *len, char conv)
{
	char buf[4096], fmt[96];
	int n = 0;
	int wide = strcmp(len, "l") == 0 || strcmp(len, "ll") == 0 || strcmp(len, "j") == 0 ||
		strcmp(len, "z") == 0 || strcmp(len, "t") == 0;
	switch (conv) {
	case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': {
		uint64_t v = next_arg(a, wide ? 8 : 4);
		const char *hl = strcmp(len, "h") == 0 ? "h" : strcmp(len, "hh") == 0 ? "hh" : "";
		if (!wide) {
			snprintf(fmt, sizeof fmt, "%s%s%c", spec, hl, conv);
			n = snprintf(buf, sizeof buf, fmt, (int)(uint32_t)v);
		} else {
			snprintf(fmt, sizeof fmt, "%sll%c", spec, conv);
			n = snprintf(buf, sizeof buf, fmt, (long long)v);
		}
		break;
	}
	case 'c': {
		uint64_t v = next_arg(a, 4);
		snprintf(fmt, sizeof fmt, "%sc", spec);
		n = snprintf(buf, sizeof buf, fmt, (int)(uint32_t)v);
		break;
	}
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
		uint64_t v = next_arg(a, 8);
		double x;
		memcpy(&x, &v, 8);
		snprintf(fmt, sizeof fmt, "%s%c", spec, conv);
		n = snprintf(buf, sizeof buf, fmt, x);
		break;
	}
	case 'p': {
		uint64_t v = next_arg(a, 8);
		snprintf(fmt, sizeof fmt, "%sp", spec);
		n = snprintf(buf, sizeof buf, fmt, (void *)(uintptr_t)v);
		break;
	}
	case 's': {
		uint64_t v = next_arg(a, 8);
		size_t sl;
		const char *s = v ? mem_cstr(a->t, v, a->d, &sl) : "(null)";
		snprintf(fmt, sizeof fmt, "%ss", spec);
		int need = snprintf(NULL, 0, fmt, s);
		if (need < 0 || need > (1 << 20))
			rt_fail(a->d, RUN_UNSUPPORTED, "printf conversion wider than 1 MiB");
		char *big = xmalloc((size_t)need + 1);
		snprintf(big, (size_t)need + 1, fmt, s);
		emit(a, big, (size_t)need);
		free(big);
		return;
	}
	default:
		rt_fail(a->d, RUN_UNSUPPORTED, "printf conversion '%%%c' not supported", conv);
	}
	if (n >= (int)sizeof buf)
		rt_fail(a->d, RUN_UNSUPPORTED, "printf conversion wider than %zu characters", sizeof buf);
	emit(a, buf, (size_t)n);
}

/* Reads "%[flags][width][.prec][len]conv" at s; returns what follows. */
static const char *directive(Args *a, const char *s)
{
	char spec[64];
	size_t k = 0;
	spec[k++] = *s++;
	while (*s && strchr("-+ #0", *s) && k < 20)
		spec[k++] = *s++;
	for (int part = 0; part < 2; part++) {
		if (part == 1) {
			if (*s != '.')
				break;
			spec[k++] = *s++;
		}
		if (*s == '*') {  /* an int argument */
			s++;
			k += (size_t)snprintf(spec + k, sizeof spec - k, "%d", (int)(uint32_t)next_arg(a, 4));
		}
		while (*s >= '0' && *s <= '9' && k < 40)
			spec[k++] = *s++;
	}
	spec[k] = 0;
	char len[3] = {0};
	if ((s[0] == 'h' && s[1] == 'h') || (s[0] == 'l' && s[1] == 'l')) {
		len[0] = s[0];
		len[1] = s[1];
		s += 2;
	} else if (*s && strchr("hljztL", *s))
		len[0] = *s++;
	if (!*s)
		return s;
	if (*s == '%') {
		emit(a, "%", 1);
		return s + 1;
	}
	convert(a, spec, len, *s);
	return s + 1;
}

int run_vprintf(Thread *t, uint64_t fmt, uint64_t args, const DIns *d)
{
	size_t n;
	if (!fmt)
		return -1;
	const char *s = mem_cstr(t, fmt, d, &n);
	char *copy = xstrdup(s);  /* the walk may move memory that s points into */
	Args a = {t, args, d, 0};
	const char *p = copy;
	while (*p) {
		const char *pct = strchr(p, '%');
		if (!pct) {
			emit(&a, p, strlen(p));
			break;
		}
		emit(&a, p, (size_t)(pct - p));
		p = directive(&a, pct);
	}
	free(copy);
	return a.count;
}
