/* dl-curses.c: the curses functions of top's full-screen view
 * (top/view.c), through dlopen (util/dlib.h): batch and JSON top, and
 * every other command, never map ncurses.
 *
 * The view also reads curses' variables stdscr, COLS and LINES. They are
 * defined here and copied from the library's after each call, the only
 * time the library changes them (newterm, a resize seen by wgetch). */
#include <curses.h>

#include "util/dlib.h"

/* clang-format off */
#define CURSES_FUNCS(X) \
	X(cbreak) \
	X(curs_set) \
	X(delscreen) \
	X(endwin) \
	X(has_colors) \
	X(init_pair) \
	X(keypad) \
	X(newterm) \
	X(noecho) \
	X(set_escdelay) \
	X(start_color) \
	X(use_default_colors) \
	X(waddch) \
	X(waddnstr) \
	X(wattr_off) \
	X(wattr_on) \
	X(wclrtoeol) \
	X(werase) \
	X(wgetch) \
	X(whline) \
	X(wmove) \
	X(wrefresh) \
	X(wtimeout) \
	X(stdscr) \
	X(COLS) \
	X(LINES)
/* clang-format on */

enum { CURSES_FUNCS(HPM_DL_ENUM) NFUNCS };
static const char *const names[] = {CURSES_FUNCS(HPM_DL_NAME)};
static void *fns[NFUNCS];
static struct hpm_dlib lib = {NCURSES_SONAME, NCURSES_PACKAGE, names, fns, NFUNCS, 0, ""};
#define F(f) HPM_DL_FN(lib, fns, f)

WINDOW *stdscr;
int COLS, LINES;

int hpm_dl_curses_load(char *err, size_t errlen)
{
	return hpm_dlib_load(&lib, err, errlen);
}

/* the library's variables, after a call */
static int sync_int(int rc)
{
	stdscr = *(WINDOW **)fns[HPM_DL_I_stdscr];
	COLS = *(int *)fns[HPM_DL_I_COLS];
	LINES = *(int *)fns[HPM_DL_I_LINES];
	return rc;
}

int cbreak(void)
{
	return sync_int(F(cbreak)());
}
int curs_set(int visibility)
{
	return sync_int(F(curs_set)(visibility));
}
void delscreen(SCREEN *sp)
{
	F(delscreen)(sp);
	sync_int(0);
}
int endwin(void)
{
	return sync_int(F(endwin)());
}
bool has_colors(void)
{
	bool yes = F(has_colors)();
	sync_int(0);
	return yes;
}
int init_pair(short pair, short f, short b)
{
	return sync_int(F(init_pair)(pair, f, b));
}
int keypad(WINDOW *win, bool bf)
{
	return sync_int(F(keypad)(win, bf));
}
SCREEN *newterm(const char *type, FILE *outfd, FILE *infd)
{
	SCREEN *s = F(newterm)(type, outfd, infd);
	sync_int(0);
	return s;
}
int noecho(void)
{
	return sync_int(F(noecho)());
}
int set_escdelay(int ms)
{
	return sync_int(F(set_escdelay)(ms));
}
int start_color(void)
{
	return sync_int(F(start_color)());
}
int use_default_colors(void)
{
	return sync_int(F(use_default_colors)());
}
int waddch(WINDOW *win, const chtype ch)
{
	return sync_int(F(waddch)(win, ch));
}
int waddnstr(WINDOW *win, const char *str, int n)
{
	return sync_int(F(waddnstr)(win, str, n));
}
int wattr_off(WINDOW *win, attr_t attrs, void *opts)
{
	return sync_int(F(wattr_off)(win, attrs, opts));
}
int wattr_on(WINDOW *win, attr_t attrs, void *opts)
{
	return sync_int(F(wattr_on)(win, attrs, opts));
}
int wclrtoeol(WINDOW *win)
{
	return sync_int(F(wclrtoeol)(win));
}
int werase(WINDOW *win)
{
	return sync_int(F(werase)(win));
}
int wgetch(WINDOW *win)
{
	return sync_int(F(wgetch)(win));
}
int whline(WINDOW *win, chtype ch, int n)
{
	return sync_int(F(whline)(win, ch, n));
}
int wmove(WINDOW *win, int y, int x)
{
	return sync_int(F(wmove)(win, y, x));
}
int wrefresh(WINDOW *win)
{
	return sync_int(F(wrefresh)(win));
}
void wtimeout(WINDOW *win, int delay)
{
	F(wtimeout)(win, delay);
	sync_int(0);
}
