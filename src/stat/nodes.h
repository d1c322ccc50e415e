/* nodes.h: what the printers say about a Topdown node beyond its value.
 *
 * Owns: the descriptions -v prints for the nodes on the bottleneck path, as
 * toplev prints them for its bottleneck (the PublicDescription of
 * metrics.json). Std output gets them as indented lines under the node's
 * row; JSON as the extra key "desc" of the node's object; CSV not at all,
 * so that every CSV line stays a perf row.
 */
#ifndef HPM_STAT_NODES_H
#define HPM_STAT_NODES_H

#include "stat/stat.h"

/* The description -v shows for metric row m: its PublicDescription when m
 * is a Topdown node on the bottleneck path and -v was given; NULL else. */
const char *stat_node_desc(const struct stat_config *cfg, const struct stat_metric *m);

/* Std output: stat_node_desc(cfg, m) word-wrapped under the node's name,
 * four columns deeper, within STAT_NODE_DESC_WIDTH columns; nothing when
 * there is none. */
#define STAT_NODE_DESC_WIDTH 79
void stat_print_node_desc(const struct stat_config *cfg, const struct stat_metric *m);

#endif
