/* perf.c: the perf_event_open back end; see perf.h for what it does. */
#include "backend/perf-int.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "backend/host-events.h"
#include "bpf/taskcount.h"
#include "util/str.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------ helpers */

bool hpm_perf_owns(const struct hpm_evsel *ev, const struct hpm_pmu *pmu)
{
	return ev->kind == HPM_EV_HOST || (hpm_evsel_is_model(ev) && pmu && pmu->present);
}

/* ------------------------------------------------------------ attrs */

/* The attr fields that a model's mapping (struct hpm_model_perf_attr) and
 * a host event's parse (struct hpm_host_attr) both fill, by the same
 * names: one list of them for both kinds of event. */
#define COPY_PERF_FIELDS(pe, a)                                                                    \
	do {                                                                                       \
		(pe)->type = (a).type;                                                             \
		(pe)->config = (a).config;                                                         \
		(pe)->config1 = (a).config1;                                                       \
		(pe)->config2 = (a).config2;                                                       \
		(pe)->exclude_user = (a).exclude_user;                                             \
		(pe)->exclude_kernel = (a).exclude_kernel;                                         \
		(pe)->exclude_hv = (a).exclude_hv;                                                 \
		(pe)->exclude_host = (a).exclude_host;                                             \
		(pe)->exclude_guest = (a).exclude_guest;                                           \
	} while (0)

/* A model event's attr: the model's mapping for the host's driver
 * (arch/model.h perf_attr), its message after the event's text. */
static int model_attr(const struct hpm_evsel *ev, const struct hpm_pmu *pmu,
                      struct hpm_perf_event *pe, char *err, size_t errlen)
{
	const struct hpm_pmu_model *m = ev->enc.model;
	char buf[200];
	str_escape(label(ev), buf, sizeof(buf));
	if (!m->perf_attr) {
		snprintf(err, errlen,
		         "'%s' cannot be counted through perf: the %s model has no "
		         "mapping to a kernel driver",
		         buf, m->display);
		return -EOPNOTSUPP;
	}
	struct hpm_model_perf_pmu drv;
	struct hpm_model_perf_attr a;
	struct hpm_diag e;
	hpm_pmu_driver(pmu, &drv);
	int rc = m->perf_attr(m, &ev->enc, ev->optional, &drv, &a, &e);
	/* the mapping's own fields, then those a host event has too */
	pe->pinned = a.pinned;
	pe->unpinned = a.unpinned;
	pe->unpinned_warning = a.unpinned_warning;
	pe->extra_modes = a.extra_modes;
	pe->absent = a.absent;
	COPY_PERF_FIELDS(pe, a);
	if (rc == 0)
		return 0;
	snprintf(err, errlen, "'%s' %s", buf, e.msg);
	return a.absent ? -ENODEV : -EINVAL;
}

/* --all-user / --all-kernel on a host event, as perf's evsel__config:
 * exclude_kernel and exclude_user set and cleared whatever the modifiers
 * said; exclude_hv stays. */
static void apply_level(const struct hpm_evsel *ev, struct hpm_perf_event *pe)
{
	if (ev->level_only == HPM_LEVEL_USER) {
		pe->exclude_kernel = true;
		pe->exclude_user = false;
	} else if (ev->level_only == HPM_LEVEL_KERNEL) {
		pe->exclude_kernel = false;
		pe->exclude_user = true;
	}
}

int hpm_perf_event_attr(const struct hpm_evsel *ev, const struct hpm_pmu *pmu,
                        struct hpm_perf_event *pe, char *err, size_t errlen)
{
	memset(pe, 0, sizeof(*pe));
	pe->unit = "";
	pe->scale = 1.0;
	if (ev->kind == HPM_EV_HOST) {
		struct hpm_host_attr a;
		int rc = hpm_host_event_parse(ev->spec ? ev->spec : ev->name, &a, err, errlen);
		if (rc == -ENODEV)
			pe->absent = true;
		if (rc)
			return rc;
		COPY_PERF_FIELDS(pe, a);
		pe->guest_default = a.guest_default;
		pe->precise_ip = a.precise_ip;
		pe->precise_max = a.precise_max;
		pe->unit = a.unit;
		pe->scale = a.scale;
		pe->sysfs_pmu = a.kind == HPM_HOST_PMU;
		apply_level(ev, pe);
		/* cpu/config=.../ on the RISC-V PMU: bits no format/ term covers
		 * are dropped by riscv_pmu_sbi as silently as a raw value's */
		if (pe->sysfs_pmu && pmu && pmu->present && a.type == pmu->type &&
		    (a.config & ~pmu->config_mask)) {
			char buf[200];
			uint64_t extra = a.config & ~pmu->config_mask;
			str_escape(label(ev), buf, sizeof(buf));
			snprintf(err, errlen,
			         "'%s' sets config bits %u:%u, which no term of this kernel's PMU "
			         "covers (it takes %s): the kernel would drop them silently",
			         buf, 63u - (unsigned)__builtin_clzll(extra),
			         (unsigned)__builtin_ctzll(extra), pmu->event.text);
			return -EINVAL;
		}
		return 0;
	}
	if (!pmu || !pmu->present) {
		const char *m = ev->enc.model->display;
		snprintf(
		    err, errlen,
		    "%s events need that PMU, and this host has none (use --backend emu or auto)",
		    m);
		return -ENODEV;
	}
	return model_attr(ev, pmu, pe, err, errlen);
}

