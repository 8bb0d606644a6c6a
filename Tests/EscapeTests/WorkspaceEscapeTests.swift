import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EscapeBattery {
    /// The workspace is the one host tree the payload may touch: it must be exactly the directory
    /// the caller named, never a system tree, and never grant the payload host uid 0.
    @Suite struct Workspace {
        /// Runs `sentinel sandbox run --workspace WORKSPACE FLAGS -- COMMAND`.
        static func run(workspace: String, flags: [String], _ command: [String]) throws -> CommandResult {
            try CommandRunner.run(
                PackagePaths.sentinel, ["sandbox", "run", "--workspace", workspace] + flags + ["--"] + command,
                timeout: 60)
        }

        /// A cloned repository (or an earlier `--rw` run) can ship `src -> /etc`: the launcher must
        /// refuse it in every mode rather than bind /etc at /workspace.
        @Test("a symlinked workspace is refused", arguments: ["--rw", "--ro", "--overlay"])
        func symlinkedWorkspaceIsRefused(mode: String) throws {
            try SandboxHarness.with { harness in
                try FileManager.default.createSymbolicLink(atPath: harness.path + "/src", withDestinationPath: "/etc")
                let result = try Self.run(
                    workspace: harness.path + "/src", flags: [mode], ["/bin/cat", "/workspace/shadow"])
                #expect(result.status == 2, "\(result.summary)")
                #expect(!result.stdout.contains("root:"), "the payload read the host's /etc/shadow: \(result.summary)")
                #expect(result.stderr.contains("symbolic link"), "\(result.summary)")
            }
        }

        /// A link in the middle of the path (`repo/up -> /`, `--workspace repo/up/etc`) is refused too.
        @Test func symlinkInsideTheWorkspacePathIsRefused() throws {
            try SandboxHarness.with { harness in
                try FileManager.default.createSymbolicLink(atPath: harness.path + "/up", withDestinationPath: "/")
                let result = try Self.run(
                    workspace: harness.path + "/up/etc", flags: ["--rw"], ["/bin/cat", "/workspace/shadow"])
                #expect(result.status == 2, "\(result.summary)")
                #expect(!result.stdout.contains("root:"), "\(result.summary)")
            }
        }

        static let systemDirectories = ["/", "/etc", "/usr", "/root", "/boot", "/proc", "/sys", "/dev", "/run", "/var"]

        /// System trees are never a workspace, whatever the mode.
        @Test("a system directory is refused as the workspace", arguments: systemDirectories)
        func systemDirectoryIsRefused(path: String) throws {
            let result = try Self.run(workspace: path, flags: ["--ro"], ["/bin/true"])
            #expect(result.status == 2, "\(result.summary)")
            #expect(result.stderr.contains("system directory"), "\(result.summary)")
        }

        /// Nothing beneath a system tree is a workspace either (`/etc/apt`, `/root/.ssh`, `/run/sentinel`).
        @Test(
            "a directory beneath a system tree is refused",
            arguments: ["/etc/apt", "/usr/local/bin", "/var/spool", "/var/lib/dpkg", "/run", "/root"])
        func systemSubtreeIsRefused(parent: String) throws {
            // A fresh hidden directory beneath the tree (beneath /root, hidden ones are refused).
            let directory = parent + "/.sentinel-escape-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            if parent == "/run" || parent == "/root" {
                #expect(mkdir(directory, 0o755) == 0)
            }
            defer { if parent == "/run" || parent == "/root" { rmdir(directory) } }
            let workspace = parent == "/run" || parent == "/root" ? directory : parent
            let result = try Self.run(workspace: workspace, flags: ["--ro"], ["/bin/true"])
            #expect(result.status == 2, "\(workspace): \(result.summary)")
            #expect(result.stderr.contains("system directory"), "\(result.summary)")
        }

        /// The narrow allow-list: scratch beneath /var/tmp, and a project directory in root's home.
        @Test("scratch beneath /var/tmp and a project in root's home are accepted", arguments: ["/var/tmp", "/root"])
        func allowedSubtreeIsAccepted(parent: String) throws {
            let directory = parent + "/sentinel-escape-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            #expect(mkdir(directory, 0o755) == 0)
            defer { rmdir(directory) }
            let result = try Self.run(workspace: directory, flags: ["--ro"], ["/bin/true"])
            #expect(result.status == 0, "\(directory): \(result.summary)")
        }

        /// The payload's uid inside, as seen on the host (the `outside` column of its uid map).
        static func hostUID(of result: CommandResult) -> Int? {
            let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            guard let inside = lines.first?.first.flatMap({ Int($0) }) else { return nil }
            for fields in lines.dropFirst() where fields.count == 3 {
                guard let start = Int(fields[0]), let outside = Int(fields[1]), let count = Int(fields[2]) else { continue }
                if (start..<start + count).contains(inside) { return outside + inside - start }
            }
            return nil
        }

        /// No mode gives the payload host uid 0, even when the workspace belongs to root.
        @Test("the payload never holds host uid 0", arguments: ["--rw", "--ro", "--overlay"])
        func payloadIsNeverHostRoot(mode: String) throws {
            try SandboxHarness.with { harness in
                #expect(chown(harness.path, 0, 0) == 0)
                let result = try Self.run(
                    workspace: harness.path, flags: [mode], ["/bin/sh", "-c", "id -u; cat /proc/self/uid_map"])
                #expect(result.status == 0, "\(result.summary)")
                let outside = Self.hostUID(of: result)
                #expect(
                    outside != nil && outside != 0, "the payload runs as host uid \(outside.map(String.init) ?? "?"): \(result.summary)")
            }
        }

        /// Without privilege, writes to a root-owned `--rw` workspace still work and keep the owner.
        @Test func rootOwnedRwWorkspaceIsWritableAndKeepsItsOwner() throws {
            try SandboxHarness.with { harness in
                #expect(chown(harness.path, 0, 0) == 0)
                try "old\n".write(toFile: harness.path + "/existing", atomically: false, encoding: .utf8)
                chmod(harness.path + "/existing", 0o644)
                let result = try Self.run(
                    workspace: harness.path, flags: ["--rw"],
                    ["/bin/sh", "-c", "echo new > /workspace/created && echo changed > /workspace/existing && mkdir /workspace/dir"])
                #expect(result.status == 0, "\(result.summary)")
                for name in ["created", "existing", "dir"] {
                    var info = stat()
                    #expect(lstat(harness.path + "/" + name, &info) == 0, "\(name) missing: \(result.summary)")
                    #expect(info.st_uid == 0 && info.st_gid == 0, "\(name) owned by \(info.st_uid):\(info.st_gid)")
                }
                #expect((try? String(contentsOfFile: harness.path + "/existing", encoding: .utf8)) == "changed\n")
            }
        }

        /// A root-only checkout (0700 directory, 0600 file) named read-only is readable as its
        /// owner would read it, so a scanner sees every file; the shifted ids grant nothing more:
        /// no write, no mode or owner change, and the host tree stays as it was.
        @Test func rootOnlyReadOnlyWorkspaceIsReadableButNotWritable() throws {
            try SandboxHarness.with { harness in
                #expect(chown(harness.path, 0, 0) == 0 && chmod(harness.path, 0o700) == 0)
                try "secret = 1\n".write(toFile: harness.path + "/app.py", atomically: false, encoding: .utf8)
                #expect(chmod(harness.path + "/app.py", 0o600) == 0)
                let result = try Self.run(
                    workspace: harness.path, flags: ["--ro"],
                    [
                        "/bin/sh", "-c",
                        """
                        cat /workspace/app.py
                        echo x >> /workspace/app.py 2>/dev/null && echo WROTE
                        chmod 0666 /workspace/app.py 2>/dev/null && echo CHMOD
                        touch /workspace/new 2>/dev/null && echo CREATED
                        true
                        """,
                    ])
                #expect(result.status == 0, "\(result.summary)")
                #expect(result.stdout == "secret = 1\n", "\(result.summary)")
                var info = stat()
                #expect(lstat(harness.path + "/app.py", &info) == 0 && info.st_mode & 0o7777 == 0o600 && info.st_uid == 0)
                #expect((try? String(contentsOfFile: harness.path + "/app.py", encoding: .utf8)) == "secret = 1\n")
                #expect(access(harness.path + "/new", F_OK) != 0)
            }
        }

        /// An overlay workspace owned by root accepts writes to existing files (copy-up) while the
        /// host tree stays as it was.
        @Test func rootOwnedOverlayWorkspaceAcceptsWritesAndKeepsTheHostTree() throws {
            try SandboxHarness.with { harness in
                #expect(chown(harness.path, 0, 0) == 0)
                try "old\n".write(toFile: harness.path + "/existing", atomically: false, encoding: .utf8)
                chmod(harness.path + "/existing", 0o644)
                let result = try Self.run(
                    workspace: harness.path, flags: ["--overlay"],
                    ["/bin/sh", "-c", "echo changed > /workspace/existing && cat /workspace/existing"])
                #expect(result.status == 0 && result.stdout == "changed\n", "\(result.summary)")
                #expect((try? String(contentsOfFile: harness.path + "/existing", encoding: .utf8)) == "old\n")
            }
        }

        /// The status file is written by the root launcher after the payload ran: a path inside a
        /// writable workspace, where the payload could plant a link, is refused up front.
        @Test func statusFileInsideAWritableWorkspaceIsRefused() throws {
            try SandboxHarness.with { harness in
                let result = try CommandRunner.run(
                    PackagePaths.sentinel,
                    [
                        "sandbox", "run", "--workspace", harness.path, "--rw", "--status-json", harness.path + "/status.json",
                        "--", "/bin/sh", "-c", "rm -f /workspace/status.json; ln -s /dev/null /workspace/status.json",
                    ],
                    timeout: 60)
                #expect(result.status == 2, "\(result.summary)")
                #expect(result.stderr.contains("inside the writable workspace"), "\(result.summary)")
            }
        }

        /// Links and FIFOs planted where the status file goes are replaced, never followed or
        /// opened (a FIFO would block the launcher; a device would be overwritten).
        @Test("a planted status-file link is replaced, not followed", arguments: ["fifo", "symlink"])
        func plantedStatusTargetIsNeverFollowed(kind: String) throws {
            try SandboxHarness.with { harness in
                let statusDir = harness.scratch.path
                let status = statusDir + "/status.json"
                let victim = statusDir + "/victim"
                try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
                if kind == "fifo" {
                    #expect(mkfifo(status, 0o600) == 0)
                } else {
                    try FileManager.default.createSymbolicLink(atPath: status, withDestinationPath: victim)
                }
                let result = try CommandRunner.run(
                    PackagePaths.sentinel,
                    ["sandbox", "run", "--status-json", status, "--", "/bin/true"], timeout: 60)
                #expect(!result.timedOut, "the launcher blocked on the planted \(kind): \(result.summary)")
                #expect((try? String(contentsOfFile: victim, encoding: .utf8)) == "precious\n")
                var info = stat()
                let replaced = lstat(status, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
                let refused = result.status == 2
                #expect(replaced || refused, "\(result.summary)")
            }
        }
    }
}
