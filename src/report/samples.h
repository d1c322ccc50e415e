/* samples.h: hpmstat report on a perf.data: hot functions per event, as
 * perf report --stdio --no-children computes them, their call graphs, folded
 * stacks, and Topdown per function from group reads.
 *
 * Owns: the samples report's model (struct rs_report): the records of a
 * perf.data (perfdata/reader.h) taken in time order as perf report takes
 * them (stable by time; records without a time keep their file place),
 * threads' command names from COMM and FORK, the maps fed to the
 * symbolizer (sym/sym.h), one histogram per event keyed by perf's sort
 * keys (comm, dso, sym, pid, cpu, socket, dso_size, symbol_size) and weighted by each sample's
 * period, the call trees of each entry in both orders, the folded stacks, and the per-function
 * count deltas of group reads with their Topdown, the chains cut as perf's --max-stack cuts them
 * and perf's filters (samples-filter.c); and its renderers (samples-render.c): perf's text layout
 * (its call graphs: samples-graph.c), CSV, JSON, Markdown, HTML with an inline SVG flame graph,
 * folded.
 *
 * Never prints, never exits: errors come back as one line in err; what
 * the reader skipped is in the file's notes (rs.file.note).
 */
#ifndef HPM_REPORT_SAMPLES_H
#define HPM_REPORT_SAMPLES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "perfdata/reader.h"

struct hpm_syms;
struct hpm_pmu_model;

/* perf's sort keys: comm, dso, sym, pid, cpu, socket (the CPU's, by the
 * file's CPU_TOPOLOGY), dso_size (the map's), symbol_size */
enum rs_key {
	RS_KEY_COMM,
	RS_KEY_DSO,
	RS_KEY_SYM,
	RS_KEY_PID,
	RS_KEY_CPU,
	RS_KEY_SOCKET,
	RS_KEY_DSO_SIZE,
	RS_KEY_SYM_SIZE,
	/* perf's ipc_null, which perf report adds to a --sort naming
	 * "symbol": its "IPC   [IPC Coverage]" column of dashes, keyed by
	 * the function as sym */
	RS_KEY_IPC_NULL
};
#define RS_MAX_KEYS 9

/* RS_GRAPH_NONE: perf's default (the callee graph when samples have
 * callchains); RS_GRAPH_OFF: -g none. */
enum rs_graph { RS_GRAPH_NONE, RS_GRAPH_CALLEE, RS_GRAPH_CALLER, RS_GRAPH_OFF };
/* what a graph branch shows (perf's -g percent|period|count) */
enum rs_graph_value { RS_VALUE_PERCENT, RS_VALUE_PERIOD, RS_VALUE_COUNT };
/* how the text draws it (perf's print types, -g graph|fractal|flat|folded):
 * a tree of shares of all the samples; a tree of shares of the parent's
 * callees; each chain that samples end at as a column; each as one line */
enum rs_graph_mode { RS_MODE_GRAPH, RS_MODE_FRACTAL, RS_MODE_FLAT, RS_MODE_FOLDED };

enum rs_format { RS_TEXT, RS_CSV, RS_JSON, RS_MD, RS_HTML, RS_FOLDED };

/* perf report's default --max-stack, PERF_MAX_STACK_DEPTH */
#define RS_MAX_STACK 127

/* A column of -F: one of perf's output fields, or a key (its rs_key) */
enum rs_col_kind {
	RS_COL_CHILDREN,
	RS_COL_SELF,
	RS_COL_SYS, /* --showcpuutilization: the share of the entry's samples taken in the kernel */
	RS_COL_USR, /* ... and in user mode */
	RS_COL_SAMPLES,
	RS_COL_PERIOD,
	RS_COL_KEY
};
struct rs_col {
	enum rs_col_kind kind;
	enum rs_key key; /* RS_COL_KEY's */
};
#define RS_MAX_COLS (RS_MAX_KEYS + 6)

