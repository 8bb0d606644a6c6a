/*
 * The workspace is the one host tree a payload may write, so it is mounted from the exact
 * directory the parent resolved, never from a path string the payload could have redirected.
 *
 * Parent side (root): sbx_workspace_tree clones that directory's mount into a detached tree,
 * optionally idmapped so that the unprivileged payload can write a tree owned by someone else
 * (root) while its own credentials stay unprivileged everywhere else.
 * Init side: SBX_FS_ATTACH_TREE moves the detached tree into the new root; without privilege
 * (no tree), SBX_FS_BIND_VERIFIED reopens the path following no symlink and binds it only if it
 * is still the directory the parent checked.
 *
 * <linux/mount.h> and glibc's <sys/mount.h> conflict, so mounts here are raw syscalls.
 */
#include "internal.h"

#include <fcntl.h>
#include <linux/mount.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int open_nofollow(const char *path) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
    how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd;
    do {
        fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
    } while (fd < 0 && errno == EAGAIN);
    return (int)fd;
}

int sbx_open_directory_nofollow(const char *path) {
    return open_nofollow(path);
}

static int write_map(pid_t pid, const char *name, unsigned long inside, unsigned long outside) {
    char path[64];
    char text[64];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, name);
    int length = snprintf(text, sizeof text, "%lu %lu 1\n", inside, outside);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t written = write(fd, text, (size_t)length);
    int saved = errno;
    close(fd);
    if (written != length) {
        errno = written < 0 ? saved : EIO;
        return -1;
    }
    return 0;
}

/* A user namespace whose only mapping is disk -> shown, held by a short-lived child until the
   parent has opened it; returns an fd to the namespace or -1. The child waits for SIGKILL,
   not for EOF on a pipe: a helper cloned at the same moment by another thread would inherit
   the pipe's write end and the two helpers would wait for each other forever. */
/* The helper only holds a user namespace open until the parent has read it. It shares the
   launcher's memory (CLONE_VM) on a stack of its own, so making it copies none of the launcher's
   page tables: a fork of heal's process, hundreds of megabytes, cost milliseconds per candidate.
   Raw syscalls only, no memory touched but its own stack and the parent's pid, which the parent
   keeps alive until it has reaped the helper. Every signal stays blocked; SIGKILL cannot be. */
#define HELPER_STACK_SIZE (64 * 1024)

static int hold_namespace(void *parent_pid) {
    pid_t parent = *(const pid_t *)parent_pid;
    if (syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0 || syscall(SYS_getppid) != parent) {
        syscall(SYS_exit, 1);
    }
    for (;;) syscall(SYS_pause);
    return 0;
}

static int idmap_namespace(uid_t disk_uid, uid_t shown_uid, gid_t disk_gid, gid_t shown_gid) {
    void *stack = mmap(NULL, HELPER_STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return -1;
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t parent = getpid();
    pid_t pid = clone(hold_namespace, (char *)stack + HELPER_STACK_SIZE, CLONE_VM | CLONE_NEWUSER | SIGCHLD, &parent);
    int saved = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (pid < 0) {
        munmap(stack, HELPER_STACK_SIZE);
        errno = saved;
        return -1;
    }
    int ns = -1;
    if (write_map(pid, "uid_map", disk_uid, shown_uid) == 0 &&
        write_map(pid, "gid_map", disk_gid, shown_gid) == 0) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/ns/user", (int)pid);
        ns = open(path, O_RDONLY | O_CLOEXEC);
    }
    saved = errno;
    kill(pid, SIGKILL);
    int status;
    while (waitpid(pid, &status, __WALL) < 0 && errno == EINTR) {
    }
    /* Reaped: nothing runs on the stack any more. */
    munmap(stack, HELPER_STACK_SIZE);
    errno = saved;
    return ns;
}

int sbx_workspace_tree(int dirfd, int read_only, int idmap, uid_t disk_uid, uid_t shown_uid,
                       gid_t disk_gid, gid_t shown_gid, int *tree_fd, struct sbx_failure *failure) {
    failure->index = -1;
    *tree_fd = -1;
    int userns = -1;
    if (idmap) {
        userns = idmap_namespace(disk_uid, shown_uid, disk_gid, shown_gid);
        if (userns < 0) {
            failure->stage = SBX_STAGE_IDMAP_USERNS;
            failure->err = errno;
            return -1;
        }
    }
    int tree = (int)syscall(SYS_open_tree, dirfd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
    if (tree < 0) {
        failure->stage = SBX_STAGE_OPEN_TREE;
        failure->err = errno;
        if (userns >= 0) close(userns);
        return -1;
    }
    struct mount_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.attr_set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
    if (read_only) attr.attr_set |= MOUNT_ATTR_RDONLY;
    attr.propagation = MS_PRIVATE;
    if (userns >= 0) {
        attr.attr_set |= MOUNT_ATTR_IDMAP;
        attr.userns_fd = (uint64_t)userns;
    }
    long set = syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH, &attr, sizeof attr);
    int saved = errno;
    if (userns >= 0) close(userns);
    if (set != 0) {
        close(tree);
        failure->stage = SBX_STAGE_MOUNT_SETATTR;
        failure->err = saved;
        return -1;
    }
    *tree_fd = tree;
    return 0;
}

