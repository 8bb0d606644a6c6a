#if canImport(Glibc)
    import Glibc
#endif

/// The name of an open directory that other processes can use: `/proc/PID/fd/N`.
///
/// Opening it, or anything below it, resolves through the descriptor rather than through the
/// names that once led to the directory: the kernel's "magic link" jumps to the open file itself.
/// A component of the original path renamed, or swapped for a symbolic link, after the directory
/// was opened changes nothing; the directory may even have been moved. So a process that checked
/// a directory can hand it to a child it starts (and the child to its own) by this name.
extension DirectoryDescriptor {
    /// `/proc/PID/fd/N` for this process and this descriptor: usable by any process of the same
    /// pid namespace allowed to look at this process's descriptors (the same user, or root), for
    /// as long as this value lives.
    public var descriptorPath: String { "/proc/\(getpid())/fd/\(rawValue)" }

    /// Where the directory is now, as the kernel names it (`/proc/self/fd/N`'s target): for
    /// messages and checks on the text only, never to open it again by.
    public static func currentPath(of fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `path` is such a name (`/proc/PID/fd/N`, `/proc/self/fd/N` or `/dev/fd/N`):
    /// `lstat` calls it a symbolic link, but it is the open file itself, not a path chosen by
    /// whoever writes a tree, so a walker that follows no link may still start from it.
    public static func isDescriptorPath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        func number(_ text: Substring) -> Bool { !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
        if parts.count == 4, parts[0].isEmpty, parts[1] == "dev", parts[2] == "fd" { return number(parts[3]) }
        return parts.count == 5 && parts[0].isEmpty && parts[1] == "proc" && (parts[2] == "self" || number(parts[2]))
            && parts[3] == "fd" && number(parts[4])
    }
}
