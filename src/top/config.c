/* config.c: top_opts defaults and the config file (see top.h).
 *
 * The file is the settings a user would otherwise type every time, one
 * "key = value" a line, so `W` can write back exactly what the keys
 * changed: it rewrites the values it saves in their lines and keeps every
 * other line (comments, keys it does not save, unknown keys) as it was. Unknown keys and bad values
 * are reported with their line number (a bad value with its column too) and skipped, so a file
 * written by a newer hpmstat still loads.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "top/top.h"
#include "util/diag.h"
#include "util/lex.h"
#include "util/line.h"
#include "util/outfile.h"
#include "util/xalloc.h"

void top_opts_init(struct top_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->backend = HPM_BACKEND_AUTO;
	hpm_emu_config_init(&o->emu);
	o->pid = -1;
	o->delay = 1.0;
	o->level = 1;
	o->nprocs = TOP_DEFAULT_PROCS;
	o->color = true;
}

void top_opts_set(char **field, const char *value)
{
	free(*field);
	*field = value && *value ? xstrdup(value) : NULL;
}

void top_opts_free(struct top_opts *o)
{
	free(o->events);
	free(o->events_origin);
	free(o->metrics);
	free(o->cpus);
	free(o->sort);
	free(o->user);
	free(o->pmu);
	free(o->topdown_variant);
	free(o->profile_buf);
	memset(o, 0, sizeof(*o));
}

char *top_config_path(void)
{
	const char *x = getenv("XDG_CONFIG_HOME");
	if (x && *x)
		return xasprintf("%s/hpmstat/top.conf", x);
	const char *h = getenv("HOME");
	if (h && *h)
		return xasprintf("%s/.config/hpmstat/top.conf", h);
	return NULL;
}

static int parse_bool(const char *v, bool *out)
{
	if (!strcasecmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true") ||
	    !strcasecmp(v, "on")) {
		*out = true;
		return 0;
	}
	if (!strcasecmp(v, "0") || !strcasecmp(v, "no") || !strcasecmp(v, "false") ||
	    !strcasecmp(v, "off")) {
		*out = false;
		return 0;
	}
	return -1;
}

static int parse_uint(const char *v, unsigned long long min, unsigned long long max,
                      unsigned long long *out)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 0);
	if (errno || end == v || *end || v[0] == '-' || n < min || n > max)
		return -1;
	*out = n;
	return 0;
}

int top_config_set(struct top_opts *o, const char *key, const char *value, char *err, size_t errlen)
{
	unsigned long long n;
	bool b;
	if (!strcmp(key, "delay")) {
		char *end;
		errno = 0;
		double d = strtod(value, &end);
		if (errno || end == value || *end || !(d >= TOP_MIN_DELAY && d <= TOP_MAX_DELAY)) {
			snprintf(err, errlen, "delay '%s': must be %.1f to %.0f seconds", value,
			         TOP_MIN_DELAY, TOP_MAX_DELAY);
			return -1;
		}
		o->delay = d;
	} else if (!strcmp(key, "level")) {
		if (parse_uint(value, 1, TOP_MAX_LEVEL, &n)) {
			snprintf(err, errlen, "level '%s': must be 1 to %d", value, TOP_MAX_LEVEL);
			return -1;
		}
		o->level = (unsigned)n;
	} else if (!strcmp(key, "processes")) {
		/* all (or 0): every process, as htop lists them */
		if (!strcasecmp(value, "all"))
			n = 0;
		else if (parse_uint(value, 0, 1000, &n)) {
			snprintf(err, errlen, "processes '%s': must be 1 to 1000, or all", value);
			return -1;
		}
		o->nprocs = (unsigned)n;
	} else if (!strcmp(key, "user")) {
		/* a name, or a uid (shown as its name when it has one), as htop's
		 * -u; the rows compare by the name */
		char buf[1024], name[32];
		struct passwd pw, *r = NULL;
		if (getpwnam_r(value, &pw, buf, sizeof(buf), &r) == 0 && r) {
			snprintf(name, sizeof(name), "%s", r->pw_name);
		} else if (!parse_uint(value, 0, UINT32_MAX - 1, &n)) {
			if (getpwuid_r((uid_t)n, &pw, buf, sizeof(buf), &r) == 0 && r)
				snprintf(name, sizeof(name), "%s", r->pw_name);
			else
				snprintf(name, sizeof(name), "%llu", n);
		} else {
			snprintf(err, errlen, "user '%s': no such user", value);
			return -1;
		}
		top_opts_set(&o->user, name);
	} else if (!strcmp(key, "events")) {
		top_opts_set(&o->events, value);
	} else if (!strcmp(key, "metrics")) {
		top_opts_set(&o->metrics, value);
	} else if (!strcmp(key, "sort")) {
		top_opts_set(&o->sort, value);
	} else if (!strcmp(key, "reverse") || !strcmp(key, "sticky") || !strcmp(key, "color") ||
	           !strcmp(key, "tree")) {
		if (parse_bool(value, &b)) {
			snprintf(err, errlen, "%s '%s': must be yes or no", key, value);
			return -1;
		}
		if (key[0] == 'r')
			o->reverse = b;
		else if (key[0] == 's')
			o->sticky = b;
		else if (key[0] == 't')
			o->tree = b;
		else
			o->color = b;
	} else if (!strcmp(key, "backend")) {
		if (hpm_backend_choice_parse(value, &o->backend) != 0) {
			snprintf(err, errlen, "backend '%s': must be auto, perf or emu", value);
			return -1;
		}
	} else if (!strcmp(key, "pmu")) {
		/* the name is checked against the registered models when the
		 * session is built, where the message can list them */
		top_opts_set(&o->pmu, value);
	} else if (!strcmp(key, "topdown-variant")) {
		/* checked against the model's variants when the session is built */
		top_opts_set(&o->topdown_variant, value);
	} else if (!strcmp(key, "emu-profile")) {
		top_opts_set(&o->profile_buf, value);
		o->emu.profile = o->profile_buf;
	} else if (!strcmp(key, "emu-harts")) {
		if (parse_uint(value, 1, HPM_EMU_MAX_HARTS, &n)) {
			snprintf(err, errlen, "emu-harts '%s': must be 1 to %u", value,
			         HPM_EMU_MAX_HARTS);
			return -1;
		}
		o->emu.harts = (unsigned)n;
	} else if (!strcmp(key, "emu-seed")) {
		if (parse_uint(value, 0, UINT64_MAX, &n)) {
			snprintf(err, errlen, "emu-seed '%s': not a number", value);
			return -1;
		}
		o->emu.seed = n;
	} else if (!strcmp(key, "emu-freq")) {
		if (parse_uint(value, 1000, HPM_EMU_MAX_FREQ, &n)) {
			snprintf(err, errlen, "emu-freq '%s': must be 1000 to %llu", value,
			         (unsigned long long)HPM_EMU_MAX_FREQ);
			return -1;
		}
		o->emu.freq = n;
	} else {
		snprintf(err, errlen, "unknown key '%s'", key);
		return TOP_CONFIG_EKEY;
	}
	return 0;
}

