# src/export: hpmstat's counts for Prometheus: the one renderer of the
# OpenMetrics and Prometheus text formats (openmetrics.c, used by stat
# --openmetrics and serve) and serve's HTTP side over libmicrohttpd
# (httpd.c, built only with it). Above stat, below builtin.
noinst_LIBRARIES += src/export/libexport.a
src_export_libexport_a_SOURCES = src/export/openmetrics.c src/export/openmetrics.h
if HAVE_LIBMICROHTTPD
src_export_libexport_a_SOURCES += src/export/httpd.c src/export/httpd.h
endif
src_export_libexport_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(LIBMICROHTTPD_CFLAGS)
