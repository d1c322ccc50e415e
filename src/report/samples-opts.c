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

/* -F's next column; false with err for one given twice. */
static bool add_col(struct rs_opts *o, enum rs_col_kind kind, enum rs_key key, const char *opt,
                    const char *s, size_t n, char *err, size_t errlen)
{
	for (unsigned i = 0; i < o->nr_col; i++)
		if (o->col[i].kind == kind && (kind != RS_COL_KEY || o->col[i].key == key)) {
			str_seterr(err, errlen, "%s: '%.*s' given twice", opt, (int)n, s);
			return false;
		}
	if (o->nr_col == RS_MAX_COLS) {
		str_seterr(err, errlen, "%s: too many fields", opt);
		return false;
	}
	o->col[o->nr_col++] = (struct rs_col){kind, key};
	return true;
}

/* The keys and columns of --sort or -F (fields: -F's, which shows only
 * the columns it names, in its order). */
static int parse_keys(const char *s, struct rs_opts *o, bool fields, const char *opt, char *err,
                      size_t errlen)
{
	/* by enum rs_key; "sym_size" is hpmstat's spelling beside perf's
	 * (as sym beside perf's symbol) */
	static const char *const names[] = {"comm",   "dso",      "sym",         "pid",     "cpu",
	                                    "socket", "dso_size", "symbol_size", "sym_size"};
	enum { NR_NAMES = sizeof(names) / sizeof(names[0]) };
	o->nr_key = 0;
	o->fields = fields;
	if (fields) {
		o->no_children_col = true; /* unless overhead_children */
		o->no_overhead = true;
		o->show_samples = o->show_period = false;
		o->nr_col = 0;
	}
	bool any = false;
	while (*s) {
		size_t n = strcspn(s, ",");
		unsigned k;
		for (k = 0; k < NR_NAMES; k++)
			if (strlen(names[k]) == n && strncmp(s, names[k], n) == 0)
				break;
		if (k == NR_NAMES - 1)
			k = RS_KEY_SYM_SIZE;
#define IS(w) (n == strlen(w) && strncmp(s, w, n) == 0)
		if (k == NR_NAMES && (IS("overhead") || IS("sample") || IS("period") ||
		                      (fields && IS("overhead_children")))) {
			/* perf's output fields: --sort shows Overhead anyway */
			enum rs_col_kind kind = RS_COL_CHILDREN;
			if (IS("overhead"))
				o->no_overhead = false, kind = RS_COL_SELF;
			else if (IS("sample"))
				o->show_samples = true, kind = RS_COL_SAMPLES;
			else if (IS("period"))
				o->show_period = true, kind = RS_COL_PERIOD;
			else
				o->no_children_col = false;
			if (fields && !add_col(o, kind, 0, opt, s, n, err, errlen))
				return -1;
			any = true;
			s += n;
			if (*s == ',' && !*++s) {
				str_seterr(err, errlen, "%s: empty key", opt);
				return -1;
			}
			continue;
		}
#undef IS
		if (k == NR_NAMES) {
			str_seterr(
			    err, errlen,
			    "%s: unknown key '%.*s' (keys: comm, dso, sym, pid, cpu, socket, "
			    "dso_size, symbol_size; fields: "
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
		if (fields && !add_col(o, RS_COL_KEY, (enum rs_key)k, opt, s, n, err, errlen))
			return -1;
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
	if (parse_keys(s, o, false, "--sort", err, errlen))
		return -1;
	/* perf report appends its ipc_null key to a sort order holding
	 * "symbol" (symbol_size's too), without branch stacks; sym_size is
	 * symbol_size */
	if ((strstr(s, "symbol") || strstr(s, "sym_size")) && o->nr_key < RS_MAX_KEYS)
		o->key[o->nr_key++] = RS_KEY_IPC_NULL;
	return 0;
}

int rs_parse_fields(const char *s, struct rs_opts *o, char *err, size_t errlen)
{
	return parse_keys(s, o, true, "-F", err, errlen);
}
