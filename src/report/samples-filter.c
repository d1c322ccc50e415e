/* samples-filter.c: perf report's sample filters (samples-filter.h). */
#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/samples-filter.h"
#include "util/cpulist.h"
#include "util/str.h"
#include "util/xalloc.h"

/* A span of --time, perf's perf_time_interval: an end that is 0 is
 * open. */
struct tspan {
	uint64_t start, end;
};

/* A set of strings, as perf's strlist: sorted, each once. */
struct strset {
	char **s;
	unsigned n;
	bool given; /* the option was given, even with no entry */
};

struct intset {
	long *v;
	unsigned n;
	bool given;
};

struct rs_filter {
	struct strset comm, dso, sym;
	struct intset pid, tid;
	uint64_t *addr; /* --symbols' hex entries: sample addresses */
	unsigned nr_addr;
	int *cpu; /* -C's, sorted; NULL: every CPU */
	unsigned nr_cpu;
	struct tspan *span; /* --time's; NULL: every time */
	unsigned nr_span;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool strset_has(const struct strset *l, const char *s)
{
	return l->n && bsearch(&s, l->s, l->n, sizeof(*l->s), cmp_str);
}

static void strset_add(struct strset *l, const char *s, size_t len)
{
	char *c = xstrndup(s, len);
	if (strset_has(l, c)) {
		free(c);
		return;
	}
	l->s = xrealloc(l->s, (l->n + 1) * sizeof(*l->s));
	l->s[l->n++] = c;
	qsort(l->s, l->n, sizeof(*l->s), cmp_str);
}

static void strset_free(struct strset *l)
{
	for (unsigned i = 0; i < l->n; i++)
		free(l->s[i]);
	free(l->s);
}

/* perf's strlist__parse_list: each piece before a comma (an empty one
 * too), then the rest when it is not empty */
static void strset_parse(struct strset *l, const char *s)
{
	if (!s)
		return;
	l->given = true;
	const char *c;
	while ((c = strchr(s, ',')) != NULL) {
		strset_add(l, s, (size_t)(c - s));
		s = c + 1;
	}
	if (*s)
		strset_add(l, s, strlen(s));
}

/* perf's intlist__parse_list: numbers between commas, each read whole
 * (an empty one is 0, as strtol reads it). -1 on anything else. */
static int intset_parse(struct intset *l, const char *s)
{
	if (!s)
		return 0;
	l->given = true;
	for (;;) {
		char *end;
		errno = 0;
		long v = strtol(s, &end, 10);
		if ((*end != ',' && *end) || errno)
			return -1;
		l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
		l->v[l->n++] = v;
		if (!*end)
			return 0;
		s = end + 1;
	}
}

static bool intset_has(const struct intset *l, long v)
{
	for (unsigned i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return true;
	return false;
}

/* perf's setup_addrlist: a --symbols entry that strtoul reads whole as
 * hex ("a", "0x401136", trailing blanks allowed) is a sample address,
 * out of the names */
static void split_addrs(struct rs_filter *f)
{
	unsigned kept = 0;
	for (unsigned i = 0; i < f->sym.n; i++) {
		const char *s = f->sym.s[i];
		char *end;
		errno = 0;
		unsigned long long v = strtoull(s, &end, 16);
		while (end != s && (*end == ' ' || (*end >= '\t' && *end <= '\r')))
			end++;
		if (errno || end == s || *end) {
			f->sym.s[kept++] = f->sym.s[i];
			continue;
		}
		f->addr = xrealloc(f->addr, (f->nr_addr + 1) * sizeof(*f->addr));
		f->addr[f->nr_addr++] = v;
		free(f->sym.s[i]);
	}
	f->sym.n = kept;
}

/* --time, as perf's time-utils.c reads it: the same strings accepted,
 * the same spans made, down to its quirks (a percentage's text after '%'
 * ignored, an empty piece of a percent list an open span), since a user
 * compares the two reports. */

/* perf's parse_nsec_time: seconds, then up to nine digits of a fraction
 * ("1.5" is 1500000000 ns), read by strtoull as perf reads them */
static int parse_nsec(const char *s, uint64_t *t)
{
	char *end;
	uint64_t sec = strtoull(s, &end, 10), nsec = 0;
	if (*end != '.' && *end)
		return -1;
	if (*end == '.') {
		char frac[10];
		size_t n = strlen(++end);
		if (n > 9)
			return -1;
		memcpy(frac, end, n);
		memset(frac + n, '0', 9 - n);
		frac[9] = '\0';
		nsec = strtoull(frac, &end, 10);
		if (*end)
			return -1;
	}
	*t = sec * 1000000000ull + nsec;
	return 0;
}

/* perf's perf_time__parse_str: "start,stop", either end empty (open); a
 * stop before the start is an error */
static int parse_span(const char *s, struct tspan *t)
{
	if (!*s)
		return 0;
	char *start = xstrdup(s), *stop = strchr(start, ',');
	if (stop)
		*stop++ = '\0';
	bool bad = (*start && parse_nsec(start, &t->start)) ||
	           (stop && *stop && parse_nsec(stop, &t->end));
	free(start);
	return bad || (t->end && t->end < t->start) ? -1 : 0;
}

/* perf's perf_time__parse_strs: spans apart by white space, one comma
 * each ("1,2 3,4"), in order and apart. The number of spans, or -1. */
static int parse_spans(const char *s, struct tspan *span)
{
	unsigned num = 0;
	for (const char *c = s; *c; c++)
		num += *c == ',';
	if (!num)
		return -1;
	char *str = xstrdup(s), *p = str;
	int rc = 0;
	unsigned i;
	for (i = 0; i + 1 < num && !rc; i++) {
		char *arg = p;
		/* the comma is there: each span before took one */
		p = strchr(p, ',') + 1;
		while (isspace((unsigned char)*p))
			p++;
		while (*p && !isspace((unsigned char)*p))
			if (*p++ == ',')
				rc = -1;
		if (*p)
			*p++ = '\0';
		rc = rc ? rc : parse_span(arg, &span[i]);
	}
	rc = rc ? rc : parse_span(p, &span[i]);
	for (i = 0; !rc && i + 1 < num; i++)
		if (span[i].end >= span[i + 1].start)
			rc = -1;
	free(str);
	return rc ? -1 : (int)num;
}

/* perf's parse_percent: a number before '%' (what follows is not read;
 * an empty one is 0), as a fraction */
static int parse_percent(char *s, double *frac)
{
	char *c = strchr(s, '%'), *end;
	if (!c)
		return -1;
	*c = '\0';
	double d = strtod(s, &end);
	if (*end)
		return -1;
	*frac = d / 100.0;
	return 0;
}

/* perf's set_percent_time: the span from the share from to the share to
 * of first..last, its stop one ns short unless it is the last sample's
 * time. perf lets a NaN through to a conversion whose result C leaves
 * undefined (a span that is far beyond any sample on x86-64): here a span
 * of no sample. */
static int percent_span(struct tspan *t, double from, double to, uint64_t first, uint64_t last)
{
	if (isnan(from) || isnan(to)) {
		t->start = t->end = 1ull << 63;
		return 0;
	}
	if (from < 0.0 || from > 1.0 || to < 0.0 || to > 1.0)
		return -1;
	double total = (double)(last - first);
	/* perf adds in double: its rounding, not an exact sum */
	t->start = (uint64_t)((double)first + round(from * total));
	t->end = (uint64_t)((double)first + round(to * total));
	if (t->end > t->start && t->end != last)
		t->end--;
	return 0;
}

/* "10%/2": the second slice of 10 % */
static int percent_slash(char *s, struct tspan *t, uint64_t first, uint64_t last)
{
	char *slash = strchr(s, '/'), *end;
	double frac;
	if (!slash)
		return -1;
	*slash = '\0';
	if (parse_percent(s, &frac))
		return -1;
	double n = (double)(int)strtol(slash + 1, &end, 10);
	if (*end || frac <= 0.0)
		return -1;
	return percent_span(t, frac * (n - 1), frac * n, first, last);
}

/* "0%-10%"; an empty piece is an open span, as perf's split_start_end
 * leaves it (perf crashes on a piece without '-': an error here) */
static int percent_dash(char *s, struct tspan *t, uint64_t first, uint64_t last)
{
	double from, to;
	if (!*s)
		return 0;
	char *dash = strchr(s, '-');
	if (dash)
		*dash++ = '\0';
	if (parse_percent(s, &from) || !dash || parse_percent(dash, &to))
		return -1;
	return percent_span(t, from, to, first, last);
}

/* perf's percent_comma_split: the pieces between commas, each of one
 * form; a trailing comma ends the list. The number of spans, or -1. */
static int percent_spans(const char *s, struct tspan *span, uint64_t first, uint64_t last,
                         int (*one)(char *, struct tspan *, uint64_t, uint64_t))
{
	char *str = xstrdup(s), *p = str, *end = str + strlen(str);
	int n = 0;
	while (p < end) {
		char *c = strchr(p, ',');
		if (c)
			*c = '\0';
		if (one(p, &span[n], first, last) < 0) {
			n = -1;
			break;
		}
		n++;
		if (!c)
			break;
		p = c + 1;
	}
	free(str);
	return n;
}

/* perf's perf_time__percent_parse_str: a '/' anywhere makes every piece
 * a slice, else a '-' a range, else the one share "10%" ("10%/1") */
static int parse_percents(const char *s, struct tspan *span, uint64_t first, uint64_t last)
{
	if (strchr(s, '/'))
		return percent_spans(s, span, first, last, percent_slash);
	if (strchr(s, '-'))
		return percent_spans(s, span, first, last, percent_dash);
	const char *pct = strchr(s, '%');
	if (pct[1])
		return -1;
	char *one = xmalloc(strlen(s) + 3);
	strcpy(one, s);
	strcat(one, "/1");
	int rc = percent_slash(one, span, first, last);
	free(one);
	return rc < 0 ? -1 : 1;
}

/* --time s into f's spans (one per comma and one more at most); -1 with
 * the reason in err */
static int parse_time(struct rs_filter *f, const char *s, const struct pd_file *file, char *err,
                      size_t errlen)
{
	unsigned cap = 1;
	for (const char *c = s; *c; c++)
		cap += *c == ',';
	f->span = xcalloc(cap, sizeof(*f->span));
	int n;
	if (strchr(s, '%')) {
		/* perf reads the shares before the records: a pipe's features
		 * come after, and perf record -B walks no sample (both 0) */
		if (file->pipe || !file->has_sample_time ||
		    (!file->first_sample_time && !file->last_sample_time)) {
			str_seterr(err, errlen,
			           "--time '%s': the perf.data has no first and last sample time "
			           "(HEADER_SAMPLE_TIME) to take percentages of",
			           s);
			return -1;
		}
		n = parse_percents(s, f->span, file->first_sample_time, file->last_sample_time);
	} else
		n = parse_spans(s, f->span);
	if (n < 0) {
		str_seterr(
		    err, errlen,
		    "--time '%s': invalid time string (perf's forms: start,stop in seconds, "
		    "spans apart by spaces; 10%%/2, 0%%-10%%, lists of them apart by commas)",
		    s);
		return -1;
	}
	f->nr_span = (unsigned)n;
	return 0;
}

bool rs_filter_time_out(const struct rs_filter *f, uint64_t t)
{
	/* perf's perf_time__ranges_skip_sample: time 0 is kept */
	if (!f->span || !t || !f->nr_span)
		return false;
	for (unsigned i = 0; i < f->nr_span; i++)
		if (t >= f->span[i].start && (t <= f->span[i].end || !f->span[i].end))
			return false;
	return true;
}

void rs_filter_free(struct rs_filter *f)
{
	if (!f)
		return;
	strset_free(&f->comm);
	strset_free(&f->dso);
	strset_free(&f->sym);
	free(f->pid.v);
	free(f->tid.v);
	free(f->addr);
	free(f->cpu);
	free(f->span);
	free(f);
}

struct rs_filter *rs_filter_new(const struct rs_opts *o, const struct pd_file *file, int *rc,
                                char *err, size_t errlen)
{
	*rc = 0;
	if (!o->comms && !o->pids && !o->tids && !o->dsos && !o->symbols && !o->cpu_list &&
	    !o->symbol_filter && !o->time_str)
		return NULL;
	struct rs_filter *f = xcalloc(1, sizeof(*f));
	strset_parse(&f->comm, o->comms);
	strset_parse(&f->dso, o->dsos);
	strset_parse(&f->sym, o->symbols);
	split_addrs(f);
	const char *bad = intset_parse(&f->pid, o->pids)   ? "--pid"
	                  : intset_parse(&f->tid, o->tids) ? "--tid"
	                                                   : NULL;
	char why[160];
	if (bad) {
		str_seterr(err, errlen, "%s '%s': not a comma-separated list of numbers", bad,
		           bad[2] == 'p' ? o->pids : o->tids);
		goto fail;
	}
	if (o->cpu_list) {
		if (hpm_cpu_list_parse(o->cpu_list, &f->cpu, &f->nr_cpu, why, sizeof(why))) {
			str_seterr(err, errlen, "-C: %s", why);
			goto fail;
		}
		/* perf's perf_session__cpu_bitmap: CPUs the recording had, whose
		 * samples carry theirs */
		if (file->has_nrcpus && f->nr_cpu &&
		    f->cpu[f->nr_cpu - 1] >= (int)file->nr_cpus_avail) {
			str_seterr(err, errlen,
			           "-C: CPU %d is not in the recording (it had %u CPUs)",
			           f->cpu[f->nr_cpu - 1], file->nr_cpus_avail);
			goto fail;
		}
		for (unsigned i = 0; i < file->nr_ev; i++)
			if (!(file->ev[i].attr.sample_type & PERF_SAMPLE_CPU)) {
				char name[64];
				str_seterr(
				    err, errlen,
				    "-C: the samples of '%s' do not carry their CPU (perf record "
				    "-a or --sample-cpu records it)",
				    pd_event_name(file, i, name, sizeof(name)));
				goto fail;
			}
	}
	if (o->time_str && parse_time(f, o->time_str, file, err, errlen))
		goto fail;
	return f;
fail:
	rs_filter_free(f);
	*rc = -1;
	return NULL;
}

bool rs_filter_cpu_out(const struct rs_filter *f, uint32_t cpu)
{
	if (!f->cpu)
		return false;
	return cpu > 65535 || !hpm_cpu_list_has(f->cpu, f->nr_cpu, (int)cpu);
}

/* A map's short name: its file's base name ("[kernel.kallsyms]" as it is) */
static const char *short_name(const char *dso)
{
	const char *b = strrchr(dso, '/');
	return dso[0] != '[' && b ? b + 1 : dso;
}

bool rs_filter_out(const struct rs_filter *f, const char *comm, int pid, int tid, const char *dso,
                   const char *sym, uint64_t ip)
{
	if ((f->comm.given && !strset_has(&f->comm, comm)) ||
	    (f->pid.given && !intset_has(&f->pid, pid)) ||
	    (f->tid.given && !intset_has(&f->tid, tid)))
		return true;
	bool mapped = strcmp(dso, "[unknown]") != 0;
	if (f->dso.given &&
	    (!mapped || !(strset_has(&f->dso, short_name(dso)) || strset_has(&f->dso, dso))))
		return true;
	if (!f->sym.given)
		return false;
	/* perf also looks the function's start up as "0x..." among the
	 * names, which hold no hex number once the addresses are out */
	if (sym && strset_has(&f->sym, sym))
		return false;
	for (unsigned i = 0; mapped && i < f->nr_addr; i++)
		if (f->addr[i] == ip)
			return false;
	return true;
}

/* perf's __get_elide: a list of one entry names its column's value */
static const char *single(const struct strset *l)
{
	return l->given && l->n == 1 ? l->s[0] : NULL;
}

/* perf's hists__filter_entry_by_symbol: an entry whose function is
 * unnamed or does not hold the text */
static bool symbol_filtered(const struct rs_report *rs, const struct rs_entry *e)
{
	const char *want = rs->opts.symbol_filter;
	return want && (!e->fsym || !strstr(rs->str[e->fsym], want));
}

void rs_filter_apply(const struct rs_filter *f, struct rs_report *rs)
{
	for (unsigned hi = 0; hi < rs->nr_hist; hi++) {
		struct rs_hist *h = &rs->hist[hi];
		unsigned n = 0;
		uint64_t symbol_out = 0; /* the period of the entries --symbol-filter drops */
		for (unsigned i = 0; i < h->nr_e; i++) {
			if (!h->e[i].filtered && symbol_filtered(rs, &h->e[i]))
				symbol_out += h->e[i].period;
			else if (!h->e[i].filtered) {
				h->e[n++] = h->e[i];
				continue;
			}
			free(h->e[i].delta);
			free(h->e[i].td);
		}
		h->nr_e = n;
		/* perf counts the samples the sample filters keep as they
		 * come (nr_non_filtered_samples) and sets the graphs'
		 * threshold from their period, before it drops the entries
		 * of --symbol-filter (hists__filter_by_symbol), whose period
		 * leaves the total only */
		if (rs->opts.percent_relative) {
			h->graph_period = h->total_period;
			h->nr_samples = h->kept_samples;
			h->min_period = h->kept_period;
			h->total_period = h->kept_period - symbol_out;
		}
	}
	for (unsigned k = 0; k < rs->opts.nr_key; k++) {
		enum rs_key key = rs->opts.key[k];
		rs->elided[key] = key == RS_KEY_COMM  ? single(&f->comm)
		                  : key == RS_KEY_DSO ? single(&f->dso)
		                  : key == RS_KEY_SYM ? single(&f->sym)
		                                      : NULL;
	}
}
