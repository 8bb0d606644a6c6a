/*
 * The glibc calls Swift needs that its Glibc module does not export: they are declared only
 * under _GNU_SOURCE (pipe2, accept4, pwritev2) or live in headers the module leaves out
 * (fgetxattr, openat2). Each is a plain function compiled in csystem.c with _GNU_SOURCE:
 * defining it here instead would make this module's view of glibc's structs (fd_set, ...)
 * differ from the Glibc module's, which Swift rejects. Failures return -1 with errno set;
 * retry EINTR with Support's `retryingOnInterrupt`.
 */
#pragma once

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* pipe2(2): a pipe whose ends get `flags` (O_CLOEXEC, O_NONBLOCK) atomically. */
int csys_pipe2(int fds[2], int flags);

/* memfd_create(2) with MFD_CLOEXEC | MFD_ALLOW_SEALING: an anonymous file for data handed to a
 * child as a descriptor (a sandboxed payload's stdin). */
int csys_memfd(const char *name);

/* fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE): the memfd's
 * contents can no longer change, whoever else holds it. */
int csys_memfd_seal(int fd);

/* accept4(fd, NULL, NULL, flags): a connection with SOCK_CLOEXEC / SOCK_NONBLOCK set
 * atomically, so a launcher forking on another thread never inherits it. */
int csys_accept4(int fd, int flags);

/* pwritev2(fd, {buffer, count}, 1, -1, RWF_NOWAIT): a write at the current position that
 * never blocks (EAGAIN instead), without setting O_NONBLOCK on a description others share.
 * Pipes and sockets only; EOPNOTSUPP where the kernel cannot. */
ssize_t csys_write_nowait(int fd, const void *buffer, size_t count);

/* getdents64(2): the directory's next entries as `struct linux_dirent64` records (d_ino u64,
 * d_off s64, d_reclen u16, d_type u8, then the NUL-terminated name); 0 at the end. */
ssize_t csys_getdents64(int fd, void *buffer, size_t size);

/* fgetxattr(2). */
ssize_t csys_fgetxattr(int fd, const char *name, void *value, size_t size);

/*
 * openat2(dirfd, name, flags | O_CLOEXEC | O_NOFOLLOW) resolving beneath dirfd with no
 * symlink, magic link or mount crossing (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
 * RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV): how the workspace commit opens host directories.
 * Returns the fd or -1 with errno.
 */
int csys_openat_beneath(int dirfd, const char *name, int flags);

/* csys_openat_beneath without openat2, one openat(O_NOFOLLOW) per component: what it falls
   back to where openat2 answers ENOSYS (inside the sandbox, whose filter refuses it). The same
   refusals: a link anywhere (ELOOP), "..", an absolute name or another mount (EXDEV). */
int csys_openat_beneath_by_steps(int dirfd, const char *name, int flags);

/* renameat2(2) with RENAME_NOREPLACE (`exchange` 0) or RENAME_EXCHANGE (`exchange` 1): how an
 * output directory is put in place without following or clobbering what sits at the name. */
int csys_renameat2(int olddirfd, const char *oldname, int newdirfd, const char *newname, int exchange);

/*
 * An open-file-description write lock (F_OFD_SETLK) on byte `offset` of `fd`, without waiting:
 * -1 with EAGAIN (or EACCES) when another description holds it. Unlike a classic record lock it
 * belongs to the description, so two descriptors of one process exclude each other, and it goes
 * when the last descriptor of the description closes, however the process ends.
 */
int csys_ofd_trylock(int fd, off_t offset);

/* Releases the lock csys_ofd_trylock took on byte `offset`. */
int csys_ofd_unlock(int fd, off_t offset);

/* The size of the buffers csys_file_handle fills: a struct file_handle of MAX_HANDLE_SZ bytes. */
#define CSYS_FILE_HANDLE_SIZE 136

/*
 * name_to_handle_at(fd, "", ..., AT_EMPTY_PATH): the file handle of the file open at `fd`
 * (a struct file_handle) in `handle`, CSYS_FILE_HANDLE_SIZE bytes. Returns its length, or -1
 * with errno (EOPNOTSUPP: the filesystem gives no handles). How the workspace commit
 * remembers a committed file without holding a descriptor.
 */
int csys_file_handle(int fd, void *handle);

/* open_by_handle_at(mount_fd, handle, flags | O_CLOEXEC): the file a handle from
 * csys_file_handle (`length` bytes) names, on the filesystem of `mount_fd` (an fd opened
 * without O_PATH; needs CAP_DAC_READ_SEARCH). */
int csys_open_by_handle(int mount_fd, const void *handle, size_t length, int flags);

/* The main program's GNU build ID (its NT_GNU_BUILD_ID note, found with dl_iterate_phdr):
   copies up to `capacity` bytes to `out` and returns its length, or -1 when it has none. */
int csys_build_id(unsigned char *out, size_t capacity);

/* Makes `signo`'s handler one that only counts it (an atomic add: nothing else runs in signal
   context), for the moment before a real handler is registered by another thread; 0, or -1
   with errno (EINVAL for a signal past 64). */
int csys_count_signal(int signo);

/* How many `signo` the counting handler has counted since the last call; the count is cleared. */
long csys_take_counted_signal(int signo);

/* How many `signo` the counting handler has counted and nobody has taken yet (the count stays). */
long csys_counted_signal(int signo);

/* 1 when `signo`'s handler is the counting one now, else 0. */
int csys_counting_signal(int signo);

/* A listening AF_UNIX stream socket bound at `path` (CLOEXEC, backlog 64); -1 with errno
   (ENAMETOOLONG for a path longer than sun_path). */
int csys_unix_listen(const char *path);

/* A CLOEXEC AF_UNIX stream socket connected to `path`; -1 with errno. */
int csys_unix_connect(const char *path);

/* sendmsg(2) of `count` bytes with one descriptor (SCM_RIGHTS) when `fd` >= 0; MSG_NOSIGNAL. */
ssize_t csys_send_with_fd(int socket, const void *buffer, size_t count, int fd);

/* recvmsg(2) of up to `count` bytes; a descriptor that came with them (CLOEXEC) is stored in
   `*fd`, else -1. More than one descriptor, or a truncated control message, closes what came
   and fails with EPROTO. */
ssize_t csys_recv_with_fd(int socket, void *buffer, size_t count, int *fd);

#ifdef __cplusplus
}
#endif
