/* pmu-access.c: the Arm emulator's PMU registers (see arm64/emu/pmu.h):
 * who may access which (EL0's PMUSERENR, EL2's traps, HPMN and EXTPMN's
 * ranges), what a read returns and a write changes, the external block,
 * and the PMU interrupt. The counting is pmu.c's; every access completes
 * the deferred counts first.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm64/emu/pmu-int.h"
#include "arm64/emu/pmu-state.h"
#include "arm64/emu/pmu.h"
#include "arm64/pmevtyper.h"

/* The event counters an access from el sees (PMCR_EL0.N as it reads). */
static unsigned visible_n(const struct arm_emu_pe *pe, unsigned el, bool ext)
{
	if (ext)
		return pe->m->f->nr_counters;
	return el <= 1 ? arm_emu_hpmn(pe) : epmn_of(pe);
}

static uint32_t visible_mask(const struct arm_emu_pe *pe, unsigned el, bool ext)
{
	return low_bits(visible_n(pe, el, ext)) | (uint32_t)ARM_EMU_CCNT_BIT;
}

/* Which counters count: PMCNTEN and the gate of their range. A counter
 * that becomes enabled starts its edge detection afresh (SPEC §5: no edge
 * in the first cycle after it is enabled). */
static void update_enables(struct arm_emu_pe *pe)
{
	unsigned h = arm_emu_hpmn(pe), e = epmn_of(pe), n = pe->m->f->nr_counters;
	uint32_t gate = 0;
	if (pe->pmcr & ARM_EMU_PMCR_E)
		gate |= low_bits(h) | (uint32_t)ARM_EMU_CCNT_BIT;
	if (pe->mdcr2 & ARM_EMU_MDCR2_HPME)
		gate |= low_bits(e) & ~low_bits(h);
	if (pe->exte & 1u)
		gate |= low_bits(n) & ~low_bits(e);
	uint32_t en = pe->cnten & gate;
	pe->edge_valid &= ~(en & ~pe->en_mask);
	pe->en_mask = en;
}

/* The implemented bits of PMEVTYPER<n>_EL0 (ccfilt: of PMCCFILTR_EL0):
 * fields of absent features are RES0, and so are TH bits at and above
 * THWIDTH. pmevtyper.c says which, for encode and decode too. */
static uint64_t typer_mask(const struct arm_emu_features *f, bool ccfilt)
{
	struct arm64_ctx ctx = arm_emu_features_ctx(f, -1, NULL);
	uint64_t m = arm64_pmevtyper_implemented(&ctx);
	return ccfilt ? m & ARM64_PMCCFILTR_FIELDS : m;
}

const char *arm_emu_exc_name(int exc)
{
	switch (exc) {
	case ARM_EMU_OK:
		return "ok";
	case ARM_EMU_UNDEFINED:
		return "UNDEFINED";
	case ARM_EMU_TRAP_EL1:
		return "trap-to-EL1";
	case ARM_EMU_TRAP_EL2:
		return "trap-to-EL2";
	case ARM_EMU_TRAP_EL3:
		return "trap-to-EL3";
	}
	return "?";
}

static bool is_ss_reg(unsigned reg)
{
	return reg == ARM_EMU_PMSSCR_EL1 || reg == ARM_EMU_PMEVCNTSVR_EL1 ||
	       reg == ARM_EMU_PMCCNTSVR_EL1;
}

/* EL0 accesses PMUSERENR_EL0 allows. */
static bool el0_allowed(const struct arm_emu_pe *pe, unsigned reg, bool write)
{
	uint64_t u = pe->userenr;
	if (u & ARM_EMU_USERENR_EN)
		return true;
	switch (reg) {
	case ARM_EMU_PMSWINC_EL0:
		return u & ARM_EMU_USERENR_SW;
	case ARM_EMU_PMCCNTR_EL0:
		return !write && (u & ARM_EMU_USERENR_CR);
	case ARM_EMU_PMEVCNTR_EL0:
	case ARM_EMU_PMXEVCNTR_EL0:
		return !write && (u & ARM_EMU_USERENR_ER);
	case ARM_EMU_PMSELR_EL0:
		return u & ARM_EMU_USERENR_ER;
	}
	return false;
}

