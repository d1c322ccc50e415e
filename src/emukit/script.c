/* script.c: the script interpreter core (see script.h).
 *
 * Owns: struct hpm_emu_script. The word splitter is this file's own and
 * small on purpose: the script languages keep their exact syntax (a '#'
 * that starts a word ends the line) and messages.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emukit/script.h"
#include "emukit/trace.h"
#include "util/xalloc.h"

struct hpm_emu_script {
	const struct hpm_emu_script_lang *lang;
	void *machine;
	hpm_emu_script_output_fn out;
	void *ctx;
	char *last;                        /* last output line, NULL before the first */
	void *rec;                         /* recording in progress, or NULL */
	const volatile sig_atomic_t *stop; /* set by a signal handler: stop a run */
};

struct hpm_emu_script *hpm_emu_script_new(const struct hpm_emu_script_lang *lang, void *machine,
                                          hpm_emu_script_output_fn out, void *ctx)
{
	struct hpm_emu_script *s = xcalloc(1, sizeof(*s));
	s->lang = lang;
	s->machine = machine;
	s->out = out;
	s->ctx = ctx;
	return s;
}

void hpm_emu_script_free(struct hpm_emu_script *s)
{
	char err[256];
	if (!s)
		return;
	(void)hpm_emu_script_finish(s, err, sizeof(err));
	free(s->last);
	free(s);
}

void hpm_emu_script_set_stop(struct hpm_emu_script *s, const volatile sig_atomic_t *stop)
{
	s->stop = stop;
}

/* Whether to stop at a loop's nr_runs-th run: looked at every 1024 runs
 * (a few microseconds), cheap and prompt. */
static bool stopped(const struct hpm_emu_script *s, uint64_t nr_runs)
{
	return s->stop && (nr_runs & 1023u) == 0 && *s->stop;
}

int hpm_emu_script_loop(struct hpm_emu_script *s, uint64_t total, const char *unit,
                        hpm_emu_script_steps_fn *steps, void *it, char *err, size_t errlen)
{
	uint64_t done = 0, next = 1; /* the number of the next step */
	while (done < total) {
		if (stopped(s, next)) {
			snprintf(err, errlen, "interrupted after %llu of %llu %s",
			         (unsigned long long)done, (unsigned long long)total, unit);
			return -1;
		}
		unsigned made = 0;
		if (steps(s->machine, it, &done, total, 1024u - (unsigned)(next & 1023u), &made,
		          err, errlen) < 0)
			return -1;
		next += made;
	}
	return 0;
}

int hpm_emu_script_finish(struct hpm_emu_script *s, char *err, size_t errlen)
{
	void *rec = s->rec;
	s->rec = NULL;
	if (!rec)
		return 0;
	return s->lang->trace_close ? s->lang->trace_close(rec, err, errlen)
	                            : hpm_emu_trace_writer_close(rec, err, errlen);
}

int hpm_emu_script_trace(struct hpm_emu_script *s, const char *path, char *err, size_t errlen)
{
	if (hpm_emu_script_finish(s, err, errlen) < 0)
		return -1;
	s->rec = s->lang->trace_open
	             ? s->lang->trace_open(path, err, errlen)
	             : hpm_emu_trace_writer_open(s->lang->trace_format, path, err, errlen);
	return s->rec ? 0 : -1;
}

void *hpm_emu_script_recording(const struct hpm_emu_script *s)
{
	return s->rec;
}

void hpm_emu_script_output(struct hpm_emu_script *s, const char *line)
{
	free(s->last);
	s->last = xstrdup(line);
	if (s->out)
		s->out(s->ctx, line);
}

bool hpm_emu_script_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

int hpm_emu_script_number(const struct hpm_emu_script *s, const char *what, const char *word,
                          uint64_t *v, char *err, size_t errlen)
{
	if (s->lang->parse_number(word, v) < 0) {
		snprintf(err, errlen, "bad %s '%s' (%s)", what, word, s->lang->number_syntax);
		return -1;
	}
	return 0;
}

