/* profile.h: the profile kit: the `[KIND NAME]` / `key = value` text of
 * hpmstat-emu-profile(5) that every emulator model reads.
 *
 * Owns: reading a profile's text line by line (util/lex.h), its sections
 * (the header, the name, a name given twice, an unknown kind), its keys (a
 * key given twice, a negative value, typed values stored into the model's
 * records: text, names, whole numbers in a range and a multiple, N or
 * LO..HI ranges, shares 0..1) and the errors, `FILE:LINE: reason` in one
 * struct hpm_diag; the records of each section kind (an array the kit
 * grows, and a parse-state twin of the model's beside it), the keys and
 * sections a file must have, and NAME:SHARE lists. Each model hands in its
 * section kinds and their keys as tables (struct emu_profile_format) and
 * its own wording of the errors; it knows nothing of a model's types (the
 * records are void *, their fields placed by offsets).
 */
#ifndef HPM_EMUKIT_PROFILE_H
#define HPM_EMUKIT_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

struct emu_profile_parser;

enum emu_profile_type {
	EMU_KEY_TEXT,   /* char *, a copy of the value */
	EMU_KEY_NAME,   /* char *, letters, digits, '-', '_', '.' */
	EMU_KEY_UINT,   /* an unsigned integer (decimal or 0x hex) of `width` bytes */
	EMU_KEY_RANGE,  /* N or LO..HI: two uint32_t, at offset and offset_hi */
	EMU_KEY_SHARE,  /* double, a fraction 0..1 */
	EMU_KEY_SHARES, /* NAME:SHARE ...: a struct emu_profile_shares, read as `shares` says */
	EMU_KEY_CALL,   /* the model's call reads the value */
};

struct emu_profile_share_format;

/* One key of a section. */
struct emu_profile_key {
	const char *name;
	enum emu_profile_type type;
	size_t offset, width; /* of the value in the section's record (EMU_KEY_AT) */
	size_t offset_hi;     /* EMU_KEY_RANGE: of HI */
	size_t has;           /* of a bool set when the key is given; 0: none */
	uint64_t min, max;    /* EMU_KEY_UINT, EMU_KEY_RANGE; EMU_KEY_SHARE: min 1, above 0 */
	uint64_t multiple;    /* EMU_KEY_UINT: 0 or what the value must be a multiple of */
	bool repeat;          /* may be given more than once (its call accumulates) */
	bool unlisted;        /* left out of the unknown-key message's list */
	const char *required; /* top keys: the message when the file has none; NULL: optional */
	/* printf formats: bad with the value and max (unsigned long long);
	 * negative with the value, checked first when not NULL */
	const char *bad, *negative;
	bool (*call)(struct emu_profile_parser *ps, void *record, const char *key, char *value);
	const struct emu_profile_share_format *shares; /* EMU_KEY_SHARES */
	bool in_twin; /* offset, has: in the model's twin of the record (EMU_PROFILE_TWIN) */
};

#define EMU_KEY_AT(type, field) offsetof(type, field), sizeof(((type *)0)->field)

/* One kind of section, or (name NULL) the keys before the first section. */
struct emu_profile_section {
	const char *name;
	/* makes the record of a new section NAME (the kit has checked the name
	 * and that it is new); NULL: refused, the diag set. NULL: the kit adds
	 * the record to the array the fields below say (EMU_PROFILE_RECORDS). */
	void *(*open)(struct emu_profile_parser *ps, const char *name);
	/* the records' array: a pointer at `array` in the top record and its
	 * count (unsigned) at `count`, `size` bytes a record, its name (char *)
	 * and line (unsigned) at name_at and line_at; twin_size: a parse-state
	 * array of the model's beside it, at `twin` in ps->model, grown with it */
	size_t array, count, size, name_at, line_at, twin, twin_size;
	/* the model's start of a record the kit added (zeroed, named, at its
	 * line), index its place; NULL: none; false: refused, the diag set */
	bool (*opened)(struct emu_profile_parser *ps, void *record, unsigned index);
	/* with the kit's records: the message when the file has none; NULL: it
	 * may have none */
	const char *required;
	const struct emu_profile_key *keys; /* ended by a NULL name */
	/* a key not in keys; NULL: an unknown key */
	bool (*other)(struct emu_profile_parser *ps, void *record, const char *key, char *value);
	/* printf format of an unknown key, with the key and the list of the
	 * known ones ("a, b, c": the keys in table order but the unlisted) */
	const char *unknown;
};

