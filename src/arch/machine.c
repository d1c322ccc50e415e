/* machine.c: what every emulated machine shares (see machine.h). Knows no
 * machine. */
#include "arch/machine.h"

#include <stdio.h>

const char *hpm_emu_counters_str(uint32_t mask, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned c = 0; c < HPM_EMU_MAX_COUNTERS && n < len; c++) {
		if (!(mask & (UINT32_C(1) << c)))
			continue;
		unsigned e = c;
		while (e + 1 < HPM_EMU_MAX_COUNTERS && (mask & (UINT32_C(1) << (e + 1))))
			e++;
		int w = e > c ? snprintf(buf + n, len - n, "%s%u-%u", n ? "," : "", c, e)
		              : snprintf(buf + n, len - n, "%s%u", n ? "," : "", c);
		if (w < 0)
			break;
		n += (size_t)w;
		c = e;
	}
	return buf;
}

bool hpm_emu_can_sample(const struct hpm_emu_machine *m)
{
	return m->set_period && m->run_sample && m->nr_functions && m->function;
}

uint64_t hpm_emu_period_left(uint64_t period, uint64_t since_wrap)
{
	/* riscv_pmu_event_set_period: left = period_left - overshoot; a whole
	 * period when that reaches -period, else + period when <= 0 */
	return since_wrap < period ? period - since_wrap : period;
}
