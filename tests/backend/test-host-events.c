/* test-host-events.c: host event names -> perf_event_attr, perf's modifier
 * letters, suggestions, routing, and libpfm4 names when built with it.
 *
 * Golden types and configs are written by hand from linux/perf_event.h
 * (PERF_TYPE_HARDWARE 0, SOFTWARE 1, HW_CACHE 3; cache config = cache |
 * op << 8 | result << 16 with L1D 0 L1I 1 LL 2 DTLB 3 ITLB 4 BPU 5 NODE 6,
 * READ 0 WRITE 1 PREFETCH 2, ACCESS 0 MISS 1) and carry their line.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/host-events.h"
#include "fake.h"
#include "tap.h"

static const struct golden {
	const char *name;
	uint32_t type;
	uint64_t config;
	int line;
} golden[] = {
    /* hardware */
    {"cycles", 0, 0, __LINE__},
    {"cpu-cycles", 0, 0, __LINE__},
    {"instructions", 0, 1, __LINE__},
    {"cache-references", 0, 2, __LINE__},
    {"cache-misses", 0, 3, __LINE__},
    {"branches", 0, 4, __LINE__},
    {"branch-instructions", 0, 4, __LINE__},
    {"branch-misses", 0, 5, __LINE__},
    {"bus-cycles", 0, 6, __LINE__},
    {"stalled-cycles-frontend", 0, 7, __LINE__},
    {"idle-cycles-frontend", 0, 7, __LINE__},
    {"stalled-cycles-backend", 0, 8, __LINE__},
    {"idle-cycles-backend", 0, 8, __LINE__},
    {"ref-cycles", 0, 9, __LINE__},
    /* software */
    {"cpu-clock", 1, 0, __LINE__},
    {"task-clock", 1, 1, __LINE__},
    {"page-faults", 1, 2, __LINE__},
    {"faults", 1, 2, __LINE__},
    {"context-switches", 1, 3, __LINE__},
    {"cs", 1, 3, __LINE__},
    {"cpu-migrations", 1, 4, __LINE__},
    {"migrations", 1, 4, __LINE__},
    {"minor-faults", 1, 5, __LINE__},
    {"major-faults", 1, 6, __LINE__},
    {"alignment-faults", 1, 7, __LINE__},
    {"emulation-faults", 1, 8, __LINE__},
    {"dummy", 1, 9, __LINE__},
    {"bpf-output", 1, 10, __LINE__},
    {"cgroup-switches", 1, 11, __LINE__},
    /* hardware cache, perf list's names */
    {"L1-dcache-loads", 3, 0x00000, __LINE__},
    {"L1-dcache-load-misses", 3, 0x10000, __LINE__},
    {"L1-dcache-stores", 3, 0x00100, __LINE__},
    {"L1-dcache-store-misses", 3, 0x10100, __LINE__},
    {"L1-dcache-prefetches", 3, 0x00200, __LINE__},
    {"L1-dcache-prefetch-misses", 3, 0x10200, __LINE__},
    {"L1-icache-loads", 3, 0x00001, __LINE__},
    {"L1-icache-load-misses", 3, 0x10001, __LINE__},
    {"L1-icache-prefetches", 3, 0x00201, __LINE__},
    {"L1-icache-prefetch-misses", 3, 0x10201, __LINE__},
    {"LLC-loads", 3, 0x00002, __LINE__},
    {"LLC-load-misses", 3, 0x10002, __LINE__},
    {"LLC-stores", 3, 0x00102, __LINE__},
    {"LLC-store-misses", 3, 0x10102, __LINE__},
    {"LLC-prefetches", 3, 0x00202, __LINE__},
    {"LLC-prefetch-misses", 3, 0x10202, __LINE__},
    {"dTLB-loads", 3, 0x00003, __LINE__},
    {"dTLB-load-misses", 3, 0x10003, __LINE__},
    {"dTLB-stores", 3, 0x00103, __LINE__},
    {"dTLB-store-misses", 3, 0x10103, __LINE__},
    {"dTLB-prefetches", 3, 0x00203, __LINE__},
    {"dTLB-prefetch-misses", 3, 0x10203, __LINE__},
    {"iTLB-loads", 3, 0x00004, __LINE__},
    {"iTLB-load-misses", 3, 0x10004, __LINE__},
    {"branch-loads", 3, 0x00005, __LINE__},
    {"branch-load-misses", 3, 0x10005, __LINE__},
    {"node-loads", 3, 0x00006, __LINE__},
    {"node-load-misses", 3, 0x10006, __LINE__},
    {"node-stores", 3, 0x00106, __LINE__},
    {"node-store-misses", 3, 0x10106, __LINE__},
    {"node-prefetches", 3, 0x00206, __LINE__},
    {"node-prefetch-misses", 3, 0x10206, __LINE__},
    /* the other spellings perf's lexer takes */
    {"L1-dcache", 3, 0x00000, __LINE__},
    {"L1-dcache-misses", 3, 0x10000, __LINE__},
    {"L1-dcache-miss", 3, 0x10000, __LINE__},
    {"L1-dcache-load-refs", 3, 0x00000, __LINE__},
    {"L1-dcache-access", 3, 0x00000, __LINE__},
    {"L1-dcache-misses-load", 3, 0x10000, __LINE__},
    {"L1-dcache-write", 3, 0x00100, __LINE__},
    {"L1-dcache-speculative-read", 3, 0x00200, __LINE__},
    {"L1-dcache-speculative-load-misses", 3, 0x10200, __LINE__},
    {"l1d-loads", 3, 0x00000, __LINE__},
    {"l1-d-read-misses", 3, 0x10000, __LINE__},
    {"L1-data-load-miss", 3, 0x10000, __LINE__},
    {"l1i-load-misses", 3, 0x10001, __LINE__},
    {"L1-instruction-loads", 3, 0x00001, __LINE__},
    {"LLC-misses", 3, 0x10002, __LINE__},
    {"L2-loads", 3, 0x00002, __LINE__},
    {"d-tlb-load-misses", 3, 0x10003, __LINE__},
    {"Data-TLB-stores", 3, 0x00103, __LINE__},
    {"i-tlb-load-misses", 3, 0x10004, __LINE__},
    {"Instruction-TLB-loads", 3, 0x00004, __LINE__},
    {"bpu-loads", 3, 0x00005, __LINE__},
    {"btb-load-misses", 3, 0x10005, __LINE__},
    {"bpc", 3, 0x00005, __LINE__},
    {"branches-loads", 3, 0x00005, __LINE__},
    {"branch-misses-read", 3, 0x10005, __LINE__},
    {"node", 3, 0x00006, __LINE__},
};

