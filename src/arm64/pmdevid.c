/* pmdevid.c: PMDEVID decoded, with the features its values identify
 * (seed 002; SPEC §5).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "arm64/pmdevid.h"
#include "util/str.h"

/* What each defined value means; the short word is the one-line form's. */
struct meaning {
	const char *word;
	const char *text;
	const char *feature;
};

static const struct meaning pcsample[] = {
    {"none", "no PC Sample-based Profiling in the Performance Monitors registers", NULL},
    {"pc-sampling", "PC Sample-based Profiling in the Performance Monitors registers",
     "FEAT_PCSRv8p2"},
    {"pc-sampling+pmpcsctl", "PC Sample-based Profiling with PMPCSCTL", "FEAT_PCSRv8p9"},
};
static const struct meaning pmss[] = {
    {"none", "no PMU snapshot extension", NULL},
    {"snapshot", "PMU snapshot extension", "FEAT_PMUv3_SS"},
};
static const struct meaning extpmn[] = {
    {"none", "event counters cannot be reserved for external agents", NULL},
    {"reservable", "event counters can be reserved for external agents", "FEAT_PMUv3_EXTPMN"},
};

static const struct {
	const char *name;
	unsigned hi, lo;
	const struct meaning *m;
	unsigned nr;
} layout[ARM64_DEVID_NR] = {
    [ARM64_DEVID_PCSAMPLE] = {"PCSample", 3, 0, pcsample, 3},
    [ARM64_DEVID_PMSS] = {"PMSS", 7, 4, pmss, 2},
    [ARM64_DEVID_EXTPMN] = {"EXTPMN", 11, 8, extpmn, 2},
};

static void warn(struct arm64_pmdevid *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void warn(struct arm64_pmdevid *d, const char *fmt, ...)
{
	if (d->nr_warnings == ARM64_PMDEVID_MAX_WARNINGS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->warnings[d->nr_warnings++], sizeof(d->warnings[0]), fmt, ap);
	va_end(ap);
}

static const struct meaning *meaning_of(unsigned f, unsigned v)
{
	return v < layout[f].nr ? &layout[f].m[v] : NULL;
}

void arm64_pmdevid_decode(uint64_t value, struct arm64_pmdevid *d)
{
	memset(d, 0, sizeof(*d));
	d->value = value;
	for (unsigned f = 0; f < ARM64_DEVID_NR; f++) {
		struct arm64_devid_value *fv = &d->field[f];
		const struct meaning *m;
		fv->name = layout[f].name;
		fv->hi = layout[f].hi;
		fv->lo = layout[f].lo;
		fv->value = (unsigned)((value >> layout[f].lo) & 0xf);
		m = meaning_of(f, fv->value);
		fv->reserved = !m;
		fv->meaning = m ? m->text : "reserved";
		fv->feature = m ? m->feature : NULL;
		if (!m)
			warn(d, "%s=0x%x (bits %u:%u) is a reserved value", fv->name, fv->value,
			     fv->hi, fv->lo);
	}
	d->res0 = value & ~UINT64_C(0xfff);
	if (d->res0 & ARM64_PMDEVID_RES0)
		warn(d, "RES0 bits set: 0x%08llx (bits 31:12 are RES0)",
		     (unsigned long long)(d->res0 & ARM64_PMDEVID_RES0));
	if (d->res0 >> 32)
		warn(d, "bits above 31 set: 0x%llx (PMDEVID is a 32-bit register)",
		     (unsigned long long)(d->res0 >> 32 << 32));
}

void arm64_pmdevid_fields(const struct arm64_pmdevid *d, char *buf, size_t len)
{
	struct str_buf o = {buf, len, 0};
	buf[0] = '\0';
	for (unsigned f = 0; f < ARM64_DEVID_NR; f++) {
		const struct meaning *m = meaning_of(f, d->field[f].value);
		str_buf_add(&o, "%s%s=%u(%s)", f ? " " : "", d->field[f].name, d->field[f].value,
		            m ? m->word : "reserved");
	}
	if (d->res0)
		str_buf_add(&o, " RES0=0x%llx", (unsigned long long)d->res0);
}

void arm64_pmdevid_text(const struct arm64_pmdevid *d, char *buf, size_t len)
{
	struct str_buf o = {buf, len, 0};
	buf[0] = '\0';
	for (unsigned f = 0; f < ARM64_DEVID_NR; f++) {
		const struct arm64_devid_value *fv = &d->field[f];
		str_buf_add(&o, "%-8s [%u:%u] = %u  %s", fv->name, fv->hi, fv->lo, fv->value,
		            fv->meaning);
		if (fv->feature)
			str_buf_add(&o, " (%s)", fv->feature);
		str_buf_add(&o, "\n");
	}
	for (unsigned i = 0; i < d->nr_warnings; i++)
		str_buf_add(&o, "warning: %s\n", d->warnings[i]);
}

json_t *arm64_pmdevid_json(const struct arm64_pmdevid *d)
{
	char hex[24], bits[8];
	json_t *obj = json_object(), *fields = json_array(), *warnings = json_array();
	snprintf(hex, sizeof(hex), "0x%08llx", (unsigned long long)d->value);
	json_object_set_new(obj, "register", json_string("PMDEVID"));
	json_object_set_new(obj, "value", json_string(hex));
	for (unsigned f = 0; f < ARM64_DEVID_NR; f++) {
		const struct arm64_devid_value *fv = &d->field[f];
		snprintf(bits, sizeof(bits), "%u:%u", fv->hi, fv->lo);
		json_array_append_new(
		    fields,
		    json_pack("{s:s, s:s, s:i, s:s, s:o, s:b}", "name", fv->name, "bits", bits,
		              "value", (int)fv->value, "meaning", fv->meaning, "feature",
		              fv->feature ? json_string(fv->feature) : json_null(), "reserved",
		              fv->reserved));
	}
	json_object_set_new(obj, "fields", fields);
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)d->res0);
	json_object_set_new(obj, "res0", json_string(hex));
	for (unsigned i = 0; i < d->nr_warnings; i++)
		json_array_append_new(warnings, json_string(d->warnings[i]));
	json_object_set_new(obj, "warnings", warnings);
	return obj;
}
