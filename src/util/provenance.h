/* provenance.h: where emulated figures came from, as one line of text.
 *
 * Owns: struct emu_provenance (the emulator's source, seed, harts, clock
 * and how the run went, in plain types every layer can fill: the stat
 * printers from the session's label, top from the live emulator, the report
 * from a run file) and emu_provenance_text, the one place that turns them
 * into the label printed beside emulated numbers, so that stat, top and
 * report cannot describe the same run in different words.
 */
#ifndef HPM_UTIL_PROVENANCE_H
#define HPM_UTIL_PROVENANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct emu_provenance {
	const char *model;   /* the emulated PMU model's display name, "Kunminghu" */
	const char *profile; /* workload profile name, or NULL */
	const char *trace;   /* trace path, or NULL; a trace replaces the profile */
	uint64_t seed;
	unsigned repeats; /* -r: repeat r used seed + r; 0 or 1: one run */
	unsigned harts;
	uint64_t cycles;      /* emulated cycles run (per hart) */
	double freq;          /* Hz */
	bool follows_command; /* emulated time followed a host command's wall time */
	bool multiplexed;     /* the emulator rotated counter groups */
	/* A run that stopped short: `cycles` of `cycles_wanted` ran, because
	 * of a signal (interrupted) or because the emulator could not keep up
	 * with the wall time it followed. */
	bool partial;
	bool interrupted;
	uint64_t cycles_wanted;
	unsigned run_interrupted; /* -r: the run (1-based) a signal cut short, 0: none */
};

/* How much of it a label says. */
enum emu_provenance_form {
	/* A finished run, everything (hpmstat stat): "emulated Kunminghu:
	 * profile balanced, seed 1, 1 hart, 1000000000 cycles at 100 MHz" */
	EMU_PROVENANCE_RUN,
	/* A live view (hpmstat top), without the cycle count that grows every
	 * frame: "emulated Kunminghu: profile balanced, seed 1, 2 harts at 100
	 * MHz" */
	EMU_PROVENANCE_LIVE,
	/* A run's head line in a report, the rest being in the run file:
	 * "emulated, profile dram-bound, 2 harts" */
	EMU_PROVENANCE_BRIEF,
};

/* The label of p in form `form` into buf (len bytes, truncated); buf. */
const char *emu_provenance_text(const struct emu_provenance *p, enum emu_provenance_form form,
                                char *buf, size_t len);

#endif
