/* host-pmu.h: discovery of a PMU model's PMU on the running host.
 *
 * Owns: struct hpm_pmu (what the perf back end needs to know about the
 * kernel's core PMU, RISC-V's or Arm's, to program a model's raw events:
 * which PMU model's core this is, the PMU's name and perf type, how many
 * config bits the kernel takes, its format terms and caps, whether it can
 * pin an event to some counters), what a model's perf_attr is told of it
 * (hpm_pmu_driver, with the format and cap lookups), and the parsing of the
 * sysfs and procfs files it comes from. Nothing here opens a perf event.
 *
 * The roots are taken from the environment so tests (and --dry-run) can
 * present a Kunminghu host on any machine: HPMSTAT_SYSFS (default "/sys")
 * and HPMSTAT_PROCFS (default "/proc"). Files read:
 *   <proc>/cpuinfo                               mvendorid, marchid, mimpid, isa
 *   <proc>/sys/kernel/osrelease                  the kernel release (else uname)
 *   <sys>/bus/event_source/devices/cpu/type      the PMU's perf type
 *   <sys>/bus/event_source/devices/cpu/format/event           "config:0-47"
 *   <sys>/bus/event_source/devices/cpu/format/counterid_mask  "config2:0-31"
 * On an Arm host (cpuinfo without the RISC-V ids) the core comes from
 * MIDR_EL1 and the PMU is a core PMU, as perf finds them (a PMU directory
 * with a cpus file: armv8_pmuv3_0, or armv8_cortex_a55 / armv9_neoverse_v2
 * ... on big.LITTLE, one per kind of core):
 *   <sys>/bus/event_source/devices/PMU/cpus        the CPUs it counts on: "0-3"
 *   <sys>/devices/system/cpu/cpuN/regs/identification/midr_el1
 *                                                   of the first of them
 * The first core PMU (by name) whose core is a PMU model's is the model's
 * PMU. Whatever the core, the chosen PMU's format/ terms and caps/ files
 * are read for the model's perf_attr (hpm_pmu_driver): Arm's threshold
 * terms, caps/slots and caps/threshold_max.
 */
/* Host PMUs by name (perf's PMU/TERMS/ syntax, any PMU under
 * <sys>/bus/event_source/devices): hpm_pmu_event_parse reads the PMU's
 *   type                the perf type
 *   format/TERM         where a term's value goes ("config:0-7,32-35")
 *   events/NAME         a named event, as terms ("event=0x3c,umask=0x00")
 * and builds the attr's type and config/config1/config2 from the terms.
 */
#ifndef HPM_BACKEND_HOST_PMU_H
#define HPM_BACKEND_HOST_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "arch/model.h"

/* The perf_event_attr field a sysfs format term lives in. */
enum hpm_pmu_attr_field {
	HPM_PMU_CONFIG = 0,
	HPM_PMU_CONFIG1 = 1,
	HPM_PMU_CONFIG2 = 2,
};

/* One sysfs format term, e.g. "config:0-47" or "config2:0-31". */
struct hpm_pmu_format {
	enum hpm_pmu_attr_field field;
	uint64_t mask;   /* the bits of that field the term covers */
	unsigned lo, hi; /* lowest and highest bit of mask */
	char text[64];   /* as read, whitespace trimmed */
};

#define HPM_PMU_MAX_TERMS 16
#define HPM_PMU_MAX_CAPS  8
#define HPM_PMU_MAX_CORES 8

/* A format/ term of the model's PMU, by name. */
struct hpm_pmu_term {
	char name[32];
	struct hpm_pmu_format f;
};

/* A caps/ file of the model's PMU, as read. */
struct hpm_pmu_cap {
	char name[32];
	char text[32];
};

/* A core PMU (one with a cpus file) and the core of its first CPU. */
struct hpm_pmu_core {
	char name[64];                     /* "armv8_pmuv3_0" */
	char cpus[64];                     /* its cpus file: "0-3" */
	char cpuid[32];                    /* MIDR_EL1 of its first CPU as perf writes
	                                    * it ("0x00000000410fd4f1"); "" unreadable */
	const struct hpm_pmu_model *model; /* the PMU model of that core, or NULL */
};

