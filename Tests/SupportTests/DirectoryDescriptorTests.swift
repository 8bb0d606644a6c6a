#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Testing
@testable import Support

/// The descriptor walkers' one primitive: every entry named relative to a directory descriptor,
/// nothing followed, special files never waited on, failures as typed `Errno`.
@Suite struct DirectoryDescriptorTests {
    /// A private temporary directory, open, removed afterwards.
    final class Scene {
        let path: String
        let directory: DirectoryDescriptor
        init() throws {
            var template = Array((NSTemporaryDirectory() + "directory-descriptor-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else { throw SentinelError(.io, "mkdtemp: \(Errno.current)") }
            path = String(cString: made)
            directory = try DirectoryDescriptor.workingDirectory.openDirectory(path)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
        }
        func read(_ name: String) -> String? {
            (try? Data(contentsOf: URL(fileURLWithPath: path + "/" + name))).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// The errno `body` throws, nil when it succeeds.
    private func failure(_ body: () throws -> Void) -> Int32? {
        do {
            try body()
            return nil
        } catch {
            return (error as? Errno)?.rawValue ?? -1
        }
    }

    @Test("opens, makes, lists and removes entries relative to the descriptor")
    func basicOperations() throws {
        let scene = try Scene()
        try scene.directory.makeDirectory("sub", mode: 0o700)
        let sub = try scene.directory.openDirectory("sub")
        let fd = try sub.openFile("file", flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        #expect(write(fd, "data", 4) == 4)
        close(fd)
        #expect(try sub.status(of: "file").st_size == 4)
        #expect(try sub.status().st_mode & S_IFMT == S_IFDIR)
        #expect(try sub.contains("file"))
        #expect(try !sub.contains("absent"))
        #expect(try sub.entries().map(\.text) == ["file"])
        #expect(try scene.directory.entries().map(\.name) == [Array("sub".utf8CString)])
        #expect(failure { try scene.directory.remove("sub", directory: true) } == ENOTEMPTY)
        try sub.remove("file")
        try scene.directory.remove("sub", directory: true)
        #expect(try scene.directory.entries().isEmpty)
    }

    @Test("names are bytes: a name that is not UTF-8 round-trips through entries")
    func rawNames() throws {
        let scene = try Scene()
        let name: [CChar] = [0x61, CChar(bitPattern: 0xff), 0x0a, 0x62, 0]
        close(try scene.directory.openFile(name, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600))
        let entries = try scene.directory.entries()
        #expect(entries.map(\.name) == [name])
        #expect(entries.first?.type == UInt8(DT_REG))
        #expect(try scene.directory.status(of: entries[0].name).st_mode & S_IFMT == S_IFREG)
    }

    @Test("a listing reads from the start, and past its limit only one entry more")
    func listingLimitAndRewind() throws {
        let scene = try Scene()
        for index in 0..<5 { try scene.write("f\(index)", "") }
        #expect(try scene.directory.entries(limit: 2).count == 3)
        #expect(try scene.directory.entries().count == 5)
        #expect(try scene.directory.entries().count == 5)
    }

    @Test("a symbolic link where a directory is expected is refused, beneath or not")
    func linkRefusedAsDirectory() throws {
        let scene = try Scene()
        try FileManager.default.createDirectory(atPath: scene.path + "/real", withIntermediateDirectories: false)
        try scene.write("real/inside", "x")
        try FileManager.default.createSymbolicLink(atPath: scene.path + "/link", withDestinationPath: "real")
        let refused = failure { _ = try scene.directory.openDirectory("link") }
        #expect(refused == ELOOP || refused == ENOTDIR)
        let refusedBeneath = failure { _ = try scene.directory.openDirectory("link", beneath: true) }
        #expect(refusedBeneath == ELOOP || refusedBeneath == ENOTDIR)
        #expect(failure { _ = try scene.directory.openFile("link/inside", flags: O_RDONLY, beneath: true) } == ELOOP)
        #expect(failure { _ = try scene.directory.openDirectory("..", beneath: true) } == EXDEV)
        #expect(failure { _ = try scene.directory.openFile("link", flags: O_RDONLY) } == ELOOP)
        // Status and O_PATH see the link itself.
        #expect(try scene.directory.status(of: "link").st_mode & S_IFMT == S_IFLNK)
        let path = try scene.directory.openFile("link", flags: LinuxFlags.openPathOnly)
        defer { close(path) }
        #expect(try DirectoryDescriptor.linkTarget(of: path) == Array("real".utf8CString))
        #expect(try scene.directory.linkTarget("link") == Array("real".utf8CString))
        #expect(try scene.directory.openDirectory("link", followingLinks: true).entries().map(\.text) == ["inside"])
    }

    @Test("a FIFO is never waited on: O_NONBLOCK opens return at once, a directory open refuses it")
    func fifoNotBlocking() throws {
        let scene = try Scene()
        #expect(mkfifo(scene.path + "/fifo", 0o600) == 0)
        let reader = try scene.directory.openFile("fifo", flags: O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        var info = stat()
        #expect(fstat(reader, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(failure { _ = try scene.directory.openDirectory("fifo") } == ENOTDIR)
        #expect(try scene.directory.status(of: "fifo").st_mode & S_IFMT == S_IFIFO)
    }

    @Test("an exclusive create fails with EEXIST on a file and on a dangling link, writing nothing through it")
    func exclusiveCreate() throws {
        let scene = try Scene()
        try scene.write("taken", "old")
        try FileManager.default.createSymbolicLink(atPath: scene.path + "/dangling", withDestinationPath: "target")
        for name in ["taken", "dangling"] {
            #expect(failure { _ = try scene.directory.openFile(name, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600) } == EEXIST)
        }
        #expect(scene.read("taken") == "old")
        #expect(!FileManager.default.fileExists(atPath: scene.path + "/target"))
        #expect(failure { try scene.directory.makeDirectory("taken", mode: 0o700) } == EEXIST)
        #expect(failure { try scene.directory.makeSymbolicLink("taken", target: "x") } == EEXIST)
    }

    @Test("renames replace, refuse to replace, or exchange, within and between descriptors")
    func renames() throws {
        let scene = try Scene()
        try scene.directory.makeDirectory("other", mode: 0o700)
        let other = try scene.directory.openDirectory("other")
        try scene.write("a", "A")
        try scene.write("b", "B")
        #expect(failure { try scene.directory.rename("a", to: "b", replacing: .never) } == EEXIST)
        try scene.directory.rename("a", to: "b", replacing: .exchange)
        #expect(scene.read("a") == "B" && scene.read("b") == "A")
        try scene.directory.rename("a", to: "b")
        #expect(scene.read("b") == "B" && scene.read("a") == nil)
        try scene.directory.rename("b", to: "moved", in: other, replacing: .never)
        #expect(scene.read("other/moved") == "B")
    }

    @Test("links by descriptor, owner and times set on a link itself")
    func linksOwnerAndTimes() throws {
        let scene = try Scene()
        try scene.write("file", "content")
        let file = try scene.directory.openFile("file", flags: O_RDONLY)
        defer { close(file) }
        try scene.directory.link(file, as: "second")
        try scene.directory.link("file", as: "third", in: scene.directory)
        #expect(try scene.directory.status(of: "file").st_nlink == 3)
        try scene.directory.makeSymbolicLink("link", target: "file")
        let link = try scene.directory.openFile("link", flags: LinuxFlags.openPathOnly)
        defer { close(link) }
        try DirectoryDescriptor.setOwner(of: link, uid: 4321, gid: 4322)
        try DirectoryDescriptor.setTimes(
            of: link, access: timespec(tv_sec: 1000, tv_nsec: 0), modification: timespec(tv_sec: 2000, tv_nsec: 0))
        let info = try scene.directory.status(of: "link")
        #expect(info.st_uid == 4321 && info.st_gid == 4322 && info.st_mtim.tv_sec == 2000)
        // What the link points at is untouched.
        #expect(try scene.directory.status(of: "file").st_uid == geteuid())
    }

    @Test("a duplicate and a reopened O_PATH descriptor name the same directory")
    func duplicateAndReopen() throws {
        let scene = try Scene()
        try scene.write("file", "")
        let pathOnly = try DirectoryDescriptor.workingDirectory.openDirectory(scene.path, pathOnly: true)
        #expect(failure { _ = try pathOnly.entries() } == EBADF)
        #expect(try pathOnly.reopened().entries().map(\.text) == ["file"])
        #expect(try DirectoryDescriptor(duplicating: scene.directory.rawValue).entries().map(\.text) == ["file"])
        #expect(failure { _ = try DirectoryDescriptor(duplicating: -1) } == EBADF)
    }
}
