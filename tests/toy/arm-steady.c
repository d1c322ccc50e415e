/* arm-steady.c: hpmstat's whole command line with a test machine attached
 * to a copy of the Neoverse V2 model, "neoverse-v2-steady": the proof that
 * stat, top and report count and show an Arm core's events and Topdown
 * through the same code as Kunminghu's with figures worked by hand, on a
 * host with no Arm PMU (tests/toy/arm-cli.sh drives it; the Arm emulator
 * of issue 14, whose figures come from profiles, is tests/stat/arm-emu.sh's).
 *
 * A second copy, "neoverse-v2-bare", has no machine: the model nothing
 * here counts, for the uncounted back end's dry run and refusal.
 *
 * The machine, "steady": every PE runs at EL0 in Non-secure state, and in
 * each cycle the events deliver the fixed values of rates[] below
 * (CPU_CYCLES 1, STALL_SLOT_FRONTEND 2, ...), so every count is cycles x
 * rate, worked out by hand. A counter counts when its PMEVTYPER value
 * leaves EL0 counted (U, bit 30, clear); the cycle counter (counter 31)
 * always counts. Nothing else of PMEVTYPER is modelled: the Arm emulator
 * (src/arm64/emu/machine.c) is the machine that does that.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/machine.h"
#include "builtin/builtin.h"
#include "registry/models.h"

#define NR_CTR    32u
#define CYCLE_CTR 31u

/* Per-cycle values; Neoverse V2 has 8 slots (its metrics.json), so level 1
 * is FE 2/8, BE 3/8, Retiring 3/4 x (1 - 5/8), Bad speculation
 * (1 - 3/4) x (1 - 5/8): 25, 37.5, 28.125 and 9.375 %. No branch is
 * mispredicted (BR_MIS_PRED 0), so Arm's per-misprediction terms (1 slot
 * off frontend, 3 off backend, 4 onto bad speculation) are 0. */
static const struct {
	uint16_t event;
	uint64_t rate;
} rates[] = {
    {0x08, 3}, /* INST_RETIRED: IPC 3 */
    {0x10, 0}, /* BR_MIS_PRED: counted, none */
    {0x11, 1}, /* CPU_CYCLES */
    {0x3A, 3}, /* OP_RETIRED */
    {0x3B, 4}, /* OP_SPEC */
    {0x3D, 3}, /* STALL_SLOT_BACKEND */
    {0x3E, 2}, /* STALL_SLOT_FRONTEND */
    {0x3F, 5}, /* STALL_SLOT */
};

static uint64_t rate_of(uint64_t pmevtyper)
{
	if (pmevtyper & (UINT64_C(1) << 30))
		return 0; /* U: EL0 not counted */
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		if (rates[i].event == (pmevtyper & 0xFFFF))
			return rates[i].rate;
	return 0;
}

struct pe {
	uint64_t ctr[NR_CTR];
	uint64_t rate[NR_CTR];
	uint32_t stopped;
};

struct steady_vm {
	struct hpm_emu_vm base;
	struct pe *pe;
};

static struct pe *pe_of(struct hpm_emu_vm *vm, unsigned h)
{
	return &((struct steady_vm *)vm)->pe[h];
}

static int steady_create(const struct hpm_emu_vm_config *cfg, struct hpm_emu_vm **out, char *e,
                         size_t elen)
{
	*out = NULL;
	if (cfg->trace) {
		snprintf(e, elen, "%s: the steady machine replays no traces", cfg->trace);
		return HPM_EMU_ETRACE;
	}
	if (cfg->profile && strcmp(cfg->profile, "steady") != 0) {
		snprintf(e, elen, "unknown profile '%s' (known: steady)", cfg->profile);
		return HPM_EMU_EPROFILE;
	}
	struct steady_vm *vm = calloc(1, sizeof(*vm));
	vm->pe = calloc(cfg->harts, sizeof(*vm->pe));
	if (!vm->pe) {
		free(vm);
		snprintf(e, elen, "out of memory");
		return HPM_EMU_EPROFILE;
	}
	for (unsigned i = 0; i < cfg->harts; i++) {
		vm->pe[i].stopped = UINT32_MAX;
		vm->pe[i].rate[CYCLE_CTR] = 1;
	}
	vm->base.harts = cfg->harts;
	vm->base.profile = "steady";
	*out = &vm->base;
	return 0;
}

