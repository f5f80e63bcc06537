#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <microhttpd.h>

/* MHD_get_connection_info is variadic, which Swift cannot call: the queries glsnap makes. */
static inline int glsnap_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/* The client's IPv4 address (network byte order), 0 when it is not IPv4. */
static inline uint32_t glsnap_mhd_connection_ipv4(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr || info->client_addr->sa_family != AF_INET) return 0;
    return ((const struct sockaddr_in *)info->client_addr)->sin_addr.s_addr;
}