/* ------------------------------------------------------------ sessions */

/* The perf back end behind a handle; NULL when it is not one (or NULL). */
static struct perf_inst *perf_of(struct hpm_backend_inst *b)
{
	return b && b->ops == &hpm_backend_perf ? (struct perf_inst *)b : NULL;
}

static void perf_inst_free(struct perf_inst *s)
{
	for (unsigned k = 0; s->ev && k < s->base.nr_rows; k++) {
		struct perf_ev *pv = &s->ev[k];
		for (unsigned p = 0; pv->fd && p < s->nr_places; p++)
			if (pv->fd[p] >= 0)
				close(pv->fd[p]);
		if (pv->cgroup_fd >= 0)
			close(pv->cgroup_fd);
		free(pv->fd);
		free(pv->id);
	}
	hpm_taskcount_close(s->tc);
	free(s->bpf_tids);
	free(s->ev);
	free(s->place);
	free(s->buf);
	hpm_backend_inst_fini(&s->base);
	free(s);
}

int hpm_perf_cpu_fd(const struct hpm_backend_inst *b, unsigned row, int cpu)
{
	/* perf_of's test, on a const handle */
	const struct perf_inst *s =
	    b && b->ops == &hpm_backend_perf ? (const struct perf_inst *)b : NULL;
	for (unsigned k = 0; s && k < s->base.nr_rows; k++) {
		if (s->base.rows[k] != row)
			continue;
		for (unsigned p = 0; s->ev[k].fd && p < s->nr_places; p++)
			if (s->place[p].pid == -1 && s->place[p].cpu == cpu)
				return s->ev[k].fd[p];
	}
	return -1;
}

int hpm_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
                        unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

void hpm_perf_event_to_attr(const struct hpm_perf_event *pe, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = pe->type;
	a->config = pe->config;
	a->config1 = pe->config1;
	a->config2 = pe->config2;
	a->exclude_user = pe->exclude_user;
	a->exclude_kernel = pe->exclude_kernel;
	a->exclude_hv = pe->exclude_hv;
	a->exclude_host = pe->exclude_host;
	a->exclude_guest = pe->exclude_guest;
}

static void to_attr(const struct hpm_perf_event *pe, bool in_group, bool leader,
                    const struct hpm_target *t, bool task, struct perf_event_attr *a)
{
	hpm_perf_event_to_attr(pe, a);
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (in_group)
		a->read_format |= PERF_FORMAT_ID | PERF_FORMAT_GROUP;
	a->inherit = t->inherit;
	/* as perf stat: leaders start disabled, members follow their leader */
	a->disabled = leader;
	/* enable_on_exec acts on the task's own context: never on CPU events,
	 * nor on the threads of the whole system (-a --per-thread) */
	a->enable_on_exec = leader && task && t->enable_on_exec && !t->system_wide;
}

static void describe(struct hpm_evsel *ev, const struct perf_ev *pv, const struct perf_inst *s,
                     const char *where, const char *leader_name)
{
	const struct hpm_perf_event *pe = &pv->pe;
	char c1[40] = "", c2[40] = "", grp[200] = "";
	unsigned nfd = 0;
	for (unsigned p = 0; p < s->nr_places; p++)
		nfd += pv->fd[p] >= 0;
	if (pe->config1)
		snprintf(c1, sizeof(c1), " config1 0x%llx", (unsigned long long)pe->config1);
	if (pe->config2)
		snprintf(c2, sizeof(c2), " config2 0x%llx", (unsigned long long)pe->config2);
	if (pv->in_group)
		snprintf(grp, sizeof(grp), pv->leader ? ", group leader" : ", in %.150s's group",
		         leader_name);
	else if (pv->split)
		snprintf(grp, sizeof(grp), ", alone: its weak group could not be opened as one");
	free(ev->placement);
	if (pe->absent)
		ev->placement = xasprintf("not supported: no such PMU on this host");
	else if (ev->state == HPM_EV_NOT_SUPPORTED)
		ev->placement =
		    xasprintf("perf type %u config 0x%llx%s%s: not supported (%s)", pe->type,
		              (unsigned long long)pe->config, c1, c2, perf_errno_name(pv->err));
	else
		ev->placement = xasprintf("perf type %u config 0x%llx%s%s on %s (%u fd%s)%s%s",
		                          pe->type, (unsigned long long)pe->config, c1, c2, where,
		                          nfd, nfd == 1 ? "" : "s", grp,
		                          pe->unpinned ? ", counter chosen by the firmware"
		                          : pe->pinned ? ", pinned by counterid_mask"
		                                       : "");
}

