/* emu.c: hpmstat record --backend emu (see emu.h). */
#include "config.h"

#include "record/emu.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "arch/machine.h"
#include "core/evlist.h"
#include "perfdata/writer.h"
#include "record/emu-elf.h"
#include "registry/models.h"
#include "util/provenance.h"
#include "util/str.h"
#include "util/xalloc.h"

#define QUANTUM   (UINT64_C(1) << 20) /* cycles of one hart per round */
#define MAX_GROUP 32u

struct rev {
	unsigned counter;
	bool sampler;   /* has a period (the leader of a {...}:S group, or ungrouped) */
	int leader;     /* index of its group's leader (itself when it leads or is alone) */
	uint64_t value; /* event-select value */
	bool fixed;
};

/* Per hart and sampling event: what the counter was armed with. */
struct arm {
	uint64_t left; /* the period armed */
	uint64_t cum;  /* the event's count since the start (completed periods) */
};

struct rec {
	const struct hpm_record_emu_opts *o;
	const struct hpm_pmu_model *model; /* whose table encodes the events */
	const struct hpm_emu_machine *mach;
	struct hpm_emu_vm *vm;
	struct hpm_evlist list;
	struct rev *ev;
	unsigned nr;
	struct arm *arm; /* [harts][nr] */
	uint64_t period;
	uint64_t sample_type, read_format;
	struct perf_writer *w;
	uint64_t samples, first_time, last_time;
	/* the declared functions as an ELF image for perf, and their DSO */
	struct hpm_emu_elf image;
	char dso[256];
	char *err;
	size_t errlen;
};

static uint64_t id_of(const struct rec *r, unsigned ev, unsigned h)
{
	return 1 + (uint64_t)ev * r->vm->harts + h;
}

/* The events as --pmu's model, or the first registered model whose machine
 * can sample, encodes them (the registry knows which that is; this file
 * names none). */
static int place(struct rec *r)
{
	uint32_t used = 0;
	const struct hpm_pmu_model *m = r->o->model;
	if (m && !(hpm_model_machine(m) && hpm_emu_can_sample(hpm_model_machine(m)))) {
		snprintf(r->err, r->errlen, "--pmu %s: its emulated machine cannot sample",
		         m->name);
		return -EOPNOTSUPP;
	}
	for (unsigned i = 0; !m && i < hpm_model_count(); i++) {
		const struct hpm_emu_machine *mach = hpm_model_machine(hpm_model_at(i));
		if (mach && hpm_emu_can_sample(mach))
			m = hpm_model_at(i);
	}
	if (!m) {
		snprintf(r->err, r->errlen, "no emulated machine can sample");
		return -EOPNOTSUPP;
	}
	r->model = m;
	r->mach = hpm_model_machine(m);
	r->ev = xcalloc(r->list.nr, sizeof(*r->ev));
	r->nr = r->list.nr;
	for (unsigned i = 0; i < r->list.nr; i++) {
		struct hpm_evsel *e = &r->list.ev[i];
		struct rev *v = &r->ev[i];
		unsigned first, last;
		int fixed = -1;
		/* a fixed counter by its name or as perf's generic event
		 * ("cycles": mcycle), as stat takes it */
		for (unsigned k = 0; k < m->nr_fixed; k++)
			if (strcmp(e->spec, m->fixed[k].name) == 0 ||
			    (m->fixed[k].generic && strcmp(e->spec, m->fixed[k].generic) == 0))
				fixed = (int)k;
		if (fixed >= 0) {
			first = last = m->fixed[fixed].counter;
			v->fixed = true;
		} else {
			struct hpm_diag me;
			if (m->encode(m, e->spec, &e->enc, &me) != 0) {
				/* an event of a machine that cannot sample says so */
				for (unsigned k = 0; k < hpm_model_count(); k++) {
					const struct hpm_pmu_model *o = hpm_model_at(k);
					struct hpm_event_code oc;
					struct hpm_diag oe;
					if (o != m && hpm_model_machine(o) &&
					    !hpm_emu_can_sample(hpm_model_machine(o)) &&
					    o->encode(o, e->spec, &oc, &oe) == 0) {
						snprintf(
						    r->err, r->errlen,
						    "'%s': <not supported>: the %s emulator cannot "
						    "sample yet (its overflow interrupt is not "
						    "modelled); --backend emu samples %s events",
						    e->spec, o->name, m->name);
						return -EOPNOTSUPP;
					}
				}
				snprintf(r->err, r->errlen, "'%s': %s", e->spec, me.msg);
				return HPM_EVLIST_EBADEVENT;
			}
			if (e->enc.constraint >= 0) {
				m->constraint_counters(m, e->enc.constraint, &first, &last);
			} else {
				first = m->counters.first;
				last = m->counters.last;
			}
			v->value = e->enc.value;
		}
		unsigned c = first;
		while (c <= last && (used & (UINT32_C(1) << c)))
			c++;
		if (c > last || c >= HPM_EMU_MAX_COUNTERS) {
			snprintf(
			    r->err, r->errlen,
			    "'%s': no free counter for it (%u..%u are taken): recording does not "
			    "multiplex",
			    e->name, first, last);
			return -EINVAL;
		}
		used |= UINT32_C(1) << c;
		v->counter = c;
		v->leader = (int)i;
		if (e->group >= 0)
			for (unsigned k = 0; k < i; k++)
				if (r->list.ev[k].group == e->group) {
					v->leader = (int)k;
					break;
				}
		v->sampler = !(e->sample_read && v->leader != (int)i);
		if (e->sample_read)
			r->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	}
	return 0;
}