struct hpm_pmu {
	/* cpuinfo (RISC-V) or midr_el1 (Arm) */
	char cpuid[96]; /* "0x0-0x19-0x0", "0x00000000410fd4f1"; "" when neither is there */
	const struct hpm_pmu_model *model; /* the PMU model whose cores cpuid names
	                                    * (registry/models.h), or NULL */
	/* sysfs */
	char name[64]; /* the model's PMU: "cpu" on RISC-V, a core PMU's
	                * name on Arm ("" when there is none) */
	char cpus[64]; /* its cpus file ("" when it has none) */
	struct hpm_pmu_core cores[HPM_PMU_MAX_CORES]; /* Arm: every core PMU, by name */
	unsigned nr_cores;
	bool has_cpu_pmu;            /* <sys>/bus/event_source/devices/<name> exists */
	uint32_t type;               /* its perf type; PERF_TYPE_RAW (4) when not readable */
	bool type_from_sysfs;        /* type was read, not assumed */
	struct hpm_pmu_format event; /* format/event; assumed config:0-47 when absent */
	bool event_from_sysfs;
	unsigned event_bits;     /* highest bit of format/event + 1: 48 or 56 */
	uint64_t config_mask;    /* the config bits some format/ term covers
	                          * (event, and firmware on kernels that have it):
	                          * the driver drops the others of a raw config */
	bool has_counterid_mask; /* format/counterid_mask exists */
	struct hpm_pmu_format counterid_mask;
	struct hpm_pmu_term terms[HPM_PMU_MAX_TERMS]; /* every format/ term that parses */
	unsigned nr_terms;
	struct hpm_pmu_cap caps[HPM_PMU_MAX_CAPS]; /* caps/ files */
	unsigned nr_caps;
	/* the running kernel: its riscv_pmu_sbi decides which exclude_* flags
	 * reach the firmware (the model's perf_attr, arch/model.h) */
	unsigned kernel_version; /* major * 1000 + minor from <proc>/sys/kernel/osrelease
	                          * (else uname); 0 when unknown */
	char kernel_release[64];
	int sscofpmf; /* 1/0 when cpuinfo's isa line says whether the core has
	               * Sscofpmf (without it the driver takes no exclude_* flag:
	               * PERF_PMU_CAP_NO_EXCLUDE); -1 when cpuinfo has no isa line */
	/* summary */
	bool present;     /* a core of a PMU model (model) with a cpu PMU: the perf
	                   * back end counts the model's events on it */
	char reason[256]; /* when !present, why not, as one clause for a message */
	char sysfs[256];  /* the roots used */
	char procfs[256];
};

/* "6.1.0-27-amd64" -> 6001 (major * 1000 + minor); 0 when not a release. */
unsigned hpm_pmu_kernel_version(const char *release);

/* The roots from HPMSTAT_SYSFS / HPMSTAT_PROCFS, or "/sys" / "/proc" when
 * unset or empty. */
const char *hpm_sysfs_root(void);
const char *hpm_procfs_root(void);
/* The process of a thread: Tgid of PROCFS/TID/status (the caller says which
 * proc: the real one for counters it opens, the root for what it reports),
 * the thread itself when unreadable. */
pid_t hpm_proc_tgid(const char *procfs, pid_t tid);

/* Discover the PMU under the environment's roots. Returns 0 when the host
 * was examined (a non-Kunminghu host is not an error: present is false and
 * reason says why), or -EINVAL with a message in err when a Kunminghu
 * host's sysfs format files cannot be parsed. */
int hpm_pmu_detect(struct hpm_pmu *pmu, char *err, size_t errlen);
/* The same with explicit roots (NULL: the environment's). */
int hpm_pmu_detect_at(struct hpm_pmu *pmu, const char *sysfs, const char *procfs, char *err,
                      size_t errlen);

/* The same, preferring want's core PMU when the host has several core
 * PMUs (big.LITTLE) of different models; the first model's otherwise. */
