/* link/: which GPUs PTX of a target runs on (link_arch_runs) and the
 * .version it needs (link_ptx_version), each answer the one ptxas 13 gave
 * for a kernel of that .target and that -arch. */
#include "unit.h"
#include "link/link.h"

START_TEST(arch_runs)
{
	static const struct { const char *ptx, *gpu; int runs; } t[] = {
		/* plain: that GPU and every later one, a and f included */
		{"sm_80", "sm_80", 1}, {"sm_80", "sm_90a", 1}, {"sm_90", "sm_121f", 1},
		{"sm_90", "sm_80", 0}, {"sm_100", "sm_110", 1}, {"sm_103", "sm_100", 0},
		/* architecture-specific: that GPU alone */
		{"sm_90a", "sm_90a", 1}, {"sm_90a", "sm_90", 0}, {"sm_90a", "sm_100a", 0},
		{"sm_100a", "sm_100f", 0}, {"sm_100a", "sm_103a", 0}, {"sm_120a", "sm_120", 0},
		/* family-specific: later members of the family (same major) */
		{"sm_100f", "sm_100", 1}, {"sm_100f", "sm_100a", 1}, {"sm_100f", "sm_103", 1},
		{"sm_100f", "sm_103f", 1}, {"sm_100f", "sm_103a", 1}, {"sm_100f", "sm_110f", 0},
		{"sm_100f", "sm_110", 0}, {"sm_103f", "sm_100", 0}, {"sm_120f", "sm_121", 1},
		{"sm_110f", "sm_120f", 0},
		/* compute_ names as their sm_; anything else runs nowhere */
		{"compute_90", "sm_90a", 1}, {"sm_9x", "sm_90", 0}, {"sm_90", "sm_90b", 0},
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		ck_assert_msg(link_arch_runs(t[i].ptx, t[i].gpu) == t[i].runs, "%s on %s: expected %d",
			t[i].ptx, t[i].gpu, t[i].runs);
}
END_TEST

/* The .version a target needs, each the oldest ptxas 13 took for it. */
START_TEST(ptx_version)
{
	static const struct { const char *arch, *have, *need; } t[] = {
		{"sm_80", "7.0", "7.0"}, {"sm_90a", "7.8", "8.0"}, {"sm_100", "8.5", "8.6"},
		{"sm_100f", "8.6", "8.8"}, {"sm_120", "8.0", "8.7"}, {"sm_120f", "8.7", "8.8"},
		{"sm_110f", "8.8", "9.0"}, {"sm_103f", "9.0", "9.0"},
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		ck_assert_str_eq(link_ptx_version(t[i].arch, t[i].have), t[i].need);
}
END_TEST

Suite *link_suite(void)
{
	Suite *s = suite_create("link");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, arch_runs);
	tcase_add_test(tc, ptx_version);
	suite_add_tcase(s, tc);
	return s;
}
