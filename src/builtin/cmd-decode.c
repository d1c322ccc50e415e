/* cmd-decode.c: hpmstat decode: mhpmevent values into fields and event names. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "builtin/fields.h"
#include "util/str.h"
#include "util/xalloc.h"

const char cmd_decode_usage[] =
    "Usage: hpmstat decode [--json] [--bank BANK | --counter N] VALUE...\n"
    "\n"
    "Decode 64-bit mhpmevent values (decimal, 0x hex, 0b binary or rHEX) into\n"
    "their fields: EVENT0-3, OP_TYPE0-2, the INH bits and the modes they leave\n"
    "counted, OF, and bits set in the reserved field 57:55. With a bank (or a\n"
    "counter, which implies its bank) the events are named. The value is also\n"
    "shown as an expression that 'hpmstat encode' turns back into it; when no\n"
    "expression can (OF or bits 57:55 set, a reserved op, an index outside the\n"
    "bank, a mode set no modifier selects) the line ends with 'inexact'.\n"
    "\n"
    "  -b, --bank BANK    name events from BANK (frontend, backend, memblock, cache)\n"
    "  -c, --counter N    the value is mhpmevent N (3-31): name events from its bank\n"
    "  -j, --json         one JSON object per line\n"
    "  -h, --help         this text\n";

/* The checks, then the decoding: every value and option is checked before
 * anything is printed, so an error leaves no partial output. */
static int decode_values(const char **values, int nr_values, const char *bank_opt,
                         const char *counter_opt, bool json)
{
	const struct hpm_pmu_model *model = fields_model();
	const struct hpm_model_counters *ctr = &model->counters;
	int bank = -1, status = 0;

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
		bank = model->constraint_of_counter((unsigned)n);
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
		model->decode(model, v, bank, &d);
		fields_print_text(stdout, v, d.expr, &d);
	}
	return status;
}

int cmd_decode(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"json", no_argument, NULL, 'j'},
	    {"bank", required_argument, NULL, 'b'},
	    {"counter", required_argument, NULL, 'c'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	bool json = false;
	int c, status = 0;
	const char *bank_opt = NULL, *counter_opt = NULL;
	/* the values, in order, wherever they stand among the options */
	const char **values = xcalloc((size_t)argc, sizeof(*values));
	int nr_values = 0;

	opterr = 0;
	optind = 1;
	/* options may follow the values, as with perf: "decode 0x12 --bank X"
	 * checks the bank before anything is printed. '-' keeps that order
	 * even under POSIXLY_CORRECT; "--" ends the options. */
	while ((c = getopt_long(argc, argv, "-:jb:c:h", longopts, NULL)) != -1) {
		switch (c) {
		case 1:
			values[nr_values++] = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'b':
			bank_opt = optarg;
			break;
		case 'c':
			counter_opt = optarg;
			break;
		case 'h':
			cli_print_usage(stdout);
			status = -1;
			goto out;
		case ':':
		default:
			status = cli_option_error(c, argv, longopts);
			goto out;
		}
	}
	while (optind < argc)
		values[nr_values++] = argv[optind++];
	status = decode_values(values, nr_values, bank_opt, counter_opt, json);
out:
	free(values);
	return status < 0 ? 0 : status;
}
