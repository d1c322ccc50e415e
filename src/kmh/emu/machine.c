/* machine.c: Kunminghu's emulated machine (see machine.h).
 *
 * Owns: struct kmh_vm, one machine: the harts (emu.h) and each hart's
 * source, a profile's stream seeded with seed + hart index or the one
 * trace, replayed from its start on every hart and looped when it ends.
 *
 * Sampling (set_period, run_sample): a sampling counter is armed as the SBI
 * PMU arms one (OF cleared, the counter written to -left) and each hart's
 * runs go through emu_hart_run_watch(), which stops in the cycle a watched
 * counter overflows; the rest of that run is kept and fed first next time,
 * so the stream is the same however it is cut. The sample's context is the
 * run's PC and function (the profile's [function] sections).
 *
 * Tasks (a profile's [task] sections). Each task has its own stream
 * (its mix, seeded with seed + hart + pid << 32) and runs on its declared
 * hart modulo the harts. A hart's scheduler runs one task for a slice
 * (task-slice cycles, drawn per slice from the hart's own generator when a
 * range), chosen by smooth weighted round robin among the tasks runnable
 * at the slice's start (start <= hart cycle < exit), weighted by share,
 * with the hart's idle task weighted 1 - their shares (when positive): each
 * runnable task gets its share of the hart's time, to a slice, and shares
 * of 1/2 and 1/4 give the period A B idle A. A slice ends early at its
 * task's exit, and an idle slice at the next task's start. The idle task
 * is a hart in wfi, and Kunminghu's SoC top gates the core and L2 clock
 * while the core waits for an interrupt (XiangShan's XSNoCTop with
 * WFIClockGate: "when Core is in wfi state, core+l2 clock is gated").
 * mcycle, minstret and the mhpmcounters are registers of that clock
 * (NewCSR's mcycle adds 1 each core clock unless mcountinhibit.CY; the
 * privileged spec's mcycle counts the clock cycles the core executed), so
 * an idle slice's cycles pass (the hart's time, the CLINT's mtime) and no
 * counter counts them, mcycle included: an idle hart has no cycles and no
 * slots in any Topdown. Switches happen only in task_now() (and in run() when a caller
 * runs past a slice without asking), so a caller sees each one. The ground
 * truth of a task is the cycles it ran per (cycle definition, mode) while
 * its hart's mcycle ran: what any counter would have counted follows from
 * those (emu_event_per_cycle()), without a counter.
 *
 * Counter n is CSR mhpmcounter n (mcycle and minstret are 0 and 2 of the
 * same numbering) and bit n of mcountinhibit; its event is mhpmevent n.
 * Every access is an M-mode one, which cannot fault on an implemented CSR:
 * a fault here would be a bug in this file, reported rather than ignored.
 */
#include "kmh/emu/machine.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emukit/rng.h"
#include "emukit/trace.h"
#include "kmh/emu/emu.h"
#include "kmh/emu/workload.h"
#include "kmh/kmh.h"
#include "util/xalloc.h"

#define FIXED_MASK (EMU_CNT_CY | EMU_CNT_IR)
/* every counter: CY, IR, HPM3-31 (TM is no counter and not inhibitable) */
#define ALL_MASK UINT32_C(0xfffffffd)

/* Where one hart's cycles come from. */
struct src {
	struct emu_workload *w;         /* profile stream, or NULL with a trace */
	struct hpm_emu_trace_cursor at; /* trace: where the hart is in it */
	/* the rest of a run a sample stopped in the middle of, fed first */
	struct emu_run pend;
	uint64_t pend_pc;
	int pend_fn;
	uint64_t cycles; /* run since create() */
	uint32_t watch;  /* sampling counters */
	/* tasks: the hart's scheduler */
	bool cy_on;       /* mcycle runs: ground truth accumulates */
	int cur;          /* the task it runs, -1: idle */
	uint64_t left;    /* cycles of it before the next switch; 0: switch first */
	uint64_t rng;     /* splitmix64 state of slice lengths */
	int64_t idle_wrr; /* the idle task's smooth WRR current weight */
};

/* One declared task in a vm. */
struct vtask {
	struct emu_task t;
	unsigned hart;          /* where it runs: t.hart mod harts */
	struct emu_workload *w; /* its stream */
	int64_t weight, wrr;    /* share in 2^-32, smooth WRR current weight */
	uint64_t *cyc;          /* [keys + 1][EMU_NR_MODES] cycles run while mcycle ran (key 0:
	                         * idle) */
};

