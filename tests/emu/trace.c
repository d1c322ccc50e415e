/* trace.c: the trace format: the exact text the writer produces, write and
 * replay round trips (replay gives the same counts as the original runs),
 * and every kind of malformed line, refused with its line number and with
 * nothing loaded.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu-test.h"
#include "emukit/trace.h"

static char tmpl[] = "/tmp/hpmstat-trace-test-XXXXXX";

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	static char buf[1 << 16];
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	return buf;
}

static void program(struct emu_hart *h)
{
	/* a spread of ops and modes over every bank */
	for (unsigned n = 3; n <= 31; n++) {
		uint64_t v = (uint64_t)(1 + n % 5) | (uint64_t)(2 + n % 7) << 10 |
		             (uint64_t)(n % 4 == 0 ? 3 : 0) << 20;
		v |= (uint64_t)(n % 3 == 0 ? 4 : n % 3) << 40; /* op0: ADD, AND or XOR */
		if (n % 5 == 0)
			v |= KMH_UINH;
		wr(h, EMU_CSR_MHPMEVENT(n), v);
	}
	wr(h, EMU_CSR_MHPMCOUNTER(7), UINT64_MAX - 100); /* wraps during the stream */
}

static void test_writer_text(void)
{
	char err[256];
	int fd = mkstemp(tmpl);
	close(fd);
	struct hpm_emu_trace_writer *w =
	    hpm_emu_trace_writer_open(&emu_trace_format, tmpl, err, sizeof(err));
	struct emu_stimulus *s = emu_stimulus_new();
	struct emu_run r;

	tap_ok(w != NULL, "writer opens %s", tmpl);
	emu_stimulus_assign(s, "frontend:ifu_req=5", err, sizeof(err));
	emu_stimulus_assign(s, "backend:53=3", err, sizeof(err));
	emu_stimulus_assign(s, "cache:68=63", err, sizeof(err));
	emu_stimulus_assign(s, "instret=3", err, sizeof(err));
	emu_stimulus_run(s, 10, EMU_MODE_HU, &r);
	emu_trace_write(w, &r, err, sizeof(err));
	emu_stimulus_clear(s);
	emu_stimulus_run(s, 18446744073709551615u, EMU_MODE_VS, &r);
	emu_trace_write(w, &r, err, sizeof(err));
	emu_stimulus_run(s, 0, EMU_MODE_VS, &r); /* nothing for 0 cycles */
	emu_trace_write(w, &r, err, sizeof(err));
	tap_ok(hpm_emu_trace_writer_close(w, err, sizeof(err)) == 0, "writer closes cleanly");
	tap_is_str(slurp(tmpl),
	           "hpmstat-emu-trace 1\n"
	           "# CYCLES MODE INSTRET [BANK:INDEX=VALUE ...]\n"
	           "10 HU 3 frontend:2=5 backend:53=3 cache:68=63\n"
	           "18446744073709551615 VS 0\n",
	           "the writer's text is the documented format");
	emu_stimulus_free(s);
	unlink(tmpl);
}

/* Random stimulus runs into hart 0 and a trace; the trace replayed into
 * hart 1 must leave every CSR equal. */
static void test_round_trip(void)
{
	char path[] = "/tmp/hpmstat-trace-rt-XXXXXX", err[256];
	int fd = mkstemp(path);
	close(fd);
	struct emu *emu = emu_new(2);
	struct emu_hart *a = emu_hart(emu, 0), *b = emu_hart(emu, 1);
	struct hpm_emu_trace_writer *w =
	    hpm_emu_trace_writer_open(&emu_trace_format, path, err, sizeof(err));
	struct emu_stimulus *s = emu_stimulus_new();
	uint64_t cycles = 0;

	program(a);
	program(b);
	srand(7);
	for (unsigned i = 0; i < 2000; i++) {
		struct emu_run r;
		emu_stimulus_clear(s);
		for (unsigned k = 0; k < 6; k++) {
			int bank = rand() % 4;
			emu_stimulus_set(s, bank, 1 + (unsigned)rand() % 9, (unsigned)rand() % 64,
			                 err, sizeof(err));
		}
		char ins[16];
		snprintf(ins, sizeof(ins), "instret=%d", rand() % 7);
		emu_stimulus_assign(s, ins, err, sizeof(err));
		emu_stimulus_run(s, 1 + (uint64_t)(rand() % 1000), (enum emu_mode)(rand() % 5), &r);
		emu_hart_run(a, &r);
		emu_trace_write(w, &r, err, sizeof(err));
		cycles += r.cycles;
	}
	tap_ok(hpm_emu_trace_writer_close(w, err, sizeof(err)) == 0, "round trip: trace written");
	unsigned line;
	struct hpm_emu_trace *t =
	    hpm_emu_trace_load(&emu_trace_format, path, &line, err, sizeof(err));
	tap_ok(t != NULL, "round trip: trace loads (%s)", t ? "ok" : err);
	if (t) {
		tap_is_u64(hpm_emu_trace_nr_runs(t), 2000, "round trip: 2000 runs");
		tap_is_u64(hpm_emu_trace_cycles(t), cycles, "round trip: cycles sum");
		for (size_t i = 0; i < hpm_emu_trace_nr_runs(t); i++) {
			struct emu_run r;
			emu_trace_run_at(t, i, &r);
			emu_hart_run(b, &r);
		}
		emu_forget_source(emu, t);
		hpm_emu_trace_free(t);
	}
	bool same = true;
	for (int i = 0; emu_csr_at((unsigned)i) >= 0; i++) {
		unsigned csr = (unsigned)emu_csr_at((unsigned)i);
		if (rd(a, csr) != rd(b, csr)) {
			tap_diag("%s differs after replay", emu_csr_name(csr));
			same = false;
		}
	}
	tap_ok(same, "round trip: replay leaves every CSR as the original runs did");
	tap_ok(rd(b, EMU_CSR_MHPMEVENT(7)) & KMH_OF,
	       "round trip: the replay wrapped counter 7 too");
	emu_stimulus_free(s);
	emu_free(emu);
	unlink(path);
}

