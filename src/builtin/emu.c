/* emu.c: PLACEHOLDER while the emulator is being written; replaced by the emulator CLI. */
#include "builtin/builtin.h"
const char cmd_emu_usage[] = "Usage: hpmstat emu [--harts N] [SCRIPT | -]\n";
int cmd_emu(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("the emulator is not built yet");
	return 1;
}