static int put(struct rec *r, const void *rec, size_t size)
{
	int rc = perf_writer_add(r->w, rec, size);
	if (rc)
		snprintf(r->err, r->errlen, "%s", strerror(-rc));
	return rc;
}

static int write_comm_mmap(struct rec *r, const char *profile)
{
	char comm[16];
	snprintf(comm, sizeof(comm), "emu:%s", profile ? profile : "trace");
	for (unsigned h = 0; h < r->vm->harts; h++) {
		struct {
			struct perf_event_header hd;
			uint32_t pid, tid;
			char comm[16];
		} c;
		memset(&c, 0, sizeof(c));
		c.hd.type = PERF_RECORD_COMM;
		c.hd.size = sizeof(c);
		c.pid = HPM_RECORD_EMU_PID;
		c.tid = HPM_RECORD_EMU_PID + h;
		memcpy(c.comm, comm, sizeof(comm) - 1);
		int rc = put(r, &c, sizeof(c));
		if (rc)
			return rc;
	}
	unsigned nf = r->mach->nr_functions(r->vm);
	if (!nf || !profile)
		return 0;
	uint64_t lo = UINT64_MAX, hi = 0;
	struct hpm_emu_function *fns = xcalloc(nf, sizeof(*fns));
	unsigned n = 0;
	for (unsigned i = 0; i < nf; i++) {
		struct hpm_emu_function *f = &fns[n];
		if (!r->mach->function(r->vm, i, f))
			continue;
		lo = f->start < lo ? f->start : lo;
		hi = f->end > hi ? f->end : hi;
		n++;
	}
	char *name = r->dso;
	snprintf(name, sizeof(r->dso), "[emu:%s]", profile);
	/* perf names the functions from this image, found by its build id in
	 * the build-id cache (hpm_record_emu_opts.buildid_dir) */
	hpm_emu_elf_build(&r->image, r->model->arch, fns, n);
	free(fns);
	perf_writer_add_build_id(r->w, -1, PERF_RECORD_MISC_USER, r->image.id, HPM_EMU_ELF_ID_SIZE,
	                         name);
	size_t flen = (strlen(name) + 1 + 7) & ~(size_t)7;
	struct mmap2 {
		struct perf_event_header hd;
		uint32_t pid, tid;
		uint64_t addr, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_generation;
		uint32_t prot, flags;
	};
	size_t size = sizeof(struct mmap2) + flen;
	char *buf = xcalloc(1, size);
	struct mmap2 *m = (struct mmap2 *)buf;
	m->hd.type = PERF_RECORD_MMAP2;
	m->hd.misc = PERF_RECORD_MISC_USER;
	m->hd.size = (uint16_t)size;
	m->pid = m->tid = HPM_RECORD_EMU_PID;
	m->addr = lo;
	m->len = hi - lo;
	m->pgoff = lo; /* a DSO offset is the declared address */
	m->prot = PROT_READ | PROT_EXEC;
	m->flags = MAP_PRIVATE;
	memcpy(buf + sizeof(*m), name, strlen(name));
	int rc = put(r, buf, size);
	free(buf);
	return rc;
}