struct kmh_vm {
	struct hpm_emu_vm base; /* first: the handle is a pointer to it */
	struct emu *emu;
	const struct emu_profile *prof; /* NULL with a trace */
	struct hpm_emu_trace *trace;
	char *trace_path;
	struct src *src;     /* [harts] */
	struct vtask *tasks; /* [nr_tasks + 1]: the last is every hart's idle task */
	unsigned nr_tasks;
	uint32_t slice_lo, slice_hi;
	/* the model's table: kunminghu-v2's, or kunminghu-v3's, whose events the
	 * profiles' signals (v2's, by name) feed (to_signals) */
	const struct kmh_table *table;
};

#define WRR_ONE (INT64_C(1) << 32) /* a share of 1 */

static struct kmh_vm *vm_of(struct hpm_emu_vm *vm)
{
	return (struct kmh_vm *)vm;
}

static void vm_free(struct hpm_emu_vm *base)
{
	struct kmh_vm *vm = vm_of(base);
	if (!vm)
		return;
	for (unsigned h = 0; vm->src && h < vm->base.harts; h++) {
		if (vm->src[h].w) {
			/* the harts cache results per source address */
			if (vm->emu)
				emu_forget_source(vm->emu, vm->src[h].w);
			emu_workload_free(vm->src[h].w);
		}
	}
	for (unsigned i = 0; vm->tasks && i <= vm->nr_tasks; i++) {
		emu_workload_free(vm->tasks[i].w);
		free(vm->tasks[i].cyc);
	}
	if (vm->tasks && vm->emu)
		emu_forget_source(vm->emu, vm); /* tasks' runs carry the vm as source */
	free(vm->tasks);
	if (vm->trace) {
		if (vm->emu)
			emu_forget_source(vm->emu, vm->trace);
		hpm_emu_trace_free(vm->trace);
	}
	emu_free(vm->emu);
	emu_profile_free(vm->prof);
	free(vm->src);
	free(vm->trace_path);
	free(vm);
}

static uint64_t csrr(struct emu_hart *hart, unsigned csr)
{
	uint64_t v = 0;
	(void)emu_hart_csr_read(hart, EMU_MODE_M, csr, &v); /* M-mode: cannot fault */
	return v;
}

