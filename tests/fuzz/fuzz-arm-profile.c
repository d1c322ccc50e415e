/* fuzz-arm-profile.c: fuzz target for the Arm emulator's workload profile
 * parser and the stream of runs it generates (src/arm64/emu/profile.c,
 * hpmstat-emu-profile(5), "ARM PROFILES").
 *
 * Properties checked on every input, beyond "does not crash": a refused
 * profile has a one-line message that starts with "FILE:"; an accepted one
 * has a name and at least one phase, declared level-1 Topdown nodes (slot
 * and cycle forms) in [0, 1] or NAN and equal to what a Non-secure kernel
 * counts when the profile never leaves Non-secure and Realm ELs 0-2 (where
 * it does, that view may leave [0, 1]: N2's slot bias is taken off every
 * cycle while Secure cycles are not counted, as the hardware would),
 * exception-level and security-state shares that each sum to 1, events
 * in strictly increasing order, functions of positive size whose shares sum
 * to at most 1; its stream yields runs of 1..asked cycles in a valid EL and
 * security state, with keys in 1..max key, values sorted without zeros and
 * within the per-cycle rules of profile.h (each VB at most
 * arm_src_event_max_vb, OP_SPEC + STALL_SLOT within the slots, STALL_FRONTEND
 * + STALL_BACKEND at most 1, OP_RETIRED at most OP_SPEC), a PC inside one of
 * the functions (or 0), the same run for the same key; and a second stream
 * of the same seed, asked for other lengths, gives the same cycles. Work is
 * bounded: at most MAX_CYCLES cycles or MAX_RUNS runs of each stream,
 * whatever cycle counts the profile declares.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-text.h"
#include "arm64/emu/profile.h"
#include "arm64/emu/stimulus.h"

#define MAX_CYCLES 200000
#define MAX_RUNS   2000
#define MAX_KEYS   4096 /* keys remembered for the same-key check */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool share(double v)
{
	return v >= -1e-9 && v <= 1 + 1e-9;
}

static void check_topdown(const struct arm_src_topdown *td)
{
	const double v[] = {td->frontend, td->backend, td->retiring, td->bad_spec};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!isnan(v[i]) && !share(v[i]))
			abort();
}

static bool same(double a, double b)
{
	return (isnan(a) && isnan(b)) || fabs(a - b) <= 1e-9;
}

static bool same_topdown(const struct arm_src_topdown *a, const struct arm_src_topdown *b)
{
	return same(a->frontend, b->frontend) && same(a->backend, b->backend) &&
	       same(a->retiring, b->retiring) && same(a->bad_spec, b->bad_spec);
}

static unsigned vb_of(const struct arm_emu_run *r, uint16_t code)
{
	for (unsigned i = 0; i < r->nr_vals; i++)
		if (r->vals[i].event == code)
			return r->vals[i].vb;
	return 0;
}

static void check_run(const struct arm_src_profile *p, const struct arm_emu_run *r, uint64_t ask)
{
	unsigned slots = arm_src_profile_slots(p), bias = arm_src_profile_stall_slot_bias(p);
	if (r->cycles == 0 || r->cycles > ask || r->source != p || r->el >= ARM_EMU_NR_EL ||
	    r->sec >= ARM_EMU_NR_SEC || r->key == 0 || r->key > arm_src_profile_max_key(p))
		abort();
	for (unsigned i = 0; i < r->nr_vals; i++)
		if (r->vals[i].vb == 0 || (i && r->vals[i].event <= r->vals[i - 1].event) ||
		    r->vals[i].vb > arm_src_event_max_vb(r->vals[i].event, slots))
			abort();
	unsigned ss = vb_of(r, ARM_SRC_STALL_SLOT);
	if (!ss)
		ss = vb_of(r, ARM_SRC_STALL_SLOT_FRONTEND) + vb_of(r, ARM_SRC_STALL_SLOT_BACKEND);
	if (vb_of(r, ARM_SRC_OP_SPEC) + ss > slots + bias ||
	    vb_of(r, ARM_SRC_STALL_FRONTEND) + vb_of(r, ARM_SRC_STALL_BACKEND) > 1 ||
	    vb_of(r, ARM_SRC_OP_RETIRED) > vb_of(r, ARM_SRC_OP_SPEC))
		abort();
	if (r->pc) {
		bool inside = false;
		for (unsigned i = 0; i < arm_src_profile_nr_functions(p) && !inside; i++) {
			struct arm_src_function f;
			arm_src_profile_function(p, i, &f);
			inside = r->pc >= f.lo && r->pc < f.hi;
		}
		if (!inside)
			abort();
	}
}

