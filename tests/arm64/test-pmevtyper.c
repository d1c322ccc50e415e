/* test-pmevtyper.c: golden vectors for the Arm PMEVTYPER<n>_EL0 encoder
 * and decoder, every reserved combination, bad input, and encode -> decode
 * -> encode round trips over a matrix of filters and threshold, edge and
 * linking forms.
 *
 * Golden values are worked out by hand from the bit layout of SPEC §5
 * (../shared/SPEC.md) and carry the line of SPEC.md (or of Linux's
 * arch/arm64/kernel/perf_event.c, 6.1) they check; event numbers are the
 * Arm ARM's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arm64/arm64.h"
#include "tap.h"

/* ------------------------------------------------ a small event table */

static const struct {
	const char *name;
	uint16_t number;
} table[] = {
    {"sw_incr", 0x00},     {"l1d_cache", 0x04},          {"inst_retired", 0x08},
    {"br_mis_pred", 0x10}, {"cpu_cycles", 0x11},         {"op_retired", 0x3a},
    {"op_spec", 0x3b},     {"stall_slot_backend", 0x3d}, {"stall_slot_frontend", 0x3e},
    {"stall_slot", 0x3f},  {"sample_pop", 0x4000},       {"cnt_cycles", 0x4004},
};
#define NR_TABLE (sizeof(table) / sizeof(table[0]))

static bool lookup(void *data, const char *name, uint16_t *number)
{
	(void)data;
	for (unsigned i = 0; i < NR_TABLE; i++)
		if (strcasecmp(table[i].name, name) == 0) {
			*number = table[i].number;
			return true;
		}
	return false;
}

static const char *name_of(void *data, uint16_t number)
{
	(void)data;
	for (unsigned i = 0; i < NR_TABLE; i++)
		if (table[i].number == number)
			return table[i].name;
	return NULL;
}

static const struct arm64_names names = {lookup, name_of, NULL};

/* ------------------------------------------------ the layout, by hand */

#define B(n)   (UINT64_C(1) << (n))
#define TC(x)  ((uint64_t)(x) << 61) /* SPEC.md:216 TC 63:61 */
#define TE     B(60)                 /* SPEC.md:216 TE 60 */
#define SYNC   B(58)                 /* SPEC.md:216 SYNC 58 */
#define VS(x)  ((uint64_t)(x) << 56) /* SPEC.md:216 VS 57:56 */
#define TLC(x) ((uint64_t)(x) << 54) /* SPEC.md:216 TLC 55:54 */
#define TH(x)  ((uint64_t)(x) << 32) /* SPEC.md:216 TH 43:32 */
#define P      B(31)                 /* SPEC.md:216 P 31 */
#define U      B(30)                 /* SPEC.md:216 U 30 */
#define NSK    B(29)                 /* SPEC.md:216 NSK 29 */
#define NSU    B(28)                 /* SPEC.md:217 NSU 28 */
#define NSH    B(27)                 /* SPEC.md:217 NSH 27 */
#define M      B(26)                 /* SPEC.md:217 M 26 */
#define MT     B(25)                 /* SPEC.md:217 MT 25 */
#define SH     B(24)                 /* SPEC.md:217 SH 24 */
#define T      B(23)                 /* Arm ARM: T 23 (FEAT_TME) */
#define RLK    B(22)                 /* SPEC.md:217 RLK 22 */
#define RLU    B(21)                 /* SPEC.md:217 RLU 21 */
#define RLH    B(20)                 /* SPEC.md:217 RLH 20 */
/* T: the Arm ARM's PMEVTYPER<n>_EL0 page (Arm A-profile system registers,
 * AArch64-pmevtypern_el0): "T, bit [23], when FEAT_TME is implemented:
 * Transactional state filtering bit"; SPEC.md §5 leaves it out. */

enum ctxkind { ANY, ODD3, EVEN2, TH4, NOTH, NOP1, THONLY };

static struct arm64_ctx ctx_of(enum ctxkind k)
{
	struct arm64_ctx c = ARM64_CTX_ANY;
	switch (k) {
	case ANY:
		break;
	case ODD3:
		c.counter = 3;
		break;
	case EVEN2:
		c.counter = 2;
		break;
	case TH4:
		c.thwidth = 4;
		break;
	case NOTH:
		c.thwidth = 0;
		break;
	case NOP1:
		c.pmuv3p1 = false;
		break;
	case THONLY: /* a 12-bit threshold and none of the optional features */
		c.edge = c.th2 = c.mt = c.sel2 = c.rme = c.sme = c.sebep = c.tme = false;
		c.core = "Neoverse V2";
		break;
	}
	return c;
}

