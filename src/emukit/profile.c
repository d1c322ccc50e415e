/* profile.c: see profile.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emukit/profile.h"
#include "util/lex.h"
#include "util/readall.h"
#include "util/str.h"
#include "util/xalloc.h"

/* The model's wording, one argument of each kind: the formats come from the
 * models' tables, which the compiler cannot check against the call (each
 * table entry says which argument its format takes). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static bool say(struct emu_profile_parser *ps, const char *fmt, const char *arg, uint64_t num)
{
	return hpm_diag_set(&ps->diag, ps->line, 0, fmt, arg, (unsigned long long)num);
}
/* ... with two texts: an unknown key and the known ones, a share and its name */
static bool say2(struct emu_profile_parser *ps, const char *fmt, const char *a, const char *b)
{
	return hpm_diag_set(&ps->diag, ps->line, 0, fmt, a, b);
}
#pragma GCC diagnostic pop

bool emu_profile_error(struct emu_profile_parser *ps, unsigned line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hpm_diag_vset(&ps->diag, line, 0, fmt, ap);
	va_end(ap);
	return false;
}

bool emu_profile_valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || *s == '.'))
			return false;
	return true;
}

bool emu_profile_share(const char *s, double *out)
{
	return lex_decimal(s, 0, 0, 1, out, NULL) == LEX_NUM_OK;
}

bool emu_profile_range(const char *s, uint32_t max, uint32_t *lo, uint32_t *hi)
{
	uint64_t a, b;
	if (lex_range(s, LEX_NUM_HEX, 1, max, &a, &b, NULL))
		return false;
	*lo = (uint32_t)a;
	*hi = (uint32_t)b;
	return true;
}

int emu_profile_index(const char *const *names, size_t stride, unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++) {
		const char *const *nm = (const char *const *)((const char *)names + i * stride);
		if (strcmp(*nm, name) == 0)
			return (int)i;
	}
	return -1;
}

/* ------------------------------------------------------------------ keys */

static void store_uint(void *at, size_t width, uint64_t v)
{
	switch (width) {
	case 1: {
		uint8_t x = (uint8_t)v;
		memcpy(at, &x, 1);
		break;
	}
	case 2: {
		uint16_t x = (uint16_t)v;
		memcpy(at, &x, 2);
		break;
	}
	case 4: {
		uint32_t x = (uint32_t)v;
		memcpy(at, &x, 4);
		break;
	}
	default:
		memcpy(at, &v, 8);
	}
}

/* A typed value into the record. */
static bool typed_value(struct emu_profile_parser *ps, const struct emu_profile_key *k, char *rec,
                        char *value)
{
	uint64_t v, hi;
	double d;
	switch (k->type) {
	case EMU_KEY_NAME:
		if (!emu_profile_valid_name(value))
			return say(ps, k->bad, value, k->max);
		__attribute__((fallthrough)); /* a name is stored as text */
	case EMU_KEY_TEXT: {
		char **s = (char **)(rec + k->offset);
		free(*s);
		*s = xstrdup(value);
		return true;
	}
	case EMU_KEY_UINT:
		if (lex_u64(value, strlen(value), LEX_NUM_HEX, k->min, k->max, &v, NULL) ||
		    (k->multiple && v % k->multiple))
			return say(ps, k->bad, value, k->max);
		store_uint(rec + k->offset, k->width, v);
		return true;
	case EMU_KEY_RANGE:
		if (lex_range(value, LEX_NUM_HEX, k->min, k->max, &v, &hi, NULL))
			return say(ps, k->bad, value, k->max);
		store_uint(rec + k->offset, 4, v);
		store_uint(rec + k->offset_hi, 4, hi);
		return true;
	case EMU_KEY_SHARE:
		if (!emu_profile_share(value, &d) || (k->min && d <= 0))
			return say(ps, k->bad, value, k->max);
		memcpy(rec + k->offset, &d, sizeof(d));
		return true;
	case EMU_KEY_SHARES:
		return emu_profile_shares_read(ps, (struct emu_profile_shares *)(rec + k->offset),
		                               value, k->shares);
	case EMU_KEY_CALL:
		return k->call(ps, rec, k->name, value);
	}
	return false;
}

