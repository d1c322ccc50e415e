/* test-evspec.c: the -e splitter (core/evlist.c) on perf's spellings:
 * blanks perf's lexer ignores, group modifiers ({...}:uW), and the
 * per-event options -G (n-th cgroup to the n-th event, as perf's
 * parse_cgroups) and --all-user/--all-kernel on Kunminghu events, whose
 * INH bits must be what the encoder gives for the same modifier. */
#include <stdio.h>
#include <string.h>

#include "kmh/kmh.h"
#include "kmh/model.h"
#include "core/evlist.h"
#include "tap.h"

/* "name=spec|name=spec..." of a list, "g" after a grouped one, "W" weak. */
static const char *show(const struct hpm_evlist *l, char *buf, size_t len)
{
	size_t w = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < l->nr && w < len; i++)
		w += (size_t)snprintf(buf + w, len - w, "%s%s=%s%s%s", i ? "|" : "", l->ev[i].name,
		                      l->ev[i].spec, l->ev[i].group >= 0 ? " g" : "",
		                      l->ev[i].weak_group ? "W" : "");
	return buf;
}

static void parses_to(const char *text, const char *want)
{
	struct hpm_evlist l = {0};
	char err[256] = "", buf[512];
	int rc = hpm_evlist_parse(&l, text, err, sizeof(err));
	if (rc == 0)
		tap_is_str(show(&l, buf, sizeof(buf)), want, "'%s'", text);
	else
		tap_ok(false, "'%s': %s", text, err);
	hpm_evlist_free(&l);
}

static void refused(const char *text, const char *needle)
{
	struct hpm_evlist l = {0};
	char err[256] = "";
	int rc = hpm_evlist_parse(&l, text, err, sizeof(err));
	tap_ok(rc == -1 && strstr(err, needle) && l.nr == 0, "'%s' refused: %s", text, err);
	hpm_evlist_free(&l);
}

static void test_blanks(void)
{
	parses_to(" task-clock , page-faults", "task-clock=task-clock|page-faults=page-faults");
	parses_to(" ifu_req , ifu_miss", "ifu_req=ifu_req|ifu_miss=ifu_miss");
	parses_to("ifu_req & ifu_miss", "ifu_req & ifu_miss=ifu_req & ifu_miss");
	parses_to("page-faults : k", "page-faults:k=page-faults:k");
	parses_to("page-faults :k,cycles: u", "page-faults:k=page-faults:k|cycles:u=cycles:u");
	parses_to("msr/ event = 0 /", "msr/event=0/=msr/event=0/");
	parses_to("{ task-clock , page-faults } , cycles",
	          "task-clock=task-clock g|page-faults=page-faults g|cycles=cycles");
	parses_to("\ttask-clock\t", "task-clock=task-clock");
}

static void test_group_modifiers(void)
{
	parses_to("{task-clock,page-faults}:W",
	          "task-clock=task-clock gW|page-faults=page-faults gW");
	parses_to("{task-clock,page-faults} : u",
	          "task-clock=task-clock:u g|page-faults=page-faults:u g");
	parses_to("{page-faults:k,msr/tsc/,ifu_req & ifu_miss,frontend:ifu_req}:uW,cycles",
	          "page-faults:k=page-faults:ku gW|msr/tsc/=msr/tsc/u gW|"
	          "ifu_req & ifu_miss=ifu_req & ifu_miss:u gW|"
	          "frontend:ifu_req=(frontend:ifu_req):u gW|cycles=cycles");
	parses_to("{task-clock}:S", "task-clock=task-clock g");
	refused("{task-clock,page-faults}:x", "group modifier 'x'");
	refused("{task-clock,page-faults}:", "empty modifier");
	refused("{task-clock} page-faults", "expected ',' after '}'");
}

