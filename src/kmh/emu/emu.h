/* emu.h: the Kunminghu HPM emulator: harts with the counter CSRs of SPEC §2,
 * the per-cycle event combination of SPEC §1, and the event sources and the
 * script interpreter behind `hpmstat emu`.
 *
 * Owns: the public API of libemu except the workload models
 * (kmh/emu/workload.h), the bench engine (kmh/emu/bench.h) and the run
 * contract (kmh/emu/source.h).
 * Everything here is library code: it never prints and never exits; fallible
 * calls return 0 or -1 with a message in a caller-supplied buffer (the CLI
 * adds "hpmstat emu: FILE:LINE:").
 *
 *   struct emu          a machine: N harts sharing one `time` (hart.c)
 *   struct emu_hart     one hart's CSR file and counters (hart.c)
 *   emu_ref_run()       the per-cycle oracle the fast path is checked against
 *                       (reference.c)
 *   emu_csr_*()         CSR names and numbers (csr.c)
 *   emu_stimulus_*()    exact per-cycle values for chosen events (stimulus.c)
 *   emu_trace_*()       the trace text format: write and replay (trace.c)
 *   emu_script_*()      the script language of hpmstat-emu(1) (script.c)
 *
 * Model choices that the specs leave open are documented next to the call
 * they affect and in hpmstat-emu(1); the summary:
 *  - Reset: every counter, mhpmevent, counteren, mcountinhibit, menvcfg,
 *    henvcfg, htimedelta, mip and time are 0; stimecmp and vstimecmp are
 *    all ones (Sstc); each hart starts in M-mode.
 *  - time is one value for the whole machine, set by emu_set_time(); runs do
 *    not advance it, so timer behaviour is exact and harts need no common
 *    clock.
 *  - Counting is exact at every CSR access: the fast path may defer work, but
 *    every CSR access (and emu_hart_sync()) completes it first.
 */
#ifndef HPM_KMH_EMU_EMU_H
#define HPM_KMH_EMU_EMU_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmh/emu/source.h"

/* ------------------------------------------------------------ CSR numbers */

#define EMU_CSR_SCOUNTEREN     0x106
#define EMU_CSR_SIP            0x144
#define EMU_CSR_STIMECMP       0x14D
#define EMU_CSR_VSTIMECMP      0x24D
#define EMU_CSR_MCOUNTEREN     0x306
#define EMU_CSR_MENVCFG        0x30A
#define EMU_CSR_MCOUNTINHIBIT  0x320
#define EMU_CSR_MHPMEVENT(n)   (0x320 + (n)) /* n = 3..31 */
#define EMU_CSR_MIP            0x344
#define EMU_CSR_HTIMEDELTA     0x605
#define EMU_CSR_HCOUNTEREN     0x606
#define EMU_CSR_HENVCFG        0x60A
#define EMU_CSR_MCYCLE         0xB00
#define EMU_CSR_MINSTRET       0xB02
#define EMU_CSR_MHPMCOUNTER(n) (0xB00 + (n)) /* n = 3..31 */
#define EMU_CSR_CYCLE          0xC00
#define EMU_CSR_TIME           0xC01
#define EMU_CSR_INSTRET        0xC02
#define EMU_CSR_HPMCOUNTER(n)  (0xC00 + (n)) /* n = 3..31 */
#define EMU_CSR_SCOUNTOVF      0xDA0

/* Bits of mcountinhibit / m,s,hcounteren (SPEC §2 reading). */
#define EMU_CNT_CY     (UINT32_C(1) << 0)
#define EMU_CNT_TM     (UINT32_C(1) << 1)
#define EMU_CNT_IR     (UINT32_C(1) << 2)
#define EMU_CNT_HPM(n) (UINT32_C(1) << (n)) /* n = 3..31 */

#define EMU_ENVCFG_STCE (UINT64_C(1) << 63)

/* mip bits modelled here. */
#define EMU_MIP_STIP   (UINT64_C(1) << 5)
#define EMU_MIP_VSTIP  (UINT64_C(1) << 6)
#define EMU_MIP_LCOFIP (UINT64_C(1) << 13)

