/* test-arm-perf.c: the Arm cores through Linux's arm_pmuv3 driver on fake
 * sysfs trees: host detection by MIDR_EL1 (each Neoverse model, variant
 * and revision ignored as perf's mapfile matching does, an unknown core, no
 * core PMU, big.LITTLE with several core PMUs), the format/ and caps/
 * lookups, and the perf_event_attr of events, exception-level letters and
 * every threshold form against values worked out by hand from the format
 * strings of a Linux 6.1-like PMU (no threshold terms) and a Linux 6.8-like
 * one; every refusal. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/host-pmu.h"
#include "fake.h"
#include "registry/models.h"
#include "tap.h"

/* MIDR_EL1 values (Arm ARM D23.2: Implementer [31:24] 0x41 Arm,
 * Variant [23:20], Architecture [19:16] 0xF, PartNum [15:4], Revision
 * [3:0]); the part numbers are the cores' TRMs': N1 0xD0C, V1 0xD40, N2
 * 0xD49, V2 0xD4F, Cortex-A55 0xD05. */
#define MIDR_N1_R3P1  "0x00000000413fd0c1"
#define MIDR_V1_R1P1  "0x00000000411fd401"
#define MIDR_N2_R0P3  "0x00000000410fd493"
#define MIDR_V2_R0P1  "0x00000000410fd4f1"
#define MIDR_A55_R2P0 "0x00000000412fd050"

static void detect(const char *root, struct hpm_pmu *pmu)
{
	char sys[512], proc[512], err[300] = "";
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	if (hpm_pmu_detect_at(pmu, sys, proc, err, sizeof(err)))
		tap_diag("detect: %s", err);
}

/* One core, two CPUs, one PMU: 6.1-like (threshold_max NULL) or 6.8-like. */
static char *one_core(const char *midr, const char *pmu_name, const char *threshold_max)
{
	char *root = fake_root();
	fake_write(root, "proc/cpuinfo",
	           "processor\t: 0\nBogoMIPS\t: 2000.00\nCPU implementer\t: 0x41\n"
	           "CPU architecture: 8\nCPU part\t: 0xd4f\n\n");
	fake_write(root, "proc/sys/kernel/osrelease",
	           threshold_max ? "6.8.0-31-generic\n" : "6.1.0-27-arm64\n");
	fake_arm_pmu(root, pmu_name, 8, "0-1", threshold_max);
	fake_midr(root, 0, midr);
	fake_midr(root, 1, midr);
	return root;
}