static void test_cgroups(void)
{
	struct hpm_evlist l = {0};
	char err[256];
	unsigned next = 0;
	hpm_evlist_parse(&l, "a,b,c", err, sizeof(err));
	tap_ok(hpm_evlist_set_cgroups(&l, "one", &next, err, sizeof(err)) == 0 && l.ev[0].cgroup &&
	           l.ev[2].cgroup && strcmp(l.ev[2].cgroup, "one") == 0,
	       "-G with one name: every event");
	next = 0;
	tap_ok(hpm_evlist_set_cgroups(&l, "x,,z", &next, err, sizeof(err)) == 0 &&
	           strcmp(l.ev[0].cgroup, "x") == 0 && !l.ev[1].cgroup &&
	           strcmp(l.ev[2].cgroup, "z") == 0,
	       "-G x,,z: the n-th name to the n-th event, an empty one skips");
	next = 0;
	tap_ok(hpm_evlist_set_cgroups(&l, "p", &next, err, sizeof(err)) == 0 &&
	           hpm_evlist_set_cgroups(&l, "q,r", &next, err, sizeof(err)) == 0 &&
	           strcmp(l.ev[0].cgroup, "p") == 0 && strcmp(l.ev[2].cgroup, "r") == 0,
	       "-G p -G q,r: a second -G goes on where the first stopped");
	next = 0;
	tap_ok(hpm_evlist_set_cgroups(&l, "1,2,3,4", &next, err, sizeof(err)) == -1 &&
	           strstr(err, "more cgroups than events"),
	       "more cgroups than events: %s", err);
	hpm_evlist_free(&l);
}

/* --all-user / --all-kernel on a Kunminghu event = the encoder's :u / :k
 * with the same virtualization states (SPEC §1 table). */
static void level_is(const char *expr, enum hpm_level_only level, const char *same_as)
{
	struct hpm_evsel e;
	struct hpm_event_code want;
	struct hpm_diag kerr;
	memset(&e, 0, sizeof(e));
	e.kind = HPM_EV_MODEL;
	if (hpm_model_kunminghu.encode(&hpm_model_kunminghu, expr, &e.enc, &kerr) ||
	    hpm_model_kunminghu.encode(&hpm_model_kunminghu, same_as, &want, &kerr)) {
		tap_ok(false, "%s: %s", expr, kerr.msg);
		return;
	}
	bool ok = hpm_evsel_set_level(&e, level, true);
	tap_ok(ok && e.enc.value == want.value && e.enc.modes == want.modes,
	       "%s with %s is %s (0x%016llx)", expr,
	       level == HPM_LEVEL_USER ? "--all-user" : "--all-kernel", same_as,
	       (unsigned long long)e.enc.value);
}

static void test_levels(void)
{
	level_is("ifu_req & ifu_miss", HPM_LEVEL_USER, "ifu_req & ifu_miss:u");
	level_is("ifu_req", HPM_LEVEL_KERNEL, "ifu_req:k");
	level_is("ifu_req:uG", HPM_LEVEL_KERNEL, "ifu_req:kG");
	level_is("ifu_req:kH", HPM_LEVEL_USER, "ifu_req:uH");
	level_is("ifu_req:m", HPM_LEVEL_USER, "ifu_req:uH");
	struct hpm_evsel f;
	memset(&f, 0, sizeof(f));
	f.kind = HPM_EV_MODEL_FIXED;
	f.enc.model = &hpm_model_kunminghu;
	f.enc.fixed = 0;
	tap_ok(!hpm_evsel_set_level(&f, HPM_LEVEL_USER, true) && f.enc.modes == 0,
	       "the emulator's mcycle cannot be filtered: left alone");
	tap_ok(hpm_evsel_set_level(&f, HPM_LEVEL_USER, false) &&
	           f.enc.modes == (KMH_MODE_U | KMH_MODE_VU),
	       "mcycle on a Kunminghu PMU: U and VU");
	struct hpm_evsel h;
	memset(&h, 0, sizeof(h));
	h.kind = HPM_EV_HOST;
	tap_ok(hpm_evsel_set_level(&h, HPM_LEVEL_KERNEL, true) && h.level_only == HPM_LEVEL_KERNEL,
	       "a host event keeps the level for the perf back end");
}

int main(void)
{
	test_blanks();
	test_group_modifiers();
	test_cgroups();
	test_levels();
	return tap_done();
}