/* The first event the driver places on a counter it may not use: one
 * warning, the model's. */
static void set_warning(struct hpm_perf_cfg *cfg, const struct hpm_perf_event *pe)
{
	if (!pe->unpinned || cfg->warn)
		return;
	cfg->warn = true;
	snprintf(cfg->warning, sizeof(cfg->warning), "%s",
	         pe->unpinned_warning ? pe->unpinned_warning : "");
}

/* The first event that counts guest modes it did not ask for: one note. */
static void set_note(struct hpm_perf_cfg *cfg, const struct hpm_perf_event *pe,
                     const struct hpm_evsel *ev, const struct hpm_pmu *pmu)
{
	if (!pe->extra_modes || cfg->noted)
		return;
	const struct hpm_pmu_model *m = ev->enc.model;
	struct hpm_model_perf_pmu drv;
	char buf[120], mbuf[24];
	str_escape(label(ev), buf, sizeof(buf));
	hpm_pmu_driver(pmu, &drv);
	cfg->noted = true;
	snprintf(cfg->note, sizeof(cfg->note),
	         "'%s' also counts %s (guest modes, which run only inside a KVM guest): %.100s "
	         "cannot exclude them on kernel %.40s",
	         buf, m->modes_str(m, pe->extra_modes, mbuf, sizeof(mbuf)),
	         m->perf_driver ? m->perf_driver(m, &drv) : "its driver",
	         pmu->kernel_release[0] ? pmu->kernel_release : "?");
}

/* Some of rows[0..nr_rows) of list (every row when rows is NULL) is an
 * event of a PMU model. */
static bool any_model_event(const struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows)
{
	unsigned n = rows ? nr_rows : list->nr;
	for (unsigned k = 0; k < n; k++)
		if (hpm_evsel_is_model(&list->ev[rows ? rows[k] : k]))
			return true;
	return false;
}

/* What open and dry_run take: host events, and model events unless they
 * are left to the emulator (leave_model without the model's PMU). */
struct takes_ctx {
	const struct hpm_pmu *pmu;
	bool leave_model;
};

static bool takes(const struct hpm_evsel *ev, const void *vctx)
{
	const struct takes_ctx *c = vctx;
	if (hpm_evsel_is_model(ev))
		return !c->leave_model || (c->pmu && c->pmu->present);
	return ev->kind == HPM_EV_HOST;
}

static void copy_to_evsel(struct hpm_evsel *ev, const struct hpm_perf_event *pe)
{
	ev->attr_type = pe->type;
	ev->attr_config = pe->config;
	ev->attr_config1 = pe->config1;
	ev->attr_config2 = pe->config2;
	ev->exclude_user = pe->exclude_user;
	ev->exclude_kernel = pe->exclude_kernel;
	ev->exclude_hv = pe->exclude_hv;
	ev->exclude_host = pe->exclude_host;
	ev->exclude_guest = pe->exclude_guest;
	ev->unit = pe->unit;
	ev->scale = pe->scale;
}

/* The leader of the group of the k-th row the back end took, among those
 * before it (its index j), or -1 (ungrouped, or the first of its group to
 * open). */
static int group_leader(const struct perf_inst *s, unsigned k)
{
	const struct hpm_evsel *ev = row(s, k);
	if (!s->ev[k].in_group)
		return -1;
	for (unsigned j = 0; j < k; j++) {
		const struct hpm_evsel *o = row(s, j);
		if (o->group == ev->group && s->ev[j].leader && o->state != HPM_EV_NOT_SUPPORTED)
			return (int)j;
	}
	return -1;
}

/* Open one evsel at one place. Returns the fd or -errno. */
static int open_one(struct perf_ev *pv, const struct perf_place *pl, int group_fd,
                    const struct hpm_target *t, bool task)
{
	struct perf_event_attr a;
	for (;;) {
		to_attr(&pv->pe, pv->in_group, group_fd < 0, t, task, &a);
		unsigned long flags = PERF_FLAG_FD_CLOEXEC;
		pid_t pid = pl->pid;
		if (pv->cgroup_fd >= 0) {
			/* perf -G: the "pid" is the cgroup's directory */
			pid = pv->cgroup_fd;
			flags |= PERF_FLAG_PID_CGROUP;
		}
		int fd = hpm_perf_event_open(&a, pid, pl->cpu, group_fd, flags);
		if (fd >= 0)
			return fd;
		int e = errno;
		/* perf's evsel__detect_missing_features(): kernels and PMUs
		 * without guest filtering reject exclude_guest; perf then drops
		 * the flag it set by default */
		if (e == EINVAL && !pv->retried && pv->pe.guest_default &&
		    (pv->pe.exclude_guest || pv->pe.exclude_host)) {
			pv->retried = true;
			pv->pe.exclude_guest = pv->pe.exclude_host = false;
			continue;
		}
		return -e;
	}
}

