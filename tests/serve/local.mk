# tests/serve: hpmstat's Prometheus side: every exposition checked by
# promtool and an OpenMetrics parser, bad input, a real Prometheus server
# scraping hpmstat serve, the Grafana dashboard, slowloris clients cut at
# the request deadline, and (HPMSTAT_LONG_TESTS
# not "0") a 30 s load of 50 clients. The serve points skip without
# libmicrohttpd, the checks without Debian's prometheus or
# python3-prometheus-client.
SERVE_TESTS = tests/serve/serve-expo.sh tests/serve/serve-prometheus.sh \
	tests/serve/serve-load.sh tests/serve/grafana-json.sh tests/serve/serve-slowloris.sh
TESTS += $(SERVE_TESTS)
EXTRA_DIST += $(SERVE_TESTS) tests/serve/serve-lib.sh tests/serve/scrape.py \
	tests/serve/rawhttp.py tests/serve/omcheck.py tests/serve/promq.py tests/serve/slowloris.py \
	contrib/grafana/hpmstat-topdown.json contrib/grafana/README.md
