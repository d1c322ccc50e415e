/* emu-test.h: helpers shared by the emulator's C tests.
 *
 * Owns: nothing but shorthands. Expected values in the tests are written
 * from SPEC §1/§2 by hand; these helpers only perform accesses.
 */
#ifndef HPM_TESTS_EMU_TEST_H
#define HPM_TESTS_EMU_TEST_H

#include <string.h>

#include "../tap.h"
#include "kmh/emu/emu.h"

/* M-mode read; a failing read is reported and gives a poison value. */
static inline uint64_t rd(struct emu_hart *h, unsigned csr)
{
	uint64_t v = UINT64_C(0xdeadbeefdeadbeef);
	int exc = emu_hart_csr_read(h, EMU_MODE_M, csr, &v);
	if (exc)
		tap_diag("M-mode read of 0x%03x raised %s", csr, emu_exc_name(exc));
	return v;
}

static inline void wr(struct emu_hart *h, unsigned csr, uint64_t v)
{
	int exc = emu_hart_csr_write(h, EMU_MODE_M, csr, v);
	if (exc)
		tap_diag("M-mode write of 0x%03x raised %s", csr, emu_exc_name(exc));
}

/* The result of a read from `mode`, value discarded. */
static inline int rexc(struct emu_hart *h, enum emu_mode mode, unsigned csr)
{
	uint64_t v;
	return emu_hart_csr_read(h, mode, csr, &v);
}

/* A run of `cycles` cycles in `mode`; vals are given as a flat list of
 * (bank, index, value) triples terminated by bank -1. The arrays are static:
 * one run at a time. */
static inline struct emu_run mkrun(uint64_t cycles, enum emu_mode mode, unsigned instret,
                                   const int *triples)
{
	static uint8_t vals[KMH_NR_BANKS][1024];
	struct emu_run r;

	memset(vals, 0, sizeof(vals));
	for (const int *t = triples; t && t[0] >= 0; t += 3)
		vals[t[0]][t[1]] = (uint8_t)t[2];
	memset(&r, 0, sizeof(r));
	r.cycles = cycles;
	r.mode = (uint8_t)mode;
	r.instret = (uint8_t)instret;
	for (int b = 0; b < KMH_NR_BANKS; b++)
		r.vals[b] = vals[b];
	return r;
}

#endif
