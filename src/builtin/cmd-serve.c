/* cmd-serve.c: hpmstat serve: a Prometheus exporter of hpmstat's counts
 * and Topdown.
 *
 * Owns: the command: --listen, the server's bounds, the page at "/", and
 * the sink (stat-sink.h) that renders each interval in both formats
 * (export/openmetrics.h) and publishes them to the HTTP side
 * (export/httpd.h). Counting is hpmstat stat's own loop with serve's
 * defaults (cmd_stat_run), in the main thread; libmicrohttpd answers in
 * its own thread from the last published copy, so a slow or stuck client
 * never holds up an interval.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "builtin/cli-opts.h"
#include "builtin/stat-sink.h"
#include "export/openmetrics.h"
#ifdef HAVE_LIBMICROHTTPD
#include "export/httpd.h"
#else
#define HPM_HTTPD_DEFAULT_LISTEN "127.0.0.1:9465"
#endif
#include "util/xalloc.h"

static const char serve_usage_head[] =
    "Usage: hpmstat serve [--listen ADDR:PORT] [stat options] [-- command [args]]\n"
    "\n"
    "Count continuously, as hpmstat stat -I does (system-wide unless -p, -C or a\n"
    "command is given; the emulator or perf back end as stat chooses), and\n"
    "answer GET /metrics with the latest counts and Topdown: OpenMetrics 1.0.0\n"
    "when the client's Accept header asks for application/openmetrics-text\n"
    "(Prometheus does), else the Prometheus text format 0.0.4.\n"
    "\n";
static const char serve_usage_tail[] =
    "\n"
    "Every other option is hpmstat stat's (hpmstat help stat), e.g. -e, -M,\n"
    "--topdown, --backend emu --emu-profile NAME --emu-seed N, --openmetrics FILE.\n"
    "SIGINT or SIGTERM stops it. See hpmstat-serve(1) for the metric families.\n"
    "\n"
    "Examples:\n"
    "  hpmstat serve\n"
    "  hpmstat serve --listen 127.0.0.1:9465 --backend emu --emu-profile balanced\n"
    "  hpmstat serve --topdown=2 -I 5000\n";

struct serve_opts {
	const char *listen;
};

/* serve's own options; -I and --help are stat's (cmd_stat_run reads
 * them, with serve's default interval and this --help), listed here for
 * --help and --list-opts */
static const struct cli_opt serve_options[] = {
    CLI_STRING("listen", 0, struct serve_opts, listen, .argh = "ADDR:PORT",
               .help = "where to listen (default " HPM_HTTPD_DEFAULT_LISTEN
                       "; [ADDR6]:PORT for IPv6, 0.0.0.0:PORT for every interface)"),
    CLI_IGNORE("interval-print", 'I', required_argument, .argh = "MS",
               .help = "counting interval (default 1000)"),
    CLI_HELP("help", 'h', .help = "this text"),
    {0},
};

static const struct cli_opts serve_spec = {.table = serve_options, .prefix = "+:"};

void cmd_serve_usage(FILE *out)
{
	cli_opts_usage(out, &serve_spec, serve_usage_head, serve_usage_tail);
}

#ifdef HAVE_LIBMICROHTTPD

/* Takes serve's own options (serve_options' STRING ones, "--NAME VALUE"
 * or "--NAME=VALUE") out of argv up to a command, into o; the rest is
 * stat's, in rest (n words). 0, or the exit status of the usage error. */
static int take_serve_opts(int argc, char **argv, struct serve_opts *o, char **rest, int *n)
{
	*n = 0;
	for (int i = 0; i < argc; i++) {
		bool cmd = i > 0 && strcmp(argv[i - 1], "--") == 0, taken = false;
		for (const struct cli_opt *t = serve_options; !cmd && i > 0 && t->name; t++) {
			size_t len = strlen(t->name);
			const char *w = argv[i];
			if (t->kind != CLI_OPT_STRING || strncmp(w, "--", 2) != 0 ||
			    strncmp(w + 2, t->name, len) != 0 || (w[2 + len] && w[2 + len] != '='))
				continue;
			if (!w[2 + len] && i + 1 >= argc)
				return cli_usage_error("option '--%s' requires an argument",
				                       t->name);
			*(const char **)(void *)((char *)o + t->offset) =
			    w[2 + len] ? w + 3 + len : argv[++i];
			taken = true;
		}
		if (taken)
			continue;
		rest[(*n)++] = argv[i];
		if (cmd) /* the command's own words follow */
			for (i++; i < argc; i++)
				rest[(*n)++] = argv[i];
	}
	return 0;
}

