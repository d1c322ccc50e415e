/* provenance.c: see provenance.h. */
#include "util/provenance.h"

#include <stdio.h>

/* "s" after a count other than one */
static const char *plural(unsigned n)
{
	return n == 1 ? "" : "s";
}

const char *emu_provenance_text(const struct emu_provenance *p, enum emu_provenance_form form,
                                char *buf, size_t len)
{
	const char *model = p->model ? p->model : "PMU";
	/* what ran: a trace replaces the profile */
	char src[300];
	if (p->trace)
		snprintf(src, sizeof(src), "trace %s", p->trace);
	else
		snprintf(src, sizeof(src), "profile %s", p->profile ? p->profile : "?");

	if (form == EMU_PROVENANCE_BRIEF) {
		snprintf(buf, len, "emulated, %s, %u hart%s", src, p->harts, plural(p->harts));
		return buf;
	}
	if (form == EMU_PROVENANCE_LIVE) {
		snprintf(buf, len, "emulated %s: %s, seed %llu, %u hart%s at %.6g MHz%s", model,
		         src, (unsigned long long)p->seed, p->harts, plural(p->harts),
		         p->freq / 1e6, p->multiplexed ? ", counters multiplexed" : "");
		return buf;
	}
	/* a trace replays the same cycles whatever the seed; -r: the seeds of
	 * every repeat */
	char seed[64] = "";
	if (!p->trace && p->repeats > 1)
		snprintf(seed, sizeof(seed), ", seeds %llu-%llu",
		         (unsigned long long)(p->seed - p->repeats + 1),
		         (unsigned long long)p->seed);
	else if (!p->trace)
		snprintf(seed, sizeof(seed), ", seed %llu", (unsigned long long)p->seed);
	char of[32] = "", part[128] = "";
	if (p->partial) {
		char run[48] = "";
		if (p->run_interrupted && p->repeats > 1)
			snprintf(run, sizeof(run), " in run %u", p->run_interrupted);
		snprintf(of, sizeof(of), " of %llu", (unsigned long long)p->cycles_wanted);
		snprintf(part, sizeof(part), ", partial (%s%s),",
		         p->interrupted ? "interrupted" : "the emulator fell behind wall time",
		         run);
	}
	snprintf(buf, len, "emulated %s: %s%s, %u hart%s, %llu%s cycles%s%s%s at %.6g MHz%s", model,
	         src, seed, p->harts, plural(p->harts), (unsigned long long)p->cycles, of,
	         p->harts == 1 ? "" : " each", p->follows_command ? " (following wall time)" : "",
	         part, p->freq / 1e6, p->multiplexed ? ", counters multiplexed" : "");
	return buf;
}
