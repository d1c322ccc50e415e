/* record.c: hpmstat record's sampling session on perf_event_open (see
 * record.h). */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "backend/host-events.h"
#include "backend/host-pmu.h"
#include "backend/perf.h"
#include "core/evlist.h"
#include "perfdata/writer.h"
#include "record/record-int.h"
#include "record/record.h"
#include "sym/sym.h"
#include "util/str.h"
#include "util/xalloc.h"

/* perf's default buffer: 512 KiB of data per CPU (its mmap_pages for root
 * and for users under perf_event_mlock_kb alike) */
#define DEFAULT_DATA_BYTES (512 * 1024)

unsigned hpm_record_max_sample_rate(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/sys/kernel/perf_event_max_sample_rate", hpm_procfs_root());
	FILE *f = fopen(path, "re");
	unsigned v = 0;
	if (f) {
		if (fscanf(f, "%u", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* ------------------------------------------------------------ events */

/* The events of -e: host events only on this back end's record (model
 * events on a Kunminghu kernel go through the model's attr, as stat's). */
static int route(struct hpm_evsel *e, const struct hpm_pmu *pmu, char *err, size_t errlen)
{
	enum hpm_tool tool;
	int is_tool = hpm_host_tool_parse(e->spec, &tool, err, errlen);
	if (is_tool < 0)
		return -EINVAL;
	if (is_tool) {
		snprintf(err, errlen,
		         "'%s': <not supported>: a tool event is counted by hpmstat stat, it "
		         "cannot sample",
		         e->spec);
		return -EOPNOTSUPP;
	}
	struct hpm_model_attempt k = {.model = pmu->present ? pmu->model : NULL};
	if (!k.model || hpm_host_event_is_host_once(e->spec, &k)) {
		if (hpm_host_event_is_host(e->spec)) {
			e->kind = HPM_EV_HOST;
			return hpm_host_event_fill(e, err, errlen) == 0 ? 0 : -ENOENT;
		}
	} else if (hpm_host_model_try(e->spec, &k)) {
		e->kind = HPM_EV_MODEL;
		e->enc = k.enc;
		return 0;
	}
	const char *h[2];
	char name[96];
	size_t n = strcspn(e->spec, ":");
	snprintf(name, sizeof(name), "%.*s", (int)(n < sizeof(name) ? n : sizeof(name) - 1),
	         e->spec);
	unsigned nh = hpm_host_event_suggest(name, h, 2);
	if (nh == 2)
		snprintf(err, errlen, "unknown event '%s' (did you mean %s, %s?)", e->spec, h[0],
		         h[1]);
	else if (nh == 1)
		snprintf(err, errlen, "unknown event '%s' (did you mean %s?)", e->spec, h[0]);
	else
		snprintf(err, errlen, "unknown event '%s' (see 'hpmstat list' and 'perf list')",
		         e->spec);
	return -ENOENT;
}

/* perf's arch__user_reg_mask (PERF_REGS_MASK): the general registers of
 * the sampled thread, for the unwinder's first frame. */
#if defined(__x86_64__)
#define HPM_RECORD_USER_REGS 0xff0fffULL /* x86_64: all but DS, ES, FS, GS */
#elif defined(__aarch64__)
#define HPM_RECORD_USER_REGS ((1ULL << 33) - 1) /* x0-x30, sp, pc */
#elif defined(__riscv)
#define HPM_RECORD_USER_REGS ((1ULL << 32) - 1) /* pc, ra, sp, ... t6 */
#elif defined(__i386__)
#define HPM_RECORD_USER_REGS 0xff0fffULL
#else
#define HPM_RECORD_USER_REGS 0ULL
#endif

static void set_sample_common(struct perf_event_attr *a, const struct hpm_record_opts *o,
                              bool several, bool sample_read)
{
	a->size = sizeof(*a);
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
	                 PERF_SAMPLE_PERIOD;
	if (o->callchain)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	a->sample_max_stack = (uint16_t)o->max_stack;
	if (o->stack_dump) {
		/* perf's evsel__config_callchain for dwarf: the registers of
		 * arch__user_reg_mask and the stack copy; the kernel's chain
		 * stops at the user boundary, report unwinds the rest */
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = HPM_RECORD_USER_REGS;
		a->sample_stack_user = o->stack_dump;
		a->exclude_callchain_user = 1;
	}
	if (o->branch_any) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	} else if (o->lbr) {
		/* perf's lbr call stack: user calls from the PMU's branch
		 * records (HW_INDEX: where the stack's top is) */
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
		                        PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_NO_FLAGS |
		                        PERF_SAMPLE_BRANCH_HW_INDEX;
	}
	if (several)
		a->sample_type |= PERF_SAMPLE_ID;
	if (o->all_cgroups)
		a->sample_type |= PERF_SAMPLE_CGROUP;
	if (o->sample_addr)
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	a->read_format = PERF_FORMAT_ID;
	if (o->inherit_stat) {
		a->inherit_stat = 1;
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
	if (sample_read) {
		a->sample_type |= PERF_SAMPLE_READ;
		a->read_format |= PERF_FORMAT_GROUP;
	}
	a->sample_id_all = 1;
	if (o->period) {
		a->sample_period = o->period;
	} else {
		a->freq = 1;
		a->sample_freq = o->freq;
	}
}

/* The trailer sample_id_all adds to non-sample records, for our
 * sample_type: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER that are set. */
static size_t sample_id_all_size(uint64_t st)
{
	size_t n = 0;
	if (st & PERF_SAMPLE_TID)
		n += 8;
	if (st & PERF_SAMPLE_TIME)
		n += 8;
	if (st & PERF_SAMPLE_ID)
		n += 8;
	if (st & PERF_SAMPLE_STREAM_ID)
		n += 8;
	if (st & PERF_SAMPLE_CPU)
		n += 8;
	if (st & PERF_SAMPLE_IDENTIFIER)
		n += 8;
	return n;
}

static int parse_tids(const char *list, pid_t **out, unsigned *nr, char *err, size_t errlen)
{
	pid_t *v = NULL;
	unsigned n = 0;
	const char *p = list;
	while (*p) {
		char *end;
		errno = 0;
		long t = strtol(p, &end, 10);
		if (end == p || errno || t <= 0 || t > INT_MAX || (*end && *end != ',')) {
			char buf[96];
			str_escape(list, buf, sizeof(buf));
			snprintf(err, errlen, "-t '%s': not a list of thread ids", buf);
			free(v);
			return -EINVAL;
		}
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = (pid_t)t;
		p = *end ? end + 1 : end;
	}
	if (!n) {
		snprintf(err, errlen, "-t: no thread id given");
		return -EINVAL;
	}
	*out = v;
	*nr = n;
	return 0;
}

/* The threads of process pid, from <proc>/PID/task. */
static int process_threads(pid_t pid, pid_t **out, unsigned *nr, char *err, size_t errlen)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%d/task", hpm_procfs_root(), (int)pid);
	DIR *d = opendir(path);
	if (!d) {
		snprintf(err, errlen, "-p %d: no such process", (int)pid);
		return -ESRCH;
	}
	pid_t *v = NULL;
	unsigned n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = (pid_t)atoi(de->d_name);
	}
	closedir(d);
	if (!n) {
		snprintf(err, errlen, "-p %d: no such process", (int)pid);
		return -ESRCH;
	}
	*out = v;
	*nr = n;
	return 0;
}

static void close_events(struct hpm_record *r)
{
	for (unsigned i = 0; i < r->nr_ev; i++) {
		for (unsigned s = 0; s < r->nr_slots && r->ev[i].fds; s++)
			if (r->ev[i].fds[s] >= 0)
				close(r->ev[i].fds[s]);
		free(r->ev[i].fds);
		free(r->ev[i].ids);
		free(r->ev[i].name);
	}
	free(r->ev);
	r->ev = NULL;
	r->nr_ev = 0;
}

/* Opens event i on every slot; the kernel's errno (positive) or 0. */
static int open_event(struct hpm_record *r, unsigned i, pid_t task)
{
	struct rec_event *e = &r->ev[i];
	for (unsigned s = 0; s < r->nr_slots; s++) {
		pid_t pid = r->tids ? r->tids[s] : task;
		int cpu = r->cpus ? r->cpus[s] : -1;
		int group = e->leader ? -1 : r->ev[e->leader_ix].fds[s];
		long fd = hpm_perf_event_open(&e->attr, pid, cpu, group, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			int er = errno;
			for (unsigned k = 0; k < s; k++) {
				close(e->fds[k]);
				e->fds[k] = -1;
			}
			return er;
		}
		e->fds[s] = (int)fd;
	}
	return 0;
}

static void evsel_label(const struct hpm_evsel *ev, char *buf, size_t len)
{
	str_escape(ev->name, buf, len);
}

/* Every event's fd and id slots, and the leader of its group (the first
 * of it), before any opens. */
static void init_events(struct hpm_record *r)
{
	r->nr_ev = r->list.nr;
	r->ev = xcalloc(r->nr_ev, sizeof(*r->ev));
	for (unsigned i = 0; i < r->list.nr; i++) {
		struct hpm_evsel *ev = &r->list.ev[i];
		struct rec_event *e = &r->ev[i];
		e->fds = xmalloc(r->nr_slots * sizeof(int));
		for (unsigned s = 0; s < r->nr_slots; s++)
			e->fds[s] = -1;
		e->ids = xcalloc(r->nr_slots, sizeof(uint64_t));
		e->leader = true;
		e->leader_ix = (int)i;
		if (ev->group >= 0)
			for (unsigned j = 0; j < i; j++)
				if (r->list.ev[j].group == ev->group) {
					e->leader = false;
					e->leader_ix = (int)j;
					break;
				}
	}
}

/* Event i's perf_event_attr for sampling, from its counting attr pe. */
static void set_record_attr(struct hpm_record *r, const struct hpm_record_opts *o, unsigned i,
                            const struct hpm_perf_event *pe, bool precise_max, bool several)
{
	struct hpm_evsel *ev = &r->list.ev[i];
	struct rec_event *e = &r->ev[i];
	struct perf_event_attr *a = &e->attr;
	hpm_perf_event_to_attr(pe, a);
	a->precise_ip = (precise_max ? 3 : pe->precise_ip) & 3;
	set_sample_common(a, o, several, ev->sample_read);
	if (!e->leader && ev->sample_read) {
		/* perf's leader sampling: the leader's samples read the
		 * members, which never sample themselves */
		a->freq = 0;
		a->sample_period = 0;
	}
	if (e->leader) {
		a->disabled = 1;
		a->enable_on_exec = r->at_exec;
	}
	/* inherit follows the workload's children; a group read cannot
	 * (the kernel refuses PERF_FORMAT_GROUP with inherit), nor can a
	 * per-thread buffer (-p, -t, --per-thread: the kernel maps no
	 * inherited per-task event) */
	a->inherit = !r->tids && !ev->sample_read;
	if (i == 0) {
		a->mmap = 1;
		a->mmap2 = 1;
		/* the data maps: perf's dwarf mode (the unwinders read the
		 * CFI of the files' read-only segments through them) and -d
		 * (the sampled data addresses fall in them) */
		a->mmap_data = o->stack_dump != 0 || o->sample_addr;
		a->comm = 1;
		a->comm_exec = 1;
		a->task = 1;
		/* -B: no build ids, not even the kernel's in MMAP2 */
		a->build_id = !o->no_buildid;
		/* --all-cgroups: a CGROUP record for each cgroup created */
		a->cgroup = o->all_cgroups;
	}
}

/* Opens event i as perf does on a refusal: without what an older kernel
 * lacks, at lower precise levels, the default event as cpu-clock. The
 * kernel's errno (positive) or 0. */
static int open_with_fallbacks(struct hpm_record *r, unsigned i, pid_t task,
                               const struct hpm_perf_event *pe, bool precise_max, bool dflt)
{
	struct rec_event *e = &r->ev[i];
	struct perf_event_attr *a = &e->attr;
	int rc = open_event(r, i, task);
	if (rc == EINVAL && a->build_id) {
		/* a kernel before 5.12 has no build ids in MMAP2 */
		a->build_id = 0;
		rc = open_event(r, i, task);
	}
	if (rc == EINVAL && pe->guest_default && a->exclude_guest) {
		a->exclude_guest = 0;
		rc = open_event(r, i, task);
	}
	/* perf's evsel__precise_ip_fallback: :P (and the default event)
	 * tries each lower precise_ip; :p, :pp, :ppp are refused */
	unsigned precise_asked = a->precise_ip;
	while (rc && precise_max && a->precise_ip > 0) {
		a->precise_ip--;
		rc = open_event(r, i, task);
	}
	if (rc)
		a->precise_ip = precise_asked & 3;
	if (rc && dflt && a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_CPU_CYCLES &&
	    (rc == ENOENT || rc == EOPNOTSUPP || rc == ENODEV || rc == ENXIO)) {
		/* perf's evsel__fallback: no hardware cycles here */
		snprintf(r->note, sizeof(r->note),
		         "The cycles event is not supported, trying to fall back to "
		         "cpu-clock-ticks");
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		free(e->name);
		e->name = xstrdup("cpu-clock");
		rc = open_event(r, i, task);
	}
	return rc;
}

/* The message for event i that would not open (rc: the kernel's errno),
 * perf's advice worded for sampling; the negative code to return. */
static int open_error(struct hpm_record *r, unsigned i, pid_t task, int rc, char *err,
                      size_t errlen)
{
	struct hpm_evsel *ev = &r->list.ev[i];
	struct rec_event *e = &r->ev[i];
	struct perf_event_attr *a = &e->attr;
	if (rc == EOPNOTSUPP && (a->sample_type & PERF_SAMPLE_BRANCH_STACK)) {
		/* perf's evsel__open_strerror: the PMU has no branch stack
		 * (or none for this event type) */
		char lbl[160];
		/* the event as opened: the default's fallback names it */
		str_escape(e->name, lbl, sizeof(lbl));
		snprintf(err, errlen,
		         "%s: PMU Hardware or event type doesn't support branch stack "
		         "sampling.",
		         lbl);
		return -EOPNOTSUPP;
	}
	if (rc && a->precise_ip && (rc == EOPNOTSUPP || rc == EINVAL)) {
		/* perf's advice for a precise level the PMU cannot give */
		char lbl[160];
		evsel_label(ev, lbl, sizeof(lbl));
		snprintf(err, errlen,
		         "'%s': <not supported>: cannot sample: 'precise' request may not "
		         "be supported. Try removing 'p' modifier.",
		         lbl);
		return -EOPNOTSUPP;
	}
	char lbl[160], why[300];
	struct hpm_target t = {.pid = task, .system_wide = r->system_wide};
	evsel_label(ev, lbl, sizeof(lbl));
	hpm_perf_open_strerror(rc, ev, &t, why, sizeof(why));
	/* the advice is worded for counting: the event is named already */
	const char *reason = why;
	if (strncmp(why, "cannot count '", 14) == 0 && strstr(why, "': "))
		reason = strstr(why, "': ") + 3;
	if (rc == ENOENT || rc == EOPNOTSUPP || rc == ENODEV || rc == ENXIO || rc == EINVAL) {
		snprintf(err, errlen, "'%s': <not supported>: cannot sample: %s", lbl, reason);
		return -EOPNOTSUPP;
	}
	if (rc == ESRCH) {
		snprintf(err, errlen, "'%s': the process to record is gone", lbl);
		return -ESRCH;
	}
	snprintf(err, errlen, "'%s': %s", lbl, reason);
	return -rc;
}

static int open_events(struct hpm_record *r, const struct hpm_record_opts *o, bool dflt, pid_t task,
                       char *err, size_t errlen)
{
	struct hpm_pmu pmu;
	char perr[256];
	if (hpm_pmu_detect(&pmu, perr, sizeof(perr)) != 0)
		memset(&pmu, 0, sizeof(pmu));
	init_events(r);
	bool several = r->list.nr > 1;
	for (unsigned i = 0; i < r->list.nr; i++) {
		struct hpm_evsel *ev = &r->list.ev[i];
		struct rec_event *e = &r->ev[i];
		struct hpm_perf_event pe;
		/* a name no table has, or a bad term: perf's parse_events
		 * failure (a tool event that cannot sample is not one) */
		int rc = route(ev, &pmu, err, errlen);
		if (rc)
			return rc == -EOPNOTSUPP ? rc : HPM_EVLIST_EBADEVENT;
		rc = hpm_perf_event_attr(ev, &pmu, &pe, err, errlen);
		if (rc)
			return rc;
		if (ev->kind == HPM_EV_MODEL)
			r->table = ev->enc.model;
		e->name = xstrdup(ev->name); /* as routed: a name= term renames it */
		/* perf's default event is cycles:P, the most precise the PMU
		 * takes (lowered on refusal below) */
		bool precise_max = pe.precise_max || dflt;
		set_record_attr(r, o, i, &pe, precise_max, several);
		rc = open_with_fallbacks(r, i, task, &pe, precise_max, dflt);
		if (rc)
			return open_error(r, i, task, rc, err, errlen);
		for (unsigned s = 0; s < r->nr_slots; s++)
			if (ioctl(e->fds[s], PERF_EVENT_IOC_ID, &e->ids[s]) != 0) {
				snprintf(err, errlen, "PERF_EVENT_IOC_ID: %s", strerror(errno));
				return -errno;
			}
	}
	r->sample_type = r->ev[0].attr.sample_type;
	r->id_hdr_size = sample_id_all_size(r->sample_type);
	return 0;
}

static int map_buffers(struct hpm_record *r, const struct hpm_record_opts *o, char *err,
                       size_t errlen)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t pages = o->mmap_pages ? o->mmap_pages : DEFAULT_DATA_BYTES / page;
	r->bufs = xcalloc(r->nr_slots, sizeof(*r->bufs));
	r->pfds = xcalloc(r->nr_slots + 1, sizeof(*r->pfds));
	for (unsigned s = 0; s < r->nr_slots; s++) {
		struct rec_buf *b = &r->bufs[s];
		b->fd = r->ev[0].fds[s];
		b->size = pages * page;
		b->map_len = b->size + page;
		void *m = mmap(NULL, b->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, 0);
		if (m == MAP_FAILED) {
			int e = errno;
			b->meta = NULL;
			snprintf(err, errlen, "cannot map the ring buffer (%zu KiB): %s%s",
			         b->size / 1024, strerror(e),
			         e == EPERM ? " (see /proc/sys/kernel/perf_event_mlock_kb)" : "");
			return -e;
		}
		b->meta = m;
		b->data = (char *)m + page;
		/* every other event of this CPU or thread writes here too */
		for (unsigned i = 1; i < r->nr_ev; i++)
			if (ioctl(r->ev[i].fds[s], PERF_EVENT_IOC_SET_OUTPUT, b->fd) != 0) {
				int e = errno;
				snprintf(err, errlen, "PERF_EVENT_IOC_SET_OUTPUT: %s", strerror(e));
				return -e;
			}
		r->pfds[s].fd = b->fd;
		r->pfds[s].events = POLLIN;
	}
	return 0;
}

int hpm_record_open(const struct hpm_record_opts *o, struct hpm_record **out, char *err,
                    size_t errlen)
{
	struct hpm_record *r = xcalloc(1, sizeof(*r));
	int rc;
	bool dflt = !o->events;
	r->pid = o->pid;
	r->system_wide = o->system_wide;
	r->mmap_data = o->stack_dump != 0 || o->sample_addr;
	r->no_buildid = o->no_buildid;
	r->synth_off = o->synth_off;
	r->all_cgroups = o->all_cgroups;
	/* a command given with -p or -t only says how long to record */
	bool targets_workload = o->workload > 0 && o->pid <= 0 && !o->tid_list;
	rc = hpm_evlist_parse(&r->list, dflt ? "cycles" : o->events, err, errlen);
	if (rc) {
		rc = HPM_EVLIST_EBADEVENT;
		goto fail;
	}
	if (!r->list.nr) {
		snprintf(err, errlen, "no event given");
		rc = HPM_EVLIST_EBADEVENT;
		goto fail;
	}
	pid_t task = -1;
	if (o->tid_list) {
		rc = parse_tids(o->tid_list, &r->tids, &r->nr_slots, err, errlen);
	} else if (o->pid > 0 && !o->system_wide && !o->cpu_list) {
		rc = process_threads(o->pid, &r->tids, &r->nr_slots, err, errlen);
	} else if (o->per_thread && targets_workload && !o->system_wide && !o->cpu_list) {
		r->tids = xmalloc(sizeof(*r->tids));
		r->tids[0] = o->workload;
		r->nr_slots = 1;
		r->at_exec = true;
	} else {
		int *cpus;
		unsigned n;
		rc = hpm_perf_parse_cpu_list(o->system_wide ? NULL : o->cpu_list, NULL, &cpus, &n,
		                             err, errlen);
		if (!rc) {
			r->cpus = cpus;
			r->nr_slots = n;
		}
		if (o->cpu_list)
			r->system_wide = true;
		task = r->system_wide ? -1 : o->workload;
		r->at_exec = task > 0 && targets_workload;
	}
	if (rc)
		goto fail;
	rc = open_events(r, o, dflt, task, err, errlen);
	if (rc)
		goto fail;
	rc = map_buffers(r, o, err, errlen);
	if (rc)
		goto fail;
	*out = r;
	return 0;
fail:
	hpm_record_free(r);
	return rc < 0 ? rc : -EINVAL;
}

const char *hpm_record_note(const struct hpm_record *r)
{
	return r->note[0] ? r->note : NULL;
}

/* ------------------------------------------------------------ build ids */

/* The running kernel's build id: the GNU build-id note among
 * <sys>/kernel/notes (ELF notes, 4-byte aligned). */
static unsigned kernel_build_id(uint8_t *id)
{
	char path[512], buf[4096];
	snprintf(path, sizeof(path), "%s/kernel/notes", hpm_sysfs_root());
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf));
	close(fd);
	size_t off = 0;
	while (n > 0 && off + 12 <= (size_t)n) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		size_t name_off = off + 12, desc_off = name_off + ((namesz + 3) & ~3u);
		size_t next = desc_off + ((descsz + 3) & ~3u);
		if (next > (size_t)n || next <= off)
			break;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 &&
		    memcmp(buf + name_off, "GNU", 4) == 0 && descsz <= PERF_FILE_BUILD_ID_MAX) {
			memcpy(id, buf + desc_off, descsz);
			return descsz;
		}
		off = next;
	}
	return 0;
}

