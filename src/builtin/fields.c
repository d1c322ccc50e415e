/* fields.c: see fields.h. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "builtin/fields.h"
#include "registry/models.h"
#include "util/str.h"

const struct hpm_pmu_model *fields_model(void)
{
	return hpm_model_at(0);
}

const struct hpm_pmu_model *fields_model_by_name(const char *name)
{
	const struct hpm_pmu_model *m = hpm_model_by_name(name);
	char msg[512];
	if (m)
		return m;
	hpm_model_unknown_msg(name, msg, sizeof(msg));
	cli_error("%s", msg);
	return NULL;
}

const struct hpm_pmu_model *fields_model_by_arch(const char *arch)
{
	char known[128] = "";
	size_t n = 0;
	if (hpm_model_arch(arch))
		return hpm_model_arch(arch);
	for (unsigned i = 0; i < hpm_model_count(); i++)
		if (strcmp(hpm_model_at(i)->arch, arch) == 0)
			return hpm_model_at(i);
	for (unsigned i = 0; i < hpm_model_count() && n < sizeof(known); i++) {
		const char *a = hpm_model_at(i)->arch;
		bool seen = false;
		for (unsigned j = 0; j < i; j++)
			seen |= strcmp(hpm_model_at(j)->arch, a) == 0;
		if (!seen)
			n += (size_t)snprintf(known + n, sizeof(known) - n, "%s%s", n ? ", " : "",
			                      a);
	}
	cli_error("--arch '%s': no such architecture (known: %s)", arch, known);
	return NULL;
}

const struct hpm_pmu_model *fields_model_for(const char *pmu, const char *arch)
{
	const struct hpm_pmu_model *m = pmu ? fields_model_by_name(pmu) : NULL;
	if (pmu && !m)
		return NULL;
	if (!arch)
		return m ? m : fields_model();
	if (!m)
		return fields_model_by_arch(arch);
	if (strcmp(m->arch, arch) != 0) {
		cli_error("--pmu %s --arch %s: %s is an %s model", m->name, arch, m->name, m->arch);
		return NULL;
	}
	return m;
}

int fields_class_by_name(const struct hpm_pmu_model *m, const char *name)
{
	char names[160] = "";
	size_t off = 0;
	for (unsigned c = 0; c < m->nr_constraints; c++)
		if (strcmp(m->constraint_name(m, (int)c), name) == 0)
			return (int)c;
	for (unsigned c = 0; c < m->nr_constraints && off < sizeof(names); c++)
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", c ? ", " : "",
		                        m->constraint_name(m, (int)c));
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

void fields_report_error(const char *input, const struct hpm_diag *err)
{
	char quoted[256];
	str_escape(input, quoted, sizeof(quoted));
	if (err->column)
		cli_error("'%s': column %u: %s", quoted, err->column, err->msg);
	else
		cli_error("'%s': %s", quoted, err->msg);
}
