/* trace.c: the Arm trace source: writing runs as text and replaying them.
 *
 * Owns: the Arm trace format (see trace.h) as arm_src_trace_format, a
 * struct hpm_emu_trace_format for the shared core (emukit/trace.h, which
 * reads, validates, bounds, interns and holds it), and what a line of it
 * means: how a run is written and how a stored one becomes a struct
 * arm_emu_run. A line's content is everything but its cycles; a replayed
 * run's values point into the core's stored items.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm64/emu/stimulus.h"
#include "arm64/emu/trace.h"
#include "emukit/trace.h"
#include "util/xalloc.h"

static const char *const sec_names[ARM_EMU_NR_SEC] = {"ns", "s", "realm", "root"};

/* ----------------------------------------------------------------- format */

/* What a line says but for its cycles and values. */
struct head {
	uint64_t pc;
	uint32_t context;
	uint16_t vmid;
	uint8_t el, sec, sm;
};

/* EL STATE SM PC CONTEXT VMID */
static int parse_head(const char **p, const char *end, void *head, uint8_t *tag, char *err,
                      size_t errlen)
{
	struct head *c = head;
	const char *tok;
	size_t len;
	uint64_t v;

	(void)tag;
	if (hpm_emu_trace_field(p, end, &tok, &len, "EL after the cycle count", err, errlen) < 0)
		return -1;
	if (arm_src_parse_u64(tok, len, &v) < 0 || v > 3) {
		snprintf(err, errlen, "bad exception level '%.*s' (0..3)", (int)len, tok);
		return -1;
	}
	c->el = (uint8_t)v;
	if (hpm_emu_trace_field(p, end, &tok, &len, "STATE after the exception level", err,
	                        errlen) < 0)
		return -1;
	int sec = -1;
	for (unsigned s = 0; s < ARM_EMU_NR_SEC; s++)
		if (strlen(sec_names[s]) == len && memcmp(sec_names[s], tok, len) == 0)
			sec = (int)s;
	if (sec < 0) {
		snprintf(err, errlen, "bad security state '%.*s' (ns, s, realm or root)", (int)len,
		         tok);
		return -1;
	}
	if (c->el == 3 && (sec == ARM_EMU_SEC_NS || sec == ARM_EMU_SEC_REALM)) {
		snprintf(err, errlen, "EL3 runs in Secure or Root state, not '%s'", sec_names[sec]);
		return -1;
	}
	if (c->el != 3 && sec == ARM_EMU_SEC_ROOT) {
		snprintf(err, errlen, "Root state is EL3's only, not EL%u's", c->el);
		return -1;
	}
	c->sec = (uint8_t)sec;
	if (hpm_emu_trace_field(p, end, &tok, &len, "SM after the security state", err, errlen) < 0)
		return -1;
	if (len != 1 || (tok[0] != '0' && tok[0] != '1')) {
		snprintf(err, errlen, "bad streaming mode '%.*s' (0 or 1)", (int)len, tok);
		return -1;
	}
	c->sm = (uint8_t)(tok[0] - '0');
	if (hpm_emu_trace_field(p, end, &tok, &len, "PC after the streaming mode", err, errlen) < 0)
		return -1;
	if (arm_src_parse_u64(tok, len, &c->pc) < 0) {
		snprintf(err, errlen, "bad PC '%.*s'", (int)len, tok);
		return -1;
	}
	if (hpm_emu_trace_field(p, end, &tok, &len, "CONTEXT after the PC", err, errlen) < 0)
		return -1;
	if (arm_src_parse_u64(tok, len, &v) < 0 || v > UINT32_MAX) {
		snprintf(err, errlen, "bad context ID '%.*s' (32 bits)", (int)len, tok);
		return -1;
	}
	c->context = (uint32_t)v;
	if (hpm_emu_trace_field(p, end, &tok, &len, "VMID after the context ID", err, errlen) < 0)
		return -1;
	if (arm_src_parse_u64(tok, len, &v) < 0 || v > UINT16_MAX) {
		snprintf(err, errlen, "bad VMID '%.*s' (0..65535)", (int)len, tok);
		return -1;
	}
	c->vmid = (uint16_t)v;
	return 0;
}

