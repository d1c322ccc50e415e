/* test-pmdevid.c: the PMDEVID decoder on all 4096 values of bits 11:0,
 * checked against a per-field rule written here from seed 002 (../shared/
 * seeds/002_c55e6616b40cb4a6.txt) on its own, then RES0 bits, the text and
 * the JSON forms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "arm64/pmdevid.h"
#include "tap.h"

/* Seed 002: EXTPMN 0b0000 not implemented, 0b0001 implemented
 * (FEAT_PMUv3_EXTPMN), others reserved (lines 15-22); PMSS 0b0000 / 0b0001
 * (FEAT_PMUv3_SS), others reserved (lines 26-33); PCSample 0b0000 none,
 * 0b0001 (FEAT_PCSRv8p2), 0b0010 with PMPCSCTL (FEAT_PCSRv8p9), others
 * reserved (lines 37-47). Bits 11:8, 7:4, 3:0 (SPEC.md:257-259). */
static const char *expect_feature(unsigned field, unsigned v)
{
	static const char *const pcs[] = {NULL, "FEAT_PCSRv8p2", "FEAT_PCSRv8p9"};
	switch (field) {
	case ARM64_DEVID_PCSAMPLE:
		return v < 3 ? pcs[v] : NULL;
	case ARM64_DEVID_PMSS:
		return v == 1 ? "FEAT_PMUv3_SS" : NULL;
	default:
		return v == 1 ? "FEAT_PMUv3_EXTPMN" : NULL;
	}
}

static bool expect_reserved(unsigned field, unsigned v)
{
	return field == ARM64_DEVID_PCSAMPLE ? v > 2 : v > 1;
}

static void all_values(void)
{
	static const char *const names[] = {"PCSample", "PMSS", "EXTPMN"};
	static const unsigned lo[] = {0, 4, 8};
	unsigned wrong = 0;
	for (uint64_t v = 0; v < 4096; v++) {
		struct arm64_pmdevid d;
		arm64_pmdevid_decode(v, &d);
		unsigned nres = 0;
		bool ok = d.value == v && d.res0 == 0;
		for (unsigned f = 0; f < 3; f++) {
			unsigned fv = (unsigned)(v >> lo[f]) & 0xf;
			const char *feat = expect_feature(f, fv);
			bool res = expect_reserved(f, fv);
			nres += res;
			ok &= d.field[f].value == fv && d.field[f].lo == lo[f] &&
			      d.field[f].hi == lo[f] + 3 &&
			      strcmp(d.field[f].name, names[f]) == 0 &&
			      d.field[f].reserved == res &&
			      (feat ? d.field[f].feature && strcmp(d.field[f].feature, feat) == 0
			            : d.field[f].feature == NULL) &&
			      (res == (strcmp(d.field[f].meaning, "reserved") == 0));
		}
		ok &= d.nr_warnings == nres;
		for (unsigned i = 0; i < d.nr_warnings; i++)
			ok &= strstr(d.warnings[i], "reserved value") != NULL;
		if (!ok && wrong++ < 5)
			tap_diag("PMDEVID 0x%03x decoded wrong", (unsigned)v);
	}
	tap_ok(wrong == 0, "all 4096 values of bits 11:0 match the per-field rule (%u wrong)",
	       wrong);
}

static void res0_bits(void)
{
	struct arm64_pmdevid d;
	unsigned wrong = 0;
	for (unsigned bit = 12; bit < 32; bit++) {
		arm64_pmdevid_decode((UINT64_C(1) << bit) | 0x111, &d);
		if (!(d.nr_warnings == 1 && strstr(d.warnings[0], "RES0") &&
		      d.res0 == (UINT64_C(1) << bit)))
			wrong++;
	}
	tap_ok(wrong == 0, "each of RES0 bits 31:12 warns (SPEC.md:259)");
	arm64_pmdevid_decode(UINT64_C(1) << 40, &d);
	tap_ok(d.nr_warnings == 1 && strstr(d.warnings[0], "32-bit"),
	       "a bit above 31 warns: PMDEVID is 32 bits (seed 002 line 8)");
	arm64_pmdevid_decode(UINT64_C(0xffffffff) | (UINT64_C(1) << 63), &d);
	tap_ok(d.nr_warnings == 5,
	       "reserved PCSample, PMSS, EXTPMN, RES0 and high bits: 5 warnings");
}

