/* sentinel-probe: one escape attempt per verb, one line of verdict on stdout.
 *
 *   DENIED <verb> <ERRNO|SIGNAME|EAI_*>   exit 0  the attempt failed
 *   ESCAPED <verb> <detail>              exit 1  the attempt worked
 *   INFO <verb> key=value ...            exit 0  a reported fact
 *   REFUSED <verb> <why>                 exit 3  a host-affecting verb run outside a sandbox
 *   usage error on stderr                exit 2
 */
#ifndef SENTINEL_PROBE_H
#define SENTINEL_PROBE_H

#include <stddef.h>

enum { PROBE_OK = 0, PROBE_ESCAPED = 1, PROBE_USAGE = 2, PROBE_REFUSED = 3 };

/* A verb receives its own arguments (argv[0] is the verb name). */
typedef int (*probe_fn)(int argc, char **argv);

struct probe_verb {
    const char *name;
    const char *args;     /* usage text for the arguments, "" when none */
    int min_args;         /* arguments after the verb */
    int host_harmful;     /* refused unless we are inside a new user namespace */
    probe_fn fn;
};

/* Verdict printers: each prints exactly one line, flushes, and returns the exit status. */
int denied(const char *verb, int err);
int denied_signal(const char *verb, int sig);
int denied_text(const char *verb, const char *what);
int escaped(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int info(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int usage(const char *verb, const char *msg);

const char *errno_name(int err);
const char *signal_name(int sig);

/* Privileged syscalls whose argument checks come after the privilege check: EPERM, EACCES
 * and ENOSYS mean the gate held; any other error means the kernel looked at our arguments,
 * i.e. the gate was passed. */
int gated_result(const char *verb, long ret, int err);

/* Folds several attempts (paths, fds) into one verdict. */
struct attempts {
    int first_errno;
    int meaningful_errno; /* first errno that is not "not applicable" (ENOENT, ENOTTY, ...) */
};
void attempts_init(struct attempts *a);
void attempts_fail(struct attempts *a, const char *what, int err);
int attempts_verdict(const char *verb, const struct attempts *a);

/* Runs fn in a forked child; when the child dies by a signal, prints DENIED <verb> SIG*.
 * Otherwise the child's own verdict line (already printed) and exit status stand. */
int in_child(const char *verb, int (*fn)(const char *verb, void *ctx), void *ctx);

/* True when this process is in the initial user namespace (uid_map "0 0 4294967295"). */
int in_initial_userns(void);

/* Reads /proc/self/status field NAME into out (value text), 0 on success. */
int status_field(const char *name, char *out, size_t len);

int parse_int(const char *text, long *out);

/* Sleeps until HOLD is removed (quota.c); see there. NULL: returns at once. */
void hold_until_removed(const char *hold, long amount);

#define VERB_DECL(fn) int fn(int argc, char **argv)

/* fs.c */
VERB_DECL(v_write_outside); VERB_DECL(v_write_path); VERB_DECL(v_write_workspace);
VERB_DECL(v_read_file); VERB_DECL(v_follow_symlink); VERB_DECL(v_hardlink); VERB_DECL(v_rename);
VERB_DECL(v_mknod); VERB_DECL(v_chroot); VERB_DECL(v_open_by_handle_at); VERB_DECL(v_dev_access);
VERB_DECL(v_sys_access); VERB_DECL(v_proc_kcore); VERB_DECL(v_proc_sys_write);
VERB_DECL(v_sysrq_trigger); VERB_DECL(v_chmod_setuid); VERB_DECL(v_create_setuid);
VERB_DECL(v_open_stray_mode);
VERB_DECL(v_proc_exe_write); VERB_DECL(v_list_dir);
/* race.c */
VERB_DECL(v_commit_race);
/* mount.c */
VERB_DECL(v_mount); VERB_DECL(v_remount_rw); VERB_DECL(v_mount_proc); VERB_DECL(v_mount_cgroup);
VERB_DECL(v_umount); VERB_DECL(v_pivot_root); VERB_DECL(v_fsopen); VERB_DECL(v_open_tree);
/* ns.c */
VERB_DECL(v_unshare_userns); VERB_DECL(v_unshare_netns); VERB_DECL(v_unshare_mntns);
VERB_DECL(v_clone3); VERB_DECL(v_clone3_newuser); VERB_DECL(v_clone_newns); VERB_DECL(v_setns);
VERB_DECL(v_setns_pidfd); VERB_DECL(v_ns_ids);
/* syscalls.c */
VERB_DECL(v_bpf); VERB_DECL(v_perf_event_open); VERB_DECL(v_userfaultfd); VERB_DECL(v_keyctl);
VERB_DECL(v_add_key); VERB_DECL(v_request_key); VERB_DECL(v_io_uring_setup);
VERB_DECL(v_init_module); VERB_DECL(v_finit_module); VERB_DECL(v_kexec_load);
VERB_DECL(v_kexec_file_load); VERB_DECL(v_reboot); VERB_DECL(v_swapon); VERB_DECL(v_acct);
VERB_DECL(v_personality); VERB_DECL(v_sethostname); VERB_DECL(v_setdomainname);
VERB_DECL(v_syslog); VERB_DECL(v_clock_settime); VERB_DECL(v_iopl); VERB_DECL(v_int80);
VERB_DECL(v_x32); VERB_DECL(v_vhangup); VERB_DECL(v_newer_syscall); VERB_DECL(v_syscall_nr);
/* tty.c */
VERB_DECL(v_tiocsti); VERB_DECL(v_tioclinux);
/* stdio.c */
VERB_DECL(v_pwrite_output); VERB_DECL(v_truncate_output); VERB_DECL(v_lseek_stdin);
VERB_DECL(v_nonblock_stdio);
/* creds.c */
VERB_DECL(v_euid); VERB_DECL(v_caps); VERB_DECL(v_setuid0); VERB_DECL(v_setgid0);
VERB_DECL(v_setgroups); VERB_DECL(v_capset); VERB_DECL(v_securebits); VERB_DECL(v_env_secret);
VERB_DECL(v_env); VERB_DECL(v_fds);
/* proc.c */
VERB_DECL(v_ptrace_sibling); VERB_DECL(v_ptrace_traceme); VERB_DECL(v_process_vm_readv);
VERB_DECL(v_kill_pid); VERB_DECL(v_kill_init); VERB_DECL(v_ps); VERB_DECL(v_proc_mem_sibling);
/* net.c */
VERB_DECL(v_raw_socket); VERB_DECL(v_packet_socket); VERB_DECL(v_netlink_socket);
VERB_DECL(v_vsock_socket); VERB_DECL(v_connect_tcp); VERB_DECL(v_udp_send); VERB_DECL(v_dns);
VERB_DECL(v_connect_unix); VERB_DECL(v_connect_abstract); VERB_DECL(v_ifaces); VERB_DECL(v_socket_family);
/* limits.c */
VERB_DECL(v_fork_bomb); VERB_DECL(v_memory_bomb); VERB_DECL(v_disk_fill); VERB_DECL(v_spin);
VERB_DECL(v_daemon); VERB_DECL(v_rlimit_raise); VERB_DECL(v_nice); VERB_DECL(v_burn_cpu);
/* quota.c */
VERB_DECL(v_tcp_queue); VERB_DECL(v_inotify_exhaust); VERB_DECL(v_inotify_watches);
VERB_DECL(v_user_limits); VERB_DECL(v_aio_quota); VERB_DECL(v_aio_context);
/* identity.c */
VERB_DECL(v_pipe_pages); VERB_DECL(v_occupy); VERB_DECL(v_fifo_write); VERB_DECL(v_lease);
/* sockmem.c */
VERB_DECL(v_tcp_pin); VERB_DECL(v_tcp_backlog); VERB_DECL(v_net_limits);

#endif
