/* samples-render.c: the samples report in each format (rs_render): the
 * text as perf report --stdio --no-children lays it out (its header
 * lines, column widths and [.]/[k] marks, so a user's eye and scripts
 * read both alike), CSV, JSON, Markdown, HTML with an inline SVG flame
 * graph (no script, no URL), and folded stacks. The escaping is cells.h's,
 * the run-file report's. */
#include <jansson.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arch/model.h"
#include "report/cells.h"
#include "registry/models.h"
#include "report/samples-graph.h"
#include "report/samples.h"
#include "util/hash.h"
#include "util/xalloc.h"

/* perf shows a file's DSO by its base name, the kernel's by its [name]. */
static const char *dso_name(const struct rs_report *rs, unsigned id)
{
	const char *s = rs_str(rs, id);
	const char *b = strrchr(s, '/');
	return s[0] != '[' && b ? b + 1 : s;
}

static const struct rs_report *sort_rs;
static const struct rs_hist *sort_h;

static bool children_mode(const struct rs_report *rs)
{
	return rs->opts.children && rs->cumulated;
}

/* perf's __hpp__sort_acc: Children, then (one thread's entries, call
 * graphs shown) the caller above its callees, by the longest chain */
static int children_cmp(const struct rs_entry *x, const struct rs_entry *y)
{
	if (x->acc != y->acc)
		return x->acc > y->acc ? -1 : 1;
	enum rs_graph g = sort_rs->opts.graph;
	unsigned dx = g == RS_GRAPH_CALLER ? x->depth : x->depth_callee;
	unsigned dy = g == RS_GRAPH_CALLER ? y->depth : y->depth_callee;
	if (x->thread == y->thread && dx != dy && (g == RS_GRAPH_CALLER || g == RS_GRAPH_CALLEE))
		return (dx > dy ? -1 : 1) * (g == RS_GRAPH_CALLER ? 1 : -1);
	return 0;
}

static int key_cmp(const struct rs_entry *x, const struct rs_entry *y, enum rs_key key);

/* perf's ipc_null key has no se_sort: its se_cmp, sort__sym_cmp, orders
 * two unnamed entries by their address (he->ip: the sample's offset in its
 * map, a caller's address), a named one first, else (without
 * the dso key) by the DSO, then by the function's start and end */
static int ipc_null_cmp(const struct rs_entry *x, const struct rs_entry *y)
{
	if (!x->named && !y->named)
		return (x->addr > y->addr) - (x->addr < y->addr);
	if (x->named != y->named)
		return x->named ? -1 : 1;
	bool dso = false;
	for (unsigned k = 0; k < sort_rs->opts.nr_key; k++)
		dso = dso || sort_rs->opts.key[k] == RS_KEY_DSO;
	int c = dso ? 0 : key_cmp(x, y, RS_KEY_DSO);
	if (c)
		return c;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->sym_size > y->sym_size) - (x->sym_size < y->sym_size);
}

/* One sort key's order (perf's se_sort, else se_cmp: ascending; a named
 * symbol before an unnamed one, a mapped DSO before [unknown]) */
static int key_cmp(const struct rs_entry *x, const struct rs_entry *y, enum rs_key key)
{
	switch (key) {
	case RS_KEY_COMM:
		return strcmp(rs_str(sort_rs, x->comm), rs_str(sort_rs, y->comm));
	case RS_KEY_PID:
		return (x->pid > y->pid) - (x->pid < y->pid);
	case RS_KEY_DSO: {
		/* perf's _sort__dso_cmp: an entry no map holds ([unknown])
		 * after every named one */
		bool ux = rs_unmapped(sort_rs, x->dso), uy = rs_unmapped(sort_rs, y->dso);
		return ux != uy ? (ux ? 1 : -1)
		                : strcmp(dso_name(sort_rs, x->dso), dso_name(sort_rs, y->dso));
	}
	case RS_KEY_IPC_NULL:
		return ipc_null_cmp(x, y);
	case RS_KEY_SYM:
		if (x->known != y->known)
			return x->known ? -1 : 1;
		if (x->known)
			return strcmp(rs_str(sort_rs, x->sym), rs_str(sort_rs, y->sym));
		/* perf's _sort__addr_cmp: the difference as a signed number,
		 * so a kernel address (above 2^63) comes before a user one */
		int64_t d = (int64_t)(y->addr - x->addr);
		return (d < 0) - (d > 0);
	/* perf's sort__cpu_cmp, sort__socket_cmp, sort__dso_size_cmp and
	 * sort__sym_size_cmp: the smaller first (an unknown size is 0) */
	case RS_KEY_CPU:
		return (x->cpu > y->cpu) - (x->cpu < y->cpu);
	case RS_KEY_SOCKET:
		return (x->socket > y->socket) - (x->socket < y->socket);
	case RS_KEY_DSO_SIZE:
		return (x->dso_size > y->dso_size) - (x->dso_size < y->dso_size);
	case RS_KEY_SYM_SIZE:
		return (x->sym_size > y->sym_size) - (x->sym_size < y->sym_size);
	}
	return 0;
}

/* -F's order (perf_hpp__append_sort_keys): --sort's keys, then each
 * column in -F's order, a value by the largest first (a --sort key met
 * again there compares equal: it was equal above) */
