/*
 * The clone()..execve() window of the Sentinel launcher.
 *
 * The parent (Swift) prepares everything: the ordered list of filesystem operations with
 * absolute paths, uid/gid map text, the compiled seccomp program, rlimits and open cgroup
 * files. sbx_spawn() clones the sandbox init (pid 1 of fresh user, pid, mount, net, uts,
 * ipc and cgroup namespaces; a root launcher makes the net namespace ahead, network.c),
 * which performs the operations using syscalls only, then
 * forks the payload, which drops every privilege and execs. Failures travel back as
 * {stage, errno} over a CLOEXEC pipe. No allocation happens in any child.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/resource.h>
#include <linux/filter.h>
#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Setup stages, in the order the child runs them; a failure names one of these. */
enum sbx_stage {
    SBX_STAGE_NONE = 0,
    SBX_STAGE_SYNC,
    SBX_STAGE_PDEATHSIG,
    SBX_STAGE_SETSID,
    SBX_STAGE_CGROUP_NS,
    SBX_STAGE_HOSTNAME,
    SBX_STAGE_LOOPBACK,
    SBX_STAGE_PROXY_SOCKET,
    SBX_STAGE_MOUNT_PRIVATE,
    SBX_STAGE_MKDIR,
    SBX_STAGE_MKFILE,
    SBX_STAGE_SYMLINK,
    SBX_STAGE_MOUNT,
    SBX_STAGE_REMOUNT,
    SBX_STAGE_PIVOT_ROOT,
    SBX_STAGE_UMOUNT_OLD_ROOT,
    SBX_STAGE_REMOUNT_ROOT,
    SBX_STAGE_CHDIR,
    SBX_STAGE_DUMPABLE,
    SBX_STAGE_FORK,
    SBX_STAGE_STDIO,
    SBX_STAGE_RLIMIT,
    SBX_STAGE_CAPBSET,
    SBX_STAGE_AMBIENT,
    SBX_STAGE_SETGROUPS,
    SBX_STAGE_SETGID,
    SBX_STAGE_SETUID,
    SBX_STAGE_CAPSET,
    SBX_STAGE_NO_NEW_PRIVS,
    SBX_STAGE_CLOSE_FDS,
    SBX_STAGE_SIGNALS,
    SBX_STAGE_SECCOMP,
    SBX_STAGE_EXECVE,
    /* Parent-side stages. */
    SBX_STAGE_PIPE,
    SBX_STAGE_CLONE,
    SBX_STAGE_SETGROUPS_FILE,
    SBX_STAGE_UID_MAP,
    SBX_STAGE_GID_MAP,
    SBX_STAGE_CGROUP_ATTACH,
    SBX_STAGE_RELEASE,
    SBX_STAGE_REPORT,
    /* The terminal (config.tty): the init opens the pty, the payload makes it its own. */
    SBX_STAGE_PTY,
    SBX_STAGE_CTTY,
    /* The workspace: resolved and cloned by the parent, attached by the init. */
    SBX_STAGE_IDMAP_USERNS,
    SBX_STAGE_OPEN_TREE,
    SBX_STAGE_MOUNT_SETATTR,
    SBX_STAGE_MOVE_MOUNT,
    SBX_STAGE_WORKSPACE_REOPEN,
    SBX_STAGE_CHOWN,
    /* Init-side, after the others for stable numbering: opening (before the root is built)
       or writing (before the payload forks) a per-user-namespace limit. */
    SBX_STAGE_SYSCTLS,
    /* The upper layer of an rw workspace: a tmpfs the parent makes (sbx_workspace_upper). */
    SBX_STAGE_UPPER_FSOPEN,
    SBX_STAGE_UPPER_FSCONFIG,
    SBX_STAGE_UPPER_FSMOUNT,
    /* The network namespace a root launcher makes ahead (sbx_network_start), and the parent
       entering it for the clone. */
    SBX_STAGE_NETNS_THREAD,
    SBX_STAGE_NETNS_UNSHARE,
    SBX_STAGE_NETNS_OPEN,
    SBX_STAGE_NETNS_ENTER,
    SBX_STAGE__COUNT
};

/* The syscall name of a stage, e.g. "pivot_root", for error messages. */
const char *sbx_stage_name(int stage);