/* The records of a section kind: the array arr with its count nr in the
 * top record of type top, of records of type rec (fields name and line). */
#define EMU_PROFILE_RECORDS(top, arr, nr, rec)                                                     \
	.array = offsetof(top, arr), .count = offsetof(top, nr), .size = sizeof(rec),              \
	.name_at = offsetof(rec, name), .line_at = offsetof(rec, line)
/* ... with the model's parse-state twin (its array arr, of type rec) in
 * its parse state of type model */
#define EMU_PROFILE_TWIN(model, arr, rec) .twin = offsetof(model, arr), .twin_size = sizeof(rec)

/* A model's profile format: its sections and its wording of the errors
 * (printf formats; the argument each takes is said). */
struct emu_profile_format {
	const struct emu_profile_section *top;      /* the keys before any section */
	const struct emu_profile_section *sections; /* ended by a NULL name */
	const char *nul_byte;       /* the text has a NUL (none); NULL: the text ends there */
	const char *bad_section;    /* no ']' (the line) */
	const char *bad_header;     /* not [KIND NAME] (none); NULL: bad_name says it */
	const char *bad_name;       /* the section's name */
	const char *not_key_value;  /* neither (the line) */
	const char *empty_key;      /* (none) */
	const char *empty_value;    /* (the key) */
	const char *twice;          /* a key given twice (the key); NULL: the last one counts */
	bool twice_says_first_line; /* "... defined twice (first at line N)" */
};

struct emu_profile_parser {
	struct hpm_diag diag;
	unsigned line;
	void *model; /* the model's parse state, for its calls */
	/* private to the kit */
	const struct emu_profile_format *fmt;
	const struct emu_profile_section *sec;
	void *record;
	void *twin;        /* the model's twin of record (EMU_PROFILE_TWIN), or NULL */
	void *top;         /* the top record */
	uint64_t seen;     /* keys of sec given in this section, by index */
	uint64_t top_seen; /* the top keys given */
	struct emu_profile_seen {
		const struct emu_profile_section *sec;
		char *name;
		unsigned line;
	} * sections;
	unsigned nr_sections;
};

/* Reads text (len bytes, named file in messages) into the model's
 * records: top_record for the keys before the first section, and what
 * each section's open returns or the kit adds; then checks that the
 * required top keys and sections are there (top keys first, each in
 * table order; the message at line 0). False with ps->diag set at the
 * first error. ps->model is for the model's calls. */
bool emu_profile_read(struct emu_profile_parser *ps, const struct emu_profile_format *fmt,
                      void *top_record, const char *file, const char *text, size_t len);
/* Frees what emu_profile_read kept (its list of sections). */
void emu_profile_parser_free(struct emu_profile_parser *ps);

/* A name of a profile or section: letters, digits, '-', '_', '.'. */
bool emu_profile_valid_name(const char *s);

/* A share: a decimal fraction 0..1 such as 1, 0.25 or .5 (util/lex.h's
 * lex_decimal); false when it is not one. */
bool emu_profile_share(const char *s, double *out);

/* N or LO..HI, 1 <= LO <= HI <= max (decimal or 0x hex). */
bool emu_profile_range(const char *s, uint32_t max, uint32_t *lo, uint32_t *hi);

/* ------------------------------------------------------ NAME:SHARE lists */

/* A list of NAME:SHARE entries (a phase's mix of classes, ...): every line
 * of its key in order, each entry with its line. */
struct emu_profile_share {
	char *name;
	double share;
	unsigned line;
};
struct emu_profile_shares {
	struct emu_profile_share *v;
	unsigned nr;
	unsigned line; /* of its key's first line; 0: never given */
};

/* A model's reading of its lists and its wording of their errors (printf
 * formats; the arguments each takes are said). */
struct emu_profile_share_format {
	const char *blanks;   /* what separates two entries */
	unsigned max;         /* entries on one line; 0: any number */
	const char *too_many; /* more than max (none), before any entry is read */
	bool last_colon;      /* NAME is all before the last ':' and not empty (else the first) */
	const char *not_pair; /* no ':' (the entry) */
	const char *negative; /* a share with a '-' (the name); NULL: bad says it */
	/* not a share 0..1 (the share, the name); NULL: not_pair, with the entry */
	const char *bad;
	const char *twice; /* a name the list has (the name); NULL: the model checks */
};

