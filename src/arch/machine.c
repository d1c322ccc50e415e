/* machine.c: what every emulated machine shares (see machine.h). Knows no
 * machine. */
#include "arch/machine.h"

#include <inttypes.h>
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

/* buf's text so far (n bytes), and "; " before what follows it */
static size_t append(char *buf, size_t len, size_t n, const char *text)
{
	if (n >= len)
		return n;
	int w = snprintf(buf + n, len - n, "%s%s", n ? "; " : "", text);
	return w < 0 ? len : n + (size_t)w;
}

const char *hpm_emu_describe(const struct hpm_emu_machine *m, enum hpm_emu_step step, uint32_t mask,
                             unsigned counter, uint64_t value, char *buf, size_t len)
{
	const struct hpm_emu_step_words *w = m->words;
	if (!w)
		return m->describe(step, mask, counter, value, buf, len);
	char cb[128];
	buf[0] = '\0';
	switch (step) {
	case HPM_EMU_STEP_STOP:
		if (w->stop_all && (mask & w->all_mask) == w->all_mask)
			snprintf(buf, len, "%s0x%08" PRIx32, w->stop_all, w->all_mask);
		else
			snprintf(buf, len, "%s0x%08" PRIx32, w->stop, mask);
		break;
	case HPM_EMU_STEP_START:
		snprintf(buf, len, "%s0x%08" PRIx32, w->start, mask);
		break;
	case HPM_EMU_STEP_PROGRAM:
		for (unsigned i = 0; i < w->nr_fixed; i++)
			if (w->fixed[i].counter == counter && w->fixed[i].program) {
				snprintf(buf, len, "%s0x%016" PRIx64, w->fixed[i].program, value);
				return buf;
			}
		snprintf(buf, len, "%s%u%s0x%016" PRIx64, w->program[0], counter, w->program[1],
		         value);
		break;
	case HPM_EMU_STEP_NO_EVENT:
		snprintf(buf, len, "%s%s", w->no_event,
		         hpm_emu_counters_str(mask & w->programmable, cb, sizeof(cb)));
		break;
	case HPM_EMU_STEP_ZERO: {
		size_t n = 0;
		if (mask & w->programmable) {
			int k =
			    snprintf(buf, len, "%s%s", w->zero,
			             hpm_emu_counters_str(mask & w->programmable, cb, sizeof(cb)));
			n = k < 0 ? len : (size_t)k;
		}
		for (unsigned i = 0; i < w->nr_fixed; i++)
			if (mask & (UINT32_C(1) << w->fixed[i].counter))
				n = append(buf, len, n, w->fixed[i].zero);
		break;
	}
	case HPM_EMU_STEP_ROTATE:
		snprintf(buf, len, "%s", w->rotate);
		break;
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
