/* samples-opts.c: the samples report's words of options (samples.h):
 * --format's names, perf's --sort keys and -F fields. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report/samples.h"
#include "util/str.h"

int rs_format_parse(const char *s, enum rs_format *out)
{
	static const char *const names[] = {"text", "csv", "json", "md", "html", "folded"};
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum rs_format)i;
			return 0;
		}
	return -1;
}

/* The keys and columns of --sort or -F (fields: -F's, which shows only
 * the columns it names). */
static int parse_keys(const char *s, struct rs_opts *o, bool fields, const char *opt, char *err,
                      size_t errlen)
{
	static const char *const names[] = {"comm", "dso", "sym", "pid"};
	o->nr_key = 0;
	o->fields = fields;
	if (fields) {
		o->no_children_col = true; /* unless overhead_children */
		o->no_overhead = true;
		o->show_samples = o->show_period = false;
	}
	bool any = false;
	while (*s) {
		size_t n = strcspn(s, ",");
		unsigned k;
		for (k = 0; k < 4; k++)
			if (strlen(names[k]) == n && strncmp(s, names[k], n) == 0)
				break;
#define IS(w) (n == strlen(w) && strncmp(s, w, n) == 0)
		if (k == 4 && (IS("overhead") || IS("sample") || IS("period") ||
		               (fields && IS("overhead_children")))) {
			/* perf's output fields: --sort shows Overhead anyway */
			if (IS("overhead"))
				o->no_overhead = false;
			else if (IS("sample"))
				o->show_samples = true;
			else if (IS("period"))
				o->show_period = true;
			else
				o->no_children_col = false;
			any = true;
			s += n;
			if (*s == ',' && !*++s) {
				str_seterr(err, errlen, "%s: empty key", opt);
				return -1;
			}
			continue;
		}
#undef IS
		if (k == 4) {
			str_seterr(err, errlen,
			           "%s: unknown key '%.*s' (keys: comm, dso, sym, pid; fields: "
			           "overhead, %ssample, period)",
			           opt, (int)n, s, fields ? "overhead_children, " : "");
			return -1;
		}
		for (unsigned j = 0; j < o->nr_key; j++)
			if (o->key[j] == (enum rs_key)k) {
				str_seterr(err, errlen, "%s: key '%s' given twice", opt, names[k]);
				return -1;
			}
		if (o->nr_key == RS_MAX_KEYS) {
			str_seterr(err, errlen, "%s: too many keys", opt);
			return -1;
		}
		o->key[o->nr_key++] = (enum rs_key)k;
		s += n;
		if (*s == ',' && !*++s) {
			str_seterr(err, errlen, "%s: empty key", opt);
			return -1;
		}
	}
	if (!o->nr_key && !(fields && any)) {
		str_seterr(err, errlen, "%s: no key", opt);
		return -1;
	}
	return 0;
}

int rs_parse_sort(const char *s, struct rs_opts *o, char *err, size_t errlen)
{
	return parse_keys(s, o, false, "--sort", err, errlen);
}

int rs_parse_fields(const char *s, struct rs_opts *o, char *err, size_t errlen)
{
	return parse_keys(s, o, true, "-F", err, errlen);
}
