/* test-pmu.c: Kunminghu PMU discovery against fake sysfs/procfs trees
 * (48- and 56-bit format/event, with and without counterid_mask, other
 * RISC-V cores, x86), the format-term parser and the cpuinfo reader. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/host-pmu.h"
#include "fake.h"
#include "kmh/kmh.h"
#include "kmh/perf-attr.h"
#include "tap.h"

static const struct fmt_case {
	const char *text;
	int field;
	uint64_t mask;
	unsigned lo, hi;
	int line;
} fmt_ok[] = {
    {"config:0-47", 0, (UINT64_C(1) << 48) - 1, 0, 47, __LINE__},
    {"config:0-55", 0, (UINT64_C(1) << 56) - 1, 0, 55, __LINE__},
    {"config2:0-31", 2, 0xffffffff, 0, 31, __LINE__},
    {"config1:0", 1, 1, 0, 0, __LINE__},
    {"config:62-63", 0, UINT64_C(3) << 62, 62, 63, __LINE__},
    {"config:0-7,32-35", 0, UINT64_C(0xf000000ff), 0, 35, __LINE__},
    {"config:63", 0, UINT64_C(1) << 63, 63, 63, __LINE__},
    {"config:0-63", 0, ~UINT64_C(0), 0, 63, __LINE__},
    {"  config:0-47\n", 0, (UINT64_C(1) << 48) - 1, 0, 47, __LINE__},
    {"config2:8-39", 2, UINT64_C(0xffffffff) << 8, 8, 39, __LINE__},
};

static void test_format(void)
{
	for (size_t i = 0; i < sizeof(fmt_ok) / sizeof(fmt_ok[0]); i++) {
		const struct fmt_case *c = &fmt_ok[i];
		struct hpm_pmu_format f;
		char err[200] = "";
		int rc = hpm_pmu_parse_format(c->text, &f, err, sizeof(err));
		tap_ok(rc == 0 && (int)f.field == c->field && f.mask == c->mask && f.lo == c->lo &&
		           f.hi == c->hi,
		       "format '%.*s' (line %d)", (int)strcspn(c->text, "\n"), c->text, c->line);
		if (rc)
			tap_diag("%s", err);
	}
	struct hpm_pmu_format f;
	char err[200];
	hpm_pmu_parse_format("  config:0-47\n", &f, err, sizeof(err));
	tap_is_str(f.text, "config:0-47", "the text is kept, trimmed");
	static const char *const bad[] = {
	    "config",    "config:",     "config:48-47", "config:64", "cfg:0-3",  "config:0-3x",
	    "config:1-", "config3:0-1", "config:0-47,", ":0-3",      "config:-1"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		int rc = hpm_pmu_parse_format(bad[i], &f, err, sizeof(err));
		tap_ok(rc == -EINVAL && strstr(err, "bad sysfs format term"),
		       "format '%s' refused (%s)", bad[i], err);
	}
}

static void test_cpuinfo(void)
{
	char id[96];
	const char *riscv = "processor\t: 0\nhart\t\t: 0\nisa\t\t: rv64imafdc\nmmu\t\t: sv39\n"
	                    "mvendorid\t: 0x0\nmarchid\t\t: 0x19\nmimpid\t\t: 0x0\n\n"
	                    "processor\t: 1\nhart\t\t: 1\nmvendorid\t: 0x5b7\nmarchid\t\t: 0x1\n"
	                    "mimpid\t\t: 0x2\n";
	tap_ok(hpm_pmu_cpuid_from_cpuinfo(riscv, id, sizeof(id)) && strcmp(id, "0x0-0x19-0x0") == 0,
	       "RISC-V cpuinfo -> 0x0-0x19-0x0 (first hart's ids)");
	const char *x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\n";
	tap_ok(!hpm_pmu_cpuid_from_cpuinfo(x86, id, sizeof(id)), "x86 cpuinfo has no RISC-V ids");
	const char *partial = "mvendorid\t: 0x0\nmarchid\t\t: 0x19\n";
	tap_ok(!hpm_pmu_cpuid_from_cpuinfo(partial, id, sizeof(id)), "mimpid missing: no cpuid");
	const char *spaces = "mvendorid : 0x0  \nmarchid: 0x19\nmimpid\t:\t0x1a\n";
	tap_ok(hpm_pmu_cpuid_from_cpuinfo(spaces, id, sizeof(id)) &&
	           strcmp(id, "0x0-0x19-0x1a") == 0,
	       "spacing around ':' does not matter");
	const char *prefix =
	    "mvendorid2\t: 0x7\nmvendorid\t: 0x0\nmarchid\t: 0x19\nmimpid\t: 0x0\n";
	tap_ok(hpm_pmu_cpuid_from_cpuinfo(prefix, id, sizeof(id)) &&
	           strcmp(id, "0x0-0x19-0x0") == 0,
	       "keys match whole words");

	tap_ok(kmh_mapfile_match(&kmh_table_v2, "0x0-0x19-0x0") != NULL,
	       "mapfile: 0x0-0x19-0x0 is Kunminghu");
	tap_ok(kmh_mapfile_match(&kmh_table_v2, "0x0-0x19-0x1a") != NULL, "mapfile: any mimpid");
	tap_ok(kmh_mapfile_match(&kmh_table_v2, "0x489-0x8000000000000007-0x20181004") == NULL,
	       "mapfile: a SiFive core is not");
}

static void test_banks(void)
{
	tap_is_u64(kmh_perf_bank_counters(&kmh_table_v2, KMH_BANK_FRONTEND), 0x7f8,
	           "frontend: mhpmcounter3-10");
	tap_is_u64(kmh_perf_bank_counters(&kmh_table_v2, KMH_BANK_BACKEND), 0x7f800,
	           "backend: mhpmcounter11-18");
	tap_is_u64(kmh_perf_bank_counters(&kmh_table_v2, KMH_BANK_MEMBLOCK), 0x7f80000,
	           "memblock: mhpmcounter19-26");
	tap_is_u64(kmh_perf_bank_counters(&kmh_table_v2, KMH_BANK_CACHE), 0xf8000000,
	           "cache: mhpmcounter27-31");
	tap_is_u64(kmh_perf_bank_counters(&kmh_table_v2, KMH_BANK_NONE), 0, "no bank: no counters");
}

static void detect(const char *root, struct hpm_pmu *pmu, int *rc, char *err, size_t errlen)
{
	char sys[512], proc[512];
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	*rc = hpm_pmu_detect_at(pmu, sys, proc, err, errlen);
}

static void test_detect(void)
{
	struct hpm_pmu pmu;
	char err[300];
	int rc;

	char *r = fake_kunminghu("config:0-47", NULL);
	detect(r, &pmu, &rc, err, sizeof(err));
	tap_ok(rc == 0 && pmu.present && pmu.model && strcmp(pmu.cpuid, "0x0-0x19-0x0") == 0,
	       "48-bit Kunminghu: present, cpuid 0x0-0x19-0x0");
	tap_ok(pmu.type == 4 && pmu.type_from_sysfs, "48-bit: type 4 from sysfs");
	tap_ok(pmu.event_bits == 48 && pmu.event_from_sysfs &&
	           pmu.event.mask == (UINT64_C(1) << 48) - 1 &&
	           strcmp(pmu.event.text, "config:0-47") == 0,
	       "48-bit: format/event config:0-47");
	tap_ok(!pmu.has_counterid_mask, "48-bit: no counterid_mask");
	tap_ok(strcmp(pmu.model->name, "kunminghu") == 0,
	       "mapfile.csv's cpuid is the kunminghu model");
	fake_rm(r);

	r = fake_kunminghu("config:0-55", "config2:0-31");
	detect(r, &pmu, &rc, err, sizeof(err));
	tap_ok(rc == 0 && pmu.present && pmu.event_bits == 56,
	       "56-bit Kunminghu: present, 56 bits");
	tap_ok(pmu.has_counterid_mask && pmu.counterid_mask.field == HPM_PMU_CONFIG2 &&
	           pmu.counterid_mask.mask == 0xffffffff,
	       "56-bit: counterid_mask in config2:0-31");
	fake_rm(r);

	r = fake_kunminghu("config:0-47", "config2:0-31");
	detect(r, &pmu, &rc, err, sizeof(err));
	tap_ok(rc == 0 && pmu.present && pmu.event_bits == 48 && pmu.has_counterid_mask,
	       "48-bit with counterid_mask");
	fake_rm(r);

	r = fake_kunminghu(NULL, NULL);
	detect(r, &pmu, &rc, err, sizeof(err));
	tap_ok(rc == 0 && pmu.present && pmu.event_bits == 48 && !pmu.event_from_sysfs,
	       "no format/event: config:0-47 assumed");
	fake_rm(r);

	r = fake_kunminghu("config:0-47", NULL);
	fake_write(r, "sys/bus/event_source/devices/cpu/type", "8\n");
	detect(r, &pmu, &rc, err, sizeof(err));
	tap_ok(rc == 0 && pmu.type == 8, "the PMU type is read from sysfs (8)");
	fake_write(r, "sys/bus/event_source/devices/cpu/type", "garbage\n");
	detect(r, &pmu, &rc, err, sizeof(err));
	tap_ok(rc == 0 && pmu.type == 4 && !pmu.type_from_sysfs,
	       "an unreadable type: PERF_TYPE_RAW");
	fake_write(r, "sys/bus/event_source/devices/cpu/format/event", "config:0-47x\n");
	err[0] = '\0';
	detect(r, &pmu, &rc, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "format/event"),
	       "a malformed format/event is an error (%s)", err);
	fake_write(r, "sys/bus/event_source/devices/cpu/format/event", "config1:0-47\n");
	detect(r, &pmu, &rc, err, sizeof(err));
	tap_ok(rc == -EINVAL, "format/event outside config is an error");
	fake_write(r, "sys/bus/event_source/devices/cpu/format/event", "config:0-47\n");
	fake_write(r, "sys/bus/event_source/devices/cpu/format/counterid_mask", "config2:a\n");
	detect(r, &pmu, &rc, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "counterid_mask"),
	       "a malformed counterid_mask is an error");
	fake_rm(r);

	/* another RISC-V core */
	r = fake_root();
	fake_riscv_cpuinfo(r, "0x489", "0x8000000000000007", "0x20181004");
	fake_write(r, "sys/bus/event_source/devices/cpu/type", "4\n");
	fake_write(r, "sys/bus/event_source/devices/cpu/format/event", "config:0-47\n");
	detect(r, &pmu, &rc, err, sizeof(err));
	tap_ok(rc == 0 && !pmu.present && !pmu.model && pmu.has_cpu_pmu &&
	           strstr(pmu.reason, "a core of no PMU model hpmstat knows"),
	       "SiFive cpuinfo: not present (%s)", pmu.reason);
	fake_rm(r);

	/* x86 */
	r = fake_root();
	fake_write(r, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n");
	fake_write(r, "sys/bus/event_source/devices/cpu/type", "4\n");
	fake_write(r, "sys/bus/event_source/devices/cpu/format/event", "config:0-7\n");
	detect(r, &pmu, &rc, err, sizeof(err));
	tap_ok(rc == 0 && !pmu.present && pmu.cpuid[0] == '\0' &&
	           strstr(pmu.reason, "not a RISC-V host"),
	       "x86 cpuinfo: not present (%s)", pmu.reason);
	fake_rm(r);

	/* Kunminghu without a cpu PMU */
	r = fake_root();
	fake_riscv_cpuinfo(r, "0x0", "0x19", "0x0");
	fake_write(r, "sys/bus/event_source/devices/software/type", "1\n");
	detect(r, &pmu, &rc, err, sizeof(err));
	tap_ok(rc == 0 && !pmu.present && pmu.model && !pmu.has_cpu_pmu &&
	           strstr(pmu.reason, "CONFIG_RISCV_PMU_SBI"),
	       "Kunminghu without a cpu PMU: not present (%s)", pmu.reason);
	fake_rm(r);

	/* Sscofpmf from the first isa line, read in the one pass that finds
	 * the cpuid: before the ids, after them, absent, or no isa line */
	static const struct {
		const char *cpuinfo;
		int sscofpmf;
		const char *what;
	} isa[] = {
	    {"isa\t\t: rv64imafdch_sscofpmf_sstc\nmvendorid\t: 0x0\nmarchid\t: 0x19\n"
	     "mimpid\t: 0x0\n",
	     1, "isa line before the ids"},
	    {"mvendorid\t: 0x0\nmarchid\t: 0x19\nmimpid\t: 0x0\nisa\t: rv64imafdc_sscofpmf\n", 1,
	     "isa line after the ids"},
	    {"isa\t: rv64imafdch_sstc_sscofpmfx\nmvendorid\t: 0x0\nmarchid\t: 0x19\n"
	     "mimpid\t: 0x0\nisa\t: rv64i_sscofpmf\n",
	     0, "the first isa line counts, whole names only"},
	    {"mvendorid\t: 0x0\nmarchid\t: 0x19\nmimpid\t: 0x0\n", -1, "no isa line"},
	};
	for (unsigned i = 0; i < sizeof(isa) / sizeof(isa[0]); i++) {
		r = fake_root();
		fake_write(r, "proc/cpuinfo", isa[i].cpuinfo);
		detect(r, &pmu, &rc, err, sizeof(err));
		tap_ok(rc == 0 && pmu.sscofpmf == isa[i].sscofpmf &&
		           strcmp(pmu.cpuid, "0x0-0x19-0x0") == 0,
		       "%s: sscofpmf %d, cpuid %s", isa[i].what, pmu.sscofpmf, pmu.cpuid);
		fake_rm(r);
	}

	/* empty roots */
	r = fake_root();
	detect(r, &pmu, &rc, err, sizeof(err));
	tap_ok(rc == 0 && !pmu.present, "nothing at all: not present, not an error");
	fake_rm(r);
}