static int fields_cmp(const struct rs_entry *x, const struct rs_entry *y)
{
	const struct rs_opts *o = &sort_rs->opts;
	for (unsigned k = 0; k < o->nr_sort_key; k++) {
		int c = key_cmp(x, y, o->key[k]);
		if (c)
			return c;
	}
	for (unsigned i = 0; i < o->nr_col; i++) {
		uint64_t vx = 0, vy = 0;
		switch (o->col[i].kind) {
		case RS_COL_KEY: {
			int c = key_cmp(x, y, o->col[i].key);
			if (c)
				return c;
			continue;
		}
		case RS_COL_CHILDREN:
			if (children_mode(sort_rs)) {
				int c = children_cmp(x, y);
				if (c)
					return c;
			}
			continue;
		case RS_COL_SELF:
		case RS_COL_PERIOD:
			vx = x->period, vy = y->period;
			break;
		case RS_COL_SAMPLES:
			vx = x->samples, vy = y->samples;
			break;
		case RS_COL_SYS: /* not -F's (--showcpuutilization's only) */
		case RS_COL_USR:
			continue;
		}
		if (vx != vy)
			return vx > vy ? -1 : 1;
	}
	return 0;
}

/* perf's output order: Children with --children, the period, then each
 * sort key ascending; -F's own (fields_cmp) */
static int entry_cmp(const void *a, const void *b)
{
	const struct rs_entry *x = &sort_h->e[*(const unsigned *)a];
	const struct rs_entry *y = &sort_h->e[*(const unsigned *)b];
	if (sort_rs->opts.fields)
		return fields_cmp(x, y);
	if (children_mode(sort_rs) && !sort_rs->opts.no_children_col) {
		int c = children_cmp(x, y);
		if (c)
			return c;
	}
	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	for (unsigned k = 0; k < sort_rs->opts.nr_key; k++) {
		int c = key_cmp(x, y, sort_rs->opts.key[k]);
		if (c)
			return c;
	}
	return 0;
}

static unsigned *sorted(const struct rs_report *rs, const struct rs_hist *h)
{
	unsigned *ix = xcalloc(h->nr_e ? h->nr_e : 1, sizeof(*ix));
	for (unsigned i = 0; i < h->nr_e; i++)
		ix[i] = i;
	sort_rs = rs;
	sort_h = h;
	qsort(ix, h->nr_e, sizeof(*ix), entry_cmp);
	return ix;
}

static bool has_key(const struct rs_report *rs, enum rs_key key)
{
	for (unsigned k = 0; k < rs->opts.nr_key; k++)
		if (rs->opts.key[k] == key)
			return true;
	return false;
}

static bool has_pid(const struct rs_report *rs)
{
	return has_key(rs, RS_KEY_PID);
}

/* CSV's and JSON's fields of the keys cpu .. symbol_size, each where it
 * is a key (otherwise the entry is every CPU's, map's, function's) */
static const char *const extra_name[] = {[RS_KEY_CPU] = "cpu",
                                         [RS_KEY_SOCKET] = "socket",
                                         [RS_KEY_DSO_SIZE] = "dso_size",
                                         [RS_KEY_SYM_SIZE] = "symbol_size"};

/* An extra key's value: NULL for perf's "unknown" */
static json_t *extra_json(const struct rs_entry *e, enum rs_key k)
{
	switch (k) {
	case RS_KEY_CPU:
		return json_integer(e->cpu);
	case RS_KEY_SOCKET:
		return json_integer(e->socket);
	case RS_KEY_DSO_SIZE:
		return e->mapped ? json_integer((json_int_t)e->dso_size) : json_null();
	case RS_KEY_SYM_SIZE:
		return e->named ? json_integer((json_int_t)e->sym_size) : json_null();
	default:
		return json_null();
	}
}

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* perf's convert_unit: 341, 12K, 1M. */
static unsigned long convert_unit(unsigned long v, char *unit)
{
	*unit = ' ';
	if (v > 1000) {
		v /= 1000;
		*unit = 'K';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'M';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'G';
	}
	return v;
}

static const char *key_header(enum rs_key k)
{
	static const char *const h[] = {"Command",         "Shared Object", "Symbol",
	                                "    Pid:Command", "CPU",           "Socket",
	                                "DSO size",        "Symbol size",   "IPC   [IPC Coverage]"};
	return h[k];
}

/* perf's number keys: right-aligned in a column as wide as the head
 * (HISTC_CPU 3, HISTC_SOCKET 6, the sizes' heads), a longer cell not
 * widening it (hists__calc_col_len leaves them) */
static bool fixed_key(enum rs_key k)
{
	return k >= RS_KEY_CPU;
}

/* A key's cell text (into buf). */
static const char *key_cell(const struct rs_report *rs, const struct rs_entry *e, enum rs_key k,
                            char *buf, size_t len)
{
	switch (k) {
	case RS_KEY_COMM:
		return rs_str(rs, e->comm);
	case RS_KEY_DSO:
		return dso_name(rs, e->dso);
	case RS_KEY_SYM:
		snprintf(buf, len, "[%c] %s", e->kernel ? 'k' : '.', rs_str(rs, e->sym));
		return buf;
	case RS_KEY_PID:
		snprintf(buf, len, "%7d:%s", e->pid, rs_str(rs, e->tcomm));
		return buf;
	/* perf's "%*.*d": three digits at least, the sign before them */
	case RS_KEY_CPU:
		snprintf(buf, len, "%.3d", e->cpu);
		return buf;
	case RS_KEY_SOCKET:
		snprintf(buf, len, "%.3d", e->socket);
		return buf;
	/* perf's "%*d" of an int; "unknown" with no map or no function */
	case RS_KEY_DSO_SIZE:
		if (!e->mapped)
			return "unknown";
		snprintf(buf, len, "%d", (int)e->dso_size);
		return buf;
	case RS_KEY_SYM_SIZE:
		if (!e->named)
			return "unknown";
		snprintf(buf, len, "%d", (int)e->sym_size);
		return buf;
	case RS_KEY_IPC_NULL: /* perf's "%-5s %2s" of dashes, left-aligned */
		return "-      -";
	}
	return "";
}

/* -------------------------------------------------------------- text */

/* perf's output fields before the sort keys: Children, Overhead (Self
 * with Children), sys and usr (--showcpuutilization), Samples, Period. */
