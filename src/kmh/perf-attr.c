/* perf-attr.c: Kunminghu events through Linux's RISC-V PMU driver; see
 * perf-attr.h. */
#include "kmh/perf-attr.h"

#include <stdio.h>
#include <string.h>

#include <linux/perf_event.h>

#include "kmh/kmh.h"
#include "kmh/model.h"

/* ------------------------------------------------------------ modes */

/* The INH bits riscv_pmu_sbi's pmu_sbi_get_filter_flags() makes OpenSBI set
 * for an attr, plus MINH, which OpenSBI always sets for Linux. */
static uint64_t sbi_inh(bool guest, bool eu, bool ek, bool eh, bool eH, bool eG)
{
	uint64_t inh = KMH_MINH;
	if (ek)
		inh |= guest ? KMH_VSINH : KMH_SINH;
	if (eu)
		inh |= guest ? KMH_VUINH : KMH_UINH;
	if (guest && eh)
		inh |= KMH_SINH;
	if (eH)
		inh |= KMH_UINH | KMH_SINH;
	if (eG)
		inh |= KMH_VSINH | KMH_VUINH;
	return inh;
}

/* What Linux 6.1's riscv_pmu_sbi asks OpenSBI to inhibit: pmu_sbi_ctr_get_idx()
 * sets SBI_PMU_CFG_FLAG_SET_SINH for exclude_kernel and SET_UINH for
 * exclude_user, and nothing else: exclude_hv, exclude_host, exclude_guest
 * and config1 are accepted and ignored, so VS and VU always count. */
static uint64_t sbi_inh_v6_1(bool guest, bool eu, bool ek, bool eh, bool eH, bool eG)
{
	(void)guest, (void)eh, (void)eH, (void)eG;
	uint64_t inh = KMH_MINH;
	if (ek)
		inh |= KMH_SINH;
	if (eu)
		inh |= KMH_UINH;
	return inh;
}

/* The driver's filter mapping by kernel version, oldest first. Linux 6.3
 * brought pmu_sbi_get_filter_flags() ("perf: RISC-V: Improve privilege mode
 * filtering for perf", with KVM's PMU support; renamed
 * rvpmu_sbi_get_filter_flags() later, same mapping): config1 bit 0 selects
 * guest events, and exclude_host / exclude_guest / exclude_hv are mapped. A
 * kernel whose version is unknown (no osrelease: a fake tree) gets the
 * newest row. */
static const struct sbi_filter_row {
	unsigned since; /* major * 1000 + minor */
	const char *driver;
	bool config1_guest; /* config1 bit 0 = guest events */
	uint64_t (*inh)(bool guest, bool eu, bool ek, bool eh, bool eH, bool eG);
} sbi_filter_rows[] = {
    {0, "Linux 6.1's RISC-V PMU driver (pmu_sbi_ctr_get_idx: exclude_user and exclude_kernel only)",
     false, sbi_inh_v6_1},
    {6003, "Linux's RISC-V PMU driver (pmu_sbi_get_filter_flags, 6.3 and later)", true, sbi_inh},
};

static const struct sbi_filter_row *sbi_filter_for(const struct hpm_model_perf_pmu *pmu)
{
	size_t n = sizeof(sbi_filter_rows) / sizeof(sbi_filter_rows[0]);
	unsigned v = pmu ? pmu->kernel_version : 0;
	if (v == 0)
		return &sbi_filter_rows[n - 1];
	const struct sbi_filter_row *r = &sbi_filter_rows[0];
	for (size_t i = 0; i < n; i++)
		if (sbi_filter_rows[i].since <= v)
			r = &sbi_filter_rows[i];
	return r;
}

/* The modes an INH set leaves counting (M never: OpenSBI sets MINH). */
static unsigned counted_modes(uint64_t inh)
{
	unsigned all = KMH_MODE_U | KMH_MODE_S | KMH_MODE_VU | KMH_MODE_VS, m = 0;
	for (unsigned b = 1; b <= KMH_MODE_VS; b <<= 1) {
		/* kmh_modes_to_inh gives the INH bits of the modes left out */
		uint64_t bit =
		    kmh_modes_to_inh(KMH_MODES_ALL & ~b) & ~kmh_modes_to_inh(KMH_MODES_ALL);
		if ((all & b) && !(inh & bit))
			m |= b;
	}
	return m;
}