static bool key_value(struct emu_profile_parser *ps, char *key, char *value)
{
	const struct emu_profile_format *fmt = ps->fmt;
	if (!*key)
		return say(ps, fmt->empty_key, "", 0);
	if (!*value)
		return say(ps, fmt->empty_value, key, 0);
	const struct emu_profile_key *k = ps->sec->keys;
	unsigned i = 0;
	for (; k && k->name && strcmp(k->name, key) != 0; k++)
		i++;
	if (!k || !k->name) {
		if (ps->sec->other)
			return ps->sec->other(ps, ps->record, key, value);
		char known[256];
		struct str_buf b = {known, sizeof(known), 0};
		known[0] = '\0';
		for (k = ps->sec->keys; k && k->name; k++)
			if (!k->unlisted)
				str_buf_add(&b, "%s%s", b.n ? ", " : "", k->name);
		return say2(ps, ps->sec->unknown, key, known);
	}
	if (fmt->twice && !k->repeat && (ps->seen >> i & 1))
		return say(ps, fmt->twice, key, 0);
	ps->seen |= UINT64_C(1) << i;
	if (k->negative && value[0] == '-')
		return say(ps, k->negative, value, 0);
	char *rec = k->in_twin ? ps->twin : ps->record;
	if (!typed_value(ps, k, rec, value))
		return false;
	if (k->has)
		*(bool *)(rec + k->has) = true;
	return true;
}

/* -------------------------------------------------------------- sections */

/* A pointer stored at p (one of the model's arrays, whatever its type). */
static void *pointer_at(const void *p)
{
	void *v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* One more zeroed element of size bytes at the end of the array whose
 * pointer is at p and which has n elements; its address. */
static char *grow_at(void *p, unsigned n, size_t size)
{
	char *arr = xreallocarray(pointer_at(p), (size_t)n + 1, size);
	memcpy(p, &arr, sizeof(arr));
	memset(arr + (size_t)n * size, 0, size);
	return arr + (size_t)n * size;
}

/* The record of a new section of the kit's keeping: the top record's
 * array (and the model's twin) one longer, named, at its line. */
static void *add_record(struct emu_profile_parser *ps, const struct emu_profile_section *sec,
                        const char *name)
{
	char *top = ps->top;
	unsigned *n = (unsigned *)(top + sec->count), i = *n;
	char *rec = grow_at(top + sec->array, i, sec->size);
	ps->twin =
	    sec->twin_size ? grow_at((char *)ps->model + sec->twin, i, sec->twin_size) : NULL;
	char *copy = xstrdup(name);
	memcpy(rec + sec->name_at, &copy, sizeof(copy));
	memcpy(rec + sec->line_at, &ps->line, sizeof(ps->line));
	(*n)++;
	if (sec->opened && !sec->opened(ps, rec, i))
		return NULL;
	return rec;
}

static bool section(struct emu_profile_parser *ps, char *header)
{
	const struct emu_profile_format *fmt = ps->fmt;
	char *kind = header, *name = header;
	while (*name && !lex_is_blank(*name))
		name++;
	if (*name)
		*name++ = '\0';
	name = lex_trim(name);
	if (fmt->bad_header && (!*kind || !*name || strpbrk(name, " \t\r")))
		return say(ps, fmt->bad_header, "", 0);
	if (!emu_profile_valid_name(name))
		return say(ps, fmt->bad_name, name, 0);
	const struct emu_profile_section *sec = fmt->sections;
	for (; sec->name && strcmp(sec->name, kind) != 0; sec++)
		;
	if (!sec->name) {
		char kinds[256];
		struct str_buf b = {kinds, sizeof(kinds), 0};
		kinds[0] = '\0';
		for (const struct emu_profile_section *s = fmt->sections; s->name; s++)
			str_buf_add(&b, "%s%s", s == fmt->sections ? "" : ", ", s->name);
		return hpm_diag_set(&ps->diag, ps->line, 0, "unknown section '%s' (%s)", kind,
		                    kinds);
	}
	for (unsigned i = 0; i < ps->nr_sections; i++) {
		const struct emu_profile_seen *s = &ps->sections[i];
		if (s->sec != sec || strcmp(s->name, name) != 0)
			continue;
		if (fmt->twice_says_first_line)
			return hpm_diag_set(&ps->diag, ps->line, 0,
			                    "%s '%s' defined twice (first at line %u)", kind, name,
			                    s->line);
		return hpm_diag_set(&ps->diag, ps->line, 0, "%s '%s' defined twice", kind, name);
	}
	ps->twin = NULL;
	void *rec = sec->open ? sec->open(ps, name) : add_record(ps, sec, name);
	if (!rec)
		return false;
	if (ps->sec == fmt->top)
		ps->top_seen = ps->seen;
	ps->sections = xreallocarray(ps->sections, ps->nr_sections + 1, sizeof(*ps->sections));
	ps->sections[ps->nr_sections++] = (struct emu_profile_seen){sec, xstrdup(name), ps->line};
	ps->sec = sec;
	ps->record = rec;
	ps->seen = 0;
	return true;
}

static bool one_line(struct emu_profile_parser *ps, char *line)
{
	struct lex_item it;
	switch (lex_split(line, false, &it)) {
	case LEX_BLANK:
		return true;
	case LEX_SECTION:
		return section(ps, it.section);
	case LEX_BAD_SECTION:
		return say(ps, ps->fmt->bad_section, it.text, 0);
	case LEX_KEY_VALUE:
		return key_value(ps, it.key, it.value);
	case LEX_OTHER:
		break;
	}
	return say(ps, ps->fmt->not_key_value, it.text, 0);
}

/* The top keys and the sections a file must have: the first missing one. */
static bool required(struct emu_profile_parser *ps)
{
	const struct emu_profile_format *fmt = ps->fmt;
	unsigned i = 0;
	for (const struct emu_profile_key *k = fmt->top->keys; k && k->name; k++, i++)
		if (k->required && !(ps->top_seen >> i & 1))
			return emu_profile_error(ps, 0, "%s", k->required);
	for (const struct emu_profile_section *sec = fmt->sections; sec->name; sec++)
		if (sec->required && !*(unsigned *)((char *)ps->top + sec->count))
			return emu_profile_error(ps, 0, "%s", sec->required);
	return true;
}

bool emu_profile_read(struct emu_profile_parser *ps, const struct emu_profile_format *fmt,
                      void *top_record, const char *file, const char *text, size_t len)
{
	ps->diag.file = file;
	ps->fmt = fmt;
	ps->sec = fmt->top;
	ps->record = top_record;
	ps->top = top_record;
	ps->twin = NULL;
	ps->seen = ps->top_seen = 0;
	ps->line = 0;
	if (memchr(text, '\0', len)) {
		if (fmt->nul_byte)
			return emu_profile_error(ps, 0, "%s", fmt->nul_byte);
		len = strlen(text);
	}
	char *buf = xmalloc(len + 1);
	memcpy(buf, text, len);
	buf[len] = '\0';
	bool ok = true;
	for (char *s = buf; ok && *s;) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		ps->line++;
		ok = one_line(ps, s);
		if (!nl)
			break;
		s = nl + 1;
	}
	free(buf);
	if (ok && ps->sec == fmt->top)
		ps->top_seen = ps->seen;
	return ok && required(ps);
}

