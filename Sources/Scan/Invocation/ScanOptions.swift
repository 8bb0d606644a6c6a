import Findings
import ScanCore

/// What `sentinel scan` was asked, once the command line is parsed and the values that name an
/// option in their errors (`--since`, `--baseline`, `--sarif-root`) are read: typed, no defaults
/// applied yet. `ScanPlan` applies every precedence rule to it.
public struct ScanOptions: Sendable {
    /// The directories or files named (empty: the current directory), resolved.
    public var paths: ScanPaths
    /// Whether paths were named at all (`--dast URL` alone scans the application only).
    public var pathsGiven: Bool
    /// The kinds the flags chose (`--sast`, `--sca`, `--secrets`), in that order; empty for none.
    public var kinds: [ScannerKind] = []
    /// `--dast URL`, checked.
    public var web: WebScanRequest?
    /// `--prove URL`: the running application to prove taint findings against.
    public var prove: WebScanRequest?
    /// Whether `--zap` was given (ZAP joins the default tools).
    public var zap = false
    /// `--tools`.
    public var tools: [ToolName]?
    /// `--config FILE`, the operator's, instead of the tree's (or the base revision's) `.sentinel.yml`.
    public var configFile: String?
    /// `--include` and `--exclude` globs, added to the config's.
    public var includes: [String] = []
    /// See `includes`.
    public var excludes: [String] = []
    /// `--no-default-excludes`.
    public var noDefaultExcludes = false
    /// `--fail-on`.
    public var failOn: Gate?
    /// `--severity`.
    public var severity: Severity?
    /// `--min-confidence`.
    public var minConfidence: Confidence?
    /// `--baseline`, loaded.
    public var baseline: Baseline?
    /// `--since`: the lines it leaves in and the base revision's configuration (a pull request's
    /// scan takes its configuration from there, not from the tree).
    public var base: BaseRevision?
    /// False with `--no-inline-suppressions`.
    public var inlineSuppressions = true
    /// `--max-file-size` in bytes.
    public var maxFileBytes: Int?
    /// `--max-file-work`: the work units one file's analysis may cost (nil: the engine's default).
    public var maxFileWork: Int?
    /// `--allow-missing-db`.
    public var allowMissingDatabase = false
    /// `--allow-stale-db`.
    public var allowStaleDatabase = false
    /// `--max-db-age` in seconds.
    public var maxDatabaseAge: Double?
    /// The operator's environment: the `{env: NAME}` values of the `--config` file's `dast.login`.
    public var environment: [String: String] = [:]

    /// Options for `paths` (`given`: named on the command line), everything else unset.
    public init(paths: ScanPaths, given: Bool) {
        self.paths = paths
        pathsGiven = given
    }
}
