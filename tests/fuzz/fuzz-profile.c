/* fuzz-profile.c: fuzz target for the workload profile parser and the cycle
 * model behind it (src/kmh/emu/profile.c, hpmstat-emu-profile(5)).
 *
 * Properties checked on every input, beyond "does not crash": a refused
 * profile has a one-line message that starts with the file name; an
 * accepted one declares a Topdown breakdown whose level-1 shares are in
 * [0, 1] and sum to 1, with the identities of struct emu_topdown
 * (frontend and bad speculation split at level 2, memory bound at level 3), and
 * its workload yields runs of 1..asked cycles in a valid mode whose event
 * vectors obey the model's invariants (emu_profile_check_vals). Work is
 * bounded: the workload is drawn for at most MAX_CYCLES cycles or MAX_RUNS
 * runs, whatever cycle counts the profile declares.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-text.h"
#include "kmh/emu/emu.h"
#include "kmh/emu/workload.h"

#define MAX_CYCLES 200000
#define MAX_RUNS   2000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-6;
}

static bool share(double v)
{
	return v >= -1e-9 && v <= 1 + 1e-9;
}

static void check_breakdown(const struct emu_topdown *td)
{
	if (!share(td->retiring) || !share(td->frontend) || !share(td->bad_spec) ||
	    !share(td->backend) ||
	    !near(td->retiring + td->frontend + td->bad_spec + td->backend, 1) ||
	    !near(td->fetch_latency + td->fetch_bandwidth, td->frontend) ||
	    !near(td->l1 + td->l2 + td->l3 + td->dram + td->store, td->memory_bound))
		abort();
	/* both NAN when the profile has no flush (TOTAL_FLUSH = 0) */
	if (isnan(td->branch_mispredict) != isnan(td->machine_clears) ||
	    (!isnan(td->branch_mispredict) &&
	     !near(td->branch_mispredict + td->machine_clears, td->bad_spec)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char file[] = "fuzz.profile";
	char err[512];
	char *text = fuzz_text(data, size);
	err[0] = '\0';
	const struct emu_profile *p = emu_profile_parse(file, text, err, sizeof(err));
	free(text);
	if (!p) {
		fuzz_check_refusal(file, err);
		return 0;
	}
	struct emu_topdown td;
	emu_profile_declared(p, &td);
	check_breakdown(&td);
	unsigned nph = emu_profile_nr_phases(p);
	if (nph == 0 || !emu_profile_name(p))
		abort();
	for (unsigned i = 0; i < nph; i++) {
		emu_profile_phase_declared(p, i, &td);
		check_breakdown(&td);
		if (!emu_profile_phase_name(p, i))
			abort();
	}

	struct emu_workload *w = emu_workload_new(p, size);
	if (!w)
		abort();
	uint64_t left = MAX_CYCLES;
	for (unsigned n = 0; n < MAX_RUNS && left; n++) {
		struct emu_run run;
		memset(&run, 0, sizeof(run));
		uint64_t ask = 1 + (n * 7919u) % left; /* short and long asks */
		emu_workload_next(w, ask, &run);
		if (run.cycles == 0 || run.cycles > ask || run.mode >= EMU_NR_MODES ||
		    run.instret > 63 || emu_workload_phase(w) >= nph ||
		    !emu_profile_check_vals(run.vals, err, sizeof(err)))
			abort();
		left -= run.cycles;
	}
	emu_workload_free(w);
	emu_profile_free(p);
	return 0;
}
