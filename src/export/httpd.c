/* httpd.c: serving the last exposition over libmicrohttpd (httpd.h).
 *
 * libmicrohttpd runs one internal thread (epoll where it has it) that
 * accepts, parses and writes; the handler only takes the current
 * exposition's copy under the mutex and hands it to the response, which
 * frees it when sent. The socket is bound here rather than by
 * libmicrohttpd, so that a port in use is errno's one clear message and
 * the library never logs to stderr itself.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "export/httpd.h"
#include "export/openmetrics.h"
#include "util/clock.h"
#include "util/dlib.h"

/* One open connection, watched for the request deadline: libmicrohttpd's
 * timeout only closes a connection idle that long, so a client sending a
 * header byte every few seconds (slowloris) or reading the answer as
 * slowly would hold its connection for ever, and max_conns of them would
 * lock every scraper out. */
struct conn_watch {
	int fd;         /* the connection's socket; -1: a free slot */
	bool cut;       /* shut down already */
	uint64_t since; /* opened, or its last answer sent (hpm_clock_ns) */
};

struct hpm_httpd {
	struct MHD_Daemon *d;
	char *index;
	pthread_mutex_t lock; /* guards the fields below */
	char *om, *prom;      /* the last exposition, NULL before the first */
	size_t om_len, prom_len;
	/* the deadline's watchdog thread and what it watches, under conns_lock:
	 * libmicrohttpd closes a socket only after its CLOSED notification
	 * (conn_notify), so every fd in conns is still the connection's */
	pthread_mutex_t conns_lock;
	pthread_cond_t wake;
	pthread_t watchdog;
	bool watching, stopping;
	unsigned timeout_s, nr_conns;
	struct conn_watch *conns;
};

/* ADDR:PORT into a bound, listening socket: -1 with err. */
static int listen_on(const char *spec, char *err, size_t errlen)
{
	char host[256];
	const char *colon = strrchr(spec, ':');
	if (!colon || !colon[1]) {
		snprintf(err, errlen, "--listen '%s': expected ADDR:PORT, e.g. %s", spec,
		         HPM_HTTPD_DEFAULT_LISTEN);
		return -1;
	}
	size_t hl = (size_t)(colon - spec);
	if (spec[0] == '[' && (hl < 2 || spec[hl - 1] != ']')) {
		/* "[::1" or "[::1]": the last ':' falls inside the brackets */
		snprintf(err, errlen, "--listen '%s': expected [ADDR6]:PORT, e.g. [::1]:9465",
		         spec);
		return -1;
	}
	if (spec[0] == '[') /* [::1]:9465 */
		spec++, hl -= 2;
	if (hl >= sizeof(host)) {
		snprintf(err, errlen, "--listen: the address is too long");
		return -1;
	}
	memcpy(host, spec, hl);
	host[hl] = '\0';
	const char *port = colon + 1;
	char *end;
	errno = 0;
	long p = strtol(port, &end, 10);
	/* digits only: strtol would also take blanks and a sign before them */
	if (!isdigit((unsigned char)port[0]) || *end || errno || p < 1 || p > 65535) {
		snprintf(err, errlen, "--listen: '%s' is not a port (1-65535)", port);
		return -1;
	}
	struct addrinfo hints = {.ai_family = AF_UNSPEC,
	                         .ai_socktype = SOCK_STREAM,
	                         .ai_flags = AI_PASSIVE | AI_NUMERICSERV},
	                *ai = NULL;
	int g = getaddrinfo(host[0] ? host : "127.0.0.1", port, &hints, &ai);
	if (g) {
		snprintf(err, errlen, "--listen '%s': %s", host, gai_strerror(g));
		return -1;
	}
	int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int one = 1;
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 128)) {
		int e = errno;
		snprintf(err, errlen, "cannot listen on %s%s%s:%s: %s",
		         ai->ai_family == AF_INET6 ? "[" : "", host[0] ? host : "127.0.0.1",
		         ai->ai_family == AF_INET6 ? "]" : "", port, strerror(e));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return -1;
	}
	freeaddrinfo(ai);
	return fd;
}

/* A response of a copy of text (freed by libmicrohttpd once sent). */
static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type,
                             char *body, size_t len, bool allow)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	enum MHD_Result ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned status, const char *text,
                                  bool allow)
{
	char *body = strdup(text);
	if (!body)
		return MHD_NO;
	return reply(c, status, "text/plain; charset=utf-8", body, strlen(body), allow);
}