/* The counter a counter register names; -1 for PMXEV* with SEL = 31
 * (PMXEVTYPER then means PMCCFILTR). */
static int counter_of(const struct arm_emu_pe *pe, unsigned reg, unsigned idx)
{
	if (reg == ARM_EMU_PMXEVTYPER_EL0 || reg == ARM_EMU_PMXEVCNTR_EL0) {
		unsigned sel = (unsigned)pe->selr & 31u;
		return sel == 31 ? -1 : (int)sel;
	}
	return (int)idx;
}

static bool is_counter_reg(unsigned reg)
{
	return reg == ARM_EMU_PMEVTYPER_EL0 || reg == ARM_EMU_PMEVCNTR_EL0 ||
	       reg == ARM_EMU_PMXEVTYPER_EL0 || reg == ARM_EMU_PMXEVCNTR_EL0 ||
	       reg == ARM_EMU_PMEVCNTSVR_EL1;
}

int arm_emu_snapshot(struct arm_emu_pe *pe)
{
	arm_emu_sync(pe);
	if (!pe->m->f->pmss)
		return -1;
	memcpy(pe->svr, pe->evcntr, sizeof(pe->svr));
	pe->ccsvr = pe->ccntr;
	pe->pmsscr = 0; /* NC = 0: captured; SS = 0: the Capture event completed */
	return 0;
}

/* The value of PMPCSR: the last PC a run executed with its EL (62:61) and
 * NS (63, also 1 for Realm); 0xFFFFFFFF when there is no sample: no PC
 * yet, PMPCSCTL.EN = 0 at level 2, or the PC ran where counting is
 * prohibited (Secure state or EL3 without MDCR_EL3.SPME). A read captures
 * the context ID and VMID of the same sample. */
static uint64_t pc_sample(struct arm_emu_pe *pe)
{
	const struct arm_emu_features *f = pe->m->f;
	if (!pe->have_pc || (f->pcsample >= 2 && !(pe->pcsctl & 1u)) ||
	    ((pe->pc_sec == ARM_EMU_SEC_S || pe->pc_sec == ARM_EMU_SEC_ROOT) &&
	     !(pe->mdcr3 & ARM_EMU_MDCR3_SPME)))
		return UINT32_MAX;
	pe->sample_ctx = pe->pc_ctx;
	pe->sample_vmid = pe->pc_vmid;
	uint64_t ns = pe->pc_sec == ARM_EMU_SEC_NS || pe->pc_sec == ARM_EMU_SEC_REALM;
	return (pe->pc & ((UINT64_C(1) << 56) - 1)) | ((uint64_t)pe->pc_el << 61) | (ns << 63);
}

/* access_other's result for a write that may have changed what counts:
 * do_access then decodes the rules again. */
enum { ACCESS_WRITTEN = -1 };

/* The registers beyond the counting ones: the ID registers, EL2's and
 * EL3's controls, the snapshot registers and the external block. */