struct col {
	enum rs_col_kind kind;
	const char *head;
	int width;
	bool na; /* perf's N/A: -F overhead_children without --children */
};

static unsigned columns(const struct rs_report *rs, struct col *c)
{
	unsigned n = 0;
	bool children = children_mode(rs);
	/* -F overhead_children without --children: perf's N/A column */
	if (!rs->opts.no_children_col && (children || rs->opts.fields))
		c[n++] = (struct col){RS_COL_CHILDREN, "Children", 8, !children};
	if (!rs->opts.no_overhead)
		c[n++] = (struct col){RS_COL_SELF,
		                      children && !rs->opts.fields ? "Self" : "Overhead", 8, false};
	/* perf's perf_hpp__init adds them, which -F's fields replace */
	if (rs->opts.cpu_util && !rs->opts.fields) {
		c[n++] = (struct col){RS_COL_SYS, "sys", 8, false};
		c[n++] = (struct col){RS_COL_USR, "usr", 8, false};
	}
	if (rs->opts.show_samples)
		c[n++] = (struct col){RS_COL_SAMPLES, "Samples", 12, false};
	if (rs->opts.show_period)
		c[n++] = (struct col){RS_COL_PERIOD, "Period", 12, false};
	return n;
}

static const char *col_cell(const struct col *c, const struct rs_hist *h, const struct rs_entry *e,
                            char *buf, size_t len)
{
	if (c->na)
		return "N/A";
	switch (c->kind) {
	case RS_COL_CHILDREN:
		snprintf(buf, len, "%.2f%%", pct(e->acc, h->total_period));
		break;
	case RS_COL_KEY: /* the keys' cells are key_cell's */
		buf[0] = 0;
		break;
	case RS_COL_SELF:
		snprintf(buf, len, "%.2f%%", pct(e->period, h->total_period));
		break;
	case RS_COL_SYS:
		snprintf(buf, len, "%.2f%%", pct(e->period_sys, h->total_period));
		break;
	case RS_COL_USR:
		snprintf(buf, len, "%.2f%%", pct(e->period_usr, h->total_period));
		break;
	case RS_COL_SAMPLES:
		snprintf(buf, len, "%llu", (unsigned long long)e->samples);
		break;
	case RS_COL_PERIOD:
		snprintf(buf, len, "%llu", (unsigned long long)e->period);
		break;
	}
	return buf;
}

/* --percent-limit: perf hides an entry whose share (Children's with
 * --children) is under it; without children an entry of no period (a
 * caller only) is none. */
static bool hidden(const struct rs_report *rs, const struct rs_hist *h, const struct rs_entry *e)
{
	uint64_t v = children_mode(rs) ? e->acc : e->period;
	if (!children_mode(rs) && !e->period)
		return true;
	return rs->opts.percent_limit > 0 && pct(v, h->total_period) < rs->opts.percent_limit;
}

/* CSV's and JSON's Children fields: where the text has its column */
static bool children_col(const struct rs_report *rs)
{
	return children_mode(rs) && !rs->opts.no_children_col;
}

/* Markdown's and HTML's share columns: the text's Children, Self (or
 * Overhead), sys and usr, without its Samples and Period (their own
 * Samples column follows) */
static unsigned share_columns(const struct rs_report *rs, struct col *c)
{
	struct col all[6];
	unsigned n = 0, nr = columns(rs, all);
	for (unsigned i = 0; i < nr; i++)
		if ((all[i].kind == RS_COL_CHILDREN && !all[i].na) || all[i].kind == RS_COL_SELF ||
		    all[i].kind == RS_COL_SYS || all[i].kind == RS_COL_USR)
			c[n++] = all[i];
	return n;
}

/* A recording of hpmstat record --backend emu: its CPUDESC, the label
 * stat gives emulated figures ("emulated Kunminghu (kunminghu-v2):
 * profile hotspots, seed 1, ..."), which every format heads its report
 * with; NULL for a recording of a real CPU. */
static const char *emu_label(const struct rs_report *rs)
{
	const char *d = rs->file.cpudesc;
	return d && strncmp(d, "emulated ", 9) == 0 ? d : NULL;
}

/* The comment line naming the table the raw events are of (hpmstat
 * record's PERF_FEAT_HPM_PMU: detection cannot tell Kunminghu's two
 * apart); nothing for a recording without one. */
static void model_line(const struct rs_report *rs, FILE *out)
{
	if (rs->model)
		fprintf(out, "# PMU model: %s (the table of the recorded raw events)\n",
		        rs->model->display);
}

/* perf's sort__setup_elide: a key whose filter names one value is left
 * out of the text, unless every key would be */
static bool elided_col(const struct rs_report *rs, unsigned k)
{
	for (unsigned i = 0; i < rs->opts.nr_key; i++)
		if (!rs->elided[rs->opts.key[i]])
			return rs->elided[rs->opts.key[k]] != NULL;
	return false;
}

/* A column of the text: cols[i] of columns(), or key i of the keys. */
struct text_col {
	bool key;
	unsigned i;
};

/* The text's columns in their order: perf's output fields, then the keys
 * not elided; with -F, its columns in its order (rs_opts.col). */
static unsigned text_cols(const struct rs_report *rs, const struct col *cols, unsigned nc,
                          struct text_col *t)
{
	const struct rs_opts *o = &rs->opts;
	unsigned n = 0;
	if (!o->fields) {
		for (unsigned c = 0; c < nc; c++)
			t[n++] = (struct text_col){false, c};
		for (unsigned k = 0; k < o->nr_key; k++)
			if (!elided_col(rs, k))
				t[n++] = (struct text_col){true, k};
		return n;
	}
	for (unsigned i = 0; i < o->nr_col; i++) {
		if (o->col[i].kind != RS_COL_KEY) {
			for (unsigned c = 0; c < nc; c++)
				if (cols[c].kind == o->col[i].kind)
					t[n++] = (struct text_col){false, c};
			continue;
		}
		for (unsigned k = 0; k < o->nr_key; k++)
			if (o->key[k] == o->col[i].key && !elided_col(rs, k))
				t[n++] = (struct text_col){true, k};
	}
	return n;
}

