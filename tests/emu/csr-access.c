/* csr-access.c: the CSR access rules of SPEC §2, one group of test points
 * per rule: counter access for every mode x counteren combination,
 * read-only CSRs, privilege levels of the other CSRs, scountovf masking,
 * unknown numbers and the WARL fields. Every expectation is the spec's text
 * written out by hand.
 */
#include "config.h"

#include <stdio.h>

#include "emu-test.h"

static const char *const mode_name[] = {"M", "HS", "HU", "VS", "VU"};

/* SPEC §2, "Access from lower privilege", transcribed. */
static int spec_counter_access(enum emu_mode mode, bool m, bool s, bool hc)
{
	switch (mode) {
	case EMU_MODE_M:
		return EMU_OK;
	case EMU_MODE_HS:
		return m ? EMU_OK : EMU_EXC_ILLEGAL;
	case EMU_MODE_HU:
		return m && s ? EMU_OK : EMU_EXC_ILLEGAL;
	case EMU_MODE_VS:
		if (!m)
			return EMU_EXC_ILLEGAL;
		return hc ? EMU_OK : EMU_EXC_VIRTUAL;
	case EMU_MODE_VU:
		if (!m)
			return EMU_EXC_ILLEGAL;
		return hc && s ? EMU_OK : EMU_EXC_VIRTUAL;
	default:
		return -1;
	}
}

/* The value a counter CSR must read (set up in test_counters). */
static uint64_t counter_value(unsigned csr, enum emu_mode mode)
{
	unsigned n = csr & 31;
	if (n == 0)
		return 0x1111;
	if (n == 1) /* time, plus htimedelta when V=1 */
		return mode == EMU_MODE_VS || mode == EMU_MODE_VU ? 0x5555 + 0x100 : 0x5555;
	if (n == 2)
		return 0x2222;
	return 0x1000 + n;
}

static void test_counters(void)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);

	wr(h, EMU_CSR_MCYCLE, 0x1111);
	wr(h, EMU_CSR_MINSTRET, 0x2222);
	for (unsigned n = 3; n <= 31; n++)
		wr(h, EMU_CSR_MHPMCOUNTER(n), 0x1000 + n);
	emu_set_time(emu, 0x5555);
	wr(h, EMU_CSR_HTIMEDELTA, 0x100);

	for (unsigned csr = EMU_CSR_CYCLE; csr <= EMU_CSR_HPMCOUNTER(31); csr++) {
		uint32_t bit = UINT32_C(1) << (csr & 31);
		for (unsigned mode = 0; mode < EMU_NR_MODES; mode++) {
			bool good = true;
			for (unsigned combo = 0; combo < 8; combo++) {
				bool m = combo & 1, s = combo & 2, hc = combo & 4;
				/* the other bits hold the opposite, so only bit n can decide */
				wr(h, EMU_CSR_MCOUNTEREN, m ? bit : ~bit);
				wr(h, EMU_CSR_SCOUNTEREN, s ? bit : ~bit);
				wr(h, EMU_CSR_HCOUNTEREN, hc ? bit : ~bit);
				uint64_t v = 0;
				int got = emu_hart_csr_read(h, (enum emu_mode)mode, csr, &v);
				int want = spec_counter_access((enum emu_mode)mode, m, s, hc);
				if (got != want || (got == EMU_OK &&
				                    v != counter_value(csr, (enum emu_mode)mode))) {
					tap_diag("%s 0x%03x m=%d s=%d h=%d: got %s 0x%llx, want %s",
					         mode_name[mode], csr, m, s, hc, emu_exc_name(got),
					         (unsigned long long)v, emu_exc_name(want));
					good = false;
				}
			}
			tap_ok(good, "%s: %s access for all 8 m/s/hcounteren combinations",
			       emu_csr_name(csr), mode_name[mode]);
		}
	}
	emu_free(emu);
}

/* Writes to read-only CSRs: illegal-instruction in every mode, even where
 * reads are allowed. */
