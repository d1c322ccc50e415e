/* cli.c: the diagnostics, number parsing and exit conventions every
 * subcommand shares (cli.h).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/cli.h"
#include "core/evlist.h"
#include "metric/metric.h"
#include "registry/models.h"
#include "util/outfile.h"
#include "util/str.h"

const char *cli_cmd = "";
/* What prints the running command's --help text; NULL before one is
 * chosen. */
static void (*cli_usage)(FILE *out);

void cli_set_command(const char *name, void (*usage)(FILE *out))
{
	cli_cmd = name;
	cli_usage = usage;
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

static const char *usage_prefix;

void cli_set_usage_prefix(const char *prefix)
{
	usage_prefix = prefix;
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	char msg[1024];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cli_error("%s%s (see 'hpmstat %s%s--help')", usage_prefix ? usage_prefix : "", msg, cli_cmd,
	          *cli_cmd ? " " : "");
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

int cli_parse_topdown_level(const char *opt, const char *s, uint64_t *out)
{
	unsigned max = 0;
	for (unsigned i = 0; i < hpm_model_count(); i++) {
		const struct metric_table *t = hpm_model_at(i)->metrics;
		if (t && metric_max_level(t) > max)
			max = metric_max_level(t);
	}
	return cli_parse_u64(opt, s, 1, max, out);
}

void cli_print_usage(FILE *out)
{
	if (cli_usage)
		cli_usage(out);
}

int cli_finish(int status)
{
	int e;
	errno = 0;
	if (fflush(stdout) != 0)
		e = errno;
	else if (ferror(stdout))
		/* an earlier write failed and errno has moved on since: a closed
		 * descriptor says so itself (EBADF), anything else is EIO */
		e = fcntl(STDOUT_FILENO, F_GETFL) < 0 ? errno : EIO;
	else
		return status;
	fprintf(stderr, "hpmstat%s%s: error writing output: %s\n", *cli_cmd ? " " : "", cli_cmd,
	        strerror(e ? e : EIO));
	return status ? status : EXIT_FAILURE;
}

void cli_output_error(const struct cli_output *o, int e)
{
	if (!o->path || (o->dash_named && strcmp(o->path, "-") == 0))
		cli_error("cannot write to standard %s: %s", o->path ? "output" : "error",
		          strerror(e));
	else
		cli_error("cannot write '%s': %s", o->path, strerror(e));
}

int cli_output_open(struct cli_output *o, const char *path, bool append)
{
	int r = 0;
	o->path = path;
	if (!path)
		r = (o->of = outfile_fd(STDERR_FILENO, "standard error")) ? 0 : -ENOMEM;
	else if (append)
		r = outfile_open_append(path, &o->of);
	else
		r = outfile_open(path, &o->of);
	if (r) {
		cli_output_error(o, -r);
		return -1;
	}
	return 0;
}

FILE *cli_output_stream(const struct cli_output *o)
{
	return outfile_stream(o->of);
}

int cli_output_commit(struct cli_output *o)
{
	if (!o->of)
		return 0;
	int r = outfile_commit(o->of);
	o->of = NULL;
	if (r) {
		cli_output_error(o, -r);
		return -1;
	}
	return 0;
}

void cli_output_abort(struct cli_output *o)
{
	outfile_abort(o->of);
	o->of = NULL;
}

void cli_note_event_facts(const struct hpm_evlist *l)
{
	for (unsigned i = 0; i < l->nr; i++) {
		const struct hpm_evsel *e = &l->ev[i];
		const struct hpm_pmu_model *m = e->enc.model;
		char note[512];
		bool warning, said = false;
		if (e->kind != HPM_EV_MODEL || !m || !m->event_note ||
		    !m->event_note(m, &e->enc, note, sizeof(note), &warning))
			continue;
		/* the same event asked twice (or by a metric) gets one line */
		for (unsigned j = 0; j < i && !said; j++) {
			const struct hpm_evsel *p = &l->ev[j];
			said = p->kind == HPM_EV_MODEL && p->enc.model == m &&
			       p->enc.value == e->enc.value &&
			       p->enc.constraint == e->enc.constraint;
		}
		if (!said)
			cli_warn("%s: '%s': %s", warning ? "warning" : "note", e->name, note);
	}
}
