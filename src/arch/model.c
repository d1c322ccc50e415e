/* model.c: what every PMU model shares: error texts, lookups in a model's
 * fixed counters and generic names, the placing of a format term's value
 * into a perf_event_attr, and the validator every model's data goes
 * through (see model.h). Knows no model. */
#include "arch/model.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *hpm_model_strerror(int code)
{
	switch (code) {
	case 0:
		return "success";
	case HPM_MODEL_EUNKNOWN:
		return "unknown event";
	case HPM_MODEL_EINVAL:
		return "invalid event";
	case HPM_MODEL_ESYNTAX:
		return "syntax error";
	case HPM_MODEL_ENOTSUP:
		return "not supported by this PMU model";
	default:
		return "unknown error";
	}
}

int hpm_model_fixed_by_name(const struct hpm_pmu_model *m, const char *name, size_t len)
{
	for (unsigned i = 0; i < m->nr_fixed; i++)
		if (strlen(m->fixed[i].name) == len && strncmp(m->fixed[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

int hpm_model_fixed_by_counter(const struct hpm_pmu_model *m, unsigned counter)
{
	for (unsigned i = 0; i < m->nr_fixed; i++)
		if (m->fixed[i].counter == counter)
			return (int)i;
	return -1;
}

int hpm_model_fixed_by_generic(const struct hpm_pmu_model *m, const char *name)
{
	for (unsigned i = 0; i < m->nr_fixed; i++)
		if (m->fixed[i].generic && strcmp(m->fixed[i].generic, name) == 0)
			return (int)i;
	return -1;
}

bool hpm_model_fixed_is(const struct hpm_event_code *c, const char *generic)
{
	if (!c->model || c->fixed < 0 || (unsigned)c->fixed >= c->model->nr_fixed)
		return false;
	const char *g = c->model->fixed[c->fixed].generic;
	return g && strcmp(g, generic) == 0;
}

int hpm_model_fixed_by_event(const struct hpm_pmu_model *m, const char *name)
{
	for (unsigned i = 0; i < m->nr_fixed; i++)
		if (m->fixed[i].event && strcasecmp(m->fixed[i].event, name) == 0)
			return (int)i;
	return -1;
}

const struct hpm_model_generic *hpm_model_generic(const struct hpm_pmu_model *m, const char *name,
                                                  size_t len)
{
	for (unsigned i = 0; i < m->nr_generic; i++)
		if (strlen(m->generic[i].generic) == len &&
		    strncmp(m->generic[i].generic, name, len) == 0)
			return &m->generic[i];
	return NULL;
}

/* ------------------------------------------------------------ validator */

struct problems {
	unsigned n;
	char *err;
	size_t errlen;
};

static void problem(struct problems *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(struct problems *p, const char *fmt, ...)
{
	if (p->n++ == 0 && p->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(p->err, p->errlen, fmt, ap);
		va_end(ap);
	}
}

unsigned hpm_model_validate(const struct hpm_pmu_model *m, char *err, size_t errlen)
{
	struct problems p = {0, err, errlen};
	struct hpm_diag msg;
	char buf[32];
	if (errlen)
		err[0] = '\0';
	if (!m->name || !m->name[0] || !m->encode || !m->nr_events || !m->event_at ||
	    !m->parse_modifiers || !m->modes_str) {
		problem(&p, "model '%s': a name or a required operation is missing",
		        m->name ? m->name : "?");
		return p.n;
	}
	unsigned n = m->nr_events(m);
	for (unsigned i = 0; i < n; i++) {
		struct hpm_model_event ev;
		struct hpm_event_code c, back;
		m->event_at(m, i, &ev);
		if (ev.undefined) {
			/* listed for reference; the hardware cannot count it */
			if (m->encode(m, ev.name, &c, &msg) == 0)
				problem(&p, "event '%s' is undefined but encodes", ev.name);
			continue;
		}
		if (m->encode(m, ev.name, &c, &msg) != 0) {
			problem(&p, "event '%s' does not encode: %s", ev.name, msg.msg);
			continue;
		}
		if (c.model != m || c.value != ev.code) {
			snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)c.value);
			problem(&p, "event '%s' encodes to %s, not its table code", ev.name, buf);
		}
		/* the canonical text is what decode/-v show: it must say the same */
		if (m->encode(m, c.canonical, &back, &msg) != 0 || back.value != c.value)
			problem(&p, "event '%s': its canonical text '%s' does not encode back",
			        ev.name, c.canonical);
		/* a name listed twice would shadow the second row */
		for (unsigned j = 0; j < i; j++) {
			struct hpm_model_event prev;
			m->event_at(m, j, &prev);
			if (strcmp(prev.name, ev.name) == 0 && strcmp(prev.topic, ev.topic) == 0)
				problem(&p, "event '%s' is listed twice in '%s'", ev.name,
				        ev.topic);
		}
	}
	for (unsigned i = 0; i < m->nr_fixed; i++) {
		struct hpm_event_code c;
		if (m->encode(m, m->fixed[i].name, &c, &msg) == 0)
			problem(&p, "fixed counter '%s' is also an event name", m->fixed[i].name);
		if (m->fixed[i].event && m->encode(m, m->fixed[i].event, &c, &msg) != 0)
			problem(&p, "fixed counter '%s' counts '%s', which is no event",
			        m->fixed[i].name, m->fixed[i].event);
	}
	for (unsigned i = 0; i < m->nr_generic; i++) {
		const struct hpm_model_generic *g = &m->generic[i];
		struct hpm_event_code c;
		if (g->event ? m->encode(m, g->event, &c, &msg) != 0
		             : g->fixed < 0 || (unsigned)g->fixed >= m->nr_fixed)
			problem(&p, "generic name '%s' maps to nothing that counts (%s)",
			        g->generic, g->event ? g->event : "a fixed counter out of range");
	}
	return p.n;
}

const char *hpm_model_generic_name(const struct hpm_pmu_model *m, const char *generic)
{
	const struct hpm_model_generic *g = hpm_model_generic(m, generic, strlen(generic));
	if (!g)
		return NULL;
	return g->event ? g->event : m->fixed[g->fixed].name;
}

const char *hpm_model_fixed_list(const struct hpm_pmu_model *m, const char *sep, char *buf,
                                 size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < m->nr_fixed && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? sep : "", m->fixed[i].name);
	return buf;
}

bool hpm_model_perf_deposit(uint64_t value, uint64_t mask, uint64_t *out)
{
	uint64_t v = 0;
	for (unsigned b = 0; b < 64 && value; b++) {
		if (!(mask & (UINT64_C(1) << b)))
			continue;
		if (value & 1)
			v |= UINT64_C(1) << b;
		value >>= 1;
	}
	if (value)
		return false;
	*out |= v;
	return true;
}

bool hpm_model_perf_put(struct hpm_model_perf_attr *a, const struct hpm_model_perf_format *f,
                        uint64_t value)
{
	uint64_t *field = f->field == 0 ? &a->config : f->field == 1 ? &a->config1 : &a->config2;
	return f->field <= 2 && hpm_model_perf_deposit(value, f->mask, field);
}
