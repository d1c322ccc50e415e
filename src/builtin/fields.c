/* fields.c: see fields.h. */
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "builtin/fields.h"
#include "core/models.h"
#include "util/str.h"

const struct hpm_pmu_model *fields_model(void)
{
	return hpm_model_at(0);
}

int fields_class_by_name(const struct hpm_pmu_model *m, const char *name)
{
	char names[160] = "";
	size_t off = 0;
	for (unsigned c = 0; c < m->nr_constraints; c++)
		if (strcmp(m->constraint_name((int)c), name) == 0)
			return (int)c;
	for (unsigned c = 0; c < m->nr_constraints && off < sizeof(names); c++)
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", c ? ", " : "",
		                        m->constraint_name((int)c));
	cli_error("unknown %s '%s' (%ss: %s)", m->counters.class_word, name, m->counters.class_word,
	          names);
	return -1;
}

void fields_print_text(FILE *out, uint64_t value, const char *text,
                       const struct hpm_model_decoded *d)
{
	fprintf(out, "0x%016llx  %s  %s\n", (unsigned long long)value, text, d->fields);
}

int fields_print_json_line(FILE *out, json_t *obj)
{
	char *s = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (!s)
		return -1;
	fputs(s, out);
	fputc('\n', out);
	free(s);
	return 0;
}

void fields_report_error(const char *input, const struct hpm_model_error *err)
{
	char quoted[256];
	str_escape(input, quoted, sizeof(quoted));
	if (err->pos >= 0)
		cli_error("'%s': column %d: %s", quoted, err->pos + 1, err->msg);
	else
		cli_error("'%s': %s", quoted, err->msg);
}
