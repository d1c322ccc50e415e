/* model.c: Kunminghu as a PMU model (arch/model.h): its tables, encoder,
 * modifiers, fixed counters, bank constraint, the ADD merge (merge.c),
 * the perf_event_attr mapping (perf-attr.c), perf's generic names and its
 * metric table, behind the model interface. The operations read the event
 * table from the model's data (struct kmh_table), so each XiangShan version
 * is one struct hpm_pmu_model sharing them. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "arch/model.h"
#include "kmh/internal.h"
#include "kmh/kmh.h"
#include "kmh/merge.h"
#include "kmh/model.h"
#include "kmh/perf-attr.h"

/* mcycle and minstret: the RISC-V fixed counters outside the 29 */
static const struct hpm_model_fixed fixed[] = {
    {"mcycle", "Cycles of the hart (CSR mcycle, fixed counter 0)", "csr:0xb00", 0, "cycles", NULL},
    {"minstret", "Instructions retired by the hart (CSR minstret, fixed counter 2)", "csr:0xb02", 2,
     "instructions", NULL},
};

/* perf's generic names as the emulated Kunminghu hart counts them */
static const struct hpm_model_generic generic[] = {
    {"cycles", NULL, KMH_FIXED_MCYCLE},         {"cpu-cycles", NULL, KMH_FIXED_MCYCLE},
    {"instructions", NULL, KMH_FIXED_MINSTRET}, {"branches", "BpInstr", -1},
    {"branch-instructions", "BpInstr", -1},     {"branch-misses", "BpWrong", -1},
};

static const struct kmh_table *table_of(const struct hpm_pmu_model *m)
{
	return m->data;
}

/* kunminghu-v3 has no BpInstr or BpWrong: its backend's branch and jump
 * instructions and mispredicted branches */
static const struct hpm_model_generic generic_v3[] = {
    {"cycles", NULL, KMH_FIXED_MCYCLE},         {"cpu-cycles", NULL, KMH_FIXED_MCYCLE},
    {"instructions", NULL, KMH_FIXED_MINSTRET}, {"branches", "BRANCH_JUMP", -1},
    {"branch-instructions", "BRANCH_JUMP", -1}, {"branch-misses", "BR_MIS_PRED", -1},
};

static void from_kmh(const struct hpm_pmu_model *m, const struct kmh_encoding *k,
                     struct hpm_event_code *c)
{
	memset(c, 0, sizeof(*c));
	c->model = m;
	c->value = k->value;
	c->constraint = k->bank;
	c->fixed = -1;
	c->modes = k->modes;
	c->modes_given = k->modes_given;
	c->raw = k->raw;
	c->nr_events = k->nr_events;
	snprintf(c->canonical, sizeof(c->canonical), "%s", k->canonical);
}

static void to_kmh(const struct hpm_event_code *c, struct kmh_encoding *k)
{
	memset(k, 0, sizeof(*k));
	k->value = c->value;
	k->bank = c->constraint;
	k->modes = c->modes;
	k->modes_given = c->modes_given;
	k->raw = c->raw;
	k->nr_events = c->nr_events;
	snprintf(k->canonical, sizeof(k->canonical), "%s", c->canonical);
}

static bool match_cpuid(const struct hpm_pmu_model *m, const char *cpuid)
{
	return kmh_mapfile_match(table_of(m), cpuid) != NULL;
}

static int encode(const struct hpm_pmu_model *m, const char *text, struct hpm_event_code *out,
                  struct hpm_diag *err)
{
	struct kmh_encoding k;
	if (kmh_encode(table_of(m), text, &k, err) != 0) {
		/* a name it does not know, or text that is not its syntax at all,
		 * may be another namespace's (a host event) */
		err->code = err->code == KMH_EUNKNOWN  ? HPM_MODEL_EUNKNOWN
		            : err->code == KMH_ESYNTAX ? HPM_MODEL_ESYNTAX
		                                       : HPM_MODEL_EINVAL;
		return err->code;
	}
	from_kmh(m, &k, out);
	return 0;
}

