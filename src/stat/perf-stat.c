/* perf-stat.c: see perf-stat.h. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfdata/writer.h"
#include "stat/perf-stat.h"
#include "util/xalloc.h"

struct stat_perf {
	FILE *f;
	bool pipe;
	int argc;
	char **argv;
	double interval_ms;
	struct perf_writer *w; /* NULL until the first round */
	int err;
	unsigned nr_ev;
	/* per CPU (system-wide): the CPU numbers, one STAT each; else none
	 * and one STAT per row on CPU -1 */
	unsigned nr_cpus;
	int *cpus;
};

struct stat_perf *stat_perf_new(FILE *f, bool pipe, int argc, char **argv, double interval_ms)
{
	struct stat_perf *p = xcalloc(1, sizeof(*p));
	p->f = f;
	p->pipe = pipe;
	p->argc = argc;
	p->argv = argv;
	p->interval_ms = interval_ms;
	return p;
}

static unsigned units_of(const struct hpm_evlist *l, const struct hpm_evsel *e)
{
	return e->nr_units ? e->nr_units : l->nr_units;
}

static char *const *unit_names_of(const struct hpm_evlist *l, const struct hpm_evsel *e)
{
	return e->unit_names ? e->unit_names : l->unit_names;
}

/* The CPU numbers of a run whose rows all count on the same units, and
 * those are CPUs ("CPU3"): 0 otherwise. */
static unsigned per_cpu_units(const struct hpm_evlist *l, int **cpus)
{
	if (!l->nr)
		return 0;
	unsigned n = units_of(l, &l->ev[0]);
	char *const *names = unit_names_of(l, &l->ev[0]);
	if (!n || !names)
		return 0;
	for (unsigned i = 0; i < l->nr; i++) {
		const struct hpm_evsel *e = &l->ev[i];
		char *const *en = unit_names_of(l, e);
		if (e->emulated || units_of(l, e) != n || !en)
			return 0;
		for (unsigned u = 0; u < n; u++)
			if (!en[u] || strcmp(en[u], names[u]) != 0)
				return 0;
	}
	int *c = xcalloc(n, sizeof(*c));
	for (unsigned u = 0; u < n; u++) {
		const char *name = names[u];
		char *end = NULL;
		long v = -1;
		if (strncmp(name, "CPU", 3) == 0 && name[3] >= '0' && name[3] <= '9')
			v = strtol(name + 3, &end, 10);
		if (v < 0 || v >= UINT16_MAX || !end || *end) {
			free(c);
			return 0;
		}
		c[u] = (int)v;
	}
	*cpus = c;
	return n;
}

/* The attr perf stat record would have opened for the row. */
static void attr_of(const struct hpm_evsel *e, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	switch (e->kind) {
	case HPM_EV_HOST:
		a->type = e->attr_type;
		a->config = e->attr_config;
		a->config1 = e->attr_config1;
		a->config2 = e->attr_config2;
		a->exclude_user = e->exclude_user;
		a->exclude_kernel = e->exclude_kernel;
		a->exclude_hv = e->exclude_hv;
		a->exclude_host = e->exclude_host;
		a->exclude_guest = e->exclude_guest;
		break;
	case HPM_EV_MODEL:
		/* the emulated counter's event selector, as a raw event */
		a->type = PERF_TYPE_RAW;
		a->config = e->enc.value;
		break;
	case HPM_EV_MODEL_FIXED:
		/* cycles and instret are perf's two fixed hardware events: perf
		 * stat report gives them its insn-per-cycle line */
		a->type = PERF_TYPE_HARDWARE;
		a->config = hpm_model_fixed_is(&e->enc, "instructions") ? PERF_COUNT_HW_INSTRUCTIONS
		                                                        : PERF_COUNT_HW_CPU_CYCLES;
		break;
	case HPM_EV_TOOL:
		/* perf writes its tool events (duration_time) so */
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_DUMMY;
		break;
	}
	/* perf stat record samples nothing: sample_type 0, which perf script
	 * needs to print STAT records rather than check for sample fields */
	a->sample_type = 0;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->inherit = 1;
}