static void test_detect(void)
{
	static const struct {
		const char *midr, *model;
	} cores[] = {
	    {MIDR_N1_R3P1, "neoverse-n1"},
	    {MIDR_V1_R1P1, "neoverse-v1"},
	    {MIDR_N2_R0P3, "neoverse-n2"},
	    {MIDR_V2_R0P1, "neoverse-v2"},
	};
	for (size_t i = 0; i < sizeof(cores) / sizeof(cores[0]); i++) {
		char *root = one_core(cores[i].midr, "armv8_pmuv3_0", NULL);
		struct hpm_pmu pmu;
		detect(root, &pmu);
		tap_ok(pmu.present && pmu.model && strcmp(pmu.model->name, cores[i].model) == 0 &&
		           strcmp(pmu.cpuid, cores[i].midr) == 0 &&
		           strcmp(pmu.name, "armv8_pmuv3_0") == 0 && pmu.type == 8 &&
		           pmu.type_from_sysfs,
		       "MIDR %s is %s on armv8_pmuv3_0 (type 8)", cores[i].midr, cores[i].model);
		fake_rm(root);
	}

	/* 6.1: format/event config:0-15, no threshold terms, caps/slots */
	char *root = one_core(MIDR_V2_R0P1, "armv8_pmuv3_0", NULL);
	struct hpm_pmu pmu;
	struct hpm_model_perf_pmu drv;
	struct hpm_model_perf_format f;
	uint64_t v = 0;
	detect(root, &pmu);
	hpm_pmu_driver(&pmu, &drv);
	tap_ok(pmu.event_from_sysfs && pmu.event.mask == 0xffff && pmu.kernel_version == 6001,
	       "6.1 PMU: format/event config:0-15, kernel 6.1");
	tap_ok(drv.format(&drv, "long", &f) && f.field == 1 && f.mask == 1,
	       "format lookup: long is config1:0");
	tap_ok(!drv.format(&drv, "threshold", &f), "6.1 PMU: no threshold term");
	tap_ok(drv.cap(&drv, "slots", &v) && v == 8, "caps/slots 0x00000008 reads 8");
	tap_ok(!drv.cap(&drv, "threshold_max", &v), "6.1 PMU: no caps/threshold_max");
	tap_is_str(drv.pmu_name, "armv8_pmuv3_0", "the driver is told the PMU's name");
	fake_rm(root);

	/* 6.8: the threshold terms */
	root = one_core(MIDR_V2_R0P1, "armv8_pmuv3_0", "0x000000ff");
	detect(root, &pmu);
	hpm_pmu_driver(&pmu, &drv);
	tap_ok(drv.format(&drv, "threshold", &f) && f.field == 1 && f.lo == 5 && f.hi == 16 &&
	           strcmp(f.text, "config1:5-16") == 0,
	       "6.8 PMU: threshold is config1:5-16");
	tap_ok(drv.cap(&drv, "threshold_max", &v) && v == 255, "caps/threshold_max 0x000000ff");
	fake_rm(root);

	/* an Arm core of no model */
	root = one_core(MIDR_A55_R2P0, "armv8_pmuv3_0", NULL);
	detect(root, &pmu);
	tap_ok(!pmu.present && !pmu.model && strcmp(pmu.cpuid, MIDR_A55_R2P0) == 0 &&
	           strstr(pmu.reason, "MIDR " MIDR_A55_R2P0 " (armv8_pmuv3_0, CPUs 0-1) is a "
	                              "core of no PMU model hpmstat knows"),
	       "unknown MIDR: not present, and the reason names it (%s)", pmu.reason);
	fake_rm(root);

	/* a Neoverse core whose kernel has no PMU driver */
	root = fake_root();
	fake_midr(root, 0, MIDR_N2_R0P3);
	fake_write(root, "sys/bus/event_source/devices/software/type", "1\n");
	detect(root, &pmu);
	tap_ok(!pmu.present && pmu.model && strstr(pmu.reason, "Neoverse N2 core") &&
	           strstr(pmu.reason, "CONFIG_ARM_PMU"),
	       "no core PMU: the reason says so (%s)", pmu.reason);
	fake_rm(root);
}

/* big.LITTLE-like: Cortex-A55 on CPUs 0-1 (no model), N1 on 2-3, V2 on 4-5,
 * each kind of core with its own PMU (armv8_cortex_a55, ...). */
static void test_big_little(void)
{
	char *root = fake_root();
	fake_arm_pmu(root, "armv8_cortex_a55", 8, "0-1", NULL);
	fake_arm_pmu(root, "armv8_neoverse_n1", 9, "2-3", NULL);
	fake_arm_pmu(root, "armv9_neoverse_v2", 10, "4-5", "0x0000000f");
	const char *midr[6] = {MIDR_A55_R2P0, MIDR_A55_R2P0, MIDR_N1_R3P1,
	                       MIDR_N1_R3P1,  MIDR_V2_R0P1,  MIDR_V2_R0P1};
	for (unsigned c = 0; c < 6; c++)
		fake_midr(root, c, midr[c]);
	struct hpm_pmu pmu;
	detect(root, &pmu);
	tap_ok(pmu.nr_cores == 3 && pmu.present && strcmp(pmu.model->name, "neoverse-n1") == 0 &&
	           strcmp(pmu.name, "armv8_neoverse_n1") == 0 && pmu.type == 9 &&
	           strcmp(pmu.cpus, "2-3") == 0,
	       "big.LITTLE: three core PMUs; the first with a model's core (N1, type 9) is taken");
	char sys[512], proc[512], err[200];
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	setenv("HPMSTAT_SYSFS", sys, 1);
	setenv("HPMSTAT_PROCFS", proc, 1);
	int rc = hpm_pmu_detect_model(&pmu, hpm_model_by_name("neoverse-v2"), err, sizeof(err));
	tap_ok(rc == 0 && pmu.present && strcmp(pmu.model->name, "neoverse-v2") == 0 &&
	           strcmp(pmu.name, "armv9_neoverse_v2") == 0 && pmu.type == 10 &&
	           strcmp(pmu.cpus, "4-5") == 0 && pmu.nr_terms == 6,
	       "big.LITTLE: asking for neoverse-v2 takes armv9_neoverse_v2 (type 10, CPUs 4-5)");
	unsetenv("HPMSTAT_SYSFS");
	unsetenv("HPMSTAT_PROCFS");
	fake_rm(root);
}