static void decode(const struct hpm_pmu_model *m, uint64_t value, int constraint,
                   struct hpm_model_decoded *out)
{
	struct kmh_decoded d;
	kmh_decode(table_of(m), value, constraint, &d);
	out->value = value;
	out->exact = d.exact;
	out->problem = false; /* a reserved op is inexact, still a value the PMU takes */
	snprintf(out->expr, sizeof(out->expr), "%s", d.expr);
	kmh_describe_fields(&d, out->fields, sizeof(out->fields));
}

static struct json_t *decode_json(const struct hpm_pmu_model *m, uint64_t value, int constraint)
{
	struct kmh_decoded d;
	kmh_decode(table_of(m), value, constraint, &d);
	return kmh_describe_json(&d);
}

static unsigned suggest(const struct hpm_pmu_model *m, const char *name, const char **out,
                        unsigned max)
{
	return kmh_suggest(table_of(m), name, KMH_BANK_NONE, out, max);
}

/* Events, then aliases, then other names, bank by bank: hpmstat list's
 * order. */
static unsigned nr_events(const struct hpm_pmu_model *m)
{
	const struct kmh_table *t = table_of(m);
	unsigned n = 0;
	for (int b = 0; b < KMH_NR_BANKS; b++)
		n += t->banks[b].nr_events + t->banks[b].nr_aliases + t->banks[b].nr_names;
	return n;
}

/* One listed row: exactly one of its pointers is set. */
struct kmh_row {
	const struct kmh_event *ev;
	const struct kmh_alias *al;
	const struct kmh_name_alias *na;
};

/* Row i: its bank, and what it lists. */
static int row_at(const struct kmh_table *t, unsigned i, struct kmh_row *r)
{
	memset(r, 0, sizeof(*r));
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		const struct kmh_bank_desc *d = &t->banks[b];
		if (i < d->nr_events) {
			r->ev = &d->events[i];
			return b;
		}
		i -= d->nr_events;
		if (i < d->nr_aliases) {
			r->al = &d->aliases[i];
			return b;
		}
		i -= d->nr_aliases;
		if (i < d->nr_names) {
			r->na = &d->names[i];
			return b;
		}
		i -= d->nr_names;
	}
	return -1;
}

static void event_at(const struct hpm_pmu_model *m, unsigned i, struct hpm_model_event *out)
{
	const struct kmh_table *t = table_of(m);
	/* what a name without modifiers counts: MINH, as Linux's firmware sets */
	const uint64_t inh = kmh_modes_to_inh(KMH_MODES_DEFAULT);
	struct kmh_row r;
	int b = row_at(t, i, &r);
	memset(out, 0, sizeof(*out));
	out->constraint = b;
	if (b < 0)
		return;
	out->topic = t->banks[b].name;
	const struct kmh_event *e = r.ev   ? r.ev
	                            : r.na ? kmh_event_by_index(t, b, r.na->index)
	                                   : NULL;
	if (e) {
		out->name = kmh_str(t, r.na ? r.na->name : e->name);
		out->brief = kmh_str(t, r.na ? r.na->brief : e->brief);
		out->description = kmh_str(t, r.na ? r.na->description : e->description);
		out->alias_of = r.na ? kmh_str(t, r.na->alias_of) : NULL;
		out->deprecated = r.na && r.na->deprecated;
		out->undefined = e->rtl == KMH_RTL_UNDEFINED;
		if (!kmh_rtl_note(t, e, out->note, sizeof(out->note)))
			out->note[0] = '\0';
		out->code = e->index | inh;
		snprintf(out->where, sizeof(out->where), "%s:%u", out->topic, e->index);
		/* the EventCode of the bank's JSON: the EVENTn index */
		snprintf(out->encoding, sizeof(out->encoding), "0x%x", e->index);
		return;
	}
	const struct kmh_alias *a = r.al;
	out->name = kmh_str(t, a->name);
	out->brief = kmh_str(t, a->brief);
	out->description = kmh_str(t, a->description);
	out->alias_of = a->alias_of != KMH_NO_TEXT ? kmh_str(t, a->alias_of) : NULL;
	out->deprecated = a->deprecated;
	out->code = a->code | inh;
	size_t n = (size_t)snprintf(out->where, sizeof(out->where), "%s:", out->topic);
	for (unsigned k = 0; k < a->nr && n < sizeof(out->where); k++)
		n += (size_t)snprintf(out->where + n, sizeof(out->where) - n, "%s%u", k ? "+" : "",
		                      a->index[k]);
	/* its EventCode: the EVENT and OP_TYPE fields of the ADD */
	snprintf(out->encoding, sizeof(out->encoding), "0x%llx", (unsigned long long)a->code);
}

