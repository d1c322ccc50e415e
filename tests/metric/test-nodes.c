/* test-nodes.c: --nodes selections (metric_set_add_nodes) against the
 * Topdown tree of SPEC §3, written out here, their errors, and the
 * bottleneck path of a selection that leaves level 1 out. */
#include <stdio.h>
#include <string.h>

#include "kmh/model.h"
#include "metric/metric.h"
#include "tap.h"

/* Kunminghu's table, as its model carries it */
#define T (hpm_model_kunminghu.metrics)

/* The names of s without "tma_", space-separated. */
static const char *names(const struct metric_set *s, char *buf, size_t len)
{
	buf[0] = '\0';
	for (unsigned i = 0; i < s->nr; i++) {
		size_t n = strlen(buf);
		snprintf(buf + n, len - n, "%s%s", n ? " " : "",
		         metric_str(s->m[i], s->m[i]->name) + 4);
	}
	return buf;
}

/* The selection of LIST from LEVEL, or "error CODE: MESSAGE". */
static const char *select_nodes(unsigned level, const char *list, char *buf, size_t len)
{
	struct metric_set s;
	struct hpm_diag err;
	metric_set_init(&s, T);
	int rc = metric_set_add_nodes(&s, level, list, &err);
	if (rc)
		snprintf(buf, len, "error %d: %s", rc, err.msg);
	else
		names(&s, buf, len);
	metric_set_free(&s);
	return buf;
}

#define MEM "memory_bound l1_bound l2_bound l3_bound dram_bound store_bound"
#define L1  "frontend_bound bad_speculation backend_bound retiring"

static void test_selections(void)
{
	char buf[512];
	tap_is_str(select_nodes(1, "!Memory_Bound*", buf, sizeof(buf)), MEM,
	           "!Memory_Bound*: the node and its subtree (SPEC: L1, L2, L3, DRAM, Store)");
	tap_is_str(select_nodes(1, "Memory_Bound*", buf, sizeof(buf)),
	           "frontend_bound bad_speculation backend_bound " MEM " retiring",
	           "Memory_Bound*: added to level 1, in tree order");
	tap_is_str(select_nodes(1, "+tma_core_bound,-Retiring,^bad_speculation", buf, sizeof(buf)),
	           "frontend_bound backend_bound core_bound", "+ adds, - and ^ remove");
	tap_is_str(select_nodes(2, "-frontend_bound*", buf, sizeof(buf)),
	           "bad_speculation branch_mispredicts machine_clears backend_bound core_bound "
	           "memory_bound retiring",
	           "-frontend_bound* removes a subtree from level 2");
	tap_is_str(select_nodes(1, "! MEMORY_BOUND , TMA_L1_Bound ", buf, sizeof(buf)),
	           "memory_bound l1_bound", "case ignored, blanks around items dropped");
	tap_is_str(select_nodes(1, "MEMORY_BOUND,TMA_L1_Bound", buf, sizeof(buf)),
	           "frontend_bound bad_speculation backend_bound memory_bound l1_bound retiring",
	           "a plain name adds to the default set, as toplev");
	tap_is_str(select_nodes(1, "!l?_bound", buf, sizeof(buf)), "l1_bound l2_bound l3_bound",
	           "globs: l?_bound");
	tap_is_str(select_nodes(3, "!*/1", buf, sizeof(buf)), L1, "*/1: level 1 only");
	tap_is_str(select_nodes(1, "!backend_bound.memory_bound", buf, sizeof(buf)), "memory_bound",
	           "a node by its path from level 1");
	tap_is_str(select_nodes(1, "-L1_Bound,Memory_Bound*", buf, sizeof(buf)),
	           "frontend_bound bad_speculation backend_bound memory_bound l2_bound l3_bound "
	           "dram_bound store_bound retiring",
	           "a removal wins whatever the order");
	tap_is_str(select_nodes(1, "tma_retiring,,", buf, sizeof(buf)), L1,
	           "empty items are nothing, as in toplev");
}

static void test_errors(void)
{
	char buf[512];
	tap_is_str(select_nodes(1, "Memroy_Bound", buf, sizeof(buf)),
	           "error -5: unknown Topdown node 'Memroy_Bound'; did you mean "
	           "'Memory_Bound'?",
	           "a typo: unknown, with the closest node");
	tap_is_str(select_nodes(1, "ipc", buf, sizeof(buf)),
	           "error -5: unknown Topdown node 'ipc' (the tree is in hpmstat-stat(1))",
	           "a metric outside the tree is no node");
	tap_is_str(select_nodes(1, "memory_bound/0", buf, sizeof(buf)),
	           "error -6: 'memory_bound/0': the level after '/' must be 1 to 3",
	           "/0 is no level");
	tap_is_str(select_nodes(1, "+/2", buf, sizeof(buf)), "error -5: '+/2': no node name",
	           "a level without a name");
	tap_is_str(select_nodes(1, "!", buf, sizeof(buf)), "error -6: '!' selects no Topdown node",
	           "a selection of nothing");
	tap_is_str(select_nodes(4, "retiring", buf, sizeof(buf)),
	           "error -6: Topdown level 4 out of range (1 to 3)", "level 4");

	/* nothing is added on error */
	struct metric_set s;
	struct hpm_diag err;
	metric_set_init(&s, T);
	metric_set_add_metric(&s, metric_by_name(T, "ipc"));
	tap_ok(metric_set_add_nodes(&s, 1, "retiring,zzz", &err) == METRIC_EUNKNOWN && s.nr == 1,
	       "an error adds nothing of the list");
	tap_ok(metric_set_max_level(&s) == 0, "max level of a set without a node: 0");
	tap_ok(metric_set_add_nodes(&s, 1, "memory_bound", &err) == 0 && s.nr == 6 &&
	           metric_set_max_level(&s) == 2,
	       "appended after what the set had; max level 2");
	metric_set_free(&s);
}

static void test_bottleneck(void)
{
	struct metric_set s;
	struct hpm_diag err;
	struct metric_value v[8];
	char buf[256];
	metric_set_init(&s, T);
	metric_set_add_nodes(&s, 1, "!memory_bound*", &err);
	memset(v, 0, sizeof(v));
	static const double val[] = {0.4, 0.05, 0.1, 0.2, 0.03, 0.02};
	for (unsigned i = 0; i < s.nr; i++) {
		v[i].value = val[i];
		v[i].thresh = METRIC_THRESH_YES;
	}
	metric_set_mark_bottleneck(&s, v);
	buf[0] = '\0';
	for (unsigned i = 0; i < s.nr; i++)
		if (v[i].flags & METRIC_F_BOTTLENECK) {
			size_t n = strlen(buf);
			snprintf(buf + n, sizeof(buf) - n, "%s%s%s", n ? " " : "",
			         metric_str(s.m[i], s.m[i]->name) + 4,
			         v[i].flags & METRIC_F_BOTTLENECK_LEAF ? "*" : "");
		}
	tap_is_str(buf, "memory_bound l3_bound*",
	           "a selection without level 1: the path starts at its top node");
	metric_set_free(&s);
}

int main(void)
{
	test_selections();
	test_errors();
	test_bottleneck();
	metric_release(T);
	return tap_done();
}
