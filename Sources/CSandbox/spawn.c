/* The parent side of the launch: clone, write the id maps, attach cgroups, release. */
#include "internal.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const int namespace_flags = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET |
                                   CLONE_NEWUTS | CLONE_NEWIPC;

static void close_if_open(int *fd) {
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

static int write_proc_file(pid_t pid, const char *name, const char *text) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, name);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t length = strlen(text);
    ssize_t written = write(fd, text, length);
    int saved = errno;
    close(fd);
    if (written != (ssize_t)length) {
        errno = written < 0 ? saved : EIO;
        return -1;
    }
    return 0;
}

static int attach_cgroups(const struct sbx_config *config, pid_t pid) {
    char text[32];
    int length = snprintf(text, sizeof text, "%d\n", (int)pid);
    for (size_t i = 0; i < config->cgroup_procs_count; i++) {
        if (pwrite(config->cgroup_procs_fds[i], text, (size_t)length, 0) != length) return -1;
    }
    return 0;
}

static int receive_fd(int socket_fd) {
    char byte;
    struct iovec io = {.iov_base = &byte, .iov_len = 1};
    union {
        char buffer[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    message.msg_control = control.buffer;
    message.msg_controllen = sizeof control.buffer;
    ssize_t got;
    do {
        got = recvmsg(socket_fd, &message, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    } while (got < 0 && errno == EINTR);
    if (got != 1) return -1;
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    if (header == NULL || header->cmsg_type != SCM_RIGHTS ||
        header->cmsg_len != CMSG_LEN(sizeof(int))) {
        errno = EPROTO;
        return -1;
    }
    int fd;
    memcpy(&fd, CMSG_DATA(header), sizeof fd);
    return fd;
}

static void reap(pid_t pid) {
    int status;
    while (waitpid(pid, &status, __WALL) < 0 && errno == EINTR) {
    }
}

int sbx_spawn(const struct sbx_config *config, struct sbx_process *process,
              struct sbx_failure *failure) {
    int sync_pipe[2] = {-1, -1}, report_pipe[2] = {-1, -1}, status_pipe[2] = {-1, -1};
    int proxy_pair[2] = {-1, -1};
    failure->stage = SBX_STAGE_NONE;
    failure->err = 0;
    failure->index = -1;
    process->pid = -1;
    process->status_fd = -1;
    process->proxy_fd = -1;

    if (pipe2(sync_pipe, O_CLOEXEC) != 0 || pipe2(report_pipe, O_CLOEXEC) != 0 ||
        pipe2(status_pipe, O_CLOEXEC) != 0 ||
        (config->proxy_port > 0 &&
         socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, proxy_pair) != 0)) {
        failure->stage = SBX_STAGE_PIPE;
        failure->err = errno;
        goto fail_closed;
    }

    /* Block every signal around clone so that the child cannot run a Swift handler
       before it has reset them. */
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t pid = (pid_t)syscall(SYS_clone, namespace_flags | SIGCHLD, 0, 0, 0, 0);
    if (pid == 0) {
        struct sbx_child_fds fds = {
            .sync_read = sync_pipe[0],
            .sync_write = sync_pipe[1],
            .report_write = report_pipe[1],
            .status_write = status_pipe[1],
            .proxy_socket = proxy_pair[1],
        };
        close(report_pipe[0]);
        close(status_pipe[0]);
        if (proxy_pair[0] >= 0) close(proxy_pair[0]);
        sbx_init_main(config, &fds);
    }
    int clone_errno = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close_if_open(&sync_pipe[0]);
    close_if_open(&report_pipe[1]);
    close_if_open(&status_pipe[1]);
    close_if_open(&proxy_pair[1]);
    if (pid < 0) {
        failure->stage = SBX_STAGE_CLONE;
        failure->err = clone_errno;
        goto fail_closed;
    }

    if (config->deny_setgroups && write_proc_file(pid, "setgroups", "deny") != 0) {
        failure->stage = SBX_STAGE_SETGROUPS_FILE;
        goto fail_running;
    }
    if (write_proc_file(pid, "uid_map", config->uid_map) != 0) {
        failure->stage = SBX_STAGE_UID_MAP;
        goto fail_running;
    }
    if (write_proc_file(pid, "gid_map", config->gid_map) != 0) {
        failure->stage = SBX_STAGE_GID_MAP;
        goto fail_running;
    }
    if (attach_cgroups(config, pid) != 0) {
        failure->stage = SBX_STAGE_CGROUP_ATTACH;
        goto fail_running;
    }
    if (write(sync_pipe[1], "x", 1) != 1) {
        failure->stage = SBX_STAGE_RELEASE;
        goto fail_running;
    }
    close_if_open(&sync_pipe[1]);

    /* EOF on the report pipe means the payload's execve succeeded (it is CLOEXEC) and
       init closed its copy; a record means a stage failed. */
    struct sbx_report report;
    ssize_t got;
    do {
        got = read(report_pipe[0], &report, sizeof report);
    } while (got < 0 && errno == EINTR);
    close_if_open(&report_pipe[0]);
    if (got != 0) {
        if (got == (ssize_t)sizeof report) {
            failure->stage = report.stage;
            failure->err = report.err;
            failure->index = report.index;
        } else {
            failure->stage = SBX_STAGE_REPORT;
            failure->err = got < 0 ? errno : EPROTO;
        }
        kill(pid, SIGKILL);
        reap(pid);
        goto fail_closed;
    }

    if (proxy_pair[0] >= 0) {
        process->proxy_fd = receive_fd(proxy_pair[0]);
        close_if_open(&proxy_pair[0]);
        if (process->proxy_fd < 0) {
            failure->stage = SBX_STAGE_PROXY_SOCKET;
            failure->err = errno;
            kill(pid, SIGKILL);
            reap(pid);
            goto fail_closed;
        }
    }
    process->pid = pid;
    process->status_fd = status_pipe[0];
    return 0;

fail_running:
    failure->err = errno;
    kill(pid, SIGKILL);
    reap(pid);
fail_closed:
    close_if_open(&sync_pipe[0]);
    close_if_open(&sync_pipe[1]);
    close_if_open(&report_pipe[0]);
    close_if_open(&report_pipe[1]);
    close_if_open(&status_pipe[0]);
    close_if_open(&status_pipe[1]);
    close_if_open(&proxy_pair[0]);
    close_if_open(&proxy_pair[1]);
    return -1;
}

int sbx_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
