# tests/cli