/* The events of c whose names mislead on XiangShan's RTL, in one line. */
static const char *event_note(const struct hpm_pmu_model *m, const struct hpm_event_code *c,
                              char *buf, size_t len, bool *warning)
{
	const struct kmh_table *t = table_of(m);
	size_t n = 0;
	*warning = false;
	if (c->fixed >= 0 || !len)
		return NULL;
	buf[0] = '\0';
	for (unsigned s = 0; s < KMH_NR_SLOTS; s++) {
		unsigned idx = kmh_mhpmevent_event(c->value, s);
		char one[200];
		const char *note = NULL;
		if (!idx)
			continue;
		if (c->constraint >= 0) {
			const struct kmh_event *e = kmh_event_by_index(t, c->constraint, idx);
			if (e && (note = kmh_rtl_note(t, e, one, sizeof(one))))
				*warning |= e->rtl == KMH_RTL_UNDEFINED;
		} else {
			/* a raw value has no bank: the counter it lands on decides */
			for (int b = 0; b < KMH_NR_BANKS && !note; b++) {
				const struct kmh_event *e = kmh_event_by_index(t, b, idx);
				if (e && e->rtl == KMH_RTL_UNDEFINED) {
					snprintf(
					    one, sizeof(one),
					    "EVENT%u = %u is past what XiangShan's RTL copies "
					    "into a %s counter's CSR: counted on mhpmcounter%u-%u, "
					    "it is undefined",
					    s, idx, t->banks[b].name, t->banks[b].first_counter,
					    t->banks[b].last_counter);
					note = one;
					*warning = true;
				}
			}
		}
		if (note && !strstr(buf, note) && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "; " : "", note);
	}
	return n ? buf : NULL;
}

/* The keys hpmstat list --json has always given Kunminghu rows. */
static void event_json(const struct hpm_pmu_model *m, unsigned i, struct json_t *obj,
                       bool after_description)
{
	const struct kmh_table *t = table_of(m);
	struct kmh_row r;
	int b = row_at(t, i, &r);
	const struct kmh_alias *a = r.al;
	const struct kmh_event *e = r.ev   ? r.ev
	                            : r.na ? kmh_event_by_index(t, b, r.na->index)
	                                   : NULL;
	if (b < 0)
		return;
	if (after_description) {
		/* another name of a row ("alias_of" says "add" for an ADD alias) */
		if (a && a->alias_of != KMH_NO_TEXT) {
			json_object_set_new(obj, "name_of", json_string(kmh_str(t, a->alias_of)));
		} else if (r.na) {
			json_object_set_new(obj, "name_of",
			                    json_string(kmh_str(t, r.na->alias_of)));
			json_object_set_new(obj, "deprecated", json_boolean(r.na->deprecated));
		}
		if (e && e->rtl != KMH_RTL_COUNTS) {
			static const char *const rtl_words[] = {
			    [KMH_RTL_ZERO] = "zero",
			    [KMH_RTL_UNDEFINED] = "undefined",
			    [KMH_RTL_SAME] = "same",
			    [KMH_RTL_INVERSE] = "inverse",
			};
			char note[200];
			json_object_set_new(obj, "rtl", json_string(rtl_words[e->rtl]));
			json_object_set_new(obj, "rtl_note",
			                    json_string(kmh_rtl_note(t, e, note, sizeof(note))));
		}
		if (a) {
			json_t *idx = json_array();
			for (unsigned k = 0; k < a->nr; k++)
				json_array_append_new(idx, json_integer(a->index[k]));
			json_object_set_new(obj, "alias_of", json_string("add"));
			json_object_set_new(obj, "indices", idx);
		}
		return;
	}
	const struct kmh_bank_desc *d = &t->banks[b];
	json_t *ctrs = json_array();
	for (unsigned c = d->first_counter; c <= d->last_counter; c++)
		json_array_append_new(ctrs, json_integer(c));
	json_object_set_new(obj, "bank", json_string(d->name));
	json_object_set_new(obj, "index", e ? json_integer(e->index) : json_null());
	json_object_set_new(obj, "counters", ctrs);
}

