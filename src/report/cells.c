/* cells.c: see cells.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "report/cells.h"
#include "util/provenance.h"

bool rp_shown(const struct report *r, const struct rf_node *n)
{
	return r->level == 0 || n->level <= r->level;
}

const char *rp_num(char *buf, size_t len, double v, int prec)
{
	if (isnan(v) || isinf(v))
		snprintf(buf, len, "n/a");
	else
		/* a value that rounds to zero is 0, never -0.00 */
		snprintf(buf, len, "%.*f", prec, v + 0.0 == 0 ? 0.0 : v);
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
	return buf;
}

const char *rp_event_value(const struct rf_event *e, char *buf, size_t len)
{
	if (e->wrapped)
		snprintf(buf, len, "<wrapped>");
	else if (e->exact)
		count_str(e->count, false, buf, len);
	else if (isnan(e->value))
		return NULL;
	else
		rp_num(buf, len, e->value, e->scale == 1.0 ? 0 : 2);
	return buf;
}

const char *rp_unit_value(const struct rf_event *e, const struct rf_count *c, char *buf, size_t len)
{
	if (c->wrapped)
		snprintf(buf, len, "<wrapped>");
	else if (!c->running)
		snprintf(buf, len, "n/a");
	else if (e->scale == 1.0)
		count_str(c->running == c->enabled ? c->value
		                                   : count_muldiv(c->value, c->enabled, c->running),
		          false, buf, len);
	else
		rp_num(buf, len,
		       (double)c->value * ((double)c->enabled / (double)c->running) * e->scale, 2);
	return buf;
}

const char *rp_signed(char *buf, size_t len, double v)
{
	if (isnan(v) || isinf(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%+.2f", fabs(v) < 0.005 ? 0.0 : v);
	return buf;
}

const char *rp_slice_unit(const struct rp_run *run, const struct rp_slice *s)
{
	return s->unit < 0 ? "all" : run->rf.units[s->unit];
}

unsigned rp_slice_rows(const struct rp_run *run)
{
	return run->rf.nr_units > 1 ? 1 + run->rf.nr_units : 1;
}

bool rp_unit_idle(const struct rp_run *run, unsigned u)
{
	const struct rf_run *rf = &run->rf;
	if (rf->nr_units < 2 || u >= rf->nr_units)
		return false;
	for (unsigned i = 0; i < rf->nr_ev; i++) {
		const struct rf_event *e = &rf->ev[i];
		if (e->host || strcasecmp(e->name, "cycles"))
			continue;
		for (unsigned k = 0; k < e->nr_counts; k++)
			if (!strcmp(e->counts[k].unit, rf->units[u]))
				return e->counts[k].running > 0 && e->counts[k].value == 0 &&
				       !e->counts[k].wrapped;
	}
	return false;
}

const char *rp_idle_units(const struct rp_run *run, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (unsigned u = 0; u < run->rf.nr_units && off < len; u++)
		if (rp_unit_idle(run, u))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
			                        run->rf.units[u]);
	return buf;
}

const char *rp_run_source(const struct rp_run *run, char *buf, size_t len)
{
	const struct rf_run *rf = &run->rf;
	const struct emu_provenance p = {
	    .profile = rf->profile, .trace = rf->trace, .harts = rf->harts};
	/* a run file says it was emulated by naming its harts */
	if (rf->harts)
		emu_provenance_text(&p, EMU_PROVENANCE_BRIEF, buf, len);
	else if (rf->command)
		snprintf(buf, len, "command: %s", rf->command);
	else
		snprintf(buf, len, "measured");
	return buf;
}

const char *rp_noise_word(enum rp_noise n)
{
	return n == RP_NOISE_ABOVE    ? "above noise"
	       : n == RP_NOISE_WITHIN ? "within noise"
	                              : "no repeats";
}

/* RFC 4180: a field with a comma, a quote or a line break is quoted, its
 * quotes doubled. */
void rp_csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* In a Markdown table cell: '|' ends the cell and a line break the row;
 * '<' and '&' could start HTML, '*', '_', '`' and '\' emphasis or code. */
void rp_md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '&')
			fputs("&amp;", out);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', out);
		else {
			if (strchr("|*_`\\[]", *s))
				fputc('\\', out);
			fputc(*s, out);
		}
	}
}

