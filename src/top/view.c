/* view.c: see view.h. */
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ctype.h>
#include <curses.h>
#include <langinfo.h>
#include <locale.h>

#include "metric/metric.h"
#include "metric/tdcolor.h"
#include "top/view.h"
#include "util/dlib.h"

enum { PAIR_TD = 1, PAIR_HEAD = PAIR_TD + TD_NR, PAIR_BAD };

/* top.h's TD_* order is tdcolor.h's TD_CAT_* order; its ANSI numbers are
 * curses' COLOR_* numbers */
_Static_assert((int)TD_NR == (int)TD_CAT_NR && (int)TD_BACKEND == (int)TD_CAT_BACKEND &&
                   (int)TD_RETIRING == (int)TD_CAT_RETIRING &&
                   (int)TD_BADSPEC == (int)TD_CAT_BADSPEC,
               "Topdown category order");
_Static_assert(COLOR_RED == (int)TD_ANSI_RED && COLOR_MAGENTA == (int)TD_ANSI_MAGENTA,
               "ANSI colour numbers");

int top_view_init(struct top_view *v, bool want_color, char *err, size_t errlen)
{
	memset(v, 0, sizeof(*v));
	const char *term = getenv("TERM");
	if (!term || !*term) {
		snprintf(err, errlen, "TERM is not set");
		return -1;
	}
	/* ncurses is opened here, by the full-screen view only */
	if (hpm_dl_curses_load(err, errlen))
		return -1;
	/* The tree view's lines are UTF-8 box characters in a UTF-8 locale,
	 * which curses writes only with LC_CTYPE set (only it: numbers keep
	 * the C locale); elsewhere ASCII, as htop's. */
	if (setlocale(LC_CTYPE, "") && !strcmp(nl_langinfo(CODESET), "UTF-8"))
		v->utf8 = true;
	else
		setlocale(LC_CTYPE, "C");
	/* newterm, unlike initscr, returns NULL for an unknown terminal */
	SCREEN *s = newterm(NULL, stdout, stdin);
	if (!s) {
		snprintf(err, errlen, "unknown terminal type '%s'", term);
		return -1;
	}
	v->screen = s;
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	/* Escape is a key here (back up, clear the filter): curses' default
	 * second of waiting for an escape sequence would make it feel dead */
	set_escdelay(25);
	curs_set(0);
	v->color = want_color && has_colors();
	if (v->color) {
		start_color();
		use_default_colors();
		for (int k = 0; k < TD_NR; k++)
			init_pair((short)(PAIR_TD + k), COLOR_BLACK, td_colours[k].ansi);
		init_pair(PAIR_HEAD, COLOR_BLACK, COLOR_CYAN);
		init_pair(PAIR_BAD, COLOR_RED, -1);
	}
	return 0;
}

void top_view_end(struct top_view *v)
{
	if (!v->screen)
		return;
	endwin();
	delscreen(v->screen);
	v->screen = NULL;
}

/* ------------------------------------------------- the process table */

/* case-insensitive substring, as htop's filter */
static bool name_has(const char *name, const char *needle)
{
	size_t n = strlen(needle);
	if (!n)
		return true;
	for (; *name; name++) {
		size_t k = 0;
		while (k < n && name[k] &&
		       tolower((unsigned char)name[k]) == tolower((unsigned char)needle[k]))
			k++;
		if (k == n)
			return true;
	}
	return false;
}

/* the process row of thread t, or -1 */
static int parent_of(const struct top_frame *f, const struct top_proc *t)
{
	for (unsigned j = 0; j < f->nprocs; j++)
		if (!f->procs[j].thread && f->procs[j].pid == t->tgid && !f->procs[j].exited)
			return (int)j;
	return -1;
}

