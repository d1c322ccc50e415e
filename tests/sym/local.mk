# tests/sym: the symbolizer (src/sym). test-sym resolves this very process's
# functions through /proc/self/maps (names from the compiler's own
# addresses), its vDSO (found by reading the image with <elf.h>, not
# libelf), and checks the maps' bookkeeping (fork, exec, exit, overlaps,
# tables); sym.sh drives sym-tool with binaries it builds (PIE, non-PIE,
# stripped, shared library, debuglink, build-id debug dir, rebuilt after
# recording, PLT, fake kallsyms; riscv64 and AArch64 binaries when a cross
# compiler or clang is there) against nm/readelf/objdump, and against
# perf script on a perf record of a program with a known hot function.
check_PROGRAMS += tests/sym/test-sym tests/sym/sym-tool
tests_sym_test_sym_SOURCES = tests/sym/test-sym.c
tests_sym_test_sym_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_sym_test_sym_LDADD = tests/libtap.a src/sym/libsym.a src/util/libutil.a $(LIBELF_LIBS) $(CXXDEMANGLE_LIBS)
tests_sym_sym_tool_SOURCES = tests/sym/sym-tool.c
tests_sym_sym_tool_LDADD = src/sym/libsym.a src/util/libutil.a $(LIBELF_LIBS) $(CXXDEMANGLE_LIBS)
TESTS += tests/sym/test-sym tests/sym/sym.sh
EXTRA_DIST += tests/sym/sym.sh tests/sym/prog.c tests/sym/lib.c tests/sym/a64.c
