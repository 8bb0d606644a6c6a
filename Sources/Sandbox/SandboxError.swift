import Support

/// A sandbox that could not be set up, naming the stage and the errno
/// (`sandbox setup failed at pivot_root: Operation not permitted`).
public struct SandboxError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// A stage of building the sandbox failed (exit status 125).
        public static let setupFailed = Code("setup-failed")
        /// The command could not be executed (126, or 127 when not found).
        public static let execFailed = Code("exec-failed")
        /// The changes of an `rw` workspace could not all be committed back after the run (125).
        public static let commitFailed = Code("commit-failed")
    }

    public var code: Code
    /// The failing step, named after its syscall (`pivot_root`, `execve`, `cgroup attach`).
    public var stage: String
    public var errno: Errno?
    /// Extra context, e.g. the filesystem operation that failed.
    public var detail: String?

    public init(code: Code, stage: String, errno: Errno?, detail: String? = nil) {
        self.code = code
        self.stage = stage
        self.errno = errno
        self.detail = detail
    }

    /// The status `sandbox run` exits with for this failure (Docker's convention).
    public var exitStatus: Int32 {
        guard code == .execFailed else { return 125 }
        return errno?.rawValue == ENOENT ? 127 : 126
    }

    public var description: String {
        let reason = errno.map { ": \($0.message)" } ?? ""
        let context = detail.map { " (\($0))" } ?? ""
        if code == .execFailed { return "cannot execute command: execve\(context)\(reason)" }
        if code == .commitFailed { return "workspace commit failed at \(stage)\(context)\(reason)" }
        return "sandbox setup failed at \(stage)\(context)\(reason)"
    }
}

#if canImport(Glibc)
import Glibc
#endif