/* One filesystem operation, performed in order by the sandbox init before pivot_root. */
enum sbx_fs_kind {
    SBX_FS_MKDIR = 1,   /* mkdir(path, mode), EEXIST tolerated */
    SBX_FS_MKFILE,      /* create an empty file (a bind mount point or a mask) */
    SBX_FS_SYMLINK,     /* symlink(source, path) */
    SBX_FS_MOUNT,       /* mount(source, path, fstype, flags, data) */
    SBX_FS_REMOUNT_BIND, /* remount the bind at path with flags, keeping the locked flags */
    SBX_FS_ATTACH_TREE,  /* move_mount the detached tree `fd` (see sbx_workspace_tree) onto path */
    SBX_FS_BIND_VERIFIED, /* open `source` without following any symlink, check it is still the
                             directory {dev, ino} the parent resolved, bind exactly that */
    SBX_FS_CHOWN         /* lchown(path, uid, gid) and chmod(path, mode): an overlay's upper root */
};

struct sbx_fs_op {
    int kind;
    const char *path;    /* absolute host-side path (under the new root) */
    const char *source;  /* mount source / symlink target, may be NULL */
    const char *fstype;  /* may be NULL */
    unsigned long flags; /* mount flags */
    const char *data;    /* mount data, may be NULL */
    unsigned int mode;   /* for MKDIR / MKFILE */
    int optional;        /* a failure with ENOENT is skipped rather than fatal */
    int fd;              /* ATTACH_TREE: the detached mount */
    uint64_t dev, ino;   /* BIND_VERIFIED: the identity of `source` */
    uid_t uid;           /* CHOWN */
    gid_t gid;
};

struct sbx_rlimit {
    int resource;
    rlim_t soft;
    rlim_t hard;
};

/* One setting of the sandbox's own namespaces: a file under /proc/sys and its text. */
struct sbx_sysctl {
    const char *path;
    const char *value;
};

/* The most settings the init can hold open at once (it allocates nothing). */
#define SBX_SYSCTLS_MAX 24

struct sbx_config {
    /* The payload: argv[0] is searched in search_path (colon-separated) when it has no '/'. */
    const char *const *argv;
    const char *const *envp;
    const char *search_path;
    const char *workdir;  /* inside the new root */
    const char *hostname;

    /* Identity. Map texts are written verbatim to /proc/PID/{uid,gid}_map. */
    const char *uid_map;
    const char *gid_map;
    int deny_setgroups;    /* write "deny" to /proc/PID/setgroups (required when unprivileged) */
    uid_t uid;             /* the payload's uid and gid inside the namespace */
    gid_t gid;

    /* Root filesystem: a tmpfs is mounted on new_root first, then ops run in order. */
    const char *new_root;
    const char *new_root_data; /* tmpfs options for the root, e.g. "size=16m,mode=0755" */
    const struct sbx_fs_op *fs_ops;
    size_t fs_op_count;
    int read_only_root;        /* remount the root tmpfs read-only after pivot_root */

    const struct sbx_rlimit *rlimits;
    size_t rlimit_count;

    const struct sock_fprog *seccomp; /* NULL: no filter */

    int stdin_fd, stdout_fd, stderr_fd; /* -1: /dev/null inside */

    /* Opened cgroup files the init enters its groups by (see sbx_spawn_finish). */
    const int *cgroup_attach_fds;
    size_t cgroup_attach_count;
    int cgroup_self_move;

    /* When non-zero, the init listens on 127.0.0.1:proxy_port inside the sandbox network
       namespace and passes the listening socket back (sbx_process.proxy_fd). */
    int proxy_port;

    /* When non-zero, the init opens a pty from the sandbox's own devpts (/dev/ptmx must
       lead there), passes the master back (sbx_process.tty_fd; after the proxy socket, on
       the same socketpair), and the payload gets the slave as stdin, stdout and stderr and
       as its controlling terminal; the std*_fd fields are then unused. */
    int tty;
    unsigned short tty_rows, tty_cols; /* the pty's first window size; 0: leave it unset */
    /* Written by the init in its own user and network namespaces (it holds every capability
       there) before the payload starts: per-user limits (/proc/sys/user, which the kernel
       checks in every ancestor namespace too, so they bound what the sandbox charges to the
       launcher's uid on the host) and, when it makes its network namespace, network settings
       (/proc/sys/net). At most SBX_SYSCTLS_MAX; a failure names SBX_STAGE_SYSCTLS and the index. */
    const struct sbx_sysctl *sysctls;
    size_t sysctl_count;
    /* When non-zero, the loopback's MTU and the largest packet TCP may hand it at once
       (gso_max_size), set when the init brings it up. */
    unsigned loopback_mtu;
    /* -1: the clone makes the sandbox's network namespace (owned by its user namespace) and
       the init brings its loopback up. Otherwise a namespace made ahead (sbx_network_start),
       loopback up and settings written: the parent enters it for the clone only, and the
       init leaves it as it is. */
    int netns_fd;