static const struct golden {
	const char *expr;
	enum ctxkind ctx;
	uint64_t value;
	const char *canonical;
	const char *src;
} golden[] = {
    /* the event number, evtCount 15:0; no letters counts EL0, EL1 and EL2:
     * Linux sets NSH unless exclude_hv (perf_event.c:1004-1005) */
    {"cpu_cycles", ANY, NSH | 0x11, "cpu_cycles", "SPEC.md:217 evtCount; perf_event.c:1004"},
    {"CPU_CYCLES", ANY, NSH | 0x11, "cpu_cycles", "SPEC.md:217 (names ignore case)"},
    {"Stall_Slot", ANY, NSH | 0x3f, "stall_slot", "SPEC.md:217"},
    {"  inst_retired  ", ANY, NSH | 0x08, "inst_retired", "SPEC.md:217"},
    {"0x11", ANY, NSH | 0x11, "cpu_cycles", "SPEC.md:217"},
    {"r11", ANY, NSH | 0x11, "cpu_cycles", "SPEC.md:217 (perf's rHEX)"},
    {"0x123", ANY, NSH | 0x123, "0x123", "SPEC.md:217"},
    {"0x3ff", NOP1, NSH | 0x3ff, "0x3ff", "SPEC.md:218 (0x3ff needs no FEAT_PMUv3p1)"},
    {"r4004", ANY, NSH | 0x4004, "cnt_cycles", "SPEC.md:218 (15:10 with FEAT_PMUv3p1)"},
    {"cnt_cycles", ANY, NSH | 0x4004, "cnt_cycles", "SPEC.md:218"},
    {"0xffff", ANY, NSH | 0xffff, "0xffff", "SPEC.md:217 evtCount 15:0"},
    {"sw_incr", ANY, NSH, "sw_incr", "SPEC.md:217"},
    /* perf's letters, as armv8pmu_set_event_filter maps exclude_* */
    {"cpu_cycles:u", ANY, P | 0x11, "cpu_cycles:u", "perf_event.c:1011 P; SPEC.md:242"},
    {"cpu_cycles:k", ANY, U | 0x11, "cpu_cycles:k", "perf_event.c:1014 U; SPEC.md:242"},
    {"cpu_cycles:h", ANY, P | U | NSH | 0x11, "cpu_cycles:h", "perf_event.c:1004; SPEC.md:243"},
    {"cpu_cycles:uk", ANY, 0x11, "cpu_cycles:uk", "perf_event.c:1004 (exclude_hv)"},
    {"cpu_cycles:ku", ANY, 0x11, "cpu_cycles:uk", "perf_event.c:1004"},
    {"cpu_cycles:uh", ANY, P | NSH | 0x11, "cpu_cycles:uh", "perf_event.c:1011"},
    {"cpu_cycles:kh", ANY, U | NSH | 0x11, "cpu_cycles:kh", "perf_event.c:1014"},
    {"cpu_cycles:ukh", ANY, NSH | 0x11, "cpu_cycles", "perf_event.c:1004"},
    {"cpu_cycles:hku", ANY, NSH | 0x11, "cpu_cycles", "perf_event.c:1004"},
    {"cpu_cycles:h,nsh=0", ANY, P | U | 0x11, "cpu_cycles:h:nsh=0", "SPEC.md:243 NSH"},
    {"cpu_cycles:u,nsh", ANY, P | NSH | 0x11, "cpu_cycles:uh", "SPEC.md:243 NSH"},
    /* the filter fields Linux never programs, one by one */
    {"cpu_cycles:nsk", ANY, NSH | NSK | 0x11, "cpu_cycles:nsk", "SPEC.md:242 NSK"},
    {"cpu_cycles:nsk=1", ANY, NSH | NSK | 0x11, "cpu_cycles:nsk", "SPEC.md:242 NSK"},
    {"cpu_cycles:nsk=0", ANY, NSH | 0x11, "cpu_cycles", "SPEC.md:242 NSK"},
    {"cpu_cycles:nsu", ANY, NSH | NSU | 0x11, "cpu_cycles:nsu", "SPEC.md:242 NSU"},
    {"cpu_cycles:m", ANY, NSH | M | 0x11, "cpu_cycles:m", "SPEC.md:243 M"},
    {"cpu_cycles:mt", ANY, NSH | MT | 0x11, "cpu_cycles:mt", "SPEC.md:243 MT"},
    {"cpu_cycles:sh", ANY, NSH | SH | 0x11, "cpu_cycles:sh", "SPEC.md:246 SH"},
    /* 0x08000000 | 0x00800000 | 0x08 */
    {"inst_retired:t", ANY, NSH | T | 0x08, "inst_retired:t", "Arm ARM PMEVTYPER T 23"},
    {"inst_retired/t=1/", ANY, 0x0000000008800008, "inst_retired:t", "Arm ARM PMEVTYPER T 23"},
    {"inst_retired:t=0", ANY, NSH | 0x08, "inst_retired", "Arm ARM PMEVTYPER T 23"},
    {"cpu_cycles:rlk", ANY, NSH | RLK | 0x11, "cpu_cycles:rlk", "SPEC.md:246 RLK"},
    {"cpu_cycles:rlu", ANY, NSH | RLU | 0x11, "cpu_cycles:rlu", "SPEC.md:246 RLU"},
    {"cpu_cycles:rlh", ANY, NSH | RLH | 0x11, "cpu_cycles:rlh", "SPEC.md:246 RLH"},
    {"cpu_cycles:sync", ANY, NSH | SYNC | 0x11, "cpu_cycles:sync", "SPEC.md:216 SYNC"},
    {"cpu_cycles:vs=1", ANY, NSH | VS(1) | 0x11, "cpu_cycles:vs=1", "SPEC.md:247 VS"},
    {"cpu_cycles:vs=2", ANY, NSH | VS(2) | 0x11, "cpu_cycles:vs=2", "SPEC.md:247 VS"},
    {"cpu_cycles:k:m,nsk,mt,sync", ANY, U | M | NSK | MT | SYNC | 0x11,
     "cpu_cycles:k:nsk,m,mt,sync", "SPEC.md:242-243"},
    {"cpu_cycles:NSK,Mt", ANY, NSH | NSK | MT | 0x11, "cpu_cycles:nsk,mt", "SPEC.md:242"},
    /* thresholds, TE=0: TC[2:1] the condition, TC[0] adds 1 */
    {"stall_slot:th!=3", ANY, TC(0) | TH(3) | NSH | 0x3f, "stall_slot:th!=3", "SPEC.md:220 00"},
    {"stall_slot:th==3", ANY, TC(2) | TH(3) | NSH | 0x3f, "stall_slot:th==3", "SPEC.md:220 01"},
    {"stall_slot:th>=2", ANY, TC(4) | TH(2) | NSH | 0x3f, "stall_slot:th>=2", "SPEC.md:220 10"},
    {"stall_slot:th<3", ANY, TC(6) | TH(3) | NSH | 0x3f, "stall_slot:th<3", "SPEC.md:220 11"},
    {"stall_slot:th!=3,count", ANY, TC(1) | TH(3) | NSH | 0x3f, "stall_slot:th!=3,count",
     "SPEC.md:220 TC[0]=1"},
    {"stall_slot:th==3:count", ANY, TC(3) | TH(3) | NSH | 0x3f, "stall_slot:th==3,count",
     "SPEC.md:220"},
    {"stall_slot:th>=2:count", ANY, TC(5) | TH(2) | NSH | 0x3f, "stall_slot:th>=2,count",
     "SPEC.md:220"},
    {"stall_slot:th<3,count", ANY, TC(7) | TH(3) | NSH | 0x3f, "stall_slot:th<3,count",
     "SPEC.md:220"},
    {"stall_slot:th>=4095", ANY, TC(4) | TH(0xfff) | NSH | 0x3f, "stall_slot:th>=4095",
     "SPEC.md:216 TH 43:32"},
    {"stall_slot:th>=0x10", ANY, TC(4) | TH(16) | NSH | 0x3f, "stall_slot:th>=16", "SPEC.md:216"},
    {"stall_slot:th>=15", TH4, TC(4) | TH(15) | NSH | 0x3f, "stall_slot:th>=15",
     "SPEC.md:216 TH within THWIDTH"},
    {"stall_slot:th==0,count", ANY, TC(3) | NSH | 0x3f, "stall_slot:th==0,count", "SPEC.md:221"},
    {"stall_slot:th!=0", ANY, NSH | 0x3f, "stall_slot", "SPEC.md:221 TH=0 TC=0 no threshold"},
    {"stall_slot:count", ANY, TC(1) | NSH | 0x3f, "stall_slot:th!=0,count", "SPEC.md:220"},
    {"stall_slot:u:th>=2", ANY, TC(4) | TH(2) | P | 0x3f, "stall_slot:u:th>=2", "SPEC.md:220"},
    /* perf's arm_pmuv3 terms */
    {"stall_slot:threshold=2,threshold_compare=2", ANY, TC(4) | TH(2) | NSH | 0x3f,
     "stall_slot:th>=2", "SPEC.md:254"},
    {"stall_slot:threshold=2,threshold_compare=2,threshold_count=1", ANY,
     TC(5) | TH(2) | NSH | 0x3f, "stall_slot:th>=2,count", "SPEC.md:254"},
    {"stall_slot:threshold=7", ANY, TC(0) | TH(7) | NSH | 0x3f, "stall_slot:th!=7",
     "SPEC.md:254 (compare 0 is !=)"},
    {"stall_slot:threshold=3,threshold_compare=1", ANY, TC(2) | TH(3) | NSH | 0x3f,
     "stall_slot:th==3", "SPEC.md:254"},
    {"stall_slot:threshold=3,threshold_compare=3", ANY, TC(6) | TH(3) | NSH | 0x3f,
     "stall_slot:th<3", "SPEC.md:254"},
    {"stall_slot:threshold=3,threshold_count=0", ANY, TC(0) | TH(3) | NSH | 0x3f,
     "stall_slot:th!=3", "SPEC.md:254"},
    {"stall_slot/threshold=2,threshold_compare=2/u", ANY, TC(4) | TH(2) | P | 0x3f,
     "stall_slot:u:th>=2", "SPEC.md:254"},
    {"stall_slot/threshold=2/", ANY, TC(0) | TH(2) | NSH | 0x3f, "stall_slot:th!=2", "SPEC.md:254"},
    /* edges, TE=1: TC[2:1] the condition Ct, TC[1:0] x1 rising, 10 both */
    {"br_mis_pred:edge=rise,th>=5", ANY, TE | TC(5) | TH(5) | NSH | 0x10,
     "br_mis_pred:edge=rise,th>=5", "SPEC.md:224 101"},
    {"br_mis_pred:edge=fall,th>=5", ANY, TE | TC(7) | TH(5) | NSH | 0x10,
     "br_mis_pred:edge=rise,th<5", "SPEC.md:224 111"},
    {"br_mis_pred:edge=both,th>=5", ANY, TE | TC(6) | TH(5) | NSH | 0x10,
     "br_mis_pred:edge=both,th<5", "SPEC.md:224 110"},
    {"br_mis_pred:edge=rise,th<5", ANY, TE | TC(7) | TH(5) | NSH | 0x10,
     "br_mis_pred:edge=rise,th<5", "SPEC.md:224 111"},
    {"br_mis_pred:edge=fall,th<5", ANY, TE | TC(5) | TH(5) | NSH | 0x10,
     "br_mis_pred:edge=rise,th>=5", "SPEC.md:224 101"},
    {"br_mis_pred:edge=both,th<5", ANY, TE | TC(6) | TH(5) | NSH | 0x10,
     "br_mis_pred:edge=both,th<5", "SPEC.md:224 110"},
    {"br_mis_pred:edge=rise,th!=1", ANY, TE | TC(1) | TH(1) | NSH | 0x10,
     "br_mis_pred:edge=rise,th!=1", "SPEC.md:222 001"},
    {"br_mis_pred:edge=fall,th!=1", ANY, TE | TC(3) | TH(1) | NSH | 0x10,
     "br_mis_pred:edge=rise,th==1", "SPEC.md:223 011"},
    {"br_mis_pred:edge=both,th!=1", ANY, TE | TC(2) | TH(1) | NSH | 0x10,
     "br_mis_pred:edge=both,th==1", "SPEC.md:223 010"},
    {"br_mis_pred:edge=rise,th==1", ANY, TE | TC(3) | TH(1) | NSH | 0x10,
     "br_mis_pred:edge=rise,th==1", "SPEC.md:223 011"},
    {"br_mis_pred:edge=fall,th==1", ANY, TE | TC(1) | TH(1) | NSH | 0x10,
     "br_mis_pred:edge=rise,th!=1", "SPEC.md:222 001"},
    {"br_mis_pred:edge=both,th==1", ANY, TE | TC(2) | TH(1) | NSH | 0x10,
     "br_mis_pred:edge=both,th==1", "SPEC.md:223 010"},
    {"br_mis_pred:edge=rise", ANY, TE | TC(1) | NSH | 0x10, "br_mis_pred:edge=rise,th!=0",
     "SPEC.md:222 001"},
    {"br_mis_pred:th>=5,edge=rise", ANY, TE | TC(5) | TH(5) | NSH | 0x10,
     "br_mis_pred:edge=rise,th>=5", "SPEC.md:224"},
    {"br_mis_pred:te,th<5,count", ANY, TE | TC(7) | TH(5) | NSH | 0x10,
     "br_mis_pred:edge=rise,th<5", "SPEC.md:224 (te is the raw bit)"},
    {"br_mis_pred:threshold=5,threshold_compare=2,threshold_count=1,te", ANY,
     TE | TC(5) | TH(5) | NSH | 0x10, "br_mis_pred:edge=rise,th>=5", "SPEC.md:224"},
    /* threshold linking on an odd counter, TE=0: TC[0]:TLC */
    {"stall_slot:th>=2,tlc=1", ODD3, TC(4) | TH(2) | TLC(1) | NSH | 0x3f, "stall_slot:th>=2,tlc=1",
     "SPEC.md:237 0:01"},
    {"stall_slot:th>=2,tlc=2", ODD3, TC(4) | TH(2) | TLC(2) | NSH | 0x3f, "stall_slot:th>=2,tlc=2",
     "SPEC.md:237 0:10"},
    {"stall_slot:th>=2,count,tlc=1", ODD3, TC(5) | TH(2) | TLC(1) | NSH | 0x3f,
     "stall_slot:th>=2,count,tlc=1", "SPEC.md:237 1:01"},
    {"stall_slot:tlc=1", ANY, TLC(1) | NSH | 0x3f, "stall_slot:tlc=1",
     "SPEC.md:235 (counter not known)"},
    /* every field at once */
    {"stall_slot:k:th<9,count,tlc=1,nsk,nsu,m,mt,sh,rlk,rlu,rlh,vs=2,sync", ODD3,
     TC(7) | TH(9) | TLC(1) | VS(2) | SYNC | U | NSK | NSU | M | MT | SH | RLK | RLU | RLH | 0x3f,
     "stall_slot:k:th<9,count,tlc=1,nsk,nsu,m,mt,sh,rlk,rlu,rlh,sync,vs=2", "SPEC.md:216-217"},
};

