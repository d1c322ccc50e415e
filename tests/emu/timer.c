/* timer.c: Sstc and the H extension's timer rules of SPEC §2: stimecmp and
 * vstimecmp access under menvcfg/henvcfg.STCE and m/hcounteren.TM, STIP and
 * VSTIP, htimedelta, and the mip/sip write rules documented in emu.h.
 */
#include "config.h"

#include "emu-test.h"

static const char *const mode_name[] = {"M", "HS", "HU", "VS", "VU"};

static void setup(struct emu_hart *h, bool stce, bool tm, bool hstce, bool htm)
{
	wr(h, EMU_CSR_MENVCFG, stce ? EMU_ENVCFG_STCE : 0);
	wr(h, EMU_CSR_HENVCFG, hstce ? EMU_ENVCFG_STCE : 0);
	wr(h, EMU_CSR_MCOUNTEREN, tm ? EMU_CNT_TM : ~(uint64_t)EMU_CNT_TM);
	wr(h, EMU_CSR_HCOUNTEREN, htm ? EMU_CNT_TM : ~(uint64_t)EMU_CNT_TM);
	wr(h, EMU_CSR_SCOUNTEREN, 0xffffffff);
}

/* SPEC §2 "stimecmp / vstimecmp" and the H rule for VU, written out. */
static int spec_stimecmp(enum emu_mode mode, bool stce, bool tm, bool hstce, bool htm)
{
	bool hs_ok = stce && tm; /* "(otherwise) illegal-instruction" below M */
	switch (mode) {
	case EMU_MODE_M:
		return EMU_OK;
	case EMU_MODE_HS:
		return hs_ok ? EMU_OK : EMU_EXC_ILLEGAL;
	case EMU_MODE_HU:
		return EMU_EXC_ILLEGAL; /* U-mode access to an S-level CSR */
	case EMU_MODE_VS:
		if (!hs_ok)
			return EMU_EXC_ILLEGAL;
		return stce && hstce && htm ? EMU_OK : EMU_EXC_VIRTUAL;
	case EMU_MODE_VU:
		return hs_ok ? EMU_EXC_VIRTUAL : EMU_EXC_ILLEGAL;
	default:
		return -1;
	}
}

/* vstimecmp itself is a hypervisor CSR: VS/VU get virtual-instruction
 * where HS could access it. */
static int spec_vstimecmp(enum emu_mode mode, bool stce, bool tm)
{
	bool hs_ok = stce && tm;
	switch (mode) {
	case EMU_MODE_M:
		return EMU_OK;
	case EMU_MODE_HS:
		return hs_ok ? EMU_OK : EMU_EXC_ILLEGAL;
	case EMU_MODE_HU:
		return EMU_EXC_ILLEGAL;
	default:
		return hs_ok ? EMU_EXC_VIRTUAL : EMU_EXC_ILLEGAL;
	}
}

static void test_access(void)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);

	tap_is_u64(rd(h, EMU_CSR_STIMECMP), UINT64_MAX, "stimecmp resets to all ones");
	tap_is_u64(rd(h, EMU_CSR_VSTIMECMP), UINT64_MAX, "vstimecmp resets to all ones");
	wr(h, EMU_CSR_STIMECMP, 0x1234);
	wr(h, EMU_CSR_VSTIMECMP, 0x5678);
	for (unsigned mode = 0; mode < EMU_NR_MODES; mode++) {
		bool good_s = true, good_v = true;
		for (unsigned combo = 0; combo < 16; combo++) {
			bool stce = combo & 1, tm = combo & 2, hstce = combo & 4, htm = combo & 8;
			enum emu_mode md = (enum emu_mode)mode;
			setup(h, stce, tm, hstce, htm);
			uint64_t v = 0;
			int got = emu_hart_csr_read(h, md, EMU_CSR_STIMECMP, &v);
			int want = spec_stimecmp(md, stce, tm, hstce, htm);
			uint64_t wantv = md == EMU_MODE_VS ? 0x5678 : 0x1234;
			int gotw = emu_hart_csr_write(h, md, EMU_CSR_STIMECMP, wantv);
			if (got != want || gotw != want || (got == EMU_OK && v != wantv)) {
				tap_diag(
				    "%s stce=%d tm=%d hstce=%d htm=%d: stimecmp %s/%s, want %s",
				    mode_name[mode], stce, tm, hstce, htm, emu_exc_name(got),
				    emu_exc_name(gotw), emu_exc_name(want));
				good_s = false;
			}
			got = emu_hart_csr_read(h, md, EMU_CSR_VSTIMECMP, &v);
			want = spec_vstimecmp(md, stce, tm);
			if (got != want || (got == EMU_OK && v != 0x5678)) {
				tap_diag("%s stce=%d tm=%d: vstimecmp %s, want %s", mode_name[mode],
				         stce, tm, emu_exc_name(got), emu_exc_name(want));
				good_v = false;
			}
		}
		tap_ok(good_s, "stimecmp from %s: all 16 STCE/TM/henvcfg.STCE/hcounteren.TM cases",
		       mode_name[mode]);
		tap_ok(good_v, "vstimecmp from %s: all STCE/TM cases", mode_name[mode]);
	}
	setup(h, true, true, true, true);
	emu_hart_csr_write(h, EMU_MODE_VS, EMU_CSR_STIMECMP, 0xabc);
	tap_is_u64(rd(h, EMU_CSR_VSTIMECMP), 0xabc, "stimecmp written from VS is vstimecmp");
	tap_is_u64(rd(h, EMU_CSR_STIMECMP), 0x1234, "... and stimecmp is untouched");
	emu_free(emu);
}

