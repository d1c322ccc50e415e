/* cli-opts.h: a command's options as one declarative table, in the manner
 * of perf's parse-options (struct option tables in its builtin-*.c).
 *
 * Owns: struct cli_opt (long and short name, argument, what the option
 * sets, a number's range), the getopt_long tables built from it and the
 * loop that applies a command line to a command's options. Spellings,
 * abbreviations, clusters, "--" and the messages for a misused option are
 * getopt_long's with cli_option_error's wording (cli.h); the table's order
 * is the order an ambiguous abbreviation's candidates are listed in.
 * perf's hidden --list-opts, given as the first argument, lists the long
 * names (tests check them against the man page). --help's list of options
 * is printed from the same table (cli_opts_usage), in perf's
 * usage_with_options manner: the names, the value's name, the help text.
 */
#ifndef HPM_BUILTIN_CLI_OPTS_H
#define HPM_BUILTIN_CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct option; /* <getopt.h> */

/* What an option does to the command's options struct. */
enum cli_opt_kind {
	CLI_OPT_FLAG,   /* bool at offset becomes true */
	CLI_OPT_STRING, /* const char * at offset takes the value */
	CLI_OPT_COUNT,  /* unsigned at offset counts the option (-d, -dd) */
	CLI_OPT_U64,    /* uint64_t at offset, min to max (cli_parse_u64, exit 1) */
	/* unsigned at offset, a Topdown level: 1 to the deepest of any model
	 * (cli_parse_topdown_level, exit 1) */
	CLI_OPT_LEVEL,
	/* const struct hpm_pmu_model * at offset, the model of that name
	 * (fields_model_by_name's message, exit 1) */
	CLI_OPT_MODEL,
	CLI_OPT_CALL,   /* call(opts, value) does the rest */
	CLI_OPT_IGNORE, /* accepted and ignored (perf's spellings for scripts) */
	CLI_OPT_HELP,   /* the command's --help text on stdout; the command is done */
	/* call_id(ctx, id, value): one of a shared table's options (the
	 * back-end ones), ctx the cli_opts' include_ctx */
	CLI_OPT_CALL_ID,
	/* call_pair(opts, first, second): an option of two values, the
	 * second the next argument (report's --diff BASE NEW) */
	CLI_OPT_PAIR,
	/* the options of another table (include) listed here, as perf's
	 * OPT_PARENT: a table the commands share, with its help text */
	CLI_OPT_INCLUDE,
};

struct cli_opt {
	const char *name; /* the long name, NULL: none */
	int short_name;   /* 0: none */
	int has_arg;      /* getopt's no_argument, required_argument, optional_argument */
	enum cli_opt_kind kind;
	size_t offset;     /* FLAG, STRING, COUNT, U64 */
	uint64_t min, max; /* U64 */
	/* CALL: 0, -1 when the command is done (--help printed), else the
	 * exit status after the message */
	int (*call)(void *opts, const char *arg);
	/* --help: the value's name ("FILE"; "LEVEL" for an optional value is
	 * printed "[=LEVEL]") and the text, NULL: not listed (an option kept
	 * for perf's scripts that another's line names) */
	const char *argh, *help;
	/* PAIR: the second value's name ("NEW" of --diff BASE NEW) */
	const char *argh2;
	/* an optional value (optional_argument) that may also be the next
	 * argument when is_word says it is one, as perf's -g [caller,0.5];
	 * NULL: only "--opt=VALUE" or "-oVALUE" */
	bool (*is_word)(const char *arg);
	/* the option exists only where the command's features (cli_opts)
	 * have every one of these bits: an option of some machines or of
	 * some commands of a shared table */
	unsigned needs;
	int id; /* CALL_ID */
	int (*call_id)(void *ctx, int id, const char *arg);
	int (*call_pair)(void *opts, const char *first, const char *second);
	const struct cli_opt *include; /* INCLUDE */
};

#define CLI_FLAG(l, s, type, field, ...)                                                           \
	{                                                                                          \
		.name = l, .short_name = s, .has_arg = 0, .kind = CLI_OPT_FLAG,                    \
		.offset = offsetof(type, field), __VA_ARGS__                                       \
	}
#define CLI_STRING(l, s, type, field, ...)                                                         \
	{                                                                                          \
		.name = l, .short_name = s, .has_arg = 1, .kind = CLI_OPT_STRING,                  \
		.offset = offsetof(type, field), __VA_ARGS__                                       \
	}
#define CLI_COUNT(l, s, type, field, ...)                                                          \
	{                                                                                          \
		.name = l, .short_name = s, .has_arg = 0, .kind = CLI_OPT_COUNT,                   \
		.offset = offsetof(type, field), __VA_ARGS__                                       \
	}
