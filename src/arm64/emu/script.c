/* script.c: the Arm emulator's script interpreter (see script.h).
 *
 * The language is Kunminghu's (src/kmh/emu/script.c) where it fits, and
 * runs on the same interpreter core (emukit/script.h: one command a line, '#'
 * starts a comment, `expect` compares the previous output line, `trace`
 * records); Arm's own commands, a table here, replace harts and modes with
 * PEs, exception levels, security states and streaming mode, and CSR
 * accesses with MRS/MSR. A fed or replayed run is counted on the selected
 * PE by the fast path (arm_emu_run), the same as stat's machine.
 */
#include "arm64/emu/script.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arm64/emu/profile.h"
#include "arm64/emu/stimulus.h"
#include "arm64/emu/trace.h"
#include "arm64/events.h"
#include "emukit/script.h"
#include "emukit/trace.h"
#include "util/xalloc.h"

#define MAX_WORDS 4096

struct arm_script {
	struct hpm_emu_script *core;
	struct arm_emu *m;
	const struct arm64_core *core_events; /* names events for `feed` */
	unsigned pe;
	unsigned el, sec;
	bool streaming;
	struct arm_src_feed *feed;
};

static const char *const sec_names[] = {"ns", "s", "realm", "root"};

static struct arm_emu_pe *cur(struct arm_script *s)
{
	return arm_emu_pe(s->m, s->pe);
}