int hpm_emu_script_want_args(unsigned n, unsigned lo, unsigned hi, const char *usage, char *err,
                             size_t errlen)
{
	if (n < lo || n > hi) {
		snprintf(err, errlen, "usage: %s", usage);
		return -1;
	}
	return 0;
}

int hpm_emu_script_run_args(const struct hpm_emu_script *s, char **w, unsigned n, uint64_t *cycles,
                            uint64_t *seed, char *err, size_t errlen)
{
	*seed = 1;
	if (hpm_emu_script_want_args(n, 3, 4, "run CYCLES PROFILE [seed=N]", err, errlen) < 0 ||
	    hpm_emu_script_number(s, "cycle count", w[1], cycles, err, errlen) < 0)
		return -1;
	if (n == 4) {
		if (strncmp(w[3], "seed=", 5) != 0) {
			snprintf(err, errlen, "expected seed=N, got '%s'", w[3]);
			return -1;
		}
		if (hpm_emu_script_number(s, "seed", w[3] + 5, seed, err, errlen) < 0)
			return -1;
	}
	return 0;
}

int hpm_emu_script_expect_text(const struct hpm_emu_script *s, const char *line, char *err,
                               size_t errlen)
{
	const char *p = line;
	while (*p && hpm_emu_script_is_space(*p))
		p++;
	p += strlen("expect");
	while (*p && hpm_emu_script_is_space(*p))
		p++;
	const char *e = p;
	while (*e && !(*e == '#' && (e == p || hpm_emu_script_is_space(e[-1]))))
		e++;
	while (e > p && hpm_emu_script_is_space(e[-1]))
		e--;
	size_t len = (size_t)(e - p);
	if (!s->last) {
		snprintf(err, errlen, "expected '%.*s', got no output yet", (int)len, p);
		return -1;
	}
	if (strlen(s->last) != len || memcmp(s->last, p, len) != 0) {
		snprintf(err, errlen, "expected '%.*s', got '%s'", (int)len, p, s->last);
		return -1;
	}
	return 0;
}

void hpm_emu_script_trace_error(char *err, size_t errlen, const char *path, unsigned line,
                                const char *why)
{
	if (line)
		snprintf(err, errlen, "%s:%u: %s", path, line, why);
	else
		snprintf(err, errlen, "%s", why);
}

int hpm_emu_script_cmd_trace(struct hpm_emu_script *s, void *machine, char **w, unsigned n,
                             const char *line, char *err, size_t errlen)
{
	(void)machine;
	(void)n;
	(void)line;
	if (strcmp(w[1], "off") == 0)
		return hpm_emu_script_finish(s, err, errlen);
	return hpm_emu_script_trace(s, w[1], err, errlen);
}

int hpm_emu_script_cmd_expect(struct hpm_emu_script *s, void *machine, char **w, unsigned n,
                              const char *line, char *err, size_t errlen)
{
	(void)machine;
	(void)w;
	(void)n;
	return hpm_emu_script_expect_text(s, line, err, errlen);
}

int hpm_emu_script_cmd_replay(struct hpm_emu_script *s, void *machine, char **w, unsigned n,
                              const char *line, char *err, size_t errlen)
{
	const struct hpm_emu_script_lang *lang = s->lang;
	unsigned errline;
	char terr[256];
	struct hpm_emu_trace *t;

	(void)n, (void)line;
	if (!(t = hpm_emu_trace_load(lang->trace_format, w[1], &errline, terr, sizeof(terr)))) {
		hpm_emu_script_trace_error(err, errlen, w[1], errline, terr);
		return -1;
	}
	struct hpm_emu_script_replay it = {t, w[1]};
	int ret = hpm_emu_script_loop(s, hpm_emu_trace_nr_runs(t), "runs", lang->replay_steps, &it,
	                              err, errlen);
	lang->forget_source(machine, t);
	hpm_emu_trace_free(t);
	return ret;
}