static int create_for(const struct hpm_emu_machine *machine, const struct kmh_table *table,
                      const struct hpm_emu_vm_config *cfg, struct hpm_emu_vm **out, char *err,
                      size_t errlen)
{
	struct kmh_vm *vm = xcalloc(1, sizeof(*vm));
	char buf[512];
	int rc;

	*out = NULL;
	vm->base.machine = machine;
	vm->table = table;
	vm->base.harts = cfg->harts;
	if (cfg->pmu) {
		snprintf(err, errlen,
		         "the Kunminghu emulator has one PMU; --emu-pmu chooses among the Arm "
		         "emulator's feature profiles");
		free(vm);
		return HPM_EMU_EPMU;
	}
	if (cfg->trace) {
		unsigned line = 0;
		vm->trace_path = xstrdup(cfg->trace);
		vm->base.trace = vm->trace_path;
		vm->trace =
		    hpm_emu_trace_load(&emu_trace_format, cfg->trace, &line, buf, sizeof(buf));
		rc = HPM_EMU_ETRACE;
		vm->base.length = vm->trace ? hpm_emu_trace_cycles(vm->trace) : 0;
		if (hpm_emu_trace_replayable(cfg->trace, vm->trace, line, buf, vm->base.length, err,
		                             errlen))
			goto fail;
	} else {
		const char *name = cfg->profile ? cfg->profile : machine->default_profile;
		if (cfg->builtin_only) {
			vm->prof = emu_profile_builtin(name);
			if (!vm->prof)
				snprintf(buf, sizeof(buf), "'%s' is not a built-in profile", name);
		} else {
			vm->prof = emu_profile_find(name, buf, sizeof(buf));
		}
		if (!vm->prof) {
			snprintf(err, errlen, "%s", buf);
			rc = HPM_EMU_EPROFILE;
			goto fail;
		}
		vm->base.profile = emu_profile_name(vm->prof);
	}
	vm->emu = emu_new(cfg->harts);
	vm->src = xcalloc(cfg->harts, sizeof(*vm->src));
	vm->nr_tasks = vm->prof ? emu_profile_nr_tasks(vm->prof) : 0;
	for (unsigned h = 0; h < cfg->harts; h++) {
		vm->src[h].cy_on =
		    !(csrr(emu_hart(vm->emu, h), EMU_CSR_MCOUNTINHIBIT) & EMU_CNT_CY);
		vm->src[h].cur = -1;
		vm->src[h].rng = (cfg->seed + h) ^ UINT64_C(0x7461736b2d736c63); /* "task-slc" */
		if (vm->prof && !vm->nr_tasks)
			vm->src[h].w = emu_workload_new(vm->prof, cfg->seed + h);
	}
	if (vm->nr_tasks) {
		unsigned keys = emu_profile_nr_keys(vm->prof);
		emu_profile_task_slice(vm->prof, &vm->slice_lo, &vm->slice_hi);
		vm->tasks = xcalloc(vm->nr_tasks + 1, sizeof(*vm->tasks));
		for (unsigned i = 0; i <= vm->nr_tasks; i++) {
			struct vtask *t = &vm->tasks[i];
			t->cyc = xcalloc((size_t)(keys + 1) * EMU_NR_MODES, sizeof(*t->cyc));
			if (i == vm->nr_tasks) {
				t->t.name = "swapper";
				t->t.exit = UINT64_MAX;
				continue;
			}
			emu_profile_task(vm->prof, i, &t->t);
			t->hart = t->t.hart % cfg->harts;
			t->w = emu_workload_new_task(
			    vm->prof, i, cfg->seed + t->hart + ((uint64_t)t->t.pid << 32));
			t->weight = (int64_t)(t->t.share * (double)WRR_ONE + 0.5);
		}
	}
	*out = &vm->base;
	return 0;
fail:
	vm_free(&vm->base);
	return rc;
}

static int vm_create(const struct hpm_emu_vm_config *cfg, struct hpm_emu_vm **out, char *err,
                     size_t errlen)
{
	return create_for(&hpm_machine_kunminghu, &kmh_table_v2, cfg, out, err, errlen);
}

static int vm_create_v3(const struct hpm_emu_vm_config *cfg, struct hpm_emu_vm **out, char *err,
                        size_t errlen)
{
	return create_for(&hpm_machine_kunminghu_v3, &kmh_table_v3, cfg, out, err, errlen);
}

/* value (t's indices) with v2's indices of the same events, for counter */
static uint64_t to_signals(const struct kmh_table *t, unsigned counter, uint64_t value)
{
	int bank = kmh_bank_of_counter(&kmh_table_v2, counter);
	if (t == &kmh_table_v2 || bank < 0)
		return value;
	for (unsigned s = 0; s < KMH_NR_SLOTS; s++)
		value = kmh_mhpmevent_set_event(
		    value, s, emu_signal_index(t, bank, kmh_mhpmevent_event(value, s)));
	return value;
}

static int csrw(struct kmh_vm *vm, unsigned h, unsigned csr, uint64_t v, char *err, size_t errlen)
{
	int x = emu_hart_csr_write(emu_hart(vm->emu, h), EMU_MODE_M, csr, v);
	if (x != EMU_OK) {
		snprintf(err, errlen, "emulator: M-mode write of CSR 0x%03x raised %s", csr,
		         emu_exc_name(x));
		return -EIO;
	}
	return 0;
}

static int vm_set_event(struct hpm_emu_vm *base, unsigned h, unsigned counter, bool used,
                        uint64_t value, char *err, size_t errlen)
{
	struct kmh_vm *vm = vm_of(base);
	/* no event is noEvent, as firmware leaves an unused counter */
	return csrw(vm, h, EMU_CSR_MHPMEVENT(counter),
	            used ? to_signals(vm->table, counter, value) : 0, err, errlen);
}

static int vm_zero(struct hpm_emu_vm *base, unsigned h, uint32_t mask, char *err, size_t errlen)
{
	int rc;
	/* mcycle and minstret are counters 0 and 2 of the same CSR numbering */
	for (unsigned n = 0; n < HPM_EMU_MAX_COUNTERS; n++)
		if ((mask & (UINT32_C(1) << n)) &&
		    (rc = csrw(vm_of(base), h, EMU_CSR_MHPMCOUNTER(n), 0, err, errlen)))
			return rc;
	return 0;
}

