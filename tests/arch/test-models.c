/* test-models.c: the PMU-model registry and interface (core/models.h,
 * arch/model.h): the validator over every registered model's data, lookups
 * by name and cpuid, the machines paired with the models, and Kunminghu's
 * instance against SPEC §1 and the golden values of tests/kmh (each with
 * the line it comes from). */
#include <stdio.h>
#include <string.h>

#include "core/models.h"
#include "tap.h"

/* A model whose table lies about one code: the validator must say so. */
static const struct hpm_pmu_model *bad_model;
static int bad_encode(const struct hpm_pmu_model *m, const char *text, struct hpm_event_code *out,
                      struct hpm_model_error *err)
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
static int bad_mods(const char *m, unsigned *modes, struct hpm_model_error *err)
{
	(void)m;
	(void)err;
	*modes = 1;
	return 0;
}
static const char *bad_modes_str(unsigned modes, char *buf, size_t len)
{
	snprintf(buf, len, "%u", modes);
	return buf;
}

int main(void)
{
	char err[400];
	struct hpm_model_error merr;
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
	           strcmp(k->constraint_name(c.constraint), "backend") == 0 && c.fixed == -1,
	       "rob_commitInstr: backend 53 with MINH, 0x4000000000000035 (SPEC §3 table)");
	tap_ok(k->encode(k, "nosuchevent", &c, &merr) == HPM_MODEL_EUNKNOWN,
	       "an unknown name is EUNKNOWN, so the caller may try host events: %s", merr.msg);
	tap_ok(k->encode(k, "rob_commitInstr &", &c, &merr) == HPM_MODEL_ESYNTAX && merr.pos == 16,
	       "text that is not its syntax is ESYNTAX, with a column: %s", merr.msg);
	struct hpm_event_code u;
	k->encode(k, "ifu_req & ifu_miss", &c, &merr);
	k->restrict_level(&c, true);
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
	bool merged = k->merge(&a, &b, &s);
	tap_ok(merged && s.value == UINT64_C(0x4000040000002007) && s.nr_events == 2,
	       "INST_SPEC and RECOVERY_BUBBLE merge into one ADD counter: 0x%llx",
	       (unsigned long long)s.value);
	k->encode(k, "Front_Bubble", &b, &merr);
	tap_ok(!k->merge(&a, &b, NULL),
	       "events of two banks never merge (a counter sees one bank)");
	tap_ok(!k->merge(&a, &a, NULL), "an event does not merge with itself (it shares instead)");
	int f = hpm_model_fixed_by_name(k, "minstret:u", 8);
	tap_ok(f >= 0 && k->fixed[f].counter == 2, "minstret is fixed counter 2 (SPEC §2: 0xB02)");
	tap_ok(hpm_model_fixed_by_name(k, "mcycles", 7) == -1, "mcycles is not a fixed counter");
	const struct hpm_model_generic *g = hpm_model_generic(k, "branch-misses", 13);
	tap_ok(g && g->event && strcmp(g->event, "BpWrong") == 0,
	       "the emulator counts branch-misses as BpWrong");
	g = hpm_model_generic(k, "cycles:u", 6);
	tap_ok(g && !g->event && strcmp(k->fixed[g->fixed].name, "mcycle") == 0,
	       "cycles is mcycle on the emulator");
	char words[32];
	unsigned modes = 0;
	tap_ok(k->parse_modifiers("u", &modes, &merr) == 0 &&
	           strcmp(k->modes_str(modes, words, sizeof(words)), "U,VU") == 0,
	       ":u counts U and VU (SPEC §1 modifier table): %s", words);
	return tap_done();
}