enum line_kind {
	LINE_NONE,    /* blank, or a comment */
	LINE_SETTING, /* key = value */
	LINE_OTHER,   /* neither: no '=' */
};

/* One line of the file as top_config_load reads it and top_config_write
 * keeps it: a comment is a line that starts with '#' (a value may hold one:
 * a path), a setting is "key = value", *key and *value trimmed in place. */
static enum line_kind split_line(char *line, char **key, char **value)
{
	char *s = lex_trim(line), *eq = strchr(s, '=');
	if (!*s || *s == '#')
		return LINE_NONE;
	if (!eq)
		return LINE_OTHER;
	*eq = '\0';
	*key = lex_trim(s);
	*value = lex_trim(eq + 1);
	return LINE_SETTING;
}

/* One "FILE:LINE: [column N: ]message" line more in warn, whole or not at
 * all: a line cut at warnlen would name a file or a line that is not the
 * one. Once one does not fit (*full), the later ones are left out too, so
 * the lines shown are the first ones, in order. */
static void add_warn(char *warn, size_t warnlen, bool *full, const struct hpm_diag *d)
{
	char line[sizeof(d->msg) + 64 + PATH_MAX];
	if (!warnlen)
		return;
	size_t off = strlen(warn);
	const char *sep = off ? "\n" : "";
	hpm_diag_format(d, line, sizeof(line));
	int n = snprintf(NULL, 0, "%s%s", sep, line);
	if (*full || n < 0 || off + (size_t)n >= warnlen) {
		*full = true;
		return;
	}
	snprintf(warn + off, warnlen - off, "%s%s", sep, line);
}

