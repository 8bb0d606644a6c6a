import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Where the red-team attempts need a scripting language inside the sandbox: the host's Python,
/// bound read-only with /usr by every shipped profile.
enum RedTeamGate {
    static let python = "/usr/bin/python3"
    static var enabled: Bool { BatteryGate.enabled && FileManager.default.isExecutableFile(atPath: python) }
}

/// The result of a run on another thread.
final class OutcomeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: Result<CommandResult, any Error>?
    func set(_ value: Result<CommandResult, any Error>) { lock.withLock { outcome = value } }
    func get() -> Result<CommandResult, any Error>? { lock.withLock { outcome } }
}

extension EscapeBattery {
    /// Red-team attempts against the idmapped workspace (issue 8, items 1 and 2) and the host
    /// resources a payload shares with host root: each test names what it tried and what
    /// must hold. A test that fails here is an open finding.
    @Suite(.enabled(if: RedTeamGate.enabled, "needs /usr/bin/python3 for the payload scripts"))
    struct RedTeamWorkspace {
        /// `sentinel sandbox run --workspace WS FLAGS -- COMMAND`, blocking.
        static func run(_ workspace: String, _ flags: [String], _ command: [String], timeout: Double = 60) throws
            -> CommandResult
        {
            try CommandRunner.run(
                PackagePaths.sentinel, ["sandbox", "run", "--workspace", workspace] + flags + ["--"] + command,
                timeout: timeout)
        }

        /// Runs a payload in the background, waits for it to create `workspace/ready`, runs
        /// `whileHeld` on the host, then creates `workspace/done` so the payload exits, and returns
        /// the run. The payload script must create `ready` and wait for `done`.
        static func holding(
            _ workspace: String, _ flags: [String], _ command: [String], whileHeld: () throws -> Void
        ) throws -> CommandResult {
            let box = OutcomeBox()
            let finished = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                box.set(Result { try Self.run(workspace, flags, command, timeout: 120) })
                finished.signal()
            }
            let deadline = Date().addingTimeInterval(90)
            while !FileManager.default.fileExists(atPath: workspace + "/ready"), Date() < deadline, box.get() == nil {
                usleep(50_000)
            }
            if FileManager.default.fileExists(atPath: workspace + "/ready") { try whileHeld() }
            FileManager.default.createFile(atPath: workspace + "/done", contents: Data())
            finished.wait()
            return try box.get()!.get()
        }

        /// A payload script: Python source run with the workspace as working directory.
        static func python(_ source: String) -> [String] { [RedTeamGate.python, "-c", source] }

        static func mode(of path: String) -> (mode: UInt32, uid: UInt32, type: UInt32)? {
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            return (UInt32(info.st_mode & 0o7777), info.st_uid, UInt32(info.st_mode & S_IFMT))
        }

        // MARK: (d) setuid artefacts through the idmapped workspace

        /// FINDING. The setuid/setgid rules live only in the built-in seccomp filter. A profile
        /// naming an OCI seccomp file (Docker's default profile, a supported feature) or
        /// `seccomp: disabled` drops them, and the payload of a root-owned `rw` workspace (idmapped
        /// root -> payload) leaves a setuid-root copy of /bin/sh on the host: any local user who
        /// can reach the workspace then runs it with euid 0.
        @Test("no setuid-root file is left whatever the profile's seccomp", arguments: ["oci", "disabled"])
        func setuidRootFileWithAnotherSeccompProfile(seccomp: String) throws {
            try SandboxHarness.with { harness in
                #expect(chown(harness.path, 0, 0) == 0)
                let setting =
                    seccomp == "oci"
                    ? PackagePaths.root + "/../shared/corpora/seccomp/docker-default.json" : "disabled"
                if seccomp == "oci" {
                    try #require(FileManager.default.fileExists(atPath: setting), "corpus missing: \(setting)")
                }
                let profile = harness.scratch.path + "/profile.yaml"
                try """
                name: redteam-\(seccomp)
                filesystem:
                  readOnly: [/usr, /bin, /sbin, /lib, /lib64, /etc]
                  tmpfs:
                    /tmp: 64M
                  workspace: rw
                seccomp: \(setting)
                """.write(toFile: profile, atomically: true, encoding: .utf8)
                let result = try Self.run(
                    harness.path, ["--profile", profile], ["/bin/sh", "-c", "cp /bin/sh rootsh; chmod 4755 rootsh"])
                let file = Self.mode(of: harness.path + "/rootsh")
                let setuidRoot = file.map { $0.mode & 0o4000 != 0 && $0.uid == 0 } ?? false
                #expect(!setuidRoot, "a setuid-root shell was left on the host: \(result.summary)")
            }
        }

