# tests/cli: the command line, driven as a user would, checked with a real JSON parser.
CLI_TESTS = tests/cli/main.sh tests/cli/pmu-kunminghu-v3.sh tests/cli/list.sh tests/cli/list-names.sh tests/cli/list-pager.sh tests/cli/encode.sh tests/cli/decode.sh tests/cli/rtl-events.sh tests/cli/devicetree.sh \
	tests/cli/outfiles.sh tests/cli/inputs.sh tests/cli/options.sh tests/cli/option-tables.sh tests/cli/docs.sh tests/cli/arm64.sh \
	tests/cli/readme.sh tests/cli/hostile.sh
TESTS += $(CLI_TESTS)
EXTRA_DIST += $(CLI_TESTS) tests/cli/readme-examples.py contrib/devicetree/kunminghu-pmu.dtsi contrib/devicetree/README.md
