/* cli.h: the conventions every subcommand shares.
 *
 * Owns: the CLI's diagnostics (one line each on stderr, "hpmstat CMD:
 * message", user input escaped), the exit statuses, the reading of numeric
 * option values, the usage text of the running command and the end of a
 * command (stdout flushed and checked, death by a caught signal).
 * src/hpmstat.c names the running command (cli_set_command); nothing here
 * calls back into it.
 *
 * Exit status: 0 success, 1 bad input or a failed operation, 2 usage error
 * (unknown option, missing argument).
 */
#ifndef HPM_BUILTIN_CLI_H
#define HPM_BUILTIN_CLI_H

#include <stdint.h>
#include <stdio.h>

#define EXIT_USAGE 2

struct option; /* <getopt.h> */

/* Names the running subcommand and its --help text, for the diagnostics
 * and cli_print_usage. */
void cli_set_command(const char *name, const char *usage);

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
/* Prints the usage text of the running command to `out`. */
void cli_print_usage(FILE *out);
/* Flushes stdout and reports a write error (e.g. a closed pipe or full disk)
 * so no output is silently lost; returns the status to exit with. */
int cli_finish(int status);

#endif
