import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// One setting of the sandbox's own namespaces, written before the payload starts: a
/// per-user-namespace limit (`user/max_inotify_watches`), which the init writes, or a network
/// namespace setting (`net/core/somaxconn`), which whoever makes the namespace writes (a root
/// launcher's `PreparedNetworkNamespace` thread, or the init). The init opens its files before it
/// builds the root (inside, /proc/sys is read-only); the payload holds no capability in those
/// namespaces, so it cannot change them back.
public struct NamespaceSysctl: Sendable, Equatable {
    /// The file under /proc/sys, e.g. `net/core/somaxconn`.
    public var name: String
    /// The text written to it.
    public var value: String

    /// Makes a setting writing `value` to `/proc/sys/<name>`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// The file the init opens (through the host's /proc, in its own namespaces).
    public var path: String { Self.directory + "/" + name }

    static let directory = "/proc/sys"

    /// The text of `/proc/sys/<name>` as this process's namespaces see it, without the final
    /// newline; nil when the kernel has no such file.
    @Sendable public static func hostText(_ name: String) -> String? {
        let fd = open(directory + "/" + name, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self).trimmedOfWhitespace()
    }
}
