/* jevents.c: build-time generator of the Kunminghu event tables.
 *
 * Owns: the translation of events/riscv/openxiangshan/<version>/<bank>.json
 * (Linux perf pmu-events format) into one struct kmh_table (kmh.h) named
 * VAR, as perf's jevents does, so
 * nothing parses JSON at run time. It refuses a table it cannot trust: a
 * missing field, a non-dense index list, a counter list that is not one
 * contiguous range, or an alias whose EventCode is not the hardware ADD of
 * its instances. Besides perf's keys it reads three of the project's own,
 * which perf's jevents.py ignores:
 *   "AliasOf": "NAME"  another name of the event or ADD alias NAME of the
 *                      same bank (the same EventCode), e.g. the design
 *                      document's old name ("Deprecated": "1", perf's key)
 *                      or an honest name where the RTL's misleads;
 *   "RtlCounts": "zero" | "undefined" | "same:NAME" | "inverse"  what
 *                      XiangShan's RTL really counts where the name or the
 *                      document misleads: always 0, an index the CSR cannot
 *                      reach (undefined), the same signal as event NAME, or
 *                      the complement of what the name says.
 * Usage: kmh-jevents --table VAR NAME COMMIT [--mapfile mapfile.csv] BANK.json...
 *        > events-gen.c
 * where NAME is the table's name (kunminghu-v2) and COMMIT the XiangShan
 * commit its indices come from. Only the mapfile rows whose Filename is
 * openxiangshan/<the folder of the BANK.json files> choose this table.
 * The rows' texts go into the table's one string pool (kmh_strings) and
 * the rows hold offsets into it (kmh.h says why); each row is written a
 * second time in a comment, with its texts, for the reader of the C.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "gen/gen-die.h"
#include "gen/gen-pool.h"

#define MAX_EVENTS 1024 /* EVENTn is 10 bits */
#define MAX_ROWS   2048

struct row {
	const char *name, *brief, *desc;
	uint64_t code;
	const char *alias_of; /* AliasOf: another name of that row */
	bool deprecated;      /* Deprecated: "1" */
	const char *rtl;      /* RtlCounts, or NULL */
	unsigned same_as;     /* RtlCounts "same:NAME": NAME's index */
	bool alias;
	unsigned nr_inst; /* aliases: instances found */
	unsigned inst[4];
};

static const char *prog = "kmh-jevents";
/* Output goes to memory and reaches stdout only when every table passed, so
 * a refused table never leaves half a C file behind. */
static FILE *out;

static void fputc_out(int c)
{
	fputc(c, out);
}

static void puts_out(const char *s)
{
	fputs(s, out);
	fputc('\n', out);
}
static const char *cur_file;
/* the texts of the table's rows, written before the table */
static struct gen_pool pool;

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gen_vdie(prog, cur_file, fmt, ap);
}

static const char *get_str(json_t *obj, const char *key, const char *evname)
{
	json_t *v = json_object_get(obj, key);
	if (!json_is_string(v) || json_string_length(v) == 0)
		die("event '%s': missing or empty string field %s", evname, key);
	return json_string_value(v);
}

static const char *get_opt_str(json_t *obj, const char *key, const char *evname)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return NULL;
	if (!json_is_string(v) || json_string_length(v) == 0)
		die("event '%s': %s is not a non-empty string", evname, key);
	return json_string_value(v);
}

static uint64_t parse_code(const char *s, const char *evname)
{
	char *end;
	errno = 0;
	if (strncmp(s, "0x", 2) != 0)
		die("event '%s': EventCode '%s' is not 0x hex", evname, s);
	uint64_t v = strtoull(s, &end, 16);
	if (errno || *end || end == s + 2)
		die("event '%s': EventCode '%s' is not a number", evname, s);
	return v;
}

/* "NAME.K" -> K, with the base length in *baselen; -1 when not of that form */
static int instance_number(const char *name, size_t *baselen)
{
	const char *dot = strrchr(name, '.');
	if (!dot || dot == name || !dot[1])
		return -1;
	for (const char *p = dot + 1; *p; p++)
		if (!isdigit((unsigned char)*p))
			return -1;
	*baselen = (size_t)(dot - name);
	return atoi(dot + 1);
}

