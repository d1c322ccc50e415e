# events: event tables as data, in Linux perf's pmu-events layout
# (tools/perf/pmu-events/arch/riscv/), installed for other tools to read.
# Bank order here is the order of enum kmh_bank.
KMH_EVENT_JSON = \
	events/riscv/openxiangshan/kunminghu/frontend.json \
	events/riscv/openxiangshan/kunminghu/backend.json \
	events/riscv/openxiangshan/kunminghu/memblock.json \
	events/riscv/openxiangshan/kunminghu/cache.json
KMH_METRIC_JSON = events/riscv/openxiangshan/kunminghu/metrics.json
nobase_dist_pkgdata_DATA += events/riscv/mapfile.csv $(KMH_EVENT_JSON) $(KMH_METRIC_JSON)