static void check_golden(void)
{
	for (unsigned i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		const struct golden *g = &golden[i];
		struct arm64_ctx c = ctx_of(g->ctx);
		struct arm64_encoding enc;
		struct hpm_diag err;
		int rc = arm64_encode(g->expr, &c, &names, &enc, &err);
		if (!tap_ok(rc == 0, "encode '%s' (%s)", g->expr, g->src)) {
			tap_diag("error %d at %d: %s", err.code, hpm_diag_offset(&err), err.msg);
			tap_ok(false, "value of '%s'", g->expr);
			tap_ok(false, "canonical of '%s'", g->expr);
			tap_ok(false, "decode of '%s'", g->expr);
			continue;
		}
		tap_is_u64(enc.value, g->value, "'%s' = 0x%016" PRIx64 " (%s)", g->expr, g->value,
		           g->src);
		tap_is_str(enc.canonical, g->canonical, "canonical of '%s'", g->expr);
		struct arm64_decoded d;
		arm64_decode(g->value, &c, &names, &d);
		tap_ok(strcmp(d.expr, g->canonical) == 0 && d.exact && d.nr_issues == 0,
		       "decode 0x%016" PRIx64 " = '%s', exact (got '%s' exact=%d issues=%u)",
		       g->value, g->canonical, d.expr, d.exact, d.nr_issues);
	}
}