unsigned top_view_order(const struct top_view *v, const struct top_frame *f, unsigned *idx,
                        unsigned char *depth)
{
	unsigned n = 0;
	if (!v->tree) {
		for (unsigned i = 0; i < f->nprocs; i++)
			if (name_has(f->procs[i].name, v->filter)) {
				if (depth)
					depth[n] = 0;
				idx[n++] = i;
			}
		return n;
	}
	/* each process in the table's order, then its threads in that order;
	 * a process shows when it or one of its threads matches, and then all
	 * of its threads that match or all when it matches itself */
	for (unsigned i = 0; i < f->nprocs; i++) {
		const struct top_proc *p = &f->procs[i];
		if (p->thread && parent_of(f, p) >= 0)
			continue;
		bool self = name_has(p->name, v->filter), any = self;
		for (unsigned j = 0; j < f->nprocs && !any && !p->thread; j++)
			any = f->procs[j].thread && f->procs[j].tgid == p->pid &&
			      name_has(f->procs[j].name, v->filter);
		if (!any)
			continue;
		if (depth)
			depth[n] = 0;
		idx[n++] = i;
		if (p->thread || p->exited)
			continue;
		unsigned first = n;
		for (unsigned j = 0; j < f->nprocs; j++) {
			const struct top_proc *t = &f->procs[j];
			/* a source's row of the main thread (tid = tgid) is the
			 * process row's, as in htop's tree */
			if (t->thread && t->tgid == p->pid && t->pid != p->pid &&
			    (self || name_has(t->name, v->filter))) {
				if (depth)
					depth[n] = 1;
				idx[n++] = j;
			}
		}
		if (depth && n > first)
			depth[n - 1] = 2;
	}
	return n;
}

static unsigned shown_rows(const struct top_view *v, const struct top_frame *f, unsigned **idx)
{
	*idx = malloc((f->nprocs ? f->nprocs : 1) * sizeof(**idx));
	if (!*idx)
		return 0;
	return top_view_order(v, f, *idx, NULL);
}

