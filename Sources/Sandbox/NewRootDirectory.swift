#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Support

/// The empty directory one run's root is mounted on (in the sandbox's own mount namespace).
///
/// Fresh for every run and private to the launcher: a fixed name in a world-writable directory
/// could be pre-created by any local user (every run then fails) or raced while it is made.
/// As root it lives under `/run/sentinel` (created 0700; its owner and mode are checked);
/// otherwise under `$XDG_RUNTIME_DIR/sentinel` or the temporary directory, by `mkdtemp`.
public enum NewRootDirectory {
    /// Where a root launcher keeps its run directories.
    public static let rootBase = "/run/sentinel"

    /// Runs `body` with a fresh directory, removed afterwards.
    public static func with<T>(_ body: (String) throws -> T) throws -> T {
        let path = try create()
        defer { rmdir(path) }
        return try body(path)
    }

    /// Makes a fresh directory; the caller removes it (`rmdir`) after the run.
    public static func create() throws -> String {
        let base: String
        if geteuid() == 0 {
            base = rootBase
            try ensurePrivateDirectory(base)
        } else if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
            (try? ensurePrivateDirectory(runtime + "/sentinel")) != nil
        {
            base = runtime + "/sentinel"
        } else {
            base = NSTemporaryDirectory().hasSuffix("/") ? String(NSTemporaryDirectory().dropLast()) : NSTemporaryDirectory()
        }
        var template = Array("\(base)/sentinel-root-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw SentinelError.sandboxSetup(stage: "mkdtemp", errno: .current, detail: base)
        }
        return String(nulTerminated: template)
    }

    /// Creates `path` 0700 if absent; refuses it unless it is a real directory of ours that no
    /// one else may write or enter.
    static func ensurePrivateDirectory(_ path: String) throws {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw SentinelError.sandboxSetup(stage: "mkdir", errno: .current, detail: path)
        }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw SentinelError.sandboxSetup(stage: "lstat", errno: .current, detail: path)
        }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else {
            let mode = String(info.st_mode & 0o7777, radix: 8)
            throw SentinelError.sandboxSetup(
                stage: "run directory", errno: nil,
                detail: "\(path) must be a directory owned by uid \(geteuid()) with mode 0700 (found uid \(info.st_uid), mode \(mode))")
        }
    }
}