/* Row i's id on CPU slot k: ids are numbered from 1, nr_slots a row. */
static uint64_t id_of(const struct stat_perf *p, unsigned i, unsigned k)
{
	unsigned slots = p->nr_cpus ? p->nr_cpus : 1;
	return 1 + (uint64_t)i * slots + k;
}

static void add(struct stat_perf *p, const void *rec, size_t size)
{
	if (!p->err)
		p->err = perf_writer_add(p->w, rec, size);
}

/* EVENT_UPDATE of a string (UNIT, NAME): padded to 8 bytes with NULs. */
static void update_string(struct stat_perf *p, uint64_t type, uint64_t id, const char *s)
{
	size_t n = strlen(s) + 1, pad = (n + 7) / 8 * 8;
	size_t size = sizeof(struct perf_event_header) + 16 + pad;
	if (size > UINT16_MAX)
		return; /* a name perf could not take: EVENT_DESC has it */
	uint8_t *rec = xcalloc(1, size);
	struct perf_event_header h = {PERF_RECORD_EVENT_UPDATE, 0, (uint16_t)size};
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, &type, 8);
	memcpy(rec + 16, &id, 8);
	memcpy(rec + 24, s, n);
	add(p, rec, size);
	free(rec);
}

static void update_scale(struct stat_perf *p, uint64_t id, double scale)
{
	struct {
		struct perf_event_header h;
		uint64_t type, id;
		double scale;
	} rec = {{PERF_RECORD_EVENT_UPDATE, 0, sizeof(rec)}, PERF_EVENT_UPDATE_SCALE, id, scale};
	add(p, &rec, sizeof(rec));
}

/* The maps and the configuration perf stat report sets itself up from. */
static void put_maps(struct stat_perf *p)
{
	/* one thread, "any" (perf's is the command's pid: report uses the
	 * index only) */
	struct {
		struct perf_event_header h;
		uint64_t nr;
		uint64_t pid;
		char comm[16];
	} threads = {{PERF_RECORD_THREAD_MAP, 0, sizeof(threads)}, 1, (uint64_t)-1, ""};
	add(p, &threads, sizeof(threads));
	/* the CPUs as a list of u16 (perf's PERF_CPU_MAP__CPUS), 0xffff "any" */
	unsigned nr = p->nr_cpus ? p->nr_cpus : 1;
	size_t size = (sizeof(struct perf_event_header) + 4 + 2 * nr + 7) / 8 * 8;
	uint8_t *rec = xcalloc(1, size);
	struct perf_event_header h = {PERF_RECORD_CPU_MAP, 0, (uint16_t)size};
	uint16_t type = 0, n = (uint16_t)nr;
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, &type, 2);
	memcpy(rec + 10, &n, 2);
	for (unsigned k = 0; k < nr; k++) {
		uint16_t cpu = p->nr_cpus ? (uint16_t)p->cpus[k] : UINT16_MAX;
		memcpy(rec + 12 + 2 * k, &cpu, 2);
	}
	add(p, rec, size);
	free(rec);
	struct {
		struct perf_event_header h;
		uint64_t nr;
		uint64_t term[PERF_STAT_CONFIG_TERMS][2];
	} config = {
	    {PERF_RECORD_STAT_CONFIG, 0, sizeof(config)},
	    PERF_STAT_CONFIG_TERMS,
	    {{PERF_STAT_CONFIG_AGGR_MODE, PERF_STAT_AGGR_GLOBAL},
	     {PERF_STAT_CONFIG_INTERVAL, (uint64_t)(p->interval_ms > 0 ? p->interval_ms : 0)},
	     {PERF_STAT_CONFIG_SCALE, 1}}};
	add(p, &config, sizeof(config));
}