/* Each key column's width in h's text: its head's, or its widest cell's. */
static void key_widths(const struct rs_report *rs, const struct rs_hist *h, size_t w[RS_MAX_KEYS])
{
	char b[512];
	for (unsigned k = 0; k < rs->opts.nr_key; k++)
		w[k] = strlen(key_header(rs->opts.key[k]));
	for (unsigned i = 0; i < h->nr_e; i++)
		for (unsigned k = 0; k < rs->opts.nr_key; k++) {
			if (fixed_key(rs->opts.key[k]))
				continue;
			/* perf's Command column: as wide as the threads' last
			 * commands (thread__comm_len), an earlier longer one
			 * cut to it */
			size_t l =
			    rs->opts.key[k] == RS_KEY_COMM
			        ? strlen(rs_str(rs, h->e[i].tcomm))
			        : strlen(key_cell(rs, &h->e[i], rs->opts.key[k], b, sizeof(b)));
			/* perf widens the DSO column to 16 (an address's digits)
			 * when an entry has no symbol, a key or not, but not
			 * under --dsos */
			if (rs->opts.key[k] == RS_KEY_DSO && !h->e[i].named && l < 16 &&
			    !rs->opts.dsos)
				l = 16;
			if (l > w[k])
				w[k] = l;
		}
}

/* --topdown's cells of an entry: each node's share, then "<==" and the
 * bottleneck path the metric library marked (stat's rule), from level 1
 * down. */
static void td_cells(const struct rs_report *rs, const struct rs_entry *e, FILE *out)
{
	for (unsigned t = 0; t < rs->nr_td; t++) {
		char v[32];
		int tw = (int)strlen(rs->td_name[t]);
		fprintf(out, "  %*s", tw, rp_num(v, sizeof(v), e->td[t], 2));
	}
	const char *sep = "  <== ";
	for (int parent = -1;;) {
		int next = -1;
		for (unsigned t = 0; t < rs->nr_td && t < 64; t++)
			if (rs->td_parent[t] == parent && (e->td_bn >> t & 1))
				next = (int)t;
		if (next < 0)
			break;
		fprintf(out, "%s%s", sep, rs->td_name[next]);
		sep = " > ";
		parent = next;
	}
}

