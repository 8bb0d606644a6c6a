#if canImport(Glibc)
import Glibc
#endif

/// The error every Sentinel library throws: a stable `Code` callers switch on, and a
/// one-line message that names the object (file, stage, key) and the problem.
public struct SentinelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. Extensible: new codes are added as static members.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Bad input from a user: a file, flag or config value (exit status 2).
        public static let invalidInput = Code("invalid-input")
        /// A file could not be read or written.
        public static let io = Code("io")
        /// The sandbox could not be set up (exit status 125).
        public static let sandboxSetup = Code("sandbox-setup")
        /// A host feature the operation needs is missing.
        public static let unsupported = Code("unsupported")
        /// An external tool failed (exit status 3 for scans).
        public static let toolFailed = Code("tool-failed")
    }

    public var code: Code
    public var message: String
    /// The errno behind the failure, when there is one.
    public var errno: Errno?

    public init(_ code: Code, _ message: String, errno: Errno? = nil) {
        self.code = code
        self.message = message
        self.errno = errno
    }

    public var description: String { message }
}

/// A C `errno` value with its conventional name and message.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    public static var current: Errno { Errno(rawValue: Glibc.errno) }

    /// `strerror` text, e.g. "Operation not permitted".
    public var message: String { String(cString: strerror(rawValue)) }

    /// The symbolic name, e.g. "EPERM", or "E<number>" when unknown.
    public var name: String { Errno.names[rawValue] ?? "E\(rawValue)" }

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
