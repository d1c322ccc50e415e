/* script-core.c: the shared script interpreter core (src/emukit/script.c) on
 * a toy language of its own, linked without either machine: words and
 * comments, dispatch by the table, its usage and unknown-command messages,
 * the word limit, `expect TEXT`, number errors in the language's words,
 * `trace FILE|off` through the language's callbacks, and the stoppable loop
 * (the stop flag is looked at every 1024th step), and the session a
 * machine's `hpmstat emu` glue runs (its recording, its exec, and that its
 * end, or a failed start, frees the machine and its state, each once).
 * Expected texts are the
 * messages hpmstat-emu(1)'s languages print, written out by hand.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "emukit/script.h"

struct toy {
	char out[256]; /* last output line */
	unsigned opened, closed;
	uint64_t steps; /* steps taken by `loop` */
};

static void toy_output(void *ctx, const char *line)
{
	struct toy *t = ctx;
	snprintf(t->out, sizeof(t->out), "%s", line);
}

static int toy_say(struct hpm_emu_script *s, void *machine, char **w, unsigned n, const char *line,
                   char *err, size_t errlen)
{
	(void)machine, (void)n, (void)line, (void)err, (void)errlen;
	hpm_emu_script_output(s, w[1]);
	return 0;
}

static int toy_num(struct hpm_emu_script *s, void *machine, char **w, unsigned n, const char *line,
                   char *err, size_t errlen)
{
	uint64_t v;
	char buf[32];
	(void)machine, (void)n, (void)line;
	if (hpm_emu_script_number(s, "number", w[1], &v, err, errlen) < 0)
		return -1;
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	hpm_emu_script_output(s, buf);
	return 0;
}

/* one step a run, taken one at a time: the loop's batches are the core's */
static int toy_steps(void *machine, void *it, uint64_t *done, uint64_t total, unsigned max,
                     unsigned *made, char *err, size_t errlen)
{
	struct toy *t = machine;
	(void)it, (void)err, (void)errlen;
	for (*made = 0; *made < max && *done < total; ++*made, ++*done)
		t->steps++;
	return 0;
}

static int toy_loop(struct hpm_emu_script *s, void *machine, char **w, unsigned n, const char *line,
                    char *err, size_t errlen)
{
	uint64_t total;
	(void)machine, (void)n, (void)line;
	if (hpm_emu_script_number(s, "count", w[1], &total, err, errlen) < 0)
		return -1;
	return hpm_emu_script_loop(s, total, "runs", toy_steps, NULL, err, errlen);
}

static const struct hpm_emu_script_cmd toy_cmds[] = {
    {"say", 2, 2, "say WORD", toy_say},
    {"num", 2, 2, "num N", toy_num},
    {"loop", 2, 2, "loop N", toy_loop},
    {"expect", 0, 0, NULL, hpm_emu_script_cmd_expect},
    {"trace", 2, 2, "trace FILE | trace off", hpm_emu_script_cmd_trace},
};

/* decimal digits only */
static int toy_number(const char *s, uint64_t *out)
{
	char *end;
	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -1;
	*out = strtoull(s, &end, 10);
	return 0;
}

static struct toy *the_toy;

static void *toy_trace_open(const char *path, char *err, size_t errlen)
{
	if (strcmp(path, "bad") == 0) {
		snprintf(err, errlen, "cannot write '%s'", path);
		return NULL;
	}
	the_toy->opened++;
	return strdup(path);
}

static int toy_trace_close(void *rec, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	the_toy->closed++;
	free(rec);
	return 0;
}

static const struct hpm_emu_script_lang toy_lang = {
    .cmds = toy_cmds,
    .nr_cmds = sizeof(toy_cmds) / sizeof(toy_cmds[0]),
    .max_words = 4,
    .parse_number = toy_number,
    .number_syntax = "decimal",
    .trace_open = toy_trace_open,
    .trace_close = toy_trace_close,
};

/* What a session frees: its state and its machine, counted. */
static unsigned states_freed, machines_freed;
static void toy_free(void *state, void *machine)
{
	hpm_emu_script_free(state);
	states_freed++;
	machines_freed += machine != NULL;
}

/* The error of one line, "" when it ran. */
static const char *run(struct hpm_emu_script *s, const char *line)
{
	static char err[256];
	err[0] = '\0';
	if (hpm_emu_script_exec(s, line, err, sizeof(err)) == 0 && err[0])
		snprintf(err, sizeof(err), "(error text left on success)");
	return err;
}

