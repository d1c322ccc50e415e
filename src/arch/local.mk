# src/arch: the PMU-model interface (model.h), the emulated-machine
# interface (machine.h) and what works on any model or machine (lookups,
# the validator). Below the model folders (src/kmh), which implement them;
# the registry of models and their machines is registry/models.c.
noinst_LIBRARIES += src/arch/libarch.a
src_arch_libarch_a_SOURCES = src/arch/model.c src/arch/model.h \
	src/arch/machine.c src/arch/machine.h
