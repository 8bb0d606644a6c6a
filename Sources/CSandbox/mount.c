#include "internal.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FAIL(stage_value, index_value) \
    do {                                \
        *stage = (stage_value);         \
        *index = (index_value);         \
        return -1;                      \
    } while (0)

/* Remounting a bind inside a user namespace must keep the flags the kernel locked on the
   original mount (nosuid, nodev, noexec, atime): dropping one is EPERM. */
static unsigned long locked_flags(const char *path) {
    struct statfs info;
    if (statfs(path, &info) != 0) {
        return 0;
    }
    unsigned long flags = 0;
    if (info.f_flags & ST_NOSUID) flags |= MS_NOSUID;
    if (info.f_flags & ST_NODEV) flags |= MS_NODEV;
    if (info.f_flags & ST_NOEXEC) flags |= MS_NOEXEC;
    if (info.f_flags & ST_NOATIME) flags |= MS_NOATIME;
    if (info.f_flags & ST_NODIRATIME) flags |= MS_NODIRATIME;
    if (info.f_flags & ST_RELATIME) flags |= MS_RELATIME;
    if (info.f_flags & ST_RDONLY) flags |= MS_RDONLY;
    return flags;
}

static int run_op(const struct sbx_fs_op *op, int *stage) {
    switch (op->kind) {
    case SBX_FS_MKDIR:
        *stage = SBX_STAGE_MKDIR;
        if (mkdir(op->path, (mode_t)op->mode) != 0 && errno != EEXIST) return -1;
        return 0;
    case SBX_FS_MKFILE: {
        *stage = SBX_STAGE_MKFILE;
        int fd = open(op->path, O_CREAT | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, (mode_t)op->mode);
        if (fd < 0) return errno == EEXIST ? 0 : -1;
        if (fchmod(fd, (mode_t)op->mode) != 0) {
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        close(fd);
        return 0;
    }
    case SBX_FS_SYMLINK:
        *stage = SBX_STAGE_SYMLINK;
        if (symlink(op->source, op->path) != 0 && errno != EEXIST) return -1;
        return 0;
    case SBX_FS_MOUNT:
        *stage = SBX_STAGE_MOUNT;
        return mount(op->source, op->path, op->fstype, op->flags, op->data);
    case SBX_FS_REMOUNT_BIND:
        *stage = SBX_STAGE_REMOUNT;
        /* A recursive bind is made read-only as a whole tree; MS_RDONLY is implied. */
        if (op->flags & MS_REC) return sbx_set_read_only_tree(op->path, (op->flags & MS_NOEXEC) != 0);
        return mount(NULL, op->path, NULL,
                     MS_REMOUNT | MS_BIND | op->flags | locked_flags(op->path), NULL);
    case SBX_FS_ATTACH_TREE:
        *stage = SBX_STAGE_MOVE_MOUNT;
        return sbx_attach_tree(op);
    case SBX_FS_CHOWN:
        *stage = SBX_STAGE_CHOWN;
        if (lchown(op->path, op->uid, op->gid) != 0) return -1;
        return chmod(op->path, (mode_t)op->mode);
    case SBX_FS_BIND_VERIFIED:
        *stage = SBX_STAGE_WORKSPACE_REOPEN;
        return sbx_bind_verified(op);
    default:
        *stage = SBX_STAGE_MOUNT;
        errno = EINVAL;
        return -1;
    }
}

int sbx_build_root(const struct sbx_config *config, int *stage, int *index) {
    *index = -1;
    /* Nothing we mount may propagate back to the host. */
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
        FAIL(SBX_STAGE_MOUNT_PRIVATE, -1);
    }
    if (mount("tmpfs", config->new_root, "tmpfs", MS_NOSUID | MS_NODEV,
              config->new_root_data) != 0) {
        FAIL(SBX_STAGE_MOUNT, -1);
    }
    for (size_t i = 0; i < config->fs_op_count; i++) {
        const struct sbx_fs_op *op = &config->fs_ops[i];
        int op_stage = SBX_STAGE_MOUNT;
        if (run_op(op, &op_stage) != 0) {
            if (op->optional && errno == ENOENT) continue;
            FAIL(op_stage, (int)i);
        }
    }
    /* pivot_root(".", ".") stacks the old root on top of the new one; detaching it
       leaves only the new tree, with no path back to the host's. */
    if (chdir(config->new_root) != 0) FAIL(SBX_STAGE_CHDIR, -1);
    if (syscall(SYS_pivot_root, ".", ".") != 0) FAIL(SBX_STAGE_PIVOT_ROOT, -1);
    if (umount2(".", MNT_DETACH) != 0) FAIL(SBX_STAGE_UMOUNT_OLD_ROOT, -1);
    if (chdir("/") != 0) FAIL(SBX_STAGE_CHDIR, -1);
    if (config->read_only_root &&
        mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0) {
        FAIL(SBX_STAGE_REMOUNT_ROOT, -1);
    }
    if (config->workdir != NULL && chdir(config->workdir) != 0) FAIL(SBX_STAGE_CHDIR, -1);
    return 0;
}
