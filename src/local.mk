# src: the hpmstat program: main() (hpmstat.c) over the subcommands (src/builtin).
bin_PROGRAMS += src/hpmstat
src_hpmstat_SOURCES = src/hpmstat.c
# each library only uses the ones after it (the layers, top down)
HPMSTAT_LIBS = src/builtin/libbuiltin.a src/export/libexport.a src/top/libtop.a src/report/libreport.a src/stat/libstat.a src/record/librecord.a src/backend/libbackend.a \
	src/core/libcore.a src/registry/libregistry.a src/metric/libmetric.a src/kmh/emu/libemu.a src/kmh/libkmh.a $(ARM64_EMU_LIBS) src/emukit/libhpmemukit.a src/arm64/libarm64.a src/perfdata/libperfdata.a src/sym/libsym.a src/bpf/libhpmbpf.a src/arch/libarch.a src/util/libutil.a \
	$(LIBDW_LIBS) $(LIBELF_LIBS) $(LIBBPF_LIBS) $(LIBPFM4_LIBS) $(NCURSES_LIBS) $(LIBMICROHTTPD_LIBS) $(HPM_SYSTEM_LIBS) -lpthread
src_hpmstat_LDADD = $(HPMSTAT_LIBS)

# hpmtop is hpmstat top, by the name it is started with
install-exec-hook:
	ln -sf hpmstat$(EXEEXT) $(DESTDIR)$(bindir)/hpmtop$(EXEEXT)
uninstall-hook:
	rm -f $(DESTDIR)$(bindir)/hpmtop$(EXEEXT)
