/* gen-die.c: the build-time generators' shared helpers; see gen-die.h. */
#include "gen/gen-die.h"

#include <stdio.h>
#include <stdlib.h>

void gen_vdie(const char *prog, const char *file, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s: ", prog, file ? file : "");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	exit(1);
}

static void __attribute__((noreturn, format(printf, 3, 4)))
gen_die(const char *prog, const char *file, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gen_vdie(prog, file, fmt, ap);
}

json_t *gen_load_array(const char *prog, const char *path, size_t flags, const char *what)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, flags, &jerr);
	if (!root)
		gen_die(prog, path, "line %d: %s", jerr.line, jerr.text);
	if (!json_is_array(root)) {
		json_decref(root); /* exit's leak check finds no pointer to it */
		gen_die(prog, path, "the top level must be an array of %s", what);
	}
	return root;
}

void gen_put_cstr(FILE *out, const char *s)
{
	if (!s) {
		fputs("NULL", out);
		return;
	}
	fputc('"', out);
	gen_put_chars(out, s);
	fputc('"', out);
}

/* One byte of a C string literal's inside. */
static void put_char(FILE *out, unsigned char c)
{
	if (c == '"' || c == '\\')
		fprintf(out, "\\%c", c);
	else if (c == '\n')
		fputs("\\n", out);
	else if (c < 0x20 || c >= 0x7f)
		fprintf(out, "\\%03o", c);
	else
		fputc(c, out);
}

void gen_put_chars(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		put_char(out, *p);
}

void gen_put_note_cstr(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		put_char(out, *p);
		/* "*\/" does not end the comment, "/\*" opens no other */
		if ((p[0] == '*' && p[1] == '/') || (p[0] == '/' && p[1] == '*'))
			fputc('\\', out);
	}
	fputc('"', out);
}

void gen_put_row_texts(FILE *out, const char *a, const char *b)
{
	fputs("\t{", out);
	gen_put_cstr(out, a);
	fputs(", ", out);
	gen_put_cstr(out, b);
}