    /* The launcher's argv and environment strings (arg_start..arg_end, env_start..env_end of
       /proc/self/stat). The init is a copy of the launcher and every process in the sandbox
       may read its /proc/1/cmdline: it overwrites its copy of both areas first. 0: none. */
    uintptr_t argument_area, argument_area_length;
    uintptr_t environment_area, environment_area_length;
};

/* What the init writes on the status pipe when the payload ends, in one write: its wait
   status and its own run, timed by the init (CLOCK_MONOTONIC; the sandbox has no time
   namespace): from the payload's own clock reading just before its execve (shared with the
   init until then) to the moment the init reaped it. The launcher sees both only later, by as much as it takes
   to be scheduled. */
struct sbx_payload_end {
    int32_t status;
    uint32_t reserved;
    uint64_t started_ns;
    uint64_t ended_ns;
};

struct sbx_process {
    pid_t pid;         /* the sandbox init, in the caller's pid namespace */
    int status_fd;     /* readable: a struct sbx_payload_end, when the payload ends */
    int proxy_fd;      /* the listening socket inside the sandbox, or -1 */
    int tty_fd;        /* the pty master when config.tty, or -1 */
};

struct sbx_failure {
    int stage;
    int err;           /* errno */
    int index;         /* for fs ops: which op failed, else -1 */
};

/*
 * Starts the sandbox. Returns 0 and fills `process` once the payload has exec'd, or -1 and
 * fills `failure` (the sandbox is then already reaped). Thread-safe; blocks all signals in
 * the calling thread only around clone(). Equivalent to sbx_spawn_begin, then
 * sbx_spawn_finish with the config's cgroup files.
 */
int sbx_spawn(const struct sbx_config *config, struct sbx_process *process,
              struct sbx_failure *failure);

/* A launch between its two phases: the init is building its root while the parent
   prepares cgroups. */
struct sbx_launch {
    pid_t pid;
    int sync_write;
    int report_read;
    int status_read;
    int proxy_read; /* the parent end of the fd-passing socketpair (proxy, tty), or -1 */
    int proxy;      /* config.proxy_port > 0: a listening socket comes first on proxy_read */
    int tty;        /* config.tty: a pty master comes next on proxy_read */
};

/* Phase one: clone, write the id maps, let the init build its root. The config must stay
   valid until sbx_spawn_finish or sbx_spawn_abort returns. */
int sbx_spawn_begin(const struct sbx_config *config, struct sbx_launch *launch,
                    struct sbx_failure *failure);

/* Phase two: put the init in its cgroups, let it fork the payload, and wait for its execve.
   self_move: the files (cgroup v1 `tasks`, at most 8) go to the init with
   the release, and it writes "0" to each: a task moving itself alone takes no global lock, where
   moving a process waits for an RCU grace period once the lock has been idle (~11 ms on an idle
   2-vCPU VM). Otherwise (v2 cgroup.procs) the parent writes the init's pid to each. On failure
   the sandbox is killed and reaped. */
int sbx_spawn_finish(struct sbx_launch *launch, const int *cgroup_attach_fds, size_t count,
                     int self_move, struct sbx_process *process, struct sbx_failure *failure);

/* Kills and reaps a begun launch; closes its descriptors. */
void sbx_spawn_abort(struct sbx_launch *launch);

/*
 * The sandbox's network namespace, made as root on a thread of its own while the launch is
 * planned (network.c): unshare(CLONE_NEWNET), loopback up with `loopback_mtu` (0: the
 * kernel's), the egress proxy's listener on 127.0.0.1:`proxy_port` (0: none), then the
 * `sysctls` (read until sbx_network_join returns). The namespace belongs to the host's user
 * namespace. sbx_network_start returns 0, or -1 with `failure` filled; sbx_network_join waits
 * for the thread and returns 0 with `netns_fd` (and `proxy_fd`, or -1) set, both CLOEXEC and
 * the caller's to close, or -1 with `failure` filled. Join every started job once.
 */
struct sbx_network_job {
    unsigned loopback_mtu;
    int proxy_port;
    const struct sbx_sysctl *sysctls;
    size_t sysctl_count;
    pthread_t thread;
    int netns_fd;
    int proxy_fd;
    struct sbx_failure failure;
    void *stack; /* the thread's own, freed by sbx_network_join */
};
int sbx_network_start(struct sbx_network_job *job);
int sbx_network_join(struct sbx_network_job *job);