/* exclude_user, exclude_kernel, exclude_hv, exclude_host, exclude_guest as
 * perf 6.1 sets them (perf_guest = false: exclude_guest = 1 by default) */
static const struct mods {
	const char *spec;
	int eu, ek, eh, eH, eG;
	int line;
} mods[] = {
    {"cycles", 0, 0, 0, 0, 1, __LINE__},
    {"cycles:u", 0, 1, 1, 0, 1, __LINE__},
    {"cycles:k", 1, 0, 1, 0, 1, __LINE__},
    {"cycles:h", 1, 1, 0, 0, 1, __LINE__},
    {"cycles:uk", 0, 0, 1, 0, 1, __LINE__},
    {"cycles:ku", 0, 0, 1, 0, 1, __LINE__},
    {"cycles:ukh", 0, 0, 0, 0, 1, __LINE__},
    {"cycles:uu", 0, 1, 1, 0, 1, __LINE__},
    {"cycles:G", 0, 0, 0, 1, 0, __LINE__},
    {"cycles:H", 0, 0, 0, 0, 1, __LINE__},
    {"cycles:GH", 0, 0, 0, 0, 0, __LINE__},
    {"cycles:HG", 0, 0, 0, 0, 0, __LINE__},
    {"cycles:uG", 0, 1, 1, 1, 0, __LINE__},
    {"cycles:Gu", 0, 1, 1, 1, 0, __LINE__},
    {"cycles:kH", 1, 0, 1, 0, 1, __LINE__},
    {"instructions:kG", 1, 0, 1, 1, 0, __LINE__},
    {"task-clock:u", 0, 1, 1, 0, 1, __LINE__},
    {"page-faults:k", 1, 0, 1, 0, 1, __LINE__},
    {"L1-dcache-load-misses:u", 0, 1, 1, 0, 1, __LINE__},
    {"cs:h", 1, 1, 0, 0, 1, __LINE__},
};

