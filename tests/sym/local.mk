# tests/sym: the symbolizer
