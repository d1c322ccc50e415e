/* profile-kit.c: src/emukit/profile.c, the profile kit, through a toy model's
 * tables (no emulator): typed keys stored at their offsets, ranges and
 * multiples at both edges, a key given twice, a negative value, an unknown
 * key or section, a section defined twice, the kit's FILE:LINE: messages
 * in the model's wording, a share above 0, records found by name, and
 * the registry (sorted built-ins, a file profile released, a built-in
 * left alone). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "emukit/profile.h"
#include "tap.h"

struct toy {
	char *name, *note;
	uint32_t lo, hi;
	uint16_t width;
	double share;
	bool has_share;
	unsigned nr_boxes, box_line;
};

struct box {
	char *name; /* what EMU_PROFILE_INDEX finds a box by */
	uint64_t size;
	double weight;
	bool has_weight;
	unsigned calls;
};

static struct box boxes[4];

static void *open_box(struct emu_profile_parser *ps, const char *name)
{
	struct toy *t = ps->model;
	if (strcmp(name, "forbidden") == 0) {
		emu_profile_error(ps, ps->line, "box '%s' is forbidden", name);
		return NULL;
	}
	t->box_line = ps->line;
	return &boxes[t->nr_boxes++ % 4];
}

static bool count_call(struct emu_profile_parser *ps, void *rec, const char *key, char *value)
{
	(void)ps;
	(void)key;
	(void)value;
	((struct box *)rec)->calls++;
	return true;
}

static const struct emu_profile_key toy_keys[] = {
    {.name = "name", .type = EMU_KEY_NAME, EMU_KEY_AT(struct toy, name), .bad = "bad name '%s'"},
    {.name = "note", .type = EMU_KEY_TEXT, EMU_KEY_AT(struct toy, note)},
    {.name = "span",
     .type = EMU_KEY_RANGE,
     EMU_KEY_AT(struct toy, lo),
     .offset_hi = offsetof(struct toy, hi),
     .min = 1,
     .max = 1000,
     .bad = "bad span '%s' (1..%llu)"},
    {.name = "width",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct toy, width),
     .min = 2,
     .max = 64,
     .multiple = 2,
     .negative = "width %s is negative",
     .bad = "bad width '%s' (2..%llu, even)"},
    {.name = "share",
     .type = EMU_KEY_SHARE,
     EMU_KEY_AT(struct toy, share),
     .has = offsetof(struct toy, has_share),
     .bad = "bad share '%s'"},
    {.name = NULL},
};

static const struct emu_profile_key box_keys[] = {
    {.name = "size",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct box, size),
     .max = UINT64_MAX,
     .bad = "bad size '%s'"},
    {.name = "weight",
     .type = EMU_KEY_SHARE,
     EMU_KEY_AT(struct box, weight),
     .has = offsetof(struct box, has_weight),
     .min = 1, /* above 0 */
     .negative = "weight %s is negative",
     .bad = "bad weight '%s' (above 0, at most 1)"},
    {.name = "call", .type = EMU_KEY_CALL, .repeat = true, .call = count_call},
    {.name = NULL},
};

static const struct emu_profile_section toy_top = {.keys = toy_keys,
                                                   .unknown = "unknown key '%s' at the top"};
static const struct emu_profile_section toy_sections[] = {
    {.name = "box", .open = open_box, .keys = box_keys, .unknown = "unknown box key '%s'"},
    {.name = "crate", .open = open_box, .keys = box_keys, .unknown = "unknown crate key '%s'"},
    {.name = NULL},
};
static const struct emu_profile_format toy_format = {
    .top = &toy_top,
    .sections = toy_sections,
    .nul_byte = "a NUL byte",
    .bad_section = "no ']' in '%s'",
    .bad_name = "bad section name '%s'",
    .not_key_value = "what is '%s'?",
    .empty_key = "no key",
    .empty_value = "no value for '%s'",
    .twice = "'%s' twice",
    .twice_says_first_line = true,
};

