/* host-events.h: host event names, resolved to perf_event_attr fields.
 *
 * Owns: the table of perf's generic names as perf's own parser spells them
 * (hardware: cycles, instructions, ...; software: task-clock, page-faults,
 * ...; hardware cache: L1-dcache-load-misses, ...), perf's modifier
 * semantics (u k h H G -> exclude_*), and, built with libpfm4, every name
 * libpfm4 resolves for the host's PMUs, and perf's tool events
 * (duration_time, user_time, system_time). The stat command asks here whether a
 * name is a host event at all (to route it to the perf back end) and for the
 * closest names when it is not.
 *
 * Defaults are perf's (tools/perf 6.1, Debian 12): no modifier counts user,
 * kernel and hypervisor with exclude_guest = 1 (perf_guest is false); `:u`
 * sets exclude_kernel and exclude_hv, `:k` exclude_user and exclude_hv, `:h`
 * exclude_user and exclude_kernel; `:G` counts only the guest
 * (exclude_host = 1, exclude_guest = 0), `:H` only the host; letters add up.
 * `W` (weak group) and `S` (sample read) are accepted and change nothing for
 * one counted event, as in perf stat.
 *
 * Not thread-safe (libpfm4 is initialised once, on first need). Never prints.
 */
#ifndef HPM_BACKEND_HOST_EVENTS_H
#define HPM_BACKEND_HOST_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/model.h"

struct hpm_evsel;

enum hpm_host_kind {
	HPM_HOST_HARDWARE, /* PERF_TYPE_HARDWARE */
	HPM_HOST_SOFTWARE, /* PERF_TYPE_SOFTWARE */
	HPM_HOST_CACHE,    /* PERF_TYPE_HW_CACHE */
	HPM_HOST_PFM,      /* resolved by libpfm4: any type */
	HPM_HOST_PMU,      /* PMU/TERMS/ of a sysfs PMU (backend/host-pmu.h) */
};

/* What one host event spec asks perf_event_open for. */
struct hpm_host_attr {
	enum hpm_host_kind kind;
	uint32_t type;
	uint64_t config, config1, config2;
	bool exclude_user, exclude_kernel, exclude_hv, exclude_host, exclude_guest;
	/* exclude_guest/exclude_host are perf's default, not asked for: the
	 * back end may drop them when the kernel refuses them (EINVAL), as
	 * perf does for kernels and PMUs without guest filtering */
	bool guest_default;
	/* p, pp, ppp: perf's precise_ip (skid asked of the PMU, 0 to 3); P:
	 * the most the PMU gives, found by lowering it (precise_max) */
	unsigned precise_ip;
	bool precise_max;
	const char *unit; /* "msec" for cpu-clock and task-clock, else "" */
	double scale;     /* 1e-6 for those (ns shown as msec), else 1 */
	char name[128];   /* HPM_HOST_PMU: its name= term, "" without one */
};

/* One name of the generic table, for listing. */
struct hpm_host_event {
	const char *name;  /* perf's name, e.g. "cycles", "L1-dcache-load-misses" */
	const char *alias; /* another spelling perf accepts ("cpu-cycles"), or NULL */
	enum hpm_host_kind kind;
	uint32_t type;
	uint64_t config;
};

/* Parse NAME or NAME:MODS, or PMU/TERMS/[MODS] of any sysfs PMU but
 * kunminghu (hpm_pmu_event_parse). Returns 0, -ENOENT for an unknown name
 * (the message suggests the closest known names), -EINVAL for a bad
 * modifier or term, or -ENODEV for a PMU this host does not have (the
 * message says why it cannot be counted; the attr is not usable). */
int hpm_host_event_parse(const char *spec, struct hpm_host_attr *a, char *err, size_t errlen);

/* Parse ev->spec (ev->name when spec is NULL), a host event
 * (hpm_host_event_is_host says so: with a '/' it is PMU/TERMS/), into the
 * evsel's attr fields, unit and scale; a name= term renames the row. Same
 * returns as hpm_host_event_parse: a PMU this host does not have is
 * -ENODEV, as perf refuses it ("Cannot find PMU"), never a row that
 * counts nothing. */
int hpm_host_event_fill(struct hpm_evsel *ev, char *err, size_t errlen);

