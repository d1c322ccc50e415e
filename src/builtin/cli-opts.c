/* cli-opts.c: a command's options from its declarative table (cli-opts.h). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/cli-opts.h"
#include "builtin/cli.h"
#include "builtin/fields.h"
#include "util/xalloc.h"

/* What getopt_long returns for an entry without a short name: past every
 * char. */
#define CLI_OPT_LONG_VAL 256

/* A command's options in order, the included tables' in their places and
 * those its features lack left out: what getopt_long, the parse and
 * --help read. */
struct flat_opts {
	const struct cli_opt **opt;
	bool *included; /* applies to include_ctx */
	size_t n;
};

static bool has_features(const struct cli_opts *spec, const struct cli_opt *o)
{
	return (o->needs & ~spec->features) == 0;
}

static void flatten_table(const struct cli_opts *spec, const struct cli_opt *t, bool included,
                          struct flat_opts *f, size_t *cap)
{
	for (; t->name || t->short_name || t->kind == CLI_OPT_INCLUDE; t++) {
		if (!has_features(spec, t))
			continue;
		if (t->kind == CLI_OPT_INCLUDE) {
			flatten_table(spec, t->include, true, f, cap);
			continue;
		}
		if (f->n == *cap) {
			*cap = *cap ? 2 * *cap : 32;
			f->opt = xrealloc(f->opt, *cap * sizeof(*f->opt));
			f->included = xrealloc(f->included, *cap * sizeof(*f->included));
		}
		f->opt[f->n] = t;
		f->included[f->n++] = included;
	}
}

static struct flat_opts flatten(const struct cli_opts *spec)
{
	struct flat_opts f = {0};
	size_t cap = 0;
	flatten_table(spec, spec->table, false, &f, &cap);
	return f;
}

static void flat_free(struct flat_opts *f)
{
	free(f->opt);
	free(f->included);
}

static int opt_val(const struct flat_opts *f, size_t i)
{
	return f->opt[i]->short_name ? f->opt[i]->short_name : CLI_OPT_LONG_VAL + (int)i;
}

/* getopt_long's long options, in the options' order; free() it. */
static struct option *build_longopts(const struct flat_opts *f)
{
	struct option *all = xcalloc(f->n + 1, sizeof(*all));
	size_t k = 0;
	for (size_t i = 0; i < f->n; i++)
		if (f->opt[i]->name)
			all[k++] = (struct option){f->opt[i]->name, f->opt[i]->has_arg, NULL,
			                           opt_val(f, i)};
	return all; /* zeroed past k: the end marker */
}

/* getopt's short options: the prefix, then each short name with ':' for
 * a value and "::" for an optional one. */
static char *build_shortopts(const struct cli_opts *spec, const struct flat_opts *f)
{
	size_t k = strlen(spec->prefix);
	char *s = xmalloc(k + 3 * f->n + 1);
	memcpy(s, spec->prefix, k);
	for (size_t i = 0; i < f->n; i++) {
		const struct cli_opt *o = f->opt[i];
		if (!o->short_name)
			continue;
		s[k++] = (char)o->short_name;
		for (int a = 0; a < o->has_arg; a++)
			s[k++] = ':';
	}
	s[k] = '\0';
	return s;
}

