/* backend-opts.c: the --backend and --emu-* options (backend-opts.h). */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/backend-opts.h"
#include "builtin/cli-opts.h"
#include "builtin/cli.h"
#include "util/xalloc.h"

static const struct option backend_longopts[] = {
    {"backend", required_argument, NULL, BACKEND_OPT_BACKEND},
    {"emu-profile", required_argument, NULL, BACKEND_OPT_EMU_PROFILE},
    {"emu-trace", required_argument, NULL, BACKEND_OPT_EMU_TRACE},
    {"emu-pmu", required_argument, NULL, BACKEND_OPT_EMU_PMU},
    {"emu-seed", required_argument, NULL, BACKEND_OPT_EMU_SEED},
    {"emu-cycles", required_argument, NULL, BACKEND_OPT_EMU_CYCLES},
    {"emu-harts", required_argument, NULL, BACKEND_OPT_EMU_HARTS},
    {"emu-freq", required_argument, NULL, BACKEND_OPT_EMU_FREQ},
    {NULL, 0, NULL, 0},
};

const struct cli_opt backend_opts_help[] = {
    {.name = "backend", .argh = "B", .help = "auto (default), perf or emu"},
    {.name = "emu-profile",
     .argh = "NAME",
     .help = "emulator workload profile or file (default balanced)"},
    {.name = "emu-trace", .argh = "FILE", .help = "replay a trace instead of a profile"},
    {.name = "emu-pmu",
     .argh = "NAME",
     .help = "Arm emulator feature profile (n1, v1, n2, v2, future)"},
    {.name = "emu-seed", .argh = "N", .help = "workload seed (default 1)"},
    {.name = "emu-harts", .argh = "N", .help = "emulated harts (default 1)"},
    {0},
};

static size_t nr_options(const struct option *o)
{
	size_t n = 0;
	while (o && o[n].name)
		n++;
	return n;
}

struct option *backend_opts_longopts(const struct option *head, const struct option *tail,
                                     bool with_cycles)
{
	size_t nh = nr_options(head), nb = nr_options(backend_longopts), nt = nr_options(tail);
	struct option *all = xcalloc(nh + nb + nt + 1, sizeof(*all));
	size_t n = 0;
	for (size_t i = 0; i < nh; i++)
		all[n++] = head[i];
	for (size_t i = 0; i < nb; i++)
		if (with_cycles || backend_longopts[i].val != BACKEND_OPT_EMU_CYCLES)
			all[n++] = backend_longopts[i];
	for (size_t i = 0; i < nt; i++)
		all[n++] = tail[i];
	return all; /* zeroed past n: the end marker */
}

struct cli_opts backend_opts_spec(const struct cli_opt *table, size_t at, bool with_cycles,
                                  const struct cli_opt *own_help, struct backend_opts *bo)
{
	return (struct cli_opts){.table = table,
	                         .prefix = "+:",
	                         .splice = backend_opts_longopts(NULL, NULL, with_cycles),
	                         .splice_at = at,
	                         .other = backend_opts_apply,
	                         .other_ctx = bo,
	                         .splice_help = own_help,
	                         .splice_help_shared = backend_opts_help};
}

void backend_opts_usage(FILE *out, const struct cli_opt *table, size_t at, bool with_cycles,
                        const struct cli_opt *own_help, const char *head, const char *tail)
{
	struct cli_opts spec = backend_opts_spec(table, at, with_cycles, own_help, NULL);
	cli_opts_usage(out, &spec, head, tail);
	free(spec.splice);
}

bool backend_opts_has(int c)
{
	return c >= BACKEND_OPT_BACKEND && c <= BACKEND_OPT_EMU_FREQ;
}

/* The option's name as written on the command line, "--emu-seed". */
static const char *option_name(int c)
{
	for (const struct option *o = backend_longopts; o->name; o++)
		if (o->val == c)
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

int backend_opts_parse(const struct backend_opts *b, int c, const char *arg)
{
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

int backend_opts_apply(void *ctx, int c, const char *arg)
{
	return backend_opts_parse(ctx, c, arg);
}
