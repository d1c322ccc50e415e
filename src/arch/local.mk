# src/arch: the PMU-model interface (model.h) and what works on any model
# (lookups, the validator). Below the model folders (src/kmh), which
# implement it; the registry of models is core/models.c.
noinst_LIBRARIES += src/arch/libarch.a
src_arch_libarch_a_SOURCES = src/arch/model.c src/arch/model.h