/* Closes what the back end opened of every evsel and makes the members of
 * group `group` solo events, for a fresh pass of the open loop. */
static void split_weak_group(struct perf_inst *s, int group)
{
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *ev = row(s, k);
		struct perf_ev *pv = &s->ev[k];
		for (unsigned p = 0; p < s->nr_places; p++) {
			if (pv->fd[p] >= 0)
				close(pv->fd[p]);
			pv->fd[p] = -1;
			pv->id[p] = 0;
		}
		pv->nr_fds = 0;
		pv->decided = false;
		pv->leader = false;
		if (ev->state != HPM_EV_NOT_SUPPORTED || !pv->pe.absent) {
			ev->state = pv->pe.absent ? HPM_EV_NOT_SUPPORTED : HPM_EV_OK;
			pv->err = pv->pe.absent ? ENODEV : 0;
		}
		if (ev->group == group) {
			pv->in_group = false;
			pv->split = true;
		}
	}
}

static int perf_open_target(struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                            const struct hpm_target *t, void *vcfg, struct hpm_backend_inst **out,
                            char *err, size_t errlen);

/* Open, and with target->bpf set what BPF takes: on a failure, --bpf-counters
 * (REQUIRE) fails with the reason; -a --per-thread/--per-task (WANT) count
 * per thread (per process) as without BPF, the reason in cfg->bpf_reason. */
static int perf_open(struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                     const struct hpm_target *t, void *vcfg, struct hpm_backend_inst **out,
                     char *err, size_t errlen)
{
	struct hpm_perf_cfg *cfg = vcfg;
	if (cfg) {
		cfg->bpf_active = false;
		cfg->bpf_reason[0] = '\0';
	}
	struct hpm_target plain = *t;
	plain.bpf = HPM_TARGET_BPF_NO;
	if (t->bpf != HPM_TARGET_BPF_NO) {
		/* whether BPF can load at all, before any counter is opened (perf
		 * loads it first too); -a or -C alone count per CPU as without it,
		 * but --bpf-counters still needs it, as perf loads it for them */
		int rc = hpm_taskcount_probe();
		if (rc < 0 && t->bpf == HPM_TARGET_BPF_REQUIRE) {
			snprintf(err, errlen, "--bpf-counters: cannot use BPF: %s",
			         hpm_taskcount_strerror(rc));
			return rc;
		}
		if (rc < 0 && perf_bpf_tasks(t)) {
			/* built without libbpf: per thread as ever, nothing to say */
			if (cfg && rc != -HPM_TC_ENOTBUILT)
				snprintf(cfg->bpf_reason, sizeof(cfg->bpf_reason), "%s",
				         hpm_taskcount_strerror(rc));
			return perf_open_target(list, rows, nr_rows, &plain, vcfg, out, err,
			                        errlen);
		}
	}
	if (!perf_bpf_tasks(t))
		return perf_open_target(list, rows, nr_rows, t, vcfg, out, err, errlen);
	/* the kernel reads no inherited counter from BPF (perf_event_read_local:
	 * EOPNOTSUPP); per-CPU counters inherit nothing anyway */
	struct hpm_target cpu = *t;
	cpu.inherit = false;
	int rc = perf_open_target(list, rows, nr_rows, &cpu, vcfg, out, err, errlen);
	if (rc != -EAGAIN)
		return rc;
	/* the reason is in err */
	if (t->bpf == HPM_TARGET_BPF_REQUIRE) {
		char why[200];
		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "--bpf-counters: cannot use BPF: %s", why);
		return -EPERM;
	}
	if (cfg)
		snprintf(cfg->bpf_reason, sizeof(cfg->bpf_reason), "%s", err);
	return perf_open_target(list, rows, nr_rows, &plain, vcfg, out, err, errlen);
}

/* Step 1 of an open: every row's attr first, so a refusal happens before
 * anything is opened; -G's cgroup directories opened. */
static int make_attrs(struct perf_inst *s, const struct hpm_pmu *pmu, struct hpm_perf_cfg *cfg,
                      const struct hpm_target *t, char *err, size_t errlen)
{
	int rc;
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *ev = row(s, k);
		struct perf_ev *pv = &s->ev[k];
		rc = hpm_perf_event_attr(ev, pmu, &pv->pe, err, errlen);
		if (rc == -ENODEV && pv->pe.absent) {
			/* parsed, but its PMU is not here: a row that says so */
			if (!cfg->warn) {
				cfg->warn = true;
				snprintf(cfg->warning, sizeof(cfg->warning), "%s", err);
			}
			rc = 0;
		}
		if (!rc && ev->cgroup) {
			rc = perf_open_cgroup(ev, pv, t, err, errlen);
			s->has_cgroup = true;
		}
		if (rc)
			return rc;
		pv->in_group = ev->group >= 0;
		set_warning(cfg, &pv->pe);
		set_note(cfg, &pv->pe, ev, pmu);
	}
	return 0;
}