static int parse_modifiers(const struct hpm_pmu_model *m, const char *mods, unsigned *modes,
                           struct hpm_diag *err)
{
	(void)m;
	if (kmh_modifiers_parse(mods, modes, err) != 0)
		return err->code = HPM_MODEL_EINVAL;
	return 0;
}

static void restrict_level(const struct hpm_pmu_model *m, struct hpm_event_code *c, bool user)
{
	(void)m;
	/* the states (host, guest) the event counts in, at the one level */
	unsigned modes = c->modes ? c->modes : KMH_MODES_DEFAULT, out = 0;
	bool host = modes & (KMH_MODE_U | KMH_MODE_S | KMH_MODE_M),
	     guest = modes & (KMH_MODE_VU | KMH_MODE_VS);
	if (host)
		out |= user ? KMH_MODE_U : KMH_MODE_S;
	if (guest)
		out |= user ? KMH_MODE_VU : KMH_MODE_VS;
	c->modes = out;
	if (c->fixed < 0) {
		const uint64_t inh = KMH_MINH | KMH_SINH | KMH_UINH | KMH_VSINH | KMH_VUINH;
		c->value = (c->value & ~inh) | kmh_modes_to_inh(out);
		c->modes_given = true;
	}
}

static const char *modes_str(const struct hpm_pmu_model *m, unsigned modes, char *buf, size_t len)
{
	(void)m;
	char words[24];
	snprintf(buf, len, "%s", kmh_modes_str(modes, words));
	return buf;
}

/* The banks' names and counter ranges are the same in every version's
 * table (the CSR file did not change), and these operations take no model:
 * they read v2's. */
static const char *constraint_name(const struct hpm_pmu_model *m, int constraint)
{
	(void)m;
	return constraint >= 0 && constraint < KMH_NR_BANKS ? kmh_table_v2.banks[constraint].name
	                                                    : NULL;
}

static void constraint_counters(const struct hpm_pmu_model *m, int constraint, unsigned *first,
                                unsigned *last)
{
	(void)m;
	*first = kmh_table_v2.banks[constraint].first_counter;
	*last = kmh_table_v2.banks[constraint].last_counter;
}

static int constraint_of_counter(const struct hpm_pmu_model *m, unsigned n)
{
	(void)m;
	return n >= KMH_FIRST_COUNTER && n <= KMH_LAST_COUNTER
	           ? kmh_bank_of_counter(&kmh_table_v2, n)
	           : -1;
}