/* ------------------------------------------------ bad input */

static const struct bad {
	const char *expr;
	enum ctxkind ctx;
	int code;
	int pos;
	const char *needle; /* in the message */
	const char *src;
} bad[] = {
    {"nosuch", ANY, ARM64_EUNKNOWN, 0, "unknown event 'nosuch'", "unknown event"},
    {"  nosuch:u", ANY, ARM64_EUNKNOWN, 2, "nosuch", "unknown event"},
    {"0x10000", ANY, ARM64_ERANGE, 0, "0xffff", "SPEC.md:217 evtCount 15:0"},
    {"r10000", ANY, ARM64_ERANGE, 0, "0xffff", "SPEC.md:217"},
    {"r123456789abcdef01", ANY, ARM64_ERANGE, 0, "0xffff", "SPEC.md:217"},
    {"cnt_cycles", NOP1, ARM64_EFEATURE, 0, "FEAT_PMUv3p1", "SPEC.md:218"},
    {"0x400", NOP1, ARM64_EFEATURE, 0, "FEAT_PMUv3p1", "SPEC.md:218"},
    {"stall_slot:th>=4096", ANY, ARM64_ERANGE, 11, "4095", "SPEC.md:216 TH 43:32"},
    {"stall_slot:threshold=4096", ANY, ARM64_ERANGE, 11, "4095", "SPEC.md:216"},
    {"stall_slot:th>=16", TH4, ARM64_ERANGE, 11, "threshold width of 4 bits",
     "issue 13: TH beyond the threshold width"},
    {"stall_slot:u:th>=2", NOTH, ARM64_EFEATURE, 13, "FEAT_PMUv3_TH", "SPEC.md:219"},
    {"br_mis_pred:edge=rise", NOTH, ARM64_EFEATURE, 12, "FEAT_PMUv3_TH", "SPEC.md:222"},
    {"stall_slot:u:tlc=1", NOTH, ARM64_EFEATURE, 13, "FEAT_PMUv3_TH", "SPEC.md:235"},
    {"stall_slot:u:te,th<3", NOTH, ARM64_EFEATURE, 16, "FEAT_PMUv3_TH", "SPEC.md:222"},
    /* the optional fields without their features (issue 27, item 7) */
    {"br_mis_pred:edge=rise,th>=5", THONLY, ARM64_EFEATURE, 12,
     "Neoverse V2 has no FEAT_PMUv3_EDGE: TE is RES0", "SPEC.md:222 TE (FEAT_PMUv3_EDGE)"},
    {"stall_slot:th>=2,tlc=1", THONLY, ARM64_EFEATURE, 17, "FEAT_PMUv3_TH2: TLC",
     "SPEC.md:233 TLC (FEAT_PMUv3_TH2)"},
    {"cpu_cycles:mt", THONLY, ARM64_EFEATURE, 11, "FEAT_MTPMU: MT", "MT (FEAT_MTPMU)"},
    {"cpu_cycles:sh", THONLY, ARM64_EFEATURE, 11, "FEAT_SEL2: SH", "SH (FEAT_SEL2)"},
    {"cpu_cycles:u,rlu", THONLY, ARM64_EFEATURE, 13, "FEAT_RME: RLK, RLU and RLH",
     "RLK/RLU/RLH (FEAT_RME)"},
    {"cpu_cycles:vs=1", THONLY, ARM64_EFEATURE, 11, "FEAT_SME: VS", "VS (FEAT_SME)"},
    {"cpu_cycles:sync", THONLY, ARM64_EFEATURE, 11, "FEAT_SEBEP: SYNC", "SYNC (FEAT_SEBEP)"},
    {"cpu_cycles:t", THONLY, ARM64_EFEATURE, 11, "FEAT_TME: T", "T (FEAT_TME)"},
    /* reserved combinations */
    {"cpu_cycles:te", ANY, ARM64_ERESERVED, 11, "TC=0b000", "SPEC.md:224 TE=1 TC 000"},
    {"cpu_cycles:te,th>=3", ANY, ARM64_ERESERVED, 14, "TC=0b100", "SPEC.md:225 TE=1 TC 100"},
    {"cpu_cycles:th>=3,te", ANY, ARM64_ERESERVED, 17, "TC=0b100", "SPEC.md:225"},
    {"stall_slot:tlc=3", ANY, ARM64_ERESERVED, 11, "TLC=0b11", "SPEC.md:238 TLC = 11"},
    {"stall_slot:th>=2,tlc=1", EVEN2, ARM64_ERESERVED, 17, "even counter",
     "SPEC.md:238 TLC on an even counter"},
    {"stall_slot:tlc=2", EVEN2, ARM64_ERESERVED, 11, "counter 2", "SPEC.md:238"},
    {"br_mis_pred:edge=rise,th>=5,tlc=1", ANY, ARM64_ERESERVED, 28, "TE=1",
     "SPEC.md:236 linking is for TE=0"},
    {"br_mis_pred:tlc=2,edge=both", ANY, ARM64_ERESERVED, 18, "TE=1", "SPEC.md:236"},
    {"stall_slot:th>=2,count,tlc=2", ODD3, ARM64_ERESERVED, 23, "1:10", "SPEC.md:237-238 1:10"},
    {"stall_slot:tlc=2,th>=2,count", ODD3, ARM64_ERESERVED, 23, "1:10", "SPEC.md:237-238"},
    {"stall_slot:vs=3", ANY, ARM64_ERESERVED, 11, "VS=0b11", "SPEC.md:247 VS"},
    /* terms */
    {"stall_slot:th=2", ANY, ARM64_ETERM, 11, "threshold=N", "grammar"},
    {"stall_slot:th>2", ANY, ARM64_ETERM, 11, ">=", "grammar"},
    {"stall_slot:th<=2", ANY, ARM64_ETERM, 11, ">=", "grammar"},
    {"stall_slot:th", ANY, ARM64_ESYNTAX, 11, "condition", "grammar"},
    {"stall_slot:th>=x", ANY, ARM64_ESYNTAX, 11, "number", "grammar"},
    {"stall_slot:th>=2,th>=3", ANY, ARM64_ETERM, 17, "twice", "grammar"},
    {"stall_slot:th>=2,threshold=2", ANY, ARM64_ETERM, 17, "twice", "grammar"},
    {"stall_slot:th>=2:threshold_compare=2", ANY, ARM64_ETERM, 17, "twice", "grammar"},
    {"stall_slot:count,count", ANY, ARM64_ETERM, 17, "twice", "grammar"},
    {"stall_slot:edge=rise,count", ANY, ARM64_ETERM, 21, "count", "SPEC.md:222"},
    {"stall_slot:edge=rise,te", ANY, ARM64_ETERM, 21, "te", "grammar"},
    {"stall_slot:edge=up", ANY, ARM64_ETERM, 16, "rise, fall or both", "SPEC.md:222"},
    {"stall_slot:edge", ANY, ARM64_ESYNTAX, 11, "value", "grammar"},
    {"stall_slot:threshold_compare=2", ANY, ARM64_ETERM, 11, "threshold=N", "SPEC.md:233"},
    {"stall_slot:threshold=0,threshold_compare=2", ANY, ARM64_ETERM, 23, "threshold=N",
     "SPEC.md:233"},
    {"stall_slot:threshold_count=1", ANY, ARM64_ETERM, 11, "threshold=N", "SPEC.md:233"},
    {"stall_slot:threshold_compare=4", ANY, ARM64_ERANGE, 11, "at most 3", "SPEC.md:254"},
    {"stall_slot:threshold_count=2", ANY, ARM64_ERANGE, 11, "at most 1", "SPEC.md:254"},
    {"stall_slot:count=1", ANY, ARM64_ETERM, 11, "threshold_count", "grammar"},
    {"cpu_cycles:mt=2", ANY, ARM64_ERANGE, 11, "at most 1", "SPEC.md:243 MT is one bit"},
    {"cpu_cycles:tlc=4", ANY, ARM64_ERANGE, 11, "at most 3", "SPEC.md:216 TLC is two bits"},
    {"cpu_cycles:tlc", ANY, ARM64_ESYNTAX, 11, "value", "grammar"},
    {"cpu_cycles:p", ANY, ARM64_ETERM, 11, "unknown modifier or term 'p'", "perf letters"},
    {"cpu_cycles:G", ANY, ARM64_ETERM, 11, "'G'", "perf letters"},
    {"cpu_cycles:uu", ANY, ARM64_ETERM, 12, "twice", "perf letters"},
    {"cpu_cycles:u:k", ANY, ARM64_ETERM, 13, "twice", "one counter, one filter"},
    {"cpu_cycles:", ANY, ARM64_ESYNTAX, 11, "expected", "grammar"},
    {"cpu_cycles:u,", ANY, ARM64_ESYNTAX, 13, "expected", "grammar"},
    {"cpu_cycles x", ANY, ARM64_ESYNTAX, 11, "'x'", "grammar"},
    {"cpu_cycles/th>=2", ANY, ARM64_ESYNTAX, 16, "closing '/'", "grammar"},
    {"", ANY, ARM64_EEMPTY, 0, "no event", "grammar"},
    {"   ", ANY, ARM64_EEMPTY, 3, "no event", "grammar"},
    {"17", ANY, ARM64_ESYNTAX, 0, "0xHEX", "grammar"},
    {"0xZZ", ANY, ARM64_ESYNTAX, 0, "hex", "grammar"},
    {"0x", ANY, ARM64_ESYNTAX, 0, "hex", "grammar"},
    {":u", ANY, ARM64_ESYNTAX, 0, "expected an event", "grammar"},
    {"cpu\ncycles", ANY, ARM64_EUNKNOWN, 0, "unknown event 'cpu'", "grammar"},
};