/* The result of a CSR access: 0, or the exception the instruction raises.
 * The values are the RISC-V mcause exception codes. */
enum emu_exc {
	EMU_OK = 0,
	EMU_EXC_ILLEGAL = 2,  /* illegal-instruction */
	EMU_EXC_VIRTUAL = 22, /* virtual-instruction (H extension) */
};

/* ---------------------------------------------------------------- machine */

struct emu;
struct emu_hart;

#define EMU_MAX_HARTS 1024

/* A machine of nr_harts (1..EMU_MAX_HARTS) harts in reset state; NULL when
 * nr_harts is out of range. */
struct emu *emu_new(unsigned nr_harts);
void emu_free(struct emu *emu);
unsigned emu_nr_harts(const struct emu *emu);
/* Hart i (0-based), or NULL when out of range. */
struct emu_hart *emu_hart(struct emu *emu, unsigned i);

/* The event table whose indices the harts' mhpmevent EVENTn fields hold
 * (kmh_table_v2 from emu_new(); kmh_table_v3 for a kunminghu-v3 machine).
 * The sources (stimulus, workload, trace) produce signals by v2's indices,
 * so an event of t counts the signal of v2's event of its name, as the
 * kunminghu-v3 machine (machine.h) feeds it; an event v2 has none of
 * delivers 0. What was counted before stays counted. */
void emu_set_table(struct emu *emu, const struct kmh_table *t);
const struct kmh_table *emu_table(const struct emu *emu);
/* The signal of event idx of t's bank: the index of v2's event of its name
 * (idx itself for v2), 0 (noEvent) when v2 has no event of that name. */
unsigned emu_signal_index(const struct kmh_table *t, int bank, unsigned idx);

/* The machine timer (the value the `time` CSR reads in M/HS/HU; VS/VU read
 * time + htimedelta). Only emu_set_time() changes it. */
uint64_t emu_time(const struct emu *emu);
void emu_set_time(struct emu *emu, uint64_t time);

/* Drops every cached per-key result of `source` in all harts. The owner of a
 * source that produces keyed runs must call this before freeing it, since a
 * new source allocated at the same address would otherwise hit the old
 * source's cache entries. Pending counts are completed first. */
void emu_forget_source(struct emu *emu, const void *source);

/* ------------------------------------------------------------------- harts */

/* The hart's current privilege mode: the mode of emu_stimulus runs and of
 * CSR accesses made by the script. Starts as M. */
enum emu_mode emu_hart_mode(const struct emu_hart *h);
void emu_hart_set_mode(struct emu_hart *h, enum emu_mode mode);
/* Returns the hart to its reset state (counters, CSRs, cache, mode). */
void emu_hart_reset(struct emu_hart *h);