/* ------------------------------------------------------------ attrs */

struct attr_case {
	const char *expr;
	uint64_t config, config1;
	bool eu, ek, eh; /* exclude_user, exclude_kernel, exclude_hv */
	int line;
};

/* Linux 6.8's format files (fake_arm_pmu):
 *   event             config:0-15   -> evtCount in config bits 15:0
 *   threshold_count   config1:2     -> TC[0]
 *   threshold_compare config1:3-4   -> TC[2:1]: 0 !=, 1 ==, 2 >=, 3 <
 *   threshold         config1:5-16  -> TH
 * so config1 = TH << 5 | TC[2:1] << 3 | TC[0] << 2. Event numbers from the
 * Arm ARM: INST_RETIRED 0x08, BR_MIS_PRED 0x10, CPU_CYCLES 0x11,
 * STALL_SLOT 0x3F, and 0x4004 (CNT_CYCLES). The letters: perf's :u sets
 * exclude_kernel and exclude_hv, :k exclude_user and exclude_hv, :h
 * exclude_user and exclude_kernel (tools/perf/util/parse-events.c), which
 * arm_pmuv3 turns into P, U and NSH. */
static const struct attr_case v68[] = {
    {"inst_retired", 0x08, 0, false, false, false, __LINE__},
    {"inst_retired:u", 0x08, 0, false, true, true, __LINE__},
    {"inst_retired:k", 0x08, 0, true, false, true, __LINE__},
    {"inst_retired:h", 0x08, 0, true, true, false, __LINE__},
    {"inst_retired:uk", 0x08, 0, false, false, true, __LINE__},
    {"r4004:u", 0x4004, 0, false, true, true, __LINE__},
    {"cpu_cycles", 0x11, 0, false, false, false, __LINE__},
    /* TH=2, >= is 2: 2 << 5 | 2 << 3 = 0x40 | 0x10 */
    {"stall_slot:th>=2", 0x3f, 0x50, false, false, false, __LINE__},
    /* the same with TC[0] = 1: | 1 << 2 */
    {"stall_slot:th>=2:count", 0x3f, 0x54, false, false, false, __LINE__},
    /* TH=1, != is 0: 1 << 5 */
    {"stall_slot:th!=1", 0x3f, 0x20, false, false, false, __LINE__},
    /* TH=3, == is 1, count: 3 << 5 | 1 << 3 | 1 << 2 = 0x60 | 0x8 | 0x4 */
    {"stall_slot:th==3:count", 0x3f, 0x6c, false, false, false, __LINE__},
    /* TH=255 (threshold_max), < is 3: 255 << 5 | 3 << 3 = 0x1fe0 | 0x18 */
    {"stall_slot:th<255", 0x3f, 0x1ff8, false, false, false, __LINE__},
    /* perf's own terms: 4 << 5 | 2 << 3 | 1 << 2 = 0x80 | 0x10 | 0x4 */
    {"stall_slot:threshold=4,threshold_compare=2,threshold_count=1", 0x3f, 0x94, false, false,
     false, __LINE__},
    /* letters and a threshold together: :u as above, 5 << 5 | 2 << 3 */
    {"br_mis_pred:u:th>=5", 0x10, 0xb0, false, true, true, __LINE__},
};

static int attr_of(const char *root, const char *model, const char *expr,
                   struct hpm_model_perf_attr *a, struct hpm_diag *e)
{
	struct hpm_pmu pmu;
	struct hpm_model_perf_pmu drv;
	struct hpm_event_code c;
	const struct hpm_pmu_model *m = hpm_model_by_name(model);
	detect(root, &pmu);
	hpm_pmu_driver(&pmu, &drv);
	memset(a, 0, sizeof(*a));
	int rc = m->encode(m, expr, &c, e);
	if (rc) {
		tap_diag("encode '%s': %s", expr, e->msg);
		return 99;
	}
	return m->perf_attr(m, &c, false, &drv, a, e);
}