static void text(const struct rs_report *rs, FILE *out)
{
	if (rs->opts.after_listing)
		; /* perf report --header: the listing ends where the report starts */
	else if (rs->opts.perf_header && !rs->file.partial)
		fputs("# To display the perf.data header info, please use --header/--header-only "
		      "options.\n",
		      out);
	else
		fprintf(out, "# hpmstat report of a perf.data%s\n",
		        rs->file.partial ? " (PARTIAL)" : "");
	for (unsigned i = 0; i < rs->file.nr_note; i++)
		fprintf(out, "# note: %s\n", rs->file.note[i]);
	model_line(rs, out);
	if (emu_label(rs))
		fprintf(out, "# %s\n", emu_label(rs));
	/* perf report --header: the listing's closing "#" line is this one */
	if (!rs->opts.after_listing)
		fputs("#\n", out);
	/* no sample reached a histogram (none in the file, or none that -C
	 * and --time keep): perf report stops here, "The ... data has no
	 * samples!" (the caller says so) */
	if (!rs->nr_hist)
		return;
	/* the one value of a filtered key, above its left-out column */
	static const char *const list_name[] = {
	    [RS_KEY_COMM] = "comm", [RS_KEY_DSO] = "dso", [RS_KEY_SYM] = "symbol"};
	for (unsigned k = 0; k < rs->opts.nr_key; k++)
		if (rs->elided[rs->opts.key[k]])
			fprintf(out, "# %s: %s\n", list_name[rs->opts.key[k]],
			        rs->elided[rs->opts.key[k]]);
	fprintf(out, "#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)rs->nr_lost_samples);
	for (unsigned hi = 0; hi < rs->nr_hist; hi++) {
		const struct rs_hist *h = &rs->hist[hi];
		char unit;
		unsigned long ns = convert_unit((unsigned long)h->nr_samples, &unit);
		fprintf(out, "# Samples: %lu%c of event '%s'", ns, unit, h->name);
		if (rs->opts.time_str)
			fprintf(out, " (time slices: %s)", rs->opts.time_str);
		fputc('\n', out);
		fprintf(out, "# Event count (approx.): %llu\n#\n",
		        (unsigned long long)h->total_period);
		size_t w[RS_MAX_KEYS];
		char b[512];
		key_widths(rs, h, w);
		/* perf's columns: each after two characters ("# " before the
		 * first), the numbers right-aligned */
		struct col cols[6];
		unsigned nc = columns(rs, cols);
		struct text_col tc[RS_MAX_COLS];
		unsigned nt = text_cols(rs, cols, nc, tc);
		const char *lead = "# ";
		for (unsigned j = 0; j < nt; j++, lead = "  ")
			if (tc[j].key)
				fprintf(out, "%s%-*s", lead, (int)w[tc[j].i],
				        key_header(rs->opts.key[tc[j].i]));
			else
				fprintf(out, "%s%*s", lead, cols[tc[j].i].width,
				        cols[tc[j].i].head);
		/* perf pads every column but a last Symbol */
		bool sym_last = nt && tc[nt - 1].key && rs->opts.key[tc[nt - 1].i] == RS_KEY_SYM;
		if (rs->nr_td && h->nr_member)
			for (unsigned t = 0; t < rs->nr_td; t++)
				fprintf(out, "  %s", rs->td_name[t]);
		fputc('\n', out);
		lead = "# ";
		for (unsigned j = 0; j < nt; j++, lead = "  ") {
			fputs(lead, out);
			size_t cw = tc[j].key ? w[tc[j].i] : (size_t)cols[tc[j].i].width;
			for (size_t d = 0; d < cw; d++)
				fputc('.', out);
		}
		fputs("\n#\n", out);
		unsigned *ix = sorted(rs, h);
		for (unsigned i = 0; i < h->nr_e; i++) {
			const struct rs_entry *e = &h->e[ix[i]];
			if (hidden(rs, h, e))
				continue;
			for (unsigned j = 0; j < nt; j++) {
				char v[32];
				unsigned k = tc[j].i;
				if (!tc[j].key) {
					fprintf(out, "  %*s", cols[k].width,
					        col_cell(&cols[k], h, e, v, sizeof(v)));
					continue;
				}
				const char *c = key_cell(rs, e, rs->opts.key[k], b, sizeof(b));
				if (j + 1 == nt && sym_last && !(rs->nr_td && e->td))
					fprintf(out, "  %s", c);
				else if (fixed_key(rs->opts.key[k]) &&
				         rs->opts.key[k] != RS_KEY_IPC_NULL)
					fprintf(out, "  %*s", (int)w[k], c);
				else if (rs->opts.key[k] == RS_KEY_COMM)
					fprintf(out, "  %-*.*s", (int)w[k], (int)w[k], c);
				else
					fprintf(out, "  %-*s", (int)w[k], c);
			}
			if (rs->nr_td && e->td)
				td_cells(rs, e, out);
			fputc('\n', out);
			if (rs->opts.graph == RS_GRAPH_CALLEE || rs->opts.graph == RS_GRAPH_CALLER)
				rs_entry_graph(rs, h, e, out);
		}
		free(ix);
		fputs("\n\n", out);
	}
	if (rs->nr_td)
		fprintf(out,
		        "# Topdown level 1 (%% of the function's slots) by the %s model's "
		        "formulas%s%s, from group-read deltas\n",
		        rs->td_model, rs->td_variant ? ", variant " : "",
		        rs->td_variant ? rs->td_variant : "");
	else if (rs->opts.topdown)
		fprintf(out, "# no Topdown: %s\n", rs->td_why);
}

/* --------------------------------------------------------------- CSV */

static void csv(const struct rs_report *rs, FILE *out)
{
	/* as stat -x heads emulated counts: a comment line before the header */
	if (emu_label(rs))
		fprintf(out, "# %s\n", emu_label(rs));
	/* ... and the table the raw events are of, as the text's head says */
	model_line(rs, out);
	/* a -g file's Children before its Self ("overhead"), as the text */
	bool acc = children_col(rs), util = rs->opts.cpu_util;
	/* --showcpuutilization's sys and usr after overhead, as the text */
	fprintf(out, "event,%soverhead,%ssamples,period,command,pid,shared_object,symbol,space",
	        acc ? "children," : "", util ? "sys,usr," : "");
	for (enum rs_key k = RS_KEY_CPU; k <= RS_KEY_SYM_SIZE; k++)
		if (has_key(rs, k))
			fprintf(out, ",%s", extra_name[k]);
	for (unsigned t = 0; t < rs->nr_td; t++)
		fprintf(out, ",%s", rs->td_name[t]);
	fputc('\n', out);
	for (unsigned hi = 0; hi < rs->nr_hist; hi++) {
		const struct rs_hist *h = &rs->hist[hi];
		unsigned *ix = sorted(rs, h);
		for (unsigned i = 0; i < h->nr_e; i++) {
			const struct rs_entry *e = &h->e[ix[i]];
			if (hidden(rs, h, e))
				continue;
			rp_csv_field(out, h->name);
			if (acc)
				fprintf(out, ",%.2f", pct(e->acc, h->total_period));
			fprintf(out, ",%.2f", pct(e->period, h->total_period));
			if (util)
				fprintf(out, ",%.2f,%.2f", pct(e->period_sys, h->total_period),
				        pct(e->period_usr, h->total_period));
			fprintf(out, ",%llu,%llu,", (unsigned long long)e->samples,
			        (unsigned long long)e->period);
			rp_csv_field(out, rs_str(rs, e->comm));
			/* the pid only where it is a key: otherwise the entry is
			 * every thread's */
			if (has_pid(rs))
				fprintf(out, ",%d,", e->pid);
			else
				fputs(",,", out);
			rp_csv_field(out, dso_name(rs, e->dso));
			fputc(',', out);
			rp_csv_field(out, rs_str(rs, e->sym));
			fputs(e->kernel ? ",kernel" : ",user", out);
			for (enum rs_key k = RS_KEY_CPU; k <= RS_KEY_SYM_SIZE; k++)
				if (has_key(rs, k)) {
					char v[32];
					/* the number alone (perf's "unknown": empty) */
					json_t *j = extra_json(e, k);
					if (json_is_integer(j))
						snprintf(v, sizeof(v), "%lld",
						         (long long)json_integer_value(j));
					else
						v[0] = 0;
					json_decref(j);
					fprintf(out, ",%s", v);
				}
			for (unsigned t = 0; t < rs->nr_td; t++) {
				char v[32];
				fprintf(out, ",%s",
				        e->td ? rp_num(v, sizeof(v), e->td[t], 2) : "n/a");
			}
			fputc('\n', out);
		}
		free(ix);
	}
}

/* -------------------------------------------------------------- JSON */

static json_t *tree_json(const struct rs_report *rs, unsigned n, uint64_t total, unsigned depth)
{
	json_t *a = json_array();
	if (depth > 256)
		return a;
	unsigned *c;
	unsigned nr = rs_graph_children(rs, n, total, &c);
	for (unsigned i = 0; i < nr; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "frame", json_string(rs_str(rs, rs->node[c[i]].frame)));
		json_object_set_new(o, "period", json_integer((json_int_t)rs->node[c[i]].period));
		json_object_set_new(o, "samples", json_integer((json_int_t)rs->node[c[i]].samples));
		json_object_set_new(o, "children", tree_json(rs, c[i], total, depth + 1));
		json_array_append_new(a, o);
	}
	free(c);
	return a;
}