/* The entries of one line of a list's key (value, cut up) appended to l;
 * false with ps->diag set at the first bad one (those before it kept). */
bool emu_profile_shares_read(struct emu_profile_parser *ps, struct emu_profile_shares *l,
                             char *value, const struct emu_profile_share_format *f);
/* One entry appended to l (a copy of name). */
void emu_profile_shares_add(struct emu_profile_shares *l, const char *name, double share,
                            unsigned line);
/* The sum of the shares, in order. */
double emu_profile_shares_sum(const struct emu_profile_shares *l);
void emu_profile_shares_free(struct emu_profile_shares *l);

/* The index of the record called name among n records stride bytes apart,
 * names[0] the first one's name (char *); -1: none. */
int emu_profile_index(const char *const *names, size_t stride, unsigned n, const char *name);
/* The index of the element of arr[0..n) whose member name is key; -1: none. */
#define EMU_PROFILE_INDEX(arr, n, key)                                                             \
	((n) == 0                                                                                  \
	     ? -1                                                                                  \
	     : emu_profile_index((const char *const *)&(arr)[0].name, sizeof((arr)[0]), n, key))

/* An error at a line of the file (0: the file as a whole): the printf-style
 * reason into ps->diag; returns false. */
bool emu_profile_error(struct emu_profile_parser *ps, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Reads the whole file at path, at most max bytes, into a new
 * NUL-terminated buffer (*len without the NUL); NULL with the reason in
 * err: "PATH: cannot read: ..." (too_large: the rest of the reason when
 * it has more than max bytes). */
char *emu_profile_read_file(const char *path, size_t max, const char *too_large, size_t *len,
                            char *err, size_t errlen);

/* ----------------------------------------------------------- registry */

/* A model's profiles: its built-ins (parsed on first use, sorted by name)
 * and the files it has read (kept until released). The model hands in how
 * to parse a built-in, name a profile and free one, and for
 * emu_profile_registry_find() how to parse a file and its wording. */
struct emu_profile_registry {
	unsigned nr_builtin;
	/* else where it is (a generated table's size is no constant expression) */
	const unsigned *nr_builtin_at;
	void *(*builtin)(unsigned i); /* parses built-in i; NULL: left out (the tests catch it) */
	const char *(*name)(const void *profile);
	void (*destroy)(void *profile);
	/* a file's text (len bytes, NUL-terminated), named path in messages;
	 * NULL with the reason in err */
	void *(*parse_file)(const char *path, const char *text, size_t len, char *err,
	                    size_t errlen);
	size_t max_bytes;        /* of a file */
	const char *too_large;   /* emu_profile_read_file()'s words for a larger one */
	const char *unknown;     /* printf format of an unknown name: the name, the built-ins */
	const char *file_suffix; /* a name with it is a file's even where none is; NULL: none */
	/* private to the kit */
	bool loaded;
	void **builtins;
	unsigned nr;
	void **files;
	unsigned nr_files;
};

unsigned emu_profile_registry_count(struct emu_profile_registry *r);
/* The i-th built-in by name; NULL past the last. */
void *emu_profile_registry_at(struct emu_profile_registry *r, unsigned i);
/* The built-in called name, or NULL. */
void *emu_profile_registry_builtin(struct emu_profile_registry *r, const char *name);
/* Keeps a profile read from a file until emu_profile_registry_release. */
void *emu_profile_registry_keep(struct emu_profile_registry *r, void *profile);
/* Frees a kept profile; a built-in or a profile not kept is left alone. */
void emu_profile_registry_release(struct emu_profile_registry *r, const void *profile);
/* The built-ins' names, "a, b, c", into buf (cut to fit). */
void emu_profile_registry_names(struct emu_profile_registry *r, char *buf, size_t len);
/* The built-in called name_or_path, else the file it names (one that is
 * there, or a name with a '/' or the file suffix) read and parsed, kept
 * like emu_profile_registry_keep()'s; NULL with the reason in err: the
 * unknown format for any other name, else the reader's or the parser's. */
void *emu_profile_registry_find(struct emu_profile_registry *r, const char *name_or_path, char *err,
                                size_t errlen);

#endif