void rp_html_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

const struct rp_markup rp_md_markup = {.row = {"|", "\n"},
                                       .head = {" ", " |"},
                                       .num = {" ", " |"},
                                       .text = {" ", " |"},
                                       .escape = rp_md_text,
                                       .plus_minus = "±",
                                       .rule = true};
const struct rp_markup rp_html_markup = {.row = {"<tr>", "</tr>\n"},
                                         .head = {"<th>", "</th>"},
                                         .num = {"<td>", "</td>"},
                                         .text = {"<td>", "</td>"},
                                         .escape = rp_html_text,
                                         .plus_minus = "&#177;"};

void rp_markup_cell(FILE *out, const struct rp_tag *cell, const char *s)
{
	fprintf(out, "%s%s%s", cell->open, s, cell->close);
}

void rp_markup_text(const struct rp_markup *mk, FILE *out, const struct rp_tag *cell, const char *s)
{
	fputs(cell->open, out);
	mk->escape(out, s);
	fputs(cell->close, out);
}

void rp_tree_table(const struct report *r, const struct rp_run *run, const struct rp_markup *mk,
                   const struct rp_tree_cells *tc, FILE *out)
{
	const struct rf_run *rf = &run->rf;
	unsigned rows = rp_slice_rows(run);
	char v[32];
	fputs(mk->row.open, out);
	rp_markup_cell(out, &mk->head, "Node");
	for (unsigned u = 0; u < rows; u++)
		rp_markup_text(mk, out, &mk->head,
		               rows == 1 ? "Value" : rp_slice_unit(run, &run->slice[u]));
	rp_markup_cell(out, &mk->head, "Unit");
	if (rf->noise)
		fprintf(out, "%s%s %%%s", mk->head.open, mk->plus_minus, mk->head.close);
	fputs(mk->row.close, out);
	if (mk->rule) {
		fputs("|:---|", out);
		for (unsigned u = 0; u < rows; u++)
			fputs("---:|", out);
		fputs(rf->noise ? ":---|---:|\n" : ":---|\n", out);
	}
	for (unsigned k = 0; k < rf->nr_node; k++) {
		const struct rf_node *n = &rf->node[k];
		if (!rp_shown(r, n))
			continue;
		tc->node(out, n->level, rf->mval[k].bottleneck, n->display);
		for (unsigned u = 0; u < rows; u++) {
			const struct rf_mval *m = &run->slice[u].mval[k];
			tc->value(out, m->value, m->bottleneck, m->out_of_range);
		}
		rp_markup_text(mk, out, &mk->text, n->unit);
		if (rf->noise)
			rp_markup_cell(out, &mk->num,
			               rp_num(v, sizeof(v), rf->mval[k].rel_stddev, 2));
		fputs(mk->row.close, out);
	}
}

void rp_summary_table(const struct report *r, const struct rp_markup *mk,
                      const struct rp_tree_cells *tc, const char *weighted, FILE *out)
{
	fputs(mk->row.open, out);
	rp_markup_cell(out, &mk->head, "Node");
	for (unsigned i = 0; i < r->nr_run; i++) {
		fputs(mk->head.open, out);
		mk->escape(out, r->run[i].rf.name);
		if (r->weights)
			fprintf(out, " (w %g)", r->run[i].weight);
		fputs(mk->head.close, out);
	}
	if (r->weights)
		rp_markup_cell(out, &mk->head, weighted);
	fputs(mk->row.close, out);
	if (mk->rule) {
		fputs("|:---|", out);
		for (unsigned i = 0; i < r->nr_run + (r->weights ? 1u : 0u); i++)
			fputs("---:|", out);
		fputc('\n', out);
	}
	for (unsigned j = 0; j < r->nr_srow; j++) {
		const struct rp_srow *s = &r->srow[j];
		if (r->level && s->level > r->level)
			continue;
		tc->node(out, s->level, false, s->display);
		for (unsigned i = 0; i < r->nr_run; i++)
			tc->value(out, s->v[i], false, false);
		if (r->weights)
			tc->value(out, s->weighted, false, false);
		fputs(mk->row.close, out);
	}
}
