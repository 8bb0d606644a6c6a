import Foundation
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// The directory a worker process's jobs make their scratch directories in:
/// `<root>/sentinel-fleet-worker-<worker>-<pid>-<random>` (unpredictable: `root` may be a shared `$TMPDIR`), locked (`flock`) for the worker's life. A
/// worker killed with -9 leaves it behind, lock released; the next worker started on the machine
/// removes it, with whatever its jobs left (clones, heal snapshots), and never the directory of a
/// worker that still runs (its lock is held).
final class WorkerScratch: Sendable {
    /// What every worker directory's name starts with.
    static let prefix = "sentinel-fleet-worker-"
    /// The directory.
    let path: String
    /// How many directories of gone workers the start removed.
    let swept: Int

    /// Sweeps `root` of gone workers' directories, then makes this one's.
    init(root: String, worker: String) throws {
        swept = ScratchDirectory.sweepUnheld(in: root, prefix: Self.prefix)
        path = try ScratchDirectory.makeHeld(prefix: Self.prefix(worker: worker), in: root)
    }

    /// `sentinel-fleet-worker-<worker>-<pid>-`, the worker's name reduced to letters, digits, `.`, `_`, `-`.
    static func prefix(worker: String) -> String {
        let safe = String(
            String.UnicodeScalarView(
                worker.unicodeScalars.prefix(64).map { scalar in
                    scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
                        ? scalar : "_"
                }))
        return prefix + "\(safe)-\(getpid())-"
    }

    /// Removes the directory (the worker is stopping; its jobs have ended).
    func remove() { ScratchDirectory.remove(path) }
}
