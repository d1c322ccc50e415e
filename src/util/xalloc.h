/* xalloc.h: allocation that fails loudly.
 *
 * Owns: the one policy for running out of memory: print one line and abort.
 * It is the only place outside the CLI that may end the process, because no
 * caller can do anything useful without the memory it asked for.
 */
#ifndef HPM_UTIL_XALLOC_H
#define HPM_UTIL_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* realloc to nmemb * size, failing loudly on overflow as well as on ENOMEM */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
/* Room for one more element in an array of n (of size bytes each) that
 * only ever grows by appending: reallocated when n is 0 or a power of two,
 * to twice n, so n appends copy O(n) bytes in all, never O(n^2) (an
 * allocator that cannot grow in place, as ASan's, copies at each realloc). */
void *xgrow(void *ptr, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
