/* sym-tool: the symbolizer driven by lines on stdin, for the shell tests
 * (tests/sym/sym.sh), which check its answers against nm, readelf,
 * objdump and perf.
 *
 * Options: --kallsyms FILE (default "": none), --debug-dir DIR.
 * Lines (numbers in C syntax, build ids in hex):
 *   mmap PID START LEN PGOFF FILE [BUILDID]   a MMAP2 record
 *   kmmap START LEN FILE                      a kernel map
 *   buildid FILE HEX                          a recorded build id
 *   exec PID | fork PID PPID | exit PID
 *   resolve PID ADDR [k]    prints DSO \t NAME \t SYMOFF \t DSOOFF \t WHY
 *   fileid FILE             prints the file's build id or the error
 *   table DSO NAME START END
 *   demangle NAME           prints perf's name of the ELF symbol NAME (the
 *                           rest of the line), or NAME as it is
 *   demangle-v NAME         ... perf -v's, with the parameters
 * A bad line ends it with exit 2.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym/sym-int.h"
#include "sym/sym.h"

static int hex_bytes(const char *hex, uint8_t *out, size_t max, size_t *len)
{
	size_t n = strlen(hex), i;

	if (n % 2 || n / 2 > max)
		return -1;
	for (i = 0; i < n / 2; i++) {
		unsigned v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (uint8_t)v;
	}
	*len = n / 2;
	return 0;
}

static void print_loc(const struct hpm_sym_loc *l)
{
	printf("%s\t%s\t%#" PRIx64 "\t%#" PRIx64 "\t%s\n", l->dso, l->name ? l->name : "[unknown]",
	       l->sym_offset, l->dso_offset, l->why ? l->why : "-");
}

int main(int argc, char **argv)
{
	struct hpm_syms_opts o = {.kallsyms = "", .debug_dir = NULL};
	struct hpm_syms *s;
	char line[16384];
	int i, lineno = 0;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--kallsyms"))
			o.kallsyms = argv[i + 1];
		else if (!strcmp(argv[i], "--debug-dir"))
			o.debug_dir = argv[i + 1];
		else
			return fprintf(stderr, "sym-tool: unknown option %s\n", argv[i]), 2;
	}
	if (hpm_syms_new(&o, &s))
		return 2;
	while (fgets(line, sizeof line, stdin)) {
		char cmd[32], a[1024], b[1024], c[1024], d[1024], e[1024], f[1024];
		int n, rc = 0;
		uint8_t id[64];
		size_t len = 0;
		struct hpm_sym_loc loc;

		lineno++;
		if (!strncmp(line, "demangle ", 9) || !strncmp(line, "demangle-v ", 11)) {
			bool v = line[8] == '-';
			char *name = line + (v ? 11 : 9), *dm;

			name[strcspn(name, "\n")] = '\0';
			dm = sym_demangle(name, v);
			printf("%s\n", dm ? dm : name);
			free(dm);
			continue;
		}
		n = sscanf(line, "%31s %1023s %1023s %1023s %1023s %1023s %1023s", cmd, a, b, c, d,
		           e, f);
		if (n < 1 || cmd[0] == '#')
			continue;
		if (!strcmp(cmd, "mmap") && n >= 6) {
			if (n == 7 && hex_bytes(f, id, sizeof id, &len))
				rc = -1;
			else
				rc = hpm_syms_mmap(s, atoi(a), strtoull(b, NULL, 0),
				                   strtoull(c, NULL, 0), strtoull(d, NULL, 0), e,
				                   len ? id : NULL, len, HPM_SYM_USER);
		} else if (!strcmp(cmd, "kmmap") && n == 4) {
			rc = hpm_syms_mmap(s, -1, strtoull(a, NULL, 0), strtoull(b, NULL, 0), 0, c,
			                   NULL, 0, HPM_SYM_KERNEL);
		} else if (!strcmp(cmd, "buildid") && n == 3) {
			rc = hex_bytes(b, id, sizeof id, &len)
			         ? -1
			         : hpm_syms_recorded_build_id(s, a, id, len);
		} else if (!strcmp(cmd, "exec") && n == 2) {
			rc = hpm_syms_exec(s, atoi(a));
		} else if (!strcmp(cmd, "fork") && n == 3) {
			rc = hpm_syms_fork(s, atoi(a), atoi(b));
		} else if (!strcmp(cmd, "exit") && n == 2) {
			hpm_syms_exit(s, atoi(a));
		} else if (!strcmp(cmd, "resolve") && n >= 3) {
			rc = hpm_syms_resolve(
			    s, atoi(a), strtoull(b, NULL, 0),
			    n >= 4 && !strcmp(c, "k") ? HPM_SYM_KERNEL : HPM_SYM_USER, &loc);
			if (!rc)
				print_loc(&loc);
		} else if (!strcmp(cmd, "fileid") && n == 2) {
			rc = hpm_sym_file_build_id(a, id, sizeof id, &len);
			if (rc) {
				printf("error: %s\n", hpm_syms_strerror(rc));
				rc = 0;
			} else {
				for (size_t k = 0; k < len; k++)
					printf("%02x", id[k]);
				printf("\n");
			}
		} else if (!strcmp(cmd, "table") && n == 5) {
			struct hpm_sym_decl decl = {b, strtoull(c, NULL, 0), strtoull(d, NULL, 0)};

			rc = hpm_syms_add_table(s, a, &decl, 1);
		} else {
			rc = -1;
		}
		if (rc) {
			fprintf(stderr, "sym-tool: line %d: %s", lineno,
			        rc == -1 ? "bad line\n" : hpm_syms_strerror(rc));
			hpm_syms_free(s);
			return 2;
		}
		fflush(stdout);
	}
	hpm_syms_free(s);
	return 0;
}