/* Step 2: where the rows count (the places and units of the target, or
 * BPF's), with their fds and counts allocated; *task: a thread target. */
static int place_rows(struct perf_inst *s, const struct hpm_target *t, bool *task, char *err,
                      size_t errlen)
{
	int rc;
	unsigned nr_units = 0;
	char **units = NULL;
	if (perf_bpf_tasks(t)) {
		/* perf: "bpf managed perf events do not yet support groups." */
		for (unsigned k = 0; k < s->base.nr_rows; k++)
			if (s->ev[k].in_group) {
				snprintf(err, errlen,
				         "bpf managed perf events do not yet support groups");
				return t->bpf == HPM_TARGET_BPF_REQUIRE ? -EINVAL : -EAGAIN;
			}
		if (s->base.nr_rows > HPM_TC_MAX_EVENTS) {
			snprintf(err, errlen, "%s", hpm_taskcount_strerror(-HPM_TC_ETOOMANY));
			return -EAGAIN;
		}
		*task = false;
		rc = perf_bpf_places(s, &units, &nr_units, err, errlen);
	} else {
		rc = perf_make_places(s, t, &units, &nr_units, task, err, errlen);
	}
	if (rc)
		return rc;
	hpm_backend_inst_set_units(&s->base, nr_units, units);
	s->enable_on_exec = *task && t->enable_on_exec && !t->system_wide;
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *ev = row(s, k);
		struct perf_ev *pv = &s->ev[k];
		pv->fd = xmalloc(s->nr_places * sizeof(*pv->fd));
		pv->id = xcalloc(s->nr_places, sizeof(*pv->id));
		for (unsigned p = 0; p < s->nr_places; p++)
			pv->fd[p] = -1;
		free(ev->counts);
		ev->counts = xcalloc(nr_units, sizeof(*ev->counts));
		ev->state = pv->pe.absent ? HPM_EV_NOT_SUPPORTED : HPM_EV_OK;
		if (pv->pe.absent)
			pv->err = ENODEV;
	}
	return 0;
}

/* Step 3: every row opened at every place; a row the kernel does not
 * support is marked and left out, anything else fails with perf's advice
 * (what was opened stays for the caller to close). */
static int open_places(struct perf_inst *s, const struct hpm_target *t, bool task, char *err,
                       size_t errlen)
{
	/* place by place, leaders before their members */
	unsigned live;
reopen:
	live = 0;
	for (unsigned p = 0; p < s->nr_places; p++) {
		bool dead = false;
		for (unsigned k = 0; k < s->base.nr_rows && !dead; k++) {
			struct hpm_evsel *ev = row(s, k);
			struct perf_ev *pv = &s->ev[k];
			if (ev->state == HPM_EV_NOT_SUPPORTED)
				continue;
			int group_fd = -1;
			int lead = group_leader(s, k);
			if (lead >= 0)
				group_fd = s->ev[lead].fd[p];
			if (!pv->decided) {
				/* the first member the kernel takes leads its group */
				pv->leader = lead < 0;
				pv->decided = true;
			}
			int fd = open_one(pv, &s->place[p], pv->leader ? -1 : group_fd, t, task);
			if (fd >= 0) {
				pv->fd[p] = fd;
				pv->nr_fds++;
				if (pv->in_group && ioctl(fd, PERF_EVENT_IOC_ID, &pv->id[p]) < 0) {
					int e = errno;
					snprintf(err, errlen,
					         "cannot count '%s': PERF_EVENT_IOC_ID: %s",
					         label(ev), strerror(e));
					return -e;
				}
				continue;
			}
			int e = -fd;
			copy_to_evsel(ev, &pv->pe);
			if ((e == EINVAL || e == EBADF) && ev->weak_group && pv->in_group &&
			    !pv->leader) {
				/* perf's weak group: it cannot be one, so each alone */
				split_weak_group(s, ev->group);
				goto reopen;
			}
			if (e == EINVAL && pv->pe.sysfs_pmu)
				e = EOPNOTSUPP; /* perf stat: not supported */
			if (e == ESRCH && task && s->nr_places > 1) {
				/* a thread of -p that exited since it was listed:
				 * perf forgets it too */
				for (unsigned j = 0; j < s->base.nr_rows; j++) {
					struct perf_ev *pj = &s->ev[j];
					if (pj->fd[p] >= 0) {
						close(pj->fd[p]);
						pj->fd[p] = -1;
						pj->nr_fds--;
					}
				}
				dead = true;
				continue;
			}
			/* a leader others already joined elsewhere cannot drop out */
			if (errno_not_supported(e) && !(pv->leader && pv->nr_fds > 0)) {
				ev->state = HPM_EV_NOT_SUPPORTED;
				pv->err = e;
				for (unsigned q = 0; q < p; q++)
					if (pv->fd[q] >= 0) {
						close(pv->fd[q]);
						pv->fd[q] = -1;
					}
				pv->nr_fds = 0;
				continue;
			}
			if (e == ESRCH && task && t->pid > 0)
				snprintf(err, errlen, "cannot count '%s': no such process (pid %d)",
				         label(ev), (int)s->place[p].pid);
			else
				hpm_perf_open_strerror(e, ev, t, err, errlen);
			return -e;
		}
		live += !dead;
	}
	if (!live) {
		snprintf(err, errlen, "no such process: %d (its threads are gone)", t->pid);
		return -ESRCH;
	}
	return 0;
}