static void jsonout(const struct rs_report *rs, FILE *out)
{
	json_t *root = json_object();
	json_object_set_new(root, "schema", json_string("hpmstat-samples"));
	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "partial", json_boolean(rs->file.partial));
	json_t *notes = json_array();
	for (unsigned i = 0; i < rs->file.nr_note; i++)
		json_array_append_new(notes, json_string(rs->file.note[i]));
	json_object_set_new(root, "notes", notes);
	json_object_set_new(root, "lost_samples", json_integer((json_int_t)rs->nr_lost_samples));
	json_object_set_new(root, "lost_events", json_integer((json_int_t)rs->nr_lost));
	if (rs->model) {
		json_object_set_new(root, "pmu_model", json_string(rs->model->name));
		/* the registry's name of v2 is plain "kunminghu": the table says
		 * which one, as the text header and stat's "pmu-table" do */
		json_object_set_new(root, "pmu_table",
		                    json_string(hpm_model_table_name(rs->model)));
	}
	/* stat's key for emulated figures, and the label's words */
	json_object_set_new(root, "emulated", json_boolean(emu_label(rs) != NULL));
	if (emu_label(rs))
		json_object_set_new(root, "emulation", json_string(emu_label(rs)));
	if (rs->nr_td)
		json_object_set_new(root, "topdown_model", json_string(rs->td_model));
	if (rs->nr_td && rs->td_variant)
		json_object_set_new(root, "topdown_variant", json_string(rs->td_variant));
	json_t *evs = json_array();
	for (unsigned hi = 0; hi < rs->nr_hist; hi++) {
		const struct rs_hist *h = &rs->hist[hi];
		json_t *eo = json_object();
		json_object_set_new(eo, "event", json_string(h->name));
		json_object_set_new(eo, "samples", json_integer((json_int_t)h->nr_samples));
		json_object_set_new(eo, "period", json_integer((json_int_t)h->total_period));
		json_t *ents = json_array();
		unsigned *ix = sorted(rs, h);
		for (unsigned i = 0; i < h->nr_e; i++) {
			const struct rs_entry *e = &h->e[ix[i]];
			if (hidden(rs, h, e))
				continue;
			json_t *o = json_object();
			/* a -g file's Children (its share and period) before its
			 * Self ("overhead"), as the text */
			if (children_col(rs)) {
				json_object_set_new(o, "children",
				                    json_real(pct(e->acc, h->total_period)));
				json_object_set_new(o, "children_period",
				                    json_integer((json_int_t)e->acc));
			}
			json_object_set_new(o, "overhead",
			                    json_real(pct(e->period, h->total_period)));
			if (rs->opts.cpu_util) {
				json_object_set_new(o, "sys",
				                    json_real(pct(e->period_sys, h->total_period)));
				json_object_set_new(o, "sys_period",
				                    json_integer((json_int_t)e->period_sys));
				json_object_set_new(o, "usr",
				                    json_real(pct(e->period_usr, h->total_period)));
				json_object_set_new(o, "usr_period",
				                    json_integer((json_int_t)e->period_usr));
			}
			json_object_set_new(o, "samples", json_integer((json_int_t)e->samples));
			json_object_set_new(o, "period", json_integer((json_int_t)e->period));
			json_object_set_new(o, "command", json_string(rs_str(rs, e->comm)));
			json_object_set_new(o, "pid",
			                    has_pid(rs) ? json_integer(e->pid) : json_null());
			json_object_set_new(o, "shared_object", json_string(dso_name(rs, e->dso)));
			json_object_set_new(o, "symbol", json_string(rs_str(rs, e->sym)));
			json_object_set_new(o, "known", json_boolean(e->known));
			json_object_set_new(o, "kernel", json_boolean(e->kernel));
			for (enum rs_key k = RS_KEY_CPU; k <= RS_KEY_SYM_SIZE; k++)
				if (has_key(rs, k))
					json_object_set_new(o, extra_name[k], extra_json(e, k));
			if (rs->nr_td && e->td) {
				json_t *td = json_object();
				for (unsigned t = 0; t < rs->nr_td; t++)
					json_object_set_new(td, rs->td_name[t],
					                    isnan(e->td[t])
					                        ? json_null()
					                        : json_real(e->td[t] + 0.0));
				json_object_set_new(o, "topdown", td);
			}
			unsigned croot = rs->opts.graph == RS_GRAPH_CALLER ? e->caller : e->callee;
			if (croot)
				json_object_set_new(o, "callchains",
				                    tree_json(rs, croot, h->total_period, 0));
			json_array_append_new(ents, o);
		}
		free(ix);
		json_object_set_new(eo, "entries", ents);
		json_array_append_new(evs, eo);
	}
	json_object_set_new(root, "events", evs);
	json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
}

/* ---------------------------------------------------------- Markdown */

