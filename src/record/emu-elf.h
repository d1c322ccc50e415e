/* emu-elf.h: what perf needs to name an emulated workload's functions.
 *
 * Owns: the ELF image of the functions a workload declares (a .symtab of
 * STT_FUNC symbols at their declared addresses over a .text with no bytes
 * behind it, and a GNU build id that is a digest of the image), and its
 * entry in perf's build-id cache ($HOME/.debug, or PERF_BUILDID_DIR, as
 * perf record fills it): DIR/NAME/ID/elf and the link
 * DIR/.build-id/ID[0:2]/ID[2:]. With the build id in the perf.data's
 * BUILD_ID feature for the DSO "[emu:PROFILE]", perf report and perf
 * script find the image by that id and name the functions.
 *
 * Never prints, never exits.
 */
#ifndef HPM_RECORD_EMU_ELF_H
#define HPM_RECORD_EMU_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "arch/machine.h"

#define HPM_EMU_ELF_ID_SIZE 20 /* a GNU build id's usual (SHA-1) size */

struct hpm_emu_elf {
	uint8_t *buf;
	size_t size;
	uint8_t id[HPM_EMU_ELF_ID_SIZE];
};

/* The image of the n functions (arch: a model's, "riscv" or "arm64") into
 * *img (free with hpm_emu_elf_free). */
void hpm_emu_elf_build(struct hpm_emu_elf *img, const char *arch,
                       const struct hpm_emu_function *fns, size_t n);
void hpm_emu_elf_free(struct hpm_emu_elf *img);

/* img into the build-id cache dir under the DSO name dso: 0, or -errno
 * with "cannot write 'PATH': reason" in err. An entry already there is
 * kept (the same id is the same image). */
int hpm_emu_elf_cache(const char *dir, const char *dso, const struct hpm_emu_elf *img, char *err,
                      size_t errlen);

#endif