/* One text of a row: its offset in the pool (KMH_NO_TEXT, the pool's first
 * text "", for NULL), or in the row's comment (note) the text itself. */
static void emit_text(const char *s, bool note)
{
	if (note && s)
		gen_put_note_cstr(out, s);
	else if (note)
		fputs("NULL", out);
	else if (!s)
		fputs("KMH_NO_TEXT", out);
	else
		fprintf(out, "%" PRIu32, gen_pool_add(&pool, prog, s));
}

/* A row's name, brief and description, as the first three initialisers of
 * every table's entries. */
static void emit_texts(const struct row *r, bool note)
{
	emit_text(r->name, note);
	fputs(", ", out);
	emit_text(r->brief, note);
	fputs(", ", out);
	emit_text(r->desc, note);
}

static void emit_bank_enum(const char *bank)
{
	fputs("KMH_BANK_", out);
	for (const char *p = bank; *p; p++)
		fputc_out(toupper((unsigned char)*p));
}

/* The initialisers of a row of each table (note: the comment's). */
static void emit_event(const struct row *r, unsigned idx, const char *bank, bool note)
{
	emit_texts(r, note);
	fprintf(out, ", %u, ", idx);
	emit_bank_enum(bank);
	const char *rtl = !r->rtl                            ? "KMH_RTL_COUNTS"
	                  : strcmp(r->rtl, "zero") == 0      ? "KMH_RTL_ZERO"
	                  : strcmp(r->rtl, "undefined") == 0 ? "KMH_RTL_UNDEFINED"
	                  : strcmp(r->rtl, "inverse") == 0   ? "KMH_RTL_INVERSE"
	                                                     : "KMH_RTL_SAME";
	fprintf(out, ", %s, %u", rtl, r->same_as);
}

static void emit_name(const struct row *r, bool note)
{
	emit_texts(r, note);
	fputs(", ", out);
	emit_text(r->alias_of, note);
	fprintf(out, ", %u, %s", (unsigned)r->code, r->deprecated ? "true" : "false");
}

static void emit_alias(const struct row *r, const char *bank, bool note)
{
	emit_texts(r, note);
	fprintf(out, ", UINT64_C(0x%" PRIx64 "), ", r->code);
	emit_bank_enum(bank);
	fprintf(out, ", %u, {%u, %u, %u, %u}, ", r->nr_inst, r->inst[0], r->inst[1], r->inst[2],
	        r->inst[3]);
	emit_text(r->alias_of, note);
	fprintf(out, ", %s", r->deprecated ? "true" : "false");
}

/* The encoding the expression encoder gives for NAME.0 + ... + NAME.n-1:
 * pairs fill EVENT0/1 then EVENT2/3, all joined by ADD, an unused EVENT3
 * joined by OR so it adds nothing. */
static uint64_t alias_code(const unsigned *idx, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)idx[i] << (10 * i);
	v |= UINT64_C(4) << 40; /* OP_TYPE0 = ADD */
	if (n == 4)
		v |= UINT64_C(4) << 45; /* OP_TYPE1 = ADD */
	if (n >= 3)
		v |= UINT64_C(4) << 50; /* OP_TYPE2 = ADD */
	return v;
}

static void parse_counters(const char *s, const char *evname, unsigned *first, unsigned *last)
{
	unsigned prev = 0, n = 0;
	const char *p = s;
	while (*p) {
		char *end;
		unsigned long c = strtoul(p, &end, 10);
		if (end == p || c < 3 || c > 31)
			die("event '%s': bad Counter list '%s'", evname, s);
		if (n && c != prev + 1)
			die("event '%s': Counter list '%s' is not one ascending range", evname, s);
		if (!n)
			*first = (unsigned)c;
		prev = (unsigned)c;
		n++;
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			die("event '%s': bad Counter list '%s'", evname, s);
	}
	if (!n)
		die("event '%s': empty Counter list", evname);
	*last = prev;
}

/* One bank of events.json as it is read and checked: its rows, and each
 * event index's row. */
