/* test-models.c: the PMU-model registry and interface (registry/models.h,
 * arch/model.h): the validator over every registered model's data, lookups
 * by name and cpuid, the machines paired with the models, and Kunminghu's
 * instance against SPEC §1 and the golden values of tests/kmh (each with
 * the line it comes from), and the Arm cores' models (src/arm64/model.c)
 * against the Arm library they are built on. */
#include <stdio.h>
#include <string.h>

#include "arm64/arm64.h"
#include "registry/models.h"
#include "tap.h"

/* A model whose table lies about one code: the validator must say so. */
static const struct hpm_pmu_model *bad_model;
static int bad_encode(const struct hpm_pmu_model *m, const char *text, struct hpm_event_code *out,
                      struct hpm_diag *err)
{
	(void)m;
	(void)err;
	memset(out, 0, sizeof(*out));
	out->model = bad_model;
	out->value = strcmp(text, "two") == 0 ? 2 : 1;
	out->fixed = -1;
	snprintf(out->canonical, sizeof(out->canonical), "%s", text);
	return strcmp(text, "one") == 0 || strcmp(text, "two") == 0 ? 0 : HPM_MODEL_EUNKNOWN;
}
static unsigned bad_nr(const struct hpm_pmu_model *m)
{
	(void)m;
	return 2;
}
static void bad_at(const struct hpm_pmu_model *m, unsigned i, struct hpm_model_event *e)
{
	(void)m;
	memset(e, 0, sizeof(*e));
	e->name = i ? "two" : "one";
	e->topic = "t";
	e->code = 1; /* "two" encodes to 2 */
}
static int bad_mods(const struct hpm_pmu_model *m, const char *mods, unsigned *modes,
                    struct hpm_diag *err)
{
	(void)m;
	(void)mods;
	(void)err;
	*modes = 1;
	return 0;
}
static const char *bad_modes_str(const struct hpm_pmu_model *m, unsigned modes, char *buf,
                                 size_t len)
{
	(void)m;
	snprintf(buf, len, "%u", modes);
	return buf;
}

/* The Arm library's own answer for STALL_SLOT (0x003F in the Arm ARM's
 * list of common events), to hold the model to it. */
static bool stall_lookup(void *data, const char *name, uint16_t *number)
{
	(void)data;
	*number = 0x3f;
	return strcmp(name, "stall_slot") == 0;
}