void emu_profile_parser_free(struct emu_profile_parser *ps)
{
	for (unsigned i = 0; i < ps->nr_sections; i++)
		free(ps->sections[i].name);
	free(ps->sections);
	ps->sections = NULL;
	ps->nr_sections = 0;
}

/* ------------------------------------------------------ NAME:SHARE lists */

void emu_profile_shares_add(struct emu_profile_shares *l, const char *name, double share,
                            unsigned line)
{
	l->v = xreallocarray(l->v, l->nr + 1, sizeof(*l->v));
	l->v[l->nr++] = (struct emu_profile_share){xstrdup(name), share, line};
}

double emu_profile_shares_sum(const struct emu_profile_shares *l)
{
	double s = 0;
	for (unsigned i = 0; i < l->nr; i++)
		s += l->v[i].share;
	return s;
}

void emu_profile_shares_free(struct emu_profile_shares *l)
{
	for (unsigned i = 0; i < l->nr; i++)
		free(l->v[i].name);
	free(l->v);
	*l = (struct emu_profile_shares){NULL, 0, 0};
}

/* One entry, w; the wording's formats as say2's */
static bool share_entry(struct emu_profile_parser *ps, struct emu_profile_shares *l, char *w,
                        const struct emu_profile_share_format *f)
{
	char *colon = f->last_colon ? strrchr(w, ':') : strchr(w, ':');
	double sh;
	if (!colon || (f->last_colon && colon == w))
		return say(ps, f->not_pair, w, 0);
	if (f->negative && colon[1] == '-') {
		*colon = '\0';
		return say(ps, f->negative, w, 0);
	}
	if (!emu_profile_share(colon + 1, &sh)) {
		if (!f->bad)
			return say(ps, f->not_pair, w, 0);
		*colon = '\0';
		return say2(ps, f->bad, colon + 1, w);
	}
	*colon = '\0';
	for (unsigned j = 0; f->twice && j < l->nr; j++)
		if (strcmp(l->v[j].name, w) == 0)
			return say(ps, f->twice, w, 0);
	emu_profile_shares_add(l, w, sh, ps->line);
	return true;
}