struct bank {
	struct row *rows;
	size_t nrows;
	int by_index[MAX_EVENTS];
	unsigned first, last, nr_events, nr_aliases, nr_names;
};

/* Each row's fields, checked one by one; every row on the same counters. */
static void read_rows(json_t *root, struct bank *b)
{
	struct row *rows = b->rows;
	size_t nrows = b->nrows;
	unsigned first = 0, last = 0;
	for (size_t i = 0; i < nrows; i++) {
		json_t *o = json_array_get(root, i);
		if (!json_is_object(o))
			die("row is not an object");
		struct row *r = &rows[i];
		r->name = get_str(o, "EventName", "?");
		r->brief = get_str(o, "BriefDescription", r->name);
		r->desc = get_str(o, "PublicDescription", r->name);
		r->code = parse_code(get_str(o, "EventCode", r->name), r->name);
		r->alias_of = get_opt_str(o, "AliasOf", r->name);
		const char *dep = get_opt_str(o, "Deprecated", r->name);
		if (dep && strcmp(dep, "1") != 0 && strcmp(dep, "0") != 0)
			die("event '%s': Deprecated is '%s', not \"1\" or \"0\"", r->name, dep);
		r->deprecated = dep && strcmp(dep, "1") == 0;
		if (r->deprecated && !r->alias_of)
			die("event '%s': Deprecated without AliasOf: an index keeps a current name",
			    r->name);
		r->rtl = get_opt_str(o, "RtlCounts", r->name);
		if (r->rtl && r->alias_of)
			die("event '%s': RtlCounts belongs on the row AliasOf names", r->name);
		if (r->rtl && strcmp(r->rtl, "zero") != 0 && strcmp(r->rtl, "undefined") != 0 &&
		    strcmp(r->rtl, "inverse") != 0 && strncmp(r->rtl, "same:", 5) != 0)
			die("event '%s': RtlCounts '%s' is not zero, undefined, inverse or "
			    "same:NAME",
			    r->name, r->rtl);
		unsigned f, l;
		parse_counters(get_str(o, "Counter", r->name), r->name, &f, &l);
		if (i == 0) {
			first = f;
			last = l;
		} else if (f != first || l != last) {
			die("event '%s': Counter range differs from the bank's first row%s",
			    r->name, "");
		}
	}
	b->first = first;
	b->last = last;
}

/* The events by index (dense from noEvent at 0) and the ADD aliases, the
 * rows whose name is the base of NAME.K rows. */
static void index_events(struct bank *b)
{
	struct row *rows = b->rows;
	size_t nrows = b->nrows;
	int *by_index = b->by_index;
	unsigned nr_events = 0, nr_aliases = 0;
	for (unsigned i = 0; i < MAX_EVENTS; i++)
		by_index[i] = -1;
	/* Aliases are the rows whose name is the base of NAME.K rows. */
	for (size_t i = 0; i < nrows; i++) {
		size_t bl;
		if (rows[i].alias_of || instance_number(rows[i].name, &bl) >= 0)
			continue;
		for (size_t j = 0; j < nrows; j++) {
			size_t bl2;
			if (!rows[j].alias_of && instance_number(rows[j].name, &bl2) >= 0 &&
			    bl2 == strlen(rows[i].name) &&
			    strncmp(rows[j].name, rows[i].name, bl2) == 0)
				rows[i].alias = true;
		}
	}
	for (size_t i = 0; i < nrows; i++) {
		struct row *r = &rows[i];
		if (r->alias_of)
			continue;
		if (r->alias) {
			nr_aliases++;
			continue;
		}
		if (r->code >= MAX_EVENTS)
			die("event '%s': EventCode does not fit the 10-bit EVENTn field%s", r->name,
			    "");
		if (by_index[r->code] >= 0)
			die("events '%s' and '%s' share one EventCode",
			    rows[by_index[r->code]].name, r->name);
		by_index[r->code] = (int)i;
		if (r->code + 1 > nr_events)
			nr_events = (unsigned)r->code + 1;
	}
	for (unsigned i = 0; i < nr_events; i++)
		if (by_index[i] < 0) {
			char idx[16];
			snprintf(idx, sizeof(idx), "%u", i);
			die("index %s has no event (indices must be dense)", idx);
		}
	if (nr_events == 0 || strcmp(rows[by_index[0]].name, "noEvent") != 0)
		die("index 0 must be noEvent");
	b->nr_events = nr_events;
	b->nr_aliases = nr_aliases;
}

