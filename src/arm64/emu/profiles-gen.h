/* profiles-gen.h: the built-in Arm profile texts.
 *
 * Owns: the declaration of the table that src/gen/profiles2c.awk writes
 * into profiles-gen.c from profiles/arm64/NAME.profile (see
 * src/arm64/emu/sources.mk), read only by profile.c.
 */
#ifndef HPM_ARM64_EMU_PROFILES_GEN_H
#define HPM_ARM64_EMU_PROFILES_GEN_H

struct arm_src_builtin_text {
	const char *file; /* profiles/arm64/NAME.profile, for messages */
	const char *text;
};
extern const struct arm_src_builtin_text arm_src_builtin_texts[];
extern const unsigned arm_src_builtin_count;

#endif
