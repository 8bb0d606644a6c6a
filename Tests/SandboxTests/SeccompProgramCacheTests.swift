import CSandbox
import Foundation
import Support
import Testing

@testable import Sandbox

#if canImport(Glibc)
    import Glibc
#endif

/// The on-disk cache of the compiled default seccomp program: what it reads back is what
/// libseccomp compiled, under the key it was stored with, and nothing it cannot trust.
@Suite struct SeccompProgramCacheTests {
    static let key = SeccompProgramCache.key(policy: "default", buildID: [0xAB, 0xCD, 0x01])!

    /// A fresh directory of ours, mode 0700, as the launcher's private run directory is.
    static func privateDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "seccomp-cache-XXXXXX").utf8CString)
        try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) } != nil)
        return String(cString: template)
    }

    static func bytes(_ program: UnsafeBufferPointer<sock_filter>) -> [UInt8] { Array(UnsafeRawBufferPointer(program)) }
    static func bytes(_ program: [sock_filter]) -> [UInt8] { program.withUnsafeBytes { Array($0) } }

    /// Stores the compiled program under `key` in a fresh directory; returns the directory and the file.
    static func stored() throws -> (directory: String, file: String, program: SeccompProgram) {
        let directory = try privateDirectory()
        let program = try SeccompProgram.compileBuiltIn()
        SeccompProgramCache.store(program.instructions, key: key, in: directory)
        return (directory, directory + "/" + SeccompProgramCache.fileName(key), program)
    }

    @Test func aStoredProgramReadsBackAsCompiled() throws {
        let (directory, file, program) = try Self.stored()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var info = stat()
        #expect(lstat(file, &info) == 0 && info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8))")
        let loaded = try #require(SeccompProgramCache.load(Self.key, in: directory))
        #expect(loaded.count == program.instructionCount && loaded.count > 300)
        #expect(Self.bytes(loaded) == Self.bytes(program.instructions), "the read-back program differs")
        // The program a launch gets from it is the same, instruction for instruction.
        let rebuilt = SeccompProgram(instructions: loaded)
        withExtendedLifetime(rebuilt) {
            #expect(Self.bytes(rebuilt.instructions) == Self.bytes(program.instructions), "the rebuilt program differs")
        }
    }

    /// Another build (another build ID) or another libseccomp has another key: it never reads
    /// this program, and storing its own keeps this one (two builds launching in turn do not
    /// compile at every launch); only the newest `maximumEntries` programs are kept.
    @Test func aProgramIsReadOnlyUnderItsOwnKey() throws {
        let (directory, file, program) = try Self.stored()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let other = try #require(SeccompProgramCache.key(policy: "default", buildID: [0xAB, 0xCD, 0x02]))
        #expect(other != Self.key)
        #expect(SeccompProgramCache.key(policy: "default", buildID: nil) == nil)
        #expect(SeccompProgramCache.load(other, in: directory) == nil)
        // A file renamed to another key's name still names its own key inside.
        try FileManager.default.copyItem(atPath: file, toPath: directory + "/" + SeccompProgramCache.fileName(other))
        #expect(SeccompProgramCache.load(other, in: directory) == nil)

        SeccompProgramCache.store(program.instructions, key: other, in: directory)
        #expect(SeccompProgramCache.load(other, in: directory) != nil)
        #expect(SeccompProgramCache.load(Self.key, in: directory) != nil)

        // Older programs go once more than the limit are stored; the newest stay.
        let keys = try (0..<SeccompProgramCache.maximumEntries).map {
            try #require(SeccompProgramCache.key(policy: "default", buildID: [0xEE, UInt8($0)]))
        }
        for key in keys {
            // Distinct modification times, whatever the filesystem's resolution.
            usleep(2000)
            SeccompProgramCache.store(program.instructions, key: key, in: directory)
        }
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(SeccompProgramCache.load(other, in: directory) == nil)
        for key in keys { #expect(SeccompProgramCache.load(key, in: directory) != nil) }

        // A program in use is kept over newer ones that are not: a hit marks it used.
        usleep(2000)
        #expect(SeccompProgramCache.load(keys[0], in: directory) != nil)
        usleep(2000)
        SeccompProgramCache.store(program.instructions, key: other, in: directory)
        #expect(SeccompProgramCache.load(keys[0], in: directory) != nil)
        #expect(SeccompProgramCache.load(keys[1], in: directory) == nil)
    }

    enum Tampering: String, CaseIterable, Sendable {
        case groupWritable, othersReadable, ownedByAnotherUser, hardLinked, symbolicLink, fifo
        case truncated, flippedInstruction, appended, emptied
    }

    /// A cache file the launcher cannot trust, or that is damaged, is not read: the launch
    /// compiles instead (and `store` replaces the file).
    @Test(arguments: Tampering.allCases)
    func untrustedOrDamagedFilesAreIgnored(tampering: Tampering) throws {
        let (directory, file, _) = try Self.stored()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: file)))
        func rewrite() throws {
            try FileManager.default.removeItem(atPath: file)
            let fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            try #require(fd >= 0)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        switch tampering {
        case .groupWritable: #expect(chmod(file, 0o620) == 0)
        case .othersReadable: #expect(chmod(file, 0o604) == 0)
        case .ownedByAnotherUser: #expect(chown(file, 12345, 12345) == 0)
        case .hardLinked: #expect(link(file, directory + "/second-name") == 0)
        case .symbolicLink:
            #expect(rename(file, directory + "/real") == 0)
            #expect(symlink(directory + "/real", file) == 0)
        case .fifo:
            try FileManager.default.removeItem(atPath: file)
            #expect(mkfifo(file, 0o600) == 0)
        case .truncated:
            bytes.removeLast(8)
            try rewrite()
        case .flippedInstruction:
            bytes[bytes.count - 20] ^= 0x01
            try rewrite()
        case .appended:
            bytes += [UInt8](repeating: 0, count: 8)
            try rewrite()
        case .emptied:
            bytes = []
            try rewrite()
        }
        #expect(SeccompProgramCache.load(Self.key, in: directory) == nil)
    }

    /// The running test binary has a build ID (the linker's `--build-id`), so the CLI has one too.
    @Test func theRunningExecutableHasABuildID() {
        #expect((BuildID.current?.count ?? 0) >= 8)
    }
}
