/* fuzz-text.h: what the fuzz targets of text parsers share: the input as a
 * NUL-terminated string, and the one shape a refusal must have (one line
 * starting "FILE:", the file name the parser was given). Header-only: each
 * target is one translation unit.
 */
#ifndef HPM_TESTS_FUZZ_TEXT_H
#define HPM_TESTS_FUZZ_TEXT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* data as a string the caller frees (aborts when out of memory). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	return text;
}

/* Aborts unless err is one line that starts with "FILE:". */
static inline void fuzz_check_refusal(const char *file, const char *err)
{
	size_t n = strlen(file);
	if (strncmp(err, file, n) != 0 || err[n] != ':' || strchr(err, '\n'))
		abort();
}

#endif
