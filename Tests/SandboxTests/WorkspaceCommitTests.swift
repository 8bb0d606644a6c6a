#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Support
import TestSupport
import Testing
@testable import Sandbox

/// The commit of an `rw` run's upper layer, fed upper layers built by hand: shapes overlayfs
/// itself would not produce from a payload's calls but a hostile layer could hold. Root: whiteouts
/// are device nodes, and the commit gives entries the workspace owner's ids.
@Suite(.enabled(if: TestHost.isRoot, "whiteouts are device nodes (mknod needs root)"))
struct WorkspaceCommitTests {
    let upper = TemporaryDirectory("sentinel-upper")
    let host = TemporaryDirectory("sentinel-commit-ws")
    let outside = TemporaryDirectory("sentinel-outside")

    private func commit(byteLimit: UInt64 = 256 << 20) throws -> WorkspaceCommit.Summary {
        let directory = try WorkspaceDirectory(resolving: host.path)
        let fd = open(upper.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(fd) }
        return try WorkspaceCommit.apply(upper: fd, to: directory, byteLimit: byteLimit)
    }

    private func setXattr(_ path: String, _ name: String, _ value: String) {
        typealias SetXattr = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeRawPointer, Int, Int32) -> Int32
        guard let symbol = dlsym(nil, "setxattr") else {  // nil: RTLD_DEFAULT
            Issue.record("no setxattr")
            return
        }
        let set = unsafeBitCast(symbol, to: SetXattr.self)
        #expect(value.withCString { set(path, name, $0, strlen($0), 0) } == 0, "setxattr \(name): \(Errno.current)")
    }

    private func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// A plain (not opaque) upper directory over a host symlink to elsewhere replaces the link; the
    /// file under it is written in the new directory, never through the link.
    @Test func hostSymlinkUnderAnUpperDirectoryIsReplacedNotFollowed() throws {
        try FileManager.default.createSymbolicLink(atPath: host.path + "/dir", withDestinationPath: outside.path)
        try FileManager.default.createDirectory(atPath: upper.path + "/dir", withIntermediateDirectories: false)
        upper.write("dir/x", "inside\n")
        _ = try commit()
        #expect(!FileManager.default.fileExists(atPath: outside.path + "/x"), "written through the host's link")
        var info = stat()
        #expect(lstat(host.path + "/dir", &info) == 0 && info.st_mode & S_IFMT == S_IFDIR)
        #expect(text(host.path + "/dir/x") == "inside\n")
    }

    /// A workspace file hard-linked to a file outside is replaced by a new inode: the outside
    /// file keeps its content.
    @Test func hostHardLinkToOutsideIsNeverWrittenThrough() throws {
        outside.write("target", "original\n")
        #expect(link(outside.path + "/target", host.path + "/linked") == 0)
        upper.write("linked", "changed\n")
        _ = try commit()
        #expect(text(outside.path + "/target") == "original\n")
        #expect(text(host.path + "/linked") == "changed\n")
    }

    /// Devices other than the 0:0 whiteout are not created; the entry they replaced is removed.
    @Test func devicesAreSkippedAndWhiteoutsRemove() throws {
        host.write("null", "was a file\n")
        host.write("deleted", "x\n")
        #expect(mknod(upper.path + "/null", S_IFCHR | 0o666, 0x103) == 0)  // 1:3, /dev/null
        #expect(mknod(upper.path + "/deleted", S_IFCHR | 0o000, 0) == 0)
        let summary = try commit()
        #expect(summary.skipped == ["null"])
        #expect(!FileManager.default.fileExists(atPath: host.path + "/null"))
        #expect(!FileManager.default.fileExists(atPath: host.path + "/deleted"))
        #expect(summary.removed == 2)
    }

    /// Issue 53, R6: a skipped entry's name reaches the caller's terminal in the commit's
    /// warning. Control characters, C1 code points and bidi overrides, marks and isolates in it
    /// are escaped, so a name can neither drive the terminal nor reorder what the reader sees.
    @Test func hostileNamesInWarningsAreEscaped() throws {
        let name = "a\u{1B}]0;t\u{7}\u{85}\u{9B}\u{202E}txt.exe\u{2066}\u{200F}\u{61C}\u{7F}\u{E9}"
        #expect(mkfifo(upper.path + "/" + name, 0o600) == 0)
        let summary = try commit()
        #expect(summary.skipped == ["a\\x1b]0;t\\x07\\x85\\x9b\\u{202e}txt.exe\\u{2066}\\u{200f}\\u{61c}\\x7f\u{E9}"])
    }

    @Test(arguments: [
        ("plain.txt", "plain.txt"), ("new\nline\ttab", "new\\x0aline\\x09tab"),
        ("\u{80}\u{9F}\u{A0}", "\\x80\\x9f\u{A0}"),
        ("\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}", "\\u{202a}\\u{202b}\\u{202c}\\u{202d}\\u{202e}"),
        ("\u{2066}\u{2067}\u{2068}\u{2069}\u{200E}\u{200F}\u{61C}", "\\u{2066}\\u{2067}\\u{2068}\\u{2069}\\u{200e}\\u{200f}\\u{61c}"),
        ("caf\u{E9} \u{2603}", "caf\u{E9} \u{2603}"),
    ])
    func displayEscapes(_ name: String, _ shown: String) {
        #expect(WorkspaceCommit.display(Array(name.utf8CString)) == shown)
    }

    @Test func opaqueDirectoryReplacesTheHostDirectory() throws {
        try FileManager.default.createDirectory(atPath: host.path + "/d/old", withIntermediateDirectories: true)
        host.write("d/old/file", "x\n")
        try FileManager.default.createDirectory(atPath: upper.path + "/d", withIntermediateDirectories: false)
        upper.write("d/new", "n\n")
        setXattr(upper.path + "/d", "user.overlay.opaque", "y")
        _ = try commit()
        #expect((try? FileManager.default.contentsOfDirectory(atPath: host.path + "/d")) == ["new"])
    }

    /// Markers this mount never writes (renamed directories, unknown opaque values) stop the
    /// commit rather than being misread.
    @Test(arguments: [("user.overlay.redirect", "/elsewhere"), ("user.overlay.opaque", "x")])
    func unknownOverlayMarkersStopTheCommit(name: String, value: String) throws {
        try FileManager.default.createDirectory(atPath: upper.path + "/d", withIntermediateDirectories: false)
        setXattr(upper.path + "/d", name, value)
        #expect {
            _ = try commit()
        } throws: { error in
            (error as? SentinelError)?.code == .workspaceCommitFailed
        }
    }

    /// Committed files belong to the workspace owner, without setuid/setgid, and keep their holes.
    @Test func ownerModeAndHoles() throws {
        #expect(chown(host.path, 1234, 4321) == 0)
        upper.write("tool", "#!/bin/sh\n")
        #expect(chmod(upper.path + "/tool", 0o6755) == 0)
        let sparse = open(upper.path + "/sparse", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        #expect(ftruncate(sparse, 1 << 30) == 0)
        #expect(pwrite(sparse, "end", 3, (1 << 30) - 3) == 3)
        close(sparse)
        let summary = try commit()
        var info = stat()
        #expect(lstat(host.path + "/tool", &info) == 0)
        #expect(info.st_uid == 1234 && info.st_gid == 4321 && info.st_mode & 0o7777 == 0o755)
        #expect(lstat(host.path + "/sparse", &info) == 0 && info.st_size == 1 << 30)
        #expect(info.st_blocks * 512 < 1 << 20, "holes were filled in")
        #expect(summary.bytes < 1 << 20)
    }

    /// Every name of a hard-linked file is a link to the one committed file, past the files the
    /// commit keeps open too (those it reopens by file handle), and its data is written once.
    @Test func everyNameOfAHardLinkedFileIsLinkedNotCopied() throws {
        let files = CommittedInodes.maxOpen + 100
        for directory in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: upper.path + "/" + directory, withIntermediateDirectories: false)
        }
        for index in 0..<files {
            upper.write("a/\(index)", "file \(index)\n")
            #expect(link(upper.path + "/a/\(index)", upper.path + "/b/\(index)") == 0)
        }
        let summary = try commit()
        var copies = 0
        for index in 0..<files {
            var first = stat(), second = stat()
            #expect(lstat(host.path + "/a/\(index)", &first) == 0 && lstat(host.path + "/b/\(index)", &second) == 0)
            if first.st_ino != second.st_ino { copies += 1 }
        }
        #expect(copies == 0, "\(copies) names committed as copies")
        #expect(summary.files == 2 * files)
        #expect(summary.bytes == (0..<files).reduce(0) { $0 + UInt64("file \($1)\n".utf8.count) })
    }

    /// Past the byte limit the commit stops with `workspaceCommitFailed` naming the size, and
    /// leaves neither the file it stopped at nor a temporary behind.
    @Test func commitStopsAtItsByteLimit() throws {
        upper.write("small", "fits\n")
        let big = open(upper.path + "/big", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        let chunk = [UInt8](repeating: 7, count: 1 << 20)
        for _ in 0..<3 { #expect(write(big, chunk, chunk.count) == chunk.count) }
        close(big)
        #expect {
            _ = try commit(byteLimit: 2 << 20)
        } throws: { error in
            let error = error as? SentinelError
            return error?.code == .workspaceCommitFailed && error?.message.contains("workspace size") == true
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: host.path)) ?? []
        #expect(!left.contains("big") && !left.contains { $0.hasPrefix(".sentinel-commit-") }, "\(left)")
    }

    /// The owner may rename a directory that is not hers (root's, say) over a name the commit
    /// merges into or removes: it is neither written into nor emptied.
    @Test func anotherUsersDirectoryIsNeitherMergedIntoNorEmptied() throws {
        #expect(chown(host.path, 1234, 4321) == 0)
        for directory in ["merged", "removed", "empty"] {
            try FileManager.default.createDirectory(atPath: host.path + "/" + directory, withIntermediateDirectories: false)
        }
        host.write("removed/precious", "root's\n")
        try FileManager.default.createDirectory(atPath: upper.path + "/merged", withIntermediateDirectories: false)
        upper.write("merged/new", "payload\n")
        #expect(throws: SentinelError.self) { _ = try commit() }
        #expect(!FileManager.default.fileExists(atPath: host.path + "/merged/new"))
        try FileManager.default.removeItem(atPath: upper.path + "/merged")
        #expect(mknod(upper.path + "/removed", S_IFCHR | 0o000, 0) == 0)
        #expect(throws: SentinelError.self) { _ = try commit() }
        #expect(text(host.path + "/removed/precious") == "root's\n")
        try FileManager.default.removeItem(atPath: upper.path + "/removed")
        #expect(mknod(upper.path + "/empty", S_IFCHR | 0o000, 0) == 0)
        _ = try commit()
        #expect(!FileManager.default.fileExists(atPath: host.path + "/empty"))
    }
}