/* ------------------------------------------------------------ draining */

/* How many samples perf counts in one record: a group read (the leader
 * of {...}:S) is one per member, as perf script shows them. */
static uint64_t samples_in(const struct hpm_record *r, const struct perf_event_header *h)
{
	if (!(r->sample_type & PERF_SAMPLE_READ))
		return 1;
	/* IP, TID, TIME, ID, CPU, PERIOD, then the read's nr */
	size_t at = 5 + !!(r->sample_type & PERF_SAMPLE_ID);
	uint64_t nr;
	if (h->size < sizeof(*h) + (at + 1) * 8)
		return 1;
	memcpy(&nr, (const char *)(h + 1) + at * 8, 8);
	return nr ? nr : 1;
}

static int write_record(struct hpm_record *r, const struct perf_event_header *h)
{
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		r->st.samples += samples_in(r, h);
		if (h->size >= sizeof(*h) + 24)
			record_note_sample(r, h);
		break;
	case PERF_RECORD_LOST:
		if (h->size >= sizeof(*h) + 16) {
			uint64_t lost;
			memcpy(&lost, (const char *)(h + 1) + 8, 8);
			r->st.lost += lost;
			r->st.lost_chunks++;
		}
		break;
	case PERF_RECORD_MMAP2:
		record_note_mmap2(r, h);
		break;
	case PERF_RECORD_COMM:
		if (h->misc & PERF_RECORD_MISC_COMM_EXEC) {
			uint32_t pid;
			memcpy(&pid, h + 1, 4);
			record_note_exec(r, (pid_t)pid);
		}
		break;
	case PERF_RECORD_FORK:
		if (h->size >= sizeof(*h) + 16)
			record_note_fork(r, h);
		break;
	default:
		break;
	}
	return perf_writer_add(r->w, h, h->size);
}

