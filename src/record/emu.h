/* emu.h: hpmstat record --backend emu: sampling an emulated machine into
 * perf.data.
 *
 * Owns: the recording of an emulator run: the events (perf's -e grammar,
 * the events of a model with an emulated machine that can sample,
 * arch/machine.h), their placement on the machine's counters, the
 * sampling loop (each sampling counter armed to overflow after its period,
 * the sample taken in the cycle it overflows, re-armed as Linux's
 * riscv_pmu_sbi does), and the records that describe the run to perf:
 *  - one process (pid HPM_RECORD_EMU_PID) with one thread per hart (tid
 *    pid + hart), COMM "emu:PROFILE" each;
 *  - one MMAP2 of the workload's declared functions as one DSO named
 *    "[emu:PROFILE]" (start = the lowest function start, pgoff = start, so
 *    that a DSO offset is the declared address);
 *  - PERF_RECORD_SAMPLE: IP (the PC of the overflow cycle), TID, TIME (the
 *    hart's emulated ns at that cycle, --emu-freq), CPU (the hart), PERIOD
 *    (the period that elapsed), ID when there are several events, and
 *    with a {...}:S group READ (PERF_FORMAT_GROUP | PERF_FORMAT_ID: every
 *    member's count since the start, perf's leader sampling);
 *  - FINISHED_ROUND after each round of the harts;
 *  - a BUILD_ID entry for the DSO: the id of an ELF image of the declared
 *    functions (record/emu-elf.h), written into perf's build-id cache so
 *    that perf report names the functions as hpmstat report does.
 * The declared functions are a symbol table (sym/sym.h, hpm_syms_add_table)
 * for the DSO: hpm_record_emu_functions() gives it to a report.
 *
 * Never prints, never exits: errors are negative errno values with a
 * one-line message.
 */
#ifndef HPM_RECORD_EMU_H
#define HPM_RECORD_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arch/model.h"
#include "backend/emu.h"

#define HPM_RECORD_EMU_PID 1000 /* the emulated workload's pseudo process */

struct hpm_record_emu_opts {
	const char *events;        /* -e text; NULL is refused (mcycle cannot sample) */
	uint64_t period;           /* -c; 0: freq */
	uint64_t freq;             /* -F: samples per emulated second of a leader that
	                            * counted one per cycle: period = emu.freq / freq */
	struct hpm_emu_config emu; /* --emu-profile, --emu-harts, --emu-seed, --emu-cycles,
	                            * --emu-freq */
	/* --pmu: the model whose machine records (kunminghu-v3); NULL: the first
	 * registered model whose machine can sample */
	const struct hpm_pmu_model *model;
	bool pipe; /* perf's pipe format (-o -) rather than a file */
	/* perf's build-id cache ($HOME/.debug): where the ELF image of the
	 * declared functions goes (record/emu-elf.h); NULL: nowhere */
	const char *buildid_dir;
	const char *exe; /* CMDLINE */
	int argc;
	char *const *argv;
};

struct hpm_record_emu_stats {
	uint64_t samples;
	uint64_t cycles; /* per hart */
	uint64_t file_size;
	/* why the build-id cache was not written ("" when it was, or when
	 * nothing was asked) */
	char cache_warning[320];
};

/* Records the whole run into f (seekable, at 0; any stream with pipe). 0, or -errno with the
 * reason in err ("'E': <not supported>: ..." for an event that cannot
 * sample; HPM_EVLIST_EBADEVENT for an -e list that does not parse or
 * names an event the model has not got). *stop (may be NULL) set non-zero
 * ends the run early with a complete file. */
int hpm_record_emu(const struct hpm_record_emu_opts *o, FILE *f, const volatile int *stop,
                   struct hpm_record_emu_stats *st, char *err, size_t errlen);

/* A declared function of an emulator DSO. */
struct hpm_record_emu_fn {
	char *name;
	uint64_t start, end;
};

/* The declared functions behind dso when it names an emulator workload
 * ("[emu:PROFILE]"): PROFILE's from profile_file (a profile file the user
 * named, report --emu-profile; NULL: none) when that file is the profile
 * PROFILE, else from the built-in profile PROFILE. A name read from a
 * recording is never opened as a path. 0 with *fns (free with
 * hpm_record_emu_functions_free) and *n; -ENOENT when dso is not one;
 * -EINVAL when profile_file cannot be read, -ESRCH when no profile is
 * PROFILE, with err. For sym/sym.h's hpm_syms_add_table. */
int hpm_record_emu_functions(const char *dso, const char *profile_file,
                             struct hpm_record_emu_fn **fns, size_t *n, char *err, size_t errlen);
/* Whether profile_file (a profile name or file the user named) is a
 * profile the sampling machine runs: 0, or -errno with err. */
int hpm_record_emu_profile_check(const char *profile_file, char *err, size_t errlen);
void hpm_record_emu_functions_free(struct hpm_record_emu_fn *fns, size_t n);

#endif
