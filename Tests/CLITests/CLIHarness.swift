#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// Runs the built `sentinel` binary end to end, as a user would.
enum CLI {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The binary next to the test bundle (same build configuration).
    static let binary: String = {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("sentinel").path,
            packageRoot + "/.build/debug/sentinel",
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[1]
    }()

    /// `sentinel-cli`, the full command line `sentinel` hands every other command to, beside it.
    static var fullBinary: String { (binary as NSString).deletingLastPathComponent + "/sentinel-cli" }

    /// This process's environment with `SENTINEL_HOME` set to `home` (a test's own state).
    static func environment(home: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL_HOME"] = home
        return environment
    }

    /// Runs git in `directory` as a fixed test identity; expects it to succeed and returns its
    /// trimmed standard output.
    @discardableResult
    static func git(_ arguments: [String], in directory: String) throws -> String {
        let result = try CLI.runProgram(
            "/usr/bin/git", ["-C", directory, "-c", "user.name=t", "-c", "user.email=t@example.invalid"] + arguments)
        #expect(result.status == 0, "git \(arguments): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A fresh temporary directory named `prefix-UUID` holding `files` (path → bytes), the
    /// directories of nested paths made as needed.
    static func tree(_ files: [String: [UInt8]], prefix: String, in parent: String = NSTemporaryDirectory()) throws -> String {
        let root = (parent.hasSuffix("/") ? parent : parent + "/") + "\(prefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for (file, bytes) in files {
            let path = root + "/" + file
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        return root
    }

    /// ``tree(_:prefix:in:)`` of texts (path → UTF-8 text).
    static func tree(texts files: [String: String], prefix: String) throws -> String {
        try tree(files.mapValues { Array($0.utf8) }, prefix: prefix)
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `sentinel ARGS`, killing it after `timeout` seconds so a hang fails the test.
    static func run(
        _ arguments: [String], environment: [String: String]? = nil, timeout: Double = 60,
        directory: String? = nil
    ) throws -> Result {
        try runProgram(binary, arguments, environment: environment, directory: directory, timeout: timeout)
    }

    /// Runs any program with stdin from /dev/null, capturing both streams, killing it after
    /// `timeout` seconds so a hang fails the test.
    static func runProgram(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil,
        directory: String? = nil, timeout: Double = 60
    ) throws -> Result {
        let run = try ProgramRun.run(program, arguments, environment: environment, directory: directory, timeout: timeout)
        return Result(
            status: run.status, stdout: String(decoding: run.stdout, as: UTF8.self), stderr: String(decoding: run.stderr, as: UTF8.self))
    }
}
