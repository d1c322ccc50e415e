/* dl-mhd.c: libmicrohttpd's functions that hpmstat serve calls
 * (export/httpd.c), through dlopen (util/dlib.h): GnuTLS and the rest of
 * its chain are mapped by serve only. */
#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "util/dlib.h"

/* clang-format off */
#define MHD_FUNCS(X) \
	X(MHD_add_response_header) \
	X(MHD_create_response_from_buffer) \
	X(MHD_destroy_response) \
	X(MHD_get_connection_info) \
	X(MHD_lookup_connection_value) \
	X(MHD_queue_response) \
	X(MHD_start_daemon_va) \
	X(MHD_stop_daemon)
/* clang-format on */

enum { MHD_FUNCS(HPM_DL_ENUM) NFUNCS };
static const char *const names[] = {MHD_FUNCS(HPM_DL_NAME)};
static void *fns[NFUNCS];
static struct hpm_dlib lib = {
    LIBMICROHTTPD_SONAME, LIBMICROHTTPD_PACKAGE, names, fns, NFUNCS, 0, ""};
#define F(f) HPM_DL_FN(lib, fns, f)

int hpm_dl_mhd_load(char *err, size_t errlen)
{
	return hpm_dlib_load(&lib, err, errlen);
}

enum MHD_Result MHD_add_response_header(struct MHD_Response *response, const char *header,
                                        const char *content)
{
	return F(MHD_add_response_header)(response, header, content);
}
struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer,
                                                     enum MHD_ResponseMemoryMode mode)
{
	return F(MHD_create_response_from_buffer)(size, buffer, mode);
}
void MHD_destroy_response(struct MHD_Response *response)
{
	F(MHD_destroy_response)(response);
}
/* the info types httpd.c asks for take no further argument */
const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *connection,
                                                        enum MHD_ConnectionInfoType info_type, ...)
{
	return F(MHD_get_connection_info)(connection, info_type);
}
const char *MHD_lookup_connection_value(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                        const char *key)
{
	return F(MHD_lookup_connection_value)(connection, kind, key);
}
enum MHD_Result MHD_queue_response(struct MHD_Connection *connection, unsigned int status_code,
                                   struct MHD_Response *response)
{
	return F(MHD_queue_response)(connection, status_code, response);
}
/* the options list through the library's va_list form */
struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc,
                                    void *apc_cls, MHD_AccessHandlerCallback dh, void *dh_cls, ...)
{
	va_list ap;
	va_start(ap, dh_cls);
	struct MHD_Daemon *d = F(MHD_start_daemon_va)(flags, port, apc, apc_cls, dh, dh_cls, ap);
	va_end(ap);
	return d;
}
void MHD_stop_daemon(struct MHD_Daemon *daemon)
{
	F(MHD_stop_daemon)(daemon);
}
