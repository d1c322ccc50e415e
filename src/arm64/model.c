/* model.c: the Arm cores of events/arm64 as PMU models (arch/model.h).
 *
 * One set of static operations serves every core: a model's data names
 * its core (struct arm_model), whose generated event table (events-gen.c)
 * gives the names for arm64_encode and arm64_decode, and whose metric
 * table metrics2c made from the core's metrics.json. An event is one
 * PMEVTYPER<n>_EL0 value; every event counter (PMEVCNTR0-5 on these cores,
 * PMCR_EL0.N in general) takes any event, so there is one constraint
 * class. The modes are the exception levels the filter bits leave counted
 * (EL0, EL1, EL2), perf's letters u, k, h as Linux's arm_pmuv3 driver maps
 * them (expr.c says how).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "arch/model.h"
#include "arm64/arm64.h"
#include "arm64/events.h"
#include "arm64/features.h"
#include "arm64/model.h"
#include "arm64/perf-attr.h"
#include "metric/metric.h"
#include "util/suggest.h"

/* the exception levels as mode bits */
enum { ARM_EL0 = 1u << 0, ARM_EL1 = 1u << 1, ARM_EL2 = 1u << 2, ARM_ELS = 7u };

/* the PMEVTYPER filter bits the letters set */
#define ARM_BIT_P   (UINT64_C(1) << 31)
#define ARM_BIT_U   (UINT64_C(1) << 30)
#define ARM_BIT_NSH (UINT64_C(1) << 27)

/* CPU_CYCLES, and the index of PMCCNTR_EL0 in fixed[] */
#define ARM_CPU_CYCLES    0x11
#define ARM_FIXED_PMCCNTR 0

/* The event counters of a Neoverse core: PMCR_EL0.N is 6 on N1, N2, V1
 * and V2. */
#define ARM_FIRST_COUNTER 0
#define ARM_LAST_COUNTER  5

struct arm_model {
	const char *core; /* arm64_cores[].name; NULL: the architecture */
	/* The MIDR_EL1 revisions the model stands for, Variant [23:20] and
	 * Revision [3:0] as one number (variant << 4 | revision), first to
	 * last: two models of one core split it where Arm's formulas change
	 * (N2 r0p0-r0p2 and r0p3 on). */
	unsigned rev_first, rev_last;
};

/* The architecture as a core: every standard event (the shared files of
 * events/arm64), no MIDR. */
static const struct arm64_core *arch_core(void)
{
	static struct arm64_core arch;
	if (!arch.events)
		arch = (struct arm64_core){"arm64", "", 0, arm64_std_events, arm64_nr_std_events};
	return &arch;
}

static const struct arm64_core *core_of(const struct hpm_pmu_model *m)
{
	const struct arm_model *am = m->data;
	if (!am->core)
		return arch_core();
	for (unsigned i = 0; i < arm64_nr_cores; i++)
		if (strcmp(arm64_cores[i].name, am->core) == 0)
			return &arm64_cores[i];
	return NULL;
}

/* What the core has: its feature profile, the one its emulator implements
 * (arm64/features.h), so that encode and decode refuse and flag the fields
 * it has not got (a threshold on N1, an edge on V2) as the emulator drops
 * them; the counter is not known. */
static struct arm64_ctx core_ctx(const struct hpm_pmu_model *m)
{
	const struct arm_model *am = m->data;
	const struct arm_emu_features *f = am->core ? arm_emu_features_find(am->core) : NULL;
	/* the architecture: every field of the newest PMUv3 (every core has a
	 * profile: tests/arch checks it) */
	if (!f) {
		struct arm64_ctx any = ARM64_CTX_ANY;
		any.core = m->display;
		return any;
	}
	return arm_emu_features_ctx(f, -1, m->display);
}

/* ------------------------------------------------ names of the core */

