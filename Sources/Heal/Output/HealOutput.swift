#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Support

/// Writes `--out DIR` all at once: `patch.diff` (when there is a candidate) and
/// `evidence.json` go to a new sibling directory that is then renamed into place, so DIR is
/// never half-written. An existing DIR is replaced only when it holds nothing but a previous
/// heal's files; anything else is refused (exit 2) rather than deleted.
public enum HealOutput {
    /// The files `heal` writes.
    public static let files: Set<String> = ["patch.diff", "evidence.json"]

    /// Writes `evidence` (and `patch` when not nil) to `directory`.
    public static func write(to directory: String, patch: String?, evidence: Evidence) throws {
        let target = URL(fileURLWithPath: directory).standardizedFileURL.path
        try checkReplaceable(target)
        let parent = (target as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let staging = parent + "/.\((target as NSString).lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        do {
            if let patch { try AtomicFile.write(patch, to: staging + "/patch.diff") }
            try AtomicFile.write(String(decoding: try evidence.json(), as: UTF8.self) + "\n", to: staging + "/evidence.json")
            if FileManager.default.fileExists(atPath: target) {
                let old = staging + ".old"
                guard rename(target, old) == 0 else {
                    throw SentinelError(.io, "\(target): cannot move the previous output aside: \(Errno.current)")
                }
                defer { try? FileManager.default.removeItem(atPath: old) }
                guard rename(staging, target) == 0 else {
                    _ = rename(old, target)
                    throw SentinelError(.io, "\(target): cannot rename the new output into place: \(Errno.current)")
                }
            } else {
                guard rename(staging, target) == 0 else {
                    throw SentinelError(.io, "\(target): cannot rename the new output into place: \(Errno.current)")
                }
            }
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    /// Refuses a path that exists and is not a directory of heal output.
    public static func checkReplaceable(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw SentinelError(.invalidInput, "\(path): --out exists and is not a directory")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        if let other = names.first(where: { !files.contains($0) }) {
            throw SentinelError(.invalidInput, "\(path): --out is not empty and not a heal output directory (it holds \(other))")
        }
    }
}
