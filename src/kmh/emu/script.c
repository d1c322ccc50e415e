/* script.c: the interpreter of the emulator's script language
 * (hpmstat-emu(1), SCRIPT LANGUAGE).
 *
 * Owns: struct emu_script: the current hart and the stimulus of `feed`,
 * and Kunminghu's commands as a table for the shared interpreter core
 * (emukit/script.h: words, dispatch, errors, `expect`, the trace recording).
 * It drives the three sources (stimulus, workload, trace) into the harts
 * and copies every run into the recording, so a recording holds exactly
 * what was counted.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emukit/script.h"
#include "emukit/trace.h"
#include "kmh/emu/emu.h"
#include "kmh/emu/workload.h"
#include "util/xalloc.h"

#define MAX_WORDS 512 /* words on one line; feed may name many events */

struct emu_script {
	struct hpm_emu_script *core;
	struct emu *emu;
	unsigned hart; /* current hart */
	struct emu_stimulus *stim;
};

static struct emu_hart *cur(struct emu_script *s)
{
	return emu_hart(s->emu, s->hart);
}

/* Counts one run on the current hart and records it. */
static int feed_run(struct emu_script *s, const struct emu_run *run, char *err, size_t errlen)
{
	struct hpm_emu_trace_writer *rec = hpm_emu_script_recording(s->core);
	if (rec && emu_trace_write(rec, run, err, errlen) < 0)
		return -1;
	emu_hart_run(cur(s), run);
	return 0;
}

static int cmd_hart(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                    const char *line, char *err, size_t errlen)
{
	struct emu_script *s = machine;
	uint64_t v;
	(void)n, (void)line;
	if (hpm_emu_script_number(core, "hart number", w[1], &v, err, errlen) < 0)
		return -1;
	if (v >= emu_nr_harts(s->emu)) {
		snprintf(err, errlen, "no hart %s: there are %u (0..%u; see --harts)", w[1],
		         emu_nr_harts(s->emu), emu_nr_harts(s->emu) - 1);
		return -1;
	}
	s->hart = (unsigned)v;
	return 0;
}

static int cmd_mode(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                    const char *line, char *err, size_t errlen)
{
	struct emu_script *s = machine;
	int m = emu_mode_parse(w[1]);
	(void)core, (void)n, (void)line;
	if (m < 0) {
		snprintf(err, errlen, "unknown mode '%s' (M, HS, HU, VS, VU, S, U)", w[1]);
		return -1;
	}
	emu_hart_set_mode(cur(s), (enum emu_mode)m);
	return 0;
}

/* csrr CSR, csrw/csrs/csrc CSR VALUE: the value read or the exception. */
static int cmd_csr(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                   const char *line, char *err, size_t errlen)
{
	struct emu_script *s = machine;
	enum emu_mode mode = emu_hart_mode(cur(s));
	unsigned csr;
	uint64_t v;
	int exc;
	char out[64];

	(void)n, (void)line;
	if (emu_csr_parse(w[1], &csr, err, errlen) < 0)
		return -1;
	if (strcmp(w[0], "csrr") == 0) {
		if ((exc = emu_hart_csr_read(cur(s), mode, csr, &v)) == EMU_OK) {
			snprintf(out, sizeof(out), "0x%016llx", (unsigned long long)v);
			hpm_emu_script_output(core, out);
		} else {
			hpm_emu_script_output(core, emu_exc_name(exc));
		}
		return 0;
	}
	if (hpm_emu_script_number(core, "value", w[2], &v, err, errlen) < 0)
		return -1;
	if (strcmp(w[0], "csrw") == 0)
		exc = emu_hart_csr_write(cur(s), mode, csr, v);
	else if (strcmp(w[0], "csrs") == 0)
		exc = emu_hart_csr_set(cur(s), mode, csr, v);
	else
		exc = emu_hart_csr_clear(cur(s), mode, csr, v);
	hpm_emu_script_output(core, emu_exc_name(exc));
	return 0;
}

