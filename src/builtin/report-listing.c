/* report-listing.c: perf report's listings of a perf.data, beside or
 * instead of the samples report (report-listing.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/cli.h"
#include "builtin/report-input.h"
#include "builtin/report-listing.h"
#include "report/header.h"
#include "report/samples.h"
#include "util/outfile.h"

const char *report_listing_name(enum rs_listing what)
{
	static const char *const name[] = {"--stats", "--tasks", "--mmaps"};
	return name[what];
}

/* --header's and --header-only's rules: 0, or the exit status. */
int report_check_listing(const char *path, const struct report_listing *o)
{
	if (!o->header && !o->header_only)
		return 0;
	if (strcmp(path, "-") == 0) {
		cli_error("--header%s: the listing is of a perf.data file, not of standard input",
		          o->header_only ? "-only" : "");
		return EXIT_FAILURE;
	}
	if (!o->text)
		return cli_usage_error("--header%s: the text format's (perf's listing)",
		                       o->header_only ? "-only" : "");
	return 0;
}

/* --header's listing of path on out (nothing without --header): 0, or -1
 * after the message. */
int report_header_before(const char *path, const struct report_listing *o, FILE *out)
{
	char err[512];
	if (!o->header)
		return 0;
	if (rs_header_fprintf(path, o->show_info, out, err, sizeof(err)) == 0)
		return 0;
	cli_error("%s", err);
	return -1;
}

/* --header-only: perf's listing of path alone, on standard output or in
 * -o's file. */
int report_header_only(const char *path, const struct report_listing *o)
{
	char err[512];
	struct cli_output out = {0};
	FILE *f = stdout;
	if (o->output && strcmp(o->output, "-") != 0) {
		if (cli_output_open(&out, o->output, false))
			return EXIT_FAILURE;
		f = cli_output_stream(&out);
	}
	if (rs_header_fprintf(path, o->show_info, f, err, sizeof(err)) != 0) {
		if (f != stdout)
			cli_output_abort(&out);
		cli_error("%s", err);
		return EXIT_FAILURE;
	}
	if (f != stdout)
		return cli_output_commit(&out) ? EXIT_FAILURE : 0;
	return fflush(stdout) || ferror(stdout) ? EXIT_FAILURE : 0;
}

/* --stats, --tasks, --mmaps: perf's listing of path (after --header's
 * and the filters' one-value lines, as perf), built in memory so that a
 * failure prints nothing, then on standard output or in -o's file. */
int report_records_listing(const char *path, const struct report_listing *o)
{
	char err[512], *buf = NULL;
	size_t len = 0;
	struct rs_opts ro = {0};
	enum rs_listing what = o->list[RS_LIST_STATS]   ? RS_LIST_STATS
	                       : o->list[RS_LIST_MMAPS] ? RS_LIST_MMAPS
	                                                : RS_LIST_TASKS;
	if (o->list[RS_LIST_STATS] && (o->list[RS_LIST_TASKS] || o->list[RS_LIST_MMAPS]))
		return cli_usage_error("--tasks and --mmaps can't be used together with --stats");
	if (!o->text)
		return cli_usage_error("%s: the text format's (perf's listing)",
		                       report_listing_name(what));
	if ((o->sort && rs_parse_sort(o->sort, &ro, err, sizeof(err)) != 0) ||
	    (!o->sort && o->fields && rs_parse_fields(o->fields, &ro, err, sizeof(err)) != 0))
		return cli_usage_error("%s", err);
	if (report_check_listing(path, o))
		return EXIT_FAILURE;
	if (o->output && strcmp(o->output, "-") != 0 && outfile_same(o->output, path)) {
		cli_error("-o '%s' is the input '%s': refusing to overwrite it", o->output, path);
		return EXIT_FAILURE;
	}
	int in = strcmp(path, "-") == 0 ? report_input_stdin() : -2, rc = EXIT_FAILURE;
	FILE *m = in == -1 ? NULL : open_memstream(&buf, &len);
	if (!m || report_header_before(path, o, m))
		goto out;
	/* perf's sort__setup_elide: a sort key's filter of one value */
	static const enum rs_key def[] = {RS_KEY_COMM, RS_KEY_DSO, RS_KEY_SYM};
	const char *one[] = {[RS_KEY_COMM] = o->comms,
	                     [RS_KEY_DSO] = o->dsos,
	                     [RS_KEY_SYM] = o->symbols,
	                     [RS_KEY_PID] = NULL};
	static const char *const key_name[] = {"comm", "dso", "symbol", "pid"};
	for (unsigned k = 0; k < (ro.nr_key ? ro.nr_key : 3); k++) {
		enum rs_key key = ro.nr_key ? ro.key[k] : def[k];
		if (one[key] && *one[key] && !strchr(one[key], ','))
			fprintf(m, "# %s: %s\n", key_name[key], one[key]);
	}
	if (rs_listing_fprintf(in >= 0 ? "standard input" : path, in, what, m, err, sizeof(err))) {
		cli_error("%s", err);
		goto out;
	}
	fclose(m);
	m = NULL;
	struct cli_output out = {0};
	if (o->output && strcmp(o->output, "-") != 0) {
		if (!cli_output_open(&out, o->output, false)) {
			fwrite(buf, 1, len, cli_output_stream(&out));
			rc = cli_output_commit(&out) ? EXIT_FAILURE : 0;
		}
	} else {
		rc = fwrite(buf, 1, len, stdout) != len || fflush(stdout) ? EXIT_FAILURE : 0;
	}
out:
	if (m)
		fclose(m);
	if (in >= 0)
		close(in);
	free(buf);
	return rc;
}