struct rs_opts {
	enum rs_key key[RS_MAX_KEYS];
	unsigned nr_key; /* 0: comm,dso,sym as perf report, unless fields */
	/* -F (fields): its columns in its order, then --sort's keys it does
	 * not name (perf_hpp__setup_output_field); the entries are the
	 * keys' (--sort's, then -F's others: -F's alone without --sort, none
	 * at all for -F period,overhead) and sort by --sort's nr_sort_key
	 * keys first, then by these columns in this order
	 * (perf_hpp__append_sort_keys) */
	struct rs_col col[RS_MAX_COLS];
	unsigned nr_col, nr_sort_key;
	enum rs_graph graph;
	enum rs_graph_value graph_value;
	enum rs_graph_mode graph_mode;
	unsigned
	    graph_limit; /* perf's print limit: the branches or chains shown of each (0: all) */
	bool topdown;
	bool folded;     /* build the folded stacks (--format folded, html) */
	const char *pmu; /* --topdown with this model's formulas (--pmu) */
	/* --topdown with this named variant of the formulas (only models that
	 * have it compute the Topdown); NULL: each model's default */
	const char *topdown_variant;
	const char *kallsyms; /* NULL: /proc/kallsyms */
	/* --no-demangle: C++ names as mangled (hpm_syms_opts.no_demangle) */
	bool no_demangle;
	/* For a map whose name is no file ("[emu:hotspots]": an emulated
	 * workload), once per such name before its first map: the caller may
	 * give the symbolizer a table for it (hpm_syms_add_table); a non-zero
	 * return is a note, not an error. NULL: such maps stay unnamed. */
	int (*dso_table)(void *ctx, struct hpm_syms *syms, const char *dso, char *err,
	                 size_t errlen);
	void *dso_table_ctx;
	/* perf report --children (its default): each function's Children
	 * column, the period of the samples with it anywhere in their call
	 * chain, beside its Self; the entries by Children, each one's call
	 * graph from it down to the sampled functions. Only where samples
	 * have call chains, and in the text format. */
	bool children;
	/* columns (-n, -F): Overhead (Self) unless no_overhead, Samples,
	 * Period; perf's Children column with -F overhead_children */
	bool no_overhead, show_samples, show_period;
	bool no_children_col; /* -F without overhead_children: Children added up, not shown */
	bool fields;          /* -F: perf names the Self column Overhead still */
	double percent_limit; /* --percent-limit: entries under it hidden */
	/* the graph threshold (perf's callchain_param.min_percent): branches
	 * under graph_min percent hidden, 0 (every branch) included, when
	 * graph_min_given (-g's threshold or --percent-limit, the last given,
	 * as perf); otherwise perf's 0.5 */
	double graph_min;
	bool graph_min_given;
	/* --max-stack: the frames of a chain kept (perf's, when
	 * max_stack_given; else RS_MAX_STACK): the kernel's chain its first
	 * ones in callee order and its outermost in caller order (caller_chains:
	 * -g caller, -G, or --children without an order, as perf resolves
	 * chains in the graph's order), the unwound user frames their
	 * innermost */
	unsigned max_stack;
	bool max_stack_given;
	bool caller_chains;
	/* perf's filters, comma-separated lists (NULL: none): --comms (the
	 * thread's command), --pid, --tid, --dsos (a file's name or path),
	 * --symbols (a function's name; a hex number is a sample address).
	 * A filtered sample's entries, its callers' with it, are hidden;
	 * the totals stay all the samples' unless percent_relative
	 * (--percentage relative), as perf. */
	const char *comms, *pids, *tids, *dsos, *symbols;
	bool percent_relative;
	/* --symbol-filter: only the entries whose function's name holds this
	 * text (perf's hists__filter_entry_by_symbol: an entry without a
	 * named function goes too); applied to the entries, not the samples,
	 * so that --percentage relative takes the kept entries' period but
	 * still every sample the other filters keep, as perf */
	const char *symbol_filter;
	/* --showcpuutilization: perf's sys and usr columns after Overhead
	 * (Self), not under -F */
	bool cpu_util;
	/* -C: only these CPUs' samples, the others not counted at all (perf's
	 * cpu_bitmap); the file's samples must carry their CPU */
	const char *cpu_list;
	/* --time: only the samples in these spans of time, perf's forms
	 * ("start,stop" in seconds, spans apart by spaces; percentages of
	 * the recording's span, which the file's SAMPLE_TIME gives), the
	 * others not counted at all, as perf */
	const char *time_str;
	/* --sort's text starts with "sym" and no -F: perf leaves the first
	 * frame of a graph's first run out (the entry's own symbol) */
	bool sort_sym_first;
	bool perf_header; /* --stdio: perf's first header line */
	/* --header: perf's header listing came before (report/header.h), in
	 * place of the first header line */
	bool after_listing;
	bool quiet; /* -q: the entries (and graphs) alone, no '#' lines */
	/* --hide-unresolved: a sample whose function is unnamed is not
	 * counted at all, and an unnamed caller leaves its chain (perf's
	 * symbol_conf.hide_unresolved) */
	bool hide_unresolved;
};