static void test_golden(void)
{
	for (size_t i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		const struct golden *g = &golden[i];
		struct hpm_host_attr a;
		char err[256] = "";
		int rc = hpm_host_event_parse(g->name, &a, err, sizeof(err));
		tap_ok(rc == 0 && a.type == g->type && a.config == g->config && a.config1 == 0 &&
		           a.config2 == 0,
		       "%s -> type %u config 0x%llx (line %d)", g->name, g->type,
		       (unsigned long long)g->config, g->line);
		if (rc || a.type != g->type || a.config != g->config)
			tap_diag("rc %d type %u config 0x%llx: %s", rc, a.type,
			         (unsigned long long)a.config, err);
	}
}

static void test_mods(void)
{
	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		const struct mods *m = &mods[i];
		struct hpm_host_attr a;
		char err[256] = "";
		int rc = hpm_host_event_parse(m->spec, &a, err, sizeof(err));
		bool ok = rc == 0 && a.exclude_user == m->eu && a.exclude_kernel == m->ek &&
		          a.exclude_hv == m->eh && a.exclude_host == m->eH &&
		          a.exclude_guest == m->eG;
		tap_ok(ok, "%s -> exclude u%d k%d hv%d host%d guest%d (line %d)", m->spec, m->eu,
		       m->ek, m->eh, m->eH, m->eG, m->line);
		if (!ok)
			tap_diag("rc %d got u%d k%d hv%d host%d guest%d %s", rc, a.exclude_user,
			         a.exclude_kernel, a.exclude_hv, a.exclude_host, a.exclude_guest,
			         err);
	}
	struct hpm_host_attr a;
	char err[256];
	hpm_host_event_parse("cycles:u", &a, err, sizeof(err));
	tap_ok(a.guest_default, "cycles:u: exclude_guest is perf's default");
	hpm_host_event_parse("cycles:H", &a, err, sizeof(err));
	tap_ok(!a.guest_default, "cycles:H: exclude_guest was asked for");

	static const char *const bad[] = {"cycles:pppp", "cycles:", "cycles:x", "task-clock:uZ",
	                                  "cycles:u:k"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = hpm_host_event_parse(bad[i], &a, err, sizeof(err));
		tap_ok(rc == -EINVAL && strstr(err, "modifier"), "%s: bad modifier refused (%s)",
		       bad[i], err);
	}
	int rc = hpm_host_event_parse("cycles:x", &a, err, sizeof(err));
	tap_is_str(rc ? err : "",
	           "'cycles:x': modifier 'x' is not supported for counting (u k h H G p P are)",
	           "the modifier message");
	/* perf's precise levels: one p per level, P the most the PMU gives */
	static const struct {
		const char *spec;
		unsigned precise_ip;
		bool precise_max, exclude_kernel;
	} precise[] = {{"cycles:p", 1, false, false},
	               {"cycles:pp", 2, false, false},
	               {"cycles:ppp", 3, false, false},
	               {"cycles:upp", 2, false, true},
	               {"cycles:P", 0, true, false}};
	for (size_t i = 0; i < sizeof(precise) / sizeof(precise[0]); i++) {
		rc = hpm_host_event_parse(precise[i].spec, &a, err, sizeof(err));
		tap_ok(rc == 0 && a.precise_ip == precise[i].precise_ip &&
		           a.precise_max == precise[i].precise_max &&
		           a.exclude_kernel == precise[i].exclude_kernel,
		       "%s: precise_ip %u%s", precise[i].spec, precise[i].precise_ip,
		       precise[i].precise_max ? ", the most the PMU gives" : "");
	}
}