static bool merge(const struct hpm_pmu_model *m, const struct hpm_event_code *a,
                  const struct hpm_event_code *b, struct hpm_event_code *sum)
{
	struct kmh_encoding ka, kb, ks;
	if (a->fixed >= 0 || b->fixed >= 0)
		return false;
	to_kmh(a, &ka);
	to_kmh(b, &kb);
	if (!kmh_can_merge(&ka, &kb) || kmh_merge(table_of(m), &ka, &kb, &ks) != 0)
		return false;
	if (sum)
		from_kmh(m, &ks, sum);
	return true;
}

/* What every Kunminghu table's model shares: the operations (each reads
 * its table from m->data), the modes, the fixed counters and the banks. */
#define KMH_MODEL_COMMON                                                                           \
	.arch = "riscv", .match_cpuid = match_cpuid, .encode = encode, .suggest = suggest,         \
	.decode = decode, .decode_json = decode_json, .nr_events = nr_events,                      \
	.event_at = event_at, .event_json = event_json, .event_note = event_note,                  \
	.parse_modifiers = parse_modifiers, .modes_str = modes_str,                                \
	.restrict_level = restrict_level, .modes_default = KMH_MODES_DEFAULT,                      \
	.modes_all = KMH_MODES_ALL, .fixed = fixed, .nr_fixed = sizeof(fixed) / sizeof(fixed[0]),  \
	.counters = {"bank", "mhpmcounter", KMH_FIRST_COUNTER, KMH_LAST_COUNTER},                  \
	.nr_constraints = KMH_NR_BANKS, .constraint_name = constraint_name,                        \
	.constraint_counters = constraint_counters,                                                \
	.constraint_of_counter = constraint_of_counter, .merge = merge,                            \
	.perf_attr = kmh_perf_attr, .perf_driver = kmh_perf_driver

/* perf stat's -d, -dd, -ddd: the same events on both tables but the
 * branch pair, BRANCHES (v2 BpInstr,BpWrong; v3 BRANCH_JUMP,BR_MIS_PRED) */
#define KMH_DETAILED(BRANCHES)                                                                     \
	{                                                                                          \
		"l1D_read_dcache_access,l1D_read_dcache_miss,"                                     \
		"Slice0_l2_cache_access + Slice1_l2_cache_access + Slice2_l2_cache_access + "      \
		"Slice3_l2_cache_access,"                                                          \
		"Slice0_l2_cache_miss + Slice1_l2_cache_miss + Slice2_l2_cache_miss + "            \
		"Slice3_l2_cache_miss," BRANCHES,                                                  \
		    "ifu_req,ifu_miss,dtlb_ld_access,dtlb_ld_miss,itlb_access,itlb_miss",          \
		    "l1D_load_hw_prf_access,l1D_load_hw_prf_miss",                                 \
	}

const struct hpm_pmu_model hpm_model_kunminghu = {
    .name = "kunminghu",
    .display = "Kunminghu (kunminghu-v2)",
    .description = "XiangShan Kunminghu (RISC-V)",
    KMH_MODEL_COMMON,
    .detailed = KMH_DETAILED("BpInstr,BpWrong"),
    .generic = generic,
    .nr_generic = sizeof(generic) / sizeof(generic[0]),
    .metrics = &kmh_metrics,
    .data = &kmh_table_v2,
};

/* The same operations over kunminghu-v3's table. Detection cannot tell it
 * from v2 (marchid 0x19, mimpid 0 on both): it has no mapfile row and is
 * chosen by name only. */
const struct hpm_pmu_model hpm_model_kunminghu_v3 = {
    .name = "kunminghu-v3",
    .display = "Kunminghu (kunminghu-v3)",
    .description = "XiangShan Kunminghu (RISC-V), kunminghu-v3 event table (XiangShan afe3818)",
    KMH_MODEL_COMMON,
    .detailed = KMH_DETAILED("BRANCH_JUMP,BR_MIS_PRED"),
    .generic = generic_v3,
    .nr_generic = sizeof(generic_v3) / sizeof(generic_v3[0]),
    .metrics = &kmh_v3_metrics,
    .data = &kmh_table_v3,
};
