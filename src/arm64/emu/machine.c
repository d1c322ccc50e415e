/* machine.c: the Arm models' emulated machines (see machine.h).
 *
 * Owns: struct arm_vm, one machine: the Arm PMUv3 emulator (pmu.h) on the
 * feature profile of the model's core, one PE per hart, one PE per core
 * (stat counts PEs, not hardware threads), and each PE's source: a
 * profile's stream seeded with seed + PE or the one trace, replayed from
 * its start on every PE and looped when it ends.
 *
 * Programming is what Linux's arm_pmuv3 driver does on a VHE host, whose
 * kernel runs at EL2: PMCR_EL0.E, LC and (with FEAT_PMUv3p5) LP set once,
 * PMCCFILTR_EL0.NSH set so that the cycle counter counts EL0, EL1 and EL2
 * as the model's default modes do, PMINTENSET_EL1 for every counter,
 * then per event msr PMEVTYPER<n>_EL0, msr PMEVCNTR<n>_EL0 0 and
 * PMCNTENSET/CLR_EL0, and mrs to read. Counter 31 is the cycle counter
 * (PMCCNTR_EL0, bit 31 of the enable masks), as the models declare it.
 *
 * Overflow: 32-bit event counters (PMUv3p4, or PMCR.LP clear) wrap every
 * 2^32; like the driver's interrupt handler, the machine takes the
 * overflow interrupt after each piece of a run and carries 2^32 into a
 * 64-bit software count. A piece is at most 2^16 cycles there, so that no
 * counter (VB at most 65535) overflows twice in one. A 64-bit counter's
 * overflow is a wrap past 2^64 - 1: read() reports it. The interrupt is
 * looked at once a piece, not once a run, since looking completes the
 * counts the machine defers for keyed runs (pmu.h).
 *
 * Every access is made at EL2, which cannot trap on an implemented
 * register: a fault here is reported as an error, never ignored.
 */
#include "arm64/emu/machine.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm64/emu/pmu.h"
#include "arm64/emu/profile.h"
#include "arm64/emu/stimulus.h"
#include "arm64/emu/trace.h"
#include "arm64/pmevtyper.h"
#include "arm64/events.h"
#include "emukit/trace.h"
#include "util/xalloc.h"

#define KERNEL_EL  ARM_EMU_EL2
#define CYCLE_CTR  31u
#define NSH        (UINT64_C(1) << 27)
#define PIECE_32   (UINT64_C(1) << 16) /* cycles per piece with 32-bit counters */
#define ALL_EVENTS UINT32_C(0x7fffffff)

/* One Arm model's machine: its core and the machine object. */
struct arm_mach {
	const char *core;  /* arm64_cores[].name: its events */
	const char *model; /* the model it emulates (neoverse-n2-r0p0): its feature profile */
	const struct hpm_emu_machine *self;
};

/* What the kernel's driver keeps per PE. */
struct pe_src {
	struct arm_src_stream *s;       /* profile stream, or NULL with a trace */
	struct hpm_emu_trace_cursor at; /* trace: where the PE is in it */
	uint64_t hi[32];                /* overflows carried (multiples of 2^32) */
	uint32_t wrapped;               /* counters that passed 2^64 - 1 */
	bool captured; /* FEAT_PMUv3_SS: the snapshot registers hold this instant */
};

struct arm_vm {
	struct hpm_emu_vm base; /* first: the handle is a pointer to it */
	const struct arm_mach *mach;
	const struct arm64_core *core;
	const struct arm_emu_features *f;
	struct arm_emu *emu;
	const struct arm_src_profile *prof; /* NULL with a trace */
	struct hpm_emu_trace *trace;
	char *trace_path;
	struct pe_src *src; /* [harts] */
	bool wide;          /* event counters are 64-bit (PMCR_EL0.LP) */
};

static struct arm_vm *vm_of(struct hpm_emu_vm *vm)
{
	return (struct arm_vm *)vm;
}

static const struct arm64_core *core_named(const char *name)
{
	for (unsigned i = 0; i < arm64_nr_cores; i++)
		if (strcmp(arm64_cores[i].name, name) == 0)
			return &arm64_cores[i];
	return NULL;
}