/* Step 4: each row's placement string, and the group read buffer. */
static void describe_rows(struct perf_inst *s, const struct hpm_target *t, bool task, bool bpf)
{
	char where[160];
	if (bpf) {
		snprintf(where, sizeof(where), "the %u CPUs, charged to tasks by BPF",
		         s->nr_places);
	} else if (task) {
		if (t->tid_list)
			snprintf(where, sizeof(where), "thread%s %.100s",
			         strchr(t->tid_list, ',') ? "s" : "", t->tid_list);
		else if (t->per_thread && t->system_wide)
			snprintf(where, sizeof(where), "the %u threads of the system",
			         s->nr_places);
		else if (t->pid > 0)
			snprintf(where, sizeof(where), "pid %d", t->pid);
		else
			snprintf(where, sizeof(where), "this process");
	} else {
		int *c = xmalloc(s->nr_places * sizeof(*c));
		for (unsigned p = 0; p < s->nr_places; p++)
			c[p] = s->place[p].cpu;
		char cl[128];
		perf_format_cpus(c, s->nr_places, cl, sizeof(cl));
		snprintf(where, sizeof(where), "CPU%s %s", s->nr_places > 1 ? "s" : "", cl);
		free(c);
	}
	size_t words = 3;
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *ev = row(s, k);
		struct perf_ev *pv = &s->ev[k];
		const char *leader_name = "";
		copy_to_evsel(ev, &pv->pe);
		int lead = pv->leader ? -1 : group_leader(s, k);
		if (lead >= 0) {
			const struct hpm_evsel *l = row(s, (unsigned)lead);
			leader_name = l->name ? l->name : label(l);
		}
		describe(ev, pv, s, where, leader_name);
		words += 2;
	}
	s->buf_words = words;
	s->buf = xcalloc(words, sizeof(*s->buf));
}

/* What open and dry_run start from: the caller's cfg or a default one,
 * the PMU of the model events and the filter of the rows this back end
 * takes. The PMU found here (5 KB) is on the heap, and only when looked
 * for: on the stack, zeroed at each open, it was two pages that `stat -e
 * task-clock -- true` faulted in for nothing (issue 30). */
struct open_start {
	struct hpm_perf_cfg dflt, *cfg;
	struct hpm_pmu *pmu_found; /* begin_cfg's caller frees it */
	const struct hpm_pmu *pmu;
	struct takes_ctx tc;
};

/* Fills st for vcfg (NULL: defaults), clearing what open and dry_run
 * report in its cfg and finding the host's PMU when a row is a model event
 * and cfg names none. */
static int begin_cfg(struct open_start *st, void *vcfg, const struct hpm_evlist *list,
                     const unsigned *rows, unsigned nr_rows, char *err, size_t errlen)
{
	int rc;
	struct hpm_perf_cfg *cfg = vcfg ? vcfg : &st->dflt;
	st->cfg = cfg;
	st->pmu = cfg->pmu;
	cfg->warn = false;
	cfg->warning[0] = '\0';
	cfg->noted = false;
	cfg->note[0] = '\0';
	cfg->nr_opened = 0;
	if (!st->pmu && any_model_event(list, rows, nr_rows)) {
		st->pmu_found = xcalloc(1, sizeof(*st->pmu_found));
		if ((rc = hpm_pmu_detect(st->pmu_found, err, errlen)))
			return rc;
		st->pmu = st->pmu_found;
	}
	st->tc = (struct takes_ctx){st->pmu, cfg->leave_model};
	return 0;
}

/* perf_open_target once st is begun */
static int open_started(struct open_start *st, struct hpm_evlist *list, const unsigned *rows,
                        unsigned nr_rows, const struct hpm_target *t, void *vcfg,
                        struct hpm_backend_inst **out, char *err, size_t errlen)
{
	int rc;

	struct perf_inst *s = xcalloc(1, sizeof(*s));
	if (hpm_backend_inst_init(&s->base, &hpm_backend_perf, list, rows, nr_rows, takes,
	                          &st->tc)) {
		free(s);
		snprintf(err, errlen, "perf: already open on this event list");
		return -EBUSY;
	}
	s->ev = xcalloc(s->base.nr_rows ? s->base.nr_rows : 1, sizeof(*s->ev));
	for (unsigned k = 0; k < s->base.nr_rows; k++)
		s->ev[k].cgroup_fd = -1;

