/* fuzz-perfdata.c: fuzz target for the perf.data reader (src/perfdata)
 * and the samples report built on it (src/report/samples.c), on the
 * fuzzer's bytes as a file: the properties are fuzz-perfdata.h's, the call
 * graph order and sort keys chosen by the input's size.
 */
#include <stdint.h>

#include "fuzz-perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_perfdata_check(data, size, size);
	return 0;
}
