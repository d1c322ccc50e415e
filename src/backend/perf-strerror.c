/* perf-strerror.c: perf's advice on a failed perf_event_open (its
 * evsel__open_strerror) as one-line messages; see perf.h. */
#include "backend/perf-int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <linux/perf_event.h>

#include "util/str.h"

/* The name of errno e as perf prints it, "errno" for others. */
const char *perf_errno_name(int e)
{
	switch (e) {
	case EPERM:
		return "EPERM";
	case ENOENT:
		return "ENOENT";
	case ESRCH:
		return "ESRCH";
	case E2BIG:
		return "E2BIG";
	case EBADF:
		return "EBADF";
	case EACCES:
		return "EACCES";
	case EBUSY:
		return "EBUSY";
	case ENODEV:
		return "ENODEV";
	case EINVAL:
		return "EINVAL";
	case ENFILE:
		return "ENFILE";
	case EMFILE:
		return "EMFILE";
	case ENOSPC:
		return "ENOSPC";
	case ENOSYS:
		return "ENOSYS";
	case ENXIO:
		return "ENXIO";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	default:
		return "errno";
	}
}

int hpm_perf_paranoid(void)
{
	char path[512], buf[32];
	const char *roots[2] = {hpm_procfs_root(), "/proc"};
	for (unsigned i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/sys/kernel/perf_event_paranoid", roots[i]);
		FILE *f = fopen(path, "re");
		if (!f)
			continue;
		char *ok = fgets(buf, sizeof(buf), f);
		fclose(f);
		char *end;
		long v;
		if (ok && (v = strtol(buf, &end, 10), end != buf) && v > INT_MIN && v < INT_MAX)
			return (int)v;
	}
	return INT_MIN;
}

/* ------------------------------------------------------------ advice */

/* A RISC-V host whose cpuinfo isa line lacks Sscofpmf. */
static bool no_sscofpmf(void)
{
	struct hpm_pmu pmu;
	char e[256];
	return hpm_pmu_detect(&pmu, e, sizeof(e)) == 0 && pmu.sscofpmf == 0;
}

const char *hpm_perf_open_strerror(int e, const struct hpm_evsel *ev, const struct hpm_target *t,
                                   char *out, size_t len)
{
	char name[160];
	str_escape(label(ev), name, sizeof(name));
	bool cpu_wide = t && cpu_target(t);

	switch (e) {
	case EACCES:
	case EPERM: {
		int p = hpm_perf_paranoid();
		char pv[16];
		const char *why, *fix;
		if (p == INT_MIN)
			snprintf(pv, sizeof(pv), "unreadable");
		else
			snprintf(pv, sizeof(pv), "%d", p);
		if (p >= 3) {
			why = "3 and above (a Debian addition) forbid perf_event_open to users "
			      "without CAP_PERFMON";
			fix =
			    "lower it: sysctl kernel.perf_event_paranoid=2 (or less), or run with "
			    "CAP_PERFMON";
		} else if (cpu_wide && p >= 1) {
			why = "1 and above forbid CPU-wide counting (-a, -C) without CAP_PERFMON";
			fix = "count a command or -p PID instead, or lower it: sysctl "
			      "kernel.perf_event_paranoid=0, or run with CAP_PERFMON";
		} else if (!ev->exclude_kernel && p >= 2) {
			why = "2 forbids counting kernel mode without CAP_PERFMON";
			fix = "count user space only (add :u), or lower it: sysctl "
			      "kernel.perf_event_paranoid=1, or run with CAP_PERFMON";
		} else {
			why = "that allows this request, so the kernel refused for another reason "
			      "(another user's process needs ptrace rights; a security module may "
			      "forbid perf)";
			fix = "run as the process's owner or with CAP_PERFMON";
		}
		snprintf(out, len,
		         "cannot count '%s': permission denied (%s); "
		         "/proc/sys/kernel/perf_event_paranoid is %s: %s; %s",
		         name, perf_errno_name(e), pv, why, fix);
		break;
	}
	case ESRCH:
		snprintf(out, len, "cannot count '%s': no such process (pid %d)", name,
		         t ? t->pid : -1);
		break;
	case EMFILE: {
		struct rlimit rl;
		char lim[32] = "?";
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
			snprintf(lim, sizeof(lim), "%llu", (unsigned long long)rl.rlim_cur);
		snprintf(out, len,
		         "cannot count '%s': too many open files (EMFILE): hpmstat needs one file "
		         "descriptor per event and CPU, and the limit is %s; raise it with "
		         "'ulimit -n <limit>' or count fewer events",
		         name, lim);
		break;
	}
	case ENFILE:
		snprintf(
		    out, len,
		    "cannot count '%s': the system's file table is full (ENFILE); close files or "
		    "raise fs.file-max",
		    name);
		break;
	case EBUSY:
		snprintf(
		    out, len,
		    "cannot count '%s': the PMU is busy (EBUSY): another tool holds its counters "
		    "exclusively",
		    name);
		break;
	case ENOSYS:
		snprintf(out, len,
		         "cannot count '%s': this kernel has no perf_event_open (ENOSYS: built "
		         "without CONFIG_PERF_EVENTS?)",
		         name);
		break;
	case EINVAL: {
		const char *hint;
		bool generic = ev->attr_type == PERF_TYPE_HARDWARE ||
		               ev->attr_type == PERF_TYPE_SOFTWARE ||
		               ev->attr_type == PERF_TYPE_HW_CACHE;
		if (!cpu_wide && !generic && !hpm_evsel_is_model(ev))
			/* perf: "Invalid event (%s) in per-thread mode, enable system wide with
			 * '-a'." */
			hint =
			    "an uncore or CPU-wide-only event cannot be counted per task: count it "
			    "system wide with -a";
		else if ((ev->exclude_user || ev->exclude_kernel || ev->exclude_hv ||
		          ev->exclude_host || (ev->exclude_guest && hpm_evsel_is_model(ev))) &&
		         no_sscofpmf())
			/* riscv_pmu_sbi sets PERF_PMU_CAP_NO_EXCLUDE without the
			 * overflow interrupt; perf core then refuses any exclude_* */
			hint =
			    "this RISC-V core has no Sscofpmf (cpuinfo's isa line), and without it "
			    "Linux's PMU driver filters no privilege mode: count without :u/:k";
		else if (ev->exclude_user || ev->exclude_kernel || ev->exclude_host ||
		         (ev->exclude_guest && hpm_evsel_is_model(ev)))
			hint =
			    "the PMU may not filter by privilege mode (RISC-V needs Sscofpmf): try "
			    "without modifiers";
		else
			hint = "the PMU does not accept this configuration; 'dmesg | grep -i perf' "
			       "may "
			       "say why";
		snprintf(
		    out, len,
		    "cannot count '%s': the kernel rejected its perf_event_attr (EINVAL: type %u "
		    "config 0x%llx): %s",
		    name, ev->attr_type, (unsigned long long)ev->attr_config, hint);
		break;
	}
	default:
		if (errno_not_supported(e))
			snprintf(out, len, "'%s' is not supported by this kernel or PMU (%s)", name,
			         perf_errno_name(e));
		else
			snprintf(out, len,
			         "cannot count '%s': perf_event_open failed: %s (%s %d); "
			         "'dmesg | grep -i perf' may say why",
			         name, strerror(e), perf_errno_name(e), e);
		break;
	}
	return out;
}
