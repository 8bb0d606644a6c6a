#include "internal.h"

#include <net/if.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* The loopback's index in every network namespace (the kernel's LOOPBACK_IFINDEX). */
#define LOOPBACK_INDEX 1

/* A fresh network namespace has only a down loopback; bring it up so that local servers
   inside the sandbox, and the egress proxy's listener, work. With `mtu`, the same RTM_NEWLINK
   also sets its MTU and the largest packet TCP may hand it at once (gso_max_size): every
   socket may take one packet past its cgroup's memory limit, and on a loopback left at 64 KiB
   packets (and 64 KiB GSO, whatever the MTU) that packet is 64 KiB; with a 1500-byte MTU it is
   one page. One request and the kernel's answer, instead of a socket and three ioctls first. */
int sbx_loopback_up(unsigned mtu) {
    struct {
        struct nlmsghdr header;
        struct ifinfomsg info;
        struct rtattr mtu_attribute;
        uint32_t mtu;
        struct rtattr gso_attribute;
        uint32_t gso_max_size;
    } request;
    memset(&request, 0, sizeof request);
    request.header.nlmsg_len = mtu > 0 ? sizeof request : NLMSG_LENGTH(sizeof request.info);
    request.header.nlmsg_type = RTM_NEWLINK;
    request.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
    request.header.nlmsg_seq = 1;
    request.info.ifi_family = AF_UNSPEC;
    request.info.ifi_index = LOOPBACK_INDEX;
    request.info.ifi_flags = IFF_UP;
    request.info.ifi_change = IFF_UP;
    request.mtu_attribute.rta_type = IFLA_MTU;
    request.mtu_attribute.rta_len = RTA_LENGTH(sizeof request.mtu);
    request.mtu = mtu;
    request.gso_attribute.rta_type = IFLA_GSO_MAX_SIZE;
    request.gso_attribute.rta_len = RTA_LENGTH(sizeof request.gso_max_size);
    request.gso_max_size = mtu;

    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (fd < 0) return -1;
    struct sockaddr_nl kernel;
    memset(&kernel, 0, sizeof kernel);
    kernel.nl_family = AF_NETLINK;
    int result = -1;
    if (sendto(fd, &request, request.header.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof kernel) ==
        (ssize_t)request.header.nlmsg_len) {
        /* The answer is an NLMSG_ERROR carrying 0 (done) or -errno, then our request echoed. */
        union {
            struct nlmsghdr header;
            char bytes[1024];
        } answer;
        ssize_t got;
        do {
            got = recv(fd, &answer, sizeof answer, 0);
        } while (got < 0 && errno == EINTR);
        if (got >= (ssize_t)(NLMSG_HDRLEN + sizeof(struct nlmsgerr)) &&
            answer.header.nlmsg_type == NLMSG_ERROR) {
            const struct nlmsgerr *error = (const struct nlmsgerr *)NLMSG_DATA(&answer.header);
            if (error->error == 0) {
                result = 0;
            } else {
                errno = -error->error;
            }
        } else if (got >= 0) {
            errno = EPROTO;
        }
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}

/* A socket listening on 127.0.0.1:port in the calling thread's network namespace: the egress
   proxy's, served outside by the parent. Returns the fd (CLOEXEC) or -1 with errno. */
int sbx_proxy_socket(int port) {
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
    return fd;
}

/* Listens on 127.0.0.1:port inside the sandbox's network namespace and passes the
   socket to the parent, which serves it as the egress proxy. */
int sbx_proxy_listen(int port, int passing_socket) {
    int fd = sbx_proxy_socket(port);
    if (fd < 0) {
        return -1;
    }
    int sent = sbx_send_fds(passing_socket, 'F', &fd, 1);
    int saved = errno;
    close(fd);
    errno = saved;
    return sent;
}