static bool core_has_event(const struct arm64_core *c, uint16_t code)
{
	for (unsigned i = 0; c && i < c->nr_events; i++)
		if (c->events[i].code == code)
			return true;
	return false;
}

static void vm_free(struct hpm_emu_vm *base)
{
	struct arm_vm *vm = vm_of(base);
	if (!vm)
		return;
	/* the machine frees its per-key caches with itself, and never
	 * dereferences a source: the order is free */
	for (unsigned h = 0; vm->src && h < vm->base.harts; h++)
		arm_src_stream_free(vm->src[h].s);
	hpm_emu_trace_free(vm->trace);
	arm_emu_free(vm->emu);
	arm_src_profile_free(vm->prof);
	free(vm->src);
	free(vm->trace_path);
	free(vm);
}

static int msr(struct arm_vm *vm, unsigned h, unsigned reg, unsigned idx, uint64_t v, char *err,
               size_t errlen)
{
	int x = arm_emu_write(arm_emu_pe(vm->emu, h), KERNEL_EL, reg, idx, v);
	vm->src[h].captured = false; /* a write may change what a capture holds */
	if (x != ARM_EMU_OK) {
		char name[32];
		snprintf(err, errlen, "emulator: msr %s, 0x%" PRIx64 " at EL2 raised %s",
		         arm_emu_reg_name(reg, idx, name, sizeof(name)), v, arm_emu_exc_name(x));
		return -EIO;
	}
	return 0;
}

static uint64_t mrs(struct arm_vm *vm, unsigned h, unsigned reg, unsigned idx)
{
	uint64_t v = 0;
	(void)arm_emu_read(arm_emu_pe(vm->emu, h), KERNEL_EL, reg, idx, &v); /* EL2: cannot trap */
	return v;
}

/* --emu-pmu: a feature profile by name (a core's name gives its own). */
static const struct arm_emu_features *pmu_named(const char *name, char *err, size_t errlen)
{
	const struct arm_emu_features *f = arm_emu_features_find(name);
	if (f)
		return f;
	size_t n = (size_t)snprintf(err, errlen, "no Arm emulator feature profile of that name (");
	for (unsigned i = 0; (f = arm_emu_features_at(i)) && n < errlen; i++)
		n += (size_t)snprintf(err + n, errlen - n, "%s%s", i ? ", " : "", f->name);
	if (n < errlen)
		snprintf(err + n, errlen - n, ", or an Arm core's name)");
	return NULL;
}

/* A profile's contexts must exist on the PMU's features (the machine
 * refuses a run that cannot), and its slot events must fit PMMIR.SLOTS
 * where the core has them. */
static int check_profile(const struct arm_vm *vm, char *err, size_t errlen)
{
	const struct arm_src_profile *p = vm->prof;
	const struct arm_emu_features *f = vm->f;
	const char *name = arm_src_profile_name(p), *why = NULL;
	if (arm_src_profile_sec_share(p, ARM_EMU_SEC_REALM) > 0 && !f->rme)
		why = "runs in Realm state, which needs FEAT_RME";
	else if (arm_src_profile_sec_share(p, ARM_EMU_SEC_ROOT) > 0 && !f->rme)
		why = "runs in Root state, which needs FEAT_RME";
	else if (arm_src_profile_streaming_share(p) > 0 && !f->sme)
		why = "runs in SME streaming mode, which needs FEAT_SME";
	else if (arm_src_profile_el_share(p, ARM_EMU_EL2) > 0 &&
	         arm_src_profile_sec_share(p, ARM_EMU_SEC_S) > 0 && !f->sel2)
		why = "runs at EL2 and in Secure state, which may need Secure EL2 (FEAT_SEL2)";
	if (why) {
		snprintf(err, errlen,
		         "profile %s %s; the %s PMU (emulator profile %s) has not got it", name,
		         why, vm->core->name, f->name);
		return -1;
	}
	if (arm_src_profile_slots(p) > f->slots && core_has_event(vm->core, ARM_SRC_STALL_SLOT)) {
		snprintf(err, errlen,
		         "profile %s is written for %u slots; the %s PMU (emulator profile %s) has "
		         "PMMIR_EL1.SLOTS %u",
		         name, arm_src_profile_slots(p), vm->core->name, f->name, f->slots);
		return -1;
	}
	if (core_has_event(vm->core, ARM_SRC_STALL_SLOT) &&
	    arm_src_profile_stall_slot_bias(p) != f->slot_bias) {
		snprintf(
		    err, errlen,
		    "profile %s has stall_slot_bias %u; the %s PMU (emulator profile %s) counts "
		    "%u extra slot%s a cycle in STALL_SLOT_FRONTEND and STALL_SLOT",
		    name, arm_src_profile_stall_slot_bias(p), vm->core->name, f->name, f->slot_bias,
		    f->slot_bias == 1 ? "" : "s");
		return -1;
	}
	return 0;
}

