/* hpmstat.c: the entry point: global options and subcommand dispatch.
 *
 * Owns: the table of subcommands and the shared CLI diagnostics. Each
 * subcommand lives in its own file under src/builtin/.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "kmh/kmh.h"
#include "util/str.h"

const struct cmd_desc hpm_commands[] = {
    {"stat", cmd_stat, "Count events and compute Topdown, as perf stat", cmd_stat_usage},
    {"list", cmd_list, "List events, metrics and metric groups, as perf list", cmd_list_usage},
    {"encode", cmd_encode, "Encode event expressions into mhpmevent values", cmd_encode_usage},
    {"decode", cmd_decode, "Decode mhpmevent values into fields and events", cmd_decode_usage},
    {"emu", cmd_emu, "Run the Kunminghu HPM emulator", cmd_emu_usage},
    {"report", cmd_report, "Report Topdown from run files, text to HTML, and diffs",
     cmd_report_usage},
    {"top", cmd_top, "Live Topdown view of harts, CPUs and processes", cmd_top_usage},
    {"help", cmd_help, "Show help for hpmstat or one command", cmd_help_usage},
    {NULL, NULL, NULL, NULL},
};

const char *cli_cmd = "";

const struct cmd_desc *hpm_command_find(const char *name)
{
	for (const struct cmd_desc *c = hpm_commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

/* Every diagnostic is one line: control characters that came from the
 * user's input are escaped here, once for all messages. */