static bool same_run(const struct arm_emu_run *a, const struct arm_emu_run *b)
{
	return a->el == b->el && a->sec == b->sec && a->streaming == b->streaming &&
	       a->pc == b->pc && a->context == b->context && a->vmid == b->vmid &&
	       a->nr_vals == b->nr_vals && a->vals == b->vals;
}

static void check_profile(const struct arm_src_profile *p)
{
	struct arm_src_topdown slots, cycles, kslots, kcycles;
	arm_src_profile_declared(p, &slots, &cycles);
	check_topdown(&slots);
	check_topdown(&cycles);
	arm_src_profile_declared_kernel(p, &kslots, &kcycles);
	if (arm_src_profile_sec_share(p, ARM_EMU_SEC_S) == 0 &&
	    arm_src_profile_sec_share(p, ARM_EMU_SEC_ROOT) == 0 &&
	    arm_src_profile_el_share(p, ARM_EMU_EL3) == 0 &&
	    (!same_topdown(&slots, &kslots) || !same_topdown(&cycles, &kcycles)))
		abort();
	if (!arm_src_profile_name(p) || arm_src_profile_nr_phases(p) == 0)
		abort();
	for (unsigned i = 0; i < arm_src_profile_nr_phases(p); i++)
		if (!arm_src_profile_phase_name(p, i))
			abort();
	double el = 0, sec = 0;
	for (unsigned i = 0; i < ARM_EMU_NR_EL; i++)
		el += arm_src_profile_el_share(p, i);
	for (unsigned i = 0; i < ARM_EMU_NR_SEC; i++)
		sec += arm_src_profile_sec_share(p, i);
	if (fabs(el - 1) > 1e-6 || fabs(sec - 1) > 1e-6 ||
	    !share(arm_src_profile_streaming_share(p)))
		abort();
	for (unsigned i = 1; i < arm_src_profile_nr_events(p); i++)
		if (arm_src_profile_event(p, i) <= arm_src_profile_event(p, i - 1))
			abort();
	double fn = 0;
	for (unsigned i = 0; i < arm_src_profile_nr_functions(p); i++) {
		struct arm_src_function f;
		arm_src_profile_function(p, i, &f);
		if (!f.name || f.hi <= f.lo || !share(f.share))
			abort();
		fn += f.share;
	}
	if (fn > 1 + 1e-6)
		abort();
}

/* Runs a stream of p; a second stream of the same seed, asked for the
 * whole of each run of the first at once or in two pieces, must give the
 * same keys cycle for cycle. */
static void check_stream(const struct arm_src_profile *p, uint64_t seed)
{
	static struct arm_emu_run seen[MAX_KEYS + 1];
	static bool have[MAX_KEYS + 1];
	memset(have, 0, sizeof(have));
	struct arm_src_stream *a = arm_src_stream_new(p, seed), *b = arm_src_stream_new(p, seed);
	struct arm_emu_run rb;
	uint64_t b_left = 0, left = MAX_CYCLES;
	for (unsigned n = 0; n < MAX_RUNS && left; n++) {
		struct arm_emu_run ra;
		uint64_t ask = 1 + (n * 7919u) % left; /* short and long asks */
		arm_src_stream_next(a, ask, &ra);
		check_run(p, &ra, ask);
		if (arm_src_stream_phase(a) >= arm_src_profile_nr_phases(p))
			abort();
		if (ra.key <= MAX_KEYS) {
			if (have[ra.key] && !same_run(&seen[ra.key], &ra))
				abort();
			seen[ra.key] = ra;
			have[ra.key] = true;
		}
		for (uint64_t c = 0; c < ra.cycles;) {
			if (!b_left) {
				uint64_t bask = 1 + (n * 104729u) % MAX_CYCLES;
				arm_src_stream_next(b, bask, &rb);
				check_run(p, &rb, bask);
				b_left = rb.cycles;
			}
			if (rb.key != ra.key)
				abort();
			uint64_t k = ra.cycles - c < b_left ? ra.cycles - c : b_left;
			c += k;
			b_left -= k;
		}
		left -= ra.cycles;
	}
	arm_src_stream_free(a);
	arm_src_stream_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char file[] = "fuzz.profile";
	char err[512];
	char *text = fuzz_text(data, size);
	err[0] = '\0';
	const struct arm_src_profile *p = arm_src_profile_parse(file, text, err, sizeof(err));
	free(text);
	if (!p) {
		fuzz_check_refusal(file, err);
		return 0;
	}
	check_profile(p);
	check_stream(p, size);
	arm_src_profile_free(p);
	return 0;
}