int kmh_perf_modes_to_attr_for(const struct hpm_model_perf_pmu *pmu, unsigned modes,
                               struct hpm_model_perf_attr *out, unsigned *counted)
{
	if (modes & KMH_MODE_M)
		return 0;
	const unsigned guest_modes = KMH_MODE_VU | KMH_MODE_VS;
	const struct sbi_filter_row *row = sbi_filter_for(pmu);
	/* pass 0: exactly these modes; pass 1: these plus guest modes the
	 * driver cannot exclude (on a host, guest modes only run in a KVM guest).
	 * config1 = 0 first (the ordinary attr), then the fewest flags. */
	for (unsigned pass = 0; pass < 2; pass++)
		for (unsigned guest = 0; guest < (row->config1_guest ? 2u : 1u); guest++)
			for (unsigned bits = 0; bits <= 5; bits++)
				for (unsigned f = 0; f < 32; f++) {
					if ((unsigned)__builtin_popcount(f) != bits)
						continue;
					bool eu = f & 1, ek = f & 2, eh = f & 4, eH = f & 8,
					     eG = f & 16;
					unsigned c =
					    counted_modes(row->inh(guest, eu, ek, eh, eH, eG));
					if (pass == 0 ? c != modes
					              : (c & modes) != modes ||
					                    (c & ~modes & ~guest_modes))
						continue;
					/* ignored without config1 bit 0; set as perf's u/k do */
					if (!guest && (eu || ek))
						eh = true;
					out->exclude_user = eu;
					out->exclude_kernel = ek;
					out->exclude_hv = eh;
					out->exclude_host = eH;
					out->exclude_guest = eG;
					out->config1 = guest;
					if (counted)
						*counted = c;
					return pass == 0 ? 1 : 2;
				}
	return 0;
}

bool kmh_perf_modes_to_attr(unsigned modes, struct hpm_model_perf_attr *out)
{
	return kmh_perf_modes_to_attr_for(NULL, modes, out, NULL) == 1;
}

const char *kmh_perf_driver(const struct hpm_pmu_model *m, const struct hpm_model_perf_pmu *pmu)
{
	(void)m;
	return sbi_filter_for(pmu)->driver;
}

/* ------------------------------------------------------------ attrs */

uint32_t kmh_perf_bank_counters(const struct kmh_table *t, int bank)
{
	if (bank < 0 || bank >= KMH_NR_BANKS)
		return 0;
	const struct kmh_bank_desc *b = &t->banks[bank];
	uint32_t m = 0;
	for (unsigned c = b->first_counter; c <= b->last_counter && c < 32; c++)
		m |= UINT32_C(1) << c;
	return m;
}

/* The mhpmevent field a config bit belongs to, for messages. */
static const char *field_of_bit(unsigned bit)
{
	static const char *const ev[4] = {"EVENT0", "EVENT1", "EVENT2", "EVENT3"};
	static const char *const op[3] = {"OP_TYPE0", "OP_TYPE1", "OP_TYPE2"};
	if (bit < 40)
		return ev[bit / KMH_EVENT_BITS];
	if (bit < 55)
		return op[(bit - 40) / KMH_OP_BITS];
	return "reserved";
}

static int refuse_width(const struct hpm_model_perf_pmu *pmu, uint64_t extra, struct hpm_diag *err)
{
	const uint64_t op2 = (uint64_t)KMH_OP_MASK << KMH_OP_SHIFT(2);
	const char *sbi = pmu->event_mask == (UINT64_C(1) << 48) - 1 ? " (SBI < 3.0)" : "";
	if (extra & op2)
		return hpm_diag_fail(err, HPM_MODEL_EINVAL, -1,
		                     "needs OP_TYPE2 (bits 54:50) but this kernel takes %s%s",
		                     pmu->event_format, sbi);
	unsigned hi = 63u - (unsigned)__builtin_clzll(extra);
	unsigned lo = (unsigned)__builtin_ctzll(extra);
	return hpm_diag_fail(err, HPM_MODEL_EINVAL, -1,
	                     "needs config bits %u:%u (%s) but this kernel takes %s%s", hi, lo,
	                     field_of_bit(hi), pmu->event_format, sbi);
}

/* Put a counter mask into the counter-mask term's field, if it fits. */
static bool pin(struct hpm_model_perf_attr *out, const struct hpm_model_perf_pmu *pmu,
                uint32_t counters)
{
	if (!pmu->has_counter_mask || !counters ||
	    pmu->counter_mask_lo + 32 - (unsigned)__builtin_clz(counters) > 64)
		return false;
	uint64_t v = (uint64_t)counters << pmu->counter_mask_lo;
	if (v & ~pmu->counter_mask_bits)
		return false;
	if (pmu->counter_mask_field == 0)
		out->config |= v;
	else if (pmu->counter_mask_field == 1)
		out->config1 |= v;
	else
		out->config2 |= v;
	out->pinned = true;
	return true;
}