static void steady_free(struct hpm_emu_vm *base)
{
	struct steady_vm *vm = (struct steady_vm *)base;
	free(vm->pe);
	free(vm);
}

static int steady_set_event(struct hpm_emu_vm *vm, unsigned h, unsigned n, bool used,
                            uint64_t value, char *e, size_t elen)
{
	if (n >= CYCLE_CTR) {
		snprintf(e, elen, "steady: counter %u is not an event counter", n);
		return -1;
	}
	pe_of(vm, h)->rate[n] = used ? rate_of(value) : 0;
	return 0;
}

static int steady_zero(struct hpm_emu_vm *vm, unsigned h, uint32_t mask, char *e, size_t elen)
{
	(void)e;
	(void)elen;
	for (unsigned n = 0; n < NR_CTR; n++)
		if (mask & (UINT32_C(1) << n))
			pe_of(vm, h)->ctr[n] = 0;
	return 0;
}

static int steady_inhibit(struct hpm_emu_vm *vm, unsigned h, uint32_t mask, bool stop, char *e,
                          size_t elen)
{
	(void)e;
	(void)elen;
	if (stop)
		pe_of(vm, h)->stopped |= mask;
	else
		pe_of(vm, h)->stopped &= ~mask;
	return 0;
}

static void steady_run(struct hpm_emu_vm *vm, unsigned h, uint64_t cycles)
{
	struct pe *p = pe_of(vm, h);
	for (unsigned n = 0; n < NR_CTR; n++)
		if (!(p->stopped & (UINT32_C(1) << n)))
			p->ctr[n] += cycles * p->rate[n];
}

static uint64_t steady_read(struct hpm_emu_vm *vm, unsigned h, unsigned n, bool *wrapped)
{
	*wrapped = false;
	return pe_of(vm, h)->ctr[n];
}

static const char *steady_unproduced(const struct hpm_emu_vm *vm, const struct hpm_event_code *c,
                                     char *buf, size_t len)
{
	(void)vm;
	(void)buf;
	(void)len;
	(void)c;
	return NULL;
}

static const char *steady_describe(enum hpm_emu_step step, uint32_t mask, unsigned counter,
                                   uint64_t value, char *buf, size_t len)
{
	char cb[64];
	static const char *const words[] = {"STOP", "START", "SET", "NOEVENT", "ZERO", "ROTATE"};
	if (step == HPM_EMU_STEP_PROGRAM)
		snprintf(buf, len, "PMEVTYPER%u_EL0=0x%016" PRIx64, counter, value);
	else if (step == HPM_EMU_STEP_ROTATE)
		snprintf(buf, len, "ROTATE");
	else
		snprintf(buf, len, "%s %s", words[step],
		         hpm_emu_counters_str(mask, cb, sizeof(cb)));
	return buf;
}

static const struct hpm_emu_machine steady_machine = {
    .max_harts = 4,
    .default_profile = "steady",
    .create = steady_create,
    .free = steady_free,
    .set_event = steady_set_event,
    .zero = steady_zero,
    .inhibit = steady_inhibit,
    .run = steady_run,
    .read = steady_read,
    .unproduced = steady_unproduced,
    .describe = steady_describe,
};

static struct hpm_pmu_model steady_model;
/* The same model with no machine at all: what stat does with a model that
 * nothing here counts (stat/uncounted.c), now that every built-in model
 * has an emulator. */
static struct hpm_pmu_model bare_model;

int main(int argc, char **argv)
{
	const struct hpm_pmu_model *v2 = hpm_model_by_name("neoverse-v2");
	if (!v2) {
		fprintf(stderr, "arm-steady: no neoverse-v2 model\n");
		return EXIT_FAILURE;
	}
	/* the same operations and data (events, metrics): another name */
	steady_model = *v2;
	steady_model.name = "neoverse-v2-steady";
	steady_model.display = "Neoverse V2 (steady test machine)";
	steady_model.match_cpuid = NULL;
	bare_model = *v2;
	bare_model.name = "neoverse-v2-bare";
	bare_model.display = "Neoverse V2 (no machine)";
	bare_model.match_cpuid = NULL;
	if (hpm_model_register(&steady_model, &steady_machine) != 0 ||
	    hpm_model_register(&bare_model, NULL) != 0) {
		fprintf(stderr, "arm-steady: cannot register the model\n");
		return EXIT_FAILURE;
	}
	return hpmstat_main(argc, argv);
}
