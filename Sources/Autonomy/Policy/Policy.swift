import Foundation

/// The autonomy policy of a repository (`.sentinel/policy.yml`): which changes Sentinel may
/// apply by itself, which need approval and which it never makes, at what confidence and risk,
/// how many per day, and where it reports. `load`/`parse` read the file (`PolicyParser`),
/// `evaluate` judges one candidate's paths.
public struct Policy: Sendable, Hashable {
    /// The policy file's path; nil for the built-in default.
    public var file: String?
    /// SHA-256 (hex) of the file's bytes, recorded in the audit log as an input; nil for the default.
    public var sha256: String?
    /// The level `heal` uses when not given `--level`.
    public var level: AutonomyLevel
    /// The rules, in file order (the order never changes a verdict).
    public var rules: [PolicyRule]
    /// Paths never changed automatically: `builtInProtected` followed by the file's `protected`.
    public var protected: [PathGlob]
    /// The least confidence a candidate needs to be applied at the `actor` level.
    public var minConfidence: Double
    /// The most risk (`Risk.value`) a candidate may carry to be applied at the `actor` level.
    public var maxRisk: Double
    /// Changes applied at the `actor` level per repository in a rolling 24 hours.
    public var repositoryDailyLimit: Int
    /// Changes applied at the `actor` level per action class in a rolling 24 hours; a class
    /// not listed has only the repository limit.
    public var classDailyLimits: [ActionClass: Int]
    /// A JSON-lines file notifications are appended to: a relative name inside the state directory.
    public var notifyFile: String?
    /// An http(s) URL notifications are posted to.
    public var webhook: String?
    /// Where pull requests go; nil (the publisher is off) unless the file names a repository.
    public var github: GitHubSettings?

    /// The policy's conventional place in a repository.
    public static let defaultPath = ".sentinel/policy.yml"

    /// The policy without a file: observe only, no rules, the built-in protected paths,
    /// confidence 0.95, risk 0.33 (`low`), 10 changes a day.
    public static let `default` = Policy(
        file: nil, sha256: nil, level: .observer, rules: [], protected: builtInProtected, minConfidence: 0.95,
        maxRisk: RiskLevel.low.ceiling, repositoryDailyLimit: 10, classDailyLimits: [:], notifyFile: nil, webhook: nil,
        github: nil)

    /// A policy with every field given.
    public init(
        file: String?, sha256: String?, level: AutonomyLevel, rules: [PolicyRule], protected: [PathGlob],
        minConfidence: Double, maxRisk: Double, repositoryDailyLimit: Int, classDailyLimits: [ActionClass: Int],
        notifyFile: String?, webhook: String?, github: GitHubSettings?
    ) {
        self.file = file
        self.sha256 = sha256
        self.level = level
        self.rules = rules
        self.protected = protected
        self.minConfidence = minConfidence
        self.maxRisk = maxRisk
        self.repositoryDailyLimit = repositoryDailyLimit
        self.classDailyLimits = classDailyLimits
        self.notifyFile = notifyFile
        self.webhook = webhook
        self.github = github
    }

    /// Reads and validates the policy file at `path`: at most `PolicyParser.maxBytes`, a
    /// regular file, not a symbolic link (the repository is hostile input). A missing file is
    /// `SentinelError(.invalidInput, "<path>: not found")`; callers that want the default for a
    /// missing file check first.
    public static func load(path: String) throws -> Policy {
        try PolicyParser.load(path: path)
    }

    /// The policy of `repository` (`REPO/.sentinel/policy.yml`), or the default when it has none.
    /// It is the repository's, so hostile: it may tighten what Sentinel does but never name a
    /// file, a host or a credential (`notify`, `github.repository`, `github.api`,
    /// `github.tokenEnv`); those are refused, naming the key, and come from the operator's policy.
    public static func load(repository: String) throws -> Policy {
        let path = (repository as NSString).appendingPathComponent(defaultPath)
        var info = stat()
        return lstat(path, &info) == 0 ? try PolicyParser.load(path: path, origin: .repository) : .default
    }

    /// Parses and validates policy `text`; `file` names it in errors
    /// (`FILE:LINE: KEY: problem`) and in `Policy.file`.
    public static func parse(_ text: String, file: String) throws -> Policy {
        try PolicyParser.parse(Array(text.utf8), file: file)
    }
}