/* Whether spec names a host event (a generic name, or one libpfm4
 * resolves), modifiers included. Never fails; false for anything else.
 * Neither rHEX nor any other Kunminghu expression is one, even when
 * libpfm4 would take it: SPEC §1 gives them to Kunminghu (a host raw event
 * is perf_raw::rHEX, a host PMU's event PMU::NAME). PMU/TERMS/ is one,
 * except for the PMU kunminghu and for cpu/.../ terms Kunminghu's encoder
 * takes (event0=, op0=, bank=: hpmstat-events(7)). */
bool hpm_host_event_is_host(const char *spec);

/* Kunminghu's encoding of one spec, made at most once, by whoever needs it
 * first: routing an event asks the host namespace (which needs the answer
 * only for cpu/TERMS/ and libpfm4 names) and then Kunminghu's, and a
 * generic name is never encoded at all. Zero it before the first use. */
struct hpm_model_attempt {
	const struct hpm_pmu_model *model; /* the model whose events are not host
	                                    * events (set by the caller) */
	bool tried;
	bool ok; /* the model's encoder took the spec: enc holds it, else err says why */
	struct hpm_event_code enc;
	struct hpm_diag err;
};
/* Encodes spec into k unless done; whether the encoder took it. */
bool hpm_host_model_try(const char *spec, struct hpm_model_attempt *k);
/* hpm_host_event_is_host, encoding into k only if it must. */
bool hpm_host_event_is_host_once(const char *spec, struct hpm_model_attempt *k);

/* Why libpfm4 could not be opened when a name was looked up in it ("libpfm.so.4
 * is not installed (Debian package libpfm4)"), or NULL: for the message of
 * an unknown name. */
const char *hpm_host_event_pfm_missing(void);

/* Up to max generic names closest to name (modifiers ignored), best first;
 * out[] points into static storage. Returns how many. */
unsigned hpm_host_event_suggest(const char *name, const char **out, unsigned max);

/* The generic table: hardware, software, then hardware cache events under
 * perf's canonical names. i < hpm_host_nr_events(). */
unsigned hpm_host_nr_events(void);
const struct hpm_host_event *hpm_host_event_at(unsigned i);

/* Whether libpfm4 was built in and found at least one PMU with events on
 * this host (perf's generic "perf" PMU counts). */
bool hpm_host_have_pfm(void);

/* One libpfm4 name, for listing. */
struct hpm_pfm_name {
	const char *pmu;      /* libpfm4's PMU name: "perf", "amd64_fam19h_zen3" */
	const char *pmu_desc; /* "perf_events generic PMU" */
	const char *name;     /* PMU::EVENT or PMU::EVENT:UMASK */
	const char *desc;     /* the event's or the umask's description, or "" */
};
typedef void (*hpm_pfm_visit_fn)(void *ctx, const struct hpm_pfm_name *n);
/* Visit every libpfm4 name of the PMUs present on this host that
 * hpm_host_event_parse takes (and hpm_host_event_is_host routes here), in
 * libpfm4's order: PMU::EVENT when it needs no umask, then PMU::EVENT:UMASK
 * for each of its umasks. Not perf_raw's r0000 (the rHEX template). The
 * strings live for the call only. Returns how many; 0 without libpfm4. */
unsigned hpm_host_pfm_names(hpm_pfm_visit_fn visit, void *ctx);

/* perf's tool events ([Tool event] in perf list): counted by the stat
 * command itself, not by perf_event_open. duration_time is the wall time
 * of the run, user_time and system_time the workload's rusage; all in ns. */
enum hpm_tool {
	HPM_TOOL_DURATION,
	HPM_TOOL_USER,
	HPM_TOOL_SYSTEM,
	HPM_NR_TOOLS,
};
/* Its name ("duration_time") and a one-line description, for listing. */
const char *hpm_host_tool_name(enum hpm_tool t);
const char *hpm_host_tool_desc(enum hpm_tool t);
/* Where its count comes from: "the run's wall time", "the workload's rusage". */
const char *hpm_host_tool_source(enum hpm_tool t);
/* Whether spec is a tool event, NAME or NAME:MODS (perf's modifier letters
 * are accepted and change nothing, as in perf). Returns 1 with *t set, 0
 * when spec is not one, -EINVAL with a message for a bad modifier. */
int hpm_host_tool_parse(const char *spec, enum hpm_tool *t, char *err, size_t errlen);

#endif