        /// FINDING. Writes through a shared mapping do not clear the setuid bit (write(2),
        /// truncate and fallocate do; mmap does not). A root-owned `rw` workspace that already
        /// holds a setuid-root binary (an extracted rootfs or package tree: su, passwd, sudo)
        /// lets the payload replace that binary's code while the file stays setuid root.
        @Test func mmapWriteIntoAnExistingSetuidRootBinary() throws {
            try SandboxHarness.with { harness in
                #expect(chown(harness.path, 0, 0) == 0)
                let binary = harness.path + "/suid-helper"
                try FileManager.default.copyItem(atPath: "/bin/true", toPath: binary)
                #expect(chown(binary, 0, 0) == 0 && chmod(binary, 0o4755) == 0)
                let original = try Data(contentsOf: URL(fileURLWithPath: binary))
                let result = try Self.run(
                    harness.path, ["--rw"],
                    Self.python(
                        """
                        import mmap, os
                        fd = os.open("suid-helper", os.O_RDWR)
                        m = mmap.mmap(fd, 0)
                        m[64:72] = b"PAYLOAD!"
                        m.flush(); m.close(); os.close(fd)
                        """))
                let changed = (try? Data(contentsOf: URL(fileURLWithPath: binary))) != original
                let file = Self.mode(of: binary)
                let stillSetuidRoot = file.map { $0.mode & 0o4000 != 0 && $0.uid == 0 } ?? false
                #expect(
                    !(changed && stillSetuidRoot),
                    "the payload rewrote a setuid-root binary on the host and it stayed setuid root: \(result.summary)")
            }
        }

        /// Control for the two findings above: the built-in filter refuses the bits on chmod,
        /// O_TMPFILE and creation modes, and file capabilities (security.capability through the
        /// idmapped mount) need CAP_SETFCAP, which the payload lacks.
        @Test func builtInFilterRefusesSetidBitsAndFileCapabilities() throws {
            try SandboxHarness.with { harness in
                #expect(chown(harness.path, 0, 0) == 0)
                let result = try Self.run(
                    harness.path, ["--rw"],
                    Self.python(
                        """
                        import os, shutil
                        shutil.copy("/bin/true", "t")
                        for name, call in [
                            ("chmod", lambda: os.chmod("t", 0o4755)),
                            ("chmod-g", lambda: os.chmod(".", 0o2755)),
                            ("creat", lambda: os.close(os.open("c", os.O_CREAT | os.O_WRONLY, 0o4755))),
                            ("tmpfile", lambda: os.close(os.open(".", os.O_TMPFILE | os.O_WRONLY, 0o6755))),
                            ("fcap", lambda: os.setxattr("t", "security.capability",
                                bytes([1, 0, 0, 2]) + b"\\xff" * 4 + bytes(12))),
                        ]:
                            try:
                                call(); print(name, "ALLOWED")
                            except OSError as e:
                                print(name, "denied", e.errno)
                        """))
                #expect(result.status == 0, "\(result.summary)")
                #expect(!result.stdout.contains("ALLOWED"), "\(result.summary)")
                for name in ["t", "c", "."] {
                    if let file = Self.mode(of: harness.path + "/" + name) {
                        #expect(file.mode & 0o6000 == 0, "\(name) has mode \(String(file.mode, radix: 8))")
                    }
                }
                let capability = try CommandRunner.run(
                    RedTeamGate.python, ["-c", "import os, sys; print(os.listxattr(sys.argv[1]))", harness.path + "/t"],
                    timeout: 30)
                #expect(!capability.stdout.contains("security.capability"), "\(capability.summary)")
            }
        }

        // MARK: (d) device nodes

        /// FINDING (low). mknod of a 0:0 character device (an overlayfs whiteout) needs no
        /// capability, so the payload leaves root-owned device nodes in an `rw` workspace. 0:0
        /// has no driver, but a whiteout hides the file of the same name when the tree is later
        /// used as an overlay layer.
        @Test func noDeviceNodeIsLeftInAnRwWorkspace() throws {
            try SandboxHarness.with { harness in
                #expect(chown(harness.path, 0, 0) == 0)
                let result = try Self.run(
                    harness.path, ["--rw"],
                    Self.python("import os, stat\nos.mknod('whiteout', stat.S_IFCHR | 0o600, os.makedev(0, 0))"))
                let file = Self.mode(of: harness.path + "/whiteout")
                #expect(
                    file == nil || (file!.type != UInt32(S_IFCHR) && file!.type != UInt32(S_IFBLK)),
                    "a device node was left on the host: \(result.summary)")
            }
        }

        /// Device nodes already in the workspace (a tarball extracted by root) are unusable in
        /// every mode: the tree is nodev.
        @Test("a device node in the workspace cannot be opened", arguments: ["--ro", "--rw", "--overlay"])
        func deviceNodeInTheWorkspaceCannotBeOpened(mode: String) throws {
            try SandboxHarness.with { harness in
                #expect(mknod(harness.path + "/zero", S_IFCHR | 0o666, dev_t((1 << 8) | 5)) == 0)
                chmod(harness.path + "/zero", 0o666)
                let result = try Self.run(
                    harness.path, [mode],
                    Self.python(
                        """
                        try:
                            open("zero", "rb").read(4); print("OPENED")
                        except OSError as e:
                            print("denied", e.errno)
                        """))
                #expect(result.stdout == "denied \(EACCES)\n", "\(result.summary)")
            }
        }

        // MARK: (a) host files outside the workspace

        /// FINDING (needs a pre-existing link). A hard link in a root-owned `rw` workspace to a
        /// root-owned file elsewhere on the same filesystem (`git clone --local` makes exactly
        /// these for .git/objects) is writable by the payload, which appears to own it: the
        /// write lands in the file outside the workspace.
        @Test func existingHardLinkDoesNotReachAFileOutside() throws {
            try SandboxHarness.with { harness in
                #expect(chown(harness.path, 0, 0) == 0)
                let outside = harness.scratch.path + "/outside"
                try "precious\n".write(toFile: outside, atomically: false, encoding: .utf8)
                chmod(outside, 0o444)
                #expect(link(outside, harness.path + "/object") == 0)
                let result = try Self.run(
                    harness.path, ["--rw"],
                    ["/bin/sh", "-c", "chmod u+w object; echo overwritten > object"])
                let text = try? String(contentsOfFile: outside, encoding: .utf8)
                #expect(text == "precious\n", "a file outside the workspace was rewritten: \(result.summary)")
            }
        }

        /// The payload cannot make such a link itself: linking a descriptor of a file outside
        /// the workspace (/proc/self/fd/N, same host filesystem) crosses a mount.
        @Test func linkingAnOutsideFileIntoTheWorkspaceIsCrossDevice() throws {
            try SandboxHarness.with { harness in
                let result = try Self.run(
                    harness.path, ["--rw"],
                    Self.python(
                        """
                        import os
                        fd = os.open("/etc/hostname", os.O_RDONLY)
                        try:
                            os.link("/proc/self/fd/%d" % fd, "hostname", follow_symlinks=True); print("LINKED")
                        except OSError as e:
                            print("denied", e.errno)
                        """))
                #expect(result.stdout == "denied \(EXDEV)\n", "\(result.summary)")
                #expect(!FileManager.default.fileExists(atPath: harness.path + "/hostname"))
            }
        }

        /// A directory the payload stands in, moved out of the workspace by the host meanwhile,
        /// gives no way up into the host tree it now sits in (the kernel refuses `..` from a
        /// disconnected path).
        @Test func directoryMovedOutOfTheWorkspaceGivesNoWayUp() throws {
            try SandboxHarness.with { harness in
                try FileManager.default.createDirectory(atPath: harness.path + "/a/b", withIntermediateDirectories: true)
                chmod(harness.path + "/a", 0o777)
                chmod(harness.path + "/a/b", 0o777)
                let hostDir = harness.scratch.path + "/host"
                try FileManager.default.createDirectory(atPath: hostDir, withIntermediateDirectories: true)
                try "host-secret\n".write(toFile: hostDir + "/secret", atomically: false, encoding: .utf8)
                let result = try Self.holding(
                    harness.path, ["--rw"],
                    Self.python(
                        """
                        import os, time
                        os.chdir("/workspace/a/b")
                        open("/workspace/ready", "w").close()
                        while not os.path.exists("go"):
                            time.sleep(0.05)
                        for path in ["../secret", "../../host/secret", "../..", "../../..", "../../../.."]:
                            try:
                                if os.path.isdir(path) or path.endswith(".."):
                                    print(path, "LISTED", sorted(os.listdir(path)))
                                else:
                                    print(path, "READ", open(path).read().strip())
                            except OSError as e:
                                print(path, "denied", e.errno)
                        """)
                ) {
                    #expect(rename(harness.path + "/a/b", hostDir + "/b") == 0)
                    FileManager.default.createFile(atPath: hostDir + "/b/go", contents: Data())
                }
                #expect(result.status == 0, "\(result.summary)")
                #expect(!result.stdout.contains("LISTED") && !result.stdout.contains("READ"), "\(result.summary)")
                #expect(result.stdout.components(separatedBy: " denied ").count == 6, "every attempt must run: \(result.summary)")
            }
        }

        /// Mounts below the workspace are not carried into the sandbox (the tree is cloned
        /// without AT_RECURSIVE): a bind of /etc inside the workspace shows the empty directory
        /// beneath it.
        @Test("a mount inside the workspace is not exposed", arguments: ["--ro", "--rw", "--overlay"])
        func mountInsideTheWorkspaceIsNotExposed(mode: String) throws {
            try SandboxHarness.with { harness in
                let point = harness.path + "/etc-bind"
                try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
                #expect(mount("/etc", point, nil, UInt(MS_BIND), nil) == 0)
                defer { umount2(point, Int32(MNT_DETACH)) }
                let result = try Self.run(harness.path, [mode], ["/bin/ls", "-A", "/workspace/etc-bind"])
                #expect(result.status == 0 && result.stdout.isEmpty, "\(result.summary)")
            }
        }

        /// A workspace on a filesystem that cannot be idmapped (ramfs) fails to start in the
        /// writable modes instead of falling back to giving the payload the owner's host ids.
        @Test("a filesystem without idmapping fails closed", arguments: ["--rw", "--overlay"])
        func filesystemWithoutIdmappingFailsClosed(mode: String) throws {
            try SandboxHarness.with { harness in
                let point = harness.scratch.path + "/ramfs"
                try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
                try #require(mount("none", point, "ramfs", 0, nil) == 0)
                defer { umount2(point, Int32(MNT_DETACH)) }
                mkdir(point + "/ws", 0o755)
                let result = try Self.run(
                    point + "/ws", [mode], ["/bin/sh", "-c", "touch /workspace/x; cat /proc/self/uid_map"])
                #expect(result.status == 125, "\(result.summary)")
                #expect(!FileManager.default.fileExists(atPath: point + "/ws/x"), "\(result.summary)")
            }
        }

        // MARK: (e) host resources shared with host root through the user namespace's owner

        /// Runs `check` (Python, as host root) while a payload holds `hold` (Python that creates
        /// `ready` when it has taken all it can and then waits for `done`); returns both outputs.
        static func hostCheckWhilePayloadHolds(_ harness: SandboxHarness, hold: String, check: String) throws
            -> (payload: CommandResult, host: CommandResult?)
        {
            var host: CommandResult?
            let payload = try holding(
                harness.path, ["--rw"],
                python(
                    hold + """

                    open("ready", "w").close()
                    import time
                    for _ in range(1200):
                        if os.path.exists("done"): break
                        time.sleep(0.05)
                    """)
            ) {
                host = try CommandRunner.run(RedTeamGate.python, ["-c", check], timeout: 60)
            }
            return (payload, host)
        }

        /// FINDING. Pending signals are counted per user along the user-namespace chain, and the
        /// sandbox's namespace belongs to host root: a payload that queues real-time signals to
        /// itself up to its RLIMIT_SIGPENDING (inherited from the launcher) uses up host root's
        /// own quota, so every root process on the host gets EAGAIN from timer_create() and
        /// from queued signals (sigqueue, pthread_kill of RT signals) for the whole run.
        @Test func queuedSignalsDoNotExhaustHostRootsQuota() throws {
            try SandboxHarness.with { harness in
                let (payload, host) = try Self.hostCheckWhilePayloadHolds(
                    harness,
                    hold: """
                        import os, signal, threading
                        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGRTMIN])
                        queued = 0
                        try:
                            while queued < 10_000_000:
                                signal.pthread_kill(threading.get_ident(), signal.SIGRTMIN); queued += 1
                        except OSError:
                            pass
                        print("queued", queued, flush=True)
                        """,
                    check: """
                        import ctypes
                        libc = ctypes.CDLL(None, use_errno=True)
                        timer = ctypes.c_void_p()
                        rc = libc.timer_create(1, None, ctypes.byref(timer))
                        print("timer_create", rc, ctypes.get_errno() if rc else 0)
                        if rc == 0: libc.timer_delete(timer)
                        """)
                #expect(payload.stdout.hasPrefix("queued"), "\(payload.summary)")
                #expect(host?.stdout == "timer_create 0 0\n", "host root lost its pending-signal quota: host \(host?.summary ?? "not run"); payload \(payload.summary)")
            }
        }

        /// FINDING. The same for POSIX message queues (RLIMIT_MSGQUEUE, bytes per user): nine
        /// default-sized queues in the sandbox's own IPC namespace make mq_open fail with
        /// EMFILE for every root process on the host.
        @Test func messageQueuesDoNotExhaustHostRootsQuota() throws {
            try SandboxHarness.with { harness in
                let (payload, host) = try Self.hostCheckWhilePayloadHolds(
                    harness,
                    hold: """
                        import ctypes, os
                        rt = ctypes.CDLL("librt.so.1", use_errno=True)
                        made = 0
                        while made < 1000 and rt.mq_open(b"/redteam-%d" % made, os.O_CREAT | os.O_RDWR, 0o600, None) >= 0:
                            made += 1
                        print("queues", made, flush=True)
                        """,
                    check: """
                        import ctypes, os
                        rt = ctypes.CDLL("librt.so.1", use_errno=True)
                        name = b"/sentinel-redteam-host-%d" % os.getpid()
                        fd = rt.mq_open(name, os.O_CREAT | os.O_RDWR, 0o600, None)
                        print("mq_open", 0 if fd >= 0 else ctypes.get_errno())
                        if fd >= 0: rt.mq_unlink(name)
                        """)
                #expect(payload.stdout.hasPrefix("queues"), "\(payload.summary)")
                #expect(host?.stdout == "mq_open 0\n", "host root lost its message-queue quota: host \(host?.summary ?? "not run"); payload \(payload.summary)")
            }
        }
    }
}
