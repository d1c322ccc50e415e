/* test-decode.c: kmh_decode field extraction, expression rendering and the
 * encode -> decode -> encode round trip over every event and modifier. */
#include <stdio.h>
#include <string.h>

#include "kmh/kmh.h"
#include "tap.h"
#include "util/str.h"

static void test_fields(void)
{
	struct kmh_decoded d;

	kmh_decode(&kmh_table_v2, UINT64_C(0x4000040000002007), KMH_BANK_BACKEND, &d);
	tap_ok(d.event[0] == 7 && d.event[1] == 8 && d.event[2] == 0 && d.event[3] == 0,
	       "EVENT0-3 of 0x4000040000002007 are 7, 8, 0, 0");
	tap_ok(d.op[0] == KMH_OP_ADD && d.op[1] == KMH_OP_OR && d.op[2] == KMH_OP_OR,
	       "OP_TYPE0 add, OP_TYPE1 or, OP_TYPE2 or");
	tap_ok(d.modes == KMH_MODES_DEFAULT && !d.of && d.reserved_bits == 0,
	       "MINH alone counts U, S, VU, VS");
	tap_is_str(d.expr, "INST_SPEC + RECOVERY_BUBBLE", "named expression");
	tap_is_str(d.ev[0] ? kmh_str(d.table, d.ev[0]->name) : NULL, "INST_SPEC",
	           "EVENT0 named from the bank");

	kmh_decode(&kmh_table_v2, UINT64_C(0x0000030000000001), KMH_BANK_FRONTEND, &d);
	tap_ok(d.op_reserved[0] && d.op[0] == 3 && !d.op_reserved[1],
	       "OP_TYPE0 = 0b00011 is reported reserved");
	tap_ok(d.op_hw[0] == KMH_OP_AND && !d.exact,
	       "... the counter executes AND for it (bit 0 set), and the value is inexact");
	/* The rule of shared/xiangshan/README.md, written here as a table per
	 * value rather than as bit tests: the lowest of bits 0-2 that is set
	 * picks AND, XOR or ADD, none picks OR; bits 4:3 change nothing. */
	static const unsigned low3[8] = {KMH_OP_OR,  KMH_OP_AND, KMH_OP_XOR, KMH_OP_AND,
	                                 KMH_OP_ADD, KMH_OP_AND, KMH_OP_XOR, KMH_OP_AND};
	unsigned wrong = 0;
	for (unsigned f = 0; f < KMH_NR_OPS; f++)
		for (unsigned v = 0; v < 32; v++) {
			/* ifu_req (2) and ifu_miss (3) on both sides of every op */
			uint64_t val = UINT64_C(0x4000000000000000) | 2 | 3u << 10 | 2u << 20 |
			               3u << 30 | (uint64_t)v << (40 + 5 * f);
			kmh_decode(&kmh_table_v2, val, KMH_BANK_FRONTEND, &d);
			unsigned want = low3[v & 7];
			/* the expression is the one the counter computes: encoding it
			 * gives the value with the executed op in that field */
			struct kmh_encoding enc;
			struct hpm_diag err;
			bool ok = d.op_hw[f] == want && d.op_reserved[f] == !kmh_op_is_valid(v) &&
			          kmh_encode(&kmh_table_v2, d.expr, &enc, &err) == 0 &&
			          kmh_mhpmevent_op(enc.value, f) == want;
			if (!ok) {
				wrong++;
				tap_diag("OP_TYPE%u = %u: decoded as %u (%s), want %u", f, v,
				         d.op_hw[f], d.expr, want);
			}
		}
	tap_ok(wrong == 0,
	       "every value of each OP_TYPE field: the op the counter executes (%u wrong)", wrong);
	for (unsigned v = 0; v < 32; v++) {
		kmh_decode(&kmh_table_v2, (uint64_t)v << 50, KMH_BANK_NONE, &d);
		bool legal = v == 0 || v == 1 || v == 2 || v == 4;
		if (d.op_reserved[2] == legal) {
			tap_ok(false, "OP_TYPE2 value %u reserved flag", v);
			break;
		}
		if (v == 31)
			tap_ok(true, "exactly 0, 1, 2, 4 are legal OP_TYPE values");
	}

	kmh_decode(&kmh_table_v2, (UINT64_C(5) << 55) | 1, KMH_BANK_FRONTEND, &d);
	tap_ok(d.reserved_bits == 5, "bits 57:55 = 0b101 are reported (got %u)", d.reserved_bits);
	kmh_decode(&kmh_table_v2, UINT64_C(1) << 63, KMH_BANK_FRONTEND, &d);
	tap_ok(d.of, "bit 63 is OF");
	tap_ok(d.modes == KMH_MODES_ALL, "no INH bit: every mode counted, M too");

	kmh_decode(&kmh_table_v2, 100, KMH_BANK_FRONTEND, &d);
	tap_ok(d.index_out_of_range[0] && !d.ev[0], "frontend index 100 is out of range");
	tap_is_str(d.expr, "frontend:100:ukm", "out-of-range index rendered as BANK:INDEX");

	kmh_decode(&kmh_table_v2, UINT64_C(0x4000000000000035), KMH_BANK_NONE, &d);
	tap_is_str(d.expr, "kunminghu/event0=0x35/", "no bank: the perf-style term");
	tap_ok(d.ev[0] == NULL, "no bank: no names");

	kmh_decode(&kmh_table_v2, UINT64_C(0x6c00000000000035), KMH_BANK_BACKEND, &d);
	tap_ok(d.modes == KMH_MODE_U, "MINH SINH VSINH VUINH leave U alone");
	tap_is_str(d.expr, "rob_commitInstr:uH", "U alone is ':uH'");

	/* S and VU only: no modifier letters select exactly that */
	kmh_decode(&kmh_table_v2, KMH_MINH | KMH_UINH | KMH_VSINH | 0x35, KMH_BANK_BACKEND, &d);
	char buf[8];
	tap_ok(d.modes == (KMH_MODE_S | KMH_MODE_VU) && !kmh_modes_to_modifiers(d.modes, buf),
	       "S+VU has no modifier spelling");

	kmh_decode(&kmh_table_v2, KMH_MINH | UINT64_C(0x10040001302801), KMH_BANK_MEMBLOCK, &d);
	tap_is_str(d.expr, "load_s0_in_fire", "the ADD of all instances decodes to the alias");

	kmh_decode(&kmh_table_v2, KMH_MINH | (UINT64_C(1) << 40), KMH_BANK_FRONTEND, &d);
	tap_is_str(d.expr, "noEvent", "an AND of two empty slots is noEvent");
	kmh_decode(&kmh_table_v2, KMH_MINH | (UINT64_C(1) << 40) | 2, KMH_BANK_FRONTEND, &d);
	tap_is_str(d.expr, "ifu_req & noEvent", "AND with an empty slot is kept visible");
}

