/* names.c: the names Topdown nodes and metrics are shown by (see
 * metric.h): toplev's spelling (Memory_Bound, L1_Bound, DRAM_Bound) of a
 * metric's name, for the tree, the suggestions and every printer. Its own
 * file: metrics.c, the stat session and the report all use it. */
#include <ctype.h>
#include <string.h>

#include "metric/metric.h"
#include "util/xalloc.h"

/* toplev's spelling of a node name; up: capitalise (a tree node) */
static char *display_name(const char *name, bool up)
{
	const char *n = strncmp(name, "tma_", 4) == 0 ? name + 4 : name;
	char *d = xstrdup(n);
	for (char *p = d; *p && up; p++) {
		if (p == d || p[-1] == '_')
			*p = (char)toupper((unsigned char)*p);
		if (*p == 'l' && (p == d || p[-1] == '_') && isdigit((unsigned char)p[1]))
			*p = 'L';
	}
	/* acronyms, as toplev writes them */
	char *dram = strstr(d, "Dram");
	if (dram)
		memcpy(dram, "DRAM", 4);
	return d;
}

char *metric_display_name(const char *name)
{
	return display_name(name, strncmp(name, "tma_", 4) == 0);
}

char *metric_node_display_name(const struct metric *m)
{
	const char *name = metric_str(m, m->name);
	return display_name(name, m->level > 0 || strncmp(name, "tma_", 4) == 0);
}
