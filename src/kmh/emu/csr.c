/* csr.c: names and numbers of the CSRs the emulator implements, of the
 * privilege modes and exceptions, and the number syntax of the script.
 *
 * Owns: the table of implemented CSRs. hart.c asks it whether a number is
 * implemented (anything else raises illegal-instruction), so adding a CSR
 * starts here.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "kmh/emu/emu.h"

struct csr_desc {
	const char *name;
	unsigned num;
};

// clang-format off
#define HPM_LIST(X) \
	X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17) \
	X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)
// clang-format on
#define MHPMCOUNTER(n) {"mhpmcounter" #n, EMU_CSR_MHPMCOUNTER(n)},
#define MHPMEVENT(n)   {"mhpmevent" #n, EMU_CSR_MHPMEVENT(n)},
#define HPMCOUNTER(n)  {"hpmcounter" #n, EMU_CSR_HPMCOUNTER(n)},

/* In ascending number order, so the listing reads like the CSR map. */
// clang-format off
static const struct csr_desc csr_table[] = {
	{"scounteren", EMU_CSR_SCOUNTEREN},
	{"sip", EMU_CSR_SIP},
	{"stimecmp", EMU_CSR_STIMECMP},
	{"vstimecmp", EMU_CSR_VSTIMECMP},
	{"mcounteren", EMU_CSR_MCOUNTEREN},
	{"menvcfg", EMU_CSR_MENVCFG},
	{"mcountinhibit", EMU_CSR_MCOUNTINHIBIT},
	HPM_LIST(MHPMEVENT)
	{"mip", EMU_CSR_MIP},
	{"htimedelta", EMU_CSR_HTIMEDELTA},
	{"hcounteren", EMU_CSR_HCOUNTEREN},
	{"henvcfg", EMU_CSR_HENVCFG},
	{"mcycle", EMU_CSR_MCYCLE},
	{"minstret", EMU_CSR_MINSTRET},
	HPM_LIST(MHPMCOUNTER)
	{"cycle", EMU_CSR_CYCLE},
	{"time", EMU_CSR_TIME},
	{"instret", EMU_CSR_INSTRET},
	HPM_LIST(HPMCOUNTER)
	{"scountovf", EMU_CSR_SCOUNTOVF},
};
// clang-format on

#define NR_CSRS (sizeof(csr_table) / sizeof(csr_table[0]))

const char *emu_csr_name(unsigned csr)
{
	/* 94 entries: a scan costs less than a CSR access's fold. */
	for (size_t i = 0; i < NR_CSRS; i++)
		if (csr_table[i].num == csr)
			return csr_table[i].name;
	return NULL;
}

int emu_csr_by_name(const char *name)
{
	for (size_t i = 0; i < NR_CSRS; i++)
		if (strcasecmp(csr_table[i].name, name) == 0)
			return (int)csr_table[i].num;
	return -1;
}

int emu_csr_at(unsigned i)
{
	return i < NR_CSRS ? (int)csr_table[i].num : -1;
}

int emu_parse_u64(const char *s, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;
	bool digit = false; /* a digit was seen since the prefix or the last '_' */

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, s += 2;
	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned d;
		if (*s == '_') {
			if (!digit) /* leading or doubled separator */
				return -1;
			digit = false;
			continue;
		}
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a') + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A') + 10;
		else
			return -1;
		if (d >= base)
			return -1;
		if (v > (UINT64_MAX - d) / base)
			return -1;
		v = v * base + d;
		digit = true;
	}
	if (!digit) /* trailing separator */
		return -1;
	*out = v;
	return 0;
}

int emu_csr_parse(const char *s, unsigned *csr, char *err, size_t errlen)
{
	uint64_t v;
	int n;

	if (isdigit((unsigned char)s[0])) {
		if (emu_parse_u64(s, &v) < 0) {
			snprintf(err, errlen, "bad CSR number '%s'", s);
			return -1;
		}
		if (v > 0xfff) {
			snprintf(err, errlen, "CSR number '%s' is wider than 12 bits", s);
			return -1;
		}
		*csr = (unsigned)v;
		return 0;
	}
	if ((n = emu_csr_by_name(s)) < 0) {
		snprintf(err, errlen, "unknown CSR '%s'", s);
		return -1;
	}
	*csr = (unsigned)n;
	return 0;
}

static const char *const mode_names[EMU_NR_MODES] = {
    [EMU_MODE_M] = "M",   [EMU_MODE_HS] = "HS", [EMU_MODE_HU] = "HU",
    [EMU_MODE_VS] = "VS", [EMU_MODE_VU] = "VU",
};

const char *emu_mode_name(unsigned mode)
{
	return mode < EMU_NR_MODES ? mode_names[mode] : NULL;
}

int emu_mode_parse(const char *s)
{
	for (unsigned m = 0; m < EMU_NR_MODES; m++)
		if (strcasecmp(s, mode_names[m]) == 0)
			return (int)m;
	if (strcasecmp(s, "S") == 0)
		return EMU_MODE_HS;
	if (strcasecmp(s, "U") == 0)
		return EMU_MODE_HU;
	return -1;
}

const char *emu_exc_name(int exc)
{
	switch (exc) {
	case EMU_OK:
		return "ok";
	case EMU_EXC_ILLEGAL:
		return "illegal-instruction";
	case EMU_EXC_VIRTUAL:
		return "virtual-instruction";
	default:
		return "unknown-exception";
	}
}
