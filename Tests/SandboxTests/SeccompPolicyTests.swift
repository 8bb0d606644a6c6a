import Foundation
import Sandbox
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The built-in seccomp program, evaluated instruction by instruction (SeccompBPF) for chosen
/// syscalls: what it answers, independent of what the kernel would have answered anyway.
/// x86_64 numbers: the policy and these tests are for that architecture.
@Suite struct SeccompPolicyTests {
    static let allowed = SeccompVerdict.allow
    static func errno(_ value: Int32) -> SeccompVerdict { .errno(value) }

    let bpf: SeccompBPF

    init() throws {
        bpf = SeccompBPF(try SeccompProgram.builtIn())
    }

    /// Numbers no kernel has (yet): refused as absent, so a syscall a future kernel adds is
    /// denied until someone reviews it.
    @Test(arguments: [Int32(600), 1000, 4095, 0x3FFF_FFFF])
    func unknownSyscallNumbersAreAbsent(nr: Int32) throws {
        #expect(try bpf.run(SyscallCall(nr)) == .errno(ENOSYS))
    }

    /// Syscalls newer than libseccomp 2.5.4's table or than the policy: each has a reviewed answer.
    @Test(arguments: [
        (Int32(450), "set_mempolicy_home_node", SeccompVerdict.errno(ENOSYS)),
        (459, "lsm_get_self_attr", .errno(ENOSYS)),
        (460, "lsm_set_self_attr", .errno(EPERM)),
        (461, "lsm_list_modules", .errno(ENOSYS)),
        (467, "open_tree_attr", .errno(EPERM)),
        (468, "file_getattr", .errno(ENOSYS)),
        (469, "file_setattr", .errno(ENOSYS)),
        (452, "fchmodat2 0644", .allow),
        (453, "map_shadow_stack", .allow),
        (454, "futex_wake", .allow),
        (462, "mseal", .allow),
    ])
    func newerSyscalls(nr: Int32, name: String, verdict: SeccompVerdict) throws {
        let mode: UInt64 = nr == 452 ? 0o644 : 0
        #expect(try bpf.run(SyscallCall(nr, 0, 0, mode)) == verdict, "\(name)")
    }

    /// Linux AIO is absent (ENOSYS, as on a kernel without CONFIG_AIO), like io_uring: its event
    /// pool (fs.aio-max-nr) is one for the whole host, and one io_setup can take all of it.
    @Test(arguments: [
        (Int32(206), "io_setup"), (207, "io_destroy"), (208, "io_getevents"), (209, "io_submit"),
        (210, "io_cancel"), (333, "io_pgetevents"),
    ])
    func asynchronousIOIsAbsent(nr: Int32, name: String) throws {
        #expect(try bpf.run(SyscallCall(nr, 64)) == .errno(ENOSYS), "\(name)")
    }

    /// setsockopt(SO_RCVBUF) succeeds without effect (a connection nobody accepts belongs to no
    /// cgroup and keeps its listener's buffer); the other buffer options pass.
    @Test(arguments: [
        (SyscallCall(54, 3, 1, 8), "SOL_SOCKET SO_RCVBUF", SeccompVerdict.errno(0)),
        (SyscallCall(54, 3, 1, 7), "SOL_SOCKET SO_SNDBUF", .allow),
        (SyscallCall(54, 3, 6, 8), "IPPROTO_TCP 8", .allow),
        (SyscallCall(55, 3, 1, 8), "getsockopt SO_RCVBUF", .allow),
    ])
    func receiveBufferSizeIsTheKernels(call: SyscallCall, name: String, verdict: SeccompVerdict) throws {
        #expect(try bpf.run(call) == verdict, "\(name)")
    }