/* CSR access from privilege mode `mode` (SPEC §2 with the H extension).
 * Returns EMU_OK, EMU_EXC_ILLEGAL or EMU_EXC_VIRTUAL; *val is written only on
 * EMU_OK. The checks, in order:
 *  1. a CSR number this model does not implement: illegal-instruction;
 *  2. a write to a read-only CSR (number bits 11:10 = 3: cycle, time,
 *     instret, hpmcounterN, scountovf): illegal-instruction in every mode;
 *  3. M: allowed. HS: M-level CSRs illegal; cycle/time/instret/hpmcounterN
 *     need mcounteren[n]; stimecmp/vstimecmp need menvcfg.STCE and
 *     mcounteren.TM (else illegal). HU: only user CSRs; counters need
 *     mcounteren[n] and scounteren[n] (else illegal).
 *  4. VS/VU: whatever HS-mode would reject is illegal-instruction; then
 *     VS: H-level CSRs (0x2xx, 0x6xx: hcounteren, htimedelta, henvcfg,
 *     vstimecmp) are virtual-instruction, counters need hcounteren[n] and
 *     stimecmp (which is vstimecmp in VS) needs henvcfg.STCE and
 *     hcounteren.TM, else virtual-instruction; VU: every S- or H-level CSR
 *     is virtual-instruction, counters need hcounteren[n] and scounteren[n],
 *     else virtual-instruction.
 * Values read: time reads time + htimedelta in VS/VU; scountovf bit n is
 * mhpmevent n.OF, masked by mcounteren in HS and by mcounteren & hcounteren
 * in VS; "stimecmp" in VS is vstimecmp; "sip" in VS is vsip.
 *
 * WARL rules of writes (see hpmstat-emu(1) for the reasons):
 *  - mcountinhibit: bits 31:3 and 0; bit 1 (TM) reads 0.
 *  - m/s/hcounteren: bits 31:0.
 *  - mhpmevent: every field is stored except that a reserved OP_TYPE becomes
 *    the op XiangShan's priority mux executes for it: bit 0 set -> AND
 *    (0b00001), else bit 1 -> XOR (0b00010), else bit 2 -> ADD (0b00100),
 *    else OR (0b00000). Reserved bits 57:55 and OF are read/write. An EVENTn
 *    index beyond its bank's table is stored and delivers 0.
 *  - menvcfg: STCE only (other fields read 0). Clearing it clears
 *    henvcfg.STCE. henvcfg: STCE only, and only while menvcfg.STCE = 1.
 *  - mip (M): LCOFIP is read/write; STIP is read/write while menvcfg.STCE = 0
 *    and reads the timer comparison while it is 1; VSTIP reads the vstimecmp
 *    comparison while henvcfg.STCE = 1, else 0, and ignores writes.
 *  - sip (HS; STI and LCOFI are taken as delegated to S, as OpenSBI sets
 *    mideleg for Linux): reads STIP and LCOFIP of mip; LCOFIP is writable.
 *    vsip (sip from VS; hideleg taken as KVM sets it, VSTI delegated, LCOFI
 *    not): bit 5 reads mip.VSTIP; writes are ignored.
 * csrs/csrc are read-modify-write and are checked as writes (as csrrs/csrrc
 * with a source register other than x0). */
int emu_hart_csr_read(struct emu_hart *h, enum emu_mode mode, unsigned csr, uint64_t *val);
int emu_hart_csr_write(struct emu_hart *h, enum emu_mode mode, unsigned csr, uint64_t val);
int emu_hart_csr_set(struct emu_hart *h, enum emu_mode mode, unsigned csr, uint64_t mask);
int emu_hart_csr_clear(struct emu_hart *h, enum emu_mode mode, unsigned csr, uint64_t mask);

/* EMU_CNT_CY and/or EMU_CNT_IR when mcycle or minstret went past 2^64 - 1
 * since it was last written. Not a CSR (Kunminghu has no OF bit for them):
 * the emulator's note, so hpmstat can flag a wrapped count. */
uint32_t emu_hart_fixed_wrapped(struct emu_hart *h);

/* mip as M-mode reads it (the `pending` view). */
uint64_t emu_hart_mip(struct emu_hart *h);

/* Counts one run: the fast path. Per run, for every counter n in 3..31
 * whose mcountinhibit bit is 0 and whose mhpmevent does not inhibit
 * run->mode, mhpmcounter n += cycles x RESULT2, RESULT2 computed once per
 * run from the vals of the counter's own bank; a wrap past 2^64-1 sets
 * mhpmevent n.OF and, when OF was 0, mip.LCOFIP. mcycle += cycles and
 * minstret += instret x cycles (mod 2^64, no OF) unless inhibited by
 * mcountinhibit. Runs with a non-zero key are batched: see hart.c. A run
 * with mode >= EMU_NR_MODES is ignored; vals beyond 63 use their low 6 bits
 * and noEvent always delivers 0, whatever vals[b][0] holds. */
void emu_hart_run(struct emu_hart *h, const struct emu_run *run);
/* What counter `counter` (0: mcycle, 2: minstret, 3..31: mhpmcounter)
 * programmed with mhpmevent value `evt` (WARL applied; ignored for 0 and
 * 2) adds in one cycle of `run`, counting enabled: RESULT2, or 0 in a mode
 * the value inhibits (mcycle counts 1, minstret the run's instret, in
 * every mode). What emu_hart_run() adds per cycle, for one counter on its
 * own: the emulator's ground truth of what a counter would count. */