#define CLI_U64(l, s, type, field, lo, hi, ...)                                                    \
	{                                                                                          \
		.name = l, .short_name = s, .has_arg = 1, .kind = CLI_OPT_U64,                     \
		.offset = offsetof(type, field), .min = lo, .max = hi, __VA_ARGS__                 \
	}
#define CLI_LEVEL(l, s, type, field, ...)                                                          \
	{                                                                                          \
		.name = l, .short_name = s, .has_arg = 1, .kind = CLI_OPT_LEVEL,                   \
		.offset = offsetof(type, field), __VA_ARGS__                                       \
	}
#define CLI_MODEL(l, s, type, field, ...)                                                          \
	{                                                                                          \
		.name = l, .short_name = s, .has_arg = 1, .kind = CLI_OPT_MODEL,                   \
		.offset = offsetof(type, field), __VA_ARGS__                                       \
	}
#define CLI_CALL(l, s, arg, fn, ...)                                                               \
	{                                                                                          \
		.name = l, .short_name = s, .has_arg = arg, .kind = CLI_OPT_CALL, .call = fn,      \
		__VA_ARGS__                                                                        \
	}
#define CLI_HELP(l, s, ...)                                                                        \
	{                                                                                          \
		.name = l, .short_name = s, .has_arg = 0, .kind = CLI_OPT_HELP, __VA_ARGS__        \
	}
#define CLI_PAIR(l, fn, a1, a2, ...)                                                               \
	{                                                                                          \
		.name = l, .has_arg = 1, .kind = CLI_OPT_PAIR, .call_pair = fn, .argh = a1,        \
		.argh2 = a2, __VA_ARGS__                                                           \
	}
#define CLI_INCLUDE(t)                                                                             \
	{                                                                                          \
		.kind = CLI_OPT_INCLUDE, .include = t                                              \
	}
#define CLI_IGNORE(l, s, arg, ...)                                                                 \
	{                                                                                          \
		.name = l, .short_name = s, .has_arg = arg, .kind = CLI_OPT_IGNORE, __VA_ARGS__    \
	}

/* A command's options: its table (ending in a zero entry), with the
 * tables its INCLUDE entries name in their places. */
struct cli_opts {
	const struct cli_opt *table;
	const char *prefix; /* getopt's: "+:" stops at the first operand */
	/* the bits an option's needs asks for (a machine's options, the
	 * commands that have --emu-cycles) */
	unsigned features;
	/* what an included table's options apply to (their CALL_ID's ctx,
	 * their CALL's opts) */
	void *include_ctx;
	/* with a '-' prefix (operands and options mix, in order): an operand,
	 * 0 or the exit status */
	int (*operand)(void *opts, const char *arg);
	/* the message for a misused option (getopt's '?' or ':' in c), NULL:
	 * cli_option_error's; returns the exit status */
	int (*bad_option)(void *opts, int c, char **argv, const struct option *longopts);
	/* --help's lines of included options where the command's own differ
	 * (the defaults they name), by name: name, argh and help, ending in a
	 * zero entry */
	const struct cli_opt *help_override;
};

/* Applies argv's options to opts (optind restarts at 1): 0 with optind at
 * the first operand, -1 when the command is done (--help, --list-opts),
 * else the exit status after the message (EXIT_USAGE for a misused
 * option, cli_option_error's). */
int cli_opts_parse(const struct cli_opts *spec, int argc, char **argv, void *opts);

/* The command's --help: head (the usage line and what the command does),
 * a line or more for each option of spec's table with help text, in the
 * table's order with the included tables in their places (the names, the value's name,
 * the text wrapped under a column), then tail (notes, examples), either
 * NULL for none. */
void cli_opts_usage(FILE *out, const struct cli_opts *spec, const char *head, const char *tail);

/* For a command's own quiet pass over argv (top's, for --config before its
 * file is read): getopt_long's long and short options of spec (free() both),
 * and the entry of spec's table that getopt_long's return c names, NULL
 * for none (an error). */
void cli_opts_getopt_tables(const struct cli_opts *spec, struct option **longopts,
                            char **shortopts);
const struct cli_opt *cli_opts_entry(const struct cli_opts *spec, int c);

/* The word of argv that getopt_long is at, while it parses: the one it
 * took option c (and its value) from, or the cluster of short options
 * whose letter c it stopped in ("-hq": getopt_long moves past a word only
 * at its last letter, so the word is still ahead). Tells how an option
 * was written: -h prints usage as perf's usage_with_options (stderr,
 * status 129), --help as its help (stdout, 0). */
const char *cli_current_word(char **argv, int c);

#endif
