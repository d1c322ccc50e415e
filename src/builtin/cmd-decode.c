/* cmd-decode.c: hpmstat decode: event-select values (Kunminghu's mhpmevent,
 * an Arm core's PMEVTYPER<n>_EL0) into fields and event names, and Arm's
 * PMDEVID into the features it says the PMU has. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "builtin/cli-opts.h"
#include "arm64/pmdevid.h"
#include "builtin/fields.h"
#include "util/str.h"
#include "util/xalloc.h"

static const char decode_usage_head[] =
    "Usage: hpmstat decode [--json] [--bank BANK | --counter N] [--pmu MODEL | --arch ARCH]\n"
    "                      [--reg pmevtyper|pmdevid] VALUE...\n"
    "\n"
    "Decode 64-bit mhpmevent values (decimal, 0x hex, 0b binary or rHEX) into\n"
    "their fields: EVENT0-3, OP_TYPE0-2, the INH bits and the modes they leave\n"
    "counted, OF, and bits set in the reserved field 57:55. With a bank (or a\n"
    "counter, which implies its bank) the events are named. The value is also\n"
    "shown as an expression that 'hpmstat encode' turns back into it; when no\n"
    "expression can (OF or bits 57:55 set, a reserved op, an index outside the\n"
    "bank, a mode set no modifier selects) the line ends with 'inexact'.\n"
    "\n";

/* The checks, then the decoding: every value and option is checked before
 * anything is printed, so an error leaves no partial output. */
struct decode_opts {
	const char *bank, *counter, *pmu, *arch, *reg;
	bool json;
};

/* Arm's PMDEVID: one line of fields, then its warnings (RES0 bits set,
 * reserved values) as lines of their own. */
static int decode_pmdevid(const char *input, uint64_t v, bool json)
{
	struct arm64_pmdevid d;
	arm64_pmdevid_decode(v, &d);
	if (json) {
		json_t *obj = arm64_pmdevid_json(&d);
		int rc = 0;
		json_object_set_new(obj, "input", json_string(input));
		if (fields_print_json_line(stdout, obj) != 0) {
			cli_error("'%s': cannot format JSON", input);
			rc = EXIT_FAILURE;
		}
		json_decref(obj);
		return rc;
	}
	char fields[512];
	arm64_pmdevid_fields(&d, fields, sizeof(fields));
	printf("0x%016llx  PMDEVID  %s\n", (unsigned long long)v, fields);
	for (unsigned i = 0; i < d.nr_warnings && i < ARM64_PMDEVID_MAX_WARNINGS; i++)
		printf("  warning: %s\n", d.warnings[i]);
	return 0;
}

static int decode_values(const char **values, int nr_values, const struct decode_opts *o)
{
	const struct hpm_pmu_model *model = fields_model_for(o->pmu, o->arch);
	const char *bank_opt = o->bank, *counter_opt = o->counter;
	bool json = o->json, pmdevid = false;
	int bank = -1, status = 0;
	if (!model)
		return EXIT_FAILURE;
	const struct hpm_model_counters *ctr = &model->counters;
	if (o->reg) {
		if (strcmp(model->arch, "arm64") != 0) {
			cli_error("--reg %s: only an arm64 model has registers to choose "
			          "(--arch arm64 or --pmu neoverse-...)",
			          o->reg);
			return EXIT_FAILURE;
		}
		if (strcmp(o->reg, "pmdevid") == 0)
			pmdevid = true;
		else if (strcmp(o->reg, "pmevtyper") != 0) {
			cli_error("--reg '%s': no such register (known: pmevtyper, pmdevid)",
			          o->reg);
			return EXIT_FAILURE;
		}
		if (pmdevid && (bank_opt || counter_opt))
			return cli_usage_error("--reg pmdevid takes no --bank or --counter");
	}

	if (bank_opt && counter_opt)
		return cli_usage_error("--bank and --counter exclude each other");
	if (bank_opt && (bank = fields_class_by_name(model, bank_opt)) < 0)
		return EXIT_FAILURE;
	if (counter_opt) {
		uint64_t n;
		if (str_parse_u64(counter_opt, &n, NULL, 0) != STR_PARSE_OK || n < ctr->first ||
		    n > ctr->last) {
			cli_error("--counter '%s': not an event counter (%s%u-%u)", counter_opt,
			          ctr->counter_prefix, ctr->first, ctr->last);
			return EXIT_FAILURE;
		}
		bank = model->constraint_of_counter(model, (unsigned)n);
	}
	if (nr_values == 0)
		return cli_usage_error("no value given");
	/* every value checked before any is printed: no output then an error */
	for (int i = 0; i < nr_values; i++) {
		char msg[320];
		uint64_t v;
		if (str_parse_u64(values[i], &v, msg, sizeof(msg)) != STR_PARSE_OK) {
			cli_error("%s", msg);
			status = EXIT_FAILURE;
		}
	}
	if (status)
		return status;
	for (int i = 0; i < nr_values; i++) {
		struct hpm_model_decoded d;
		uint64_t v = 0;
		(void)str_parse_u64(values[i], &v, NULL, 0);
		if (pmdevid) {
			if (decode_pmdevid(values[i], v, json) != 0)
				status = EXIT_FAILURE;
			continue;
		}
		/* a value the PMU cannot take as it is (an Arm field the core has
		 * not got) is shown with its problems, and the status says so */
		model->decode(model, v, bank, &d);
		if (d.problem)
			status = EXIT_FAILURE;
		if (json) {
			json_t *obj = model->decode_json(model, v, bank);
			json_object_set_new(obj, "input", json_string(values[i]));
			if (fields_print_json_line(stdout, obj) != 0) {
				cli_error("'%s': cannot format JSON", values[i]);
				status = EXIT_FAILURE;
			}
			json_decref(obj);
			continue;
		}
		fields_print_text(stdout, v, d.expr, &d);
	}
	return status;
}