static bool lookup(void *data, const char *name, uint16_t *number)
{
	const struct arm64_core *c = data;
	for (unsigned i = 0; i < c->nr_events; i++)
		if (strcasecmp(arm64_str(c->events[i].name), name) == 0) {
			*number = c->events[i].code;
			return true;
		}
	return false;
}

static const char *name_of(void *data, uint16_t number)
{
	const struct arm64_core *c = data;
	for (unsigned i = 0; i < c->nr_events; i++)
		if (c->events[i].code == number)
			return arm64_str(c->events[i].name);
	return NULL;
}

static struct arm64_names names_of(const struct arm64_core *c)
{
	return (struct arm64_names){lookup, name_of, (void *)(uintptr_t)c};
}

/* ------------------------------------------------ detection */

/* perf's arm64 cpuid is MIDR_EL1 in hex ("0x00000000410fd4f1"); its
 * mapfile matching ignores Variant [23:20] and Revision [3:0], which pick
 * among the models of one core (as perf's metrics ask strcmp_cpuid_str). */
static bool match_cpuid(const struct hpm_pmu_model *m, const char *cpuid)
{
	const struct arm64_core *c = core_of(m);
	const struct arm_model *am = m->data;
	const uint64_t mask = ~(UINT64_C(0xf) << 20 | UINT64_C(0xf));
	unsigned long long midr;
	char *end;
	if (!c || !cpuid || strncasecmp(cpuid, "0x", 2) != 0 || !isxdigit((unsigned char)cpuid[2]))
		return false;
	midr = strtoull(cpuid, &end, 16);
	if (*end || ((uint64_t)midr & mask) != (c->midr & mask))
		return false;
	unsigned rev = (unsigned)((midr >> 20 & 0xf) << 4 | (midr & 0xf));
	return rev >= am->rev_first && rev <= am->rev_last;
}

/* ------------------------------------------------ events */

static unsigned modes_of(uint64_t value)
{
	unsigned modes = 0;
	if (!(value & ARM_BIT_U))
		modes |= ARM_EL0;
	if (!(value & ARM_BIT_P))
		modes |= ARM_EL1;
	if (value & ARM_BIT_NSH)
		modes |= ARM_EL2;
	return modes;
}

static unsigned suggest(const struct hpm_pmu_model *m, const char *name, const char **out,
                        unsigned max)
{
	const struct arm64_core *c = core_of(m);
	struct suggest sg;
	size_t len = strlen(name);
	/* a suggestion further away than about a third of the name is noise */
	suggest_init(&sg, name, len, (unsigned)(len / 3 + 1), true, out, max);
	for (unsigned i = 0; c && i < c->nr_events; i++)
		suggest_offer(&sg, arm64_str(c->events[i].name));
	return sg.n;
}

/* An event of the architecture that this core does not have (STALL_SLOT
 * on Neoverse N1) is a different mistake from a misspelt name: say which
 * cores have it. Writes " (NAME is an event of CORE, ...; not of DISPLAY)"
 * and returns true when some other core knows the name. */
static bool other_cores_hint(const struct hpm_pmu_model *m, const char *name, char *out,
                             size_t size)
{
	const struct arm64_core *self = core_of(m);
	const struct arm64_core *have[8];
	const char *canonical = NULL;
	unsigned nh = 0;
	for (unsigned i = 0; i < arm64_nr_cores && nh < 8; i++) {
		const struct arm64_core *c = &arm64_cores[i];
		if (c == self)
			continue;
		for (unsigned j = 0; j < c->nr_events; j++)
			if (strcasecmp(arm64_str(c->events[j].name), name) == 0) {
				canonical = arm64_str(c->events[j].name);
				have[nh++] = c;
				break;
			}
	}
	if (!nh) { /* in the Arm ARM's lists (LDST_SPEC), in no core's */
		for (unsigned j = 0; j < arm64_nr_std_events; j++)
			if (self->midr &&
			    strcasecmp(arm64_str(arm64_std_events[j].name), name) == 0) {
				snprintf(out, size,
				         " (%s is an event of the Arm architecture (--arch arm64), "
				         "not of %s)",
				         arm64_str(arm64_std_events[j].name), m->display);
				return true;
			}
		return false;
	}
	size_t off = (size_t)snprintf(out, size, " (%s is an event of ", canonical);
	for (unsigned i = 0; i < nh && off < size; i++)
		off += (size_t)snprintf(out + off, size - off, "%s%s",
		                        i == 0        ? ""
		                        : i + 1 == nh ? " and "
		                                      : ", ",
		                        have[i]->name);
	if (off < size)
		snprintf(out + off, size - off, ", not of %s)", m->display);
	return true;
}