int top_config_load(struct top_opts *o, const char *path, bool required, char *warn, size_t warnlen,
                    char *err, size_t errlen)
{
	struct stat st;
	if (warnlen)
		warn[0] = '\0';
	/* O_NONBLOCK: a FIFO's open would wait for a writer that may never
	 * come; it is refused below, and the descriptor blocks again for the
	 * reads of anything else (a terminal, /dev/zero) */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && !required)
		return 0;
	int why = fd < 0 || fstat(fd, &st) != 0                  ? errno
	          : S_ISDIR(st.st_mode)                          ? EISDIR
	          : S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) ? -1
	                                                         : 0;
	FILE *f = NULL;
	if (!why &&
	    (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 || !(f = fdopen(fd, "r"))))
		why = errno;
	if (why) {
		/* a directory opens; reading it would fail silently */
		if (why < 0)
			snprintf(err, errlen, "cannot read '%s': a %s, not a file", path,
			         S_ISFIFO(st.st_mode) ? "FIFO" : "socket");
		else
			snprintf(err, errlen, "cannot read '%s': %s", path, strerror(why));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* bounded in lines and in bytes, so /dev/zero or a FIFO that never
	 * ends is an error and not a leak or a hang */
	char *line = NULL;
	size_t cap = 0, total = 0;
	unsigned ln = 0;
	ssize_t n;
	int rc = 0;
	bool warn_full = false;
	struct hpm_diag d = {.file = path};
	while ((n = util_read_line(f, &line, &cap, TOP_CONFIG_MAX_LINE)) != UTIL_LINE_EOF) {
		ln++;
		if (n == UTIL_LINE_ERROR) {
			snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
			rc = -1;
			break;
		}
		if (n == UTIL_LINE_TOO_LONG) {
			snprintf(err, errlen, "%s:%u: line longer than %u bytes", path, ln,
			         TOP_CONFIG_MAX_LINE);
			rc = -1;
			break;
		}
		total += (size_t)n + 1;
		if (total > TOP_CONFIG_MAX_BYTES) {
			snprintf(err, errlen, "%s:%u: larger than %u bytes", path, ln,
			         TOP_CONFIG_MAX_BYTES);
			rc = -1;
			break;
		}
		size_t nul = strlen(line);
		if (nul != (size_t)n) {
			hpm_diag_set(&d, ln, (unsigned)nul + 1, "NUL byte in the line");
			add_warn(warn, warnlen, &warn_full, &d);
			continue;
		}
		char *key, *val;
		enum line_kind kind = split_line(line, &key, &val);
		if (kind == LINE_OTHER) {
			hpm_diag_set(&d, ln, 0, "expected 'key = value'");
			add_warn(warn, warnlen, &warn_full, &d);
			continue;
		}
		if (kind == LINE_NONE)
			continue;
		char msg[256];
		int rc_set = top_config_set(o, key, val, msg, sizeof(msg));
		if (rc_set) {
			/* a bad value at its column; an unknown key is the line's */
			unsigned column =
			    rc_set == TOP_CONFIG_EKEY ? 0 : (unsigned)(val - line) + 1;
			hpm_diag_set(&d, ln, column, "%s", msg);
			add_warn(warn, warnlen, &warn_full, &d);
		} else if (!strcmp(key, "events")) {
			/* checked only once a session resolves them: keep where */
			free(o->events_origin);
			o->events_origin = xasprintf("%s:%u", path, ln);
		}
	}
	free(line);
	fclose(f);
	return rc;
}

/* mkdir -p of the file's directory */
static int make_dirs(const char *path)
{
	char *d = xstrdup(path);
	for (char *p = d + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(d, 0755) != 0 && errno != EEXIST) {
			free(d);
			return -1;
		}
		*p = '/';
	}
	free(d);
	return 0;
}

/* The file W rewrites is read whole, up to this: a settings file is a
 * few hundred bytes, and the 1 MiB bound is the one profiles have. */
#define CONFIG_REWRITE_MAX (1 << 20)

/* The settings W saves, in the order a new file lists them; value NULL:
 * none (no line). */
struct saved_key {
	const char *key;
	char *value;
	bool written;
};

/* Which of keys[] a line sets, as top_config_load reads it; nkeys for a
 * comment, a blank, another key or a line that is no setting: those are
 * kept as they are. */
static size_t line_key(const char *line, const struct saved_key *keys, size_t nkeys)
{
	char *copy = xstrdup(line), *key, *value;
	size_t k = nkeys;
	if (split_line(copy, &key, &value) == LINE_SETTING)
		for (k = 0; k < nkeys && strcmp(keys[k].key, key) != 0; k++)
			;
	free(copy);
	return k;
}

/* The file as it is (NULL + 0 when there is none); -errno when it exists
 * but cannot be read whole. */
