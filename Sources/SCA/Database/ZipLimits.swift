import Support

/// How far one zip archive may expand. An OSV export is many small JSON records that compress
/// 2-12:1 (the shared corpora zipped: largest record 17 KB, total ratio 2.4-2.9, worst entry
/// 11.7:1); a zip bomb is a few entries that expand 1,000:1. The bounds sit far above the first
/// and far below what would exhaust memory or time, and are checked on the sizes the central
/// directory declares before anything is inflated (inflation then stops at the declared size).
struct ZipLimits: Sendable, Hashable {
    /// The largest archive file read: it is read whole. OSV's largest per-ecosystem exports are a
    /// few hundred MB compressed; 1 GiB bounds the memory an import of a file someone else left
    /// in a directory may take.
    var maxArchiveBytes = 1 << 30
    /// The largest uncompressed entry: one advisory record. Real records are kilobytes, the
    /// largest known a few MB (long version lists); 64 MiB leaves headroom and bounds memory.
    var maxEntryBytes = 64 << 20
    /// The largest sum of uncompressed entries: OSV's biggest per-ecosystem exports expand to a
    /// few GiB at most; 8 GiB bounds an import's time and disk, not memory (entries are read one
    /// at a time).
    var maxTotalBytes = 8 << 30
    /// The highest compression ratio of an entry larger than `ratioFloorBytes`: records reach
    /// ~12:1; deflate's maximum (~1,032:1) is a bomb.
    var maxRatio = 100
    /// Entries up to this size are not held to `maxRatio` (tiny inputs have erratic ratios).
    var ratioFloorBytes = 1 << 20

    /// The bounds for OSV exports.
    static let osvExports = ZipLimits()
}

extension ZipLimits {
    /// Checks the sizes `entries` declare; inflation then holds each entry to its declared size.
    func check(_ entries: [ZipArchive.Entry], path: String) throws {
        var total = 0
        for entry in entries {
            let place = "\(path)!\(entry.shownName)"
            guard entry.size <= maxEntryBytes else {
                throw SentinelError(
                    .invalidInput, "\(place): declared size \(entry.size) bytes is past the bound of \(maxEntryBytes) bytes per entry")
            }
            let (most, overflow) = max(entry.compressedSize, 1).multipliedReportingOverflow(by: maxRatio)
            if entry.size > ratioFloorBytes, !overflow, entry.size > most {
                let ratio = entry.size / max(entry.compressedSize, 1)
                throw SentinelError(
                    .invalidInput,
                    "\(place): expands \(entry.size) bytes from \(entry.compressedSize) (\(ratio):1), past the bound of \(maxRatio):1")
            }
            total += entry.size  // each at most maxEntryBytes, and at most one entry per 46 bytes of file
            guard total <= maxTotalBytes else {
                throw SentinelError(.invalidInput, "\(path): entries expand to more than \(maxTotalBytes) bytes in total (the bound)")
            }
        }
    }
}