    /// The explicit denials keep the errnos the escape battery checks.
    @Test(arguments: [
        (SyscallCall(101), "ptrace", SeccompVerdict.errno(EPERM)),
        (SyscallCall(165), "mount", .errno(EPERM)),
        (SyscallCall(321), "bpf", .errno(EPERM)),
        (SyscallCall(272), "unshare", .errno(EPERM)),
        (SyscallCall(425), "io_uring_setup", .errno(EPERM)),
        (SyscallCall(298), "perf_event_open", .errno(EPERM)),
        (SyscallCall(154), "modify_ldt", .errno(EPERM)),
        (SyscallCall(435), "clone3", .errno(ENOSYS)),
        (SyscallCall(437), "openat2", .errno(ENOSYS)),
        (SyscallCall(56, 0x1000_0000 | 17), "clone(CLONE_NEWUSER)", .errno(EPERM)),
        (SyscallCall(56, 0x80 | 17), "clone(CLONE_NEWTIME)", .errno(EPERM)),
        (SyscallCall(16, 0, 0x5412), "ioctl(TIOCSTI)", .errno(EPERM)),
        (SyscallCall(16, 0, 0x541C), "ioctl(TIOCLINUX)", .errno(EPERM)),
        (SyscallCall(90, 0, 0o4755), "chmod(04755)", .errno(EPERM)),
        (SyscallCall(257, 0, 0, 0o101, 0o2755), "openat(O_CREAT, 02755)", .errno(EPERM)),
        (SyscallCall(135, 0x0040_0000), "personality(READ_IMPLIES_EXEC)", .errno(EPERM)),
        (SyscallCall(135, 0xFFFF_FFFF), "personality(query)", .errno(EPERM)),
        (SyscallCall(157, 35), "prctl(PR_SET_MM)", .errno(EPERM)),
    ])
    func explicitDenials(call: SyscallCall, name: String, verdict: SeccompVerdict) throws {
        #expect(try bpf.run(call) == verdict, "\(name)")
    }

    /// The analysis's variant (`defaultWithOpenat2`, for a sandbox with no writable mount that
    /// reaches the host) differs in `openat2` alone: every other denial stays.
    @Test func theOpenat2VariantAllowsOpenat2Only() throws {
        let variant = SeccompBPF(try SeccompProgram.builtIn(allowingOpenat2: true))
        #expect(try variant.run(SyscallCall(437)) == .allow, "openat2")
        #expect(try bpf.run(SyscallCall(437)) == .errno(ENOSYS), "openat2 in the default")
        for (call, name) in [
            (SyscallCall(101), "ptrace"), (SyscallCall(165), "mount"), (SyscallCall(90, 0, 0o4755), "chmod(04755)"),
            (SyscallCall(257, 0, 0, 0o101, 0o2755), "openat(O_CREAT, 02755)"), (SyscallCall(435), "clone3"),
            (SyscallCall(56, 0x1000_0000 | 17), "clone(CLONE_NEWUSER)"), (SyscallCall(600), "unknown"),
        ] {
            #expect(try variant.run(call) == bpf.run(call), "\(name)")
        }
    }

    /// What every payload needs, including the flags glibc and CPython pass.
    @Test(arguments: [
        (SyscallCall(0), "read"), (SyscallCall(1), "write"), (SyscallCall(59), "execve"),
        (SyscallCall(257, 0, 0, 0o2_000_000), "openat(O_CLOEXEC)"),
        (SyscallCall(257, 0, 0, 0o101, 0o644), "openat(O_CREAT, 0644)"),
        (SyscallCall(56, 0x0120_0011), "clone(fork)"),
        (SyscallCall(56, 0x003D_0F00), "clone(pthread_create)"),
        (SyscallCall(56, 0x0000_4111), "clone(posix_spawn)"),
        (SyscallCall(202), "futex"), (SyscallCall(334), "rseq"), (SyscallCall(332), "statx"),
        (SyscallCall(318), "getrandom"), (SyscallCall(436), "close_range"), (SyscallCall(439), "faccessat2"),
        (SyscallCall(441), "epoll_pwait2"), (SyscallCall(158, 0x1002), "arch_prctl(ARCH_SET_FS)"),
        (SyscallCall(16, 0, 0x5401), "ioctl(TCGETS)"), (SyscallCall(157, 15), "prctl(PR_SET_NAME)"),
        (SyscallCall(135, 0), "personality(PER_LINUX)"),
    ])
    func everydaySyscallsPass(call: SyscallCall, name: String) throws {
        #expect(try bpf.run(call) == .allow, "\(name)")
    }