static void test_units(void)
{
	struct hpm_host_attr a;
	char err[256];
	hpm_host_event_parse("task-clock", &a, err, sizeof(err));
	tap_ok(strcmp(a.unit, "msec") == 0 && a.scale == 1e-6, "task-clock: msec, scale 1e-6");
	hpm_host_event_parse("cpu-clock:u", &a, err, sizeof(err));
	tap_ok(strcmp(a.unit, "msec") == 0 && a.scale == 1e-6, "cpu-clock:u: msec, scale 1e-6");
	hpm_host_event_parse("page-faults", &a, err, sizeof(err));
	tap_ok(strcmp(a.unit, "") == 0 && a.scale == 1.0, "page-faults: no unit, scale 1");
	hpm_host_event_parse("cycles", &a, err, sizeof(err));
	tap_ok(a.kind == HPM_HOST_HARDWARE && strcmp(a.unit, "") == 0, "cycles: hardware, no unit");

	struct hpm_evlist l;
	fake_list_init(&l);
	struct hpm_evsel *e = fake_add_host(&l, "task-clock:u", -1);
	int rc = hpm_host_event_fill(e, err, sizeof(err));
	tap_ok(rc == 0 && e->attr_type == 1 && e->attr_config == 1 && e->exclude_kernel &&
	           e->exclude_hv && !e->exclude_user && e->exclude_guest &&
	           strcmp(e->unit, "msec") == 0 && e->scale == 1e-6,
	       "hpm_host_event_fill(task-clock:u) fills the evsel");
	free(e->spec);
	e->spec = NULL; /* falls back to the name */
	free(e->name);
	e->name = strdup("L1-dcache-load-misses");
	rc = hpm_host_event_fill(e, err, sizeof(err));
	tap_ok(rc == 0 && e->attr_type == 3 && e->attr_config == 0x10000 && e->scale == 1.0,
	       "hpm_host_event_fill uses the name without a spec");
	fake_list_free(&l);
}

static void test_unknown(void)
{
	static const struct {
		const char *spec, *want;
	} cases[] = {
	    {"cyclse", "'cycles'"},
	    {"page-fault", "'page-faults'"},
	    {"taskclock", "'task-clock'"},
	    {"instrutions:u", "'instructions'"},
	    {"L1-dcache-lod-misses", "'L1-dcache-load-misses'"},
	    {"contex-switches", "'context-switches'"},
	    {"branch-mises", "'branch-misses'"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hpm_host_attr a;
		char err[256] = "";
		int rc = hpm_host_event_parse(cases[i].spec, &a, err, sizeof(err));
		tap_ok(rc == -ENOENT && strstr(err, "unknown event") &&
		           strstr(err, "did you mean") && strstr(err, cases[i].want),
		       "%s: unknown, suggests %s", cases[i].spec, cases[i].want);
		if (rc != -ENOENT || !strstr(err, cases[i].want))
			tap_diag("rc %d: %s", rc, err);
	}
	struct hpm_host_attr a;
	char err[256];
	int rc = hpm_host_event_parse("cyclse", &a, err, sizeof(err));
	tap_is_str(rc ? err : "", "unknown event 'cyclse' (did you mean 'cycles'?)",
	           "the suggestion message");
	rc = hpm_host_event_parse("xyzzy_plugh_foo", &a, err, sizeof(err));
	tap_is_str(rc ? err : "", "unknown event 'xyzzy_plugh_foo'",
	           "no suggestion when nothing is close");
	rc = hpm_host_event_parse("", &a, err, sizeof(err));
	tap_ok(rc == -ENOENT, "empty name is unknown");
	rc = hpm_host_event_parse("L1-dcache-load-store", &a, err, sizeof(err));
	tap_ok(rc == -ENOENT, "L1-dcache-load-store (two ops) is refused");
	rc = hpm_host_event_parse("Cycles", &a, err, sizeof(err));
	tap_ok(rc != 0 || a.kind == HPM_HOST_PFM, "generic names are case-sensitive, as in perf");

	static const char *const badop[] = {"iTLB-stores", "L1-icache-store-misses",
	                                    "branch-prefetches", "iTLB-prefetch-misses"};
	for (size_t i = 0; i < sizeof(badop) / sizeof(badop[0]); i++) {
		rc = hpm_host_event_parse(badop[i], &a, err, sizeof(err));
		tap_ok(rc == -EINVAL && strstr(err, "has no"), "%s: the cache has no such op (%s)",
		       badop[i], err);
	}

	const char *out[5];
	unsigned n = hpm_host_event_suggest("cycle", out, 5);
	tap_ok(n >= 1 && strcmp(out[0], "cycles") == 0, "suggest(cycle) starts with cycles");
	n = hpm_host_event_suggest("cycle", out, 1);
	tap_ok(n == 1, "suggest honours max");
}

static void test_route(void)
{
	static const char *const host[] = {"cycles",   "task-clock:u", "L1-dcache-loads",
	                                   "cycles:p", "cs",           "dTLB-load-misses:k"};
	static const char *const not_host[] = {"rob_commitInstr",
	                                       "backend:rob_commitInstr",
	                                       "ifu_req|ifu_miss",
	                                       "INST_SPEC + RECOVERY_BUBBLE",
	                                       "r35",
	                                       "r4000000000000035:u",
	                                       "kunminghu/event0=0x7/",
	                                       "mcycle",
	                                       "INST_SPEC",
	                                       "BpInstr:u",
	                                       "xyzzy",
	                                       "",
	                                       ":u"};
	for (size_t i = 0; i < sizeof(host) / sizeof(host[0]); i++)
		tap_ok(hpm_host_event_is_host(host[i]), "'%s' is a host event", host[i]);
	for (size_t i = 0; i < sizeof(not_host) / sizeof(not_host[0]); i++)
		tap_ok(!hpm_host_event_is_host(not_host[i]), "'%s' is not a host event",
		       not_host[i]);
}

static void test_table(void)
{
	unsigned n = hpm_host_nr_events();
	tap_ok(n == 10 + 12 + 32, "the table has 10 hardware, 12 software, 32 cache names (%u)", n);
	unsigned bad = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct hpm_host_event *e = hpm_host_event_at(i);
		struct hpm_host_attr a;
		char err[256];
		if (hpm_host_event_parse(e->name, &a, err, sizeof(err)) || a.type != e->type ||
		    a.config != e->config) {
			tap_diag("%s does not parse back", e->name);
			bad++;
		}
		if (e->alias && (hpm_host_event_parse(e->alias, &a, err, sizeof(err)) ||
		                 a.type != e->type || a.config != e->config)) {
			tap_diag("%s does not parse back", e->alias);
			bad++;
		}
	}
	tap_ok(bad == 0, "every listed name and alias parses to its own type and config");
	tap_ok(hpm_host_event_at(n) == NULL, "past the end is NULL");
}