/* Each alias's instances, and every name once; then the AliasOf rows. */
static void check_aliases(struct bank *b)
{
	struct row *rows = b->rows;
	size_t nrows = b->nrows;
	const int *by_index = b->by_index;
	unsigned nr_events = b->nr_events, nr_aliases = b->nr_aliases, nr_names = 0;
	/* Each alias: instances NAME.0..NAME.n-1 in ascending index order. */
	for (size_t i = 0; i < nrows; i++) {
		struct row *r = &rows[i];
		if (!r->alias)
			continue;
		size_t blen = strlen(r->name);
		for (unsigned idx = 0; idx < nr_events; idx++) {
			const char *n = rows[by_index[idx]].name;
			size_t bl;
			int k = instance_number(n, &bl);
			if (k < 0 || bl != blen || strncmp(n, r->name, blen) != 0)
				continue;
			if (r->nr_inst == 4)
				die("alias '%s' has more than 4 instances", r->name);
			if ((unsigned)k != r->nr_inst)
				die("instance '%s' is out of order for alias '%s'", n, r->name);
			r->inst[r->nr_inst++] = idx;
		}
		if (r->nr_inst < 2)
			die("alias '%s' needs at least 2 instances", r->name);
		if (alias_code(r->inst, r->nr_inst) != r->code)
			die("alias '%s': EventCode is not the ADD of its instances", r->name);
	}

	/* Every name once in the bank, whatever kind of row bears it. */
	for (size_t i = 0; i < nrows; i++)
		for (size_t j = i + 1; j < nrows; j++)
			if (strcmp(rows[i].name, rows[j].name) == 0)
				die("event '%s' is defined twice", rows[i].name);

	/* AliasOf rows: the same EventCode as the row they name; another name
	 * of an ADD alias is an ADD alias itself, of an event a name alias. */
	for (size_t i = 0; i < nrows; i++) {
		struct row *r = &rows[i];
		if (!r->alias_of)
			continue;
		const struct row *t = NULL;
		for (size_t j = 0; j < nrows; j++)
			if (!rows[j].alias_of && strcmp(rows[j].name, r->alias_of) == 0)
				t = &rows[j];
		if (!t)
			die("event '%s': AliasOf names '%s', which is no event of this bank",
			    r->name, r->alias_of);
		if (t->code != r->code)
			die("event '%s': EventCode differs from that of '%s', its AliasOf", r->name,
			    t->name);
		if (t->alias) {
			r->alias = true;
			r->nr_inst = t->nr_inst;
			memcpy(r->inst, t->inst, sizeof(r->inst));
			nr_aliases++;
		} else {
			nr_names++;
		}
	}
	b->nr_aliases = nr_aliases;
	b->nr_names = nr_names;
}

static void resolve_rtl_same(struct bank *b)
{
	struct row *rows = b->rows;
	const int *by_index = b->by_index;
	unsigned nr_events = b->nr_events;
	/* RtlCounts "same:NAME": another event of the bank, by its name. */
	for (unsigned idx = 0; idx < nr_events; idx++) {
		struct row *r = &rows[by_index[idx]];
		if (!r->rtl || strncmp(r->rtl, "same:", 5) != 0)
			continue;
		const char *twin = r->rtl + 5;
		bool found = false;
		for (unsigned k = 0; k < nr_events && !found; k++)
			if (k != idx && strcmp(rows[by_index[k]].name, twin) == 0) {
				r->same_as = k;
				found = true;
			}
		if (!found)
			die("event '%s': RtlCounts names '%s', which is no other event of this "
			    "bank",
			    r->name, twin);
	}
}

