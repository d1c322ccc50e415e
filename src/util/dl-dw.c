/* dl-dw.c: libdw's functions that hpmstat calls, through dlopen
 * (util/dlib.h): the DWARF unwinder of --call-graph dwarf samples
 * (report/unwind-libdw.c). A function added there is added here too, or
 * the link fails. libdw opens its own libelf: these shims are not
 * exported, so its calls never reach dl-elf.c's. */
#include <elfutils/libdwfl.h>

#include "util/dlib.h"

/* clang-format off */
#define DW_FUNCS(X) \
	X(dwfl_addrmodule) \
	X(dwfl_attach_state) \
	X(dwfl_begin) \
	X(dwfl_end) \
	X(dwfl_frame_pc) \
	X(dwfl_frame_reg) \
	X(dwfl_getthread_frames) \
	X(dwfl_offline_section_address) \
	X(dwfl_report_begin_add) \
	X(dwfl_report_elf) \
	X(dwfl_report_end) \
	X(dwfl_standard_find_debuginfo) \
	X(dwfl_thread_state_register_pc) \
	X(dwfl_thread_state_registers)
/* clang-format on */

enum { DW_FUNCS(HPM_DL_ENUM) NFUNCS };
static const char *const names[] = {DW_FUNCS(HPM_DL_NAME)};
static void *fns[NFUNCS];
static struct hpm_dlib lib = {LIBDW_SONAME, LIBDW_PACKAGE, names, fns, NFUNCS, 0, ""};
#define F(f) HPM_DL_FN(lib, fns, f)

int hpm_dl_dw_load(char *err, size_t errlen)
{
	return hpm_dlib_load(&lib, err, errlen);
}

Dwfl_Module *dwfl_addrmodule(Dwfl *dwfl, Dwarf_Addr address)
{
	return F(dwfl_addrmodule)(dwfl, address);
}
bool dwfl_attach_state(Dwfl *dwfl, Elf *elf, pid_t pid, const Dwfl_Thread_Callbacks *cb, void *arg)
{
	return F(dwfl_attach_state)(dwfl, elf, pid, cb, arg);
}
Dwfl *dwfl_begin(const Dwfl_Callbacks *callbacks)
{
	return F(dwfl_begin)(callbacks);
}
void dwfl_end(Dwfl *dwfl)
{
	F(dwfl_end)(dwfl);
}
bool dwfl_frame_pc(Dwfl_Frame *state, Dwarf_Addr *pc, bool *isactivation)
{
	return F(dwfl_frame_pc)(state, pc, isactivation);
}
int dwfl_frame_reg(Dwfl_Frame *state, unsigned regno, Dwarf_Word *val)
{
	return F(dwfl_frame_reg)(state, regno, val);
}
int dwfl_getthread_frames(Dwfl *dwfl, pid_t tid, int (*callback)(Dwfl_Frame *, void *), void *arg)
{
	return F(dwfl_getthread_frames)(dwfl, tid, callback, arg);
}
int dwfl_offline_section_address(Dwfl_Module *mod, void **userdata, const char *modname,
                                 Dwarf_Addr base, const char *secname, GElf_Word shndx,
                                 const GElf_Shdr *shdr, Dwarf_Addr *addr)
{
	return F(dwfl_offline_section_address)(mod, userdata, modname, base, secname, shndx, shdr,
	                                       addr);
}
void dwfl_report_begin_add(Dwfl *dwfl)
{
	F(dwfl_report_begin_add)(dwfl);
}
Dwfl_Module *dwfl_report_elf(Dwfl *dwfl, const char *name, const char *file_name, int fd,
                             GElf_Addr base, bool add_p_vaddr)
{
	return F(dwfl_report_elf)(dwfl, name, file_name, fd, base, add_p_vaddr);
}
int dwfl_report_end(Dwfl *dwfl,
                    int (*removed)(Dwfl_Module *, void *, const char *, Dwarf_Addr, void *),
                    void *arg)
{
	return F(dwfl_report_end)(dwfl, removed, arg);
}
int dwfl_standard_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
                                 Dwarf_Addr base, const char *file_name, const char *debuglink_file,
                                 GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	return F(dwfl_standard_find_debuginfo)(mod, userdata, modname, base, file_name,
	                                       debuglink_file, debuglink_crc, debuginfo_file_name);
}
void dwfl_thread_state_register_pc(Dwfl_Thread *thread, Dwarf_Word pc)
{
	F(dwfl_thread_state_register_pc)(thread, pc);
}
bool dwfl_thread_state_registers(Dwfl_Thread *thread, int firstreg, unsigned nregs,
                                 const Dwarf_Word *regs)
{
	return F(dwfl_thread_state_registers)(thread, firstreg, nregs, regs);
}
