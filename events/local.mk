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
# kunminghu-v3 (XiangShan afe3818), written by kunminghu-v3-json.py from
# tests/data/kunminghu-v3-afe3818-events.tsv and the v2 files' descriptions
KMH_V3_EVENT_JSON = \
	events/riscv/openxiangshan/kunminghu-v3/frontend.json \
	events/riscv/openxiangshan/kunminghu-v3/backend.json \
	events/riscv/openxiangshan/kunminghu-v3/memblock.json \
	events/riscv/openxiangshan/kunminghu-v3/cache.json
KMH_V3_METRIC_JSON = events/riscv/openxiangshan/kunminghu-v3/metrics.json
nobase_dist_pkgdata_DATA += $(KMH_V3_EVENT_JSON) $(KMH_V3_METRIC_JSON)
EXTRA_DIST += events/riscv/kunminghu-v3-json.py
# Arm PMUv3 (tools/perf/pmu-events/arch/arm64/ layout): the architectural,
# common micro-architectural and recommended events in the shared files that
# the core files name with ArchStdEvent, one directory per core with its
# Topdown and stage-2 metrics. Data only: nothing is generated from them yet.
ARM64_JSON = \
	events/arm64/common-and-microarch.json \
	events/arm64/recommended.json \
	events/arm64/arm/neoverse-n1/branch.json \
	events/arm64/arm/neoverse-n1/bus.json \
	events/arm64/arm/neoverse-n1/cache.json \
	events/arm64/arm/neoverse-n1/exception.json \
	events/arm64/arm/neoverse-n1/instruction.json \
	events/arm64/arm/neoverse-n1/memory.json \
	events/arm64/arm/neoverse-n1/metrics.json \
	events/arm64/arm/neoverse-n1/pipeline.json \
	events/arm64/arm/neoverse-n1/spe.json \
	events/arm64/arm/neoverse-n2/branch.json \
	events/arm64/arm/neoverse-n2/bus.json \
	events/arm64/arm/neoverse-n2/cache.json \
	events/arm64/arm/neoverse-n2/exception.json \
	events/arm64/arm/neoverse-n2/instruction.json \
	events/arm64/arm/neoverse-n2/memory.json \
	events/arm64/arm/neoverse-n2/metrics.json \
	events/arm64/arm/neoverse-n2/pipeline.json \
	events/arm64/arm/neoverse-n2/spe.json \
	events/arm64/arm/neoverse-n2/trace.json \
	events/arm64/arm/neoverse-v1/branch.json \
	events/arm64/arm/neoverse-v1/bus.json \
	events/arm64/arm/neoverse-v1/cache.json \
	events/arm64/arm/neoverse-v1/exception.json \
	events/arm64/arm/neoverse-v1/instruction.json \
	events/arm64/arm/neoverse-v1/memory.json \
	events/arm64/arm/neoverse-v1/metrics.json \
	events/arm64/arm/neoverse-v1/pipeline.json \
	events/arm64/arm/neoverse-v1/spe.json \
	events/arm64/arm/neoverse-v2/branch.json \
	events/arm64/arm/neoverse-v2/bus.json \
	events/arm64/arm/neoverse-v2/cache.json \
	events/arm64/arm/neoverse-v2/exception.json \
	events/arm64/arm/neoverse-v2/instruction.json \
	events/arm64/arm/neoverse-v2/memory.json \
	events/arm64/arm/neoverse-v2/metrics.json \
	events/arm64/arm/neoverse-v2/pipeline.json \
	events/arm64/arm/neoverse-v2/spe.json \
	events/arm64/arm/neoverse-v2/trace.json
nobase_dist_pkgdata_DATA += events/arm64/mapfile.csv $(ARM64_JSON)
EXTRA_DIST += events/arm64/README.md
