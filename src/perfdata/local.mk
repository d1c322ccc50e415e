# src/perfdata: perf.data's format (perf-file.h: the on-disk layout), its
# writer (hpmstat record) and its reader (hpmstat report --samples).
# Uses only src/util.
noinst_LIBRARIES += src/perfdata/libperfdata.a
src_perfdata_libperfdata_a_SOURCES = src/perfdata/perf-file.h
# writer (hpmstat record)
src_perfdata_libperfdata_a_SOURCES += src/perfdata/writer.c src/perfdata/writer.h
# the reader (hpmstat report --samples)
src_perfdata_libperfdata_a_SOURCES += src/perfdata/reader.c src/perfdata/reader.h
# perf report's order of the records (its ordered-events)
src_perfdata_libperfdata_a_SOURCES += src/perfdata/ordered.c src/perfdata/ordered.h
