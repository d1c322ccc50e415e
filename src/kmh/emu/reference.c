/* reference.c: the per-cycle reference model, the oracle of the fast path.
 *
 * Owns: nothing but its one function. It is written straight from SPEC §1
 * and §2 and deliberately shares no code with hart.c: it reads and writes
 * the hart only through M-mode CSR accesses, maps counters to banks and
 * decodes mhpmevent fields itself, executes ops with the hardware's priority
 * mux and loops over every cycle and every counter. It is slow on purpose;
 * its only job is to be obviously right.
 */
#include "config.h"

#include "kmh/emu/emu.h"

#define REF_NR 29 /* mhpmcounter3..31 */

/* Bank seen by counter n (SPEC §1 table). */
static int ref_bank(unsigned n)
{
	if (n <= 10)
		return KMH_BANK_FRONTEND;
	if (n <= 18)
		return KMH_BANK_BACKEND;
	if (n <= 26)
		return KMH_BANK_MEMBLOCK;
	return KMH_BANK_CACHE;
}

/* The hardware's op mux: bit 0 AND, else bit 1 XOR, else bit 2 ADD, else OR.
 * For the four legal codes this is the OP_TYPE table of SPEC §1. */
static unsigned ref_op(unsigned op, unsigned a, unsigned b)
{
	if (op & 1u)
		return a & b;
	if (op & 2u)
		return a ^ b;
	if (op & 4u)
		return (a + b) % 64u;
	return a | b;
}

/* Per-cycle value of one EVENTn slot of counter n. */
static unsigned ref_slot(const struct emu_run *run, unsigned n, uint64_t ev, unsigned slot)
{
	int bank = ref_bank(n);
	unsigned index = (unsigned)(ev >> (10 * slot)) & 0x3ffu;

	if (index == 0) /* noEvent */
		return 0;
	if (index >= kmh_table_v2.banks[bank].nr_events) /* not in the table: nothing drives it */
		return 0;
	/* XiangShan's RTL wiring (kmh.h's enum kmh_rtl_counts): a wired-0 or
	 * unreachable index reads 0, a duplicate reads its twin's signal */
	const struct kmh_event *e = &kmh_table_v2.banks[bank].events[index];
	if (e->rtl == KMH_RTL_ZERO || e->rtl == KMH_RTL_UNDEFINED)
		return 0;
	if (e->rtl == KMH_RTL_SAME)
		index = e->same_as;
	if (!run->vals[bank])
		return 0;
	return run->vals[bank][index] % 64u;
}

static bool ref_mode_inhibited(uint64_t ev, unsigned mode)
{
	switch (mode) {
	case EMU_MODE_M:
		return (ev >> 62) & 1u;
	case EMU_MODE_HS:
		return (ev >> 61) & 1u;
	case EMU_MODE_HU:
		return (ev >> 60) & 1u;
	case EMU_MODE_VS:
		return (ev >> 59) & 1u;
	default:
		return (ev >> 58) & 1u;
	}
}

void emu_ref_run(struct emu_hart *h, const struct emu_run *run)
{
	uint64_t inhibit, mcycle, minstret, ctr[REF_NR], ev[REF_NR];
	bool lcofi = false;

	if (run->mode >= EMU_NR_MODES)
		return;
	emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_MCOUNTINHIBIT, &inhibit);
	emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_MCYCLE, &mcycle);
	emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_MINSTRET, &minstret);
	for (unsigned i = 0; i < REF_NR; i++) {
		emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(3 + i), &ctr[i]);
		emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_MHPMEVENT(3 + i), &ev[i]);
	}

	for (uint64_t c = 0; c < run->cycles; c++) {
		if (!(inhibit & 1u))
			mcycle += 1;
		if (!(inhibit & 4u))
			minstret += run->instret % 64u;
		for (unsigned i = 0; i < REF_NR; i++) {
			unsigned n = 3 + i;
			if ((inhibit >> n) & 1u)
				continue;
			if (ref_mode_inhibited(ev[i], run->mode))
				continue;
			unsigned e0 = ref_slot(run, n, ev[i], 0), e1 = ref_slot(run, n, ev[i], 1);
			unsigned e2 = ref_slot(run, n, ev[i], 2), e3 = ref_slot(run, n, ev[i], 3);
			unsigned op0 = (unsigned)(ev[i] >> 40) & 31u;
			unsigned op1 = (unsigned)(ev[i] >> 45) & 31u;
			unsigned op2 = (unsigned)(ev[i] >> 50) & 31u;
			unsigned r = ref_op(op2, ref_op(op0, e0, e1), ref_op(op1, e2, e3)) % 64u;
			uint64_t before = ctr[i];
			ctr[i] += r;
			if (ctr[i] < before && !(ev[i] >> 63)) { /* wrapped with OF clear */
				ev[i] |= UINT64_C(1) << 63;
				lcofi = true;
			}
		}
	}

	emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MCYCLE, mcycle);
	emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MINSTRET, minstret);
	for (unsigned i = 0; i < REF_NR; i++) {
		emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(3 + i), ctr[i]);
		emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMEVENT(3 + i), ev[i]);
	}
	if (lcofi)
		emu_hart_csr_set(h, EMU_MODE_M, EMU_CSR_MIP, EMU_MIP_LCOFIP);
}
