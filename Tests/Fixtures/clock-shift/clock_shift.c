// A test's preload: the process's wall clock (CLOCK_REALTIME, gettimeofday, time) reads the
// machine's plus the offset, in seconds, that the file CLOCK_SHIFT_FILE holds ("+3600", "-3600")
// at each reading; every other clock (CLOCK_MONOTONIC, CLOCK_BOOTTIME) is the machine's. The tests
// step a worker's or a server's wall clock with it while they run, as `date -s` or NTP stepping the
// machine would. A wait until a wall-clock time (`sem_timedwait`, which Dispatch's timed waits use
// on Linux) ends when the shifted clock reaches it, a step during the wait included, as the kernel
// ends it when the machine's clock does. Written for the purpose rather than libfaketime, whose
// start-up reads the clock through malloc and deadlocked with jemalloc's own reading of the clock
// at start-up: this file allocates nothing, takes no lock and calls the kernel directly.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <semaphore.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/// The offset file's path, copied: the environment's own bytes are overwritten by a process that
/// sets its title there (PostgreSQL's backends do), and a pointer into them would read "".
static char shift_file[PATH_MAX];

__attribute__((constructor)) static void clock_shift_init(void) {
    const char *path = getenv("CLOCK_SHIFT_FILE");
    if (path == NULL) return;
    for (size_t at = 0; at + 1 < sizeof shift_file && path[at] != 0; at++) shift_file[at] = path[at];
}

/// The offset the file holds now: 0 when there is none or it is unreadable.
static long clock_shift_seconds(void) {
    if (shift_file[0] == 0) return 0;
    // A reading of the clock that succeeds leaves errno as it found it.
    int saved = errno;
    long fd = syscall(SYS_openat, AT_FDCWD, shift_file, O_RDONLY | O_CLOEXEC);
    char text[32];
    long length = fd < 0 ? -1 : syscall(SYS_read, (int)fd, text, sizeof text - 1);
    if (fd >= 0) syscall(SYS_close, (int)fd);
    errno = saved;
    if (length <= 0) return 0;
    long sign = 1, value = 0, at = 0;
    if (text[0] == '-' || text[0] == '+') {
        sign = text[0] == '-' ? -1 : 1;
        at = 1;
    }
    for (; at < length && text[at] >= '0' && text[at] <= '9'; at++) value = value * 10 + (text[at] - '0');
    return sign * value;
}

int clock_gettime(clockid_t id, struct timespec *now) {
    long result = syscall(SYS_clock_gettime, id, now);
    if (result == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) now->tv_sec += clock_shift_seconds();
    return (int)result;
}

int gettimeofday(struct timeval *restrict now, void *restrict zone) {
    (void)zone;
    struct timespec reading;
    if (clock_gettime(CLOCK_REALTIME, &reading) != 0) return -1;
    now->tv_sec = reading.tv_sec;
    now->tv_usec = reading.tv_nsec / 1000;
    return 0;
}

time_t time(time_t *now) {
    struct timespec reading;
    if (clock_gettime(CLOCK_REALTIME, &reading) != 0) return (time_t)-1;
    if (now != NULL) *now = reading.tv_sec;
    return reading.tv_sec;
}

/// Waits on `semaphore` until the shifted wall clock reaches `deadline`, in slices of at most 20 ms
/// on the monotonic clock, reading the offset again after each: a step during the wait moves its end.
int sem_timedwait(sem_t *restrict semaphore, const struct timespec *restrict deadline) {
    const long long slice = 20 * 1000 * 1000;
    if (deadline->tv_nsec < 0 || deadline->tv_nsec >= 1000000000L) {
        errno = EINVAL;
        return -1;
    }
    for (;;) {
        struct timespec wall, monotonic;
        syscall(SYS_clock_gettime, CLOCK_REALTIME, &wall);
        syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &monotonic);
        long long seconds = (long long)deadline->tv_sec - clock_shift_seconds() - wall.tv_sec;
        // Only whether more than a slice is left matters: no product can overflow.
        long long left = seconds > 1 ? slice + 1 : seconds * 1000000000LL + (deadline->tv_nsec - wall.tv_nsec);
        if (left <= 0) {
            if (sem_trywait(semaphore) == 0) return 0;
            errno = ETIMEDOUT;
            return -1;
        }
        long long step = left < slice ? left : slice;
        long long end = monotonic.tv_nsec + step;
        struct timespec until = {monotonic.tv_sec + (time_t)(end / 1000000000LL), (long)(end % 1000000000LL)};
        if (sem_clockwait(semaphore, CLOCK_MONOTONIC, &until) == 0) return 0;
        if (errno != ETIMEDOUT) return -1;
    }
}
