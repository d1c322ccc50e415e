/* toy.c: the throwaway model and machine of toy.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toy/toy.h"

/* ------------------------------------------------------------- the model */

#define TOY_NR_EVENTS 5u
#define TOY_MODE_U    1u

static const struct hpm_model_fixed toy_fixed[] = {
    {"ticks", "Cycles", "toy:0", 0, "cycles", NULL},
};

/* perf's cycles and instructions as the toy's machine counts them: an
 * "instruction" is ev1, one a cycle, so the toy's IPC is exactly 1 */
static const struct hpm_model_generic toy_generic[] = {
    {"cycles", NULL, 0},
    {"instructions", "ev1", -1},
};

/* "evK", "evK:u", "rHEX" */
static int toy_encode(const struct hpm_pmu_model *m, const char *text, struct hpm_event_code *out,
                      struct hpm_diag *err)
{
	(void)m;
	const char *colon = strchr(text, ':');
	size_t n = colon ? (size_t)(colon - text) : strlen(text);
	memset(out, 0, sizeof(*out));
	out->model = &toy_model;
	out->fixed = -1;
	out->constraint = 0;
	out->nr_events = 1;
	out->modes = TOY_MODE_U;
	if (colon) {
		if (strcmp(colon + 1, "u") != 0) {
			hpm_diag_fail(err, HPM_MODEL_EINVAL, (int)n + 1, "%s",
			              "the toy counts in mode u only");
			return HPM_MODEL_EINVAL;
		}
		out->modes_given = true;
	}
	char *end;
	if (n > 1 && text[0] == 'r') {
		unsigned long long v = strtoull(text + 1, &end, 16);
		if ((size_t)(end - text) == n) {
			out->value = v;
			out->raw = true;
			out->constraint = -1;
			snprintf(out->canonical, sizeof(out->canonical), "r%llx", v);
			return 0;
		}
	}
	if (n == 3 && text[0] == 'e' && text[1] == 'v' && text[2] >= '1' &&
	    text[2] <= '0' + (int)TOY_NR_EVENTS) {
		out->value = (uint64_t)(text[2] - '0');
		snprintf(out->canonical, sizeof(out->canonical), "ev%c", text[2]);
		return 0;
	}
	hpm_diag_fail(err, HPM_MODEL_EUNKNOWN, 0, "%s", "no toy event of that name");
	return HPM_MODEL_EUNKNOWN;
}

static const char *const toy_names[TOY_NR_EVENTS] = {"ev1", "ev2", "ev3", "ev4", "ev5"};

static unsigned toy_suggest(const struct hpm_pmu_model *m, const char *name, const char **out,
                            unsigned max)
{
	(void)m;
	unsigned n = 0;
	for (unsigned i = 0; i < TOY_NR_EVENTS && n < max; i++)
		if (strncmp(name, "ev", 2) == 0)
			out[n++] = toy_names[i];
	return n;
}

static unsigned toy_nr_events(const struct hpm_pmu_model *m)
{
	(void)m;
	return TOY_NR_EVENTS;
}

static void toy_event_at(const struct hpm_pmu_model *m, unsigned i, struct hpm_model_event *out)
{
	(void)m;
	memset(out, 0, sizeof(*out));
	out->name = toy_names[i];
	out->topic = "pool";
	out->brief = "K per cycle";
	out->description = "Counts K each cycle (evK)";
	out->code = i + 1;
	out->constraint = 0;
	snprintf(out->where, sizeof(out->where), "pool:%u", i + 1);
	snprintf(out->encoding, sizeof(out->encoding), "0x%x", i + 1);
}

static void toy_event_json(const struct hpm_pmu_model *m, unsigned i, struct json_t *obj,
                           bool after_description)
{
	(void)m;
	(void)i, (void)obj, (void)after_description;
}

