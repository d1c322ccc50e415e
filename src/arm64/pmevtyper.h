/* pmevtyper.h: the Arm PMUv3 event-type register PMEVTYPER<n>_EL0.
 *
 * Owns: its field layout (SPEC §5: TC 63:61, TE 60, SYNC 58, VS 57:56, TLC
 * 55:54, TH 43:32, P 31, U 30, NSK 29, NSU 28, NSH 27, M 26, MT 25, SH 24,
 * T 23, RLK 22, RLU 21, RLH 20, evtCount 15:0; every other bit RES0), the packing
 * of fields into a value and back, the checks of the combinations the Arm
 * ARM reserves (each with the reason and the fields to blame), and the
 * counting rule of a value in words. What a core implements (FEAT_PMUv3p1,
 * the threshold width, which counter the value is for) comes from the
 * caller in struct arm64_ctx. Never prints, never exits.
 */
#ifndef HPM_ARM64_PMEVTYPER_H
#define HPM_ARM64_PMEVTYPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The fields, in bit order (low to high). */
enum arm64_pf {
	ARM64_PF_EVTCOUNT, /* 15:0 (15:10 needs FEAT_PMUv3p1) */
	ARM64_PF_RLH,      /* 20: Realm EL2 counted when RLH != NSH */
	ARM64_PF_RLU,      /* 21: Realm EL0 counted when RLU == U */
	ARM64_PF_RLK,      /* 22: Realm EL1 counted when RLK == P */
	ARM64_PF_T,        /* 23: 1 does not count in Transactional state (FEAT_TME) */
	ARM64_PF_SH,       /* 24: Secure EL2 counted when SH != NSH */
	ARM64_PF_MT,       /* 25: count the events of every PE of the core */
	ARM64_PF_M,        /* 26: EL3 counted when M == P */
	ARM64_PF_NSH,      /* 27: 1 counts EL2 */
	ARM64_PF_NSU,      /* 28: Non-secure EL0 counted when NSU == U */
	ARM64_PF_NSK,      /* 29: Non-secure EL1 counted when NSK == P */
	ARM64_PF_U,        /* 30: 1 does not count EL0 */
	ARM64_PF_P,        /* 31: 1 does not count EL1 */
	ARM64_PF_TH,       /* 43:32 threshold */
	ARM64_PF_TLC,      /* 55:54 threshold linking (FEAT_PMUv3_TH2) */
	ARM64_PF_VS,       /* 57:56 SME streaming-mode filter */
	ARM64_PF_SYNC,     /* 58 synchronous overflow exception */
	ARM64_PF_TE,       /* 60 edge detection (FEAT_PMUv3_EDGE) */
	ARM64_PF_TC,       /* 63:61 threshold condition */
	ARM64_PF_NR,
};

struct arm64_pf_desc {
	const char *name; /* "evtCount", "TC", ... as the Arm ARM writes them */
	unsigned hi, lo;
	const char *meaning; /* a short phrase for people */
};
extern const struct arm64_pf_desc arm64_pf_desc[ARM64_PF_NR];

/* Bits no field covers: 59, 53:44, 19:16. */
#define ARM64_PMEVTYPER_RES0 UINT64_C(0x083ff000000f0000)
/* The fields PMCCFILTR_EL0 shares with PMEVTYPER<n>_EL0, the filters of
 * the cycle counter: P, U, NSK, NSU, NSH, M, SH, T, RLK, RLU, RLH and VS (no
 * evtCount, MT, TH, TC, TE, TLC or SYNC). */
#define ARM64_PMCCFILTR_FIELDS UINT64_C(0x03000000fdf00000)

/* TC[2:1], the threshold condition on the per-cycle event value VB. */
enum arm64_cond {
	ARM64_COND_NE, /* VB != TH */
	ARM64_COND_EQ, /* VB == TH */
	ARM64_COND_GE, /* VB >= TH */
	ARM64_COND_LT, /* VB < TH */
};
/* "!=", "==", ">=", "<". */
const char *arm64_cond_symbol(unsigned cond);

struct arm64_pmevtyper {
	uint32_t f[ARM64_PF_NR]; /* each field's value, right-aligned */
	uint64_t res0;           /* RES0 bits: as found by unpack, set by pack */
};

void arm64_pmevtyper_unpack(uint64_t value, struct arm64_pmevtyper *t);
/* Field values wider than their field are cut to it. */
uint64_t arm64_pmevtyper_pack(const struct arm64_pmevtyper *t);