int kmh_perf_attr(const struct hpm_pmu_model *m, const struct hpm_event_code *c, bool optional,
                  const struct hpm_model_perf_pmu *pmu, struct hpm_model_perf_attr *out,
                  struct hpm_diag *err)
{
	char mbuf[24];
	const bool fixed = c->fixed >= 0;
	unsigned modes = c->modes;
	memset(out, 0, sizeof(*out));

	if (fixed && modes == 0)
		modes = KMH_MODES_DEFAULT;
	/* mcycle and minstret count M-mode too unless the core has Smcntrpmf,
	 * whatever Linux asks: "every mode" (KMH_MODES_ALL) is the default
	 * request for them, not an M-mode request */
	if (fixed && modes != KMH_MODE_M)
		modes &= ~(unsigned)KMH_MODE_M;
	/* A raw value's INH bits are its modes, but MINH is the kernel's to
	 * set; r35 means what it means to perf, not "count M-mode too". */
	if (!fixed && c->raw && !c->modes_given)
		modes &= ~(unsigned)KMH_MODE_M;
	if (modes & KMH_MODE_M)
		return hpm_diag_fail(
		    err, HPM_MODEL_EINVAL, -1,
		    "counts M-mode, and Linux cannot count M-mode (the emulator can: "
		    "--backend emu)");
	if (modes == 0)
		return hpm_diag_fail(err, HPM_MODEL_EINVAL, -1, "counts in no privilege mode");
	unsigned counted = 0;
	int how = kmh_perf_modes_to_attr_for(pmu, modes, out, &counted);
	if (how == 2) {
		/* counted, with guest modes the driver cannot leave out */
		out->extra_modes = counted & ~modes;
	} else if (how == 0) {
		char h[8], g[8];
		const char *hm = kmh_modes_to_modifiers(modes & (KMH_MODE_U | KMH_MODE_S), h);
		const char *gm = kmh_modes_to_modifiers(modes & (KMH_MODE_VU | KMH_MODE_VS), g);
		return hpm_diag_fail(
		    err, HPM_MODEL_EINVAL, -1,
		    "counts %s, a set of modes Linux's RISC-V PMU driver cannot select "
		    "exactly (its "
		    "exclude_* flags filter host and guest modes together); count the "
		    "host and guest "
		    "parts as two events (:%s and :%s)",
		    kmh_modes_str(modes, mbuf), hm ? hm : "?", gm ? gm : "?");
	}
	if (pmu->mode_filtering == 0 &&
	    (out->exclude_user || out->exclude_kernel || out->exclude_hv || out->exclude_host ||
	     out->exclude_guest))
		/* the driver sets PERF_PMU_CAP_NO_EXCLUDE without the overflow
		 * interrupt, and perf core then refuses every exclude_* flag */
		return hpm_diag_fail(
		    err, HPM_MODEL_EINVAL, -1,
		    "counts only %s, and this core has no Sscofpmf (not in cpuinfo's isa "
		    "line): Linux's RISC-V PMU driver then filters no privilege mode; count "
		    "it without modifiers",
		    kmh_modes_str(modes, mbuf));

	if (fixed) {
		/* mcycle is counter 0, minstret counter 2 */
		unsigned counter = (unsigned)c->fixed < hpm_model_kunminghu.nr_fixed
		                       ? hpm_model_kunminghu.fixed[c->fixed].counter
		                       : 0;
		out->type = PERF_TYPE_HARDWARE;
		out->config = counter == 0 ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_HW_INSTRUCTIONS;
		pin(out, pmu, UINT32_C(1) << counter);
		return 0;
	}

	out->type = pmu->type;
	out->config = c->value & KMH_SELECT_MASK;
	uint64_t extra = out->config & ~pmu->event_mask;
	/* a raw value's reserved bits 57:55 would be dropped by the kernel as
	 * silently as any bit beyond format/event: refused the same way */
	if (c->raw)
		extra |= c->value & KMH_RESERVED_MASK & ~pmu->event_mask;
	if (extra) {
		/* an event of -d's set: a row that says so, the run goes on */
		out->absent = optional;
		return refuse_width(pmu, extra, err);
	}
	if (!pin(out, pmu, kmh_perf_bank_counters(m->data, c->constraint))) {
		out->unpinned = true;
		out->unpinned_warning = pmu->has_counter_mask && c->constraint == KMH_BANK_NONE
		                            ? KMH_PERF_RAW_BANK_WARNING
		                            : KMH_PERF_BANK_WARNING;
	}
	return 0;
}
