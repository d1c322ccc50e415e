/* script.c: the interpreter of the emulator's script language
 * (hpmstat-emu(1), SCRIPT LANGUAGE).
 *
 * Owns: struct emu_script: the current hart, the last output line (for
 * `expect`), the stimulus of `feed` and the trace being recorded. It drives
 * the three sources (stimulus, workload, trace) into the harts and copies
 * every run into the recording, so a recording holds exactly what was
 * counted.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmh/emu/emu.h"
#include "kmh/emu/workload.h"
#include "util/xalloc.h"

#define MAX_WORDS 512 /* words on one line; feed may name many events */

struct emu_script {
	struct emu *emu;
	unsigned hart; /* current hart */
	emu_script_output_fn out;
	void *ctx;
	char *last; /* last output line, NULL before the first */
	struct emu_stimulus *stim;
	struct emu_trace_writer *rec;      /* recording in progress, or NULL */
	const volatile sig_atomic_t *stop; /* set by a signal handler: stop a run */
};

void emu_script_set_stop(struct emu_script *s, const volatile sig_atomic_t *stop)
{
	s->stop = stop;
}

/* Looked at every 1024 runs (a few microseconds): cheap, and prompt. */
static bool stopped(const struct emu_script *s, uint64_t nr_runs)
{
	return s->stop && (nr_runs & 1023) == 0 && *s->stop;
}

struct emu_script *emu_script_new(struct emu *emu, emu_script_output_fn out, void *ctx)
{
	struct emu_script *s = xcalloc(1, sizeof(*s));
	s->emu = emu;
	s->out = out;
	s->ctx = ctx;
	s->stim = emu_stimulus_new();
	return s;
}

void emu_script_free(struct emu_script *s)
{
	char err[16];
	if (!s)
		return;
	emu_trace_writer_close(s->rec, err, sizeof(err));
	emu_stimulus_free(s->stim);
	free(s->last);
	free(s);
}

int emu_script_trace(struct emu_script *s, const char *path, char *err, size_t errlen)
{
	if (emu_script_finish(s, err, errlen) < 0)
		return -1;
	if (!(s->rec = emu_trace_writer_open(path, err, errlen)))
		return -1;
	return 0;
}

int emu_script_finish(struct emu_script *s, char *err, size_t errlen)
{
	int ret = emu_trace_writer_close(s->rec, err, errlen);
	s->rec = NULL;
	return ret;
}

static void output(struct emu_script *s, const char *line)
{
	free(s->last);
	s->last = xstrdup(line);
	if (s->out)
		s->out(s->ctx, line);
}

static struct emu_hart *cur(struct emu_script *s)
{
	return emu_hart(s->emu, s->hart);
}