/* Reads text into a fresh toy; the formatted diag into msg on failure. */
static bool toy_read(const char *text, struct toy *t, char *msg, size_t len)
{
	struct emu_profile_parser ps = {.model = t};
	memset(t, 0, sizeof(*t));
	memset(boxes, 0, sizeof(boxes));
	bool ok = emu_profile_read(&ps, &toy_format, t, "toy.profile", text, strlen(text));
	emu_profile_parser_free(&ps);
	if (!ok)
		hpm_diag_format(&ps.diag, msg, len);
	else
		msg[0] = '\0';
	return ok;
}

static void refused(const char *text, const char *want, const char *what)
{
	struct toy t;
	char msg[512];
	bool ok = toy_read(text, &t, msg, sizeof(msg));
	tap_ok(!ok && strcmp(msg, want) == 0, "%s: '%s' (got '%s')", what, want, msg);
	free(t.name);
	free(t.note);
}

static void parsing(void)
{
	struct toy t;
	char msg[512];
	bool ok = toy_read("# a toy\nname = t-1\nnote =  two  words \nspan = 3..1000\n"
	                   "width = 0x40\nshare = .25\n[box a]\nsize = 0xffffffffffffffff\n"
	                   "call = x\ncall = y\n",
	                   &t, msg, sizeof(msg));
	tap_ok(ok, "a toy profile reads (%s)", msg);
	tap_ok(ok && strcmp(t.name, "t-1") == 0 && strcmp(t.note, "two  words") == 0,
	       "text stored, trimmed at both ends only");
	tap_ok(t.lo == 3 && t.hi == 1000 && t.width == 64 && t.share == 0.25 && t.has_share,
	       "range, 16-bit width (0x40), share and its 'has' flag stored at their offsets");
	tap_ok(boxes[0].size == UINT64_MAX && boxes[0].calls == 2 && t.box_line == 7,
	       "a section's record: 64-bit size, a repeatable call twice, opened at line 7");
	free(t.name);
	free(t.note);

	refused("width = 1\n", "toy.profile:1: bad width '1' (2..64, even)", "below min");
	refused("width = 66\n", "toy.profile:1: bad width '66' (2..64, even)", "above max");
	refused("width = 7\n", "toy.profile:1: bad width '7' (2..64, even)", "not a multiple");
	refused("width = -2\n", "toy.profile:1: width -2 is negative", "a negative value");
	refused("span = 0..5\n", "toy.profile:1: bad span '0..5' (1..1000)", "LO below 1");
	refused("span = 5..4\n", "toy.profile:1: bad span '5..4' (1..1000)", "LO above HI");
	refused("share = 1.5\n", "toy.profile:1: bad share '1.5'", "a share above 1");
	refused("name = a b\n", "toy.profile:1: bad name 'a b'", "a name with a blank");
	refused("name = a\n\nname = b\n", "toy.profile:3: 'name' twice", "a key given twice");
	refused("nmae = a\n", "toy.profile:1: unknown key 'nmae' at the top", "an unknown key");
	refused("[box a]\nsize = x\n", "toy.profile:2: bad size 'x'", "a bad value in a section");
	refused("[box a]\nweight = 0\n", "toy.profile:2: bad weight '0' (above 0, at most 1)",
	        "a share with min 1 refuses 0");
	refused("[box a]\nweight = -0.5\n", "toy.profile:2: weight -0.5 is negative",
	        "a share's negative wording comes first");
	refused("[box a]\nweight = 1\n[box b]\nweight = 1\nweight = .5\n",
	        "toy.profile:5: 'weight' twice", "a key is given twice per section, not per file");
	refused("[box a]\nsiz = 1\n", "toy.profile:2: unknown box key 'siz'",
	        "the section's own unknown-key wording");
	refused("[box a]\n[box a]\n", "toy.profile:2: box 'a' defined twice (first at line 1)",
	        "a section defined twice");
	refused("[box a]\n[crate a]\n[crate a]\n",
	        "toy.profile:3: crate 'a' defined twice (first at line 2)",
	        "names are per kind: box a and crate a are two");
	refused("[bag a]\n", "toy.profile:1: unknown section 'bag' (box, crate)",
	        "an unknown kind lists the kinds");
	refused("[box forbidden]\n", "toy.profile:1: box 'forbidden' is forbidden",
	        "the model's open refuses with its own message");
	refused("[box a\n", "toy.profile:1: no ']' in '[box a'", "no ']'");
	refused("[box]\n", "toy.profile:1: bad section name ''", "no name");
	refused("oops\n", "toy.profile:1: what is 'oops'?", "neither a section nor key = value");
	refused(" = 1\n", "toy.profile:1: no key", "an empty key");
	refused("note =\n", "toy.profile:1: no value for 'note'", "an empty value");
	char nul[] = "name = a\n\0x";
	struct emu_profile_parser ps = {.model = &t};
	memset(&t, 0, sizeof(t));
	ok = emu_profile_read(&ps, &toy_format, &t, "toy.profile", nul, sizeof(nul) - 1);
	emu_profile_parser_free(&ps);
	tap_ok(!ok && strcmp(hpm_diag_format(&ps.diag, msg, sizeof(msg)),
	                     "toy.profile: a NUL byte") == 0,
	       "a NUL byte: the file, no line (%s)", msg);
	free(t.name);

	ok = toy_read("[box a]\nweight = 1e-3\n", &t, msg, sizeof(msg));
	tap_ok(!ok, "a share is a decimal fraction, not an exponent (%s)", msg);
	ok = toy_read("[box a]\nweight = 0.001\n", &t, msg, sizeof(msg));
	tap_ok(ok && boxes[0].weight == 0.001 && boxes[0].has_weight,
	       "a small share above 0 is taken, its 'has' flag set (%s)", msg);
}

