/* What C's printf prints for the values each kernel of run.list is given:
 * the reference the lowered kernels' output is compared with.  Threads of
 * a warp run in lockstep, so each printf prints for every thread in turn.
 * printf's result on the device is vprintf's: the number of arguments. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static void types(void)
{
	int8_t c = (int8_t)253;
	int16_t s = (int16_t)65531;
	int32_t i = -42;
	int64_t l = -1234567890123;
	float f = 3.25f;
	double d = 2.718281828459045;
	printf("i8 %d u8 %u i16 %d u16 %u i32 %d u32 %u i64 %lld u64 %llu\n", c, (uint8_t)c, s,
		(uint16_t)s, i, (uint32_t)i, (long long)l, (unsigned long long)l);
	/* i8, i16 and float passed raw: llc widens the integers with zeros */
	printf("raw i8 %hhd u8 %hhu i16 %hd u16 %hu f32 %f %.3e imm %hhd %hu %g\n", (uint8_t)c,
		(uint8_t)c, (uint16_t)s, (uint16_t)s, f, f, (uint8_t)-3, (uint16_t)65535, 1.5f);
	printf("f64 %f %g %e %.10f f32 %.2f\n", d, d, d, d, f);
	printf("str [%s] [%-8s] [%8.3s] ptr %p long %ld %lx\n", "hello", "hello", "hello",
		(void *)4096, (long)l, (long)l);
	printf("const %x %X %#o %c%c %5d|%-5d|%05d\n", i, i, i, 72, 105, i, i, i);
}

static void many(void)
{
	int a = 10, tid;
	long long b = -99;
	double x = 0.5;
	float y = -1.25f;
	for (tid = 0; tid < 4; tid++)
		printf("many: %d %lld %d %f %d %s %d %f %c %llu %u %.1f %x %hhd\n", a, b, a + 1, x,
			a + 2, "word", a + 3, y, 65, (unsigned long long)b, tid, y, 255, 7);
	for (tid = 0; tid < 4; tid++)
		printf("no arguments at all\n");
	for (tid = 1; tid < 4; tid += 2)
		printf("odd thread %d: %f\n", tid, x);
	for (tid = 0; tid < 4; tid++)
		printf("printf returned %d\n", 14);
}

static void device(void)
{
	for (int tid = 0; tid < 2; tid++)
		printf("kernel: thread %d calls report\n", tid);
	for (unsigned tid = 0; tid < 2; tid++)
		printf("report %s: id=%u value=%f\n", "sensor", tid, 0.75f);
	for (int tid = 0; tid < 2; tid++)
		printf("leaf %d\n", 12);
}

static void llc_printf(void)
{
	uint32_t bits = 0x40404040;
	float v;
	memcpy(&v, &bits, sizeof v);
	for (int tid = 0; tid < 2; tid++)
		printf("tid %d value %f\n", tid, v);
}

static void clang_printf(void)
{
	for (int tid = 0; tid < 2; tid++)
		printf("thread %d n=%d f=%f\n", tid, 7, 0.125f);
}

static void layout(void)
{
	printf("%d %d %u %hx %f %g %x %s %e %d %d %ld\n", (int8_t)65533, -2, 5u,
		(uint16_t)0xFFFE, 5.0f, 1.5f, 5u, "plain\n", 5.0, (int16_t)65533, -7, 5L);
	printf("plain\n");
	printf("%c %u\n", 72, 0u);
}

static void names(void)
{
	printf("nv\n");
	printf("hello\n");
	printf("%f %lld \n", 2.5f, -42LL);
}

/* runtime.ptx: the format in the kernel parameter is empty (a zeroed
 * buffer); the others come from a table, a selp, a local array. */
static void runtime(void)
{
	int n = 7;
	for (int tid = 0; tid < 2; tid++)
		printf("n=%d\n", n);
	printf("t%d: %d %u %f %g %lld\n", 0, (int8_t)-n, (uint16_t)-n, (double)7.0f, 1.5, -7LL);
	printf("t%x: %x %x %.2e %a %llx\n", 1, (int8_t)-n, (uint16_t)-n, (double)7.0f, 1.5, -7LL);
	printf("even\nodd\n");
	for (int tid = 0; tid < 2; tid++)
		printf("l %.3f\n", 7.0);
	for (int tid = 0; tid < 2; tid++)
		printf("lit %d\n", n);
}

/* corpus/src/printf_runtime.cu, thread by thread (--printf-by-thread):
 * the format from fmts[(t + k) % 3], say()'s parameter, the local array
 * "l=%d %c\n" with d, x or o, then plain[t & 1]. */
static void printf_runtime(void)
{
	int k = 5;
	float f = 1.5f;
	long long ll = -123456789012LL;
	short sh = -7;
	for (unsigned t = 0; t < 4; t++) {
		char c = (char)('A' + t);
		unsigned char uc = (unsigned char)(250 + t);
		switch ((t + k) % 3) {
		case 0: printf("table %u: c=%d uc=%u s=%d f=%f ll=%lld\n", t, c, uc, sh, f, ll); break;
		case 1: printf("table %x: c=%c uc=%x s=%hd f=%.2e ll=%llx\n", t, c, uc, sh, f, ll); break;
		default: printf("table %o: c=%i uc=%#x s=%hu f=%g ll=%lli\n", t, c, uc, sh, f, ll);
		}
		if (t & 1)
			printf("odd %d %.3f [%s]\n", (int)t, f * 2.0, "str");
		else
			printf("even %d %f [%s]\n", (int)t, f * 2.0, "str");
		switch (t % 3) {
		case 0: printf("l=%d %c\n", k + (int)t, c); break;
		case 1: printf("l=%x %c\n", k + (int)t, c); break;
		default: printf("l=%o %c\n", k + (int)t, c);
		}
		printf(t & 1 ? "none at all (100%%)\n" : "no arguments\n");
	}
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*fn)(void); } runs[] = {
		{"types", types}, {"many", many}, {"device", device}, {"llc_printf", llc_printf},
		{"clang_printf", clang_printf}, {"layout", layout}, {"names", names},
		{"runtime", runtime}, {"printf_runtime", printf_runtime},
	};
	for (size_t i = 0; argc == 2 && i < sizeof runs / sizeof *runs; i++)
		if (!strcmp(argv[1], runs[i].name)) {
			runs[i].fn();
			return 0;
		}
	fprintf(stderr, "usage: printf-expected NAME\n");
	return 2;
}