/* attr_of for `base` with `bits` set by hand: a value the model's
 * encoder refuses, to try the driver's own checks. */
static int attr_of_bits(const char *root, const char *model, const char *base, uint64_t bits,
                        struct hpm_model_perf_attr *a, struct hpm_diag *e)
{
	struct hpm_pmu pmu;
	struct hpm_model_perf_pmu drv;
	struct hpm_event_code c;
	const struct hpm_pmu_model *m = hpm_model_by_name(model);
	detect(root, &pmu);
	hpm_pmu_driver(&pmu, &drv);
	memset(a, 0, sizeof(*a));
	if (m->encode(m, base, &c, e))
		return 99;
	c.value |= bits;
	return m->perf_attr(m, &c, false, &drv, a, e);
}

static void test_attrs_68(void)
{
	char *root = one_core(MIDR_V2_R0P1, "armv8_pmuv3_0", "0x000000ff");
	for (size_t i = 0; i < sizeof(v68) / sizeof(v68[0]); i++) {
		const struct attr_case *c = &v68[i];
		struct hpm_model_perf_attr a;
		struct hpm_diag e;
		int rc = attr_of(root, "neoverse-v2", c->expr, &a, &e);
		tap_ok(rc == 0 && a.type == 8 && a.config == c->config && a.config1 == c->config1 &&
		           a.config2 == 0 && a.exclude_user == c->eu && a.exclude_kernel == c->ek &&
		           a.exclude_hv == c->eh && !a.exclude_host && a.exclude_guest,
		       "6.8: %s -> config 0x%llx config1 0x%llx (line %d)", c->expr,
		       (unsigned long long)c->config, (unsigned long long)c->config1, c->line);
		if (rc)
			tap_diag("%s", e.msg);
		else if (a.config != c->config || a.config1 != c->config1)
			tap_diag("got config 0x%llx config1 0x%llx", (unsigned long long)a.config,
			         (unsigned long long)a.config1);
	}
	struct hpm_model_perf_attr a;
	struct hpm_diag e;
	int rc = attr_of(root, "neoverse-v2", "stall_slot:th>=256", &a, &e);
	tap_ok(rc == HPM_MODEL_EINVAL && strstr(e.msg, "above this PMU's caps/threshold_max (255"),
	       "6.8: threshold 256 > caps/threshold_max 255 is refused (%s)", e.msg);
	rc = attr_of(root, "neoverse-v2", "stall_slot:th==0", &a, &e);
	tap_ok(rc == HPM_MODEL_EINVAL && strstr(e.msg, "TC=0b010 with TH=0"),
	       "6.8: a condition on threshold 0 is refused: the driver drops TC then (%s)", e.msg);
	fake_rm(root);

	/* a core without FEAT_PMUv3_TH on 6.8: caps/threshold_max 0. N2's
	 * encoder refuses the threshold already (its feature profile has
	 * none); the driver's check is tried with TH 1 and TC 0b100 set by
	 * hand (SPEC §5: TH 43:32, TC 63:61) */
	root = one_core(MIDR_N2_R0P3, "armv8_pmuv3_0", "0x00000000");
	rc = attr_of(root, "neoverse-n2", "stall_slot:th>=1", &a, &e);
	tap_ok(rc == 99 && strstr(e.msg, "Neoverse N2 has no FEAT_PMUv3_TH"),
	       "N2's encoder refuses a threshold (%s)", e.msg);
	rc = attr_of_bits(root, "neoverse-n2", "stall_slot", UINT64_C(1) << 32 | UINT64_C(4) << 61,
	                  &a, &e);
	tap_ok(rc == HPM_MODEL_EINVAL && strstr(e.msg, "caps/threshold_max is 0"),
	       "6.8 on a core without FEAT_PMUv3_TH: refused (%s)", e.msg);
	fake_rm(root);
}

