# src/record: hpmstat record's sampling session on perf_event_open (beside
# src/stat: it uses core's event lists and the perf back end's attrs, and
# writes perf.data through src/perfdata).
noinst_LIBRARIES += src/record/librecord.a
src_record_librecord_a_SOURCES = src/record/record.c src/record/record.h \
	src/record/record-int.h src/record/record-maps.c src/record/record-synth.c
# hpmstat record --backend emu (the emulator's sampling into perf.data)
src_record_librecord_a_SOURCES += src/record/emu.c src/record/emu.h \
	src/record/emu-elf.c src/record/emu-elf.h
