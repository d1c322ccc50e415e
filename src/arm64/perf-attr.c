/* perf-attr.c: Arm PMUv3 events through Linux's arm_pmuv3 driver; see
 * perf-attr.h. */
#include "arm64/perf-attr.h"

#include <stdio.h>
#include <string.h>

#include "arm64/pmevtyper.h"
#include "util/str.h"

/* the exception levels as the models' mode bits (model.c) */
enum { EL0 = 1u << 0, EL1 = 1u << 1, EL2 = 1u << 2, ELS = 7u };

/* CPU_CYCLES, the event the driver counts on PMCCNTR_EL0 */
#define CPU_CYCLES 0x11u

/* the kernel release that brought the threshold terms and caps/threshold_max */
#define THRESHOLD_LINUX "Linux 6.8"

static bool format_of(const struct hpm_model_perf_pmu *pmu, const char *term,
                      struct hpm_model_perf_format *f)
{
	return pmu->format && pmu->format(pmu, term, f);
}

static const char *release_of(const struct hpm_model_perf_pmu *pmu)
{
	return pmu->kernel_release && pmu->kernel_release[0] ? pmu->kernel_release : "unknown";
}

/* The fields of t that armv8pmu_set_event_filter never writes. Every
 * kernel up to the newest this was checked against (6.8) writes evtCount,
 * U, P, NSH and, with a threshold, TH and TC; nothing else. */
static const unsigned unprogrammed[] = {
    ARM64_PF_TE,  ARM64_PF_TLC, ARM64_PF_MT,   ARM64_PF_SH,  ARM64_PF_T,
    ARM64_PF_M,   ARM64_PF_NSK, ARM64_PF_NSU,  ARM64_PF_RLK, ARM64_PF_RLU,
    ARM64_PF_RLH, ARM64_PF_VS,  ARM64_PF_SYNC,
};

static int refuse_unprogrammed(const struct arm64_pmevtyper *t, struct hpm_diag *err)
{
	char names[120];
	struct str_buf b = {names, sizeof(names), 0};
	names[0] = '\0';
	for (size_t i = 0; i < sizeof(unprogrammed) / sizeof(unprogrammed[0]); i++)
		if (t->f[unprogrammed[i]])
			str_buf_add(&b, "%s%s", b.n ? ", " : "",
			            arm64_pf_desc[unprogrammed[i]].name);
	if (t->res0)
		str_buf_add(&b, "%sRES0 bits 0x%llx", b.n ? ", " : "", (unsigned long long)t->res0);
	if (!b.n)
		return 0;
	return hpm_diag_fail(err, HPM_MODEL_EINVAL, -1,
	                     "sets %s, which Linux's arm_pmuv3 driver never programs (it writes "
	                     "evtCount, the U, P and NSH filters and, from " THRESHOLD_LINUX
	                     ", TH and TC): perf cannot count it as written",
	                     names);
}

