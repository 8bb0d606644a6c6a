#if canImport(Glibc)
    import Glibc
#endif

/// Which file an executable is, as the kernel sees it: device, inode, size and modification
/// time. Any rebuild or reinstall gives another identity, so what one binary cached for itself
/// (and for a launcher that runs it) is never read on behalf of another.
public enum ExecutableIdentity {
    /// The identity of the file at `path` (links followed), or nil when it cannot be read.
    public static func of(_ path: String) -> [UInt8]? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let fields: [UInt64] = [
            UInt64(info.st_dev), UInt64(info.st_ino), UInt64(info.st_size), UInt64(bitPattern: Int64(info.st_mtim.tv_sec)),
            UInt64(info.st_mtim.tv_nsec),
        ]
        return fields.flatMap(LittleEndian.bytes)
    }

    /// The running executable's identity (`/proc/self/exe`), read once.
    public static let current: [UInt8]? = of("/proc/self/exe")
}
