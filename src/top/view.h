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
};

/* 0, or -1 with a message (no terminal, TERM unset or unknown). */
int top_view_init(struct top_view *v, bool want_color, char *err, size_t errlen);
void top_view_draw(struct top_view *v, const struct top_frame *f);
/* A key within timeout_ms (-1: none). KEY_RESIZE is handled here (the
 * caller redraws on TOP_KEY_REDRAW). */
#define TOP_KEY_NONE   (-1)
#define TOP_KEY_REDRAW (-2)
#define TOP_KEY_HANGUP (-3) /* the terminal is gone: quit */
int top_view_key(struct top_view *v, int timeout_ms);
/* Reads one line at the bottom, prefilled with init. true on Enter,
 * false on Escape. */
bool top_view_prompt(struct top_view *v, const char *prompt, const char *init, char *buf,
                     size_t len);
void top_view_end(struct top_view *v);

#endif