/* Splits `buf` in place into at most max words; a word starting with '#'
 * ends the line. -1 with the error past max. */
static int split(char *buf, char **words, unsigned max, unsigned *n, char *err, size_t errlen)
{
	char *p = buf;

	*n = 0;
	for (;;) {
		while (*p && hpm_emu_script_is_space(*p))
			p++;
		if (!*p || *p == '#')
			break;
		if (*n == max) {
			snprintf(err, errlen, "too many words on one line (at most %u)", max);
			return -1;
		}
		words[(*n)++] = p;
		while (*p && !hpm_emu_script_is_space(*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
	return 0;
}

/* "unknown command 'X' (a, b, ...)" with the table's names. */
static void unknown_command(const struct hpm_emu_script_lang *lang, const char *name, char *err,
                            size_t errlen)
{
	size_t off = (size_t)snprintf(err, errlen, "unknown command '%s' (", name);
	for (size_t i = 0; i < lang->nr_cmds && off < errlen; i++)
		off += (size_t)snprintf(err + off, errlen - off, "%s%s", i ? ", " : "",
		                        lang->cmds[i].name);
	if (off < errlen)
		snprintf(err + off, errlen - off, ")");
}

int hpm_emu_script_exec(struct hpm_emu_script *s, const char *line, char *err, size_t errlen)
{
	const struct hpm_emu_script_lang *lang = s->lang;
	char *buf = xstrdup(line);
	char **w = xmalloc(lang->max_words * sizeof(*w));
	unsigned n;
	int ret = split(buf, w, lang->max_words, &n, err, errlen);

	if (ret == 0 && n > 0) {
		const struct hpm_emu_script_cmd *cmd = NULL;
		for (size_t i = 0; i < lang->nr_cmds && !cmd; i++)
			if (strcmp(w[0], lang->cmds[i].name) == 0)
				cmd = &lang->cmds[i];
		if (!cmd) {
			unknown_command(lang, w[0], err, errlen);
			ret = -1;
		} else if (!cmd->usage ||
		           (ret = hpm_emu_script_want_args(n, cmd->min_words, cmd->max_words,
		                                           cmd->usage, err, errlen)) == 0) {
			ret = cmd->run(s, s->machine, w, n, line, err, errlen);
		}
	}
	free(w);
	free(buf);
	return ret;
}

struct hpm_emu_script_session {
	struct hpm_emu_script *core;
	void *state, *machine;
	void (*release)(void *state, void *machine);
};

struct hpm_emu_script_session *
hpm_emu_script_session_new(struct hpm_emu_script *core, void *state, void *machine,
                           void (*release)(void *state, void *machine),
                           const volatile sig_atomic_t *stop, const char *trace_out, char *err,
                           size_t errlen)
{
	struct hpm_emu_script_session *ss = xcalloc(1, sizeof(*ss));
	ss->core = core;
	ss->state = state;
	ss->machine = machine;
	ss->release = release;
	hpm_emu_script_set_stop(core, stop);
	if (trace_out && hpm_emu_script_trace(core, trace_out, err, errlen) < 0) {
		hpm_emu_script_session_end(ss, NULL, 0);
		return NULL;
	}
	return ss;
}

int hpm_emu_script_session_exec(void *session, const char *line, char *err, size_t errlen)
{
	return hpm_emu_script_exec(((struct hpm_emu_script_session *)session)->core, line, err,
	                           errlen);
}

int hpm_emu_script_session_end(void *session, char *err, size_t errlen)
{
	struct hpm_emu_script_session *ss = session;
	int ret = err ? hpm_emu_script_finish(ss->core, err, errlen) : 0;
	ss->release(ss->state, ss->machine);
	free(ss);
	return ret;
}
