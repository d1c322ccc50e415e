/* pmdevid.h: the Arm PMU block's PMDEVID register (offset 0xFC8), which
 * says what the Performance Monitors implement.
 *
 * Owns: its fields (SPEC §5, seed 002: PCSample 3:0, PMSS 7:4, EXTPMN
 * 11:8, 31:12 RES0), the feature each value means, warnings for RES0 bits
 * and reserved values, and its text and JSON forms. Never prints, never
 * exits; decoding never fails.
 */
#ifndef HPM_ARM64_PMDEVID_H
#define HPM_ARM64_PMDEVID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARM64_PMDEVID_RES0 UINT64_C(0xfffff000) /* 31:12 */

enum arm64_devid_field {
	ARM64_DEVID_PCSAMPLE, /* 3:0 */
	ARM64_DEVID_PMSS,     /* 7:4 */
	ARM64_DEVID_EXTPMN,   /* 11:8 */
	ARM64_DEVID_NR,
};

struct arm64_devid_value {
	const char *name; /* "PCSample" */
	unsigned hi, lo;
	unsigned value;
	bool reserved;       /* a value the Arm ARM reserves */
	const char *meaning; /* what the value means, "reserved" when reserved */
	const char *feature; /* the FEAT_* the value identifies, or NULL */
};

#define ARM64_PMDEVID_MAX_WARNINGS 5

struct arm64_pmdevid {
	uint64_t value;
	struct arm64_devid_value field[ARM64_DEVID_NR];
	uint64_t res0; /* RES0 bits set (31:12, and any above bit 31: a 32-bit register) */
	unsigned nr_warnings;
	char warnings[ARM64_PMDEVID_MAX_WARNINGS][160];
};

void arm64_pmdevid_decode(uint64_t value, struct arm64_pmdevid *out);
/* One line of KEY=VALUE words: "PCSample=1(pc-sampling) PMSS=0(none)
 * EXTPMN=0(none)", then " reserved(...)" and " RES0=0x..." when set. */
void arm64_pmdevid_fields(const struct arm64_pmdevid *d, char *buf, size_t len);
/* Several lines, one a field with its meaning and feature, then the
 * warnings as "warning: ..." lines; each line ends in '\n'. */
void arm64_pmdevid_text(const struct arm64_pmdevid *d, char *buf, size_t len);

struct json_t;
/* {"register":"PMDEVID","value":"0x...","fields":[{"name":..,"bits":"3:0",
 * "value":..,"meaning":..,"feature":..|null,"reserved":..}],"res0":"0x..",
 * "warnings":[..]} (a new reference). */
struct json_t *arm64_pmdevid_json(const struct arm64_pmdevid *d);

#endif
