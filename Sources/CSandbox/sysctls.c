/*
 * Settings of the sandbox's own namespaces, written by its init: per-user-namespace limits
 * (/proc/sys/user/max_*; inotify instances and watches are counted per user in every ancestor
 * namespace too, so without a lower limit here a payload spends the launcher's host uid's
 * quota) and network namespace settings (/proc/sys/net; what one socket can hold outside the
 * memory limit). Syscalls only: this runs in the cloned init, and, for the network settings of
 * a namespace the launcher makes ahead (network.c), in the launcher's thread that makes it.
 */
#include "internal.h"

#include <fcntl.h>
#include <unistd.h>

static size_t text_length(const char *text) {
    size_t length = 0;
    while (text[length] != '\0') length++;
    return length;
}

int sbx_sysctls_open(const struct sbx_sysctl *sysctls, size_t count, int *fds, int *index) {
    if (count > SBX_SYSCTLS_MAX) {
        *index = -1;
        errno = E2BIG;
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        fds[i] = open(sysctls[i].path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
        if (fds[i] < 0) {
            int saved = errno;
            for (size_t j = 0; j < i; j++) close(fds[j]);
            errno = saved;
            *index = (int)i;
            return -1;
        }
    }
    return 0;
}

int sbx_sysctls_write(const struct sbx_sysctl *sysctls, size_t count, const int *fds, int *index) {
    int result = 0;
    for (size_t i = 0; i < count && result == 0; i++) {
        const char *value = sysctls[i].value;
        size_t length = text_length(value);
        ssize_t written;
        do {
            written = write(fds[i], value, length);
        } while (written < 0 && errno == EINTR);
        if (written != (ssize_t)length) {
            if (written >= 0) errno = EIO;
            *index = (int)i;
            result = -1;
        }
    }
    int saved = errno;
    for (size_t i = 0; i < count; i++) close(fds[i]);
    errno = saved;
    return result;
}