static int vm_inhibit(struct hpm_emu_vm *base, unsigned h, uint32_t mask, bool stop, char *err,
                      size_t errlen)
{
	struct emu_hart *hart = emu_hart(vm_of(base)->emu, h);
	int x = stop ? emu_hart_csr_set(hart, EMU_MODE_M, EMU_CSR_MCOUNTINHIBIT, mask)
	             : emu_hart_csr_clear(hart, EMU_MODE_M, EMU_CSR_MCOUNTINHIBIT, mask);
	if (x == EMU_OK && (mask & EMU_CNT_CY))
		vm_of(base)->src[h].cy_on = !stop;
	if (x != EMU_OK) {
		snprintf(err, errlen, "emulator: %s mcountinhibit raised %s",
		         stop ? "csrs" : "csrc", emu_exc_name(x));
		return -EIO;
	}
	return 0;
}

/* ------------------------------------------------------------------ tasks */

/* A slice length of hart h: task-slice, drawn when it is a range. */
static uint64_t slice_len(struct kmh_vm *vm, struct src *src)
{
	uint64_t span = (uint64_t)vm->slice_hi - vm->slice_lo + 1;
	if (span == 1)
		return vm->slice_lo;
	/* bias below 2^-32: slices are < 2^32 */
	return vm->slice_lo + hpm_splitmix64(&src->rng) % span;
}

/* The context switch of hart h: the task of its next slice. */
static void task_switch(struct kmh_vm *vm, unsigned h)
{
	struct src *src = &vm->src[h];
	const uint64_t now = src->cycles;
	int64_t total = 0, idle_w = WRR_ONE;
	uint64_t next_start = UINT64_MAX;
	bool any = false;

	for (unsigned i = 0; i < vm->nr_tasks; i++) {
		struct vtask *t = &vm->tasks[i];
		if (t->hart != h)
			continue;
		if (t->t.start > now) {
			if (t->t.start < next_start)
				next_start = t->t.start;
			continue;
		}
		if (now >= t->t.exit)
			continue;
		any = true;
		t->wrr += t->weight;
		total += t->weight;
		idle_w -= t->weight;
	}
	if (idle_w < 0)
		idle_w = 0;
	int best = -1;
	if (any) {
		/* smooth weighted round robin: the largest current weight runs
		 * and gives back the total (ties: the task declared first, the
		 * idle task last) */
		src->idle_wrr += idle_w;
		total += idle_w;
		int64_t max = src->idle_wrr;
		for (unsigned i = 0; i < vm->nr_tasks; i++) {
			struct vtask *t = &vm->tasks[i];
			if (t->hart == h && t->t.start <= now && now < t->t.exit &&
			    (best < 0 ? t->wrr >= max : t->wrr > max)) {
				max = t->wrr;
				best = (int)i;
			}
		}
		if (best >= 0)
			vm->tasks[best].wrr -= total;
		else
			src->idle_wrr -= total;
	}
	uint64_t len = slice_len(vm, src);
	if (best >= 0) {
		uint64_t to_exit = vm->tasks[best].t.exit - now;
		if (len > to_exit)
			len = to_exit;
	} else if (next_start != UINT64_MAX && len > next_start - now) {
		/* a task that starts preempts the idle task */
		len = next_start - now;
	}
	src->cur = best;
	src->left = len;
}

static int vm_task_now(struct hpm_emu_vm *base, unsigned h, uint64_t *left)
{
	struct kmh_vm *vm = vm_of(base);
	struct src *src = &vm->src[h];
	if (!vm->nr_tasks) {
		*left = UINT64_MAX;
		return -1;
	}
	if (!src->left)
		task_switch(vm, h);
	*left = src->left;
	return src->cur;
}

/* The idle task's cycles: a hart in wfi (in HS), no instruction, no event.
 * Its clock is gated (see the top of this file): src_next says so, and
 * those cycles go to no counter. */
static void idle_run(const struct kmh_vm *vm, uint64_t cycles, struct emu_run *r)
{
	memset(r, 0, sizeof(*r));
	r->cycles = cycles;
	r->source = vm;
	r->mode = EMU_MODE_HS;
}