/* Identical lines share a key: replay goes through the cache and still
 * counts each line. */
static void test_dedup(void)
{
	const char text[] = "# a comment first\n\nhpmstat-emu-trace 1\n"
	                    "5 HS 1 frontend:2=3\n"
	                    "7 VU 1 frontend:2=3\n"
	                    "  # indented comment\n"
	                    "2 M 0\n"
	                    "1\tHS\t1\tfrontend:2=3   \r\n"
	                    "4 HS 1 frontend:2=3 frontend:3=0\n";
	unsigned line = 99;
	char err[256];
	struct hpm_emu_trace *t =
	    hpm_emu_trace_parse(&emu_trace_format, text, sizeof(text) - 1, &line, err, sizeof(err));
	tap_ok(t != NULL, "comments, blank lines, tabs, CRLF and explicit zeros are accepted");
	if (!t)
		return;
	struct emu_run r0, r1, r2, r3, r4;
	emu_trace_run_at(t, 0, &r0);
	emu_trace_run_at(t, 1, &r1);
	emu_trace_run_at(t, 2, &r2);
	emu_trace_run_at(t, 3, &r3);
	emu_trace_run_at(t, 4, &r4);
	tap_ok(r0.key == r1.key && r0.key == r3.key && r0.key == r4.key && r2.key != r0.key &&
	           r0.key != 0,
	       "equal contents share one key, different contents do not");
	tap_ok(r0.cycles == 5 && r1.mode == EMU_MODE_VU && r2.instret == 0 && r3.cycles == 1 &&
	           r0.vals[KMH_BANK_FRONTEND][2] == 3,
	       "fields read back");
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	wr(h, EMU_CSR_MHPMEVENT(3), 2);
	for (size_t i = 0; i < hpm_emu_trace_nr_runs(t); i++) {
		struct emu_run r;
		emu_trace_run_at(t, i, &r);
		emu_hart_run(h, &r);
	}
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(3)), 3 * (5 + 7 + 1 + 4),
	           "replay counts 17 cycles of 3");
	tap_is_u64(rd(h, EMU_CSR_MINSTRET), 17, "replay minstret");
	emu_forget_source(emu, t);
	hpm_emu_trace_free(t);
	emu_free(emu);
}