/* Rebuild the value from the decoded fields alone. */
static uint64_t reassemble(const struct kmh_decoded *d)
{
	uint64_t v = kmh_modes_to_inh(d->modes);
	if (d->of)
		v |= KMH_OF;
	v |= (uint64_t)d->reserved_bits << 55;
	for (unsigned s = 0; s < 4; s++)
		v |= (uint64_t)d->event[s] << (10 * s);
	for (unsigned o = 0; o < 3; o++)
		v |= (uint64_t)d->op[o] << (40 + 5 * o);
	return v;
}

static void test_random_values(void)
{
	uint64_t x = 0x243f6a8885a308d3u;
	unsigned bad = 0;
	for (unsigned i = 0; i < 20000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		struct kmh_decoded d;
		kmh_decode(&kmh_table_v2, x, (int)(i % 5) - 1, &d);
		if (reassemble(&d) != x)
			bad++;
	}
	tap_ok(bad == 0, "20000 random values: fields reassemble to the value (%u bad)", bad);
}

static void test_round_trip(void)
{
	static const char *const mods[] = {"", ":u", ":k", ":G", ":H", ":uG", ":kH", ":m", ":um"};
	unsigned bad = 0, n = 0;
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		const struct kmh_bank_desc *d = &kmh_table_v2.banks[b];
		for (unsigned i = 0; i < d->nr_events + d->nr_aliases; i++) {
			const char *name = kmh_str(
			    &kmh_table_v2, i < d->nr_events ? d->events[i].name
			                                    : d->aliases[i - d->nr_events].name);
			for (unsigned m = 0; m < sizeof(mods) / sizeof(mods[0]); m++) {
				char expr[160];
				struct kmh_encoding e1, e2;
				struct hpm_diag err;
				struct kmh_decoded dec;
				snprintf(expr, sizeof(expr), "%s:%s%s", d->name, name, mods[m]);
				n++;
				bool undefined =
				    i < d->nr_events && d->events[i].rtl == KMH_RTL_UNDEFINED;
				if (kmh_encode(&kmh_table_v2, expr, &e1, &err) != 0) {
					/* the one event the CSR cannot reach is refused */
					if (!undefined || err.code != KMH_ERANGE) {
						bad++;
						tap_diag("%s: %s", expr, err.msg);
					}
					continue;
				}
				if (undefined) {
					bad++;
					tap_diag("%s: encodes, but the RTL cannot count it", expr);
					continue;
				}
				kmh_decode(&kmh_table_v2, e1.value, b, &dec);
				if (kmh_encode(&kmh_table_v2, dec.expr, &e2, &err) != 0 ||
				    e2.value != e1.value) {
					bad++;
					tap_diag("%s -> %s does not round-trip", expr, dec.expr);
				}
			}
		}
	}
	tap_ok(bad == 0,
	       "%u events x modifiers: encode -> decode -> encode is the identity (%u bad)", n,
	       bad);
}