/* The header, the attrs and what precedes the first count. */
static int begin(struct stat_perf *p, const struct hpm_evlist *l)
{
	if (p->w || p->err)
		return p->err;
	p->nr_cpus = per_cpu_units(l, &p->cpus);
	unsigned slots = p->nr_cpus ? p->nr_cpus : 1;
	p->nr_ev = l->nr;
	struct perf_writer_event *ev = xcalloc(l->nr + 1, sizeof(*ev));
	uint64_t *ids = xcalloc((size_t)l->nr * slots + 1, sizeof(*ids));
	for (unsigned i = 0; i < l->nr; i++) {
		attr_of(&l->ev[i], &ev[i].attr);
		ev[i].name = l->ev[i].name;
		ev[i].ids = ids + (size_t)i * slots;
		ev[i].nr_ids = slots;
		for (unsigned k = 0; k < slots; k++)
			ids[(size_t)i * slots + k] = id_of(p, i, k);
	}
	int e = perf_writer_begin(p->f, ev, l->nr, p->pipe, &p->w);
	free(ev);
	free(ids);
	if (e)
		return p->err = e;
	for (unsigned i = 0; i < l->nr; i++) {
		const struct hpm_evsel *r = &l->ev[i];
		/* a file names its events in EVENT_DESC; a pipe here, as perf */
		if (p->pipe)
			update_string(p, PERF_EVENT_UPDATE_NAME, id_of(p, i, 0), r->name);
		if (r->unit && *r->unit)
			update_string(p, PERF_EVENT_UPDATE_UNIT, id_of(p, i, 0), r->unit);
		if (r->scale != 1.0 && r->scale != 0)
			update_scale(p, id_of(p, i, 0), r->scale);
	}
	put_maps(p);
	return p->err;
}

int stat_perf_round(struct stat_perf *p, const struct hpm_evlist *l, bool final, uint64_t time_ns)
{
	if (begin(p, l))
		return p->err;
	if (l->nr != p->nr_ev)
		return p->err = -EINVAL;
	for (unsigned i = 0; i < l->nr; i++) {
		const struct hpm_evsel *e = &l->ev[i];
		unsigned nu = units_of(l, e);
		/* a row that never opened has no count: perf stat report shows
		 * it <not supported>, as perf's own file of such an event */
		if (!e->counts || e->state == HPM_EV_NOT_SUPPORTED ||
		    e->state == HPM_EV_NOT_MODELLED)
			continue;
		struct perf_file_stat st = {.header = {PERF_RECORD_STAT, 0, sizeof(st)}};
		if (p->nr_cpus) {
			for (unsigned k = 0; k < p->nr_cpus; k++) {
				st.id = id_of(p, i, k);
				st.cpu = (uint32_t)p->cpus[k];
				st.thread = 0;
				st.val = e->counts[k].val;
				st.ena = e->counts[k].ena;
				st.run = e->counts[k].run;
				add(p, &st, sizeof(st));
			}
			continue;
		}
		st.id = id_of(p, i, 0);
		st.cpu = UINT32_MAX;
		for (unsigned u = 0; u < nu; u++) {
			st.val += e->counts[u].val;
			st.ena += e->counts[u].ena;
			st.run += e->counts[u].run;
		}
		add(p, &st, sizeof(st));
	}
	struct perf_file_stat_round round = {{PERF_RECORD_STAT_ROUND, 0, sizeof(round)},
	                                     final ? PERF_STAT_ROUND_FINAL
	                                           : PERF_STAT_ROUND_INTERVAL,
	                                     time_ns};
	add(p, &round, sizeof(round));
	return p->err;
}

int stat_perf_finish(struct stat_perf *p, const char *run, size_t len)
{
	int e = p->err;
	if (!p->w && !e)
		e = -EINVAL; /* no round: nothing to finish */
	if (e) {
		stat_perf_free(p);
		return e;
	}
	if (!p->pipe) {
		/* perf stat report's header names the command line; a pipe
		 * has none ("for 'pipe'", as perf's own) */
		char exe[4096];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = '\0';
		perf_writer_set_host(p->w);
		perf_writer_set_cmdline(p->w, n > 0 ? exe : "hpmstat", p->argc, p->argv);
		long online = sysconf(_SC_NPROCESSORS_ONLN), conf = sysconf(_SC_NPROCESSORS_CONF);
		if (online > 0 && conf > 0)
			perf_writer_set_nrcpus(p->w, (uint32_t)conf, (uint32_t)online);
		perf_writer_set_stat(p->w);
		if (run)
			perf_writer_set_hpm_run(p->w, run, len);
	}
	e = perf_writer_finish(p->w, NULL);
	p->w = NULL;
	stat_perf_free(p);
	return e;
}

void stat_perf_free(struct stat_perf *p)
{
	if (!p)
		return;
	perf_writer_free(p->w);
	free(p->cpus);
	free(p);
}
