/* ir/leb128.c: the ULEB128 numbers of -G's DWARF, at the 1- and 2-byte
 * edges, padded as the depot stage rewrites them, and cut short. */
#include "unit.h"

static const struct {
	uint64_t v;
	uint8_t bytes[ULEB_MAX];
	uint32_t n;
} cases[] = {
	{0, {0x00}, 1},
	{1, {0x01}, 1},
	{127, {0x7f}, 1},
	{128, {0x80, 0x01}, 2},
	{129, {0x81, 0x01}, 2},
	{624485, {0xe5, 0x8e, 0x26}, 3},   /* DWARF 5's example */
	{16383, {0xff, 0x7f}, 2},
	{16384, {0x80, 0x80, 0x01}, 3},
	{UINT64_MAX, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 10},
};

START_TEST(encodes_and_decodes)
{
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		uint8_t buf[ULEB_MAX];
		uint64_t v;
		ck_assert_uint_eq(uleb_size(cases[i].v), cases[i].n);
		ck_assert_int_eq(uleb_encode(cases[i].v, buf, cases[i].n), 0);
		ck_assert_mem_eq(buf, cases[i].bytes, cases[i].n);
		ck_assert_uint_eq(uleb_decode(cases[i].bytes, ULEB_MAX, &v), cases[i].n);
		ck_assert_uint_eq(v, cases[i].v);
	}
}
END_TEST

START_TEST(pads_to_its_bytes)
{
	uint8_t buf[ULEB_MAX];
	uint64_t v;
	ck_assert_int_eq(uleb_encode(5, buf, 3), 0);
	ck_assert_mem_eq(buf, "\x85\x80\x00", 3);
	ck_assert_uint_eq(uleb_decode(buf, 3, &v), 3);
	ck_assert_uint_eq(v, 5);
	ck_assert_int_eq(uleb_encode(16383, buf, 2), 0);
	ck_assert_int_eq(uleb_encode(128, buf, 1), -1);     /* two bytes in one */
	ck_assert_int_eq(uleb_encode(16384, buf, 2), -1);
}
END_TEST

START_TEST(refuses_truncated_input)
{
	uint64_t v;
	static const uint8_t cont[ULEB_MAX + 1] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
		0x80, 0x80, 0x01};
	ck_assert_uint_eq(uleb_decode((const uint8_t *)"\x80\x01", 1, &v), 0);  /* cut after 1 byte */
	ck_assert_uint_eq(uleb_decode((const uint8_t *)"\x81\x81\x01", 2, &v), 0);
	ck_assert_uint_eq(uleb_decode(NULL, 0, &v), 0);
	ck_assert_uint_eq(uleb_decode(cont, sizeof cont, &v), 0);  /* more than ULEB_MAX bytes */
	ck_assert_uint_eq(uleb_decode((const uint8_t *)"\x80\x01\x05", 3, &v), 2);  /* stops at its end */
	ck_assert_uint_eq(v, 128);
}
END_TEST

Suite *leb128_suite(void)
{
	Suite *s = suite_create("leb128");
	TCase *tc = tcase_create("leb128");
	tcase_add_test(tc, encodes_and_decodes);
	tcase_add_test(tc, pads_to_its_bytes);
	tcase_add_test(tc, refuses_truncated_input);
	suite_add_tcase(s, tc);
	return s;
}
