/* backend-opts.h: the --backend and --emu-* options of hpmstat stat and
 * hpmstat top.
 *
 * Owns: one table of their long options, spliced into each command's own
 * table at the same place, and one parser for them. Their --help lines
 * are each command's (cli_opts.splice_help): the defaults they name differ.
 */
#ifndef HPM_BUILTIN_BACKEND_OPTS_H
#define HPM_BUILTIN_BACKEND_OPTS_H

#include <stdbool.h>

#include "backend/emu.h"
#include "stat/session.h"

struct option; /* <getopt.h> */

/* What getopt_long returns for them: past any command's own values. */
enum backend_opt {
	BACKEND_OPT_BACKEND = 0x400,
	BACKEND_OPT_EMU_PROFILE,
	BACKEND_OPT_EMU_TRACE,
	BACKEND_OPT_EMU_PMU,
	BACKEND_OPT_EMU_SEED,
	BACKEND_OPT_EMU_CYCLES,
	BACKEND_OPT_EMU_HARTS,
	BACKEND_OPT_EMU_FREQ,
};

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

/* A command's long options: head, these (--emu-cycles only when
 * with_cycles), then tail, ending in a zero entry; free() it. The order
 * is the one cli_option_error lists an ambiguous abbreviation's
 * candidates in. */
struct option *backend_opts_longopts(const struct option *head, const struct option *tail,
                                     bool with_cycles);
/* True when c, a getopt_long return, is one of these options. */
bool backend_opts_has(int c);
/* Applies option c with its value arg: 0, or EXIT_FAILURE after the
 * message ("--emu-harts 'x': not a number"). */
int backend_opts_parse(const struct backend_opts *b, int c, const char *arg);
/* backend_opts_parse for cli-opts.h's spliced options: ctx is the struct
 * backend_opts. */
int backend_opts_apply(void *ctx, int c, const char *arg);

#endif
