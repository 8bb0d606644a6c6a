#include "internal.h"

#include <net/if.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* A fresh network namespace has only a down loopback; bring it up so that local
   servers inside the sandbox, and the egress proxy's listener, work. */
int sbx_loopback_up(void) {
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -1;
    }
    struct ifreq request;
    memset(&request, 0, sizeof request);
    memcpy(request.ifr_name, "lo", 3);
    int result = ioctl(fd, SIOCGIFFLAGS, &request);
    if (result == 0) {
        request.ifr_flags |= IFF_UP | IFF_RUNNING;
        result = ioctl(fd, SIOCSIFFLAGS, &request);
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}

/* Listens on 127.0.0.1:port inside the sandbox's network namespace and passes the
   socket to the parent, which serves it as the egress proxy. */
int sbx_proxy_listen(int port, int passing_socket) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -1;
    }
    int one = 1;
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, 128) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }

    int sent = sbx_send_fd(passing_socket, fd);
    int saved = errno;
    close(fd);
    errno = saved;
    return sent;
}
