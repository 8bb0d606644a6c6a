#if canImport(Glibc)
    import Glibc
#endif
import FoundationEssentials

/// A private (0700) temporary directory removed after use.
public enum ScratchDirectory {
    /// Runs `body` with a new private directory under `$TMPDIR` (or /tmp) and removes it after.
    public static func with<T>(_ body: (String) throws -> T) throws -> T {
        let path = try make()
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// Makes a new private directory and returns its path; the caller removes it.
    public static func make(prefix: String = "sentinel") throws -> String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SentinelError(.io, "\(base): cannot make a temporary directory: \(Errno.current)", errno: .current)
        }
        return String(cString: made)
    }

    /// Removes a directory `make` made, with what it holds (links are removed, never followed).
    /// For a directory someone else filled, only once nothing of theirs runs any more.
    public static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
