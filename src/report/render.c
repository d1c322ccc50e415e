/* render.c: report_render, the dispatcher: one renderer per format
 * (render-*.c, report-int.h), each of which writes with the cells of
 * cells.h. */
#include <locale.h>
#include <stdio.h>

#include "report/report-int.h"

int report_render(const struct report *r, enum rp_format f, FILE *out)
{
	/* printf's '%f' follows LC_NUMERIC: render in the C locale for this
	 * thread only, whatever the program set */
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	locale_t old = c ? uselocale(c) : (locale_t)0;
	switch (f) {
	case RP_TEXT:
		rp_render_text(r, out);
		break;
	case RP_CSV:
		rp_render_csv(r, out);
		break;
	case RP_JSON:
		rp_render_json(r, out);
		break;
	case RP_MD:
		rp_render_md(r, out);
		break;
	case RP_HTML:
		rp_render_html(r, out);
		break;
	}
	if (c) {
		uselocale(old);
		freelocale(c);
	}
	return ferror(out) ? -1 : 0;
}