/* Writes what buffer b holds; whether there was anything. */
static int drain(struct hpm_record *r, struct rec_buf *b, bool *any)
{
	uint64_t head = __atomic_load_n(&b->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = b->meta->data_tail;
	int rc = 0;
	if (head == tail)
		return 0;
	*any = true;
	while (tail < head && !rc) {
		size_t off = (size_t)(tail % b->size);
		struct perf_event_header hdr;
		if (off + sizeof(hdr) <= b->size)
			memcpy(&hdr, b->data + off, sizeof(hdr));
		else {
			size_t first = b->size - off;
			memcpy(&hdr, b->data + off, first);
			memcpy((char *)&hdr + first, b->data, sizeof(hdr) - first);
		}
		if (hdr.size < sizeof(hdr) || tail + hdr.size > head)
			break; /* cannot happen: the kernel writes whole records */
		const struct perf_event_header *h;
		if (off + hdr.size <= b->size) {
			h = (const struct perf_event_header *)(b->data + off);
		} else {
			if (r->copy_len < hdr.size) {
				r->copy = xrealloc(r->copy, hdr.size);
				r->copy_len = hdr.size;
			}
			size_t first = b->size - off;
			memcpy(r->copy, b->data + off, first);
			memcpy(r->copy + first, b->data, hdr.size - first);
			h = (const struct perf_event_header *)r->copy;
		}
		rc = write_record(r, h);
		tail += hdr.size;
	}
	__atomic_store_n(&b->meta->data_tail, tail, __ATOMIC_RELEASE);
	return rc;
}

/* One pass over every buffer, then FINISHED_ROUND when it wrote
 * something: perf report sorts by time only up to that mark. */
static int drain_all(struct hpm_record *r)
{
	bool any = false;
	for (unsigned s = 0; s < r->nr_slots; s++) {
		int rc = drain(r, &r->bufs[s], &any);
		if (rc)
			return rc;
	}
	if (any) {
		struct perf_event_header fr = {PERF_RECORD_FINISHED_ROUND, 0, sizeof(fr)};
		return perf_writer_add(r->w, &fr, sizeof(fr));
	}
	return 0;
}

int hpm_record_poll(struct hpm_record *r, int extra_fd, int timeout_ms, char *err, size_t errlen)
{
	unsigned n = r->nr_slots;
	r->pfds[n].fd = extra_fd;
	r->pfds[n].events = POLLIN;
	r->pfds[n].revents = 0;
	int ready = poll(r->pfds, n + 1, timeout_ms);
	int ret = 0;
	/* perf's "Woken up N times": every wait that ended, a signal's too */
	if (ready > 0 || (ready < 0 && errno == EINTR))
		r->st.wakeups++;
	if (ready > 0) {
		bool live = false;
		for (unsigned s = 0; s < n; s++) {
			if (r->pfds[s].revents & (POLLHUP | POLLERR)) {
				r->bufs[s].hung = true;
				r->pfds[s].fd = -1; /* poll would return at once from now on */
			}
			if (!r->bufs[s].hung)
				live = true;
		}
		if ((extra_fd >= 0 && (r->pfds[n].revents & (POLLIN | POLLHUP))) || !live)
			ret = 1;
	}
	int rc = drain_all(r);
	if (rc) {
		snprintf(err, errlen, "%s", strerror(-rc));
		return rc;
	}
	return ret;
}

/* ------------------------------------------------------------ the file */

static void set_features(struct hpm_record *r, const char *exe, int argc, char *const *argv);

int hpm_record_start(struct hpm_record *r, FILE *f, bool pipe, const char *exe, int argc,
                     char *const *argv, char *err, size_t errlen)
{
	struct perf_writer_event *we = xcalloc(r->nr_ev, sizeof(*we));
	for (unsigned i = 0; i < r->nr_ev; i++) {
		we[i].attr = r->ev[i].attr;
		we[i].name = r->ev[i].name;
		we[i].ids = r->ev[i].ids;
		we[i].nr_ids = r->nr_slots;
	}
	int rc = perf_writer_begin(f, we, r->nr_ev, pipe, &r->w);
	free(we);
	if (rc == -ESPIPE) {
		snprintf(err, errlen, "%s", perf_writer_strerror(rc));
		return rc;
	}
	if (!rc) {
		set_features(r, exe, argc, argv);
		rc = perf_writer_put_features(r->w);
	}
	if (!rc)
		rc = record_synthesize(r);
	if (rc && rc != -ESPIPE)
		snprintf(err, errlen, "%s", strerror(-rc));
	r->f = f;
	return rc;
}

int hpm_record_enable(struct hpm_record *r, char *err, size_t errlen)
{
	for (unsigned i = 0; i < r->nr_ev; i++) {
		if (!r->ev[i].leader || r->ev[i].attr.enable_on_exec)
			continue;
		for (unsigned s = 0; s < r->nr_slots; s++)
			if (ioctl(r->ev[i].fds[s], PERF_EVENT_IOC_ENABLE, 0) != 0) {
				snprintf(err, errlen, "PERF_EVENT_IOC_ENABLE: %s", strerror(errno));
				return -errno;
			}
	}
	return 0;
}

bool hpm_record_starts_at_exec(const struct hpm_record *r)
{
	for (unsigned i = 0; i < r->nr_ev; i++)
		if (r->ev[i].leader && !r->ev[i].attr.enable_on_exec)
			return false;
	return r->nr_ev > 0 && r->at_exec;
}

/* The features that describe the machine and the command line. */
static void set_features(struct hpm_record *r, const char *exe, int argc, char *const *argv)
{
	perf_writer_set_host(r->w);
	long online = sysconf(_SC_NPROCESSORS_ONLN), conf = sysconf(_SC_NPROCESSORS_CONF);
	if (online > 0)
		perf_writer_set_nrcpus(r->w, (uint32_t)(conf > 0 ? conf : online),
		                       (uint32_t)online);
	/* CPUDESC: the "model name" of <proc>/cpuinfo, as perf's x86 and
	 * generic paths ("uarch" or "isa" on RISC-V) */
	char path[512], line[512];
	snprintf(path, sizeof(path), "%s/cpuinfo", hpm_procfs_root());
	FILE *f = fopen(path, "re");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');
			if (!colon || (strncmp(line, "model name", 10) != 0 &&
			               strncmp(line, "uarch", 5) != 0))
				continue;
			char *v = colon + 1;
			v += strspn(v, " \t");
			v[strcspn(v, "\n")] = '\0';
			perf_writer_set_string(r->w, PERF_FEAT_CPUDESC, v);
			break;
		}
		fclose(f);
	}
	/* CPUID: perf's x86 form, vendor,family,model,stepping */
	f = fopen(path, "re");
	if (f) {
		char vendor[64] = "", fam[16] = "", model[16] = "", step[16] = "";
		while (fgets(line, sizeof(line), f) && line[0] != '\n') {
			char *colon = strchr(line, ':');
			if (!colon)
				continue;
			char *v = colon + 1 + strspn(colon + 1, " \t");
			v[strcspn(v, "\n")] = '\0';
			if (strncmp(line, "vendor_id", 9) == 0)
				snprintf(vendor, sizeof(vendor), "%s", v);
			else if (strncmp(line, "cpu family", 10) == 0)
				snprintf(fam, sizeof(fam), "%s", v);
			else if (strncmp(line, "model\t", 6) == 0)
				snprintf(model, sizeof(model), "%s", v);
			else if (strncmp(line, "stepping", 8) == 0)
				snprintf(step, sizeof(step), "%s", v);
		}
		fclose(f);
		if (vendor[0] && fam[0] && model[0] && step[0]) {
			char id[128];
			snprintf(id, sizeof(id), "%s,%s,%s,%s", vendor, fam, model, step);
			perf_writer_set_string(r->w, PERF_FEAT_CPUID, id);
		}
	}
	for (unsigned i = 0; i < r->nr_ev; i++) {
		if (!r->ev[i].leader)
			continue;
		unsigned n = 1;
		while (i + n < r->nr_ev && !r->ev[i + n].leader && r->ev[i + n].leader_ix == (int)i)
			n++;
		if (n > 1)
			perf_writer_add_group(r->w, NULL, i, n);
	}
	struct sysinfo si;
	if (sysinfo(&si) == 0)
		perf_writer_set_total_mem(r->w, (uint64_t)si.totalram * si.mem_unit / 1024);
	perf_writer_set_cmdline(r->w, exe, argc, argv);
	/* which table gave the raw events their meaning (detection cannot
	 * tell Kunminghu's apart) */
	if (r->table)
		perf_writer_set_string(r->w, PERF_FEAT_HPM_PMU, r->table->name);
}