static void test_read_only(void)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);

	wr(h, EMU_CSR_MCOUNTEREN, 0xffffffff);
	wr(h, EMU_CSR_SCOUNTEREN, 0xffffffff);
	wr(h, EMU_CSR_HCOUNTEREN, 0xffffffff);
	unsigned csrs[33];
	unsigned nr = 0;
	for (unsigned c = EMU_CSR_CYCLE; c <= EMU_CSR_HPMCOUNTER(31); c++)
		csrs[nr++] = c;
	csrs[nr++] = EMU_CSR_SCOUNTOVF;
	for (unsigned i = 0; i < nr; i++) {
		bool good = true;
		for (unsigned mode = 0; mode < EMU_NR_MODES; mode++) {
			enum emu_mode md = (enum emu_mode)mode;
			if (emu_hart_csr_write(h, md, csrs[i], 0) != EMU_EXC_ILLEGAL ||
			    emu_hart_csr_set(h, md, csrs[i], 1) != EMU_EXC_ILLEGAL ||
			    emu_hart_csr_clear(h, md, csrs[i], 1) != EMU_EXC_ILLEGAL) {
				tap_diag("%s: write from %s not illegal", emu_csr_name(csrs[i]),
				         mode_name[mode]);
				good = false;
			}
		}
		tap_ok(good, "%s: csrw/csrs/csrc illegal-instruction in every mode",
		       emu_csr_name(csrs[i]));
	}
	tap_is_u64(rd(h, EMU_CSR_MCYCLE), 0, "rejected writes changed nothing");
	emu_free(emu);
}

/* M-level CSRs from below M: illegal-instruction (also from VS/VU). */
static void test_m_level(void)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	unsigned csrs[] = {EMU_CSR_MCYCLE,         EMU_CSR_MINSTRET,
	                   EMU_CSR_MHPMCOUNTER(3), EMU_CSR_MHPMCOUNTER(31),
	                   EMU_CSR_MHPMEVENT(3),   EMU_CSR_MHPMEVENT(31),
	                   EMU_CSR_MCOUNTINHIBIT,  EMU_CSR_MCOUNTEREN,
	                   EMU_CSR_MENVCFG,        EMU_CSR_MIP};

	/* everything that could open a door is open */
	wr(h, EMU_CSR_MCOUNTEREN, 0xffffffff);
	wr(h, EMU_CSR_SCOUNTEREN, 0xffffffff);
	wr(h, EMU_CSR_HCOUNTEREN, 0xffffffff);
	wr(h, EMU_CSR_MENVCFG, EMU_ENVCFG_STCE);
	wr(h, EMU_CSR_HENVCFG, EMU_ENVCFG_STCE);
	for (size_t i = 0; i < sizeof(csrs) / sizeof(csrs[0]); i++) {
		bool good = rexc(h, EMU_MODE_M, csrs[i]) == EMU_OK &&
		            emu_hart_csr_set(h, EMU_MODE_M, csrs[i], 0) == EMU_OK;
		for (unsigned mode = 1; mode < EMU_NR_MODES; mode++) {
			enum emu_mode md = (enum emu_mode)mode;
			good &= rexc(h, md, csrs[i]) == EMU_EXC_ILLEGAL;
			good &= emu_hart_csr_write(h, md, csrs[i], 0) == EMU_EXC_ILLEGAL;
		}
		tap_ok(good, "%s: M-mode only; illegal-instruction from HS, HU, VS, VU",
		       emu_csr_name(csrs[i]));
	}
	emu_free(emu);
}

/* HS-level (hypervisor) CSRs: HS yes, HU illegal, VS/VU virtual-instruction.
 * S-level CSRs: HS and VS yes, HU illegal, VU virtual-instruction. */
