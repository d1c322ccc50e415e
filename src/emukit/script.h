/* script.h: the script interpreter core the two emulators share
 * (hpmstat-emu(1), SCRIPT LANGUAGE and ARM MACHINE).
 *
 * Owns: struct hpm_emu_script_lang (what a machine hands in: its commands as
 * a table, its number syntax, how it opens and closes a trace recording,
 * its trace format and how it replays one: struct hpm_emu_script_replay)
 * and struct hpm_emu_script, the state every script has whatever the
 * machine: the last output line (for `expect TEXT`), the recording in
 * progress and the stop flag. The core splits a line into words ('#'
 * starting a word ends it), finds the command, checks its number of words
 * against the table and reports an unknown command with the table's names;
 * the commands every language has (`trace FILE|off`, `expect TEXT`,
 * `replay FILE` of the machine's trace format) are here for the tables to
 * name. It knows no machine: no kmh/ or arm64/ type.
 *
 * Library rules: output lines go to a callback, errors to the caller's
 * buffer (the caller adds FILE:LINE); nothing here prints or exits.
 */
#ifndef HPM_EMUKIT_SCRIPT_H
#define HPM_EMUKIT_SCRIPT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hpm_emu_script;
struct hpm_emu_trace;
struct hpm_emu_trace_format;

/* One command of script s: w[0..n) are the line's words (w[0] the name),
 * line the whole line; machine is what hpm_emu_script_new() was given. */
typedef int hpm_emu_script_cmd_fn(struct hpm_emu_script *s, void *machine, char **w, unsigned n,
                                  const char *line, char *err, size_t errlen);

struct hpm_emu_script_cmd {
	const char *name;
	/* words with the name; usage NULL: the command checks them itself */
	unsigned min_words, max_words;
	const char *usage; /* "usage: USAGE" */
	hpm_emu_script_cmd_fn *run;
};

/* A batch of hpm_emu_script_loop()'s steps (runs): at most max of them,
 * none once *done (of the loop's total so far) reaches total, each moving
 * *done on by at least 1; *made gets how many it took. Batches keep the
 * per-run loop in the machine, where its counting inlines. */
typedef int hpm_emu_script_steps_fn(void *machine, void *it, uint64_t *done, uint64_t total,
                                    unsigned max, unsigned *made, char *err, size_t errlen);

struct hpm_emu_script_lang {
	/* in the order the unknown-command message lists them */
	const struct hpm_emu_script_cmd *cmds;
	size_t nr_cmds;
	unsigned max_words; /* words on one line */
	/* the number syntax of values (0, or -1) and its words in errors */
	int (*parse_number)(const char *s, uint64_t *out);
	const char *number_syntax;
	/* the machine's trace format: what `trace FILE` records runs in (with
	 * emukit/trace.h's writer) and `replay FILE` reads */
	const struct hpm_emu_trace_format *trace_format;
	/* a recording of the machine's runs by a writer of its own instead
	 * (both NULL: the trace format's) */
	void *(*trace_open)(const char *path, char *err, size_t errlen);
	int (*trace_close)(void *rec, char *err, size_t errlen);
	/* `replay FILE` (hpm_emu_script_cmd_replay): a batch of the trace's
	 * runs (`it` is a struct hpm_emu_script_replay) and how the machine
	 * forgets the runs it keyed by the trace before the trace is freed */
	hpm_emu_script_steps_fn *replay_steps;
	void (*forget_source)(void *machine, const void *source);
};

/* What `replay FILE` hands the language's replay_steps: the trace, whose
 * run *done is the next to count, and its path for the errors. */
struct hpm_emu_script_replay {
	const struct hpm_emu_trace *trace;
	const char *path;
};

typedef void (*hpm_emu_script_output_fn)(void *ctx, const char *line);

/* An interpreter of `lang` whose commands get `machine`; output lines go
 * to out(ctx, line). */
struct hpm_emu_script *hpm_emu_script_new(const struct hpm_emu_script_lang *lang, void *machine,
                                          hpm_emu_script_output_fn out, void *ctx);
/* Closes an open recording (ignoring its errors) and frees the core. */
void hpm_emu_script_free(struct hpm_emu_script *s);
/* Executes one line; 0, or -1 with the reason in err. */
int hpm_emu_script_exec(struct hpm_emu_script *s, const char *line, char *err, size_t errlen);

/* Long loops stop with an error once *stop is non-zero (NULL: never). */
void hpm_emu_script_set_stop(struct hpm_emu_script *s, const volatile sig_atomic_t *stop);