/* The event's count since the start on hart h: a sampling counter is
 * re-armed at every sample, so it is the completed periods plus what it
 * counted since it was last armed. */
static uint64_t count_of(struct rec *r, unsigned ev, unsigned h)
{
	bool wrapped;
	uint64_t v = r->mach->read(r->vm, h, r->ev[ev].counter, &wrapped);
	if (!r->ev[ev].sampler)
		return v;
	const struct arm *a = &r->arm[h * r->nr + ev];
	return a->cum + (v + a->left); /* v - (2^64 - left) */
}

static int write_sample(struct rec *r, unsigned ev, unsigned h, const struct hpm_emu_sample *s,
                        uint64_t period)
{
	uint64_t buf[8 + 1 + 2 * MAX_GROUP], *p = buf + 1;
	unsigned __int128 ns = (unsigned __int128)s->cycle * 1000000000u / r->o->emu.freq;
	*p++ = s->pc;
	*p++ = (uint64_t)(HPM_RECORD_EMU_PID + h) << 32 | HPM_RECORD_EMU_PID; /* pid, tid */
	*p++ = (uint64_t)ns;
	if (r->sample_type & PERF_SAMPLE_ID)
		*p++ = id_of(r, ev, h);
	*p++ = h; /* cpu, res */
	*p++ = period;
	if (r->sample_type & PERF_SAMPLE_READ) {
		uint64_t *nr = p++;
		*nr = 0;
		for (unsigned k = ev; k < r->nr && *nr < MAX_GROUP; k++) {
			if (r->ev[k].leader != (int)ev)
				continue;
			*p++ = count_of(r, k, h);
			*p++ = id_of(r, k, h);
			(*nr)++;
		}
	}
	struct perf_event_header *hd = (struct perf_event_header *)buf;
	hd->type = PERF_RECORD_SAMPLE;
	hd->misc = PERF_RECORD_MISC_USER;
	hd->size = (uint16_t)((char *)p - (char *)buf);
	if (!r->samples)
		r->first_time = (uint64_t)ns;
	r->last_time = (uint64_t)ns;
	r->samples++;
	return put(r, buf, hd->size);
}

/* For a fixed counter that cannot sample (Kunminghu's mcycle): the group
 * that records what was asked, led by the machine's cycle sampler with ev
 * and its group's events as members ("; lead with ...: -e '{...}:S'"),
 * else "". */
static const char *suggest_leader(const struct rec *r, unsigned ev, char *buf, size_t len)
{
	struct str_buf b = {buf, len, 0};
	buf[0] = '\0';
	if (!r->ev[ev].fixed || !r->mach->cycle_sampler)
		return buf;
	str_buf_add(&b,
	            "; lead with an event that counts every cycle on a counter that can: -e "
	            "'{%s",
	            r->mach->cycle_sampler);
	for (unsigned k = 0; k < r->nr; k++)
		if (k == ev ||
		    (r->list.ev[ev].group >= 0 && r->list.ev[k].group == r->list.ev[ev].group))
			str_buf_add(&b, ",%s", r->list.ev[k].name);
	str_buf_add(&b, "}:S'");
	return buf;
}

static int arm(struct rec *r, unsigned ev, unsigned h, uint64_t left)
{
	r->arm[h * r->nr + ev].left = left;
	int rc = r->mach->set_period(r->vm, h, r->ev[ev].counter, left, r->err, r->errlen);
	if (rc == -EOPNOTSUPP) {
		char why[384], lead[512];
		snprintf(why, sizeof(why), "%s", r->err);
		snprintf(r->err, r->errlen, "'%s': <not supported>: %s%s", r->list.ev[ev].name, why,
		         suggest_leader(r, ev, lead, sizeof(lead)));
	}
	return rc;
}