static int clampi(int x, int lo, int hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

/* keeps both selections inside their tables and on screen, and notes the
 * selected task for follow */
static void clamp_sel(struct top_view *v, const struct top_frame *f, const unsigned *idx,
                      unsigned n)
{
	int page = v->page > 0 ? v->page : 1;
	v->sel = clampi(v->sel, 0, n ? (int)n - 1 : 0);
	if (v->sel < v->scroll)
		v->scroll = v->sel;
	if (v->sel >= v->scroll + page)
		v->scroll = v->sel - page + 1;
	v->scroll = clampi(v->scroll, 0, (int)n > page ? (int)n - page : 0);
	if (n) {
		const struct top_proc *p = &f->procs[idx[v->sel]];
		v->sel_pid = p->pid;
		snprintf(v->sel_name, sizeof(v->sel_name), "%s", p->name);
	} else {
		v->sel_pid = 0;
		v->sel_name[0] = '\0';
	}
	int upage = v->upage > 0 ? v->upage : 1, nu = (int)f->nunits;
	v->usel = clampi(v->usel, 0, nu ? nu - 1 : 0);
	if (v->usel < v->uscroll)
		v->uscroll = v->usel;
	if (v->usel >= v->uscroll + upage)
		v->uscroll = v->usel - upage + 1;
	v->uscroll = clampi(v->uscroll, 0, nu > upage ? nu - upage : 0);
}

void top_view_sync(struct top_view *v, const struct top_frame *f)
{
	unsigned *idx;
	unsigned n = shown_rows(v, f, &idx);
	if (v->follow && (v->sel_pid || v->sel_name[0])) {
		for (unsigned k = 0; k < n; k++) {
			const struct top_proc *p = &f->procs[idx[k]];
			if (v->sel_pid > 0 ? p->pid == v->sel_pid : !strcmp(p->name, v->sel_name)) {
				v->sel = (int)k;
				break;
			}
		}
	}
	clamp_sel(v, f, idx, n);
	free(idx);
}

bool top_view_nav(struct top_view *v, const struct top_frame *f, int ch)
{
	int *sel = v->on_units ? &v->usel : &v->sel;
	int page = (v->on_units ? v->upage : v->page) > 1 ? (v->on_units ? v->upage : v->page) : 1;
	switch (ch) {
	case KEY_UP:
		(*sel)--;
		break;
	case KEY_DOWN:
		(*sel)++;
		break;
	case KEY_PPAGE:
		*sel -= page;
		break;
	case KEY_NPAGE:
		*sel += page;
		break;
	case KEY_HOME:
		*sel = 0;
		break;
	case KEY_END:
		*sel = INT32_MAX / 2;
		break;
	case '\t':
		v->on_units = !v->on_units;
		break;
	default:
		return false;
	}
	unsigned *idx;
	unsigned n = shown_rows(v, f, &idx);
	clamp_sel(v, f, idx, n);
	free(idx);
	return true;
}

bool top_view_search(struct top_view *v, const struct top_frame *f, const char *text)
{
	unsigned *idx;
	unsigned n = shown_rows(v, f, &idx);
	bool found = false;
	/* from the row after the selection on, wrapping, as htop's F3 again */
	for (unsigned k = 1; k <= n && !found && *text; k++) {
		unsigned r = ((unsigned)(v->sel > 0 ? v->sel : 0) + k) % n;
		if (name_has(f->procs[idx[r]].name, text)) {
			v->sel = (int)r;
			v->on_units = false;
			found = true;
		}
	}
	clamp_sel(v, f, idx, n);
	free(idx);
	return found;
}

const struct top_proc *top_view_selected(const struct top_view *v, const struct top_frame *f)
{
	if (v->on_units)
		return NULL;
	unsigned *idx;
	unsigned n = shown_rows(v, f, &idx);
	const struct top_proc *p =
	    v->sel >= 0 && (unsigned)v->sel < n ? &f->procs[idx[v->sel]] : NULL;
	free(idx);
	return p;
}

int top_view_selected_unit(const struct top_view *v, const struct top_frame *f)
{
	if (!v->on_units || v->usel < 0 || (unsigned)v->usel >= f->nunits)
		return -1;
	return v->usel;
}

/* the selection bar, as htop's: the whole row in reverse video */
static void bar_on(bool on)
{
	if (on)
		attron(A_REVERSE);
}

static void bar_off(bool on, int y)
{
	if (on) {
		/* the bar runs to the right edge */
		int cy, cx;
		getyx(stdscr, cy, cx);
		if (cy == y && cx < COLS)
			mvhline(y, cx, ' ', COLS - cx);
		attroff(A_REVERSE);
	}
}

/* a Topdown bar: colour blocks, or the letters without colour */
static void draw_bar(struct top_view *v, int y, int x, int w, const double td[TD_NR])
{
	char buf[512];
	if (w <= 0)
		return;
	if (w > (int)sizeof(buf) - 1)
		w = (int)sizeof(buf) - 1;
	top_fmt_bar(buf, (unsigned)w, td);
	for (int i = 0; i < w; i++) {
		int k = -1;
		for (int j = 0; j < TD_NR; j++)
			if (buf[i] == top_td_letter[j])
				k = j;
		if (v->color && k >= 0) {
			attron(COLOR_PAIR(PAIR_TD + k));
			mvaddch(y, x + i, ' ');
			attroff(COLOR_PAIR(PAIR_TD + k));
		} else {
			mvaddch(y, x + i, (chtype)(unsigned char)buf[i]);
		}
	}
}

static void header_line(struct top_view *v, int y, const char *text)
{
	if (v->color)
		attron(COLOR_PAIR(PAIR_HEAD));
	else
		attron(A_REVERSE);
	mvhline(y, 0, ' ', COLS);
	mvaddnstr(y, 0, text, COLS);
	if (v->color)
		attroff(COLOR_PAIR(PAIR_HEAD));
	else
		attroff(A_REVERSE);
}

static const char help_text[] =
    "hpmstat top keys\n"
    "\n"
    "  q          quit\n"
    "  h ?        this help (any key closes it)\n"
    "  < >  s     sort the process table by the previous / next column\n"
    "  r          reverse the sort order\n"
    "  v ^        after a column's name: the table is sorted by it, v in its own\n"
    "             order (numbers largest first, names and PIDs A to Z), ^ reversed\n"
    "  p          pause / resume refreshing\n"
    "  + -        refresh interval x2 / /2 (0.1 s to 1 h)\n"
    "  t          Topdown level 1 -> 2 -> 3 -> 1 (reprograms the counters)\n"
    "  d          drill down: count the children of the current bottleneck\n"
    "  u          back up one drill-down level\n"
    "  e          edit the event columns (perf -e syntax; empty: none)\n"
    "  W          write the settings to the config file\n"
    "  Up Down PgUp PgDn Home End   move the selection bar, scrolling the table\n"
    "  Tab        move the bar between the unit (hart/CPU) rows and the processes\n"
    "  Enter      the selected row's own Topdown tree, levels 1 to 3\n"
    "  u Esc Backspace   back: out of a row's tree, else up one drill-down level\n"
    "  F          follow the selected task: the bar stays on it as rows move\n"
    "  /          filter the processes by name (any case); Esc clears it\n"
    "  F5 T       tree view: threads under their process\n"
    "  k          send a signal to the selected task (which one, then y/n)\n"
    "  U          only one user's processes (a name or uid; empty: all), htop's u\n"
    "  htop's F keys: F1 help  F2 setup (e)  F3 search (the bar to the next name\n"
    "  with the text)  F4 filter (/)  F5 tree  F6 sort by a named column  F7 nice -1\n"
    "  F8 nice +1 (the selected task; -1 needs privilege)  F9 kill (k)  F10 quit\n"
    "\n"
    "Bar: R Retiring, F Frontend_Bound, B Bad_Speculation, K Backend_Bound\n"
    "(green, blue, magenta, red with colours). (NN%): counted NN% of the time\n"
    "and scaled; *: computed from scaled counts; ?: a value that cannot be\n"
    "right (a negative count or share, a share over 100%), never a number.\n";

/* the column the keys' explanations start in, where a help line that
 * does not fit goes on */
#define HELP_INDENT 13

static void draw_help(void)
{
	int y = 0;
	const char *p = help_text;
	while (*p && y < LINES) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);
		/* a line wider than the terminal is broken at a blank, not cut:
		 * what it explains is read whole */
		int x = 0;
		while (n > COLS - x && y < LINES) {
			int k = COLS - x;
			while (k > 0 && p[k] != ' ')
				k--;
			if (k == 0)
				k = COLS - x;
			mvaddnstr(y++, x, p, k);
			p += k;
			n -= k;
			while (n > 0 && *p == ' ')
				p++, n--;
			x = HELP_INDENT;
		}
		if (y < LINES)
			mvaddnstr(y++, x, p, n);
		p += n + (nl ? 1 : 0);
	}
}

