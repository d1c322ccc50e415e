# src/perfdata: perf.data's format (perf-file.h: the on-disk layout), its
# reader (reader.c, hpmstat report --samples) and writer (hpmstat record).
# Uses only src/util.
noinst_LIBRARIES += src/perfdata/libperfdata.a
src_perfdata_libperfdata_a_SOURCES = src/perfdata/perf-file.h
# the reader (hpmstat report --samples)
src_perfdata_libperfdata_a_SOURCES += src/perfdata/reader.c src/perfdata/reader.h