static int access_other(struct arm_emu_pe *pe, unsigned reg, int n, bool write, uint64_t *val)
{
	const struct arm_emu_features *f = pe->m->f;
	uint64_t v = write ? *val : 0;
	bool p5 = f->pmuver >= 6;

	switch (reg) {
	case ARM_EMU_PMMIR_EL1:
		*val = f->slots | ((uint64_t)f->thwidth << 20) |
		       ((uint64_t)(f->edge ? 1 : 0) << 24) | ((uint64_t)(f->sme ? 1 : 0) << 28);
		return ARM_EMU_OK;
	case ARM_EMU_ID_AA64DFR0_EL1:
		*val = ((uint64_t)f->pmuver << 8) | ((uint64_t)f->pmss << 16) |
		       ((uint64_t)(f->mtpmu ? 1 : 0) << 48) | ((uint64_t)(f->hpmn0 ? 1 : 0) << 60);
		return ARM_EMU_OK;
	case ARM_EMU_MDCR_EL2:
		if (!write) {
			*val = pe->mdcr2;
			return ARM_EMU_OK;
		} else {
			uint64_t h = ARM_EMU_MDCR2_HPMN(v);
			if (h > f->nr_counters) /* CONSTRAINED UNPREDICTABLE: taken as N */
				h = f->nr_counters;
			if (h == 0 && !f->hpmn0) /* likewise, without FEAT_HPMN0: taken as 1 */
				h = 1;
			pe->mdcr2 =
			    h | (v & (ARM_EMU_MDCR2_TPMCR | ARM_EMU_MDCR2_TPM | ARM_EMU_MDCR2_HPME |
			              ARM_EMU_MDCR2_HPMD | (p5 ? ARM_EMU_MDCR2_HLP : 0)));
		}
		return ACCESS_WRITTEN;
	case ARM_EMU_MDCR_EL3:
		if (!write)
			*val = pe->mdcr3;
		else
			pe->mdcr3 = v & ARM_EMU_MDCR3_SPME;
		return ACCESS_WRITTEN;
	case ARM_EMU_PMSSCR_EL1:
		/* SS: a write of 1 requests a Capture event, which completes
		 * at once here (SS then reads 0); a write of 0 is ignored */
		if (!write)
			*val = pe->pmsscr;
		else if (v & ARM_EMU_PMSSCR_SS)
			arm_emu_snapshot(pe);
		return ARM_EMU_OK;
	case ARM_EMU_PMEVCNTSVR_EL1:
		*val = pe->svr[n];
		return ARM_EMU_OK;
	case ARM_EMU_PMCCNTSVR_EL1:
		*val = pe->ccsvr;
		return ARM_EMU_OK;
	/* the external block; registers of absent features are RES0 */
	case ARM_EMU_EXT_PMDEVID:
		*val = f->pcsample | (f->pmss << 4) | (f->extpmn << 8);
		return ARM_EMU_OK;
	case ARM_EMU_EXT_PMPCSR:
		*val = f->pcsample ? pc_sample(pe) : 0;
		return ARM_EMU_OK;
	case ARM_EMU_EXT_PMCID1SR:
		*val = f->pcsample ? pe->sample_ctx : 0;
		return ARM_EMU_OK;
	case ARM_EMU_EXT_PMVIDSR:
		*val = f->pcsample ? pe->sample_vmid : 0;
		return ARM_EMU_OK;
	case ARM_EMU_EXT_PMPCSCTL:
		if (!write)
			*val = f->pcsample >= 2 ? pe->pcsctl : 0;
		else if (f->pcsample >= 2)
			pe->pcsctl = v & 1u;
		return ARM_EMU_OK;
	case ARM_EMU_EXT_EPMN:
		if (!write)
			*val = f->extpmn ? pe->epmn : 0;
		else if (f->extpmn)
			pe->epmn = v > f->nr_counters ? f->nr_counters : v;
		return ACCESS_WRITTEN;
	case ARM_EMU_EXT_EXTE:
		if (!write)
			*val = f->extpmn ? pe->exte : 0;
		else if (f->extpmn)
			pe->exte = v & 1u;
		return ACCESS_WRITTEN;
	default:
		return ARM_EMU_UNDEFINED;
	}
}

/* Reads or writes a register once the access is allowed. vn: the counters
 * the accessor sees; ext: the external agent. */
