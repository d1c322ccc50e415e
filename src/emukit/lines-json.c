/* lines-json.c: the listings' JSON (see emukit/lines.h), apart from
 * lines.c so that what prints only text links without jansson. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "emukit/lines.h"

json_t *hpm_emu_json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

int hpm_emu_json_out(json_t *doc, void (*out)(void *ctx, const char *line), void *ctx, char *err,
                     size_t errlen)
{
	char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	if (!text) {
		snprintf(err, errlen, "cannot format JSON");
		return -1;
	}
	out(ctx, text);
	free(text);
	return 0;
}