/* The index of the entry getopt_long's c names, f->n for none. */
static size_t index_of(const struct flat_opts *f, int c)
{
	if (c >= CLI_OPT_LONG_VAL && (size_t)(c - CLI_OPT_LONG_VAL) < f->n &&
	    !f->opt[c - CLI_OPT_LONG_VAL]->short_name)
		return (size_t)(c - CLI_OPT_LONG_VAL);
	for (size_t i = 0; c > 0 && c < CLI_OPT_LONG_VAL && i < f->n; i++)
		if (f->opt[i]->short_name == c)
			return i;
	return f->n;
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
	uint64_t n;
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
	case CLI_OPT_LEVEL:
		opt_label(o, label, sizeof(label));
		if (cli_parse_topdown_level(label, arg, &n))
			return EXIT_FAILURE;
		*(unsigned *)(void *)field = (unsigned)n;
		return 0;
	case CLI_OPT_MODEL:
		*(const struct hpm_pmu_model **)(void *)field = fields_model_by_name(arg);
		return *(const struct hpm_pmu_model **)(void *)field ? 0 : EXIT_FAILURE;
	case CLI_OPT_CALL:
		return o->call(opts, arg);
	case CLI_OPT_CALL_ID:
		return o->call_id(opts, o->id, arg);
	case CLI_OPT_PAIR:    /* cli_opts_parse's take_pair */
	case CLI_OPT_INCLUDE: /* flattened */
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

/* The option's --help line; help_override's text where it names the
 * (included) option. */
static void usage_line(FILE *out, const struct cli_opts *spec, const struct cli_opt *o,
                       bool included)
{
	const struct cli_opt *text = o;
	for (const struct cli_opt *d = spec->help_override; included && d && d->name; d++)
		if (strcmp(d->name, o->name) == 0)
			text = d;
	if (!text->help)
		return;
	char names[96], argh[64];
	const char *a = text->argh;
	if (a && o->argh2) { /* "BASE NEW" */
		snprintf(argh, sizeof(argh), "%s %s", a, o->argh2);
		a = argh;
	}
	int pos = usage_names(o->name, o->short_name, o->has_arg, a, names, sizeof(names));
	fputs(names, out);
	usage_text(out, pos, text->help);
}

void cli_opts_usage(FILE *out, const struct cli_opts *spec, const char *head, const char *tail)
{
	struct flat_opts f = flatten(spec);
	if (head)
		fputs(head, out);
	for (size_t i = 0; i < f.n; i++)
		usage_line(out, spec, f.opt[i], f.included[i]);
	if (tail)
		fputs(tail, out);
	flat_free(&f);
}

void cli_opts_getopt_tables(const struct cli_opts *spec, struct option **longopts, char **shortopts)
{
	struct flat_opts f = flatten(spec);
	*longopts = build_longopts(&f);
	*shortopts = build_shortopts(spec, &f);
	flat_free(&f);
}

const struct cli_opt *cli_opts_entry(const struct cli_opts *spec, int c)
{
	struct flat_opts f = flatten(spec);
	size_t i = index_of(&f, c);
	const struct cli_opt *o = i < f.n ? f.opt[i] : NULL;
	flat_free(&f);
	return o;
}

/* An optional value given as the next argument: one o's is_word takes. */
static const char *next_word(const struct cli_opt *o, int argc, char **argv)
{
	if (o->is_word && optind < argc && o->is_word(argv[optind]))
		return argv[optind++];
	return NULL;
}

/* A PAIR option's second value, the next argument; its first came as
 * getopt's ("--diff=BASE" is refused: both follow the option). */
static int take_pair(const struct cli_opt *o, void *opts, int argc, char **argv, const char *first)
{
	if (strchr(argv[optind - 1], '='))
		return cli_usage_error("--%s takes %s and %s as the next two arguments", o->name,
		                       o->argh, o->argh2);
	if (optind >= argc)
		return cli_usage_error("--%s needs %s and %s", o->name, o->argh, o->argh2);
	return o->call_pair(opts, first, argv[optind++]);
}

const char *cli_current_word(char **argv, int c)
{
	const char *next = argv[optind];
	if (next && next[0] == '-' && next[1] != '-' && c > 0 && strchr(next + 1, c))
		return next;
	return argv[optind - 1];
}

int cli_opts_parse(const struct cli_opts *spec, int argc, char **argv, void *opts)
{
	struct flat_opts f = flatten(spec);
	struct option *longopts = build_longopts(&f);
	char *shortopts = build_shortopts(spec, &f);
	int c, rc = 0;

	opterr = 0;
	optind = 1;
	if (argc > 1 && strcmp(argv[1], "--list-opts") == 0) {
		rc = list_opts(longopts);
		goto out;
	}
	while (!rc && (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		size_t i = c == ':' || c == '?' ? f.n : index_of(&f, c);
		const struct cli_opt *o = i < f.n ? f.opt[i] : NULL;
		void *target = o && f.included[i] ? spec->include_ctx : opts;
		if (o && o->kind == CLI_OPT_PAIR)
			rc = take_pair(o, target, argc, argv, optarg);
		else if (o && o->kind == CLI_OPT_HELP &&
		         strncmp(cli_current_word(argv, c), "--", 2) != 0)
			/* -h as perf's (usage_with_options): the options on
			 * standard error, the usage status; --help prints them
			 * on standard output and the command is done (0) */
			rc = (cli_print_usage(stderr), EXIT_USAGE);
		else if (o)
			rc = apply(o, target, optarg ? optarg : next_word(o, argc, argv));
		else if (c == 1 && spec->operand)
			rc = spec->operand(opts, optarg);
		else if (c == ':' && (i = index_of(&f, optopt)) < f.n &&
		         f.opt[i]->kind == CLI_OPT_PAIR)
			rc = take_pair(f.opt[i], opts, argc, argv, NULL);
		else if (spec->bad_option)
			rc = spec->bad_option(opts, c, argv, longopts);
		else
			rc = cli_option_error(c, argv, longopts);
	}
out:
	free(shortopts);
	free(longopts);
	flat_free(&f);
	return rc;
}
