# src: the hpmstat program: main() (hpmstat.c) over the subcommands (src/builtin).
# each library only uses the ones after it (the layers, top down)
HPMSTAT_ARCHIVES = src/builtin/libbuiltin.a src/export/libexport.a src/top/libtop.a src/report/libreport.a src/stat/libstat.a src/record/librecord.a src/backend/libbackend.a \
	src/core/libcore.a src/registry/libregistry.a src/metric/libmetric.a src/kmh/emu/libemu.a src/kmh/libkmh.a $(ARM64_EMU_LIBS) src/emukit/libhpmemukit.a src/arm64/libarm64.a src/perfdata/libperfdata.a src/sym/libsym.a src/bpf/libhpmbpf.a src/arch/libarch.a
HPMSTAT_LIBS = $(HPMSTAT_ARCHIVES) src/util/libutil.a \
	$(LIBDW_LIBS) $(LIBELF_LIBS) $(CXXDEMANGLE_LIBS) $(LIBBPF_LIBS) $(LIBPFM4_LIBS) $(NCURSES_LIBS) $(LIBMICROHTTPD_LIBS) $(HPM_SYSTEM_LIBS) -lpthread
# (per-target flags are set in both conditions: one set in one condition
# only replaces AM_CPPFLAGS or AM_LDFLAGS in the other too, with nothing)
src_hpmstat_CPPFLAGS = $(AM_CPPFLAGS) -DHPM_PKGLIBEXECDIR='"$(pkglibexecdir)"'
if HPM_STATIC_FRONT
# The static front (configure.ac): hpmstat is the same libraries linked
# statically, the optional ones in it (HPM_FRONT_LIBS, placed before
# libutil.a so that its shims are never pulled in; again after it for
# what libutil.a itself calls), util/dlib-static.c saying they are there;
# hpmstat-full, the dynamically linked program, runs serve, report and
# top.
bin_PROGRAMS += src/hpmstat
src_hpmstat_SOURCES = src/hpmstat-front.c src/util/dlib-static.c
src_hpmstat_LDFLAGS = -static $(HPM_FRONT_LDFLAGS)
EXTRA_src_hpmstat_DEPENDENCIES = $(top_srcdir)/src/hpmstat-front.ld
CLEANFILES += src/hpmstat.map
src_hpmstat_LDADD = $(HPMSTAT_ARCHIVES) $(HPM_FRONT_LIBS) src/util/libutil.a $(HPM_FRONT_LIBS)
pkglibexec_PROGRAMS += src/hpmstat-full
src_hpmstat_full_SOURCES = src/hpmstat.c
src_hpmstat_full_LDADD = $(HPMSTAT_LIBS)
else
bin_PROGRAMS += src/hpmstat
src_hpmstat_SOURCES = src/hpmstat.c
src_hpmstat_LDFLAGS = $(AM_LDFLAGS)
src_hpmstat_LDADD = $(HPMSTAT_LIBS)
endif
EXTRA_DIST += src/hpmstat-front.c src/hpmstat-front.ld src/util/dlib-static.c

# hpmtop is hpmstat top, by the name it is started with
install-exec-hook:
	ln -sf hpmstat$(EXEEXT) $(DESTDIR)$(bindir)/hpmtop$(EXEEXT)
uninstall-hook:
	rm -f $(DESTDIR)$(bindir)/hpmtop$(EXEEXT)
