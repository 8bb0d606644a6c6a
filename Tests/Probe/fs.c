/* Filesystem attempts: write where the sandbox is read-only, read what it hides, link out of it. */
#include "probe.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Creates and removes one file; 0 on success, else errno. */
static int create_in(const char *dir, char *path, size_t len) {
    snprintf(path, len, "%s/.sentinel-probe-%ld", strcmp(dir, "/") == 0 ? "" : dir, (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return errno;
    int err = write(fd, "x", 1) == 1 ? 0 : errno;
    close(fd);
    unlink(path);
    return err;
}

int v_write_outside(int argc, char **argv) {
    (void)argc;
    static const char *const dirs[] = {"/usr", "/etc", "/", "/var", "/bin", "/lib"};
    struct attempts a;
    attempts_init(&a);
    char path[256];
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        int err = create_in(dirs[i], path, sizeof path);
        if (err == 0) return escaped(argv[0], "created=%s", path);
        attempts_fail(&a, path, err);
    }
    return attempts_verdict(argv[0], &a);
}

int v_write_path(int argc, char **argv) {
    (void)argc;
    char path[4096];
    int err = create_in(argv[1], path, sizeof path);
    if (err == 0) return escaped(argv[0], "created=%s", path);
    return denied(argv[0], err);
}

int v_write_workspace(int argc, char **argv) {
    (void)argc;
    char path[64];
    int err = create_in(".", path, sizeof path);
    if (err == 0) return escaped(argv[0], "created=%s", path);
    return denied(argv[0], err);
}

static int read_some(const char *verb, const char *path, int flags) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | flags);
    if (fd < 0) return denied(verb, errno);
    char buf[64];
    ssize_t n = read(fd, buf, sizeof buf);
    int err = errno;
    close(fd);
    if (n < 0) return denied(verb, err);
    return escaped(verb, "path=%s bytes=%zd", path, n);
}

int v_read_file(int argc, char **argv) {
    (void)argc;
    return read_some(argv[0], argv[1], 0);
}

int v_follow_symlink(int argc, char **argv) {
    (void)argc;
    struct stat st;
    if (lstat(argv[1], &st) != 0) return denied(argv[0], errno);
    if (!S_ISLNK(st.st_mode)) return usage(argv[0], "PATH is not a symbolic link");
    return read_some(argv[0], argv[1], 0);
}

int v_hardlink(int argc, char **argv) {
    (void)argc;
    if (link(argv[1], argv[2]) != 0) return denied(argv[0], errno);
    unlink(argv[2]);
    return escaped(argv[0], "linked=%s", argv[2]);
}

int v_rename(int argc, char **argv) {
    (void)argc;
    if (rename(argv[1], argv[2]) != 0) return denied(argv[0], errno);
    if (rename(argv[2], argv[1]) != 0) perror("sentinel-probe: rename back");
    return escaped(argv[0], "renamed=%s", argv[2]);
}

int v_mknod(int argc, char **argv) {
    (void)argc;
    char path[64];
    snprintf(path, sizeof path, "/tmp/.sentinel-null-%ld", (long)getpid());
    if (mknod(path, S_IFCHR | 0666, makedev(1, 3)) != 0) return denied(argv[0], errno);
    unlink(path);
    return escaped(argv[0], "created=%s dev=1:3", path);
}

