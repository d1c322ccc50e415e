# tests/man: every manual page renders without warnings (man --warnings,
# groff -ww) in the C locale.
TESTS += tests/man/pages.sh
EXTRA_DIST += tests/man/pages.sh