static void test_arm(void)
{
	static const char *const cores[] = {"neoverse-n1", "neoverse-n2", "neoverse-v1",
	                                    "neoverse-v2"};
	struct hpm_diag merr;
	struct hpm_event_code c;
	for (unsigned i = 0; i < 4; i++) {
		const struct hpm_pmu_model *m = hpm_model_by_name(cores[i]);
		tap_ok(m && strcmp(m->arch, "arm64") == 0 && m->metrics && m->perf_attr &&
		           m->perf_driver && hpm_model_machine(m),
		       "%s: an arm64 model with metrics, a perf mapping and the Arm emulator's "
		       "machine",
		       cores[i]);
	}
	const struct hpm_pmu_model *v2 = hpm_model_by_name("neoverse-v2");
	struct hpm_event_code cc = {.model = v2,
	                            .fixed = hpm_model_fixed_by_name(v2, "pmccntr", 7)};
	tap_ok(hpm_model_fixed_is(&cc, "cycles") && !hpm_model_fixed_is(&cc, "instructions"),
	       "neoverse-v2: PMCCNTR_EL0 is perf's cycles");
	const struct hpm_pmu_model *n1 = hpm_model_by_name("neoverse-n1");
	/* perf's arm64 cpuid is MIDR_EL1; Variant [23:20] and Revision [3:0]
	 * do not matter (N1 r4p1: 0x414fd0c1, V2 r0p1: 0x410fd4f1) */
	tap_ok(hpm_model_for_cpuid("0x00000000414fd0c1") == n1,
	       "MIDR 0x414fd0c1 (Neoverse N1 r4p1) is neoverse-n1");
	tap_ok(hpm_model_for_cpuid("0x00000000410fd4f1") == v2 &&
	           hpm_model_for_cpuid("0x00000000412fd4f3") == v2,
	       "MIDRs 0x410fd4f1 and 0x412fd4f3 are neoverse-v2");
	tap_ok(hpm_model_for_cpuid("0x00000000410fd0d0") == NULL &&
	           hpm_model_for_cpuid("0x00000000420fd4f0") == NULL,
	       "another part number (0xd0d) or implementer (0x42) is no model");

	struct arm64_names nm = {stall_lookup, NULL, NULL};
	struct arm64_encoding enc;
	int lib = arm64_encode("stall_slot:th>=2", NULL, &nm, &enc, NULL);
	tap_ok(lib == 0 && enc.value == UINT64_C(0x800000020800003f),
	       "the library: stall_slot:th>=2 is TC=0b100 TH=2 NSH=1 evtCount=0x3f");
	tap_ok(v2->encode(v2, "stall_slot:th>=2", &c, &merr) == 0 && c.value == enc.value &&
	           c.model == v2 && c.constraint == 0 && c.fixed < 0 && c.modes == 7,
	       "neoverse-v2: stall_slot:th>=2 is the library's 0x%016llx, any counter, EL0-2",
	       (unsigned long long)enc.value);
	tap_ok(v2->encode(v2, "STALL_SLOT:u", &c, &merr) == 0 && c.modes == 1 && c.modes_given &&
	           (c.value >> 27 & 0x1f) == 0x10,
	       "STALL_SLOT:u counts EL0 only: P=1 U=0 NSH=0");
	int rc = v2->encode(v2, "stall_slott", &c, &merr);
	tap_ok(rc == HPM_MODEL_EUNKNOWN && merr.column == 1 && strstr(merr.msg, "STALL_SLOT"),
	       "an unknown Arm event is EUNKNOWN with the closest names: %s", merr.msg);
	rc = v2->encode(v2, "stall_slot:th>=70000", &c, &merr);
	tap_ok(rc == HPM_MODEL_EINVAL && merr.column > 1,
	       "a threshold too large is EINVAL at its column %u: %s", merr.column, merr.msg);
	char words[32];
	unsigned modes = 0;
	tap_ok(v2->parse_modifiers(v2, "uh", &modes, &merr) == 0 &&
	           strcmp(v2->modes_str(v2, modes, words, sizeof(words)), "EL0,EL2") == 0,
	       ":uh counts EL0 and EL2: %s", words);
	v2->encode(v2, "CPU_CYCLES", &c, &merr);
	v2->restrict_level(v2, &c, true);
	tap_ok(c.modes == 1 && (c.value >> 27 & 0x1f) == 0x10 &&
	           strcmp(c.canonical, "CPU_CYCLES:u") == 0,
	       "--all-user of CPU_CYCLES is CPU_CYCLES:u (%s)", c.canonical);
	const struct hpm_model_generic *g = hpm_model_generic(v2, "cycles", 6);
	tap_ok(g && !g->event && strcmp(v2->fixed[g->fixed].name, "pmccntr") == 0,
	       "cycles is the cycle counter PMCCNTR_EL0");
	struct hpm_model_decoded d;
	v2->decode(v2, UINT64_C(0x800000020800003f), 0, &d);
	tap_ok(d.exact && strcmp(d.expr, "STALL_SLOT:th>=2") == 0 &&
	           strstr(d.fields, "adds STALL_SLOT each cycle where STALL_SLOT >= 2"),
	       "decode gives the expression and the rule: %s", d.fields);
}

/* The machines' words for the programming steps (hpm_emu_describe() over
 * each machine's table), against the programming each machine's
 * comment states: Kunminghu's mcountinhibit (bit n: counter n; bit 1, the
 * time, is no counter), mhpmeventN and mhpmcounterN with mcycle (counter
 * 0) and minstret (2) by name; PMUv3's PMCNTENSET/CLR_EL0, PMEVTYPER<n>
 * and PMEVCNTR<n>, with counter 31 the cycle counter (PMCCFILTR_EL0,
 * PMCCNTR_EL0). */
