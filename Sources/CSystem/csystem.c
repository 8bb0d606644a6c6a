/* The _GNU_SOURCE calls of csystem.h (the target is compiled with _GNU_SOURCE defined). */
#include "csystem.h"

#include <dirent.h>
#include <errno.h>
#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <link.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <unistd.h>

int csys_pipe2(int fds[2], int flags) {
    return pipe2(fds, flags);
}

int csys_memfd(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int csys_memfd_seal(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE);
}

int csys_accept4(int fd, int flags) {
    return accept4(fd, NULL, NULL, flags);
}

ssize_t csys_write_nowait(int fd, const void *buffer, size_t count) {
    struct iovec vector = {.iov_base = (void *)buffer, .iov_len = count};
    return pwritev2(fd, &vector, 1, -1, RWF_NOWAIT);
}

ssize_t csys_getdents64(int fd, void *buffer, size_t size) {
    return getdents64(fd, buffer, size);
}

ssize_t csys_fgetxattr(int fd, const char *name, void *value, size_t size) {
    return fgetxattr(fd, name, value, size);
}

/* openat2's resolution, one component at a time, where the syscall answers ENOSYS (the
   sandbox's seccomp filter refuses it: its mode lies in a struct the filter cannot read).
   Every step is openat(O_NOFOLLOW) on the previous step's descriptor, so no symbolic link is
   followed anywhere, ".." and absolute names are refused (EXDEV, as RESOLVE_BENEATH does), and a
   step onto another mount is refused (EXDEV, as RESOLVE_NO_XDEV does). Mounts are told apart by
   their ids (statx), not st_dev: overlayfs shows a file's lower device. */
static int mount_id(int fd, uint64_t *id) {
    struct statx info;
    if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &info) != 0) return -1;
    if (!(info.stx_mask & STATX_MNT_ID)) {
        errno = ENOSYS;
        return -1;
    }
    *id = info.stx_mnt_id;
    return 0;
}