/* Every run of the trace must be possible on the PMU's features. */
static int check_trace(const struct arm_vm *vm, char *err, size_t errlen)
{
	char buf[256];
	for (size_t i = 0; i < hpm_emu_trace_nr_runs(vm->trace); i++) {
		struct arm_emu_run r;
		arm_src_trace_run_at(vm->trace, i, &r);
		if (arm_emu_run_check(vm->emu, &r, buf, sizeof(buf)) != 0) {
			snprintf(err, errlen, "%s: run %zu: %s (the %s PMU, emulator profile %s)",
			         vm->trace_path, i + 1, buf, vm->core->name, vm->f->name);
			return -1;
		}
	}
	return 0;
}

/* The driver's reset of one PE (armv8pmu_reset): counters disabled and
 * their interrupts enabled, PMCR.E, LC and LP, the cycle counter's filter. */
static int pe_init(struct arm_vm *vm, unsigned h, char *err, size_t errlen)
{
	uint64_t pmcr = ARM_EMU_PMCR_E | ARM_EMU_PMCR_LC;
	int rc;
	if (vm->f->pmuver >= 6)
		pmcr |= ARM_EMU_PMCR_LP; /* FEAT_PMUv3p5: 64-bit event counters */
	if ((rc = msr(vm, h, ARM_EMU_PMCNTENCLR_EL0, 0, UINT32_MAX, err, errlen)) ||
	    (rc = msr(vm, h, ARM_EMU_PMINTENSET_EL1, 0, UINT32_MAX, err, errlen)) ||
	    (rc = msr(vm, h, ARM_EMU_PMCCFILTR_EL0, 0, NSH, err, errlen)) ||
	    (rc = msr(vm, h, ARM_EMU_PMCR_EL0, 0, pmcr, err, errlen)))
		return rc;
	vm->wide = (mrs(vm, h, ARM_EMU_PMCR_EL0, 0) & ARM_EMU_PMCR_LP) != 0;
	return 0;
}

/* The built-in profile written for the PMU's feature profile when there is
 * one (arm-n2-balanced: N2's 5 slots; arm-n2-r0p0-balanced: and r0p0-r0p2's
 * extra frontend slot), which the
 * machine's default_profile (8 slots) does not fit; NULL otherwise. */
static const struct arm_src_profile *default_profile(const struct arm_vm *vm)
{
	char name[64];
	snprintf(name, sizeof(name), "arm-%s-balanced", vm->f->name);
	for (unsigned i = 0; i < arm_src_profile_count(); i++)
		if (strcmp(arm_src_profile_name(arm_src_profile_at(i)), name) == 0)
			return arm_src_profile_at(i);
	return NULL;
}

static int vm_create(const struct arm_mach *am, const struct hpm_emu_vm_config *cfg,
                     struct hpm_emu_vm **out, char *err, size_t errlen)
{
	struct arm_vm *vm = xcalloc(1, sizeof(*vm));
	char buf[512];
	int rc = HPM_EMU_EPROFILE;

