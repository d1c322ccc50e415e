/* pmevtyper.c: PMEVTYPER<n>_EL0 fields, their reserved combinations and
 * the counting rule in words (SPEC §5; the Arm ARM where SPEC is silent).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arm64/arm64.h"
#include "arm64/pmevtyper.h"
#include "util/str.h"

const struct arm64_pf_desc arm64_pf_desc[ARM64_PF_NR] = {
    [ARM64_PF_EVTCOUNT] = {"evtCount", 15, 0, "event number"},
    [ARM64_PF_RLH] = {"RLH", 20, 20, "Realm EL2 counted when RLH != NSH"},
    [ARM64_PF_RLU] = {"RLU", 21, 21, "Realm EL0 counted when RLU == U"},
    [ARM64_PF_RLK] = {"RLK", 22, 22, "Realm EL1 counted when RLK == P"},
    [ARM64_PF_T] = {"T", 23, 23, "1 does not count in Transactional state"},
    [ARM64_PF_SH] = {"SH", 24, 24, "Secure EL2 counted when SH != NSH"},
    [ARM64_PF_MT] = {"MT", 25, 25, "counts the events of every PE of the core"},
    [ARM64_PF_M] = {"M", 26, 26, "EL3 counted when M == P"},
    [ARM64_PF_NSH] = {"NSH", 27, 27, "1 counts EL2"},
    [ARM64_PF_NSU] = {"NSU", 28, 28, "Non-secure EL0 counted when NSU == U"},
    [ARM64_PF_NSK] = {"NSK", 29, 29, "Non-secure EL1 counted when NSK == P"},
    [ARM64_PF_U] = {"U", 30, 30, "1 does not count EL0"},
    [ARM64_PF_P] = {"P", 31, 31, "1 does not count EL1"},
    [ARM64_PF_TH] = {"TH", 43, 32, "threshold"},
    [ARM64_PF_TLC] = {"TLC", 55, 54, "threshold linking with counter n-1"},
    [ARM64_PF_VS] = {"VS", 57, 56, "SME streaming-mode filter"},
    [ARM64_PF_SYNC] = {"SYNC", 58, 58, "synchronous overflow exception"},
    [ARM64_PF_TE] = {"TE", 60, 60, "edge detection"},
    [ARM64_PF_TC] = {"TC", 63, 61, "threshold condition"},
};

const char *arm64_cond_symbol(unsigned cond)
{
	static const char *const sym[4] = {"!=", "==", ">=", "<"};
	return sym[cond & 3];
}

static uint64_t field_mask(unsigned f)
{
	unsigned w = arm64_pf_desc[f].hi - arm64_pf_desc[f].lo + 1;
	return (UINT64_C(1) << w) - 1;
}

void arm64_pmevtyper_unpack(uint64_t value, struct arm64_pmevtyper *t)
{
	for (unsigned f = 0; f < ARM64_PF_NR; f++)
		t->f[f] = (uint32_t)((value >> arm64_pf_desc[f].lo) & field_mask(f));
	t->res0 = value & ARM64_PMEVTYPER_RES0;
}

uint64_t arm64_pmevtyper_pack(const struct arm64_pmevtyper *t)
{
	uint64_t v = t->res0 & ARM64_PMEVTYPER_RES0;
	for (unsigned f = 0; f < ARM64_PF_NR; f++)
		v |= ((uint64_t)t->f[f] & field_mask(f)) << arm64_pf_desc[f].lo;
	return v;
}

/* The optional fields (besides TH and TC, which THWIDTH says) and the
 * feature each needs. */
struct optional_field {
	int fields[3]; /* -1 past the last */
	const char *names, *feature;
};
static const struct optional_field optional[] = {
    {{ARM64_PF_TE, -1, -1}, "TE", "FEAT_PMUv3_EDGE"},
    {{ARM64_PF_TLC, -1, -1}, "TLC", "FEAT_PMUv3_TH2"},
    {{ARM64_PF_MT, -1, -1}, "MT", "FEAT_MTPMU"},
    {{ARM64_PF_SH, -1, -1}, "SH", "FEAT_SEL2"},
    {{ARM64_PF_T, -1, -1}, "T", "FEAT_TME"},
    {{ARM64_PF_RLK, ARM64_PF_RLU, ARM64_PF_RLH}, "RLK, RLU and RLH", "FEAT_RME"},
    {{ARM64_PF_VS, -1, -1}, "VS", "FEAT_SME"},
    {{ARM64_PF_SYNC, -1, -1}, "SYNC", "FEAT_SEBEP"},
};