static void test_stip(void)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);

	wr(h, EMU_CSR_STIMECMP, 1000);
	emu_set_time(emu, 5000);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_STIP, 0,
	           "STIP is not driven by the timer while STCE = 0");
	wr(h, EMU_CSR_MENVCFG, EMU_ENVCFG_STCE);
	emu_set_time(emu, 999);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_STIP, 0, "STIP clear at time = stimecmp - 1");
	emu_set_time(emu, 1000);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_STIP, EMU_MIP_STIP, "STIP set at time = stimecmp");
	tap_is_u64(rd(h, EMU_CSR_MIP), EMU_MIP_STIP, "mip reads STIP");
	emu_set_time(emu, UINT64_MAX);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_STIP, EMU_MIP_STIP, "STIP set at time = 2^64-1");
	wr(h, EMU_CSR_STIMECMP, UINT64_MAX);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_STIP, EMU_MIP_STIP,
	           "time >= stimecmp is unsigned and inclusive (both 2^64-1)");
	emu_set_time(emu, 0);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_STIP, 0, "STIP follows time back down");
	wr(h, EMU_CSR_STIMECMP, 0);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_STIP, EMU_MIP_STIP, "stimecmp 0: STIP at time 0");
	emu_hart_csr_clear(h, EMU_MODE_M, EMU_CSR_MIP, EMU_MIP_STIP);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_STIP, EMU_MIP_STIP,
	           "with STCE = 1, STIP is read-only in mip");
	wr(h, EMU_CSR_MENVCFG, 0);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_STIP, 0, "clearing STCE stops the timer driving STIP");
	emu_hart_csr_set(h, EMU_MODE_M, EMU_CSR_MIP, EMU_MIP_STIP);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_STIP, EMU_MIP_STIP, "with STCE = 0, M may set STIP");
	uint64_t v = 0;
	tap_ok(emu_hart_csr_read(h, EMU_MODE_HS, EMU_CSR_SIP, &v) == EMU_OK && v == EMU_MIP_STIP,
	       "sip shows STIP in HS");
	emu_hart_csr_clear(h, EMU_MODE_HS, EMU_CSR_SIP, EMU_MIP_STIP);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_STIP, EMU_MIP_STIP, "STIP is read-only in sip");
	emu_hart_csr_clear(h, EMU_MODE_M, EMU_CSR_MIP, EMU_MIP_STIP);
	tap_is_u64(emu_hart_mip(h), 0, "M clears the software STIP");
	emu_free(emu);
}

