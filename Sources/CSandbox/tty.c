/* The sandbox's terminal for `sandbox run -t`: a pty from the sandbox's own devpts
   instance, so the payload never touches a host terminal. Syscalls only (see child.c). */
#include "internal.h"

#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

int sbx_send_fds(int socket_fd, char byte, const int *fds, size_t count) {
    if (count > SBX_PASSED_FDS_MAX) {
        errno = E2BIG;
        return -1;
    }
    struct sbx_fd_message message;
    sbx_fd_message_init(&message, byte, count);
    if (count > 0) {
        struct cmsghdr *header = CMSG_FIRSTHDR(&message.header);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * count);
        memcpy(CMSG_DATA(header), fds, sizeof(int) * count);
    }
    ssize_t sent;
    do {
        sent = sendmsg(socket_fd, &message.header, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent == 1 ? 0 : -1;
}

int sbx_pty_open(const struct sbx_config *config, int passing_socket) {
    /* After pivot_root: /dev/ptmx -> pts/ptmx, the newinstance devpts of this sandbox. */
    int master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) return -1;
    int unlock = 0;
    int slave = -1;
    struct winsize size = {.ws_row = config->tty_rows, .ws_col = config->tty_cols};
    if ((size.ws_row == 0 || ioctl(master, TIOCSWINSZ, &size) == 0) &&
        ioctl(master, TIOCSPTLCK, &unlock) == 0) {
        /* TIOCGPTPEER opens the peer without a path lookup. */
        slave = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
    }
    /* The payload drops to its own uid: give it its terminal, as login(1) would. */
    if (slave >= 0 &&
        (fchown(slave, config->uid, config->gid) != 0 || sbx_send_fds(passing_socket, 'F', &master, 1) != 0)) {
        int saved = errno;
        close(slave);
        slave = -1;
        errno = saved;
    }
    int saved = errno;
    close(master);
    errno = saved;
    return slave;
}

int sbx_pty_take_control(void) {
    return ioctl(0, TIOCSCTTY, 0);
}
