/* What C's printf prints for the formats and values of printf.ptx:
 * cc -o printf_ref printf_ref.c && ./printf_ref > printf.expect */
#include <math.h>
#include <stdio.h>

/* Where ptxlink-run places str0: after the eight format strings, each in
 * a 256-byte-aligned region with a 256-byte gap after it, from 0x100000000. */
#define STR0 0x100001000ul

int main(void)
{
	printf("%d %u %x %X %o|%5d|%-5d|%05d|%+d|% d|\n", -42, -42, 255, 255, 8, 42, 42, 42, 42, 42);
	printf("%f %.2f %10.3f %-10.1f|%e %.3E %g %G %g %a\n", 3.14159265358979, 2.5, -0.3333333333333333, 1.25, 12345.678, 0.000123456, 10000000000.0, 1e-10, 100.0, 1.0);
	printf("%s|%10s|%-10s|%.3s|%c%c|\n", "hello", "world", "ptx", "hello", 65, 122);
	printf("%ld %lld %lu %hd %hhu %i %%\n", -1234567890123LL, 9876543210LL, 18446744073709551615ULL, 65537, 257, -7);
	printf("%#x %#o %.0f %.10g %5.1e %8.3f|%-8.2e|\n", 255, 8, 2.5, 3.14159265358979, 123456.0, -0.0005, 6.02e+23);
	printf("no args\n");
	printf("inf %f nan %f %5.2f%%\n", INFINITY, -INFINITY, 99.5);
	printf("%p|%20p|%-20p|%#lx|%p\n", (void *)STR0, (void *)STR0, (void *)STR0, (void *)STR0, 0LL);
	return 0;
}