int csys_openat_beneath_by_steps(int dirfd, const char *name, int flags) {
    if (name[0] == '/') {
        errno = EXDEV;
        return -1;
    }
    uint64_t start;
    if (mount_id(dirfd, &start) != 0) return -1;
    char buffer[4096];
    size_t length = strlen(name);
    if (length >= sizeof buffer) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buffer, name, length + 1);
    int current = dirfd;
    char *cursor = buffer;
    for (;;) {
        while (*cursor == '/') cursor++;
        char *slash = strchr(cursor, '/');
        char *rest = slash;
        if (slash != NULL) {
            *slash = '\0';
            rest = slash + 1;
            while (*rest == '/') rest++;
        }
        int last = slash == NULL || *rest == '\0';
        const char *component = *cursor == '\0' ? "." : cursor;
        if (strcmp(component, "..") == 0) {
            if (current != dirfd) close(current);
            errno = EXDEV;
            return -1;
        }
        int next = last ? openat(current, component, flags | O_CLOEXEC | O_NOFOLLOW, 0)
                        : openat(current, component, O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        int saved = errno;
        /* O_DIRECTORY | O_NOFOLLOW on a link says ENOTDIR; openat2 says ELOOP, and callers tell
           a link by it. */
        struct stat entry;
        if (next < 0 && saved == ENOTDIR && fstatat(current, component, &entry, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISLNK(entry.st_mode)) {
            saved = ELOOP;
        }
        if (current != dirfd) close(current);
        if (next < 0) {
            errno = saved;
            return -1;
        }
        /* Only the last step's mount is compared: a downward path with no ".." and no link that
           leaves a mount never comes back to it (a mount has one place), so any crossing on
           the way shows at the end. */
        uint64_t id;
        if (last && (mount_id(next, &id) != 0 || id != start)) {
            close(next);
            errno = EXDEV;
            return -1;
        }
        if (last) return next;
        current = next;
        cursor = rest;
    }
}

/* Set once openat2 has answered ENOSYS: the filter that refused it stays for the process's life. */
static int openat2_refused;

int csys_openat_beneath(int dirfd, const char *name, int flags) {
    if (__atomic_load_n(&openat2_refused, __ATOMIC_RELAXED)) return csys_openat_beneath_by_steps(dirfd, name, flags);
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (uint64_t)(flags | O_CLOEXEC | O_NOFOLLOW);
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;
    long fd;
    /* EAGAIN: a concurrent rename or mount raced the lookup; the kernel asks to try again. */
    do {
        fd = syscall(SYS_openat2, dirfd, name, &how, sizeof how);
    } while (fd < 0 && errno == EAGAIN);
    if (fd < 0 && errno == ENOSYS) {
        __atomic_store_n(&openat2_refused, 1, __ATOMIC_RELAXED);
        return csys_openat_beneath_by_steps(dirfd, name, flags);
    }
    return (int)fd;
}

int csys_renameat2(int olddirfd, const char *oldname, int newdirfd, const char *newname, int exchange) {
    return renameat2(olddirfd, oldname, newdirfd, newname, exchange ? RENAME_EXCHANGE : RENAME_NOREPLACE);
}

static int ofd_lock(int fd, off_t offset, short type) {
    struct flock lock;
    memset(&lock, 0, sizeof lock);
    lock.l_type = type;
    lock.l_whence = SEEK_SET;
    lock.l_start = offset;
    lock.l_len = 1;
    return fcntl(fd, F_OFD_SETLK, &lock);
}

int csys_ofd_trylock(int fd, off_t offset) {
    return ofd_lock(fd, offset, F_WRLCK);
}

int csys_ofd_unlock(int fd, off_t offset) {
    return ofd_lock(fd, offset, F_UNLCK);
}

/* struct file_handle needs int alignment; Swift's byte arrays do not promise it. */
union handle_buffer {
    struct file_handle handle;
    unsigned char bytes[CSYS_FILE_HANDLE_SIZE];
};

_Static_assert(sizeof(struct file_handle) + MAX_HANDLE_SZ <= CSYS_FILE_HANDLE_SIZE, "handle buffer too small");

int csys_file_handle(int fd, void *handle) {
    union handle_buffer buffer;
    memset(&buffer, 0, sizeof buffer);
    buffer.handle.handle_bytes = MAX_HANDLE_SZ;
    int mount_id;
    if (name_to_handle_at(fd, "", &buffer.handle, &mount_id, AT_EMPTY_PATH) != 0) return -1;
    size_t length = sizeof buffer.handle + buffer.handle.handle_bytes;
    memcpy(handle, buffer.bytes, length);
    return (int)length;
}

int csys_open_by_handle(int mount_fd, const void *handle, size_t length, int flags) {
    union handle_buffer buffer;
    if (length < sizeof buffer.handle || length > sizeof buffer) {
        errno = EINVAL;
        return -1;
    }
    memcpy(buffer.bytes, handle, length);
    if (sizeof buffer.handle + buffer.handle.handle_bytes != length) {
        errno = EINVAL;
        return -1;
    }
    return open_by_handle_at(mount_fd, &buffer.handle, flags | O_CLOEXEC);
}

struct build_id_search {
    unsigned char *out;
    size_t capacity;
    int length;
};

/* Called for the main program first; stops there (returns 1) whatever it finds. */
static int find_build_id(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    struct build_id_search *search = context;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type != PT_NOTE) continue;
        const unsigned char *notes = (const unsigned char *)(info->dlpi_addr + header->p_vaddr);
        size_t offset = 0, end = header->p_memsz;
        while (offset + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *note = (const ElfW(Nhdr) *)(notes + offset);
            size_t name = offset + sizeof *note;
            size_t descriptor = name + ((note->n_namesz + 3u) & ~3u);
            if (descriptor + note->n_descsz > end) break;
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && memcmp(notes + name, "GNU", 4) == 0) {
                if (note->n_descsz > search->capacity) return 1;
                memcpy(search->out, notes + descriptor, note->n_descsz);
                search->length = (int)note->n_descsz;
                return 1;
            }
            offset = descriptor + ((note->n_descsz + 3u) & ~3u);
        }
    }
    return 1;
}

int csys_build_id(unsigned char *out, size_t capacity) {
    struct build_id_search search = {out, capacity, -1};
    dl_iterate_phdr(find_build_id, &search);
    return search.length;
}