static const struct cli_opt decode_options[] = {
    CLI_FLAG("json", 'j', struct decode_opts, json, .help = "one JSON object per line"),
    CLI_STRING("bank", 'b', struct decode_opts, bank, .argh = "BANK",
               .help = "name events from BANK (frontend, backend, memblock, cache)"),
    CLI_STRING("counter", 'c', struct decode_opts, counter, .argh = "N",
               .help = "the value is mhpmevent N (3-31): name events from its bank"),
    CLI_STRING("pmu", 0, struct decode_opts, pmu, .argh = "MODEL",
               .help = "decode for MODEL (kunminghu, the default, also named kunminghu-v2; "
                       "kunminghu-v3; neoverse-n1, neoverse-n2, neoverse-v1, neoverse-v2: "
                       "PMEVTYPER<n>_EL0 with its fields, the counting rule and the problems)"),
    CLI_STRING("arch", 0, struct decode_opts, arch, .argh = "ARCH",
               .help = "the architecture (arm64: every common event and field of the newest PMUv3; "
                       "riscv: its first model)"),
    CLI_STRING("reg", 0, struct decode_opts, reg, .argh = "REG",
               .help = "which register the values are, on arm64: pmevtyper (the default) or "
                       "pmdevid (PCSample, PMSS, EXTPMN)"),
    CLI_HELP("help", 'h', .help = "this text"),
    {0},
};

/* The values, in order, wherever they stand among the options. */
struct decode_cli {
	struct decode_opts o; /* first: the table's offsets are into it */
	const char **values;
	int nr_values;
};

static int add_value(void *opts, const char *arg)
{
	struct decode_cli *d = opts;
	d->values[d->nr_values++] = arg;
	return 0;
}

/* options may follow the values, as with perf: "decode 0x12 --bank X"
 * checks the bank before anything is printed. '-' keeps that order even
 * under POSIXLY_CORRECT; "--" ends the options. */
static const struct cli_opts decode_spec = {
    .table = decode_options, .prefix = "-:", .operand = add_value};

void cmd_decode_usage(FILE *out)
{
	cli_opts_usage(out, &decode_spec, decode_usage_head, NULL);
}

int cmd_decode(int argc, char **argv)
{
	struct decode_cli d = {.values = xcalloc((size_t)argc, sizeof(*d.values))};
	int status = cli_opts_parse(&decode_spec, argc, argv, &d);
	if (status)
		goto out;
	while (optind < argc)
		d.values[d.nr_values++] = argv[optind++];
	status = decode_values(d.values, d.nr_values, &d.o);
out:
	free(d.values);
	return status < 0 ? 0 : status;
}
