import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EscapeBattery {
    /// Writing outside the workspace, reading what the sandbox leaves out, linking out of it.
    @Suite struct Filesystem {
        static let attempts: [Attempt] = [
            Attempt("write-outside", denied: "EROFS"),
            Attempt("write-workspace", denied: "EROFS"),
            Attempt("read-file", "/etc/shadow", denied: "EACCES", "ENOENT"),
            Attempt("read-file", "/etc/gshadow", denied: "EACCES", "ENOENT"),
            Attempt("read-file", "/root/.bashrc", denied: "ENOENT"),
            Attempt("read-file", "/root/.profile", denied: "ENOENT"),
            Attempt("read-file", "/proc/1/root/etc/shadow", denied: "EACCES", "ENOENT"),
            Attempt(
                "hardlink", "/etc/passwd", "/workspace/passwd-link", denied: "EXDEV", "EROFS", "EPERM", flags: ["--rw"]),
            Attempt(
                "rename", "/etc/hostname", "/workspace/hostname", denied: "EXDEV", "EROFS", "EACCES", "EPERM",
                flags: ["--rw"]),
            Attempt("dev-access", denied: "ENOENT"),
            Attempt("sys-access", denied: "ENOENT"),
            Attempt("proc-kcore", denied: "ENOENT", "EACCES"),
            // World-readable on the host, masked inside (Docker's maskedPaths and more).
            Attempt("read-file", "/proc/config.gz", denied: "EACCES", "ENOENT"),
            Attempt("read-file", "/proc/ioports", denied: "EACCES", "ENOENT"),
            Attempt("read-file", "/proc/interrupts", denied: "EACCES", "ENOENT"),
            Attempt("list-dir", "/proc/acpi", denied: "EACCES", "ENOENT"),
            Attempt("proc-sys-write", denied: "EROFS", "EACCES"),
            Attempt("proc-sys-write", "/proc/sys/kernel/core_pattern", denied: "EROFS", "EACCES"),
            Attempt("sysrq-trigger", denied: "EROFS", "EACCES", "ENOENT"),
            Attempt("mknod", denied: "EPERM"),
            Attempt("write-path", "/sys/fs/cgroup", denied: "ENOENT", "EROFS", "EACCES"),
            Attempt("proc-sys-write", "/proc/sys/fs/binfmt_misc/register", denied: "ENOENT", "EROFS", "EACCES"),
            // The runc CVE-2019-5736 shape: a host binary reached through /proc/PID/exe.
            Attempt("proc-exe-write", denied: "EACCES", "ETXTBSY", "EROFS", "ENOENT", "EPERM"),
        ]

        @Test("filesystem attempt denied", arguments: attempts)
        func denied(attempt: Attempt) throws {
            try SandboxHarness.with { harness in
                expectDenied(try harness.probe(attempt.arguments, flags: attempt.flags), attempt)
            }
        }

        /// The sandbox's root holds the bound system paths, not the host's other trees
        /// (`/work` holds every worktree on this machine; `/home` and `/root` hold credentials).
        @Test func rootHasNoHostTrees() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["list-dir", "/"])
                let entries = Set(run.output?.fields["entries"]?.split(separator: ",").map(String.init) ?? [])
                #expect(run.output?.kind == .info && entries.contains("usr"), "\(run.summary)")
                let forbidden: Set = ["home", "root", "opt", "boot", "srv", "mnt", "media", "work", "sys", "old_root"]
                #expect(entries.isDisjoint(with: forbidden), "host trees visible: \(entries.intersection(forbidden))")
            }
        }

        /// A host file outside the workspace (here in the host's /tmp) is not there inside.
        @Test func plantedHostFileIsNotVisible() throws {
            let secretDir = try TemporaryDirectory(prefix: "sentinel-escape-secret")
            defer { secretDir.remove() }
            let secret = secretDir.path + "/secret"
            try "s3cr3t\n".write(toFile: secret, atomically: false, encoding: .utf8)
            chmod(secretDir.path, 0o755)
            chmod(secret, 0o644)
            try SandboxHarness.with { harness in
                expectDenied(try harness.probe(["read-file", secret]), Attempt("read-file", denied: "ENOENT"))
            }
        }

        /// A symlink planted in the workspace pointing at a host secret resolves inside the
        /// sandbox's root, where that path does not exist.
        @Test func symlinkOutOfTheWorkspaceLeadsNowhere() throws {
            let secretDir = try TemporaryDirectory(prefix: "sentinel-escape-secret")
            defer { secretDir.remove() }
            let secret = secretDir.path + "/secret"
            try "s3cr3t\n".write(toFile: secret, atomically: false, encoding: .utf8)
            chmod(secretDir.path, 0o755)
            chmod(secret, 0o644)
            try SandboxHarness.with { harness in
                try FileManager.default.createSymbolicLink(atPath: harness.path + "/link", withDestinationPath: secret)
                try FileManager.default.createSymbolicLink(
                    atPath: harness.path + "/dotdot", withDestinationPath: "../../../../../../.." + secret)
                expectDenied(
                    try harness.probe(["follow-symlink", "/workspace/link"]),
                    Attempt("follow-symlink", denied: "ENOENT"))
                expectDenied(
                    try harness.probe(["follow-symlink", "/workspace/dotdot"]),
                    Attempt("follow-symlink", denied: "ENOENT"))
            }
        }

        /// Writes in an overlay workspace land in a throwaway layer: the host tree is unchanged.
        @Test func overlayWritesNeverReachTheHost() throws {
            try SandboxHarness.with { harness in
                let run = try harness.command(
                    ["/bin/sh", "-c", "echo x > /workspace/overlay-file && cat /workspace/overlay-file"],
                    flags: ["--overlay"])
                #expect(run.result.status == 0, "\(run.summary)")
                #expect(run.result.stdout == "x\n", "the overlay must accept writes: \(run.summary)")
                #expect(!FileManager.default.fileExists(atPath: harness.path + "/overlay-file"))
            }
        }

        /// A setuid bit set inside an rw workspace must not leave a setuid-root file on the host.
        @Test func noSetuidRootFileLeftInAnRwWorkspace() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["chmod-setuid", "suid-file"], flags: ["--rw"])
                #expect(run.output?.kind != .escaped, "\(run.summary)")
                var st = stat()
                if stat(harness.path + "/suid-file", &st) == 0 {
                    let setuidRoot = st.st_mode & S_ISUID != 0 && st.st_uid == 0
                    #expect(!setuidRoot, "the sandbox left a setuid-root file on the host: \(run.summary)")
                }
            }
        }

        /// Nor through a creating open: open and openat with O_CREAT, openat with O_TMPFILE.
        @Test func noFileIsCreatedWithASetuidMode() throws {
            try SandboxHarness.with { harness in
                expectDenied(try harness.probe(["create-setuid"], flags: ["--rw"]), Attempt("create-setuid", denied: "EPERM"))
            }
        }

        /// An open that creates nothing reads no mode: whatever its unused mode argument holds,
        /// it opens. jemalloc's raw two-argument open of overcommit_memory was refused by the
        /// setuid rule on a stray bit, and it then committed every page with a syscall of its own.
        @Test func anOpenThatCreatesNothingIgnoresItsMode() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["open-stray-mode"])
                #expect(run.output?.kind == .info, "\(run.summary)")
                #expect(run.output?.detail == "opened=2", "\(run.summary)")
            }
        }

        /// A setuid-root binary in the workspace runs with the caller's ids (nosuid, no_new_privs).
        @Test func setuidBinaryGainsNothing() throws {
            try SandboxHarness.with { harness in
                let copy = harness.path + "/sentinel-probe-suid"
                try FileManager.default.copyItem(atPath: PackagePaths.probe, toPath: copy)
                #expect(chown(copy, 0, 0) == 0)
                #expect(chmod(copy, 0o4755) == 0)
                let run = try harness.command(["/workspace/sentinel-probe-suid", "euid"])
                #expect(run.output?.kind == .info, "\(run.summary)")
                let euid = run.output?.fields["euid"]
                #expect(euid != nil && euid != "0", "setuid gained root: \(run.summary)")
            }
        }
    }
}