static void check_bad(void)
{
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct bad *b = &bad[i];
		struct arm64_ctx c = ctx_of(b->ctx);
		struct arm64_encoding enc;
		struct hpm_diag err;
		int rc = arm64_encode(b->expr, &c, &names, &enc, &err);
		bool ok = rc == b->code && err.code == b->code && hpm_diag_offset(&err) == b->pos &&
		          strstr(err.msg, b->needle) && !strchr(err.msg, '\n') && *err.msg;
		if (!tap_ok(ok, "'%s' fails: %s at column %d, '%s' (%s)", b->expr,
		            arm64_strerror(b->code), b->pos, b->needle, b->src))
			tap_diag("got %d at %d: %s", rc, hpm_diag_offset(&err), err.msg);
	}
}

/* ------------------------------------------------ decode: rules, issues */

static const struct dgold {
	uint64_t value;
	enum ctxkind ctx;
	const char *expr;
	bool exact;
	const char *rule;
	const char *issue; /* in the first issue, or NULL for none */
	const char *src;
} dgold[] = {
    {TC(4) | TH(2) | NSH | 0x3f, ANY, "stall_slot:th>=2", true,
     "adds STALL_SLOT each cycle where STALL_SLOT >= 2", NULL, "SPEC.md:220"},
    {TC(5) | TH(2) | NSH | 0x3f, ANY, "stall_slot:th>=2,count", true,
     "adds 1 each cycle where STALL_SLOT >= 2", NULL, "SPEC.md:220"},
    {TC(0) | TH(3) | NSH | 0x3f, ANY, "stall_slot:th!=3", true,
     "adds STALL_SLOT each cycle where STALL_SLOT != 3", NULL, "SPEC.md:233"},
    {NSH | 0x3f, ANY, "stall_slot", true, "counts STALL_SLOT every cycle", NULL, "SPEC.md:232"},
    {TE | TC(5) | TH(5) | NSH | 0x10, ANY, "br_mis_pred:edge=rise,th>=5", true,
     "counts 1 per rising edge of BR_MIS_PRED >= 5", NULL, "SPEC.md:227"},
    {TE | TC(6) | TH(5) | NSH | 0x10, ANY, "br_mis_pred:edge=both,th<5", true,
     "counts 1 per edge of BR_MIS_PRED < 5, rising or falling", NULL, "SPEC.md:227"},
    {TC(4) | TH(2) | TLC(1) | NSH | 0x3f, ODD3, "stall_slot:th>=2,tlc=1", true,
     "adds STALL_SLOT each cycle where STALL_SLOT >= 2, else counter 2's increment", NULL,
     "SPEC.md:237 0:01"},
    {TC(4) | TH(2) | TLC(2) | NSH | 0x3f, ODD3, "stall_slot:th>=2,tlc=2", true,
     "adds counter 2's increment each cycle where STALL_SLOT >= 2", NULL, "SPEC.md:237 0:10"},
    {TC(5) | TH(2) | TLC(1) | NSH | 0x3f, ANY, "stall_slot:th>=2,count,tlc=1", true,
     "adds 1 each cycle where STALL_SLOT >= 2, else counter n-1's increment", NULL,
     "SPEC.md:237 1:01"},
    {NSH | 0x1ff, ANY, "0x1ff", true, "counts event 0x1ff every cycle", NULL, "SPEC.md:217"},
    {P | U | 0x11, ANY, "cpu_cycles:h:nsh=0", true, "counts CPU_CYCLES every cycle", NULL,
     "SPEC.md:242-243"},
    /* what no expression gives: exact is false and an issue says why */
    {TE | NSH | 0x11, ANY, "cpu_cycles:te", false,
     "reserved: TE=1 with TC=0b000 has no defined edge", "TC=0b000", "SPEC.md:224"},
    {TE | TC(4) | TH(1) | NSH | 0x11, ANY, "cpu_cycles:te,th>=1", false,
     "reserved: TE=1 with TC=0b100 has no defined edge", "TC=0b100", "SPEC.md:225"},
    {TLC(3) | NSH | 0x3f, ANY, "stall_slot:tlc=3", false, "reserved: TLC=0b11", "TLC=0b11",
     "SPEC.md:238"},
    {TLC(1) | TC(4) | TH(2) | NSH | 0x3f, EVEN2, "stall_slot:th>=2,tlc=1", false,
     "adds STALL_SLOT each cycle where STALL_SLOT >= 2, else counter 1's increment "
     "(reserved on even counter 2)",
     "even counter", "SPEC.md:238"},
    {TLC(2) | TC(5) | TH(2) | NSH | 0x3f, ANY, "stall_slot:th>=2,count,tlc=2", false,
     "reserved: TC[0]:TLC = 1:10", "1:10", "SPEC.md:237-238"},
    {TE | TLC(1) | TC(5) | TH(2) | NSH | 0x3f, ANY, "stall_slot:edge=rise,th>=2,tlc=1", false,
     "counts 1 per rising edge of STALL_SLOT >= 2; TLC=1 with TE=1 is reserved", "TE=1",
     "SPEC.md:236"},
    {VS(3) | NSH | 0x11, ANY, "cpu_cycles:vs=3", false, "counts CPU_CYCLES every cycle", "VS=0b11",
     "SPEC.md:247"},
    {B(59) | NSH | 0x11, ANY, "cpu_cycles", false, "counts CPU_CYCLES every cycle", "RES0",
     "SPEC.md:216 (59 RES0)"},
    {B(44) | NSH | 0x11, ANY, "cpu_cycles", false, "counts CPU_CYCLES every cycle", "RES0",
     "SPEC.md:216 (53:44 RES0)"},
    /* bit 23 is T (FEAT_TME), not RES0: the Arm ARM's PMEVTYPER<n>_EL0 page */
    {T | NSH | 0x11, ANY, "cpu_cycles:t", true, "counts CPU_CYCLES every cycle", NULL,
     "Arm ARM PMEVTYPER T 23"},
    {T | NSH | 0x11, THONLY, "cpu_cycles:t", false, "counts CPU_CYCLES every cycle", "FEAT_TME",
     "T without FEAT_TME: RES0 there"},
    {B(16) | NSH | 0x11, ANY, "cpu_cycles", false, "counts CPU_CYCLES every cycle", "RES0",
     "SPEC.md:217 (19:16 RES0)"},
    {NSH | 0x4004, NOP1, "cnt_cycles", false, "counts CNT_CYCLES every cycle", "FEAT_PMUv3p1",
     "SPEC.md:218"},
    /* TH bits at and above THWIDTH are RES0: the core keeps 20 & 0xf = 4 */
    {TC(4) | TH(20) | NSH | 0x3f, TH4, "stall_slot:th>=20", false,
     "adds STALL_SLOT each cycle where STALL_SLOT >= 4", "threshold width", "issue 13"},
    /* a field the core has not got: the rule is what it counts without it */
    {TE | TC(5) | TH(5) | NSH | 0x10, THONLY, "br_mis_pred:edge=rise,th>=5", false,
     "adds 1 each cycle where BR_MIS_PRED >= 5", "FEAT_PMUv3_EDGE", "issue 27 item 7"},
    {MT | NSH | 0x11, THONLY, "cpu_cycles:mt", false, "counts CPU_CYCLES every cycle", "FEAT_MTPMU",
     "issue 27 item 7"},
};