/* TH and TC through the threshold terms (Linux 6.8 and later). */
static int put_threshold(const struct arm64_pmevtyper *t, const struct hpm_model_perf_pmu *pmu,
                         bool optional, struct hpm_model_perf_attr *out, struct hpm_diag *err)
{
	unsigned th = t->f[ARM64_PF_TH], tc = t->f[ARM64_PF_TC];
	if (!th && !tc)
		return 0;
	if (!th)
		/* the driver writes TC only with a non-zero threshold */
		return hpm_diag_fail(
		    err, HPM_MODEL_EINVAL, -1,
		    "sets TC=0b%u%u%u with TH=0, and Linux's arm_pmuv3 driver programs "
		    "TC only with a non-zero threshold",
		    tc >> 2 & 1, tc >> 1 & 1, tc & 1);
	struct hpm_model_perf_format fth, fcmp, fcnt;
	if (!format_of(pmu, "threshold", &fth) || !format_of(pmu, "threshold_compare", &fcmp) ||
	    !format_of(pmu, "threshold_count", &fcnt)) {
		out->absent = optional;
		return hpm_diag_fail(
		    err, HPM_MODEL_EINVAL, -1,
		    "has a threshold (TH=%u), and this kernel (%s) has no threshold "
		    "format terms in %s/format: " THRESHOLD_LINUX
		    " added threshold, threshold_compare and threshold_count",
		    th, release_of(pmu), pmu->pmu_name ? pmu->pmu_name : "the PMU's");
	}
	uint64_t max;
	if (pmu->cap && pmu->cap(pmu, "threshold_max", &max) && th > max) {
		out->absent = optional;
		if (max == 0)
			return hpm_diag_fail(err, HPM_MODEL_EINVAL, -1,
			                     "has a threshold (TH=%u), and this core has none "
			                     "(caps/threshold_max is 0: no FEAT_PMUv3_TH)",
			                     th);
		return hpm_diag_fail(err, HPM_MODEL_EINVAL, -1,
		                     "has threshold %u, above this PMU's caps/threshold_max (%llu, "
		                     "2^PMMIR_EL1.THWIDTH - 1)",
		                     th, (unsigned long long)max);
	}
	/* perf's split of TC: threshold_compare is TC[2:1], threshold_count TC[0] */
	if (!hpm_model_perf_put(out, &fth, th))
		return hpm_diag_fail(err, HPM_MODEL_EINVAL, -1,
		                     "has threshold %u, wider than format/threshold (%s)", th,
		                     fth.text);
	if (!hpm_model_perf_put(out, &fcmp, tc >> 1) || !hpm_model_perf_put(out, &fcnt, tc & 1))
		return hpm_diag_fail(err, HPM_MODEL_EINVAL, -1,
		                     "has TC=%u, wider than format/threshold_compare (%s) and "
		                     "threshold_count (%s)",
		                     tc, fcmp.text, fcnt.text);
	return 0;
}

int arm64_perf_attr(const struct hpm_pmu_model *m, const struct hpm_event_code *c, bool optional,
                    const struct hpm_model_perf_pmu *pmu, struct hpm_model_perf_attr *out,
                    struct hpm_diag *err)
{
	(void)m;
	struct arm64_pmevtyper t;
	memset(out, 0, sizeof(*out));
	memset(&t, 0, sizeof(t));
	unsigned modes = c->modes;
	if (c->fixed >= 0) {
		t.f[ARM64_PF_EVTCOUNT] = CPU_CYCLES;
		if (!modes)
			modes = ELS;
	} else {
		arm64_pmevtyper_unpack(c->value, &t);
		int rc = refuse_unprogrammed(&t, err);
		if (rc)
			return rc;
	}
	if (!(modes & ELS))
		return hpm_diag_fail(err, HPM_MODEL_EINVAL, -1,
		                     "counts at no exception level (P=1, U=1, NSH=0)");

	out->type = pmu->type;
	/* armv8pmu_set_event_filter: exclude_user sets U, exclude_kernel P,
	 * and !exclude_hv NSH (non-VHE; see perf-attr.h) */
	out->exclude_user = !(modes & EL0);
	out->exclude_kernel = !(modes & EL1);
	out->exclude_hv = !(modes & EL2);
	/* perf's event_attr_init sets exclude_guest unless it runs as perf kvm,
	 * and arm64 KVM reads it (a guest's EL1 and EL0 are not counted on the
	 * host's events): the same attr as perf stat -e EVENT */
	out->exclude_guest = true;

	struct hpm_model_perf_format fev;
	if (!format_of(pmu, "event", &fev)) {
		/* no lookup (a caller that only knows format/event's mask) */
		fev.field = 0;
		fev.mask = pmu->event_mask;
		fev.text = pmu->event_format ? pmu->event_format : "?";
	}
	unsigned evt = t.f[ARM64_PF_EVTCOUNT];
	if (!hpm_model_perf_put(out, &fev, evt)) {
		out->absent = optional;
		return hpm_diag_fail(err, HPM_MODEL_EINVAL, -1,
		                     "has event number 0x%x, which this kernel's format/event (%s) "
		                     "cannot hold",
		                     evt, fev.text);
	}
	return put_threshold(&t, pmu, optional, out, err);
}

const char *arm64_perf_driver(const struct hpm_pmu_model *m, const struct hpm_model_perf_pmu *pmu)
{
	(void)m;
	struct hpm_model_perf_format f;
	return format_of(pmu, "threshold", &f)
	           ? "Linux's arm_pmuv3 driver with threshold terms (" THRESHOLD_LINUX " and later)"
	           : "Linux's arm_pmuv3 driver without threshold terms (before " THRESHOLD_LINUX
	             ")";
}
