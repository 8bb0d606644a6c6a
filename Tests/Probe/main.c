/* sentinel-probe VERB [ARGS]: dispatches one escape attempt. See probe.h for the output contract. */
#include "probe.h"

#include <stdio.h>
#include <string.h>

/* host_harmful: changes kernel or host state on success, or exhausts a resource; refused in
 * the initial user namespace so that a launcher that failed to confine cannot hurt the host. */
static const struct probe_verb verbs[] = {
    /* filesystem */
    {"write-outside", "", 0, 0, v_write_outside},
    {"write-path", "DIR", 1, 0, v_write_path},
    {"write-workspace", "", 0, 0, v_write_workspace},
    {"read-file", "PATH", 1, 0, v_read_file},
    {"follow-symlink", "PATH", 1, 0, v_follow_symlink},
    {"hardlink", "SRC DST", 2, 0, v_hardlink},
    {"rename", "SRC DST", 2, 0, v_rename},
    {"mknod", "", 0, 0, v_mknod},
    {"chmod-setuid", "[NAME]", 0, 0, v_chmod_setuid},
    {"create-setuid", "", 0, 0, v_create_setuid},
    {"open-stray-mode", "", 0, 0, v_open_stray_mode},
    {"chroot", "[DIR]", 0, 0, v_chroot},
    {"open-by-handle-at", "[PATH]", 0, 0, v_open_by_handle_at},
    {"dev-access", "[PATH...]", 0, 0, v_dev_access},
    {"sys-access", "[PATH...]", 0, 0, v_sys_access},
    {"proc-kcore", "", 0, 0, v_proc_kcore},
    {"proc-sys-write", "[PATH]", 0, 1, v_proc_sys_write},
    {"sysrq-trigger", "", 0, 1, v_sysrq_trigger},
    {"proc-exe-write", "[PID]", 0, 0, v_proc_exe_write},
    {"list-dir", "PATH", 1, 0, v_list_dir},
    /* on the host, as a workspace's owner: races the root launcher's commit */
    {"commit-race", "DIR BAITS SECONDS", 3, 0, v_commit_race},
    /* mounts */
    {"mount", "", 0, 1, v_mount},
    {"mount-proc", "", 0, 1, v_mount_proc},
    {"mount-cgroup", "", 0, 1, v_mount_cgroup},
    {"remount-rw", "[PATH]", 0, 1, v_remount_rw},
    {"umount", "[PATH]", 0, 1, v_umount},
    {"pivot-root", "", 0, 1, v_pivot_root},
    {"fsopen", "", 0, 0, v_fsopen},
    {"open-tree", "", 0, 0, v_open_tree},
    /* namespaces */
    {"unshare-userns", "", 0, 0, v_unshare_userns},
    {"unshare-netns", "", 0, 0, v_unshare_netns},
    {"unshare-mntns", "", 0, 0, v_unshare_mntns},
    {"clone3", "", 0, 0, v_clone3},
    {"clone3-newuser", "", 0, 0, v_clone3_newuser},
    {"clone-newns", "", 0, 0, v_clone_newns},
    {"setns", "PATH", 1, 0, v_setns},
    {"setns-via-pidfd", "[PID]", 0, 0, v_setns_pidfd},
    {"ns-ids", "", 0, 0, v_ns_ids},
    /* kernel-facing syscalls */
    {"bpf", "", 0, 0, v_bpf},
    {"perf-event-open", "", 0, 0, v_perf_event_open},
    {"userfaultfd", "", 0, 0, v_userfaultfd},
    {"keyctl", "", 0, 0, v_keyctl},
    {"add-key", "", 0, 0, v_add_key},
    {"request-key", "", 0, 0, v_request_key},
    {"io-uring-setup", "", 0, 0, v_io_uring_setup},
    {"init-module", "", 0, 1, v_init_module},
    {"finit-module", "", 0, 1, v_finit_module},
    {"kexec-load", "", 0, 1, v_kexec_load},
    {"kexec-file-load", "", 0, 1, v_kexec_file_load},
    {"reboot", "", 0, 1, v_reboot},
    {"swapon", "", 0, 1, v_swapon},
    {"acct", "", 0, 1, v_acct},
    {"personality", "", 0, 0, v_personality},
    {"sethostname", "", 0, 1, v_sethostname},
    {"setdomainname", "", 0, 1, v_setdomainname},
    {"syslog", "", 0, 0, v_syslog},
    {"clock-settime", "", 0, 1, v_clock_settime},
    {"iopl", "", 0, 1, v_iopl},
    {"int80", "", 0, 0, v_int80},
    {"x32", "", 0, 0, v_x32},
    {"vhangup", "", 0, 1, v_vhangup},
    {"newer-syscall", "NAME", 1, 0, v_newer_syscall},
    {"syscall-nr", "NR", 1, 0, v_syscall_nr},
    {"tiocsti", "", 0, 1, v_tiocsti},
    {"tioclinux", "", 0, 1, v_tioclinux},
    /* the caller's stdio */
    {"pwrite-output", "", 0, 0, v_pwrite_output},
    {"truncate-output", "", 0, 0, v_truncate_output},
    {"lseek-stdin", "", 0, 0, v_lseek_stdin},
    {"nonblock-stdio", "", 0, 0, v_nonblock_stdio},
    /* credentials and inherited state */
    {"euid", "", 0, 0, v_euid},
    {"caps", "", 0, 0, v_caps},
    {"setuid0", "", 0, 0, v_setuid0},
    {"setgid0", "", 0, 0, v_setgid0},
    {"setgroups", "", 0, 0, v_setgroups},
    {"capset", "", 0, 0, v_capset},
    {"securebits", "", 0, 0, v_securebits},
    {"env-secret", "NAME...", 1, 0, v_env_secret},
    {"env", "", 0, 0, v_env},
    {"fds", "", 0, 0, v_fds},
    /* other processes */
    {"ptrace-sibling", "", 0, 0, v_ptrace_sibling},
    {"ptrace-traceme", "", 0, 0, v_ptrace_traceme},
    {"process-vm-readv", "", 0, 0, v_process_vm_readv},
    {"kill-pid", "PID", 1, 0, v_kill_pid},
    {"kill-init", "", 0, 1, v_kill_init},
    {"ps", "", 0, 0, v_ps},
    {"proc-mem-sibling", "", 0, 0, v_proc_mem_sibling},
    /* network */
    {"raw-socket", "", 0, 0, v_raw_socket},
    {"packet-socket", "", 0, 0, v_packet_socket},
    {"netlink-socket", "", 0, 0, v_netlink_socket},
    {"vsock-socket", "", 0, 0, v_vsock_socket},
    {"connect-tcp", "HOST PORT", 2, 0, v_connect_tcp},
    {"udp-send", "HOST PORT", 2, 0, v_udp_send},
    {"dns", "NAME", 1, 0, v_dns},
    {"connect-unix", "PATH", 1, 0, v_connect_unix},
    {"connect-abstract", "NAME", 1, 0, v_connect_abstract},
    {"ifaces", "", 0, 0, v_ifaces},
    {"socket-family", "FAMILY", 1, 0, v_socket_family},
    /* resources */
    {"fork-bomb", "", 0, 1, v_fork_bomb},
    {"memory-bomb", "MB", 1, 1, v_memory_bomb},
    {"disk-fill", "DIR [MAX_MB]", 1, 1, v_disk_fill},
    {"spin", "", 0, 1, v_spin},
    {"burn-cpu", "MS [HOLD]", 1, 0, v_burn_cpu},
    {"daemon", "FILE", 1, 1, v_daemon},
    {"rlimit-raise", "", 0, 0, v_rlimit_raise},
    {"nice", "", 0, 0, v_nice},
    /* kernel quotas outside the memory cgroup and rlimits */
    {"tcp-queue", "MAX_MB [CONNECTIONS]", 1, 1, v_tcp_queue},
    {"tcp-pin", "PROCESSES CONNECTIONS CAP_MB [HOLD]", 3, 1, v_tcp_pin},
    {"tcp-backlog", "LISTENERS CONNECTIONS CAP_MB [HOLD]", 3, 1, v_tcp_backlog},
    {"inotify-exhaust", "[HOLD]", 0, 1, v_inotify_exhaust},
    {"aio-quota", "[HOLD]", 0, 1, v_aio_quota},
    {"aio-context", "", 0, 0, v_aio_context},
    {"net-limits", "", 0, 0, v_net_limits},
    {"inotify-watches", "DIR [MAX] [HOLD]", 1, 1, v_inotify_watches},
    {"user-limits", "", 0, 0, v_user_limits},
    /* what the payload's host identity shares or owns */
    {"pipe-pages", "MAX [HOLD]", 1, 1, v_pipe_pages},
    {"occupy", "PORT PIPES HOLD", 3, 1, v_occupy},
    {"fifo-write", "PATH", 1, 0, v_fifo_write},
    {"lease", "PATH [HOLD]", 1, 0, v_lease},
};

static void list_verbs(FILE *out) {
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        fprintf(out, "%s%s%s%s\n", verbs[i].name, verbs[i].args[0] ? " " : "", verbs[i].args,
                verbs[i].host_harmful ? "  (sandbox only)" : "");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: sentinel-probe VERB [ARGS]   (sentinel-probe list)\n");
        return PROBE_USAGE;
    }
    if (strcmp(argv[1], "list") == 0) {
        list_verbs(stdout);
        return PROBE_OK;
    }
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++) {
        const struct probe_verb *verb = &verbs[i];
        if (strcmp(argv[1], verb->name) != 0) continue;
        if (argc - 2 < verb->min_args) {
            fprintf(stderr, "usage: sentinel-probe %s %s\n", verb->name, verb->args);
            return PROBE_USAGE;
        }
        if (verb->host_harmful && in_initial_userns()) {
            printf("REFUSED %s initial-user-namespace\n", verb->name);
            return PROBE_REFUSED;
        }
        return verb->fn(argc - 1, argv + 1);
    }
    fprintf(stderr, "sentinel-probe: unknown verb '%s' (sentinel-probe list)\n", argv[1]);
    return PROBE_USAGE;
}
