import Foundation
import Support

extension SentinelError.Code {
    /// git could not be run, or refused what it was asked (a patch that does not apply).
    public static let git = SentinelError.Code("git")
}

/// The one way Sentinel runs the git CLI. git reads no user or system configuration here
/// (`GIT_CONFIG_GLOBAL=/dev/null`, `GIT_CONFIG_NOSYSTEM`, `GIT_ATTR_NOSYSTEM`), and no program a
/// repository's own configuration names ever runs: every key of it that names one (filters,
/// textconv, external diffs, merge drivers, fsmonitor, hooks, pager, editor, credentials, gpg)
/// is overridden on the command line (`GitConfigGuard`). That guard, not the owner of the
/// directory, is what makes a repository safe to read, so git's ownership check is lifted
/// (`safe.directory=*`): a CI checkout belongs to the runner's user while Sentinel runs as the
/// container's root, and git refuses such a repository outright. It is pointed at directories Sentinel
/// made itself, and at the user's repository only to read it and to create a branch and commit
/// with plumbing (a temporary index; the working tree, index and HEAD are left alone).
public enum GitRunner {
    /// What one git run printed and how it ended.
    public struct Output: Sendable, Hashable {
        /// Exit status.
        public var status: Int32
        /// Standard output, bytes as printed.
        public var stdout: Data
        /// Standard error as text.
        public var stderr: String
    }

    /// The git binary.
    public static let executable = "/usr/bin/git"

    /// Runs `git ARGS` in `directory` with `input` on stdin; returns whatever the status.
    /// `environment` adds variables (`GIT_INDEX_FILE`) to the fixed ones.
    public static func run(
        _ arguments: [String], in directory: String, input: Data? = nil, environment: [String: String] = [:]
    ) throws -> Output {
        let listing = try spawn(["config", "--list", "--name-only", "-z"], in: directory, input: nil, environment: environment)
        let guarded = GitConfigGuard.arguments(forKeys: listing.status == 0 ? GitConfigGuard.keys(fromListing: listing.stdout) : [])
        return try spawn(guarded + arguments, in: directory, input: input, environment: environment)
    }

    private static func spawn(
        _ arguments: [String], in directory: String, input: Data?, environment: [String: String]
    ) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-c", "safe.directory=*"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = [
            "PATH": "/usr/bin:/bin", "HOME": directory, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
            "GIT_ATTR_NOSYSTEM": "1", "GIT_PAGER": "cat", "GIT_EDITOR": "false", "GIT_ASKPASS": "", "GIT_SSH_COMMAND": "false",
            "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C", "GIT_AUTHOR_NAME": "sentinel",
            "GIT_AUTHOR_EMAIL": "sentinel@localhost", "GIT_COMMITTER_NAME": "sentinel",
            "GIT_COMMITTER_EMAIL": "sentinel@localhost",
        ].merging(environment) { _, added in added }
        let out = Pipe()
        let err = Pipe()
        let inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : inPipe
        do {
            try process.run()
        } catch {
            throw SentinelError(.git, "cannot run \(executable): \(error)")
        }
        // Both pipes are drained at once so that neither side can block the other.
        let errorText = ErrorCollector()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            errorText.set(err.fileHandleForReading.readDataToEndOfFile())
        }
        if let input {
            DispatchQueue.global().async(group: group) {
                try? inPipe.fileHandleForWriting.write(contentsOf: input)
                try? inPipe.fileHandleForWriting.close()
            }
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: data, stderr: errorText.text)
    }

    /// Runs git and throws `SentinelError(.git)` with git's first error line unless it exits 0.
    @discardableResult
    public static func check(
        _ arguments: [String], in directory: String, input: Data? = nil, environment: [String: String] = [:]
    ) throws -> Data {
        let output = try run(arguments, in: directory, input: input, environment: environment)
        guard output.status == 0 else {
            let first = output.stderr.split(separator: "\n").first.map(String.init) ?? "exit status \(output.status)"
            throw SentinelError(.git, "git \(arguments.first ?? ""): \(first)")
        }
        return output.stdout
    }
}

/// Standard error read on another thread.
private final class ErrorCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