int main(void)
{
	struct toy toy = {{0}, 0, 0, 0};
	volatile sig_atomic_t stop = 0;
	char err[64];

	tap_plan(29);
	the_toy = &toy;
	struct hpm_emu_script *s = hpm_emu_script_new(&toy_lang, &toy, toy_output, &toy);

	tap_is_str(run(s, "expect x"), "expected 'x', got no output yet",
	           "expect before any output");
	tap_is_str(run(s, "  # a comment line"), "", "a comment line does nothing");
	tap_is_str(run(s, ""), "", "a blank line does nothing");
	tap_is_str(run(s, "say hi # not a word"), "", "say with a comment after it");
	tap_is_str(toy.out, "hi", "... outputs its word");
	tap_is_str(run(s, "expect hi   # c"), "",
	           "expect TEXT: blanks and the comment are not TEXT");
	tap_is_str(run(s, "expect ho"), "expected 'ho', got 'hi'", "expect TEXT that differs");
	tap_is_str(run(s, "frob 1"), "unknown command 'frob' (say, num, loop, expect, trace)",
	           "an unknown command lists the table's names in its order");
	tap_is_str(run(s, "say"), "usage: say WORD", "too few words: the table's usage");
	tap_is_str(run(s, "say a b"), "usage: say WORD", "too many words: the table's usage");
	tap_is_str(run(s, "say a b c d"), "too many words on one line (at most 4)",
	           "the language's word limit");
	tap_is_str(run(s, "num 0x10"), "bad number '0x10' (decimal)",
	           "a bad number in the language's words");
	tap_is_str(run(s, "trace t1"), "", "trace FILE opens a recording");
	tap_ok(hpm_emu_script_recording(s) && strcmp(hpm_emu_script_recording(s), "t1") == 0 &&
	           toy.opened == 1,
	       "the recording is what the language's trace_open returned");
	tap_is_str(run(s, "trace t2"), "", "trace FILE again");
	tap_ok(toy.opened == 2 && toy.closed == 1, "... closes the first recording");
	tap_is_str(run(s, "trace bad"), "cannot write 'bad'", "trace_open's error");

	run(s, "trace off");
	hpm_emu_script_set_stop(s, &stop);
	tap_is_str(run(s, "loop 5000"), "", "loop without a stop takes every step");
	tap_is_u64(toy.steps, 5000, "... 5000 of them");
	stop = 1;
	toy.steps = 0;
	/* looked at on the 1024th step, before it: 1023 done */
	tap_is_str(run(s, "loop 5000"), "interrupted after 1023 of 5000 runs",
	           "a stop is seen on the 1024th step");
	tap_is_u64(toy.steps, 1023, "... and no step after it is taken");

	hpm_emu_script_trace_error(err, sizeof(err), "t.txt", 3, "bad mode");
	char err0[64];
	hpm_emu_script_trace_error(err0, sizeof(err0), "t.txt", 0, "empty trace");
	tap_ok(strcmp(err, "t.txt:3: bad mode") == 0 && strcmp(err0, "empty trace") == 0,
	       "trace errors: PATH:LINE: REASON, or REASON on no line (%s | %s)", err, err0);
	hpm_emu_script_free(s);

	/* a session over a fresh interpreter, recording from the start */
	toy.opened = toy.closed = 0;
	s = hpm_emu_script_new(&toy_lang, &toy, toy_output, &toy);
	struct hpm_emu_script_session *ss =
	    hpm_emu_script_session_new(s, s, &toy, toy_free, NULL, "rec", err, sizeof(err));
	tap_ok(ss && toy.opened == 1 && strcmp(hpm_emu_script_recording(s), "rec") == 0,
	       "a session records to its trace_out from the start");
	tap_ok(hpm_emu_script_session_exec(ss, "say yo", err, sizeof(err)) == 0 &&
	           strcmp(toy.out, "yo") == 0,
	       "a session's exec runs the line on its core");
	tap_ok(hpm_emu_script_session_exec(ss, "say", err, sizeof(err)) < 0 &&
	           strcmp(err, "usage: say WORD") == 0,
	       "... and hands back the core's error");
	tap_ok(hpm_emu_script_session_end(ss, err, sizeof(err)) == 0 && toy.closed == 1,
	       "its end closes the recording");
	tap_ok(states_freed == 1 && machines_freed == 1,
	       "... and frees the state and the machine once");
	/* a session whose recording cannot start */
	s = hpm_emu_script_new(&toy_lang, &toy, toy_output, &toy);
	ss = hpm_emu_script_session_new(s, s, &toy, toy_free, NULL, "bad", err, sizeof(err));
	tap_ok(!ss && strcmp(err, "cannot write 'bad'") == 0,
	       "a trace_out that cannot be written: no session, trace_open's error");
	tap_ok(states_freed == 2 && machines_freed == 2, "... the state and the machine freed");
	return tap_done();
}