/* The closest names after the library's "unknown event 'NAME'", as the
 * Kunminghu model gives them. */
static void add_suggestions(const struct hpm_pmu_model *m, const char *text, int pos,
                            struct hpm_diag *err)
{
	char name[96];
	size_t n = 0;
	if (pos < 0 || (size_t)pos > strlen(text))
		return;
	for (const char *p = text + pos;
	     (isalnum((unsigned char)*p) || *p == '_') && n + 1 < sizeof(name); p++)
		name[n++] = *p;
	name[n] = '\0';
	const char *sugg[3];
	unsigned k = n ? suggest(m, name, sugg, 3) : 0;
	size_t off = strlen(err->msg);
	if (n && other_cores_hint(m, name, err->msg + off, sizeof(err->msg) - off))
		return;
	if (!k) {
		snprintf(err->msg + off, sizeof(err->msg) - off, " (see 'hpmstat list --pmu %s')",
		         m->name);
		return;
	}
	off += (size_t)snprintf(err->msg + off, sizeof(err->msg) - off, " (did you mean ");
	for (unsigned i = 0; i < k && off < sizeof(err->msg); i++)
		off += (size_t)snprintf(err->msg + off, sizeof(err->msg) - off, "%s%s",
		                        i ? ", " : "", sugg[i]);
	if (off < sizeof(err->msg))
		snprintf(err->msg + off, sizeof(err->msg) - off, "?)");
}

static int encode(const struct hpm_pmu_model *m, const char *text, struct hpm_event_code *out,
                  struct hpm_diag *err)
{
	const struct arm64_core *c = core_of(m);
	struct arm64_names nm = names_of(c);
	struct arm64_encoding enc;
	struct arm64_ctx ctx = core_ctx(m);
	if (arm64_encode(text, &ctx, &nm, &enc, err) != 0) {
		/* a name it does not know, or text that is not its syntax at
		 * all, may be another namespace's (a host event) */
		bool unknown = err->code == ARM64_EUNKNOWN;
		err->code = unknown ? HPM_MODEL_EUNKNOWN
		            : err->code == ARM64_ESYNTAX || err->code == ARM64_EEMPTY
		                ? HPM_MODEL_ESYNTAX
		                : HPM_MODEL_EINVAL;
		if (unknown)
			add_suggestions(m, text, hpm_diag_offset(err), err);
		return err->code;
	}
	memset(out, 0, sizeof(*out));
	out->model = m;
	out->value = enc.value;
	out->constraint = 0; /* every event counter takes every event */
	out->fixed = -1;
	out->modes = modes_of(enc.value);
	out->modes_given = enc.modes_given;
	out->raw = enc.raw;
	out->nr_events = 1;
	snprintf(out->canonical, sizeof(out->canonical), "%s", enc.canonical);
	return 0;
}

static unsigned nr_events(const struct hpm_pmu_model *m)
{
	const struct arm64_core *c = core_of(m);
	return c ? c->nr_events : 0;
}

