/* regs.c: the Arm emulator's register table and names (see
 * arm64/emu/pmu.h and pmu-int.h): what a script's mrs/msr takes.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arm64/emu/pmu-int.h"

/* name, suffix, lowest EL, indexed, external, read-only, write-only */
const struct arm_emu_reg_info arm_emu_regs[ARM_EMU_NR_REGS] = {
    [ARM_EMU_PMCR_EL0] = {"PMCR_EL0", NULL, 0, false, false, false, false},
    [ARM_EMU_PMCNTENSET_EL0] = {"PMCNTENSET_EL0", NULL, 0, false, false, false, false},
    [ARM_EMU_PMCNTENCLR_EL0] = {"PMCNTENCLR_EL0", NULL, 0, false, false, false, false},
    [ARM_EMU_PMOVSSET_EL0] = {"PMOVSSET_EL0", NULL, 0, false, false, false, false},
    [ARM_EMU_PMOVSCLR_EL0] = {"PMOVSCLR_EL0", NULL, 0, false, false, false, false},
    [ARM_EMU_PMINTENSET_EL1] = {"PMINTENSET_EL1", NULL, 1, false, false, false, false},
    [ARM_EMU_PMINTENCLR_EL1] = {"PMINTENCLR_EL1", NULL, 1, false, false, false, false},
    [ARM_EMU_PMSELR_EL0] = {"PMSELR_EL0", NULL, 0, false, false, false, false},
    [ARM_EMU_PMXEVTYPER_EL0] = {"PMXEVTYPER_EL0", NULL, 0, false, false, false, false},
    [ARM_EMU_PMXEVCNTR_EL0] = {"PMXEVCNTR_EL0", NULL, 0, false, false, false, false},
    [ARM_EMU_PMEVTYPER_EL0] = {"PMEVTYPER", "_EL0", 0, true, false, false, false},
    [ARM_EMU_PMEVCNTR_EL0] = {"PMEVCNTR", "_EL0", 0, true, false, false, false},
    [ARM_EMU_PMCCNTR_EL0] = {"PMCCNTR_EL0", NULL, 0, false, false, false, false},
    [ARM_EMU_PMCCFILTR_EL0] = {"PMCCFILTR_EL0", NULL, 0, false, false, false, false},
    [ARM_EMU_PMSWINC_EL0] = {"PMSWINC_EL0", NULL, 0, false, false, false, true},
    [ARM_EMU_PMUSERENR_EL0] = {"PMUSERENR_EL0", NULL, 0, false, false, false, false},
    [ARM_EMU_PMMIR_EL1] = {"PMMIR_EL1", NULL, 1, false, false, true, false},
    [ARM_EMU_ID_AA64DFR0_EL1] = {"ID_AA64DFR0_EL1", NULL, 1, false, false, true, false},
    [ARM_EMU_MDCR_EL2] = {"MDCR_EL2", NULL, 2, false, false, false, false},
    [ARM_EMU_MDCR_EL3] = {"MDCR_EL3", NULL, 3, false, false, false, false},
    [ARM_EMU_PMSSCR_EL1] = {"PMSSCR_EL1", NULL, 1, false, false, false, false},
    [ARM_EMU_PMEVCNTSVR_EL1] = {"PMEVCNTSVR", "_EL1", 1, true, false, true, false},
    [ARM_EMU_PMCCNTSVR_EL1] = {"PMCCNTSVR_EL1", NULL, 1, false, false, true, false},
    [ARM_EMU_EXT_PMDEVID] = {"PMDEVID", NULL, 0, false, true, true, false},
    [ARM_EMU_EXT_PMPCSR] = {"PMPCSR", NULL, 0, false, true, true, false},
    [ARM_EMU_EXT_PMCID1SR] = {"PMCID1SR", NULL, 0, false, true, true, false},
    [ARM_EMU_EXT_PMVIDSR] = {"PMVIDSR", NULL, 0, false, true, true, false},
    [ARM_EMU_EXT_PMPCSCTL] = {"PMPCSCTL", NULL, 0, false, true, false, false},
    [ARM_EMU_EXT_EPMN] = {"EPMN", NULL, 0, false, true, false, false},
    [ARM_EMU_EXT_EXTE] = {"EXTE", NULL, 0, false, true, false, false},
};

bool arm_emu_reg_indexed(unsigned reg)
{
	return reg < ARM_EMU_NR_REGS && arm_emu_regs[reg].indexed;
}

bool arm_emu_reg_external(unsigned reg)
{
	return reg < ARM_EMU_NR_REGS && arm_emu_regs[reg].external;
}

const char *arm_emu_reg_name(unsigned reg, unsigned idx, char *buf, size_t len)
{
	if (reg >= ARM_EMU_NR_REGS) {
		snprintf(buf, len, "%s", "");
		return buf;
	}
	const struct arm_emu_reg_info *ri = &arm_emu_regs[reg];
	if (ri->indexed)
		snprintf(buf, len, "%s%u%s", ri->name, idx, ri->suffix);
	else
		snprintf(buf, len, "%s", ri->name);
	return buf;
}

int arm_emu_reg_parse(const char *name, unsigned *reg, unsigned *idx, char *err, size_t errlen)
{
	for (unsigned r = 0; r < ARM_EMU_NR_REGS; r++) {
		const struct arm_emu_reg_info *ri = &arm_emu_regs[r];
		if (!ri->indexed) {
			if (strcasecmp(name, ri->name) == 0) {
				*reg = r;
				*idx = 0;
				return 0;
			}
			continue;
		}
		size_t pl = strlen(ri->name);
		if (strncasecmp(name, ri->name, pl) != 0 || !isdigit((unsigned char)name[pl]))
			continue;
		char *end;
		unsigned long n = strtoul(name + pl, &end, 10);
		if (strcasecmp(end, ri->suffix) != 0)
			continue;
		/* no leading zeros: PMEVCNTR03_EL0 is not a name the Arm ARM uses */
		if (n > 30 || (name[pl] == '0' && end - (name + pl) > 1)) {
			snprintf(err, errlen, "'%s': %s<n>%s takes n from 0 to 30", name, ri->name,
			         ri->suffix);
			return -1;
		}
		*reg = r;
		*idx = (unsigned)n;
		return 0;
	}
	snprintf(err, errlen, "unknown register '%s'", name);
	return -1;
}
