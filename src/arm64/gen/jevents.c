/* jevents.c: build-time generator of the Arm PMUv3 event tables.
 *
 * Owns: the translation of events/arm64 (Linux perf's pmu-events layout:
 * mapfile.csv, the standard event files at the top, one directory per
 * core) into the C tables of src/arm64/events.h, so nothing parses JSON at
 * run time. A core's "ArchStdEvent" row takes the standard event of that
 * name, whose fields its own keys override, as perf's jevents.py does;
 * metrics.json is the metric generator's, not read here. It refuses what
 * it cannot trust: an unknown ArchStdEvent, an event without a name or
 * number, a number above 0xFFFF, a name or number twice in one core, a
 * mapfile row whose directory does not exist. The events' texts go into
 * one string pool, arm64_event_strings, and the tables hold offsets into
 * it (events.h says why). The C text reaches stdout
 * only when everything passed, so a refused table never leaves half a
 * file behind.
 *
 * Usage: arm64-jevents EVENTS_DIR > events-gen.c
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "gen/gen-die.h"
#include "gen/gen-pool.h"

#define MAX_EVENTS 4096
#define MAX_FILES  64
#define MAX_CORES  64

struct ev {
	const char *name, *topic, *brief, *desc;
	unsigned code;
};

static const char *prog = "arm64-jevents";
static const char *cur_file = "";
static FILE *out;
/* the texts of every table, written after them */
static struct gen_pool pool;

/* The offset of s in the pool, as a table's initialiser. */
static void put_text(const char *s)
{
	fprintf(out, "%" PRIu32, gen_pool_add(&pool, prog, s));
}

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gen_vdie(prog, cur_file, fmt, ap);
}

/* Every string this program allocates, freed together at the end: the
 * tables point into them until the C text is written. */
static char **kept;
static size_t nr_kept;

static char *keep(char *p)
{
	if (!p)
		die("out of memory");
	char **k = realloc(kept, (nr_kept + 1) * sizeof(*kept));
	if (!k)
		die("out of memory");
	kept = k;
	kept[nr_kept++] = p;
	return p;
}

static char *dup(const char *s)
{
	return keep(strdup(s));
}

static void free_kept(void)
{
	for (size_t i = 0; i < nr_kept; i++)
		free(kept[i]);
	free(kept);
}

static char *path_join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *p = keep(malloc(n));
	snprintf(p, n, "%s/%s", a, b);
	return p;
}

static const char *opt_str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	if (v && !json_is_string(v))
		die("%s is not a string", key);
	return v ? json_string_value(v) : NULL;
}

static unsigned parse_code(const char *s, const char *name)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 0);
	if (errno || *end || end == s || strncmp(s, "0x", 2) != 0)
		die("event '%s': EventCode '%s' is not a 0x hex number", name, s);
	if (v > 0xFFFF)
		die("event '%s': EventCode %s is above 0xFFFF (evtCount is 16 bits)", name, s);
	return (unsigned)v;
}

/* The names of the .json files of dir but metrics.json, sorted. */
static unsigned list_json(const char *dir, char **names, unsigned max)
{
	DIR *d = opendir(dir);
	unsigned n = 0;
	if (!d)
		die("cannot open directory %s: %s", dir, strerror(errno));
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0 ||
		    strcmp(e->d_name, "metrics.json") == 0)
			continue;
		if (n == max)
			die("more than %u event files in %s", max, dir);
		names[n] = dup(e->d_name);
		n++;
	}
	closedir(d);
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char *t = names[j];
			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	return n;
}

static char *topic_of(const char *file)
{
	char *t = dup(file);
	t[strlen(t) - 5] = '\0';
	return t;
}

static struct ev std_ev[MAX_EVENTS];
static unsigned nr_std;

static const struct ev *find_std(const char *name)
{
	for (unsigned i = 0; i < nr_std; i++)
		if (strcasecmp(std_ev[i].name, name) == 0)
			return &std_ev[i];
	return NULL;
}

/* Adds e to list (n events), refusing a name or number it already has. */
static void add(struct ev *list, unsigned *n, const struct ev *e)
{
	for (unsigned i = 0; i < *n; i++) {
		if (strcasecmp(list[i].name, e->name) == 0)
			die("event '%s' twice", e->name);
		if (list[i].code == e->code)
			die("events '%s' and '%s' both have number 0x%x", list[i].name, e->name,
			    e->code);
	}
	if (*n == MAX_EVENTS)
		die("more than %u events", MAX_EVENTS);
	list[(*n)++] = *e;
}

/* The events of one JSON file into list; std: the standard files, where
 * ArchStdEvent makes no sense. */
static void read_file(const char *dir, const char *file, bool std, struct ev *list, unsigned *n)
{
	char *path = path_join(dir, file);
	cur_file = path;
	json_t *root = gen_load_array(prog, path, 0, "events");
	char *topic = topic_of(file);
	size_t i;
	json_t *o;
	json_array_foreach(root, i, o)
	{
		if (!json_is_object(o))
			die("entry %zu is not an object", i);
		struct ev e = {.topic = topic};
		const char *arch = opt_str(o, "ArchStdEvent");
		if (arch) {
			if (std)
				die("entry %zu: ArchStdEvent in a standard event file", i);
			const struct ev *s = find_std(arch);
			if (!s)
				die("ArchStdEvent '%s' is no standard event", arch);
			e = *s;
			e.topic = topic;
		}
		const char *name = opt_str(o, "EventName");
		const char *code = opt_str(o, "EventCode");
		const char *brief = opt_str(o, "BriefDescription");
		const char *desc = opt_str(o, "PublicDescription");
		if (name)
			e.name = dup(name);
		if (!e.name)
			die("entry %zu has no EventName", i);
		if (code)
			e.code = parse_code(code, e.name);
		else if (!arch)
			die("event '%s' has no EventCode", e.name);
		if (brief)
			e.brief = dup(brief);
		if (desc)
			e.desc = dup(desc);
		if (!e.brief || !*e.brief)
			die("event '%s' has no BriefDescription", e.name);
		add(list, n, &e);
	}
	json_decref(root);
}

