# src/registry: the registry of PMU models (models.c): the one table of the
# models hpmstat knows, each paired with its emulated machine, and the
# lookups by name, cpuid and architecture. Above the model folders (src/kmh,
# src/arm64 and their emulators), whose models and machines it lists; below
# the back ends and every command, which ask it and never name a model.
noinst_LIBRARIES += src/registry/libregistry.a
src_registry_libregistry_a_SOURCES = src/registry/models.c src/registry/models.h
