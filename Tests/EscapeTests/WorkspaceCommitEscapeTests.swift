import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EscapeBattery {
    /// The root launcher's commit of an `rw` run (issue 25): it must write no more than
    /// `workspaceSize` whatever shape the payload gives the upper layer, and the workspace's
    /// owner, a local user racing it on the host, must never get root to change a file she
    /// does not own.
    @Suite struct WorkspaceCommitAttempts {
        /// Bytes allocated under `path`, each inode once (hard links are not counted twice).
        static func allocatedBytes(under path: String) -> UInt64 {
            var seen = Set<[UInt64]>()
            var total: UInt64 = 0
            func visit(_ path: String) {
                var info = stat()
                guard lstat(path, &info) == 0 else { return }
                if seen.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted {
                    total += UInt64(info.st_blocks) * 512
                }
                guard info.st_mode & S_IFMT == S_IFDIR,
                    let names = try? FileManager.default.contentsOfDirectory(atPath: path)
                else { return }
                for name in names { visit(path + "/" + name) }
            }
            visit(path)
            return total
        }

        static func inode(_ path: String) -> UInt64? {
            var info = stat()
            return lstat(path, &info) == 0 ? UInt64(info.st_ino) : nil
        }

        /// The red team's 721 MiB from a 256 MiB layer, scaled down: 1,536 files of 16 KiB with
        /// four names each fill 24 MiB of a 32 MiB layer; copying each name past the first 1,024
        /// linked inodes would write 48 MiB. Each name must be a link to its file (or the commit
        /// fail cleanly), and the host must get no more than the 32 MiB.
        @Test func hardLinksAreLinkedAndTheCommitStaysWithinTheSize() throws {
            let files = 1536, size = 16 << 10, limit: UInt64 = 32 << 20
            try SandboxHarness.with { harness in
                let ws = harness.path
                let before = Self.allocatedBytes(under: ws)
                let script = """
                    set -e
                    cd /workspace && mkdir src l1 l2 l3
                    head -c \(files * size) /dev/zero | split -b \(size) -a 4 - src/f
                    ln src/* l1/ && ln src/* l2/ && ln src/* l3/
                    echo done
                    """
                let run = try harness.command(
                    ["/bin/sh", "-c", script], flags: ["--rw", "--workspace-size", "32M"], timeout: 300)
                let added = Self.allocatedBytes(under: ws) - before
                #expect(run.result.stdout == "done\n", "\(run.summary)")
                // Directory blocks: four directories of 1,536 names.
                #expect(added <= limit + (1 << 20), "\(added >> 20) MiB landed on the host: \(run.summary)")
                if run.result.status == 0 {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: ws + "/src")) ?? []
                    #expect(names.count == files, "\(names.count) files committed")
                    let unlinked = names.filter { name in
                        let first = Self.inode(ws + "/src/" + name)
                        return ["l1", "l2", "l3"].contains { Self.inode(ws + "/\($0)/" + name) != first }
                    }
                    #expect(unlinked.count == 0, "files committed as copies, not links: \(unlinked.prefix(5))")
                } else {
                    #expect(run.result.status == 125, "\(run.summary)")
                    #expect(run.result.stderr.contains("workspace commit failed"), "\(run.summary)")
                }
            }
        }

        /// The workspace's owner: a local user, not root.
        static let owner: uid_t = 4242
        /// Symlinks per run: each is one window between creating the temporary name and
        /// changing it; rounds until the racer wins once (before the fix: the first or second).
        static let symlinks = 5000
        static let rounds = 4

        /// The racer (`sentinel-probe commit-race`) as the workspace's owner, on the host.
        static func startRacer(probe: String, directory: String, baits: String) -> (OutcomeBox, DispatchSemaphore) {
            let box = OutcomeBox()
            let finished = DispatchSemaphore(value: 0)
            let arguments = [
                "--reuid=\(owner)", "--regid=\(owner)", "--clear-groups", "--", probe, "commit-race", directory, baits, "300",
            ]
            Thread.detachNewThread {
                box.set(Result { try CommandRunner.run("/usr/bin/setpriv", arguments, timeout: 400) })
                finished.signal()
            }
            return (box, finished)
        }

        /// `commitSymlink` created `.sentinel-commit-N` and then changed its owner and times by
        /// name in a directory the workspace owner writes: exchanging a hard link of a root-only
        /// file into that name in the window made root give her the file. Now whatever she
        /// swaps in, the root-only file keeps its owner, mode and content.
        @Test func ownerRacingTheCommitNeverGetsARootFile() throws {
            try SandboxHarness.with { harness in
                let ws = harness.path, scratch = harness.scratch.path
                let links = ws + "/links"
                try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: false)
                #expect(chown(ws, Self.owner, Self.owner) == 0 && chown(links, Self.owner, Self.owner) == 0)
                chmod(scratch, 0o755)
                let victim = scratch + "/root-only"
                try "root's secret\n".write(toFile: victim, atomically: false, encoding: .utf8)
                #expect(chmod(victim, 0o600) == 0)
                var results: [String] = []
                for round in 0..<Self.rounds {
                    // Prepared by root: a local user may not link a file she does not own
                    // (protected_hardlinks) but may rename the links she finds.
                    let baits = scratch + "/baits-\(round)"
                    try FileManager.default.createDirectory(atPath: baits, withIntermediateDirectories: false)
                    for index in 0..<Self.symlinks { #expect(link(victim, baits + "/\(index)") == 0) }
                    #expect(chown(baits, Self.owner, Self.owner) == 0)
                    let (racer, finished) = Self.startRacer(
                        probe: ws + "/sentinel-probe", directory: links, baits: baits)
                    let deadline = Date().addingTimeInterval(60)
                    while access(baits + "/ready", F_OK) != 0, racer.get() == nil, Date() < deadline { usleep(10_000) }
                    let script = "cd /workspace/links && ln -s $(seq -f /nowhere/r\(round)-%g \(Self.symlinks)) ."
                    let run = try { () throws -> SandboxRun in
                        defer {
                            close(open(baits + "/stop", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644))
                            finished.wait()
                        }
                        return try harness.command(["/bin/sh", "-c", script], flags: ["--rw"], timeout: 300)
                    }()
                    let raced = (try? racer.get()?.get())?.stdout ?? "racer failed"
                    results.append("round \(round): status \(run.result.status), \(raced.trimmingCharacters(in: .newlines))")
                    #expect([0, 125].contains(run.result.status), "\(run.summary)")
                    var info = stat()
                    #expect(lstat(victim, &info) == 0)
                    if info.st_uid != 0 || info.st_gid != 0 || info.st_mode & 0o7777 != 0o600 {
                        Issue.record(
                            "root gave the workspace owner \(victim): uid \(info.st_uid), mode \(String(info.st_mode & 0o7777, radix: 8)) (\(results))"
                        )
                        break
                    }
                }
                #expect((try? String(contentsOfFile: victim, encoding: .utf8)) == "root's secret\n")
                print("commit race: \(results.joined(separator: "; "))")
            }
        }
    }
}
