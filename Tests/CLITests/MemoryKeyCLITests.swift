#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Testing

/// `sentinel memory key` and `fleet worker --memory-key` (issue 53, R8): the key that authenticates
/// shared heal memory is made private on first use, shown by id only, and refused when it is not private.
@Suite struct MemoryKeyCLITests {
    let root = NSTemporaryDirectory() + "sentinel-memory-key-\(UUID().uuidString)"
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[MemoryKeyName.variable] = nil
        environment["SENTINEL_DATABASE_URL"] = nil
        environment["SENTINEL_HOME"] = root + "/home"
        return environment
    }

    @Test("the state directory's key is made once (0600) and shown by file and id, never by value")
    func madeOnceAndShownByID() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let first = try CLI.run(["memory", "key"], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0] == "file: \(root)/home/memory.key")
        #expect(lines[1].hasPrefix("id: ") && lines[1].count == 20)
        var info = stat()
        #expect(lstat(root + "/home/memory.key", &info) == 0 && info.st_mode & 0o777 == 0o600)
        let key = try String(contentsOfFile: root + "/home/memory.key", encoding: .utf8)
        #expect(!first.stdout.contains(key.trimmingCharacters(in: .newlines)))
        #expect(try CLI.run(["memory", "key"], environment: environment).stdout == first.stdout)
        // The same key named by file shows the same id.
        let named = try CLI.run(["memory", "key", "--memory-key", root + "/home/memory.key"], environment: environment)
        #expect(named.stdout == first.stdout)
    }

    @Test("a key file others may read is refused (exit 2) by memory key and by fleet worker, before the worker starts")
    func readableKeyRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/home", withIntermediateDirectories: true)
        let path = root + "/shared.key"
        try (String(repeating: "5a", count: 32) + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o644) == 0)
        let message =
            "sentinel: \(path): group or others may use it (mode 644): whoever can read it can forge shared heal memory; chmod 600 it\n"
        let shown = try CLI.run(["memory", "key", "--memory-key", path], environment: environment)
        #expect(shown.status == 2 && shown.stderr == message, "\(shown.stderr)")
        var variable = environment
        variable[MemoryKeyName.variable] = path
        // Named by the variable, the path is shown as the redactor shows a `*_KEY_*` variable's value.
        let worker = try CLI.run(["fleet", "worker"], environment: variable, timeout: 30)
        #expect(worker.status == 2, "\(worker.stderr)")
        let hidden = message.replacingOccurrences(of: "sentinel: \(path)", with: "sentinel: SENTINEL_MEMORY_KEY_FILE: <redacted>")
        #expect(worker.stderr == hidden)
        #expect(chmod(path, 0o600) == 0)
        let accepted = try CLI.run(["memory", "key"], environment: variable)
        #expect(accepted.status == 0 && accepted.stdout.hasPrefix("file: <redacted>\nid: "), "\(accepted.stderr)")
    }
}

/// The variable's name, spelt here as users spell it.
enum MemoryKeyName {
    static let variable = "SENTINEL_MEMORY_KEY_FILE"
}