/* Compiled seccomp programs, built in the parent (libseccomp, exported through a memfd). */
struct sbx_filter {
    struct sock_fprog prog;
};

/* The default policy: an allow-list (anything else ENOSYS) under explicit denials with their
   errnos. Returns 0, or -1 with a message in err. */
int sbx_seccomp_default(struct sbx_filter *out, char *err, size_t err_len);
/* The default policy with openat2 allowed (it is refused with ENOSYS by default: its creation
 * mode sits in a struct the filter cannot read). Only for a sandbox with no writable mount that
 * reaches the host, where a set-uid file it creates cannot outlive it. */
int sbx_seccomp_default_variant(int allow_openat2, struct sbx_filter *out, char *err, size_t err_len);

/* The actions and comparisons of an OCI/Docker seccomp profile. The JSON is read and checked in
   Swift (Sandbox's OCISeccompProfile); C only hands the resolved rules to libseccomp. */
enum sbx_oci_action {
    SBX_OCI_ALLOW,
    SBX_OCI_ERRNO, /* with the rule's errno */
    SBX_OCI_KILL_PROCESS,
    SBX_OCI_KILL_THREAD,
    SBX_OCI_TRAP,
    SBX_OCI_TRACE, /* with the rule's errno as the tracer's message */
    SBX_OCI_LOG,
};
enum sbx_oci_op {
    SBX_OCI_NE,
    SBX_OCI_LT,
    SBX_OCI_LE,
    SBX_OCI_EQ,
    SBX_OCI_GE,
    SBX_OCI_GT,
    SBX_OCI_MASKED_EQ,
};
#define SBX_OCI_MAX_ARGS 6
/* One comparison of argument `index` (0..5): `op` is an enum sbx_oci_op. */
struct sbx_oci_arg {
    unsigned index;
    unsigned op;
    uint64_t value;
    uint64_t value_two;
};
/* One syscall's rule. An unknown name (another architecture's syscall) is skipped. */
struct sbx_oci_rule {
    const char *name;
    size_t entry; /* its index in the file's `syscalls`, for messages */
    unsigned action; /* enum sbx_oci_action */
    unsigned errno_ret; /* 0..4095 */
    unsigned arg_count; /* 0..SBX_OCI_MAX_ARGS */
    struct sbx_oci_arg args[SBX_OCI_MAX_ARGS];
};
/* Compiles an OCI profile's rules (in order) under its default action; `path` names the file in
   messages. Returns 0, or -1 with a message in err. */
int sbx_seccomp_oci(const char *path, unsigned default_action, unsigned default_errno,
                    const struct sbx_oci_rule *rules, size_t count, struct sbx_filter *out, char *err,
                    size_t err_len);

void sbx_filter_free(struct sbx_filter *filter);

/* The running libseccomp's version as major << 16 | minor << 8 | micro: a program compiled by
   one version is not reused under another (the seccomp program cache keys on it). */
unsigned sbx_seccomp_library_version(void);

/*
 * Opens a directory with O_PATH, following no symbolic link in any component
 * (openat2 RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS). Returns the fd or -1 with errno.
 */
int sbx_open_directory_nofollow(const char *path);

/*
 * Clones the mount at `dirfd` into a detached tree for the workspace: nosuid, nodev, read-only
 * when asked, and, when `idmap` is set, idmapped so that files owned by disk_uid:disk_gid appear
 * (and new files are stored as) owned by shown_uid:shown_gid -- the payload's unprivileged host
 * ids. Needs CAP_SYS_ADMIN. Returns 0 with *tree_fd set (CLOEXEC), or -1 with failure filled.
 */
int sbx_workspace_tree(int dirfd, int read_only, int idmap, uid_t disk_uid, uid_t shown_uid,
                       gid_t disk_gid, gid_t shown_gid, int *tree_fd, struct sbx_failure *failure);

/*
 * The upper layer of an rw workspace: a fresh tmpfs limited to `size` bytes and `nr_inodes`
 * inodes (0700, nosuid, nodev), made by the parent with the new mount API so that it belongs to
 * no sandbox and outlives the sandbox's mount namespace. *keep_fd is the parent's own detached
 * mount, read by the commit after the run; *tree_fd a clone the init attaches (SBX_FS_ATTACH_TREE).
 * Both CLOEXEC. Needs CAP_SYS_ADMIN. Returns 0, or -1 with failure filled.
 */
int sbx_workspace_upper(uint64_t size, uint64_t nr_inodes, int *keep_fd, int *tree_fd,
                        struct sbx_failure *failure);

#ifdef __cplusplus
}
#endif
