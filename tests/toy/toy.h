/* toy.h: a throwaway PMU model and its emulated machine, for tests only.
 *
 * Owns: toy_model and toy_machine (toy.c). Never installed and never in
 * src/: the tests register them at run time (registry/models.h:
 * hpm_model_register) to show that everything above the model interface
 * works with a model it has never heard of.
 *
 * The toy: fixed counter "ticks" (counter 0) counts cycles; counters 1 and
 * 2 ("ctr1", "ctr2") form one class, "pool"; event "evK" (K = 1..5) has
 * event-select value K and delivers K per cycle, except ev5, which the
 * machine's one profile, "steady", never produces. Every count is thus
 * worked out by hand: ev2 over 1000 counted cycles is 2000. Its one
 * privilege mode is "u"; "rHEX" is a raw value (no class: the emulator
 * cannot place it). perf's cycles is ticks and instructions is ev1 (an IPC
 * of exactly 1). It has no metrics.
 */
#ifndef HPM_TESTS_TOY_H
#define HPM_TESTS_TOY_H

#include "arch/machine.h"
#include "arch/model.h"

extern const struct hpm_pmu_model toy_model;
extern const struct hpm_emu_machine toy_machine;

#endif
