/* script.c: the Arm emulator's script interpreter (see script.h).
 *
 * The language is Kunminghu's (src/kmh/emu/script.c) where it fits: one
 * command a line, '#' starts a comment, `expect` compares the previous
 * output line; Arm's own commands replace harts and modes with PEs,
 * exception levels, security states and streaming mode, and CSR accesses
 * with MRS/MSR. A fed or replayed run is counted on the selected PE by the
 * fast path (arm_emu_run), the same as stat's machine.
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
#include "util/xalloc.h"

#define MAX_WORDS 4096

struct arm_script {
	struct arm_emu *m;
	const struct arm64_core *core;
	arm_script_output_fn out;
	void *ctx;
	char *last; /* the previous output line, for `expect TEXT` */
	unsigned pe;
	unsigned el, sec;
	bool streaming;
	struct arm_src_feed *feed;
	struct arm_src_trace_writer *rec;
	const volatile sig_atomic_t *stop;
};

static const char *const sec_names[] = {"ns", "s", "realm", "root"};

struct arm_script *arm_script_new(struct arm_emu *m, const char *core, arm_script_output_fn out,
                                  void *ctx)
{
	struct arm_script *s = xcalloc(1, sizeof(*s));
	s->m = m;
	for (unsigned i = 0; core && i < arm64_nr_cores; i++)
		if (strcasecmp(arm64_cores[i].name, core) == 0)
			s->core = &arm64_cores[i];
	s->out = out;
	s->ctx = ctx;
	s->el = ARM_EMU_EL1;
	s->sec = ARM_EMU_SEC_NS;
	unsigned slots = arm_emu_profile(m)->slots;
	s->feed = arm_src_feed_new(s->core, slots ? slots : 1);
	return s;
}

int arm_script_finish(struct arm_script *s, char *err, size_t errlen)
{
	struct arm_src_trace_writer *w = s->rec;
	s->rec = NULL;
	return w ? arm_src_trace_writer_close(w, err, errlen) : 0;
}

void arm_script_free(struct arm_script *s)
{
	char err[256];
	if (!s)
		return;
	(void)arm_script_finish(s, err, sizeof(err));
	arm_src_feed_free(s->feed);
	free(s->last);
	free(s);
}

void arm_script_set_stop(struct arm_script *s, const volatile sig_atomic_t *stop)
{
	s->stop = stop;
}

int arm_script_trace(struct arm_script *s, const char *path, char *err, size_t errlen)
{
	if (arm_script_finish(s, err, errlen) < 0)
		return -1;
	s->rec = arm_src_trace_writer_open(path, err, errlen);
	return s->rec ? 0 : -1;
}

static void output(struct arm_script *s, const char *line)
{
	free(s->last);
	s->last = xstrdup(line);
	if (s->out)
		s->out(s->ctx, line);
}

static struct arm_emu_pe *cur(struct arm_script *s)
{
	return arm_emu_pe(s->m, s->pe);
}

/* every 1024 runs, as Kunminghu's: a look at the stop flag is cheap */
static bool stopped(const struct arm_script *s, uint64_t nr_runs)
{
	return s->stop && (nr_runs & 1023u) == 0 && *s->stop;
}

