/* backend-opts.h: the --backend and --emu-* options of hpmstat stat,
 * record and top.
 *
 * Owns: one table of them with their --help lines, which each command's
 * own table includes, and one parser for them. A command names its own
 * defaults in its cli_opts.help_override.
 */
#ifndef HPM_BUILTIN_BACKEND_OPTS_H
#define HPM_BUILTIN_BACKEND_OPTS_H

#include <stdbool.h>

#include "backend/emu.h"
#include "builtin/cli-opts.h"
#include "stat/session.h"

/* The options, their CALL_ID ids. */
enum backend_opt {
	BACKEND_OPT_BACKEND,
	BACKEND_OPT_EMU_PROFILE,
	BACKEND_OPT_EMU_TRACE,
	BACKEND_OPT_EMU_PMU,
	BACKEND_OPT_EMU_SEED,
	BACKEND_OPT_EMU_CYCLES,
	BACKEND_OPT_EMU_HARTS,
	BACKEND_OPT_EMU_FREQ,
};

/* The cli_opts features bit of the commands that have --emu-cycles (top
 * runs until quit: it has none). */
#define BACKEND_OPTS_CYCLES 0x1u

/* Where the options go. set_key, when set, checks and applies --backend,
 * --emu-seed, --emu-harts and --emu-freq as the command's settings file
 * does its keys of the same names (top.conf: "backend", "emu-seed"...),
 * for that file's messages; otherwise they are read here. */
struct backend_opts {
	enum hpm_backend_choice *backend;
	struct hpm_emu_config *emu;
	bool *emu_given; /* set by every --emu-* option */
	int (*set_key)(void *ctx, const char *opt, const char *key, const char *value);
	void *ctx;
};

/* The options with their --help lines, for a command's table to include
 * (CLI_INCLUDE) with a struct backend_opts as the cli_opts' include_ctx;
 * a command's help_override names the defaults that are its own. */
extern const struct cli_opt backend_options[];

#endif