static void test_numbers(void)
{
	static const struct {
		const char *s;
		int rc;
		uint64_t v;
		int line;
	} nums[] = {
	    {"16", 0, 16, __LINE__},
	    {"0x10", 0, 16, __LINE__},
	    {"0X1f", 0, 31, __LINE__},
	    {"0b101", 0, 5, __LINE__},
	    {"r35", 0, 0x35, __LINE__},
	    {"0x4000_0000_0000_0035", 0, UINT64_C(0x4000000000000035), __LINE__},
	    {"18446744073709551615", 0, UINT64_MAX, __LINE__},
	    {"0xffffffffffffffff", 0, UINT64_MAX, __LINE__},
	    {"18446744073709551616", STR_PARSE_ERANGE, 0, __LINE__},
	    {"0x10000000000000000", STR_PARSE_ERANGE, 0, __LINE__},
	    {"abc", STR_PARSE_ENUMBER, 0, __LINE__},
	    {"", STR_PARSE_ENUMBER, 0, __LINE__},
	    {"0x", STR_PARSE_ENUMBER, 0, __LINE__},
	    {"12z", STR_PARSE_ENUMBER, 0, __LINE__},
	    {"-1", STR_PARSE_ENUMBER, 0, __LINE__},
	    {"0b2", STR_PARSE_ENUMBER, 0, __LINE__},
	    {"_1", STR_PARSE_ENUMBER, 0, __LINE__},
	};
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		uint64_t v = 0;
		int rc = str_parse_u64(nums[i].s, &v, NULL, 0);
		tap_ok(rc == nums[i].rc && (rc || v == nums[i].v), "line %d: '%s' parses as %s",
		       nums[i].line, nums[i].s,
		       nums[i].rc == STR_PARSE_ERANGE    ? "a number wider than 64 bits"
		       : nums[i].rc == STR_PARSE_ENUMBER ? "not a number"
		                                         : "a number");
	}
}

int main(void)
{
	test_fields();
	test_random_values();
	test_round_trip();
	test_numbers();
	return tap_done();
}
