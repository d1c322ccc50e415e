/* httpd.h: the HTTP side of `hpmstat serve`, over libmicrohttpd.
 *
 * Owns: the listening socket (ADDR:PORT parsing, bind), the request rules
 * (GET and HEAD of /metrics and / only: other paths 404, other methods 405
 * with Allow, a request body 413; the Accept header picks OpenMetrics or
 * the Prometheus text format), the bounds (connections, request memory, per-connection
 * idle timeout and request deadline), and the last published exposition: the counting side
 * publishes each new one whole, and every request copies the current one
 * out under a mutex, so a slow client never holds up the counting and
 * never sees half of an update. libmicrohttpd's own thread serves; the
 * caller's threads never block on a client. Never prints, never exits.
 * Built only with libmicrohttpd (HAVE_LIBMICROHTTPD).
 */
#ifndef HPM_EXPORT_HTTPD_H
#define HPM_EXPORT_HTTPD_H

#include <stddef.h>
#include <stdint.h>

/* The default listen address: loopback only, on a port of its own beside
 * node_exporter's 9100 (9465 is not in Prometheus's list of allocated
 * exporter ports). */
#define HPM_HTTPD_DEFAULT_LISTEN "127.0.0.1:9465"

struct hpm_httpd_config {
	const char *listen;    /* ADDR:PORT, [ADDR6]:PORT, or :PORT (loopback) */
	unsigned max_conns;    /* connections at once; more wait in the backlog */
	size_t request_memory; /* bytes a request line and headers may take */
	unsigned timeout_s;    /* a connection is closed after this long idle, or
	                        * this long since it opened or its last answer
	                        * was sent without a whole request and answer
	                        * (a slowloris trickling headers, a client that
	                        * never reads) */
	const char *index;     /* the text of "/" (text/html) */
};

struct hpm_httpd;

/* Binds and starts serving (503 until the first publish). 0 and *out, or
 * -1 with err ("cannot listen on 127.0.0.1:9465: Address already in use"). */
int hpm_httpd_start(const struct hpm_httpd_config *cfg, struct hpm_httpd **out, char *err,
                    size_t errlen);
/* The exposition to serve from now on, in both formats; takes the strings
 * (malloc'd) and frees the previous ones. */
void hpm_httpd_publish(struct hpm_httpd *h, char *openmetrics, size_t om_len, char *prometheus,
                       size_t prom_len);
/* Stops serving, closes every connection and frees h (NULL: nothing). */
void hpm_httpd_stop(struct hpm_httpd *h);

#endif