/* The table of one event's entries, headings to last row. */
static void table(const struct rs_report *rs, const struct rs_hist *h, const struct rp_markup *mk,
                  FILE *out)
{
	/* Topdown columns on the sampled leader's table only */
	const unsigned ntd = h->nr_member ? rs->nr_td : 0;
	struct col cols[6];
	unsigned nc = share_columns(rs, cols);
	char v[32], b[512];
	fputs(mk->row.open, out);
	for (unsigned c = 0; c < nc; c++)
		rp_markup_cell(out, &mk->head, cols[c].head);
	rp_markup_cell(out, &mk->head, "Samples");
	/* perf's ipc_null column of dashes is the text's alone */
	unsigned nk = rs->opts.nr_key - has_key(rs, RS_KEY_IPC_NULL);
	for (unsigned k = 0; k < rs->opts.nr_key; k++)
		if (rs->opts.key[k] != RS_KEY_IPC_NULL)
			rp_markup_cell(out, &mk->head,
			               key_header(rs->opts.key[k]) +
			                   (rs->opts.key[k] == RS_KEY_PID ? 4 : 0));
	for (unsigned t = 0; t < ntd; t++)
		rp_markup_cell(out, &mk->head, rs->td_name[t]);
	fputs(mk->row.close, out);
	if (mk->rule) {
		fputc('|', out);
		for (unsigned c = 0; c <= nc; c++)
			fputs("---:|", out);
		for (unsigned k = 0; k < nk + ntd; k++)
			fputs("---|", out);
		fputc('\n', out);
	}
	unsigned *ix = sorted(rs, h);
	for (unsigned i = 0; i < h->nr_e; i++) {
		const struct rs_entry *e = &h->e[ix[i]];
		if (hidden(rs, h, e))
			continue;
		fputs(mk->row.open, out);
		for (unsigned c = 0; c < nc; c++)
			rp_markup_cell(out, &mk->num, col_cell(&cols[c], h, e, v, sizeof(v)));
		snprintf(v, sizeof(v), "%llu", (unsigned long long)e->samples);
		rp_markup_cell(out, &mk->num, v);
		for (unsigned k = 0; k < rs->opts.nr_key; k++)
			if (rs->opts.key[k] != RS_KEY_IPC_NULL)
				rp_markup_text(mk, out, &mk->text,
				               key_cell(rs, e, rs->opts.key[k], b, sizeof(b)));
		for (unsigned t = 0; t < ntd; t++)
			rp_markup_cell(out, &mk->num,
			               e->td ? rp_num(v, sizeof(v), e->td[t], 2) : "n/a");
		fputs(mk->row.close, out);
	}
	free(ix);
}

static void md(const struct rs_report *rs, FILE *out)
{
	fprintf(out, "# hpmstat report: samples%s\n\n", rs->file.partial ? " (partial)" : "");
	if (emu_label(rs)) {
		rp_md_text(out, emu_label(rs));
		fputs("\n\n", out);
	}
	for (unsigned i = 0; i < rs->file.nr_note; i++) {
		fputs("- note: ", out);
		rp_md_text(out, rs->file.note[i]);
		fputc('\n', out);
	}
	for (unsigned hi = 0; hi < rs->nr_hist; hi++) {
		const struct rs_hist *h = &rs->hist[hi];
		fputs("\n## ", out);
		rp_md_text(out, h->name);
		fprintf(out, "\n\n%llu samples, event count %llu\n\n",
		        (unsigned long long)h->nr_samples, (unsigned long long)h->total_period);
		table(rs, h, &rp_md_markup, out);
	}
}

/* ------------------------------------------------------------- HTML */

/* The flame graph's tree, built from the folded stacks. */
struct fnode {
	char *name;
	size_t len;
	uint64_t count;
	struct fnode *parent, *child, *next;
};

/* The tree and its nodes by a hash of parent and name (the next free key
 * on a collision): a walk of the children for each stack, comparing
 * names, was quadratic in the threads or call sites under one node. */
struct ftree {
	struct fnode root;
	struct hpm_hash_key key;
	struct hpm_u64map index;
};

static struct fnode *fchild(struct ftree *t, struct fnode *p, const char *name, size_t n)
{
	uint64_t k = hpm_hash_bytes(&t->key, name, n) ^ hpm_hash_u64(&t->key, (uintptr_t)p);
	bool added;
	uint64_t *v;
	while (v = hpm_u64map_get(&t->index, k++, &added), !added) {
		struct fnode *c = (struct fnode *)(uintptr_t)*v;
		if (c->parent == p && c->len == n && memcmp(c->name, name, n) == 0)
			return c;
	}
	struct fnode *c = xcalloc(1, sizeof(*c));
	*v = (uintptr_t)c;
	c->name = xmalloc(n + 1);
	memcpy(c->name, name, n);
	c->name[n] = '\0';
	c->len = n;
	c->parent = p;
	c->next = p->child;
	p->child = c;
	return c;
}

static void ffree(struct fnode *n)
{
	while (n) {
		struct fnode *next = n->next;
		ffree(n->child);
		free(n->name);
		free(n);
		n = next;
	}
}

static unsigned fdepth(const struct fnode *n)
{
	unsigned d = 0;
	for (const struct fnode *c = n->child; c; c = c->next) {
		unsigned x = fdepth(c);
		if (x > d)
			d = x;
	}
	return d + 1;
}

#define FG_W 1000.0
#define FG_H 16.0

static void fdraw(const struct fnode *n, double x, unsigned depth, unsigned maxd, double scale,
                  FILE *out)
{
	double cx = x;
	for (const struct fnode *c = n->child; c; c = c->next) {
		double w = (double)c->count * scale;
		double y = (maxd - depth - 1) * FG_H;
		if (w >= 0.5) {
			/* colour by name, flame-like: red to yellow */
			unsigned hsh = 0;
			for (const char *s = c->name; *s; s++)
				hsh = hsh * 31 + (unsigned char)*s;
			fprintf(out, "<g class=\"frame\"><title>%s", "");
			rp_html_text(out, c->name);
			fprintf(out,
			        " (%llu samples)</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			        "height=\"%.0f\" fill=\"rgb(%u,%u,60)\" stroke=\"white\"/>",
			        (unsigned long long)c->count, cx, y, w, FG_H - 1, 205 + hsh % 50,
			        80 + (hsh / 50) % 150);
			if (w > 40) {
				fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", cx + 3, y + FG_H - 4);
				size_t fit = (size_t)(w / 7);
				char *t = xstrdup(c->name);
				if (strlen(t) > fit && fit > 2) {
					t[fit - 2] = '.';
					t[fit - 1] = '.';
					t[fit] = '\0';
				}
				rp_html_text(out, t);
				free(t);
				fputs("</text>", out);
			}
			fputs("</g>\n", out);
			fdraw(c, cx, depth + 1, maxd, scale, out);
		}
		cx += w;
	}
}