static bool has_feature(const struct arm64_ctx *ctx, const struct optional_field *o)
{
	switch (o->fields[0]) {
	case ARM64_PF_TE:
		return ctx->edge && ctx->thwidth != 0;
	case ARM64_PF_TLC:
		return ctx->th2 && ctx->thwidth != 0;
	case ARM64_PF_MT:
		return ctx->mt;
	case ARM64_PF_SH:
		return ctx->sel2;
	case ARM64_PF_T:
		return ctx->tme;
	case ARM64_PF_RLK:
		return ctx->rme;
	case ARM64_PF_VS:
		return ctx->sme;
	default:
		return ctx->sebep;
	}
}

uint64_t arm64_pmevtyper_implemented(const struct arm64_ctx *ctx)
{
	struct arm64_ctx any = ARM64_CTX_ANY;
	if (!ctx)
		ctx = &any;
	uint64_t m = ~ARM64_PMEVTYPER_RES0;
	if (!ctx->pmuv3p1)
		m &= ~(field_mask(ARM64_PF_EVTCOUNT) & ~UINT64_C(0x3ff));
	if (ctx->thwidth == 0)
		m &= ~(field_mask(ARM64_PF_TH) << 32 | field_mask(ARM64_PF_TC) << 61);
	else if (ctx->thwidth > 0 && ctx->thwidth < 12)
		m &= ~((field_mask(ARM64_PF_TH) & ~((UINT64_C(1) << ctx->thwidth) - 1)) << 32);
	for (unsigned i = 0; i < sizeof(optional) / sizeof(optional[0]); i++)
		if (!has_feature(ctx, &optional[i]))
			for (unsigned k = 0; k < 3 && optional[i].fields[k] >= 0; k++) {
				unsigned f = (unsigned)optional[i].fields[k];
				m &= ~(field_mask(f) << arm64_pf_desc[f].lo);
			}
	return m;
}

struct issues {
	struct arm64_issue *out;
	unsigned max, n;
};