/* The bank's tables and their #defines. */
static void emit_bank(const struct bank *b, const char *bank)
{
	const struct row *rows = b->rows;
	size_t nrows = b->nrows;
	const int *by_index = b->by_index;
	unsigned first = b->first, last = b->last, nr_events = b->nr_events;
	unsigned nr_aliases = b->nr_aliases, nr_names = b->nr_names;
	fprintf(out, "static const struct kmh_event kmh_%s_events[%u] = {\n", bank, nr_events);
	for (unsigned idx = 0; idx < nr_events; idx++) {
		const struct row *r = &rows[by_index[idx]];
		fputs("\t{", out);
		emit_event(r, idx, bank, false);
		fputs("}, /* {", out);
		emit_event(r, idx, bank, true);
		fputs("} */\n", out);
	}
	puts_out("};\n");
	if (nr_names) {
		fprintf(out, "static const struct kmh_name_alias kmh_%s_names[%u] = {\n", bank,
		        nr_names);
		for (size_t i = 0; i < nrows; i++) {
			const struct row *r = &rows[i];
			if (!r->alias_of || r->alias)
				continue;
			fputs("\t{", out);
			emit_name(r, false);
			fputs("}, /* {", out);
			emit_name(r, true);
			fputs("} */\n", out);
		}
		puts_out("};\n");
	}
	if (nr_aliases) {
		fprintf(out, "static const struct kmh_alias kmh_%s_aliases[%u] = {\n", bank,
		        nr_aliases);
		for (size_t i = 0; i < nrows; i++) {
			const struct row *r = &rows[i];
			if (!r->alias)
				continue;
			fputs("\t{", out);
			emit_alias(r, bank, false);
			fputs("}, /* {", out);
			emit_alias(r, bank, true);
			fputs("} */\n", out);
		}
		puts_out("};\n");
	}
	fprintf(out, "#define KMH_%s_FIRST %u\n#define KMH_%s_LAST %u\n#define KMH_%s_NR %u\n",
	        bank, first, bank, last, bank, nr_events);
	if (nr_aliases)
		fprintf(out,
		        "#define KMH_%s_NR_ALIASES %u\n#define KMH_%s_ALIASES kmh_%s_aliases\n\n",
		        bank, nr_aliases, bank, bank);
	else
		fprintf(out, "#define KMH_%s_NR_ALIASES 0\n#define KMH_%s_ALIASES NULL\n\n", bank,
		        bank);
	if (nr_names)
		fprintf(out, "#define KMH_%s_NR_NAMES %u\n#define KMH_%s_NAMES kmh_%s_names\n\n",
		        bank, nr_names, bank, bank);
	else
		fprintf(out, "#define KMH_%s_NR_NAMES 0\n#define KMH_%s_NAMES NULL\n\n", bank,
		        bank);
}

static void gen_bank(const char *path, const char *bank)
{
	cur_file = path;
	json_t *root = gen_load_array(prog, path, 0, "events");
	struct bank b = {.nrows = json_array_size(root)};
	if (b.nrows > MAX_ROWS)
		die("too many rows");
	b.rows = calloc(b.nrows ? b.nrows : 1, sizeof(*b.rows));
	read_rows(root, &b);
	index_events(&b);
	check_aliases(&b);
	resolve_rtl_same(&b);
	emit_bank(&b, bank);
	free(b.rows);
	json_decref(root);
	cur_file = NULL;
}

/* perf's mapfile.csv: Family-model,Version,Filename,EventType rows. */
static void gen_mapfile(const char *path, const char *folder)
{
	FILE *f = fopen(path, "r");
	char line[512];
	unsigned n = 0, ln = 0;
	cur_file = path;
	if (!f)
		die("cannot open: %s", strerror(errno));
	puts_out("static const struct kmh_mapfile_row kmh_mapfile[] = {");
	while (fgets(line, sizeof(line), f)) {
		char *field[4], *p = line;
		ln++;
		line[strcspn(line, "\r\n")] = '\0';
		if (ln == 1 || !line[0] || line[0] == '#')
			continue; /* header */
		for (unsigned i = 0; i < 4; i++) {
			field[i] = p;
			p = strchr(p, ',');
			if (!p && i < 3)
				die("line %u: needs 4 comma-separated fields", ln);
			if (p)
				*p++ = '\0';
		}
		if (strcmp(field[2], folder) != 0)
			continue;
		fputs("\t{", out);
		for (unsigned i = 0; i < 4; i++) {
			gen_put_cstr(out, field[i]);
			fputs(i < 3 ? ", " : "},\n", out);
		}
		n++;
	}
	fclose(f);
	if (!n)
		puts_out("\t{NULL, NULL, NULL, NULL},"); /* C has no empty array */
	puts_out("};");
	fprintf(out, "#define KMH_NR_MAPFILE %u\n\n", n);
	cur_file = NULL;
}