static void event_at(const struct hpm_pmu_model *m, unsigned i, struct hpm_model_event *out)
{
	const struct arm64_core *c = core_of(m);
	memset(out, 0, sizeof(*out));
	out->constraint = -1;
	if (!c || i >= c->nr_events)
		return;
	const struct arm64_event *e = &c->events[i];
	out->name = arm64_str(e->name);
	out->topic = arm64_str(e->topic);
	out->brief = arm64_str(e->brief);
	out->description = arm64_str(e->description);
	/* what the name encodes to without letters: every level (NSH=1) */
	out->code = e->code | ARM_BIT_NSH;
	out->constraint = 0;
	snprintf(out->where, sizeof(out->where), "%s:0x%x", arm64_str(e->topic), e->code);
	snprintf(out->encoding, sizeof(out->encoding), "0x%x", e->code);
}

static void event_json(const struct hpm_pmu_model *m, unsigned i, struct json_t *obj,
                       bool after_description)
{
	const struct arm64_core *c = core_of(m);
	if (after_description || !c || i >= c->nr_events)
		return;
	char hex[16];
	snprintf(hex, sizeof(hex), "0x%x", c->events[i].code);
	json_object_set_new(obj, "code", json_string(hex));
}

/* ------------------------------------------------ decoding */

static void decode_value(const struct hpm_pmu_model *m, uint64_t value, struct arm64_decoded *d)
{
	const struct arm64_core *c = core_of(m);
	struct arm64_names nm = names_of(c);
	struct arm64_ctx ctx = core_ctx(m);
	arm64_decode(value, &ctx, &nm, d);
}

/* Whether the core implements all of field f's bits that d sets. */
static bool field_implemented(const struct arm64_decoded *d, unsigned f)
{
	const struct arm64_pf_desc *pf = &arm64_pf_desc[f];
	uint64_t bits = (uint64_t)d->t.f[f] << pf->lo;
	return (bits & ~d->implemented) == 0;
}

static void decode(const struct hpm_pmu_model *m, uint64_t value, int constraint,
                   struct hpm_model_decoded *out)
{
	(void)constraint;
	struct arm64_decoded d;
	decode_value(m, value, &d);
	memset(out, 0, sizeof(*out));
	out->value = value;
	out->exact = d.exact;
	out->problem = d.nr_issues > 0;
	snprintf(out->expr, sizeof(out->expr), "%s", d.expr);

	/* evtCount always, the other fields when set, then the rule */
	char *buf = out->fields;
	size_t len = sizeof(out->fields), n = 0;
#define PUT(...)                                                                                   \
	do {                                                                                       \
		if (n < len)                                                                       \
			n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__);                      \
	} while (0)
	PUT("evtCount=0x%x", d.t.f[ARM64_PF_EVTCOUNT]);
	if (d.name)
		PUT("(%s)", d.name);
	for (unsigned f = ARM64_PF_EVTCOUNT + 1; f < ARM64_PF_NR; f++) {
		if (!d.t.f[f])
			continue;
		const struct arm64_pf_desc *pf = &arm64_pf_desc[f];
		if (pf->hi == pf->lo || f == ARM64_PF_TH)
			PUT(" %s=%u", pf->name, d.t.f[f]);
		else if (f == ARM64_PF_TC) /* as the Arm ARM writes it: 0b100 */
			PUT(" TC=0b%u%u%u", d.t.f[f] >> 2 & 1, d.t.f[f] >> 1 & 1, d.t.f[f] & 1);
		else
			PUT(" %s=0x%x", pf->name, d.t.f[f]);
		if (!field_implemented(&d, f)) /* the core drops it: the rule leaves it out */
			PUT("(RES0)");
	}
	if (d.t.res0)
		PUT(" RES0=0x%llx", (unsigned long long)d.t.res0);
	PUT(" rule=\"%s\"", d.rule);
	for (unsigned i = 0; i < d.nr_issues; i++)
		PUT(" problem=\"%s\"", d.issues[i].msg);
	if (!d.exact)
		PUT(" inexact"); /* the expression does not give this value back */