int v_chmod_setuid(int argc, char **argv) {
    /* With NAME the file is kept, so the host side can check who owns a setuid file it sees. */
    char path[256];
    if (argc > 1) snprintf(path, sizeof path, "%s", argv[1]);
    else snprintf(path, sizeof path, "./.sentinel-suid-%ld", (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
    if (fd < 0) return denied(argv[0], errno);
    close(fd);
    int rc = chmod(path, 04755);
    int err = errno;
    struct stat st;
    int kept = rc == 0 && stat(path, &st) == 0 && (st.st_mode & S_ISUID) != 0;
    unsigned owner = kept ? (unsigned)st.st_uid : 0;
    if (argc <= 1) unlink(path);
    if (rc != 0) return denied(argv[0], err);
    if (!kept) return denied(argv[0], EPERM);
    /* Owners may set the bit on their own files; it matters when the owner is root. */
    if (owner != 0) return info(argv[0], "setuid-bit=1 owner=%u path=%s", owner, path);
    return escaped(argv[0], "setuid-root-file=%s", path);
}

/* Creates a file with a setuid mode through each raw creating call (open and openat with O_CREAT,
 * openat with O_TMPFILE), each judged alone: escaped when any call creates a file (the filter
 * refuses the mode itself, whatever the file would keep) or fails otherwise than EPERM, except an
 * O_TMPFILE the filesystem lacks (EOPNOTSUPP, EISDIR), which says so; DENIED EPERM when every
 * call was refused. */
int v_create_setuid(int argc, char **argv) {
    (void)argc;
    static const char *const calls[] = {"open-creat", "openat-creat", "openat-tmpfile"};
    char path[64];
    int skipped = 0;
    for (int call = 0; call < 3; call++) {
        snprintf(path, sizeof path, "./.sentinel-create-suid-%ld-%d", (long)getpid(), call);
        long fd;
        if (call == 0) fd = syscall(SYS_open, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 04755);
        else if (call == 1) fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 04755);
        else fd = syscall(SYS_openat, AT_FDCWD, ".", O_WRONLY | O_TMPFILE | O_CLOEXEC, 04755);
        int err = errno;
        if (fd >= 0) {
            struct stat st;
            int kept = fstat((int)fd, &st) == 0 && (st.st_mode & S_ISUID) != 0;
            close((int)fd);
            if (call < 2) unlink(path);
            return escaped(argv[0], "created call=%s setuid-bit=%d", calls[call], kept);
        }
        if (err == EPERM) continue;
        if (call == 2 && (err == EOPNOTSUPP || err == EISDIR)) {
            skipped = 1;
            continue;
        }
        return escaped(argv[0], "gate-passed call=%s errno=%s", calls[call], errno_name(err));
    }
    if (skipped) printf("# create-setuid: openat-tmpfile not supported here\n");
    return denied(argv[0], EPERM);
}

/* Opens a directory through raw open and openat whose unused mode argument holds the setuid and
 * setgid bits, as a two-argument syscall leaves whatever its register held (jemalloc's read of
 * overcommit_memory does): the kernel reads no mode without O_CREAT or O_TMPFILE, so neither
 * is a creation and both must open. INFO when both open, DENIED with the first refusal. */
int v_open_stray_mode(int argc, char **argv) {
    (void)argc;
    long viaOpen = syscall(SYS_open, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, S_ISUID | S_ISGID | 0755);
    if (viaOpen < 0) return denied(argv[0], errno);
    close((int)viaOpen);
    long viaOpenat = syscall(SYS_openat, AT_FDCWD, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, S_ISUID | S_ISGID | 0755);
    if (viaOpenat < 0) return denied(argv[0], errno);
    close((int)viaOpenat);
    return info(argv[0], "opened=2");
}

int v_chroot(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "/tmp";
    if (chroot(dir) != 0) return denied(argv[0], errno);
    return escaped(argv[0], "root=%s", dir);
}

int v_open_by_handle_at(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "/etc/hostname";
    union {
        struct file_handle fh;
        char bytes[sizeof(struct file_handle) + MAX_HANDLE_SZ];
    } handle;
    memset(&handle, 0, sizeof handle);
    handle.fh.handle_bytes = MAX_HANDLE_SZ;
    int mount_id = 0;
    if (name_to_handle_at(AT_FDCWD, path, &handle.fh, &mount_id, 0) != 0) {
        /* No real handle (filesystem without export ops): a junk one still hits the gate. */
        fprintf(stderr, "sentinel-probe: name_to_handle_at %s: %s\n", path, errno_name(errno));
        handle.fh.handle_bytes = 8;
        handle.fh.handle_type = 1;
    }
    int mount_fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (mount_fd < 0) return denied(argv[0], errno);
    int fd = open_by_handle_at(mount_fd, &handle.fh, O_RDONLY | O_CLOEXEC);
    int err = errno;
    close(mount_fd);
    if (fd >= 0) {
        close(fd);
        return escaped(argv[0], "opened-by-handle=%s", path);
    }
    return gated_result(argv[0], -1, err);
}

/* Opens each path; the first success escapes, else the most telling errno. */
static int open_any(const char *verb, const char *const *paths, size_t count, int flags) {
    struct attempts a;
    attempts_init(&a);
    for (size_t i = 0; i < count; i++) {
        int fd = open(paths[i], flags | O_CLOEXEC | O_NONBLOCK);
        if (fd >= 0) {
            close(fd);
            return escaped(verb, "opened=%s", paths[i]);
        }
        attempts_fail(&a, paths[i], errno);
    }
    return attempts_verdict(verb, &a);
}

int v_dev_access(int argc, char **argv) {
    static const char *const paths[] = {
        "/dev/sda", "/dev/vda", "/dev/nvme0n1", "/dev/xvda", "/dev/mem", "/dev/kmem",
        "/dev/port", "/dev/kmsg", "/dev/fuse", "/dev/net/tun", "/dev/vsock", "/dev/kvm",
    };
    if (argc > 1) return open_any(argv[0], (const char *const *)argv + 1, (size_t)argc - 1, O_RDONLY);
    return open_any(argv[0], paths, sizeof paths / sizeof paths[0], O_RDONLY);
}

int v_sys_access(int argc, char **argv) {
    static const char *const paths[] = {"/sys/kernel", "/sys/fs/cgroup", "/sys/class/net",
                                        "/sys/firmware"};
    if (argc > 1) return open_any(argv[0], (const char *const *)argv + 1, (size_t)argc - 1, O_RDONLY);
    return open_any(argv[0], paths, sizeof paths / sizeof paths[0], O_RDONLY | O_DIRECTORY);
}

int v_proc_kcore(int argc, char **argv) {
    (void)argc;
    static const char *const paths[] = {"/proc/kcore"};
    return open_any(argv[0], paths, 1, O_RDONLY);
}

int v_proc_sys_write(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "/proc/sys/kernel/hostname";
    /* Write back the value that is there, so a success changes nothing. */
    char value[256] = "";
    int rfd = open(path, O_RDONLY | O_CLOEXEC);
    if (rfd >= 0) {
        ssize_t n = read(rfd, value, sizeof value - 1);
        value[n > 0 ? n : 0] = '\0';
        close(rfd);
    }
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return denied(argv[0], errno);
    size_t len = strlen(value);
    ssize_t n = write(fd, value, len);
    int err = errno;
    close(fd);
    if (n < 0) return denied(argv[0], err);
    return escaped(argv[0], "wrote=%s bytes=%zd", path, n);
}

int v_sysrq_trigger(int argc, char **argv) {
    (void)argc;
    /* Opening for write is the escape; nothing is written, so a success triggers nothing. */
    int fd = open("/proc/sysrq-trigger", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return denied(argv[0], errno);
    close(fd);
    return escaped(argv[0], "opened=/proc/sysrq-trigger");
}

/* The runc CVE-2019-5736 shape: reach a host binary through /proc/PID/exe and write it. */
int v_proc_exe_write(int argc, char **argv) {
    long pid = getpid() == 1 ? (long)getppid() : 1;
    if (argc > 1 && (parse_int(argv[1], &pid) != 0 || pid < 0)) return usage(argv[0], "PID must be a number");
    char path[64];
    if (pid == 0) snprintf(path, sizeof path, "/proc/self/exe");
    else snprintf(path, sizeof path, "/proc/%ld/exe", pid);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return denied(argv[0], errno);
    close(fd); /* opened for writing is the escape; nothing is written */
    return escaped(argv[0], "writable=%s", path);
}

int v_list_dir(int argc, char **argv) {
    (void)argc;
    DIR *dir = opendir(argv[1]);
    if (dir == NULL) return denied(argv[0], errno);
    char names[2048] = "";
    size_t used = 0;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        count++;
        int wrote = snprintf(names + used, sizeof names - used, "%s%s", used ? "," : "", entry->d_name);
        if (wrote > 0 && (size_t)wrote < sizeof names - used) used += (size_t)wrote;
    }
    closedir(dir);
    return info(argv[0], "count=%d entries=%s", count, used ? names : "none");
}
