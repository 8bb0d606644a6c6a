/* A local user racing the root launcher's workspace commit, on the host (not in a sandbox). */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * commit-race DIR BAITS SECONDS: run as the owner of DIR. Each time the commit creates a
 * temporary `.sentinel-commit-*` entry in DIR, exchange it with the next name in BAITS (hard
 * links the caller prepared, named 0, 1, ...: a file this user does not own), hoping the
 * commit then changes the bait by name. Creates BAITS/ready once watching; stops when
 * BAITS/stop appears, the baits run out, or SECONDS pass. Spins while the commit is active
 * (an idle wake-up would lose every race), blocks otherwise.
 */
int v_commit_race(int argc, char **argv) {
    (void)argc;
    long seconds = 0;
    if (parse_int(argv[3], &seconds) != 0 || seconds <= 0) return usage(argv[0], "SECONDS must be positive");
    int dir = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int baits = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (dir < 0 || baits < 0 || watch < 0) return denied(argv[0], errno);
    if (inotify_add_watch(watch, argv[1], IN_CREATE) < 0 || inotify_add_watch(watch, argv[2], IN_CREATE | IN_MOVED_TO) < 0)
        return denied(argv[0], errno);
    int ready = openat(baits, "ready", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (ready < 0) return denied(argv[0], errno);
    close(ready);
    double deadline = now_seconds() + (double)seconds;
    double busy_until = 0;
    long next = 0, swaps = 0, seen = 0;
    int stop = 0;
    char buffer[64 * 1024] __attribute__((aligned(__alignof__(struct inotify_event))));
    while (!stop && now_seconds() < deadline) {
        ssize_t got = read(watch, buffer, sizeof buffer);
        if (got <= 0) {
            if (now_seconds() < busy_until) continue;
            struct pollfd wait = {.fd = watch, .events = POLLIN};
            poll(&wait, 1, 100);
            continue;
        }
        busy_until = now_seconds() + 1.0;
        for (char *at = buffer; at < buffer + got;) {
            struct inotify_event *event = (struct inotify_event *)at;
            at += sizeof *event + event->len;
            if (event->len == 0) continue;
            if (strcmp(event->name, "stop") == 0) stop = 1;
            if (strncmp(event->name, ".sentinel-commit-", 17) != 0) continue;
            seen++;
            char bait[32];
            snprintf(bait, sizeof bait, "%ld", next);
            if (renameat2(baits, bait, dir, event->name, RENAME_EXCHANGE) == 0) {
                swaps++;
                next++;
            } else if (errno != ENOENT) {
                stop = 1;
            }
        }
    }
    return info(argv[0], "seen=%ld swaps=%ld", seen, swaps);
}