static int cmd_feed(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                    const char *line, char *err, size_t errlen)
{
	struct emu_script *s = machine;
	uint64_t cycles;
	struct emu_run run;

	(void)line;
	if (hpm_emu_script_number(core, "cycle count", w[1], &cycles, err, errlen) < 0)
		return -1;
	/* each feed states all its values: what it does not name delivers 0 */
	emu_stimulus_clear(s->stim);
	for (unsigned i = 2; i < n; i++)
		if (emu_stimulus_assign(s->stim, w[i], err, errlen) < 0)
			return -1;
	emu_stimulus_run(s->stim, cycles, emu_hart_mode(cur(s)), &run);
	return feed_run(s, &run, err, errlen);
}

static void known_profiles(char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < emu_profile_count() && off < len; i++) {
		int k = snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
		                 emu_profile_name(emu_profile_at(i)));
		if (k < 0)
			break;
		off += (size_t)k;
	}
}

/* The workload `run` counts from. */
struct workload_it {
	const struct emu_profile *p;
	struct emu_workload *wl;
};

/* Runs of the workload, each checked before it is counted. */
static int run_steps(void *machine, void *it, uint64_t *done, uint64_t total, unsigned max,
                     unsigned *made, char *err, size_t errlen)
{
	const struct workload_it *w = it;
	uint64_t d = *done;
	unsigned m = 0;

	for (; m < max && d < total; m++) {
		uint64_t left = total - d;
		struct emu_run run;
		memset(&run, 0, sizeof(run));
		emu_workload_next(w->wl, left, &run);
		if (run.cycles == 0 || run.cycles > left || run.mode >= EMU_NR_MODES) {
			snprintf(
			    err, errlen,
			    "profile '%s' produced a bad run (%llu cycles, mode %u, asked for at "
			    "most %llu)",
			    emu_profile_name(w->p), (unsigned long long)run.cycles, run.mode,
			    (unsigned long long)left);
			return -1;
		}
		if (feed_run(machine, &run, err, errlen) < 0)
			return -1;
		d += run.cycles;
	}
	*done = d;
	*made = m;
	return 0;
}

static int cmd_run(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                   const char *line, char *err, size_t errlen)
{
	struct emu_script *s = machine;
	uint64_t cycles, seed;
	char perr[256];
	const struct emu_profile *p;

	(void)line;
	if (hpm_emu_script_run_args(core, w, n, &cycles, &seed, err, errlen) < 0)
		return -1;
	perr[0] = '\0';
	if (!(p = emu_profile_find(w[2], perr, sizeof(perr)))) {
		char known[1024];
		known_profiles(known, sizeof(known));
		if (!perr[0])
			snprintf(perr, sizeof(perr), "unknown profile '%s'", w[2]);
		/* the workload's message may already list them */
		if (emu_profile_count() && strstr(perr, emu_profile_name(emu_profile_at(0))))
			snprintf(err, errlen, "%s", perr);
		else
			snprintf(err, errlen, "%s (known profiles: %s)", perr, known);
		return -1;
	}
	struct emu_workload *wl = emu_workload_new(p, seed);
	if (!wl) {
		snprintf(err, errlen, "cannot start profile '%s'", emu_profile_name(p));
		return -1;
	}
	struct workload_it it = {p, wl};
	int ret = hpm_emu_script_loop(core, cycles, "cycles", run_steps, &it, err, errlen);
	emu_forget_source(s->emu, wl);
	emu_workload_free(wl);
	return ret;
}

/* Runs of the trace, from run *done on (hpm_emu_script_cmd_replay). */
static int replay_steps(void *machine, void *it, uint64_t *done, uint64_t total, unsigned max,
                        unsigned *made, char *err, size_t errlen)
{
	const struct hpm_emu_trace *t = ((const struct hpm_emu_script_replay *)it)->trace;
	uint64_t d = *done;
	unsigned m = 0;

	for (; m < max && d < total; m++, d++) {
		struct emu_run run;
		emu_trace_run_at(t, (size_t)d, &run);
		if (feed_run(machine, &run, err, errlen) < 0)
			return -1;
	}
	*done = d;
	*made = m;
	return 0;
}

static int cmd_time(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                    const char *line, char *err, size_t errlen)
{
	struct emu_script *s = machine;
	bool rel = w[1][0] == '+';
	uint64_t v;
	(void)n, (void)line;
	if (hpm_emu_script_number(core, "time", w[1] + rel, &v, err, errlen) < 0)
		return -1;
	emu_set_time(s->emu, rel ? emu_time(s->emu) + v : v);
	return 0;
}