/* text on as many rows as it takes, broken at spaces to fit COLS (a word
 * longer than a row is cut into rows), so no part of it is lost */
static void draw_wrapped(const char *text)
{
	int row = 0;
	while (*text && row < LINES && COLS > 0) {
		int n = (int)strlen(text);
		if (n > COLS) {
			n = COLS;
			while (n > 0 && text[n] != ' ')
				n--;
			if (n == 0)
				n = COLS;
		}
		mvaddnstr(row++, 0, text, n);
		text += n;
		while (*text == ' ')
			text++;
	}
}

/* Lines 0 and 1: the clock, frame, delay and back end; the source. */
static void draw_title(const struct top_frame *f)
{
	char line[1024];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	snprintf(line, sizeof(line),
	         "hpmstat top - %02d:%02d:%02d  frame %u  every %gs  back end %s%s", tm.tm_hour,
	         tm.tm_min, tm.tm_sec, f->seq, f->delay, f->backend, f->paused ? "  [paused]" : "");
	mvaddnstr(0, 0, line, COLS);
	/* an emulator's source keeps its "not this host" whole: what comes
	 * before it is cut first, so a narrow terminal still says that the
	 * harts shown are emulated */
	size_t n = strlen(f->source), sl = strlen(TOP_EMU_NOT_HOST);
	if ((int)n > COLS && n > sl && !strcmp(f->source + n - sl, TOP_EMU_NOT_HOST) &&
	    COLS > (int)sl + 12) {
		int head = COLS - (int)sl - 3;
		/* at a word's end when one is in reach */
		for (int i = head; i > head / 2; i--)
			if (f->source[i] == ' ') {
				head = i;
				break;
			}
		snprintf(line, sizeof(line), "%.*s...%s", head, f->source, TOP_EMU_NOT_HOST);
		mvaddnstr(1, 0, line, COLS);
	} else {
		mvaddnstr(1, 0, f->source, COLS);
	}
}

