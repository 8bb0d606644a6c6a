import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Running it: `swift build --build-tests && swift test --skip-build --filter EscapeTests` as root.
// `SENTINEL_ESCAPE_LAUNCHER=/path/to/sentinel` runs the battery against another build of the CLI.
// The probe's verbs and their output contract: `sentinel-probe list`, Tests/Probe/probe.h.

/// The escape battery: each attempt is `sentinel-probe` run inside `sentinel sandbox run` with
/// the default profile, and each asserts the specific denial, not merely a failure.
/// Serialized: the resource attempts (fork and memory bombs) must not overlap other runs.
@Suite(
    .serialized,
    .enabled(if: BatteryGate.enabled, "the sandbox needs root and user namespaces on this host")
)
struct EscapeBattery {
    /// Seccomp (or missing capabilities) must refuse these with EPERM.
    static let filtered: [Attempt] =
        [
            "mount", "mount-proc", "mount-cgroup", "remount-rw", "umount", "pivot-root", "fsopen", "open-tree",
            "unshare-userns", "unshare-netns", "unshare-mntns", "clone-newns", "setns-via-pidfd",
            "ptrace-sibling", "ptrace-traceme", "process-vm-readv",
            "bpf", "perf-event-open", "userfaultfd", "keyctl", "add-key", "request-key", "io-uring-setup",
            "init-module", "finit-module", "kexec-load", "kexec-file-load",
            "open-by-handle-at", "reboot", "swapon", "acct", "personality", "tiocsti", "tioclinux",
            "chroot", "sethostname", "setdomainname", "syslog", "clock-settime", "vhangup",
        ].map { Attempt($0, denied: "EPERM") }
        // ENOSYS: kernels built without CONFIG_X86_IOPL_IOPERM (this one) have no iopl at all.
        + [Attempt("iopl", denied: "EPERM", "ENOSYS")]

    @Test("syscall filter denies with EPERM", arguments: filtered)
    func filteredSyscall(attempt: Attempt) throws {
        try SandboxHarness.with { harness in
            let run = try harness.probe(attempt.arguments, flags: attempt.flags)
            expectDenied(run, attempt)
        }
    }

    /// clone3 cannot have its flags inspected by seccomp, so it must look absent (ENOSYS) and
    /// make libc fall back to clone, whose flags the filter can check.
    @Test(arguments: [Attempt("clone3", denied: "ENOSYS"), Attempt("clone3-newuser", denied: "ENOSYS")])
    func clone3LooksAbsent(attempt: Attempt) throws {
        try SandboxHarness.with { harness in
            expectDenied(try harness.probe(attempt.arguments), attempt)
        }
    }

    /// Syscalls newer than the policy: a deny-list let each new kernel's additions through.
    /// open_tree_attr (6.15) is reviewed and denied like open_tree; the others are unreviewed
    /// and look absent. syscall-nr only shows the number is refused (the kernel would say
    /// ENOSYS too); SandboxTests' SeccompPolicyTests show it is the filter.
    static let newer: [Attempt] = [
        Attempt("newer-syscall", "open_tree_attr", denied: "EPERM"),
        Attempt("newer-syscall", "file_getattr", denied: "ENOSYS"),
        Attempt("newer-syscall", "set_mempolicy_home_node", denied: "ENOSYS"),
        Attempt("syscall-nr", "1000", denied: "ENOSYS"),
        Attempt("syscall-nr", "1073741823", denied: "ENOSYS"),
    ]

    @Test("syscall newer than the policy refused", arguments: newer)
    func newerSyscall(attempt: Attempt) throws {
        try SandboxHarness.with { harness in
            expectDenied(try harness.probe(attempt.arguments), attempt)
        }
    }

    /// Other syscall ABIs on x86_64 (ia32 `int 0x80`, x32 numbers) kill the process.
    @Test(arguments: [Attempt("int80", denied: "SIGSYS"), Attempt("x32", denied: "SIGSYS")])
    func foreignSyscallABIsAreKilled(attempt: Attempt) throws {
        try SandboxHarness.with { harness in
            expectDenied(try harness.probe(attempt.arguments), attempt)
        }
    }

    /// A positive control: the harness really runs the probe, so DENIED lines mean something.
    @Test func probeRunsAndCanWriteAnRwWorkspace() throws {
        try SandboxHarness.with { harness in
            let run = try harness.probe(["write-workspace"], flags: ["--rw"])
            #expect(run.output?.kind == .escaped, "\(run.summary)")
            #expect(run.result.status == 1, "\(run.summary)")
        }
    }
}

/// Asserts `run` printed `DENIED <verb> <one of attempt.expected>` and exited 0; one issue
/// per failed attempt, naming what the probe printed instead.
func expectDenied(_ run: SandboxRun, _ attempt: Attempt, sourceLocation: SourceLocation = #_sourceLocation) {
    let verb = attempt.arguments.first ?? ""
    let wanted = "DENIED \(verb) \(attempt.expected.sorted().joined(separator: "|"))"
    guard let output = run.output, output.kind == .denied, output.verb == verb else {
        Issue.record("expected \(wanted): \(run.summary)", sourceLocation: sourceLocation)
        return
    }
    #expect(
        attempt.expected.contains(output.detail), "expected \(wanted): \(run.summary)",
        sourceLocation: sourceLocation)
    #expect(
        run.result.status == 0 && !run.result.signaled && !run.result.timedOut, "\(run.summary)",
        sourceLocation: sourceLocation)
}
