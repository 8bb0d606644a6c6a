#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What one child process did: its status, its output, and how long it took.
struct CommandResult: Sendable {
    /// Exit status, or the signal number when `signaled`.
    var status: Int32
    var signaled: Bool
    var stdout: String
    var stderr: String
    var wallSeconds: Double
    /// True when the runner had to kill the child at its deadline.
    var timedOut: Bool

    /// A one-line summary for failure messages.
    var summary: String {
        "status=\(status)\(signaled ? " (signal)" : "")\(timedOut ? " TIMED OUT" : "") "
            + "wall=\(String(format: "%.2f", wallSeconds))s stdout=\(stdout.debugDescription) "
            + "stderr=\(String(stderr.suffix(600)).debugDescription)"
    }
}

/// Runs a program with a hard deadline, so a hung sandbox fails a test instead of hanging CI.
///
/// Output goes to files rather than pipes: a daemon that escapes with our stdout must not keep
/// the runner waiting for an end-of-file that never comes.
enum CommandRunner {
    static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        currentDirectory: String? = nil,
        timeout: Double
    ) throws -> CommandResult {
        let scratch = try TemporaryDirectory(prefix: "sentinel-run")
        defer { scratch.remove() }
        let outPath = scratch.path + "/stdout"
        let errPath = scratch.path + "/stderr"
        guard FileManager.default.createFile(atPath: outPath, contents: nil),
            FileManager.default.createFile(atPath: errPath, contents: nil),
            let out = FileHandle(forWritingAtPath: outPath),
            let err = FileHandle(forWritingAtPath: errPath)
        else {
            throw RunnerError("cannot create output files in \(scratch.path)")
        }
        defer {
            try? out.close()
            try? err.close()
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err

        let start = Date()
        try process.run()
        var timedOut = false
        while process.isRunning {
            if Date().timeIntervalSince(start) > timeout {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(20_000)
        }
        process.waitUntilExit()
        let wall = Date().timeIntervalSince(start)
        let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return CommandResult(
            status: process.terminationStatus,
            signaled: process.terminationReason == .uncaughtSignal,
            stdout: stdout,
            stderr: stderr,
            wallSeconds: wall,
            timedOut: timedOut
        )
    }
}

/// A failure of the test machinery itself (not of the thing under test).
struct RunnerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A directory made with `mkdtemp` and removed by `remove()`.
struct TemporaryDirectory: Sendable {
    let path: String

    init(prefix: String) throws {
        var template = Array("\(NSTemporaryDirectory())/\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { throw RunnerError("mkdtemp failed: errno \(errno)") }
        let bytes = template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        path = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "//", with: "/")
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
