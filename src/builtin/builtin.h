/* builtin.h: the subcommands and the conventions they share.
 *
 * Owns: one entry point per subcommand (one file each under src/builtin/,
 * dispatched from the table in src/hpmstat.c) and the CLI's diagnostics.
 * Subcommands print; the libraries under src/kmh and src/emu never do.
 *
 * Exit status: 0 success, 1 bad input or a failed operation, 2 usage error
 * (unknown option, missing argument). Every error is one line on stderr:
 * "hpmstat CMD: message".
 */
#ifndef HPM_BUILTIN_BUILTIN_H
#define HPM_BUILTIN_BUILTIN_H

#include <stdio.h>

#define EXIT_USAGE 2

struct cmd_desc {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *usage; /* full --help text */
};

int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_emu(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_top(int argc, char **argv);

extern const char cmd_stat_usage[];
extern const char cmd_list_usage[];
extern const char cmd_encode_usage[];
extern const char cmd_decode_usage[];
extern const char cmd_emu_usage[];
extern const char cmd_help_usage[];
extern const char cmd_report_usage[];
extern const char cmd_top_usage[];

/* The dispatch table, terminated by a NULL name. */
extern const struct cmd_desc hpm_commands[];
const struct cmd_desc *hpm_command_find(const char *name);

/* Name of the running subcommand, for diagnostics. */
extern const char *cli_cmd;

void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "hpmstat CMD: msg (see 'hpmstat CMD --help')" and returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the usage text of the running command to `out`. */
void cli_print_usage(FILE *out);
/* Flushes stdout and reports a write error (e.g. a closed pipe or full disk)
 * so no output is silently lost; returns the status to exit with. */
int cli_finish(int status);

#endif