/* Counts one run on the current PE and records it. */
static int count_run(struct arm_script *s, const struct arm_emu_run *run, char *err, size_t errlen)
{
	struct hpm_emu_trace_writer *rec = hpm_emu_script_recording(s->core);
	char why[256];
	if (arm_emu_run_check(s->m, run, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s (the %s profile)", why, arm_emu_profile(s->m)->name);
		return -1;
	}
	if (rec && arm_src_trace_write(rec, run, err, errlen) < 0)
		return -1;
	(void)arm_emu_run(cur(s), run);
	return 0;
}

/* A register access as the script makes it: external ones through the
 * PMU block, the others at the current EL. */
static int access_reg(struct arm_script *s, unsigned reg, unsigned idx, bool write, uint64_t *v)
{
	if (arm_emu_reg_external(reg))
		return write ? arm_emu_ext_write(cur(s), reg, idx, *v)
		             : arm_emu_ext_read(cur(s), reg, idx, v);
	return write ? arm_emu_write(cur(s), s->el, reg, idx, *v)
	             : arm_emu_read(cur(s), s->el, reg, idx, v);
}

static int cmd_pe(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                  const char *line, char *err, size_t errlen)
{
	struct arm_script *s = machine;
	unsigned np = arm_emu_nr_pes(s->m);
	uint64_t v;
	(void)n, (void)line;
	if (hpm_emu_script_number(core, "PE number", w[1], &v, err, errlen) < 0)
		return -1;
	if (v >= np) {
		snprintf(err, errlen, "no PE %s: there are %u (0..%u; see --pes)", w[1], np,
		         np - 1);
		return -1;
	}
	s->pe = (unsigned)v;
	return 0;
}

static int cmd_el(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                  const char *line, char *err, size_t errlen)
{
	struct arm_script *s = machine;
	(void)core, (void)n, (void)line;
	if (strlen(w[1]) != 1 || w[1][0] < '0' || w[1][0] > '3') {
		snprintf(err, errlen, "bad exception level '%s' (0, 1, 2 or 3)", w[1]);
		return -1;
	}
	s->el = (unsigned)(w[1][0] - '0');
	return 0;
}

static int cmd_state(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                     const char *line, char *err, size_t errlen)
{
	struct arm_script *s = machine;
	(void)core, (void)n, (void)line;
	for (unsigned i = 0; i < ARM_EMU_NR_SEC; i++)
		if (strcasecmp(w[1], sec_names[i]) == 0) {
			s->sec = i;
			return 0;
		}
	snprintf(err, errlen, "bad security state '%s' (ns, s, realm or root)", w[1]);
	return -1;
}

static int cmd_streaming(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                         const char *line, char *err, size_t errlen)
{
	struct arm_script *s = machine;
	(void)core, (void)n, (void)line;
	if (strcmp(w[1], "on") == 0)
		s->streaming = true;
	else if (strcmp(w[1], "off") == 0)
		s->streaming = false;
	else {
		snprintf(err, errlen, "bad streaming mode '%s' (on or off)", w[1]);
		return -1;
	}
	return 0;
}

static int cmd_mrs_msr(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                       const char *line, char *err, size_t errlen)
{
	struct arm_script *s = machine;
	bool write = strcmp(w[0], "msr") == 0;
	unsigned reg, idx;
	uint64_t v = 0;
	char out[64];

	(void)line;
	/* a PMSWINC_EL0 write is filtered by the EL and state it comes from */
	arm_emu_pe_set_context(cur(s), s->el, s->sec, s->streaming);
	if (hpm_emu_script_want_args(n, write ? 3 : 2, write ? 3 : 2,
	                             write ? "msr REG VALUE" : "mrs REG", err, errlen) < 0 ||
	    arm_emu_reg_parse(w[1], &reg, &idx, err, errlen) < 0 ||
	    (write && hpm_emu_script_number(core, "value", w[2], &v, err, errlen) < 0))
		return -1;
	int exc = access_reg(s, reg, idx, write, &v);
	if (exc != ARM_EMU_OK)
		hpm_emu_script_output(core, arm_emu_exc_name(exc));
	else if (write)
		hpm_emu_script_output(core, "ok");
	else {
		snprintf(out, sizeof(out), "0x%016" PRIx64, v);
		hpm_emu_script_output(core, out);
	}
	return 0;
}

/* The PE's context on a run from the script's own state. */
static void set_context(const struct arm_script *s, struct arm_emu_run *r)
{
	r->el = (uint8_t)s->el;
	r->sec = (uint8_t)s->sec;
	r->streaming = s->streaming;
	r->pc = 0;
	r->context = 0;
	r->vmid = 0;
}

static int cmd_feed(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                    const char *line, char *err, size_t errlen)
{
	struct arm_script *s = machine;
	uint64_t cycles;
	unsigned col = 0;
	char why[256];
	struct arm_emu_run run;
	const char *p = line;

	(void)core, (void)w, (void)n;
	while (*p && hpm_emu_script_is_space(*p))
		p++;
	/* the feed parser takes "feed CYCLES ..." itself; a comment ends the line */
	char *text = xstrdup(p);
	for (char *c = text; *c; c++)
		if (*c == '#' && (c == text || hpm_emu_script_is_space(c[-1]))) {
			*c = '\0';
			break;
		}
	int rc = arm_src_feed_parse(s->feed, text, &cycles, &col, why, sizeof(why));
	free(text);
	if (rc < 0) {
		snprintf(err, errlen, "column %u: %s", col + (unsigned)(p - line), why);
		return -1;
	}
	memset(&run, 0, sizeof(run));
	set_context(s, &run);
	arm_src_feed_run(s->feed, cycles, &run);
	return count_run(s, &run, err, errlen);
}

/* The profile's stream `run` counts from. */
struct stream_it {
	const struct arm_src_profile *p;
	struct arm_src_stream *st;
};

/* Runs of the stream, each checked before it is counted. */
static int run_steps(void *machine, void *it, uint64_t *done, uint64_t total, unsigned max,
                     unsigned *made, char *err, size_t errlen)
{
	const struct stream_it *si = it;
	uint64_t d = *done;
	unsigned m = 0;

	for (; m < max && d < total; m++) {
		uint64_t left = total - d;
		struct arm_emu_run run;
		arm_src_stream_next(si->st, left, &run);
		if (run.cycles == 0 || run.cycles > left) {
			snprintf(err, errlen, "profile '%s' produced a bad run",
			         arm_src_profile_name(si->p));
			return -1;
		}
		if (count_run(machine, &run, err, errlen) < 0)
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
	struct arm_script *s = machine;
	uint64_t cycles, seed;
	char perr[512];
	const struct arm_src_profile *p;

	(void)line;
	if (hpm_emu_script_run_args(core, w, n, &cycles, &seed, err, errlen) < 0)
		return -1;
	if (!(p = arm_src_profile_find(w[2], perr, sizeof(perr)))) {
		snprintf(err, errlen, "%s", perr);
		return -1;
	}
	struct arm_src_stream *st = arm_src_stream_new(p, seed);
	struct stream_it it = {p, st};
	int ret = hpm_emu_script_loop(core, cycles, "cycles", run_steps, &it, err, errlen);
	/* runs are keyed by the profile's address: a later profile file
	 * loaded there must not hit this one's cached rules */
	arm_emu_forget_source(s->m, p);
	arm_src_stream_free(st);
	arm_src_profile_free(p);
	return ret;
}

/* Runs of the trace, from run *done on (hpm_emu_script_cmd_replay); an
 * error names the run. */
static int replay_steps(void *machine, void *it, uint64_t *done, uint64_t total, unsigned max,
                        unsigned *made, char *err, size_t errlen)
{
	const struct hpm_emu_script_replay *ri = it;
	uint64_t d = *done;
	unsigned m = 0;

	for (; m < max && d < total; m++, d++) {
		struct arm_emu_run run;
		arm_src_trace_run_at(ri->trace, (size_t)d, &run);
		if (count_run(machine, &run, err, errlen) < 0) {
			char why[512];
			snprintf(why, sizeof(why), "%s", err);
			snprintf(err, errlen, "%s: run %llu: %s", ri->path,
			         (unsigned long long)d + 1, why);
			return -1;
		}
	}
	*done = d;
	*made = m;
	return 0;
}

/* `pending`: the overflow interrupt and the overflow flags behind it. */
static int cmd_pending(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                       const char *line, char *err, size_t errlen)
{
	struct arm_script *s = machine;
	uint64_t ovs = 0;
	char out[96];
	(void)w, (void)n, (void)line, (void)err, (void)errlen;
	(void)arm_emu_ext_read(cur(s), ARM_EMU_PMOVSSET_EL0, 0, &ovs);
	snprintf(out, sizeof(out), "PMUIRQ=%d PMOVS=0x%08" PRIx64,
	         arm_emu_irq_pending(cur(s)) ? 1 : 0, ovs);
	hpm_emu_script_output(core, out);
	return 0;
}

static int cmd_snapshot(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                        const char *line, char *err, size_t errlen)
{
	(void)w, (void)n, (void)line, (void)err, (void)errlen;
	if (arm_emu_snapshot(cur(machine)) < 0)
		hpm_emu_script_output(core, "ignored: no FEAT_PMUv3_SS (PMDEVID.PMSS is 0)");
	else
		hpm_emu_script_output(core, "ok");
	return 0;
}

/* `expect REG VALUE`: the register, read as `mrs` does, is VALUE (or the
 * exception VALUE names); `expect TEXT`: the previous output line is TEXT. */
static int cmd_expect(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                      const char *line, char *err, size_t errlen)
{
	struct arm_script *s = machine;
	unsigned reg, idx;
	char rerr[128];
	if (n == 3 && arm_emu_reg_parse(w[1], &reg, &idx, rerr, sizeof(rerr)) == 0) {
		uint64_t want, got = 0;
		int exc = access_reg(s, reg, idx, false, &got);
		char name[32];
		arm_emu_reg_name(reg, idx, name, sizeof(name));
		if (exc != ARM_EMU_OK) {
			if (strcasecmp(w[2], arm_emu_exc_name(exc)) == 0)
				return 0;
			snprintf(err, errlen, "expected %s = %s, but its read raised %s", name,
			         w[2], arm_emu_exc_name(exc));
			return -1;
		}
		if (hpm_emu_script_number(core, "value", w[2], &want, err, errlen) < 0)
			return -1;
		if (got != want) {
			snprintf(err, errlen,
			         "expected %s = 0x%016" PRIx64 " (%" PRIu64 "), got 0x%016" PRIx64
			         " (%" PRIu64 ")",
			         name, want, want, got, got);
			return -1;
		}
		return 0;
	}
	return hpm_emu_script_expect_text(core, line, err, errlen);
}

static int cmd_reset(struct hpm_emu_script *core, void *machine, char **w, unsigned n,
                     const char *line, char *err, size_t errlen)
{
	(void)core, (void)w, (void)n, (void)line, (void)err, (void)errlen;
	arm_emu_pe_reset(cur(machine));
	return 0;
}

/* In the order the unknown-command message lists them. */
static const struct hpm_emu_script_cmd arm_cmds[] = {
    {"pe", 2, 2, "pe N", cmd_pe},
    {"el", 2, 2, "el 0|1|2|3", cmd_el},
    {"state", 2, 2, "state ns|s|realm|root", cmd_state},
    {"streaming", 2, 2, "streaming on|off", cmd_streaming},
    {"mrs", 0, 0, NULL, cmd_mrs_msr},
    {"msr", 0, 0, NULL, cmd_mrs_msr},
    {"feed", 0, 0, NULL, cmd_feed},
    {"run", 0, 0, NULL, cmd_run},
    {"replay", 2, 2, "replay FILE", hpm_emu_script_cmd_replay},
    {"trace", 2, 2, "trace FILE | trace off", hpm_emu_script_cmd_trace},
    {"pending", 1, 1, "pending", cmd_pending},
    {"snapshot", 1, 1, "snapshot", cmd_snapshot},
    {"expect", 2, MAX_WORDS, "expect REG VALUE | expect TEXT", cmd_expect},
    {"reset", 1, 1, "reset", cmd_reset},
};

static int parse_number(const char *s, uint64_t *out)
{
	return arm_src_parse_u64(s, strlen(s), out);
}

static void forget_source(void *machine, const void *source)
{
	arm_emu_forget_source(((struct arm_script *)machine)->m, source);
}

static const struct hpm_emu_script_lang arm_lang = {
    .cmds = arm_cmds,
    .nr_cmds = sizeof(arm_cmds) / sizeof(arm_cmds[0]),
    .max_words = MAX_WORDS,
    .parse_number = parse_number,
    .number_syntax = "decimal or 0x hex, up to 2^64-1",
    .trace_format = &arm_src_trace_format,
    .replay_steps = replay_steps,
    .forget_source = forget_source,
};

struct arm_script *arm_script_new(struct arm_emu *m, const char *core, arm_script_output_fn out,
                                  void *ctx)
{
	struct arm_script *s = xcalloc(1, sizeof(*s));
	s->core = hpm_emu_script_new(&arm_lang, s, out, ctx);
	s->m = m;
	for (unsigned i = 0; core && i < arm64_nr_cores; i++)
		if (strcasecmp(arm64_cores[i].name, core) == 0)
			s->core_events = &arm64_cores[i];
	s->el = ARM_EMU_EL1;
	s->sec = ARM_EMU_SEC_NS;
	unsigned slots = arm_emu_profile(m)->slots;
	s->feed = arm_src_feed_new(s->core_events, slots ? slots : 1);
	return s;
}

void arm_script_free(struct arm_script *s)
{
	if (!s)
		return;
	hpm_emu_script_free(s->core);
	arm_src_feed_free(s->feed);
	free(s);
}

struct hpm_emu_script *arm_script_core(struct arm_script *s)
{
	return s->core;
}