static int do_access(struct arm_emu_pe *pe, unsigned el, unsigned reg, int n, bool write,
                     uint64_t *val, bool ext)
{
	arm_emu_sync(pe); /* exact at every access */
	const struct arm_emu_features *f = pe->m->f;
	uint32_t vis = visible_mask(pe, el, ext);
	uint64_t v = write ? *val : 0;
	bool p5 = f->pmuver >= 6;

	switch (reg) {
	case ARM_EMU_PMCR_EL0:
		if (!write) {
			*val = pe->pmcr | ((uint64_t)visible_n(pe, el, ext) << 11);
			return ARM_EMU_OK;
		}
		pe->pmcr = v & (ARM_EMU_PMCR_E | ARM_EMU_PMCR_DP | ARM_EMU_PMCR_LC |
		                (p5 ? ARM_EMU_PMCR_LP : 0));
		if (v & ARM_EMU_PMCR_P) /* the counters this EL sees */
			for (unsigned i = 0; i < visible_n(pe, el, ext); i++)
				pe->evcntr[i] = 0;
		if (v & ARM_EMU_PMCR_C)
			pe->ccntr = 0;
		break;
	case ARM_EMU_PMCNTENSET_EL0:
	case ARM_EMU_PMCNTENCLR_EL0:
	case ARM_EMU_PMINTENSET_EL1:
	case ARM_EMU_PMINTENCLR_EL1:
	case ARM_EMU_PMOVSSET_EL0:
	case ARM_EMU_PMOVSCLR_EL0: {
		uint32_t *r = reg <= ARM_EMU_PMCNTENCLR_EL0 ? &pe->cnten
		              : reg <= ARM_EMU_PMOVSCLR_EL0 ? &pe->ovs
		                                            : &pe->inten;
		bool set = reg == ARM_EMU_PMCNTENSET_EL0 || reg == ARM_EMU_PMINTENSET_EL1 ||
		           reg == ARM_EMU_PMOVSSET_EL0;
		if (!write) {
			*val = *r & vis;
			return ARM_EMU_OK;
		}
		uint32_t bits = (uint32_t)v & vis;
		if (set)
			*r |= bits;
		else
			*r &= ~bits;
		break;
	}
	case ARM_EMU_PMSELR_EL0:
		if (!write)
			*val = pe->selr;
		else
			pe->selr = v & 31u;
		break;
	case ARM_EMU_PMEVTYPER_EL0:
	case ARM_EMU_PMXEVTYPER_EL0:
		if (n < 0) { /* PMXEVTYPER with SEL = 31 */
			if (!write)
				*val = pe->ccfiltr;
			else
				pe->ccfiltr = v & typer_mask(f, true);
			break;
		}
		if (!write) {
			*val = pe->evtyper[n];
			return ARM_EMU_OK;
		}
		pe->evtyper[n] = v & typer_mask(f, false);
		/* SPEC §5: no edge in the first cycle after a write */
		pe->edge_valid &= ~(UINT32_C(1) << n);
		break;
	case ARM_EMU_PMEVCNTR_EL0:
	case ARM_EMU_PMXEVCNTR_EL0:
		if (!write)
			*val = pe->evcntr[n];
		else
			pe->evcntr[n] = p5 ? v : (v & UINT32_MAX);
		break;
	case ARM_EMU_PMCCNTR_EL0:
		if (!write)
			*val = pe->ccntr;
		else
			pe->ccntr = v;
		break;
	case ARM_EMU_PMCCFILTR_EL0:
		if (!write)
			*val = pe->ccfiltr;
		else
			pe->ccfiltr = v & typer_mask(f, true);
		break;
	case ARM_EMU_PMSWINC_EL0:
		arm_emu_sw_incr(pe, ext ? ARM_EMU_EL3 : el,
		                (uint32_t)v & vis & ~(uint32_t)ARM_EMU_CCNT_BIT);
		break;
	case ARM_EMU_PMUSERENR_EL0:
		if (!write)
			*val = pe->userenr;
		else
			pe->userenr = v & 15u;
		break;
	default: {
		int rc = access_other(pe, reg, n, write, val);
		if (rc != ACCESS_WRITTEN)
			return rc;
		break;
	}
	}
	if (write) {
		pe->dirty = true;
		update_enables(pe);
	}
	return ARM_EMU_OK;
}

