/* Mount-table attempts: new mounts, remounts, the new mount API, pivot_root. */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A scratch mount point: /tmp/x when it can be made, else /tmp itself. */
static const char *mount_point(void) {
    if (mkdir("/tmp/.sentinel-mnt", 0700) == 0 || errno == EEXIST) return "/tmp/.sentinel-mnt";
    return "/tmp";
}

static int try_mount(const char *verb, const char *source, const char *type, const char *data) {
    const char *target = mount_point();
    if (mount(source, target, type, MS_NOSUID | MS_NODEV, data) != 0) {
        int err = errno;
        rmdir("/tmp/.sentinel-mnt");
        return denied(verb, err);
    }
    umount2(target, MNT_DETACH);
    rmdir("/tmp/.sentinel-mnt");
    return escaped(verb, "mounted=%s type=%s", target, type);
}

int v_mount(int argc, char **argv) {
    (void)argc;
    return try_mount(argv[0], "none", "tmpfs", "size=1m");
}

int v_mount_proc(int argc, char **argv) {
    (void)argc;
    return try_mount(argv[0], "proc", "proc", NULL);
}

int v_mount_cgroup(int argc, char **argv) {
    (void)argc;
    /* The release_agent escape starts with a fresh cgroup v1 hierarchy. */
    return try_mount(argv[0], "cgroup", "cgroup", "rdma");
}

int v_remount_rw(int argc, char **argv) {
    struct attempts a;
    attempts_init(&a);
    const char *targets[] = {argc > 1 ? argv[1] : "/usr", "/"};
    for (size_t i = 0; i < 2; i++) {
        if (mount(NULL, targets[i], NULL, MS_REMOUNT | MS_BIND, NULL) == 0)
            return escaped(argv[0], "remounted-rw=%s", targets[i]);
        attempts_fail(&a, targets[i], errno);
        if (mount(NULL, targets[i], NULL, MS_REMOUNT, NULL) == 0)
            return escaped(argv[0], "remounted-rw=%s", targets[i]);
        attempts_fail(&a, targets[i], errno);
    }
    return attempts_verdict(argv[0], &a);
}

int v_umount(int argc, char **argv) {
    const char *target = argc > 1 ? argv[1] : "/proc";
    if (umount2(target, MNT_DETACH) != 0) return denied(argv[0], errno);
    return escaped(argv[0], "unmounted=%s", target);
}

int v_pivot_root(int argc, char **argv) {
    (void)argc;
    if (syscall(SYS_pivot_root, "/tmp", "/tmp") != 0) return gated_result(argv[0], -1, errno);
    return escaped(argv[0], "pivoted=/tmp");
}

int v_fsopen(int argc, char **argv) {
    (void)argc;
    long fd = syscall(SYS_fsopen, "tmpfs", 0);
    if (fd < 0) return denied(argv[0], errno);
    close((int)fd);
    return escaped(argv[0], "fsopen=tmpfs");
}

int v_open_tree(int argc, char **argv) {
    (void)argc;
    /* OPEN_TREE_CLONE makes a detached copy of a mount: the new mount API's way in. */
    long fd = syscall(SYS_open_tree, AT_FDCWD, "/", 1 /* OPEN_TREE_CLONE */ | O_CLOEXEC);
    if (fd < 0) return denied(argv[0], errno);
    close((int)fd);
    return escaped(argv[0], "cloned-tree=/");
}