/* EVENT=VB as a struct arm_emu_val. */
static int parse_val(const char *tok, size_t len, void *item, char *err, size_t errlen)
{
	const char *eq = memchr(tok, '=', len);
	uint64_t code, vb;
	if (!eq || eq == tok || eq == tok + len - 1) {
		snprintf(err, errlen, "bad event '%.*s': expected EVENT=VB", (int)len, tok);
		return -1;
	}
	if (arm_src_parse_u64(tok, (size_t)(eq - tok), &code) < 0 || code == 0 || code > 0xffff ||
	    code == ARM_SRC_CPU_CYCLES) {
		snprintf(err, errlen, "bad event number '%.*s' (1..0xffff, not CPU_CYCLES 0x0011)",
		         (int)(eq - tok), tok);
		return -1;
	}
	size_t vlen = len - (size_t)(eq + 1 - tok);
	if (arm_src_parse_u64(eq + 1, vlen, &vb) < 0 || vb == 0 || vb > UINT16_MAX) {
		snprintf(err, errlen, "bad value '%.*s' for event 0x%04x (1..65535)", (int)vlen,
		         eq + 1, (unsigned)code);
		return -1;
	}
	*(struct arm_emu_val *)item =
	    (struct arm_emu_val){.event = (uint16_t)code, .vb = (uint16_t)vb};
	return 0;
}

static int cmp_val(const void *a, const void *b)
{
	const struct arm_emu_val *x = a, *y = b;
	return x->event < y->event ? -1 : x->event > y->event;
}

static void val_twice(const void *item, char *err, size_t errlen)
{
	snprintf(err, errlen, "event 0x%04x given twice",
	         ((const struct arm_emu_val *)item)->event);
}

const struct hpm_emu_trace_format arm_src_trace_format = {
    .magic = ARM_SRC_TRACE_MAGIC,
    .columns = "# CYCLES EL STATE SM PC CONTEXT VMID [EVENT=VB ...]",
    .name = "an Arm trace",
    .head_size = sizeof(struct head),
    .item_size = sizeof(struct arm_emu_val),
    .parse_number = arm_src_parse_u64,
    .parse_head = parse_head,
    .parse_item = parse_val,
    .cmp_item = cmp_val,
    .twice = val_twice,
    .item_is_zero = NULL, /* a value of 0 is refused */
};

/* ----------------------------------------------------------------- writer */

int arm_src_trace_write(struct hpm_emu_trace_writer *w, const struct arm_emu_run *run, char *err,
                        size_t errlen)
{
	FILE *f = hpm_emu_trace_writer_stream(w);
	int r = 0;

	if (!run->cycles)
		return 0;
	if (run->el >= ARM_EMU_NR_EL || run->sec >= ARM_EMU_NR_SEC) {
		/* a broken producer: refuse rather than write a line that replays differently */
		snprintf(err, errlen, "cannot trace a run with EL %u, security state %u", run->el,
		         run->sec);
		return -1;
	}
	if (f) {
		r = fprintf(f, "%llu %u %s %u 0x%llx 0x%x %u", (unsigned long long)run->cycles,
		            (unsigned)run->el, sec_names[run->sec], run->streaming ? 1u : 0u,
		            (unsigned long long)run->pc, (unsigned)run->context,
		            (unsigned)run->vmid);
		for (unsigned i = 0; i < run->nr_vals && r >= 0; i++)
			if (run->vals[i].vb)
				r = fprintf(f, " 0x%04x=%u", run->vals[i].event, run->vals[i].vb);
		if (r >= 0)
			r = putc('\n', f);
	}
	return hpm_emu_trace_writer_done(w, r, err, errlen);
}

/* ----------------------------------------------------------------- reader */

void arm_src_trace_run_at(const struct hpm_emu_trace *t, size_t i, struct arm_emu_run *run)
{
	uint32_t content, nr;
	uint8_t tag;
	uint64_t cycles = hpm_emu_trace_run(t, i, &content, &tag);
	const struct head *c = hpm_emu_trace_head(t, content);

	memset(run, 0, sizeof(*run));
	run->cycles = cycles;
	run->key = content + 1;
	run->source = t;
	run->el = c->el;
	run->sec = c->sec;
	run->streaming = c->sm;
	run->pc = c->pc;
	run->context = c->context;
	run->vmid = c->vmid;
	run->vals = hpm_emu_trace_items(t, content, &nr);
	run->nr_vals = nr;
}