/* Steps until `total` (cycles of `run`, runs of `replay`) is done, or a
 * step fails, or the stop flag, looked at before every 1024th step, says
 * so: -1 with "interrupted after DONE of TOTAL UNIT". */
int hpm_emu_script_loop(struct hpm_emu_script *s, uint64_t total, const char *unit,
                        hpm_emu_script_steps_fn *steps, void *it, char *err, size_t errlen);

/* Starts recording to path (replacing a recording in progress). */
int hpm_emu_script_trace(struct hpm_emu_script *s, const char *path, char *err, size_t errlen);
/* Ends a recording and reports its write errors. */
int hpm_emu_script_finish(struct hpm_emu_script *s, char *err, size_t errlen);
/* The recording in progress (what trace_open returned, or the format's
 * struct hpm_emu_trace_writer), or NULL. */
void *hpm_emu_script_recording(const struct hpm_emu_script *s);

/* Hands a line to the output and keeps it for `expect TEXT`. */
void hpm_emu_script_output(struct hpm_emu_script *s, const char *line);
/* A value in the language's syntax; -1 with "bad WHAT 'WORD' (SYNTAX)". */
int hpm_emu_script_number(const struct hpm_emu_script *s, const char *what, const char *word,
                          uint64_t *v, char *err, size_t errlen);
/* -1 with "usage: USAGE" unless lo <= n <= hi. */
int hpm_emu_script_want_args(unsigned n, unsigned lo, unsigned hi, const char *usage, char *err,
                             size_t errlen);
/* The arguments of `run CYCLES PROFILE [seed=N]` (seed 1 if not given). */
int hpm_emu_script_run_args(const struct hpm_emu_script *s, char **w, unsigned n, uint64_t *cycles,
                            uint64_t *seed, char *err, size_t errlen);
/* `expect TEXT`: TEXT is the rest of the line after `expect` with
 * surrounding blanks removed (a comment ends it); the previous output line
 * must be TEXT. */
int hpm_emu_script_expect_text(const struct hpm_emu_script *s, const char *line, char *err,
                               size_t errlen);
/* The error of a trace that does not load: "PATH:LINE: REASON", or REASON
 * when it is on no line (line 0). */
void hpm_emu_script_trace_error(char *err, size_t errlen, const char *path, unsigned line,
                                const char *why);
bool hpm_emu_script_is_space(char c);

/* A script session, what `hpmstat emu [SCRIPT]` runs (arch/machine.h's
 * script_new, script_exec and script_end): a machine, the machine's
 * interpreter state around core, and how to free the two. The machines' glue
 * is then only how they make the two. */
struct hpm_emu_script_session;
/* A session that owns state and machine (both freed by release(state,
 * machine)): stops at *stop (NULL: never) and records to trace_out (NULL:
 * no recording). NULL with the reason in err, everything freed. */
struct hpm_emu_script_session *
hpm_emu_script_session_new(struct hpm_emu_script *core, void *state, void *machine,
                           void (*release)(void *state, void *machine),
                           const volatile sig_atomic_t *stop, const char *trace_out, char *err,
                           size_t errlen);
/* script_exec(): hpm_emu_script_exec() on the session's core. */
int hpm_emu_script_session_exec(void *session, const char *line, char *err, size_t errlen);
/* script_end(): ends the recording (its errors in err, unless err is NULL,
 * then they are ignored) and frees the session, its state and machine. */
int hpm_emu_script_session_end(void *session, char *err, size_t errlen);

/* A struct hpm_emu_commands' script_exec and script_end (arch/machine.h)
 * for a machine whose script_new makes an hpm_emu_script_session. */
#define HPM_EMU_SCRIPT_SESSION_OPS                                                                 \
	.script_exec = hpm_emu_script_session_exec, .script_end = hpm_emu_script_session_end

/* `trace FILE | trace off`, for the tables. */
hpm_emu_script_cmd_fn hpm_emu_script_cmd_trace;
/* `expect TEXT` (hpm_emu_script_expect_text), for the tables. */
hpm_emu_script_cmd_fn hpm_emu_script_cmd_expect;
/* `replay FILE`: loads the trace in the language's trace_format (an error
 * as hpm_emu_script_trace_error() makes it) and counts its runs with
 * replay_steps in hpm_emu_script_loop(), then forgets and frees it. */
hpm_emu_script_cmd_fn hpm_emu_script_cmd_replay;

#endif