	bool task = false, bpf = perf_bpf_tasks(t);
	if ((rc = make_attrs(s, st->pmu, st->cfg, t, err, errlen)) ||
	    (rc = place_rows(s, t, &task, err, errlen)) ||
	    (rc = open_places(s, t, task, err, errlen)))
		goto fail;

	if (bpf && (rc = perf_bpf_attach(s, t, err, errlen))) {
		rc = -EAGAIN;
		goto fail;
	}
	s->cfg = vcfg;
	if (s->cfg)
		s->cfg->bpf_active = s->tc != NULL;

	describe_rows(s, t, task, bpf);
	st->cfg->nr_opened = s->base.nr_rows;
	*out = &s->base;
	return 0;

fail:
	perf_inst_free(s);
	return rc < 0 ? rc : -EINVAL;
}

/* One open of the target; -EAGAIN with the reason in err when BPF was
 * wanted and cannot count (nothing is left open then). */
static int perf_open_target(struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                            const struct hpm_target *t, void *vcfg, struct hpm_backend_inst **out,
                            char *err, size_t errlen)
{
	struct open_start st = {0};
	int rc = begin_cfg(&st, vcfg, list, rows, nr_rows, err, errlen);
	if (!rc)
		rc = open_started(&st, list, rows, nr_rows, t, vcfg, out, err, errlen);
	free(st.pmu_found);
	return rc;
}

static int for_leaders(struct perf_inst *s, unsigned long req, const char *what, char *err,
                       size_t errlen)
{
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *ev = row(s, k);
		struct perf_ev *pv = &s->ev[k];
		if (!pv->leader || ev->state == HPM_EV_NOT_SUPPORTED)
			continue;
		for (unsigned p = 0; p < s->nr_places; p++)
			if (pv->fd[p] >= 0 && ioctl(pv->fd[p], req, 0) < 0) {
				snprintf(err, errlen, "cannot %s '%s': %s", what, label(ev),
				         strerror(errno));
				return -errno;
			}
	}
	return 0;
}

static int perf_enable(struct hpm_backend_inst *b, char *err, size_t errlen)
{
	struct perf_inst *s = perf_of(b);
	if (!s)
		return 0;
	if (s->enable_on_exec && !s->enabled) {
		/* the kernel enables the counters at exec; enabling now would
		 * count the fork-to-exec part */
		s->enabled = true;
		return 0;
	}
	s->enabled = true;
	return for_leaders(s, PERF_EVENT_IOC_ENABLE, "enable", err, errlen);
}

static int perf_disable(struct hpm_backend_inst *b, char *err, size_t errlen)
{
	struct perf_inst *s = perf_of(b);
	if (!s)
		return 0;
	s->enabled = true;
	return for_leaders(s, PERF_EVENT_IOC_DISABLE, "disable", err, errlen);
}

static int read_words(int fd, uint64_t *buf, size_t words, const char *name, char *err,
                      size_t errlen)
{
	ssize_t n = read(fd, buf, words * sizeof(*buf));
	if (n < 0) {
		int e = errno;
		snprintf(err, errlen, "cannot read '%s': %s", name, strerror(e));
		return -e;
	}
	if (n < (ssize_t)(3 * sizeof(*buf))) {
		snprintf(err, errlen, "cannot read '%s': short read (%zd bytes)", name, n);
		return -EIO;
	}
	return 0;
}

/* A disabled cgroup event's times are computed on the reading CPU from that
 * CPU's cgroup clock: read it from its own CPU, as perf reads with
 * affinity (else enabled/running come out as another CPU's). */
