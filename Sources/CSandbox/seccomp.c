/*
 * Seccomp programs, compiled in the parent with libseccomp. libseccomp 2.5.4 cannot
 * export BPF to memory, so the program goes through a memfd and is read back into a
 * sock_fprog the child hands to prctl(PR_SET_SECCOMP) without touching the library.
 *
 * The default policy is two layers joined into one program: the deny layer
 * (seccomp_deny.c, explicit refusals with their errnos) and the allow-list layer
 * (seccomp_allow.c, everything else ENOSYS). A call passes only if both allow it.
 */
#include "internal.h"
#include "seccomp_internal.h"

#include <fcntl.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int sbx_seccomp_export(scmp_filter_ctx ctx, struct sbx_filter *out, char *err, size_t err_len) {
    int fd = memfd_create("sentinel-seccomp", MFD_CLOEXEC);
    if (fd < 0) {
        snprintf(err, err_len, "memfd_create: %s", strerror(errno));
        return -1;
    }
    int rc = seccomp_export_bpf(ctx, fd);
    if (rc != 0) {
        snprintf(err, err_len, "seccomp_export_bpf: %s", strerror(-rc));
        close(fd);
        return -1;
    }
    struct stat info;
    if (fstat(fd, &info) != 0 || info.st_size <= 0 ||
        info.st_size % (off_t)sizeof(struct sock_filter) != 0) {
        snprintf(err, err_len, "seccomp program has a bad size");
        close(fd);
        return -1;
    }
    struct sock_filter *program = malloc((size_t)info.st_size);
    if (program == NULL) {
        snprintf(err, err_len, "out of memory");
        close(fd);
        return -1;
    }
    ssize_t got = pread(fd, program, (size_t)info.st_size, 0);
    close(fd);
    if (got != info.st_size) {
        snprintf(err, err_len, "reading the seccomp program back failed");
        free(program);
        return -1;
    }
    out->prog.len = (unsigned short)(info.st_size / (off_t)sizeof(struct sock_filter));
    out->prog.filter = program;
    return 0;
}

scmp_filter_ctx sbx_seccomp_context(uint32_t default_action, char *err, size_t err_len) {
    scmp_filter_ctx ctx = seccomp_init(default_action);
    if (ctx == NULL) {
        snprintf(err, err_len, "seccomp_init failed");
        return NULL;
    }
    /* A syscall from a foreign architecture (int 0x80 on x86_64) kills the whole
       process, not only the thread. */
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    if (rc == 0) rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
    if (rc != 0) {
        snprintf(err, err_len, "seccomp_attr_set: %s", strerror(-rc));
        seccomp_release(ctx);
        return NULL;
    }
    return ctx;
}

/* Compiles one layer: a context with `default_action`, filled by `build`. */
static int compile_layer(uint32_t default_action, int (*build)(scmp_filter_ctx, char *, size_t),
                         struct sbx_filter *out, char *err, size_t err_len) {
    scmp_filter_ctx ctx = sbx_seccomp_context(default_action, err, err_len);
    if (ctx == NULL) return -1;
    /* A binary search over syscall numbers instead of libseccomp's default linear chain: the
       allow-list names ~300 syscalls. */
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
    if (rc != 0) snprintf(err, err_len, "seccomp_attr_set(optimize): %s", strerror(-rc));
    if (rc == 0) rc = build(ctx, err, err_len);
    if (rc == 0) rc = sbx_seccomp_export(ctx, out, err, err_len);
    seccomp_release(ctx);
    return rc;
}

/* One program from two: `first` runs, and each of its RET ALLOW becomes a jump to `second`'s
   first instruction, so `second` decides whatever `first` lets through. An instruction is
   replaced by one of the same length, so `first`'s own (forward) jumps keep their targets. */
static int join_layers(const struct sbx_filter *first, const struct sbx_filter *second,
                       struct sbx_filter *out, char *err, size_t err_len) {
    size_t first_len = first->prog.len, total = first_len + second->prog.len;
    if (total > BPF_MAXINSNS) {
        snprintf(err, err_len, "seccomp program too long (%zu instructions)", total);
        return -1;
    }
    struct sock_filter *program = malloc(total * sizeof *program);
    if (program == NULL) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < first_len; i++) {
        struct sock_filter insn = first->prog.filter[i];
        if (BPF_CLASS(insn.code) == BPF_RET) {
            if (BPF_RVAL(insn.code) != BPF_K) {
                snprintf(err, err_len, "seccomp layer returns a computed action");
                free(program);
                return -1;
            }
            if (insn.k == SECCOMP_RET_ALLOW) {
                insn = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA, (uint32_t)(first_len - i - 1), 0, 0);
            }
        }
        program[i] = insn;
    }
    memcpy(program + first_len, second->prog.filter, second->prog.len * sizeof *program);
    out->prog.len = (unsigned short)total;
    out->prog.filter = program;
    return 0;
}

int sbx_seccomp_default(struct sbx_filter *out, char *err, size_t err_len) {
    return sbx_seccomp_default_variant(0, out, err, err_len);
}

int sbx_seccomp_default_variant(int allow_openat2, struct sbx_filter *out, char *err, size_t err_len) {
    out->prog.len = 0;
    out->prog.filter = NULL;
    struct sbx_filter deny = {{0, NULL}}, allow = {{0, NULL}};
    int rc = compile_layer(SCMP_ACT_ALLOW, allow_openat2 ? sbx_seccomp_deny_layer_openat2 : sbx_seccomp_deny_layer, &deny,
                           err, err_len);
    if (rc == 0)
        rc = compile_layer(SCMP_ACT_ERRNO(ENOSYS), allow_openat2 ? sbx_seccomp_allow_layer_openat2 : sbx_seccomp_allow_layer,
                           &allow, err, err_len);
    if (rc == 0) rc = join_layers(&deny, &allow, out, err, err_len);
    sbx_filter_free(&deny);
    sbx_filter_free(&allow);
    return rc;
}

unsigned sbx_seccomp_library_version(void) {
    const struct scmp_version *version = seccomp_version();
    if (version == NULL) return 0;
    return (version->major & 0xffu) << 16 | (version->minor & 0xffu) << 8 | (version->micro & 0xffu);
}

void sbx_filter_free(struct sbx_filter *filter) {
    free(filter->prog.filter);
    filter->prog.filter = NULL;
    filter->prog.len = 0;
}
