/* jsoncheck.c: a JSON reader for the shell tests, so they check output with
 * a real parser instead of grep.
 *
 *   jsoncheck [--lines] [PATH...] < input
 * Parses stdin as one document (or, with --lines, one document per line) and
 * exits 1 with the parser's message if it is not valid JSON. Each PATH
 * (dot-separated keys and array indices, e.g. ".0.name", "." for the root;
 * "#" as the last part prints an array's length) is printed, one per line,
 * for the last document read: strings bare, other values as compact JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static json_t *walk(json_t *v, const char *path, int *count)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", path);
	*count = 0;
	for (char *tok = strtok(buf, "."); tok && v; tok = strtok(NULL, ".")) {
		if (strcmp(tok, "#") == 0) {
			*count = 1;
			return v;
		}
		if (json_is_array(v))
			v = json_array_get(v, (size_t)strtoul(tok, NULL, 10));
		else
			v = json_object_get(v, tok);
	}
	return v;
}

static void print(json_t *v, int count)
{
	if (!v) {
		puts("(missing)");
	} else if (count) {
		printf("%zu\n", json_is_array(v) ? json_array_size(v) : json_object_size(v));
	} else if (json_is_string(v)) {
		puts(json_string_value(v));
	} else {
		char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		puts(s ? s : "(unprintable)");
		free(s);
	}
}

int main(int argc, char **argv)
{
	int first = 1, lines = 0;
	json_t *doc = NULL;
	json_error_t err;
	if (argc > 1 && strcmp(argv[1], "--lines") == 0) {
		lines = 1;
		first = 2;
	}
	if (lines) {
		char *line = NULL;
		size_t cap = 0;
		ssize_t n;
		unsigned ln = 0;
		while ((n = getline(&line, &cap, stdin)) > 0) {
			ln++;
			json_decref(doc);
			doc = json_loads(line, 0, &err);
			if (!doc) {
				fprintf(stderr, "jsoncheck: line %u: %s\n", ln, err.text);
				return 1;
			}
		}
		free(line);
		if (!ln) {
			fprintf(stderr, "jsoncheck: no input\n");
			return 1;
		}
	} else {
		doc = json_loadf(stdin, 0, &err);
		if (!doc) {
			fprintf(stderr, "jsoncheck: line %d: %s\n", err.line, err.text);
			return 1;
		}
	}
	for (int i = first; i < argc; i++) {
		int count = 0;
		json_t *v = strcmp(argv[i], ".") == 0 ? doc : walk(doc, argv[i], &count);
		print(v, count);
	}
	json_decref(doc);
	return 0;
}