uint64_t emu_event_per_cycle(uint64_t evt, unsigned counter, const struct emu_run *run);
/* Sampling (Sscofpmf): emu_hart_run() on at most run->cycles cycles of
 * `run`, stopped at the end of the first cycle in which a counter of
 * `watch` (bit n: mhpmcounter n; mcycle and minstret have no OF and are
 * ignored) whose mhpmevent.OF is 0 goes past 2^64 - 1: the cycle whose
 * overflow sets OF and mip.LCOFIP, that is where the interrupt is taken
 * (no skid). Returns the cycles run (run->cycles when no watched counter
 * overflowed) and sets *overflowed to the counters that overflowed in the
 * last of them (0 when none did); counts are then exact as of that cycle.
 * The caller feeds the rest of the run afterwards. */
uint64_t emu_hart_run_watch(struct emu_hart *h, const struct emu_run *run, uint32_t watch,
                            uint32_t *overflowed);
/* Completes any batched counting (CSR accesses do this themselves; this is
 * for benchmarks that time the whole work). */
void emu_hart_sync(struct emu_hart *h);

/* The per-cycle reference: counts `run` exactly as emu_hart_run() must, by
 * evaluating every counter's tree once per cycle. It reads and writes the
 * hart only through the M-mode CSR interface and shares no counting code
 * with the fast path, so tests and `hpmstat emu bench` can check one
 * against the other. Slow by design. */
void emu_ref_run(struct emu_hart *h, const struct emu_run *run);

/* ------------------------------------------------------------------ names */

/* "M", "HS", "HU", "VS", "VU"; NULL when out of range. */
const char *emu_mode_name(unsigned mode);
/* Case-insensitive M, HS, HU, VS, VU, and S (= HS), U (= HU); -1 if none. */
int emu_mode_parse(const char *s);
/* "illegal-instruction", "virtual-instruction", "ok" for EMU_OK. */
const char *emu_exc_name(int exc);

/* The lower-case name of an implemented CSR, or NULL. */
const char *emu_csr_name(unsigned csr);
/* Number of a CSR name (case-insensitive), or -1. */
int emu_csr_by_name(const char *name);
/* Number of the i-th implemented CSR, for listings; -1 past the end. */
int emu_csr_at(unsigned i);
/* A name or a number (0x hex or decimal; '_' between digits allowed).
 * A number need not be implemented (accessing it raises illegal-instruction
 * as the hardware does) but must fit 12 bits. An unknown name is an error. */
int emu_csr_parse(const char *s, unsigned *csr, char *err, size_t errlen);

/* Parses a number: decimal, 0x hex or 0b binary, with '_' allowed between
 * digits (0xFFFF_FFFF). Rejects signs, empty digits and values over 2^64-1. */
int emu_parse_u64(const char *s, uint64_t *out);

/* --------------------------------------------------------------- stimulus */

/* A set of per-cycle event values, all 0 initially; emu_stimulus_run() turns
 * it into runs of identical cycles. The stimulus owns its value arrays. */
struct emu_stimulus;

struct emu_stimulus *emu_stimulus_new(void);
void emu_stimulus_free(struct emu_stimulus *s);
/* The table whose names and BANK:INDEX emu_stimulus_assign() reads
 * (kmh_table_v2 from emu_stimulus_new()): each is fed as its signal
 * (emu_signal_index), and one without a signal is refused. */
void emu_stimulus_set_table(struct emu_stimulus *s, const struct kmh_table *t);
/* Every event back to 0, instret to 0. */
void emu_stimulus_clear(struct emu_stimulus *s);
/* Event `index` of `bank` delivers `value` (0..63) each cycle. Index 0
 * (noEvent) accepts only 0. */
int emu_stimulus_set(struct emu_stimulus *s, int bank, unsigned index, unsigned value, char *err,
                     size_t errlen);
