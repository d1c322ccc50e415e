/* backend-opts.c: the --backend and --emu-* options (backend-opts.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/backend-opts.h"
#include "builtin/cli-opts.h"
#include "builtin/cli.h"
#include "util/xalloc.h"

static int backend_opts_apply(void *ctx, int c, const char *arg);

#define BACKEND_OPT(l, i, a, h)                                                                    \
	{                                                                                          \
		.name = l, .has_arg = 1, .kind = CLI_OPT_CALL_ID, .id = i,                         \
		.call_id = backend_opts_apply, .argh = a, .help = h                                \
	}
const struct cli_opt backend_options[] = {
    BACKEND_OPT("backend", BACKEND_OPT_BACKEND, "B", "auto (default), perf or emu"),
    BACKEND_OPT("emu-profile", BACKEND_OPT_EMU_PROFILE, "NAME",
                "emulator workload profile or file (default balanced)"),
    BACKEND_OPT("emu-trace", BACKEND_OPT_EMU_TRACE, "FILE", "replay a trace instead of a profile"),
    BACKEND_OPT("emu-pmu", BACKEND_OPT_EMU_PMU, "NAME",
                "Arm emulator feature profile (n1, v1, n2, v2, future)"),
    BACKEND_OPT("emu-seed", BACKEND_OPT_EMU_SEED, "N", "workload seed (default 1)"),
    {.name = "emu-cycles",
     .has_arg = 1,
     .kind = CLI_OPT_CALL_ID,
     .id = BACKEND_OPT_EMU_CYCLES,
     .call_id = backend_opts_apply,
     .needs = BACKEND_OPTS_CYCLES,
     .argh = "N",
     .help = "emulated cycles per hart (default 1e9)"},
    BACKEND_OPT("emu-harts", BACKEND_OPT_EMU_HARTS, "N", "emulated harts (default 1)"),
    BACKEND_OPT("emu-freq", BACKEND_OPT_EMU_FREQ, "HZ", "emulated clock"),
    {0},
};

/* The option's name as written on the command line, "--emu-seed". */
static const char *option_name(int c)
{
	for (const struct cli_opt *o = backend_options; o->name; o++)
		if (o->id == c)
			return o->name;
	return "";
}

/* --emu-seed, --emu-cycles, --emu-harts and --emu-freq read here. */
static int parse_emu_number(struct hpm_emu_config *emu, int c, const char *opt, const char *arg)
{
	uint64_t n;
	switch (c) {
	case BACKEND_OPT_EMU_SEED:
		return cli_parse_u64(opt, arg, 0, UINT64_MAX, &emu->seed);
	case BACKEND_OPT_EMU_CYCLES:
		return cli_parse_u64(opt, arg, 1, UINT64_C(1) << 62, &emu->cycles);
	case BACKEND_OPT_EMU_HARTS:
		if (cli_parse_u64(opt, arg, 1, HPM_EMU_MAX_HARTS, &n))
			return -1;
		emu->harts = (unsigned)n;
		return 0;
	default: /* BACKEND_OPT_EMU_FREQ */
		if (cli_parse_u64(opt, arg, 1000, HPM_EMU_MAX_FREQ, &n))
			return -1;
		emu->freq = n;
		return 0;
	}
}

static int backend_opts_apply(void *ctx, int c, const char *arg)
{
	const struct backend_opts *b = ctx;
	char opt[32];
	snprintf(opt, sizeof(opt), "--%s", option_name(c));
	switch (c) {
	case BACKEND_OPT_BACKEND:
		if (b->set_key)
			return b->set_key(b->ctx, opt, opt + 2, arg) ? EXIT_FAILURE : 0;
		if (hpm_backend_choice_parse(arg, b->backend) != 0) {
			cli_error("--backend '%s': must be auto, perf or emu", arg);
			return EXIT_FAILURE;
		}
		return 0;
	case BACKEND_OPT_EMU_PROFILE:
		b->emu->profile = arg;
		break;
	case BACKEND_OPT_EMU_TRACE:
		b->emu->trace = arg;
		break;
	case BACKEND_OPT_EMU_PMU:
		b->emu->pmu = arg;
		break;
	default:
		if (b->set_key && c != BACKEND_OPT_EMU_CYCLES
		        ? b->set_key(b->ctx, opt, opt + 2, arg)
		        : parse_emu_number(b->emu, c, opt, arg))
			return EXIT_FAILURE;
		break;
	}
	/* an --emu-* option asks for the emulator (top's auto back end) */
	*b->emu_given = true;
	return 0;
}
