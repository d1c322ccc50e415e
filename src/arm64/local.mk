# src/arm64: the Arm PMUv3 register library: PMEVTYPER<n>_EL0 fields, their
# reserved combinations and counting rule (pmevtyper.c), the feature
# profiles of the cores, which the emulator implements (features.c), the event
# expression encoder and decoder (expr.c; event names come from the
# caller), and PMDEVID (pmdevid.c); over it the Arm cores as PMU models
# (model.c), with their event tables generated from events/arm64 by
# src/arm64/gen/jevents.c and one metric table per core from its
# metrics.json by the generic src/gen/metrics2c.c, and their perf_event_attr
# mapping for Linux's arm_pmuv3 driver (perf-attr.c). Depends on src/arch
# and src/util.
noinst_LIBRARIES += src/arm64/libarm64.a
src_arm64_libarm64_a_SOURCES = \
	src/arm64/arm64.h src/arm64/pmevtyper.h src/arm64/pmdevid.h src/arm64/events.h \
	src/arm64/features.h src/arm64/pmevtyper.c src/arm64/expr.c src/arm64/pmdevid.c \
	src/arm64/features.c \
	src/arm64/model.c src/arm64/model.h src/arm64/perf-attr.c src/arm64/perf-attr.h
src_arm64_libarm64_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
ARM64_GEN = src/arm64/events-gen.c src/arm64/metrics-neoverse-n1-gen.c \
	src/arm64/metrics-neoverse-n2-gen.c src/arm64/metrics-neoverse-n2-r0p0-gen.c \
	src/arm64/metrics-neoverse-v1-gen.c src/arm64/metrics-neoverse-v2-gen.c
nodist_src_arm64_libarm64_a_SOURCES = $(ARM64_GEN)
BUILT_SOURCES += $(ARM64_GEN)
CLEANFILES += $(ARM64_GEN) src/arm64/events-gen.c.tmp src/arm64/metrics-neoverse-n1-gen.c.tmp \
	src/arm64/metrics-neoverse-n2-gen.c.tmp src/arm64/metrics-neoverse-n2-r0p0-gen.c.tmp \
	src/arm64/metrics-neoverse-v1-gen.c.tmp \
	src/arm64/metrics-neoverse-v2-gen.c.tmp

src/arm64/events-gen.c: src/arm64/gen/arm64-jevents$(EXEEXT) events/arm64/mapfile.csv $(ARM64_JSON)
	$(AM_V_GEN)$(MKDIR_P) src/arm64 && \
	src/arm64/gen/arm64-jevents$(EXEEXT) $(top_srcdir)/events/arm64 > $@.tmp && mv $@.tmp $@

# One table per core, checked against that core's own event files (its
# ArchStdEvent rows name the standard events). No --retired: an Arm core's
# retired instructions are INST_RETIRED, which is also what perf's generic
# "instructions" counts there, so --topdown-retired=minstret has nothing to
# substitute. Revisions whose formulas differ (N2 r0p0-r0p2 and r0p3-) have
# entries of their own in the core's metrics.json ("Revisions"): one table
# for each (revs), named after the revision it starts at (rev).
ARM64_METRICS2C = $(MKDIR_P) src/arm64 && \
	dir=$(top_srcdir)/events/arm64/arm/$$core; ev=; \
	for f in $$dir/*.json; do case $$f in */metrics.json) ;; *) ev="$$ev --events $$f";; esac; done; \
	src/gen/metrics2c$(EXEEXT) --table arm64_metrics_`echo $$core$${rev:+-$$rev} | tr - _` $$ev \
		$${revs:+--revisions $$revs} $$dir/metrics.json > $@.tmp && mv $@.tmp $@
src/arm64/metrics-neoverse-n1-gen.c: src/gen/metrics2c$(EXEEXT) $(ARM64_JSON)
	$(AM_V_GEN)core=neoverse-n1; $(ARM64_METRICS2C)
src/arm64/metrics-neoverse-n2-gen.c: src/gen/metrics2c$(EXEEXT) $(ARM64_JSON)
	$(AM_V_GEN)core=neoverse-n2; revs=r0p3-; $(ARM64_METRICS2C)
# Neoverse N2 r0p0 to r0p2: the erratum's corrected formulas
src/arm64/metrics-neoverse-n2-r0p0-gen.c: src/gen/metrics2c$(EXEEXT) $(ARM64_JSON)
	$(AM_V_GEN)core=neoverse-n2; rev=r0p0; revs=r0p0-r0p2; $(ARM64_METRICS2C)
src/arm64/metrics-neoverse-v1-gen.c: src/gen/metrics2c$(EXEEXT) $(ARM64_JSON)
	$(AM_V_GEN)core=neoverse-v1; $(ARM64_METRICS2C)
src/arm64/metrics-neoverse-v2-gen.c: src/gen/metrics2c$(EXEEXT) $(ARM64_JSON)
	$(AM_V_GEN)core=neoverse-v2; $(ARM64_METRICS2C)
