/* fuzz-trace.c: fuzz target for the emulator's trace reader
 * (src/kmh/emu/trace.c).
 *
 * Properties checked on every input, beyond "does not crash": a refused
 * trace has a one-line message and a line number inside the input; an
 * accepted one
 *  - has the cycle total hpm_emu_trace_cycles() says (the saturating sum),
 *  - written back with the trace writer and read again, gives the same runs,
 *  - counts the same on the fast path (emu_hart_run) as on the per-cycle
 *    reference (emu_ref_run), with counters programmed from the input.
 * Work is bounded whatever the input asks: the reference, which loops over
 * cycles, only runs on traces of at most REF_MAX_CYCLES cycles (a trace of
 * 1e18 cycles is replayed on the fast path alone, which is O(1) a run).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emukit/trace.h"
#include "kmh/emu/emu.h"
#include "fuzz-tmp.h"
#include "kmh/mhpmevent.h"

#define REF_MAX_CYCLES 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t fnv(const uint8_t *d, size_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	for (size_t i = 0; i < n; i++)
		h = (h ^ d[i]) * UINT64_C(0x100000001b3);
	return h;
}

static bool same_run(const struct emu_run *a, const struct emu_run *b)
{
	if (a->cycles != b->cycles || a->mode != b->mode || a->instret != b->instret)
		return false;
	for (int k = 0; k < KMH_NR_BANKS; k++)
		for (unsigned i = 0; i < kmh_table_v2.banks[k].nr_events; i++)
			if ((a->vals[k] ? a->vals[k][i] : 0) != (b->vals[k] ? b->vals[k][i] : 0))
				return false;
	return true;
}

/* Written out and read back: the same runs (the writer skips 0-cycle runs). */
static void check_round_trip(const struct hpm_emu_trace *t)
{
	char err[256];
	unsigned line;
	const char *path = fuzz_tmp_path("trace");
	struct hpm_emu_trace_writer *w =
	    hpm_emu_trace_writer_open(&emu_trace_format, path, err, sizeof(err));
	struct emu_run run, again;
	size_t n = 0;
	if (!w)
		abort();
	for (size_t i = 0; i < hpm_emu_trace_nr_runs(t); i++) {
		emu_trace_run_at(t, i, &run);
		if (emu_trace_write(w, &run, err, sizeof(err)) != 0)
			abort();
	}
	if (hpm_emu_trace_writer_close(w, err, sizeof(err)) != 0)
		abort();
	struct hpm_emu_trace *u =
	    hpm_emu_trace_load(&emu_trace_format, path, &line, err, sizeof(err));
	if (!u)
		abort();
	for (size_t i = 0; i < hpm_emu_trace_nr_runs(t); i++) {
		emu_trace_run_at(t, i, &run);
		if (!run.cycles)
			continue;
		if (n >= hpm_emu_trace_nr_runs(u))
			abort();
		emu_trace_run_at(u, n++, &again);
		if (!same_run(&run, &again))
			abort();
	}
	if (n != hpm_emu_trace_nr_runs(u) || hpm_emu_trace_cycles(u) != hpm_emu_trace_cycles(t))
		abort();
	hpm_emu_trace_free(u);
}

/* Counters 3..31 programmed from the input's hash: small event indices
 * (present in every bank), any ops and mode inhibits; some counters
 * start near 2^64 so that wraps and OF are exercised. */
static void program(struct emu_hart *h, uint64_t seed)
{
	for (unsigned n = 3; n <= 31; n++) {
		uint64_t r = seed * (2 * n + 1) + n;
		r ^= r >> 31;
		r *= UINT64_C(0xbf58476d1ce4e5b9);
		r ^= r >> 29;
		uint64_t ev = r & (KMH_INH_MASK | KMH_OF | ((uint64_t)KMH_OP_MASK * 0x421) << 40);
		for (unsigned s = 0; s < KMH_NR_SLOTS; s++)
			ev = kmh_mhpmevent_set_event(ev, s, (unsigned)(r >> (10 + 3 * s)) & 7);
		if (emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMEVENT(n), ev) != EMU_OK ||
		    emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(n),
		                       (r & 1) ? UINT64_MAX - (r >> 52) : 0) != EMU_OK)
			abort();
	}
	if (emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MCOUNTINHIBIT, (seed >> 7) & 0x10) != EMU_OK)
		abort();
}

static void check_fast_vs_reference(const struct hpm_emu_trace *t, uint64_t seed)
{
	struct emu *emu = emu_new(2);
	struct emu_hart *fast = emu_hart(emu, 0), *ref = emu_hart(emu, 1);
	struct emu_run run;
	bool with_ref = hpm_emu_trace_cycles(t) <= REF_MAX_CYCLES;
	program(fast, seed);
	program(ref, seed);
	for (size_t i = 0; i < hpm_emu_trace_nr_runs(t); i++) {
		emu_trace_run_at(t, i, &run);
		emu_hart_run(fast, &run);
		if (with_ref)
			emu_ref_run(ref, &run);
	}
	if (with_ref) {
		static const unsigned csrs[] = {EMU_CSR_MCYCLE, EMU_CSR_MINSTRET, EMU_CSR_MIP};
		uint64_t a, b;
		for (unsigned i = 0; i < sizeof(csrs) / sizeof(csrs[0]); i++)
			if (emu_hart_csr_read(fast, EMU_MODE_M, csrs[i], &a) != EMU_OK ||
			    emu_hart_csr_read(ref, EMU_MODE_M, csrs[i], &b) != EMU_OK || a != b)
				abort();
		for (unsigned n = 3; n <= 31; n++)
			if (emu_hart_csr_read(fast, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(n), &a) ||
			    emu_hart_csr_read(ref, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(n), &b) ||
			    a != b ||
			    emu_hart_csr_read(fast, EMU_MODE_M, EMU_CSR_MHPMEVENT(n), &a) ||
			    emu_hart_csr_read(ref, EMU_MODE_M, EMU_CSR_MHPMEVENT(n), &b) || a != b)
				abort();
	}
	emu_forget_source(emu, t);
	emu_free(emu);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	unsigned line = 0;
	struct hpm_emu_trace *t = hpm_emu_trace_parse(&emu_trace_format, (const char *)data, size,
	                                              &line, err, sizeof(err));
	if (!t) {
		unsigned lines = 1;
		for (size_t i = 0; i < size; i++)
			lines += data[i] == '\n';
		if (!err[0] || strchr(err, '\n') || line > lines)
			abort();
		return 0;
	}
	uint64_t sum = 0;
	struct emu_run run;
	for (size_t i = 0; i < hpm_emu_trace_nr_runs(t); i++) {
		emu_trace_run_at(t, i, &run);
		if (run.mode >= EMU_NR_MODES || run.instret > 63)
			abort();
		sum = run.cycles > UINT64_MAX - sum ? UINT64_MAX : sum + run.cycles;
	}
	if (sum != hpm_emu_trace_cycles(t))
		abort();
	check_round_trip(t);
	check_fast_vs_reference(t, fnv(data, size));
	hpm_emu_trace_free(t);
	return 0;
}
