/* Shared between the launcher's C files; not part of the API. */
#pragma once

#include "sandbox.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

/* What a child writes to the report pipe on failure: one record, atomically. */
struct sbx_report {
    int32_t stage;
    int32_t err;
    int32_t index;
};

/* The descriptors the children use; all are CLOEXEC in the parent. */
struct sbx_child_fds {
    int sync_read;     /* a socket: the parent sends one byte when the id maps are written,
                          then one more, with the cgroup files to move into (v1), when the
                          payload may start */
    int sync_write;    /* the parent's end, closed at once in the child */
    int report_write;  /* {stage, errno} on failure; EOF on a successful execve */
    int status_write;  /* the payload's wait status, written by init */
    int proxy_socket;  /* the child end of the fd-passing socketpair, or -1 */
};

/* Runs in the cloned child (pid 1 of the new pid namespace). Never returns. */
__attribute__((noreturn)) void sbx_init_main(const struct sbx_config *config,
                                             const struct sbx_child_fds *fds);

/* Writes a failure record and exits; used by init and by the payload. */
__attribute__((noreturn)) void sbx_child_fail(int report_fd, int stage, int index);

/* ns.c */
int sbx_loopback_up(unsigned mtu);
int sbx_proxy_socket(int port);
int sbx_proxy_listen(int port, int passing_socket);

/* mount.c: returns 0, or -1 with errno set and *stage / *index naming the failure. */
int sbx_build_root(const struct sbx_config *config, int *stage, int *index);

/* workspace.c: the init's side of the workspace ops; 0, or -1 with errno set. */
/* mount_setattr(path, AT_RECURSIVE): read-only, nosuid, nodev (and noexec when asked) on the mount
 * at `path` and every mount below it (a recursive bind carries the host's submounts, such as a
 * container's /etc/hosts, which a remount of the top alone would leave writable). */
int sbx_set_read_only_tree(const char *path, int noexec);
int sbx_attach_tree(const struct sbx_fs_op *op);
int sbx_bind_verified(const struct sbx_fs_op *op);

/* caps.c */
int sbx_drop_bounding_set(void);
int sbx_clear_capabilities(void);

/* limits.c */
int sbx_apply_rlimits(const struct sbx_rlimit *limits, size_t count);

/* tty.c: opens a pty from /dev/ptmx (inside the new root), hands the slave to the
   payload's uid, sends the master over passing_socket; returns the slave fd or -1. */
int sbx_pty_open(const struct sbx_config *config, int passing_socket);
/* Makes the already-dup'd slave on fd 0 the controlling terminal of this new session. */
int sbx_pty_take_control(void);
/* Sends one byte with `count` descriptors (SCM_RIGHTS; none: the byte alone) over an AF_UNIX
   socket, never raising SIGPIPE. 0, or -1 with errno (E2BIG beyond SBX_PASSED_FDS_MAX). */
int sbx_send_fds(int socket_fd, char byte, const int *fds, size_t count);

/* The most descriptors one message carries (the second release: one cgroup v1 file per
   controller). */
#define SBX_PASSED_FDS_MAX 8

/* The message both ends of descriptor passing use: one byte plus room for up to
   SBX_PASSED_FDS_MAX SCM_RIGHTS descriptors. Initialise it in place (it points into itself);
   no allocation. */
struct sbx_fd_message {
    struct msghdr header;
    struct iovec io;
    char byte;
    union {
        char buffer[CMSG_SPACE(sizeof(int) * SBX_PASSED_FDS_MAX)];
        struct cmsghdr align;
    } control;
};

/* `capacity`: the descriptors a sender sends, or the most a receiver takes (the kernel closes any
   beyond it and sets MSG_CTRUNC); 0 (at most SBX_PASSED_FDS_MAX) for no control data. */
static inline void sbx_fd_message_init(struct sbx_fd_message *message, char byte, size_t capacity) {
    memset(message, 0, sizeof *message);
    message->byte = byte;
    message->io.iov_base = &message->byte;
    message->io.iov_len = 1;
    message->header.msg_iov = &message->io;
    message->header.msg_iovlen = 1;
    if (capacity > 0) {
        message->header.msg_control = message->control.buffer;
        message->header.msg_controllen = CMSG_SPACE(sizeof(int) * capacity);
    }
}

/* sysctls.c: open every setting's file into fds (before the root is built: inside, /proc/sys
   is read-only), then write and close them (after the last namespace the init creates, since
   the limits include the namespace counts, and after the proxy's listen, which the backlog
   limit would cut). Return 0, or -1 with errno and *index set. */
int sbx_sysctls_open(const struct sbx_sysctl *sysctls, size_t count, int *fds, int *index);
int sbx_sysctls_write(const struct sbx_sysctl *sysctls, size_t count, const int *fds, int *index);