bool emu_profile_shares_read(struct emu_profile_parser *ps, struct emu_profile_shares *l,
                             char *value, const struct emu_profile_share_format *f)
{
	if (!l->line)
		l->line = ps->line;
	unsigned n = 0;
	for (const char *s = value + strspn(value, f->blanks); *s; s += strspn(s, f->blanks)) {
		s += strcspn(s, f->blanks);
		n++;
	}
	if (f->max && n > f->max)
		return say(ps, f->too_many, "", 0);
	for (char *s = value + strspn(value, f->blanks); *s; s += strspn(s, f->blanks)) {
		char *w = s;
		s += strcspn(s, f->blanks);
		if (*s)
			*s++ = '\0';
		if (!share_entry(ps, l, w, f))
			return false;
	}
	return true;
}

/* ------------------------------------------------------------------ files */

char *emu_profile_read_file(const char *path, size_t max, const char *too_large, size_t *len,
                            char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		str_seterr(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return NULL;
	}
	char *buf;
	int e = util_read_all(fd, max, NULL, NULL, &buf, len);
	close(fd);
	if (e) {
		str_seterr(err, errlen, "%s: cannot read: %s", path,
		           e == -EFBIG ? too_large : strerror(-e));
		return NULL;
	}
	return buf;
}

/* -------------------------------------------------------------- registry */

static void registry_load(struct emu_profile_registry *r)
{
	if (r->loaded)
		return;
	r->loaded = true;
	if (r->nr_builtin_at)
		r->nr_builtin = *r->nr_builtin_at;
	r->builtins = xcalloc(r->nr_builtin + 1, sizeof(*r->builtins));
	for (unsigned i = 0; i < r->nr_builtin; i++) {
		void *p = r->builtin(i);
		if (!p)
			continue;
		/* by name: a handful, inserted in order */
		unsigned j = r->nr++;
		for (; j && strcmp(r->name(r->builtins[j - 1]), r->name(p)) > 0; j--)
			r->builtins[j] = r->builtins[j - 1];
		r->builtins[j] = p;
	}
}

unsigned emu_profile_registry_count(struct emu_profile_registry *r)
{
	registry_load(r);
	return r->nr;
}

void *emu_profile_registry_at(struct emu_profile_registry *r, unsigned i)
{
	registry_load(r);
	return i < r->nr ? r->builtins[i] : NULL;
}

void *emu_profile_registry_builtin(struct emu_profile_registry *r, const char *name)
{
	registry_load(r);
	for (unsigned i = 0; i < r->nr; i++)
		if (strcmp(r->name(r->builtins[i]), name) == 0)
			return r->builtins[i];
	return NULL;
}

void *emu_profile_registry_keep(struct emu_profile_registry *r, void *profile)
{
	r->files = xreallocarray(r->files, r->nr_files + 1, sizeof(*r->files));
	r->files[r->nr_files++] = profile;
	return profile;
}

void emu_profile_registry_release(struct emu_profile_registry *r, const void *profile)
{
	for (unsigned i = 0; i < r->nr_files; i++)
		if (r->files[i] == profile) {
			r->destroy(r->files[i]);
			r->files[i] = r->files[--r->nr_files];
			return;
		}
}

void emu_profile_registry_names(struct emu_profile_registry *r, char *buf, size_t len)
{
	struct str_buf b = {buf, len, 0};
	registry_load(r);
	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < r->nr; i++)
		str_buf_add(&b, "%s%s", i ? ", " : "", r->name(r->builtins[i]));
}

/* r->unknown is the model's wording, with the name and the list */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void say_unknown(const struct emu_profile_registry *r, const char *name, const char *list,
                        char *err, size_t errlen)
{
	str_seterr(err, errlen, r->unknown, name, list);
}
#pragma GCC diagnostic pop

void *emu_profile_registry_find(struct emu_profile_registry *r, const char *name_or_path, char *err,
                                size_t errlen)
{
	void *builtin = emu_profile_registry_builtin(r, name_or_path);
	if (builtin)
		return builtin;
	/* Not a built-in name: a path if it looks like one or names a file. */
	FILE *probe = fopen(name_or_path, "rb");
	if (!probe && !strchr(name_or_path, '/') &&
	    !(r->file_suffix && strstr(name_or_path, r->file_suffix))) {
		char list[1024];
		emu_profile_registry_names(r, list, sizeof(list));
		say_unknown(r, name_or_path, list, err, errlen);
		return NULL;
	}
	if (probe)
		fclose(probe);
	size_t len;
	char *text =
	    emu_profile_read_file(name_or_path, r->max_bytes, r->too_large, &len, err, errlen);
	if (!text)
		return NULL;
	void *p = r->parse_file(name_or_path, text, len, err, errlen);
	free(text);
	return p ? emu_profile_registry_keep(r, p) : NULL;
}
