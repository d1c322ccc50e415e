/* test-pmu-events.c: perf's PMU/TERMS/ syntax for any sysfs PMU
 * (backend/host-pmu.c hpm_pmu_event_parse, and its routing in host-events.c),
 * against fake sysfs trees of PMUs this machine lacks (an x86 cpu PMU, RAPL's
 * power PMU, a split format) with hand-worked configs, and against the real
 * /sys where the PMU exists (msr: the kernel's PERF_MSR_TSC is event 0). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/host-events.h"
#include "backend/host-pmu.h"
#include "fake.h"
#include "tap.h"

#define DEV "bus/event_source/devices/"

static char *fake_host(void)
{
	char *root = fake_root();
	/* an Intel core PMU, as arch/x86/events/intel/core.c formats it */
	fake_write(root, DEV "cpu/type", "4\n");
	fake_write(root, DEV "cpu/format/event", "config:0-7\n");
	fake_write(root, DEV "cpu/format/umask", "config:8-15\n");
	fake_write(root, DEV "cpu/format/inv", "config:23\n");
	fake_write(root, DEV "cpu/format/cmask", "config:24-31\n");
	fake_write(root, DEV "cpu/format/in_tx", "config:32\n");
	fake_write(root, DEV "cpu/events/cycles-t", "event=0x3c,in_tx=1\n");
	fake_write(root, DEV "cpu/events/ref-cycles", "event=0x00,umask=0x03\n");
	/* RAPL (arch/x86/events/rapl.c) */
	fake_write(root, DEV "power/type", "23\n");
	fake_write(root, DEV "power/format/event", "config:0-7\n");
	fake_write(root, DEV "power/events/energy-pkg", "event=0x02\n");
	fake_write(root, DEV "power/events/energy-pkg.scale", "2.3283064365386962890625e-10\n");
	fake_write(root, DEV "power/events/energy-pkg.unit", "Joules\n");
	/* a term split over two ranges of config1 */
	fake_write(root, DEV "split/type", "30\n");
	fake_write(root, DEV "split/format/sel", "config1:0-3,8\n");
	return root;
}