static void check_decode(void)
{
	for (unsigned i = 0; i < sizeof(dgold) / sizeof(dgold[0]); i++) {
		const struct dgold *g = &dgold[i];
		struct arm64_ctx c = ctx_of(g->ctx);
		struct arm64_decoded d;
		arm64_decode(g->value, &c, &names, &d);
		tap_is_str(d.expr, g->expr, "decode 0x%016" PRIx64 " expression (%s)", g->value,
		           g->src);
		tap_ok(d.exact == g->exact, "decode 0x%016" PRIx64 " exact=%d", g->value, g->exact);
		tap_is_str(d.rule, g->rule, "decode 0x%016" PRIx64 " rule", g->value);
		if (g->issue)
			tap_ok(d.nr_issues >= 1 && strstr(d.issues[0].msg, g->issue),
			       "decode 0x%016" PRIx64 " issue '%s' (got '%s')", g->value, g->issue,
			       d.nr_issues ? d.issues[0].msg : "none");
		else
			tap_ok(d.nr_issues == 0, "decode 0x%016" PRIx64 " has no issue", g->value);
	}
}

/* ------------------------------------------------ layout */

static void check_layout(void)
{
	uint64_t covered = 0;
	bool overlap = false;
	for (unsigned f = 0; f < ARM64_PF_NR; f++) {
		const struct arm64_pf_desc *d = &arm64_pf_desc[f];
		uint64_t m = ((d->hi == 63 ? 0 : B(d->hi + 1)) - B(d->lo));
		overlap |= (covered & m) != 0;
		covered |= m;
	}
	tap_ok(!overlap, "PMEVTYPER fields do not overlap (SPEC.md:216-217)");
	tap_is_u64(~covered, ARM64_PMEVTYPER_RES0, "RES0 = the bits no field covers");
	/* bit 23 is T (FEAT_TME), not RES0: the Arm ARM's PMEVTYPER<n>_EL0 page */
	tap_is_u64(ARM64_PMEVTYPER_RES0, B(59) | (B(54) - B(44)) | (B(20) - B(16)),
	           "RES0 = 59, 53:44, 19:16 (SPEC.md:216-217, the Arm ARM's T 23)");
	tap_is_u64(ARM64_PMCCFILTR_FIELDS & T, T, "PMCCFILTR_EL0 has T at 23 too");
	/* every field alone packs where the layout says and unpacks back */
	bool ok = true;
	for (unsigned f = 0; f < ARM64_PF_NR; f++) {
		struct arm64_pmevtyper t, u;
		const struct arm64_pf_desc *d = &arm64_pf_desc[f];
		uint32_t max = (uint32_t)((B(d->hi - d->lo + 1)) - 1);
		memset(&t, 0, sizeof(t));
		t.f[f] = max;
		uint64_t v = arm64_pmevtyper_pack(&t);
		arm64_pmevtyper_unpack(v, &u);
		ok &= v == (uint64_t)max << d->lo && memcmp(&t, &u, sizeof(t)) == 0;
	}
	tap_ok(ok, "pack/unpack of each field at its bits");
}