	*out = NULL;
	vm->base.machine = am->self;
	vm->base.harts = cfg->harts;
	vm->mach = am;
	vm->core = core_named(am->core);
	vm->f = arm_emu_features_find(am->model);
	if (!vm->core || !vm->f) {
		snprintf(err, errlen, "no Arm emulator profile for %s", am->core);
		goto fail;
	}
	if (cfg->pmu && !(vm->f = pmu_named(cfg->pmu, err, errlen))) {
		rc = HPM_EMU_EPMU;
		goto fail;
	}
	vm->emu = arm_emu_new(vm->f, cfg->harts, 1, buf, sizeof(buf));
	if (!vm->emu) {
		snprintf(err, errlen, "%s", buf);
		goto fail;
	}
	if (cfg->trace) {
		unsigned line = 0;
		rc = HPM_EMU_ETRACE;
		vm->trace_path = xstrdup(cfg->trace);
		vm->base.trace = vm->trace_path;
		vm->trace =
		    hpm_emu_trace_load(&arm_src_trace_format, cfg->trace, &line, buf, sizeof(buf));
		vm->base.length = vm->trace ? hpm_emu_trace_cycles(vm->trace) : 0;
		if (hpm_emu_trace_replayable(cfg->trace, vm->trace, line, buf, vm->base.length, err,
		                             errlen) ||
		    check_trace(vm, err, errlen))
			goto fail;
	} else {
		vm->prof = cfg->profile ? NULL : default_profile(vm);
		if (!vm->prof)
			vm->prof = arm_src_profile_find(cfg->profile ? cfg->profile
			                                             : am->self->default_profile,
			                                buf, sizeof(buf));
		if (!vm->prof) {
			snprintf(err, errlen, "%s", buf);
			goto fail;
		}
		if (check_profile(vm, err, errlen) && !cfg->dry_run)
			goto fail;
		vm->base.profile = arm_src_profile_name(vm->prof);
	}
	vm->src = xcalloc(cfg->harts, sizeof(*vm->src));
	for (unsigned h = 0; h < cfg->harts; h++) {
		if (vm->prof)
			vm->src[h].s = arm_src_stream_new(vm->prof, cfg->seed + h);
		if (pe_init(vm, h, err, errlen))
			goto fail;
	}
	*out = &vm->base;
	return 0;
fail:
	vm_free(&vm->base);
	return rc;
}

static int vm_set_event(struct hpm_emu_vm *base, unsigned h, unsigned counter, bool used,
                        uint64_t value, char *err, size_t errlen)
{
	struct arm_vm *vm = vm_of(base);
	uint64_t v = used ? value : 0; /* no event: SW_INCR, which nothing here writes */
	/* the cycle counter, given CPU_CYCLES (the model's fixed_alt): the
	 * driver writes the event's config to PMCCFILTR_EL0, whose evtCount
	 * bits are RES0 */
	bool cc = counter == CYCLE_CTR;
	unsigned reg = cc ? ARM_EMU_PMCCFILTR_EL0 : ARM_EMU_PMEVTYPER_EL0;
	int rc = msr(vm, h, reg, cc ? 0 : counter, v, err, errlen);
	if (rc)
		return rc;
	if (cc)
		v &= ARM64_PMCCFILTR_FIELDS;
	/* fields of a feature the PMU has not got are RES0: it would count
	 * something else than asked, so say so rather than count it */
	uint64_t got = mrs(vm, h, reg, cc ? 0 : counter);
	if (got != v) {
		char name[32];
		snprintf(err, errlen,
		         "emulator: %s = 0x%016" PRIx64 " sets bits 0x%016" PRIx64
		         " that the %s PMU (emulator profile %s: %s) does not implement",
		         arm_emu_reg_name(reg, counter, name, sizeof(name)), v, v & ~got,
		         vm->core->name, vm->f->name, vm->f->about);
		return -EINVAL;
	}
	return 0;
}

/* The overflow interrupt handler: carries 2^32 for each overflow of a
 * 32-bit counter, marks a 64-bit one as wrapped, clears PMOVS. */
static void service(struct arm_vm *vm, unsigned h)
{
	struct pe_src *src = &vm->src[h];
	uint32_t ovs = (uint32_t)mrs(vm, h, ARM_EMU_PMOVSSET_EL0, 0);
	char err[160];
	if (!ovs)
		return;
	for (unsigned n = 0; n < 32; n++) {
		if (!(ovs & (UINT32_C(1) << n)))
			continue;
		if (n != CYCLE_CTR && !vm->wide) {
			if (__builtin_add_overflow(src->hi[n], UINT64_C(1) << 32, &src->hi[n]))
				src->wrapped |= UINT32_C(1) << n;
		} else {
			src->wrapped |= UINT32_C(1) << n;
		}
	}
	(void)msr(vm, h, ARM_EMU_PMOVSCLR_EL0, 0, ovs, err, sizeof(err));
}

