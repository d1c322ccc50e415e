/* commands.c: global options and subcommand dispatch.
 *
 * Owns: hpmstat_main() (what main() runs: src/hpmstat.c), the table of
 * subcommands and hpmstat help. Each subcommand lives in its own file in
 * this folder; the diagnostics they share are cli.c's, which never calls
 * back into this file. A test program that registers a PMU model of its
 * own (tests/arch/) runs the same commands through hpmstat_main().
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include "builtin/builtin.h"
#include "builtin/cli.h"
#include "util/dlib.h"

/* hpmstat help is tiny and needs the table, so it lives beside it. */
static void cmd_help_usage(FILE *out)
{
	fputs("Usage: hpmstat help [COMMAND]\n"
	      "\n"
	      "Show the list of commands, or the usage of one command.\n",
	      out);
}
static int cmd_help(int argc, char **argv);

static const struct cmd_desc hpm_commands[] = {
    {"stat", cmd_stat, "Count events and compute Topdown, as perf stat", cmd_stat_usage, false},
    {"list", cmd_list, "List events, metrics and metric groups, as perf list", cmd_list_usage,
     false},
    {"encode", cmd_encode, "Encode event expressions into mhpmevent values", cmd_encode_usage,
     false},
    {"decode", cmd_decode, "Decode mhpmevent values into fields and events", cmd_decode_usage,
     false},
    {"emu", cmd_emu, "Run the Kunminghu HPM emulator", cmd_emu_usage, false},
    {"record", cmd_record, "Sample into perf.data, as perf record", cmd_record_usage, false},
    {"report", cmd_report, "Report Topdown from run files, text to HTML, and diffs",
     cmd_report_usage, true},
    {"top", cmd_top, "Live Topdown view of harts, CPUs and processes", cmd_top_usage, true},
    {"serve", cmd_serve, "Export counts and Topdown to Prometheus over HTTP", cmd_serve_usage,
     true},
    {"help", cmd_help, "Show help for hpmstat or one command", cmd_help_usage, false},
    {NULL, NULL, NULL, NULL, false},
};

int (*hpmstat_full_program)(char *path, size_t len);

static const struct cmd_desc *hpm_command_find(const char *name)
{
	for (const struct cmd_desc *c = hpm_commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static const char hpm_usage_head[] =
    "Usage: hpmstat [--version] [--help] COMMAND [ARGS]\n"
    "\n"
    "Linux perf-compatible profiling for XiangShan Kunminghu cores.\n"
    "\n"
    "Commands:\n";

static void hpm_usage(FILE *out)
{
	fputs(hpm_usage_head, out);
	for (const struct cmd_desc *c = hpm_commands; c->name; c++)
		fprintf(out, "  %-8s %s\n", c->name, c->summary);
	fputs("\nSee 'hpmstat help COMMAND' or 'man hpmstat-events' for the event grammar.\n", out);
}

/* In the static front, command c (marked in_full) runs in hpmstat-full,
 * the whole command line, which the front kept: returns only when that
 * could not start. Not inlined: its path buffer (a page) would otherwise
 * sit in every command's stack, one more page to fault in at each start. */
static __attribute__((noinline)) int run_in_full(const struct cmd_desc *c)
{
	char path[PATH_MAX];
	int e = hpmstat_full_program(path, sizeof(path));
	cli_error("cannot run %s, the program that runs hpmstat %s: %s", path, c->name,
	          strerror(e));
	return cli_finish(127);
}

/* Runs command c: its name and --help text go to the diagnostics first. */
static int run_command(const struct cmd_desc *c, int argc, char **argv)
{
	if (!c) /* a name of this file's own table: cannot happen */
		return cli_finish(EXIT_FAILURE);
	cli_set_command(c->name, c->usage);
	if (c->in_full && hpmstat_full_program)
		return run_in_full(c);
	hpm_dlib_reserve_fd();
	return cli_finish(c->fn(argc, argv));
}

int hpmstat_main(int argc, char **argv)
{
	/* installed as hpmtop too: the name picks the command */
	const char *base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	if (strcmp(base, "hpmtop") == 0)
		return run_command(hpm_command_find("top"), argc, argv);
	/* perf: no command prints the usage and exits 1 */
	if (argc < 2) {
		hpm_usage(stderr);
		return EXIT_FAILURE;
	}
	const char *name = argv[1];
	if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
		printf("hpmstat %s\n", PACKAGE_VERSION);
		return cli_finish(0);
	}
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
		hpm_usage(stdout);
		return cli_finish(0);
	}
	const struct cmd_desc *c = hpm_command_find(name);
	/* "hpmstat -e EV -- cmd" and "hpmstat -- cmd" mean hpmstat stat, as
	 * "perf stat" is the main job */
	if (!c && name[0] == '-' && strcmp(name, "-") != 0)
		return run_command(hpm_command_find("stat"), argc, argv);
	if (!c && name[0] == '-')
		return cli_usage_error("unknown option '%s'", name);
	if (!c) {
		/* perf: "'x' is not a perf-command", status 1 */
		cli_usage_error("'%s' is not a command", name);
		return EXIT_FAILURE;
	}
	return run_command(c, argc - 1, argv + 1);
}

static int cmd_help(int argc, char **argv)
{
	if (argc < 2) {
		hpm_usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		cmd_help_usage(stdout);
		return 0;
	}
	const struct cmd_desc *c = hpm_command_find(argv[1]);
	if (!c) {
		cli_error("'%s' is not a command", argv[1]);
		return EXIT_FAILURE;
	}
	c->usage(stdout);
	return 0;
}