static int unix_address(const char *path, struct sockaddr_un *address) {
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    size_t length = strlen(path);
    if (length == 0 || length >= sizeof address->sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(address->sun_path, path, length);
    return 0;
}

int csys_unix_listen(const char *path) {
    struct sockaddr_un address;
    if (unix_address(path, &address) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, 64) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int csys_unix_connect(const char *path) {
    struct sockaddr_un address;
    if (unix_address(path, &address) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int rc;
    do {
        rc = connect(fd, (struct sockaddr *)&address, sizeof address);
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

ssize_t csys_send_with_fd(int socket, const void *buffer, size_t count, int fd) {
    struct iovec vector = {.iov_base = (void *)buffer, .iov_len = count};
    union {
        char bytes[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &vector;
    message.msg_iovlen = 1;
    if (fd >= 0) {
        memset(&control, 0, sizeof control);
        message.msg_control = control.bytes;
        message.msg_controllen = sizeof control.bytes;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(header), &fd, sizeof fd);
    }
    return sendmsg(socket, &message, MSG_NOSIGNAL);
}

ssize_t csys_recv_with_fd(int socket, void *buffer, size_t count, int *fd) {
    *fd = -1;
    struct iovec vector = {.iov_base = buffer, .iov_len = count};
    union {
        char bytes[CMSG_SPACE(4 * sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &vector;
    message.msg_iovlen = 1;
    message.msg_control = control.bytes;
    message.msg_controllen = sizeof control.bytes;
    ssize_t got = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    if (got < 0) return -1;
    int received = 0;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t n = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < n; i++) {
            int passed;
            memcpy(&passed, CMSG_DATA(header) + i * sizeof(int), sizeof passed);
            if (received++ == 0) {
                *fd = passed;
            } else {
                close(passed);
            }
        }
    }
    if (received > 1 || (message.msg_flags & MSG_CTRUNC)) {
        if (*fd >= 0) close(*fd);
        *fd = -1;
        errno = EPROTO;
        return -1;
    }
    return got;
}

/* jemalloc's options (sentinel-cli links Debian's libjemalloc2; elsewhere nothing reads this).
   One arena per CPU, taken by the CPU a thread runs on, instead of jemalloc's default of four
   per CPU taken by thread: an analysis starts a thread per core and Dispatch starts more, and
   each fresh arena faulted in pages of its own. 3-5 % less CPU at small roots, 1 % at docmost
   (BENCHMARKS.md, round 11). MALLOC_CONF in the environment still applies after it. */
__attribute__((used, visibility("default"))) const char *malloc_conf = "percpu_arena:percpu";

/* jemalloc's messages, written to standard error as jemalloc writes them, but for one: where the
   CPUs a process may run on are not all the machine's (taskset, a container's cpuset), jemalloc
   cannot map CPUs to arenas, falls back to its default arenas (what Sentinel ran with before the
   option above) and says so on every start. That notice is about this file's choice, not the
   user's input, and would be a line on the standard error of every command. */
static void csys_malloc_message(void *opaque, const char *text) {
    (void)opaque;
    static const char fallback[] = "<jemalloc>: Number of CPUs detected is not deterministic";
    if (strncmp(text, fallback, sizeof fallback - 1) == 0) return;
    size_t left = strlen(text);
    while (left > 0) {
        ssize_t written = write(2, text, left);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        text += written;
        left -= (size_t)written;
    }
}
__attribute__((used, visibility("default"))) void (*malloc_message)(void *, const char *) = csys_malloc_message;

/* One counter per signal number (1..64), touched only by atomic operations. */
static atomic_long counted_signals[65];

static void count_signal(int signo) {
    if (signo > 0 && signo < 65) atomic_fetch_add_explicit(&counted_signals[signo], 1, memory_order_relaxed);
}

int csys_count_signal(int signo) {
    if (signo <= 0 || signo >= 65) {
        errno = EINVAL;
        return -1;
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = count_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(signo, &action, NULL);
}

long csys_take_counted_signal(int signo) {
    if (signo <= 0 || signo >= 65) return 0;
    return atomic_exchange_explicit(&counted_signals[signo], 0, memory_order_relaxed);
}

long csys_counted_signal(int signo) {
    if (signo <= 0 || signo >= 65) return 0;
    return atomic_load_explicit(&counted_signals[signo], memory_order_relaxed);
}

int csys_counting_signal(int signo) {
    struct sigaction current;
    if (sigaction(signo, NULL, &current) != 0) return 0;
    return current.sa_handler == count_signal;
}
