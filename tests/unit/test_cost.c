/* stages/cost.c: the inline cost model and the funnel rule, each answer
 * worked out by hand from the rules' text. */
#include "unit.h"
#include "stages/cost.h"

START_TEST(weighs_copies_and_folds)
{
	/* 3 copies of a 10-instruction body, 4 of call sequence each, 5 folded */
	CostFacts f = {.body = 10, .copies = 3, .overhead = 4, .folds = 5};
	ck_assert_int_eq(cost_weigh(&f), 3 * (10 - 4) - 5);
	f.last = 1;          /* the body goes with them */
	ck_assert_int_eq(cost_weigh(&f), 13 - 10);
	f.body = 401;        /* past BODY_GOES_MAX: no discount */
	ck_assert_int_eq(cost_weigh(&f), 3 * (401 - 4) - 5);
	f.move_room = 401;   /* unless the moves' budget still holds it */
	ck_assert_int_eq(cost_weigh(&f), 3 * (401 - 4) - 5 - 401);
	f.move_room = 400;   /* one short: no discount */
	ck_assert_int_eq(cost_weigh(&f), 3 * (401 - 4) - 5);
	f.copies = 1;        /* the one copy is the body moved: only its call's 4 */
	f.folds = 0;
	f.move_room = 5000;
	ck_assert_int_eq(cost_weigh(&f), -4);
}
END_TEST

START_TEST(weighs_a_local_array_passed)
{
	CostFacts f = {.body = 20, .copies = 2, .overhead = 3, .local = COST_LOCAL_PASSED,
		.loop_ins = 7, .last = 1};
	/* its loops count 3 times more, and the body going earns nothing */
	ck_assert_int_eq(cost_weigh(&f), 2 * 17 + 3 * 2 * 7);
	f.loop_ins = 0;      /* no loop ptxas unrolls, one read: the body goes as any */
	f.indexed_loads = 1;
	ck_assert_int_eq(cost_weigh(&f), 2 * 17 - 20);
	f.indexed_loads = 2; /* two chains of selects: it stays */
	ck_assert_int_eq(cost_weigh(&f), 2 * 17);
	f.indexed_loads = 1; /* one read, but a body of 201: its frame and accesses would join the caller's */
	f.body = 201;
	ck_assert_int_eq(cost_weigh(&f), 2 * 198);
	f.body = 200;
	ck_assert_int_eq(cost_weigh(&f), 2 * 197 - 200);
	f.body = 20, f.indexed_loads = 2;
	f.loop_ins = 7;
	f.local = COST_LOCAL_HELD;   /* 60 less, and the body goes */
	ck_assert_int_eq(cost_weigh(&f), 34 - 20 - 60);
	f.last = 0;
	ck_assert_int_eq(cost_weigh(&f), 34 - 60);
	f.held_bytes = 16;   /* each of the 2 copies frees 16 bytes: 2 each less */
	ck_assert_int_eq(cost_weigh(&f), 34 - 60 - 2 * 2 * 16);
}
END_TEST

START_TEST(weighs_a_funnel)
{
	/* fnptr's u_* funnels: 12 of tests and branches, arms 1, -1, 1, 0, calls of 4 */
	int arm[] = {1, -1, 1, 0}, g = -1;
	FunnelFacts f = {.weighed = 1, .tests = 12, .call = 4, .narms = 4, .arm = arm,
		.threshold = 20};
	ck_assert_int_eq(cost_funnel_worth(&f, &g), 0);
	ck_assert_int_eq(g, 12 + 1 + 3 * 4);
	f.threshold = 25;
	ck_assert_int_eq(cost_funnel_worth(&f, &g), 1);
	f.threshold = 0;
	f.weighed = 0;       /* --inline=always */
	ck_assert_int_eq(cost_funnel_worth(&f, &g), 1);
	f.weighed = 1, f.open = 1;
	ck_assert_int_eq(cost_funnel_worth(&f, &g), 1);
}
END_TEST

Suite *cost_suite(void)
{
	Suite *s = suite_create("cost");
	TCase *tc = tcase_create("model");
	tcase_add_test(tc, weighs_copies_and_folds);
	tcase_add_test(tc, weighs_a_local_array_passed);
	tcase_add_test(tc, weighs_a_funnel);
	suite_add_tcase(s, tc);
	return s;
}