static void test_describe(void)
{
	const struct hpm_emu_machine *k = hpm_model_machine(hpm_model_by_name("kunminghu"));
	const struct hpm_emu_machine *a = hpm_model_machine(hpm_model_by_name("neoverse-v2"));
	char b[256];
	uint32_t ctr3_5 = 0x38;

	tap_is_str(hpm_emu_describe(k, HPM_EMU_STEP_STOP, 0xffffffff, 0, 0, b, sizeof(b)),
	           "csrw mcountinhibit 0xfffffffd", "Kunminghu: stopping all is one csrw");
	tap_is_str(hpm_emu_describe(k, HPM_EMU_STEP_STOP, ctr3_5 | 1, 0, 0, b, sizeof(b)),
	           "csrs mcountinhibit 0x00000039", "... stopping some sets their bits");
	tap_is_str(hpm_emu_describe(k, HPM_EMU_STEP_START, ctr3_5 | 5, 0, 0, b, sizeof(b)),
	           "csrc mcountinhibit 0x0000003d", "... starting clears them");
	tap_is_str(
	    hpm_emu_describe(k, HPM_EMU_STEP_PROGRAM, 0, 11, 0x4000000000000035, b, sizeof(b)),
	    "csrw mhpmevent11 0x4000000000000035", "... an event select");
	tap_is_str(
	    hpm_emu_describe(k, HPM_EMU_STEP_NO_EVENT, ctr3_5 | 5 | 1u << 9, 0, 0, b, sizeof(b)),
	    "csrw mhpmeventN 0 for N = 3-5,9", "... no event: the programmable counters");
	tap_is_str(hpm_emu_describe(k, HPM_EMU_STEP_ZERO, ctr3_5 | 5, 0, 0, b, sizeof(b)),
	           "csrw mhpmcounterN 0 for N = 3-5; csrw mcycle 0; csrw minstret 0",
	           "... zeroing: programmable, then mcycle and minstret by name");
	tap_is_str(hpm_emu_describe(k, HPM_EMU_STEP_ZERO, 4, 0, 0, b, sizeof(b)), "csrw minstret 0",
	           "... zeroing minstret alone");

	tap_is_str(hpm_emu_describe(a, HPM_EMU_STEP_STOP, 0x80000003, 0, 0, b, sizeof(b)),
	           "msr PMCNTENCLR_EL0, 0x80000003", "Arm: stopping writes PMCNTENCLR_EL0");
	tap_is_str(hpm_emu_describe(a, HPM_EMU_STEP_START, 0x80000003, 0, 0, b, sizeof(b)),
	           "msr PMCNTENSET_EL0, 0x80000003", "... starting PMCNTENSET_EL0");
	tap_is_str(hpm_emu_describe(a, HPM_EMU_STEP_PROGRAM, 0, 4, 0x800003f, b, sizeof(b)),
	           "msr PMEVTYPER4_EL0, 0x000000000800003f", "... an event counter's PMEVTYPER4");
	tap_is_str(hpm_emu_describe(a, HPM_EMU_STEP_PROGRAM, 0, 31, 0x8000000, b, sizeof(b)),
	           "msr PMCCFILTR_EL0, 0x0000000008000000", "... the cycle counter's PMCCFILTR");
	tap_is_str(hpm_emu_describe(a, HPM_EMU_STEP_NO_EVENT, 0x80000016, 0, 0, b, sizeof(b)),
	           "msr PMEVTYPER<n>_EL0, 0 for n = 1-2,4", "... no event: event counters only");
	tap_is_str(hpm_emu_describe(a, HPM_EMU_STEP_ZERO, 0x8000003f, 0, 0, b, sizeof(b)),
	           "msr PMEVCNTR<n>_EL0, 0 for n = 0-5; msr PMCCNTR_EL0, 0",
	           "... zeroing: event counters, then PMCCNTR_EL0");
	tap_is_str(hpm_emu_describe(a, HPM_EMU_STEP_ZERO, 0x80000000, 0, 0, b, sizeof(b)),
	           "msr PMCCNTR_EL0, 0", "... zeroing the cycle counter alone");
	tap_ok(strstr(hpm_emu_describe(a, HPM_EMU_STEP_ROTATE, 0, 0, 0, b, sizeof(b)),
	              "msr PMCNTENCLR_EL0 (the counters that change)") == b &&
	           strstr(hpm_emu_describe(k, HPM_EMU_STEP_ROTATE, 0, 0, 0, b, sizeof(b)),
	                  "csrs mcountinhibit (the counters that change)") == b,
	       "... a rotation in each machine's words");
	/* a buffer too short for the whole line: cut, terminated, no overrun */
	char small[12];
	tap_is_str(hpm_emu_describe(k, HPM_EMU_STEP_ZERO, ctr3_5 | 5, 0, 0, small, sizeof(small)),
	           "csrw mhpmco", "a short buffer gets the line's start");
}

