/* The parent side of the launch: clone, write the id maps, attach cgroups, release. */
#include "internal.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
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

static int attach_cgroups(pid_t pid, const int *fds, size_t count) {
    char text[32];
    int length = snprintf(text, sizeof text, "%d\n", (int)pid);
    for (size_t i = 0; i < count; i++) {
        if (pwrite(fds[i], text, (size_t)length, 0) != length) return -1;
    }
    return 0;
}

static int receive_fd(int socket_fd) {
    struct sbx_fd_message message;
    sbx_fd_message_init(&message, 0, 1);
    ssize_t got;
    do {
        got = recvmsg(socket_fd, &message.header, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    } while (got < 0 && errno == EINTR);
    if (got != 1) return -1;
    struct cmsghdr *header = CMSG_FIRSTHDR(&message.header);
    if (header == NULL || header->cmsg_type != SCM_RIGHTS ||
        header->cmsg_len != CMSG_LEN(sizeof(int))) {
        errno = EPROTO;
        return -1;
    }
    int fd;
    memcpy(&fd, CMSG_DATA(header), sizeof fd);
    return fd;
}

/* After a failed release, the child's own report says what went wrong first. */
static int child_report(int report_fd, struct sbx_failure *failure) {
    struct sbx_report report;
    ssize_t got;
    do {
        got = read(report_fd, &report, sizeof report);
    } while (got < 0 && errno == EINTR);
    if (got != (ssize_t)sizeof report) return 0;
    failure->stage = report.stage;
    failure->err = report.err;
    failure->index = report.index;
    return 1;
}

static void reap(pid_t pid) {
    int status;
    while (waitpid(pid, &status, __WALL) < 0 && errno == EINTR) {
    }
}

void sbx_spawn_abort(struct sbx_launch *launch) {
    if (launch->pid > 0) {
        kill(launch->pid, SIGKILL);
        reap(launch->pid);
        launch->pid = -1;
    }
    close_if_open(&launch->sync_write);
    close_if_open(&launch->report_read);
    close_if_open(&launch->status_read);
    close_if_open(&launch->proxy_read);
}

static int fail_launch(struct sbx_launch *launch, struct sbx_failure *failure, int stage, int err) {
    failure->stage = stage;
    failure->err = err;
    sbx_spawn_abort(launch);
    return -1;
}

/* A release that failed because the child is gone (EPIPE, ECONNRESET) reports the child's
   failure instead; any other failure leaves the child waiting, so it is killed without reading
   its report (which would never come). */
static int fail_release(struct sbx_launch *launch, struct sbx_failure *failure, int err) {
    int gone = err == EPIPE || err == ECONNRESET;
    if (gone && launch->report_read >= 0 && child_report(launch->report_read, failure)) {
        sbx_spawn_abort(launch);
        return -1;
    }
    return fail_launch(launch, failure, SBX_STAGE_RELEASE, err);
}

int sbx_spawn_begin(const struct sbx_config *config, struct sbx_launch *launch,
                    struct sbx_failure *failure) {
    int sync_pair[2] = {-1, -1}, report_pipe[2] = {-1, -1}, status_pipe[2] = {-1, -1};
    int proxy_pair[2] = {-1, -1};
    failure->stage = SBX_STAGE_NONE;
    failure->err = 0;
    failure->index = -1;
    launch->pid = -1;
    launch->sync_write = launch->report_read = launch->status_read = launch->proxy_read = -1;
    launch->proxy = config->proxy_port > 0;
    launch->tty = config->tty;

    /* A socket, so that the second release can carry the init's cgroup files. */
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sync_pair) != 0 ||
        pipe2(report_pipe, O_CLOEXEC) != 0 ||
        pipe2(status_pipe, O_CLOEXEC) != 0 ||
        ((config->proxy_port > 0 || config->tty) &&
         socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, proxy_pair) != 0)) {
        int err = errno;
        int all[] = {sync_pair[0], sync_pair[1], report_pipe[0], report_pipe[1],
                     status_pipe[0], status_pipe[1], proxy_pair[0], proxy_pair[1]};
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) close_if_open(&all[i]);
        failure->stage = SBX_STAGE_PIPE;
        failure->err = err;
        return -1;
    }

    /* A namespace made ahead: this thread enters it so that the child is born there
       (namespaces are per thread), and returns to its own right after the clone. */
    int flags = namespace_flags;
    int own_netns = -1;
    if (config->netns_fd >= 0) {
        own_netns = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
        if (own_netns < 0 || setns(config->netns_fd, CLONE_NEWNET) != 0) {
            int err = errno;
            if (own_netns >= 0) close(own_netns);
            int all[] = {sync_pair[0], sync_pair[1], report_pipe[0], report_pipe[1],
                         status_pipe[0], status_pipe[1], proxy_pair[0], proxy_pair[1]};
            for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) close_if_open(&all[i]);
            failure->stage = own_netns < 0 ? SBX_STAGE_NETNS_OPEN : SBX_STAGE_NETNS_ENTER;
            failure->err = err;
            return -1;
        }
        flags &= ~CLONE_NEWNET;
    }

    /* Block every signal around clone so that the child cannot run a Swift handler
       before it has reset them. */
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t pid = (pid_t)syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
    if (pid == 0) {
        struct sbx_child_fds fds = {
            .sync_read = sync_pair[0],
            .sync_write = sync_pair[1],
            .report_write = report_pipe[1],
            .status_write = status_pipe[1],
            .proxy_socket = proxy_pair[1],
        };
        /* The host's network namespace is no descriptor the sandbox keeps. */
        if (own_netns >= 0) close(own_netns);
        close(report_pipe[0]);
        close(status_pipe[0]);
        if (proxy_pair[0] >= 0) close(proxy_pair[0]);
        sbx_init_main(config, &fds);
    }
    int clone_errno = errno;
    if (own_netns >= 0) {
        /* Cannot fail as root with our own namespace's fd; a launcher thread left in the
           sandbox's namespace would make every later connection from inside it. */
        if (setns(own_netns, CLONE_NEWNET) != 0) abort();
        close(own_netns);
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close_if_open(&sync_pair[0]);
    close_if_open(&report_pipe[1]);
    close_if_open(&status_pipe[1]);
    close_if_open(&proxy_pair[1]);
    launch->sync_write = sync_pair[1];
    launch->report_read = report_pipe[0];
    launch->status_read = status_pipe[0];
    launch->proxy_read = proxy_pair[0];
    if (pid < 0) return fail_launch(launch, failure, SBX_STAGE_CLONE, clone_errno);
    launch->pid = pid;

    if (config->deny_setgroups && write_proc_file(pid, "setgroups", "deny") != 0) {
        return fail_launch(launch, failure, SBX_STAGE_SETGROUPS_FILE, errno);
    }
    if (write_proc_file(pid, "uid_map", config->uid_map) != 0) {
        return fail_launch(launch, failure, SBX_STAGE_UID_MAP, errno);
    }
    if (write_proc_file(pid, "gid_map", config->gid_map) != 0) {
        return fail_launch(launch, failure, SBX_STAGE_GID_MAP, errno);
    }
    /* First release: the init builds its root while the parent prepares cgroups. */
    if (sbx_send_fds(launch->sync_write, '1', NULL, 0) != 0) return fail_release(launch, failure, errno);
    return 0;
}