static void test_attrs_61(void)
{
	char *root = one_core(MIDR_V2_R0P1, "armv8_pmuv3_0", NULL);
	for (size_t i = 0; i < sizeof(v68) / sizeof(v68[0]); i++) {
		const struct attr_case *c = &v68[i];
		struct hpm_model_perf_attr a;
		struct hpm_diag e;
		int rc = attr_of(root, "neoverse-v2", c->expr, &a, &e);
		if (c->config1 == 0)
			tap_ok(rc == 0 && a.config == c->config && a.config1 == 0 &&
			           a.exclude_user == c->eu && a.exclude_kernel == c->ek &&
			           a.exclude_hv == c->eh,
			       "6.1: %s -> config 0x%llx, as on 6.8", c->expr,
			       (unsigned long long)c->config);
		else
			tap_ok(rc == HPM_MODEL_EINVAL &&
			           strstr(e.msg, "no threshold format terms") &&
			           strstr(e.msg, "Linux 6.8") && strstr(e.msg, "6.1.0-27-arm64"),
			       "6.1: %s is refused, naming Linux 6.8 (%s)", c->expr, e.msg);
	}
	/* -d's events are optional: the refusal marks them absent */
	struct hpm_pmu pmu;
	struct hpm_model_perf_pmu drv;
	struct hpm_model_perf_attr a;
	struct hpm_diag e;
	struct hpm_event_code code;
	const struct hpm_pmu_model *m = hpm_model_by_name("neoverse-v2");
	detect(root, &pmu);
	hpm_pmu_driver(&pmu, &drv);
	m->encode(m, "stall_slot:th>=2", &code, &e);
	tap_ok(m->perf_attr(m, &code, true, &drv, &a, &e) == HPM_MODEL_EINVAL && a.absent,
	       "6.1: an optional threshold event is absent, not fatal");
	/* the cycle counter: CPU_CYCLES (0x11) on the core PMU */
	memset(&code, 0, sizeof(code));
	code.model = m;
	code.fixed = 0;
	code.constraint = -1;
	code.modes = 1; /* EL0 */
	tap_ok(m->perf_attr(m, &code, false, &drv, &a, &e) == 0 && a.type == 8 &&
	           a.config == 0x11 && !a.exclude_user && a.exclude_kernel && a.exclude_hv,
	       "pmccntr at EL0: CPU_CYCLES 0x11, exclude_kernel and exclude_hv");
	tap_ok(strstr(m->perf_driver(m, &drv), "without threshold terms") != NULL,
	       "6.1: the driver is named without threshold terms");
	fake_rm(root);
}

/* The terms are read, not assumed: a PMU whose threshold terms sit
 * elsewhere (config2:0-11 threshold, 12-13 compare, 14 count) gets them
 * there: th>=2:count is 2 | 2 << 12 | 1 << 14 = 0x6002 in config2. And an
 * event format narrower than 16 bits (config:0-9) cannot hold 0x4004. */
static void test_formats_read(void)
{
	char *root = fake_root();
	fake_arm_pmu(root, "armv8_pmuv3_0", 8, "0", NULL);
	fake_write(root, "sys/bus/event_source/devices/armv8_pmuv3_0/format/threshold",
	           "config2:0-11\n");
	fake_write(root, "sys/bus/event_source/devices/armv8_pmuv3_0/format/threshold_compare",
	           "config2:12-13\n");
	fake_write(root, "sys/bus/event_source/devices/armv8_pmuv3_0/format/threshold_count",
	           "config2:14\n");
	fake_midr(root, 0, MIDR_V2_R0P1);
	struct hpm_model_perf_attr a;
	struct hpm_diag e;
	int rc = attr_of(root, "neoverse-v2", "stall_slot:th>=2:count", &a, &e);
	tap_ok(rc == 0 && a.config == 0x3f && a.config1 == 0 && a.config2 == 0x6002,
	       "threshold terms in config2 go to config2 (0x%llx)", (unsigned long long)a.config2);
	fake_write(root, "sys/bus/event_source/devices/armv8_pmuv3_0/format/event", "config:0-9\n");
	rc = attr_of(root, "neoverse-v2", "r4004", &a, &e);
	tap_ok(rc == HPM_MODEL_EINVAL && strstr(e.msg, "0x4004") && strstr(e.msg, "config:0-9"),
	       "event 0x4004 does not fit format/event config:0-9 (%s)", e.msg);
	fake_rm(root);
}