static int vm_zero(struct hpm_emu_vm *base, unsigned h, uint32_t mask, char *err, size_t errlen)
{
	struct arm_vm *vm = vm_of(base);
	int rc;
	for (unsigned n = 0; n < HPM_EMU_MAX_COUNTERS; n++) {
		if (!(mask & (UINT32_C(1) << n)))
			continue;
		if (n == CYCLE_CTR)
			rc = msr(vm, h, ARM_EMU_PMCCNTR_EL0, 0, 0, err, errlen);
		else
			rc = msr(vm, h, ARM_EMU_PMEVCNTR_EL0, n, 0, err, errlen);
		if (rc)
			return rc;
		vm->src[h].hi[n] = 0;
	}
	vm->src[h].wrapped &= ~mask;
	return msr(vm, h, ARM_EMU_PMOVSCLR_EL0, 0, mask, err, errlen);
}

static int vm_inhibit(struct hpm_emu_vm *base, unsigned h, uint32_t mask, bool stop, char *err,
                      size_t errlen)
{
	return msr(vm_of(base), h, stop ? ARM_EMU_PMCNTENCLR_EL0 : ARM_EMU_PMCNTENSET_EL0, 0, mask,
	           err, errlen);
}

static void vm_run(struct hpm_emu_vm *base, unsigned h, uint64_t cycles)
{
	struct arm_vm *vm = vm_of(base);
	struct arm_emu_pe *pe = arm_emu_pe(vm->emu, h);
	struct pe_src *src = &vm->src[h];
	struct arm_emu_run r;
	src->captured = false;

	while (cycles) {
		/* a piece, then the interrupt: looking at it completes the
		 * machine's deferred counts, so not after every run */
		uint64_t piece = !vm->wide && cycles > PIECE_32 ? PIECE_32 : cycles;
		cycles -= piece;
		while (piece) {
			if (src->s) {
				arm_src_stream_next(src->s, piece, &r);
			} else {
				/* the rest of the current trace line, at most `piece` of it */
				arm_src_trace_run_at(vm->trace, src->at.run, &r);
				r.cycles = hpm_emu_trace_cursor_take(
				    &src->at, r.cycles, piece, hpm_emu_trace_nr_runs(vm->trace));
			}
			/* create() checked that every run can exist on the features */
			(void)arm_emu_run(pe, &r);
			piece -= r.cycles;
		}
		if (arm_emu_irq_pending(pe))
			service(vm, h);
	}
}

static uint64_t vm_read(struct hpm_emu_vm *base, unsigned h, unsigned counter, bool *wrapped)
{
	struct arm_vm *vm = vm_of(base);
	struct pe_src *src = &vm->src[h];
	uint64_t v, sum;
	if (!src->captured)
		service(vm, h);
	if (vm->f->pmss && !src->captured) {
		/* FEAT_PMUv3_SS: one Capture event holds every counter of the
		 * PE at this instant, so a group's members are read together
		 * however long reading them takes; NC = 0 says it happened */
		char err[160];
		src->captured =
		    msr(vm, h, ARM_EMU_PMSSCR_EL1, 0, ARM_EMU_PMSSCR_SS, err, sizeof(err)) == 0 &&
		    !(mrs(vm, h, ARM_EMU_PMSSCR_EL1, 0) & ARM_EMU_PMSSCR_NC);
	}
	if (src->captured)
		v = counter == CYCLE_CTR ? mrs(vm, h, ARM_EMU_PMCCNTSVR_EL1, 0)
		                         : mrs(vm, h, ARM_EMU_PMEVCNTSVR_EL1, counter);
	else if (counter == CYCLE_CTR)
		v = mrs(vm, h, ARM_EMU_PMCCNTR_EL0, 0);
	else
		v = mrs(vm, h, ARM_EMU_PMEVCNTR_EL0, counter);
	*wrapped = (src->wrapped & (UINT32_C(1) << counter)) != 0;
	if (__builtin_add_overflow(src->hi[counter], v, &sum))
		*wrapped = true;
	return sum;
}