int sbx_spawn_finish(struct sbx_launch *launch, const int *cgroup_attach_fds, size_t count,
                     int self_move, struct sbx_process *process, struct sbx_failure *failure) {
    process->pid = -1;
    process->status_fd = -1;
    process->proxy_fd = -1;
    process->tty_fd = -1;
    failure->stage = SBX_STAGE_NONE;
    failure->err = 0;
    failure->index = -1;
    /* The payload forks only after the second release, inside every group. Moved by the parent
       (v2), the init waits for an RCU grace period whenever the kernel's migration lock was idle;
       moving itself (v1 `tasks`), it takes no such lock. */
    if (!self_move && attach_cgroups(launch->pid, cgroup_attach_fds, count) != 0) {
        return fail_launch(launch, failure, SBX_STAGE_CGROUP_ATTACH, errno);
    }
    if (sbx_send_fds(launch->sync_write, '2', self_move ? cgroup_attach_fds : NULL, self_move ? count : 0) != 0) {
        return fail_release(launch, failure, errno);
    }
    close_if_open(&launch->sync_write);

    /* EOF on the report pipe means the payload's execve succeeded (it is CLOEXEC) and
       init closed its copy; a record means a stage failed. */
    struct sbx_report report;
    ssize_t got;
    do {
        got = read(launch->report_read, &report, sizeof report);
    } while (got < 0 && errno == EINTR);
    int read_errno = errno;
    close_if_open(&launch->report_read);
    if (got != 0) {
        int stage = SBX_STAGE_REPORT, err = got < 0 ? read_errno : EPROTO;
        if (got == (ssize_t)sizeof report) {
            stage = report.stage;
            err = report.err;
            failure->index = report.index;
        }
        return fail_launch(launch, failure, stage, err);
    }

    /* In the order the init sent them: the proxy listener, then the pty master. */
    if (launch->proxy) {
        process->proxy_fd = receive_fd(launch->proxy_read);
        if (process->proxy_fd < 0) return fail_launch(launch, failure, SBX_STAGE_PROXY_SOCKET, errno);
    }
    if (launch->tty) {
        process->tty_fd = receive_fd(launch->proxy_read);
        if (process->tty_fd < 0) {
            int err = errno;
            close_if_open(&process->proxy_fd);
            return fail_launch(launch, failure, SBX_STAGE_PTY, err);
        }
    }
    close_if_open(&launch->proxy_read);
    process->pid = launch->pid;
    process->status_fd = launch->status_read;
    launch->pid = -1;
    launch->status_read = -1;
    return 0;
}

int sbx_spawn(const struct sbx_config *config, struct sbx_process *process,
              struct sbx_failure *failure) {
    struct sbx_launch launch;
    if (sbx_spawn_begin(config, &launch, failure) != 0) return -1;
    return sbx_spawn_finish(&launch, config->cgroup_attach_fds, config->cgroup_attach_count, config->cgroup_self_move, process,
                            failure);
}