/* "comm,dso" -> keys, perf's output fields among them (overhead, sample,
 * period), and perf's ipc_null key after them where the text holds
 * "symbol"; -1 with err naming the bad key. */
int rs_parse_sort(const char *s, struct rs_opts *o, char *err, size_t errlen);
/* -F: the columns, perf's fields (overhead, overhead_children, sample,
 * period) and keys; without a key, perf's default keys. */
int rs_parse_fields(const char *s, struct rs_opts *o, char *err, size_t errlen);
/* "text", ..., "folded"; -1 when unknown. */
int rs_format_parse(const char *s, enum rs_format *out);

/* A call-tree node: one frame under its parent. */
struct rs_cnode {
	unsigned frame;       /* interned name */
	unsigned dso;         /* interned */
	uint64_t key;         /* the function's start, else the address */
	unsigned child, next; /* first child, next sibling; 0: none (0 is no node) */
	unsigned parent;      /* 0 for a root */
	bool indexed;         /* its children are in the report's child index too */
	uint64_t period, samples;
};

struct rs_entry {
	unsigned comm, dso, sym; /* interned; sym is the shown name */
	bool kernel;             /* [k] or [.] */
	bool known;              /* sym names a function */
	int pid;
	/* the thread of the sample that made the entry, a key or not (perf's
	 * he->thread: its Children order compares it), and whether its symbol
	 * was named (he->ms.sym: an unnamed one widens the DSO column) */
	int thread;
	bool named;
	unsigned tcomm; /* the entry thread's last command (the pid column's) */
	uint64_t addr;  /* the dso offset (the key of an unnamed sym) */
	/* the sample's CPU and its socket (-1: not known), the size of the
	 * map and the function (0 unnamed): keys only when asked for; and
	 * whether a map holds the address (perf's he->ms.map: "unknown") */
	int cpu, socket;
	uint64_t dso_size, sym_size;
	bool mapped;
	/* the function's start of the sample that made it: perf's ipc_null
	 * key orders by it */
	uint64_t start;
	uint64_t period, samples;
	/* the period of its samples taken in the kernel and in user mode
	 * (perf's period_sys and period_us; the hypervisor's and a guest's
	 * are neither) */
	uint64_t period_sys, period_usr;
	/* the function of the sample that made the entry, whatever the keys
	 * (perf's he->ms.sym, which --symbol-filter reads); 0: unnamed */
	unsigned fsym;
	/* --children: the period of every sample with this function in its
	 * chain (its own included), and the longest chain in its tree */
	uint64_t acc;
	unsigned depth, depth_callee;
	unsigned callee, caller; /* roots of the call trees (0: none) */
	/* --topdown: the group members' count deltas given to this entry */
	double *delta; /* [hist's nr_member] */
	double *td;    /* [nr_td]: level-1 values in % (NAN: n/a) */
	/* bit t: node t on the bottleneck path, as the metric library marks
	 * it for stat and report (metric_set_mark_bottleneck) */
	uint64_t td_bn;
	/* made by a sample the filters leave out (perf's he->filtered: the
	 * first sample's, whatever later ones add) */
	bool filtered;
};