static void add(struct issues *is, int code, int field, int field2, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void add(struct issues *is, int code, int field, int field2, const char *fmt, ...)
{
	if (is->n < is->max) {
		struct arm64_issue *i = &is->out[is->n];
		va_list ap;
		i->code = code;
		i->field = field;
		i->field2 = field2;
		va_start(ap, fmt);
		vsnprintf(i->msg, sizeof(i->msg), fmt, ap);
		va_end(ap);
	}
	is->n++;
}

unsigned arm64_pmevtyper_check(const struct arm64_pmevtyper *t, const struct arm64_ctx *ctx,
                               struct arm64_issue *out, unsigned max)
{
	struct arm64_ctx any = ARM64_CTX_ANY;
	struct issues is = {out, max, 0};
	const uint32_t *f = t->f;
	if (!ctx)
		ctx = &any;

	if (f[ARM64_PF_TE] && (f[ARM64_PF_TC] & 3) == 0)
		add(&is, ARM64_ERESERVED, ARM64_PF_TE, ARM64_PF_TC,
		    "TE=1 with TC=0b%u00 is reserved: an edge needs TC[1:0] to pick the rising "
		    "edge (x1) or both edges (10)",
		    f[ARM64_PF_TC] >> 2);
	if (f[ARM64_PF_TLC] == 3)
		add(&is, ARM64_ERESERVED, ARM64_PF_TLC, -1,
		    "TLC=0b11 is reserved: threshold linking is 0b00, 0b01 or 0b10");
	if (f[ARM64_PF_TLC] && ctx->counter >= 0 && ctx->counter % 2 == 0)
		add(&is, ARM64_ERESERVED, ARM64_PF_TLC, -1,
		    "TLC links counter n with counter n-1 and is reserved on an even counter "
		    "(this is counter %d)",
		    ctx->counter);
	if (f[ARM64_PF_TLC] && f[ARM64_PF_TLC] != 3 && f[ARM64_PF_TE])
		add(&is, ARM64_ERESERVED, ARM64_PF_TLC, ARM64_PF_TE,
		    "TLC=0b%u%u with TE=1 is reserved: threshold linking is defined for the "
		    "threshold forms (TE=0) only",
		    f[ARM64_PF_TLC] >> 1, f[ARM64_PF_TLC] & 1);
	if (f[ARM64_PF_TLC] == 2 && !f[ARM64_PF_TE] && (f[ARM64_PF_TC] & 1))
		add(&is, ARM64_ERESERVED, ARM64_PF_TLC, ARM64_PF_TC,
		    "TC[0]:TLC = 1:10 is reserved: with TLC=0b10 the condition passes on counter "
		    "n-1's increment, which cannot be counted as 1");
	if (f[ARM64_PF_VS] == 3)
		add(&is, ARM64_ERESERVED, ARM64_PF_VS, -1,
		    "VS=0b11 is reserved: 0b01 leaves out Streaming SVE mode, 0b10 Non-streaming "
		    "mode");
	const char *core = ctx->core ? ctx->core : "the core";
	if (ctx->thwidth == 0 &&
	    (f[ARM64_PF_TH] || f[ARM64_PF_TC] || f[ARM64_PF_TE] || f[ARM64_PF_TLC])) {
		/* blame the first of these that is set */
		int blame = f[ARM64_PF_TH]   ? ARM64_PF_TH
		            : f[ARM64_PF_TC] ? ARM64_PF_TC
		            : f[ARM64_PF_TE] ? ARM64_PF_TE
		                             : ARM64_PF_TLC;
		add(&is, ARM64_EFEATURE, blame, -1,
		    "%s has no FEAT_PMUv3_TH (PMMIR_EL1.THWIDTH is 0): TH, TC, TE and TLC are "
		    "RES0 there, so it takes no threshold, edge or linking",
		    core);
	} else {
		/* the optional fields beside the threshold (TE and TLC build on it) */
		for (unsigned i = 0; i < sizeof(optional) / sizeof(optional[0]); i++) {
			const struct optional_field *o = &optional[i];
			int blame = -1;
			for (unsigned k = 0; k < 3 && blame < 0; k++)
				if (o->fields[k] >= 0 && f[o->fields[k]])
					blame = o->fields[k];
			if (blame < 0 || has_feature(ctx, o))
				continue;
			add(&is, ARM64_EFEATURE, blame, -1,
			    "%s has no %s: %s %s RES0 there (a write drops %s, and the counter "
			    "counts as if %s were 0)",
			    core, o->feature, o->names, o->fields[1] >= 0 ? "are" : "is",
			    o->fields[1] >= 0 ? "them" : "it", o->fields[1] >= 0 ? "they" : "it");
		}
	}
	if (ctx->thwidth > 0 && ctx->thwidth < 12 &&
	    f[ARM64_PF_TH] >= (UINT32_C(1) << ctx->thwidth))
		add(&is, ARM64_ERANGE, ARM64_PF_TH, -1,
		    "threshold %u is beyond %s's threshold width of %d bits (THWIDTH; at "
		    "most %u)",
		    f[ARM64_PF_TH], core, ctx->thwidth, (1u << ctx->thwidth) - 1);
	if (f[ARM64_PF_EVTCOUNT] > 0x3ff && !ctx->pmuv3p1)
		add(&is, ARM64_EFEATURE, ARM64_PF_EVTCOUNT, -1,
		    "event 0x%04x needs FEAT_PMUv3p1 (evtCount[15:10]), which %s does not "
		    "have: without it events are 0x0000-0x03ff",
		    f[ARM64_PF_EVTCOUNT], core);
	if (t->res0)
		add(&is, ARM64_ERESERVED, -1, -1,
		    "RES0 bits set: 0x%016llx (bits 59, 53:44 and 19:16 are RES0)",
		    (unsigned long long)t->res0);
	return is.n;
}

void arm64_pmevtyper_rule(const struct arm64_pmevtyper *t, const char *event, int counter,
                          char *buf, size_t len)
{
	const uint32_t *f = t->f;
	unsigned tc = f[ARM64_PF_TC], th = f[ARM64_PF_TH], tlc = f[ARM64_PF_TLC];
	struct str_buf o = {buf, len, 0};
	char cond[96], vm[48];
	if (!event || !*event)
		event = "VB";
	buf[0] = '\0';
	snprintf(cond, sizeof(cond), "%s %s %u", event, arm64_cond_symbol(tc >> 1), th);
	if (counter >= 1)
		snprintf(vm, sizeof(vm), "counter %d's increment", counter - 1);
	else
		snprintf(vm, sizeof(vm), "counter n-1's increment");

	if (f[ARM64_PF_TE]) {
		if ((tc & 3) == 0)
			str_buf_add(&o, "reserved: TE=1 with TC=0b%u00 has no defined edge",
			            tc >> 2);
		else if (tc & 1)
			str_buf_add(&o, "counts 1 per rising edge of %s", cond);
		else
			str_buf_add(&o, "counts 1 per edge of %s, rising or falling", cond);
		if (tlc)
			str_buf_add(&o, "; TLC=%u with TE=1 is reserved", tlc);
		return;
	}
	if (!tc && !th && !tlc) {
		str_buf_add(&o, "counts %s every cycle", event);
		return;
	}
	const char *when_true = (tc & 1) ? "1" : event;
	switch (tlc) {
	case 0:
		str_buf_add(&o, "adds %s each cycle where %s", when_true, cond);
		break;
	case 1:
		str_buf_add(&o, "adds %s each cycle where %s, else %s", when_true, cond, vm);
		break;
	case 2:
		if (tc & 1)
			str_buf_add(&o, "reserved: TC[0]:TLC = 1:10");
		else
			str_buf_add(&o, "adds %s each cycle where %s", vm, cond);
		break;
	default:
		str_buf_add(&o, "reserved: TLC=0b11");
		break;
	}
	if (tlc && counter >= 0 && counter % 2 == 0)
		str_buf_add(&o, " (reserved on even counter %d)", counter);
}
