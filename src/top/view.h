/* view.h: the ncurses view of `hpmstat top`.
 *
 * Owns: the terminal (newterm on the controlling tty, so a TERM that is
 * unset or unknown is an error the caller turns into batch mode instead of
 * curses' exit), drawing a struct top_frame, the help screen, the prompt
 * line and key input. It never changes the model: the caller maps keys to
 * top_model calls. Only built with ncurses (HAVE_NCURSES).
 */
#ifndef HPM_TOP_VIEW_H
#define HPM_TOP_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "top/top.h"

#define TOP_MIN_COLS 60
#define TOP_MIN_ROWS 15

struct top_view {
	bool color;     /* colours in use */
	bool help;      /* the help screen is up */
	char msg[1100]; /* one-line feedback to the last key, shown at the bottom */
	void *screen;   /* SCREEN * */
	bool utf8;      /* a UTF-8 locale: the tree view's lines as box characters */

	/* htop's interaction. Rows are counted in the shown order: the process
	 * table filtered by name and, in the tree view, threads under their
	 * process (top_view_order). */
	bool on_units;     /* Tab: the selection bar is on the unit (hart/CPU) rows */
	int sel, scroll;   /* process table: selected row, first row shown */
	int usel, uscroll; /* unit rows: the same */
	int sel_pid;       /* the selected task at the last sync (0: none) */
	char sel_name[64]; /* its name: follows a row without a pid (a workload) */
	bool follow;       /* F: the selection stays on sel_pid across frames */
	bool tree;         /* F5/T: threads under their process (mirrors top_opts) */
	char filter[64];   /* '/': case-insensitive name substring, "" none */
	char search[64];   /* F3: the last text searched for */
	int page, upage;   /* process / unit rows shown at the last draw */
};

/* The process table's rows as shown: indices into f->procs, filtered and
 * (tree view) each process followed by its threads; depth[i] (when not
 * NULL) 0 for a top-level row, 1 for a thread with a sibling below it, 2
 * for the last thread. idx and depth have room for f->nprocs. */
unsigned top_view_order(const struct top_view *v, const struct top_frame *f, unsigned *idx,
                        unsigned char *depth);
/* After a new frame, a re-sort or a new filter: with follow the selection
 * moves to the same task, else it stays on the same row; both stay inside
 * the table and on screen. */
void top_view_sync(struct top_view *v, const struct top_frame *f);
/* Moves the selection for Up, Down, PgUp, PgDn, Home, End and Tab; false
 * for any other key. */
bool top_view_nav(struct top_view *v, const struct top_frame *f, int ch);
/* F3: the selection bar to the next row (after the selected one,
 * wrapping) whose name has text (any case); false when none has. */
bool top_view_search(struct top_view *v, const struct top_frame *f, const char *text);
/* The selected process row (NULL: none, or the bar is on the units) and
 * the selected unit (-1: the bar is on the process table). */
const struct top_proc *top_view_selected(const struct top_view *v, const struct top_frame *f);
int top_view_selected_unit(const struct top_view *v, const struct top_frame *f);
/* y or n (Escape: n) to a question on the bottom line. */
bool top_view_confirm(struct top_view *v, const char *question);

/* 0, or -1 with a message (no terminal, TERM unset or unknown). */
int top_view_init(struct top_view *v, bool want_color, char *err, size_t errlen);
void top_view_draw(struct top_view *v, const struct top_frame *f);
/* A key within timeout_ms (-1: none). KEY_RESIZE is handled here (the
 * caller redraws on TOP_KEY_REDRAW). */
#define TOP_KEY_NONE   (-1)
#define TOP_KEY_REDRAW (-2)
#define TOP_KEY_HANGUP (-3) /* the terminal is gone: quit */
/* keys the caller maps, whatever curses calls them: Enter is '\n',
 * Backspace 127, Escape 27 */
/* htop's F1 to F10, whatever curses calls them */
#define TOP_KEY_F(n) (0x10000 + (n))
#define TOP_KEY_F5   TOP_KEY_F(5)
int top_view_key(struct top_view *v, int timeout_ms);
/* Reads one line at the bottom, prefilled with init. true on Enter,
 * false on Escape. */
bool top_view_prompt(struct top_view *v, const char *prompt, const char *init, char *buf,
                     size_t len);
void top_view_end(struct top_view *v);

#endif
