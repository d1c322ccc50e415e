/* profile.h: the profile kit: the `[KIND NAME]` / `key = value` text of
 * hpmstat-emu-profile(5) that every emulator model reads.
 *
 * Owns: reading a profile's text line by line (util/lex.h), its sections
 * (the header, the name, a name given twice, an unknown kind), its keys (a
 * key given twice, a negative value, typed values stored into the model's
 * records: text, names, whole numbers in a range and a multiple, N or
 * LO..HI ranges, shares 0..1) and the errors, `FILE:LINE: reason` in one
 * struct hpm_diag. Each model hands in its section kinds and their keys as
 * tables (struct emu_profile_format) and its own wording of the errors; it
 * knows nothing of a model's types (the records are void *).
 */
#ifndef HPM_EMUKIT_PROFILE_H
#define HPM_EMUKIT_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

struct emu_profile_parser;

enum emu_profile_type {
	EMU_KEY_TEXT,  /* char *, a copy of the value */
	EMU_KEY_NAME,  /* char *, letters, digits, '-', '_', '.' */
	EMU_KEY_UINT,  /* an unsigned integer (decimal or 0x hex) of `width` bytes */
	EMU_KEY_RANGE, /* N or LO..HI: two uint32_t, at offset and offset_hi */
	EMU_KEY_SHARE, /* double, a fraction 0..1 */
	EMU_KEY_CALL,  /* the model's call reads the value */
};

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
	/* printf formats: bad with the value and max (unsigned long long);
	 * negative with the value, checked first when not NULL */
	const char *bad, *negative;
	bool (*call)(struct emu_profile_parser *ps, void *record, const char *key, char *value);
};

#define EMU_KEY_AT(type, field) offsetof(type, field), sizeof(((type *)0)->field)

/* One kind of section, or (name NULL) the keys before the first section. */
struct emu_profile_section {
	const char *name;
	/* makes the record of a new section NAME (the kit has checked the name
	 * and that it is new); NULL: refused, the diag set */
	void *(*open)(struct emu_profile_parser *ps, const char *name);
	const struct emu_profile_key *keys; /* ended by a NULL name */
	/* a key not in keys; NULL: an unknown key */
	bool (*other)(struct emu_profile_parser *ps, void *record, const char *key, char *value);
	const char *unknown; /* printf format of an unknown key, with the key */
};

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
	uint64_t seen; /* keys of sec given in this section, by index */
	struct emu_profile_seen {
		const struct emu_profile_section *sec;
		char *name;
		unsigned line;
	} * sections;
	unsigned nr_sections;
};

/* Reads text (len bytes, named file in messages) into the model's
 * records: top_record for the keys before the first section, and what
 * each section's open returns. False with ps->diag set at the first
 * error. ps->model is for the model's calls. */
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
