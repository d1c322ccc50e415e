/* view.c: see view.h. */
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "metric/tdcolor.h"
#include "top/view.h"

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

static void fmt_val(char *buf, size_t len, const struct top_value *tv)
{
	char n[32];
	top_fmt_value(n, sizeof(n), tv->v);
	if (isnan(tv->v) || tv->share >= 0.999)
		snprintf(buf, len, "%s", n);
	else if (tv->share < 0)
		snprintf(buf, len, "%s*", n);
	else
		snprintf(buf, len, "%s(%.0f%%)", n, tv->share * 100);
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
    "  p          pause / resume refreshing\n"
    "  + -        refresh interval x2 / /2 (0.1 s to 1 h)\n"
    "  t          Topdown level 1 -> 2 -> 3 -> 1 (reprograms the counters)\n"
    "  d          drill down: count the children of the current bottleneck\n"
    "  u          back up one drill-down level\n"
    "  e          edit the event columns (perf -e syntax; empty: none)\n"
    "  W          write the settings to the config file\n"
    "\n"
    "Bar: R retiring, F frontend bound, B bad speculation, K backend bound\n"
    "(green, blue, magenta, red with colours). (NN%): counted NN% of the time\n"
    "and scaled; *: computed from scaled counts.\n";

static void draw_help(void)
{
	int y = 0;
	const char *p = help_text;
	while (*p && y < LINES) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);
		mvaddnstr(y++, 0, p, n < COLS ? n : COLS);
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

void top_view_draw(struct top_view *v, const struct top_frame *f)
{
	char line[1024], a[48], b[48], c[48];
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
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	snprintf(line, sizeof(line),
	         "hpmstat top - %02d:%02d:%02d  frame %u  every %gs  back end %s%s", tm.tm_hour,
	         tm.tm_min, tm.tm_sec, f->seq, f->delay, f->backend, f->paused ? "  [paused]" : "");
	mvaddnstr(0, 0, line, COLS);
	mvaddnstr(1, 0, f->source, COLS);
	snprintf(line, sizeof(line), "Topdown level %d%s%s   h: help", f->level,
	         f->focus[0] ? "   drill: " : "", f->focus);
	mvaddnstr(2, 0, line, COLS);
	int y = 3;
	if (v->color) {
		static const char *const lab[TD_NR] = {"retiring", "frontend", "bad spec",
		                                       "backend"};
		int x = 0;
		for (int k = 0; k < TD_NR && x < COLS - 12; k++) {
			attron(COLOR_PAIR(PAIR_TD + k));
			mvaddstr(y, x, "  ");
			attroff(COLOR_PAIR(PAIR_TD + k));
			mvaddstr(y, x + 3, lab[k]);
			x += 14;
		}
	} else {
		mvaddnstr(y, 0, "bar: R retiring  F frontend  B bad speculation  K backend", COLS);
	}
	y++;

	/* units */
	int len =
	    snprintf(line, sizeof(line), "%-8s %9s %9s %5s", "UNIT", "CYCLES", "INSTR", "IPC");
	for (unsigned k = 0; k < f->ncols && len < (int)sizeof(line) - 20; k++)
		len +=
		    snprintf(line + len, sizeof(line) - (size_t)len, " %12.12s", f->col_names[k]);
	int barx = len + 2;
	snprintf(line + len, sizeof(line) - (size_t)len, "  TOPDOWN");
	header_line(v, y++, line);
	int room = LINES - y - 6; /* leave the tree and the process table some rows */
	unsigned nshow = f->nunits;
	if ((int)nshow > room / 2 && room / 2 > 1)
		nshow = (unsigned)(room / 2);
	for (unsigned u = 0; u < nshow; u++) {
		const struct top_unit *t = &f->units[u];
		fmt_val(a, sizeof(a), &t->cycles);
		fmt_val(b, sizeof(b), &t->instructions);
		if (isnan(t->ipc))
			snprintf(c, sizeof(c), "-");
		else
			snprintf(c, sizeof(c), "%.2f", t->ipc);
		len = snprintf(line, sizeof(line), "%-8s %9s %9s %5s", t->name, a, b, c);
		for (unsigned k = 0; k < f->ncols && len < (int)sizeof(line) - 20; k++) {
			fmt_val(a, sizeof(a), &t->col[k]);
			len += snprintf(line + len, sizeof(line) - (size_t)len, " %12s", a);
		}
		mvaddnstr(y, 0, line, COLS);
		int w = COLS - barx - 1;
		if (w > 60)
			w = 60;
		draw_bar(v, y, barx, w, t->td);
		y++;
	}
	if (nshow < f->nunits) {
		snprintf(line, sizeof(line), "  ... %u more", f->nunits - nshow);
		mvaddnstr(y++, 0, line, COLS);
	}

	/* the Topdown tree, summed over the units */
	if (f->nnodes) {
		header_line(v, y++,
		            "TOPDOWN (all units, % of slots or cycles)   <== bottleneck"
		            "   >> drilled");
		for (unsigned i = 0; i < f->nnodes && y < LINES - 4; i++) {
			const struct top_node *n = &f->nodes[i];
			int ind = 2 * (int)(n->level - 1);
			if (isnan(n->value))
				snprintf(a, sizeof(a), "-");
			else
				snprintf(a, sizeof(a), "%.1f", n->value);
			snprintf(line, sizeof(line), "%s%*s%-*s %6s %s", n->drilled ? ">>" : "  ",
			         ind, "", 26 - ind, n->display, a, n->bottleneck ? "<==" : "");
			if (n->bottleneck)
				attron(A_BOLD);
			mvaddnstr(y, 0, line, COLS);
			if (n->bottleneck)
				attroff(A_BOLD);
			/* a bar of its share, in its level-1 ancestor's colour */
			int x0 = 42, w = COLS - x0 - 1;
			if (w > 50)
				w = 50;
			if (w > 0 && !isnan(n->value) && n->value > 0) {
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

	/* the process (or workload) table */
	bool emu = !strcmp(f->backend, "emu");
	len = snprintf(line, sizeof(line), "%7s %-24s", emu ? "HART" : "PID",
	               emu ? "WORKLOAD" : "COMMAND");
	for (unsigned k = 0; k < f->npcols; k++) {
		bool s = (int)k == f->sort_col;
		char name[24];
		snprintf(name, sizeof(name), "%s%s", f->pcol_names[k],
		         s ? (f->reverse ? "^" : "v") : "");
		len += snprintf(line + len, sizeof(line) - (size_t)len, " %9s", name);
	}
	snprintf(line + len, sizeof(line) - (size_t)len, "  %s", emu ? "BOTTLENECK" : "S");
	if (y < LINES - 2)
		header_line(v, y++, line);
	for (unsigned i = 0; i < f->nprocs && y < LINES - 1; i++) {
		const struct top_proc *p = &f->procs[i];
		if (p->pid >= 0)
			len = snprintf(line, sizeof(line), "%7d %-24.24s", p->pid, p->name);
		else
			len = snprintf(line, sizeof(line), "%7u %-24.24s", i, p->name);
		for (unsigned k = 0; k < f->npcols; k++) {
			top_fmt_value(a, sizeof(a), p->v[k]);
			len += snprintf(line + len, sizeof(line) - (size_t)len, " %9s", a);
		}
		snprintf(line + len, sizeof(line) - (size_t)len, "  %s", p->extra);
		if (p->exited)
			attron(A_DIM);
		mvaddnstr(y++, 0, line, COLS);
		if (p->exited)
			attroff(A_DIM);
	}

	/* the bottom line: feedback, else the frame's note */
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
	return ch;
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
