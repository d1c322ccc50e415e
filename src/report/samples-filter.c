/* samples-filter.c: perf report's sample filters (samples-filter.h). */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "report/samples-filter.h"
#include "util/cpulist.h"
#include "util/str.h"
#include "util/xalloc.h"

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
	free(f);
}

struct rs_filter *rs_filter_new(const struct rs_opts *o, const struct pd_file *file, int *rc,
                                char *err, size_t errlen)
{
	*rc = 0;
	if (!o->comms && !o->pids && !o->tids && !o->dsos && !o->symbols && !o->cpu_list &&
	    !o->symbol_filter)
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