/* `n` cycles of run r ran on hart h: its task's share of the slice, and of
 * the ground truth while mcycle ran (the idle task's are its time on the
 * hart, in which its gated clock counted nothing: vm_task_truth). */
static void task_ran(struct kmh_vm *vm, struct src *src, const struct emu_run *r, uint64_t n)
{
	if (!vm->nr_tasks)
		return;
	src->left -= n;
	if (src->cy_on) {
		struct vtask *t = &vm->tasks[src->cur >= 0 ? (unsigned)src->cur : vm->nr_tasks];
		t->cyc[(size_t)r->key * EMU_NR_MODES + r->mode] += n;
	}
}

/* The next run of h's source, at most `cycles` (> 0) of it, with its PC
 * and function: the rest of a run a sample cut first. true: an idle run,
 * the hart in wfi with its clock gated, which no counter counts. */
static bool src_next(struct kmh_vm *vm, struct src *src, uint64_t cycles, struct emu_run *r,
                     uint64_t *pc, int *fn)
{
	if (src->pend.cycles) {
		*r = src->pend;
		if (r->cycles > cycles)
			r->cycles = cycles;
		src->pend.cycles -= r->cycles;
		*pc = src->pend_pc;
		*fn = src->pend_fn;
		return false;
	}
	*pc = 0;
	*fn = -1;
	if (vm->nr_tasks) {
		if (!src->left)
			task_switch(vm, (unsigned)(src - vm->src));
		if (cycles > src->left)
			cycles = src->left;
		if (src->cur < 0) {
			idle_run(vm, cycles, r);
			return true;
		}
		struct emu_workload *w = vm->tasks[src->cur].w;
		emu_workload_next(w, cycles, r);
		/* every task's keys are the profile's cycle definitions: one
		 * source for the hart's cache */
		r->source = vm;
		*fn = emu_workload_function(w);
		*pc = emu_workload_pc(w);
	} else if (src->w) {
		emu_workload_next(src->w, cycles, r);
		*fn = emu_workload_function(src->w);
		*pc = emu_workload_pc(src->w);
	} else {
		/* the rest of the current trace line, at most `cycles` of it */
		emu_trace_run_at(vm->trace, src->at.run, r);
		r->cycles = hpm_emu_trace_cursor_take(&src->at, r->cycles, cycles,
		                                      hpm_emu_trace_nr_runs(vm->trace));
	}
	return false;
}

static void vm_run(struct hpm_emu_vm *base, unsigned h, uint64_t cycles)
{
	struct kmh_vm *vm = vm_of(base);
	struct emu_hart *hart = emu_hart(vm->emu, h);
	struct src *src = &vm->src[h];
	struct emu_run r;
	uint64_t pc;
	int fn;

	src->cycles += cycles;
	while (cycles) {
		bool gated = src_next(vm, src, cycles, &r, &pc, &fn);
		if (!gated)
			emu_hart_run(hart, &r);
		task_ran(vm, src, &r, r.cycles);
		cycles -= r.cycles;
	}
}

static int vm_set_period(struct hpm_emu_vm *base, unsigned h, unsigned counter, uint64_t left,
                         char *err, size_t errlen)
{
	struct kmh_vm *vm = vm_of(base);
	struct src *src = &vm->src[h];
	int rc;

	if (counter < KMH_FIRST_COUNTER || counter >= HPM_EMU_MAX_COUNTERS) {
		snprintf(err, errlen,
		         "counter %u cannot sample: Kunminghu's mcycle and minstret have no "
		         "overflow interrupt (no mhpmevent.OF); sample on an mhpmcounter",
		         counter);
		return -EOPNOTSUPP;
	}
	if (!left) {
		src->watch &= ~(UINT32_C(1) << counter);
		return 0;
	}
	if (left > (UINT64_C(1) << 63)) {
		snprintf(err, errlen, "sampling period %" PRIu64 " is above 2^63", left);
		return -EINVAL;
	}
	/* as the SBI PMU start with a value: OF cleared (mhpmevent), then the
	 * counter written to -left */
	struct emu_hart *hart = emu_hart(vm->emu, h);
	if (emu_hart_csr_clear(hart, EMU_MODE_M, EMU_CSR_MHPMEVENT(counter), KMH_OF) != EMU_OK) {
		snprintf(err, errlen, "emulator: csrc mhpmevent%u faulted", counter);
		return -EIO;
	}
	if ((rc = csrw(vm, h, EMU_CSR_MHPMCOUNTER(counter), 0 - left, err, errlen)))
		return rc;
	src->watch |= UINT32_C(1) << counter;
	return 0;
}

