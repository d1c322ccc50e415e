/* suggest.c: see suggest.h. */
#include "util/suggest.h"

#include <string.h>
#include <strings.h>

#include "util/edit-distance.h"

void suggest_init(struct suggest *s, const char *name, size_t len, unsigned limit, bool prefix_hint,
                  const char **out, unsigned max)
{
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->len = len;
	s->limit = limit;
	s->prefix_hint = prefix_hint;
	s->out = out;
	s->max = max > SUGGEST_MAX ? SUGGEST_MAX : max;
}

void suggest_offer(struct suggest *s, const char *cand)
{
	char base[64];
	unsigned d;
	size_t len = s->len < sizeof(base) ? s->len : sizeof(base) - 1;

	if (!s->max)
		return;
	memcpy(base, s->name, len);
	base[len] = '\0';
	if (s->prefix_hint && len >= 3 && strncasecmp(cand, base, len) == 0)
		d = strlen(cand) == len ? 0 : 1;
	else
		d = edit_distance(base, cand, s->limit);
	if (d > s->limit)
		return;
	for (unsigned i = 0; i < s->n; i++)
		if (strcmp(s->out[i], cand) == 0)
			return;
	/* insertion into the sorted list; ties keep table order */
	unsigned pos = s->n;
	while (pos > 0 && s->dist[pos - 1] > d)
		pos--;
	if (pos >= s->max)
		return;
	unsigned last = s->n < s->max ? s->n : s->max - 1;
	for (unsigned i = last; i > pos; i--) {
		s->out[i] = s->out[i - 1];
		s->dist[i] = s->dist[i - 1];
	}
	s->out[pos] = cand;
	s->dist[pos] = d;
	if (s->n < s->max)
		s->n++;
}