/* Counts one run on the current PE and records it. */
static int count_run(struct arm_script *s, const struct arm_emu_run *run, char *err, size_t errlen)
{
	char why[256];
	if (arm_emu_run_check(s->m, run, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s (the %s profile)", why, arm_emu_profile(s->m)->name);
		return -1;
	}
	if (s->rec && arm_src_trace_write(s->rec, run, err, errlen) < 0)
		return -1;
	(void)arm_emu_run(cur(s), run);
	return 0;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static unsigned split(char *buf, char **words, char *err, size_t errlen, bool *overflow)
{
	unsigned n = 0;
	char *p = buf;
	*overflow = false;
	for (;;) {
		while (*p && is_space(*p))
			p++;
		if (!*p || *p == '#')
			break;
		if (n == MAX_WORDS) {
			snprintf(err, errlen, "too many words on one line (at most %d)", MAX_WORDS);
			*overflow = true;
			return n;
		}
		words[n++] = p;
		while (*p && !is_space(*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

static int parse_value(const char *what, const char *s, uint64_t *v, char *err, size_t errlen)
{
	if (arm_src_parse_u64(s, strlen(s), v) < 0) {
		snprintf(err, errlen, "bad %s '%s' (decimal or 0x hex, up to 2^64-1)", what, s);
		return -1;
	}
	return 0;
}

static int want_args(unsigned n, unsigned lo, unsigned hi, const char *usage, char *err,
                     size_t errlen)
{
	if (n < lo || n > hi) {
		snprintf(err, errlen, "usage: %s", usage);
		return -1;
	}
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

static int cmd_mrs_msr(struct arm_script *s, char **w, unsigned n, char *err, size_t errlen)
{
	bool write = strcmp(w[0], "msr") == 0;
	unsigned reg, idx;
	uint64_t v = 0;
	char line[64];
	if (want_args(n, write ? 3 : 2, write ? 3 : 2, write ? "msr REG VALUE" : "mrs REG", err,
	              errlen) < 0 ||
	    arm_emu_reg_parse(w[1], &reg, &idx, err, errlen) < 0 ||
	    (write && parse_value("value", w[2], &v, err, errlen) < 0))
		return -1;
	int exc = access_reg(s, reg, idx, write, &v);
	if (exc != ARM_EMU_OK)
		output(s, arm_emu_exc_name(exc));
	else if (write)
		output(s, "ok");
	else {
		snprintf(line, sizeof(line), "0x%016" PRIx64, v);
		output(s, line);
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

static int cmd_feed(struct arm_script *s, const char *line, char *err, size_t errlen)
{
	uint64_t cycles;
	unsigned col = 0;
	char why[256];
	struct arm_emu_run run;
	const char *p = line;
	while (*p && is_space(*p))
		p++;
	/* the feed parser takes "feed CYCLES ..." itself; a comment ends the line */
	char *text = xstrdup(p);
	for (char *c = text; *c; c++)
		if (*c == '#' && (c == text || is_space(c[-1]))) {
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

static int cmd_run(struct arm_script *s, char **w, unsigned n, char *err, size_t errlen)
{
	uint64_t cycles, seed = 1;
	char perr[512];
	const struct arm_src_profile *p;

	if (want_args(n, 3, 4, "run CYCLES PROFILE [seed=N]", err, errlen) < 0 ||
	    parse_value("cycle count", w[1], &cycles, err, errlen) < 0)
		return -1;
	if (n == 4) {
		if (strncmp(w[3], "seed=", 5) != 0) {
			snprintf(err, errlen, "expected seed=N, got '%s'", w[3]);
			return -1;
		}
		if (parse_value("seed", w[3] + 5, &seed, err, errlen) < 0)
			return -1;
	}
	if (!(p = arm_src_profile_find(w[2], perr, sizeof(perr)))) {
		snprintf(err, errlen, "%s", perr);
		return -1;
	}
	struct arm_src_stream *st = arm_src_stream_new(p, seed);
	int ret = 0;
	uint64_t nr = 0;
	for (uint64_t left = cycles; left && ret == 0;) {
		struct arm_emu_run run;
		if (stopped(s, ++nr)) {
			snprintf(err, errlen, "interrupted after %" PRIu64 " of %" PRIu64 " cycles",
			         cycles - left, cycles);
			ret = -1;
			break;
		}
		arm_src_stream_next(st, left, &run);
		if (run.cycles == 0 || run.cycles > left) {
			snprintf(err, errlen, "profile '%s' produced a bad run",
			         arm_src_profile_name(p));
			ret = -1;
			break;
		}
		ret = count_run(s, &run, err, errlen);
		left -= run.cycles;
	}
	/* runs are keyed by the profile's address: a later profile file
	 * loaded there must not hit this one's cached rules */
	arm_emu_forget_source(s->m, p);
	arm_src_stream_free(st);
	arm_src_profile_free(p);
	return ret;
}

static int cmd_replay(struct arm_script *s, char **w, unsigned n, char *err, size_t errlen)
{
	unsigned line = 0;
	char terr[256];
	struct arm_src_trace *t;

	if (want_args(n, 2, 2, "replay FILE", err, errlen) < 0)
		return -1;
	if (!(t = arm_src_trace_load(w[1], &line, terr, sizeof(terr)))) {
		if (line)
			snprintf(err, errlen, "%s:%u: %s", w[1], line, terr);
		else
			snprintf(err, errlen, "%s", terr);
		return -1;
	}
	int ret = 0;
	for (size_t i = 0; i < arm_src_trace_nr_runs(t) && ret == 0; i++) {
		struct arm_emu_run run;
		if (stopped(s, i + 1)) {
			snprintf(err, errlen, "interrupted after %zu of %zu runs", i,
			         arm_src_trace_nr_runs(t));
			ret = -1;
			break;
		}
		arm_src_trace_run_at(t, i, &run);
		if ((ret = count_run(s, &run, err, errlen)) < 0) {
			char why[512];
			snprintf(why, sizeof(why), "%s", err);
			snprintf(err, errlen, "%s: run %zu: %s", w[1], i + 1, why);
		}
	}
	arm_emu_forget_source(s->m, t);
	arm_src_trace_free(t);
	return ret;
}

/* `pending`: the overflow interrupt and the overflow flags behind it. */
static int cmd_pending(struct arm_script *s, unsigned n, char *err, size_t errlen)
{
	uint64_t ovs = 0;
	char line[96];
	if (want_args(n, 1, 1, "pending", err, errlen) < 0)
		return -1;
	(void)arm_emu_ext_read(cur(s), ARM_EMU_PMOVSSET_EL0, 0, &ovs);
	snprintf(line, sizeof(line), "PMUIRQ=%d PMOVS=0x%08" PRIx64,
	         arm_emu_irq_pending(cur(s)) ? 1 : 0, ovs);
	output(s, line);
	return 0;
}

static int cmd_snapshot(struct arm_script *s, unsigned n, char *err, size_t errlen)
{
	if (want_args(n, 1, 1, "snapshot", err, errlen) < 0)
		return -1;
	if (arm_emu_snapshot(cur(s)) < 0)
		output(s, "ignored: no FEAT_PMUv3_SS (PMDEVID.PMSS is 0)");
	else
		output(s, "ok");
	return 0;
}

/* `expect REG VALUE`: the register, read as `mrs` does, is VALUE (or the
 * exception VALUE names); `expect TEXT`: the previous output line is TEXT. */
static int cmd_expect(struct arm_script *s, char **w, unsigned n, const char *line, char *err,
                      size_t errlen)
{
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
		if (parse_value("value", w[2], &want, err, errlen) < 0)
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
	const char *p = line;
	while (*p && is_space(*p))
		p++;
	p += strlen("expect");
	while (*p && is_space(*p))
		p++;
	const char *e = p;
	while (*e && !(*e == '#' && (e == p || is_space(e[-1]))))
		e++;
	while (e > p && is_space(e[-1]))
		e--;
	size_t len = (size_t)(e - p);
	if (!s->last) {
		snprintf(err, errlen, "expected '%.*s', got no output yet", (int)len, p);
		return -1;
	}
	if (strlen(s->last) != len || memcmp(s->last, p, len) != 0) {
		snprintf(err, errlen, "expected '%.*s', got '%s'", (int)len, p, s->last);
		return -1;
	}
	return 0;
}

int arm_script_exec(struct arm_script *s, const char *line, char *err, size_t errlen)
{
	char *buf = xstrdup(line);
	char **w = xmalloc(MAX_WORDS * sizeof(*w));
	bool overflow;
	unsigned n = split(buf, w, err, errlen, &overflow);
	int ret = 0;
	uint64_t v;

	if (overflow) {
		ret = -1;
	} else if (n == 0) {
		/* blank or comment */
	} else if (strcmp(w[0], "pe") == 0) {
		if ((ret = want_args(n, 2, 2, "pe N", err, errlen)) == 0 &&
		    (ret = parse_value("PE number", w[1], &v, err, errlen)) == 0) {
			unsigned np = arm_emu_nr_pes(s->m);
			if (v >= np) {
				snprintf(err, errlen, "no PE %s: there are %u (0..%u; see --pes)",
				         w[1], np, np - 1);
				ret = -1;
			} else {
				s->pe = (unsigned)v;
			}
		}
	} else if (strcmp(w[0], "el") == 0) {
		if ((ret = want_args(n, 2, 2, "el 0|1|2|3", err, errlen)) == 0) {
			if (strlen(w[1]) != 1 || w[1][0] < '0' || w[1][0] > '3') {
				snprintf(err, errlen, "bad exception level '%s' (0, 1, 2 or 3)",
				         w[1]);
				ret = -1;
			} else {
				s->el = (unsigned)(w[1][0] - '0');
			}
		}
	} else if (strcmp(w[0], "state") == 0) {
		if ((ret = want_args(n, 2, 2, "state ns|s|realm|root", err, errlen)) == 0) {
			ret = -1;
			for (unsigned i = 0; i < ARM_EMU_NR_SEC; i++)
				if (strcasecmp(w[1], sec_names[i]) == 0) {
					s->sec = i;
					ret = 0;
				}
			if (ret)
				snprintf(err, errlen,
				         "bad security state '%s' (ns, s, realm or root)", w[1]);
		}
	} else if (strcmp(w[0], "streaming") == 0) {
		if ((ret = want_args(n, 2, 2, "streaming on|off", err, errlen)) == 0) {
			if (strcmp(w[1], "on") == 0)
				s->streaming = true;
			else if (strcmp(w[1], "off") == 0)
				s->streaming = false;
			else {
				snprintf(err, errlen, "bad streaming mode '%s' (on or off)", w[1]);
				ret = -1;
			}
		}
	} else if (strcmp(w[0], "mrs") == 0 || strcmp(w[0], "msr") == 0) {
		/* a PMSWINC_EL0 write is filtered by the EL and state it comes from */
		arm_emu_pe_set_context(cur(s), s->el, s->sec, s->streaming);
		ret = cmd_mrs_msr(s, w, n, err, errlen);
	} else if (strcmp(w[0], "feed") == 0) {
		ret = cmd_feed(s, line, err, errlen);
	} else if (strcmp(w[0], "run") == 0) {
		ret = cmd_run(s, w, n, err, errlen);
	} else if (strcmp(w[0], "replay") == 0) {
		ret = cmd_replay(s, w, n, err, errlen);
	} else if (strcmp(w[0], "pending") == 0) {
		ret = cmd_pending(s, n, err, errlen);
	} else if (strcmp(w[0], "snapshot") == 0) {
		ret = cmd_snapshot(s, n, err, errlen);
	} else if (strcmp(w[0], "expect") == 0) {
		if ((ret = want_args(n, 2, MAX_WORDS, "expect REG VALUE | expect TEXT", err,
		                     errlen)) == 0)
			ret = cmd_expect(s, w, n, line, err, errlen);
	} else if (strcmp(w[0], "trace") == 0) {
		if ((ret = want_args(n, 2, 2, "trace FILE | trace off", err, errlen)) == 0) {
			if (strcmp(w[1], "off") == 0)
				ret = arm_script_finish(s, err, errlen);
			else
				ret = arm_script_trace(s, w[1], err, errlen);
		}
	} else if (strcmp(w[0], "reset") == 0) {
		if ((ret = want_args(n, 1, 1, "reset", err, errlen)) == 0)
			arm_emu_pe_reset(cur(s));
	} else {
		snprintf(err, errlen,
		         "unknown command '%s' (pe, el, state, streaming, mrs, msr, feed, run, "
		         "replay, trace, pending, snapshot, expect, reset)",
		         w[0]);
		ret = -1;
	}
	free(w);
	free(buf);
	return ret;
}
