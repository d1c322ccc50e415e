# man: the manual pages.
dist_man_MANS += man/hpmstat.1 man/hpmstat-list.1 man/hpmstat-events.7 man/hpmstat-emu.1 man/hpmstat-stat.1 \
	man/hpmstat-run.5 man/hpmstat-report.1 \
	man/hpmstat-top.1 man/hpmstat-record.1 man/hpmstat-serve.1

# hpmtop(1) is hpmstat-top(1) under its other name. It is a whole page made
# from that one source at build time, not a ".so" stub: `man -l man/hpmtop.1`
# cannot follow a stub outside an installed man tree, and a copy kept in git
# would drift from the page it copies.
man_MANS = man/hpmtop.1
CLEANFILES += man/hpmtop.1
man/hpmtop.1: $(srcdir)/man/hpmstat-top.1
	$(MKDIR_P) man
	sed -e '1s/^\.TH HPMSTAT\\-TOP /.TH HPMTOP /' $(srcdir)/man/hpmstat-top.1 >$@.tmp
	mv $@.tmp $@