static int program(struct rec *r)
{
	uint32_t mask = 0;
	int rc;
	for (unsigned h = 0; h < r->vm->harts; h++) {
		for (unsigned i = 0; i < r->nr; i++) {
			mask |= UINT32_C(1) << r->ev[i].counter;
			if (!r->ev[i].fixed &&
			    (rc = r->mach->set_event(r->vm, h, r->ev[i].counter, true,
			                             r->ev[i].value, r->err, r->errlen)))
				return rc;
		}
		if ((rc = r->mach->zero(r->vm, h, mask, r->err, r->errlen)))
			return rc;
		for (unsigned i = 0; i < r->nr; i++)
			if (r->ev[i].sampler && (rc = arm(r, i, h, r->period)))
				return rc;
		if ((rc = r->mach->inhibit(r->vm, h, mask, false, r->err, r->errlen)))
			return rc;
	}
	return 0;
}

static int run(struct rec *r, uint64_t cycles, const volatile int *stop)
{
	uint64_t *done = xcalloc(r->vm->harts, sizeof(*done));
	int rc = 0;
	for (bool more = true; more && !rc && !(stop && *stop);) {
		more = false;
		for (unsigned h = 0; h < r->vm->harts && !rc; h++) {
			uint64_t end = done[h] + QUANTUM < cycles ? done[h] + QUANTUM : cycles;
			while (done[h] < end && !rc) {
				struct hpm_emu_sample s;
				done[h] += r->mach->run_sample(r->vm, h, end - done[h], &s);
				for (unsigned i = 0; i < r->nr && !rc && s.overflowed; i++) {
					if (!r->ev[i].sampler ||
					    !(s.overflowed & (UINT32_C(1) << r->ev[i].counter)))
						continue;
					struct arm *a = &r->arm[h * r->nr + i];
					bool wrapped;
					uint64_t over =
					    r->mach->read(r->vm, h, r->ev[i].counter, &wrapped);
					uint64_t period = a->left;
					if ((rc = write_sample(r, i, h, &s, period)))
						break;
					/* the armed period and the overshoot are counted;
					 * the next period starts from -left */
					a->cum += period + over;
					rc = arm(r, i, h, hpm_emu_period_left(r->period, over));
				}
			}
			if (done[h] < cycles)
				more = true;
		}
		struct perf_event_header fr = {PERF_RECORD_FINISHED_ROUND, 0, sizeof(fr)};
		if (!rc)
			rc = put(r, &fr, sizeof(fr));
	}
	free(done);
	return rc;
}

static void set_features(struct rec *r, uint64_t cycles)
{
	const struct hpm_record_emu_opts *o = r->o;
	perf_writer_set_host(r->w);
	/* the CPU is the emulator's, in the words stat labels emulated
	 * figures with (perf report --header shows it as cpudesc; hpmstat
	 * report heads its reports with it) */
	struct emu_provenance p = {.model = r->model->display,
	                           .profile = r->vm->profile,
	                           .trace = r->vm->trace,
	                           .seed = o->emu.seed,
	                           .harts = r->vm->harts,
	                           .cycles = cycles,
	                           .freq = (double)o->emu.freq};
	char desc[512];
	emu_provenance_text(&p, EMU_PROVENANCE_RUN, desc, sizeof(desc));
	perf_writer_set_string(r->w, PERF_FEAT_CPUDESC, desc);
	perf_writer_set_nrcpus(r->w, r->vm->harts, r->vm->harts);
	for (unsigned i = 0; i < r->nr; i++) {
		unsigned n = 1;
		while (i + n < r->nr && r->ev[i + n].leader == (int)i)
			n++;
		if (n > 1 && r->ev[i].leader == (int)i)
			perf_writer_add_group(r->w, NULL, i, n);
	}
	perf_writer_set_cmdline(r->w, o->exe, o->argc, o->argv);
	/* which table the raw events are of (report refuses the other's) */
	perf_writer_set_string(r->w, PERF_FEAT_HPM_PMU, r->model->name);
}