static int read_old(const char *path, char **text, size_t *len)
{
	*text = NULL;
	*len = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	char *buf = xmalloc(CONFIG_REWRITE_MAX + 1);
	size_t n = fread(buf, 1, CONFIG_REWRITE_MAX + 1, f);
	int e = ferror(f) ? (errno ? errno : EIO) : n > CONFIG_REWRITE_MAX ? EFBIG : 0;
	fclose(f);
	if (e) {
		free(buf);
		return -e;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

/* One line of the file W writes, with its newline. The reader refuses a
 * file with a line or a size past its bounds as a whole, so W never writes
 * one: "key=VALUE" rewritten as "key = VALUE" grows two bytes, and a line
 * at TOP_CONFIG_MAX_LINE or a file at TOP_CONFIG_MAX_BYTES would no longer
 * load. -EFBIG then, and the old file stays. *total: bytes so far, counted
 * as top_config_load counts them. */
static int put_line(FILE *f, const char *line, size_t n, size_t *total)
{
	*total += n + 1;
	if (n > TOP_CONFIG_MAX_LINE || *total > TOP_CONFIG_MAX_BYTES)
		return -EFBIG;
	fwrite(line, 1, n, f);
	putc('\n', f);
	return 0;
}

/* "key = value" through put_line */
static int put_setting(FILE *f, const struct saved_key *k, size_t *total)
{
	char *line = xasprintf("%s = %s", k->key, k->value);
	int ret = put_line(f, line, strlen(line), total);
	free(line);
	return ret;
}

int top_config_write(const struct top_opts *o, const char *path)
{
	static const char *const be[] = {"auto", "perf", "emu"};
	struct saved_key keys[] = {
	    {"delay", xasprintf("%g", o->delay), false},
	    {"level", xasprintf("%u", o->level), false},
	    {"processes", o->nprocs ? xasprintf("%u", o->nprocs) : xstrdup("all"), false},
	    {"backend", xstrdup(be[o->backend]), false},
	    {"pmu", o->pmu ? xstrdup(o->pmu) : NULL, false},
	    {"topdown-variant", o->topdown_variant ? xstrdup(o->topdown_variant) : NULL, false},
	    {"events", o->events ? xstrdup(o->events) : NULL, false},
	    {"metrics", o->metrics ? xstrdup(o->metrics) : NULL, false},
	    {"sort", o->sort ? xstrdup(o->sort) : NULL, false},
	    {"reverse", xstrdup(o->reverse ? "yes" : "no"), false},
	    {"sticky", xstrdup(o->sticky ? "yes" : "no"), false},
	    {"tree", xstrdup(o->tree ? "yes" : "no"), false},
	    {"emu-profile", o->emu.profile ? xstrdup(o->emu.profile) : NULL, false},
	    {"emu-harts", xasprintf("%u", o->emu.harts), false},
	};
	const size_t nkeys = sizeof(keys) / sizeof(keys[0]);
	char *old = NULL, *line = NULL;
	size_t old_len = 0;
	struct outfile *of = NULL;
	int ret = read_old(path, &old, &old_len);
	if (!ret && make_dirs(path))
		ret = -errno;
	if (!ret)
		ret = outfile_open(path, &of);
	if (ret)
		goto out;
	FILE *f = outfile_stream(of);
	size_t total = 0;
	if (!old) {
		static const char head[] =
		    "# hpmstat top settings (hpmstat-top(1)); written by 'W'";
		ret = put_line(f, head, sizeof(head) - 1, &total);
	}
	/* every line the file had, in its place: comments, keys W does not
	 * save (color, emu-seed, emu-freq, a newer hpmstat's), lines it could
	 * not read; only the values W saves change */
	for (char *p = old; !ret && p && p < old + old_len;) {
		char *nl = memchr(p, '\n', (size_t)(old + old_len - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(old + old_len - p);
		line = xrealloc(line, n + 1);
		memcpy(line, p, n);
		line[n] = '\0';
		p += n + (nl != NULL);
		size_t k = line_key(line, keys, nkeys);
		if (k == nkeys) {
			ret = put_line(f, line, n, &total);
		} else if (keys[k].value) {
			/* each occurrence, so the last one, which wins, is the new value */
			ret = put_setting(f, &keys[k], &total);
			keys[k].written = true;
		}
		/* a setting cleared since (events, sort...): its line goes */
	}
	for (size_t k = 0; !ret && k < nkeys; k++)
		if (keys[k].value && !keys[k].written)
			ret = put_setting(f, &keys[k], &total);
	ret = outfile_finish(of, ret);
out:
	for (size_t k = 0; k < nkeys; k++)
		free(keys[k].value);
	free(line);
	free(old);
	return ret;
}