static void test_env(void)
{
	char sys[512], proc[512], err[300];
	struct hpm_pmu pmu;
	char *r = fake_kunminghu("config:0-55", "config2:0-31");
	snprintf(sys, sizeof(sys), "%s/sys", r);
	snprintf(proc, sizeof(proc), "%s/proc", r);
	setenv("HPMSTAT_SYSFS", sys, 1);
	setenv("HPMSTAT_PROCFS", proc, 1);
	tap_is_str(hpm_sysfs_root(), sys, "HPMSTAT_SYSFS is the sysfs root");
	tap_is_str(hpm_procfs_root(), proc, "HPMSTAT_PROCFS is the procfs root");
	int rc = hpm_pmu_detect(&pmu, err, sizeof(err));
	tap_ok(rc == 0 && pmu.present && pmu.event_bits == 56 && strcmp(pmu.sysfs, sys) == 0,
	       "hpm_pmu_detect() follows the environment");
	setenv("HPMSTAT_SYSFS", "", 1);
	unsetenv("HPMSTAT_PROCFS");
	tap_is_str(hpm_sysfs_root(), "/sys", "empty HPMSTAT_SYSFS: /sys");
	tap_is_str(hpm_procfs_root(), "/proc", "no HPMSTAT_PROCFS: /proc");
	unsetenv("HPMSTAT_SYSFS");
	fake_rm(r);

	rc = hpm_pmu_detect_at(&pmu, "/sys", "/proc", err, sizeof(err));
	tap_ok(rc == 0, "the real host is examined without error");
	tap_diag("real host: present %d cpuid '%s' cpu PMU %d type %u reason '%s'", pmu.present,
	         pmu.cpuid, pmu.has_cpu_pmu, pmu.type, pmu.reason);
}

int main(void)
{
	test_format();
	test_cpuinfo();
	test_banks();
	test_detect();
	test_env();
	return tap_done();
}
