/* builtin.h: the subcommands.
 *
 * Owns: one entry point and --help text per subcommand (one file each under
 * src/builtin/, dispatched from the table in commands.c) and the shape
 * of that table's entries, and hpmstat_main(), the whole command line. The conventions they share
 * (diagnostics, exit status, number parsing, output files) are builtin/cli.h's; the
 * --backend and --emu-* options of stat and top are builtin/backend-opts.h's.
 * Subcommands print; the libraries below them never do.
 */
#ifndef HPM_BUILTIN_BUILTIN_H
#define HPM_BUILTIN_BUILTIN_H

#include <stdbool.h>
#include <stddef.h>

#include "builtin/cli.h"

struct cmd_desc {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	void (*usage)(FILE *out); /* prints the full --help text */
	bool in_full;             /* the static front runs it in hpmstat-full */
};

/* The static front's (src/hpmstat-front.c) way to run this command line in
 * hpmstat-full, the dynamically linked program, for the commands marked
 * in_full: returns only when it could not, with the errno and the path of
 * the last program tried. NULL in hpmstat-full and in a build without the
 * front, which run every command themselves. */
extern int (*hpmstat_full_program)(char *path, size_t len);

/* hpmstat's command line (argv[0] is the program: "hpmtop" runs top):
 * the exit status main() returns. */
int hpmstat_main(int argc, char **argv);

int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_emu(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_serve(int argc, char **argv);

void cmd_stat_usage(FILE *out);
void cmd_list_usage(FILE *out);
void cmd_encode_usage(FILE *out);
void cmd_decode_usage(FILE *out);
void cmd_emu_usage(FILE *out);
void cmd_report_usage(FILE *out);
void cmd_top_usage(FILE *out);
void cmd_record_usage(FILE *out);
void cmd_serve_usage(FILE *out);

#endif