/* Every field Linux never programs is refused, by name. The fields
 * Neoverse V2 has not got (its feature profile: no FEAT_PMUv3_EDGE, TH2,
 * RME, SME, SEBEP) are refused by its encoder already; the driver's check
 * is tried on them with the bits set by hand (SPEC §5: TE 60, TLC 55:54,
 * RLK 22, RLU 21, RLH 20, VS 57:56, SYNC 58). */
static void test_unprogrammed(void)
{
	static const struct {
		const char *expr, *field;
		const char *base; /* V2 has not got the field: base with bits set */
		uint64_t bits;
	} cases[] = {
	    {"br_mis_pred:edge=rise:th>=5", "TE", "br_mis_pred:th>=5:count", UINT64_C(1) << 60},
	    {"stall_slot:th>=2:tlc=1", "TLC", "stall_slot:th>=2", UINT64_C(1) << 54},
	    {"inst_retired:mt", "MT", NULL, 0},
	    {"inst_retired:sh", "SH", NULL, 0},
	    {"inst_retired:m", "M", NULL, 0},
	    {"inst_retired:nsk", "NSK", NULL, 0},
	    {"inst_retired:nsu", "NSU", NULL, 0},
	    {"inst_retired:rlk", "RLK", "inst_retired", UINT64_C(1) << 22},
	    {"inst_retired:rlu", "RLU", "inst_retired", UINT64_C(1) << 21},
	    {"inst_retired:rlh", "RLH", "inst_retired", UINT64_C(1) << 20},
	    {"inst_retired:vs=1", "VS", "inst_retired", UINT64_C(1) << 56},
	    {"inst_retired:sync", "SYNC", "inst_retired", UINT64_C(1) << 58},
	};
	char *root = one_core(MIDR_V2_R0P1, "armv8_pmuv3_0", "0x000000ff");
	const struct hpm_pmu_model *v2 = hpm_model_by_name("neoverse-v2");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hpm_model_perf_attr a;
		struct hpm_diag e;
		char want[16];
		snprintf(want, sizeof(want), "sets %s,", cases[i].field);
		if (cases[i].base) {
			struct hpm_event_code c;
			int rc = v2->encode(v2, cases[i].expr, &c, &e);
			tap_ok(rc == HPM_MODEL_EINVAL && strstr(e.msg, cases[i].field) &&
			           strstr(e.msg, "RES0 there"),
			       "%s: Neoverse V2 has not got %s: its encoder refuses it (%s)",
			       cases[i].expr, cases[i].field, e.msg);
			rc =
			    attr_of_bits(root, "neoverse-v2", cases[i].base, cases[i].bits, &a, &e);
			tap_ok(rc == HPM_MODEL_EINVAL && strstr(e.msg, want) &&
			           strstr(e.msg, "never programs"),
			       "%s set by hand: %s is refused by the driver's check too (%s)",
			       cases[i].base, cases[i].field, e.msg);
			continue;
		}
		int rc = attr_of(root, "neoverse-v2", cases[i].expr, &a, &e);
		tap_ok(rc == HPM_MODEL_EINVAL && strstr(e.msg, want) &&
		           strstr(e.msg, "never programs"),
		       "%s: %s is refused (%s)", cases[i].expr, cases[i].field, e.msg);
	}
	struct hpm_model_perf_attr a;
	struct hpm_diag e;
	int rc = attr_of(root, "neoverse-v2", "inst_retired:nsk:nsu:mt", &a, &e);
	tap_ok(rc == HPM_MODEL_EINVAL && strstr(e.msg, "sets MT, NSK, NSU,"),
	       "several fields: one message naming them all (%s)", e.msg);
	rc = attr_of(root, "neoverse-v2", "inst_retired:h:nsh=0", &a, &e);
	tap_ok(rc == HPM_MODEL_EINVAL && strstr(e.msg, "no exception level"),
	       "P=1 U=1 NSH=0 counts nothing: refused (%s)", e.msg);
	fake_rm(root);
}

int main(void)
{
	test_detect();
	test_big_little();
	test_attrs_68();
	test_attrs_61();
	test_formats_read();
	test_unprogrammed();
	return tap_done();
}