struct rs_hist {
	int ev; /* the event (pd_file.ev) */
	const char *name;
	uint64_t nr_samples, total_period;
	/* the samples, and their period, whose entry no filter hides; with
	 * --percentage relative nr_samples and total_period are these, and
	 * graph_period all the samples' (perf's graphs show shares of it) */
	uint64_t kept_samples, kept_period, graph_period;
	/* with --percentage relative, the period the graphs' threshold is a
	 * share of: the samples the sample filters keep, --symbol-filter's
	 * dropped entries' included (0: total_period) */
	uint64_t min_period;
	struct rs_entry *e;
	unsigned nr_e, cap_e;
	/* --topdown: the group's members (the leader first), by name */
	char **member;
	unsigned nr_member;
};

struct rs_folded {
	unsigned stack; /* interned "comm;frame;...;frame" */
	uint64_t count;
};

struct rs_report {
	struct pd_file file;
	struct rs_opts opts;
	struct rs_hist *hist;
	unsigned nr_hist;
	/* nr_lost_samples: LOST_SAMPLES (perf's "Total Lost Samples");
	 * nr_lost: what LOST records say the ring buffers dropped */
	uint64_t nr_lost, nr_lost_samples, nr_samples, nr_unknown_ev;
	struct rs_cnode *node;
	unsigned nr_node, cap_node;
	struct rs_folded *folded;
	unsigned nr_folded;
	bool cumulated; /* --children had call chains to add up: the Children column */
	/* interned strings */
	char **str;
	unsigned nr_str, cap_str;
	unsigned *str_hash; /* open addressing: index + 1, 0 free */
	unsigned str_hash_cap;
	/* --topdown: the Topdown nodes' names, depth first (level 1 only, or
	 * down to the deepest level the group's events compute), each one's
	 * parent column (-1 at level 1) */
	const char **td_name;
	int *td_parent;
	unsigned nr_td;
	const char *td_model; /* the model whose formulas gave them */
	/* the PMU model (table) whose raw events the file records, as
	 * hpmstat record wrote it (PERF_FEAT_HPM_PMU), or NULL */
	const struct hpm_pmu_model *model;
	/* the variant of them (metric_variant_name), or NULL */
	const char *td_variant;
	/* perf's elided column of each key (by enum rs_key): its filter's one
	 * entry ("# comm: tree" above the columns, the column left out of
	 * the text), NULL for a shown column */
	const char *elided[RS_MAX_KEYS];
	char td_why[384];       /* why there is no Topdown, when there is none */
	unsigned nr_td_damaged; /* entries whose group reads give level-1 shares outside
	                         * 0-100 % or not adding up to 100 %: their td is NAN */
	/* private state */
	void *priv;
};

/* Reads path (or the regular file fd, named name, or the buffer) and
 * builds the report. -1 with one line in err when nothing can be reported
 * (no such file, not a perf.data, ...); 0 otherwise, rs->file.partial
 * telling a partial read. */
int rs_load(struct rs_report *rs, const char *path, const struct rs_opts *o, char *err,
            size_t errlen);
int rs_load_fd(struct rs_report *rs, int fd, const char *name, const struct rs_opts *o, char *err,
               size_t errlen);
int rs_load_buffer(struct rs_report *rs, const void *buf, size_t len, const struct rs_opts *o,
                   char *err, size_t errlen);
void rs_free(struct rs_report *rs);
/* Why the report's C++ names stay mangled (the demangler's library
 * missing: hpm_syms_demangle_why), or NULL. */
const char *rs_demangle_why(const struct rs_report *rs);

static inline const char *rs_str(const struct rs_report *rs, unsigned id)
{
	return rs->str[id];
}

/* Whether the interned DSO is that of an address no map holds
 * ("[unknown]": perf's map and DSO are NULL, below every DSO where perf
 * compares pointers, after every one where it compares names). */
static inline bool rs_unmapped(const struct rs_report *rs, unsigned dso)
{
	return strcmp(rs_str(rs, dso), "[unknown]") == 0;
}

int rs_render(const struct rs_report *rs, enum rs_format f, FILE *out);

#endif