static void text_forms(void)
{
	struct arm64_pmdevid d;
	char buf[1024];
	arm64_pmdevid_decode(0x112, &d);
	arm64_pmdevid_fields(&d, buf, sizeof(buf));
	tap_is_str(buf, "PCSample=2(pc-sampling+pmpcsctl) PMSS=1(snapshot) EXTPMN=1(reservable)",
	           "fields of 0x112 (seed 002 lines 19, 30, 43)");
	arm64_pmdevid_decode(0x3005, &d);
	arm64_pmdevid_fields(&d, buf, sizeof(buf));
	tap_is_str(buf, "PCSample=5(reserved) PMSS=0(none) EXTPMN=0(none) RES0=0x3000",
	           "fields of 0x3005: reserved value and RES0 bits");
	arm64_pmdevid_text(&d, buf, sizeof(buf));
	tap_ok(strstr(buf, "PCSample [3:0] = 5  reserved\n") &&
	           strstr(buf, "warning: PCSample=0x5 (bits 3:0) is a reserved value\n") &&
	           strstr(buf, "warning: RES0 bits set: 0x00003000"),
	       "text of 0x3005 names the reserved value and the RES0 bits");
	arm64_pmdevid_decode(0x001, &d);
	arm64_pmdevid_text(&d, buf, sizeof(buf));
	tap_ok(strstr(buf, "(FEAT_PCSRv8p2)\n") && !strstr(buf, "warning"),
	       "text of 0x001: FEAT_PCSRv8p2, no warning");

	arm64_pmdevid_decode(0x1021, &d);
	json_t *j = arm64_pmdevid_json(&d);
	json_t *f = json_object_get(j, "fields");
	tap_ok(j && json_array_size(f) == 3 &&
	           strcmp(json_string_value(json_object_get(j, "register")), "PMDEVID") == 0 &&
	           strcmp(json_string_value(json_object_get(j, "value")), "0x00001021") == 0 &&
	           strcmp(json_string_value(json_object_get(j, "res0")), "0x1000") == 0 &&
	           json_array_size(json_object_get(j, "warnings")) == 2,
	       "JSON of 0x1021: register, value, res0, two warnings");
	json_t *pcs = json_array_get(f, 0), *pmss = json_array_get(f, 1),
	       *ext = json_array_get(f, 2);
	tap_ok(json_integer_value(json_object_get(pcs, "value")) == 1 &&
	           strcmp(json_string_value(json_object_get(pcs, "feature")), "FEAT_PCSRv8p2") ==
	               0 &&
	           strcmp(json_string_value(json_object_get(pcs, "bits")), "3:0") == 0 &&
	           json_is_false(json_object_get(pcs, "reserved")),
	       "JSON PCSample=1");
	tap_ok(json_integer_value(json_object_get(pmss, "value")) == 2 &&
	           json_is_null(json_object_get(pmss, "feature")) &&
	           json_is_true(json_object_get(pmss, "reserved")),
	       "JSON PMSS=2 reserved");
	tap_ok(json_integer_value(json_object_get(ext, "value")) == 0 &&
	           json_is_null(json_object_get(ext, "feature")) &&
	           strcmp(json_string_value(json_object_get(ext, "name")), "EXTPMN") == 0,
	       "JSON EXTPMN=0");
	json_decref(j);
}

int main(void)
{
	all_values();
	res0_bits();
	text_forms();
	return tap_done();
}