static void test_pfm(void)
{
#ifdef HAVE_LIBPFM4
	if (!hpm_host_have_pfm()) {
		tap_skip("libpfm4 found no PMU on this host");
		return;
	}
	struct hpm_host_attr a;
	char err[256] = "";
	int rc = hpm_host_event_parse("PERF_COUNT_HW_CACHE_L1D:READ:MISS", &a, err, sizeof(err));
	tap_ok(rc == 0 && a.kind == HPM_HOST_PFM && a.type == 3 && a.config == 0x10000,
	       "libpfm4: PERF_COUNT_HW_CACHE_L1D:READ:MISS -> type 3 config 0x10000 (%s)", err);
	tap_ok(rc == 0 && !a.exclude_user && !a.exclude_kernel && !a.exclude_hv && a.exclude_guest,
	       "libpfm4: perf's default levels (u, k, h; exclude_guest)");
	rc = hpm_host_event_parse("perf::PERF_COUNT_SW_PAGE_FAULTS", &a, err, sizeof(err));
	tap_ok(rc == 0 && a.type == 1 && a.config == 2, "libpfm4: perf::PERF_COUNT_SW_PAGE_FAULTS");
	rc = hpm_host_event_parse("perf::PERF_COUNT_SW_TASK_CLOCK", &a, err, sizeof(err));
	tap_ok(rc == 0 && strcmp(a.unit, "msec") == 0, "libpfm4: a task clock is msec too");
	rc = hpm_host_event_parse("perf::PERF_COUNT_HW_INSTRUCTIONS:u", &a, err, sizeof(err));
	tap_ok(rc == 0 && a.type == 0 && a.config == 1 && a.exclude_kernel && !a.exclude_user,
	       "libpfm4: its own :u");
	rc = hpm_host_event_parse("perf::PERF_COUNT_HW_INSTRUCTIONS:uG", &a, err, sizeof(err));
	tap_ok(rc == 0 && a.exclude_kernel && a.exclude_hv && !a.exclude_user && a.exclude_host &&
	           !a.exclude_guest,
	       "libpfm4 name with perf's letters :uG (%s)", err);
	tap_ok(hpm_host_event_is_host("perf::PERF_COUNT_SW_CPU_CLOCK"),
	       "a libpfm4 name is a host event");
	tap_ok(hpm_host_event_is_host("perf_raw::r1234"), "perf_raw::r1234 is a host event");
	rc = hpm_host_event_parse("perf_raw::r1234", &a, err, sizeof(err));
	tap_ok(rc == 0 && a.type == 4 && a.config == 0x1234, "libpfm4: perf_raw::r1234");
#else
	tap_skip("built without libpfm4");
#endif
}

int main(void)
{
	test_golden();
	test_mods();
	test_units();
	test_unknown();
	test_route();
	test_table();
	test_pfm();
	return tap_done();
}