static int sys_access(struct arm_emu_pe *pe, unsigned el, unsigned reg, unsigned idx, bool write,
                      uint64_t *val)
{
	const struct arm_emu_features *f = pe->m->f;
	if (reg >= ARM_EMU_NR_REGS || el > 3)
		return ARM_EMU_UNDEFINED;
	const struct arm_emu_reg_info *ri = &arm_emu_regs[reg];
	if (ri->external || (ri->indexed && idx >= NR_EV))
		return ARM_EMU_UNDEFINED;
	if (is_ss_reg(reg) && !f->pmss)
		return ARM_EMU_UNDEFINED;
	if ((write && ri->ro) || (!write && ri->wo))
		return ARM_EMU_UNDEFINED;
	if (el < ri->min_el)
		return ARM_EMU_UNDEFINED;
	int n = is_counter_reg(reg) ? counter_of(pe, reg, idx) : 0;
	if (n < 0 && reg == ARM_EMU_PMXEVCNTR_EL0)
		return ARM_EMU_UNDEFINED;
	/* a counter the PE does not have (or EXTPMN reserves) */
	if (is_counter_reg(reg) && n >= (int)epmn_of(pe))
		return ARM_EMU_UNDEFINED;
	if (el == 0) {
		if (reg == ARM_EMU_PMUSERENR_EL0 && write)
			return ARM_EMU_UNDEFINED;
		if (reg != ARM_EMU_PMUSERENR_EL0 && !el0_allowed(pe, reg, write))
			return ARM_EMU_TRAP_EL1;
	}
	if (el <= 1 && reg != ARM_EMU_ID_AA64DFR0_EL1) {
		if (pe->mdcr2 & ARM_EMU_MDCR2_TPM)
			return ARM_EMU_TRAP_EL2;
		if (reg == ARM_EMU_PMCR_EL0 && (pe->mdcr2 & ARM_EMU_MDCR2_TPMCR))
			return ARM_EMU_TRAP_EL2;
		if (is_counter_reg(reg) && n >= (int)arm_emu_hpmn(pe))
			return ARM_EMU_TRAP_EL2;
	}
	return do_access(pe, el, reg, n, write, val, false);
}

int arm_emu_read(struct arm_emu_pe *pe, unsigned el, unsigned reg, unsigned idx, uint64_t *val)
{
	uint64_t v = 0;
	int r = sys_access(pe, el, reg, idx, false, &v);
	if (r == ARM_EMU_OK)
		*val = v;
	return r;
}

int arm_emu_write(struct arm_emu_pe *pe, unsigned el, unsigned reg, unsigned idx, uint64_t val)
{
	return sys_access(pe, el, reg, idx, true, &val);
}

static int ext_access(struct arm_emu_pe *pe, unsigned reg, unsigned idx, bool write, uint64_t *val)
{
	const struct arm_emu_features *f = pe->m->f;
	if (reg >= ARM_EMU_NR_REGS)
		return ARM_EMU_UNDEFINED;
	const struct arm_emu_reg_info *ri = &arm_emu_regs[reg];
	if (ri->indexed && idx >= NR_EV)
		return ARM_EMU_UNDEFINED;
	if (is_ss_reg(reg) && !f->pmss)
		return ARM_EMU_UNDEFINED;
	if ((write && ri->ro) || (!write && ri->wo))
		return ARM_EMU_UNDEFINED;
	int n = is_counter_reg(reg) ? counter_of(pe, reg, idx) : 0;
	if (n < 0 && reg == ARM_EMU_PMXEVCNTR_EL0)
		return ARM_EMU_UNDEFINED;
	if (is_counter_reg(reg) && n >= (int)f->nr_counters)
		return ARM_EMU_UNDEFINED;
	return do_access(pe, ARM_EMU_EL3, reg, n, write, val, true);
}

int arm_emu_ext_read(struct arm_emu_pe *pe, unsigned reg, unsigned idx, uint64_t *val)
{
	uint64_t v = 0;
	int r = ext_access(pe, reg, idx, false, &v);
	if (r == ARM_EMU_OK)
		*val = v;
	return r;
}

int arm_emu_ext_write(struct arm_emu_pe *pe, unsigned reg, unsigned idx, uint64_t val)
{
	return ext_access(pe, reg, idx, true, &val);
}

bool arm_emu_irq_pending(struct arm_emu_pe *pe)
{
	arm_emu_sync(pe);
	/* PMUIRQ: PMOVS & PMINTEN of a counter whose range is enabled
	 * (PMCR.E below HPMN and for the cycle counter, MDCR_EL2.HPME for the
	 * counters reserved for EL2). The counters EXTPMN reserves signal
	 * the external agent, not the PE's interrupt. */
	unsigned h = arm_emu_hpmn(pe), e = epmn_of(pe);
	uint32_t gate = 0;
	if (pe->pmcr & ARM_EMU_PMCR_E)
		gate |= low_bits(h) | (uint32_t)ARM_EMU_CCNT_BIT;
	if (pe->mdcr2 & ARM_EMU_MDCR2_HPME)
		gate |= low_bits(e) & ~low_bits(h);
	return (pe->ovs & pe->inten & gate) != 0;
}
