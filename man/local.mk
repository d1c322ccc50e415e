# man: the manual pages.
dist_man_MANS += man/hpmstat.1 man/hpmstat-list.1 man/hpmstat-events.7 man/hpmstat-emu.1 man/hpmstat-stat.1 \
	man/hpmstat-run.5 man/hpmstat-report.1 \
	man/hpmstat-top.1 man/hpmtop.1
