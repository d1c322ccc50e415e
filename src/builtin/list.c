/* list.c: hpmstat list: the Kunminghu event tables, as text or JSON. */
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "builtin/builtin.h"
#include "kmh/kmh.h"

const char cmd_list_usage[] =
    "Usage: hpmstat list [--json] [--bank BANK] [--long] [GLOB]\n"
    "\n"
    "List the Kunminghu events: name, bank, index, the counters that can count\n"
    "it, and its description. GLOB (fnmatch, case-insensitive) filters by name.\n"
    "\n"
    "  -j, --json       one JSON array of objects (name, bank, index, counters,\n"
    "                   description, and for aliases the indices they combine)\n"
    "  -b, --bank BANK  only BANK: frontend, backend, memblock or cache\n"
    "  -l, --long       add the long description under each event\n"
    "  -h, --help       this text\n";

struct list_opts {
	bool json;
	bool long_desc;
	int bank; /* KMH_BANK_NONE: all */
	const char *glob;
};

static bool list_match(const struct list_opts *o, const char *name)
{
	return !o->glob || fnmatch(o->glob, name, FNM_CASEFOLD) == 0;
}

static json_t *list_counters_json(const struct kmh_bank_desc *b)
{
	json_t *a = json_array();
	for (unsigned c = b->first_counter; c <= b->last_counter; c++)
		json_array_append_new(a, json_integer(c));
	return a;
}

static int list_json(const struct list_opts *o)
{
	json_t *arr = json_array();
	for (int bi = 0; bi < KMH_NR_BANKS; bi++) {
		const struct kmh_bank_desc *b = &kmh_banks[bi];
		if (o->bank != KMH_BANK_NONE && o->bank != bi)
			continue;
		for (unsigned i = 0; i < b->nr_events; i++) {
			const struct kmh_event *e = &b->events[i];
			if (!list_match(o, e->name))
				continue;
			char code[24];
			snprintf(code, sizeof(code), "0x%x", e->index);
			json_array_append_new(
			    arr, json_pack("{s:s, s:s, s:i, s:o, s:s, s:s, s:s}", "name", e->name,
			                   "bank", b->name, "index", (int)e->index, "counters",
			                   list_counters_json(b), "description", e->brief,
			                   "long_description", e->description, "encoding", code));
		}
		for (unsigned i = 0; i < b->nr_aliases; i++) {
			const struct kmh_alias *a = &b->aliases[i];
			if (!list_match(o, a->name))
				continue;
			json_t *idx = json_array();
			for (unsigned k = 0; k < a->nr; k++)
				json_array_append_new(idx, json_integer(a->index[k]));
			char code[24];
			snprintf(code, sizeof(code), "0x%llx", (unsigned long long)a->code);
			json_array_append_new(
			    arr, json_pack("{s:s, s:s, s:n, s:o, s:s, s:s, s:s, s:o, s:s}", "name",
			                   a->name, "bank", b->name, "index", "counters",
			                   list_counters_json(b), "description", a->brief,
			                   "long_description", a->description, "alias_of", "add",
			                   "indices", idx, "encoding", code));
		}
	}
	char *s = json_dumps(arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(arr);
	if (!s) {
		cli_error("cannot format JSON");
		return EXIT_FAILURE;
	}
	puts(s);
	free(s);
	return 0;
}

static int list_text(const struct list_opts *o)
{
	unsigned shown = 0;
	for (int bi = 0; bi < KMH_NR_BANKS; bi++) {
		const struct kmh_bank_desc *b = &kmh_banks[bi];
		if (o->bank != KMH_BANK_NONE && o->bank != bi)
			continue;
		bool header = false;
		char ctrs[16];
		snprintf(ctrs, sizeof(ctrs), "%u-%u", b->first_counter, b->last_counter);
		for (unsigned i = 0; i < b->nr_events + b->nr_aliases; i++) {
			bool is_alias = i >= b->nr_events;
			const char *name, *brief, *desc;
			char where[48];
			if (!is_alias) {
				const struct kmh_event *e = &b->events[i];
				name = e->name, brief = e->brief, desc = e->description;
				snprintf(where, sizeof(where), "%s:%u", b->name, e->index);
			} else {
				const struct kmh_alias *a = &b->aliases[i - b->nr_events];
				size_t n = (size_t)snprintf(where, sizeof(where), "%s:", b->name);
				for (unsigned k = 0; k < a->nr; k++)
					n += (size_t)snprintf(where + n, sizeof(where) - n, "%s%u",
					                      k ? "+" : "", a->index[k]);
				name = a->name, brief = a->brief, desc = a->description;
			}
			if (!list_match(o, name))
				continue;
			if (!header) {
				printf("%s%s events (mhpmcounter%s):\n", shown ? "\n" : "", b->name,
				       ctrs);
				header = true;
			}
			printf("  %-40s %-16s %s\n", name, where, brief);
			if (o->long_desc)
				printf("      %s\n", desc);
			shown++;
		}
	}
	if (!shown) {
		cli_error("no event matches '%s'", o->glob ? o->glob : "");
		return EXIT_FAILURE;
	}
	return 0;
}

int cmd_list(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"json", no_argument, NULL, 'j'},
	    {"bank", required_argument, NULL, 'b'},
	    {"long", no_argument, NULL, 'l'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct list_opts o = {.bank = KMH_BANK_NONE};
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":jb:lh", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			o.json = true;
			break;
		case 'l':
			o.long_desc = true;
			break;
		case 'b': {
			const struct kmh_bank_desc *b = kmh_bank_by_name(optarg);
			if (!b) {
				cli_error("unknown bank '%s' (banks: frontend, backend, memblock, "
				          "cache)",
				          optarg);
				return EXIT_FAILURE;
			}
			o.bank = (int)(b - kmh_banks);
			break;
		}
		case 'h':
			cli_print_usage(stdout);
			return 0;
		case ':':
			return cli_usage_error("option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind > 1)
		return cli_usage_error("one GLOB at most");
	if (optind < argc)
		o.glob = argv[optind];
	return o.json ? list_json(&o) : list_text(&o);
}
