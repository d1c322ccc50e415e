# src/sym: the symbolizer (sym.h): address maps, DSO cache, kallsyms and
# declared tables (sym.c); the ELF files through libelf (sym-elf.c, only
# with libelf: without it user addresses get their DSO and offset); C++
# names demangled as perf does (sym-demangle.c, by libstdc++'s
# __cxa_demangle when configure found it).
noinst_LIBRARIES += src/sym/libsym.a
src_sym_libsym_a_SOURCES = src/sym/sym.c src/sym/sym.h src/sym/sym-int.h src/sym/sym-demangle.c
src_sym_libsym_a_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
if HAVE_LIBELF
src_sym_libsym_a_SOURCES += src/sym/sym-elf.c
endif
EXTRA_DIST += src/sym/sym-elf.c