int hpm_pmu_detect_model(struct hpm_pmu *pmu, const struct hpm_pmu_model *want, char *err,
                         size_t errlen);

/* Parse a sysfs format term ("config:0-47", "config2:0-31", "config:0-7,32-35").
 * Returns 0 or -EINVAL with a message. */
int hpm_pmu_parse_format(const char *text, struct hpm_pmu_format *f, char *err, size_t errlen);

/* Build perf's cpuid string "MVENDORID-MARCHID-MIMPID" from the text of a
 * RISC-V /proc/cpuinfo (first value of each key). Returns false when one of
 * the three keys is missing (not a RISC-V cpuinfo). */
bool hpm_pmu_cpuid_from_cpuinfo(const char *cpuinfo, char *out, size_t outlen);

/* One event of a host PMU, from "PMU/TERM[=VALUE],.../[MODS]". */
struct hpm_pmu_event {
	char pmu[64];       /* the PMU's directory name */
	uint32_t type;      /* <pmu>/type */
	uint64_t config[3]; /* config, config1, config2 */
	char name[128];     /* a name=... term, "" without one */
	char mods[16];      /* the modifier letters after the closing '/' */
	char unit[16];      /* events/NAME.unit of a named event ("Joules"), else "" */
	double scale;       /* events/NAME.scale, else 1 */
};

/* Whether spec has the shape PMU/.../[MODS] (a PMU name of letters,
 * digits, '_', '-' and '.', then '/'); the PMU name goes to pmu. */
bool hpm_pmu_spec_shape(const char *spec, char *pmu, size_t pmulen);

/* Resolve spec against <sysfs>/bus/event_source/devices/<pmu> (sysfs NULL:
 * hpm_sysfs_root()). Terms are perf's: a format/ term with a number (a term
 * without '=' is 1), config=, config1=, config2= (raw bits), name=, and
 * period=, percore=, metric-id= (accepted, nothing to do when counting); a
 * term that is a file in events/ expands to that file's terms (and its
 * NAME.unit and NAME.scale files give unit and scale, as perf shows them). Returns 0;
 * -EINVAL with one line for bad syntax, a value too big for its format or
 * an unknown term (the line lists the PMU's terms and events); -ENODEV when
 * there is no such PMU on this host (the line says so; the syntax was still
 * checked and ev->pmu, name and mods are set). */
int hpm_pmu_event_parse(const char *sysfs, const char *spec, struct hpm_pmu_event *ev, char *err,
                        size_t errlen);

/* One named event of a host PMU, for listing: <pmu>/events/<event>. */
struct hpm_pmu_named_event {
	const char *pmu;   /* the PMU's directory name: "msr" */
	const char *event; /* the events/ file: "tsc" */
	const char *spec;  /* as stat -e takes it, perf's spelling: "msr/tsc/" */
	const char *terms; /* the file's terms: "event=0x00" */
};
typedef void (*hpm_pmu_event_visit_fn)(void *ctx, const struct hpm_pmu_named_event *ev);
/* Visit every events/NAME of every PMU under <sysfs>/bus/event_source/devices
 * (sysfs NULL: hpm_sysfs_root()) but kunminghu, as perf list shows them
 * ([Kernel PMU event]): PMUs and their events in name order, not the
 * NAME.unit/.scale/.per-pkg/.snapshot companion files. The strings live for
 * the call only. Returns how many were visited. */
unsigned hpm_pmu_list_events(const char *sysfs, hpm_pmu_event_visit_fn visit, void *ctx);

/* MIDR_EL1 of CPU n as perf's arm64 cpuid ("0x00000000410fd4f1") from
 * <sysfs>/devices/system/cpu/cpuN/regs/identification/midr_el1; false when
 * there is no such file or it is not a number. */
bool hpm_pmu_midr(const char *sysfs, unsigned cpu, char *out, size_t outlen);

/* What a model's perf_attr is told of this host's driver (arch/model.h).
 * out's strings and its format and cap lookups point into pmu, which must
 * outlive out. */
void hpm_pmu_driver(const struct hpm_pmu *pmu, struct hpm_model_perf_pmu *out);

#endif