/* What a core implements; the checks assume the most when not known. A
 * core's own comes from its feature profile (arm64/features.h:
 * arm_emu_features_ctx), the one the emulator implements. */
struct arm64_ctx {
	int counter;  /* the n of PMEVTYPER<n>_EL0 (0..30), -1 when not known */
	int thwidth;  /* PMMIR_EL1.THWIDTH: 0 no FEAT_PMUv3_TH, 1..12 the
	               * width of TH; -1 not known (all 12 bits) */
	bool pmuv3p1; /* FEAT_PMUv3p1: evtCount[15:10] may be non-zero */
	/* the optional fields, RES0 without their feature */
	bool edge;        /* FEAT_PMUv3_EDGE: TE */
	bool th2;         /* FEAT_PMUv3_TH2: TLC */
	bool mt;          /* FEAT_MTPMU: MT */
	bool sel2;        /* FEAT_SEL2: SH */
	bool rme;         /* FEAT_RME: RLK, RLU, RLH */
	bool sme;         /* FEAT_SME: VS */
	bool sebep;       /* FEAT_SEBEP: SYNC */
	bool tme;         /* FEAT_TME: T */
	const char *core; /* for messages ("Neoverse N1"); NULL: "the core" */
};
/* Nothing known: any counter, a 12-bit TH, every feature. */
#define ARM64_CTX_ANY                                                                              \
	((struct arm64_ctx){.counter = -1,                                                         \
	                    .thwidth = -1,                                                         \
	                    .pmuv3p1 = true,                                                       \
	                    .edge = true,                                                          \
	                    .th2 = true,                                                           \
	                    .mt = true,                                                            \
	                    .sel2 = true,                                                          \
	                    .rme = true,                                                           \
	                    .sme = true,                                                           \
	                    .sebep = true,                                                         \
	                    .tme = true})

/* The bits of PMEVTYPER<n>_EL0 a core described by ctx implements (ctx
 * NULL: ARM64_CTX_ANY): the filters, evtCount (15:0 with FEAT_PMUv3p1,
 * else 9:0), TH up to THWIDTH and TC with FEAT_PMUv3_TH, and each optional
 * field with its feature. The other bits are RES0 there: a write drops
 * them, which is what the emulator does. */
uint64_t arm64_pmevtyper_implemented(const struct arm64_ctx *ctx);

/* One problem the checks found: a reserved combination, a value out of
 * range, or a field that needs a feature the core does not have. */
struct arm64_issue {
	int code;      /* ARM64_ERESERVED, ARM64_ERANGE or ARM64_EFEATURE (arm64.h) */
	int field;     /* enum arm64_pf to blame, -1 none (RES0 bits) */
	int field2;    /* a second field of the combination, -1 none */
	char msg[200]; /* one sentence: what is wrong and why */
};

#define ARM64_MAX_ISSUES 10

/* Checks t against the Arm ARM's reserved combinations and what ctx says
 * the core has: TE=1 with TC 000 or 100, TLC=11, TLC != 0 on an even
 * counter, TLC != 0 with TE=1, TC[0]:TLC = 1:10, VS=11, TH beyond THWIDTH
 * (or any threshold without FEAT_PMUv3_TH), evtCount above 0x3FF without
 * FEAT_PMUv3p1, a field of a feature the core has not got (TE, TLC, MT,
 * SH, T, RLK/RLU/RLH, VS, SYNC: ARM64_EFEATURE, the field to blame), RES0
 * bits set. Writes up to max issues to out and returns
 * how many there are (0: the value is valid). */
unsigned arm64_pmevtyper_check(const struct arm64_pmevtyper *t, const struct arm64_ctx *ctx,
                               struct arm64_issue *out, unsigned max);

/* The counting rule of t in words, with `event` (the caller's name for
 * evtCount, e.g. "STALL_SLOT") for the per-cycle value: "adds 1 each cycle
 * where STALL_SLOT >= 2", "counts 1 per rising edge of BR_MIS_PRED >= 5",
 * "counts STALL_SLOT every cycle". counter (-1 unknown) names the linked
 * counter n-1 of the TLC forms. Reserved combinations say so. */
void arm64_pmevtyper_rule(const struct arm64_pmevtyper *t, const char *event, int counter,
                          char *buf, size_t len);

#endif