static void cli_vmsg(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static void cli_vmsg(const char *fmt, va_list ap)
{
	char msg[1024], esc[1024];
	fflush(stdout);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	str_escape(msg, esc, sizeof(esc));
	if (*cli_cmd)
		fprintf(stderr, "hpmstat %s: %s\n", cli_cmd, esc);
	else
		fprintf(stderr, "hpmstat: %s\n", esc);
}

int cli_die_of_signal(int sig)
{
	fflush(NULL);
	signal(sig, SIG_DFL);
	raise(sig);
	return 128 + sig;
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cli_vmsg(fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cli_vmsg(fmt, ap);
	va_end(ap);
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	char msg[1024];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cli_error("%s (see 'hpmstat %s%s--help')", msg, cli_cmd, *cli_cmd ? " " : "");
	return EXIT_USAGE;
}

/* The long option that "--NAME[=...]" (ARG past its dashes) selects as
 * getopt_long does: the exact name, else the only one NAME abbreviates;
 * NULL when none or several do (*nr_matches says how many). */
static const struct option *long_option_named(const char *arg, const struct option *longopts,
                                              unsigned *nr_matches)
{
	size_t len = strcspn(arg, "=");
	const struct option *found = NULL;
	*nr_matches = 0;
	for (const struct option *o = longopts; o->name; o++) {
		if (strncmp(o->name, arg, len) != 0)
			continue;
		if (o->name[len] == '\0') {
			*nr_matches = 1;
			return o;
		}
		found = o;
		++*nr_matches;
	}
	return *nr_matches == 1 ? found : NULL;
}

int cli_option_error(int c, char **argv, const struct option *longopts)
{
	/* getopt has moved optind past a long option's word (and past a short
	 * one only when it was the last of its cluster), so argv[optind - 1]
	 * is the word only where the checks below say so */
	const char *word = optind > 1 ? argv[optind - 1] : "";
	const char *name = strncmp(word, "--", 2) == 0 ? word + 2 : NULL;
	unsigned nr;
	const struct option *lo = name ? long_option_named(name, longopts, &nr) : NULL;
	int len = name ? (int)strcspn(name, "=") : 0;

	if (c == ':') {
		if (name && lo && lo->has_arg == required_argument && !strchr(name, '='))
			return cli_usage_error("option '--%s' needs a value", lo->name);
		return cli_usage_error("option '-%c' needs a value", optopt);
	}
	if (optopt == 0 && name) {
		if (nr > 1) {
			char cands[512];
			size_t used = 0;
			cands[0] = '\0';
			for (const struct option *o = longopts; o->name; o++)
				if (strncmp(o->name, name, (size_t)len) == 0 &&
				    used < sizeof(cands))
					used +=
					    (size_t)snprintf(cands + used, sizeof(cands) - used,
					                     "%s--%s", used ? ", " : "", o->name);
			return cli_usage_error("ambiguous option '--%.*s' (%s)", len, name, cands);
		}
		return cli_usage_error("unknown option '--%.*s'", len, name);
	}
	/* a known long option given "=value": getopt reports its val */
	if (name && lo && lo->has_arg == no_argument && lo->val == optopt && strchr(name, '='))
		return cli_usage_error("option '--%s' takes no value", lo->name);
	return cli_usage_error("unknown option '-%c'", optopt);
}

/* The reading of cli_parse_u64: 0, or -1 with the one-line message in msg. */
static int parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out,
                     char *msg, size_t len)
{
	const char *p = s;
	uint64_t v;
	int rc;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p) {
		snprintf(msg, len, "%s: the value is empty", opt);
		return -1;
	}
	/* a sign, then what must be a digit (no rHEX: that is an event) */
	bool negative = *p == '-';
	if (*p == '-' || *p == '+')
		p++;
	if (!isdigit((unsigned char)*p)) {
		snprintf(msg, len, "%s '%s': not a number", opt, s);
		return -1;
	}
	if (strpbrk(p, "eE") && !strpbrk(p, "xX")) {
		/* 1e9 reads as a number of cycles too */
		char *end;
		errno = 0;
		double d = strtod(p, &end);
		while (isspace((unsigned char)*end))
			end++;
		if (*end) {
			snprintf(msg, len, "%s '%s': not a number", opt, s);
			return -1;
		}
		if (d != floor(d)) {
			snprintf(msg, len, "%s '%s': not a whole number", opt, s);
			return -1;
		}
		/* 2^64 is the first double past UINT64_MAX */
		rc = errno == ERANGE || d >= 18446744073709551616.0 ? STR_PARSE_ERANGE
		                                                    : STR_PARSE_OK;
		v = rc ? UINT64_MAX : (uint64_t)d;
	} else {
		rc = str_parse_u64(p, &v, NULL, 0);
	}
	if (rc == STR_PARSE_ENUMBER) {
		snprintf(msg, len, "%s '%s': not a number", opt, s);
		return -1;
	}
	/* a value no uint64_t holds is "out of range"; one it holds keeps the
	 * shorter message scripts have matched since the first release */
	if (rc != 0 || (negative && v != 0)) {
		snprintf(msg, len, "%s '%s': out of range, must be %llu to %llu", opt, s,
		         (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	if (v < min || v > max) {
		snprintf(msg, len, "%s '%s': must be %llu to %llu", opt, s, (unsigned long long)min,
		         (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char msg[512];
	if (parse_u64(opt, s, min, max, out, msg, sizeof(msg)) == 0)
		return 0;
	cli_error("%s", msg);
	return -1;
}

int cli_parse_u64_usage(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char msg[512];
	if (parse_u64(opt, s, min, max, out, msg, sizeof(msg)) == 0)
		return 0;
	return cli_usage_error("%s", msg);
}

void cli_print_usage(FILE *out)
{
	const struct cmd_desc *c = hpm_command_find(cli_cmd);
	if (c)
		fputs(c->usage, out);
}

int cli_finish(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		int e = errno;
		fprintf(stderr, "hpmstat%s%s: error writing output: %s\n", *cli_cmd ? " " : "",
		        cli_cmd, strerror(e ? e : EIO));
		return status ? status : EXIT_FAILURE;
	}
	return status;
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

int main(int argc, char **argv)
{
	/* installed as hpmtop too: the name picks the command */
	const char *base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	if (strcmp(base, "hpmtop") == 0) {
		cli_cmd = "top";
		return cli_finish(cmd_top(argc, argv));
	}
	if (argc < 2) {
		hpm_usage(stderr);
		return EXIT_USAGE;
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
	if (!c && name[0] == '-' && strcmp(name, "-") != 0) {
		cli_cmd = "stat";
		return cli_finish(cmd_stat(argc, argv));
	}
	if (!c) {
		if (name[0] == '-')
			return cli_usage_error("unknown option '%s'", name);
		return cli_usage_error("'%s' is not a command", name);
	}
	cli_cmd = c->name;
	return cli_finish(c->fn(argc - 1, argv + 1));
}

/* help is tiny and needs the table above, so it lives beside it. */
const char cmd_help_usage[] = "Usage: hpmstat help [COMMAND]\n"
                              "\n"
                              "Show the list of commands, or the usage of one command.\n";

int cmd_help(int argc, char **argv)
{
	if (argc < 2) {
		hpm_usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(cmd_help_usage, stdout);
		return 0;
	}
	const struct cmd_desc *c = hpm_command_find(argv[1]);
	if (!c) {
		cli_error("'%s' is not a command", argv[1]);
		return EXIT_FAILURE;
	}
	fputs(c->usage, stdout);
	return 0;
}