static const char *vm_unproduced(const struct hpm_emu_vm *base, const struct hpm_event_code *c,
                                 char *buf, size_t len)
{
	const struct arm_vm *vm = (const struct arm_vm *)base;
	uint16_t code = (uint16_t)(c->value & 0xffff);
	if (!vm->prof || code == ARM_SRC_CPU_CYCLES || arm_src_profile_mean(vm->prof, code) > 0)
		return NULL;
	/* a table's name lives as long as the program; an unnamed one is buf's */
	const char *name = arm_src_event_name(vm->core, code);
	if (!name)
		snprintf(buf, len, "event 0x%04x", code);
	return name ? name : buf;
}

static const char *describe_read(const struct hpm_emu_vm *base, char *buf, size_t len)
{
	const struct arm_vm *vm = (const struct arm_vm *)base;
	if (vm->f->pmss)
		snprintf(buf, len,
		         "msr PMSSCR_EL1, 1 (one capture of every counter; NC = 0 says it "
		         "happened), then mrs PMEVCNTSVR<n>_EL1 and PMCCNTSVR_EL1");
	else
		snprintf(buf, len, "mrs PMEVCNTR<n>_EL0 and PMCCNTR_EL0, one at a time");
	return buf;
}

/* PMUv3's programming: PMCNTENSET/CLR, PMEVTYPER<n> (PMCCFILTR for the
 * cycle counter), PMEVCNTR<n> */
static const struct hpm_emu_step_words words = {
    .stop = "msr PMCNTENCLR_EL0, ",
    .start = "msr PMCNTENSET_EL0, ",
    .program = {"msr PMEVTYPER", "_EL0, "},
    .programmable = ALL_EVENTS,
    .no_event = "msr PMEVTYPER<n>_EL0, 0 for n = ",
    .zero = "msr PMEVCNTR<n>_EL0, 0 for n = ",
    .fixed = {{CYCLE_CTR, "msr PMCCNTR_EL0, 0", "msr PMCCFILTR_EL0, "}},
    .nr_fixed = 1,
    .rotate = "msr PMCNTENCLR_EL0 (the counters that change), mrs their PMEVCNTR<n>_EL0, "
              "msr their PMEVTYPER<n>_EL0 and PMEVCNTR<n>_EL0, 0, msr PMCNTENSET_EL0",
};

#define ARM_MACHINE(id, core_name, model_name)                                                     \
	static const struct arm_mach mach_##id = {core_name, model_name, &hpm_machine_##id};       \
	static int create_##id(const struct hpm_emu_vm_config *cfg, struct hpm_emu_vm **out,       \
	                       char *err, size_t errlen)                                           \
	{                                                                                          \
		return vm_create(&mach_##id, cfg, out, err, errlen);                               \
	}                                                                                          \
	const struct hpm_emu_machine hpm_machine_##id = {                                          \
	    .max_harts = ARM_EMU_MAX_PES,                                                          \
	    .default_profile = "arm-balanced",                                                     \
	    .create = create_##id,                                                                 \
	    .free = vm_free,                                                                       \
	    .set_event = vm_set_event,                                                             \
	    .zero = vm_zero,                                                                       \
	    .inhibit = vm_inhibit,                                                                 \
	    .run = vm_run,                                                                         \
	    .read = vm_read,                                                                       \
	    .unproduced = vm_unproduced,                                                           \
	    .words = &words,                                                                       \
	    .describe_read = describe_read, /* no sampling operations: PMUv3 overflow interrupts   \
	                                       are not modelled yet */                             \
	    .commands = &arm_emu_commands,                                                         \
	}

ARM_MACHINE(neoverse_n1, "neoverse-n1", "neoverse-n1");
ARM_MACHINE(neoverse_n2, "neoverse-n2", "neoverse-n2");
/* the same core's events, and its r0p0-r0p2 PMU's extra frontend slot */
ARM_MACHINE(neoverse_n2_r0p0, "neoverse-n2", "neoverse-n2-r0p0");
ARM_MACHINE(neoverse_v1, "neoverse-v1", "neoverse-v1");
ARM_MACHINE(neoverse_v2, "neoverse-v2", "neoverse-v2");