int sbx_attach_tree(const struct sbx_fs_op *op) {
    return (int)syscall(SYS_move_mount, op->fd, "", AT_FDCWD, op->path, MOVE_MOUNT_F_EMPTY_PATH);
}

/* "/proc/self/fd/N" without stdio: the init must not take locks. */
static void fd_path(int fd, char out[32]) {
    static const char prefix[] = "/proc/self/fd/";
    char digits[12];
    int count = 0;
    unsigned value = (unsigned)fd;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    size_t at = sizeof prefix - 1;
    memcpy(out, prefix, at);
    while (count > 0) out[at++] = digits[--count];
    out[at] = '\0';
}

int sbx_bind_verified(const struct sbx_fs_op *op) {
    int fd = open_nofollow(op->source);
    if (fd < 0) return -1;
    struct stat info;
    if (fstat(fd, &info) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    if ((uint64_t)info.st_dev != op->dev || (uint64_t)info.st_ino != op->ino) {
        close(fd);
        errno = ESTALE;
        return -1;
    }
    char source[32];
    fd_path(fd, source);
    long mounted = syscall(SYS_mount, source, op->path, NULL, MS_BIND, NULL);
    int saved = errno;
    close(fd);
    errno = saved;
    return (int)mounted;
}

static int upper_config(int fs, const char *key, const char *value) {
    return (int)syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, key, value, 0);
}

/*
 * Why the parent makes this tmpfs rather than the init: the sandbox's mount namespace goes away
 * when its init exits, and with it anything mounted there. A superblock made here with
 * fsopen/fsmount is referenced by the parent's own detached mount, which no process in the
 * sandbox can reach or mount over, and stays readable after the run for the commit. overlayfs
 * mounted by the init (in its user namespace, with `userxattr`) accepts it as the upper layer:
 * it writes there with the init's credentials, whiteouts are 0:0 devices (exempt from
 * CAP_MKNOD), and opaque markers are user.overlay.* xattrs (tmpfs supports them since 6.6).
 */
int sbx_workspace_upper(uint64_t size, uint64_t nr_inodes, int *keep_fd, int *tree_fd,
                        struct sbx_failure *failure) {
    failure->index = -1;
    *keep_fd = -1;
    *tree_fd = -1;
    int fs = (int)syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
    if (fs < 0) {
        failure->stage = SBX_STAGE_UPPER_FSOPEN;
        failure->err = errno;
        return -1;
    }
    char size_text[24], inode_text[24];
    snprintf(size_text, sizeof size_text, "%llu", (unsigned long long)size);
    snprintf(inode_text, sizeof inode_text, "%llu", (unsigned long long)nr_inodes);
    if (upper_config(fs, "size", size_text) != 0 || upper_config(fs, "nr_inodes", inode_text) != 0 ||
        upper_config(fs, "mode", "0700") != 0 ||
        syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) != 0) {
        failure->stage = SBX_STAGE_UPPER_FSCONFIG;
        failure->err = errno;
        close(fs);
        return -1;
    }
    int mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
    int saved = errno;
    close(fs);
    if (mnt < 0) {
        failure->stage = SBX_STAGE_UPPER_FSMOUNT;
        failure->err = saved;
        return -1;
    }
    int tree = (int)syscall(SYS_open_tree, mnt, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
    if (tree < 0) {
        failure->stage = SBX_STAGE_OPEN_TREE;
        failure->err = errno;
        close(mnt);
        return -1;
    }
    *keep_fd = mnt;
    *tree_fd = tree;
    return 0;
}


int sbx_set_read_only_tree(const char *path, int noexec) {
    struct mount_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
    if (noexec) attr.attr_set |= MOUNT_ATTR_NOEXEC;
    return (int)syscall(SYS_mount_setattr, AT_FDCWD, path, AT_RECURSIVE, &attr, sizeof attr);
}
