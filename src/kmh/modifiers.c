/* modifiers.c: perf-style privilege modifiers and the INH bits (SPEC §1).
 *
 * Owns: the mapping between modifier letters, counted modes and INH bits.
 * Two independent unions: a level (u user, k supervisor, m machine; default
 * uk) and a virtualization state (H host, G guest; default both). A counted
 * mode is a (level, state) pair; M-mode exists on the host only.
 */
#include <stdio.h>
#include <string.h>

#include "kmh/kmh.h"

enum { LVL_U = 1, LVL_K = 2, LVL_M = 4, VIRT_H = 1, VIRT_G = 2 };

static unsigned modes_of(unsigned lvl, unsigned virt)
{
	unsigned m = 0;
	if ((lvl & LVL_U) && (virt & VIRT_H))
		m |= KMH_MODE_U;
	if ((lvl & LVL_U) && (virt & VIRT_G))
		m |= KMH_MODE_VU;
	if ((lvl & LVL_K) && (virt & VIRT_H))
		m |= KMH_MODE_S;
	if ((lvl & LVL_K) && (virt & VIRT_G))
		m |= KMH_MODE_VS;
	if ((lvl & LVL_M) && (virt & VIRT_H))
		m |= KMH_MODE_M;
	return m;
}

int kmh_modifiers_parse(const char *mods, unsigned *modes, struct hpm_diag *err)
{
	unsigned lvl = 0, virt = 0;
	for (const char *p = mods; *p; p++) {
		unsigned *set = &lvl, bit;
		switch (*p) {
		case 'u':
			bit = LVL_U;
			break;
		case 'k':
			bit = LVL_K;
			break;
		case 'm':
			bit = LVL_M;
			break;
		case 'H':
			set = &virt;
			bit = VIRT_H;
			break;
		case 'G':
			set = &virt;
			bit = VIRT_G;
			break;
		default:
			return hpm_diag_fail(err, KMH_EMODIFIER, (int)(p - mods),
			                     "unknown modifier '%c' (known: u user, k supervisor, "
			                     "m machine, H host, G guest)",
			                     *p);
		}
		if (*set & bit) {
			return hpm_diag_fail(err, KMH_EMODIFIER, (int)(p - mods),
			                     "modifier '%c' given twice", *p);
		}
		*set |= bit;
	}
	if ((lvl & LVL_M) && virt == VIRT_G) {
		return hpm_diag_fail(err, KMH_EMODIFIER, -1,
		                     "modifiers '%s' are contradictory: 'm' with only 'G' asks "
		                     "for a guest M-mode, and M-mode exists on the host only",
		                     mods);
	}
	*modes = modes_of(lvl ? lvl : LVL_U | LVL_K, virt ? virt : VIRT_H | VIRT_G);
	return 0;
}

uint64_t kmh_modes_to_inh(unsigned modes)
{
	uint64_t inh = 0;
	if (!(modes & KMH_MODE_M))
		inh |= KMH_MINH;
	if (!(modes & KMH_MODE_S))
		inh |= KMH_SINH;
	if (!(modes & KMH_MODE_U))
		inh |= KMH_UINH;
	if (!(modes & KMH_MODE_VS))
		inh |= KMH_VSINH;
	if (!(modes & KMH_MODE_VU))
		inh |= KMH_VUINH;
	return inh;
}

unsigned kmh_inh_to_modes(uint64_t v)
{
	unsigned m = 0;
	if (!(v & KMH_MINH))
		m |= KMH_MODE_M;
	if (!(v & KMH_SINH))
		m |= KMH_MODE_S;
	if (!(v & KMH_UINH))
		m |= KMH_MODE_U;
	if (!(v & KMH_VSINH))
		m |= KMH_MODE_VS;
	if (!(v & KMH_VUINH))
		m |= KMH_MODE_VU;
	return m;
}

const char *kmh_modes_to_modifiers(unsigned modes, char buf[8])
{
	if (modes == KMH_MODES_DEFAULT) {
		buf[0] = '\0';
		return buf;
	}
	/* Try every letter set, shortest first; letters in the order u k m H G. */
	static const char letters[] = "ukmHG";
	unsigned best = 0, best_len = 99;
	for (unsigned set = 1; set < 32; set++) {
		unsigned lvl = set & 7, virt = (set >> 3) & 3,
		         len = (unsigned)__builtin_popcount(set);
		if ((lvl & LVL_M) && virt == VIRT_G)
			continue;
		unsigned m = modes_of(lvl ? lvl : LVL_U | LVL_K, virt ? virt : VIRT_H | VIRT_G);
		if (m == modes && len < best_len) {
			best = set;
			best_len = len;
		}
	}
	if (!best)
		return NULL;
	unsigned n = 0;
	for (unsigned i = 0; i < 5; i++)
		if (best & (1u << i))
			buf[n++] = letters[i];
	buf[n] = '\0';
	return buf;
}

const char *kmh_modes_str(unsigned modes, char buf[24])
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {{KMH_MODE_U, "U"},
	             {KMH_MODE_S, "S"},
	             {KMH_MODE_VU, "VU"},
	             {KMH_MODE_VS, "VS"},
	             {KMH_MODE_M, "M"}};
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(modes & names[i].bit))
			continue;
		n += (size_t)snprintf(buf + n, 24 - n, "%s%s", n ? "," : "", names[i].name);
	}
	if (!n)
		snprintf(buf, 24, "none");
	return buf;
}
