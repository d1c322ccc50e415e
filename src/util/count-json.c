/* count-json.c: see count-json.h. */
#include "util/count-json.h"

json_t *count_json(hpm_u128 v)
{
	char buf[HPM_COUNT_STR_MAX];
	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	return json_string(count_str(v, false, buf, sizeof(buf)));
}

bool count_from_json(const json_t *j, uint64_t *out)
{
	if (json_is_integer(j)) {
		json_int_t i = json_integer_value(j);
		if (i < 0)
			return false;
		*out = (uint64_t)i;
		return true;
	}
	return json_is_string(j) && count_parse_u64(json_string_value(j), out);
}
