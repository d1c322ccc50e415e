/* test-numbers.c: counts as exact integers, wrapped counts, zero within
 * rounding and range flags judged against an error.
 *
 * Truth: integer arithmetic (2^53 + 1, 2^64 - 1 and products written out
 * by hand, checked by the identities below), IEEE 754 (1 - 0.7 - 0.2 - 0.1
 * is -2.77e-17 in doubles, 0 in exact arithmetic), and the contracts of
 * util/count.h, core/evlist.h and metric/metric.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metric/metric.h"
#include "core/evlist.h"
#include "kmh/model.h"
#include "tap.h"
#include "util/count.h"

#define P53_1 UINT64_C(9007199254740993) /* 2^53 + 1 */

static void test_count_str(void)
{
	char b[HPM_COUNT_STR_MAX];
	tap_is_str(count_str(P53_1, false, b, sizeof(b)), "9007199254740993", "2^53+1 plain");
	tap_is_str(count_str(UINT64_MAX, true, b, sizeof(b)), "18,446,744,073,709,551,615",
	           "2^64-1 grouped");
	tap_is_str(count_str(0, true, b, sizeof(b)), "0", "0 grouped");
	tap_is_str(count_str(999, true, b, sizeof(b)), "999", "999: no separator");
	tap_is_str(count_str(1000, true, b, sizeof(b)), "1,000", "1000 grouped");
	tap_is_str(count_str((hpm_u128)UINT64_MAX + 1, false, b, sizeof(b)), "18446744073709551616",
	           "2^64 (a sum of units) plain");
	tap_is_str(count_str(~(hpm_u128)0, true, b, sizeof(b)),
	           "340,282,366,920,938,463,463,374,607,431,768,211,455",
	           "2^128-1 fits the buffer");
	uint64_t v = 0;
	tap_ok(count_parse_u64("18446744073709551615", &v) && v == UINT64_MAX, "parse 2^64-1");
	tap_ok(!count_parse_u64("18446744073709551616", &v), "2^64 does not parse");
	tap_ok(!count_parse_u64("-1", &v) && !count_parse_u64("", &v) &&
	           !count_parse_u64("1e3", &v) && !count_parse_u64(" 1", &v),
	       "only digits parse");
	/* 2^63 * 3 / 2 = 3 * 2^62 = 13835058055282163712 */
	tap_ok(count_muldiv(UINT64_C(1) << 63, 3, 2) == (hpm_u128)UINT64_C(13835058055282163712),
	       "muldiv beyond 64-bit intermediate");
	tap_ok(count_muldiv(UINT64_MAX, UINT64_MAX, UINT64_MAX) == UINT64_MAX,
	       "muldiv (2^64-1)^2 / (2^64-1)");
	tap_ok(count_muldiv(7, 1, 0) == 0, "muldiv by 0 is 0");
}

static void test_totals(void)
{
	struct hpm_count c[2] = {{.val = UINT64_MAX, .ena = 1000, .run = 1000},
	                         {.val = P53_1, .ena = 3, .run = 2}};
	struct hpm_total t;
	char b[HPM_COUNT_STR_MAX];
	hpm_counts_total(c, 2, 0, &t);
	tap_ok(t.ran && !t.wrapped && t.count == UINT64_MAX, "unscaled 2^64-1 is exact");
	hpm_counts_total(c, 2, 1, &t);
	/* (2^53 + 1) * 3 / 2 = 13510798882111489.5 -> 13510798882111489 */
	tap_is_str(count_str(t.count, false, b, sizeof(b)), "13510798882111489",
	           "scaled (2^53+1) * 3/2 rounds down exactly");
	hpm_counts_total(c, 2, -1, &t);
	/* 18446744073709551615 + 13510798882111489 */
	tap_is_str(count_str(t.count, false, b, sizeof(b)), "18460254872591663104",
	           "sum over units above 2^64 is exact");
	c[1].wrapped = true;
	hpm_counts_total(c, 2, -1, &t);
	tap_ok(t.wrapped, "a wrapped unit makes the total wrapped");
	tap_ok(isnan(hpm_counts_value(c, 2, -1, 1.0, NULL)), "a wrapped count has no value");
	tap_ok(!isnan(hpm_counts_value(c, 2, 0, 1.0, NULL)), "the other unit still has one");
	tap_ok(hpm_counts_wrapped(c, 2, 1) && !hpm_counts_wrapped(c, 2, 0),
	       "hpm_counts_wrapped per unit");
}

