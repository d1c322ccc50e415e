/* str.h: small string helpers. */
#ifndef HPM_UTIL_STR_H
#define HPM_UTIL_STR_H

#include <stddef.h>

/* Copy s into buf (always terminated), writing control and non-ASCII bytes
 * as \xNN, so text from the user can be quoted on one line of a message. */
char *str_escape(const char *s, char *buf, size_t len);
/* Replace control characters in place with '?'. */
void str_sanitize(char *s);

#endif