static void test_vstip(void)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	uint64_t v = 0;

	wr(h, EMU_CSR_MENVCFG, EMU_ENVCFG_STCE);
	wr(h, EMU_CSR_VSTIMECMP, 1000);
	wr(h, EMU_CSR_HTIMEDELTA, 100);
	emu_set_time(emu, 950);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_VSTIP, 0, "VSTIP needs henvcfg.STCE");
	wr(h, EMU_CSR_HENVCFG, EMU_ENVCFG_STCE);
	emu_set_time(emu, 899);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_VSTIP, 0, "VSTIP clear at time + htimedelta = 999");
	emu_set_time(emu, 900);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_VSTIP, EMU_MIP_VSTIP,
	           "VSTIP set at time + htimedelta = vstimecmp");
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_STIP, 0, "... and STIP (stimecmp all ones) clear");
	wr(h, EMU_CSR_SCOUNTEREN, 0);
	tap_ok(emu_hart_csr_read(h, EMU_MODE_VS, EMU_CSR_SIP, &v) == EMU_OK && v == EMU_MIP_STIP,
	       "sip read in VS (vsip) shows VSTIP as STIP (bit 5)");
	tap_ok(emu_hart_csr_write(h, EMU_MODE_VS, EMU_CSR_SIP, 0) == EMU_OK &&
	           (emu_hart_mip(h) & EMU_MIP_VSTIP),
	       "vsip writes are ignored");
	emu_hart_csr_clear(h, EMU_MODE_M, EMU_CSR_MIP, EMU_MIP_VSTIP);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_VSTIP, EMU_MIP_VSTIP, "VSTIP is read-only in mip");
	/* time + htimedelta is the VS time, modulo 2^64 */
	wr(h, EMU_CSR_HTIMEDELTA, UINT64_MAX - 9); /* -10 */
	emu_set_time(emu, 1009);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_VSTIP, 0, "htimedelta -10: VS time 999 < 1000");
	emu_set_time(emu, 1010);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_VSTIP, EMU_MIP_VSTIP,
	           "htimedelta -10: VS time 1000 >= 1000 (sum wraps modulo 2^64)");
	wr(h, EMU_CSR_HENVCFG, 0);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_VSTIP, 0, "clearing henvcfg.STCE clears VSTIP");
	wr(h, EMU_CSR_HENVCFG, EMU_ENVCFG_STCE);
	wr(h, EMU_CSR_MENVCFG, 0);
	tap_is_u64(emu_hart_mip(h) & EMU_MIP_VSTIP, 0,
	           "clearing menvcfg.STCE clears henvcfg.STCE and VSTIP");
	emu_free(emu);
}

static void test_htimedelta(void)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	uint64_t v;

	wr(h, EMU_CSR_MCOUNTEREN, 0xffffffff);
	wr(h, EMU_CSR_HCOUNTEREN, 0xffffffff);
	wr(h, EMU_CSR_SCOUNTEREN, 0xffffffff);
	emu_set_time(emu, 1000);
	tap_ok(emu_hart_csr_write(h, EMU_MODE_HS, EMU_CSR_HTIMEDELTA, UINT64_MAX) == EMU_OK &&
	           rd(h, EMU_CSR_HTIMEDELTA) == UINT64_MAX,
	       "htimedelta: 64 bits, writable from HS");
	static const uint64_t want[EMU_NR_MODES] = {1000, 1000, 1000, 999, 999};
	for (unsigned m = 0; m < EMU_NR_MODES; m++)
		tap_ok(emu_hart_csr_read(h, (enum emu_mode)m, EMU_CSR_TIME, &v) == EMU_OK &&
		           v == want[m],
		       "time read in %s is %s (%llu)", mode_name[m],
		       m >= EMU_MODE_VS ? "time + htimedelta" : "time", (unsigned long long)v);
	emu_free(emu);
}

static void test_lcofip_rules(void)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	uint64_t v;

	emu_hart_csr_set(h, EMU_MODE_M, EMU_CSR_MIP, EMU_MIP_LCOFIP);
	tap_is_u64(emu_hart_mip(h), EMU_MIP_LCOFIP, "M sets LCOFIP through mip");
	tap_ok(emu_hart_csr_read(h, EMU_MODE_HS, EMU_CSR_SIP, &v) == EMU_OK && v == EMU_MIP_LCOFIP,
	       "HS sees LCOFIP in sip");
	tap_ok(emu_hart_csr_read(h, EMU_MODE_VS, EMU_CSR_SIP, &v) == EMU_OK && v == 0,
	       "VS does not see LCOFIP (not delegated to VS)");
	emu_hart_csr_write(h, EMU_MODE_VS, EMU_CSR_SIP, 0);
	tap_is_u64(emu_hart_mip(h), EMU_MIP_LCOFIP, "a VS write of sip leaves LCOFIP");
	emu_hart_csr_clear(h, EMU_MODE_HS, EMU_CSR_SIP, EMU_MIP_LCOFIP);
	tap_is_u64(emu_hart_mip(h), 0, "HS clears LCOFIP through sip");
	emu_hart_csr_write(h, EMU_MODE_HS, EMU_CSR_SIP, UINT64_MAX);
	tap_is_u64(emu_hart_mip(h), EMU_MIP_LCOFIP,
	           "an HS write of all ones to sip sets only LCOFIP");
	emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MIP, 0);
	tap_is_u64(emu_hart_mip(h), 0, "M clears LCOFIP with csrw mip");
	emu_free(emu);
}

int main(void)
{
	test_access();
	test_stip();
	test_vstip();
	test_htimedelta();
	test_lcofip_rules();
	return tap_done();
}
