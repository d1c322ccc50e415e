/* toy-hpmstat.c: hpmstat's whole command line with the throwaway model of
 * toy.h registered first, the way a new PMU model would be: the proof that
 * stat, its run files and report take a model that src/ has never heard
 * of (tests/toy/cli.sh drives it). */
#include <stdio.h>
#include <stdlib.h>

#include "builtin/builtin.h"
#include "registry/models.h"
#include "toy/toy.h"

int main(int argc, char **argv)
{
	if (hpm_model_register(&toy_model, &toy_machine) != 0) {
		fprintf(stderr, "toy-hpmstat: cannot register the toy model\n");
		return EXIT_FAILURE;
	}
	return hpmstat_main(argc, argv);
}