static int vars(void *ctx, const char *name, double *val)
{
	(void)ctx;
	static const struct {
		const char *n;
		double v;
	} t[] = {{"a", 0.7}, {"b", 0.2}, {"c", 0.1}, {"tiny", 1e-20}, {"p", 0.3}};
	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(t[i].n, name) == 0) {
			*val = t[i].v;
			return 0;
		}
	return METRIC_ENAME;
}

static double eval(const char *text)
{
	struct mexpr *e = NULL;
	struct hpm_diag err;
	double v = (double)NAN;
	if (mexpr_parse(text, &e, &err) == 0)
		mexpr_eval(e, 0, vars, NULL, &v, &err);
	mexpr_free(e);
	return v;
}

static void test_zero(void)
{
	/* the premise: in doubles this is not 0 */
	volatile double a = 0.7, b = 0.2, c = 0.1;
	tap_ok(1 - a - b - c != 0, "premise: 1 - 0.7 - 0.2 - 0.1 != 0 in doubles");
	double v = eval("1 - a - b - c");
	tap_ok(v == 0 && !signbit(v), "1 - a - b - c is exactly +0");
	v = eval("(a + b + c) - 1");
	tap_ok(v == 0 && !signbit(v), "(a + b + c) - 1 is exactly +0");
	v = eval("(1 - a - b) - c * 1");
	tap_ok(v == 0, "cancellation through a product");
	tap_ok(eval("tiny - 0") == 1e-20, "a small value that cancels nothing stays");
	tap_ok(eval("tiny") == 1e-20, "a small name stays");
	tap_ok(fabs(eval("p - c") - 0.2) < 1e-15, "a real difference stays");
	tap_ok(eval("1 - a - b - c + tiny") == 1e-20 || eval("1 - a - b - c + tiny") == 0,
	       "rounding residue does not grow");
}

static void test_range(void)
{
	const struct metric *m = metric_by_name(hpm_model_kunminghu.metrics, "tma_frontend_bound");
	char b[64];
	if (!tap_ok(m != NULL, "tma_frontend_bound exists"))
		return;
	tap_ok(metric_out_of_range_by(m, -0.05, 0.02) == -0.05, "-5%% +- 2%% is out by 5%%");
	tap_ok(metric_out_of_range_by(m, -0.01, 0.02) == 0, "-1%% +- 2%% is in range");
	tap_ok(metric_out_of_range_by(m, 1.05, 0.01) > 0.0499 &&
	           metric_out_of_range_by(m, 1.05, 0.01) < 0.0501,
	       "105%% +- 1%% is out by 5%%");
	tap_ok(metric_out_of_range_by(m, 0.5, 0) == 0, "50%% is in range");
	tap_ok(metric_out_of_range_by(m, -1e-17, 0) == 0, "a rounding residue is in range");
	tap_ok(metric_out_of_range_by(m, -0.001, (double)NAN) == -0.001,
	       "no error known: the slack");
	tap_ok(metric_out_of_range(m, -0.001) && !metric_out_of_range(m, -1e-12),
	       "metric_out_of_range agrees");
	tap_is_str(metric_range_text(-5, b, sizeof(b)), "5.00 below 0", "text below");
	tap_is_str(metric_range_text(120, b, sizeof(b)), "20.00 above 100", "text above");
}

int main(void)
{
	test_count_str();
	test_totals();
	test_zero();
	test_range();
	return tap_done();
}