/* The level and drill line, the tasks' origin and the bar's legend; returns
 * the next free row. */
static int draw_status(const struct top_view *v, const struct top_frame *f)
{
	char line[1024];
	int len;
	len = snprintf(line, sizeof(line), "Topdown level %d%s%s   h: help", f->level,
	               f->focus[0] ? "   drill: " : "", f->focus);
	if (f->row[0])
		len += snprintf(line + len, sizeof(line) - (size_t)len, "   row: %s", f->row);
	if (v->filter[0])
		len += snprintf(line + len, sizeof(line) - (size_t)len, "   filter: %s", v->filter);
	if (v->follow)
		len += snprintf(line + len, sizeof(line) - (size_t)len, "   [follow]");
	if (v->tree)
		len += snprintf(line + len, sizeof(line) - (size_t)len, "   [tree]");
	mvaddnstr(2, 0, line, COLS);
	int y = 3;
	if (f->tasks[0]) {
		/* where the task rows come from, or why BPF is not used */
		mvaddnstr(y++, 0, f->tasks, COLS);
	}
	/* stat's node names, so the legend reads as stat's tree does; a
	 * terminal too narrow for the four goes on to the next row rather
	 * than leave a colour or letter unexplained */
	int x = 0;
	if (!v->color) {
		mvaddstr(y, 0, "bar:");
		x = 5;
	}
	int lead = v->color ? 3 : 2; /* the swatch or the letter, a blank */
	for (int k = 0; k < TD_NR; k++) {
		int w = lead + (int)strlen(top_td_name[k]);
		if (x > 0 && x + w > COLS) {
			y++;
			x = v->color ? 0 : 5;
		}
		if (v->color) {
			attron(COLOR_PAIR(PAIR_TD + k));
			mvaddstr(y, x, "  ");
			attroff(COLOR_PAIR(PAIR_TD + k));
		} else {
			mvaddch(y, x, (chtype)top_td_letter[k]);
		}
		mvaddnstr(y, x + lead, top_td_name[k], COLS - x - lead);
		x += w + 2;
	}
	y++;
	return y;
}

/* The units (CPUs, harts) with their Topdown bars, from row y; returns the
 * next free row. */
static int draw_units(struct top_view *v, const struct top_frame *f, int y)
{
	char line[1024];
	size_t len = top_unit_header(line, sizeof(line), f);
	int barx = (int)len + 2;
	snprintf(line + len, sizeof(line) - len, "  TOPDOWN");
	header_line(v, y++, line);
	int room = LINES - y - 6; /* leave the tree and the process table some rows */
	unsigned nshow = f->nunits;
	if ((int)nshow > room / 2 && room / 2 > 1)
		nshow = (unsigned)(room / 2);
	v->upage = (int)nshow;
	unsigned u0 =
	    v->uscroll > 0 && (unsigned)v->uscroll + nshow <= f->nunits ? (unsigned)v->uscroll : 0;
	for (unsigned u = u0; u < u0 + nshow; u++) {
		const struct top_unit *t = &f->units[u];
		bool sel = v->on_units && (int)u == v->usel;
		top_unit_line(line, sizeof(line), f, u);
		bar_on(sel);
		mvaddnstr(y, 0, line, COLS);
		bar_off(sel, y);
		int w = COLS - barx - 1;
		if (w > 60)
			w = 60;
		draw_bar(v, y, barx, w, t->td);
		y++;
	}
	if (nshow < f->nunits) {
		snprintf(line, sizeof(line), "  ... %u more", f->nunits - u0 - nshow);
		if (u0)
			snprintf(line, sizeof(line), "  ... %u above, %u below", u0,
			         f->nunits - u0 - nshow);
		mvaddnstr(y++, 0, line, COLS);
	}
	return y;
}