/* The features known only at the end: the sample times and the build
 * ids of what had samples. */
static void set_end_features(struct hpm_record *r)
{
	if (r->st.samples)
		perf_writer_set_sample_time(r->w, r->first_time, r->last_time);
	if (r->no_buildid)
		return; /* perf's -B: no build-id section */
	uint8_t kid[PERF_FILE_BUILD_ID_MAX];
	unsigned ksize;
	if (r->kernel_hit && (ksize = kernel_build_id(kid)) > 0)
		perf_writer_add_build_id(r->w, -1, PERF_RECORD_MISC_KERNEL, kid, ksize,
		                         "[kernel.kallsyms]");
	for (unsigned i = 0; i < r->nr_dsos; i++) {
		struct rec_dso *d = &r->dsos[i];
		size_t len = 0;
		if (d->hit && d->from_file &&
		    hpm_sym_file_build_id(d->filename, d->id, sizeof(d->id), &len) >= 0)
			d->size = (unsigned)len;
		if (d->hit && d->size)
			perf_writer_add_build_id(r->w, -1, PERF_RECORD_MISC_USER, d->id, d->size,
			                         d->filename);
	}
}

int hpm_record_finish(struct hpm_record *r, char *err, size_t errlen)
{
	for (unsigned i = 0; i < r->nr_ev; i++)
		for (unsigned s = 0; s < r->nr_slots && r->ev[i].leader; s++)
			ioctl(r->ev[i].fds[s], PERF_EVENT_IOC_DISABLE, 0);
	int rc = drain_all(r);
	if (!rc) {
		set_end_features(r);
		rc = perf_writer_finish(r->w, &r->st.file_size);
		r->w = NULL;
	}
	if (rc)
		snprintf(err, errlen, "%s", strerror(-rc));
	return rc;
}

void hpm_record_stats(const struct hpm_record *r, struct hpm_record_stats *s)
{
	*s = r->st;
}

void hpm_record_free(struct hpm_record *r)
{
	if (!r)
		return;
	for (unsigned s = 0; r->bufs && s < r->nr_slots; s++)
		if (r->bufs[s].meta)
			munmap(r->bufs[s].meta, r->bufs[s].map_len);
	free(r->bufs);
	free(r->pfds);
	close_events(r);
	perf_writer_free(r->w);
	hpm_evlist_free(&r->list);
	free(r->cpus);
	free(r->tids);
	free(r->copy);
	for (unsigned i = 0; i < r->nr_dsos; i++)
		free(r->dsos[i].filename);
	free(r->dsos);
	for (unsigned h = 0; h < PROC_HASH; h++)
		for (struct rec_proc *p = r->procs[h], *n; p; p = n) {
			n = p->next;
			record_proc_free(p);
		}
	free(r);
}
