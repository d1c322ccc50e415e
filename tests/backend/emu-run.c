/* emu-run.c: see emu-run.h. */
#include <stdio.h>
#include <stdlib.h>

#include "emu-run.h"
#include "tap.h"

int emu_run_whole(struct hpm_evlist *l, struct hpm_emu_config *c, struct hpm_backend_inst **h,
                  char *err, size_t errlen)
{
	const struct hpm_backend *be = &hpm_backend_emu;
	bool done = false;
	int rc;
	*h = NULL;
	if ((rc = be->open(l, NULL, 0, NULL, c, h, err, errlen))) {
		tap_diag("open: %s", err);
		return rc;
	}
	if ((rc = be->enable(*h, err, errlen)) || (rc = be->advance(*h, 0, &done, err, errlen)) ||
	    (rc = be->disable(*h, err, errlen)) || (rc = be->read(*h, err, errlen))) {
		tap_diag("run: %s", err);
		return rc;
	}
	return done ? 0 : -1;
}

char *emu_run_dry(struct hpm_evlist *l, struct hpm_emu_config *c, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc = hpm_backend_emu.dry_run(l, NULL, 0, NULL, c, f, err, errlen);
	fclose(f);
	if (rc) {
		tap_diag("dry run: %s", err);
		free(text);
		return NULL;
	}
	return text;
}
