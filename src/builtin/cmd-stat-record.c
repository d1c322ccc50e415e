/* cmd-stat-record.c: hpmstat stat record and hpmstat stat report, perf's
 * subcommands of stat.
 *
 * `stat record [stat options] [-o FILE] [--] command` counts as stat does
 * and writes the format of perf stat record (stat/perf-stat.h) with perf's
 * defaults: the file is perf.data (so perf stat report and a script of
 * perf's find it where perf puts it), an old one is kept as FILE.old, and
 * `-o -` (or no -o when standard output is a pipe) writes perf's pipe
 * format to standard output and prints nothing else. `stat report [-i
 * FILE]` reads such a file (hpmstat's or perf's, report/perf-run.h) or a
 * run file (hpmstat-run(5), JSON) and prints the run through the printers
 * of stat, as perf stat report does, on standard error: a file read from
 * standard input (a pipe) is "for 'pipe'", as in perf.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "builtin/cli-opts.h"
#include "builtin/cmd-stat-record.h"
#include "perfdata/reader.h"
#include "report/perf-run.h"
#include "report/replay.h"
#include "util/readall.h"
#include "util/xalloc.h"

enum stat_subcommand stat_subcommand(const char *word)
{
	size_t n = strlen(word);
	/* perf: strlen > 2 && strstarts("record", word) */
	if (n > 2 && strncmp("record", word, n) == 0)
		return STAT_SUB_RECORD;
	if (n > 2 && strncmp("report", word, n) == 0)
		return STAT_SUB_REPORT;
	return STAT_SUB_NONE;
}

int stat_record_paths(const char **output, const char *record, const char **data, unsigned repeat)
{
	if (repeat > 1)
		return cli_usage_error("-r cannot be used with stat record, as in perf");
	if (record)
		return cli_usage_error(
		    "stat record: --record '%s': stat record writes perf's perf.data (-o); "
		    "'hpmstat stat --record FILE' writes a run file",
		    record);
	/* perf: without -o a pipe on standard output is written, else perf.data */
	struct stat st;
	bool stdout_pipe = !fstat(STDOUT_FILENO, &st) && S_ISFIFO(st.st_mode);
	*data = *output ? *output : stdout_pipe ? "-" : STAT_RECORD_DEFAULT;
	*output = strcmp(*data, "-") == 0 ? "/dev/null" : NULL;
	return 0;
}

int stat_record_backup(const char *path)
{
	struct stat st;
	if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !st.st_size)
		return 0;
	char *old = xasprintf("%s.old", path);
	int r = rename(path, old);
	if (r)
		cli_error("cannot rename '%s' to '%s': %s", path, old, strerror(errno));
	free(old);
	return r ? -1 : 0;
}

static const char stat_report_usage_head[] =
    "Usage: hpmstat stat [-x SEP | -j] report [-i FILE] [-x SEP | -j]\n"
    "\n"
    "Print the counts of a file of 'hpmstat stat record' or 'perf stat record',\n"
    "or of a run file of 'hpmstat stat --record', on standard error.\n"
    "\n";

/* --help prints the table this file ends with */
static const struct cli_opts stat_report_spec;

/* Whether the n bytes read so far can begin a run file or a perf.data: a
 * run file is JSON, blanks and then '{' or '[', and holds no control byte
 * but blanks (JSON has none, not even in its strings); a perf.data starts
 * with its magic. The bytes before `from` were looked at by an earlier
 * call. Anything else (/dev/zero, /dev/urandom, a binary file, a stream of
 * random bytes after a '{') is refused at its first block instead of read
 * to RF_MAX_BYTES: the parsers refuse what was read. */
static bool could_be_input(const char *b, size_t n, size_t from, void *unused)
{
	(void)unused;
	size_t i = 0;
	while (i < n && b[i] && strchr(" \t\r\n", b[i]))
		i++;
	if (i == n)
		return true;
	if (b[i] != '{' && b[i] != '[')
		return n < 8 || pd_is_perf_data(b, n);
	for (size_t k = from; k < n; k++) {
		unsigned char c = (unsigned char)b[k];
		if (c < 0x20 && c != '\t' && c != '\r' && c != '\n')
			return false;
	}
	return true;
}