int main(int argc, char **argv)
{
	char *buf = NULL;
	size_t len = 0;
	if (argc < 6 || strcmp(argv[1], "--table") != 0) {
		fprintf(stderr,
		        "usage: %s --table VAR NAME COMMIT [--mapfile mapfile.csv] BANK.json...\n",
		        prog);
		return 2;
	}
	const char *var = argv[2], *name = argv[3], *commit = argv[4];
	out = open_memstream(&buf, &len);
	if (!out) {
		perror(prog);
		return 1;
	}
	puts_out("/* Generated by src/kmh/gen/jevents.c from events/riscv/openxiangshan/.\n"
	         " * Do not edit: change the JSON and rebuild. */\n"
	         "#include <stddef.h>\n\n#include \"kmh/kmh.h\"\n");
	char banks[8][32];
	int nb = 0;
	int first = 5;
	const char *mapfile = NULL;
	if (argc > 6 && strcmp(argv[5], "--mapfile") == 0) {
		mapfile = argv[6];
		first = 7;
	}
	if (first >= argc) {
		fprintf(stderr, "%s: no BANK.json\n", prog);
		return 2;
	}
	/* the mapfile's Filename: openxiangshan/ and the JSON files' folder */
	char folder[256];
	const char *slash = strrchr(argv[first], '/');
	const char *dir = argv[first];
	size_t dlen = slash ? (size_t)(slash - argv[first]) : 0;
	const char *dbase = dir;
	for (size_t k = 0; k < dlen; k++)
		if (dir[k] == '/')
			dbase = dir + k + 1;
	snprintf(folder, sizeof(folder), "openxiangshan/%.*s", (int)(dlen - (size_t)(dbase - dir)),
	         dbase);
	if (mapfile)
		gen_mapfile(mapfile, folder);
	gen_pool_add(&pool, prog, ""); /* offset 0, KMH_NO_TEXT */
	for (int i = first; i < argc && nb < 8; i++, nb++) {
		const char *base = strrchr(argv[i], '/');
		base = base ? base + 1 : argv[i];
		size_t blen = strcspn(base, ".");
		if (blen == 0 || blen >= sizeof(banks[0]))
			die("bad file name '%s'", argv[i]);
		memcpy(banks[nb], base, blen);
		banks[nb][blen] = '\0';
		gen_bank(argv[i], banks[nb]);
	}
	gen_pool_put(out, &pool, "kmh_strings", 1);
	gen_pool_free(&pool);
	fprintf(out, "const struct kmh_table %s = {\n\t", var);
	gen_put_cstr(out, name);
	fputs(", ", out);
	gen_put_cstr(out, commit);
	puts_out(",\n\t{");
	for (int i = 0; i < nb; i++) {
		fputs("\t\t[KMH_BANK_", out);
		for (const char *p = banks[i]; *p; p++)
			fputc_out(toupper((unsigned char)*p));
		fprintf(out,
		        "] = {\"%s\", KMH_%s_FIRST, KMH_%s_LAST, KMH_%s_NR, kmh_%s_events, "
		        "KMH_%s_NR_ALIASES, KMH_%s_ALIASES, KMH_%s_NR_NAMES, KMH_%s_NAMES},\n",
		        banks[i], banks[i], banks[i], banks[i], banks[i], banks[i], banks[i],
		        banks[i], banks[i]);
	}
	if (mapfile)
		puts_out("\t},\n\tkmh_mapfile, KMH_NR_MAPFILE, kmh_strings,\n};");
	else
		puts_out("\t},\n\tNULL, 0, kmh_strings,\n};");
	fclose(out);
	fwrite(buf, 1, len, stdout);
	free(buf);
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
