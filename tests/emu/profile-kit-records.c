/* profile-kit-records.c: the profile kit's records, required keys and
 * sections, unknown-key lists and NAME:SHARE lists (src/emukit/profile.c),
 * through a toy model's tables: records the kit adds to the model's array
 * (named, at their line, a parse-state twin beside them, the model's start
 * of one and its refusal), the first missing key or section, the known
 * keys listed in table order without the unlisted, and both readings of a
 * list (first or last ':', a line's limit, negative, bad and twice
 * entries in the model's wording). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "emukit/profile.h"
#include "tap.h"

struct crate {
	char *name;
	unsigned line;
	uint64_t size;
	bool started;
	struct emu_profile_shares parts;
};

struct toy {
	char *name, *colour;
	unsigned level;
	struct crate *crates;
	unsigned nr_crates;
	struct crate *boxes; /* boxes are crates too */
	unsigned nr_boxes;
};

/* the model's parse state: a list beside each box */
struct toy_parse {
	struct emu_profile_shares *box_mix;
};

static bool opened_crate(struct emu_profile_parser *ps, void *rec, unsigned i)
{
	struct crate *c = rec;
	(void)i;
	if (strcmp(c->name, "forbidden") == 0)
		return emu_profile_error(ps, ps->line, "crate '%s' is forbidden", c->name);
	c->started = true;
	return true;
}

static const struct emu_profile_share_format first_colon = {
    .blanks = " \t",
    .max = 3,
    .too_many = "more than 3 parts",
    .not_pair = "'%s' is not PART:SHARE",
    .negative = "part '%s' is negative",
    .bad = "bad share '%s' of part '%s'",
    .twice = "part '%s' twice",
};

static const struct emu_profile_share_format last_colon = {
    .blanks = " ",
    .last_colon = true,
    .not_pair = "bad entry '%s'",
};

static const struct emu_profile_key top_keys[] = {
    {.name = "name", .type = EMU_KEY_NAME, EMU_KEY_AT(struct toy, name), .required = "no name"},
    {.name = "level",
     .type = EMU_KEY_UINT,
     EMU_KEY_AT(struct toy, level),
     .max = 9,
     .unlisted = true,
     .bad = "bad level '%s'"},
    {.name = "colour",
     .type = EMU_KEY_TEXT,
     EMU_KEY_AT(struct toy, colour),
     .required = "no colour"},
    {.name = NULL},
};

static const struct emu_profile_key crate_keys[] = {
    {.name = "size", .type = EMU_KEY_UINT, EMU_KEY_AT(struct crate, size), .max = 99},
    {.name = "parts",
     .type = EMU_KEY_SHARES,
     .offset = offsetof(struct crate, parts),
     .repeat = true,
     .shares = &last_colon},
    {.name = NULL},
};

static const struct emu_profile_key box_keys[] = {
    {.name = "mix",
     .type = EMU_KEY_SHARES,
     .in_twin = true,
     .repeat = true,
     .shares = &first_colon},
    {.name = NULL},
};

static const struct emu_profile_section top = {.keys = top_keys, .unknown = "unknown '%s' (%s)"};
static const struct emu_profile_section sections[] = {
    {.name = "crate",
     EMU_PROFILE_RECORDS(struct toy, crates, nr_crates, struct crate),
     .opened = opened_crate,
     .required = "no crate",
     .keys = crate_keys,
     .unknown = "unknown crate key '%s' (%s)"},
    {.name = "box",
     EMU_PROFILE_RECORDS(struct toy, boxes, nr_boxes, struct crate),
     EMU_PROFILE_TWIN(struct toy_parse, box_mix, struct emu_profile_shares),
     .keys = box_keys,
     .unknown = "unknown box key '%s' (%s)"},
    {.name = NULL},
};
static const struct emu_profile_format format = {
    .top = &top,
    .sections = sections,
    .bad_section = "no ']' in '%s'",
    .bad_name = "bad section name '%s'",
    .not_key_value = "what is '%s'?",
    .empty_key = "no key",
    .empty_value = "no value for '%s'",
    .twice = "'%s' twice",
};

static void toy_free(struct toy *t, struct toy_parse *tp)
{
	free(t->name);
	free(t->colour);
	for (unsigned i = 0; i < t->nr_crates; i++) {
		free(t->crates[i].name);
		emu_profile_shares_free(&t->crates[i].parts);
	}
	free(t->crates);
	for (unsigned i = 0; i < t->nr_boxes; i++) {
		free(t->boxes[i].name);
		emu_profile_shares_free(&tp->box_mix[i]);
	}
	free(t->boxes);
	free(tp->box_mix);
}

