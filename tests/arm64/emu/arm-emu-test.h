/* arm-emu-test.h: helpers of the Arm emulator's C tests: a pair of
 * machines, one counted by the fast path and one by the per-cycle
 * reference, driven by the same register writes and runs, so that every
 * hand-worked expectation is checked on both paths.
 */
#ifndef HPM_TESTS_ARM_EMU_TEST_H
#define HPM_TESTS_ARM_EMU_TEST_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm64/emu/pmu.h"
#include "tap.h"

#define EV_CPU_CYCLES 0x0011
#define EV_SW_INCR    0x0000
#define EV_STALL_SLOT 0x003f
#define EV_A          0x003d /* STALL_SLOT_BACKEND */
#define EV_B          0x003f /* STALL_SLOT */

/* the two paths */
struct pair {
	struct arm_emu *m[2]; /* [0] fast path, [1] reference */
};

static inline struct pair pair_new(const char *profile, unsigned pes, unsigned per_core)
{
	struct pair p;
	char err[200];
	for (int i = 0; i < 2; i++) {
		p.m[i] =
		    arm_emu_new(arm_emu_features_find(profile), pes, per_core, err, sizeof(err));
		if (!p.m[i]) {
			tap_diag("%s", err);
			exit(1);
		}
	}
	return p;
}

static inline void pair_free(struct pair *p)
{
	arm_emu_free(p->m[0]);
	arm_emu_free(p->m[1]);
}

/* a write at EL3 on PE pe of both machines */
static inline void pw(struct pair *p, unsigned pe, unsigned reg, unsigned idx, uint64_t v)
{
	for (int i = 0; i < 2; i++)
		if (arm_emu_write(arm_emu_pe(p->m[i], pe), 3, reg, idx, v) != ARM_EMU_OK) {
			tap_diag("write of register %u[%u] refused", reg, idx);
			exit(1);
		}
}

/* an external-block write on both machines */
static inline void pxw(struct pair *p, unsigned pe, unsigned reg, unsigned idx, uint64_t v)
{
	for (int i = 0; i < 2; i++)
		arm_emu_ext_write(arm_emu_pe(p->m[i], pe), reg, idx, v);
}

/* A run of `cycles` on PE pe in (el, sec, streaming) with up to 4
 * (event, VB) pairs given as nvals then event, vb, event, vb... (sorted
 * by event). */
static inline void prun(struct pair *p, unsigned pe, unsigned el, unsigned sec, bool sm,
                        uint64_t cycles, unsigned nvals, ...)
{
	struct arm_emu_val vals[4];
	va_list ap;
	va_start(ap, nvals);
	for (unsigned i = 0; i < nvals; i++) {
		vals[i].event = (uint16_t)va_arg(ap, unsigned);
		vals[i].vb = (uint16_t)va_arg(ap, unsigned);
	}
	va_end(ap);
	struct arm_emu_run r = {.cycles = cycles,
	                        .el = (uint8_t)el,
	                        .sec = (uint8_t)sec,
	                        .streaming = sm,
	                        .nr_vals = nvals,
	                        .vals = vals};
	if (arm_emu_run(arm_emu_pe(p->m[0], pe), &r) ||
	    arm_emu_ref_run(arm_emu_pe(p->m[1], pe), &r)) {
		tap_diag("run refused");
		exit(1);
	}
}

/* Checks register reg[idx] (read by the external block, which sees every
 * counter) of PE pe against `want` on both paths. */
static inline void pis(struct pair *p, unsigned pe, unsigned reg, unsigned idx, uint64_t want,
                       const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static inline void pis(struct pair *p, unsigned pe, unsigned reg, unsigned idx, uint64_t want,
                       const char *fmt, ...)
{
	char desc[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	for (int i = 0; i < 2; i++) {
		uint64_t v = 0;
		arm_emu_ext_read(arm_emu_pe(p->m[i], pe), reg, idx, &v);
		tap_is_u64(v, want, "%s (%s)", desc, i ? "reference" : "fast path");
	}
}

/* Counter n counts: PMCNTENSET bit n and PMCR.E (and LP as given). */
static inline void penable(struct pair *p, unsigned pe, uint32_t mask, uint64_t pmcr)
{
	pw(p, pe, ARM_EMU_PMCNTENSET_EL0, 0, mask);
	pw(p, pe, ARM_EMU_PMCR_EL0, 0, ARM_EMU_PMCR_E | pmcr);
}

static inline uint64_t typer(unsigned tc, unsigned te, unsigned tlc, unsigned th, unsigned evt)
{
	return ((uint64_t)tc << 61) | ((uint64_t)te << 60) | ((uint64_t)tlc << 54) |
	       ((uint64_t)th << 32) | evt;
}

#endif