/* Counts one run on the current hart and records it. */
static int feed_run(struct emu_script *s, const struct emu_run *run, char *err, size_t errlen)
{
	if (s->rec && emu_trace_write(s->rec, run, err, errlen) < 0)
		return -1;
	emu_hart_run(cur(s), run);
	return 0;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Splits `buf` in place into words; a word starting with '#' ends the line. */
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
	if (emu_parse_u64(s, v) < 0) {
		snprintf(err, errlen, "bad %s '%s' (decimal, 0x hex or 0b binary, up to 2^64-1)",
		         what, s);
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

static int cmd_csr(struct emu_script *s, char **w, unsigned n, char *err, size_t errlen)
{
	enum emu_mode mode = emu_hart_mode(cur(s));
	unsigned csr;
	uint64_t v;
	int exc;
	char line[64];

	if (strcmp(w[0], "csrr") == 0) {
		if (want_args(n, 2, 2, "csrr CSR", err, errlen) < 0 ||
		    emu_csr_parse(w[1], &csr, err, errlen) < 0)
			return -1;
		if ((exc = emu_hart_csr_read(cur(s), mode, csr, &v)) == EMU_OK) {
			snprintf(line, sizeof(line), "0x%016llx", (unsigned long long)v);
			output(s, line);
		} else {
			output(s, emu_exc_name(exc));
		}
		return 0;
	}
	char usage[32];
	snprintf(usage, sizeof(usage), "%s CSR VALUE", w[0]);
	if (want_args(n, 3, 3, usage, err, errlen) < 0 ||
	    emu_csr_parse(w[1], &csr, err, errlen) < 0 ||
	    parse_value("value", w[2], &v, err, errlen) < 0)
		return -1;
	if (strcmp(w[0], "csrw") == 0)
		exc = emu_hart_csr_write(cur(s), mode, csr, v);
	else if (strcmp(w[0], "csrs") == 0)
		exc = emu_hart_csr_set(cur(s), mode, csr, v);
	else
		exc = emu_hart_csr_clear(cur(s), mode, csr, v);
	output(s, emu_exc_name(exc));
	return 0;
}

static int cmd_feed(struct emu_script *s, char **w, unsigned n, char *err, size_t errlen)
{
	uint64_t cycles;
	struct emu_run run;

	if (want_args(n, 2, MAX_WORDS, "feed CYCLES [EVENT=VALUE ...] [instret=N]", err, errlen) <
	        0 ||
	    parse_value("cycle count", w[1], &cycles, err, errlen) < 0)
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

static int cmd_run(struct emu_script *s, char **w, unsigned n, char *err, size_t errlen)
{
	uint64_t cycles, seed = 1;
	char perr[256];
	const struct emu_profile *p;

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
	int ret = 0;
	uint64_t nr = 0;
	for (uint64_t left = cycles; left && ret == 0;) {
		struct emu_run run;
		if (stopped(s, ++nr)) {
			snprintf(err, errlen, "interrupted after %llu of %llu cycles",
			         (unsigned long long)(cycles - left), (unsigned long long)cycles);
			ret = -1;
			break;
		}
		memset(&run, 0, sizeof(run));
		emu_workload_next(wl, left, &run);
		if (run.cycles == 0 || run.cycles > left || run.mode >= EMU_NR_MODES) {
			snprintf(err, errlen,
			         "profile '%s' produced a bad run (%llu cycles, mode %u, asked for "
			         "at most %llu)",
			         emu_profile_name(p), (unsigned long long)run.cycles, run.mode,
			         (unsigned long long)left);
			ret = -1;
			break;
		}
		ret = feed_run(s, &run, err, errlen);
		left -= run.cycles;
	}
	emu_forget_source(s->emu, wl);
	emu_workload_free(wl);
	return ret;
}

static int cmd_replay(struct emu_script *s, char **w, unsigned n, char *err, size_t errlen)
{
	unsigned line;
	char terr[256];
	struct emu_trace *t;

	if (want_args(n, 2, 2, "replay FILE", err, errlen) < 0)
		return -1;
	if (!(t = emu_trace_load(w[1], &line, terr, sizeof(terr)))) {
		if (line)
			snprintf(err, errlen, "%s:%u: %s", w[1], line, terr);
		else
			snprintf(err, errlen, "%s", terr);
		return -1;
	}
	int ret = 0;
	for (size_t i = 0; i < emu_trace_nr_runs(t) && ret == 0; i++) {
		struct emu_run run;
		if (stopped(s, i + 1)) {
			snprintf(err, errlen, "interrupted after %zu of %zu runs", i,
			         emu_trace_nr_runs(t));
			ret = -1;
			break;
		}
		emu_trace_run_at(t, i, &run);
		ret = feed_run(s, &run, err, errlen);
	}
	emu_forget_source(s->emu, t);
	emu_trace_free(t);
	return ret;
}

static int cmd_pending(struct emu_script *s, unsigned n, char *err, size_t errlen)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} bits[] = {{EMU_MIP_STIP, "STIP"}, {EMU_MIP_VSTIP, "VSTIP"}, {EMU_MIP_LCOFIP, "LCOFIP"}};
	char line[128];
	uint64_t mip;
	size_t off;

	if (want_args(n, 1, 1, "pending", err, errlen) < 0)
		return -1;
	mip = emu_hart_mip(cur(s));
	off = (size_t)snprintf(line, sizeof(line), "mip=0x%016llx", (unsigned long long)mip);
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (mip & bits[i].bit)
			off +=
			    (size_t)snprintf(line + off, sizeof(line) - off, " %s", bits[i].name);
	output(s, line);
	return 0;
}

/* `expect TEXT`: TEXT is the rest of the line with surrounding blanks
 * removed (a comment ends it, as everywhere). */
static int cmd_expect(struct emu_script *s, const char *line, char *err, size_t errlen)
{
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

int emu_script_exec(struct emu_script *s, const char *line, char *err, size_t errlen)
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
	} else if (strcmp(w[0], "hart") == 0) {
		if ((ret = want_args(n, 2, 2, "hart N", err, errlen)) == 0 &&
		    (ret = parse_value("hart number", w[1], &v, err, errlen)) == 0) {
			if (v >= emu_nr_harts(s->emu)) {
				snprintf(err, errlen,
				         "no hart %s: there are %u (0..%u; see --harts)", w[1],
				         emu_nr_harts(s->emu), emu_nr_harts(s->emu) - 1);
				ret = -1;
			} else {
				s->hart = (unsigned)v;
			}
		}
	} else if (strcmp(w[0], "mode") == 0) {
		int m;
		if ((ret = want_args(n, 2, 2, "mode M|HS|HU|VS|VU (S = HS, U = HU)", err,
		                     errlen)) == 0) {
			if ((m = emu_mode_parse(w[1])) < 0) {
				snprintf(err, errlen, "unknown mode '%s' (M, HS, HU, VS, VU, S, U)",
				         w[1]);
				ret = -1;
			} else {
				emu_hart_set_mode(cur(s), (enum emu_mode)m);
			}
		}
	} else if (strcmp(w[0], "csrr") == 0 || strcmp(w[0], "csrw") == 0 ||
	           strcmp(w[0], "csrs") == 0 || strcmp(w[0], "csrc") == 0) {
		ret = cmd_csr(s, w, n, err, errlen);
	} else if (strcmp(w[0], "feed") == 0) {
		ret = cmd_feed(s, w, n, err, errlen);
	} else if (strcmp(w[0], "run") == 0) {
		ret = cmd_run(s, w, n, err, errlen);
	} else if (strcmp(w[0], "replay") == 0) {
		ret = cmd_replay(s, w, n, err, errlen);
	} else if (strcmp(w[0], "time") == 0) {
		if ((ret = want_args(n, 2, 2, "time VALUE | time +DELTA", err, errlen)) == 0) {
			bool rel = w[1][0] == '+';
			if ((ret = parse_value("time", w[1] + rel, &v, err, errlen)) == 0)
				emu_set_time(s->emu, rel ? emu_time(s->emu) + v : v);
		}
	} else if (strcmp(w[0], "pending") == 0) {
		ret = cmd_pending(s, n, err, errlen);
	} else if (strcmp(w[0], "expect") == 0) {
		ret = cmd_expect(s, line, err, errlen);
	} else if (strcmp(w[0], "trace") == 0) {
		if ((ret = want_args(n, 2, 2, "trace FILE | trace off", err, errlen)) == 0) {
			if (strcmp(w[1], "off") == 0)
				ret = emu_script_finish(s, err, errlen);
			else
				ret = emu_script_trace(s, w[1], err, errlen);
		}
	} else if (strcmp(w[0], "reset") == 0) {
		if ((ret = want_args(n, 1, 1, "reset", err, errlen)) == 0)
			emu_hart_reset(cur(s));
	} else {
		snprintf(err, errlen,
		         "unknown command '%s' (hart, mode, csrr, csrw, csrs, csrc, feed, run, "
		         "replay, time, pending, expect, trace, reset)",
		         w[0]);
		ret = -1;
	}
	free(w);
	free(buf);
	return ret;
}
