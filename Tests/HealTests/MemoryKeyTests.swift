import Foundation
import Store
import Support
import Testing

@testable import Heal

#if canImport(Glibc)
    import Glibc
#endif

/// The key that authenticates shared heal memory (issue 53, R8): made once per state directory,
/// private to its user, and refused whenever someone else could read or replace it.
@Suite("Memory key")
struct MemoryKeyTests {
    static func state() throws -> StateDirectory { StateDirectory(path: try ScratchDirectory.make(prefix: "memory-key")) }

    @Test("first use writes 32 random bytes as hex, mode 0600; later uses read the same key")
    func madeOnFirstUse() throws {
        let state = try Self.state()
        let key = try MemoryKey.loadOrCreate(in: state)
        let path = state.file("memory.key")
        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o600 && info.st_mode & S_IFMT == S_IFREG && info.st_uid == geteuid())
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.count == 65 && text.hasSuffix("\n") && text.dropLast().allSatisfy(\.isHexDigit))
        #expect(try MemoryKey.loadOrCreate(in: state).id == key.id)
        #expect(try MemoryKey.load(path).id == key.id)
        #expect(try MemoryKey.loadOrCreate(in: try Self.state()).id != key.id)
        #expect(key.id.count == 16)
        #expect("\(key)" == "<redacted>" && String(reflecting: key) == "<redacted>")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path) == ["memory.key"])
    }

    @Test("--memory-key, then SENTINEL_MEMORY_KEY_FILE, then the state directory's")
    func resolution() throws {
        let state = try Self.state()
        let named = try Self.state().file("named.key")
        let variable = try Self.state().file("variable.key")
        for path in [named, variable] { try Self.write(String(repeating: path == named ? "ab" : "cd", count: 32) + "\n", to: path) }
        let environment = [MemoryKey.environmentVariable: variable]
        #expect(try MemoryKey.resolve(file: named, environment: environment, state: state).path == named)
        #expect(try MemoryKey.resolve(file: nil, environment: environment, state: state).path == variable)
        #expect(try MemoryKey.resolve(file: nil, environment: [:], state: state).path == state.file("memory.key"))
        #expect(try MemoryKey.load(named).id != (try MemoryKey.load(variable).id))
        #expect(FileManager.default.fileExists(atPath: state.file("memory.key")), "made by the last resolve")
    }

    @Test("a key file open to group or others, another user's, a link, a FIFO, missing, or not hex is refused")
    func refusals() throws {
        let directory = try ScratchDirectory.make(prefix: "memory-key")
        let good = String(repeating: "0f", count: 32) + "\n"
        func refusal(_ path: String) -> String? {
            do {
                _ = try MemoryKey.load(path)
                return nil
            } catch let error as SentinelError {
                return error.code == .memoryKey ? String(error.message.dropFirst(path.count + 2)) : "\(error)"
            } catch {
                return "\(error)"
            }
        }
        try Self.write(good, to: directory + "/readable", mode: 0o640)
        #expect(
            refusal(directory + "/readable")
                == "group or others may use it (mode 640): whoever can read it can forge shared heal memory; chmod 600 it")
        try Self.write(good, to: directory + "/writable", mode: 0o602)
        #expect(refusal(directory + "/writable")?.hasPrefix("group or others may use it (mode 602)") == true)
        if geteuid() == 0 {
            try Self.write(good, to: directory + "/theirs")
            #expect(chown(directory + "/theirs", 12345, 12345) == 0)
            #expect(
                refusal(directory + "/theirs")
                    == "owned by uid 12345, not by you (uid 0): its owner could replace the key; keep it in a file of your own")
        }
        #expect(MemoryKey.problem(owner: 1000, mode: S_IFREG | 0o600, user: 1001)?.hasPrefix("owned by uid 1000") == true)
        #expect(MemoryKey.problem(owner: 0, mode: S_IFREG | 0o600, user: 1001) == nil)
        try Self.write(good, to: directory + "/real")
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: directory + "/real")
        #expect(refusal(directory + "/link") == "is a symbolic link; name the key file itself")
        #expect(mkfifo(directory + "/fifo", 0o600) == 0)
        #expect(refusal(directory + "/fifo") == "not a regular file")
        #expect(refusal(directory + "/missing") == "no such file")
        for (name, text) in [("short", "0f0f\n"), ("words", String(repeating: "zz", count: 32)), ("empty", "")] {
            try Self.write(text, to: directory + "/" + name)
            #expect(refusal(directory + "/" + name) == "not a memory key (64 hex digits, e.g. from `openssl rand -hex 32`)")
        }
        #expect(refusal(directory + "/real") == nil)
        #expect(SentinelError.Code.memoryKey.exitStatus == 2)
    }

    @Test("a state directory's key open to others is refused, not replaced")
    func stateKeyRefused() throws {
        let state = try Self.state()
        let key = try MemoryKey.loadOrCreate(in: state)
        #expect(chmod(state.file("memory.key"), 0o644) == 0)
        #expect(throws: SentinelError.self) { try MemoryKey.loadOrCreate(in: state) }
        #expect(chmod(state.file("memory.key"), 0o600) == 0)
        #expect(try MemoryKey.loadOrCreate(in: state).id == key.id)
    }

    static func write(_ text: String, to path: String, mode: mode_t = 0o600) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, mode) == 0)
    }
}