static void test_malformed(void)
{
	static const struct {
		const char *text;
		unsigned line;
		const char *why;
	} bad[] = {
	    {"10 HU 0\n", 1, "no header"},
	    {"hpmstat-emu-trace 2\n", 1, "unknown version"},
	    {"", 0, "empty file"},
	    {"# only a comment\n", 0, "no header at all"},
	    {"hpmstat-emu-trace 1\n10 HU 0\n10 XX 0\n", 3, "bad mode"},
	    {"hpmstat-emu-trace 1\n10 hu 0\n", 2, "mode names are upper case"},
	    {"hpmstat-emu-trace 1\n0 HU 0\n", 2, "zero cycles"},
	    {"hpmstat-emu-trace 1\n-1 HU 0\n", 2, "negative cycles"},
	    {"hpmstat-emu-trace 1\n18446744073709551616 HU 0\n", 2, "cycles over 2^64-1"},
	    {"hpmstat-emu-trace 1\n0x10 HU 0\n", 2, "hex cycles"},
	    {"hpmstat-emu-trace 1\n10\n", 2, "missing mode"},
	    {"hpmstat-emu-trace 1\n10 HU\n", 2, "missing instret"},
	    {"hpmstat-emu-trace 1\n10 HU 64\n", 2, "instret 64"},
	    {"hpmstat-emu-trace 1\n10 HU 1 frontend:2=64\n", 2, "value 64"},
	    {"hpmstat-emu-trace 1\n10 HU 1 frontend:2=-1\n", 2, "negative value"},
	    {"hpmstat-emu-trace 1\n10 HU 1 frontend:0=1\n", 2, "noEvent"},
	    {"hpmstat-emu-trace 1\n10 HU 1 frontend:58=1\n", 2, "index past the table"},
	    {"hpmstat-emu-trace 1\n10 HU 1 cache:69=1\n", 2, "index past the cache table"},
	    {"hpmstat-emu-trace 1\n10 HU 1 fronted:2=1\n", 2, "unknown bank"},
	    {"hpmstat-emu-trace 1\n10 HU 1 frontend:ifu_req=1\n", 2, "names are not indices"},
	    {"hpmstat-emu-trace 1\n10 HU 1 frontend:2\n", 2, "missing value"},
	    {"hpmstat-emu-trace 1\n10 HU 1 frontend:2=1 frontend:2=2\n", 2, "duplicate event"},
	    {"hpmstat-emu-trace 1\n10 HU 1 frontend:2=1 x\n", 2, "trailing garbage"},
	    {"hpmstat-emu-trace 1\n1 M 0\n2 M 0\n3 M 0\n4 M 0 \n5 M 0 cache:1=1=1\n", 6,
	     "error on a late line"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unsigned line = 12345;
		char err[256] = "";
		struct hpm_emu_trace *t = hpm_emu_trace_parse(
		    &emu_trace_format, bad[i].text, strlen(bad[i].text), &line, err, sizeof(err));
		tap_ok(t == NULL && line == bad[i].line && err[0],
		       "malformed (%s): refused at line %u: %s", bad[i].why, line, err);
		hpm_emu_trace_free(t);
	}
	unsigned line;
	char err[256];
	tap_ok(hpm_emu_trace_load(&emu_trace_format, "/nonexistent/trace", &line, err,
	                          sizeof(err)) == NULL &&
	           line == 0,
	       "a missing file: %s", err);
}

/* The limits of emu.h: the writer's longest line (every event of every
 * bank at 63, the largest cycle count) is read back; the distinct-line
 * limit is refused at the line that passes it, with nothing loaded. */
static void test_limits(void)
{
	char path[] = "/tmp/hpmstat-trace-limit-XXXXXX", err[256];
	int fd = mkstemp(path);
	close(fd);
	struct hpm_emu_trace_writer *w =
	    hpm_emu_trace_writer_open(&emu_trace_format, path, err, sizeof(err));
	static uint8_t vals[KMH_NR_BANKS][1024];
	struct emu_run r = {.cycles = UINT64_MAX, .mode = EMU_MODE_VU, .instret = 63};
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		memset(vals[b], 63, sizeof(vals[b]));
		r.vals[b] = vals[b];
	}
	emu_trace_write(w, &r, err, sizeof(err));
	tap_ok(hpm_emu_trace_writer_close(w, err, sizeof(err)) == 0, "the longest line is written");
	FILE *f = fopen(path, "r");
	size_t longest = 0, cur = 0;
	for (int c; (c = getc(f)) != EOF;) {
		cur = c == '\n' ? 0 : cur + 1;
		longest = cur > longest ? cur : longest;
	}
	fclose(f);
	tap_ok(longest > 1000 && longest <= HPM_EMU_TRACE_MAX_LINE,
	       "the writer's longest line, %zu bytes, is within HPM_EMU_TRACE_MAX_LINE (%u)",
	       longest, HPM_EMU_TRACE_MAX_LINE);
	unsigned line = 0;
	struct hpm_emu_trace *t =
	    hpm_emu_trace_load(&emu_trace_format, path, &line, err, sizeof(err));
	tap_ok(t && hpm_emu_trace_nr_runs(t) == 1 && hpm_emu_trace_cycles(t) == UINT64_MAX,
	       "and it is read back (%s)", t ? "ok" : err);
	hpm_emu_trace_free(t);
	unlink(path);

	/* HPM_EMU_TRACE_MAX_DISTINCT + 1 distinct lines: instret and one event's
	 * index and value tell them apart */
	size_t cap = (size_t)(HPM_EMU_TRACE_MAX_DISTINCT + 2) * 48, len = 0;
	char *text = malloc(cap);
	unsigned n = 0, nfront = kmh_table_v2.banks[KMH_BANK_FRONTEND].nr_events;
	len += (size_t)sprintf(text, "%s\n", EMU_TRACE_MAGIC);
	for (unsigned two = 0; two < 2; two++)
		for (unsigned ins = 0; ins < 64; ins++)
			for (unsigned i = 1; i < nfront; i++)
				for (unsigned v = 1; v < 64 && n <= HPM_EMU_TRACE_MAX_DISTINCT;
				     v++, n++)
					len +=
					    (size_t)sprintf(text + len, "1 M %u frontend:%u=%u%s\n",
					                    ins, i, v, two ? " backend:2=1" : "");
	line = 0;
	t = hpm_emu_trace_parse(&emu_trace_format, text, len, &line, err, sizeof(err));
	tap_ok(!t && line == HPM_EMU_TRACE_MAX_DISTINCT + 2 && strstr(err, "distinct lines"),
	       "%u distinct lines: refused at line %u: %s", n, line, err);
	hpm_emu_trace_free(t);
	free(text);
}

int main(void)
{
	test_writer_text();
	test_round_trip();
	test_dedup();
	test_malformed();
	test_limits();
	return tap_done();
}
