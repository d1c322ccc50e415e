/* report-int.h: the renderers of src/report, not exported.
 *
 * Owns: the renderer entry points that report_render (render.c)
 * dispatches to, one per format (render-text.c, render-csv.c,
 * render-json.c, render-md.c, render-html.c). What they write alike is in
 * cells.h; they never call the dispatcher.
 */
#ifndef HPM_REPORT_REPORT_INT_H
#define HPM_REPORT_REPORT_INT_H

#include <stdio.h>

#include "report/report.h"

void rp_render_text(const struct report *r, FILE *out);
void rp_render_csv(const struct report *r, FILE *out);
void rp_render_json(const struct report *r, FILE *out);
void rp_render_md(const struct report *r, FILE *out);
void rp_render_html(const struct report *r, FILE *out);

#endif