/* One assignment as the `feed` command writes it: EVENT=VALUE or
 * instret=VALUE. EVENT is BANK:NAME (NAME or NAME.K of the tables),
 * BANK:INDEX, or a NAME found in exactly one bank; the plain NAME of a
 * repeated name (an alias) is refused: it is several events. noEvent and
 * indices beyond the table are refused. */
int emu_stimulus_assign(struct emu_stimulus *s, const char *text, char *err, size_t errlen);
/* Fills *run with `cycles` cycles of the current values in `mode`. The run
 * points into the stimulus and has key 0 (values change between feeds). */
void emu_stimulus_run(const struct emu_stimulus *s, uint64_t cycles, enum emu_mode mode,
                      struct emu_run *run);

/* ------------------------------------------------------------------ trace */

/* The trace format (hpmstat-emu(1), TRACE FORMAT): a text file whose first
 * line that is not blank or a comment is "hpmstat-emu-trace 1"; then one run
 * a line: "CYCLES MODE INSTRET [BANK:INDEX=VALUE ...]" with decimal numbers,
 * MODE one of M HS HU VS VU, INSTRET and VALUE 0..63, INDEX 1..(table size
 * - 1), each event at most once; events not listed deliver 0. '#' starts a
 * comment line. */
#define EMU_TRACE_MAGIC "hpmstat-emu-trace 1"
/* What one trace may hold: emukit/trace.h's HPM_EMU_TRACE_MAX_* (the
 * writer's longest line, every event of every bank at 63, is far shorter
 * than a line may be). */

/* The format as the shared trace core reads and writes it (emukit/trace.h).
 * hpm_emu_trace_writer_open(&emu_trace_format, ...) opens a path as every
 * output of the tool (util/outfile.h: a temporary file renamed over a
 * regular file at close, devices and FIFOs in place, "-" for standard
 * output; a write error leaves no half trace). hpm_emu_trace_load() reads
 * and validates a whole trace (nothing is half-loaded; *errline 0 for an
 * error on no line, such as a file that cannot be opened), which is then
 * the source of the runs it yields: identical lines share one key, so
 * replay uses the fast path's cache. Call emu_forget_source(emu, t) before
 * hpm_emu_trace_free(t) if it was replayed. */
extern const struct hpm_emu_trace_format emu_trace_format;
struct hpm_emu_trace;
struct hpm_emu_trace_writer;

/* Appends one run (nothing for a run of 0 cycles). */
int emu_trace_write(struct hpm_emu_trace_writer *w, const struct emu_run *run, char *err,
                    size_t errlen);
/* Run i (0-based) of the trace; valid while t lives. */
void emu_trace_run_at(const struct hpm_emu_trace *t, size_t i, struct emu_run *run);

/* ----------------------------------------------------------------- script */

/* The interpreter of the hpmstat-emu(1) script language. It runs commands
 * against one machine and hands every output line to a callback; errors are
 * returned, never printed. */
struct emu_script;
struct hpm_emu_script;

typedef void (*emu_script_output_fn)(void *ctx, const char *line);

struct emu_script *emu_script_new(struct emu *emu, emu_script_output_fn out, void *ctx);
/* Closes an open trace (ignoring errors: call emu_script_finish() to see
 * them) and frees the interpreter, not the machine. */
void emu_script_free(struct emu_script *s);
/* The longest script line a reader should hand to emu_script_exec()
 * (hpmstat-emu(1)); longer lines are an error, so reading is bounded. */
#define EMU_SCRIPT_MAX_LINE 65536u
/* Executes one line (without or with its newline). Returns 0, or -1 with the
 * reason in err; the caller adds the file and line number. */
int emu_script_exec(struct emu_script *s, const char *line, char *err, size_t errlen);
/* Ends a recording in progress and reports its write errors. */
int emu_script_finish(struct emu_script *s, char *err, size_t errlen);
/* The shared interpreter core under s (emukit/script.h): its stop flag,
 * its recording, its session. */
struct hpm_emu_script *emu_script_core(struct emu_script *s);

#endif