#undef PUT
}

static struct json_t *decode_json(const struct hpm_pmu_model *m, uint64_t value, int constraint)
{
	(void)constraint;
	struct arm64_decoded d;
	char hex[24];
	decode_value(m, value, &d);
	json_t *obj = json_object();
	snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)value);
	json_object_set_new(obj, "value", json_string(hex));
	json_object_set_new(obj, "register", json_string("PMEVTYPER"));
	json_object_set_new(obj, "expression", json_string(d.expr));
	json_object_set_new(obj, "exact", json_boolean(d.exact));
	json_object_set_new(obj, "event", d.name ? json_string(d.name) : json_null());
	json_object_set_new(obj, "rule", json_string(d.rule));
	json_t *fields = json_array();
	for (unsigned f = 0; f < ARM64_PF_NR; f++) {
		const struct arm64_pf_desc *pf = &arm64_pf_desc[f];
		char bits[16];
		json_t *o = json_object();
		if (pf->hi == pf->lo)
			snprintf(bits, sizeof(bits), "%u", pf->lo);
		else
			snprintf(bits, sizeof(bits), "%u:%u", pf->hi, pf->lo);
		json_object_set_new(o, "name", json_string(pf->name));
		json_object_set_new(o, "bits", json_string(bits));
		json_object_set_new(o, "value", json_integer(d.t.f[f]));
		json_object_set_new(o, "meaning", json_string(pf->meaning));
		/* false: the core has not got the field (RES0 there) */
		json_object_set_new(o, "implemented", json_boolean(field_implemented(&d, f)));
		json_array_append_new(fields, o);
	}
	json_object_set_new(obj, "fields", fields);
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)d.t.res0);
	json_object_set_new(obj, "res0", json_string(hex));
	json_t *problems = json_array();
	for (unsigned i = 0; i < d.nr_issues; i++)
		json_array_append_new(problems, json_string(d.issues[i].msg));
	json_object_set_new(obj, "problems", problems);
	return obj;
}

/* ------------------------------------------------ modes */

static int parse_modifiers(const struct hpm_pmu_model *m, const char *mods, unsigned *modes,
                           struct hpm_diag *err)
{
	(void)m;
	unsigned out = 0;
	for (const char *p = mods; *p; p++) {
		switch (*p) {
		case 'u':
			out |= ARM_EL0;
			break;
		case 'k':
			out |= ARM_EL1;
			break;
		case 'h':
			out |= ARM_EL2;
			break;
		default:
			return hpm_diag_fail(
			    err, HPM_MODEL_EINVAL, (int)(p - mods),
			    "unknown modifier '%c' (an Arm event takes u, k and h)", *p);
		}
	}
	*modes = out ? out : ARM_ELS;
	return 0;
}

static const char *modes_str(const struct hpm_pmu_model *m, unsigned modes, char *buf, size_t len)
{
	(void)m;
	static const char *const words[] = {"EL0", "EL1", "EL2"};
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned b = 0; b < 3 && n < len; b++)
		if (modes & (1u << b))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", words[b]);
	if (!n)
		snprintf(buf, len, "none");
	return buf;
}

/* --all-user keeps EL0, --all-kernel what was counted above EL0 (Linux's
 * exclude_user leaves EL2 as it was), EL1 when that was nothing. */
static void restrict_level(const struct hpm_pmu_model *m, struct hpm_event_code *c, bool user)
{
	unsigned modes = c->modes ? c->modes : ARM_ELS;
	unsigned out = user ? ARM_EL0 : (modes & (ARM_EL1 | ARM_EL2));
	if (!out)
		out = ARM_EL1;
	c->modes = out;
	if (c->fixed >= 0)
		return;
	uint64_t v = c->value & ~(ARM_BIT_P | ARM_BIT_U | ARM_BIT_NSH);
	if (!(out & ARM_EL0))
		v |= ARM_BIT_U;
	if (!(out & ARM_EL1))
		v |= ARM_BIT_P;
	if (out & ARM_EL2)
		v |= ARM_BIT_NSH;
	c->value = v;
	c->modes_given = true;
	if (m) {
		struct arm64_decoded d;
		decode_value(m, v, &d);
		snprintf(c->canonical, sizeof(c->canonical), "%s", d.expr);
	}
}