/* Reads text into t and tp (freed by the caller); msg: the diag or "". */
static bool toy_read(const char *text, struct toy *t, struct toy_parse *tp, char *msg, size_t len)
{
	memset(t, 0, sizeof(*t));
	memset(tp, 0, sizeof(*tp));
	struct emu_profile_parser ps = {.model = tp};
	bool ok = emu_profile_read(&ps, &format, t, "t.profile", text, strlen(text));
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
	struct toy_parse tp;
	char msg[512];
	bool ok = toy_read(text, &t, &tp, msg, sizeof(msg));
	tap_ok(!ok && strcmp(msg, want) == 0, "%s: '%s' (got '%s')", what, want, msg);
	toy_free(&t, &tp);
}

int main(void)
{
	struct toy t;
	struct toy_parse tp;
	char msg[512];
	bool ok = toy_read("name = t\ncolour = red\n[crate a]\nsize = 3\nparts = x:y:0.5 z:.5\n"
	                   "parts = w:1\n[box b]\nmix = p:0.25 q:0.75\nmix = r:0\n[crate c]\n"
	                   "[box d]\n",
	                   &t, &tp, msg, sizeof(msg));
	tap_ok(ok, "a toy profile reads (%s)", msg);
	tap_ok(t.nr_crates == 2 && strcmp(t.crates[0].name, "a") == 0 && t.crates[0].line == 3 &&
	           strcmp(t.crates[1].name, "c") == 0 && t.crates[1].line == 10 &&
	           t.crates[0].size == 3 && t.crates[1].size == 0,
	       "the kit adds each crate to the array, named, at its line, zeroed");
	tap_ok(t.crates[0].started && t.crates[1].started, "the model's start ran for each crate");
	struct emu_profile_shares *l = &t.crates[0].parts;
	tap_ok(l->nr == 3 && strcmp(l->v[0].name, "x:y") == 0 && l->v[0].share == 0.5 &&
	           l->v[1].line == 5 && l->v[2].line == 6 && strcmp(l->v[2].name, "w") == 0 &&
	           l->line == 5 && emu_profile_shares_sum(l) == 2.0,
	       "a last-colon list: names with ':', every line's entries, each at its line");
	tap_ok(t.nr_boxes == 2 && tp.box_mix[0].nr == 3 &&
	           strcmp(tp.box_mix[0].v[1].name, "q") == 0 && tp.box_mix[0].v[1].share == 0.75 &&
	           tp.box_mix[1].nr == 0 && tp.box_mix[1].line == 0,
	       "a twin list: in the model's parse state beside each box, grown with the boxes");
	toy_free(&t, &tp);

	refused("colour = red\n[crate a]\n", "t.profile: no name", "a required key missing");
	refused("name = t\n[crate a]\n", "t.profile: no colour", "the second required key");
	refused("name = t\ncolour = red\n[box b]\n", "t.profile: no crate",
	        "a required section missing");
	refused("[crate a]\nname = t\ncolour = red\n",
	        "t.profile:2: unknown crate key 'name' (size, parts)",
	        "a top key in a section is not the top's");
	refused("name = t\nshade = 3\n", "t.profile:2: unknown 'shade' (name, colour)",
	        "the known keys listed, the unlisted left out");
	refused("name = t\ncolour = red\n[crate forbidden]\n",
	        "t.profile:3: crate 'forbidden' is forbidden",
	        "the model's start refuses a record");
	refused("[box b]\nmix = a:0.1 b:0.1 c:0.1 d:0.1\n", "t.profile:2: more than 3 parts",
	        "a line over the limit");
	refused("[box b]\nmix = a:0.1 b\n", "t.profile:2: 'b' is not PART:SHARE", "no ':'");
	refused("[box b]\nmix = a:-0.1\n", "t.profile:2: part 'a' is negative", "a negative share");
	refused("[box b]\nmix = a:b:0.1\n", "t.profile:2: bad share 'b:0.1' of part 'a'",
	        "the first ':' splits");
	refused("[box b]\nmix = a:0.1\nmix = a:0.2\n", "t.profile:3: part 'a' twice",
	        "a name twice across lines");
	refused("name = t\n[crate a]\nparts = :0.5\n", "t.profile:3: bad entry ':0.5'",
	        "an empty name before the last ':'");
	refused("name = t\n[crate a]\nparts = a:-1\n", "t.profile:3: bad entry 'a:-1'",
	        "no negative wording: the whole entry");
	refused("name = t\n[crate a]\nparts = a:1\nparts = a:2\n", "t.profile:4: bad entry 'a:2'",
	        "no twice wording: names may repeat, a bad share still fails");
	return tap_done();
}
