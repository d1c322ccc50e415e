/* tdcolor.h: the colours of the Topdown level-1 categories.
 *
 * Owns: the one table of the four level-1 categories' colours (Retiring,
 * Frontend_Bound, Bad_Speculation, Backend_Bound), as an RGB for the HTML
 * report and as the nearest of the eight basic terminal colours for
 * `hpmstat top`, so that a category has the same colour wherever it is
 * drawn; and the mapping of a level-1 metric name to its category.
 */
#ifndef HPM_METRIC_TDCOLOR_H
#define HPM_METRIC_TDCOLOR_H

/* in the order of top.h's TD_RETIRING..TD_BACKEND */
enum td_cat { TD_CAT_RETIRING, TD_CAT_FRONTEND, TD_CAT_BADSPEC, TD_CAT_BACKEND, TD_CAT_NR };

/* The basic terminal colours, as ANSI SGR 30+n / 40+n and curses'
 * COLOR_* number them. */
enum td_ansi {
	TD_ANSI_BLACK,
	TD_ANSI_RED,
	TD_ANSI_GREEN,
	TD_ANSI_YELLOW,
	TD_ANSI_BLUE,
	TD_ANSI_MAGENTA,
	TD_ANSI_CYAN,
	TD_ANSI_WHITE,
};

struct td_colour {
	const char *name; /* "retiring" */
	const char *rgb;  /* "#rrggbb" */
	short ansi;       /* enum td_ansi: the basic colour nearest in hue */
};

extern const struct td_colour td_colours[TD_CAT_NR];

/* The category of a level-1 Topdown metric by its name (tma_retiring,
 * tma_frontend_bound, ..., case-insensitive), or -1 for another name. */
int td_category(const char *metric_name);

#endif
