import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The tests' one way to get a scratch directory: fresh (`mkdtemp`: created, never taken over),
/// under the system temporary directory, named `sentinel-LABEL-XXXXXX`, mode 0755 so that a
/// payload in a sandbox or a test's other user may read it; the caller removes it.
public enum TemporaryDirectory {
    /// A new directory's path.
    public static func make(_ label: String = "test") throws -> String {
        var template = Array((NSTemporaryDirectory() + "sentinel-\(label)-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let path = String(cString: made)
        guard chmod(path, 0o755) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return path
    }

    /// A new directory's URL.
    public static func url(_ label: String = "test") throws -> URL {
        URL(fileURLWithPath: try make(label), isDirectory: true)
    }
}
