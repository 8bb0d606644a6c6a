#if canImport(Glibc)
    import Glibc
#endif

/// The error every Sentinel library throws: a stable `Code` callers switch on, and a
/// one-line message that names the object (file, stage, key) and the problem. The CLI prints
/// the message and exits with `code.exitStatus` (DESIGN §3), in one place.
public struct SentinelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is, and the exit status it maps to. Extensible: a module adds
    /// its own codes as static members (the sandbox's `commandNotFound` is 127).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name, e.g. `invalid-input`.
        public let rawValue: String
        /// The status `sentinel` exits with when this error ends a command.
        public let exitStatus: Int32

        /// A code named `rawValue`; commands it ends exit with `exitStatus` (default 1).
        public init(_ rawValue: String, exitStatus: Int32 = 1) {
            self.rawValue = rawValue
            self.exitStatus = exitStatus
        }

        /// The stable name.
        public var description: String { rawValue }

        /// Bad input from a user: a file, flag or config value (exit status 2).
        public static let invalidInput = Code("invalid-input", exitStatus: 2)
        /// A file could not be read or written.
        public static let io = Code("io")
        /// The sandbox could not be set up (exit status 125).
        public static let sandboxSetup = Code("sandbox-setup", exitStatus: 125)
        /// A host feature the operation needs is missing.
        public static let unsupported = Code("unsupported")
        /// An external tool failed (exit status 3 for scans).
        public static let toolFailed = Code("tool-failed", exitStatus: 3)
    }

    /// What kind of failure this is.
    public var code: Code
    /// One line naming the object and the problem, without a `sentinel:` prefix.
    public var message: String
    /// The errno behind the failure, when there is one.
    public var errno: Errno?
    /// The failing step of building a sandbox, named after its syscall (`pivot_root`, `execve`),
    /// when the error is one; `sandbox run --status-json` reports it.
    public var stage: String?

    /// An error of kind `code` with a one-line `message`.
    public init(_ code: Code, _ message: String, errno: Errno? = nil, stage: String? = nil) {
        self.code = code
        self.message = message
        self.errno = errno
        self.stage = stage
    }

    /// The status a command ended by this error exits with.
    public var exitStatus: Int32 { code.exitStatus }

    /// The message.
    public var description: String { message }
}

/// A C `errno` value with its conventional name and message.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C `errno` number, e.g. `EPERM`.
    public let rawValue: Int32
    /// Wraps the C `errno` value `rawValue`.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    public static var current: Errno { Errno(rawValue: Glibc.errno) }

    /// `strerror` text, e.g. "Operation not permitted".
    public var message: String { String(cString: strerror(rawValue)) }

    /// The symbolic name, e.g. "EPERM", or "E<number>" when unknown.
    public var name: String { Errno.names[rawValue] ?? "E\(rawValue)" }

    /// The `strerror` message, same as `message`.
    public var description: String { message }

    private static let names: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", ESRCH: "ESRCH", EINTR: "EINTR", EIO: "EIO",
        ENXIO: "ENXIO", E2BIG: "E2BIG", ENOEXEC: "ENOEXEC", EBADF: "EBADF", ECHILD: "ECHILD",
        EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT", EBUSY: "EBUSY",
        EEXIST: "EEXIST", EXDEV: "EXDEV", ENODEV: "ENODEV", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR",
        EINVAL: "EINVAL", ENFILE: "ENFILE", EMFILE: "EMFILE", ENOTTY: "ENOTTY", EFBIG: "EFBIG",
        ENOSPC: "ENOSPC", ESPIPE: "ESPIPE", EROFS: "EROFS", EMLINK: "EMLINK", EPIPE: "EPIPE",
        ENOSYS: "ENOSYS", ENOTEMPTY: "ENOTEMPTY", ELOOP: "ELOOP", ENAMETOOLONG: "ENAMETOOLONG",
        EAFNOSUPPORT: "EAFNOSUPPORT", EPROTONOSUPPORT: "EPROTONOSUPPORT",
        ENETUNREACH: "ENETUNREACH", ECONNREFUSED: "ECONNREFUSED", EADDRINUSE: "EADDRINUSE",
        EADDRNOTAVAIL: "EADDRNOTAVAIL", ETIMEDOUT: "ETIMEDOUT", EHOSTUNREACH: "EHOSTUNREACH",
        EOPNOTSUPP: "EOPNOTSUPP", ESOCKTNOSUPPORT: "ESOCKTNOSUPPORT", EDQUOT: "EDQUOT",
    ]
}
