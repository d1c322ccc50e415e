/* cmd-encode.c: hpmstat encode: event expressions into event-select values
 * (Kunminghu's mhpmevent, an Arm core's PMEVTYPER<n>_EL0). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "builtin/builtin.h"
#include "builtin/cli-opts.h"
#include "builtin/fields.h"
#include "util/xalloc.h"

static const char encode_usage_head[] =
    "Usage: hpmstat encode [--json] [--pmu MODEL | --arch ARCH] EXPR...\n"
    "\n"
    "Encode each Kunminghu event expression into the 64-bit mhpmevent value.\n"
    "One line per expression: the value as 0x and 16 hex digits, the canonical\n"
    "expression, then the fields. EXPR is NAME, BANK:NAME, BANK:INDEX, or up to\n"
    "four of them joined by + | & ^ and parentheses, with optional :MODS\n"
    "(u k m H G); or kunminghu/event0=..,op0=../; or rHEX. See hpmstat-events(7).\n"
    "\n";

static const char encode_usage_tail[] =
    "\n"
    "Example: hpmstat encode 'INST_SPEC + RECOVERY_BUBBLE' rob_commitInstr:u\n";

/* encode's options and its expressions, in order, wherever they stand
 * among the options. */
struct encode_opts {
	bool json;
	const char *pmu, *arch;
	const char **exprs;
	int nr_exprs;
};

static int add_expr(void *opts, const char *arg)
{
	struct encode_opts *o = opts;
	o->exprs[o->nr_exprs++] = arg;
	return 0;
}

static const struct cli_opt encode_options[] = {
    CLI_FLAG("json", 'j', struct encode_opts, json,
             .help = "one JSON object per line with the fields"),
    CLI_STRING("pmu", 0, struct encode_opts, pmu, .argh = "MODEL",
               .help = "encode for MODEL (kunminghu, the default, also named kunminghu-v2; "
                       "kunminghu-v3; neoverse-n1, neoverse-n2, neoverse-n2-r0p0, neoverse-v1, "
                       "neoverse-v2 or n1, n2, v1, v2: PMEVTYPER<n>_EL0, the Arm syntax of "
                       "hpmstat-events(7), also perf's armv8_pmuv3_0/event=N,.../)"),
    CLI_STRING("arch", 0, struct encode_opts, arch, .argh = "ARCH",
               .help = "the architecture (arm64: every common event and field of the newest PMUv3; "
                       "riscv: its first model)"),
    CLI_HELP("help", 'h', .help = "this text"),
    {0},
};

/* options and expressions mix, as with perf ("encode EXPR --json");
 * '-' keeps that order even under POSIXLY_CORRECT, and "--" ends the
 * options for an expression that starts with '-' */
static const struct cli_opts encode_spec = {
    .table = encode_options, .prefix = "-:", .operand = add_expr};

void cmd_encode_usage(FILE *out)
{
	cli_opts_usage(out, &encode_spec, encode_usage_head, encode_usage_tail);
}

int cmd_encode(int argc, char **argv)
{
	struct encode_opts o = {.exprs = xcalloc((size_t)argc, sizeof(*o.exprs))};
	int status = cli_opts_parse(&encode_spec, argc, argv, &o);
	const char **exprs = o.exprs;

	if (status) {
		free(exprs);
		return status < 0 ? 0 : status;
	}
	while (optind < argc)
		o.exprs[o.nr_exprs++] = argv[optind++];
	int nr_exprs = o.nr_exprs;
	bool json = o.json;
	if (nr_exprs == 0) {
		free(exprs);
		return cli_usage_error("no expression given");
	}
	const struct hpm_pmu_model *model = fields_model_for(o.pmu, o.arch);
	if (!model) {
		free(exprs);
		return EXIT_FAILURE;
	}
	for (int i = 0; i < nr_exprs; i++) {
		struct hpm_event_code enc;
		struct hpm_diag err;
		struct hpm_model_decoded d;
		if (model->encode(model, exprs[i], &enc, &err) != 0) {
			fields_report_error(exprs[i], &err);
			status = EXIT_FAILURE;
			continue;
		}
		if (json) {
			json_t *obj = model->decode_json(model, enc.value, enc.constraint);
			json_object_set_new(obj, "input", json_string(exprs[i]));
			/* the spelling that encodes back exactly (rHEX when no other does) */
			json_object_set_new(obj, "canonical", json_string(enc.canonical));
			if (fields_print_json_line(stdout, obj) != 0) {
				cli_error("'%s': cannot format JSON", exprs[i]);
				status = EXIT_FAILURE;
			}
			json_decref(obj);
			continue;
		}
		model->decode(model, enc.value, enc.constraint, &d);
		fields_print_text(stdout, enc.value, enc.canonical, &d);
	}
	free(exprs);
	return status;
}