static void read_on_cpu(int cpu)
{
	cpu_set_t one;
	if (cpu < 0)
		return;
	CPU_ZERO(&one);
	CPU_SET((unsigned)cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
}

static int perf_read(struct hpm_backend_inst *b, char *err, size_t errlen)
{
	struct perf_inst *s = perf_of(b);
	int rc;
	if (!s)
		return 0;
	if (s->tc)
		return perf_bpf_read(s, err, errlen);
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *ev = row(s, k);
		memset(ev->counts, 0, s->base.nr_units * sizeof(*ev->counts));
	}
	cpu_set_t saved;
	bool pinned = s->has_cgroup && sched_getaffinity(0, sizeof(saved), &saved) == 0;
	for (unsigned p = 0; p < s->nr_places; p++) {
		unsigned unit = s->place[p].unit;
		if (pinned)
			read_on_cpu(s->place[p].cpu);
		for (unsigned k = 0; k < s->base.nr_rows; k++) {
			struct hpm_evsel *ev = row(s, k);
			struct perf_ev *pv = &s->ev[k];
			if (pv->fd[p] < 0 || ev->state == HPM_EV_NOT_SUPPORTED)
				continue;
			if (!pv->in_group) {
				uint64_t v[3];
				if ((rc = read_words(pv->fd[p], v, 3, label(ev), err, errlen)))
					goto out;
				ev->counts[unit].val += v[0];
				ev->counts[unit].ena += v[1];
				ev->counts[unit].run += v[2];
				continue;
			}
			if (!pv->leader)
				continue;
			/* { nr, time_enabled, time_running, { value, id } x nr } */
			uint64_t *gb = s->buf;
			if ((rc = read_words(pv->fd[p], gb, s->buf_words, label(ev), err, errlen)))
				goto out;
			uint64_t nr = gb[0];
			if (nr > (s->buf_words - 3) / 2)
				nr = (s->buf_words - 3) / 2;
			for (uint64_t i = 0; i < nr; i++) {
				uint64_t val = gb[3 + 2 * i], id = gb[4 + 2 * i];
				for (unsigned j = 0; j < s->base.nr_rows; j++) {
					struct hpm_evsel *m = row(s, j);
					struct perf_ev *pm = &s->ev[j];
					if (m->group != ev->group || pm->fd[p] < 0 ||
					    pm->id[p] != id)
						continue;
					m->counts[unit].val += val;
					m->counts[unit].ena += gb[1];
					m->counts[unit].run += gb[2];
					break;
				}
			}
		}
	}
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *ev = row(s, k);
		if (ev->state != HPM_EV_OK && ev->state != HPM_EV_NOT_COUNTED)
			continue;
		uint64_t run = 0;
		for (unsigned u = 0; u < s->base.nr_units; u++)
			run += ev->counts[u].run;
		ev->state = run ? HPM_EV_OK : HPM_EV_NOT_COUNTED;
	}
	rc = 0;
out:
	if (pinned)
		sched_setaffinity(0, sizeof(saved), &saved);
	return rc;
}

static void perf_close(struct hpm_backend_inst *b)
{
	struct perf_inst *s = perf_of(b);
	if (s)
		perf_inst_free(s);
}

/* perf_dry_run once st is begun */
static int dry_run_started(struct open_start *st, const struct hpm_evlist *list,
                           const unsigned *rows, unsigned nr_rows, const struct hpm_target *t,
                           FILE *out, char *err, size_t errlen)
{
	int rc;
	if (t && cpu_target(t)) {
		int *cpus;
		unsigned n;
		if ((rc = hpm_perf_parse_cpu_list(t->cpu_list, NULL, &cpus, &n, err, errlen)))
			return rc;
		free(cpus);
	}
	unsigned *mine;
	unsigned nr = hpm_evlist_select(list, rows, nr_rows, takes, &st->tc, &mine);
	for (unsigned k = 0; k < nr; k++) {
		const struct hpm_evsel *ev = &list->ev[mine[k]];
		struct hpm_perf_event pe;
		rc = hpm_perf_event_attr(ev, st->pmu, &pe, err, errlen);
		if (rc == -ENODEV && pe.absent) {
			fprintf(out, "%s: not supported: %s\n", ev->name ? ev->name : label(ev),
			        err);
			continue;
		}
		if (rc) {
			free(mine);
			return rc;
		}
		set_warning(st->cfg, &pe);
		set_note(st->cfg, &pe, ev, st->pmu);
		st->cfg->nr_opened++;
		fprintf(out,
		        "%s: perf_event_attr type=%u config=0x%llx config1=0x%llx config2=0x%llx "
		        "exclude_user=%d exclude_kernel=%d exclude_hv=%d exclude_host=%d "
		        "exclude_guest=%d\n",
		        ev->name ? ev->name : label(ev), pe.type, (unsigned long long)pe.config,
		        (unsigned long long)pe.config1, (unsigned long long)pe.config2,
		        pe.exclude_user, pe.exclude_kernel, pe.exclude_hv, pe.exclude_host,
		        pe.exclude_guest);
		if (ev->cgroup)
			fprintf(out, "%s: cgroup %s (PERF_FLAG_PID_CGROUP)\n",
			        ev->name ? ev->name : label(ev), ev->cgroup);
	}
	free(mine);
	return 0;
}

static int perf_dry_run(const struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                        const struct hpm_target *t, void *vcfg, FILE *out, char *err, size_t errlen)
{
	struct open_start st = {0};
	int rc = begin_cfg(&st, vcfg, list, rows, nr_rows, err, errlen);
	if (!rc)
		rc = dry_run_started(&st, list, rows, nr_rows, t, out, err, errlen);
	free(st.pmu_found);
	return rc;
}

const struct hpm_backend hpm_backend_perf = {
    .name = "perf",
    .open = perf_open,
    .enable = perf_enable,
    .disable = perf_disable,
    .read = perf_read,
    .advance = NULL,
    .dry_run = perf_dry_run,
    .close = perf_close,
};
