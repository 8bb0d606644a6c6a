/*
 * Syscall names to numbers. libseccomp 2.5.4 (Debian 12) knows the x86_64 table only up to
 * cachestat (451); the numbers after it are added here so that a policy naming them means it.
 */
#include "seccomp_internal.h"

#include <seccomp.h>
#include <string.h>

#ifdef __x86_64__
/* x86_64 numbers from the kernel's syscall_64.tbl, for names newer than libseccomp 2.5.4. */
static const struct {
    const char *name;
    int nr;
} newer_x86_64[] = {
    {"uretprobe", 335},        {"fchmodat2", 452},     {"map_shadow_stack", 453},
    {"futex_wake", 454},       {"futex_wait", 455},    {"futex_requeue", 456},
    {"statmount", 457},        {"listmount", 458},     {"lsm_get_self_attr", 459},
    {"lsm_set_self_attr", 460}, {"lsm_list_modules", 461}, {"mseal", 462},
    {"setxattrat", 463},       {"getxattrat", 464},    {"listxattrat", 465},
    {"removexattrat", 466},    {"open_tree_attr", 467}, {"file_getattr", 468},
    {"file_setattr", 469},
};
#endif

int sbx_syscall_number(const char *name) {
    int nr = seccomp_syscall_resolve_name(name);
    if (nr != __NR_SCMP_ERROR) return nr;
#ifdef __x86_64__
    for (size_t i = 0; i < sizeof newer_x86_64 / sizeof newer_x86_64[0]; i++) {
        if (strcmp(newer_x86_64[i].name, name) == 0) return newer_x86_64[i].nr;
    }
#endif
    return __NR_SCMP_ERROR;
}