static uint64_t vm_run_sample(struct hpm_emu_vm *base, unsigned h, uint64_t cycles,
                              struct hpm_emu_sample *s)
{
	struct kmh_vm *vm = vm_of(base);
	struct emu_hart *hart = emu_hart(vm->emu, h);
	struct src *src = &vm->src[h];
	uint64_t done = 0, pc = 0;
	int fn = -1;

	s->overflowed = 0;
	while (done < cycles) {
		struct emu_run r;
		bool gated = src_next(vm, src, cycles - done, &r, &pc, &fn);
		uint32_t ovf = 0;
		/* a gated clock counts nothing, so no counter overflows in it */
		uint64_t n = gated ? r.cycles : emu_hart_run_watch(hart, &r, src->watch, &ovf);
		task_ran(vm, src, &r, n);
		done += n;
		if (n < r.cycles) {
			/* the rest of the run goes on after the interrupt (what
			 * src_next took from a pending run goes back to it) */
			if (!src->pend.cycles) {
				src->pend = r;
				src->pend.cycles = 0;
				src->pend_pc = pc;
				src->pend_fn = fn;
			}
			src->pend.cycles += r.cycles - n;
		}
		if (ovf) {
			s->overflowed = ovf;
			break;
		}
	}
	src->cycles += done;
	s->cycle = src->cycles;
	s->pc = pc;
	s->function = fn;
	return done;
}

static unsigned vm_nr_functions(const struct hpm_emu_vm *base)
{
	const struct kmh_vm *vm = (const struct kmh_vm *)base;
	return vm->prof ? emu_profile_nr_functions(vm->prof) : 0;
}

static bool vm_function(const struct hpm_emu_vm *base, unsigned i, struct hpm_emu_function *f)
{
	const struct kmh_vm *vm = (const struct kmh_vm *)base;
	struct emu_function ef;
	if (!vm->prof || !emu_profile_function(vm->prof, i, &ef))
		return false;
	f->name = ef.name;
	f->start = ef.start;
	f->end = ef.end;
	f->share = ef.share;
	return true;
}

static uint64_t vm_read(struct hpm_emu_vm *base, unsigned h, unsigned counter, bool *wrapped)
{
	struct emu_hart *hart = emu_hart(vm_of(base)->emu, h);
	uint64_t v = csrr(hart, EMU_CSR_MHPMCOUNTER(counter));
	if (counter == 0 || counter == 2)
		/* mcycle and minstret have no OF bit: the emulator's own note */
		*wrapped = (emu_hart_fixed_wrapped(hart) & (UINT32_C(1) << counter)) != 0;
	else
		*wrapped = (csrr(hart, EMU_CSR_MHPMEVENT(counter)) & KMH_OF) != 0;
	return v;
}

static unsigned vm_nr_tasks(const struct hpm_emu_vm *base)
{
	return ((const struct kmh_vm *)base)->nr_tasks;
}

static bool vm_task(const struct hpm_emu_vm *base, unsigned i, struct hpm_emu_task_info *t)
{
	const struct kmh_vm *vm = (const struct kmh_vm *)base;
	if (i >= vm->nr_tasks)
		return false;
	const struct vtask *v = &vm->tasks[i];
	t->pid = v->t.pid;
	t->tgid = v->t.tgid;
	t->comm = v->t.name;
	t->hart = v->hart;
	t->share = v->t.share;
	t->start = v->t.start;
	t->exit = v->t.exit;
	t->exited = vm->src[v->hart].cycles >= v->t.exit;
	return true;
}

