/* nodes.c: see nodes.h. */
#include "stat/nodes.h"

#include <stdio.h>
#include <string.h>

#include "metric/metric.h"

const char *stat_node_desc(const struct stat_config *cfg, const struct stat_metric *m)
{
	if (!cfg->verbose || !m->bottleneck || !m->level)
		return NULL;
	const struct metric *d = m->def;
	return d && *metric_str(d, d->description) ? metric_str(d, d->description) : NULL;
}

void stat_print_node_desc(const struct stat_config *cfg, const struct stat_metric *m)
{
	const char *p = stat_node_desc(cfg, m);
	/* under the name (print-std.c puts it after 3 blanks and 2 per level),
	 * deeper than the children's names */
	int indent = 3 + 2 * (int)(m->level - 1) + 4;
	int width = STAT_NODE_DESC_WIDTH - indent;

	if (!p || cfg->interval_ms > 0)
		return;
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		/* the longest run of whole words that fits; a longer word alone */
		int len = (int)strlen(p), cut = len;
		if (len > width) {
			cut = 0;
			for (int i = 1; i <= width; i++)
				if (p[i] == ' ')
					cut = i;
			if (!cut)
				cut = (int)strcspn(p, " ");
		}
		fprintf(cfg->out, "%*s%.*s\n", indent, "", cut, p);
		p += cut;
	}
}