int hpm_record_emu(const struct hpm_record_emu_opts *o, FILE *f, const volatile int *stop,
                   struct hpm_record_emu_stats *st, char *err, size_t errlen)
{
	struct rec r = {.o = o, .err = err, .errlen = errlen};
	int rc;
	memset(st, 0, sizeof(*st));
	if (!o->events) {
		snprintf(err, errlen,
		         "--backend emu needs -e: Kunminghu's mcycle and minstret have no overflow "
		         "interrupt, so there is no default event to sample (e.g. -e "
		         "rob_commitInstr)");
		return -EINVAL;
	}
	if ((rc = hpm_evlist_parse(&r.list, o->events, err, errlen))) {
		hpm_evlist_free(&r.list);
		return HPM_EVLIST_EBADEVENT;
	}
	if (!r.list.nr) {
		snprintf(err, errlen, "no event given");
		rc = -EINVAL;
		goto out;
	}
	if ((rc = place(&r)))
		goto out;
	if (!o->period && !o->freq) {
		snprintf(err, errlen, "no sampling period: give -c or -F");
		rc = -EINVAL;
		goto out;
	}
	r.period = o->period ? o->period : o->emu.freq / o->freq;
	if (!r.period)
		r.period = 1;
	struct hpm_emu_vm_config cfg = {.harts = o->emu.harts,
	                                .profile = o->emu.profile,
	                                .trace = o->emu.trace,
	                                .seed = o->emu.seed,
	                                .pmu = o->emu.pmu};
	if (cfg.harts < 1 || cfg.harts > r.mach->max_harts) {
		snprintf(err, errlen, "--emu-harts %u: must be 1..%u", cfg.harts,
		         r.mach->max_harts);
		rc = -EINVAL;
		goto out;
	}
	if ((rc = r.mach->create(&cfg, &r.vm, err, errlen))) {
		rc = -EINVAL;
		goto out;
	}
	r.arm = xcalloc((size_t)r.vm->harts * r.nr, sizeof(*r.arm));
	r.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
	                PERF_SAMPLE_PERIOD | (r.nr > 1 ? PERF_SAMPLE_ID : 0) |
	                (r.read_format ? PERF_SAMPLE_READ : 0);

	struct perf_writer_event *we = xcalloc(r.nr, sizeof(*we));
	uint64_t *ids = xcalloc((size_t)r.nr * r.vm->harts, sizeof(*ids));
	for (unsigned i = 0; i < r.nr; i++) {
		struct perf_event_attr *a = &we[i].attr;
		a->size = sizeof(*a);
		if (r.ev[i].fixed) {
			a->type = PERF_TYPE_HARDWARE;
			a->config = r.ev[i].counter == 0 ? PERF_COUNT_HW_CPU_CYCLES
			                                 : PERF_COUNT_HW_INSTRUCTIONS;
		} else {
			a->type = PERF_TYPE_RAW;
			a->config = r.ev[i].value;
		}
		a->sample_period = r.ev[i].sampler ? r.period : 0;
		a->sample_type = r.sample_type;
		a->read_format = r.read_format;
		a->exclude_kernel = a->exclude_hv = 1; /* the workload runs in U-mode */
		if (i == 0)
			a->mmap = a->comm = a->mmap2 = a->comm_exec = 1;
		for (unsigned h = 0; h < r.vm->harts; h++)
			ids[(size_t)i * r.vm->harts + h] = id_of(&r, i, h);
		we[i].name = r.list.ev[i].name;
		we[i].ids = ids + (size_t)i * r.vm->harts;
		we[i].nr_ids = r.vm->harts;
	}
	rc = perf_writer_begin(f, we, r.nr, o->pipe, &r.w);
	free(we);
	free(ids);
	if (rc == -ESPIPE) {
		snprintf(err, errlen, "%s", perf_writer_strerror(rc));
		goto out;
	}
	uint64_t cycles = o->emu.cycles  ? o->emu.cycles
	                  : r.vm->length ? r.vm->length
	                                 : HPM_EMU_DEFAULT_CYCLES;
	if (!rc) {
		set_features(&r, cycles);
		rc = perf_writer_put_features(r.w); /* the pipe format wants them first */
	}
	if (rc) {
		snprintf(err, errlen, "%s", strerror(-rc));
		goto out;
	}
	if ((rc = program(&r)) || (rc = write_comm_mmap(&r, r.vm->profile)) ||
	    (rc = run(&r, cycles, stop)))
		goto out;

	if (r.samples)
		perf_writer_set_sample_time(r.w, r.first_time, r.last_time);
	st->samples = r.samples;
	st->cycles = cycles;
	rc = perf_writer_finish(r.w, &st->file_size);
	r.w = NULL;
	if (rc)
		snprintf(err, errlen, "%s", strerror(-rc));
	/* the recording stands without it: perf then shows addresses */
	if (!rc && r.image.buf && o->buildid_dir)
		hpm_emu_elf_cache(o->buildid_dir, r.dso, &r.image, st->cache_warning,
		                  sizeof(st->cache_warning));
out:
	hpm_emu_elf_free(&r.image);
	if (r.w)
		perf_writer_free(r.w);
	if (r.vm)
		r.mach->free(r.vm);
	free(r.arm);
	free(r.ev);
	hpm_evlist_free(&r.list);
	return rc;
}

