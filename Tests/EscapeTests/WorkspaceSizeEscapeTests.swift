import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EscapeBattery {
    /// A writable workspace is host disk: `limits.workspaceSize` bounds what one run adds, and an
    /// `--rw` run's changes reach the host only through the launcher's commit, which must apply
    /// a hostile upper layer exactly and touch nothing outside the workspace.
    @Suite struct WorkspaceSize {
        /// Bytes allocated on disk under `path` (st_blocks), links not followed.
        static func allocatedBytes(under path: String) -> UInt64 {
            var total: UInt64 = 0
            var info = stat()
            guard lstat(path, &info) == 0 else { return 0 }
            total += UInt64(info.st_blocks) * 512
            guard info.st_mode & S_IFMT == S_IFDIR,
                let names = try? FileManager.default.contentsOfDirectory(atPath: path)
            else { return total }
            for name in names { total += allocatedBytes(under: path + "/" + name) }
            return total
        }

        /// Six files of 100 MiB each (the red team's reproducer put 385 MiB on the host).
        static let fillScript =
            "for i in 1 2 3 4 5 6; do dd if=/dev/zero of=/workspace/fill$i bs=1M count=100 2>>/tmp/dd.err; done; "
            + "grep -q 'No space left' /tmp/dd.err && echo ENOSPC; cat /workspace/fill* | wc -c"

        static let limit: UInt64 = 64 << 20
        /// Directory blocks and the last partial page.
        static let margin: UInt64 = 1 << 20

        @Test func rwWorkspaceStopsAtItsSizeWithENOSPC() throws {
            try SandboxHarness.with { harness in
                let before = Self.allocatedBytes(under: harness.path)
                let run = try harness.command(
                    ["/bin/sh", "-c", Self.fillScript], flags: ["--rw", "--workspace-size", "64M"], timeout: 120)
                let added = Self.allocatedBytes(under: harness.path) - min(before, Self.allocatedBytes(under: harness.path))
                #expect(run.result.status == 0, "\(run.summary)")
                #expect(run.result.stdout.contains("ENOSPC"), "no ENOSPC inside: \(run.summary)")
                #expect(added < Self.limit + Self.margin, "\(added) bytes added on the host: \(run.summary)")
                // The writes that fitted were committed.
                #expect(added > Self.limit / 2, "only \(added) bytes reached the host: \(run.summary)")
            }
        }

        @Test func overlayWorkspaceStopsAtItsSizeWithENOSPC() throws {
            try SandboxHarness.with { harness in
                let run = try harness.command(
                    ["/bin/sh", "-c", Self.fillScript], flags: ["--overlay", "--workspace-size", "64M"], timeout: 120)
                #expect(run.result.status == 0, "\(run.summary)")
                #expect(run.result.stdout.contains("ENOSPC"), "no ENOSPC inside: \(run.summary)")
                let written = run.result.stdout.split(separator: "\n").last.flatMap { UInt64($0) } ?? .max
                #expect(written <= Self.limit, "\(written) bytes written inside: \(run.summary)")
                #expect(!FileManager.default.fileExists(atPath: harness.path + "/fill1"))
            }
        }

        /// What must not change outside the workspace while it is committed: the hostile links
        /// all point into /etc.
        struct Outside {
            let passwd = try? Data(contentsOf: URL(fileURLWithPath: "/etc/passwd"))
            let etc = Set((try? FileManager.default.contentsOfDirectory(atPath: "/etc")) ?? [])

            init(workspace: String) {}

            func expectUnchanged(sourceLocation: SourceLocation = #_sourceLocation) {
                #expect(
                    (try? Data(contentsOf: URL(fileURLWithPath: "/etc/passwd"))) == passwd,
                    "/etc/passwd changed", sourceLocation: sourceLocation)
                let etcNow = Set((try? FileManager.default.contentsOfDirectory(atPath: "/etc")) ?? [])
                #expect(
                    etcNow.subtracting(etc).isEmpty, "created in /etc: \(etcNow.subtracting(etc))",
                    sourceLocation: sourceLocation)
            }
        }

        static func type(_ path: String) -> mode_t? {
            var info = stat()
            return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
        }

        static func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

        static func link(_ path: String) -> String? { try? FileManager.default.destinationOfSymbolicLink(atPath: path) }

        /// Every shape an overlay upper layer can take, written by a payload that tries to steer
        /// the commit out of the workspace; the host tree must end up exactly as the payload saw it.
        @Test func hostileChangesAreCommittedExactlyAndOnlyInsideTheWorkspace() throws {
            try SandboxHarness.with { harness in
                let ws = harness.path
                let fm = FileManager.default
                try "victim\n".write(toFile: ws + "/victim", atomically: false, encoding: .utf8)
                try "keep\n".write(toFile: ws + "/existing", atomically: false, encoding: .utf8)
                try fm.createDirectory(atPath: ws + "/gone-dir/sub", withIntermediateDirectories: true)
                try "x\n".write(toFile: ws + "/gone-dir/sub/file", atomically: false, encoding: .utf8)
                try "x\n".write(toFile: ws + "/gone-file", atomically: false, encoding: .utf8)
                try fm.createDirectory(atPath: ws + "/dir-to-file", withIntermediateDirectories: true)
                try "x\n".write(toFile: ws + "/dir-to-file/inner", atomically: false, encoding: .utf8)
                try "x\n".write(toFile: ws + "/file-to-dir", atomically: false, encoding: .utf8)
                try fm.createDirectory(atPath: ws + "/opaque", withIntermediateDirectories: true)
                try "old\n".write(toFile: ws + "/opaque/old", atomically: false, encoding: .utf8)
                // A link the repository shipped: replaced by a real directory inside.
                try fm.createSymbolicLink(atPath: ws + "/shipped-link", withDestinationPath: "/etc")
                let outside = Outside(workspace: ws)
                let script = """
                    set -e
                    cd /workspace
                    rm victim && ln -s /etc/passwd victim
                    ln -s /etc dir
                    echo pwned > dir/x 2>/dev/null || true
                    echo pwned >> victim 2>/dev/null || true
                    ln existing hardlink
                    echo added >> existing
                    rm -rf gone-dir gone-file
                    rm -rf dir-to-file && echo now-a-file > dir-to-file
                    rm file-to-dir && mkdir file-to-dir && echo inner > file-to-dir/inner
                    rm -rf opaque && mkdir opaque && echo new > opaque/new
                    rm shipped-link && mkdir shipped-link && echo notpasswd > shipped-link/passwd
                    mkfifo fifo
                    echo nl > "$(printf 'new\\nline')"
                    truncate -s 50M sparse
                    mkdir -p deep/a/b/c && echo leaf > deep/a/b/c/leaf
                    chmod 750 deep/a/b/c/leaf
                    echo done
                    """
                let run = try harness.command(["/bin/sh", "-c", script], flags: ["--rw"], timeout: 60)
                #expect(run.result.status == 0 && run.result.stdout == "done\n", "\(run.summary)")
                outside.expectUnchanged()
                #expect(Self.link(ws + "/victim") == "/etc/passwd", "symlink not committed as a symlink")
                #expect(Self.link(ws + "/dir") == "/etc")
                #expect(!fm.fileExists(atPath: "/etc/x"))
                #expect(Self.text(ws + "/existing") == "keep\nadded\n")
                #expect(Self.text(ws + "/hardlink") == "keep\nadded\n")
                var one = stat(), two = stat()
                #expect(lstat(ws + "/existing", &one) == 0 && lstat(ws + "/hardlink", &two) == 0)
                #expect(one.st_ino == two.st_ino, "the hard link was not kept")
                for gone in ["gone-dir", "gone-file", "fifo"] {
                    #expect(Self.type(ws + "/" + gone) == nil, "\(gone) still on the host")
                }
                #expect(Self.type(ws + "/dir-to-file") == S_IFREG && Self.text(ws + "/dir-to-file") == "now-a-file\n")
                #expect(Self.type(ws + "/file-to-dir") == S_IFDIR && Self.text(ws + "/file-to-dir/inner") == "inner\n")
                #expect((try? fm.contentsOfDirectory(atPath: ws + "/opaque")) == ["new"], "an opaque directory merged")
                #expect(Self.type(ws + "/shipped-link") == S_IFDIR)
                #expect(Self.text(ws + "/shipped-link/passwd") == "notpasswd\n")
                #expect(Self.text(ws + "/new\nline") == "nl\n")
                var sparse = stat()
                #expect(lstat(ws + "/sparse", &sparse) == 0 && sparse.st_size == 50 << 20)
                #expect(sparse.st_blocks * 512 < 1 << 20, "a sparse file was filled in on the host")
                var leaf = stat()
                #expect(lstat(ws + "/deep/a/b/c/leaf", &leaf) == 0)
                #expect(leaf.st_mode & 0o7777 == 0o750, "mode \(String(leaf.st_mode & 0o7777, radix: 8))")
                #expect(leaf.st_uid == getuid(), "committed as uid \(leaf.st_uid)")
            }
        }

        /// A run killed at its timeout still commits what it wrote before the kill (as the direct
        /// bind did); a run that never started commits nothing.
        @Test func timedOutRunCommitsWhatItWrote() throws {
            try SandboxHarness.with { harness in
                let run = try harness.command(
                    ["/bin/sh", "-c", "echo before > /workspace/written; sleep 300"],
                    // The timeout counts from the launch's start: room for it and the write under load.
                    flags: ["--rw", "--timeout", "20"], timeout: 240)
                #expect(run.result.status == 124, "\(run.summary)")
                #expect(Self.text(harness.path + "/written") == "before\n", "\(run.summary)")
            }
        }

        /// A mount inside the workspace on the host (absent inside: the tree is cloned without its
        /// submounts) is never crossed by the commit: deleting its mount point inside empties nothing.
        @Test func commitNeverCrossesAMountInsideTheWorkspace() throws {
            try SandboxHarness.with { harness in
                let mountPoint = harness.path + "/mnt"
                try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
                try "precious\n".write(toFile: harness.scratch.path + "/precious", atomically: false, encoding: .utf8)
                guard mount(harness.scratch.path, mountPoint, nil, UInt(MS_BIND), nil) == 0 else {
                    Issue.record("bind mount failed: \(errno)")
                    return
                }
                defer { umount2(mountPoint, Int32(MNT_DETACH)) }
                let run = try harness.command(["/bin/sh", "-c", "rm -rf /workspace/mnt"], flags: ["--rw"], timeout: 60)
                #expect(run.result.status == 125, "\(run.summary)")
                #expect(run.result.stderr.contains("workspace commit failed"), "\(run.summary)")
                #expect(Self.text(harness.scratch.path + "/precious") == "precious\n")
            }
        }

        /// A tree deeper than the commit walks is refused loudly (exit 125, named), not half-applied
        /// silently, and nothing outside changes.
        @Test func overDeepTreeFailsTheCommitLoudly() throws {
            try SandboxHarness.with { harness in
                let outside = Outside(workspace: harness.path)
                let run = try harness.command(
                    ["/bin/sh", "-c", "cd /workspace && for i in $(seq 300); do mkdir d && cd d; done && echo leaf > leaf"],
                    flags: ["--rw"], timeout: 60)
                #expect(run.result.status == 125, "\(run.summary)")
                #expect(run.result.stderr.contains("workspace commit failed"), "\(run.summary)")
                outside.expectUnchanged()
            }
        }
    }
}