static void toy_decode(const struct hpm_pmu_model *m, uint64_t value, int constraint,
                       struct hpm_model_decoded *out)
{
	(void)m;
	(void)constraint;
	memset(out, 0, sizeof(*out));
	out->value = value;
	out->exact = true;
	if (value >= 1 && value <= TOY_NR_EVENTS)
		snprintf(out->expr, sizeof(out->expr), "ev%u", (unsigned)value);
	else
		snprintf(out->expr, sizeof(out->expr), "r%llx", (unsigned long long)value);
	snprintf(out->fields, sizeof(out->fields), "EVENT=%llu", (unsigned long long)value);
}

static struct json_t *toy_decode_json(const struct hpm_pmu_model *m, uint64_t value, int constraint)
{
	(void)m, (void)value, (void)constraint;
	return NULL;
}

static int toy_parse_modifiers(const struct hpm_pmu_model *m, const char *mods, unsigned *modes,
                               struct hpm_diag *err)
{
	(void)m;
	if (strcmp(mods, "u") == 0) {
		*modes = TOY_MODE_U;
		return 0;
	}
	hpm_diag_fail(err, HPM_MODEL_EINVAL, 0, "%s", "the toy counts in mode u only");
	return HPM_MODEL_EINVAL;
}

static const char *toy_modes_str(const struct hpm_pmu_model *m, unsigned modes, char *buf,
                                 size_t len)
{
	(void)m;
	snprintf(buf, len, "%s", modes & TOY_MODE_U ? "U" : "none");
	return buf;
}

static void toy_restrict_level(const struct hpm_pmu_model *m, struct hpm_event_code *c, bool user)
{
	(void)m;
	c->modes = user ? TOY_MODE_U : 0;
	c->modes_given = true;
}

static const char *toy_constraint_name(const struct hpm_pmu_model *m, int c)
{
	(void)m;
	return c == 0 ? "pool" : NULL;
}

static void toy_constraint_counters(const struct hpm_pmu_model *m, int c, unsigned *first,
                                    unsigned *last)
{
	(void)m, (void)c;
	*first = 1;
	*last = 2;
}

static int toy_constraint_of_counter(const struct hpm_pmu_model *m, unsigned n)
{
	(void)m;
	return n == 1 || n == 2 ? 0 : -1;
}

static bool toy_merge(const struct hpm_pmu_model *m, const struct hpm_event_code *a,
                      const struct hpm_event_code *b, struct hpm_event_code *sum)
{
	(void)m, (void)a, (void)b, (void)sum;
	return false;
}

const struct hpm_pmu_model toy_model = {
    .name = "toy",
    .display = "Toy",
    .description = "a throwaway model of the tests",
    .arch = "none",
    .encode = toy_encode,
    .suggest = toy_suggest,
    .nr_events = toy_nr_events,
    .event_at = toy_event_at,
    .event_json = toy_event_json,
    .decode = toy_decode,
    .decode_json = toy_decode_json,
    .parse_modifiers = toy_parse_modifiers,
    .modes_str = toy_modes_str,
    .restrict_level = toy_restrict_level,
    .modes_default = TOY_MODE_U,
    .modes_all = TOY_MODE_U,
    .fixed = toy_fixed,
    .nr_fixed = 1,
    .counters = {"pool", "ctr", 1, 2},
    .nr_constraints = 1,
    .constraint_name = toy_constraint_name,
    .constraint_counters = toy_constraint_counters,
    .constraint_of_counter = toy_constraint_of_counter,
    .merge = toy_merge,
    .generic = toy_generic,
    .nr_generic = sizeof(toy_generic) / sizeof(toy_generic[0]),
};

/* ----------------------------------------------------------- the machine */

struct toy_hart {
	uint64_t ctr[3];
	uint64_t event[3];
	uint32_t stopped;
};

struct toy_vm {
	struct hpm_emu_vm base;
	struct toy_hart *h;
};