/* The bounds: a Prometheus server or two and a few people with curl need
 * far fewer connections, and a scrape's request is a few hundred bytes. */
#define SERVE_MAX_CONNS      64
#define SERVE_REQUEST_MEMORY 16384
#define SERVE_TIMEOUT_S      10

static const char serve_index[] =
    "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>hpmstat serve</title>"
    "</head>\n<body><h1>hpmstat serve</h1>\n"
    "<p>A Prometheus exporter of hardware performance counters and Topdown ratios "
    "counted by hpmstat: <a href=\"/metrics\">/metrics</a>.</p>\n<ul>\n"
    "<li>hpm_build_info: version, back end, PMU model and its event table, emulator profile and "
    "seed</li>\n"
    "<li>hpm_events_total, hpm_event_enabled_seconds_total, "
    "hpm_event_running_seconds_total: raw counts and their times per event and CPU; "
    "hpm_event_seconds_total: the time events (cpu-clock, task-clock ...) in seconds</li>\n"
    "<li>hpm_topdown_ratio: Topdown node shares (0..1) per CPU and for all</li>\n"
    "<li>hpm_ipc, hpm_metric, hpm_multiplexed: instructions per cycle, other metrics, "
    "multiplexing</li>\n"
    "<li>hpm_intervals_total, hpm_interval_seconds, hpm_start_time_seconds, "
    "hpm_last_update_timestamp_seconds: the counting itself</li>\n"
    "</ul>\n<p>See hpmstat-serve(1).</p></body></html>\n";

struct serve {
	struct serve_opts o;
	struct hpm_httpd *h;
};

/* Both formats of the current values, published as one update. */
static void serve_publish(struct serve *sv, struct hpm_session *s, const struct stat_result *res,
                          const struct hpm_expo_info *info)
{
	size_t om_len, prom_len;
	char *om = hpm_expo_render_string(HPM_EXPO_OPENMETRICS, s, res, info, &om_len);
	char *prom = hpm_expo_render_string(HPM_EXPO_PROMETHEUS, s, res, info, &prom_len);
	if (!om || !prom) {
		/* out of memory: the last exposition stays */
		free(om);
		free(prom);
		return;
	}
	hpm_httpd_publish(sv->h, om, om_len, prom, prom_len);
}

static int serve_start(void *ctx, struct hpm_session *s, const struct hpm_expo_info *info)
{
	struct serve *sv = ctx;
	char err[512];
	const struct hpm_httpd_config cfg = {.listen = sv->o.listen,
	                                     .max_conns = SERVE_MAX_CONNS,
	                                     .request_memory = SERVE_REQUEST_MEMORY,
	                                     .timeout_s = SERVE_TIMEOUT_S,
	                                     .index = serve_index};
	if (hpm_httpd_start(&cfg, &sv->h, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_FAILURE;
	}
	/* until the first interval: what is counted, without values yet */
	serve_publish(sv, s, NULL, info);
	return 0;
}

static void serve_interval(void *ctx, struct hpm_session *s, const struct stat_result *res,
                           const struct hpm_expo_info *info)
{
	serve_publish(ctx, s, res, info);
}

static void serve_stop(void *ctx)
{
	struct serve *sv = ctx;
	hpm_httpd_stop(sv->h);
	sv->h = NULL;
}

int cmd_serve(int argc, char **argv)
{
	struct serve sv = {.o.listen = HPM_HTTPD_DEFAULT_LISTEN};
	/* perf's --list-opts: serve's own long options, then stat's
	 * (cmd_stat_run lists them, -I and --help among them) */
	for (const struct cli_opt *t = serve_options; argc > 1 && t->name; t++)
		if (strcmp(argv[1], "--list-opts") == 0 && t->kind == CLI_OPT_STRING)
			printf("--%s ", t->name);
	/* --listen is serve's; everything else (up to a command) is stat's */
	char **rest = xcalloc((size_t)argc + 1, sizeof(char *));
	int n, status = take_serve_opts(argc, argv, &sv.o, rest, &n);
	if (!status) {
		const struct stat_sink sink = {.ctx = &sv,
		                               .start = serve_start,
		                               .interval = serve_interval,
		                               .stop = serve_stop};
		status = cmd_stat_run(n, rest, &sink);
	}
	free(rest);
	return status;
}

#else /* !HAVE_LIBMICROHTTPD */

int cmd_serve(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("hpmstat was built without libmicrohttpd, which serve needs "
	          "(install libmicrohttpd-dev and configure --with-libmicrohttpd)");
	return EXIT_FAILURE;
}

#endif
