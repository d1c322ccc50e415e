/* cli-opts.c: a command's options from its declarative table (cli-opts.h). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/cli-opts.h"
#include "builtin/cli.h"
#include "util/xalloc.h"

/* What getopt_long returns for a table entry without a short name: past
 * every char and below the spliced options' values (backend-opts.h). */
#define CLI_OPT_LONG_VAL 256

static size_t table_size(const struct cli_opt *t)
{
	size_t n = 0;
	while (t[n].name || t[n].short_name)
		n++;
	return n;
}

static size_t splice_size(const struct option *o)
{
	size_t n = 0;
	while (o && o[n].name)
		n++;
	return n;
}

static int opt_val(const struct cli_opt *t, size_t i)
{
	return t[i].short_name ? t[i].short_name : CLI_OPT_LONG_VAL + (int)i;
}

/* getopt_long's long options: the table's with the splice in its place;
 * free() it. */
static struct option *build_longopts(const struct cli_opts *spec)
{
	size_t n = table_size(spec->table), ns = splice_size(spec->splice), k = 0;
	struct option *all = xcalloc(n + ns + 1, sizeof(*all));
	for (size_t i = 0; i <= n; i++) {
		if (i == spec->splice_at)
			for (size_t j = 0; j < ns; j++)
				all[k++] = spec->splice[j];
		if (i < n && spec->table[i].name)
			all[k++] = (struct option){spec->table[i].name, spec->table[i].has_arg,
			                           NULL, opt_val(spec->table, i)};
	}
	return all; /* zeroed past k: the end marker */
}

/* getopt's short options: the prefix, then each short name with ':' for
 * a value and "::" for an optional one. */
static char *build_shortopts(const struct cli_opts *spec)
{
	size_t n = table_size(spec->table), k = strlen(spec->prefix);
	char *s = xmalloc(k + 3 * n + 1);
	memcpy(s, spec->prefix, k);
	for (size_t i = 0; i < n; i++) {
		const struct cli_opt *o = &spec->table[i];
		if (!o->short_name)
			continue;
		s[k++] = (char)o->short_name;
		for (int a = 0; a < o->has_arg; a++)
			s[k++] = ':';
	}
	s[k] = '\0';
	return s;
}

/* The entry getopt_long's c names, NULL for none of the table's. */
static const struct cli_opt *entry_of(const struct cli_opt *t, int c)
{
	size_t n = table_size(t);
	if (c >= CLI_OPT_LONG_VAL && (size_t)(c - CLI_OPT_LONG_VAL) < n &&
	    !t[c - CLI_OPT_LONG_VAL].short_name)
		return &t[c - CLI_OPT_LONG_VAL];
	for (size_t i = 0; c > 0 && c < CLI_OPT_LONG_VAL && i < n; i++)
		if (t[i].short_name == c)
			return &t[i];
	return NULL;
}

/* The option's name as the messages give it: "-r", "--interval-count". */
static void opt_label(const struct cli_opt *o, char *buf, size_t len)
{
	if (o->short_name)
		snprintf(buf, len, "-%c", o->short_name);
	else
		snprintf(buf, len, "--%s", o->name);
}

static int apply(const struct cli_opt *o, void *opts, const char *arg)
{
	char *field = (char *)opts + o->offset;
	char label[64];
	switch (o->kind) {
	case CLI_OPT_FLAG:
		*(bool *)(void *)field = true;
		return 0;
	case CLI_OPT_STRING:
		*(const char **)(void *)field = arg;
		return 0;
	case CLI_OPT_COUNT:
		++*(unsigned *)(void *)field;
		return 0;
	case CLI_OPT_U64:
		opt_label(o, label, sizeof(label));
		return cli_parse_u64(label, arg, o->min, o->max, (uint64_t *)(void *)field)
		           ? EXIT_FAILURE
		           : 0;
	case CLI_OPT_CALL:
		return o->call(opts, arg);
	case CLI_OPT_IGNORE:
		return 0;
	case CLI_OPT_HELP:
		cli_print_usage(stdout);
		return -1;
	}
	return 0;
}

/* perf's --list-opts (parse-options.c): the long names on one line, and
 * perf's exit status 130 for it. */
static int list_opts(const struct option *longopts)
{
	for (const struct option *o = longopts; o->name; o++)
		printf("--%s ", o->name);
	putchar('\n');
	return 130;
}