static int toy_create(const struct hpm_emu_vm_config *cfg, struct hpm_emu_vm **out, char *e,
                      size_t elen)
{
	*out = NULL;
	if (cfg->trace) {
		snprintf(e, elen, "%s: the toy replays no traces", cfg->trace);
		return HPM_EMU_ETRACE;
	}
	if (cfg->profile && strcmp(cfg->profile, "steady") != 0) {
		snprintf(e, elen, "unknown profile '%s' (known: steady)", cfg->profile);
		return HPM_EMU_EPROFILE;
	}
	struct toy_vm *vm = calloc(1, sizeof(*vm));
	vm->h = calloc(cfg->harts, sizeof(*vm->h));
	for (unsigned i = 0; i < cfg->harts; i++)
		vm->h[i].stopped = 7;
	vm->base.harts = cfg->harts;
	vm->base.profile = "steady";
	*out = &vm->base;
	return 0;
}

static void toy_free(struct hpm_emu_vm *base)
{
	struct toy_vm *vm = (struct toy_vm *)base;
	free(vm->h);
	free(vm);
}

static struct toy_hart *hart(struct hpm_emu_vm *base, unsigned h)
{
	return &((struct toy_vm *)base)->h[h];
}

static int toy_set_event(struct hpm_emu_vm *vm, unsigned h, unsigned n, bool used, uint64_t value,
                         char *e, size_t elen)
{
	if (n < 1 || n > 2) {
		snprintf(e, elen, "toy: counter %u is not programmable", n);
		return -1;
	}
	hart(vm, h)->event[n] = used ? value : 0;
	return 0;
}

static int toy_zero(struct hpm_emu_vm *vm, unsigned h, uint32_t mask, char *e, size_t elen)
{
	if (mask & ~UINT32_C(7)) {
		snprintf(e, elen, "toy: no counters 0x%" PRIx32, mask & ~UINT32_C(7));
		return -1;
	}
	for (unsigned n = 0; n < 3; n++)
		if (mask & (UINT32_C(1) << n))
			hart(vm, h)->ctr[n] = 0;
	return 0;
}

static int toy_inhibit(struct hpm_emu_vm *vm, unsigned h, uint32_t mask, bool stop, char *e,
                       size_t elen)
{
	(void)e;
	(void)elen;
	if (stop)
		hart(vm, h)->stopped |= mask;
	else
		hart(vm, h)->stopped &= ~mask;
	return 0;
}

static void toy_run(struct hpm_emu_vm *vm, unsigned h, uint64_t cycles)
{
	struct toy_hart *t = hart(vm, h);
	for (unsigned n = 0; n < 3; n++) {
		if (t->stopped & (UINT32_C(1) << n))
			continue;
		uint64_t rate = n == 0 ? 1 : t->event[n] == 5 ? 0 : t->event[n];
		t->ctr[n] += cycles * rate;
	}
}

static uint64_t toy_read(struct hpm_emu_vm *vm, unsigned h, unsigned n, bool *wrapped)
{
	*wrapped = false;
	return hart(vm, h)->ctr[n];
}

static const char *toy_unproduced(const struct hpm_emu_vm *vm, const struct hpm_event_code *c,
                                  char *buf, size_t len)
{
	(void)vm;
	if (c->value != 5)
		return NULL;
	snprintf(buf, len, "pool:ev5");
	return buf;
}

static const char *toy_describe(enum hpm_emu_step step, uint32_t mask, unsigned counter,
                                uint64_t value, char *buf, size_t len)
{
	char cb[64];
	static const char *const words[] = {"STOP", "START", "SET", "NOEVENT", "ZERO", "ROTATE"};
	if (step == HPM_EMU_STEP_PROGRAM)
		snprintf(buf, len, "SET ctr%u=%" PRIu64, counter, value);
	else if (step == HPM_EMU_STEP_ROTATE)
		snprintf(buf, len, "ROTATE");
	else
		snprintf(buf, len, "%s %s", words[step],
		         hpm_emu_counters_str(mask, cb, sizeof(cb)));
	return buf;
}

const struct hpm_emu_machine toy_machine = {
    .max_harts = 4,
    .default_profile = "steady",
    .create = toy_create,
    .free = toy_free,
    .set_event = toy_set_event,
    .zero = toy_zero,
    .inhibit = toy_inhibit,
    .run = toy_run,
    .read = toy_read,
    .unproduced = toy_unproduced,
    .describe = toy_describe,
};