/* The Topdown tree, summed over the units, from row y; returns the next
 * free row. */
static int draw_tree(struct top_view *v, const struct top_frame *f, int y)
{
	char line[1024], a[48];
	if (f->row[0]) {
		snprintf(line, sizeof(line),
		         "TOPDOWN of %s (levels 1-3, %% of slots or cycles)   <== bottleneck"
		         "   u Esc: back",
		         f->row);
		header_line(v, y++, line);
	} else if (f->nnodes) {
		header_line(v, y++,
		            "TOPDOWN (all units, % of slots or cycles)   <== bottleneck"
		            "   >> drilled");
	}
	if (f->nnodes) {
		for (unsigned i = 0; i < f->nnodes && y < LINES - 4; i++) {
			const struct top_node *n = &f->nodes[i];
			int ind = 2 * (int)(n->level - 1);
			if (isnan(n->value))
				snprintf(a, sizeof(a), "-");
			else
				snprintf(a, sizeof(a), "%.1f", n->value);
			snprintf(line, sizeof(line), "%s%*s%-*s %6s%s %s", n->drilled ? ">>" : "  ",
			         ind, "", 26 - ind, n->display, a, n->out_of_range ? "!" : " ",
			         n->bottleneck ? "<==" : "");
			if (n->bottleneck)
				attron(A_BOLD);
			mvaddnstr(y, 0, line, COLS);
			if (n->bottleneck)
				attroff(A_BOLD);
			/* a bar of its share, in its level-1 ancestor's colour */
			int x0 = 42, w = COLS - x0 - 1;
			if (w > 50)
				w = 50;
			/* a share below 0 or over 100 % has no bar: it says so,
			 * as hpmstat stat flags it */
			if (n->out_of_range) {
				char why[64];
				snprintf(line, sizeof(line), "[out of range: %s]",
				         metric_range_text(n->value, why, sizeof(why)));
				if (w > 0)
					mvaddnstr(y, x0, line, COLS - x0);
			} else if (w > 0 && !isnan(n->value) && n->value > 0) {
				const struct top_node *r = n;
				while (r->parent >= 0)
					r = &f->nodes[r->parent];
				int k = td_category(r->name);
				if (k < 0)
					k = TD_BACKEND;
				int cells = (int)lround(n->value / 100.0 * w);
				if (cells > w)
					cells = w;
				for (int j = 0; j < cells; j++) {
					if (v->color) {
						attron(COLOR_PAIR(PAIR_TD + k));
						mvaddch(y, x0 + j, ' ');
						attroff(COLOR_PAIR(PAIR_TD + k));
					} else {
						mvaddch(y, x0 + j, (chtype)top_td_letter[k]);
					}
				}
			}
			y++;
		}
	}
	return y;
}

/* Whether a line cut before column x keeps its columns whole: x is past
 * its end or a blank there. */
static bool column_gap(const char *line, int x)
{
	return (size_t)x >= strlen(line) || line[x] == ' ';
}

/* The process (or workload) table from row y, its nrows rows in order
 * (depth: each row's tree depth), scrolled so the bar stays in view. */
