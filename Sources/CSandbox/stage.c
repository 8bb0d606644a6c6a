#include "internal.h"

static const char *const stage_names[SBX_STAGE__COUNT] = {
    [SBX_STAGE_NONE] = "none",
    [SBX_STAGE_SYNC] = "sync",
    [SBX_STAGE_PDEATHSIG] = "prctl(PR_SET_PDEATHSIG)",
    [SBX_STAGE_SETSID] = "setsid",
    [SBX_STAGE_CGROUP_NS] = "unshare(CLONE_NEWCGROUP)",
    [SBX_STAGE_HOSTNAME] = "sethostname",
    [SBX_STAGE_LOOPBACK] = "loopback up",
    [SBX_STAGE_PROXY_SOCKET] = "proxy socket",
    [SBX_STAGE_MOUNT_PRIVATE] = "mount(MS_PRIVATE)",
    [SBX_STAGE_MKDIR] = "mkdir",
    [SBX_STAGE_MKFILE] = "create mount point",
    [SBX_STAGE_SYMLINK] = "symlink",
    [SBX_STAGE_MOUNT] = "mount",
    [SBX_STAGE_REMOUNT] = "remount",
    [SBX_STAGE_PIVOT_ROOT] = "pivot_root",
    [SBX_STAGE_UMOUNT_OLD_ROOT] = "umount2(old root)",
    [SBX_STAGE_REMOUNT_ROOT] = "remount root read-only",
    [SBX_STAGE_CHDIR] = "chdir",
    [SBX_STAGE_DUMPABLE] = "prctl(PR_SET_DUMPABLE)",
    [SBX_STAGE_FORK] = "fork",
    [SBX_STAGE_STDIO] = "dup2(stdio)",
    [SBX_STAGE_RLIMIT] = "setrlimit",
    [SBX_STAGE_CAPBSET] = "prctl(PR_CAPBSET_DROP)",
    [SBX_STAGE_AMBIENT] = "prctl(PR_CAP_AMBIENT_CLEAR_ALL)",
    [SBX_STAGE_SETGROUPS] = "setgroups",
    [SBX_STAGE_SETGID] = "setresgid",
    [SBX_STAGE_SETUID] = "setresuid",
    [SBX_STAGE_CAPSET] = "capset",
    [SBX_STAGE_NO_NEW_PRIVS] = "prctl(PR_SET_NO_NEW_PRIVS)",
    [SBX_STAGE_CLOSE_FDS] = "close_range",
    [SBX_STAGE_SIGNALS] = "sigaction",
    [SBX_STAGE_SECCOMP] = "seccomp",
    [SBX_STAGE_EXECVE] = "execve",
    [SBX_STAGE_PIPE] = "pipe2",
    [SBX_STAGE_CLONE] = "clone",
    [SBX_STAGE_SETGROUPS_FILE] = "write setgroups",
    [SBX_STAGE_UID_MAP] = "write uid_map",
    [SBX_STAGE_GID_MAP] = "write gid_map",
    [SBX_STAGE_CGROUP_ATTACH] = "cgroup attach",
    [SBX_STAGE_RELEASE] = "release child",
    [SBX_STAGE_REPORT] = "read child report",
    [SBX_STAGE_USER_LIMITS] = "write /proc/sys/user limit",
};

const char *sbx_stage_name(int stage) {
    if (stage < 0 || stage >= SBX_STAGE__COUNT || stage_names[stage] == NULL) {
        return "unknown stage";
    }
    return stage_names[stage];
}
