#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Testing
@testable import Support

/// The CLI's one output primitive: files and directories written relative to a directory
/// descriptor, never through what sits at (or is planted at) the name.
@Suite struct PreparedOutputTests {
    /// A fresh private directory, removed afterwards.
    final class Scratch {
        let path: String
        init() throws {
            var template = Array((NSTemporaryDirectory() + "prepared-output-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else { throw SentinelError(.io, "mkdtemp: \(Errno.current)") }
            path = String(cString: made)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func read(_ name: String) -> String? { try? String(contentsOfFile: path + "/" + name, encoding: .utf8) }
        var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    }

    @Test func replacesARegularFileWhole() throws {
        let scratch = try Scratch()
        try PreparedOutputFile(path: scratch.path + "/out").write("old content that is long")
        try PreparedOutputFile(path: scratch.path + "/out").write("new")
        #expect(scratch.read("out") == "new")
        #expect(scratch.names == ["out"], "no temporary file is left")
    }

    /// `--output /dev/null` must never turn the device node into a regular file.
    @Test func writesDevNullInPlace() throws {
        var before = stat()
        #expect(stat("/dev/null", &before) == 0)
        try PreparedOutputFile(path: "/dev/null").write("discarded")
        var after = stat()
        #expect(stat("/dev/null", &after) == 0)
        #expect(after.st_mode & S_IFMT == S_IFCHR)
        #expect(after.st_rdev == before.st_rdev)
    }

    @Test(arguments: ["/dev/stdout", "/dev/stderr"])
    func standardStreamsNamedDirectlyAreAccepted(path: String) throws {
        _ = try PreparedOutputFile(path: path)
    }

    @Test func aDirectoryOrAMissingDirectoryIsAClearError() throws {
        let scratch = try Scratch()
        #expect(throws: SentinelError.self) { try PreparedOutputFile(path: scratch.path) }
        #expect(throws: SentinelError.self) { try PreparedOutputFile(path: "/nonexistent-dir/file") }
    }

    @Test func aLinkOrASpecialFileAtTheNameIsRefused() throws {
        let scratch = try Scratch()
        #expect(symlink("/etc/passwd", scratch.path + "/link") == 0)
        #expect(mkfifo(scratch.path + "/fifo", 0o600) == 0)
        for name in ["link", "fifo"] {
            let error = #expect(throws: SentinelError.self) { try PreparedOutputFile(path: scratch.path + "/" + name) }
            #expect(error?.code == .invalidInput)
        }
        #expect(symlink("/dev/zero", scratch.path + "/device") == 0)
        #expect(throws: SentinelError.self) { try PreparedOutputFile(path: scratch.path + "/device") }
    }

    /// Planted after the output was prepared (while the scan ran): replaced, never written through.
    @Test func aLinkPlantedAfterPreparingIsReplaced() throws {
        let scratch = try Scratch()
        let victim = scratch.path + "/victim"
        try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: scratch.path + "/tree", withIntermediateDirectories: false)
        let output = try PreparedOutputFile(path: scratch.path + "/tree/report.json")
        #expect(symlink(victim, scratch.path + "/tree/report.json") == 0)
        try output.write("report")
        #expect(scratch.read("victim") == "precious")
        #expect(scratch.read("tree/report.json") == "report")
        var info = stat()
        #expect(lstat(scratch.path + "/tree/report.json", &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
    }

    /// A directory link inside the tree being read is refused; the operator's own links outside it are followed.
    @Test func aDirectoryLinkInsideTheTreeIsRefused() throws {
        let scratch = try Scratch()
        let tree = scratch.path + "/tree"
        try FileManager.default.createDirectory(atPath: tree + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch.path + "/host", withIntermediateDirectories: false)
        #expect(symlink(scratch.path + "/host", tree + "/out") == 0)
        #expect(symlink("../out", tree + "/sub/up") == 0)
        for path in [tree + "/out/report.json", tree + "/sub/up/report.json"] {
            let error = #expect(throws: SentinelError.self) {
                try PreparedOutputFile(path: path, refusingLinksInside: [tree])
            }
            #expect(error?.message.contains("symbolic link inside") == true, "\(error?.message ?? "")")
        }
        // Outside the tree the same link is the operator's to name.
        #expect(symlink(scratch.path + "/host", scratch.path + "/mine") == 0)
        try PreparedOutputFile(path: scratch.path + "/mine/report.json", refusingLinksInside: [tree]).write("ok")
        #expect(scratch.read("host/report.json") == "ok")
        #expect(scratch.names == ["host", "mine", "tree"])
    }

    @Test func createsMissingParentsWhenAsked() throws {
        let scratch = try Scratch()
        try PreparedOutputFile(path: scratch.path + "/a/b/out", createParents: true).write("x")
        #expect(scratch.read("a/b/out") == "x")
    }

    @Test func aDirectoryOutputReplacesOnlyAPreviousOutput() throws {
        let scratch = try Scratch()
        let path = scratch.path + "/out"
        let allowed: Set<String> = ["a", "b"]
        try PreparedOutputDirectory(path: path, existing: .replaceIfOnly(allowed)).write([("a", Data("1".utf8)), ("b", Data("2".utf8))])
        try PreparedOutputDirectory(path: path, existing: .replaceIfOnly(allowed)).write([("a", Data("3".utf8))])
        #expect(scratch.read("out/a") == "3")
        #expect(scratch.read("out/b") == nil)
        #expect(scratch.names == ["out"], "the previous output and the staging directory are gone")
        FileManager.default.createFile(atPath: path + "/mine", contents: Data())
        #expect(throws: SentinelError.self) { try PreparedOutputDirectory(path: path, existing: .replaceIfOnly(allowed)) }
    }

    @Test func aDirectoryOutputKeepsWhatIsThereWhenAsked() throws {
        let scratch = try Scratch()
        let path = scratch.path + "/proposal"
        #expect(try PreparedOutputDirectory(path: path, existing: .keep).write([("a", Data("1".utf8))]))
        #expect(try !PreparedOutputDirectory(path: path, existing: .keep).write([("a", Data("2".utf8))]))
        #expect(scratch.read("proposal/a") == "1")
        #expect(scratch.names == ["proposal"])
    }

    @Test func aLinkAtADirectoryOutputIsRefusedAndNotFollowed() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.path + "/host", withIntermediateDirectories: false)
        #expect(symlink(scratch.path + "/host", scratch.path + "/out") == 0)
        #expect(throws: SentinelError.self) { try PreparedOutputDirectory(path: scratch.path + "/out", existing: .replaceIfOnly([])) }
        #expect(throws: SentinelError.self) { try PreparedOutputDirectory(path: scratch.path + "/out", existing: .keep) }
        // Planted after preparing: renameat2 never writes through it.
        try FileManager.default.removeItem(atPath: scratch.path + "/out")
        let output = try PreparedOutputDirectory(path: scratch.path + "/out", existing: .keep)
        #expect(symlink(scratch.path + "/host", scratch.path + "/out") == 0)
        #expect(try !output.write([("a", Data("1".utf8))]))
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: scratch.path + "/host")) ?? ["?"]).isEmpty)
    }
}