static void draw_procs(struct top_view *v, const struct top_frame *f, int y, const unsigned *order,
                       const unsigned char *depth, unsigned nrows)
{
	char line[1024];
	size_t len = top_proc_header(line, sizeof(line), f);
	/* where the window is in the table, as htop's scroll position */
	v->page = LINES - 1 - (y + 1);
	if (v->page < 1)
		v->page = 1;
	/* the table's room changes with the tree above it: the bar stays in view */
	if (!v->on_units && v->sel >= v->scroll + v->page)
		v->scroll = v->sel - v->page + 1;
	/* and no empty rows below the table while rows above are hidden */
	if (v->scroll > 0 && (unsigned)v->scroll + (unsigned)v->page > nrows)
		v->scroll = (int)nrows > v->page ? (int)nrows - v->page : 0;
	unsigned last = (unsigned)v->scroll + (unsigned)v->page < nrows
	                    ? (unsigned)v->scroll + (unsigned)v->page
	                    : nrows;
	char pos[200] = "";
	if (f->procs_error[0])
		snprintf(pos, sizeof(pos), "   %s", f->procs_error);
	else if (nrows)
		snprintf(pos, sizeof(pos), "   rows %u-%u of %u", (unsigned)v->scroll + 1, last,
		         nrows);
	/* the position stays in view, after the header; a table wider than
	 * the room left loses its last columns whole, the header's names with
	 * the rows' values: a value cut to "2." or a column without its name
	 * would read as something it is not */
	char row[1024];
	int barx, cut = COLS - (int)strlen(pos);
	if (cut <= 0)
		cut = COLS;
	while (cut > 0 && !column_gap(line, cut))
		cut--;
	for (unsigned r = (unsigned)v->scroll; r < last; r++) {
		top_proc_line(row, sizeof(row), f, order[r], depth[r] ? "   " : "", &barx);
		while (cut > 0 && !column_gap(row, cut))
			cut--;
	}
	if (len > (size_t)cut)
		len = (size_t)cut;
	while (len > 0 && line[len - 1] == ' ')
		len--;
	line[len] = '\0';
	snprintf(line + len, sizeof(line) - len, "%s", pos);
	if (y < LINES - 2)
		header_line(v, y++, line);
	for (unsigned r = (unsigned)v->scroll; r < nrows && y < LINES - 1; r++) {
		unsigned i = order[r];
		const struct top_proc *p = &f->procs[i];
		bool sel = !v->on_units && (int)r == v->sel;
		/* a thread's name after its tree line, as htop's tree view */
		top_proc_line(line, sizeof(line), f, i, depth[r] ? "   " : "", &barx);
		if (p->exited)
			attron(A_DIM);
		bar_on(sel);
		mvaddnstr(y, 0, line, cut);
		/* the letters of the task's Topdown bar in colour */
		if (barx >= 0 && v->color && barx + TOP_PROC_BAR_W <= cut)
			draw_bar(v, y, barx, TOP_PROC_BAR_W, p->td);
		if (depth[r] && COLS > 10) {
			if (v->utf8)
				mvaddstr(y, 8, depth[r] == 2 ? "\u2514\u2500" : "\u251c\u2500");
			else
				mvaddstr(y, 8, depth[r] == 2 ? "`-" : "|-");
			move(y, (int)strlen(line) < COLS ? (int)strlen(line) : COLS - 1);
		}
		bar_off(sel, y);
		if (p->exited)
			attroff(A_DIM);
		y++;
	}
}

/* The bottom line: feedback, else the frame's note. */
static void draw_bottom(const struct top_view *v, const struct top_frame *f)
{
	const char *bottom = v->msg[0] ? v->msg : f->status;
	if (bottom[0]) {
		if (v->color)
			attron(COLOR_PAIR(PAIR_BAD));
		mvaddnstr(LINES - 1, 0, bottom, COLS);
		if (v->color)
			attroff(COLOR_PAIR(PAIR_BAD));
	} else if (f->multiplexed) {
		mvaddnstr(LINES - 1, 0, "(NN%): counted NN% of the time and scaled", COLS);
	}
}