/* The records of a model are found by their names (the first box's name
 * where it stands in an array of boxes). */
static void index_by_name(void)
{
	static char a[] = "a", b[] = "b", c[] = "c";
	struct box named[3] = {{.name = a}, {.name = b}, {.name = c}};
	tap_is_u64((uint64_t)EMU_PROFILE_INDEX(named, 3, "c"), 2, "the last record by name");
	tap_is_u64((uint64_t)EMU_PROFILE_INDEX(named, 3, "a"), 0, "the first record by name");
	tap_ok(EMU_PROFILE_INDEX(named, 3, "d") == -1, "a name none has: -1");
	tap_ok(EMU_PROFILE_INDEX(named, 0, "a") == -1, "no records: -1");
}

/* ------------------------------------------------------------- registry */

static char toy_names[][8] = {"zeta", "alpha", "broken", "mid"};
static unsigned destroyed;

static void *toy_builtin(unsigned i)
{
	return strcmp(toy_names[i], "broken") == 0 ? NULL : toy_names[i];
}
static const char *toy_name(const void *p)
{
	return p;
}
static void toy_destroy(void *p)
{
	destroyed++;
	free(p);
}

static void registry(void)
{
	struct emu_profile_registry r = {
	    .nr_builtin = 4, .builtin = toy_builtin, .name = toy_name, .destroy = toy_destroy};
	char names[64];
	tap_is_u64(emu_profile_registry_count(&r), 3, "a built-in that does not parse is left out");
	emu_profile_registry_names(&r, names, sizeof(names));
	tap_is_str(names, "alpha, mid, zeta", "built-ins sorted by name");
	tap_ok(emu_profile_registry_at(&r, 3) == NULL, "at() past the last: NULL");
	tap_ok(emu_profile_registry_builtin(&r, "mid") == toy_names[3], "a built-in by name");
	char *file = strdup("file");
	emu_profile_registry_keep(&r, file);
	emu_profile_registry_release(&r, toy_names[0]);
	tap_is_u64(destroyed, 0, "releasing a built-in frees nothing");
	emu_profile_registry_release(&r, file);
	tap_is_u64(destroyed, 1, "releasing a kept file profile frees it once");
	emu_profile_registry_release(&r, file);
	tap_is_u64(destroyed, 1, "and only once");
	free(r.builtins);
	free(r.files);
}

int main(void)
{
	parsing();
	index_by_name();
	registry();
	return tap_done();
}