    /// socket(): Unix, and TCP/UDP over IPv4/IPv6; any other protocol is one this kernel does not
    /// have (EPROTONOSUPPORT), raw access needs a capability (EPERM), other families are absent.
    @Test(arguments: [
        (SyscallCall(41, 1, 1, 0), "unix stream", SeccompVerdict.allow),
        (SyscallCall(41, 1, 2 | 0x80000, 0), "unix dgram cloexec", .allow),
        (SyscallCall(41, 1, 5, 0), "unix seqpacket", .allow),
        (SyscallCall(41, 2, 1 | 0x80800, 0), "inet stream nonblock cloexec", .allow),
        (SyscallCall(41, 2, 1, 6), "inet stream tcp", .allow),
        (SyscallCall(41, 10, 1, 0), "inet6 stream", .allow),
        (SyscallCall(41, 2, 2, 0), "inet dgram", .allow),
        (SyscallCall(41, 10, 2, 17), "inet6 dgram udp", .allow),
        (SyscallCall(41, 2, 1, 262), "inet mptcp", .errno(EPROTONOSUPPORT)),
        (SyscallCall(41, 10, 1, 262), "inet6 mptcp", .errno(EPROTONOSUPPORT)),
        (SyscallCall(41, 2, 2, 136), "inet udplite", .errno(EPROTONOSUPPORT)),
        (SyscallCall(41, 10, 2, 136), "inet6 udplite", .errno(EPROTONOSUPPORT)),
        (SyscallCall(41, 2, 5, 132), "inet sctp", .errno(EPROTONOSUPPORT)),
        (SyscallCall(41, 2, 1, 132), "inet stream sctp", .errno(EPROTONOSUPPORT)),
        (SyscallCall(41, 2, 2, 1), "inet ping", .errno(EPROTONOSUPPORT)),
        (SyscallCall(41, 10, 2, 58), "inet6 ping", .errno(EPROTONOSUPPORT)),
        (SyscallCall(41, 2, 6, 33), "inet dccp", .errno(EPROTONOSUPPORT)),
        (SyscallCall(41, 2, 3, 1), "inet raw", .errno(EPERM)),
        (SyscallCall(41, 10, 3, 58), "inet6 raw", .errno(EPERM)),
        (SyscallCall(41, 2, 10, 0x300), "inet packet", .errno(EPERM)),
        (SyscallCall(41, 16, 3, 0), "netlink", .errno(EAFNOSUPPORT)),
        (SyscallCall(41, 17, 3, 0x300), "packet", .errno(EAFNOSUPPORT)),
        (SyscallCall(41, 40, 1, 0), "vsock", .errno(EAFNOSUPPORT)),
        (SyscallCall(41, 38, 5, 0), "alg", .errno(EAFNOSUPPORT)),
        (SyscallCall(41, 0x1_0000_0002, 1, 0), "inet with high bits set", .errno(EAFNOSUPPORT)),
    ])
    func socketFamiliesAndProtocols(call: SyscallCall, name: String, verdict: SeccompVerdict) throws {
        #expect(try bpf.run(call) == verdict, "\(name)")
    }

    /// Other syscall ABIs kill the process (the ia32 entry, x32 numbers).
    @Test func foreignABIsAreKilled() throws {
        #expect(try bpf.run(SyscallCall(20, arch: SyscallCall.auditArchI386)) == .killProcess)
        #expect(try bpf.run(SyscallCall(0x4000_0000 | 39)) == .killProcess)
    }

    /// At least as strict as Docker's default profile (compiled here as for a payload with no
    /// capabilities): every call the built-in program allows, Docker's allows too.
    @Test(
        .needsCorpus("seccomp/docker-default.json"))
    func neverLooserThanDockersDefault() throws {
        let docker = SeccompBPF(try SeccompProgram.oci(path: Paths.corpora + "/seccomp/docker-default.json"))
        var calls = (0..<1024).map { SyscallCall(Int32($0)) }
        for domain: UInt64 in 0...45 {
            for type: UInt64 in [1, 2, 3, 4, 5, 6, 10, 1 | 0x80000] {
                for proto: UInt64 in [0, 1, 6, 17, 58, 132, 136, 262] {
                    calls.append(SyscallCall(41, domain, type, proto))
                }
            }
        }
        for flags: UInt64 in [0x11, 0x0120_0011, 0x003D_0F00, 0x0002_0011, 0x1000_0011, 0x4000_0011, 0x91] {
            calls.append(SyscallCall(56, flags))
        }
        for persona: UInt64 in [0, 8, 0x20000, 0x20008, 0xFFFF_FFFF, 0x0040_0000, 0x0004_0000, 3] {
            calls.append(SyscallCall(135, persona))
        }
        var looser: [String] = []
        for call in calls where try bpf.run(call) == .allow && docker.run(call) != .allow {
            looser.append(call.description)
        }
        #expect(
            looser.isEmpty,
            "\(looser.count) calls allowed here, denied by Docker's default: \(looser.prefix(24).joined(separator: " "))")
    }
}
