#pragma once
#include "sandbox.h"
#include <seccomp.h>

scmp_filter_ctx sbx_seccomp_context(uint32_t default_action, char *err, size_t err_len);
int sbx_seccomp_export(scmp_filter_ctx ctx, struct sbx_filter *out, char *err, size_t err_len);

/* The syscall number of `name` on this architecture, also for syscalls newer than
   libseccomp's table; negative when there is none. */
int sbx_syscall_number(const char *name);

/* The two layers of the default policy: explicit refusals (default allow), then the
   allow-list (default ENOSYS). Each returns 0, or -1 with a message in err. */
int sbx_seccomp_deny_layer(scmp_filter_ctx ctx, char *err, size_t err_len);
/* The same with openat2 allowed (see sbx_seccomp_default_variant). */
int sbx_seccomp_deny_layer_openat2(scmp_filter_ctx ctx, char *err, size_t err_len);
int sbx_seccomp_allow_layer(scmp_filter_ctx ctx, char *err, size_t err_len);
/* The same with openat2 allowed (see sbx_seccomp_default_variant). */
int sbx_seccomp_allow_layer_openat2(scmp_filter_ctx ctx, char *err, size_t err_len);