/* ------------------------------------------------ round trips */

static void check_roundtrip(void)
{
	static const char *const events[] = {"cpu_cycles", "stall_slot", "br_mis_pred",
	                                     "0x1ff",      "cnt_cycles", "sw_incr"};
	static const char *const letters[] = {"",    ":u",  ":k",  ":h",
	                                      ":uk", ":uh", ":kh", ":h,nsh=0"};
	static const char *const thr[] = {
	    "",
	    ":th!=3",
	    ":th==3",
	    ":th>=2",
	    ":th<7",
	    ":th!=3,count",
	    ":th==0,count",
	    ":th>=2,count",
	    ":th<4095,count",
	    ":threshold=5,threshold_compare=2",
	    ":threshold=5,threshold_compare=3,threshold_count=1",
	    ":edge=rise,th>=5",
	    ":edge=fall,th>=5",
	    ":edge=both,th>=5",
	    ":edge=rise,th!=1",
	    ":edge=fall,th==1",
	    ":edge=both,th!=0",
	    ":edge=rise",
	    ":th>=2,tlc=1",
	    ":th>=2,tlc=2",
	    ":th<3,count,tlc=1",
	};
	static const char *const extra[] = {"",           ":nsk,nsu", ":m,mt", ":sh,rlk,rlu,rlh",
	                                    ":vs=1,sync", ":vs=2"};
	struct arm64_ctx c = ctx_of(ODD3);
	unsigned n = 0, failed = 0;
	char expr[256];
	for (unsigned e = 0; e < 6; e++)
		for (unsigned l = 0; l < 8; l++)
			for (unsigned t = 0; t < sizeof(thr) / sizeof(thr[0]); t++)
				for (unsigned x = 0; x < 6; x++) {
					struct arm64_encoding a, b;
					struct arm64_decoded d;
					struct hpm_diag err;
					snprintf(expr, sizeof(expr), "%s%s%s%s", events[e],
					         letters[l], thr[t], extra[x]);
					n++;
					if (arm64_encode(expr, &c, &names, &a, &err)) {
						if (failed++ < 5)
							tap_diag("'%s': %s", expr, err.msg);
						continue;
					}
					arm64_decode(a.value, &c, &names, &d);
					if (!d.exact || strcmp(d.expr, a.canonical) ||
					    arm64_encode(d.expr, &c, &names, &b, &err) ||
					    b.value != a.value) {
						if (failed++ < 5)
							tap_diag("'%s' -> 0x%016" PRIx64 " -> '%s'",
							         expr, a.value, d.expr);
					}
				}
	tap_ok(failed == 0, "encode -> decode -> encode over %u expressions (%u failed)", n,
	       failed);

	/* Any value: when the checks find nothing it must have an exact
	 * spelling; when they find something it must not. */
	uint64_t x = UINT64_C(0x9e3779b97f4a7c15);
	unsigned bad_exact = 0, total = 200000;
	for (unsigned i = 0; i < total; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t v = x;
		if (i % 4)
			v &= ~ARM64_PMEVTYPER_RES0; /* mostly valid values */
		if (i % 3 == 0)
			v &= ~(uint64_t)0xfc00; /* small event numbers, named ones too */
		if (i % 5 == 0)
			v = (v & ~UINT64_C(0xffff)) | table[i % NR_TABLE].number;
		struct arm64_decoded d;
		struct arm64_ctx ci = ctx_of((enum ctxkind)(i % 6));
		arm64_decode(v, &ci, &names, &d);
		if (d.exact != (d.nr_issues == 0)) {
			if (bad_exact++ < 5)
				tap_diag("0x%016" PRIx64 ": '%s' exact=%d issues=%u %s", v, d.expr,
				         d.exact, d.nr_issues, d.nr_issues ? d.issues[0].msg : "");
		}
	}
	tap_ok(bad_exact == 0, "exact == no issues over %u values (%u wrong)", total, bad_exact);
}

int main(void)
{
	check_layout();
	check_golden();
	check_bad();
	check_decode();
	check_roundtrip();
	return tap_done();
}
