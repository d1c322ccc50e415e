/* tdcolor.c: see tdcolor.h. */
#include <string.h>
#include <stdbool.h>
#include <strings.h>

#include "metric/tdcolor.h"

/* Saturated colours whose hue is near that of their basic terminal colour
 * (green 120, blue 240, magenta 300, red 0 degrees), so the report and the
 * terminal show the same colour, not merely related ones; tests/top/
 * top-colors.sh checks the hues and that both views use these. */
const struct td_colour td_colours[TD_CAT_NR] = {
    [TD_CAT_RETIRING] = {"retiring", "#4caf50", TD_ANSI_GREEN},
    [TD_CAT_FRONTEND] = {"frontend", "#3f51b5", TD_ANSI_BLUE},
    [TD_CAT_BADSPEC] = {"bad_speculation", "#9c27b0", TD_ANSI_MAGENTA},
    [TD_CAT_BACKEND] = {"backend", "#e53935", TD_ANSI_RED},
};

static bool has(const char *s, const char *word)
{
	size_t n = strlen(word);
	for (; *s; s++)
		if (!strncasecmp(s, word, n))
			return true;
	return false;
}

int td_category(const char *name)
{
	if (!name)
		return -1;
	/* the level-1 names of every model's table: tma_retiring,
	 * tma_frontend_bound, tma_bad_speculation, tma_backend_bound */
	if (has(name, "retiring"))
		return TD_CAT_RETIRING;
	if (has(name, "frontend"))
		return TD_CAT_FRONTEND;
	if (has(name, "speculation"))
		return TD_CAT_BADSPEC;
	if (has(name, "backend"))
		return TD_CAT_BACKEND;
	return -1;
}
