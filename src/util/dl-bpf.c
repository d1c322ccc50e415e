/* dl-bpf.c: libbpf's functions that per-task counting through BPF calls
 * (bpf/taskcount.c and the skeleton bpftool generates for it), through
 * dlopen (util/dlib.h): mapped only when a command attributes counts to
 * tasks with BPF. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "util/dlib.h"

/* clang-format off */
#define BPF_FUNCS(X) \
	X(bpf_link__destroy) \
	X(bpf_map__fd) \
	X(bpf_map__lookup_elem) \
	X(bpf_map__set_max_entries) \
	X(bpf_map__update_elem) \
	X(bpf_map_delete_elem) \
	X(bpf_map_get_next_key) \
	X(bpf_map_lookup_batch) \
	X(bpf_map_lookup_elem) \
	X(bpf_obj_get_info_by_fd) \
	X(bpf_object__attach_skeleton) \
	X(bpf_object__destroy_skeleton) \
	X(bpf_object__detach_skeleton) \
	X(bpf_object__load_skeleton) \
	X(bpf_object__open_skeleton) \
	X(bpf_prog_test_run_opts) \
	X(bpf_program__attach) \
	X(bpf_program__fd) \
	X(bpf_program__set_autoattach) \
	X(libbpf_num_possible_cpus) \
	X(libbpf_set_print)
/* clang-format on */

enum { BPF_FUNCS(HPM_DL_ENUM) NFUNCS };
static const char *const names[] = {BPF_FUNCS(HPM_DL_NAME)};
static void *fns[NFUNCS];
static struct hpm_dlib lib = {LIBBPF_SONAME, LIBBPF_PACKAGE, names, fns, NFUNCS, 0, ""};
#define F(f) HPM_DL_FN(lib, fns, f)

int hpm_dl_bpf_load(char *err, size_t errlen)
{
	return hpm_dlib_load(&lib, err, errlen);
}

int bpf_link__destroy(struct bpf_link *link)
{
	return F(bpf_link__destroy)(link);
}
int bpf_map__fd(const struct bpf_map *map)
{
	return F(bpf_map__fd)(map);
}
int bpf_map__lookup_elem(const struct bpf_map *map, const void *key, size_t key_sz, void *value,
                         size_t value_sz, __u64 flags)
{
	return F(bpf_map__lookup_elem)(map, key, key_sz, value, value_sz, flags);
}
int bpf_map__set_max_entries(struct bpf_map *map, __u32 max_entries)
{
	return F(bpf_map__set_max_entries)(map, max_entries);
}
int bpf_map__update_elem(const struct bpf_map *map, const void *key, size_t key_sz,
                         const void *value, size_t value_sz, __u64 flags)
{
	return F(bpf_map__update_elem)(map, key, key_sz, value, value_sz, flags);
}
int bpf_map_delete_elem(int fd, const void *key)
{
	return F(bpf_map_delete_elem)(fd, key);
}
int bpf_map_get_next_key(int fd, const void *key, void *next_key)
{
	return F(bpf_map_get_next_key)(fd, key, next_key);
}
int bpf_map_lookup_batch(int fd, void *in_batch, void *out_batch, void *keys, void *values,
                         __u32 *count, const struct bpf_map_batch_opts *opts)
{
	return F(bpf_map_lookup_batch)(fd, in_batch, out_batch, keys, values, count, opts);
}
int bpf_map_lookup_elem(int fd, const void *key, void *value)
{
	return F(bpf_map_lookup_elem)(fd, key, value);
}
int bpf_obj_get_info_by_fd(int bpf_fd, void *info, __u32 *info_len)
{
	return F(bpf_obj_get_info_by_fd)(bpf_fd, info, info_len);
}
int bpf_object__attach_skeleton(struct bpf_object_skeleton *s)
{
	return F(bpf_object__attach_skeleton)(s);
}
void bpf_object__destroy_skeleton(struct bpf_object_skeleton *s)
{
	F(bpf_object__destroy_skeleton)(s);
}
void bpf_object__detach_skeleton(struct bpf_object_skeleton *s)
{
	F(bpf_object__detach_skeleton)(s);
}
int bpf_object__load_skeleton(struct bpf_object_skeleton *s)
{
	return F(bpf_object__load_skeleton)(s);
}
int bpf_object__open_skeleton(struct bpf_object_skeleton *s,
                              const struct bpf_object_open_opts *opts)
{
	return F(bpf_object__open_skeleton)(s, opts);
}
int bpf_prog_test_run_opts(int prog_fd, struct bpf_test_run_opts *opts)
{
	return F(bpf_prog_test_run_opts)(prog_fd, opts);
}
struct bpf_link *bpf_program__attach(const struct bpf_program *prog)
{
	return F(bpf_program__attach)(prog);
}
int bpf_program__fd(const struct bpf_program *prog)
{
	return F(bpf_program__fd)(prog);
}
void bpf_program__set_autoattach(struct bpf_program *prog, bool autoattach)
{
	F(bpf_program__set_autoattach)(prog, autoattach);
}
int libbpf_num_possible_cpus(void)
{
	return F(libbpf_num_possible_cpus)();
}
libbpf_print_fn_t libbpf_set_print(libbpf_print_fn_t fn)
{
	return F(libbpf_set_print)(fn);
}