static void flame(const struct rs_report *rs, FILE *out)
{
	struct ftree t = {0};
	struct fnode *const root = &t.root;
	hpm_hash_key_new(&t.key);
	for (unsigned i = 0; i < rs->nr_folded; i++) {
		const char *s = rs_str(rs, rs->folded[i].stack);
		struct fnode *at = root;
		root->count += rs->folded[i].count;
		while (*s) {
			size_t n = strcspn(s, ";");
			at = fchild(&t, at, s, n);
			at->count += rs->folded[i].count;
			s += n;
			if (*s == ';')
				s++;
		}
	}
	unsigned maxd = fdepth(root);
	if (maxd > 64)
		maxd = 64;
	double h = maxd * FG_H;
	fprintf(
	    out,
	    "<h2>Flame graph</h2>\n<svg class=\"flamegraph\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%.0f\" height=\"%.0f\">\n",
	    FG_W, h);
	if (root->count)
		fdraw(root, 0, 0, maxd, FG_W / (double)root->count, out);
	fputs("</svg>\n", out);
	ffree(root->child);
	hpm_u64map_free(&t.index);
}

static void html(const struct rs_report *rs, FILE *out)
{
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>hpmstat report: "
	      "samples</title>\n<style>body{font-family:sans-serif;margin:1.5em}"
	      "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px "
	      "8px}td{white-space:nowrap}"
	      "td.n{text-align:right}svg text{font-size:11px;font-family:monospace}</style>"
	      "</head><body>\n<h1>hpmstat report: samples</h1>\n",
	      out);
	if (rs->file.partial)
		fputs("<p><b>Partial:</b> the file was read only in part.</p>\n", out);
	if (emu_label(rs)) {
		fputs("<p>", out);
		rp_html_text(out, emu_label(rs));
		fputs("</p>\n", out);
	}
	for (unsigned i = 0; i < rs->file.nr_note; i++) {
		fputs("<p>note: ", out);
		rp_html_text(out, rs->file.note[i]);
		fputs("</p>\n", out);
	}
	flame(rs, out);
	/* numbers right-aligned by their class (the run-file report's style
	 * aligns every cell) */
	struct rp_markup mk = rp_html_markup;
	mk.num.open = "<td class=\"n\">";
	for (unsigned hi = 0; hi < rs->nr_hist; hi++) {
		const struct rs_hist *h = &rs->hist[hi];
		fputs("<h2>", out);
		rp_html_text(out, h->name);
		fprintf(out, "</h2>\n<p>%llu samples, event count %llu</p>\n<table>",
		        (unsigned long long)h->nr_samples, (unsigned long long)h->total_period);
		table(rs, h, &mk, out);
		fputs("</table>\n", out);
	}
	fputs("</body></html>\n", out);
}

/* -q: the text without its '#' lines, as perf report -q prints it; a
 * partial file's line and an emulated recording's label stay, so that its
 * numbers never read as whole or as measured */
static void quiet_text(const struct rs_report *rs, FILE *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem) {
		text(rs, out);
		return;
	}
	text(rs, mem);
	fclose(mem);
	for (char *line = buf, *end; line && *line; line = end) {
		end = strchr(line, '\n');
		end = end ? end + 1 : line + strlen(line);
		bool label =
		    emu_label(rs) && strncmp(line + 2, emu_label(rs), strlen(emu_label(rs))) == 0;
		if (line[0] != '#' || label || strstr(line, "(PARTIAL)"))
			fwrite(line, 1, (size_t)(end - line), out);
	}
	free(buf);
}

/* ------------------------------------------------------------ folded */

static int folded_cmp(const void *a, const void *b)
{
	const struct rs_folded *x = a, *y = b;
	return strcmp(rs_str(sort_rs, x->stack), rs_str(sort_rs, y->stack));
}

static void folded(const struct rs_report *rs, FILE *out)
{
	struct rs_folded *f = xcalloc(rs->nr_folded ? rs->nr_folded : 1, sizeof(*f));
	if (rs->nr_folded)
		memcpy(f, rs->folded, rs->nr_folded * sizeof(*f));
	sort_rs = rs;
	qsort(f, rs->nr_folded, sizeof(*f), folded_cmp);
	for (unsigned i = 0; i < rs->nr_folded; i++)
		fprintf(out, "%s %llu\n", rs_str(rs, f[i].stack), (unsigned long long)f[i].count);
	free(f);
}

int rs_render(const struct rs_report *rs, enum rs_format f, FILE *out)
{
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	locale_t old = c ? uselocale(c) : (locale_t)0;
	switch (f) {
	case RS_TEXT:
		if (rs->opts.quiet)
			quiet_text(rs, out);
		else
			text(rs, out);
		break;
	case RS_CSV:
		csv(rs, out);
		break;
	case RS_JSON:
		jsonout(rs, out);
		break;
	case RS_MD:
		md(rs, out);
		break;
	case RS_HTML:
		html(rs, out);
		break;
	case RS_FOLDED:
		folded(rs, out);
		break;
	}
	if (c) {
		uselocale(old);
		freelocale(c);
	}
	return ferror(out) ? -1 : 0;
}