static int cmd_pending(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                       const char *line, char *err, size_t errlen)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} bits[] = {{EMU_MIP_STIP, "STIP"}, {EMU_MIP_VSTIP, "VSTIP"}, {EMU_MIP_LCOFIP, "LCOFIP"}};
	struct emu_script *s = machine;
	char out[128];
	uint64_t mip = emu_hart_mip(cur(s));
	size_t off;

	(void)w, (void)n, (void)line, (void)err, (void)errlen;
	off = (size_t)snprintf(out, sizeof(out), "mip=0x%016llx", (unsigned long long)mip);
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (mip & bits[i].bit)
			off += (size_t)snprintf(out + off, sizeof(out) - off, " %s", bits[i].name);
	hpm_emu_script_output(core, out);
	return 0;
}

static int cmd_reset(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                     const char *line, char *err, size_t errlen)
{
	(void)core, (void)w, (void)n, (void)line, (void)err, (void)errlen;
	emu_hart_reset(cur(machine));
	return 0;
}

/* In the order the unknown-command message lists them. */
static const struct hpm_emu_script_cmd kmh_cmds[] = {
    {"hart", 2, 2, "hart N", cmd_hart},
    {"mode", 2, 2, "mode M|HS|HU|VS|VU (S = HS, U = HU)", cmd_mode},
    {"csrr", 2, 2, "csrr CSR", cmd_csr},
    {"csrw", 3, 3, "csrw CSR VALUE", cmd_csr},
    {"csrs", 3, 3, "csrs CSR VALUE", cmd_csr},
    {"csrc", 3, 3, "csrc CSR VALUE", cmd_csr},
    {"feed", 2, MAX_WORDS, "feed CYCLES [EVENT=VALUE ...] [instret=N]", cmd_feed},
    {"run", 0, 0, NULL, cmd_run},
    {"replay", 2, 2, "replay FILE", hpm_emu_script_cmd_replay},
    {"time", 2, 2, "time VALUE | time +DELTA", cmd_time},
    {"pending", 1, 1, "pending", cmd_pending},
    {"expect", 0, 0, NULL, hpm_emu_script_cmd_expect},
    {"trace", 2, 2, "trace FILE | trace off", hpm_emu_script_cmd_trace},
    {"reset", 1, 1, "reset", cmd_reset},
};

static int parse_number(const char *s, uint64_t *out)
{
	return emu_parse_u64(s, out);
}

static void forget_source(void *machine, const void *source)
{
	emu_forget_source(((struct emu_script *)machine)->emu, source);
}

static const struct hpm_emu_script_lang kmh_lang = {
    .cmds = kmh_cmds,
    .nr_cmds = sizeof(kmh_cmds) / sizeof(kmh_cmds[0]),
    .max_words = MAX_WORDS,
    .parse_number = parse_number,
    .number_syntax = "decimal, 0x hex or 0b binary, up to 2^64-1",
    .trace_format = &emu_trace_format,
    .replay_steps = replay_steps,
    .forget_source = forget_source,
};

struct emu_script *emu_script_new(struct emu *emu, emu_script_output_fn out, void *ctx)
{
	struct emu_script *s = xcalloc(1, sizeof(*s));
	s->core = hpm_emu_script_new(&kmh_lang, s, out, ctx);
	s->emu = emu;
	s->stim = emu_stimulus_new();
	/* feed names the events of the table the harts' mhpmevents hold */
	emu_stimulus_set_table(s->stim, emu_table(emu));
	return s;
}

struct hpm_emu_script *emu_script_core(struct emu_script *s)
{
	return s->core;
}

void emu_script_free(struct emu_script *s)
{
	if (!s)
		return;
	hpm_emu_script_free(s->core);
	emu_stimulus_free(s->stim);
	free(s);
}

int emu_script_finish(struct emu_script *s, char *err, size_t errlen)
{
	return hpm_emu_script_finish(s->core, err, errlen);
}

int emu_script_exec(struct emu_script *s, const char *line, char *err, size_t errlen)
{
	return hpm_emu_script_exec(s->core, line, err, errlen);
}
