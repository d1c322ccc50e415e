/* dl-jansson.c: the jansson functions hpmstat calls, through dlopen
 * (util/dlib.h): jansson is mapped by the runs that read or write JSON
 * (run files, --json, -j, the event and metric files, serve), not by
 * `stat -e task-clock -- true` or `--version` (issue 30). json_pack is
 * jansson's json_vpack_ex, as in jansson itself; json_decref and the
 * other inline functions of jansson.h call these. */
#include <stdarg.h>
#include <stdio.h>

#include <jansson.h>

#include "util/dlib.h"

/* clang-format off */
#define JANSSON_FUNCS(X) \
	X(json_array) \
	X(json_array_append_new) \
	X(json_array_get) \
	X(json_array_size) \
	X(json_delete) \
	X(json_dumpf) \
	X(json_dumps) \
	X(json_false) \
	X(json_integer) \
	X(json_integer_value) \
	X(json_load_callback) \
	X(json_load_file) \
	X(json_loadb) \
	X(json_loadf) \
	X(json_loads) \
	X(json_null) \
	X(json_number_value) \
	X(json_object) \
	X(json_object_get) \
	X(json_object_iter) \
	X(json_object_iter_key) \
	X(json_object_iter_next) \
	X(json_object_iter_value) \
	X(json_object_key_to_iter) \
	X(json_object_set_new) \
	X(json_object_size) \
	X(json_object_update) \
	X(json_real) \
	X(json_real_value) \
	X(json_string) \
	X(json_string_length) \
	X(json_string_value) \
	X(json_stringn) \
	X(json_true) \
	X(json_vpack_ex)
/* clang-format on */

enum { JANSSON_FUNCS(HPM_DL_ENUM) NFUNCS };
static const char *const names[] = {JANSSON_FUNCS(HPM_DL_NAME)};
static void *fns[NFUNCS];
static struct hpm_dlib lib = {JANSSON_SONAME, JANSSON_PACKAGE, names, fns, NFUNCS, 0, ""};
#define F(f) HPM_DL_SYSFN(lib, fns, f)

json_t *json_array(void)
{
	return F(json_array)();
}
int json_array_append_new(json_t *array, json_t *value)
{
	return F(json_array_append_new)(array, value);
}
json_t *json_array_get(const json_t *array, size_t index)
{
	return F(json_array_get)(array, index);
}
size_t json_array_size(const json_t *array)
{
	return F(json_array_size)(array);
}
void json_delete(json_t *json)
{
	F(json_delete)(json);
}
int json_dumpf(const json_t *json, FILE *output, size_t flags)
{
	return F(json_dumpf)(json, output, flags);
}
char *json_dumps(const json_t *json, size_t flags)
{
	return F(json_dumps)(json, flags);
}
json_t *json_false(void)
{
	return F(json_false)();
}
json_t *json_integer(json_int_t value)
{
	return F(json_integer)(value);
}
json_int_t json_integer_value(const json_t *integer)
{
	return F(json_integer_value)(integer);
}
json_t *json_load_callback(json_load_callback_t callback, void *data, size_t flags,
                           json_error_t *error)
{
	return F(json_load_callback)(callback, data, flags, error);
}
json_t *json_load_file(const char *path, size_t flags, json_error_t *error)
{
	return F(json_load_file)(path, flags, error);
}
json_t *json_loadb(const char *buffer, size_t buflen, size_t flags, json_error_t *error)
{
	return F(json_loadb)(buffer, buflen, flags, error);
}
json_t *json_loadf(FILE *input, size_t flags, json_error_t *error)
{
	return F(json_loadf)(input, flags, error);
}
json_t *json_loads(const char *input, size_t flags, json_error_t *error)
{
	return F(json_loads)(input, flags, error);
}
json_t *json_null(void)
{
	return F(json_null)();
}
double json_number_value(const json_t *json)
{
	return F(json_number_value)(json);
}
json_t *json_object(void)
{
	return F(json_object)();
}
json_t *json_object_get(const json_t *object, const char *key)
{
	return F(json_object_get)(object, key);
}
void *json_object_iter(json_t *object)
{
	return F(json_object_iter)(object);
}
const char *json_object_iter_key(void *iter)
{
	return F(json_object_iter_key)(iter);
}
void *json_object_iter_next(json_t *object, void *iter)
{
	return F(json_object_iter_next)(object, iter);
}
json_t *json_object_iter_value(void *iter)
{
	return F(json_object_iter_value)(iter);
}
void *json_object_key_to_iter(const char *key)
{
	return F(json_object_key_to_iter)(key);
}
int json_object_set_new(json_t *object, const char *key, json_t *value)
{
	return F(json_object_set_new)(object, key, value);
}
size_t json_object_size(const json_t *object)
{
	return F(json_object_size)(object);
}
int json_object_update(json_t *object, json_t *other)
{
	return F(json_object_update)(object, other);
}
json_t *json_real(double value)
{
	return F(json_real)(value);
}
double json_real_value(const json_t *real)
{
	return F(json_real_value)(real);
}
json_t *json_string(const char *value)
{
	return F(json_string)(value);
}
size_t json_string_length(const json_t *string)
{
	return F(json_string_length)(string);
}
const char *json_string_value(const json_t *string)
{
	return F(json_string_value)(string);
}
json_t *json_stringn(const char *value, size_t len)
{
	return F(json_stringn)(value, len);
}
json_t *json_true(void)
{
	return F(json_true)();
}
json_t *json_vpack_ex(json_error_t *error, size_t flags, const char *fmt, va_list ap)
{
	return F(json_vpack_ex)(error, flags, fmt, ap);
}
json_t *json_pack(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	json_t *v = F(json_vpack_ex)(NULL, 0, fmt, ap);
	va_end(ap);
	return v;
}