/* The functions of the vm of cfg into *fns and *n: 0, or create()'s error
 * (err set). */
static int functions_of(const struct hpm_emu_machine *mach, const struct hpm_emu_vm_config *cfg,
                        const char *name, struct hpm_record_emu_fn **fns, size_t *n, char *err,
                        size_t errlen)
{
	struct hpm_emu_vm *vm = NULL;
	int rc = mach->create(cfg, &vm, err, errlen);
	if (rc)
		return rc;
	/* a named file of another profile is not this recording's */
	if (name && (!vm->profile || strcmp(vm->profile, name) != 0)) {
		mach->free(vm);
		return -ESRCH;
	}
	unsigned nf = mach->nr_functions(vm);
	*fns = xcalloc(nf ? nf : 1, sizeof(**fns));
	for (unsigned i = 0; i < nf; i++) {
		struct hpm_emu_function f;
		if (!mach->function(vm, i, &f))
			continue;
		(*fns)[*n].name = xstrdup(f.name);
		(*fns)[*n].start = f.start;
		(*fns)[*n].end = f.end;
		(*n)++;
	}
	mach->free(vm);
	return 0;
}

int hpm_record_emu_functions(const char *dso, const char *profile_file,
                             struct hpm_record_emu_fn **fns, size_t *n, char *err, size_t errlen)
{
	size_t len = strlen(dso);
	*fns = NULL;
	*n = 0;
	if (len < 7 || strncmp(dso, "[emu:", 5) != 0 || dso[len - 1] != ']')
		return -ENOENT;
	const struct hpm_emu_machine *mach = NULL;
	for (unsigned i = 0; !mach && i < hpm_model_count(); i++) {
		const struct hpm_emu_machine *m = hpm_model_machine(hpm_model_at(i));
		if (m && hpm_emu_can_sample(m))
			mach = m;
	}
	if (!mach) {
		snprintf(err, errlen, "no emulated machine can sample");
		return -EOPNOTSUPP;
	}
	char *profile = xstrdup(dso + 5);
	profile[len - 6] = '\0';
	int rc = -ESRCH;
	/* the profile file the user named, when it is the recording's
	 * profile; else a built-in profile of that name. The name comes from
	 * the file: never a path to open. */
	if (profile_file) {
		struct hpm_emu_vm_config cfg = {.harts = 1, .profile = profile_file};
		rc = functions_of(mach, &cfg, profile, fns, n, err, errlen);
		if (rc && rc != -ESRCH) {
			free(profile);
			return -EINVAL;
		}
	}
	if (rc) {
		struct hpm_emu_vm_config cfg = {
		    .harts = 1, .profile = profile, .builtin_only = true};
		rc = functions_of(mach, &cfg, NULL, fns, n, err, errlen);
	}
	if (rc) {
		if (profile_file)
			snprintf(
			    err, errlen,
			    "the recording's profile '%s' is not built in, and --emu-profile '%s' "
			    "is another profile",
			    profile, profile_file);
		else
			snprintf(err, errlen,
			         "the recording's profile '%s' is not built in: name its file with "
			         "--emu-profile FILE",
			         profile);
		rc = -ESRCH;
	}
	free(profile);
	return rc;
}

int hpm_record_emu_profile_check(const char *profile_file, char *err, size_t errlen)
{
	for (unsigned i = 0; i < hpm_model_count(); i++) {
		const struct hpm_emu_machine *m = hpm_model_machine(hpm_model_at(i));
		if (!m || !hpm_emu_can_sample(m))
			continue;
		struct hpm_emu_vm_config cfg = {.harts = 1, .profile = profile_file};
		struct hpm_emu_vm *vm = NULL;
		if (m->create(&cfg, &vm, err, errlen) != 0)
			return -EINVAL;
		m->free(vm);
		return 0;
	}
	snprintf(err, errlen, "no emulated machine can sample");
	return -EOPNOTSUPP;
}

void hpm_record_emu_functions_free(struct hpm_record_emu_fn *fns, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(fns[i].name);
	free(fns);
}