/* OpenMetrics when the client asks for it (Prometheus does, first), else
 * the Prometheus text format every scraper reads. */
static bool wants_openmetrics(struct MHD_Connection *c)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept");
	return accept && strstr(accept, "application/openmetrics-text");
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **req)
{
	static int seen; /* *req's mark: the headers were handled */
	struct hpm_httpd *h = cls;
	(void)version;
	(void)upload_data;
	bool metrics = strcmp(url, "/metrics") == 0, index = strcmp(url, "/") == 0;
	bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
	if (!*req) {
		/* a refusal goes at once, before any body, which libmicrohttpd
		 * then drops with the connection */
		if (!metrics && !index)
			return reply_text(c, MHD_HTTP_NOT_FOUND,
			                  "404 not found: hpmstat serves /metrics\n", false);
		if (!get)
			return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
			                  "405 method not allowed: GET or HEAD only\n", true);
		/* nor any body, whose length would be the client's to choose */
		const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
		if ((cl && strspn(cl, "0") != strlen(cl)) ||
		    MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Transfer-Encoding"))
			return reply_text(c, MHD_HTTP_CONTENT_TOO_LARGE,
			                  "413: a GET takes no request body\n", false);
		/* a GET is answered at the next call: answered before it looked
		 * for a body, libmicrohttpd would close the connection instead of
		 * keeping it for the next scrape */
		*req = &seen;
		return MHD_YES;
	}
	*upload_data_size = 0;
	if (index) {
		char *body = strdup(h->index);
		if (!body)
			return MHD_NO;
		return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", body, strlen(body), false);
	}
	bool om = wants_openmetrics(c);
	pthread_mutex_lock(&h->lock);
	const char *text = om ? h->om : h->prom;
	size_t len = om ? h->om_len : h->prom_len;
	char *copy = text ? malloc(len ? len : 1) : NULL;
	if (copy)
		memcpy(copy, text, len);
	pthread_mutex_unlock(&h->lock);
	if (!text)
		return reply_text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
		                  "503: counting has not started yet\n", false);
	if (!copy)
		return MHD_NO;
	return reply(c, MHD_HTTP_OK, om ? HPM_EXPO_OPENMETRICS_TYPE : HPM_EXPO_PROMETHEUS_TYPE,
	             copy, len, false);
}

/* libmicrohttpd's connection notices: a new connection takes a free slot
 * (none free: it goes unwatched, though max_conns slots are as many as
 * libmicrohttpd keeps open), a closed one frees its slot. */
static void conn_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                        enum MHD_ConnectionNotificationCode what)
{
	struct hpm_httpd *h = cls;
	pthread_mutex_lock(&h->conns_lock);
	if (what == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci =
		    MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		*socket_context = NULL;
		for (unsigned i = 0; ci && i < h->nr_conns; i++)
			if (h->conns[i].fd < 0) {
				h->conns[i] = (struct conn_watch){.fd = ci->connect_fd,
				                                  .since = hpm_clock_ns()};
				*socket_context = &h->conns[i];
				break;
			}
	} else if (*socket_context) {
		((struct conn_watch *)*socket_context)->fd = -1;
		*socket_context = NULL;
	}
	pthread_mutex_unlock(&h->conns_lock);
}

/* An answer sent (or a request ended): the connection's next request has
 * the whole timeout again, as a Prometheus server's kept-alive one. */
static void request_done(void *cls, struct MHD_Connection *c, void **req,
                         enum MHD_RequestTerminationCode why)
{
	struct hpm_httpd *h = cls;
	(void)req, (void)why;
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	pthread_mutex_lock(&h->conns_lock);
	if (ci && ci->socket_context)
		((struct conn_watch *)ci->socket_context)->since = hpm_clock_ns();
	pthread_mutex_unlock(&h->conns_lock);
}

/* Once a second, shuts down the socket of every connection past its
 * deadline: libmicrohttpd then reads the end of the stream and closes it
 * as any other (shutdown, not close, so that the fd stays its own). */
