# tests/events: the event and metric data under events/ as data: Linux 6.1's
# jevents.py accepts events/arm64 (skipped with the reason when Debian's
# linux-source-6.1 or python3 is missing), the event numbers against the
# Arm ARM, and each core's metrics.json through our metric generator.
EVENTS_TESTS = tests/events/arm64.sh tests/events/riscv.sh
TESTS += $(EVENTS_TESTS)
EXTRA_DIST += $(EVENTS_TESTS) tests/events/jevents.sh
$(EVENTS_TESTS:.sh=.log): src/gen/metrics2c$(EXEEXT) tests/jsoncheck$(EXEEXT)