/* ------------------------------------------------ counters */

static const char *constraint_name(const struct hpm_pmu_model *m, int constraint)
{
	(void)m;
	return constraint == 0 ? "all" : NULL;
}

static void constraint_counters(const struct hpm_pmu_model *m, int constraint, unsigned *first,
                                unsigned *last)
{
	(void)m;
	(void)constraint;
	*first = ARM_FIRST_COUNTER;
	*last = ARM_LAST_COUNTER;
}

static int constraint_of_counter(const struct hpm_pmu_model *m, unsigned n)
{
	(void)m;
	return n <= ARM_LAST_COUNTER ? 0 : -1;
}

/* CPU_CYCLES goes on the cycle counter PMCCNTR_EL0 when its filter
 * PMCCFILTR_EL0 can say all the value says, as Linux's arm_pmuv3 driver
 * puts event 0x11 there unless it has a threshold (armv8pmu_get_event_idx;
 * MT, TE, TLC and SYNC, which perf cannot ask, have no place there either). */
static int fixed_alt(const struct hpm_pmu_model *m, const struct hpm_event_code *c)
{
	(void)m;
	const uint64_t evt = c->value & 0xffff, rest = c->value & ~UINT64_C(0xffff);
	return c->fixed < 0 && evt == ARM_CPU_CYCLES && !(rest & ~ARM64_PMCCFILTR_FIELDS)
	           ? ARM_FIXED_PMCCNTR
	           : -1;
}

/* Two events never share one Arm counter. */
static bool merge(const struct hpm_pmu_model *m, const struct hpm_event_code *a,
                  const struct hpm_event_code *b, struct hpm_event_code *sum)
{
	(void)m;
	(void)a;
	(void)b;
	(void)sum;
	return false;
}

static const struct hpm_model_fixed fixed[] = {
    {"pmccntr", "Cycle counter (PMCCNTR_EL0)", "PMCCNTR_EL0", 31, "cycles", "CPU_CYCLES"},
};

/* perf's generic names; every core here has these events */
static const struct hpm_model_generic generic[] = {
    {"cycles", NULL, 0},
    {"cpu-cycles", NULL, 0},
    {"instructions", "INST_RETIRED", -1},
    {"branches", "BR_RETIRED", -1},
    {"branch-instructions", "BR_RETIRED", -1},
    {"branch-misses", "BR_MIS_PRED_RETIRED", -1},
};

extern const struct metric_table arm64_metrics_neoverse_n1;
extern const struct metric_table arm64_metrics_neoverse_n2;
extern const struct metric_table arm64_metrics_neoverse_n2_r0p0;
extern const struct metric_table arm64_metrics_neoverse_v1;
extern const struct metric_table arm64_metrics_neoverse_v2;

/* One core's model: everything but its names, data and metrics is shared.
 * perf stat's -d sets: perf's L1-dcache and LLC loads and misses, then
 * the L1 instruction cache and TLBs, then (no prefetch events in these
 * tables) the L2 cache. */
#define ARM_MODEL(core_name, disp, data_, table)                                                   \
	ARM_MODEL_DESC(core_name, disp, "Arm " disp " (Arm PMUv3)", data_, table)
