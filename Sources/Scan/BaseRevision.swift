import Findings
import Foundation

/// `scan --since REV`, a pull request's scan: what it takes from the base revision rather than
/// from the change under review (docs/SECURITY.md, "The configuration trust model"). The lines the
/// change writes, which are all it reports on and where its own suppressions count for nothing,
/// and the scanned directory's `.sentinel.yml` as REV has it: the gate, severities, models,
/// excludes and scanners come from there (or from the operator's `--config`), never from the head.
public struct BaseRevision: Sendable, Hashable {
    /// The revision as the operator named it.
    public var revision: String
    /// The lines the change writes, relative to the scanned directory.
    public var changedLines: ChangedLines
    /// The scanned directory's `.sentinel.yml` in the revision's tree; nil when it has none.
    public var configuration: Data?
    /// A `--baseline` inside the scanned directory, relative to it: read from the revision, and
    /// its edits by the change reported (`ConfigurationChange`); nil for none or one outside.
    public var baselineFile: String?

    /// A base revision from its parts (tests make them without git).
    public init(revision: String, changedLines: ChangedLines, configuration: Data? = nil) {
        self.revision = revision
        self.changedLines = changedLines
        self.configuration = configuration
    }

    /// Reads the change since `revision` and the revision's configuration through git (in the
    /// sandbox, as every git run). Errors name the revision; the caller adds the option.
    public static func read(in directory: String, since revision: String) throws -> BaseRevision {
        let lines = try GitDiff.changedLines(in: directory, since: revision)
        let configuration = try GitDiff.file(ScanConfig.fileName, in: directory, at: revision, limit: ScanConfig.maxSize)
        return BaseRevision(revision: revision, changedLines: lines, configuration: configuration)
    }

    /// The baseline `path` names for this scan of `directory`: a file inside the directory is
    /// the change's to edit, so it is read from the revision (none there: an empty baseline), and
    /// its name kept in `baselineFile`; a file outside is the operator's, read as it is.
    public mutating func baseline(_ path: String, in directory: String) throws -> Baseline {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let standardized = (absolute as NSString).standardizingPath
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        guard standardized.hasPrefix(prefix) else { return try Baseline.load(path) }
        let relative = String(standardized.dropFirst(prefix.count))
        baselineFile = relative
        guard let data = try GitDiff.file(relative, in: directory, at: revision, limit: Baseline.maxBytes) else {
            return Baseline(findings: [])
        }
        return try Baseline.parse(data, name: "\(revision):\(relative)")
    }
}
