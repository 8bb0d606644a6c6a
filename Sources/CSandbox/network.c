/*
 * The parent side, as root: the sandbox's network namespace made ahead of the clone, on a
 * thread of the launcher's own, while the launch is still being planned. Making a namespace
 * (its loopback, its IPv4 and IPv6 tables) costs ~0.3 ms of kernel time, and the clone paid
 * it on the launch's critical path. A namespace made here belongs to the host's user
 * namespace: nothing in the sandbox holds a capability over it, so its loopback, its settings
 * and its netfilter tables are no longer the sandbox root's to change.
 */
#include "internal.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

/* The thread's deepest frame holds a 1 KiB netlink answer and 24 descriptors. */
#define NETWORK_STACK_SIZE (64 * 1024)

static void network_failure(struct sbx_network_job *job, int stage, int index) {
    job->failure.stage = stage;
    job->failure.err = errno;
    job->failure.index = index;
}

/* The thread's own network namespace becomes the sandbox's; the thread ends there. */
static void *network_job_main(void *argument) {
    struct sbx_network_job *job = argument;
    int fds[SBX_SYSCTLS_MAX];
    int index = -1;
    if (unshare(CLONE_NEWNET) != 0) {
        network_failure(job, SBX_STAGE_NETNS_UNSHARE, -1);
        return NULL;
    }
    if (sbx_loopback_up(job->loopback_mtu) != 0) {
        network_failure(job, SBX_STAGE_LOOPBACK, -1);
        return NULL;
    }
    /* Before the settings: somaxconn would cut the proxy's own backlog. */
    if (job->proxy_port > 0 && (job->proxy_fd = sbx_proxy_socket(job->proxy_port)) < 0) {
        network_failure(job, SBX_STAGE_PROXY_SOCKET, -1);
        return NULL;
    }
    if (sbx_sysctls_open(job->sysctls, job->sysctl_count, fds, &index) != 0 ||
        sbx_sysctls_write(job->sysctls, job->sysctl_count, fds, &index) != 0) {
        network_failure(job, SBX_STAGE_SYSCTLS, index);
        return NULL;
    }
    if ((job->netns_fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)) < 0) {
        network_failure(job, SBX_STAGE_NETNS_OPEN, -1);
    }
    return NULL;
}

int sbx_network_start(struct sbx_network_job *job) {
    job->netns_fd = -1;
    job->proxy_fd = -1;
    job->failure.stage = SBX_STAGE_NONE;
    job->failure.err = 0;
    job->failure.index = -1;
    /* The thread inherits this mask: no signal handler of the caller's runs on it. It runs on
       a small stack of the job's own: glibc would map and protect 8 MiB for a default one, on
       the launch's critical path. */
    sigset_t all, previous;
    sigfillset(&all);
    job->stack = malloc(NETWORK_STACK_SIZE);
    if (job->stack == NULL) {
        network_failure(job, SBX_STAGE_NETNS_THREAD, -1);
        return -1;
    }
    pthread_attr_t attributes;
    int err = pthread_attr_init(&attributes);
    if (err == 0) err = pthread_attr_setstack(&attributes, job->stack, NETWORK_STACK_SIZE);
    if (err == 0) {
        pthread_sigmask(SIG_SETMASK, &all, &previous);
        err = pthread_create(&job->thread, &attributes, network_job_main, job);
        pthread_sigmask(SIG_SETMASK, &previous, NULL);
    }
    pthread_attr_destroy(&attributes);
    if (err != 0) {
        free(job->stack);
        job->stack = NULL;
        errno = err;
        network_failure(job, SBX_STAGE_NETNS_THREAD, -1);
        return -1;
    }
    return 0;
}

int sbx_network_join(struct sbx_network_job *job) {
    int err = pthread_join(job->thread, NULL);
    if (err != 0) {
        errno = err;
        network_failure(job, SBX_STAGE_NETNS_THREAD, -1);
    } else {
        free(job->stack);
        job->stack = NULL;
    }
    if (job->failure.stage != SBX_STAGE_NONE) {
        if (job->netns_fd >= 0) close(job->netns_fd);
        if (job->proxy_fd >= 0) close(job->proxy_fd);
        job->netns_fd = job->proxy_fd = -1;
        return -1;
    }
    return 0;
}
