/* cli.h: the conventions every subcommand shares.
 *
 * Owns: the CLI's diagnostics (one line each on stderr, "hpmstat CMD:
 * message", user input escaped), the exit statuses, the reading of numeric
 * option values (a Topdown level against the registered models' metric
 * tables among them), the usage text of the running command and the end of a
 * command (stdout flushed and checked, death by a caught signal).
 * src/hpmstat.c names the running command (cli_set_command); nothing here
 * calls back into it.
 *
 * Exit status: 0 success, 1 bad input or a failed operation, 2 usage error
 * (unknown option, missing argument).
 */
#ifndef HPM_BUILTIN_CLI_H
#define HPM_BUILTIN_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* A usage error's exit status: perf's (its parse_options exits 129 for an
 * unknown option, a missing value or a bad -e, usage_with_options) */
#define EXIT_USAGE 129

struct option;  /* <getopt.h> */
struct outfile; /* util/outfile.h */

struct hpm_evlist; /* core/evlist.h */

/* One "note:" line on stderr (a "warning:" where the count is undefined)
 * for each event of l whose name misleads about what the hardware counts
 * (the model's event_note: always 0 on XiangShan's RTL, another event's
 * signal, an index the CSR cannot reach), each text once. */
void cli_note_event_facts(const struct hpm_evlist *l);

/* Names the running subcommand and the function that prints its --help
 * text, for the diagnostics and cli_print_usage. */
void cli_set_command(const char *name, void (*usage)(FILE *out));

/* Name of the running subcommand, for diagnostics. */
extern const char *cli_cmd;

/* Ends the command as perf does when a signal stopped it: the output
 * flushed, then the signal's default action, so the shell sees 128 + sig
 * (the return value, should the signal be ignored or blocked). */
int cli_die_of_signal(int sig);
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "hpmstat CMD: msg (see 'hpmstat CMD --help')" and returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* What cli_usage_error's messages start with while a subcommand's options
 * are read (emu bench's "bench: "), NULL: nothing. */
void cli_set_usage_prefix(const char *prefix);
/* The diagnostic for an error getopt_long returned (with opterr = 0 and a
 * ':' first in the short options, after any '+' or '-'): C is '?' or ':'.
 * It names the option as the user wrote it, never a neighbouring argument:
 * "-l" out of the cluster "-jl3", "--frob" without its "=value", "--json"
 * given a value it does not take, "--emu" matching several long options.
 * Returns EXIT_USAGE. */
int cli_option_error(int c, char **argv, const struct option *longopts);
/* Reads S, the value of option OPT, as a whole number from MIN to MAX:
 * decimal, 0x hex or 0b binary with '_' allowed between digits, or an
 * exponent form such as 1e9; blanks around it are ignored. On bad input it
 * prints one line naming OPT and S (empty, not a number, not a whole
 * number, "out of range" for one no uint64_t holds, else the range) and
 * returns -1; the caller picks the exit status. */
int cli_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* The same for a command whose bad values are usage errors: the message
 * ends with the --help hint and the return is EXIT_USAGE, else 0. */
int cli_parse_u64_usage(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* cli_parse_u64 for a Topdown level (stat -l, report --level): 1 to the
 * deepest level of any registered model's metrics, as the options are read
 * before a run picks its model. */
int cli_parse_topdown_level(const char *opt, const char *s, uint64_t *out);
/* Prints the usage text of the running command to `out`. */
void cli_print_usage(FILE *out);
/* Flushes stdout and reports a write error (e.g. a closed pipe or full disk)
 * so no output is silently lost; returns the status to exit with. */
int cli_finish(int status);

/* A file a command writes its output to, by util/outfile.h's rules (a
 * temporary file renamed into place, or in place for devices, FIFOs and
 * hard links), with every error one line here. Opened before the work it
 * holds is done, so a path that cannot be written stops the command
 * before it starts. */
struct cli_output {
	const char *path; /* NULL: standard error */
	struct outfile *of;
	/* "-" is named "standard output" in the messages (stat's), not
	 * '-' (report's) */
	bool dash_named;
};

/* Opens path (NULL: standard error; "-": standard output), added to the
 * end of the file when append: 0, or -1 after "cannot write 'PATH': why". */
int cli_output_open(struct cli_output *o, const char *path, bool append);
/* The stream to write to. */
FILE *cli_output_stream(const struct cli_output *o);
/* Puts the file in place (a no-op for one not open): 0, or -1 after the
 * message for the first failed write (ENOSPC from /dev/full...). */
int cli_output_commit(struct cli_output *o);
/* Drops what was written (no temporary file stays behind); a no-op for
 * one not open. */
void cli_output_abort(struct cli_output *o);
/* "cannot write 'PATH': strerror(e)" (or "to standard output/error"). */
void cli_output_error(const struct cli_output *o, int e);

#endif
