/* symbols.c: the emulator's declared functions as a symbol table
 * (sym/sym.h hpm_syms_add_table), as record --backend emu maps them: the
 * DSO "[emu:PROFILE]" mapped at the lowest function start with pgoff =
 * that start, so a DSO offset is the declared address. Truth: the
 * addresses and names of profiles/hotspots.profile, written here by hand,
 * and the function the emulator reports for each sampled PC.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arch/machine.h"
#include "record/emu.h"
#include "registry/models.h"
#include "sym/sym.h"
#include "tap.h"

int main(void)
{
	struct hpm_record_emu_fn *fns;
	size_t n;
	char err[512];

	tap_ok(hpm_record_emu_functions("/usr/bin/true", NULL, &fns, &n, err, sizeof(err)) ==
	           -ENOENT,
	       "a file DSO is no emulator DSO");
	int rc = hpm_record_emu_functions("[emu:hotspots]", NULL, &fns, &n, err, sizeof(err));
	tap_ok(rc == 0 && n == 4, "[emu:hotspots] has 4 declared functions");
	if (rc || n != 4)
		return tap_done();
	/* profiles/hotspots.profile */
	static const struct {
		const char *name;
		uint64_t start, size;
	} want[] = {{"matmul", 0x10000, 0x800},
	            {"chase", 0x10800, 0x400},
	            {"parse", 0x10c00, 0x600},
	            {"dispatch", 0x11200, 0x200}};
	struct hpm_sym_decl decls[4];
	for (size_t i = 0; i < 4; i++) {
		tap_ok(strcmp(fns[i].name, want[i].name) == 0 && fns[i].start == want[i].start &&
		           fns[i].end == want[i].start + want[i].size,
		       "function %zu is %s [0x%" PRIx64 ", 0x%" PRIx64 ")", i, want[i].name,
		       want[i].start, want[i].start + want[i].size);
		decls[i] = (struct hpm_sym_decl){fns[i].name, fns[i].start, fns[i].end};
	}
	struct hpm_syms *s;
	struct hpm_syms_opts o = {.kallsyms = ""};
	if (hpm_syms_new(&o, &s) != 0)
		return tap_done();
	tap_ok(hpm_syms_add_table(s, "[emu:hotspots]", decls, 4) == 0 &&
	           hpm_syms_mmap(s, HPM_RECORD_EMU_PID, 0x10000, 0x11400 - 0x10000, 0x10000,
	                         "[emu:hotspots]", NULL, 0, HPM_SYM_USER) == 0,
	       "the table and the map are taken");
	for (size_t i = 0; i < 4; i++) {
		uint64_t at[3] = {want[i].start, want[i].start + want[i].size / 2,
		                  want[i].start + want[i].size - 2};
		unsigned good = 0;
		for (unsigned k = 0; k < 3; k++) {
			struct hpm_sym_loc loc;
			if (hpm_syms_resolve(s, HPM_RECORD_EMU_PID, at[k], HPM_SYM_USER, &loc) ==
			        0 &&
			    loc.name && strcmp(loc.name, want[i].name) == 0 &&
			    strcmp(loc.dso, "[emu:hotspots]") == 0 &&
			    loc.sym_offset == at[k] - want[i].start)
				good++;
		}
		tap_ok(good == 3, "%s: its first, middle and last halfword resolve to it",
		       want[i].name);
	}

	/* every sampled PC resolves to the function the emulator sampled */
	const struct hpm_emu_machine *m = NULL;
	for (unsigned i = 0; !m && i < hpm_model_count(); i++)
		if (hpm_model_machine(hpm_model_at(i)) &&
		    hpm_emu_can_sample(hpm_model_machine(hpm_model_at(i))))
			m = hpm_model_machine(hpm_model_at(i));
	struct hpm_emu_vm_config cfg = {.harts = 1, .profile = "hotspots", .seed = 2};
	struct hpm_emu_vm *vm;
	if (!m || m->create(&cfg, &vm, err, sizeof(err)) != 0)
		return tap_done();
	struct hpm_diag me;
	struct hpm_event_code c;
	const struct hpm_pmu_model *pm = NULL;
	for (unsigned i = 0; i < hpm_model_count(); i++)
		if (hpm_model_machine(hpm_model_at(i)) == m)
			pm = hpm_model_at(i);
	pm->encode(pm, "rob_commitInstr", &c, &me);
	m->set_event(vm, 0, 11, true, c.value, err, sizeof(err));
	m->inhibit(vm, 0, UINT32_C(1) << 11, false, err, sizeof(err));
	m->set_period(vm, 0, 11, 997, err, sizeof(err));
	unsigned samples = 0, named = 0;
	for (uint64_t left = 20000000; left;) {
		struct hpm_emu_sample smp;
		left -= m->run_sample(vm, 0, left, &smp);
		if (!smp.overflowed)
			continue;
		struct hpm_emu_function f;
		struct hpm_sym_loc loc;
		samples++;
		if (m->function(vm, (unsigned)smp.function, &f) &&
		    hpm_syms_resolve(s, HPM_RECORD_EMU_PID, smp.pc, HPM_SYM_USER, &loc) == 0 &&
		    loc.name && strcmp(loc.name, f.name) == 0)
			named++;
		bool wr;
		uint64_t v = m->read(vm, 0, 11, &wr);
		m->set_period(vm, 0, 11, hpm_emu_period_left(997, v), err, sizeof(err));
	}
	tap_ok(samples > 1000 && named == samples,
	       "%u of %u sampled PCs resolve to the function the emulator sampled", named, samples);
	m->free(vm);
	hpm_syms_free(s);
	hpm_record_emu_functions_free(fns, n);
	return tap_done();
}