static void test_s_h_level(void)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	unsigned hcsrs[] = {EMU_CSR_HCOUNTEREN, EMU_CSR_HTIMEDELTA, EMU_CSR_HENVCFG};
	unsigned scsrs[] = {EMU_CSR_SCOUNTEREN, EMU_CSR_SIP};

	for (size_t i = 0; i < sizeof(hcsrs) / sizeof(hcsrs[0]); i++) {
		unsigned c = hcsrs[i];
		tap_ok(rexc(h, EMU_MODE_M, c) == EMU_OK && rexc(h, EMU_MODE_HS, c) == EMU_OK &&
		           emu_hart_csr_write(h, EMU_MODE_HS, c, 0) == EMU_OK,
		       "%s: readable and writable from M and HS", emu_csr_name(c));
		tap_ok(rexc(h, EMU_MODE_HU, c) == EMU_EXC_ILLEGAL &&
		           emu_hart_csr_write(h, EMU_MODE_HU, c, 0) == EMU_EXC_ILLEGAL,
		       "%s: illegal-instruction from HU", emu_csr_name(c));
		tap_ok(rexc(h, EMU_MODE_VS, c) == EMU_EXC_VIRTUAL &&
		           emu_hart_csr_write(h, EMU_MODE_VS, c, 0) == EMU_EXC_VIRTUAL &&
		           rexc(h, EMU_MODE_VU, c) == EMU_EXC_VIRTUAL &&
		           emu_hart_csr_write(h, EMU_MODE_VU, c, 0) == EMU_EXC_VIRTUAL,
		       "%s: virtual-instruction from VS and VU", emu_csr_name(c));
	}
	for (size_t i = 0; i < sizeof(scsrs) / sizeof(scsrs[0]); i++) {
		unsigned c = scsrs[i];
		tap_ok(rexc(h, EMU_MODE_HS, c) == EMU_OK && rexc(h, EMU_MODE_VS, c) == EMU_OK &&
		           emu_hart_csr_write(h, EMU_MODE_HS, c, 0) == EMU_OK &&
		           emu_hart_csr_write(h, EMU_MODE_VS, c, 0) == EMU_OK,
		       "%s: accessible from HS and VS", emu_csr_name(c));
		tap_ok(rexc(h, EMU_MODE_HU, c) == EMU_EXC_ILLEGAL,
		       "%s: illegal-instruction from HU", emu_csr_name(c));
		tap_ok(rexc(h, EMU_MODE_VU, c) == EMU_EXC_VIRTUAL &&
		           emu_hart_csr_write(h, EMU_MODE_VU, c, 0) == EMU_EXC_VIRTUAL,
		       "%s: virtual-instruction from VU", emu_csr_name(c));
	}
	/* the one scounteren serves V=1 as well */
	emu_hart_csr_write(h, EMU_MODE_VS, EMU_CSR_SCOUNTEREN, 0x5);
	tap_is_u64(rd(h, EMU_CSR_SCOUNTEREN), 0x5,
	           "a VS write of scounteren is the one scounteren");
	emu_free(emu);
}

/* scountovf: OF bits, masked per mode. */
static void test_scountovf(void)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	const uint32_t of = (1u << 3) | (1u << 4) | (1u << 17) | (1u << 31);
	uint64_t v;

	for (unsigned n = 3; n <= 31; n++)
		if (of & (1u << n))
			wr(h, EMU_CSR_MHPMEVENT(n), KMH_OF | KMH_MINH);

	wr(h, EMU_CSR_MCOUNTEREN, 0);
	tap_is_u64(rd(h, EMU_CSR_SCOUNTOVF), of, "scountovf in M: every OF, whatever mcounteren");

	wr(h, EMU_CSR_MCOUNTEREN, 0xffffffff);
	wr(h, EMU_CSR_HCOUNTEREN, 0xffffffff);
	tap_is_u64(rd(h, EMU_CSR_SCOUNTOVF), of, "scountovf bits 2:0 read 0");

	wr(h, EMU_CSR_MCOUNTEREN, (1u << 3) | (1u << 17) | 0x7);
	tap_ok(emu_hart_csr_read(h, EMU_MODE_HS, EMU_CSR_SCOUNTOVF, &v) == EMU_OK &&
	           v == ((1u << 3) | (1u << 17)),
	       "scountovf in HS: OF where mcounteren[n] = 1 (got 0x%llx)", (unsigned long long)v);

	wr(h, EMU_CSR_MCOUNTEREN, (1u << 3) | (1u << 17) | (1u << 31));
	wr(h, EMU_CSR_HCOUNTEREN, (1u << 4) | (1u << 17) | (1u << 31));
	tap_ok(emu_hart_csr_read(h, EMU_MODE_VS, EMU_CSR_SCOUNTOVF, &v) == EMU_OK &&
	           v == ((1u << 17) | (1u << 31)),
	       "scountovf in VS: OF where mcounteren[n] and hcounteren[n] (got 0x%llx)",
	       (unsigned long long)v);
	tap_ok(emu_hart_csr_read(h, EMU_MODE_HS, EMU_CSR_SCOUNTOVF, &v) == EMU_OK &&
	           v == ((1u << 3) | (1u << 17) | (1u << 31)),
	       "scountovf in HS ignores hcounteren");
	tap_is_u64((uint64_t)rexc(h, EMU_MODE_HU, EMU_CSR_SCOUNTOVF), EMU_EXC_ILLEGAL,
	           "scountovf from HU: illegal-instruction");
	tap_is_u64((uint64_t)rexc(h, EMU_MODE_VU, EMU_CSR_SCOUNTOVF), EMU_EXC_VIRTUAL,
	           "scountovf from VU: virtual-instruction");
	wr(h, EMU_CSR_MCOUNTEREN, 0);
	tap_ok(emu_hart_csr_read(h, EMU_MODE_HS, EMU_CSR_SCOUNTOVF, &v) == EMU_OK && v == 0,
	       "scountovf in HS with mcounteren = 0 reads 0 (not an exception)");
	emu_free(emu);
}