static void test_fake(const char *root)
{
	struct hpm_pmu_event ev;
	char err[400];
	int rc;

	rc = hpm_pmu_event_parse(root, "cpu/event=0x3c,umask=0x1,inv,cmask=2/", &ev, err,
	                         sizeof(err));
	/* 0x3c | 0x1 << 8 | 1 << 23 | 2 << 24 */
	tap_ok(rc == 0 && ev.type == 4 && ev.config[0] == UINT64_C(0x0280013c),
	       "cpu/event=0x3c,umask=0x1,inv,cmask=2/: type 4 config 0x0280013c (0x%llx)",
	       (unsigned long long)ev.config[0]);
	rc = hpm_pmu_event_parse(root, "cpu/cycles-t/", &ev, err, sizeof(err));
	tap_ok(rc == 0 && ev.config[0] == UINT64_C(0x10000003c),
	       "a named event expands to its terms: cpu/cycles-t/ = event=0x3c,in_tx=1 (0x%llx)",
	       (unsigned long long)ev.config[0]);
	rc = hpm_pmu_event_parse(root, "cpu/ref-cycles,cmask=1/u", &ev, err, sizeof(err));
	tap_ok(rc == 0 && ev.config[0] == UINT64_C(0x01000300) && strcmp(ev.mods, "u") == 0,
	       "a named event with more terms and a modifier (0x%llx, '%s')",
	       (unsigned long long)ev.config[0], ev.mods);
	rc = hpm_pmu_event_parse(root, "cpu/config=0x123,config1=7,config2=9/", &ev, err,
	                         sizeof(err));
	tap_ok(rc == 0 && ev.config[0] == 0x123 && ev.config[1] == 7 && ev.config[2] == 9,
	       "config, config1, config2 take raw values");
	rc = hpm_pmu_event_parse(root, "cpu/ event = 0xc0 , name=insns /", &ev, err, sizeof(err));
	tap_ok(rc == 0 && ev.config[0] == 0xc0 && strcmp(ev.name, "insns") == 0,
	       "blanks in terms are ignored; name= names the event");
	rc = hpm_pmu_event_parse(root, "split/sel=0x1f/", &ev, err, sizeof(err));
	tap_ok(rc == 0 && ev.type == 30 && ev.config[1] == 0x10f,
	       "config1:0-3,8 with 0x1f: low bits 0-3, the fifth at bit 8 (0x%llx)",
	       (unsigned long long)ev.config[1]);
	rc = hpm_pmu_event_parse(root, "split/sel=0x20/", &ev, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "too big") && strstr(err, "config1:0-3,8"),
	       "a value wider than its format is refused: %s", err);
	rc = hpm_pmu_event_parse(root, "power/energy-pkg/", &ev, err, sizeof(err));
	tap_ok(rc == 0 && ev.type == 23 && ev.config[0] == 2 && strcmp(ev.unit, "Joules") == 0 &&
	           ev.scale == 2.3283064365386962890625e-10,
	       "power/energy-pkg/: type 23 event 2, unit and scale from sysfs");
	rc = hpm_pmu_event_parse(root, "cpu/umsk=1/", &ev, err, sizeof(err));
	tap_ok(rc == -EINVAL && !strchr(err, '\n') && strstr(err, "unknown term 'umsk'") &&
	           strstr(err, "cmask, event, in_tx, inv, umask") &&
	           strstr(err, "events: cycles-t, ref-cycles"),
	       "an unknown term: one line listing the PMU's terms and events: %s", err);
	rc = hpm_pmu_event_parse(root, "cpu/event=zz/", &ev, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "'zz' is not a number"), "a bad value: %s", err);
	rc = hpm_pmu_event_parse(root, "cpu/event=1/x", &ev, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "not a modifier"), "a bad modifier: %s", err);
	rc = hpm_pmu_event_parse(root, "cpu/event=1,,umask=1/", &ev, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "empty term"), "an empty term: %s", err);
	rc = hpm_pmu_event_parse(root, "uncore_imc/cas_count_read/", &ev, err, sizeof(err));
	tap_ok(rc == -ENODEV && !strchr(err, '\n') &&
	           strstr(err, "Cannot find PMU `uncore_imc'. Missing kernel support?"),
	       "an absent PMU parses and says so in perf's words, on one line: %s", err);
	rc = hpm_pmu_event_parse(root, "uncore_imc/=1/", &ev, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "bad term"),
	       "an absent PMU's terms are still checked: %s", err);

	/* routing and attrs through host-events, under HPMSTAT_SYSFS */
	setenv("HPMSTAT_SYSFS", root, 1);
	struct hpm_host_attr a;
	tap_ok(hpm_host_event_is_host("cpu/event=0x3c,umask=0/"), "cpu/event=.../ is a host event");
	tap_ok(hpm_host_event_is_host("power/energy-pkg/"), "power/energy-pkg/ is a host event");
	tap_ok(!hpm_host_event_is_host("cpu/event0=7,bank=frontend/"),
	       "cpu/event0=..,bank=../ stays a Kunminghu term (hpmstat-events(7))");
	tap_ok(!hpm_host_event_is_host("kunminghu/event0=7/"), "kunminghu/.../ stays Kunminghu");
	rc = hpm_host_event_parse("cpu/event=0xc0/k", &a, err, sizeof(err));
	tap_ok(rc == 0 && a.kind == HPM_HOST_PMU && a.type == 4 && a.config == 0xc0 &&
	           a.exclude_user && !a.exclude_kernel && a.exclude_hv,
	       "cpu/event=0xc0/k: perf's k (exclude_user, exclude_hv)");
	unsetenv("HPMSTAT_SYSFS");
}

/* The real /sys: msr/tsc/ is event 0 (arch/x86/events/msr.c PERF_MSR_TSC). */
static void test_real(void)
{
	char type[32] = "";
	FILE *f = fopen("/sys/" DEV "msr/type", "r");
	if (!f || !fgets(type, sizeof(type), f)) {
		if (f)
			fclose(f);
		for (int i = 0; i < 3; i++)
			tap_skip("no msr PMU in /sys here");
		return;
	}
	fclose(f);
	struct hpm_pmu_event ev;
	char err[400];
	int rc = hpm_pmu_event_parse("/sys", "msr/tsc/", &ev, err, sizeof(err));
	tap_ok(rc == 0 && ev.type == (uint32_t)atoi(type) && ev.config[0] == 0,
	       "real /sys: msr/tsc/ is type %u config 0", ev.type);
	rc = hpm_pmu_event_parse("/sys", "msr/event=0x1/", &ev, err, sizeof(err));
	tap_ok(rc == 0 && ev.config[0] == 1, "real /sys: msr/event=0x1/ is config 1");
	rc = hpm_pmu_event_parse("/sys", "msr/tsx/", &ev, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "unknown term 'tsx'") && strstr(err, "tsc"),
	       "real /sys: a typo lists msr's events: %s", err);
}

int main(void)
{
	char *root = fake_host();
	test_fake(root);
	test_real();
	fake_rm(root);
	return tap_done();
}