static uint64_t vm_task_truth(const struct hpm_emu_vm *base, unsigned i, unsigned counter,
                              uint64_t value, uint64_t *cycles)
{
	const struct kmh_vm *vm = (const struct kmh_vm *)base;
	uint64_t sum = 0, cyc = 0;
	if (i <= vm->nr_tasks) {
		const uint64_t *c = vm->tasks[i].cyc;
		unsigned keys = emu_profile_nr_keys(vm->prof);
		for (unsigned k = 0; k <= keys; k++)
			for (unsigned m = 0; m < EMU_NR_MODES; m++) {
				uint64_t n = c[(size_t)k * EMU_NR_MODES + m];
				struct emu_run r;
				if (!n)
					continue;
				cyc += n;
				/* key 0 is the idle task's: its time on the hart,
				 * in which its gated clock counted nothing */
				if (!k)
					continue;
				emu_profile_key_run(vm->prof, k, m, &r);
				r.mode = (uint8_t)m;
				sum += n * emu_event_per_cycle(
				               to_signals(vm->table, counter, value), counter, &r);
			}
	}
	if (cycles)
		*cycles = cyc;
	return sum;
}

static const char *vm_unproduced(const struct hpm_emu_vm *base, const struct hpm_event_code *c,
                                 char *buf, size_t len)
{
	const struct kmh_vm *vm = (const struct kmh_vm *)base;
	const struct kmh_table *t = vm->table;
	if (c->constraint < 0 || c->constraint >= KMH_NR_BANKS)
		return NULL;
	for (unsigned s = 0; s < KMH_NR_SLOTS; s++) {
		unsigned idx = kmh_mhpmevent_event(c->value, s);
		/* a v3 event v2 has no signal of is produced by no profile or trace */
		unsigned sig = emu_signal_index(t, c->constraint, idx);
		if (!idx ||
		    (sig && (!vm->prof || emu_profile_produces(vm->prof, c->constraint, sig))))
			continue;
		const struct kmh_event *ev = kmh_event_by_index(t, c->constraint, idx);
		if (ev)
			snprintf(buf, len, "%s:%s", t->banks[c->constraint].name,
			         kmh_str(t, ev->name));
		else
			snprintf(buf, len, "%s:%u", t->banks[c->constraint].name, idx);
		return buf;
	}
	return NULL;
}

/* Kunminghu's programming: mcountinhibit, mhpmeventN, mhpmcounterN (from
 * any state, stopping all is one write) */
static const struct hpm_emu_step_words words = {
    .stop = "csrs mcountinhibit ",
    .stop_all = "csrw mcountinhibit ",
    .all_mask = ALL_MASK,
    .start = "csrc mcountinhibit ",
    .program = {"csrw mhpmevent", " "},
    .programmable = ~FIXED_MASK,
    .no_event = "csrw mhpmeventN 0 for N = ",
    .zero = "csrw mhpmcounterN 0 for N = ",
    .fixed = {{0, "csrw mcycle 0", NULL}, {2, "csrw minstret 0", NULL}},
    .nr_fixed = 2,
    .rotate = "csrs mcountinhibit (the counters that change), csrr them, csrw their "
              "mhpmevent and mhpmcounter 0, csrc mcountinhibit",
};

/* The operations both machines share: they differ in their model's table.
 * cycle_sampler: the free list's occupancy is in exactly one quarter every
 * cycle (workload-model.c checks it one-hot). */
#define KMH_MACHINE_OPS                                                                            \
	.max_harts = EMU_MAX_HARTS, .default_profile = "balanced", .free = vm_free,                \
	.set_event = vm_set_event, .zero = vm_zero, .inhibit = vm_inhibit, .run = vm_run,          \
	.read = vm_read, .unproduced = vm_unproduced, .words = &words,                             \
	.set_period = vm_set_period,                                                               \
	.cycle_sampler = "me_freelist_1_4_valid+me_freelist_2_4_valid+me_freelist_3_4_valid+"      \
	                 "me_freelist_4_4_valid",                                                  \
	.run_sample = vm_run_sample, .nr_functions = vm_nr_functions, .function = vm_function,     \
	.nr_tasks = vm_nr_tasks, .task = vm_task, .task_now = vm_task_now,                         \
	.task_truth = vm_task_truth, .commands = &kmh_emu_commands,

const struct hpm_emu_machine hpm_machine_kunminghu = {.create = vm_create, KMH_MACHINE_OPS};

/* kunminghu-v3: the same profiles feed its events of v2's names (to_signals) */
const struct hpm_emu_machine hpm_machine_kunminghu_v3 = {.create = vm_create_v3, KMH_MACHINE_OPS};
