/* hpmstat.c: main(), and nothing else: the command line is
 * builtin/commands.c's hpmstat_main(), which tests can run too. */
#include "builtin/builtin.h"

int main(int argc, char **argv)
{
	return hpmstat_main(argc, argv);
}