static void test_unknown(void)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	unsigned nums[] = {0x000, 0xB01, 0xC80, 0xDA1, 0x31F, 0x340, 0xFFF};

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		bool good = true;
		for (unsigned mode = 0; mode < EMU_NR_MODES; mode++) {
			good &= rexc(h, (enum emu_mode)mode, nums[i]) == EMU_EXC_ILLEGAL;
			good &= emu_hart_csr_write(h, (enum emu_mode)mode, nums[i], 1) ==
			        EMU_EXC_ILLEGAL;
		}
		tap_ok(good, "unknown CSR 0x%03x: illegal-instruction in every mode", nums[i]);
	}
	emu_free(emu);
}

static void test_warl(void)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);

	wr(h, EMU_CSR_MCOUNTINHIBIT, UINT64_MAX);
	tap_is_u64(rd(h, EMU_CSR_MCOUNTINHIBIT), 0xfffffffd, "mcountinhibit: TM (bit 1) reads 0");
	wr(h, EMU_CSR_MCOUNTINHIBIT, 0);
	wr(h, EMU_CSR_MCOUNTEREN, UINT64_MAX);
	tap_is_u64(rd(h, EMU_CSR_MCOUNTEREN), 0xffffffff, "mcounteren: bits 31:0");
	wr(h, EMU_CSR_SCOUNTEREN, UINT64_MAX);
	tap_is_u64(rd(h, EMU_CSR_SCOUNTEREN), 0xffffffff, "scounteren: bits 31:0");
	wr(h, EMU_CSR_HCOUNTEREN, UINT64_MAX);
	tap_is_u64(rd(h, EMU_CSR_HCOUNTEREN), 0xffffffff, "hcounteren: bits 31:0");

	/* reserved OP_TYPEs become what the priority mux executes */
	static const struct {
		unsigned in, out;
	} ops[] = {
	    {0x00, 0x00}, {0x01, 0x01}, {0x02, 0x02}, {0x04, 0x04}, {0x03, 0x01},
	    {0x05, 0x01}, {0x06, 0x02}, {0x07, 0x01}, {0x08, 0x00}, {0x0a, 0x02},
	    {0x0c, 0x04}, {0x10, 0x00}, {0x1c, 0x04}, {0x1e, 0x02}, {0x1f, 0x01},
	};
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		for (unsigned n = 0; n < 3; n++) {
			uint64_t shift = 40 + 5 * n;
			wr(h, EMU_CSR_MHPMEVENT(3), (uint64_t)ops[i].in << shift | 0x2);
			tap_is_u64(rd(h, EMU_CSR_MHPMEVENT(3)), (uint64_t)ops[i].out << shift | 0x2,
			           "mhpmevent OP_TYPE%u written 0x%02x reads 0x%02x", n, ops[i].in,
			           ops[i].out);
		}
	}
	uint64_t v = KMH_OF | KMH_INH_MASK | KMH_RESERVED_MASK | (UINT64_C(1023) << 30) |
	             (UINT64_C(1000) << 20) | (UINT64_C(77) << 10) | 57;
	wr(h, EMU_CSR_MHPMEVENT(10), v);
	tap_is_u64(rd(h, EMU_CSR_MHPMEVENT(10)), v,
	           "mhpmevent: OF, INH, reserved bits 57:55 and out-of-table indices read back");

	wr(h, EMU_CSR_MENVCFG, UINT64_MAX);
	tap_is_u64(rd(h, EMU_CSR_MENVCFG), EMU_ENVCFG_STCE, "menvcfg: only STCE is writable");
	wr(h, EMU_CSR_HENVCFG, UINT64_MAX);
	tap_is_u64(rd(h, EMU_CSR_HENVCFG), EMU_ENVCFG_STCE, "henvcfg: only STCE is writable");
	wr(h, EMU_CSR_MENVCFG, 0);
	tap_is_u64(rd(h, EMU_CSR_HENVCFG), 0, "henvcfg.STCE reads 0 once menvcfg.STCE is cleared");
	wr(h, EMU_CSR_HENVCFG, UINT64_MAX);
	tap_is_u64(rd(h, EMU_CSR_HENVCFG), 0, "henvcfg.STCE is read-only 0 while menvcfg.STCE = 0");
	emu_free(emu);
}