static int by_code(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;
	return (x->code > y->code) - (x->code < y->code);
}

static void put_events(const char *var, bool is_static, struct ev *list, unsigned n)
{
	qsort(list, n, sizeof(*list), by_code);
	fprintf(out, "%sconst struct arm64_event %s[] = {\n", is_static ? "static " : "", var);
	for (unsigned i = 0; i < n; i++) {
		fputs("\t{", out);
		put_text(list[i].name);
		fprintf(out, ", 0x%x, ", list[i].code);
		put_text(list[i].topic);
		fputs(", ", out);
		put_text(list[i].brief);
		fputs(", ", out);
		put_text(list[i].desc ? list[i].desc : list[i].brief);
		/* the row with its texts, for the reader of the C */
		fputs("}, /* {", out);
		gen_put_note_cstr(out, list[i].name);
		fprintf(out, ", 0x%x, ", list[i].code);
		gen_put_note_cstr(out, list[i].topic);
		fputs(", ", out);
		gen_put_note_cstr(out, list[i].brief);
		fputs(", ", out);
		gen_put_note_cstr(out, list[i].desc ? list[i].desc : list[i].brief);
		fputs("} */\n", out);
	}
	fputs("};\n\n", out);
}

struct core {
	char *name, *dir;
	uint64_t midr;
	unsigned nr;
};

int main(int argc, char **argv)
{
	char *buf = NULL, *files[MAX_FILES];
	size_t len = 0;
	struct core cores[MAX_CORES];
	unsigned nr_cores = 0;
	static struct ev core_ev[MAX_EVENTS];

	if (argc != 2) {
		fprintf(stderr, "usage: %s EVENTS_DIR > events-gen.c\n", prog);
		return 2;
	}
	const char *root = argv[1];
	out = open_memstream(&buf, &len);
	fputs("/* Generated by arm64-jevents from events/arm64: do not edit. */\n"
	      "#include \"arm64/events.h\"\n\n",
	      out);

	/* the standard events: the .json files at the top */
	unsigned nf = list_json(root, files, MAX_FILES);
	if (!nf) {
		cur_file = root;
		die("no standard event file");
	}
	for (unsigned f = 0; f < nf; f++)
		read_file(root, files[f], true, std_ev, &nr_std);
	/* the cores are read before the standard table is sorted: find_std's
	 * pointers stay valid either way, as each core copies what it takes */
	char *map = path_join(root, "mapfile.csv");
	FILE *mf = fopen(map, "r");
	cur_file = map;
	if (!mf)
		die("cannot open: %s", strerror(errno));
	char line[512];
	unsigned ln = 0;
	while (fgets(line, sizeof(line), mf)) {
		ln++;
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		char *field[4], *p = line;
		for (unsigned i = 0; i < 4; i++) {
			field[i] = p;
			p = p ? strchr(p, ',') : NULL;
			if (p)
				*p++ = '\0';
		}
		if (!field[3])
			die("line %u: not Family-model,Version,Filename,EventType", ln);
		if (strcmp(field[3], "core") != 0)
			continue; /* uncore tables are not read */
		char *end;
		errno = 0;
		unsigned long long midr = strtoull(field[0], &end, 16);
		if (errno || *end || strncmp(field[0], "0x", 2) != 0)
			die("line %u: MIDR '%s' is not a 0x hex number", ln, field[0]);
		if (nr_cores == MAX_CORES)
			die("more than %u cores", MAX_CORES);
		struct core *c = &cores[nr_cores];
		c->dir = dup(field[2]);
		const char *slash = strrchr(c->dir, '/');
		c->name = dup(slash ? slash + 1 : c->dir);
		c->midr = midr;
		for (unsigned k = 0; k < nr_cores; k++)
			if (strcmp(cores[k].name, c->name) == 0 && cores[k].midr == c->midr)
				die("line %u: core %s twice", ln, c->name);
		char *cdir = path_join(root, c->dir);
		unsigned ncf = list_json(cdir, files, MAX_FILES), n = 0;
		for (unsigned f = 0; f < ncf; f++)
			read_file(cdir, files[f], false, core_ev, &n);
		cur_file = map;
		if (!n)
			die("line %u: %s has no events", ln, c->dir);
		char var[128];
		snprintf(var, sizeof(var), "core%u_events", nr_cores);
		put_events(var, true, core_ev, n);
		c->nr = n;
		nr_cores++;
	}
	fclose(mf);
	if (!nr_cores)
		die("no core");
	put_events("arm64_std_events", false, std_ev, nr_std);
	fprintf(out, "const unsigned arm64_nr_std_events = %u;\n\n", nr_std);
	fputs("const struct arm64_core arm64_cores[] = {\n", out);
	for (unsigned i = 0; i < nr_cores; i++) {
		gen_put_row_texts(out, cores[i].name, cores[i].dir);
		fprintf(out, ", UINT64_C(0x%016" PRIx64 "), core%u_events, %u},\n", cores[i].midr,
		        i, cores[i].nr);
	}
	fputs("};\n", out);
	fprintf(out, "const unsigned arm64_nr_cores = %u;\n\n", nr_cores);
	gen_pool_put(out, &pool, "arm64_event_strings", 0);
	gen_pool_free(&pool);
	fclose(out);
	fwrite(buf, 1, len, stdout);
	free(buf);
	free_kept();
	return ferror(stdout) ? 1 : 0;
}