/* --help's layout: the text starts in this column, or two blanks after
 * names longer than it allows; lines end before USAGE_WIDTH. */
#define USAGE_TEXT_COL 28
#define USAGE_WIDTH    80

/* "  -o, --output FILE", "      --topdown[=LEVEL]", "  -g [ARG]" into buf;
 * its length. */
static int usage_names(const char *name, int short_name, int has_arg, const char *argh, char *buf,
                       size_t len)
{
	char shortpart[8] = "    ";
	if (short_name)
		snprintf(shortpart, sizeof(shortpart), "-%c%s", short_name, name ? ", " : "");
	const char *sep = !argh ? "" : has_arg == 2 && name ? "[=" : has_arg == 2 ? " [" : " ";
	int n = snprintf(buf, len, "  %s%s%s%s%s%s", shortpart, name ? "--" : "", name ? name : "",
	                 sep, argh ? argh : "", argh && has_arg == 2 ? "]" : "");
	return n < 0 ? 0 : n >= (int)len ? (int)len - 1 : n;
}

/* text wrapped at blanks into the column after a line of pos characters */
static void usage_text(FILE *out, int pos, const char *text)
{
	int col = pos + 2 > USAGE_TEXT_COL ? pos + 2 : USAGE_TEXT_COL;
	bool line_start = true;
	fprintf(out, "%*s", col - pos, "");
	pos = col;
	while (*text) {
		size_t word = strcspn(text, " ");
		if (!line_start && pos + 1 + (int)word >= USAGE_WIDTH) {
			fprintf(out, "\n%*s", USAGE_TEXT_COL, "");
			pos = USAGE_TEXT_COL;
			line_start = true;
		}
		if (!line_start) {
			fputc(' ', out);
			pos++;
		}
		fprintf(out, "%.*s", (int)word, text);
		pos += (int)word;
		line_start = false;
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

static void usage_line(FILE *out, const struct cli_opt *o, int has_arg)
{
	char names[96];
	if (!o->help)
		return;
	int pos = usage_names(o->name, o->short_name, has_arg, o->argh, names, sizeof(names));
	fputs(names, out);
	usage_text(out, pos, o->help);
}

/* The spliced option's --help line, from the command's splice_help. */
static void usage_spliced(FILE *out, const struct cli_opts *spec, const struct option *lo)
{
	for (const struct cli_opt *d = spec->splice_help; d && d->name; d++)
		if (strcmp(d->name, lo->name) == 0) {
			usage_line(out, d, lo->has_arg);
			return;
		}
}

void cli_opts_usage(FILE *out, const struct cli_opts *spec, const char *head, const char *tail)
{
	size_t n = table_size(spec->table), ns = splice_size(spec->splice);
	if (head)
		fputs(head, out);
	for (size_t i = 0; i <= n; i++) {
		if (i == spec->splice_at)
			for (size_t j = 0; j < ns; j++)
				usage_spliced(out, spec, &spec->splice[j]);
		if (i < n)
			usage_line(out, &spec->table[i], spec->table[i].has_arg);
	}
	if (tail)
		fputs(tail, out);
}

void cli_opts_getopt_tables(const struct cli_opts *spec, struct option **longopts, char **shortopts)
{
	*longopts = build_longopts(spec);
	*shortopts = build_shortopts(spec);
}

const struct cli_opt *cli_opts_entry(const struct cli_opts *spec, int c)
{
	return entry_of(spec->table, c);
}

int cli_opts_parse(const struct cli_opts *spec, int argc, char **argv, void *opts)
{
	struct option *longopts = build_longopts(spec);
	char *shortopts = build_shortopts(spec);
	int c, rc = 0;

	opterr = 0;
	optind = 1;
	if (argc > 1 && strcmp(argv[1], "--list-opts") == 0) {
		rc = list_opts(longopts);
		goto out;
	}
	while (!rc && (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct cli_opt *o = c == ':' || c == '?' ? NULL : entry_of(spec->table, c);
		if (o)
			rc = apply(o, opts, optarg);
		else if (c == 1 && spec->operand)
			rc = spec->operand(opts, optarg);
		else if (c != ':' && c != '?' && spec->other)
			rc = spec->other(spec->other_ctx, c, optarg);
		else if (spec->bad_option)
			rc = spec->bad_option(c, argv, longopts);
		else
			rc = cli_option_error(c, argv, longopts);
	}
out:
	free(shortopts);
	free(longopts);
	return rc;
}