static void *watchdog(void *arg)
{
	struct hpm_httpd *h = arg;
	pthread_mutex_lock(&h->conns_lock);
	while (!h->stopping) {
		uint64_t now = hpm_clock_ns();
		for (unsigned i = 0; i < h->nr_conns; i++) {
			struct conn_watch *w = &h->conns[i];
			/* whole seconds of the clock, as the timeout is given */
			if (w->fd >= 0 && !w->cut && h->timeout_s &&
			    now / 1000000000u - w->since / 1000000000u >= h->timeout_s) {
				shutdown(w->fd, SHUT_RDWR);
				w->cut = true;
			}
		}
		struct timespec wake = {.tv_sec = (time_t)(now / 1000000000u) + 1,
		                        .tv_nsec = (long)(now % 1000000000u)};
		pthread_cond_timedwait(&h->wake, &h->conns_lock, &wake);
	}
	pthread_mutex_unlock(&h->conns_lock);
	return NULL;
}

/* The watchdog's state and thread (the caller has SIGINT and SIGTERM
 * blocked, which the thread inherits); -1 when out of resources. */
static int watch_start(struct hpm_httpd *h, const struct hpm_httpd_config *cfg)
{
	h->timeout_s = cfg->timeout_s;
	if (!(h->conns = malloc((cfg->max_conns ? cfg->max_conns : 1) * sizeof(*h->conns))))
		return -1;
	h->nr_conns = cfg->max_conns;
	for (unsigned i = 0; i < h->nr_conns; i++)
		h->conns[i].fd = -1;
	if (pthread_create(&h->watchdog, NULL, watchdog, h))
		return -1;
	h->watching = true;
	return 0;
}

/* Ends the watchdog (if it runs) and frees its slots. */
static void watch_stop(struct hpm_httpd *h)
{
	if (h->watching) {
		pthread_mutex_lock(&h->conns_lock);
		h->stopping = true;
		pthread_cond_signal(&h->wake);
		pthread_mutex_unlock(&h->conns_lock);
		pthread_join(h->watchdog, NULL);
		h->watching = false;
	}
	free(h->conns);
	h->conns = NULL;
}

/* Frees h once its server and watchdog are stopped. */
static void httpd_free(struct hpm_httpd *h)
{
	pthread_mutex_destroy(&h->lock);
	pthread_mutex_destroy(&h->conns_lock);
	pthread_cond_destroy(&h->wake);
	free(h->om);
	free(h->prom);
	free(h->index);
	free(h);
}

int hpm_httpd_start(const struct hpm_httpd_config *cfg, struct hpm_httpd **out, char *err,
                    size_t errlen)
{
	/* libmicrohttpd (and GnuTLS behind it) is opened by serve only */
	if (hpm_dl_mhd_load(err, errlen))
		return -1;
	int fd = listen_on(cfg->listen, err, errlen);
	if (fd < 0)
		return -1;
	struct hpm_httpd *h = calloc(1, sizeof(*h));
	if (!h || !(h->index = strdup(cfg->index ? cfg->index : ""))) {
		free(h);
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	pthread_mutex_init(&h->lock, NULL);
	pthread_mutex_init(&h->conns_lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->wake, &ca);
	pthread_condattr_destroy(&ca);
	/* the server's and the watchdog's threads take no SIGINT or SIGTERM:
	 * they go to the counting thread, whose waits they end */
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	if (watch_start(h, cfg) == 0)
		h->d = MHD_start_daemon(
		    MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO, 0, NULL, NULL, handle, h,
		    MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_CONNECTION_LIMIT, cfg->max_conns,
		    MHD_OPTION_CONNECTION_MEMORY_LIMIT, cfg->request_memory,
		    MHD_OPTION_CONNECTION_TIMEOUT, cfg->timeout_s, MHD_OPTION_NOTIFY_CONNECTION,
		    conn_notify, h, MHD_OPTION_NOTIFY_COMPLETED, request_done, h, MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->d) {
		snprintf(err, errlen, "cannot start the HTTP server on %s", cfg->listen);
		close(fd);
		watch_stop(h);
		httpd_free(h);
		return -1;
	}
	*out = h;
	return 0;
}

void hpm_httpd_publish(struct hpm_httpd *h, char *openmetrics, size_t om_len, char *prometheus,
                       size_t prom_len)
{
	pthread_mutex_lock(&h->lock);
	char *old_om = h->om, *old_prom = h->prom;
	h->om = openmetrics;
	h->om_len = om_len;
	h->prom = prometheus;
	h->prom_len = prom_len;
	pthread_mutex_unlock(&h->lock);
	free(old_om);
	free(old_prom);
}

void hpm_httpd_stop(struct hpm_httpd *h)
{
	if (!h)
		return;
	/* the server first: its connections' CLOSED notices still find their
	 * slots */
	MHD_stop_daemon(h->d);
	watch_stop(h);
	httpd_free(h);
}
