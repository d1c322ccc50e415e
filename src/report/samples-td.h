/* samples-td.h: --topdown for the samples report (samples-td.c).
 *
 * Owns: giving each member's count delta between consecutive group reads
 * of the same leader event, cpu and thread (the first from 0, as perf
 * report counts it) to the entry (function) the later sample landed in, and the level-1 Topdown of
 * every entry from those deltas, with the formulas of the first registered PMU model whose Topdown
 * the group's events can compute (the metric engine evaluates; the model's table supplies the
 * formulas, so Kunminghu's and the Arm cores' come from their models alike).
 */
#ifndef HPM_REPORT_SAMPLES_TD_H
#define HPM_REPORT_SAMPLES_TD_H

#include "report/samples.h"

void rs_td_sample(struct rs_report *rs, struct rs_hist *h, struct rs_entry *e,
                  const struct pd_record *r);
void rs_td_finish(struct rs_report *rs);

#endif