int main(void)
{
	char err[400];
	struct hpm_diag merr;
	struct hpm_event_code c, s;

	tap_ok(hpm_model_count() >= 1, "at least one model is registered (%u)", hpm_model_count());
	for (unsigned i = 0; i < hpm_model_count(); i++) {
		const struct hpm_pmu_model *m = hpm_model_at(i);
		unsigned n = hpm_model_validate(m, err, sizeof(err));
		tap_ok(n == 0,
		       "model '%s': its %u events, fixed counters and generic names validate",
		       m->name, m->nr_events(m));
		if (n)
			tap_diag("%u problems, the first: %s", n, err);
		tap_ok(hpm_model_by_name(m->name) == m, "'%s' is found by its name", m->name);
	}
	tap_ok(hpm_model_at(hpm_model_count()) == NULL && hpm_model_by_name("nosuch") == NULL,
	       "an index or a name beyond the table finds nothing");
	const struct hpm_pmu_model *km = hpm_model_by_name("kunminghu");
	const struct hpm_emu_machine *mach = hpm_model_machine(km);
	tap_ok(mach && mach->create && mach->run && mach->max_harts >= 1,
	       "Kunminghu comes with its emulated machine");
	tap_ok(hpm_model_machine(NULL) == NULL && hpm_model_register(km, NULL) == -1,
	       "no machine for no model; a second 'kunminghu' is refused");
	test_describe();

	struct hpm_pmu_model bad = {.name = "bad",
	                            .encode = bad_encode,
	                            .nr_events = bad_nr,
	                            .event_at = bad_at,
	                            .parse_modifiers = bad_mods,
	                            .modes_str = bad_modes_str};
	bad_model = &bad;
	tap_ok(hpm_model_validate(&bad, err, sizeof(err)) == 1 &&
	           strcmp(err, "event 'two' encodes to 0x2, not its table code") == 0,
	       "the validator finds a table code that does not match the encoder: %s", err);
	struct hpm_pmu_model half = {.name = "half"};
	tap_ok(hpm_model_validate(&half, err, sizeof(err)) == 1 && strstr(err, "missing"),
	       "a model without its operations is refused: %s", err);

	/* Kunminghu: mapfile.csv's cpuid (marchid 0x19), SPEC §1 */
	const struct hpm_pmu_model *k = hpm_model_for_cpuid("0x0-0x19-0x0");
	tap_ok(k && strcmp(k->name, "kunminghu") == 0, "cpuid 0x0-0x19-0x0 is Kunminghu");
	tap_ok(hpm_model_for_cpuid("0x0-0x0-0x0") == NULL && hpm_model_for_cpuid(NULL) == NULL,
	       "QEMU's own cpuid (marchid 0) is no model");
	if (!k)
		return tap_done();
	tap_ok(k->encode(k, "rob_commitInstr", &c, &merr) == 0 && c.model == k &&
	           c.value == UINT64_C(0x4000000000000035) &&
	           strcmp(k->constraint_name(k, c.constraint), "backend") == 0 && c.fixed == -1,
	       "rob_commitInstr: backend 53 with MINH, 0x4000000000000035 (SPEC §3 table)");
	tap_ok(k->encode(k, "nosuchevent", &c, &merr) == HPM_MODEL_EUNKNOWN,
	       "an unknown name is EUNKNOWN, so the caller may try host events: %s", merr.msg);
	tap_ok(k->encode(k, "rob_commitInstr &", &c, &merr) == HPM_MODEL_ESYNTAX &&
	           merr.column == 17,
	       "text that is not its syntax is ESYNTAX, with a column: %s", merr.msg);
	struct hpm_event_code u;
	k->encode(k, "ifu_req & ifu_miss", &c, &merr);
	k->restrict_level(k, &c, true);
	k->encode(k, "ifu_req & ifu_miss:u", &u, &merr);
	tap_ok(c.value == u.value && c.modes == u.modes,
	       "--all-user of ifu_req & ifu_miss is ifu_req & ifu_miss:u (0x%llx)",
	       (unsigned long long)c.value);
	tap_ok(k->encode(k, "rob_commitInstr:q", &c, &merr) == HPM_MODEL_EINVAL,
	       "a bad modifier on a known name is EINVAL: %s", merr.msg);
	struct hpm_event_code a, b;
	k->encode(k, "INST_SPEC", &a, &merr);
	k->encode(k, "RECOVERY_BUBBLE", &b, &merr);
	/* tests/backend/test-perf-attr.c: INST_SPEC + RECOVERY_BUBBLE is
	 * 0x40000002007 below the INH bits */
	bool merged = k->merge(k, &a, &b, &s);
	tap_ok(merged && s.value == UINT64_C(0x4000040000002007) && s.nr_events == 2,
	       "INST_SPEC and RECOVERY_BUBBLE merge into one ADD counter: 0x%llx",
	       (unsigned long long)s.value);
	k->encode(k, "Front_Bubble", &b, &merr);
	tap_ok(!k->merge(k, &a, &b, NULL),
	       "events of two banks never merge (a counter sees one bank)");
	tap_ok(!k->merge(k, &a, &a, NULL),
	       "an event does not merge with itself (it shares instead)");
	int f = hpm_model_fixed_by_name(k, "minstret:u", 8);
	tap_ok(f >= 0 && k->fixed[f].counter == 2, "minstret is fixed counter 2 (SPEC §2: 0xB02)");
	tap_ok(hpm_model_fixed_by_name(k, "mcycles", 7) == -1, "mcycles is not a fixed counter");
	/* what the layers above ask of a fixed counter, not its index */
	struct hpm_event_code fx = {.model = k, .fixed = f};
	tap_ok(hpm_model_fixed_is(&fx, "instructions") && !hpm_model_fixed_is(&fx, "cycles"),
	       "minstret is perf's instructions, not cycles");
	fx.fixed = hpm_model_fixed_by_name(k, "mcycle", 6);
	tap_ok(hpm_model_fixed_is(&fx, "cycles") && !hpm_model_fixed_is(&fx, "instructions"),
	       "mcycle is perf's cycles, not instructions");
	fx.fixed = -1;
	tap_ok(!hpm_model_fixed_is(&fx, "cycles") && !hpm_model_fixed_is(&a, "instructions"),
	       "a programmable event is no fixed counter");
	const struct hpm_model_generic *g = hpm_model_generic(k, "branch-misses", 13);
	tap_ok(g && g->event && strcmp(g->event, "BpWrong") == 0,
	       "the emulator counts branch-misses as BpWrong");
	g = hpm_model_generic(k, "cycles:u", 6);
	tap_ok(g && !g->event && strcmp(k->fixed[g->fixed].name, "mcycle") == 0,
	       "cycles is mcycle on the emulator");
	char words[32];
	unsigned modes = 0;
	tap_ok(k->parse_modifiers(k, "u", &modes, &merr) == 0 &&
	           strcmp(k->modes_str(k, modes, words, sizeof(words)), "U,VU") == 0,
	       ":u counts U and VU (SPEC §1 modifier table): %s", words);
	test_arm();
	return tap_done();
}