/* The whole file (at most RF_MAX_BYTES) in *buf; 0, or -1 after a message. */
static int slurp(const char *path, char **buf, size_t *len)
{
	bool is_stdin = strcmp(path, "-") == 0;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cli_error("cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	int e = util_read_all(fd, RF_MAX_BYTES, could_be_input, NULL, buf, len);
	if (!is_stdin)
		close(fd);
	if (e == -EFBIG)
		cli_error("cannot read '%s': larger than %u bytes", path, RF_MAX_BYTES);
	else if (e)
		cli_error("cannot read '%s': %s", is_stdin ? "standard input" : path, strerror(-e));
	return e ? -1 : 0;
}

/* stat report's options; the -x and -j given before the word are the
 * defaults. */
struct stat_report_opts {
	const char *input, *sep;
	bool json;
};

static int opt_separator(void *opts, const char *arg)
{
	if (!*arg)
		return cli_usage_error("-x: the separator is empty");
	((struct stat_report_opts *)opts)->sep = arg;
	return 0;
}

/* stat report's usage: its -h on stderr (status 129), --help on stdout */
static void stat_report_usage(FILE *out)
{
	cli_opts_usage(out, &stat_report_spec, stat_report_usage_head, NULL);
}

/* The option getopt refused, as the user wrote it. */
static int bad_option(void *opts, int c, char **argv, const struct option *longopts)
{
	(void)opts;
	(void)longopts;
	if (c == ':')
		return cli_usage_error("option '%s' needs a value", argv[optind - 1]);
	return cli_usage_error("stat report: unknown option '%s'", argv[optind - 1]);
}

static const struct cli_opt stat_report_options[] = {
    CLI_STRING("input", 'i', struct stat_report_opts, input, .argh = "FILE",
               .help =
                   "the file (default: standard input when it is a pipe, else " STAT_RECORD_DEFAULT
                   "); '-' is standard input"),
    CLI_CALL("field-separator", 'x', required_argument, opt_separator, .argh = "SEP",
             .help = "CSV output with perf stat's field order"),
    CLI_FLAG("json", 'j', struct stat_report_opts, json, .help = "perf's JSON lines"),
    CLI_HELP("help", 'h', .help = "this text"),
    {0},
};

static const struct cli_opts stat_report_spec = {
    .table = stat_report_options, .prefix = ":", .bad_option = bad_option};

int cmd_stat_report(int argc, char **argv, const char *sep, bool json)
{
	struct stat_report_opts o = {.sep = sep, .json = json};
	cli_set_command(cli_cmd, stat_report_usage);
	int status = cli_opts_parse(&stat_report_spec, argc, argv, &o);
	if (status)
		return status < 0 ? 0 : status;
	const char *input = o.input;
	sep = o.sep;
	json = o.json;
	if (optind < argc)
		return cli_usage_error("stat report: unexpected argument '%s'", argv[optind]);
	if (sep && json)
		return cli_usage_error("-x and -j exclude each other");
	if (input && !*input)
		return cli_usage_error("-i: the file name is empty");
	/* perf: a pipe on standard input is read, else perf.data */
	struct stat st;
	if (!input)
		input =
		    !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ? "-" : STAT_RECORD_DEFAULT;
	bool is_pipe = strcmp(input, "-") == 0;
	const char *name = is_pipe ? "standard input" : input;

	char *buf, err[512];
	size_t len;
	if (slurp(input, &buf, &len))
		return EXIT_FAILURE;
	/* a perf.data (of perf stat record or of hpmstat stat record) by its
	 * magic; anything else is a run file (hpmstat-run(5), JSON) */
	if (pd_is_perf_data(buf, len)) {
		char *run;
		size_t run_len;
		if (perf_stat_run(buf, len, name, &run, &run_len, err, sizeof(err)) != 0) {
			cli_error("%s", err);
			free(buf);
			return EXIT_FAILURE;
		}
		free(buf);
		buf = run;
		len = run_len;
	}
	struct stat_replay r;
	int rc = stat_replay_load(buf, len, name, &r, err, sizeof(err));
	free(buf);
	if (rc) {
		cli_error("%s", err);
		stat_replay_free(&r);
		return EXIT_FAILURE;
	}
	struct stat_config *cfg = &r.cfg;
	cfg->format = json ? STAT_FORMAT_JSON : sep ? STAT_FORMAT_CSV : STAT_FORMAT_STD;
	if (sep)
		cfg->csv_sep = sep;
	cfg->out = stderr;
	/* perf: a recording read from a pipe knows no command line */
	if (is_pipe)
		cfg->command = "pipe";
	unsigned nr_iv = stat_replay_nr_intervals(&r);
	if (cfg->interval_ms > 0) {
		bool partial = cfg->emu.run.partial;
		for (unsigned k = 0; k < nr_iv; k++) {
			struct stat_result iv;
			stat_replay_interval(&r, k, &iv);
			/* only the last interval of a run cut short says so */
			cfg->emu.run.partial = partial && k + 1 == nr_iv;
			stat_print(cfg, &iv);
		}
		cfg->emu.run.partial = partial;
		if (cfg->summary) {
			struct stat_config total = *cfg;
			total.interval_ms = 0;
			stat_print(&total, &r.res);
		}
	} else {
		stat_print(cfg, &r.res);
	}
	fflush(stderr);
	rc = ferror(stderr) ? EXIT_FAILURE : 0;
	stat_replay_free(&r);
	return rc;
}