#define ARM_MODEL_DESC(core_name, disp, desc, data_, table)                                        \
	{                                                                                          \
		.name = core_name, .display = disp, .description = desc, .arch = "arm64",          \
		.data = &data_, .match_cpuid = match_cpuid, .encode = encode, .suggest = suggest,  \
		.nr_events = nr_events, .event_at = event_at, .event_json = event_json,            \
		.decode = decode, .decode_json = decode_json, .parse_modifiers = parse_modifiers,  \
		.modes_str = modes_str, .restrict_level = restrict_level,                          \
		.modes_default = ARM_ELS, .modes_all = ARM_ELS, .fixed = fixed,                    \
		.nr_fixed = sizeof(fixed) / sizeof(fixed[0]),                                      \
		.counters = {"counter class", "pmevcntr", ARM_FIRST_COUNTER, ARM_LAST_COUNTER},    \
		.nr_constraints = 1, .constraint_name = constraint_name,                           \
		.constraint_counters = constraint_counters,                                        \
		.constraint_of_counter = constraint_of_counter, .fixed_alt = fixed_alt,            \
		.merge = merge,                                                                    \
		.detailed =                                                                        \
		    {                                                                              \
		        "L1D_CACHE,L1D_CACHE_REFILL,LL_CACHE_RD,LL_CACHE_MISS_RD",                 \
		        "L1I_CACHE,L1I_CACHE_REFILL,L1D_TLB,L1D_TLB_REFILL,L1I_TLB,L1I_TLB_"       \
		        "REFILL",                                                                  \
		        "L2D_CACHE,L2D_CACHE_REFILL",                                              \
		    },                                                                             \
		.perf_attr = arm64_perf_attr, .perf_driver = arm64_perf_driver,                    \
		.generic = generic, .nr_generic = sizeof(generic) / sizeof(generic[0]),            \
		.metrics = &table,                                                                 \
	}

/* every revision, but N2's: r0p0-r0p2 (the STALL_SLOT erratum, whose
 * workaround Arm's formulas for them carry) and r0p3 on (Arm's plain ones) */
#define ARM_REV_ALL 0, 0xff
static const struct arm_model n1 = {"neoverse-n1", ARM_REV_ALL}, n2 = {"neoverse-n2", 0x03, 0xff},
                              n2_r0p0 = {"neoverse-n2", 0x00, 0x02},
                              v1 = {"neoverse-v1", ARM_REV_ALL}, v2 = {"neoverse-v2", ARM_REV_ALL};

const struct hpm_pmu_model hpm_model_neoverse_n1 =
    ARM_MODEL("neoverse-n1", "Neoverse N1", n1, arm64_metrics_neoverse_n1);
const struct hpm_pmu_model hpm_model_neoverse_n2 =
    ARM_MODEL_DESC("neoverse-n2", "Neoverse N2", "Arm Neoverse N2 r0p3 and later (Arm PMUv3)", n2,
                   arm64_metrics_neoverse_n2);
const struct hpm_pmu_model hpm_model_neoverse_n2_r0p0 = ARM_MODEL_DESC(
    "neoverse-n2-r0p0", "Neoverse N2 r0p0-r0p2",
    "Arm Neoverse N2 r0p0 to r0p2 (Arm PMUv3; Topdown with the STALL_SLOT erratum workaround)",
    n2_r0p0, arm64_metrics_neoverse_n2_r0p0);
const struct hpm_pmu_model hpm_model_neoverse_v1 =
    ARM_MODEL("neoverse-v1", "Neoverse V1", v1, arm64_metrics_neoverse_v1);
const struct hpm_pmu_model hpm_model_neoverse_v2 =
    ARM_MODEL("neoverse-v2", "Neoverse V2", v2, arm64_metrics_neoverse_v2);

/* The architecture (encode and decode --arch arm64): every standard event
 * and every field of the newest PMUv3; no core's metrics, no detection. */
static const struct arm_model arch = {NULL, ARM_REV_ALL};
static const struct metric_table no_metrics;
const struct hpm_pmu_model hpm_model_arm64 = ARM_MODEL("arm64", "Arm PMUv3", arch, no_metrics);