static void test_names(void)
{
	unsigned csr;
	char err[128];

	tap_ok(emu_csr_parse("MHPMEVENT3", &csr, err, sizeof(err)) == 0 && csr == 0x323,
	       "CSR names are case-insensitive");
	tap_ok(emu_csr_parse("0xB1F", &csr, err, sizeof(err)) == 0 && csr == 0xB1F,
	       "CSR numbers in hex");
	tap_ok(emu_csr_parse("0x7ff", &csr, err, sizeof(err)) == 0 && csr == 0x7ff,
	       "an unimplemented CSR number parses (access raises illegal-instruction)");
	tap_ok(emu_csr_parse("0x1000", &csr, err, sizeof(err)) < 0,
	       "a CSR number over 12 bits is refused");
	tap_ok(emu_csr_parse("mhpmcounter32", &csr, err, sizeof(err)) < 0 &&
	           strstr(err, "unknown CSR"),
	       "an unknown CSR name is an error: %s", err);
	static const struct {
		const char *name;
		unsigned num;
	} spec[] = {
	    {"mcycle", 0xB00},        {"minstret", 0xB02},    {"mhpmcounter3", 0xB03},
	    {"mhpmcounter31", 0xB1F}, {"mhpmevent3", 0x323},  {"mhpmevent31", 0x33F},
	    {"mcountinhibit", 0x320}, {"mcounteren", 0x306},  {"scounteren", 0x106},
	    {"hcounteren", 0x606},    {"scountovf", 0xDA0},   {"stimecmp", 0x14D},
	    {"vstimecmp", 0x24D},     {"htimedelta", 0x605},  {"menvcfg", 0x30A},
	    {"henvcfg", 0x60A},       {"cycle", 0xC00},       {"time", 0xC01},
	    {"instret", 0xC02},       {"hpmcounter3", 0xC03}, {"hpmcounter31", 0xC1F},
	    {"mip", 0x344},           {"sip", 0x144},
	};
	bool good = true;
	for (size_t i = 0; i < sizeof(spec) / sizeof(spec[0]); i++)
		if (emu_csr_by_name(spec[i].name) != (int)spec[i].num) {
			tap_diag("%s is not 0x%03x", spec[i].name, spec[i].num);
			good = false;
		}
	tap_ok(good, "CSR numbers of SPEC §2");
}

int main(void)
{
	test_counters();
	test_read_only();
	test_m_level();
	test_s_h_level();
	test_scountovf();
	test_unknown();
	test_warl();
	test_names();
	return tap_done();
}