void top_view_draw(struct top_view *v, const struct top_frame *f)
{
	char line[1024];
	erase();
	if (COLS < TOP_MIN_COLS || LINES < TOP_MIN_ROWS) {
		/* a frame that does not fit would wrap into garbage */
		snprintf(line, sizeof(line), "terminal too small (%dx%d): hpmstat top needs %dx%d",
		         COLS, LINES, TOP_MIN_COLS, TOP_MIN_ROWS);
		draw_wrapped(line);
		refresh();
		return;
	}
	if (v->help) {
		draw_help();
		refresh();
		return;
	}
	draw_title(f);
	unsigned *order = malloc((f->nprocs ? f->nprocs : 1) * sizeof(*order));
	unsigned char *depth = malloc(f->nprocs ? f->nprocs : 1);
	unsigned nrows = order && depth ? top_view_order(v, f, order, depth) : 0;
	int y = draw_status(v, f);
	y = draw_units(v, f, y);
	y = draw_tree(v, f, y);
	draw_procs(v, f, y, order, depth, nrows);
	free(order);
	free(depth);
	draw_bottom(v, f);
	refresh();
}

/* A terminal that went away (its emulator closed, tmux killed) makes getch
 * fail at once, forever: without this the loop would spin. */
static bool hung_up(void)
{
	struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
	if (poll(&p, 1, 0) < 0)
		return true;
	if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
		return true;
	return !isatty(STDIN_FILENO);
}

int top_view_key(struct top_view *v, int timeout_ms)
{
	(void)v;
	timeout(timeout_ms < 0 ? 0 : timeout_ms);
	int ch = getch();
	if (ch == ERR)
		return hung_up() ? TOP_KEY_HANGUP : TOP_KEY_NONE;
	if (ch == KEY_RESIZE)
		return TOP_KEY_REDRAW;
	if (ch == KEY_ENTER)
		return '\n';
	if (ch == KEY_BACKSPACE)
		return 127;
	/* htop's function keys F1 to F10 */
	for (int n = 1; n <= 10; n++)
		if (ch == KEY_F(n))
			return TOP_KEY_F(n);
	return ch;
}

bool top_view_confirm(struct top_view *v, const char *question)
{
	(void)v;
	timeout(-1);
	for (;;) {
		move(LINES - 1, 0);
		clrtoeol();
		mvaddnstr(LINES - 1, 0, question, COLS);
		refresh();
		int ch = getch();
		if (ch == ERR && hung_up())
			return false;
		if (ch == 'y' || ch == 'Y')
			return true;
		if (ch == 'n' || ch == 'N' || ch == 27 || ch == 'q')
			return false;
	}
}

bool top_view_prompt(struct top_view *v, const char *prompt, const char *init, char *buf,
                     size_t len)
{
	(void)v;
	snprintf(buf, len, "%s", init ? init : "");
	size_t n = strlen(buf);
	curs_set(1);
	timeout(-1);
	for (;;) {
		move(LINES - 1, 0);
		clrtoeol();
		mvaddnstr(LINES - 1, 0, prompt, COLS);
		int px = (int)strlen(prompt);
		/* the tail of a long line stays visible */
		int w = COLS - px - 1;
		const char *shown = (int)n > w && w > 0 ? buf + n - (size_t)w : buf;
		mvaddnstr(LINES - 1, px, shown, w > 0 ? w : 0);
		refresh();
		int ch = getch();
		if (ch == ERR && hung_up()) {
			curs_set(0);
			return false;
		}
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
			curs_set(0);
			return true;
		}
		if (ch == 27) {
			curs_set(0);
			return false;
		}
		if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && n) {
			buf[--n] = '\0';
		} else if (ch == 21) { /* ^U */
			n = 0;
			buf[0] = '\0';
		} else if (ch >= 32 && ch < 127 && n + 1 < len) {
			buf[n++] = (char)ch;
			buf[n] = '\0';
		}
	}
}
