/* gen-die.c: the build-time generators' fatal error; see gen-die.h. */
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
